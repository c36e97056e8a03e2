/**
 * Hit dice, including the "enhanced hit dice" of seed 001 ("4+4 HD", "8+2 HD",
 * "1-1 HD", "½ HD"). Pure: parsing, the attack / save / overall hit dice, the
 * hit point formula and the morale bonus.
 *
 * Seed 001, "Some creatures without a character class have 'enhanced hit
 * dice' … 1+1 HD or 4+4 HD or even 8+2 HD":
 *  - Attack rolls: +1-3 uses the "+" row ("1+1 HD = 1+"); +4 or more adds
 *    another hit die, "to a maximum of +1 HD" ("5+5 HD = 6 HD").
 *  - Saving throws: +1-4 = +1 HD, +5-8 = +2, +9-12 = +3 … "No maximum"
 *    ("5+5 HD = 7 HD").
 *  - Hit points: the bonus is extra hit points per hit die ("4+4 HD will have
 *    4d8+16 hit points").
 *  - Overall hit dice: the saving throw hit dice.
 *  - Morale: a bonus equal to the enhancement.
 *
 * Where the text is silent (README.md, Rules notes):
 *  - A negative modifier ("1-1") never adds or removes hit dice for attacks,
 *    saves or overall HD, gives no morale bonus (the text speaks of a bonus),
 *    and counts per hit die for hit points like a positive one (1-1 = 1d8-1).
 *  - "½" is half a hit die: 1d4 hit points, 0.5 for overall and save HD; it
 *    takes no modifier.
 *  - A creature always has at least 1 hit point when rolled.
 */
import type { Dice } from './dice';
import type { Problem } from './model';

/** The die rolled per hit die (seed 001: "4+4 HD will have 4d8+16"). */
export const HIT_DIE_FACES = 8;
export const MAX_HIT_DICE = 100;
export const MAX_HIT_DICE_MODIFIER = 100;

/** Result of a parse: a value, or a Problem (key under TENSEG.Error). */
export type { Parsed } from './model';
import type { Parsed } from './model';

export interface HitDice {
  /** Normalized text, e.g. "4+4", "1-1", "½", "8". */
  text: string;
  /** Number of hit dice; 0.5 for "½". */
  dice: number;
  /** The "+N" (or "-N") after the dice; 0 if none. */
  modifier: number;
}

/** The row of the Monster Attack Table a creature uses. */
export interface AttackHitDice {
  /** Hit dice for the attack table. */
  dice: number;
  /** The "+" row of the table (e.g. "1+"). */
  plus: boolean;
  /** Row label: "1+", "6", "1-1", "½". */
  label: string;
}

const HALF = /^(?:½|1\/2|0?\.5)$/;
const DICE_TEXT = /^(\d{1,3})(?:\s*([+-])\s*(\d{1,3}))?$/;

/**
 * Parse hit dice text: "4+4", "4 + 4", "1-1", "½" (also "1/2", "0.5"), "8",
 * optionally with "HD" before or after. Anything else is a Problem with key
 * `HitDiceInvalid`.
 */
export function parseHitDice(input: unknown): Parsed<HitDice> {
  const bad = (): Parsed<HitDice> => ({
    ok: false,
    problem: { key: 'HitDiceInvalid', data: { value: typeof input === 'string' ? input : String(input) } },
  });
  if (typeof input === 'number') {
    if (input === 0.5) return { ok: true, value: { text: '½', dice: 0.5, modifier: 0 } };
    if (!Number.isInteger(input) || input < 1 || input > MAX_HIT_DICE) return bad();
    return { ok: true, value: { text: String(input), dice: input, modifier: 0 } };
  }
  if (typeof input !== 'string') return bad();
  const text = input
    .trim()
    .replace(/^HD\s*/i, '')
    .replace(/\s*HD$/i, '')
    .replace(/[\u2212\u2013]/g, '-') // minus sign, en dash
    .trim();
  if (HALF.test(text)) return { ok: true, value: { text: '½', dice: 0.5, modifier: 0 } };
  const m = DICE_TEXT.exec(text);
  if (!m) return bad();
  const dice = Number(m[1]);
  const size = m[3] === undefined ? 0 : Number(m[3]);
  const modifier = m[2] === '-' ? -size : size;
  if (dice < 1 || dice > MAX_HIT_DICE || size > MAX_HIT_DICE_MODIFIER) return bad();
  const normalized = modifier === 0 ? String(dice) : `${dice}${modifier > 0 ? '+' : '-'}${Math.abs(modifier)}`;
  return { ok: true, value: { text: normalized, dice, modifier } };
}

