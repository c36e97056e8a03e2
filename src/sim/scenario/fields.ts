/** The fields a scenario file may have, section by section, and the dice the seed texts fix. */
import type { CreatureSize } from '../../rules/attack';
import type { DiePurpose } from '../../rules/dice';
import type { ProcedureId } from '../../rules/model';
import { ACTION_KINDS, DAMAGE_TYPES } from '../../rules/model';
import { MORALE_METHODS } from '../../rules/procedure';
import { CONDITIONS } from '../../rules/round';
import { BREAK_CAUSES } from '../../rules/flow/state';
import { MAX_ROUNDS } from './types';

export type Spec =
  /** text: free text (a description, a note), which may hold tabs and line breaks. */
  | { t: 'string'; required?: boolean; text?: boolean }
  | { t: 'number'; int?: boolean; min?: number; max?: number; required?: boolean }
  | { t: 'boolean'; required?: boolean }
  | { t: 'strings'; required?: boolean }
  | { t: 'enum'; values: readonly string[]; required?: boolean }
  /** A list of values of an enum, each once. */
  | { t: 'enums'; values: readonly string[]; required?: boolean }
  | { t: 'hitDice'; required?: boolean }
  | { t: 'weapon'; required?: boolean };

export const str: Spec = { t: 'string' };
export const req: Spec = { t: 'string', required: true };
/** Free text: tabs and line breaks allowed. */
export const text: Spec = { t: 'string', text: true };
export const bool: Spec = { t: 'boolean' };
export const int = (min?: number, max?: number, required = false): Spec => ({ t: 'number', int: true, min, max, required });
export const num = (min?: number, max?: number): Spec => ({ t: 'number', min, max });

export const DIE_PURPOSES: readonly DiePurpose[] = ['surprise', 'initiative', 'morale', 'attack', 'damage', 'injury', 'other'];

export const WEAPON_FIELDS: Record<string, Spec> = {
  name: str,
  speed: int(-20, 30),
  length: num(0, 100),
  space: num(0, 100),
  missile: bool,
  rate: num(0.01, 20),
  critical: int(2, 4),
  damageTypes: { t: 'enums', values: DAMAGE_TYPES },
};

export const COMBATANT_FIELDS: Record<string, Spec> = {
  id: req,
  name: str,
  side: req,
  kind: { t: 'enum', values: ['character', 'monster'] },
  hp: int(-1000, 100000, true),
  maxHp: int(1, 100000),
  routines: int(0, 20),
  surpriseAdjustment: int(-10, 10),
  initiativeAdjustment: int(-10, 10),
  missileBonus: int(-10, 10),
  dexterityAcBonus: int(-10, 10),
  surprisedOn: int(0, 12),
  surprisesOn: int(0, 12),
  surprisesOthersAdjust: int(-12, 12),
  surprisedAdjust: int(-12, 12),
  neverSurprised: bool,
  className: str,
  level: int(0, 40),
  hitDice: { t: 'hitDice' },
  agilityModifier: int(-10, 10),
  insightModifier: int(-10, 10),
  strength: int(1, 100),
  stress: int(0, 100000),
  maxStress: int(0, 100000),
  woundPoints: int(-1000, 100000),
  maxWoundPoints: int(1, 100000),
  morale: int(-100, 100),
  movement: num(0, 10000),
  chargeMovement: num(0, 10000),
  weapon: { t: 'weapon' },
  spells: { t: 'strings' },
  /** Issue 28: it turns undead (true) or not (false: a 'turn-undead' declaration is refused); absent: not known, allowed. */
  turnsUndead: bool,
  /** Issue 28: the magic devices it carries (names); [] : a 'device' declaration is refused; absent: not known, allowed. */
  devices: { t: 'strings' },
  initiativeGroup: str,
  defenseBonus: int(-20, 50),
  armour: int(0, 50),
  attackBonus: int(-20, 50),
  /** The condition it starts in where its hit points do not tell (fled, stabilized below 0): checked against them in validate. */
  condition: { t: 'enum', values: CONDITIONS },
};

