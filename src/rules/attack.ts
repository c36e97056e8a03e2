/**
 * The d20 attack roll of seed 001 against descending Armor Class.
 *
 * Seed 001: "The scale for armor class is -10 to 0 to 10 with 10 being the
 * worst value"; "Attack AC 0 ('AAC0') … a creature's roll needed to
 * successfully strike an armor class rating of 0 and calculate the attack from
 * there"; "A figure of '20*' means that the creature also needs a 20 to strike
 * an AC of 1"; "there are always a sequence of six 20s before a 21 is
 * required, and increase with each armor class from there"; "a natural 1 …
 * always misses and a natural 20 … always hits"; "a character that needs a
 * '20' to hit an AC -1, but has a +2 modifier … will hit on a roll of 18, 19,
 * or 20".
 *
 * The table model: every step of AC towards -10 adds 1 to a "linear" score,
 * linear(AC) = linear(0) − AC. The table reads linear scores up to 19 as they
 * are, the six linear scores 20..25 all as 20, and linear scores from 26 on as
 * 21, 22, … So an AAC0 of 20 is the first 20 (AC 0 … -5 need 20, AC -6 needs
 * 21); "20*" is the second 20 (AC 1 also needs 20); each further star moves the
 * run one more AC (a reading of the notation for "20**", not in the text); an
 * AAC0 of 21 or more lies past the run of 20s.
 */
import type { RangeBand } from './range';
import type { Dice } from './dice';
import type { Problem } from './model';
import type { Schedule } from './procedure';
import type { Parsed } from './hit-dice';
import { CRITICAL_MULTIPLIERS, DEFAULT_CRITICAL_MULTIPLIER, parseAac0, type Aac0 } from './armor-class';
import { armorClassProblem, neededToHit } from './attack-table';

// The Armor Class scale, AAC0 and the critical multipliers the data models read (armor-class.ts, at start-up); the rolls here are the GM's.
export * from './armor-class';
export * from './attack-table';

/** One named modifier to an attack roll (strength, magic, missile bonus, circumstance…). */
export interface AttackModifier {
  source: string;
  value: number;
}

/** RULING (the seeds are silent, src/rules/range.ts): to-hit modifiers by range band; an option, default on. */
export const RANGE_MODIFIERS: Readonly<Record<Exclude<RangeBand, 'beyond'>, number>> = Object.freeze({ short: 0, medium: -2, long: -5 });

/**
 * A missile attack's own modifiers: the Dexterity missile bonus (seed 001's
 * "missile attack bonus"), except under individual-speed, which reads the
 * attack bonus instead; and the weapon's own bonus, under every procedure.
 * With a range band (src/rules/range.ts, from the distance on the map) and
 * `rangeModifiers` on (the default), RULING: RANGE_MODIFIERS (medium −2,
 * long −5; the seeds give none), source 'range'.
 */
export function missileModifiers(dexterityBonus: number, weaponBonus: number, individualSpeed: boolean, band?: RangeBand | null, rangeModifiers = true): AttackModifier[] {
  const out: AttackModifier[] = [];
  if (dexterityBonus && !individualSpeed) out.push({ source: 'missile', value: dexterityBonus });
  if (weaponBonus) out.push({ source: 'weapon', value: weaponBonus });
  if (rangeModifiers && band && band !== 'beyond' && RANGE_MODIFIERS[band]) out.push({ source: 'range', value: RANGE_MODIFIERS[band] });
  return out;
}

export function totalModifier(mods: readonly AttackModifier[]): number {
  let total = 0;
  for (const m of mods) if (Number.isFinite(m.value)) total += m.value;
  return total;
}

export interface AttackInput {
  aac0: Aac0;
  /** Target's armor class, -10..10. */
  ac: number;
  /** Modifiers to the roll. */
  modifiers?: readonly AttackModifier[];
}

export interface AttackResult {
  natural: number;
  modifier: number;
  total: number;
  needed: number;
  hit: boolean;
  /** Why: natural 20 / natural 1 override the table. */
  reason: 'natural-20' | 'natural-1' | 'total';
}

/** Does this natural d20 roll hit? Bad input is a Problem, never a throw. */
export function resolveAttack(input: AttackInput, natural: number): Parsed<AttackResult> {
  const acProblem = armorClassProblem(input.ac);
  if (acProblem) return { ok: false, problem: acProblem };
  if (!Number.isInteger(natural) || natural < 1 || natural > 20) {
    return { ok: false, problem: { key: 'AttackRollInvalid', data: { value: String(natural) } } };
  }
  const modifier = totalModifier(input.modifiers ?? []);
  const needed = neededToHit(input.aac0, input.ac);
  const total = natural + modifier;
  let hit: boolean;
  let reason: AttackResult['reason'];
  if (natural === 20) {
    hit = true;
    reason = 'natural-20';
  } else if (natural === 1) {
    hit = false;
    reason = 'natural-1';
  } else {
    hit = total >= needed;
    reason = 'total';
  }
  return { ok: true, value: { natural, modifier, total, needed, hit, reason } };
}

/** Roll the d20 through the Dice interface (purpose 'attack') and resolve. */
export function rollAttack(input: AttackInput, dice: Dice, who?: { combatant?: string; round?: number }): Parsed<AttackResult> {
  const natural = dice.roll({ purpose: 'attack', count: 1, faces: 20, combatant: who?.combatant, round: who?.round });
  return resolveAttack(input, natural);
}

/** How many faces of the d20 hit (1..19: a natural 20 always hits, a natural 1 never). */
export function hittingFaces(input: AttackInput): number {
  let faces = 0;
  for (let n = 1; n <= 20; n++) {
    const r = resolveAttack(input, n);
    if (r.ok && r.value.hit) faces++;
  }
  return faces;
}

