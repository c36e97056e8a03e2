/**
 * Odds (issue 14): trial results counted (tally.ts) and turned into the
 * figures a GM reads (report.ts). Known answers worked by hand: the spread
 * of rounds, chances, castings, first actions, surprise; tallies of any
 * split in any order add up to the tally of all (workers); trial i always
 * plays with the same dice (same seed, same numbers, whatever the split).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomDice, type Dice } from '../../src/rules/dice';
import { PROCEDURE_IDS, type ProcedureId } from '../../src/rules/model';
import type { Encounter } from '../../src/rules/procedure';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { distribution, oddsReport, procedureOdds, roundStats, SURPRISE_UNIT } from '../../src/rules/odds/report';
import { addTrial, castingKey, mergeTally, newTally, runTrials, splitCastingKey, trialSeed } from '../../src/rules/odds/tally';
import { CASTING_OUTCOMES, type OddsSetup, type Tally, type TrialResult } from '../../src/rules/odds/types';

/* ------------------------------------------------------------------ kit */

function trial(over: Partial<TrialResult> = {}): TrialResult {
  return { winner: 'pcs', undecided: false, rounds: 1, surprised: {}, first: 'pcs', firstAction: {}, sideFirstAction: {}, castings: [], ...over };
}

const encounter: Encounter = {
  sides: [
    { id: 'pcs', name: 'The party' },
    { id: 'empty', name: 'Nobody here' },
    { id: 'orcs', name: 'Orcs' },
  ],
  combatants: [
    { id: 'mu', name: 'Mordo', side: 'pcs', hp: 4 },
    { id: 'ftr', name: 'Brunhild', side: 'pcs', hp: 9 },
    { id: 'o1', name: 'Orc 1', side: 'orcs', hp: 5 },
    { id: 'o2', name: 'Orc 2', side: 'orcs', hp: 5 },
  ],
};

function setup(procedure: ProcedureId, over: Partial<OddsSetup> = {}): OddsSetup {
  return {
    procedure,
    options: {},
    encounter,
    declarations: [
      {
        mu: { combatant: 'mu', action: 'spell', spell: 'Sleep', castingTime: 1 },
        ftr: { combatant: 'ftr', action: 'melee', target: 'o1' },
        o1: { combatant: 'o1', action: 'melee', target: 'ftr' },
        o2: { combatant: 'o2', action: 'melee', target: 'mu' },
      },
      {
        mu: { combatant: 'mu', action: 'spell', spell: 'Magic Missile', castingTime: 1 },
        ftr: { combatant: 'ftr', action: 'melee', target: 'o1' },
      },
    ],
    fighters: {},
    spells: {},
    maxRounds: 10,
    ...over,
  };
}

function tallyOf(procedure: ProcedureId, results: TrialResult[]): Tally {
  const t = newTally(procedure);
  for (const r of results) addTrial(t, r);
  return t;
}

const meta = { seed: 7, trials: 3, maxRounds: 10, complete: true };

/* --------------------------------------------------------------- tally */

