/**
 * Checking one value or object of a scenario against its spec, collecting
 * every problem with the path of its field ("combatants[2].hp").
 */
import type { Problem } from '../../rules/model';
import { WEAPON_FIELDS, type Spec } from './fields';

/** A printable form of any value from a scenario file, even one whose toString throws. */
export function show(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
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

/** Check a value against a spec; returns the cleaned value, or undefined (the problem recorded). */
export function checkValue(value: unknown, spec: Spec, path: string, field: string, out: Collector): unknown {
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
