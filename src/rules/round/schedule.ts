/**
 * The round kit's schedule builder, shared by every procedure: entries are
 * placed at time keys (numbers; equal keys are one simultaneous step, lower
 * keys come first), castings name their moments by key, and `build` turns
 * them into the ordered steps and step indices of a Schedule. Every step
 * keeps its key, so a late joiner can be spliced in later (splice.ts).
 */
import type { ProcedureId } from '../model';
import { SEGMENTS_PER_ROUND } from '../model';
import type { Casting, InitiativeResult, Schedule, Step, StepEntry } from '../procedure';

/** A time key. A procedure packs its own parts into one (see `pack`). */
export type Key = number;

/** A step index no round reaches: "never" for lossFrom / preventFrom (JSON-safe, unlike Infinity). */
export const NEVER = Number.MAX_SAFE_INTEGER;

/**
 * A key from parts compared as a tuple is (the first part weighs most). Each
 * part is clamped to 0 … radix − 1 (bad data never breaks a plan); all but
 * the last are whole numbers, the last may have a fraction. radix^parts must
 * stay below 2^53.
 */
export function pack(radix: number, ...parts: number[]): Key {
  let key = 0;
  const last = parts.length - 1;
  for (let i = 0; i <= last; i++) {
    let p = parts[i];
    if (!(p > 0)) p = 0; // also NaN
    else if (p > radix - 1) p = radix - 1;
    else if (i < last) p = Math.floor(p);
    key = key * radix + p;
  }
  return key;
}

/** Where a step is in the round, as the tracker shows it. */
export interface Where {
  phase: string;
  segment?: number;
  count?: number;
}

/**
 * From which step damage to the caster loses (lossFrom) or prevents
 * (preventFrom) a casting: the start of the round, never, the step after the
 * one being played (late joiners), or the first step at or after a key.
 */
export type From = Key | 'start' | 'never' | 'next';

/** A casting as planned: its moments as keys (null: it does not begin / go off this round). */
export interface PlannedCasting extends Pick<Casting, 'id' | 'caster' | 'spell' | 'device' | 'castingTime' | 'beganRound' | 'expends' | 'remaining'> {
  begin: Key | null;
  complete: Key | null;
  lossFrom: From;
  preventFrom: From;
}

interface Slot {
  key: Key;
  step: Step;
}

/** The step of a key and where it stands, for entries that arrive in bursts at one key. */
function newStep(key: Key, where: Where): Step {
  const step: Step = { phase: where.phase, key, entries: [] };
  if (where.segment !== undefined) step.segment = where.segment;
  if (where.count !== undefined) step.count = where.count;
  return step;
}

/** Sorts few slots by an insertion sort (the library sort's set-up costs more), many by the library sort. */
function sortByKey(slots: Slot[]): Slot[] {
  if (slots.length > 24) return slots.sort((a, b) => a.key - b.key);
  for (let i = 1; i < slots.length; i++) {
    const s = slots[i];
    let j = i - 1;
    for (; j >= 0 && slots[j].key > s.key; j--) slots[j + 1] = slots[j];
    slots[j + 1] = s;
  }
  return slots;
}

/** A round's schedule from its steps and castings: castings that do not go off this round carry into the next. */
export function makeSchedule(procedure: ProcedureId, round: number, steps: Step[], castings: Casting[], initiative?: InitiativeResult): Schedule {
  const schedule: Schedule = { procedure, round, steps, castings, carryOut: castings.filter((c) => c.completeStep === null) };
  if (initiative) schedule.initiative = initiative;
  return schedule;
}

