/**
 * Words a GM reads (issue 29): no "(s)" standing for a plural in any language file (a pair of keys
 * `.one`/`.other` instead, src/plural.ts), and no rules source named by its seed number ("seed 004", "the seed
 * text"): the procedure's name instead. The random-number seed of the odds and the runner is another word.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('system.json', 'utf8')) as { languages: { lang: string; path: string }[] };

describe.each(manifest.languages)('$path', ({ path }) => {
  const strings: Record<string, string> = JSON.parse(readFileSync(path, 'utf8'));
  const entries = Object.entries(strings);

  it('no value writes a plural as "(s)", "(e)", "(n)" or "(en)"', () => {
    expect(entries.filter(([, v]) => /\p{L}\((s|e|n|en)\)/u.test(v)).map(([k]) => k)).toEqual([]);
  });

  it('no value names a rules source by its seed ("seed 004", "the seed text")', () => {
    expect(entries.filter(([, v]) => /seed 0\d|seed text|Seed 0\d|Quelle 0\d|Ausgangstext/i.test(v)).map(([k]) => k)).toEqual([]);
  });

  it('every counted string is a pair, .one and .other, with no key of its own beside them', () => {
    // (A key ending in .other alone is a choice named "other": Break.other, Sim.Action.other.)
    const keys = new Set(Object.keys(strings));
    const counted = [...keys].filter((k) => k.endsWith('.one')).map((k) => k.slice(0, -'.one'.length));
    expect(counted.length).toBeGreaterThanOrEqual(20);
    for (const base of counted) {
      expect(keys.has(`${base}.other`), `${base}.other`).toBe(true);
      expect(keys.has(base), base).toBe(false);
    }
  });
});
