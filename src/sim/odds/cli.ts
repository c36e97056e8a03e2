/**
 * The odds runner's command line (issue 14): `npm run odds -- [<scenario>]
 * [--trials N] [--procedures a,b,…] [--seed S] [--json] [--chart FILE.svg
 * [--force]] [--rounds N] [--workers N]`.
 *
 * This file reads the flags and the scenario and builds one OddsSetup per
 * procedure, refusing in words (exit 2, nothing played) whatever is wrong:
 * a bad flag, an unknown procedure, a broken file, a setup the trials could
 * not play (setupProblems). Playing is main.ts's (worker threads); the
 * words are text.ts's. No process side effects here, so tests call it.
 */
import { availableParallelism } from 'node:os';
import { lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { PROCEDURE_IDS, isProcedureId, type Problem, type ProcedureId } from '../../rules/model';
import { setupProblems } from '../../rules/odds/trial';
import { walkArgs } from '../args';
import { DEFAULT_MAX_ROUNDS, DEFAULT_TRIALS, type OddsSetup } from '../../rules/odds/types';
import { EXAMPLE, parseScenarioText, quoted, quotedPath, readScenarioFile, ROOT } from '../cli';
import { MAX_ROUNDS, suggest, validateScenario, type ProcedureTable, type ScenarioNote } from '../scenario';
import { oddsIgnoredNote, oddsSetup } from '../scenario/odds';
import { loadStrings, Strings } from '../strings';

/**
 * Most trials per procedure: about a minute a procedure on 2 cores (issue 27).
 * Measured as CPU time of the built runner with one worker thread
 * (`/usr/bin/time node build/odds.mjs … --workers 1`, start-up of 0.47 s taken
 * off): the bundled example plays 6,150 (addict) to 8,710 (high-low) trials a
 * second of one core, so a million trials a procedure are 57–81 s on 2 cores
 * (the 10,000,000 ran about 12 minutes a procedure). The bench's
 * 10 vs 10 plays about 2,000 a second a core: the most is about 4 minutes a
 * procedure there. Ctrl-C stops a run and prints what was played.
 */
export const MAX_TRIALS = 1_000_000;
/** What --chart writes: an SVG file, named so (any case). */
const SVG_NAME = /\.svg$/i;
/** Most worker threads. */
export const MAX_WORKERS = 256;

export interface OddsFlags {
  file?: string;
  json: boolean;
  help: boolean;
  /** --chart may overwrite a file already there (never the scenario, never through a link to a file not .svg). */
  force: boolean;
  trials: number;
  /** The procedures to play, in the order given (duplicates dropped); all five when not given. */
  procedures: ProcedureId[];
  seed?: number;
  chart?: string;
  /** The round cap; absent: the scenario's own or DEFAULT_MAX_ROUNDS (oddsSetup). */
  rounds?: number;
  workers?: number;
}

/**
 * A refusal before anything is played. `key` is a full language key
 * (TENSEG.Error.* for the runner's and the scenario's problems,
 * TENSEG.Odds.Cli.* for the odds runner's own).
 */
export interface Refusal {
  key: string;
  data?: Record<string, string | number>;
  path?: string;
}

const errorKey = (p: Problem): Refusal => ({ key: `TENSEG.Error.${p.key}`, ...(p.data ? { data: p.data } : {}), ...(p.path !== undefined ? { path: p.path } : {}) });

export function parseOddsFlags(argv: readonly string[]): { flags: OddsFlags; problems: Refusal[] } {
  const flags: OddsFlags = { json: false, help: false, force: false, trials: DEFAULT_TRIALS, procedures: [] };
  const problems: Refusal[] = [];
  const files: string[] = [];
  walkArgs(argv, (a) => {
    const { arg, name } = a;
    /** The flag's value; none, or only blanks, is refused. */
    const value = (flag: string): string | undefined => {
      const v = a.value();
      if (v === undefined || v.trim() === '') problems.push({ key: 'TENSEG.Error.FlagNeedsValue', path: flag, data: { flag } });
      return v === undefined || v.trim() === '' ? undefined : v;
    };
    /** A whole number from min to max; above max, `over` (when given) says so in its own words. */
    const whole = (flag: string, min: number, max: number, over?: string): number | undefined => {
      const v = value(flag);
      if (v === undefined) return undefined;
      const digits = v.trim().replace(/[_,]/g, '');
      if (over !== undefined && /^\d+$/.test(digits) && Number(digits) > max) {
        problems.push({ key: over, path: flag, data: { flag, value: v, max } });
        return undefined;
      }
      if (!/^-?\d+$/.test(digits) || Number(digits) < min || Number(digits) > max) {
        problems.push({ key: 'TENSEG.Error.FlagBadNumber', path: flag, data: { flag, value: v, min, max } });
        return undefined;
      }
      return Number(digits);
    };
    switch (name) {
      case '--json':
        flags.json = true;
        break;
      case '--help':
      case '-h':
        flags.help = true;
        break;
      case '--trials':
        flags.trials = whole('--trials', 1, MAX_TRIALS, 'TENSEG.Odds.Cli.TooManyTrials') ?? flags.trials;
        break;
      case '--force':
        flags.force = true;
        break;
      case '--seed':
        flags.seed = whole('--seed', 0, 4294967295);
        break;
      case '--rounds':
        flags.rounds = whole('--rounds', 1, MAX_ROUNDS);
        break;
      case '--workers':
        flags.workers = whole('--workers', 1, MAX_WORKERS);
        break;
      case '--chart': {
        const v = value('--chart');
        if (v === undefined) break;
        // Only an .svg file, whatever else the name could be (the scenario, a YAML or JSON file, a script): refused before anything is read.
        if (SVG_NAME.test(v)) flags.chart = v;
        else problems.push({ key: 'TENSEG.Odds.Cli.ChartNotSvg', path: '--chart', data: { path: v } });
        break;
      }
      case '--procedures':
      case '--procedure': {
        const v = value(name);
        if (v === undefined) break;
        for (const id of v.split(',').map((s) => s.trim())) {
          if (id === '') continue;
          if (!isProcedureId(id)) {
            const near = suggest(id, PROCEDURE_IDS);
            problems.push(
              near
                ? { key: 'TENSEG.Error.UnknownProcedureDidYouMean', path: name, data: { id, suggestion: near } }
                : { key: 'TENSEG.Error.UnknownProcedure', path: name, data: { id } },
            );
          } else if (!flags.procedures.includes(id)) flags.procedures.push(id);
        }
        if (flags.procedures.length === 0 && !problems.some((p) => p.path === name)) problems.push({ key: 'TENSEG.Error.FlagNeedsValue', path: name, data: { flag: name } });
        break;
      }
      default:
        if (arg.startsWith('-') && arg !== '-') problems.push({ key: 'TENSEG.Odds.Cli.UnknownFlag', path: arg, data: { flag: arg } });
        else files.push(arg);
    }
  });
  if (files.length > 1) problems.push({ key: 'TENSEG.Error.TooManyFiles', data: { files: files.join(', ') } });
  else if (files.length === 1) flags.file = files[0];
  return { flags, problems };
}

/* ------------------------------------------------------------------ prepare */

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function statOf(path: string, link: boolean): Stats | undefined {
  try {
    return link ? lstatSync(path) : statSync(path);
  } catch {
    return undefined;
  }
}

/** Where a path really is: links followed, the file itself or (not there yet) its folder's real path and its name. */
function realOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    try {
      return statOf(path, true) ? undefined : join(realpathSync.native(dirname(path)), basename(path));
    } catch {
      return undefined;
    }
  }
}

