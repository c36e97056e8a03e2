/**
 * What the log's writer (the active GM's chunk) and the migration need of
 * the log, and a reader does not: the keys entries are stored under, the
 * check that every entry is where its writer put it, and the dice that
 * record what a new transition rolled. Re-exported by the flow's index;
 * log.ts is what every client replays with at start-up.
 */
import type { Dice, DieRequest } from '../dice';
import { numberOf, type InputEntry, type LogEntry } from './log';

/** The key of the n-th entry (0-based). */
export function entryKey(n: number): string {
  return `e${String(n).padStart(5, '0')}`;
}

/**
 * The key a store gives the n-th entry: its number, then a hash of the key
 * before it and of the entry itself. A key is never used again for another
 * entry: after Previous the next input, being another entry (or the same one
 * after other entries), gets another key, so a reader that missed the
 * deletion still sees that the log changed there.
 */
export function chainKey(n: number, previous: string | null, entry: LogEntry): string {
  // The marks (q, qs, k, b) are not the transition: the same transition has the same key whoever asked for it.
  const { q: _q, qs: _qs, k: _k, b: _b, ...transition } = entry as InputEntry;
  const text = `${previous ?? ''}|${JSON.stringify(transition)}`;
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${entryKey(n)}x${(h >>> 0).toString(36)}`;
}

/**
 * The index of the first entry that is not where its writer put it, or -1.
 * An entry is in place when its number is its index and its key is the one
 * chainKey gives it after the entry before it (a migrated log's plain keys,
 * entryKey(n), are in place by their number). An entry written by a client
 * that had not yet seen another one (a GM handing over while a write was
 * in flight) shares a number with that entry or follows another key: it and
 * every entry after it must be played again on top (re-based).
 */
export function outOfPlace(entries: readonly (readonly [string, LogEntry])[]): number {
  let previous: string | null = null;
  for (let i = 0; i < entries.length; i++) {
    const [key, entry] = entries[i];
    if (numberOf(key) !== i) return i;
    if (key !== entryKey(i) && key !== chainKey(i, previous, entry)) return i;
    previous = key;
  }
  return -1;
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
