/**
 * The scenario runner: `npm run sim -- <file> [--json] [--seed N]
 * [--procedure <id>] [--rounds N]`.
 *
 * Reads a scenario (YAML or JSON), validates it (scenario/), plays it through
 * the one driver and prints the round-by-round timeline a GM reads, or the
 * same as JSON (README.md, Scenario runner), from the timeline view model
 * (text.ts). Every word printed comes from the language file (lang/en.json).
 *
 * Exit codes: 0 played; 1 the engine failed; 2 a broken scenario or bad flags
 * (nothing is played, no stack trace).
 *
 * Built once by esbuild into build/sim.mjs (scripts/build-cli.mjs), which
 * `npm run sim` and the tests run.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, isAlias, isMap, isNode, isPair, isScalar, isSeq, parseDocument, type Alias, type Document } from 'yaml';
import { RandomDice } from '../rules/dice';
import type { Problem } from '../rules/model';
import { PROCEDURE_IDS } from '../rules/model';
import { excerpt, MAX_ROUNDS, runScenario, validateScenario, type ProcedureTable } from './scenario';
import { buildTimeline } from './text';
import { walkArgs } from './args';
import { loadStrings, Strings } from './strings';

/** The repository: lang files and the bundled example (this file is in src/sim, the built runner in build/). */
const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = existsSync(join(HERE, '..', 'lang')) ? resolve(HERE, '..') : resolve(HERE, '..', '..');
export const EXAMPLE = join('src', 'sim', 'scenarios', 'example.yaml');

/* ------------------------------------------------------------------ flags */

export interface SimFlags {
  file?: string;
  json: boolean;
  seed?: number;
  procedure?: string;
  rounds?: number;
  help: boolean;
}

export function parseFlags(argv: readonly string[]): { flags: SimFlags; problems: Problem[] } {
  const flags: SimFlags = { json: false, help: false };
  const problems: Problem[] = [];
  const files: string[] = [];
  walkArgs(argv, ({ arg, name, value }) => {
    const whole = (flag: string, min: number, max: number): number | undefined => {
      const v = value();
      if (v === undefined) {
        problems.push({ key: 'FlagNeedsValue', path: flag, data: { flag } });
        return undefined;
      }
      if (!/^-?\d+$/.test(v.trim()) || Number(v) < min || Number(v) > max) {
        problems.push({ key: 'FlagBadNumber', path: flag, data: { flag, value: v, min, max } });
        return undefined;
      }
      return Number(v);
    };
    switch (name) {
      case '--json':
        flags.json = true;
        break;
      case '--help':
      case '-h':
        flags.help = true;
        break;
      case '--seed':
        flags.seed = whole('--seed', 0, 4294967295);
        break;
      case '--rounds':
        flags.rounds = whole('--rounds', 1, MAX_ROUNDS);
        break;
      case '--procedure': {
        const v = value();
        if (v === undefined) problems.push({ key: 'FlagNeedsValue', path: '--procedure', data: { flag: '--procedure' } });
        else flags.procedure = v;
        break;
      }
      default:
        if (arg.startsWith('-') && arg !== '-') problems.push({ key: 'UnknownFlag', path: arg, data: { flag: arg } });
        else files.push(arg);
    }
  });
  if (files.length > 1) problems.push({ key: 'TooManyFiles', data: { files: files.join(', ') } });
  else if (files.length === 1) flags.file = files[0];
  return { flags, problems };
}

/* ---------------------------------------------------------- file and lines */

/** Largest scenario file read (a long scenario is a few dozen KiB). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** What a path that is not a regular file is (the key of its name under TENSEG.Sim.FileKind). */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'directory';
  if (st.isFIFO()) return 'fifo';
  if (st.isCharacterDevice()) return 'character-device';
  if (st.isBlockDevice()) return 'block-device';
  if (st.isSocket()) return 'socket';
  return 'other';
}

