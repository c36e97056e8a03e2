/**
 * Every language the manifest lists besides English (German, lang/de.json)
 * says everything English says: exactly en.json's keys, in en.json's order,
 * each value with the same placeholders (which the code fills) and the same
 * `code` spans, and each value really translated. A new English key without
 * its German one fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('system.json', 'utf8')) as { languages: { lang: string; name: string; path: string }[] };
const en: Record<string, string> = JSON.parse(readFileSync('lang/en.json', 'utf8'));
const others = manifest.languages.filter((l) => l.lang !== 'en');

/** Plain code-point order, as en.json is written (localeCompare would differ). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const placeholders = (s: string) => (s.match(/\{[^{}]*\}/g) ?? []).sort();
const codeSpans = (s: string) => (s.match(/`[^`]*`/g) ?? []).sort();
const tags = (s: string) => (s.match(/<\/?[a-z][a-z0-9]*\b[^>]*>/gi) ?? []).sort();

/**
 * Values that are rightly the same in German as in English, with their
 * placeholders written {}. Keep this short: each is a code, a name or a word
 * German shares with English.
 */
const SAME_IN_GERMAN = new Set([
  'CHA', // ability abbreviations: the German ones (STÄ, GES, KON, INT, WEI, CHA) share these two
  'INT',
  'Charisma', // the same word in German
  'AAC0', // the system's name for the attack score and its attack mode: a term of the rules, not prose
  'Maximum', // the same word in German
  'Stress', // the game term, kept as German tables use it
  'Illusionist', // the same word in German (a spell class)
  '2d6', // an option value (moraleDie choice 2d6), shown as the code it is
  'Segment', // the same word in German
  'Segment {}',
  'Segment {} · {}',
  'Initiative: {}', // "Initiative" is the same word in German
  'Neutral', // the same word in German
  'Monster', // the same word in German
  'Ten Segments', // the system's name
  'Ten Segments — {}',
]);

/** Nothing to translate: only placeholders, digits, spaces and punctuation ("{name}: {action}", "×2"). */
const noWords = (s: string) => !/\p{L}/u.test(s.replace(/\{[^{}]*\}/g, ''));

describe('the manifest languages', () => {
  it('include English and German', () => {
    expect(manifest.languages.map((l) => l.lang)).toEqual(['en', 'de']);
    expect(manifest.languages.find((l) => l.lang === 'de')).toEqual({ lang: 'de', name: 'Deutsch', path: 'lang/de.json' });
  });

  it('en.json is sorted by plain code-point order', () => {
    const keys = Object.keys(en);
    expect(keys).toEqual([...keys].sort(byCodePoint));
  });
});

describe.each(others)('$path ($name)', ({ path }) => {
  const text = readFileSync(path, 'utf8');
  const lang: Record<string, string> = JSON.parse(text);

  it('has exactly the keys of en.json, in the same order', () => {
    expect(Object.keys(lang).filter((k) => !(k in en)), 'keys English does not have').toEqual([]);
    expect(Object.keys(en).filter((k) => !(k in lang)), 'English keys without a translation').toEqual([]);
    expect(Object.keys(lang)).toEqual(Object.keys(en));
  });

  it('is written like en.json (two-space JSON, one key a line, final newline)', () => {
    expect(text).toBe(`${JSON.stringify(lang, null, 2)}\n`);
  });

  it('keeps every placeholder, code span and tag of the English string', () => {
    const wrong: string[] = [];
    for (const [key, value] of Object.entries(lang)) {
      if (!(key in en)) continue;
      if (placeholders(value).join() !== placeholders(en[key]).join()) wrong.push(`${key}: placeholders ${placeholders(en[key])} ≠ ${placeholders(value)}`);
      if (codeSpans(value).join() !== codeSpans(en[key]).join()) wrong.push(`${key}: code ${codeSpans(en[key])} ≠ ${codeSpans(value)}`);
      if (tags(value).join() !== tags(en[key]).join()) wrong.push(`${key}: tags ${tags(en[key])} ≠ ${tags(value)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('translates every string: none empty, none left in English except the allowed ones', () => {
    const untranslated = Object.entries(lang)
      .filter(([key, value]) => value.trim() === '' || (value === en[key] && !noWords(value) && !SAME_IN_GERMAN.has(value.replace(/\{[^{}]*\}/g, '{}'))))
      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
    expect(untranslated).toEqual([]);
  });

  it('uses every allowed same-as-English value at least once (the list holds nothing stale)', () => {
    const used = new Set(Object.entries(lang).filter(([key, value]) => value === en[key]).map(([, value]) => value.replace(/\{[^{}]*\}/g, '{}')));
    expect([...SAME_IN_GERMAN].filter((v) => !used.has(v))).toEqual([]);
  });
});
