/**
 * The one late-joiner splice. A procedure places a newcomer's entries at the
 * keys they would have had (and decides which moments have already passed);
 * this merges them into the round being played without moving anything that
 * was already planned: a step keeps its entries and its place in time, and
 * every casting keeps pointing at its steps (a window open from the start of
 * the round stays so).
 */
import type { Casting, Schedule, Step, StepEntry } from '../procedure';
import { castingAt, fromIndex, makeSchedule, NEVER, type Key, type PlannedCasting, type Where } from './schedule';

/** One entry of a newcomer, at its key. */
export interface Placed {
  key: Key;
  where: Where;
  /** Absent: an empty step at this key (a moment the GM stops at), or nothing added to the step there. */
  entry?: StepEntry;
  /**
   * true (default): join the step with this key if it is still to come.
   * false: always a step of its own, after every step at or before this key.
   */
  join?: boolean;
}

/** The key of step `index`, or -Infinity before the first step. */
export function keyAt(schedule: Schedule, index: number): Key {
  return index >= 0 && index < schedule.steps.length ? schedule.steps[index].key : -Infinity;
}

/**
 * `schedule` with `placed` spliced in. Steps 0 … currentStep have been
 * played: nothing is placed at or before them. The newcomer's castings get
 * their steps by key (`begin` / `complete`: the step of that key still to
 * come) and their windows as usual ('next' is the step after the current one).
 */
export function splice(schedule: Schedule, currentStep: number, placed: readonly Placed[], castings: readonly PlannedCasting[] = []): Schedule {
  if (placed.length === 0 && castings.length === 0) return schedule;
  const first = Math.max(0, currentStep + 1);
  const old = schedule.steps;
  const steps: Step[] = old.map((s) => ({ ...s, entries: [...s.entries] }));
  const copies = [...steps];
  for (const p of placed) {
    if (p.join !== false) {
      const at = steps.findIndex((s, i) => i >= first && s.key === p.key);
      if (at >= 0) {
        if (p.entry) steps[at].entries.push(p.entry);
        continue;
      }
    }
    let at = first;
    while (at < steps.length && steps[at].key <= p.key) at++;
    const step: Step = { phase: p.where.phase, key: p.key, entries: p.entry ? [p.entry] : [] };
    if (p.where.segment !== undefined) step.segment = p.where.segment;
    if (p.where.count !== undefined) step.count = p.where.count;
    steps.splice(at, 0, step);
  }
  // Where each planned step went: castings follow their steps.
  const moved = new Map<Step, number>();
  steps.forEach((s, i) => moved.set(s, i));
  const follow = (k: number): number => {
    if (k < 0 || k >= NEVER) return k;
    if (k >= old.length) return steps.length;
    return moved.get(copies[k]) as number;
  };
  // A window open from the start of the round (step 0) stays open from the start, even when a newcomer's step now comes
  // first; a loss window that opens with the casting's own first step moves with it.
  const out: Casting[] = schedule.castings.map((c) => ({
    ...c,
    beginStep: follow(c.beginStep),
    completeStep: c.completeStep === null ? null : follow(c.completeStep),
    lossFrom: c.lossFrom === 0 && c.beginStep !== 0 ? 0 : follow(c.lossFrom),
    preventFrom: c.preventFrom === 0 ? 0 : follow(c.preventFrom),
  }));
  const keys = steps.map((s) => s.key);
  const stepOf = (key: Key | null): number | null => {
    if (key === null) return null;
    const i = steps.findIndex((s, j) => j >= first && s.key === key);
    if (i < 0) throw new Error(`a late joiner's casting refers to a time with no step: ${key}`);
    return i;
  };
  const after = (from: PlannedCasting['lossFrom']): number =>
    typeof from === 'number' ? Math.max(first, fromIndex(from, keys)) : fromIndex(from, keys, first);
  for (const c of castings) out.push(castingAt(c, stepOf, after));
  return makeSchedule(schedule.procedure, schedule.round, steps, out, schedule.initiative);
}
