/**
 * `npm run bench`: the engine's speed and the size of the shipped JavaScript.
 * Prints figures beside their targets; never asserts (timings vary by machine).
 *
 *  (a) Planning a round (rollInitiative + planRound) for N = 10 … 10,000
 *      combatants in three sides with mixed declarations, per procedure,
 *      beside a plain Array.prototype.sort of N numbers; the growth per ×10
 *      beside N log N's. Surprise (rollSurprise + planSurprise) is timed
 *      separately, once per N.
 *  (b) Simulated rounds per second, 10 vs 10, per procedure: rollInitiative +
 *      planRound + resolveRound + endOfRound.
 *  (c) dist/ten-segments.js, raw and gzip.
 *  (d) Foundry layer: database writes and tracker renders per transition (scripts/bench-foundry.ts).
 *
 * Every figure is the median of several timed samples after a warm-up long
 * enough for the JIT to optimize; a sample repeats its work until it lasts at
 * least MIN_SAMPLE_MS, so small N are not lost in the timer's resolution.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { RandomDice } from '../src/rules/dice';
import type { ActionKind, Combatant, CombatantState, Declaration, ProcedureId, Side } from '../src/rules/model';
import { PROCEDURE_IDS } from '../src/rules/model';
import type { Encounter, Procedure, ProcedureOptions, RoundInput } from '../src/rules/procedure';
import { initialStates } from '../src/rules/common';
import { resolveRound, type DamageEvent } from '../src/rules/resolve';
import { PROCEDURES } from '../src/rules/procedures/all';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = [10, 100, 1_000, 10_000];
const SAMPLES = 7;
/** Warm-up: at least this many calls and this long, so the JIT has optimized the code before timing. */
const WARMUP_CALLS = 3;
const WARMUP_MS = 300;
const MIN_SAMPLE_MS = 25;

const TARGET = {
  ratioAt1000: 3, // planning at N = 1,000 within 3× the sort
  roundsPerSecond: 50_000,
  gzipKB: 30,
};

/* ----------------------------------------------------------------- timing */

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median milliseconds per call of `work` (setup, if any, runs outside the timing). */
function measure(work: () => void): number {
  const start = performance.now();
  for (let i = 0; i < WARMUP_CALLS || performance.now() - start < WARMUP_MS; i++) work();
  // Calibrate: how many calls make one sample last MIN_SAMPLE_MS?
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) work();
    const dt = performance.now() - t0;
    if (dt >= MIN_SAMPLE_MS || reps >= 1 << 20) break;
    reps = Math.min(1 << 20, Math.max(reps * 2, Math.ceil((reps * MIN_SAMPLE_MS) / Math.max(dt, 0.01))));
  }
  const samples: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) work();
    samples.push((performance.now() - t0) / reps);
  }
  return median(samples);
}

/* ------------------------------------------------------------- encounters */

const SIDES: Side[] = [
  { id: 'party', name: 'Party' },
  { id: 'raiders', name: 'Raiders' },
  { id: 'beasts', name: 'Beasts' },
];

/** A deterministic mixed encounter of n combatants over the three sides. */
function encounterOf(n: number, sides = SIDES): Encounter {
  const combatants: Combatant[] = [];
  for (let i = 0; i < n; i++) {
    const side = sides[i % sides.length].id;
    const kind = i % 7;
    const c: Combatant = {
      id: `c${i}`,
      name: `C${i}`,
      side,
      kind: side === 'party' ? 'character' : 'monster',
      hp: 8 + (i % 13),
      maxHp: 8 + (i % 13),
      className: kind === 0 ? 'fighter' : kind === 3 ? 'magic-user' : undefined,
      level: 1 + (i % 14),
      hitDice: `${1 + (i % 5)}`,
      agilityModifier: (i % 5) - 2,
      initiativeAdjustment: (i % 3) - 1,
      surpriseAdjustment: i % 4 === 0 ? 1 : 0,
      missileBonus: i % 6 === 1 ? 1 : 0,
      routines: kind === 0 ? 2 : 1,
      movement: 120,
      stress: 4,
      woundPoints: 8 + (i % 5),
      maxWoundPoints: 8 + (i % 5),
      strength: 10,
      weapon: kind === 1 ? { name: 'bow', missile: true, rate: 2, speed: 7 } : { name: 'sword', speed: 3 + (i % 6), length: 3 },
    };
    if (side !== 'party' && i % 11 === 0) c.initiativeGroup = `pack${i % 4}`;
    combatants.push(c);
  }
  return { sides, combatants };
}

