/**
 * Seed 002, "Movement During the Round": the rate a character moves at by
 * the weight it carries, in inches ("12” (which for our purposes is six
 * squares)"), and a rate's squares on the grid.
 *
 *   weight                  human/elf/dwarf   halfling
 *   up to 35#, light        12” (6sq)         9”
 *   35# – 70#, heavy         9” (4sq)         6”
 *   70# – 105#, very heavy   6” (3sq)         3”
 *   over 105#, encumbered    3” (2sq)         -
 *
 * "Obviously strength bonuses or penalties will adjust those weight totals":
 * `allowance` (pounds, from the GM) moves every threshold. RULINGS: a weight
 * on a threshold is in the lighter row ("up to 35#"); the halfling column is
 * the small characters' ("Smaller characters like halflings"); its "-" is no
 * movement at all; dwarves "bear the heaviest burdens a little better" with
 * no figure given, so the human column stands.
 */

export const ENCUMBRANCE_BANDS = ['light', 'heavy', 'veryHeavy', 'encumbered'] as const;
export type EncumbranceBand = (typeof ENCUMBRANCE_BANDS)[number];

/** The table's upper weights (pounds) of light, heavy and very heavy. */
export const ENCUMBRANCE_LIMITS: readonly [number, number, number] = [35, 70, 105];

/** The table's rates in inches, by band: the human/elf/dwarf column and the halfling column (0: "-"). */
const RATE_INCHES: Readonly<Record<EncumbranceBand, readonly [number, number]>> = {
  light: [12, 9],
  heavy: [9, 6],
  veryHeavy: [6, 3],
  encumbered: [3, 0],
};

/** The squares the seed gives for its rates: 12” six, 9” four, 6” three, 3” two. */
const SQUARES_OF_INCHES: Readonly<Record<number, number>> = { 12: 6, 9: 4, 6: 3, 3: 2 };

/** The band a carried weight falls in; `allowance` pounds (strength) moves each limit. */
export function encumbranceBand(carriedLb: number, allowance = 0): EncumbranceBand {
  const w = Number.isFinite(carriedLb) ? Math.max(0, carriedLb) : 0;
  const shift = Number.isFinite(allowance) ? allowance : 0;
  const [light, heavy, veryHeavy] = ENCUMBRANCE_LIMITS;
  if (w <= light + shift) return 'light';
  if (w <= heavy + shift) return 'heavy';
  if (w <= veryHeavy + shift) return 'veryHeavy';
  return 'encumbered';
}

/** The table's rate in inches for a band; `small`: the halfling column (0 where it gives "-"). */
export function encumbranceRateInches(band: EncumbranceBand, small: boolean): number {
  return RATE_INCHES[band][small ? 1 : 0];
}

/**
 * Squares a rate in inches covers: the seed's own figures for 12”, 9”, 6”
 * and 3”; RULING: any other rate half its inches, rounded down (15” seven).
 */
export function squaresOfInches(inches: number): number {
  if (!Number.isFinite(inches) || inches <= 0) return 0;
  return SQUARES_OF_INCHES[inches] ?? Math.floor(inches / 2);
}

export interface Encumbrance {
  band: EncumbranceBand;
  /** The rate the band allows, in inches, no more than the combatant's own `baseInches`. */
  inches: number;
  squares: number;
}

/**
 * What a load allows a combatant whose own rate is `baseInches` (a monster's
 * or a race's movement): the table's rate for its band, never more than its
 * own rate.
 */
export function encumbrance(carriedLb: number, baseInches: number, small: boolean, allowance = 0): Encumbrance {
  const band = encumbranceBand(carriedLb, allowance);
  const table = encumbranceRateInches(band, small);
  const own = Number.isFinite(baseInches) && baseInches >= 0 ? baseInches : table;
  const inches = Math.min(table, own);
  return { band, inches, squares: squaresOfInches(inches) };
}

/**
 * Seed 002's standard rate in feet: "12” (which for our purposes is six
 * squares)", so a rate of N inches is squaresOfInches(N) 5-ft squares. The
 * combatant's own rate (`movement`, feet per round as the sheet stores it:
 * 12” = 120 ft) is read as inches (feet / 10); absent, the seed's base: 12”,
 * 9” for the small ("Smaller characters like halflings"). `byEncumbrance`
 * with its carried weight known: the table's rate for its load, never more
 * than its own.
 */
export function standardRateFeet(c: { movement?: number; carried?: number; small?: boolean }, byEncumbrance: boolean): number {
  const own = typeof c.movement === 'number' && Number.isFinite(c.movement) && c.movement >= 0 ? c.movement / 10 : c.small ? 9 : 12;
  const carried = c.carried;
  const inches = byEncumbrance && typeof carried === 'number' && Number.isFinite(carried) ? encumbrance(carried, own, !!c.small).inches : own;
  return squaresOfInches(inches) * 5;
}

/**
 * A rate in feet as the sheet stores it (`movement`, 12” = 120 ft: the
 * procedures that read feet, high-low and individual-speed); absent: none
 * known (undefined). `byEncumbrance` with its carried weight known: no more
 * than the table gives its load (inches at 10 ft).
 */
export function storedRateFeet(c: { movement?: number; carried?: number; small?: boolean }, byEncumbrance: boolean): number | undefined {
  const own = typeof c.movement === 'number' && Number.isFinite(c.movement) && c.movement >= 0 ? c.movement : undefined;
  const carried = c.carried;
  if (!byEncumbrance || typeof carried !== 'number' || !Number.isFinite(carried)) return own;
  const table = encumbrance(carried, own === undefined ? Infinity : own / 10, !!c.small).inches * 10;
  return own === undefined ? table : Math.min(own, table);
}
