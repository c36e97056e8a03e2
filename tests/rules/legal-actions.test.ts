/**
 * legalActions: what the declaration dialog offers, asked of the engine. Each
 * kind is tried against the procedure's own declaration checks in this moment
 * of the combat (declarationProblem, as the flow's declare input), or the
 * release checks mid-round; nothing is changed.
 */
import { describe, expect, it } from 'vitest';
import { applyInput } from '../../src/rules/flow';
import { legalActions, legalActionsBefore, legalKinds, type ActionChoice } from '../../src/rules/flow/legal';
import { getProcedure } from '../../src/rules/registry';
import { resolveOptions } from '../../src/rules/procedure';
import type { Combatant, ProcedureId } from '../../src/rules/model';
import { d, encounter, give, init, melee, start, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10 });
const people = () => encounter(pc('fighter', { weapon: { name: 'Sword', speed: 5, length: 3.5 }, spells: [], chargeMovement: 120 }), pc('mage', { spells: ['Sleep'] }), foe('orc'), foe('gob'));
const rolls = [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4), init('party', 2, 5), init('foes', 2, 4)];
const begun = (p: ProcedureId) => start(p, people(), rolls);
const problemOf = (choices: ActionChoice[], action: string) => choices.find((c) => c.action === action)?.problem?.key;

describe('legalActions: only the actions legal under the combat\'s procedure', () => {
  it('segment-d6 (seed 000): "hold" (wait) and a set weapon are actions; full defense is not in its action list', () => {
    const { state } = begun('segment-d6');
    const kinds = legalKinds(legalActions(state, 'fighter'));
    expect(kinds).toContain('wait');
    expect(kinds).toContain('set-vs-charge');
    expect(kinds).not.toContain('full-defense');
    expect(problemOf(legalActions(state, 'fighter'), 'full-defense')).toBe('ActionNotInProcedure');
  });

  it('high-low (seed 001): a declared delay and a complex activity are declarations; wait is not', () => {
    const { state } = begun('high-low');
    const kinds = legalKinds(legalActions(state, 'fighter'));
    expect(kinds).toEqual(expect.arrayContaining(['delay', 'complex', 'melee', 'charge']));
    expect(kinds).not.toContain('wait');
  });

  it('d12-ascending (seed 002): full defense is an action; consumables and throws are not in its list', () => {
    const { state } = begun('d12-ascending');
    const kinds = legalKinds(legalActions(state, 'fighter'));
    expect(kinds).toContain('full-defense');
    expect(kinds).not.toContain('consumable');
  });

  it('a spell only with a copy in memory: none known, or the last copy expended, is refused with the reason', () => {
    const { state } = begun('segment-d6');
    expect(problemOf(legalActions(state, 'fighter'), 'spell')).toBe('DeclarationNoSpell');
    expect(legalKinds(legalActions(state, 'mage'))).toContain('spell');
    state.states.mage.expended.push('Sleep');
    expect(problemOf(legalActions(state, 'mage'), 'spell')).toBe('SpellNotMemorized');
  });

  it('addict footnote 19: a charge needs the gap to close — refused without a distance, legal with the map\'s', () => {
    const { state } = begun('addict');
    expect(problemOf(legalActions(state, 'fighter'), 'charge')).toBe('AddictChargeNoDistance');
    expect(legalKinds(legalActions(state, 'fighter', { distance: 30 }))).toContain('charge');
  });

  it('addict phase 6: "Once an action is declared, it cannot be changed" — nothing is legal for that combatant any more, the others still declare', () => {
    const { state } = begun('addict');
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    const after = legalActions(state, 'fighter');
    expect(legalKinds(after)).toEqual([]);
    expect(after.filter((c) => c.action !== 'spell').every((c) => c.problem?.key === 'DeclarationFinal')).toBe(true);
    expect(legalKinds(legalActions(state, 'mage'))).toContain('spell');
  });

  it('in this moment: nothing is declared while the round is played, nor by one who cannot act', () => {
    const { state, dice } = begun('segment-d6');
    state.states.gob.hp = 0;
    state.states.gob.condition = 'dead';
    expect(problemOf(legalActions(state, 'gob'), 'melee')).toBe('ActRefusedDead');
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(legalKinds(legalActions(state, 'fighter'))).toEqual([]);
    expect(problemOf(legalActions(state, 'fighter'), 'melee')).toBe('NotDeclaring');
  });

  it('release (segment-d6, "waiting to act until these later segments"): only an attack, a missile, a spell or a device, once the hold has come', () => {
    // Party 2, foes 5: the foes act in segment 2, the party (holding) in 5.
    const { state, dice } = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 2), init('foes', 1, 5)]);
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    expect(problemOf(legalActions(state, 'fighter', { mode: 'release' }), 'melee')).toBe('MidRoundOutsideRound');
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    const early = legalActions(state, 'fighter', { mode: 'release' });
    expect(early.map((c) => c.action)).toEqual(['melee', 'missile', 'spell', 'device']);
    expect(legalKinds(early)).toEqual([]);
    expect(problemOf(early, 'melee')).toBe('ReleaseNotHeld');
    give(state, { t: 'next' });
    const now = legalKinds(legalActions(state, 'fighter', { mode: 'release' }));
    expect(now).toEqual(['melee', 'missile', 'device']); // no spell in the fighter's memory
    // Asking changed nothing: the release itself is still taken.
    expect(applyInput(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') }, dice).ok).toBe(true);
    expect(legalKinds(legalActions(state, 'fighter', { mode: 'release' }))).toEqual([]);
  });

  it('individual-speed (seed 003: "spell speed" is a declared action\'s modifier): a caster is offered casting (issue 28; the round\'s own offer tries the same probe)', () => {
    const procedure = getProcedure('individual-speed');
    const { options } = resolveOptions(procedure, {});
    expect(legalKinds(legalActionsBefore(procedure, pc('mage', { spells: ['Sleep'] }), options))).toContain('spell');
  });

  it('before the combat starts: the procedure\'s own checks (high-low\'s action list)', () => {
    const procedure = getProcedure('high-low');
    const { options } = resolveOptions(procedure, {});
    const kinds = legalKinds(legalActionsBefore(procedure, pc('fighter'), options));
    expect(kinds).toContain('delay');
    expect(kinds).not.toContain('wait');
  });
});
