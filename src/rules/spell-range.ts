/**
 * A spell's range as the packs write it, and whether a target is within it
 * (range.ts gives the rulings). Apart from the missile bands so that start-up
 * (the flow's attack check) carries no parser: the declaration dialog and the
 * GM's step warnings load it.
 */
import { TOUCH_FEET } from './range';

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Feet per unit of a range term: feet, and inches at 10 ft each (seed 002's scale). */
const UNIT_FEET: Readonly<Record<string, number>> = { ft: 1, feet: 1, foot: 1, "'": 1, '"': 10, '″': 10, '”': 10, in: 10, inch: 10, inches: 10 };

const TERM = /^(\d+(?:\.\d+)?)\s*(ft|feet|foot|'|"|″|”|inches|inch|in)\s*(?:(?:\/|per)\s*(?:caster\s*)?(?:level|lvl))?$/i;
const PER_LEVEL = /(?:\/|per)\s*(?:caster\s*)?(?:level|lvl)$/i;

/**
 * A spell's range in feet at `casterLevel`, as the packs write it; 'touch',
 * 'self' ("0"), or null where the text is not one of the forms (or a per
 * level range and no level is known): not checked.
 */
export function spellRangeFeet(text: string | null | undefined, casterLevel?: number): number | 'touch' | 'self' | null {
  if (typeof text !== 'string') return null;
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (t === 'touch') return 'touch';
  if (t === '0' || t === 'self' || t === 'personal' || t === '0 ft') return 'self';
  let total = 0;
  for (const part of t.split('+')) {
    const term = part.trim();
    const m = TERM.exec(term);
    if (!m) return null;
    const value = Number(m[1]) * (UNIT_FEET[m[2].toLowerCase()] ?? NaN);
    if (!Number.isFinite(value)) return null;
    if (PER_LEVEL.test(term)) {
      if (!finite(casterLevel) || casterLevel < 0) return null;
      total += value * casterLevel;
    } else total += value;
  }
  return total;
}

/** Is a target `feet` away (centre to centre) within the spell's range? null: not checked (self, unreadable, no level). */
export function spellInRange(feet: number, text: string | null | undefined, casterLevel?: number): boolean | null {
  if (!finite(feet)) return null;
  const range = spellRangeFeet(text, casterLevel);
  if (range === null || range === 'self') return null;
  if (range === 'touch') return feet <= TOUCH_FEET;
  return feet <= range + 1e-9;
}