/** Mixed declarations: melee (some with two routines), missiles, spells; others where the procedure has them. */
function declarationsOf(encounter: Encounter, procedure: Procedure<ProcedureOptions>, options: ProcedureOptions): { decls: Record<string, Declaration>; refused: number } {
  const allowed = new Set<ActionKind>(procedure.actions);
  const extras: ActionKind[] = (['charge', 'full-defense', 'delay', 'complex', 'consumable', 'wait'] as ActionKind[]).filter((a) => allowed.has(a));
  const decls: Record<string, Declaration> = {};
  let refused = 0;
  const n = encounter.combatants.length;
  encounter.combatants.forEach((c, i) => {
    const foe = encounter.combatants[(i + 1 + (i % 5)) % n];
    const kind = i % 7;
    let d: Declaration;
    if (kind === 1) d = { combatant: c.id, action: 'missile', target: foe.id };
    else if (kind === 3) d = { combatant: c.id, action: 'spell', spell: 'Bolt', castingTime: 1 + (i % 4), speed: 1 + (i % 4), target: foe.id };
    else if (kind === 5 && extras.length > 0) d = { combatant: c.id, action: extras[i % extras.length], target: foe.id, distance: 20 };
    else d = { combatant: c.id, action: 'melee', target: foe.id };
    if (procedure.validateDeclaration(d, c, options) !== null) {
      refused++;
      d = { combatant: c.id, action: 'melee', target: foe.id };
    }
    decls[c.id] = d;
  });
  return { decls, refused };
}

function roundInput(procedure: Procedure<ProcedureOptions>, encounter: Encounter, decls: Record<string, Declaration>, options: ProcedureOptions, seed: number): RoundInput {
  const dice = new RandomDice(seed);
  return {
    round: 1,
    declarations: decls,
    states: initialStates(encounter),
    surprise: null,
    baseInitiative: procedure.rollCombatInitiative(encounter, encounter.combatants, dice, options),
    carryIn: [],
    owed: {},
  };
}

/* ----------------------------------------------------------------- output */

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms >= 0.01 ? ms.toFixed(3) : ms.toExponential(2));
const pad = (s: string | number, w: number) => String(s).padStart(w);
const padR = (s: string | number, w: number) => String(s).padEnd(w);
const nlogn = (n: number) => n * Math.log2(n);

function line(cells: [string | number, number][]): string {
  return cells.map(([s, w]) => (w < 0 ? padR(s, -w) : pad(s, w))).join('  ');
}

/* ----------------------------------------------------------- (a) planning */

function benchPlanning(): void {
  console.log('(a) Planning one round: rollInitiative + planRound, three sides, mixed declarations');
  console.log(`    targets: at N = 1,000 within ${TARGET.ratioAt1000}× a plain sort of N numbers; growth per ×10 no worse than N log N's`);
  console.log('');

  // The baseline: Array.prototype.sort of N numbers (copied fresh each call; the copy is timed too).
  const sortMs = new Map<number, number>();
  for (const n of SIZES) {
    const rnd = new RandomDice(n);
    const numbers = Array.from({ length: n }, () => rnd.roll({ purpose: 'other', count: 1, faces: 1_000_000 }) + 0.5);
    sortMs.set(n, measure(() => numbers.slice().sort((a, b) => a - b)));
  }

  const header = line([
    ['procedure', -17],
    ['N', 6],
    ['plan ms', 9],
    ['sort ms', 9],
    ['× sort', 7],
    ['growth', 7],
    ['N log N', 8],
    ['surprise ms', 12],
  ]);
  console.log('    ' + header);
  for (const id of PROCEDURE_IDS as readonly ProcedureId[]) {
    const procedure = PROCEDURES[id];
    const options = { ...procedure.defaults };
    let previous: number | undefined;
    for (const n of SIZES) {
      const encounter = encounterOf(n);
      const { decls, refused } = declarationsOf(encounter, procedure, options);
      const input = roundInput(procedure, encounter, decls, options, 7);
      let seed = 1;
      const plan = measure(() => {
        const dice = new RandomDice(seed++);
        const initiative = procedure.rollInitiative(encounter, input, dice, options);
        procedure.planRound(encounter, input, initiative, options);
      });
      // Surprise, once per N, separately: roll + plan (with everyone's declarations).
      let sseed = 1;
      const surprise = measure(() => {
        const dice = new RandomDice(sseed++);
        const s = procedure.rollSurprise(encounter, dice, options);
        procedure.planSurprise(encounter, s, decls, options);
      });
      const sort = sortMs.get(n) as number;
      const growth = previous === undefined ? '' : (plan / previous).toFixed(1);
      const bound = previous === undefined ? '' : (nlogn(n) / nlogn(n / 10)).toFixed(1);
      console.log(
        '    ' +
          line([
            [id, -17],
            [n, 6],
            [fmt(plan), 9],
            [fmt(sort), 9],
            [(plan / sort).toFixed(1), 7],
            [growth, 7],
            [bound, 8],
            [fmt(surprise), 12],
          ]) +
          (refused > 0 ? `  (${refused} declarations refused, planned as melee)` : '') +
          (n === 1000 ? (plan / sort <= TARGET.ratioAt1000 ? '  ✓ within target' : '  ✗ over target') : ''),
      );
      previous = plan;
    }
  }
  console.log('');
  console.log('    growth = plan(N) / plan(N/10); N log N = the same ratio for N·log N (10.0 would be linear).');
  console.log('');
}