/** A file the run reads, which the chart must never overwrite: where it is, and its name as the GM gave it. */
export interface OddsInput {
  path: string;
  shown: string;
}

/**
 * Why the chart cannot be written to `chart` (resolved; `given` as the GM
 * wrote it), or null. Asked before anything is read or played and again just
 * before the chart is written. Refused: a missing folder; a folder; one of
 * the files the run reads (the scenario), however named (another path, a
 * link, a hard link: the same real path or the same file); a link that leads
 * to a file not named .svg, or nowhere; anything but a plain file; a file
 * already there unless `force`.
 */
export function chartRefusal(chart: string, given: string, inputs: readonly OddsInput[], force: boolean): Refusal | null {
  const at = (key: string, data: Record<string, string> = {}): Refusal => ({ key, path: '--chart', data: { path: given, ...data } });
  const folder = dirname(chart);
  if (!isFolder(folder)) return at('TENSEG.Odds.Cli.ChartFolderMissing', { folder });
  if (isFolder(chart)) return at('TENSEG.Odds.Cli.ChartIsFolder');
  const here = statOf(chart, true);
  const target = statOf(chart, false);
  const real = realOf(chart);
  for (const input of inputs) {
    const file = statOf(input.path, false);
    const same = (real !== undefined && real === realOf(input.path)) || (target !== undefined && file !== undefined && target.dev === file.dev && target.ino === file.ino);
    if (same) return at('TENSEG.Odds.Cli.ChartIsInput', { file: input.shown });
  }
  if (here?.isSymbolicLink() && (real === undefined || !SVG_NAME.test(real))) {
    let leads = real;
    try {
      leads ??= resolve(folder, readlinkSync(chart));
    } catch {
      leads ??= '?';
    }
    return at('TENSEG.Odds.Cli.ChartLeadsElsewhere', { target: leads });
  }
  if (here !== undefined && !force) return at('TENSEG.Odds.Cli.ChartExists');
  if (target !== undefined && !target.isFile()) return at('TENSEG.Odds.Cli.ChartNotFile');
  return null;
}

