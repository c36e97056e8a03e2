/**
 * Patches between two JSON values: the operations that turn one into the
 * other, applied (the log's patch entries, replayed by every client) and
 * copies of plain data. Making patches (journal-diff.ts: diff, patch) is
 * what the migration of schema-1 combats and the migrations do, in their
 * chunk, not at start-up.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One change: set `path` to `value`, or delete it when `value` is absent. */
export interface PatchOp {
  path: (string | number)[];
  value?: Json;
}

/** Apply operations to `value` itself (it is changed), returning the result (a new root if an op replaces it). */
export function patchInPlace(value: Json, ops: readonly PatchOp[]): Json {
  let root = value;
  for (const op of ops) {
    if (op.path.length === 0) {
      root = op.value === undefined ? null : structuredClone(op.value);
      continue;
    }
    let node = root as Record<string | number, Json>;
    for (let i = 0; i < op.path.length - 1; i++) node = node[op.path[i]] as Record<string | number, Json>;
    const last = op.path[op.path.length - 1];
    if (op.value === undefined) {
      if (Array.isArray(node) && typeof last === 'number') node.length = Math.min(node.length, last);
      else delete node[last];
    }
    // defineProperty, so a key such as "__proto__" stays an ordinary key
    else Object.defineProperty(node, last, { value: structuredClone(op.value), writable: true, enumerable: true, configurable: true });
  }
  return root;
}

/**
 * A deep copy of plain data (objects, arrays, numbers, strings, booleans,
 * null, undefined): what structuredClone gives for it, several times faster
 * on the small objects the engine copies (declarations, states).
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyJson((value as Record<string, unknown>)[key]);
  return out as T;
}
