/**
 * Checking one value or object of a scenario against its spec, collecting
 * every problem with the path of its field ("combatants[2].hp").
 */
import type { Problem } from '../../rules/model';
import { WEAPON_FIELDS, type Spec } from './fields';

/** How much of a value from the file a message quotes (characters, before the ellipsis). */
export const EXCERPT_LENGTH = 60;

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less tab, line feed and carriage return: what free text (a description, a note) may not hold. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** A control character written out as a JSON-style escape: "\u0000". */
export function escapeChar(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The first control character of a string (free text may hold tabs and line breaks), or undefined. */
export function controlCharacter(s: string, freeText = false): { char: string; position: number } | undefined {
  const m = (freeText ? CONTROL_IN_TEXT : CONTROL).exec(s);
  return m ? { char: m[0], position: m.index + 1 } : undefined;
}

/**
 * A short, printable excerpt of text from the file: control characters
 * escaped, never more than `max` characters, an ellipsis where it was cut.
 * Whatever a file holds, a message quotes no more than this of it.
 */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
  let out = '';
  let length = 0;
  for (const ch of text) {
    const piece = CONTROL.test(ch) ? escapeChar(ch) : ch;
    if (length + piece.length > max) return out + '…';
    out += piece;
    length += piece.length;
  }
  return out;
}

const STOP = Symbol('enough');

