/**
 * What crosses the socket: JSON. v14 update operators (_del, _replace) travel
 * as tagged objects and are rebuilt on arrival; everything else is JSON-copied
 * (class instances become their JSON, undefined keys vanish).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { DataFieldOperator, ForcedDeletion, ForcedReplacement } from './utils';

const TAG = '__standinOperator__';

/** Operators travel as tagged objects; the rest is JSON as socket.io sends it (no depth limit of its own; a cycle is an error). */
function tag(this: any, key: string, value: any): any {
  // toJSON has run already: the holder still has the operator itself.
  const raw = this?.[key];
  if (raw instanceof DataFieldOperator) return { [TAG]: raw instanceof ForcedDeletion ? 'ForcedDeletion' : 'ForcedReplacement', value: raw.value };
  return value;
}

/** The JSON text a payload travels as; an error if it cannot be serialized. */
export function encode(value: unknown): string {
  return JSON.stringify(value, tag) ?? 'null';
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
