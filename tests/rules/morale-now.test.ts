/**
 * Issue 28, deliver 3, "morale answers at once", in the engine: a morale check
 * the GM calls is made when it is called (rules revision 5) where the
 * procedure can make it then, its consequence applied at once (a failed check
 * routs), and the round's recap tells each check once, in the round and the
 * step it was made in. Before, a check called once a round was over waited
 * for the next round's end, and segment-d6 checked none.
 *
 * Seeds: 002 (d12-ascending) "Although no formal method is given herein for
 * checking morale the DM can still make such a check in any way he sees fit";
 * 004 (addict) phase 4 "a morale check should be made right off the bat";
 * 003 (individual-speed) Step 4 "at the end of each round, check to see if the
 * monsters need to roll for morale" (its calls still wait for the end of the
 * round); segment-d6 and high-low: no morale rule, RULING in
 * src/rules/morale-methods.ts (the GM's call by 2d6, at once).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Combatant } from '../../src/rules/model';
import { roundRecap, type RecapLine } from '../../src/rules/recap';
import { timeline } from '../../src/rules/timeline';
import type { FlowState } from '../../src/rules/flow';
import { ScriptedDice } from '../../src/rules/dice';
import { base, encounter, expectRefused, finishRound, give, init, melee, NO_DICE, start, surprise } from './flow-helpers';

const en = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;
const say = (lines: RecapLine[]) => lines.map((l) => en[l.key].replace(/{([^}]+)}/g, (_, k: string) => String(l.data[k])));
const recapOf = (state: FlowState) => say(roundRecap(timeline(state)));
const moraleLines = (state: FlowState) => recapOf(state).filter((l) => l.includes('morale'));

const hale: Combatant = { id: 'hale', name: 'Hale', side: 'party', hp: 12, kind: 'character' };
const orc = (id: string, morale?: number): Combatant => ({ id, name: id === 'orc1' ? 'Orc 1' : 'Orc 2', side: 'orcs', hp: 6, kind: 'monster', ...(morale !== undefined ? { morale } : {}) });
const morale = (combatant: string, result: number) => ({ purpose: 'morale' as const, combatant, result });

describe('morale answers at once (issue 28)', () => {
  it('d12-ascending: called once round 1 is over, it is checked then and told once, in round 1; round 2 does not tell it again', () => {
    const { state, dice } = start('d12-ascending', encounter(hale, orc('orc1', 8), orc('orc2', 8)), [surprise('party', 12), surprise('orcs', 12), init('party', 1, 3), init('orcs', 1, 5), init('party', 2, 3), init('orcs', 2, 5)]);
    give(state, { t: 'declare', d: melee('hale', 'orc1') });
    give(state, { t: 'begin', d: { orc1: melee('orc1', 'hale'), orc2: melee('orc2', 'hale') } }, dice);
    finishRound(state, dice);
    give(state, { t: 'morale', requests: [{ combatant: 'orc2', trigger: 'gm' }] }, new ScriptedDice([morale('orc2', 92)]));
    expect(state.states.orc2.routed).toBe(true);
    expect(moraleLines(state)).toEqual(["Orc 2's morale broke: rolled 92, needing 8 or less."]);
    give(state, { t: 'next' });
    give(state, { t: 'begin' }, dice);
    finishRound(state, dice);
    expect(moraleLines(state)).toEqual([]);
    expect(state.states.orc2.routed).toBe(true);
  });

  it('d12-ascending: two checks in one round, each told once, where it was made (the declarations, a step)', () => {
    const { state, dice } = start('d12-ascending', encounter(hale, orc('orc1', 8), orc('orc2', 8)), [surprise('party', 12), surprise('orcs', 12), init('party', 1, 3), init('orcs', 1, 5), morale('orc1', 5), morale('orc2', 30)]);
    give(state, { t: 'declare', d: melee('hale', 'orc1') });
    give(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm' }] }, dice);
    give(state, { t: 'begin', d: { orc1: melee('orc1', 'hale'), orc2: melee('orc2', 'hale') } }, dice);
    give(state, { t: 'morale', requests: [{ combatant: 'orc2', trigger: 'gm' }] }, dice);
    expect(timeline(state).combatants.filter((c) => c.side === 'orcs').map((c) => [c.id, c.morale, c.routed])).toEqual([['orc1', 'held', false], ['orc2', 'broke', true]]);
    finishRound(state, dice);
    expect(moraleLines(state)).toEqual(["Orc 1's morale held: rolled 5, needing 8 or less.", "Orc 2's morale broke: rolled 30, needing 8 or less."]);
  });

  it('segment-d6 (no morale rule; RULING 2d6 at or under the score, at once): the call routs at once, the recap tells it in its step', () => {
    const { state, dice } = start('segment-d6', encounter(hale, orc('orc1', 8), orc('orc2')), [surprise('party', 5), surprise('orcs', 5), init('party', 1, 5), init('orcs', 1, 2), morale('orc1', 11)]);
    give(state, { t: 'declare', d: melee('hale', 'orc1') });
    give(state, { t: 'begin', d: { orc1: melee('orc1', 'hale') } }, dice);
    give(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm' }] }, dice);
    expect(state.states.orc1.routed).toBe(true);
    finishRound(state, dice);
    expect(state.end?.some((e) => e.kind === 'morale')).toBe(false);
    expect(moraleLines(state)).toEqual(["Orc 1's morale broke: rolled 11, needing 8 or less."]);
    expect(recapOf(state)).toContain('Orcs, routed: Orc 1.');
  });

  it('high-low (001 names only "a bonus to morale checks"; the same RULING): the GM\'s method per call, at once; an unknown method refused', () => {
    const { state, dice } = start('high-low', encounter(hale, orc('orc1', 8), orc('orc2', 8)), [surprise('party', 5), surprise('orcs', 5), init('party', 1, 2), init('orcs', 1, 5), morale('orc1', 12)]);
    give(state, { t: 'declare', d: melee('hale', 'orc1') });
    give(state, { t: 'begin' }, dice);
    expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm', method: '3d6' }] }, 'MoraleMethodInvalid');
    give(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm', method: 'd20', score: 14 }, { combatant: 'orc2', trigger: 'gm', method: 'gm', passed: false }] }, dice);
    expect(state.morale?.map((m) => [m.combatant, m.method, m.roll, m.target, m.passed])).toEqual([['orc1', 'd20', 12, 14, true], ['orc2', 'gm', 0, 0, false]]);
    expect([state.states.orc1.routed, state.states.orc2.routed]).toEqual([undefined, true]);
    finishRound(state, dice);
    expect(moraleLines(state)).toEqual(["Orc 1's morale held: rolled 12, needing 14 or less.", "Orc 2's morale broke, as the GM rules."]);
  });

  it('addict phase 4 ("a morale check should be made right off the bat"): from revision 5 each call before round 1 is checked and added to the opening; before, only the first', () => {
    const rolls = () => [surprise('party', 5), surprise('orcs', 5), morale('orc1', 11), morale('orc2', 3)];
    const { state, dice } = start('addict', encounter(hale, orc('orc1', 8), orc('orc2', 8)), rolls(), { moraleDie: '2d6' });
    give(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm' }] }, dice);
    give(state, { t: 'morale', requests: [{ combatant: 'orc2', trigger: 'gm' }] }, dice);
    expect(state.opening?.map((e) => e.kind === 'morale' && [e.combatant, e.roll, e.passed])).toEqual([['orc1', 11, false], ['orc2', 3, true]]);
    expect([state.states.orc1.routed, state.states.orc2.routed]).toEqual([true, undefined]);
    // A combat started under revision 4 keeps its rule: the opening is one call; a second waits for the end of round 1.
    const old = start('addict', encounter(hale, orc('orc1', 8), orc('orc2', 8)), rolls(), { moraleDie: '2d6' });
    old.state.rules = 4;
    give(old.state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm' }] }, old.dice);
    give(old.state, { t: 'morale', requests: [{ combatant: 'orc2', trigger: 'gm' }] }, old.dice);
    expect(old.state.opening).toHaveLength(1);
    expect(old.state.moraleRequests.map((r) => r.combatant)).toEqual(['orc2']);
  });

  it('d12-ascending (002, "Effects of Failed Morale": "Surrender: You don\'t even see the point in running"): a call that asks for surrender surrenders on a failure, acts no more and is struck by nobody; elsewhere, or before revision 5, refused in words', () => {
    const { state, dice } = start('d12-ascending', encounter(hale, orc('orc1', 8), orc('orc2', 8)), [surprise('party', 12), surprise('orcs', 12), init('party', 1, 3), init('orcs', 1, 5), morale('orc1', 92), morale('orc2', 5)]);
    give(state, { t: 'declare', d: melee('hale', 'orc1') });
    give(state, { t: 'begin', d: { orc1: melee('orc1', 'hale'), orc2: melee('orc2', 'hale') } }, dice);
    expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm', surrender: 'yes' }] }, 'MalformedRequest');
    give(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm', surrender: true }, { combatant: 'orc2', trigger: 'gm', surrender: true }] }, dice);
    expect([state.states.orc1.surrendered, state.states.orc1.routed]).toEqual([true, undefined]);
    expect(state.states.orc2.surrendered).toBeUndefined(); // it held
    const view = timeline(state);
    expect(view.combatants.find((c) => c.id === 'orc1')).toMatchObject({ surrendered: true, struck: 'surrendered', morale: 'broke' });
    expect(moraleLines(state)).toEqual(["Orc 1's morale broke: rolled 92, needing 8 or less; it surrenders.", "Orc 2's morale held: rolled 5, needing 8 or less."]);
    // Hale's blow at the surrendered orc is refused (acting.ts: fallen).
    expectRefused(state, { t: 'attack', c: 'hale', target: 'orc1' }, 'AttackTargetFallenSurrendered');
    // segment-d6: the text has no surrender; a combat of d12-ascending started under revision 4 neither.
    const d6 = start('segment-d6', encounter(hale, orc('orc1', 8)), [surprise('party', 5), surprise('orcs', 5), init('party', 1, 5), init('orcs', 1, 2)]);
    give(d6.state, { t: 'declare', d: melee('hale', 'orc1') });
    give(d6.state, { t: 'begin' }, d6.dice);
    expectRefused(d6.state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm', surrender: true }] }, 'MoraleSurrenderNotInRules');
    const old = start('d12-ascending', encounter(hale, orc('orc1', 8)), [surprise('party', 12), surprise('orcs', 12), init('party', 1, 3), init('orcs', 1, 5)]);
    old.state.rules = 4;
    give(old.state, { t: 'declare', d: melee('hale', 'orc1') });
    give(old.state, { t: 'begin' }, old.dice);
    expectRefused(old.state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm', surrender: true }] }, 'MoraleSurrenderNotInRules');
  });

  it('the dead check no morale: refused in words, nothing changed', () => {
    const { state, dice } = start('segment-d6', encounter(hale, orc('orc1', 8)), [surprise('party', 5), surprise('orcs', 5), init('party', 1, 5), init('orcs', 1, 2)]);
    give(state, { t: 'declare', d: melee('hale', 'orc1') });
    give(state, { t: 'begin' }, dice);
    give(state, { t: 'hit', target: 'orc1', amount: 20, by: 'hale' });
    expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'gm' }] }, 'MoraleNotInFight');
  });

  it('individual-speed ("at the end of each round"): the call waits, shown to the GM as called; the end of the round checks it, told once', () => {
    const ogre: Combatant = { id: 'orc1', name: 'Orc 1', side: 'orcs', hp: 6, kind: 'monster' };
    const { state, dice } = start('individual-speed', encounter({ ...hale, woundPoints: 10 } as Combatant, ogre), [base('hale', 5), base('orc1', 6)], { automaticMorale: false });
    give(state, { t: 'declare', d: melee('hale', 'orc1') });
    give(state, { t: 'begin', d: { orc1: melee('orc1', 'hale') } }, dice);
    give(state, { t: 'morale', requests: [{ combatant: 'orc1', trigger: 'intimidation', opposed: 15 }] }, NO_DICE);
    expect(state.morale).toBeUndefined();
    expect(timeline(state).combatants.find((c) => c.id === 'orc1')?.morale).toBe('called');
    expect(timeline(state, { gm: false, sides: ['party'] }).combatants.find((c) => c.id === 'orc1')?.morale).toBeUndefined();
    finishRound(state, new ScriptedDice([{ purpose: 'morale', combatant: 'orc1', result: 4 }]));
    expect(moraleLines(state)).toHaveLength(1);
    expect(moraleLines(state)[0]).toMatch(/^Orc 1's morale broke: rolled \d+, needing 15 or more\.$/);
  });
});
