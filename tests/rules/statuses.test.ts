/**
 * Token statuses and who acts now (src/rules/statuses.ts), read from the
 * timeline view as the round is played through the one flow with scripted
 * dice: each icon comes and goes with the round.
 */
import { describe, expect, it } from 'vitest';
import type { Combatant } from '../../src/rules/model';
import type { FlowState } from '../../src/rules/flow';
import { timeline } from '../../src/rules/timeline';
import { actingNow, procedureBleeds, tokenStatuses } from '../../src/rules/statuses';
import { d, encounter, finishRound, give, init, melee, playTo, start, stepOf, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });

/** The statuses the GM's view gives, under the state's own procedure. */
const statuses = (state: FlowState) => tokenStatuses(timeline(state), procedureBleeds(state.procedure, state.options));

describe('token statuses follow the round', () => {
  it('surprised in the surprise segments, then gone; casting from its beginning until it goes off', () => {
    const mage: Combatant = { id: 'mage', name: 'Mage', side: 'party', hp: 6, spells: ['Sleep'] };
    const { state, dice } = start('segment-d6', encounter(mage, pc('fighter'), foe('orc')), [surprise('party', 5), surprise('foes', 2), init('party', 1, 5), init('foes', 1, 4)]);
    expect(statuses(state)).toEqual({ orc: ['surprised'] });
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3, target: 'orc' }) });
    give(state, { t: 'begin' }, dice);
    expect(state.round).toBe(0);
    const begins = stepOf(state, 'mage', { kind: 'cast-begin' });
    playTo(state, begins);
    expect(statuses(state)).toEqual({ mage: ['casting'], orc: ['surprised'] });
    expect(actingNow(timeline(state)).map((e) => [e.combatant, e.outcome])).toEqual([['mage', 'begins']]);
    finishRound(state, dice);
    give(state, { t: 'next' });
    // Round 1: the surprise is over; the casting (carried in) runs on.
    expect(statuses(state)).toEqual({ mage: ['casting'] });
    give(state, { t: 'begin' }, dice);
    const off = stepOf(state, 'mage', { kind: 'cast-complete' });
    playTo(state, off);
    expect(actingNow(timeline(state)).find((e) => e.combatant === 'mage')?.outcome).toBe('goes-off');
    expect(statuses(state).mage).toBeUndefined();
  });

  it('casting ends when it is interrupted', () => {
    const mage: Combatant = { id: 'mage', name: 'Mage', side: 'party', hp: 6, spells: ['Sleep'] };
    const { state, dice } = start('segment-d6', encounter(mage, foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 9, target: 'orc' }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage') } }, dice);
    playTo(state, stepOf(state, 'mage', { kind: 'cast-begin' }));
    expect(statuses(state).mage).toEqual(['casting']);
    playTo(state, stepOf(state, 'orc'));
    give(state, { t: 'hit', target: 'mage', amount: 1, by: 'orc' });
    expect(statuses(state).mage).toBeUndefined();
  });

  it('delayed after a delay (high-low), for the rest of the round', () => {
    const { state, dice } = start('high-low', encounter(pc('hero'), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]);
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'hero') } }, dice);
    expect(statuses(state)).toEqual({});
    give(state, { t: 'delay', c: 'hero' });
    expect(statuses(state)).toEqual({ hero: ['delayed'] });
    finishRound(state);
    expect(statuses(state)).toEqual({});
  });

  it('holding once its held action has come, until released (segment-d6)', () => {
    const { state, dice } = start('segment-d6', encounter(pc('fighter'), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(statuses(state)).toEqual({ fighter: ['holding'] });
    expect(actingNow(timeline(state)).map((e) => e.combatant)).toEqual(['fighter']);
    give(state, { t: 'next' });
    expect(statuses(state)).toEqual({ fighter: ['holding'] });
    give(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') });
    expect(statuses(state)).toEqual({});
  });

  it('bleeding at the end of a round (addict: below 0 hp), not once staunched; nothing for the dead', () => {
    const { state, dice } = start('addict', encounter(pc('hero'), foe('orc'), foe('gob')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)]);
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'hero'), gob: melee('gob', 'hero') } }, dice);
    playTo(state, stepOf(state, 'hero'));
    give(state, { t: 'hit', target: 'orc', amount: 10, by: 'hero' }); // 0 hp: down, not bleeding
    expect(statuses(state)).toEqual({});
    give(state, { t: 'hit', target: 'orc', amount: 3 }); // -3: it bleeds
    give(state, { t: 'hit', target: 'gob', amount: 30 }); // dead
    expect(statuses(state)).toEqual({ orc: ['bleeding'] });
    finishRound(state, dice);
    expect(statuses(state)).toEqual({ orc: ['bleeding'] });
    give(state, { t: 'staunch', c: 'orc' });
    expect(statuses(state)).toEqual({});
  });

  it('whoever bled at the end of the round shows it there; where nobody bleeds by the options, the dying do not', () => {
    const view = timeline(start('high-low', encounter(pc('hero'), foe('orc')), [surprise('party', 5), surprise('foes', 5)]).state);
    expect(procedureBleeds('high-low', {})).toBeNull();
    expect(procedureBleeds('high-low', { bleedPerRound: 1 })).toEqual({ below: Infinity });
    expect(procedureBleeds('d12-ascending', { bleedPerRound: 1 })).toBeNull();
    expect(procedureBleeds('d12-ascending', { bleedPerRound: 1, deathAt: -10 })).toEqual({ below: Infinity });
    expect(procedureBleeds('individual-speed', {})).toEqual({ below: Infinity });
    const dying = { ...view, combatants: view.combatants.map((c) => (c.id === 'orc' ? { ...c, condition: 'dying' as const } : c)) };
    expect(tokenStatuses(dying, null)).toEqual({});
    expect(tokenStatuses(dying, { below: Infinity })).toEqual({ orc: ['bleeding'] });
    expect(tokenStatuses({ ...view, end: [{ kind: 'bleed', combatant: 'hero', amount: 1 }] }, null)).toEqual({ hero: ['bleeding'] });
  });

  it('routed after a failed morale check', () => {
    const hale: Combatant = { id: 'hale', name: 'Hale', side: 'party', hp: 12, kind: 'character' };
    const orc: Combatant = { id: 'orc', name: 'Orc', side: 'orcs', hp: 10, kind: 'monster', morale: 40 };
    const { state, dice } = start('d12-ascending', encounter(hale, orc), [surprise('party', 12), surprise('orcs', 12), init('party', 1, 3), init('orcs', 1, 5), { purpose: 'morale', combatant: 'orc', result: 77 }]);
    give(state, { t: 'declare', d: melee('hale', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'hale') } }, dice);
    // Checked at once (issue 28): routed as soon as it fails, and still at the end of the round.
    give(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'leader-died' }] }, dice);
    expect(statuses(state)).toEqual({ orc: ['routed'] });
    finishRound(state, dice);
    expect(statuses(state)).toEqual({ orc: ['routed'] });
  });

  it('a player\'s view leaves hidden combatants out', () => {
    const { state, dice } = start('high-low', encounter(pc('hero'), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 2), init('foes', 1, 6)]);
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'hero') } }, dice);
    give(state, { t: 'delay', c: 'orc' });
    expect(tokenStatuses(timeline(state), null)).toEqual({ orc: ['delayed'] });
    expect(tokenStatuses(timeline(state, { gm: false, sides: ['party'], hidden: ['orc'] }), null)).toEqual({});
    expect(actingNow({ ...timeline(state), current: null })).toEqual([]);
  });
});