export const DECLARATION_FIELDS: Record<string, Spec> = {
  combatant: str,
  action: { t: 'enum', values: ACTION_KINDS, required: true },
  target: str,
  weapon: { t: 'weapon' },
  spell: str,
  castingTime: int(1, 100),
  speed: num(-100, 100),
  routines: int(0, 20),
  hesitation: int(0, 10),
  hesitationSeconds: num(0, 3600),
  releaseAt: int(1, 10),
  distance: num(0, 10000),
  readied: bool,
  delayed: bool,
  goFirst: bool,
  delaying: bool,
  innate: bool,
  minorActions: int(0, 10),
  dexterityReaction: bool,
  note: text,
};

export const SIDE_FIELDS: Record<string, Spec> = { id: req, name: str, alerted: bool, surprised: bool };

export const DAMAGE_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  target: req,
  amount: int(0, 100000, true),
  by: str,
  routine: int(1, 20),
  spell: bool,
  critical: bool,
  type: { t: 'enum', values: DAMAGE_TYPES },
  step: int(0, 1000000),
  segment: int(1, 100),
  count: num(-1000, 1000),
};

/** individual-speed: a Heal check to stabilize (the check's total), at a step or count, or after the round's last step. */
export const HEAL_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  combatant: req,
  total: int(-1000, 1000, true),
  step: int(0, 1000000),
  count: num(-1000, 1000),
};

/** individual-speed: a Combat Injury the GM enters: a row of its type's table, or their own words. */
export const INJURY_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  combatant: req,
  type: { t: 'enum', values: DAMAGE_TYPES },
  row: int(1, 100),
  side: { t: 'enum', values: ['main', 'off'] },
  text: str,
  step: int(0, 1000000),
  count: num(-1000, 1000),
};

export const DIE_FIELDS: Record<string, Spec> = {
  purpose: { t: 'enum', values: DIE_PURPOSES, required: true },
  side: str,
  combatant: str,
  round: int(0, MAX_ROUNDS),
  result: int(undefined, undefined, true),
};

export const MORALE_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  combatant: req,
  trigger: str,
  opposed: num(-1000, 1000),
  method: { t: 'enum', values: MORALE_METHODS },
  score: num(-1000, 1000),
  passed: bool,
};

/** A spell chosen at the caster's turn (d12-ascending II.C): `spell` with `castingTime`, or `none: true`. */
export const CHOOSE_FIELDS: Record<string, Spec> = { round: int(0, MAX_ROUNDS, true), combatant: req, spell: str, castingTime: int(1, 100), none: bool };

export const CANCEL_FIELDS: Record<string, Spec> = { round: int(0, MAX_ROUNDS, true), combatant: str, casting: str };

/** An attacker whose target fell chooses (flow/retarget.ts): another target, hold, or none (exactly one). */
export const RETARGET_FIELDS: Record<string, Spec> = { round: int(0, MAX_ROUNDS, true), combatant: req, target: str, hold: bool, none: bool };

/** addict phase 1: a side's reaction as the GM records it (the reaction table is not in the text). */
export const REACTION_FIELDS: Record<string, Spec> = { side: req, result: req, roll: num(-100000, 100000), secret: bool };

/** addict phase 3: the encounter distance, in feet. */
export const DISTANCE_SPEC: Spec = num(0, 100000);

/** addict phase 11: bleeding the GM staunches at the end of a round. */
export const STAUNCH_FIELDS: Record<string, Spec> = { round: int(0, MAX_ROUNDS, true), combatant: req };

export const JOIN_FIELDS = ['round', 'step', 'combatant', 'declaration'];

/** When a mid-round action happens in its round: exactly one of these (play.ts Moment). */
export const MOMENT_FIELDS: Record<string, Spec> = { step: int(0, 1000000), segment: int(1, 100), count: num(-1000, 1000), phase: str };

/** A delay announced during group actions (high-low). */
export const DELAY_FIELDS: Record<string, Spec> = { round: int(0, MAX_ROUNDS, true), combatant: req, ...MOMENT_FIELDS };

