/**
 * foundry.utils as the system uses it, written from the v13 behaviour of
 * common/utils/helpers.mjs (see README.md), plus the v14 update operators.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { state } from './state';

/* ------------------------------------------------------------ operators (v14) */

/** v14 foundry.data.operators: values that stand at the field's own key. */
export class DataFieldOperator {
  readonly value: unknown;
  constructor(value?: unknown) {
    this.value = value;
  }
  static create(value?: unknown): DataFieldOperator {
    return new this(value);
  }
  toJSON(): object {
    return { __$OPERATOR$__: this.constructor.name };
  }
}
export class ForcedDeletion extends DataFieldOperator {
  constructor(_value?: unknown) {
    super(undefined);
  }
}
export class ForcedReplacement extends DataFieldOperator {}

export const isOperator = (v: unknown): v is DataFieldOperator => v instanceof DataFieldOperator;

/* ------------------------------------------------------------------ types */

export function getType(v: unknown): string {
  const t = typeof v;
  if (t !== 'object') return t;
  if (v === null) return 'null';
  const ctor = (v as any).constructor;
  if (!ctor || ctor === Object) return 'Object';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Set) return 'Set';
  if (v instanceof Map) return 'Map';
  if (v instanceof Promise) return 'Promise';
  if (v instanceof Error) return 'Error';
  return 'Object';
}

/** A plain object in the sense mergeObject recurses into (not an operator). */
const isPlain = (v: unknown): v is Record<string, any> => getType(v) === 'Object' && !isOperator(v);

export function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  switch (getType(v)) {
    case 'Array':
      return !(v as unknown[]).length;
    case 'Object':
      return isOperator(v) ? false : !Object.keys(v as object).length;
    case 'Set':
    case 'Map':
      return !(v as Set<unknown>).size;
    default:
      return false;
  }
}

export function isDeletionKey(key: unknown): boolean {
  return typeof key === 'string' && key[1] === '=' && (key[0] === '=' || key[0] === '-');
}

export function isSubclass(cls: unknown, parent: any): boolean {
  return typeof cls === 'function' && (cls === parent || parent.isPrototypeOf(cls));
}

/* ------------------------------------------------------------------ cloning */

export function deepClone<T>(original: T, { strict = false } = {}, _d = 0): T {
  if (_d > 100) throw new Error('Maximum depth exceeded. Be sure your object does not contain cyclical data structures.');
  if (typeof original !== 'object' || original === null) return original;
  if (Array.isArray(original)) return original.map((o) => deepClone(o, { strict }, _d + 1)) as T;
  if (original instanceof Date) return new Date(original) as T;
  const ctor = (original as any).constructor;
  if (ctor && ctor !== Object) {
    if (strict) throw new Error('deepClone cannot clone advanced objects');
    return original;
  }
  const clone: any = {};
  for (const k of Object.keys(original)) clone[k] = deepClone((original as any)[k], { strict }, _d + 1);
  return clone;
}

export function duplicate<T>(original: T): T {
  return JSON.parse(JSON.stringify(original));
}

/* ----------------------------------------------------------- dotted paths */

export function getProperty(object: any, key: string): any {
  if (!key || object == null) return undefined;
  if (key in Object(object)) return object[key];
  let target = object;
  for (const p of key.split('.')) {
    if (target == null || typeof target !== 'object') return undefined;
    target = target[p];
  }
  return target;
}

export function hasProperty(object: any, key: string): boolean {
  if (!key || object == null) return false;
  let target = object;
  for (const p of key.split('.')) {
    if (target == null || typeof target !== 'object' || !(p in target)) return false;
    target = target[p];
  }
  return true;
}

export function setProperty(object: any, key: string, value: unknown): boolean {
  if (!key) return false;
  let target = object;
  const parts = key.split('.');
  const last = parts.pop() as string;
  for (const p of parts) {
    if (!(p in target) || target[p] === null || typeof target[p] !== 'object') target[p] = {};
    target = target[p];
  }
  if (target[last] === value) return false;
  target[last] = value;
  return true;
}