/** JSON-like text of a value, written only until `limit` characters (a value may be huge, or share parts many times over). */
function preview(value: unknown, limit: number): string {
  let out = '';
  const open = new Set<object>();
  const put = (s: string) => {
    out += s;
    if (out.length > limit) throw STOP;
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') return put(JSON.stringify(v.length > limit ? v.slice(0, limit + 1) : v));
    if (typeof v === 'number') return put(Number.isFinite(v) ? String(v) : 'null');
    if (typeof v !== 'object' || v === null) return put(String(v));
    if (v instanceof Date) return put(JSON.stringify(v));
    if (open.has(v)) return put('…');
    open.add(v);
    if (Array.isArray(v)) {
      put('[');
      v.forEach((x, i) => {
        if (i > 0) put(',');
        walk(x);
      });
      put(']');
    } else {
      put('{');
      Object.entries(v).forEach(([k, x], i) => {
        put(`${i > 0 ? ',' : ''}${JSON.stringify(k.length > limit ? k.slice(0, limit + 1) : k)}:`);
        walk(x);
      });
      put('}');
    }
    open.delete(v);
  };
  try {
    walk(value);
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return out;
}

/** A printable excerpt of any value from a scenario file (see excerpt), even one whose toString throws. */
export function show(value: unknown, max = EXCERPT_LENGTH): string {
  if (typeof value === 'string') return excerpt(value, max);
  try {
    return excerpt(preview(value, max + 1), max);
  } catch {
    return typeof value;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The path of a field inside `path`. */
export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Edit distance, for "did you mean" on misspelt fields (short strings only). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[n];
}

/** The candidate a word is close enough to, as a slip (not a wholesale replacement of a very short word). */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return bestD <= Math.max(1, Math.floor(word.length / 3)) && bestD < word.length ? best : undefined;
}

export class Collector {
  readonly problems: Problem[] = [];
  add(key: string, path: string, data?: Record<string, string | number>): void {
    const p: Problem = { key, path };
    if (data) p.data = data;
    this.problems.push(p);
  }
  unknownField(field: string, path: string, allowed: readonly string[]): void {
    const s = suggest(field, allowed);
    if (s) this.add('UnknownFieldDidYouMean', join(path, field), { field, suggestion: s });
    else this.add('UnknownField', join(path, field), { field, allowed: allowed.join(', ') });
  }
}

/**
 * No control character in text from the file (ids, names, the procedure, any
 * field; free text may hold tabs and line breaks): a NUL in an id would make
 * a message that shows two equal ids. The character is named escaped.
 */
export function controlFree(value: string, path: string, field: string, out: Collector, freeText = false): boolean {
  const found = controlCharacter(value, freeText);
  if (!found) return true;
  out.add('ControlCharacter', path, { field, char: escapeChar(found.char), position: found.position, value: excerpt(value) });
  return false;
}

/** Check a value against a spec; returns the cleaned value, or undefined (the problem recorded). */
export function checkValue(value: unknown, spec: Spec, path: string, field: string, out: Collector): unknown {
  if (typeof value === 'string' && !controlFree(value, path, field, out, spec.t === 'string' && spec.text === true)) return undefined;
  switch (spec.t) {
    case 'string':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value !== 'string') return out.add('ExpectedText', path, { field }), undefined;
      if (spec.required && value.trim() === '') return out.add('EmptyText', path, { field }), undefined;
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') return out.add('ExpectedBoolean', path, { field }), undefined;
      return value;
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return out.add('ExpectedNumber', path, { field, value: show(value) }), undefined;
      if (spec.int && !Number.isInteger(value)) return out.add('ExpectedInteger', path, { field, value }), undefined;
      if (spec.min !== undefined && value < spec.min) return out.add('NumberTooSmall', path, { field, value, min: spec.min }), undefined;
      if (spec.max !== undefined && value > spec.max) return out.add('NumberTooLarge', path, { field, value, max: spec.max }), undefined;
      return value;
    }
    case 'strings': {
      if (!Array.isArray(value)) return out.add('ExpectedList', path, { field }), undefined;
      const list: string[] = [];
      value.forEach((v, i) => {
        const s = checkValue(v, { t: 'string', required: true }, join(path, i), field, out);
        if (typeof s === 'string') list.push(s);
      });
      return list.length === value.length ? list : undefined;
    }
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) {
        const s = typeof value === 'string' ? suggest(value, spec.values) : undefined;
        if (s) out.add('UnknownValueDidYouMean', path, { field, value: show(value), suggestion: s });
        else out.add('UnknownValue', path, { field, value: show(value), allowed: spec.values.join(', ') });
        return undefined;
      }
      return value;
    case 'enums': {
      if (!Array.isArray(value)) return out.add('ExpectedList', path, { field }), undefined;
      const list: string[] = [];
      value.forEach((v, i) => {
        const one = checkValue(v, { t: 'enum', values: spec.values }, join(path, i), field, out);
        if (typeof one !== 'string') return;
        if (list.includes(one)) out.add('DuplicateValue', join(path, i), { field, value: one });
        else list.push(one);
      });
      return list.length === value.length ? list : undefined;
    }
    case 'hitDice': {
      const s = typeof value === 'number' ? String(value) : value;
      if (typeof s !== 'string' || !/^\s*\d+(\/\d+)?\s*([+-]\s*\d+)?\s*$/.test(s)) return out.add('HitDiceInvalid', path, { field, value: show(value) }), undefined;
      return s.replace(/\s+/g, '');
    }
    case 'weapon':
      return checkObject(value, WEAPON_FIELDS, path, out);
  }
}

/** Check an object's fields against specs: unknown fields, required fields, types. */
export function checkObject(value: unknown, fields: Record<string, Spec>, path: string, out: Collector): Record<string, unknown> | undefined {
  if (!isRecord(value)) {
    out.add('ExpectedObject', path, { field: path });
    return undefined;
  }
  const result: Record<string, unknown> = {};
  let ok = true;
  const allowed = Object.keys(fields);
  for (const [key, v] of Object.entries(value)) {
    const spec = fields[key];
    if (!spec) {
      out.unknownField(key, path, allowed);
      ok = false;
      continue;
    }
    if (v === null || v === undefined) {
      if (spec.required) {
        out.add('FieldMissing', join(path, key), { field: key });
        ok = false;
      }
      continue;
    }
    const checked = checkValue(v, spec, join(path, key), key, out);
    if (checked === undefined) ok = false;
    else result[key] = checked;
  }
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.required && !(key in value)) {
      out.add('FieldMissing', join(path, key), { field: key });
      ok = false;
    }
  }
  return ok ? result : undefined;
}

/** The list at a top-level key (absent: empty). */
export function listAt(raw: Record<string, unknown>, key: string, out: Collector): unknown[] {
  const v = raw[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    out.add('ExpectedList', key, { field: key });
    return [];
  }
  return v;
}