export interface OddsIO {
  /** Where relative file names are resolved (the directory `npm run` was called from). */
  cwd: string;
  /** Repository root: lang files and the bundled example. */
  root: string;
  /** Seed used when --seed is not given. */
  defaultSeed: () => number;
  /** Workers used when --workers is not given. */
  defaultWorkers: () => number;
}

export interface OddsOutcome {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

/** Everything main.ts needs to play: one setup per procedure, in the order asked. */
export interface OddsPlan {
  flags: OddsFlags;
  /** The file as the GM named it (or the bundled example's path). */
  shown: string;
  /** The chart's path, resolved. */
  chartPath?: string;
  /** The files the run reads (the scenario): main.ts asks chartRefusal again before it writes. */
  inputs: OddsInput[];
  setups: OddsSetup[];
  seed: number;
  workers: number;
  maxRounds: number;
  title?: string;
  /** Notes about the setups a GM should read (the scenario's odds notes), in words, once each. */
  notes: string[];
}

export function defaultOddsIO(): OddsIO {
  return {
    cwd: process.env.INIT_CWD ?? process.cwd(),
    root: ROOT,
    defaultSeed: () => (Date.now() ^ (process.pid << 8)) >>> 0,
    defaultWorkers: () => availableParallelism(),
  };
}

export function oddsStrings(root: string = ROOT): Strings {
  return new Strings(loadStrings(root));
}

/** The usage text (also what --help prints). */
export function oddsUsage(t: Strings): string {
  return t.format('TENSEG.Odds.Cli.Usage', { ids: PROCEDURE_IDS.join(', '), trials: DEFAULT_TRIALS, max: MAX_TRIALS, rounds: DEFAULT_MAX_ROUNDS });
}

/**
 * Read the flags and the scenario; either the plan to play or what to print
 * instead (--help, or a refusal with exit 2).
 */
export function prepareOdds(argv: readonly string[], procedures: ProcedureTable, ioIn: Partial<OddsIO> = {}): { ok: true; plan: OddsPlan } | { ok: false; outcome: OddsOutcome } {
  const io: OddsIO = { ...defaultOddsIO(), ...ioIn };
  const t = oddsStrings(io.root);
  const { flags, problems: flagProblems } = parseOddsFlags(argv);
  type Positioned = Refusal & { at?: { line: number; column: number } };

  const refuse = (problems: Positioned[], file: string | null, locate?: (path: string | undefined) => { line: number; column: number } | undefined): { ok: false; outcome: OddsOutcome } => {
    const seen = new Set<string>();
    const items = [];
    for (const p of problems) {
      const data = quoted(p.data ?? {});
      const message = t.format(p.key, data);
      const pos = p.at ?? locate?.(p.path);
      const path = p.path === undefined ? undefined : quotedPath(p.path);
      const where = file ?? '';
      const text = path?.startsWith('-')
        ? t.format('TENSEG.Sim.ProblemFlag', { message })
        : pos
          ? path
            ? t.format('TENSEG.Sim.ProblemLine', { file: where, line: pos.line, column: pos.column, path, message })
            : t.format('TENSEG.Sim.ProblemLineOnly', { file: where, line: pos.line, column: pos.column, message })
          : path
            ? t.format('TENSEG.Sim.ProblemPath', { file: where, path, message })
            : file === null
              ? t.format('TENSEG.Sim.ProblemFlag', { message })
              : t.format('TENSEG.Sim.ProblemPlain', { file, message });
      // The same problem under several procedures is said once.
      if (seen.has(text)) continue;
      seen.add(text);
      items.push({ key: p.key, data, path: path ?? null, line: pos?.line ?? null, column: pos?.column ?? null, text });
    }
    const summary = file === null ? null : t.format('TENSEG.Sim.Broken', { file, count: items.length });
    if (flags.json) return { ok: false, outcome: { code: 2, stdout: JSON.stringify({ ok: false, file, problems: items, summary }, null, 2) + '\n', stderr: '' } };
    const out = items.map((i) => i.text);
    if (summary) out.push(summary);
    if (file === null) out.push(oddsUsage(t));
    return { ok: false, outcome: { code: 2, stdout: '', stderr: out.join('\n') + '\n' } };
  };

  if (flags.help) return { ok: false, outcome: { code: flagProblems.length > 0 ? 2 : 0, stdout: oddsUsage(t) + '\n', stderr: '' } };
  if (flagProblems.length > 0) return refuse(flagProblems, null);

  const path = flags.file ? resolve(io.cwd, flags.file) : join(io.root, EXAMPLE);
  const shown = flags.file ?? (relative(io.cwd, path) || EXAMPLE);
  const inputs: OddsInput[] = [{ path, shown }];

  // Where the chart goes is settled before the scenario is read or anything played (its file is written at the end).
  const chartPath = flags.chart === undefined ? undefined : resolve(io.cwd, flags.chart);
  if (chartPath !== undefined) {
    const refusal = chartRefusal(chartPath, flags.chart ?? '', inputs, flags.force);
    if (refusal) return refuse([refusal], null);
  }

  const read = readScenarioFile(path);
  if (!read.ok) {
    const data = { ...read.problem.data };
    if (typeof data.kind === 'string') data.kind = t.format(`TENSEG.Sim.FileKind.${data.kind}`);
    return refuse([errorKey({ ...read.problem, data })], shown);
  }
  const located = parseScenarioText(read.text);
  if (located.syntax.length > 0) {
    return refuse(
      located.syntax.map((x) => ({ key: `TENSEG.Error.${x.key}`, data: x.data, ...(x.path ? { path: x.path } : {}), at: { line: x.line, column: x.column } })),
      shown,
    );
  }

  const chosen = flags.procedures.length > 0 ? flags.procedures : [...PROCEDURE_IDS];
  const setups: OddsSetup[] = [];
  const problems: Refusal[] = [];
  const notes: string[] = [];
  const note = (n: ScenarioNote): void => {
    const line = t.format(n.key, quoted(n.data ?? {}));
    if (!notes.includes(line)) notes.push(line);
  };
  // What of the file the trials do not play (scripted dice, damage, …), said once, of the file as written (under its own procedure).
  const asWritten = validateScenario(located.value, procedures);
  const ignored = asWritten.ok ? oddsIgnoredNote(asWritten.scenario) : null;
  if (ignored) note(ignored);
  for (const id of chosen) {
    const validation = validateScenario(located.value, procedures, { procedure: id });
    if (!validation.ok) {
      problems.push(...validation.problems.map(errorKey));
      continue;
    }
    // Only the notes written for odds: the runner's others (scripted dice dropped, the procedure switched) do not apply to rolled trials.
    for (const n of validation.scenario.notes) if (/^TENSEG\.Sim\.Note\.Odds/.test(n.key)) note(n);
    const setup = oddsSetup(validation.scenario, flags.rounds);
    problems.push(...setupProblems(setup).map(errorKey));
    setups.push(setup);
  }
  if (problems.length > 0) return refuse(problems, shown, located.locate);

  const maxRounds = setups[0]?.maxRounds ?? flags.rounds ?? DEFAULT_MAX_ROUNDS;
  const title = setups[0]?.title;
  return {
    ok: true,
    plan: {
      flags,
      shown,
      ...(chartPath !== undefined ? { chartPath } : {}),
      inputs,
      setups,
      seed: flags.seed ?? io.defaultSeed(),
      workers: flags.workers ?? Math.max(1, Math.min(MAX_WORKERS, io.defaultWorkers())),
      maxRounds,
      ...(title !== undefined ? { title } : {}),
      notes,
    },
  };
}
