/**
 * Mid-round actions in the scenario file: `delays`, `releases`, `breaks` and
 * `attacks` (README, "The scenario file"), each at a moment of its round,
 * validated with errors naming their field, played by the runner through the
 * flow, printed on the timeline; out-of-turn attacks under each procedure that
 * grants one, with the seed passage that grants it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { simulate } from '../../src/sim/cli';
import { validateScenario } from '../../src/sim/scenario';
import { playScenario } from './play-scenario';

const ROOT = resolve(__dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'tenseg-midround-'));
let n = 0;

/** Run a scenario (as parsed YAML) through the CLI in-process: its text lines, or its problems. */
function sim(raw: Record<string, unknown>, json = false) {
  const name = `s${++n}.yaml`;
  writeFileSync(join(tmp, name), stringify(raw));
  return simulate([name, '--seed', '3', ...(json ? ['--json'] : [])], PROCEDURES, { cwd: tmp, root: ROOT });
}

const play = (raw: Record<string, unknown>) => playScenario(raw, 3);

const sides = [
  { id: 'party', name: 'Party' },
  { id: 'foes', name: 'Foes' },
];
const noSurprise = (procedure: string) =>
  procedure === 'individual-speed' ? [] : [{ purpose: 'surprise', side: 'party', result: procedure === 'd12-ascending' ? 12 : 5 }, { purpose: 'surprise', side: 'foes', result: procedure === 'd12-ascending' ? 12 : 5 }];

describe('validation: every mid-round entry names its field', () => {
  const base = (extra: Record<string, unknown>) => ({
    procedure: 'segment-d6',
    sides,
    combatants: [
      { id: 'hero', side: 'party', hp: 8 },
      { id: 'orc', side: 'foes', hp: 6 },
    ],
    ...extra,
  });

  it('a moment is exactly one of step, segment, count, phase (a phase of the procedure)', () => {
    const v = validateScenario(
      base({
        attacks: [
          { round: 1, attacker: 'hero', target: 'orc' },
          { round: 1, attacker: 'hero', target: 'orc', step: 1, segment: 4 },
          { round: 1, attacker: 'hero', target: 'orc', phase: 'high' },
          { round: 1, attacker: 'heroo', target: 'orc', step: 0 },
        ],
      }),
      PROCEDURES,
    );
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.problems.map((p) => [p.key, p.path])).toEqual([
      ['MidRoundNoMoment', 'attacks[0]'],
      ['MidRoundMomentConflict', 'attacks[1]'],
      ['UnknownValue', 'attacks[2].phase'],
      ['UnknownCombatantDidYouMean', 'attacks[3].attacker'],
    ]);
  });

  it('delays only where the procedure has them (high-low); releases only where actions are held (segment-d6, addict), as an attack, a missile or a spell', () => {
    const v = validateScenario(
      base({
        delays: [{ round: 1, combatant: 'hero', step: 0 }],
        releases: [
          { round: 1, combatant: 'hero', step: 1, as: { action: 'flee' } },
          { round: 1, combatant: 'hero', step: 1 },
          { round: 1, combatant: 'hero', step: 1, as: { action: 'spell', castingTime: 1 } },
        ],
        breaks: [{ round: 1, step: 1 }, { round: 1, step: 1, combatant: 'hero', why: 'bored' }],
      }),
      PROCEDURES,
    );
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.problems.map((p) => [p.key, p.path])).toEqual([
      ['DelaysNotInProcedure', 'delays'],
      ['ReleaseActionInvalid', 'releases[0].as.action'],
      ['FieldMissing', 'releases[1].as'],
      ['BreakNeedsOne', 'breaks[0]'],
      ['UnknownValue', 'breaks[1].why'],
      // segment-d6: "spell casters must state what spells (if any) they will be casting".
      ['SegmentD6SpellNotNamed', 'releases[2].as'],
    ]);
    const hl = validateScenario({ ...base({ releases: [{ round: 1, combatant: 'hero', step: 1, as: { action: 'melee' } }] }), procedure: 'high-low' }, PROCEDURES);
    expect(hl.ok ? [] : hl.problems.map((p) => [p.key, p.path])).toEqual([['ReleasesNotInProcedure', 'releases']]);
  });
});

