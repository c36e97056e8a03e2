/**
 * `npm run bench`: the engine's speed, what a client loads, the bytes each
 * transition broadcasts, and the runner's start-up. Prints figures beside
 * their targets; never asserts (timings vary by machine). With `--json`,
 * prints only one JSON document of every figure (scripts/bench-figures.ts).
 *
 *  (a) Planning a round (rollInitiative + planRound) for N = 10 … 10,000
 *      combatants in three sides with mixed declarations, per procedure,
 *      beside a plain Array.prototype.sort of N numbers; the growth per ×10
 *      beside N log N's. Surprise (rollSurprise + planSurprise) is timed
 *      separately, once per N.
 *  (b) Rounds per second through the one driver (src/rules/flow), 10 vs 10,
 *      per procedure: begin (initiative and plan), every step with hits,
 *      the end of the round, into the next round's declarations.
 *  (c) What a client loads at start-up (dist/: the entry, the chunks it
 *      imports, and one procedure's chunk), gzip, per procedure; needs
 *      `npm run build` first.
 *  (d) Foundry layer: database writes, tracker renders and bytes broadcast
 *      per transition (scripts/bench-foundry.ts).
 *  (e) The scenario runner's start-up: `node build/sim.mjs --help`.
 *  (f) The combat tracker's re-render after one step in the preview page in
 *      headless Chromium, 20 and 200 combatants (tests/browser/harness.ts).
 *  (g) Odds (issue 14): a 10 vs 10 scenario (melee, missiles, a caster a
 *      side), a 10-round cap: trials per second of src/rules/odds/trial.ts
 *      playTrial per procedure, in this process on one core; and the built
 *      runner (build/odds.mjs) playing 10,000 trials under all five
 *      procedures with 2 worker threads, start-up included (the issue's
 *      target: ≤ 10 s on 2 cores).
 *
 * Every figure is the median of several timed samples after a warm-up long
 * enough for the JIT to optimize; a sample repeats its work until it lasts at
 * least MIN_SAMPLE_MS, so small N are not lost in the timer's resolution.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { RandomDice } from '../src/rules/dice';
import type { ActionKind, Combatant, CombatantState, Declaration, ProcedureId, Side } from '../src/rules/model';
import { PROCEDURE_IDS } from '../src/rules/model';
import type { Encounter, Procedure, ProcedureOptions, RoundInput } from '../src/rules/procedure';
import { initialStates } from '../src/rules/round';
import { applyInput, startFlow, type FlowInput, type FlowState } from '../src/rules/flow';
import { PROCEDURES } from '../src/rules/procedures/all';
import { playTrial } from '../src/rules/odds/trial';
import { oddsSetup, validateScenario } from '../src/sim/scenario';
import { allFigures, figure, JSON_MODE, mark, say } from './bench-figures';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = [10, 100, 1_000, 10_000];
const SAMPLES = 7;
/** Warm-up: at least this many calls and this long, so the JIT has optimized the code before timing. */
const WARMUP_CALLS = 3;
const WARMUP_MS = 300;
const MIN_SAMPLE_MS = 25;

