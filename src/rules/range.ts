/**
 * Ranges on the map: a missile weapon's range band and a spell's range, from
 * a distance in feet the documents layer measured centre to centre (seed 001,
 * "Measuring Distance": "center-to-center").
 *
 * RULINGS (the seeds give no range penalties and no range rule of their own):
 *  - a missile weapon's bands are its short / medium / long figures in feet:
 *    up to short is short, up to medium medium, up to long long, past long
 *    `beyond` (the attack is refused, AttackOutOfRange); a weapon whose
 *    figures are absent or all 0 gives no ranges (null: not checked);
 *  - RANGE_MODIFIERS: short 0, medium −2, long −5 to hit, an option
 *    (missileModifiers, default on);
 *  - a spell's range as the packs write it: "0" (the caster itself or an
 *    area from it: 'self', not checked), "touch" (within 5 ft centre to
 *    centre: an adjacent square), "30 ft", "10 ft/level",
 *    "60 ft + 10 ft/level", "10 ft + 2.5 ft/level", and inches (12" = 120 ft,
 *    10 ft an inch, "1"/level" too). Anything else is null (not checked).
 */

export type RangeBand = 'short' | 'medium' | 'long' | 'beyond';

/** A missile weapon's range figures in feet. */
export interface MissileRanges {
  short: number;
  medium: number;
  long: number;
}

/** RULING (the seeds are silent): to-hit modifiers by range band; an option, default on. */
export const RANGE_MODIFIERS: Readonly<Record<Exclude<RangeBand, 'beyond'>, number>> = Object.freeze({ short: 0, medium: -2, long: -5 });

/** Touch: within this many feet centre to centre (an adjacent square, either diagonal rule). */
export const TOUCH_FEET = 5;

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** The band `feet` falls in, or null when the weapon gives no ranges (absent, not numbers, or all 0): not checked. */
export function missileRangeBand(feet: number, ranges: Partial<MissileRanges> | null | undefined): RangeBand | null {
  if (!ranges || !finite(feet)) return null;
  const { short, medium, long } = ranges;
  if (!finite(short) || !finite(medium) || !finite(long)) return null;
  if (Math.max(short, medium, long) <= 0) return null;
  const d = Math.max(0, feet);
  if (d <= short) return 'short';
  if (d <= medium) return 'medium';
  if (d <= long) return 'long';
  return 'beyond';
}

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
