/**
 * A combat as its log of transitions. Foundry's Combat stores only this: the
 * start (what starting decided, with the engine version that decided it),
 * then each input with the dice it rolled, appended as keyed entries. Every
 * client derives the flow's state by replaying the log with the engine
 * (transitions.ts), and keeps the result, so a new entry replays only itself.
 * Previous deletes the last entry. A change of mind in a round's declarations
 * replaces the combatant's entry of those declarations (combat-writer.ts,
 * recordDeclaration) rather than adding one: the log grows by at most an
 * entry or two per combatant and round, whatever the number of changes.
 *
 * The replay keeps, in memory only, the state at each round's opening, so
 * going back (Previous, a client that missed entries) replays at most one
 * round. Nothing of it is stored: an entry holds its input and dice, tens of
 * bytes whatever the number of combatants.
 *
 * Engine versions. The start entry records FLOW_VERSION. A later engine
 * replays every stored log to the same state (tests/rules/replay-golden.test.ts
 * guards it with logs stored by each version): a rule that changes is either
 * a procedure option, frozen in the start entry (a combat started earlier
 * keeps the old behaviour: an option missing from a stored start means the
 * old rule), or decided on `state.v`; a change of the state's shape comes
 * with migrateState. A log started by a newer engine is refused
 * (CombatFromNewerVersion), never guessed at.
 */
import { RulesError, type Problem } from '../model';
import type { Dice, DieRequest } from '../dice';
import { copyJson, patchInPlace, type Json, type PatchOp } from '../journal';
import { FLOW_VERSION, type FlowStart, type FlowState } from './state';
import { applyInput, flowFrom, type FlowInput } from './transitions';

/** The first entry: what starting the combat decided. */
export interface StartEntry {
  t: 'start';
  v: number;
  s: FlowStart;
}

/** A whole state to go on from (a combat migrated from a store that kept states, not inputs). */
export interface SnapshotEntry {
  t: 'snapshot';
  v: number;
  s: FlowState;
}

/** A change of the state as recorded by a store that kept patches (migrated history). */
export interface PatchEntry {
  t: 'patch';
  ops: PatchOp[];
}

/**
 * An input with the dice it rolled (`r`: totals, in order) and marks the
 * replay ignores: when a request made it, the request's key (`q`: sender and
 * request id), so that any GM can tell a retried request from a new one; on
 * a `leave`, who left (`k`: the token or actor a store knows them by), so
 * that coming back is told from joining; on an `attack`, what the blow was
 * (`b`), so that a GM taking over answers its retry and posts its card; on
 * a `declare` or `withdraw` that replaced the combatant's earlier entries of
 * the round's declarations (a change of mind, from log version 3), the keys
 * of the requests that made those (`qs`), so that their retries are still
 * known and a player's changes are counted (declaration-limit.ts).
 */
export type InputEntry = FlowInput & { r?: number[]; q?: string; qs?: string[]; k?: string; b?: BlowMark };

/**
 * What a blow was, as its card tells it (an `attack` entry's mark, from log
 * version 3): the d20 (`n`) and its total (`t`), the number it needed
 * (`need`), hit or miss, the damage taken (`d`), what struck (`l`); with a
 * natural 20 or 1 (`why`), a critical hit (`c`: rolled, multiplier, dealt),
 * Armour taken off (`ar`: how much, from what was dealt), the damage type (`ty`), the AC a casting changed
 * it to (`ac`). The hit's damage is the `hit` entry written with it: one fact.
 */
export interface BlowMark {
  n: number;
  t: number;
  need: number;
  hit: boolean;
  d: number;
  l: string;
  why?: string;
  c?: { rolled: number; multiplier: number; dealt: number };
  ar?: { armour: number; dealt: number };
  ty?: string;
  ac?: number;
}

export type LogEntry = StartEntry | SnapshotEntry | PatchEntry | InputEntry;

/** Keyed entries as they come from storage; played in key order. */
export type KeyedLog = Readonly<Record<string, LogEntry>>;

/** The number of an entry's key. */
export function numberOf(key: string): number {
  return parseInt(key.slice(1), 10);
}

/**
 * The entries of a stored log, in order of their numbers; two entries with
 * one number (written by two clients that each thought they were last) in
 * order of their keys, so that every client plays them in the same order.
 */
export function entriesOf(log: KeyedLog | null | undefined): [string, LogEntry][] {
  if (!log) return [];
  return Object.keys(log)
    .map((k) => [numberOf(k), k] as const)
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([, k]) => [k, log[k]]);
}

/** Dice that answer with the totals a transition rolled when it was first made. */
export class RecordedDice implements Dice {
  private i = 0;
  constructor(private readonly totals: readonly number[] = []) {}
  roll(request: DieRequest): number {
    const total = this.totals[this.i++];
    if (typeof total !== 'number' || total < request.count || total > request.count * request.faces) {
      throw new RulesError({ key: 'CombatLogOutOfStep', data: { purpose: request.purpose } });
    }
    return total;
  }
  /** Were all recorded dice used? */
  get done(): boolean {
    return this.i >= this.totals.length;
  }
}

/**
 * A state written by an older version of the engine, brought to this one.
 * Version 2 is the first of the log; version 1 states come from the
 * migration of stored flows (src/documents/migration.ts), already converted.
 * Version 3 only adds what version 2 states never hold (state.ts,
 * FLOW_VERSION): a version 2 state is a version 3 state as it is; version 4
 * likewise adds only what earlier states never hold.
 */
