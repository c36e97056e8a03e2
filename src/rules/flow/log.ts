/**
 * A combat as its log of transitions. Foundry's Combat stores only this: the
 * start (what starting decided), then each input with the dice it rolled,
 * appended as keyed entries. Every client derives the flow's state by
 * replaying the log with the engine (transitions.ts), and keeps the result,
 * so a new entry replays only itself. Previous deletes the last entry.
 *
 * Checkpoints. The entry that opens a round's declarations also carries the
 * changes of the whole state since the previous such checkpoint (`cp`), with
 * the version of the engine that wrote it (`v`). A client folds the
 * checkpoints (cheap: each holds what changed in one round) and replays only
 * the entries after the last one. So a running combat stays whole when the
 * engine changes between two sessions: the rules a later version changes
 * apply from the last round boundary on, and a state written by an older
 * version is migrated (migrateState) before the newer engine goes on.
 */
import { RulesError, type Problem } from '../model';
import type { Dice, DieRequest } from '../dice';
import { diff, patchInPlace, type Json, type PatchOp } from '../journal';
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

/** An input with the dice it rolled (`r`: totals, in order) and, when it opens a round, the checkpoint. */
export type InputEntry = FlowInput & { r?: number[]; cp?: PatchOp[]; v?: number };

export type LogEntry = StartEntry | SnapshotEntry | PatchEntry | InputEntry;

/** Keyed entries as they come from storage; played in key order. */
export type KeyedLog = Readonly<Record<string, LogEntry>>;

/** The key of the n-th entry (0-based): sorts as the numbers do. */
export function entryKey(n: number): string {
  return `e${String(n).padStart(5, '0')}`;
}