/**
 * A scenario file's text. Only a regular file of at most MAX_FILE_BYTES is
 * read: a named pipe would wait for a writer forever, a device may never end.
 * The path is looked at before it is opened, then opened without waiting (a
 * pipe swapped in meanwhile does not block) and looked at again; no more than
 * the cap (plus one byte, to know it is over) is ever read.
 */
export function readScenarioFile(path: string): { ok: true; text: string } | { ok: false; problem: Problem } {
  const unreadable = (e: unknown): { ok: false; problem: Problem } => {
    const reason = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
    return { ok: false, problem: { key: 'FileUnreadable', data: { reason } } };
  };
  const refused = (st: Stats): { ok: false; problem: Problem } | null => {
    if (!st.isFile()) return { ok: false, problem: { key: 'FileNotRegular', data: { kind: kindOf(st) } } };
    if (st.size > MAX_FILE_BYTES) return { ok: false, problem: { key: 'FileTooLarge', data: { size: st.size, max: MAX_FILE_BYTES, mib: MAX_FILE_BYTES / (1024 * 1024) } } };
    return null;
  };
  let fd: number;
  try {
    const before = refused(statSync(path));
    if (before) return before;
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return unreadable(e);
  }
  try {
    const st = fstatSync(fd);
    const now = refused(st);
    if (now) return now;
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_FILE_BYTES) return { ok: false, problem: { key: 'FileTooLarge', data: { size: Math.max(length, st.size), max: MAX_FILE_BYTES, mib: MAX_FILE_BYTES / (1024 * 1024) } } };
    }
    return { ok: true, text: buffer.toString('utf8', 0, length) };
  } catch (e) {
    return unreadable(e);
  } finally {
    closeSync(fd);
  }
}

interface Located {
  value: unknown;
  /** Line and column (1-based) of the field a path names, where the file gives one. */
  locate(path: string | undefined): { line: number; column: number } | undefined;
  /** Problems with the file as YAML (syntax, aliases): nothing else is read. */
  syntax: { line: number; column: number; key: string; data: Record<string, string | number>; path?: string }[];
}

/** "declarations.1[0].castingTime" → ['declarations', '1', 0, 'castingTime'] */
export function pathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) out.push(m[1] !== undefined ? Number(m[1]) : (m[2] as string));
  return out;
}

/**
 * Most values aliases may add to a file (each alias counts the values of what
 * it names, nested aliases included): far more than anchors for shared
 * weapons or stat blocks need, far less than an alias bomb ("billion laughs")
 * would expand to.
 */
export const MAX_ALIAS_VALUES = 100_000;

type Refusal = { key: string; data: Record<string, string | number>; offset: number; path: string };

/**
 * Aliases checked before any value is built: each must name an anchor
 * written before it and outside it, and all of them together may add at most
 * MAX_ALIAS_VALUES values. Sizes are counted once per anchor, so even a bomb
 * is counted in the time it takes to read the file. The first alias that
 * breaks a rule is returned, with where it is (offset and field path).
 */
export function aliasProblem(doc: Document): Refusal | null {
  /** Values under each anchor, aliases expanded; OPEN while the anchored node is being read. */
  const sizes = new Map<string, number>();
  const OPEN = -1;
  let added = 0;
  let refusal: Refusal | null = null;
  /** The field being read, as validation names fields ("combatants[2].weapon"). */
  const trail: (string | number)[] = [];
  const refuse = (key: string, node: Alias, data: Record<string, string | number> = {}): number => {
    const path = trail.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p === '' ? k : `${p}.${k}`), '');
    refusal = { key, data: { alias: excerpt(node.source), ...data }, offset: node.range?.[0] ?? 0, path };
    return 0;
  };
  const size = (node: unknown): number => {
    if (isAlias(node)) {
      const s = sizes.get(node.source);
      if (s === undefined) return refuse('YamlAliasUnknown', node);
      if (s === OPEN) return refuse('YamlAliasLoop', node);
      added += s;
      return added > MAX_ALIAS_VALUES ? refuse('YamlAliasBomb', node, { max: MAX_ALIAS_VALUES }) : s;
    }
    if (!isNode(node)) return 1;
    const anchor = node.anchor;
    if (anchor) sizes.set(anchor, OPEN);
    let n = 1;
    if (isMap(node) || isSeq(node)) {
      node.items.forEach((item: unknown, i: number) => {
        if (refusal) return;
        if (isPair(item)) {
          n += size(item.key);
          trail.push(isScalar(item.key) ? String(item.key.value) : i);
          n += size(item.value);
          trail.pop();
        } else {
          trail.push(i);
          n += size(item);
          trail.pop();
        }
      });
      if (refusal) return 0;
    }
    if (anchor) sizes.set(anchor, n);
    return n;
  };
  size(doc.contents);
  return refusal;
}

