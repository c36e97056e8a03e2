/**
 * The runner's words: every string it prints comes from the language file
 * (lang/en.json), formatted as Foundry's i18n.format does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluralKey } from '../plural';

export type Data = Record<string, string | number>;

/** Flatten a language file: nested objects become dotted keys (Foundry accepts both). */
function flatten(obj: unknown, prefix: string, out: Record<string, string>): void {
  if (typeof obj === 'string') {
    if (prefix) out[prefix] = obj;
    return;
  }
  if (typeof obj !== 'object' || obj === null) return;
  for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
}

/** The English strings (lang/en.json under `root`); a missing or broken file leaves keys to stand for themselves. */
export function loadStrings(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const main = join(root, 'lang', 'en.json');
  if (existsSync(main)) {
    try {
      flatten(JSON.parse(readFileSync(main, 'utf8')), '', out);
    } catch {
      // keys fall back to their names
    }
  }
  return out;
}

export class Strings {
  /** The runner's language: the strings are lang/en.json's. */
  readonly lang = 'en';
  constructor(private readonly table: Record<string, string>) {}
  has(key: string): boolean {
    return typeof this.table[key] === 'string';
  }
  /**
   * Foundry's i18n.format: {name} placeholders; a missing key prints the key and its data. A counted string
   * (`<key>.one`/`<key>.other`, no `<key>` of its own) takes the form of `count`, else of `data.count`.
   */
  format(key: string, data: Data = {}, count?: number): string {
    if (this.table[key] === undefined && this.has(`${key}.other`)) {
      const n = count ?? Number(data.count);
      if (Number.isFinite(n)) key = pluralKey(key, n, this.lang, (k) => this.has(k));
    }
    const template = this.table[key];
    if (template === undefined) {
      const d = Object.keys(data).length > 0 ? ' ' + JSON.stringify(data) : '';
      return key + d;
    }
    return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in data ? String(data[k]) : m));
  }
  /** A key if it exists, else the fallback text (ids from other modules: phases, reasons). */
  maybe(key: string, fallback: string, data: Data = {}): string {
    return this.has(key) ? this.format(key, data) : fallback;
  }
}
