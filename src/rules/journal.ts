/**
 * Patches between two JSON values: the operations that turn one into the
 * other. The migration of schema-1 combats turns their stored history into
 * patch entries of the log (src/data/combat-log.ts), and migrations update
 * only what changed.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One change: set `path` to `value`, or delete it when `value` is absent. */
export interface PatchOp {
  path: (string | number)[];
  value?: Json;
}

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

/** Apply operations to a copy of `value`. */
export function patch(value: Json, ops: readonly PatchOp[]): Json {
  return patchInPlace(structuredClone(value), ops);
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