/** Parse YAML (JSON is YAML too), keeping positions for error messages. */
export function parseScenarioText(text: string): Located {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntax: Located['syntax'] = doc.errors.map((e) => {
    const pos = e.linePos?.[0] ?? lines.linePos(e.pos[0]);
    return { line: pos.line, column: pos.col, key: 'YamlSyntax', data: { detail: `${e.code}: ${e.message.split('\n')[0]}` } };
  });
  let value: unknown;
  if (syntax.length === 0) {
    try {
      const refused = aliasProblem(doc);
      if (refused) {
        const pos = lines.linePos(refused.offset);
        syntax.push({ line: pos.line, column: pos.col, key: refused.key, data: refused.data, ...(refused.path ? { path: refused.path } : {}) });
      } else value = doc.toJS({ maxAliasCount: MAX_ALIAS_VALUES });
    } catch (e) {
      // Nesting too deep for the stack, or yaml's own alias limit: the file's doing. Anything else is a bug (exit 1).
      if (!(e instanceof RangeError || e instanceof ReferenceError)) throw e;
      syntax.push({ line: 1, column: 1, key: 'YamlSyntax', data: { detail: `${e.name}: ${e.message}` } });
    }
  }
  const locate = (path: string | undefined) => {
    if (!path || path.startsWith('--')) return undefined;
    let node: unknown = doc.contents;
    let at: number | undefined = (doc.contents as { range?: number[] } | null)?.range?.[0];
    for (const seg of pathSegments(path)) {
      if (isMap(node)) {
        const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(seg));
        if (!pair) break;
        const keyRange = (pair.key as { range?: number[] } | null)?.range;
        if (keyRange) at = keyRange[0];
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg] as { range?: number[] } | undefined;
        if (!item) break;
        if (item.range) at = item.range[0];
        node = item;
      } else break;
    }
    if (at === undefined) return undefined;
    const p = lines.linePos(at);
    return { line: p.line, column: p.col };
  };
  return { value, locate, syntax };
}

/* ------------------------------------------------------------- messages */

/** Sentences (an engine's error, the YAML parser's) are quoted up to this length. */
const SENTENCE_LENGTH = 200;
/** Data the runner writes itself (lists of known fields and values): never cut, only escaped. */
const OWN_LISTS = new Set(['allowed', 'fields']);

/**
 * A problem's data as a message quotes it: every text from the file (or the
 * command line) an excerpt, control characters escaped, so a refusal never
 * echoes a huge input back or writes raw control characters to a terminal.
 */
export function quoted(data: Record<string, string | number>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(data)) {
    if (typeof v !== 'string') out[k] = v;
    else out[k] = OWN_LISTS.has(k) ? excerpt(v, Infinity) : excerpt(v, k === 'message' || k === 'detail' ? SENTENCE_LENGTH : undefined);
  }
  return out;
}

/** A field's path as a message shows it: each key in it (a key may come from the file) an excerpt. */
export function quotedPath(path: string): string {
  return path.replace(/[^.[\]]+/g, (key) => excerpt(key));
}

/* ------------------------------------------------------------------ main */