describe('out-of-turn attacks, written in a scenario and played (attack, then its damage)', () => {
  it('high-low (seed 001): "Free Attack. [immediate] ... In many cases, a free attack will be granted ... (ex. Flee Melee)"', () => {
    const log = play({
      procedure: 'high-low',
      sides,
      combatants: [
        { id: 'hero', side: 'party', hp: 8 },
        { id: 'orc', side: 'foes', hp: 6 },
      ],
      declarations: { 1: { hero: { action: 'other' }, orc: { action: 'flee' } } },
      dice: [...noSurprise('high-low'), { purpose: 'initiative', side: 'party', result: 6 }, { purpose: 'initiative', side: 'foes', result: 2 }],
      attacks: [{ round: 1, attacker: 'hero', target: 'orc', phase: 'fast', damage: 4 }],
    });
    expect(log.notDone).toEqual([]);
    expect(log.state.attacks).toEqual([expect.objectContaining({ c: 'hero', target: 'orc', as: 'free-attack' })]);
    expect(log.rounds[0].steps[0].damage).toEqual([{ target: 'orc', amount: 4, wounds: 4, by: 'hero' }]);
  });

  it('segment-d6 (seed 000): "Some actions may allow the other side to \'interrupt\' with an action such as a fleeing attack"', () => {
    const log = play({
      procedure: 'segment-d6',
      sides,
      combatants: [
        { id: 'hero', side: 'party', hp: 8 },
        { id: 'orc', side: 'foes', hp: 6 },
      ],
      declarations: { 1: { hero: { action: 'melee', target: 'orc' }, orc: { action: 'flee' } } },
      // Party 5, foes 4: the hero acts in segment 4, the orc flees in 5.
      dice: [...noSurprise('segment-d6'), { purpose: 'initiative', side: 'party', result: 5 }, { purpose: 'initiative', side: 'foes', result: 4 }],
      attacks: [
        { round: 1, attacker: 'hero', target: 'orc', segment: 4, damage: 1 },
        { round: 1, attacker: 'hero', target: 'orc', segment: 5, damage: 2 },
        // Once per fleeing foe: a second is refused, and noted.
        { round: 1, attacker: 'hero', target: 'orc', step: 1, damage: 2 },
      ],
    });
    expect(log.state.attacks?.map((a) => a.as)).toEqual(['schedule', 'fleeing-attack']);
    expect(log.state.states.orc.hp).toBe(3);
    expect(log.notDone).toEqual([{ list: 'attacks', index: 2, round: 1, problem: { key: 'FleeingAttackTaken', data: { name: 'hero', target: 'orc' } } }]);
  });

  it('d12-ascending (seed 002) III.C: "Missile fire versus adjacent opponents attacking you with a melee weapon draws an Attack of Opportunity"', () => {
    const log = play({
      procedure: 'd12-ascending',
      options: { initiativeMode: 'group' },
      sides,
      combatants: [
        { id: 'archer', side: 'party', hp: 8, weapon: { name: 'Bow', missile: true } },
        { id: 'orc', side: 'foes', hp: 6 },
      ],
      declarations: { 1: { archer: { action: 'missile', target: 'orc' }, orc: { action: 'melee', target: 'archer' } } },
      dice: [...noSurprise('d12-ascending'), { purpose: 'initiative', side: 'party', result: 3 }, { purpose: 'initiative', side: 'foes', result: 8 }],
      attacks: [{ round: 1, attacker: 'orc', target: 'archer', count: 3, damage: 5 }],
    });
    expect(log.state.attacks).toEqual([expect.objectContaining({ c: 'orc', target: 'archer', as: 'opportunity', step: 0 })]);
    expect(log.state.states.archer.hp).toBe(3);
  });

  it('individual-speed (seed 003): "when using the Full-Defense action ... if they are attacked they may make a Reposte as a Reaction"', () => {
    const log = play({
      procedure: 'individual-speed',
      sides,
      combatants: [
        { id: 'guard', side: 'party', hp: 10, woundPoints: 10, strength: 10, stress: 0 },
        { id: 'ghoul', side: 'foes', hp: 10, woundPoints: 10, strength: 10, stress: 0 },
      ],
      declarations: { 1: { guard: { action: 'full-defense' }, ghoul: { action: 'melee', target: 'guard' } } },
      dice: [
        { purpose: 'initiative', combatant: 'guard', result: 2 },
        { purpose: 'initiative', combatant: 'ghoul', result: 6 },
      ],
      attacks: [
        { round: 1, attacker: 'ghoul', target: 'guard', count: 6, damage: 2 },
        { round: 1, attacker: 'guard', target: 'ghoul', count: 6, damage: 3 },
      ],
    });
    expect(log.notDone).toEqual([]);
    expect(log.state.attacks?.map((a) => [a.c, a.as])).toEqual([
      ['ghoul', 'schedule'],
      ['guard', 'riposte'],
    ]);
  });
});

