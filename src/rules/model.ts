/**
 * The shared model of the Ten Segments rules engine.
 *
 * Pure data and pure functions only: nothing in src/rules may touch a Foundry
 * global, the DOM or Foundry's Roll. Dice come in through the Dice interface
 * (dice.ts) so tests and scenarios can script them.
 */

/** A round is one minute: ten segments of six seconds. */
export const SEGMENTS_PER_ROUND = 10;
export const SECONDS_PER_SEGMENT = 6;

export const PROCEDURE_IDS = [
  'segment-d6',
  'high-low',
  'd12-ascending',
  'individual-speed',
  'addict',
] as const;
export type ProcedureId = (typeof PROCEDURE_IDS)[number];

export function isProcedureId(value: unknown): value is ProcedureId {
  return typeof value === 'string' && (PROCEDURE_IDS as readonly string[]).includes(value);
}

/** Every kind of action a combatant can declare, across all procedures. */
export const ACTION_KINDS = [
  'melee', // attack with a melee weapon or natural attacks
  'missile', // fire or throw a missile weapon
  'spell', // cast a spell (casting time in segments)
  'device', // use a magic device (invocation)
  'turn-undead',
  'charge', // charge / close to melee
  'flee',
  'parley',
  'wait', // wait / prepare an action
  'set-vs-charge', // set a weapon against a charge
  'full-defense',
  'defensive-attack',
  'consumable', // drink a potion, use a consumable
  'throw', // throw an item (not a weapon attack)
  'delay', // high-low: declared delay (acts on LOW)
  'complex', // high-low: complex activity, takes the whole round, goes last
  'move',
  'other',
  'none',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export function isActionKind(value: unknown): value is ActionKind {
  return typeof value === 'string' && (ACTION_KINDS as readonly string[]).includes(value);
}

/** A weapon as combat needs it. Lengths are in feet. */
export interface WeaponStats {
  name?: string;
  /** Weapon speed factor (lower is faster). Absent for natural attacks. */
  speed?: number;
  /** Weapon length in feet (reach); natural attacks count as 1. */
  length?: number;
  /** Space required in feet (seed 001): over 4 ft needs an open adjacent square. */
  space?: number;
  missile?: boolean;
  /** Missiles per routine (rate of fire). */
  rate?: number;
  /** A missile weapon's short / medium / long range in feet (src/rules/range.ts); absent or all 0: no ranges, not checked. */
  range?: { short: number; medium: number; long: number };
  /** individual-speed: the weapon attack critical multiplier (x2, x3 or x4). */
  critical?: number;
  /** individual-speed: the damage types the weapon deals (the Combat Injury tables it may roll on). */
  damageTypes?: DamageType[];
}

/**
 * Damage types (seed 003, the Combat Injury tables: one table per type).
 */
export const DAMAGE_TYPES = ['blunt', 'piercing', 'slashing', 'chopping', 'fire', 'cold', 'electric', 'sonic', 'acid', 'holy', 'unholy'] as const;
export type DamageType = (typeof DAMAGE_TYPES)[number];

export function isDamageType(value: unknown): value is DamageType {
  return typeof value === 'string' && (DAMAGE_TYPES as readonly string[]).includes(value);
}

/**
 * What a combatant intends to do this round. Declared before initiative in
 * every procedure. Fields a procedure does not use are ignored by it.
 */
export interface Declaration {
  combatant: string;
  action: ActionKind;
  target?: string;
  weapon?: WeaponStats;
  /** Spell or device: name shown on the timeline. */
  spell?: string;
  /** Casting time in segments (a casting time of "1 round" is 10). */
  castingTime?: number;
  /** individual-speed: spell speed (casting TN - 10) or an explicit action modifier. */
  speed?: number;
  /** Number of attack routines this round, if different from the combatant's usual. */
  routines?: number;
  /** addict: segments of real-time hesitation (one per full 6 s). */
  hesitation?: number;
  /** addict: the real-time hesitation in seconds, as the table timed it: "every full 6 seconds" delays 1 segment (floor(s / 6)). */
  hesitationSeconds?: number;
  /**
   * A held (segment-d6 "hold") or prepared (addict B) action to be released at this segment of the round
   * (1–10): the flow makes a step there even when nothing else is scheduled (flow/held.ts holdSteps).
   */
  releaseAt?: number;
  /** Charge: distance to the target in feet when the round begins. */
  distance?: number;
  /** d12-ascending III.A: a missile weapon ready and a target in sight at the start of the round. */
  readied?: boolean;
  /**
   * high-low: a delay declared before initiative (acts on LOW, without the
   * delayed condition; the condition itself is CombatantState.delayed).
   */
  delayed?: boolean;
  /**
   * high-low: the action "Go First" (seed 001 step 3): taken in the fast
   * actions phase, after the charges (option goFirstOrder).
   */
  goFirst?: boolean;
  /**
   * high-low: the action comes with a `[delaying]` activity: acts on LOW
   * without the delayed condition; under the delayed condition it is complex
   * (goes last, no major action).
   */
  delaying?: boolean;
  /** high-low: the action is an innate ability, used first in its group (D1). */
  innate?: boolean;
  /** high-low: 1-segment minor actions this round; each adds 1 to weapon speed in ties and 1 segment to a casting. */
  minorActions?: number;
  /**
   * high-low: the Dexterity Reaction Adjustment (Combatant.surpriseAdjustment)
   * counts for this individual's group this round; absent: the option
   * dexterityReaction.
   */
  dexterityReaction?: boolean;
  /** Free text shown to the GM. */
  note?: string;
  /**
   * What this combatant's blows read of its sheet, and blows against it of its defence, frozen when it
   * declared (issue 27; the Foundry layer's, carried with the declaration, never read by the engine).
   */
  sheet?: SheetNumbers;
}

/**
 * A combatant's numbers as its sheet had them when it declared (issue 27): a later edit of its sheet changes
 * its next declaration, not this round's blows. Absent fields: the sheet had none.
 */
export interface SheetNumbers {
  /** Descending AC: its attack number (AAC0), as the sheet writes it. */
  aac0?: string | number;
  /** individual-speed: its attack bonus. */
  attackBonus?: number;
  /** Its own missile bonus (Dexterity). */
  missileBonus?: number;
  /** A monster's attack routines, as its sheet writes them. */
  attacks?: string;
  /** Each weapon it carried, by item id: what a blow with it reads. */
  weapons?: Record<string, FrozenWeapon>;
  /** Its defence: Armor Class; its size (the damage column a weapon rolls against it); individual-speed's Agility modifier, Defense bonus and Armour. */
  ac?: number;
  size?: string;
  agilityModifier?: number;
  defenseBonus?: number;
  armour?: number;
}

/** What a blow with a weapon reads of it (SheetNumbers.weapons). */
export interface FrozenWeapon {
  damage: { small: string; large: string };
  kind?: 'melee' | 'missile';
  missileBonus?: number;
  range?: { short: number; medium: number; long: number };
  critical?: number;
  damageTypes?: DamageType[];
}

/** A side (a CombatantGroup in Foundry). */
export interface Side {
  id: string;
  name: string;
  /**
   * The side's members noticed the others before the encounter (seed 000:
   * "the monsters will not need to make a surprise roll at all").
   */
  alerted?: boolean;
  /**
   * The GM rules this side surprised (seed 002 I.A "the DM may dictate that
   * surprise exists"; seed 003: creatures unaware of their enemies).
   */
  surprised?: boolean;
  /**
   * The situation's adjustment of this side's chance to be surprised, in pips
   * of the procedure's surprise die (+1: surprised on one more face; -1: one
   * fewer), added to the range its members and its opponents give it. The GM's
   * ruling for the circumstances: seed 002 "If the PC's have reason to be on
   * heightened alert … that should factor into chances of surprise" and
   * "Adjustments are applied to the normal surprise range, not the die roll";
   * seed 000 "others are stealthy enough that the party may be surprised on a
   * roll of higher than 2"; seed 004 phase 2 "Determine which parties might be
   * surprised". Not used by individual-speed (no surprise die).
   */
  surpriseModifier?: number;
}

/** A side's situational surprise modifier, whole (bad data counts as none). */
export function sideSurpriseModifier(side: Side | undefined): number {
  const m = side?.surpriseModifier;
  return typeof m === 'number' && Number.isFinite(m) ? Math.trunc(m) : 0;
}

/** Stats of one combatant that combat procedures read. */
export interface Combatant {
  id: string;
  name: string;
  side: string;
  kind?: 'character' | 'monster';
  /** Current and maximum hit points (or Wound Points' stand-in where the procedure uses hp). */
  hp: number;
  maxHp?: number;
  /** Number of attack routines per round (segment-d6, high-low multi-attack, addict). */
  routines?: number;
  /**
   * How many attack routines its stat block lists (seed 001: a routine is "an
   * attack or set of attacks", a block may give several, e.g. a melee and a
   * missile routine); an attack names one by its index, from 0. Absent: not
   * known, and any index is taken.
   */
  attackRoutines?: number;
  /** Dexterity reaction / surprise adjustment: a bonus removes surprise segments, a penalty adds them. */
  surpriseAdjustment?: number;
  /** Dexterity initiative modifier (d12-ascending: subtracted from the d12). */
  initiativeAdjustment?: number;
  /** Missile attack bonus (segment-d6: missile users act that many segments earlier). */
  missileBonus?: number;
  /**
   * The Dexterity bonus included in its armor class, in AC points (2: its AC
   * is 2 better for Dexterity; a penalty is negative). d12-ascending III.E
   * "Spellcasters lose dexterity AC bonus only while actually casting".
   */
  dexterityAcBonus?: number;
  /** Chance to be surprised: surprised on 1..surprisedOn of the surprise die (0 or absent = the procedure's standard range; see neverSurprised). */
  surprisedOn?: number;
  /** Chance to surprise others: opponents are surprised on 1..surprisesOn. */
  surprisesOn?: number;
  /**
   * Relative adjustments in pips of the procedure's surprise die (seed 002's
   * table: elf on point +4 and ranger +2 to the enemy's range; ranger -2 and
   * monk -1..-3 to its own). The side takes its best member's value.
   */
  surprisesOthersAdjust?: number;
  surprisedAdjust?: number;
  /** Can never be surprised. */
  neverSurprised?: boolean;
  /** Class and level, for attacks per round (d12-ascending table). */
  className?: string;
  level?: number;
  /** Hit dice, including the enhanced "+N" (seed 001), e.g. "4+4". */
  hitDice?: string;
  /** individual-speed: ability modifiers. */
  agilityModifier?: number;
  insightModifier?: number;
  strength?: number;
  /** individual-speed: Stress and Wound Points. */
  stress?: number;
  maxStress?: number;
  woundPoints?: number;
  maxWoundPoints?: number;
  /** individual-speed: Defense bonus (Defense = 10 + Agility modifier + Defense bonus), armour's included. */
  defenseBonus?: number;
  /** individual-speed: Armour score, "the sum of Armour Bonuses": taken off the damage of each hit. */
  armour?: number;
  /** individual-speed: added to the d20 of an attack roll against Defense. */
  attackBonus?: number;
  /** Morale score (monsters). */
  morale?: number;
  /** Movement in feet per round, and when charging. */
  movement?: number;
  chargeMovement?: number;
  /** Pounds carried: its items' weight and any other load (seed 002's encumbrance table). */
  carried?: number;
  /** A small creature (seed 002's halfling column). */
  small?: boolean;
  /** The weapon in hand when no declaration says otherwise. */
  weapon?: WeaponStats;
  /** Spells memorized (names); a spell cast is expended. */
  spells?: string[];
  /**
   * Can turn undead (a class that turns: the sheet's "Turns undead"). false: a 'turn-undead' declaration is refused;
   * absent: not known, allowed (round/declarations.ts abilityProblem).
   */
  turnsUndead?: boolean;
  /** The magic devices it carries (names); empty: a 'device' declaration is refused; absent: not known, allowed. */
  devices?: string[];
  /** individual-speed: monsters sharing one initiative roll carry the same key. */
  initiativeGroup?: string;
  /**
   * The condition it enters the combat in, where its hit points do not tell
   * (fled, unconscious but stabilized below 0 …). Absent: its hit points (Wound
   * Points) decide, by the procedure's own damage rules (Procedure.startingCondition).
   */
  condition?: Condition;
}

/** Condition of a combatant during combat. */
export type Condition = 'ok' | 'incapacitated' | 'dying' | 'dead' | 'fled';

/** Mutable per-combatant state the engine tracks through a combat. */
export interface CombatantState {
  hp: number;
  stress?: number;
  woundPoints?: number;
  condition: Condition;
  /** Spells expended (lost or cast). */
  expended: string[];
  /** high-low: delayed condition for the rest of the round. */
  delayed?: boolean;
  /** Morale: has broken. */
  routed?: boolean;
  /**
   * Has surrendered (seed 002, Withdrawal Tactics: "Surrender: ... throw down your weapon, put up your hands"): from
   * rules revision 5 it acts no more and nobody strikes it (flow/acting.ts).
   */
  surrendered?: boolean;
  /** addict phase 11: the GM staunched its bleeding (a fresh wound bleeds again). */
  staunched?: boolean;
  /** individual-speed: stabilized by a Heal check (no Wound Point lost at the end of the round). */
  stabilized?: boolean;
  /** individual-speed: each instance of Wound Point damage, "marked as an injury including its damage type and the amount". */
  wounds?: Wound[];
  /** individual-speed: Combat Injuries received from critical hits. */
  injuries?: CombatInjury[];
}

/** One instance of Wound Point damage (individual-speed). */
export interface Wound {
  amount: number;
  type?: DamageType;
}

/** A Combat Injury (individual-speed): a row of the table of its damage type, or the GM's own entry. */
export interface CombatInjury {
  round: number;
  /** The table rolled on; absent when the damage type was not known (the GM picks). */
  type?: DamageType;
  /** The d20 row, where the text gives the table (blunt). */
  row?: number;
  /** Rows that strike an arm or a hand: the main or the off side (d4: 1-2 main, 3-4 off). */
  side?: 'main' | 'off';
  /** The ability damage the row gives, rolled: the abilities it names each lose `amount`. */
  abilityDamage?: { abilities: string[]; amount: number };
  /** The GM's own entry, where the text's table is empty. */
  text?: string;
}

/** A problem with input: a localization key under TENSEG.Error plus data. */
export interface Problem {
  key: string;
  data?: Record<string, string | number>;
  /** Path of the offending field, for scenario files ("rounds[2].declarations[0].castingTime"). */
  path?: string;
}

/** A parsed value, or the Problem that stopped it. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: Problem };

export class RulesError extends Error {
  constructor(public readonly problem: Problem) {
    super(problem.key + (problem.data ? ' ' + JSON.stringify(problem.data) : ''));
    this.name = 'RulesError';
  }
}