const TARGET = {
  ratioAt1000: 3, // planning at N = 1,000 within 3× the sort
  roundsPerSecond: 10_000, // the whole driver (checks, the undo record, end of round): a 10-round combat of 20 replays in about a millisecond
  loadedGzipBytes: 40 * 1024, // what a client loads at start-up, with the tracker drawn: 40 KB = 40,960 B (issue 10; the bench's KB has always been 1,024 bytes)
  trackerRenderMs: 16, // ui.combat's re-render after one step, at 200 combatants, in Chromium: within a frame
  simStartupMs: 300,
  oddsTrialsPerSecond: 2_500, // per core: 10,000 trials × 5 procedures on 2 cores in 10 s
  oddsSecondsFor10000x5On2Cores: 10,
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
  say('(a) Planning one round: rollInitiative + planRound, three sides, mixed declarations');
  say(`    targets: at N = 1,000 within ${TARGET.ratioAt1000}× a plain sort of N numbers; growth per ×10 no worse than N log N's`);
  say('');

  // The baseline: Array.prototype.sort of N numbers (copied fresh each call; the copy is timed too).
  const sortMs = new Map<number, number>();
  for (const n of SIZES) {
    const rnd = new RandomDice(n);
    const numbers = Array.from({ length: n }, () => rnd.roll({ purpose: 'other', count: 1, faces: 1_000_000 }) + 0.5);
    sortMs.set(n, measure(() => numbers.slice().sort((a, b) => a - b)));
    figure(`plan.sort.n${n}.ms`, sortMs.get(n) as number, 'ms');
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
  say('    ' + header);
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
      figure(`plan.${id}.n${n}.ms`, plan, 'ms');
      figure(`surprise.${id}.n${n}.ms`, surprise, 'ms');
      const ratio = n === 1000 ? figure(`plan.${id}.n1000.ratioToSort`, plan / sort, '×', { max: TARGET.ratioAt1000 }) : null;
      const growth = previous === undefined ? '' : (plan / previous).toFixed(1);
      const bound = previous === undefined ? '' : (nlogn(n) / nlogn(n / 10)).toFixed(1);
      say(
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
          (ratio ? `  ${mark(ratio)}` : ''),
      );
      previous = plan;
    }
  }
  say('');
  say('    growth = plan(N) / plan(N/10); N log N = the same ratio for N·log N (10.0 would be linear).');
  say('');
}

/* ---------------------------------------------------- (b) rounds per second */

/** Damage for the driver: every other attacker lands 1 on its target in the round's first step. */
function hitsOf(state: FlowState, decls: Record<string, Declaration>): FlowInput[] {
  return state.encounter.combatants
    .filter((_, i) => i % 2 === 0)
    .map((c) => ({ t: 'hit' as const, target: decls[c.id].target ?? c.id, amount: 1, by: c.id }))
    .filter((h) => state.states[h.target]?.condition === 'ok');
}

function benchRounds(): void {
  say('(b) Rounds per second through the one driver (src/rules/flow), 10 vs 10: initiative and plan, every step with hits, end of round');
  say(`    target: ≥ ${TARGET.roundsPerSecond.toLocaleString('en')} rounds/s`);
  for (const id of PROCEDURE_IDS as readonly ProcedureId[]) {
    const procedure = PROCEDURES[id];
    const options = { ...procedure.defaults };
    // Both sides alerted: no surprise, six regular rounds a fight.
    const encounter = encounterOf(20, SIDES.slice(0, 2).map((s) => ({ ...s, alerted: true })));
    const { decls } = declarationsOf(encounter, procedure, options);
    const dice = new RandomDice(99);
    let state: FlowState | null = null;
    let rounds = 0;
    const give = (input: FlowInput) => {
      const r = applyInput(state as FlowState, input, dice, procedure);
      if (!r.ok) throw new Error(`${id}: ${input.t} refused: ${r.problem.key}`);
    };
    const one = () => {
      if (!state || rounds % 6 === 0) {
        const started = startFlow(procedure, options, encounter, dice);
        if (!started.ok) throw new Error(`${id}: ${started.problem.key}`);
        state = started.state;
        while (state.round === 0) give({ t: 'next' }); // a surprise phase the dice still gave
      }
      const s = state as FlowState;
      const live: Record<string, Declaration | null> = {};
      for (const c of s.encounter.combatants) live[c.id] = s.states[c.id]?.condition === 'ok' ? decls[c.id] : null;
      give({ t: 'begin', d: live });
      let hit = false;
      for (let guard = 0; guard < 1000 && !(s.stage === 'declare'); guard++) {
        if (!hit && s.stage === 'resolve') {
          for (const h of hitsOf(s, decls)) give(h);
          hit = true;
        }
        give({ t: 'next' });
      }
      rounds++;
    };
    const ms = measure(one);
    const perSecond = 1000 / ms;
    const f = figure(`rounds.${id}.n20.perSecond`, perSecond, 'rounds/s', { min: TARGET.roundsPerSecond });
    say(`    ${padR(id, 17)} ${pad(Math.round(perSecond).toLocaleString('en'), 10)} rounds/s  (${fmt(ms * 1000)} µs a round)  ${mark(f)}`);
  }
  say('');
}

