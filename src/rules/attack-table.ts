/**
 * The attack table of an AAC0 (seed 001: "a sequence of six 20s"): the score
 * needed to hit an Armor Class, the whole table for a sheet, and whether a
 * value is an Armor Class. Read by the rolls (attack.ts, which re-exports it)
 * and the actor sheet, not at start-up (armor-class.ts has what the data
 * models read).
 */
import type { Problem } from './model';
import { AC_MAX, AC_MIN, REPEATING_TWENTIES, type Aac0 } from './armor-class';

export function isArmorClass(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= AC_MIN && value <= AC_MAX;
}

export function armorClassProblem(value: unknown): Problem | null {
  return isArmorClass(value) ? null : { key: 'ArmorClassInvalid', data: { value: String(value), min: AC_MIN, max: AC_MAX } };
}

function tableValue(linear: number): number {
  if (linear < 20) return linear;
  if (linear < 20 + REPEATING_TWENTIES) return 20;
  return linear - (REPEATING_TWENTIES - 1);
}

/**
 * The modified d20 score needed to hit `ac` for a creature with this AAC0,
 * read from the attack table (with its run of six 20s).
 */
export function neededToHit(aac0: Aac0, ac: number): number {
  return tableValue(aac0.linear - ac);
}

/** The whole attack table from AC 10 down to AC -10, for a sheet. */
export function attackTable(aac0: Aac0): { ac: number; needed: number }[] {
  const rows: { ac: number; needed: number }[] = [];
  for (let ac = AC_MAX; ac >= AC_MIN; ac--) rows.push({ ac, needed: neededToHit(aac0, ac) });
  return rows;
}