export interface SimIO {
  /** Where relative file names are resolved (the directory `npm run` was called from). */
  cwd: string;
  /** Repository root: lang files and the bundled example. */
  root: string;
  /** Seed used when --seed is not given. */
  defaultSeed: () => number;
}

export interface SimResult {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

function defaultIO(): SimIO {
  return {
    cwd: process.env.INIT_CWD ?? process.cwd(),
    root: ROOT,
    defaultSeed: () => (Date.now() ^ (process.pid << 8)) >>> 0,
  };
}

/** Run the CLI on arguments; returns what to print and the exit code (no process side effects). */
export function simulate(argv: readonly string[], procedures: ProcedureTable, ioIn: Partial<SimIO> = {}): SimResult {
  const io: SimIO = { ...defaultIO(), ...ioIn };
  const t = new Strings(loadStrings(io.root));
  const { flags, problems: flagProblems } = parseFlags(argv);

  type Positioned = Problem & { at?: { line: number; column: number } };
  const report = (problems: Positioned[], file: string | null, located?: Located, code: 1 | 2 = 2): SimResult => {
    const items = problems.map((p) => {
      const data = quoted(p.data ?? {});
      const message = t.format(`TENSEG.Error.${p.key}`, data);
      const pos = p.at ?? located?.locate(p.path);
      const where = file ?? '';
      const path = p.path === undefined ? undefined : quotedPath(p.path);
      const base = { key: p.key, data, path: path ?? null, line: pos?.line ?? null, column: pos?.column ?? null };
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
      return { ...base, text };
    });
    // Flag problems: nothing was read, so no summary about a file.
    const summary = file === null ? null : t.format('TENSEG.Sim.Broken', { file, count: problems.length });
    if (flags.json) {
      return { code, stdout: JSON.stringify({ ok: false, file, problems: items, summary }, null, 2) + '\n', stderr: '' };
    }
    const out = items.map((i) => i.text);
    if (summary) out.push(summary);
    return { code, stdout: '', stderr: out.join('\n') + '\n' };
  };

  if (flags.help) {
    return { code: flagProblems.length > 0 ? 2 : 0, stdout: t.format('TENSEG.Sim.Usage', { ids: PROCEDURE_IDS.join(', ') }) + '\n', stderr: '' };
  }
  if (flagProblems.length > 0) {
    const r = report(flagProblems, null);
    return { ...r, stderr: r.stderr + (flags.json ? '' : t.format('TENSEG.Sim.Usage', { ids: PROCEDURE_IDS.join(', ') }) + '\n') };
  }

  const path = flags.file ? resolve(io.cwd, flags.file) : join(io.root, EXAMPLE);
  const shown = flags.file ?? relative(io.cwd, path) ?? EXAMPLE;
  const read = readScenarioFile(path);
  if (!read.ok) {
    const data = { ...read.problem.data };
    if (typeof data.kind === 'string') data.kind = t.format(`TENSEG.Sim.FileKind.${data.kind}`);
    return report([{ ...read.problem, data }], shown);
  }
  const text = read.text;
  const located = parseScenarioText(text);
  if (located.syntax.length > 0) {
    const problems: Positioned[] = located.syntax.map((x) => ({ key: x.key, data: x.data, path: x.path, at: { line: x.line, column: x.column } }));
    return report(problems, shown);
  }

  const validation = validateScenario(located.value, procedures, { procedure: flags.procedure, rounds: flags.rounds });
  if (!validation.ok) return report(validation.problems, shown, located);

  const seed = flags.seed ?? io.defaultSeed();
  const result = runScenario(validation.scenario, new RandomDice(seed));
  if (!result.ok) return report(result.problems, shown, located, result.internal ? 1 : 2);

  const timeline = buildTimeline(validation.scenario, result.log, result.dice, seed, shown, t);
  if (flags.json) return { code: 0, stdout: JSON.stringify(timeline, null, 2) + '\n', stderr: '' };
  return { code: 0, stdout: timeline.lines.join('\n') + '\n', stderr: '' };
}