/* ---------------------------------------------------- (g) odds trials per second */

/**
 * 10 vs 10 for the odds, as a scenario file: in each side a magic-user with
 * two copies of Magic Missile (1d4+1), two archers (short bow, rate 2, 1d6),
 * seven fighters (sword 1d8); AC 5–7, AAC0 17–19, 8 hp; every declaration at
 * the foe across. The runner validates it under each procedure (as `npm run
 * odds` does) and plays it with a cap of 10 rounds.
 */
function oddsScenario(): Record<string, unknown> {
  const combatants: Record<string, unknown>[] = [];
  const declarations: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < 20; i++) {
    const id = `c${i}`;
    const k = i % 10;
    const archer = k === 1 || k === 2;
    combatants.push({
      id, name: `C${i}`, side: i < 10 ? 'party' : 'raiders', kind: i < 10 ? 'character' : 'monster', hp: 8, maxHp: 8,
      stress: 3, maxStress: 3, woundPoints: 8, maxWoundPoints: 8, movement: 120, agilityModifier: (i % 3) - 1, defenseBonus: 2, armour: k % 3 === 0 ? 1 : 0, attackBonus: 2,
      ac: 5 + (i % 3), aac0: String(17 + (i % 3)),
      weapon: archer ? { name: 'short bow', missile: true, rate: 2, speed: 7, damage: '1d6' } : { name: 'sword', speed: 5, length: 3, critical: 2, damageTypes: ['slashing'], damage: '1d8' },
      ...(k === 0 ? { spells: ['Magic Missile', 'Magic Missile'] } : {}),
    });
    const foe = `c${(i + 10) % 20}`;
    declarations[id] = k === 0 ? { action: 'spell', spell: 'Magic Missile', castingTime: 1, speed: 1, target: foe } : { action: archer ? 'missile' : 'melee', target: foe };
  }
  return { title: '10 vs 10', procedure: 'segment-d6', sides: [{ id: 'party', name: 'Party' }, { id: 'raiders', name: 'Raiders' }], combatants, declarations: { 1: declarations }, spells: { 'Magic Missile': { damage: '1d4+1' } } };
}

function benchOdds(): void {
  say('(g) Odds: 10 vs 10 (melee, missiles and a caster a side), cap 10 rounds');
  say(`    targets: 10,000 trials × 5 procedures on 2 cores in ≤ ${TARGET.oddsSecondsFor10000x5On2Cores} s (npm run odds, 2 worker threads); ≥ ${TARGET.oddsTrialsPerSecond.toLocaleString('en')} trials/s a core`);
  const scenario = oddsScenario();
  say('    playTrial in this process (one core):');
  for (const id of PROCEDURE_IDS as readonly ProcedureId[]) {
    const valid = validateScenario(structuredClone(scenario), PROCEDURES, { procedure: id });
    if (!valid.ok) throw new Error(`the bench's odds scenario does not validate under ${id}: ${JSON.stringify(valid.problems[0])}`);
    const setup = oddsSetup(valid.scenario);
    const procedure = PROCEDURES[id];
    let seed = 0;
    let rounds = 0;
    let trials = 0;
    const ms = measure(() => {
      const r = playTrial(setup, procedure, new RandomDice(seed++));
      rounds += r.rounds;
      trials++;
    });
    const perSecond = 1000 / ms;
    const f = figure(`odds.${id}.trialsPerSec`, perSecond, 'trials/s', { min: TARGET.oddsTrialsPerSecond });
    say(`    ${padR(id, 17)} ${pad(Math.round(perSecond).toLocaleString('en'), 7)} trials/s  (${fmt(ms * 1000)} µs a trial, ${(rounds / trials).toFixed(1)} rounds on average)  ${mark(f)}`);
  }
  // The whole run as a GM makes it: the built runner (build/odds.mjs, npm run build), 2 worker threads, start-up included.
  const cli = join(ROOT, 'build', 'odds.mjs');
  if (!existsSync(cli)) {
    say('    npm run odds: build/odds.mjs is missing (npm run build first)');
    say('');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tenseg-odds-'));
  const file = join(dir, 'ten-vs-ten.json');
  writeFileSync(file, JSON.stringify(scenario));
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [cli, file, '--seed', String(1 + i), '--trials', '10000', '--workers', '2', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`npm run odds failed: ${run.stderr}`);
    runs.push((performance.now() - t0) / 1000);
  }
  rmSync(dir, { recursive: true, force: true });
  const seconds = median(runs);
  const f = figure('odds.all.secondsFor10000x5On2Cores', seconds, 's', { max: TARGET.oddsSecondsFor10000x5On2Cores });
  say(`    npm run odds, 10,000 trials × 5 procedures, 2 worker threads: ${seconds.toFixed(2)} s (median of 3 runs, start-up included)  ${mark(f)}`);
  say('');
}

