/**
 * The engine's parts loaded on demand (src/rules/parts.ts): the `moved`
 * input's checks and a charge's progress stay out of start-up; until a part
 * is in memory the engine refuses a move in words (nothing changes) and the
 * timeline shows no charge progress; once loaded, both work.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadParts, part, partsFor, usePart } from '../../src/rules/parts';
import * as movedModule from '../../src/rules/flow/moved';
import * as chargesModule from '../../src/rules/charges';
import { timeline } from '../../src/rules/timeline';
import { d, encounter, expectRefused, give, init, melee, start, surprise } from './flow-helpers';
import type { Combatant } from '../../src/rules/model';

const pc = (id: string): Combatant => ({ id, name: id, side: 'party', hp: 10, movement: 120 });
const foe = (id: string): Combatant => ({ id, name: id, side: 'foes', hp: 10, movement: 120 });

afterEach(() => {
  usePart('moved', movedModule);
  usePart('charges', chargesModule);
});

function charging() {
  const { state, dice } = start('addict', encounter(pc('knight'), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 1), init('foes', 1, 6)]);
  give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance: 60 }) });
  give(state, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
  return state;
}

describe('engine parts loaded on demand', () => {
  it('a log holding a move needs the `moved` part, a charge declared the `charges` part, only while they are not in memory', () => {
    const state = charging();
    expect(partsFor(['start', 'declare', 'moved'], state)).toEqual([]);
    usePart('moved', undefined);
    usePart('charges', undefined);
    expect(partsFor(['start', 'declare'], null)).toEqual([]);
    expect(partsFor(['start', 'moved', 'moved'], state)).toEqual(['moved', 'charges']);
  });

  it('without the `moved` part a move is refused in words and nothing is recorded; loaded, it is recorded', async () => {
    const state = charging();
    usePart('moved', undefined);
    expectRefused(state, { t: 'moved', c: 'orc', feet: 5 }, 'EnginePartNotLoaded');
    expect(state.moves).toBeUndefined();
    await loadParts(['moved']);
    expect(part('moved')).toBeDefined();
    expect(give(state, { t: 'moved', c: 'orc', feet: 5 }).moved?.total).toBe(5);
  });

  it('without the `charges` part the timeline shows no charge progress; loaded, the charger closes (seed 004 footnote 19)', async () => {
    const state = charging();
    const shown = () => timeline(state).steps.flatMap((s) => s.charges ?? []);
    expect(shown().length).toBeGreaterThan(0);
    usePart('charges', undefined);
    expect(shown()).toEqual([]);
    await loadParts(['charges']);
    expect(shown().map((c) => c.combatant)).toContain('knight');
  });
});
