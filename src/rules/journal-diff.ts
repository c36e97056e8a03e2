/**
 * The operations that turn one JSON value into another (diff) and a patched
 * copy (patch): the migration of schema-1 combats turns their stored history
 * into patch entries of the log (src/data/combat-log-v1.ts), and migrations
 * update only what changed. Applying patches is journal.ts (every client).
 */
import { patchInPlace, type Json, type PatchOp } from './journal';

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The operations that turn `from` into `to`. Objects are compared key by key;
 * an array that keeps its length, or only grows, item by item; anything else
 * is replaced whole.
 */
export function diff(from: Json, to: Json, path: (string | number)[] = [], out: PatchOp[] = []): PatchOp[] {
  if (Object.is(from, to)) return out;
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) {
      if (!Object.hasOwn(to, key)) out.push({ path: [...path, key] });
      else diff(from[key], to[key], [...path, key], out);
    }
    for (const key of Object.keys(to)) if (!Object.hasOwn(from, key)) out.push({ path: [...path, key], value: to[key] });
    return out;
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length <= to.length) {
    for (let i = 0; i < from.length; i++) diff(from[i], to[i], [...path, i], out);
    for (let i = from.length; i < to.length; i++) out.push({ path: [...path, i], value: to[i] });
    return out;
  }
  out.push({ path, value: to });
  return out;
}

/** Apply operations to a copy of `value`. */
export function patch(value: Json, ops: readonly PatchOp[]): Json {
  return patchInPlace(structuredClone(value), ops);
}
