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
 *  - RANGE_MODIFIERS (src/rules/attack.ts, with the modifiers it gives:
 *    not at start-up): short 0, medium −2, long −5 to hit, an option
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