/** Resolves a casting's `From` against built steps (sorted by key): step indices. */
export function fromIndex(from: From, keys: readonly Key[], next = 0): number {
  if (from === 'start') return 0;
  if (from === 'never') return NEVER;
  if (from === 'next') return next;
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class RoundBuilder {
  private readonly slots = new Map<Key, Slot>();
  private last: Slot | null = null;
  private readonly castings: PlannedCasting[] = [];
  private readonly carried: Casting[] = [];

  constructor(
    private readonly procedure: ProcedureId,
    private readonly round: number,
  ) {}

  /** An entry at a key; the first entry of a key makes its step, in the place `where` says. */
  add(key: Key, where: Where, entry: StepEntry): void {
    let slot = this.last !== null && this.last.key === key ? this.last : this.slots.get(key);
    if (!slot) {
      slot = { key, step: newStep(key, where) };
      this.slots.set(key, slot);
    }
    slot.step.entries.push(entry);
    this.last = slot;
  }

  /** A step at a key with no entry yet (a moment something happens at, such as a casting beginning). */
  touch(key: Key, where: Where): void {
    if (!this.slots.has(key)) this.slots.set(key, { key, step: newStep(key, where) });
  }

  has(key: Key): boolean {
    return this.slots.has(key);
  }

  cast(casting: PlannedCasting): void {
    this.castings.push(casting);
  }

  /** A casting that began earlier and runs through this whole round: a spell can be broken from the start, a device never. */
  carry(casting: Casting): void {
    const vulnerable = casting.device ? NEVER : 0;
    this.carried.push({ ...casting, beginStep: -1, completeStep: null, lossFrom: vulnerable, preventFrom: vulnerable });
  }

  /**
   * A casting carried in from the previous round: it goes off at `at` (a
   * `cast-complete` entry there, damage from the start of the round breaking
   * it unless `vulnerable` says otherwise), or, with `at` null, it runs
   * through this round too with ten segments less to go.
   */
  carryIn(casting: Casting, at: { key: Key; where: Where; reason: string } | null, vulnerable?: From): void {
    if (at === null) {
      this.carry({ ...casting, remaining: casting.remaining - SEGMENTS_PER_ROUND });
      return;
    }
    this.add(at.key, at.where, {
      combatant: casting.caster,
      kind: 'cast-complete',
      action: casting.device ? 'device' : 'spell',
      casting: casting.id,
      reason: at.reason,
    });
    const from: From = vulnerable ?? (casting.device ? 'never' : 'start');
    this.cast({
      id: casting.id,
      caster: casting.caster,
      spell: casting.spell,
      device: casting.device,
      castingTime: casting.castingTime,
      beganRound: casting.beganRound,
      begin: null,
      complete: at.key,
      lossFrom: from,
      preventFrom: from,
      expends: casting.expends,
      remaining: 0,
    });
  }

  build(initiative?: InitiativeResult): Schedule {
    const slots = sortByKey([...this.slots.values()]);
    const steps: Step[] = new Array(slots.length);
    const keys: Key[] = new Array(slots.length);
    const index = new Map<Key, number>();
    for (let i = 0; i < slots.length; i++) {
      steps[i] = slots[i].step;
      keys[i] = slots[i].key;
      index.set(slots[i].key, i);
    }
    const stepOf = (key: Key | null): number | null => {
      if (key === null) return null;
      const i = index.get(key);
      if (i === undefined) throw new Error(`a casting refers to a time with no step: ${key}`);
      return i;
    };
    const castings: Casting[] = this.castings.map((c) => castingAt(c, stepOf, (from) => fromIndex(from, keys)));
    for (const c of this.carried) castings.push(c);
    return makeSchedule(this.procedure, this.round, steps, castings, initiative);
  }
}

/** A planned casting placed: its begin and completion at the steps of their keys, its windows as `window` reads them. */
export function castingAt(c: PlannedCasting, stepOf: (key: Key | null) => number | null, window: (from: From) => number): Casting {
  return {
    id: c.id,
    caster: c.caster,
    spell: c.spell,
    device: c.device,
    castingTime: c.castingTime,
    beganRound: c.beganRound,
    beginStep: c.begin === null ? -1 : (stepOf(c.begin) as number),
    completeStep: stepOf(c.complete),
    lossFrom: window(c.lossFrom),
    preventFrom: window(c.preventFrom),
    expends: c.expends,
    remaining: c.remaining,
  };
}

/** Segment in which a casting begun in segment `start` goes off (ruling: S + casting time), and how many rounds later. */
export function goesOffAt(start: number, castingTime: number): { round: number; segment: number } {
  const absolute = start + castingTime;
  const extra = Math.floor((absolute - 1) / SEGMENTS_PER_ROUND);
  return { round: extra, segment: absolute - extra * SEGMENTS_PER_ROUND };
}
