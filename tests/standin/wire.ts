/**
 * What crosses the socket: JSON. v14 update operators (_del, _replace) travel
 * as tagged objects and are rebuilt on arrival; everything else is JSON-copied
 * (class instances become their JSON, undefined keys vanish).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { DataFieldOperator, ForcedDeletion, ForcedReplacement } from './utils';

const TAG = '__standinOperator__';

function tag(value: any, depth = 0): any {
  if (depth > 100) throw new Error('Maximum depth exceeded: the data is cyclical');
  if (value instanceof DataFieldOperator) return { [TAG]: value instanceof ForcedDeletion ? 'ForcedDeletion' : 'ForcedReplacement', value: tag(value.value, depth + 1) };
  if (Array.isArray(value)) return value.map((v) => tag(v, depth + 1));
  if (value && typeof value === 'object' && (value.constructor === Object || !value.constructor)) {
    const out: any = {};
    for (const [k, v] of Object.entries(value)) out[k] = tag(v, depth + 1);
    return out;
  }
  return value;
}

/** The JSON text a payload travels as; an error if it cannot be serialized. */
export function encode(value: unknown): string {
  return JSON.stringify(tag(value)) ?? 'null';
}

/** A fresh copy of a payload as the receiver sees it. */
export function decode(text: string): any {
  return JSON.parse(text, (_k, v) => {
    if (v && typeof v === 'object' && typeof v[TAG] === 'string') return v[TAG] === 'ForcedDeletion' ? new ForcedDeletion() : new ForcedReplacement(v.value);
    return v;
  });
}

/** A JSON copy (operators kept). */
export function wireCopy<T>(value: T): T {
  return decode(encode(value));
}
