import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/rules/journal';
import { diff, patch } from '../../src/rules/journal-diff';

describe('journal patches (Previous restores the exact earlier state)', () => {
  it('a reverse patch turns the new state back into the old one, for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const back = diff(b as Json, a as Json);
        expect(patch(b as Json, back)).toEqual(a);
      }),
      { numRuns: 2000 },
    );
  });

  it('stores only what changed', () => {
    const before = { round: 2, states: { a: { hp: 5 }, b: { hp: 7 } }, declarations: { a: { action: 'melee' } } };
    const after = { round: 2, states: { a: { hp: 3 }, b: { hp: 7 } }, declarations: {} };
    const back = diff(after, before);
    expect(back).toEqual([
      { path: ['states', 'a', 'hp'], value: 5 },
      { path: ['declarations', 'a'], value: { action: 'melee' } },
    ]);
    expect(patch(after, back)).toEqual(before);
  });
});