/** Hit dice from text; throws nothing, returns null when unparseable. */
export function hitDiceOrNull(input: unknown): HitDice | null {
  const r = parseHitDice(input);
  return r.ok ? r.value : null;
}

/**
 * Seed 001, attack rolls: "+1-3 uses the '+' rating … +4 or higher adds
 * another hit die to a maximum of +1 HD".
 */
export function attackHitDice(hd: HitDice): AttackHitDice {
  if (hd.modifier >= 4) return { dice: hd.dice + 1, plus: false, label: String(hd.dice + 1) };
  if (hd.modifier >= 1) return { dice: hd.dice, plus: true, label: `${hd.dice}+` };
  return { dice: hd.dice, plus: false, label: hd.text };
}

/** Extra hit dice from an enhancement: +1-4 → 1, +5-8 → 2, … no maximum. */
export function enhancementHitDice(modifier: number): number {
  return modifier > 0 ? Math.ceil(modifier / 4) : 0;
}

/** Seed 001, saving throws: "+1-4=+1; +5-8=+2; +9-12=+3 … (e.g. 5+5 HD = 7 HD)". */
export function saveHitDice(hd: HitDice): number {
  return hd.dice + enhancementHitDice(hd.modifier);
}

/** Seed 001, overall creature hit dice: "use the creature's saving throw hit dice". */
export function overallHitDice(hd: HitDice): number {
  return saveHitDice(hd);
}

/** Seed 001, morale: "a bonus to morale checks equal to the enhanced hit dice bonus". */
export function moraleBonus(hd: HitDice): number {
  return Math.max(0, hd.modifier);
}

/** Seed 001, hit points: NdM + N×bonus ("4+4 HD will have 4d8+16"); "½" is 1d4. */
export function hitPointFormula(hd: HitDice): string {
  if (hd.dice === 0.5) return `1d${HIT_DIE_FACES / 2}`;
  const flat = hd.dice * hd.modifier;
  const dice = `${hd.dice}d${HIT_DIE_FACES}`;
  if (flat === 0) return dice;
  return `${dice}${flat > 0 ? '+' : '-'}${Math.abs(flat)}`;
}

/** Lowest and highest hit points the formula allows (at least 1). */
export function hitPointRange(hd: HitDice): { min: number; max: number } {
  if (hd.dice === 0.5) return { min: 1, max: HIT_DIE_FACES / 2 };
  const flat = hd.dice * hd.modifier;
  return { min: Math.max(1, hd.dice + flat), max: Math.max(1, hd.dice * HIT_DIE_FACES + flat) };
}

/** Roll hit points through the Dice interface (purpose 'other'); at least 1. */
export function rollHitPoints(hd: HitDice, dice: Dice, combatant?: string): number {
  if (hd.dice === 0.5) {
    return Math.max(1, dice.roll({ purpose: 'other', count: 1, faces: HIT_DIE_FACES / 2, combatant }));
  }
  const rolled = dice.roll({ purpose: 'other', count: hd.dice, faces: HIT_DIE_FACES, combatant });
  return Math.max(1, rolled + hd.dice * hd.modifier);
}

/**
 * Seed 001: creatures with racial hit dice "always use their hit dice for
 * attacking, even if they have character classes, unless the character class
 * level exceeds the monster's hit dice (then use the higher of the two)".
 */
export function attackBasis(hd: HitDice, classLevel?: number): { basis: 'hit-dice' | 'class'; value: number } {
  const row = attackHitDice(hd);
  // "Higher of the two": a level only wins when it is above the attack row.
  if (classLevel !== undefined && Number.isFinite(classLevel) && classLevel > row.dice) {
    return { basis: 'class', value: classLevel };
  }
  return { basis: 'hit-dice', value: row.dice };
}
