/**
 * Plural forms: a counted string is a pair of keys, `<key>.one` and
 * `<key>.other` ("1 segment", "2 segments"; German "1 Segment", "2 Segmente"),
 * and the client's language picks one with `Intl.PluralRules` (game.i18n.lang
 * in Foundry, the runner's language in src/sim/strings.ts). A category the
 * language file has no key for (a language with more forms than it gives)
 * falls back to `.other`. Pure: no Foundry global.
 */

/** What the helpers need of a string table: Foundry's game.i18n, the runner's Strings, the tracker view's. */
export interface PluralStrings {
  /** The language (game.i18n.lang); English when not given. */
  lang?: string;
  /** Whether a key has a string (game.i18n.has); without it, only `.one` and `.other` are assumed. */
  has?(key: string): boolean;
  format(key: string, data: Record<string, string>): string;
}

const rules = new Map<string, Intl.PluralRules>();

/** The plural rules of a language (English for one Intl does not know). */
function rulesOf(lang: string): Intl.PluralRules {
  let r = rules.get(lang);
  if (!r) {
    try {
      r = new Intl.PluralRules(lang);
    } catch {
      r = new Intl.PluralRules('en');
    }
    rules.set(lang, r);
  }
  return r;
}

/** The key of `n`'s form of `key` in `lang`: `<key>.<category>` where the table has it, else `<key>.other`. */
export function pluralKey(key: string, n: number, lang = 'en', has?: (key: string) => boolean): string {
  const category = rulesOf(lang || 'en').select(n);
  const form = `${key}.${category}`;
  if (category === 'other') return form;
  if (has ? has(form) : category === 'one') return form;
  return `${key}.other`;
}

/** `key`'s form for `n`, formatted with `data` (strings or numbers). */
export function formatPlural(i18n: PluralStrings, key: string, n: number, data: Record<string, string | number>): string {
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) strings[k] = String(v);
  return i18n.format(pluralKey(key, n, i18n.lang, i18n.has ? (k) => i18n.has!(k) : undefined), strings);
}