export function expandObject(obj: Record<string, any>, _d = 0): any {
  if (_d > 100) throw new Error('Maximum object expansion depth exceeded');
  // Only simple objects are expanded; class instances (a Roll, an operator) are kept as they are.
  const expand = (v: any): any => {
    if (Array.isArray(v)) return v.map(expand);
    if (v && typeof v === 'object' && v.constructor?.name === 'Object') return expandObject(v, _d + 1);
    return v;
  };
  const expanded: any = {};
  for (const [k, v] of Object.entries(obj)) setProperty(expanded, k, expand(v));
  return expanded;
}

export function flattenObject(obj: Record<string, any>, _d = 0): Record<string, any> {
  if (_d > 100) throw new Error('Maximum depth exceeded');
  const flat: Record<string, any> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (isPlain(v) && !isEmpty(v)) {
      for (const [ik, iv] of Object.entries(flattenObject(v, _d + 1))) flat[`${k}.${ik}`] = iv;
    } else flat[k] = v;
  }
  return flat;
}

/* ---------------------------------------------------------------- merging */

export interface MergeOptions {
  insertKeys?: boolean;
  insertValues?: boolean;
  overwrite?: boolean;
  recursive?: boolean;
  inplace?: boolean;
  enforceTypes?: boolean;
  performDeletions?: boolean;
}

/** Remove special keys from a replacement value (v13 applySpecialKeys). */
export function applySpecialKeys(obj: any): any {
  if (Array.isArray(obj)) return obj.map(applySpecialKeys);
  if (!isPlain(obj)) return isOperator(obj) && obj instanceof ForcedReplacement ? applySpecialKeys(obj.value) : obj;
  const clone: any = {};
  for (const [k, v] of Object.entries(obj)) {
    if (isDeletionKey(k)) {
      if (k[0] === '-') {
        if (v !== null) throw deletionValueError();
        delete clone[k.slice(2)];
      } else clone[k.slice(2)] = applySpecialKeys(v);
    } else if (v instanceof ForcedDeletion) delete clone[k];
    else clone[k] = applySpecialKeys(v);
  }
  return clone;
}

const deletionValueError = () =>
  new Error(
    'Removing a key using the -= deletion syntax requires the value of that deletion key to be null, for example {-=key: null}',
  );

export function mergeObject(original: any, other: any = {}, options: MergeOptions = {}, _d = 0): any {
  const o = {
    insertKeys: true,
    insertValues: true,
    overwrite: true,
    recursive: true,
    inplace: true,
    enforceTypes: false,
    performDeletions: false,
    ...options,
  };
  other = other || {};
  if (!isPlain(original) || !isPlain(other)) throw new Error('One of original or other are not Objects!');
  if (_d === 0) {
    if (Object.keys(other).some((k) => k.includes('.'))) other = expandObject(other);
    if (Object.keys(original).some((k) => k.includes('.'))) {
      const expanded = expandObject(original);
      if (o.inplace) {
        for (const k of Object.keys(original)) delete original[k];
        Object.assign(original, expanded);
      } else original = expanded;
    } else if (!o.inplace) original = deepClone(original);
  }
  for (const k of Object.keys(other)) {
    const v = other[k];
    if (Object.prototype.hasOwnProperty.call(original, k)) mergeUpdate(original, k, v, _d + 1, o);
    else mergeInsert(original, k, v, _d + 1, o);
  }
  return original;
}

function mergeInsert(original: any, k: string, v: any, _d: number, o: Required<MergeOptions>): void {
  if (o.performDeletions) {
    if (k.startsWith('==')) {
      original[k.slice(2)] = applySpecialKeys(v);
      return;
    }
    if (k.startsWith('-=')) {
      if (v !== null) throw deletionValueError();
      delete original[k.slice(2)];
      return;
    }
    if (v instanceof ForcedDeletion) return; // nothing to delete
    if (v instanceof ForcedReplacement) {
      original[k] = applySpecialKeys(v.value);
      return;
    }
  }
  const canInsert = (_d <= 1 && o.insertKeys) || (_d > 1 && o.insertValues);
  if (!canInsert) return;
  if (isPlain(v)) {
    original[k] = mergeObject({}, v, { insertKeys: true, inplace: true, performDeletions: o.performDeletions });
    return;
  }
  original[k] = v;
}