describe('tally: trial results counted in whole numbers', () => {
  it('counts wins, undecided, none standing, rounds, first, first actions, castings and surprise', () => {
    const t = tallyOf('segment-d6', [
      trial({ rounds: 2, surprised: { pcs: 0, orcs: 3 }, firstAction: { mu: 1, o1: 4 }, sideFirstAction: { pcs: 1, orcs: 4 }, castings: [{ caster: 'mu', spell: 'Sleep', outcome: 'off' }] }),
      trial({ winner: null, undecided: true, rounds: 10, first: '', castings: [{ caster: 'mu', spell: 'Sleep', outcome: 'interrupted' }] }),
      trial({ winner: null, rounds: 3, first: null, castings: [{ caster: 'mu', spell: 'Sleep', outcome: 'not-cast' }] }),
    ]);
    expect(t.trials).toBe(3);
    expect(t.wins).toEqual({ pcs: 1 });
    expect(t.undecided).toBe(1);
    expect(t.noneStanding).toBe(1);
    expect(t.rounds).toEqual([0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(t.first).toEqual({ pcs: 1, '': 1, none: 1 });
    expect(t.firstAction).toEqual({ mu: { '1': 1 }, o1: { '4': 1 } });
    expect(t.sideFirstAction).toEqual({ pcs: { '1': 1 }, orcs: { '4': 1 } });
    expect(t.castings).toEqual({ [castingKey('mu', 'Sleep')]: { off: 1, interrupted: 1, prevented: 0, 'not-cast': 1 } });
    expect(t.surprised).toEqual({ pcs: { '0': 1 }, orcs: { '3': 1 } });
  });

  it('keeps a casting key readable: caster and spell, even with a colon or spaces in the spell', () => {
    expect(splitCastingKey(castingKey('mu', 'Bigby: Hand'))).toEqual({ caster: 'mu', spell: 'Bigby: Hand' });
    expect(splitCastingKey('mu')).toEqual({ caster: 'mu', spell: '' });
  });

  it('refuses to merge the tallies of two procedures', () => {
    expect(() => mergeTally(newTally('addict'), newTally('high-low'))).toThrow(/high-low/);
  });

  const arbTrial: fc.Arbitrary<TrialResult> = fc.record({
    winner: fc.constantFrom('a', 'b', null),
    undecided: fc.boolean(),
    rounds: fc.integer({ min: 1, max: 12 }),
    surprised: fc.dictionary(fc.constantFrom('a', 'b'), fc.integer({ min: 0, max: 6 })),
    first: fc.constantFrom('a', 'b', '', null),
    firstAction: fc.dictionary(fc.constantFrom('x', 'y', 'z'), fc.integer({ min: 1, max: 10 })),
    sideFirstAction: fc.dictionary(fc.constantFrom('a', 'b'), fc.integer({ min: 1, max: 10 })),
    castings: fc.array(fc.record({ caster: fc.constantFrom('x', 'y'), spell: fc.constantFrom('Sleep', 'Web'), outcome: fc.constantFrom(...CASTING_OUTCOMES) }), { maxLength: 3 }),
  });

  it('merges any split of the trials, in any order, to the tally of all', () => {
    fc.assert(
      fc.property(fc.array(arbTrial, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), fc.nat(), (trials, cuts, seed) => {
        const all = tallyOf('high-low', trials);
        const bounds = [...new Set([0, ...cuts.map((c) => c % (trials.length + 1)), trials.length])].sort((a, b) => a - b);
        const parts = bounds.slice(1).map((end, i) => tallyOf('high-low', trials.slice(bounds[i], end)));
        // Shuffle the parts deterministically by the generated seed.
        const order = parts.map((p, i) => ({ p, k: (i * 2654435761 + seed) % 97 })).sort((a, b) => a.k - b.k).map((e) => e.p);
        const merged = order.reduce((into, p) => mergeTally(into, p), newTally('high-low'));
        expect(merged).toEqual(all);
        for (const n of [merged.trials, ...merged.rounds, ...Object.values(merged.wins)]) expect(Number.isInteger(n)).toBe(true);
      }),
    );
  });

  it('merges a longer histogram of rounds into a shorter one and a shorter into a longer', () => {
    const short = tallyOf('addict', [trial({ rounds: 1 })]);
    const long = tallyOf('addict', [trial({ rounds: 5 })]);
    expect(mergeTally(structuredClone(short), long).rounds).toEqual([0, 1, 0, 0, 0, 1]);
    expect(mergeTally(structuredClone(long), short).rounds).toEqual([0, 1, 0, 0, 0, 1]);
  });
});

/* --------------------------------------------------------------- seeds */

describe('trialSeed: a mix of seed, procedure and trial', () => {
  it('is a uint32 and always the same for the same three', () => {
    const s = trialSeed(42, 'high-low', 17);
    expect(Number.isInteger(s) && s >= 0 && s < 2 ** 32).toBe(true);
    expect(trialSeed(42, 'high-low', 17)).toBe(s);
  });

  it('differs for every trial, procedure and nearby seed (no collision in 15,000)', () => {
    const seen = new Set<number>();
    for (const seed of [0, 1, 2]) for (const p of PROCEDURE_IDS) for (let i = 0; i < 1000; i++) seen.add(trialSeed(seed, p, i));
    expect(seen.size).toBe(15000);
  });

  it('uses the high bits of a large seed and the whole part of a fraction', () => {
    expect(trialSeed(2 ** 40, 'addict', 0)).not.toBe(trialSeed(0, 'addict', 0));
    expect(trialSeed(5.7, 'addict', 3)).toBe(trialSeed(5, 'addict', 3));
    expect(trialSeed(Number.NaN, 'addict', 3)).toBe(trialSeed(0, 'addict', 3));
  });

  it('flips about half the bits when one input bit flips (avalanche)', () => {
    let flipped = 0;
    let pairs = 0;
    for (let i = 0; i < 500; i++) {
      for (const bit of [0, 5, 11]) {
        const x = (trialSeed(9, 'segment-d6', i) ^ trialSeed(9, 'segment-d6', i ^ (1 << bit))) >>> 0;
        flipped += x.toString(2).split('1').length - 1;
        pairs += 1;
      }
    }
    const mean = flipped / pairs;
    expect(mean).toBeGreaterThan(15);
    expect(mean).toBeLessThan(17);
  });
});

describe('runTrials', () => {
  /** A play that records the first roll of its dice, so the dice a trial got can be checked. */
  function recorder(seen: number[]) {
    return (dice: Dice): TrialResult => {
      const roll = dice.roll({ purpose: 'other', count: 1, faces: 1_000_000 });
      seen.push(roll);
      return trial({ rounds: 1 + (roll % 10), winner: roll % 2 ? 'a' : 'b' });
    };
  }

  it('plays trials from..to-1, each with RandomDice(trialSeed(seed, procedure, i))', () => {
    const seen: number[] = [];
    const t = newTally('d12-ascending');
    expect(runTrials(recorder(seen), 'd12-ascending', 11, 3, 7, t)).toBe(4);
    const expected = [3, 4, 5, 6].map((i) => new RandomDice(trialSeed(11, 'd12-ascending', i)).roll({ purpose: 'other', count: 1, faces: 1_000_000 }));
    expect(seen).toEqual(expected);
    expect(t.trials).toBe(4);
  });

  it('gives the same tally whatever the split (same seed, same numbers)', () => {
    const whole = newTally('addict');
    runTrials(recorder([]), 'addict', 5, 0, 50, whole);
    const a = newTally('addict');
    const b = newTally('addict');
    runTrials(recorder([]), 'addict', 5, 20, 50, b);
    runTrials(recorder([]), 'addict', 5, 0, 20, a);
    expect(mergeTally(b, a)).toEqual(whole);
  });

  it('stops between trials when asked, and says how many it played', () => {
    const t = newTally('addict');
    let asked = 0;
    const played = runTrials(recorder([]), 'addict', 5, 0, 100, t, () => ++asked > 6);
    expect(played).toBe(6);
    expect(t.trials).toBe(6);
    expect(runTrials(recorder([]), 'addict', 5, 0, 100, newTally('addict'), () => true)).toBe(0);
  });
});

/* -------------------------------------------------------------- report */

describe('roundStats: the spread of rounds from the histogram', () => {
  it('3 trials of 1, 2 and 6 rounds: mean 3, sd √(14/3), median 2, p90 6', () => {
    const r = roundStats([0, 1, 1, 0, 0, 0, 1]);
    expect(r.mean).toBe(3);
    expect(r.sd).toBeCloseTo(Math.sqrt(14 / 3), 12);
    expect(r).toMatchObject({ min: 1, median: 2, p90: 6, max: 6 });
  });

  it('4 trials of 1..4 rounds: median the mean of the middle two (2.5), p90 by nearest rank (4), sd √1.25', () => {
    const r = roundStats([0, 1, 1, 1, 1]);
    expect(r).toMatchObject({ mean: 2.5, min: 1, median: 2.5, p90: 4, max: 4 });
    expect(r.sd).toBeCloseTo(Math.sqrt(1.25), 12);
  });

  it('10 trials of 1..10 rounds: p90 is 9 (9 of 10 at or below it)', () => {
    expect(roundStats([0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]).p90).toBe(9);
  });

  it('every trial the same length: no spread', () => {
    expect(roundStats([0, 0, 0, 7])).toEqual({ mean: 3, sd: 0, min: 3, median: 3, p90: 3, max: 3 });
  });

  it('no trials: zeros, never NaN', () => {
    expect(roundStats([0])).toEqual({ mean: 0, sd: 0, min: 0, median: 0, p90: 0, max: 0 });
  });
});

describe('distribution', () => {
  it('sorts by value, gives chances of all trials, the mean of those counted and the share never counted', () => {
    expect(distribution({ '10': 1, '2': 2, '3': 1 }, 5)).toEqual({
      dist: [
        { value: 2, chance: 0.4 },
        { value: 3, chance: 0.2 },
        { value: 10, chance: 0.2 },
      ],
      mean: 17 / 4,
      never: 0.2,
    });
  });

  it('nothing counted: mean null, never all', () => {
    expect(distribution(undefined, 4)).toEqual({ dist: [], mean: null, never: 1 });
    expect(distribution({}, 0)).toEqual({ dist: [], mean: null, never: 0 });
  });
});

describe('oddsReport', () => {
  const results = [
    trial({
      winner: 'pcs',
      rounds: 1,
      surprised: { pcs: 0, orcs: 2 },
      first: 'pcs',
      firstAction: { mu: 1, ftr: 3, o1: 5 },
      sideFirstAction: { pcs: 1, orcs: 5 },
      castings: [
        { caster: 'mu', spell: 'Sleep', outcome: 'off' },
        { caster: 'mu', spell: 'Magic Missile', outcome: 'not-cast' },
      ],
    }),
    trial({
      winner: 'orcs',
      rounds: 2,
      surprised: { pcs: 3, orcs: 0 },
      first: 'orcs',
      firstAction: { o1: 1, o2: 1, ftr: 4 },
      sideFirstAction: { orcs: 1, pcs: 4 },
      castings: [
        { caster: 'mu', spell: 'Sleep', outcome: 'interrupted' },
        { caster: 'mu', spell: 'Magic Missile', outcome: 'not-cast' },
      ],
    }),
    trial({
      winner: null,
      undecided: true,
      rounds: 6,
      surprised: { pcs: 0, orcs: 2 },
      first: '',
      firstAction: { mu: 2, o2: 2 },
      sideFirstAction: { pcs: 2, orcs: 2 },
      castings: [
        { caster: 'mu', spell: 'Sleep', outcome: 'prevented' },
        { caster: 'mu', spell: 'Magic Missile', outcome: 'off' },
      ],
    }),
  ];
  const report = oddsReport([setup('segment-d6', { title: 'Sleep vs orcs' })], [tallyOf('segment-d6', results)], meta, () => 'segment');
  const p = report.procedures[0];

  it('carries the run: title, seed, trials asked for, round cap, complete', () => {
    expect(report).toMatchObject({ title: 'Sleep vs orcs', seed: 7, trials: 3, maxRounds: 10, complete: true });
    expect(oddsReport([setup('addict')], [newTally('addict')], { ...meta, title: 'Given' }, () => 'order').title).toBe('Given');
    expect('title' in oddsReport([setup('addict')], [newTally('addict')], meta, () => 'order')).toBe(false);
  });

  it('gives the win chances per side in the encounter order, leaving out sides without members', () => {
    expect(p.sides.map((s) => [s.id, s.name, s.win])).toEqual([
      ['pcs', 'The party', 1 / 3],
      ['orcs', 'Orcs', 1 / 3],
    ]);
    expect(p.undecided).toBe(1 / 3);
    expect(p.noneStanding).toBe(0);
    expect(p.rounds).toMatchObject({ mean: 3, min: 1, median: 2, p90: 6, max: 6 });
  });

  it('gives who acts first alone, and together (the tie key)', () => {
    expect(p.sides.map((s) => s.first)).toEqual([1 / 3, 1 / 3]);
    expect(p.firstTogether).toBe(1 / 3);
  });

  it('gives each casting in declaration order with the caster by name', () => {
    expect(p.castings).toEqual([
      { caster: 'mu', name: 'Mordo', spell: 'Sleep', off: 1 / 3, interrupted: 1 / 3, prevented: 1 / 3, notCast: 0 },
      { caster: 'mu', name: 'Mordo', spell: 'Magic Missile', off: 1 / 3, interrupted: 0, prevented: 0, notCast: 2 / 3 },
    ]);
  });

  it('gives the first action per side and per combatant: distribution by value, mean of those acting, never', () => {
    expect(p.firstActionUnit).toBe('segment');
    expect(p.sides[0].firstAction).toEqual({
      dist: [
        { value: 1, chance: 1 / 3 },
        { value: 2, chance: 1 / 3 },
        { value: 4, chance: 1 / 3 },
      ],
      mean: 7 / 3,
      never: 0,
    });
    const mu = p.firstAction.find((f) => f.combatant === 'mu');
    expect(mu).toEqual({ combatant: 'mu', name: 'Mordo', side: 'pcs', dist: [{ value: 1, chance: 1 / 3 }, { value: 2, chance: 1 / 3 }], mean: 1.5, never: 1 / 3 });
    expect(p.firstAction.map((f) => f.combatant)).toEqual(['mu', 'ftr', 'o1', 'o2']);
  });

  it('gives surprise per side: how often at all and how much, in the procedure\'s unit', () => {
    expect(p.surpriseUnit).toBe('segments');
    expect(p.sides[0]).toMatchObject({ surprised: 1 / 3, surprise: [{ value: 3, chance: 1 / 3 }] });
    expect(p.sides[1]).toMatchObject({ surprised: 2 / 3, surprise: [{ value: 2, chance: 2 / 3 }] });
  });

  it('pairs each tally with its procedure\'s setup and asks the unit of each procedure', () => {
    const r = oddsReport(
      [setup('segment-d6'), setup('individual-speed')],
      [tallyOf('individual-speed', [trial({ winner: 'orcs' })]), tallyOf('segment-d6', [trial()])],
      meta,
      (id) => (id === 'individual-speed' ? 'count' : 'segment'),
    );
    expect(r.procedures.map((x) => [x.procedure, x.firstActionUnit, x.surpriseUnit, x.sides[1].win])).toEqual([
      ['individual-speed', 'count', 'round', 1],
      ['segment-d6', 'segment', 'segments', 0],
    ]);
  });

  it('counts a casting no declaration names (after the declared ones) and a caster it cannot name by id', () => {
    const t = tallyOf('high-low', [trial({ castings: [{ caster: 'ghost', spell: 'Web', outcome: 'off' }, { caster: 'mu', spell: 'Sleep', outcome: 'off' }] })]);
    expect(procedureOdds(setup('high-low'), t, 'order').castings.map((c) => [c.name, c.spell])).toEqual([
      ['Mordo', 'Sleep'],
      ['ghost', 'Web'],
    ]);
    // Without a setup: sorted by key (caster, then spell), the same for any split.
    expect(procedureOdds(undefined, t, 'order').castings.map((c) => c.spell)).toEqual(['Web', 'Sleep']);
  });

  it('no trials: every figure a number (no NaN)', () => {
    const r = oddsReport([setup('high-low')], [newTally('high-low')], { ...meta, complete: false }, () => 'order');
    expect(JSON.stringify(r)).not.toMatch(/NaN/);
    expect(r.procedures[0].sides[0]).toMatchObject({ win: 0, first: 0, surprised: 0, firstAction: { dist: [], mean: null, never: 0 } });
  });
});

describe('SURPRISE_UNIT', () => {
  const two: Encounter = {
    sides: [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ],
    combatants: [
      { id: 'x', name: 'X', side: 'a', hp: 5 },
      { id: 'y', name: 'Y', side: 'b', hp: 5 },
    ],
  };
  it.each(PROCEDURE_IDS as readonly ProcedureId[])('is what %s rolls its surprise in', (id) => {
    const procedure = PROCEDURES[id];
    expect(procedure.rollSurprise(two, new RandomDice(1), procedure.defaults).unit).toBe(SURPRISE_UNIT[id]);
  });
});