/* ---------------------------------------------------- (b) rounds per second */

function benchRounds(): void {
  console.log('(b) Simulated rounds per second, 10 vs 10: rollInitiative + planRound + resolveRound + endOfRound');
  console.log(`    target: ≥ ${TARGET.roundsPerSecond.toLocaleString('en')} rounds/s`);
  for (const id of PROCEDURE_IDS as readonly ProcedureId[]) {
    const procedure = PROCEDURES[id];
    const options = { ...procedure.defaults };
    const encounter = encounterOf(20, SIDES.slice(0, 2));
    const { decls } = declarationsOf(encounter, procedure, options);
    const fresh = initialStates(encounter);
    const dice = new RandomDice(99);
    const baseInitiative = procedure.rollCombatInitiative(encounter, encounter.combatants, dice, options);
    // Every attacker lands 1 damage with its first attack: the fight goes on, states change.
    const damageFor = (round: number): DamageEvent[] =>
      encounter.combatants.filter((_, i) => i % 2 === 0).map((c) => ({ round, by: c.id, target: decls[c.id].target ?? c.id, amount: 1 }));
    const damage = Array.from({ length: 6 }, (_, r) => damageFor(r + 1));
    let states: Record<string, CombatantState> = fresh;
    let round = 0;
    const one = () => {
      round = (round % 6) + 1;
      if (round === 1) states = fresh; // a new fight every six rounds
      const input: RoundInput = { round, declarations: decls, states, surprise: null, baseInitiative, carryIn: [], owed: {} };
      const initiative = procedure.rollInitiative(encounter, input, dice, options);
      const schedule = procedure.planRound(encounter, input, initiative, options);
      const log = resolveRound(procedure, encounter, schedule, states, damage[round - 1], options);
      const hits = log.steps.flatMap((s) => s.damage.map((d) => ({ target: d.target, wounds: d.wounds, by: d.by })));
      const end = procedure.endOfRound(encounter, { round, before: states, after: log.states, hits }, dice, options);
      states = end.states;
    };
    const ms = measure(one);
    const perSecond = 1000 / ms;
    const mark = perSecond >= TARGET.roundsPerSecond ? '✓' : '✗';
    console.log(`    ${padR(id, 17)} ${pad(Math.round(perSecond).toLocaleString('en'), 10)} rounds/s  (${fmt(ms * 1000)} µs a round)  ${mark}`);
  }
  console.log('');
}

/* ----------------------------------------------------------- (c) JS size */

function benchSize(): void {
  console.log('(c) Shipped JavaScript: dist/ten-segments.js');
  console.log(`    target: ≤ ${TARGET.gzipKB} KB gzip`);
  const file = join(ROOT, 'dist', 'ten-segments.js');
  if (!existsSync(file)) {
    console.log('    dist/ten-segments.js is missing: run `npm run build` first, then `npm run bench` again.');
    console.log('');
    return;
  }
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 });
  const kb = (b: number) => (b / 1024).toFixed(1);
  const mark = gz.length / 1024 <= TARGET.gzipKB ? '✓' : '✗';
  console.log(`    raw ${kb(raw.length)} KB, gzip ${kb(gz.length)} KB  ${mark}`);
  console.log('');
}

/* ------------------------------------------------- (d) the Foundry layer */

console.log(`Ten Segments benchmark — node ${process.version}; each figure the median of ${SAMPLES} samples after a ${WARMUP_MS} ms warm-up`);
console.log('');
benchPlanning();
benchRounds();
benchSize();
// (d) document writes and tracker renders per transition, against the Foundry stand-in.
// Loaded last: it installs the stand-in's globals.
const { benchFoundry } = await import('./bench-foundry');
await benchFoundry();