/** A held or prepared action released; `as`, the action it becomes, is a declaration (DECLARATION_FIELDS) read on its own. */
export const RELEASE_FIELDS: Record<string, Spec> = { round: int(0, MAX_ROUNDS, true), combatant: req, ...MOMENT_FIELDS };

/** The GM breaks a casting: by caster (combatant) or casting id, and why. */
export const BREAK_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  combatant: str,
  casting: str,
  why: { t: 'enum', values: BREAK_CAUSES },
  ...MOMENT_FIELDS,
};

/** An attack (in the attacker's step or out of turn) and the damage it does. */
export const ATTACK_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  attacker: req,
  target: req,
  weapon: str,
  damage: int(0, 100000),
  critical: bool,
  type: { t: 'enum', values: DAMAGE_TYPES },
  ...MOMENT_FIELDS,
};

export const TOP_FIELDS = [
  'title', 'description', 'procedure', 'options', 'rounds', 'sides', 'combatants', 'declarations', 'dice', 'damage', 'joins', 'morale', 'cancel',
  'delays', 'releases', 'breaks', 'attacks', 'reactions', 'distance', 'staunch', 'choose', 'retarget', 'heal', 'injuries', 'spells',
];

/* ------------------------------------------------ stats for rolled play (odds) */

/**
 * What a combatant brings to a rolled attack (`npm run odds`, src/rules/odds
 * FighterStats). Read beside COMBATANT_FIELDS but kept out of the engine's
 * Combatant: the scenario runner plays scripted damage and never reads them.
 * `aac0` is text or a number (parseAac0); `attacks` a stat block's routines
 * (parseAttackRoutines); `position` is read with POSITION_FIELDS.
 */
export const CREATURE_SIZES: readonly CreatureSize[] = ['small', 'medium', 'large'];
export const FIGHTER_FIELDS: Record<string, Spec> = {
  ac: int(-10, 10),
  aac0: str,
  size: { t: 'enum', values: CREATURE_SIZES },
  attacks: str,
};
/** Where a combatant stands, in grid squares. */
export const POSITION_FIELDS: Record<string, Spec> = {
  x: { t: 'number', min: -100000, max: 100000, required: true },
  y: { t: 'number', min: -100000, max: 100000, required: true },
};
/** A combatant's weapon damage vs small and medium, and vs large (dice.ts damageFormula): taken off the weapon into the fighter's stats. */
export const WEAPON_DAMAGE_FIELDS: Record<string, Spec> = { damage: str, damageLarge: str };
/** What a spell does when it goes off (top-level `spells`, by spell name): src/rules/odds SpellEffect. */
export const SPELL_EFFECT_FIELDS: Record<string, Spec> = { damage: str, targets: int(1, 50), disables: str };
/** The combatant fields the runner does not play (FIGHTER_FIELDS and `position`). */
export const FIGHTER_KEYS: readonly string[] = [...Object.keys(FIGHTER_FIELDS), 'position'];

/**
 * The dice a seed text fixes (000: d6 surprise and initiative; 001: d6 group
 * initiative; 002: d12 surprise and initiative; 003: d12 base initiative, 3d6
 * morale; 004: d6): a scripted result they cannot show is refused at once.
 * Other rolls are checked when the engine asks for them.
 */
export const KNOWN_DICE: Record<ProcedureId, Partial<Record<DiePurpose, { count: number; faces: number }>>> = {
  'segment-d6': { surprise: { count: 1, faces: 6 }, initiative: { count: 1, faces: 6 } },
  'high-low': { initiative: { count: 1, faces: 6 } },
  'd12-ascending': { surprise: { count: 1, faces: 12 }, initiative: { count: 1, faces: 12 } },
  'individual-speed': { initiative: { count: 1, faces: 12 }, morale: { count: 3, faces: 6 } },
  addict: { surprise: { count: 1, faces: 6 }, initiative: { count: 1, faces: 6 } },
};