/** The entries of a stored log, in order. */
export function entriesOf(log: KeyedLog | null | undefined): [string, LogEntry][] {
  if (!log) return [];
  return Object.keys(log)
    .sort()
    .map((k) => [k, log[k]]);
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

/** Dice that remember every total they gave, for the entry that records them. */
export class RecordingDice implements Dice {
  readonly totals: number[] = [];
  constructor(private readonly inner: Dice) {}
  roll(request: DieRequest): number {
    const total = this.inner.roll(request);
    this.totals.push(total);
    return total;
  }
}

/**
 * A state written by an older version of the engine, brought to this one.
 * Version 2 is the first of the log; version 1 states come from the
 * migration of stored flows (src/documents/migration.ts), already converted.
 */
export function migrateState(state: FlowState, from: number): FlowState {
  if (from > FLOW_VERSION) throw new RulesError({ key: 'CombatFromNewerVersion', data: { version: from } });
  state.v = FLOW_VERSION;
  return state;
}

function isCheckpoint(e: LogEntry): boolean {
  return e.t === 'start' || e.t === 'snapshot' || (e as InputEntry).cp !== undefined;
}

/** Does a transition from `before` to `after` open a new round's declarations (where a checkpoint goes)? */
export function opensRound(before: FlowState | null, after: FlowState): boolean {
  return after.stage === 'declare' && (!before || before.stage !== 'declare' || before.round !== after.round);
}

export interface Replayed {
  state: FlowState | null;
  /** Entries the engine could not replay (skipped), with why: a log written by another version. */
  problems: { key: string; problem: Problem }[];
}

/**
 * The replay of one combat's log, kept between calls: called again with the
 * same entries plus new ones, it replays only the new ones. A state it has
 * returned is never changed afterwards (callers may keep it as "before").
 */
export class FlowLog {
  private keys: string[] = [];
  private state: FlowState | null = null;
  /** The state was given to a caller: it is never changed after that (the next entry works on a copy). */
  private given = false;
  /** The state at the last checkpoint (never changed: copies are replayed). */
  private checkpoint: FlowState | null = null;
  private problems: Replayed['problems'] = [];

  /** The state after `entries` (in order, as entriesOf gives them). */
  read(entries: readonly (readonly [string, LogEntry])[]): Replayed {
    const m = this.keys.length;
    const extends_ = m <= entries.length && this.keys.every((k, i) => entries[i][0] === k);
    if (!extends_) this.rebuild(entries);
    else {
      if (this.given && m < entries.length && this.state) this.state = structuredClone(this.state);
      for (let i = m; i < entries.length; i++) this.play(entries[i][0], entries[i][1]);
    }
    this.given = true;
    return { state: this.state, problems: this.problems };
  }

  /** The state at the last checkpoint read (not to be changed): the base of the next checkpoint. */
  checkpointState(): FlowState | null {
    return this.checkpoint;
  }

  /** The checkpoint to write with an entry that opens a round: what changed since the last one. */
  checkpointFor(next: FlowState): PatchOp[] {
    if (!this.checkpoint) return [];
    return diff(this.checkpoint as unknown as Json, next as unknown as Json);
  }

  /** Forget everything (the next read replays from the start). */
  reset(): void {
    this.keys = [];
    this.state = null;
    this.checkpoint = null;
    this.problems = [];
    this.given = false;
  }

  private rebuild(entries: readonly (readonly [string, LogEntry])[]): void {
    this.reset();
    // Fold the checkpoints up to the last one; replay what follows it.
    let last = -1;
    for (let i = 0; i < entries.length; i++) if (isCheckpoint(entries[i][1])) last = i;
    let folded: FlowState | null = null;
    let version = FLOW_VERSION;
    for (let i = 0; i <= last; i++) {
      const e = entries[i][1];
      if (e.t === 'start') {
        folded = flowFrom(e.s);
        version = e.v;
      } else if (e.t === 'snapshot') {
        folded = structuredClone(e.s);
        version = e.v;
      } else if ((e as InputEntry).cp && folded) {
        const v = (e as InputEntry).v ?? version;
        if (v > version) folded = migrateState(folded, version);
        folded = patchInPlace(folded as unknown as Json, (e as InputEntry).cp as PatchOp[]) as unknown as FlowState;
        version = Math.max(version, v);
      }
      this.keys.push(entries[i][0]);
    }
    if (folded) {
      this.checkpoint = migrateState(folded, version);
      this.state = structuredClone(this.checkpoint);
    }
    for (let i = last + 1; i < entries.length; i++) this.play(entries[i][0], entries[i][1]);
  }

  private play(key: string, e: LogEntry): void {
    this.keys.push(key);
    if (e.t === 'start') {
      this.checkpoint = flowFrom(e.s);
      this.state = structuredClone(this.checkpoint);
      return;
    }
    if (e.t === 'snapshot') {
      this.checkpoint = migrateState(structuredClone(e.s), e.v);
      this.state = structuredClone(this.checkpoint);
      return;
    }
    if (!this.state) {
      this.problems.push({ key, problem: { key: 'CombatLogNoStart' } });
      return;
    }
    if (e.t === 'patch') {
      this.state = patchInPlace(this.state as unknown as Json, e.ops) as unknown as FlowState;
      return;
    }
    const { r, cp, v, ...input } = e;
    const dice = new RecordedDice(r);
    let done;
    try {
      done = applyInput(this.state, input as FlowInput, dice);
    } catch (err) {
      if (!(err instanceof RulesError)) throw err;
      done = { ok: false as const, problem: err.problem };
    }
    if (!done.ok) this.problems.push({ key, problem: done.problem });
    if (cp && this.checkpoint) {
      // The checkpoint is what the GM's engine had: every client goes on from it.
      if (v !== undefined && v < FLOW_VERSION) this.checkpoint = migrateState(this.checkpoint, v);
      this.checkpoint = patchInPlace(this.checkpoint as unknown as Json, cp) as unknown as FlowState;
      this.state = structuredClone(this.checkpoint);
    }
  }
}

/** Replay a whole log at once (no cache). */
export function replay(log: KeyedLog | null | undefined): Replayed {
  return new FlowLog().read(entriesOf(log));
}