export function migrateState(state: FlowState, from: number): FlowState {
  if (from > FLOW_VERSION) throw new RulesError({ key: 'CombatFromNewerVersion', data: { version: from } });
  state.v = FLOW_VERSION;
  return state;
}

/** Does a transition from `before` to `after` open a new round's declarations? */
export function opensRound(before: Pick<FlowState, 'stage' | 'round'> | null, after: FlowState): boolean {
  return after.stage === 'declare' && (!before || before.stage !== 'declare' || before.round !== after.round);
}

export interface Replayed {
  state: FlowState | null;
  /** Entries the engine could not replay (skipped), with why: a log written by another version. */
  problems: { key: string; problem: Problem }[];
}

/** Where the combat stood after a number of entries. */
export interface Waypoint {
  /** Entries played. */
  entries: number;
  stage: FlowState['stage'];
  round: number;
}

/** Round openings kept in memory (the oldest are dropped beyond this). */
const KEPT_ROUNDS = 64;

/**
 * The replay of one combat's log, kept between calls: called again with the
 * same entries plus new ones, it replays only the new ones; with entries
 * removed or replaced, it goes on from the last round opening before the
 * first difference. A state it has returned is never changed afterwards
 * (callers may keep it as "before").
 */
export class FlowLog {
  private keys: string[] = [];
  private state: FlowState | null = null;
  /** The state was given to a caller: it is never changed after that (the next entry works on a copy). */
  private given = false;
  /** States at round openings, by entries played (never changed: copies are replayed). */
  private marks: { entries: number; state: FlowState }[] = [];
  /** Stage and round after each number of entries (index = entries played). */
  private path: Waypoint[] = [];
  private problems: (Replayed['problems'][number] & { at: number })[] = [];

  /** The state after `entries` (in order, as entriesOf gives them). */
  read(entries: readonly (readonly [string, LogEntry])[]): Replayed {
    let same = 0;
    while (same < this.keys.length && same < entries.length && this.keys[same] === entries[same][0]) same++;
    if (same < this.keys.length) this.rewind(same);
    else if (this.given && this.keys.length < entries.length && this.state) this.state = copyJson(this.state);
    for (let i = this.keys.length; i < entries.length; i++) this.play(entries[i][0], entries[i][1]);
    this.given = true;
    return { state: this.state, problems: this.problems.map(({ key, problem }) => ({ key, problem })) };
  }

  /** Stage and round after each prefix of the entries last read (index 0: nothing played). */
  waypoints(): readonly Waypoint[] {
    return this.path;
  }

  /** Forget everything (the next read replays from the start). */
  reset(): void {
    this.keys = [];
    this.state = null;
    this.marks = [];
    this.path = [];
    this.problems = [];
    this.given = false;
  }

  /** Back to at most `entries` played: from the last round opening at or before it. */
  private rewind(entries: number): void {
    this.marks = this.marks.filter((m) => m.entries <= entries);
    const mark = this.marks[this.marks.length - 1];
    if (!mark) return this.reset();
    this.keys.length = mark.entries;
    this.path.length = mark.entries + 1;
    this.problems = this.problems.filter((p) => p.at < mark.entries);
    this.state = copyJson(mark.state);
    this.given = false;
  }

  private play(key: string, e: LogEntry): void {
    const at = this.keys.length;
    this.keys.push(key);
    const before = this.state ? { stage: this.state.stage, round: this.state.round } : null;
    if (e.t === 'start') {
      if (e.v > FLOW_VERSION) this.fail(key, at, { key: 'CombatFromNewerVersion', data: { version: e.v } });
      else this.state = flowFrom(e.s);
    } else if (e.t === 'snapshot') {
      const problem = e.v > FLOW_VERSION ? { key: 'CombatFromNewerVersion', data: { version: e.v } } : null;
      if (problem) this.fail(key, at, problem);
      else this.state = migrateState(copyJson(e.s), e.v);
    } else if (!this.state) {
      this.fail(key, at, { key: 'CombatLogNoStart' });
    } else if (e.t === 'patch') {
      this.state = patchInPlace(this.state as unknown as Json, e.ops) as unknown as FlowState;
    } else {
      const { r, q: _q, qs: _qs, k: _k, b: _b, ...input } = e;
      let done;
      try {
        done = applyInput(this.state, input as FlowInput, new RecordedDice(r));
      } catch (err) {
        if (!(err instanceof RulesError)) throw err;
        done = { ok: false as const, problem: err.problem };
      }
      if (!done.ok) this.fail(key, at, done.problem);
    }
    if (this.path.length === 0) this.path.push({ entries: 0, stage: 'declare', round: 0 });
    const s = this.state;
    this.path.push(s ? { entries: at + 1, stage: s.stage, round: s.round } : { entries: at + 1, stage: 'declare', round: 0 });
    if (s && (e.t === 'start' || e.t === 'snapshot' || opensRound(before, s))) {
      this.marks.push({ entries: at + 1, state: copyJson(s) });
      if (this.marks.length > KEPT_ROUNDS) this.marks.shift();
    }
  }

  private fail(key: string, at: number, problem: Problem): void {
    this.problems.push({ key, problem, at });
  }
}

/** Replay a whole log at once (no cache). */
export function replay(log: KeyedLog | null | undefined): Replayed {
  return new FlowLog().read(entriesOf(log));
}