describe('delays, releases and breaks played and printed', () => {
  it('high-low: a delay announced in HIGH and a casting broken by a failed save, on the timeline; what could not be done is a note naming the entry', () => {
    const raw = {
      procedure: 'high-low',
      sides,
      combatants: [
        { id: 'hero', name: 'Hero', side: 'party', hp: 8 },
        { id: 'mage', name: 'Mage', side: 'party', hp: 5, spells: ['Sleep'] },
        { id: 'orc', name: 'Orc', side: 'foes', hp: 6 },
      ],
      declarations: { 1: { hero: { action: 'melee', target: 'orc' }, mage: { action: 'spell', spell: 'Sleep', castingTime: 2 }, orc: { action: 'melee', target: 'hero' } } },
      dice: [...noSurprise('high-low'), { purpose: 'initiative', side: 'party', result: 6 }, { purpose: 'initiative', side: 'foes', result: 2 }],
      delays: [
        { round: 1, combatant: 'hero', phase: 'high' },
        { round: 1, combatant: 'orc', phase: 'spells' },
        { round: 1, combatant: 'orc', step: 40 },
      ],
      breaks: [{ round: 1, combatant: 'mage', phase: 'low', why: 'save' }],
    };
    const r = sim(raw);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Hero announces a delay: acts on LOW, losing ties, for the rest of the round.');
    expect(r.stdout).toContain("Mage's Sleep is broken (failed save): the spell is lost.");
    expect(r.stdout).toContain('Note: delays[1] (round 1) was not done: Orc can announce a delay only during group actions (HIGH or LOW).');
    expect(r.stdout).toContain('Note: delays[2] (round 1) was not done: its moment never came.');
    const json = JSON.parse(sim(raw, true).stdout);
    const steps = json.timeline[0].steps;
    expect(steps.find((s: { midRound?: unknown[] }) => s.midRound)?.midRound).toEqual([{ kind: 'delay', combatant: 'hero', text: expect.any(String) }]);
    expect(steps.flatMap((s: { interruptions: unknown[] }) => s.interruptions)).toEqual([expect.objectContaining({ caster: 'mage', broken: 'save', expended: true })]);
    expect(json.notes.map((x: { path?: string }) => x.path)).toEqual(expect.arrayContaining(['delays[1]', 'delays[2]']));
  });

  it('segment-d6: a held action released at a later segment as a missile, its damage landing with it ("by" counts the released attack)', () => {
    const log = play({
      procedure: 'segment-d6',
      sides,
      combatants: [
        { id: 'archer', side: 'party', hp: 8, weapon: { name: 'Bow', missile: true } },
        { id: 'orc', side: 'foes', hp: 6 },
      ],
      declarations: { 1: { archer: { action: 'wait' }, orc: { action: 'charge', target: 'archer' } } },
      dice: [...noSurprise('segment-d6'), { purpose: 'initiative', side: 'party', result: 5 }, { purpose: 'initiative', side: 'foes', result: 4 }],
      releases: [{ round: 1, combatant: 'archer', segment: 5, as: { action: 'missile', target: 'orc' } }],
      damage: [{ round: 1, by: 'archer', target: 'orc', amount: 4 }],
    });
    expect(log.notDone).toEqual([]);
    const five = log.rounds[0].steps.find((s) => s.segment === 5);
    expect(five?.entries.map((e) => [e.entry.combatant, e.entry.action, e.outcome])).toEqual([
      ['orc', 'charge', 'acts'],
      ['archer', 'missile', 'acts'],
    ]);
    expect(five?.damage).toEqual([{ target: 'orc', amount: 4, wounds: 4, by: 'archer' }]);
  });
});