/* ------------------------------------------- (c) what a client loads */

/** The files a module imports statically, as paths (relative imports of the built chunks). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[^'"`;()]*?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return found.map((rel) => join(dirname(file), rel));
}

function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const f of importsOf(file)) closure(f, seen);
  return seen;
}

/**
 * Chunks (dist/chunks/<name>.js) a client loads to draw the combat tracker,
 * counted in what it loads at start-up beside the entry's static imports:
 * the tracker (registered at init, drawn at start-up in the sidebar) loads
 * its view (`tracker-view`) and the timeline view (`timeline`) when it first
 * draws. Extend this one list when the tracker's drawing needs another
 * chunk; dialogs and rarely used screens stay out (loaded when first opened).
 */
const LOADED_WHEN_DRAWN = ['timeline', 'tracker-view'];

function benchLoaded(): void {
  say(`(c) What a client loads at start-up: dist/ten-segments.js, the chunks it imports, the chunks the tracker draws with (${LOADED_WHEN_DRAWN.join(', ')}) and the world's procedure chunk (each file gzip -9, summed)`);
  say(`    target: ≤ ${TARGET.loadedGzipBytes.toLocaleString('en')} bytes gzip, whichever procedure the world uses`);
  const entry = join(ROOT, 'dist', 'ten-segments.js');
  if (!existsSync(entry)) {
    say('    dist/ten-segments.js is missing: run `npm run build` first, then `npm run bench` again.');
    say('');
    return;
  }
  const gz = (f: string) => gzipSync(readFileSync(f), { level: 9 }).length;
  const raw = (f: string) => readFileSync(f).length;
  const base = closure(entry);
  for (const name of LOADED_WHEN_DRAWN) {
    const chunk = join(ROOT, 'dist', 'chunks', `${name}.js`);
    if (existsSync(chunk)) closure(chunk, base);
    else say(`    no chunk dist/chunks/${name}.js (LOADED_WHEN_DRAWN): not counted`);
  }
  const baseGz = [...base].reduce((n, f) => n + gz(f), 0);
  figure('bundle.entry.gzip', baseGz, 'bytes');
  say(`    entry and shared chunks (${[...base].map((f) => f.slice(ROOT.length + 1)).join(', ')}): ${baseGz.toLocaleString('en')} bytes gzip, ${[...base].reduce((n, f) => n + raw(f), 0).toLocaleString('en')} raw`);
  let worst = 0;
  for (const id of PROCEDURE_IDS) {
    const chunk = join(ROOT, 'dist', 'chunks', `${id}.js`);
    if (!existsSync(chunk)) {
      say(`    ${id}: no chunk dist/chunks/${id}.js`);
      continue;
    }
    const files = [...closure(chunk, new Set(base))].filter((f) => !base.has(f));
    const total = baseGz + files.reduce((n, f) => n + gz(f), 0);
    worst = Math.max(worst, total);
    const f = figure(`bundle.loaded.${id}.gzip`, total, 'bytes', { max: TARGET.loadedGzipBytes });
    say(`    ${padR(id, 17)} ${pad(total.toLocaleString('en'), 7)} bytes gzip (${(total / 1024).toFixed(1)} KiB)  ${mark(f)}`);
  }
  const f = figure('bundle.loaded.gzip', worst, 'bytes', { max: TARGET.loadedGzipBytes });
  say(`    the most a client loads: ${worst.toLocaleString('en')} bytes gzip  ${mark(f)}`);
  say('');
}

