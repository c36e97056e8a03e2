/**
 * What the data models read of the attack rules at start-up (attack.ts has
 * the rolls, which only the GM's client makes): the descending Armor Class
 * scale of seed 001 ("The scale for armor class is -10 to 0 to 10"), the
 * AAC0 notation, a bonus to AC, and the critical multipliers of seed 003.
 * The AAC0's table (attack-table.ts) is read by the rolls and the sheets.
 */
import type { Parsed } from './hit-dice';

export const AC_MIN = -10;
export const AC_MAX = 10;
/** How many consecutive ACs need a 20 (seed 001: "a sequence of six 20s"). */
export const REPEATING_TWENTIES = 6;

export interface Aac0 {
  /** The figure as printed: 20 for "20*". */
  value: number;
  /** Stars after a 20 ("20*" = 1). */
  stars: number;
  /** The linear score at AC 0 (see the module comment). */
  linear: number;
  /** Normalized text: "17", "20", "20*". */
  text: string;
}

/**
 * Parse an AAC0: 17, "17", "20*", "AAC0 15", "21". Stars only follow a 20.
 * Values from 1 to 30.
 */
export function parseAac0(input: unknown): Parsed<Aac0> {
  const bad = (): Parsed<Aac0> => ({ ok: false, problem: { key: 'Aac0Invalid', data: { value: String(input) } } });
  let value: number;
  let stars = 0;
  if (typeof input === 'number') {
    if (!Number.isInteger(input)) return bad();
    value = input;
  } else if (typeof input === 'string') {
    const m = /^(?:AAC0\s*)?(\d{1,2})(\**)$/i.exec(input.trim());
    if (!m) return bad();
    value = Number(m[1]);
    stars = m[2].length;
  } else return bad();
  if (value < 1 || value > 30) return bad();
  if (stars > 0 && value !== 20) return bad();
  if (stars >= REPEATING_TWENTIES) return bad();
  const linear = value < 20 ? value : value === 20 ? 20 + stars : value + REPEATING_TWENTIES - 1;
  return { ok: true, value: { value, stars, linear, text: `${value}${'*'.repeat(stars)}` } };
}

/**
 * AC bonuses are positive and lower the AC (seed 001: "a creature with an AC 5
 * that receives a +2 bonus to AC will become AC 3"); the result stays on the
 * -10..10 scale.
 */
export function applyArmorClassBonus(ac: number, bonus: number): number {
  return Math.min(AC_MAX, Math.max(AC_MIN, ac - bonus));
}

/** Seed 003's critical multipliers: x2, x3, x4. */
export const CRITICAL_MULTIPLIERS = [2, 3, 4] as const;
/** RULING: a weapon (or natural attack) whose multiplier is not given doubles its damage, the least the text lists. */
export const DEFAULT_CRITICAL_MULTIPLIER = 2;