/**
 * A class attack table given as data: AAC0 by level (index 0 = level 1).
 * Seed 001: "For character classes without a chart simply pick a chart with
 * the same Attack AC 0 as the class in question". Levels past the end use the
 * last entry.
 */
export interface ClassAttackTable {
  name: string;
  aac0ByLevel: readonly (number | string)[];
}

export function aac0ForLevel(table: ClassAttackTable, level: number): Parsed<Aac0> {
  if (table.aac0ByLevel.length === 0 || !Number.isInteger(level) || level < 0) {
    return { ok: false, problem: { key: 'AttackTableLevelInvalid', data: { table: table.name, level: String(level) } } };
  }
  const index = Math.min(table.aac0ByLevel.length - 1, Math.max(0, level - 1));
  return parseAac0(table.aac0ByLevel[index]);
}

/** A creature's size, for weapon damage. */
export type CreatureSize = 'small' | 'medium' | 'large';

/**
 * Which damage column of a weapon an attack reads: weapons give damage "vs.
 * S-M" and "vs. L" (the old-school two columns); small and medium creatures
 * take the small/medium column, large ones the large column. A size not
 * given counts as medium (man-sized).
 */
export function damageColumn(size: CreatureSize | undefined): 'small' | 'large' {
  return size === 'large' ? 'large' : 'small';
}

/* ================================================ Defense and Armour (seed 003) */
/*
 * Seed 003, Combat Stats: "a creature has a Defense score equal to 10 plus its
 * Agility modifier plus its Defense bonus"; "any attack must equal or exceed a
 * creature's Defense score to hit it"; "Armour reduces the damage taken from
 * each hit of an attack". Step 3: "when using the Full-Defense action, a
 * character adds +4 to their Defense score". Critical Hits: "it multiplies
 * the damage dealt according to the weapon attack critical multiplier ... x2
 * ... x3 ... x4".
 *
 * The text defines neither an attack roll nor what makes a hit critical.
 * RULING: an attack is a d20 plus the attacker's attack bonus (and any
 * modifiers) against Defense; a natural 20 is a critical hit, so it hits
 * whatever the total; a natural 1 is nothing special (the text gives it no
 * meaning). Armour comes off after the critical multiplier (the multiplier is
 * on "the damage dealt", Armour on "the damage taken") and never takes a hit
 * below 0.
 */

export const DEFENSE_BASE = 10;
export const FULL_DEFENSE_BONUS = 4;

/** The critical multiplier of a weapon: x2, x3 or x4; anything else (not given) is x2. */
export function criticalMultiplier(value: unknown): number {
  return (CRITICAL_MULTIPLIERS as readonly unknown[]).includes(value) ? (value as number) : DEFAULT_CRITICAL_MULTIPLIER;
}

const finiteOr0 = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Is the combatant taking the Full-Defense action this round? RULING: its
 * declared full defense is planned in the round being played (a surprised
 * creature, which does not act, has none); the +4 holds for the whole round
 * it was declared for, from the start (a defensive posture, declared before
 * anyone acts), not only from its count.
 */
export function fullDefenseIn(schedule: Schedule | null | undefined, id: string): boolean {
  return !!schedule?.steps.some((s) => s.entries.some((e) => e.combatant === id && e.action === 'full-defense'));
}

/** Defense: 10 + Agility modifier + Defense bonus, +4 while the creature takes the Full-Defense action. */
export function defenseScore(target: { agilityModifier?: number; defenseBonus?: number }, fullDefense = false): number {
  return DEFENSE_BASE + finiteOr0(target.agilityModifier) + finiteOr0(target.defenseBonus) + (fullDefense ? FULL_DEFENSE_BONUS : 0);
}

export interface DefenseAttackInput {
  /** The attacker's attack bonus. */
  attackBonus: number;
  /** The target's Defense score (defenseScore). */
  defense: number;
  modifiers?: readonly AttackModifier[];
}

export interface DefenseAttackResult {
  natural: number;
  /** Attack bonus plus modifiers. */
  modifier: number;
  total: number;
  /** The Defense the total had to equal or exceed. */
  defense: number;
  hit: boolean;
  critical: boolean;
  reason: 'natural-20' | 'total';
}

/** Does this natural d20 hit Defense, and is it a critical hit? Bad input is a Problem, never a throw. */
export function resolveDefenseAttack(input: DefenseAttackInput, natural: number): Parsed<DefenseAttackResult> {
  if (!Number.isInteger(natural) || natural < 1 || natural > 20) {
    return { ok: false, problem: { key: 'AttackRollInvalid', data: { value: String(natural) } } };
  }
  if (!Number.isFinite(input.defense) || !Number.isFinite(input.attackBonus)) {
    return { ok: false, problem: { key: 'AttackRollInvalid', data: { value: `${input.attackBonus} / ${input.defense}` } } };
  }
  const modifier = input.attackBonus + totalModifier(input.modifiers ?? []);
  const total = natural + modifier;
  const critical = natural === 20;
  return { ok: true, value: { natural, modifier, total, defense: input.defense, hit: critical || total >= input.defense, critical, reason: critical ? 'natural-20' : 'total' } };
}

/**
 * The damage of one hit: rolled, multiplied on a critical hit ("dealt"), less
 * the target's Armour ("taken"), never below 0.
 */
export function damageTaken(rolled: number, hit: { critical?: boolean; multiplier?: number; armour?: number }): { dealt: number; taken: number } {
  const base = Math.max(0, finiteOr0(rolled));
  const dealt = hit.critical ? base * criticalMultiplier(hit.multiplier) : base;
  return { dealt, taken: Math.max(0, dealt - Math.max(0, finiteOr0(hit.armour))) };
}
