/**
 * Counted strings (issue 29, Words): a pair of keys `<key>.one` / `<key>.other`, the form chosen by
 * Intl.PluralRules for the client's language, `.other` where the language file has no key for a category.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatPlural, pluralKey } from '../src/plural';
import { loadStrings, Strings } from '../src/sim/strings';

const EN: Record<string, string> = JSON.parse(readFileSync('lang/en.json', 'utf8'));
const DE: Record<string, string> = JSON.parse(readFileSync('lang/de.json', 'utf8'));
const table = (lang: string, strings: Record<string, string>) => ({
  lang,
  has: (k: string) => typeof strings[k] === 'string',
  format: (k: string, data: Record<string, string>) => (strings[k] ?? k).replace(/\{(\w+)\}/g, (m, f: string) => data[f] ?? m),
});

describe('plural forms', () => {
  it('English and German: 1 takes .one, 0, 2 and 1.5 take .other', () => {
    for (const lang of ['en', 'de']) {
      expect(pluralKey('TENSEG.Timeline.Segments', 1, lang)).toBe('TENSEG.Timeline.Segments.one');
      for (const n of [0, 2, 10, 1.5]) expect(pluralKey('TENSEG.Timeline.Segments', n, lang)).toBe('TENSEG.Timeline.Segments.other');
    }
  });

  it('the words: "1 segment", "2 segments"; „1 Segment“, „2 Segmente“', () => {
    const en = table('en', EN);
    const de = table('de', DE);
    expect(formatPlural(en, 'TENSEG.Timeline.Segments', 1, { n: 1 })).toBe('1 segment');
    expect(formatPlural(en, 'TENSEG.Timeline.Segments', 2, { n: 2 })).toBe('2 segments');
    expect(formatPlural(de, 'TENSEG.Timeline.Segments', 1, { n: 1 })).toBe('1 Segment');
    expect(formatPlural(de, 'TENSEG.Timeline.Segments', 2, { n: 2 })).toBe('2 Segmente');
    expect(formatPlural(en, 'TENSEG.Declaration.SpellLine', 1, { name: 'Sleep', time: 1, memorized: 2, expended: 0 })).toBe('Sleep — casting time 1 segment, memorized 2, expended 0');
    expect(formatPlural(de, 'TENSEG.Timeline.Strain', 2, { name: 'Halvaine', amount: 2 })).toBe('Halvaine verliert 2 Wundpunkte für Handeln im verletzten Zustand');
  });

  it('a category the language file has no key for falls back to .other (Polish "few"; an unknown language reads as English)', () => {
    const has = (k: string) => k.endsWith('.one') || k.endsWith('.other');
    expect(new Intl.PluralRules('pl').select(3)).toBe('few');
    expect(pluralKey('K', 3, 'pl', has)).toBe('K.other');
    expect(pluralKey('K', 1, 'pl', has)).toBe('K.one');
    expect(pluralKey('K', 1, 'not a language!', has)).toBe('K.one');
    expect(pluralKey('K', 1, 'en', () => false)).toBe('K.other');
  });

  it("the runner's strings (its language English) choose by the count given, else by data.count", () => {
    const t = new Strings(loadStrings('.'));
    expect(t.lang).toBe('en');
    expect(t.format('TENSEG.Sim.Header', { procedure: 'addict', rounds: 1 }, 1)).toBe('Procedure: addict · 1 round');
    expect(t.format('TENSEG.Sim.Header', { procedure: 'addict', rounds: 3 }, 3)).toBe('Procedure: addict · 3 rounds');
    expect(t.format('TENSEG.Sim.Broken', { file: 'a.yaml', count: 1 })).toBe('a.yaml: 1 problem; nothing was run.');
    expect(t.format('TENSEG.Sim.Broken', { file: 'a.yaml', count: 2 })).toBe('a.yaml: 2 problems; nothing was run.');
  });
});