/* ------------------------------------- (f) the tracker's render in Chromium */

/**
 * ui.combat's re-render after one step, in the preview page (npm run
 * preview) in headless Chromium: our tracker (TenSegmentsCombatTracker, the
 * 300 px sidebar's; the page checks it is ours, `.ts-tracker`). The page
 * takes a step, lets every client settle, then times one whole render —
 * context, the parts' HTML, the parts into the DOM, _onRender, then a forced
 * style and layout — with performance.now(), 15 times; the median, for 20
 * and 200 combatants. Without Chromium the figures are missing and the table
 * says how to install it.
 */
async function benchTrackerRender(): Promise<void> {
  say('(f) The combat tracker\'s re-render after one step, in the preview page in headless Chromium (median of 15, measured in the page)');
  say(`    target: ≤ ${TARGET.trackerRenderMs} ms at 200 combatants`);
  const { openPreview } = await import('../tests/browser/harness');
  let preview: Awaited<ReturnType<typeof openPreview>>;
  try {
    preview = await openPreview();
  } catch (err) {
    say(`    not measured: ${(err as Error).message}`);
    say('');
    return;
  }
  try {
    for (const n of [20, 200]) {
      const p = await preview.page(`?n=${n}&steps=1`);
      const ours = await p.page.locator('#preview-sidebar-combat > #combat.ts-tracker').count();
      if (ours !== 1) throw new Error('(f): ui.combat in the preview is not the system\'s tracker (#combat.ts-tracker)');
      const result = await p.page.evaluate(async () => (globalThis as unknown as { tenPreview: { measureStepRender(k: number): Promise<{ median: number; samples: number[] }> } }).tenPreview.measureStepRender(15));
      const f = figure(`tracker.renderMs.n${n}`, result.median, 'ms', n === 200 ? { max: TARGET.trackerRenderMs } : null);
      say(`    N = ${pad(String(n), 3)}  ${fmt(f.value)} ms  ${n === 200 ? mark(f) : ''}`);
      await p.page.close();
    }
  } finally {
    await preview.close();
  }
  say('');
}

/* ------------------------------------------------ (e) the runner's start-up */

function benchSimStartup(): void {
  say('(e) The scenario runner\'s start-up: node build/sim.mjs --help (median of 9 runs, after one to warm the disk cache)');
  say(`    target: ≤ ${TARGET.simStartupMs} ms`);
  const cli = join(ROOT, 'build', 'sim.mjs');
  if (!existsSync(cli)) {
    say('    build/sim.mjs is missing: run `npm run build` (or `npm run sim -- --help`) first.');
    say('');
    return;
  }
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, '--help'], { stdio: 'ignore' });
    const dt = performance.now() - t0;
    if (r.status !== 0) {
      say(`    node build/sim.mjs --help exited with ${r.status}`);
      say('');
      return;
    }
    if (i > 0) times.push(dt);
  }
  const f = figure('sim.startupMs', median(times), 'ms', { max: TARGET.simStartupMs });
  say(`    ${fmt(f.value)} ms  ${mark(f)}`);
  say('');
}

/* ------------------------------------------------------------------ run */

say(`Ten Segments benchmark — node ${process.version}; each timing the median of ${SAMPLES} samples after a ${WARMUP_MS} ms warm-up`);
say('');
benchPlanning();
benchRounds();
benchOdds();
benchLoaded();
// (d) document writes, tracker renders and bytes per transition, against the Foundry stand-in.
// Loaded late: it installs the stand-in's globals.
const { benchFoundry } = await import('./bench-foundry');
await benchFoundry();
benchSimStartup();
await benchTrackerRender();
if (JSON_MODE) process.stdout.write(JSON.stringify({ figures: allFigures() }, null, 2) + '\n');