function mergeUpdate(original: any, k: string, v: any, _d: number, o: Required<MergeOptions>): void {
  if (o.performDeletions && v instanceof ForcedDeletion) {
    delete original[k];
    return;
  }
  if (o.performDeletions && v instanceof ForcedReplacement) {
    original[k] = applySpecialKeys(v.value);
    return;
  }
  const x = original[k];
  const tv = getType(v);
  const tx = getType(x);
  if (isPlain(v) && isPlain(x) && o.recursive) {
    mergeObject(x, v, { ...o, inplace: true }, _d);
    return;
  }
  if (o.overwrite) {
    if (tx !== 'undefined' && tv !== tx && o.enforceTypes) throw new Error('Mismatched data types encountered during object merge.');
    original[k] = v;
  }
}

/* ------------------------------------------------------------------ diffs */

export function objectsEqual(a: any, b: any): boolean {
  if (a == null || b == null) return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => objectsEqual(v, b[i]));
  if (!isPlain(a) || !isPlain(b)) return a === b;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && objectsEqual(a[k], b[k]));
}

/**
 * Differences of `other` against `original`: only changed keys. With
 * deletionKeys, a deletion ("-=k" in v13, ForcedDeletion in v14) is kept only
 * if the key exists. Arrays count as changed unless deeply equal.
 */
export function diffObject(original: any, other: any, { inner = false, deletionKeys = false } = {}, _d = 0): any {
  if (_d > 100) throw new Error('Maximum diffObject depth exceeded. Be careful of cyclical data structures.');
  const diff: any = {};
  for (const key of Object.keys(other)) {
    const v1 = other[key];
    if (deletionKeys && isDeletionKey(key)) {
      const target = key.slice(2);
      const has = original != null && target in original;
      if (inner && !has) continue;
      if (key[0] === '-') {
        if (v1 !== null) throw deletionValueError();
        if (has) diff[key] = null;
      } else diff[key] = applySpecialKeys(v1);
      continue;
    }
    const has = original != null && key in original;
    if (inner && !has) continue;
    const v0 = has ? original[key] : undefined;
    if (deletionKeys && v1 instanceof ForcedDeletion) {
      if (has) diff[key] = v1;
      continue;
    }
    if (deletionKeys && v1 instanceof ForcedReplacement) {
      diff[key] = v1;
      continue;
    }
    if (v1 === undefined || v1 === null) {
      if (v0 !== v1) diff[key] = v1;
      continue;
    }
    if (getType(v0) !== getType(v1)) {
      diff[key] = applySpecialKeys(v1);
      continue;
    }
    if (isPlain(v0) && isPlain(v1)) {
      if (isEmpty(v1)) continue;
      const d = diffObject(v0, v1, { inner, deletionKeys }, _d + 1);
      if (!isEmpty(d)) diff[key] = d;
      continue;
    }
    if (Array.isArray(v1)) {
      if (!objectsEqual(v0, v1)) diff[key] = v1;
      continue;
    }
    if (v0?.valueOf() !== v1.valueOf()) diff[key] = v1;
  }
  return diff;
}

/* ------------------------------------------------------------------ misc */

export function randomID(length = 16): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  for (let i = 0; i < length; i++) id += chars[Math.floor(state.rng() * chars.length)];
  return id;
}

export function debounce<A extends unknown[]>(callback: (...args: A) => void, delay: number): (...args: A) => void {
  let timeoutId: ReturnType<typeof setTimeout> | undefined;
  return function (this: unknown, ...args: A) {
    clearTimeout(timeoutId);
    timeoutId = setTimeout(() => callback.apply(this, args), delay);
  };
}

export function escapeHTML(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c] as string);
}

export const utils = {
  applySpecialKeys,
  debounce,
  deepClone,
  diffObject,
  duplicate,
  escapeHTML,
  expandObject,
  flattenObject,
  getProperty,
  getType,
  hasProperty,
  isDeletionKey,
  isEmpty,
  isSubclass,
  mergeObject,
  objectsEqual,
  randomID,
  setProperty,
};
