/**
 * Hit dice text parsed (seed 001's "enhanced hit dice": "4+4 HD", "1-1 HD",
 * "½ HD"): what the actor data model checks a monster's hit dice with at
 * start-up. What follows from the hit dice (attack, save, overall hit dice,
 * hit points, morale) is in hit-dice.ts, which re-exports this; the sheets
 * and the GM's chunks load it.
 */
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

