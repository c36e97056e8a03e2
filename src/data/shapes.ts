/**
 * The plain shapes of Ten Segments system data, as stored in Foundry and as
 * the pure translation (engine-view.ts) reads them. The DataModel schemas in
 * this folder produce exactly these shapes; the limits below are shared by the
 * schemas and the pure checks so both refuse the same values.
 *
 * Pure: no Foundry global.
 */
import { AC_MAX, AC_MIN } from '../rules/armor-class';
import { SEGMENTS_PER_ROUND, type DamageType } from '../rules/model';

export const ACTOR_TYPES = ['character', 'monster'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
export const ITEM_TYPES = ['weapon', 'spell', 'armor', 'gear'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export const ABILITY_KEYS = ['str', 'int', 'wis', 'dex', 'con', 'cha'] as const;
export type AbilityKey = (typeof ABILITY_KEYS)[number];

/** Numeric limits shared by the schemas and the pure checks. */
export const LIMITS = {
  ability: { min: 1, max: 25 },
  ac: { min: AC_MIN, max: AC_MAX },
  /** Hit points may go below zero (bleeding to -10, addict phase 9). */
  hp: { min: -100, max: 9999 },
  level: { min: 0, max: 40 },
  /** Surprise ranges, in pips of the procedure's surprise die (d6 or d12). */
  surpriseRange: { min: 0, max: 12 },
  surpriseAdjust: { min: -12, max: 12 },
  smallModifier: { min: -10, max: 10 },
  routines: { min: 1, max: 10 },
  /** Movement in feet per round. */
  movement: { min: 0, max: 2400 },
  weaponSpeed: { min: 0, max: 20 },
  /** Weapon length and space required, in feet. */
  reach: { min: 0, max: 30 },
  rate: { min: 0.5, max: 10 },
  rangeFeet: { min: 0, max: 10000 },
  spellLevel: { min: 0, max: 9 },
  castingValue: { min: 1, max: 100 },
  /** A casting takes at most 100 segments (10 rounds), as the engine accepts. */
  castingSegments: { max: 100 },
  castingTN: { min: 0, max: 40 },
  memorized: { min: 0, max: 20 },
  morale: { min: 0, max: 100 },
  stressWounds: { min: -100, max: 9999 },
  strength: { min: 0, max: 30 },
  weight: { min: 0, max: 100000 },
  /** An item's price in gold pieces (fractions for silver and copper). */
  cost: { min: 0, max: 1000000 },
  /** individual-speed: Defense and attack bonuses, Armour bonuses. */
  defenseBonus: { min: -10, max: 30 },
  attackBonus: { min: -10, max: 30 },
  armour: { min: 0, max: 30 },
  /** How many of one monster an encounter places. */
  encounterCount: { min: 1, max: 50 },
} as const;

/** Seed 002: 12" of movement; this system stores feet per round (1" = 10 ft). */
export const BASE_MOVEMENT_FEET = 120;
export const FEET_PER_INCH = 10;

export interface ValueMax {
  value: number;
  max: number;
}

export interface SurpriseData {
  /** Surprised on 1..n of the procedure's surprise die; 0 = the procedure's standard range. */
  surprisedOn: number;
  /** Opponents are surprised on 1..n; 0 = the procedure's standard range. */
  surprisesOn: number;
  /** d12-ascending style adjustments to the ranges, in pips (ranger -2 to its own, elf on point +4 to the enemy's). */
  surprisedAdjust: number;
  surprisesOthersAdjust: number;
  neverSurprised: boolean;
}

export interface MovementData {
  /** Feet per round (12" = 120 ft). */
  base: number;
  /** Feet per round when charging; 0 = let the procedure derive it. */
  charge: number;
}

export interface IndividualSpeedData {
  /** Agility modifier (base initiative = d12 − Agility). */
  agility: number;
  /** Insight modifier (morale checks). */
  insight: number;
  stress: ValueMax;
  wounds: ValueMax;
  /** Defense bonus from other sources than worn armour (Defense = 10 + Agility + Defense bonus). */
  defense: number;
  /** Armour bonus from other sources than worn armour (Armour is "the sum of Armour Bonuses"). */
  armour: number;
  /** Added to the d20 of an attack against Defense. */
  attackBonus: number;
}

/** Creature sizes: small and man-sized take a weapon's small column of damage, large ones its large column. */
export const SIZES = ['small', 'medium', 'large'] as const;
export type Size = (typeof SIZES)[number];

export interface CharacterSystem {
  size: Size;
  abilities: Record<AbilityKey, number>;
  hp: ValueMax;
  ac: number;
  attack: { mode: 'aac0' | 'table'; aac0: string; table: string };
  movement: MovementData;
  encumbrance: { carried: number };
  /** turnsUndead: the character turns undead (a class that turns; issue 28). */
  details: { className: string; level: number; turnsUndead: boolean };
  surprise: SurpriseData;
  combat: {
    /** Dexterity reaction / surprise adjustment. */
    reactionAdjustment: number;
    missileBonus: number;
    initiativeAdjustment: number;
    routines: number;
    /** The part of `ac` that comes from Dexterity (d12-ascending III.E: lost while actually casting). */
    dexAcBonus: number;
  };
  individual: IndividualSpeedData;
  biography: string;
}

export interface MonsterSystem {
  size: Size;
  hitDice: string;
  hp: ValueMax;
  ac: number;
  aac0: string;
  movement: MovementData;
  /** Attack routines as written in the stat block. */
  attacks: string;
  /** Attack routines per round. */
  routines: number;
  surprise: SurpriseData;
  /** Morale score; 0 = none given. */
  morale: number;
  /** Turns undead (an evil priest as a monster…); false for a monster unless the GM says so (issue 28). */
  turnsUndead: boolean;
  individual: IndividualSpeedData & { strength: number };
  notes: string;
}

export type WeaponKind = 'melee' | 'missile';

export interface WeaponSystem {
  damage: { small: string; large: string };
  speed: number;
  length: number;
  space: number;
  kind: WeaponKind;
  rate: number;
  range: { short: number; medium: number; long: number };
  missileBonus: number;
  /** individual-speed: the critical multiplier, 2, 3 or 4. */
  critical: number;
  /** individual-speed: the damage types the weapon deals (empty: not given). */
  damageTypes: DamageType[];
  equipped: boolean;
  weight: number;
  /** Price in gold pieces. */
  cost?: number;
  description: string;
}

/** The casting classes whose spell lists a spell may be on (a spell item's `classes`). */
export const SPELL_CLASSES = ['magic-user', 'cleric', 'druid', 'illusionist'] as const;
export type SpellClass = (typeof SPELL_CLASSES)[number];

export type CastingUnit = 'segments' | 'rounds';

export interface SpellSystem {
  level: number;
  castingTime: { value: number; unit: CastingUnit };
  /** individual-speed: casting TN; spell speed = TN − 10. 0 = none. */
  castingTN: number;
  range: string;
  duration: string;
  memorized: number;
  expended: number;
  /** Whose spell lists the spell is on: 'magic-user', 'cleric', 'druid', 'illusionist'. */
  classes?: string[];
  description: string;
}

export type ArmorBulk = 'none' | 'fairly' | 'bulky';

export interface ArmorSystem {
  ac: number;
  bonus: number;
  /** individual-speed: "most pieces of armour grant a bonus to Defense and/or Armour when worn". */
  defense: number;
  armour: number;
  bulk: ArmorBulk;
  /** Movement allowed while worn, feet per round; 0 = no limit. */
  movement: number;
  equipped: boolean;
  weight: number;
  cost?: number;
  description: string;
}

export interface GearSystem {
  weight: number;
  quantity: number;
  /** A magic device (a wand, rod or staff): its carrier may declare "Use a magic device" (issue 28). */
  device: boolean;
  cost?: number;
  description: string;
}

export interface CombatantSystem {
  /** The declaration for the current round, as the engine takes it (null = none). */
  declaration: Record<string, unknown> | null;
  routinesUsed: number;
  spellsExpended: string[];
  /** individual-speed: combatants with the same key share one initiative roll. */
  initiativeGroup: string;
}

export interface CombatantGroupSystem {
  /** The engine's side id (defaults to the group's id when empty). */
  side: string;
  alerted: boolean;
  surprised: boolean;
  /** The situation's surprise modifier, in pips of the procedure's surprise die. */
  surpriseModifier: number;
  surpriseRoll: number | null;
  initiativeRoll: number | null;
}

/** Segments of a casting time: "1 round" is 10 segments (seeds/README ruling). */
export function castingSegments(castingTime: { value: number; unit: CastingUnit }): number {
  return castingTime.unit === 'rounds' ? castingTime.value * SEGMENTS_PER_ROUND : castingTime.value;
}

export function feetToInches(feet: number): number {
  return feet / FEET_PER_INCH;
}

export function inchesToFeet(inches: number): number {
  return inches * FEET_PER_INCH;
}
