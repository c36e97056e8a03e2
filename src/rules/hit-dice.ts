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
import { HIT_DIE_FACES, type AttackHitDice, type HitDice } from './hit-dice-parse';

// Parsing is its own module (the data model checks hit dice at start-up; the rest is loaded with the sheets and the GM's chunks).
export { HIT_DIE_FACES, MAX_HIT_DICE, MAX_HIT_DICE_MODIFIER, parseHitDice, hitDiceOrNull, type HitDice, type AttackHitDice, type Parsed } from './hit-dice-parse';

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
