/**
 * high-low: HIGH and LOW group initiative in a fixed phase order (seed 001_aab75c09f093bb2c.txt; choices where it is
 * silent are in README.md, Rules notes).
 *
 * The sections below follow the order of the seed text: the round and its segments, surprise, the eight steps of a
 * combat round (declare, with the activity fields; group initiative with the Dexterity Reaction Adjustment; fast
 * actions and Go First; multi-attack; HIGH and LOW with innate abilities first, minor actions and ties; remaining
 * attacks; spells with concentration and invocations; end of the round), then delay and the delayed condition,
 * complex and delaying activities, and free and immediate attacks; last, where the text is silent, hit points and
 * late joiners.
 *
 * Time keys (round kit): [phase, a, b, c, lostTie, weaponSpeed], packed into one number at radix 256; equal keys are
 * one simultaneous step. The weapon speed, the last part (it may have a fraction), stays 0 until
 * settleWeaponSpeedTies sets it.
 *
 * Pure rules: no Foundry global, no DOM, no Roll. Dice come in through Dice.
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, Condition, Declaration, Problem } from '../model';
import { RulesError, SEGMENTS_PER_ROUND } from '../model';
import type {
  AttackRules, Casting, DamageResult, DelayPlan, EndOfRoundInput, EndOfRoundResult, Encounter, InitiativeResult, LateJoinInput, LateJoinResult,
  MidRoundQuery, MoraleCheckRequest, OptionSpec, Procedure, ProcedureOptions, RoundInput, Schedule, Step, StepEntry, SurpriseResult,
} from '../procedure';
import {
  actsNow, badRoutines, badWeaponField, commonDeclarationProblem, conditionByHp, copyState, hpDamage, initialState, isActive, keyAt, makeSchedule, NEVER, pack,
  rollSideDice, RoundBuilder, RoundEnd, splice, winnerOf, type From, type Key, type Placed, type PlannedCasting, type Where,
} from '../round';
import { delay } from '../flow/held';
import { MORALE_METHODS, rulingMorale, type MoraleMethod } from '../morale-methods';
import { storedRateFeet } from '../encumbrance';
import { feetOf, movedFeet, provokedBefore, type MovementRules, type Provoked } from '../movement';
import { surpriseRanges } from '../round/surprise';

/* ================================================================ options */

export interface HighLowOptions extends ProcedureOptions {
  /** Faces of the surprise die each side rolls ("The GM will check for Surprise"; text silent: d6). */
  surpriseDie: number;
  /** A side is surprised on 1..surprisedOn of its surprise die (widened by a member's or an opponent's range). */
  surprisedOn: number;
  /** "Each group will roll a d6." */
  initiativeDie: number;
  /** Order of the D2/D3 action types inside a group phase (text names only D1 innate and D4 other). */
  groupOrder: 'missile-first' | 'melee-first';
  /** Melee ties between sides acting in the same group phase go to the lower weapon speed. */
  weaponSpeedTies: boolean;
  /** Weapon speed of natural attacks (no weapon speed given) for those ties. */
  naturalWeaponSpeed: number;
  /** Multi-attack routines are taken HIGH group before LOW group (text gives no order). */
  multiAttackByGroup: boolean;
  /** Hit points at or below which a combatant is dead (0, or e.g. -10 with dying in between). */
  deathAt: number;
  /** Hit points a dying combatant loses at the end of each round (0 = none). */
  bleedPerRound: number;
  /**
   * "Adjustments may be made for individuals with a Dexterity Reaction Adjustment in the right circumstances": whether
   * the adjustment counts when a declaration does not say (Declaration.dexterityReaction).
   */
  dexterityReaction: boolean;
  /** Where "Go First" actions stand among the fast actions A–C (the Combat Round Flowchart is not in the text). */
  goFirstOrder: 'after-charge' | 'before-parley';
  /**
   * A caster who elects not to complete an incantation loses it "as if cast" (concentration ended). Absent from a
   * combat started before this option (false there): the spell was kept.
   */
  cancelLosesSpell: boolean;
  /** RULING (an option, off): the movement rate no more than seed 002's encumbrance table gives the weight carried (12” = 120 ft). */
  encumbrance: boolean;
  /** RULING (an option, on; the seeds give no range penalties): a missile's medium range −2, long range −5 to hit (rules/attack.ts RANGE_MODIFIERS). */
  rangeModifiers: boolean;
  /**
   * RULING (issue 28; the text gives no morale rule): how a morale check the GM calls is made, at once
   * (morale-methods.ts): 2d6, d100 or d20 at or under the score, or the GM's own result. A failure routs.
   * Absent from a combat started before it: a call is taken and nothing is checked (as then).
   */
  moraleMethod: MoraleMethod;
}

export const highLowDefaults: Readonly<HighLowOptions> = Object.freeze({
  surpriseDie: 6, surprisedOn: 2, initiativeDie: 6, groupOrder: 'missile-first', weaponSpeedTies: true,
  naturalWeaponSpeed: 1, multiAttackByGroup: true, deathAt: 0, bleedPerRound: 0, dexterityReaction: false, goFirstOrder: 'after-charge',
  cancelLosesSpell: true, encumbrance: false, rangeModifiers: true, moraleMethod: '2d6',
});

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'surpriseDie', type: 'number', min: 2, max: 20 },
  { key: 'surprisedOn', type: 'number', min: 0, max: 20 },
  { key: 'initiativeDie', type: 'number', min: 2, max: 20 },
  { key: 'groupOrder', type: 'choice', choices: ['missile-first', 'melee-first'] },
  { key: 'weaponSpeedTies', type: 'boolean' },
  { key: 'naturalWeaponSpeed', type: 'number', min: 0, max: 20 },
  { key: 'multiAttackByGroup', type: 'boolean' },
  { key: 'deathAt', type: 'number', min: -20, max: 0 },
  { key: 'bleedPerRound', type: 'number', min: 0, max: 10 },
  { key: 'dexterityReaction', type: 'boolean' },
  { key: 'goFirstOrder', type: 'choice', choices: ['after-charge', 'before-parley'] },
  { key: 'cancelLosesSpell', type: 'boolean' },
  { key: 'encumbrance', type: 'boolean' },
  { key: 'rangeModifiers', type: 'boolean' },
  { key: 'moraleMethod', type: 'choice', choices: MORALE_METHODS },
];

/** An integer option, never below `min` (options arrive as any finite number). */
function whole(value: number, min: number): number {
  return Number.isFinite(value) ? Math.max(min, Math.floor(value)) : min;
}

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/* ============================================ "A round ... 10 segments" */

/**
 * The phases of a round, in order. `activation`: spells and devices begin ("activation always begins on the 1st
 * segment"); then the text's steps 3–8.
 */
export const HIGH_LOW_PHASES = ['activation', 'fast', 'multi-attack', 'high', 'low', 'remaining-attacks', 'spells', 'go-last', 'end-of-round'] as const;
export type HighLowPhase = (typeof HIGH_LOW_PHASES)[number];
const RANK = Object.fromEntries(HIGH_LOW_PHASES.map((p, i) => [p, i])) as Record<HighLowPhase, number>;
/** Where a step of each phase stands (phases only: no segment, no count). */
const AT = Object.fromEntries(HIGH_LOW_PHASES.map((p) => [p, { phase: p }])) as Record<HighLowPhase, Where>;

/** Every part of a key stays below 256 for any realistic round (6 parts: 2^48 < 2^53). */
const RADIX = 256;

/** The key of a moment of `phase`; its weapon speed is 0 until settleWeaponSpeedTies. */
function key(phase: HighLowPhase, a = 0, b = 0, c = 0, lostTie = 0): Key {
  return pack(RADIX, RANK[phase], a, b, c, lostTie, 0);
}

/** The same moment at a weapon speed: the speed is the last part (clamped like any part), added to a key whose speed is 0. */
function withSpeed(at: Key, speed: number): Key {
  return at + pack(RADIX, speed);
}

const ACTIONS: readonly ActionKind[] = [
  'parley', 'flee', 'charge', 'melee', 'missile', 'throw', 'turn-undead', 'consumable', 'move', 'other', 'spell', 'device', 'delay', 'complex', 'none',
];

export type Group = 'high' | 'low';
const GROUP_RANK: Record<Group, number> = { high: 0, low: 1 };

/* ======================================== "The GM will check for Surprise" */

/*
 * The text says no more. Ruling: each side rolls a d6 (option) once at the start of combat and is surprised on 1-2,
 * widened like the other d6 procedures by a member's `surprisedOn` or an opponent's `surprisesOn`. A side the GM
 * rules surprised does not roll. Surprise is counted in rounds: surprised combatants lose round 1.
 */
function rollSurprise(encounter: Encounter, dice: Dice, options: HighLowOptions): SurpriseResult {
  const faces = whole(options.surpriseDie, 2);
  const ranges = surpriseRanges(encounter, whole(options.surprisedOn, 0));
  // Per side with members: whether every member is never surprised.
  const allNever = new Map<string, boolean>();
  for (const c of encounter.combatants) allNever.set(c.side, (allNever.get(c.side) ?? true) && c.neverSurprised === true);
  const rolls: Record<string, number> = {};
  const surprisedSides = new Set<string>();
  for (const side of encounter.sides) {
    if (!allNever.has(side.id)) continue;
    if (side.surprised) surprisedSides.add(side.id); // the GM rules this side surprised: no roll
    if (side.surprised || side.alerted || allNever.get(side.id)) continue;
    const range = Math.min(faces, ranges.get(side.id) ?? 0);
    if (range <= 0) continue;
    const roll = dice.roll({ purpose: 'surprise', count: 1, faces, side: side.id, round: 0 });
    rolls[side.id] = roll;
    if (roll <= range) surprisedSides.add(side.id);
  }
  const surprised: Record<string, number> = {};
  for (const c of encounter.combatants) surprised[c.id] = surprisedSides.has(c.side) && !c.neverSurprised ? 1 : 0;
  return { rolls, surprised, unit: 'round' };
}

/** Surprised combatants lose the whole of round 1. */
function surprisedThisRound(input: Pick<RoundInput, 'round' | 'surprise'>, id: string): boolean {
  return input.round === 1 && (input.surprise?.surprised[id] ?? 0) > 0;
}

function stateOf(c: Combatant, states: Record<string, CombatantState>): CombatantState {
  return states[c.id] ?? initialState(c);
}

/** Able to act this round at all: alive and well, and not losing round 1 to surprise. */
function ableThisRound(c: Combatant, input: Pick<RoundInput, 'round' | 'surprise' | 'states'>): boolean {
  return isActive(stateOf(c, input.states)) && !surprisedThisRound(input, c.id);
}

/* ============================================ "1. All individuals Declare Actions" */

function validateDeclaration(decl: Declaration, combatant: Combatant, _options: HighLowOptions): Problem | null {
  const common = commonDeclarationProblem(decl, combatant, ACTIONS);
  if (common) return common;
  const name = combatant.name;
  // "Declaring a Delay": a flag on any declaration.
  if (decl.delayed !== undefined && typeof decl.delayed !== 'boolean') return { key: 'HighLowDelayedNotBoolean', data: { name } };
  if (badRoutines(decl.routines)) return { key: 'HighLowRoutinesInvalid', data: { name, routines: String(decl.routines) } };
  // Multi-attack: only attack routines (melee, or missiles) can be more than one.
  if ((decl.routines ?? 1) > 1 && decl.action !== 'melee' && decl.action !== 'missile') {
    return { key: 'HighLowRoutinesNotAttack', data: { name, action: decl.action } };
  }
  if (badWeaponField(decl.weapon, ['speed'])) return { key: 'HighLowWeaponSpeedInvalid', data: { name } };
  return activityProblem(decl, name);
}

/** The flags of activities a declaration may carry (README, high-low: "Choices where the text is silent"). */
const ACTIVITY_FLAGS = ['goFirst', 'delaying', 'innate', 'dexterityReaction'] as const;

/** Incantations and invocations: "activation always begins on the 1st segment", then the Spell Initiative Chart. */
const CASTING: ReadonlySet<ActionKind> = new Set(['spell', 'device']);
/** "Fast Action" types A.–C. */
const FAST: ReadonlySet<ActionKind> = new Set(['parley', 'flee', 'charge']);

/** Go First, delaying and innate activities, minor actions and the Dexterity Reaction Adjustment on a declaration. */
function activityProblem(decl: Declaration, name: string): Problem | null {
  for (const field of ACTIVITY_FLAGS) {
    if (decl[field] !== undefined && typeof decl[field] !== 'boolean') return { key: 'HighLowFlagNotBoolean', data: { name, field } };
  }
  const minor = decl.minorActions;
  if (minor !== undefined && (typeof minor !== 'number' || !Number.isInteger(minor) || minor < 0 || minor > SEGMENTS_PER_ROUND)) {
    return { key: 'HighLowMinorActionsInvalid', data: { name, minorActions: String(minor) } };
  }
  const action = decl.action;
  // "Complex Activity ... takes the entire round ... No other action or activity can be performed that round."
  if (action === 'complex') {
    const field = decl.goFirst ? 'goFirst' : decl.delaying ? 'delaying' : decl.innate ? 'innate' : (minor ?? 0) > 0 ? 'minorActions' : null;
    if (field) return { key: 'HighLowComplexTakesRound', data: { name, field } };
    return null;
  }
  const data = { name, action };
  // Go First: step 3, with the fast actions; not a casting (spell initiative), a delay (LOW) or no action.
  if (decl.goFirst && (CASTING.has(action) || action === 'delay' || action === 'none')) return { key: 'HighLowGoFirstNotAllowed', data };
  // "[delaying] ... can only do so during LOW initiative"; a casting's activation "always begins on the 1st segment".
  if (decl.delaying && (CASTING.has(action) || action === 'none')) return { key: 'HighLowDelayingNotAllowed', data };
  // "Innate abilities must be used 1st in initiative (D1. Innate Abilities)": an ability used in a group phase, not a
  // fast action (A.–C.), an incantation or invocation, a delay or no action.
  if (decl.innate && (FAST.has(action) || CASTING.has(action) || action === 'delay' || action === 'none')) {
    return { key: 'HighLowInnateNotAllowed', data };
  }
  return null;
}

/* ============================================ "2. Group Initiative ... Each group will roll a d6" */

/*
 * "The group with the highest roll acts first during HIGH group initiative ... If TIED, both groups act during HIGH."
 * With more than two sides, every side tied for the highest die is HIGH and every other side is LOW. Only sides with
 * someone able to act this round roll. An individual whose Dexterity Reaction Adjustment counts this round is shown
 * with its adjusted die and its own group (individualGroup).
 */
function rollInitiative(encounter: Encounter, input: RoundInput, dice: Dice, options: HighLowOptions): InitiativeResult {
  const roll = { faces: whole(options.initiativeDie, 2), round: input.round };
  const sides = rollSideDice(encounter, dice, roll, (c) => ableThisRound(c, input));
  const top = Math.max(...Object.values(sides));
  const labels: Record<string, string> = {};
  for (const side of encounter.sides) labels[side.id] = sides[side.id] === top ? 'high' : 'low';
  const individuals: Record<string, number> = {};
  for (const c of encounter.combatants) {
    if (!ableThisRound(c, input)) continue;
    const own = individualGroup(c, input.declarations[c.id], { sides, labels }, options);
    if (own.adjusted === undefined) continue;
    individuals[c.id] = own.adjusted;
    labels[c.id] = own.group;
  }
  return { round: input.round, sides, individuals, winner: winnerOf(sides), labels };
}

/** The initiative a round was planned with: the dice per side and the HIGH/LOW label of each side. */
type Groups = Pick<InitiativeResult, 'sides' | 'labels'>;

/** The Dexterity Reaction Adjustment of a combatant if it counts for this declaration (the declaration says, else the option). */
function reactionAdjustment(c: Combatant, decl: Declaration | undefined, options: HighLowOptions): number {
  const adj = c.surpriseAdjustment;
  if (typeof adj !== 'number' || !Number.isFinite(adj) || adj === 0) return 0;
  return (decl?.dexterityReaction ?? options.dexterityReaction) === true ? adj : 0;
}

/**
 * "Adjustments may be made for individuals with a Dexterity Reaction Adjustment in the right circumstances." Ruling:
 * the individual's group die plus its adjustment (Combatant.surpriseAdjustment, the same Dexterity reaction number
 * that counts against surprise) is compared with the highest die of the other sides that rolled: reaching it is HIGH
 * (as "If TIED, both groups act during HIGH"), falling short is LOW. A bonus can lift a LOW individual into HIGH, a
 * penalty drop a HIGH one into LOW. Whether the circumstances are right is the GM's: a declaration's
 * `dexterityReaction`, else the option `dexterityReaction` (default off). `adjusted` is absent when it does not count.
 */
function individualGroup(c: Combatant, decl: Declaration | undefined, ini: Groups, options: HighLowOptions): { group: Group; adjusted?: number } {
  const labels = ini.labels ?? {};
  const group: Group = labels[c.side] === 'high' ? 'high' : 'low';
  const own = ini.sides[c.side];
  const adj = reactionAdjustment(c, decl, options);
  if (adj === 0 || own === undefined) return { group };
  const others = Object.entries(ini.sides).filter(([side]) => side !== c.side).map(([, die]) => die);
  const adjusted = own + adj;
  if (others.length === 0) return { group, adjusted };
  return { group: adjusted >= Math.max(...others) ? 'high' : 'low', adjusted };
}

/** The group initiative a combatant acts in (delay, a delaying activity and the delayed condition make it LOW). */
export function groupOf(c: Combatant, decl: Declaration | undefined, state: CombatantState | undefined, ini: Groups, options: HighLowOptions): Group {
  if (state?.delayed) return 'low'; // Delayed Condition: "always has LOW initiative"
  if (decl && (decl.delayed === true || decl.action === 'delay')) return 'low'; // Declaring a Delay: "you act on LOW"
  if (decl?.delaying === true) return 'low'; // "[delaying] ... can only do so during LOW initiative"
  return individualGroup(c, decl, ini, options).group;
}

/** "All group initiative action ties are lost unless the opponent has the delayed condition." */
function lostTie(state: CombatantState | undefined): number {
  return state?.delayed ? 1 : 0;
}

/* ---------------------------------------------------------- planning */

/** Where planned entries go: the kit's RoundBuilder, or a late joiner's list. */
type Out = Pick<RoundBuilder, 'add' | 'cast'>;

/** Melee entries of one time key, held back until every side is known (settleWeaponSpeedTies). */
interface MeleeTie {
  where: Where;
  entries: StepEntry[];
  speeds: number[];
  /** The side of the first entry; manySides: an entry of another side followed. */
  side: string;
  manySides: boolean;
}

interface PlanContext {
  round: number;
  /** The round's initiative: the dice and labels per side. */
  ini: Groups;
  options: HighLowOptions;
  out: Out;
  /** Melee entries by time key (weapon speed 0) until settleWeaponSpeedTies. */
  melee: Map<Key, MeleeTie>;
}

/** An entry at its time key. A melee entry waits in ctx.melee: its weapon speed may decide a tie with other sides. */
function place(ctx: PlanContext, at: Key, phase: HighLowPhase, entry: StepEntry, c: Combatant, decl: Declaration): void {
  if (decl.action !== 'melee') return ctx.out.add(at, AT[phase], entry);
  const speed = speedOf(c, decl, ctx.options);
  const tie = ctx.melee.get(at);
  if (!tie) ctx.melee.set(at, { where: AT[phase], entries: [entry], speeds: [speed], side: c.side, manySides: false });
  else {
    tie.entries.push(entry);
    tie.speeds.push(speed);
    if (c.side !== tie.side) tie.manySides = true;
  }
}

/**
 * The weapon speed in melee ties. "Any minor action that requires 1 segment will add 1 segment to any major action no
 * matter when the minor action is executed. This additional segment will be factored into melee weapon speed".
 */
function speedOf(c: Combatant, decl: Declaration, options: HighLowOptions): number {
  const s = (decl.weapon ?? c.weapon)?.speed;
  const speed = typeof s === 'number' && Number.isFinite(s) && s >= 0 ? s : finiteOr(options.naturalWeaponSpeed, 0);
  return speed + minorActionsOf(decl);
}

/** The declared 1-segment minor actions (validated: a whole number 0..10). */
function minorActionsOf(decl: Declaration): number {
  const n = decl.minorActions;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0;
}

function routinesOf(c: Combatant, decl: Declaration): number {
  const n = decl.routines ?? c.routines ?? 1;
  return Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1;
}

function makeEntry(c: Combatant, decl: Declaration, kind: StepEntry['kind'], reason: string, routine?: number, casting?: string): StepEntry {
  const e: StepEntry = { combatant: c.id, kind, action: decl.action };
  if (routine !== undefined) e.routine = routine;
  if (decl.target !== undefined) e.target = decl.target;
  e.reason = reason;
  if (casting !== undefined) e.casting = casting;
  return e;
}

/* ============================== "3. ... Fast Action ... Parley, Flee, Charge" */

/** "in the order as presented": A parley, B flee, C charge; HIGH before LOW within each. */
const FAST_RANK: Partial<Record<ActionKind, number>> = { parley: 1, flee: 2, charge: 3 };

/*
 * "... or those that 'Go First' to take their turn—in the order as presented in the Combat Round Flowchart." The
 * flowchart is not in the text, and it letters only the fast actions A.–C.: a Go First action (Declaration.goFirst)
 * comes after the charges (option goFirstOrder: or before the parleys), HIGH before LOW. Like the fast actions it
 * ignores the delayed condition; a declared delay or a delaying activity puts it with LOW.
 */
function fastRank(decl: Declaration, options: HighLowOptions): number {
  return FAST_RANK[decl.action] ?? (options.goFirstOrder === 'before-parley' ? 0 : 4);
}

function planFast(c: Combatant, decl: Declaration, ctx: PlanContext): void {
  // "Fast actions are unaffected by the delayed condition and use group initiative."
  const group: Group = decl.delayed === true || decl.delaying === true ? 'low' : individualGroup(c, decl, ctx.ini, ctx.options).group;
  const attack = decl.action === 'charge' || decl.action === 'melee' || decl.action === 'missile';
  const reason = FAST_RANK[decl.action] !== undefined ? 'highLowFast' : 'highLowGoFirst';
  const entry = makeEntry(c, decl, 'action', reason, attack ? 1 : undefined);
  place(ctx, key('fast', fastRank(decl, ctx.options), GROUP_RANK[group]), 'fast', entry, c, decl);
}

/* ============================== "4. ... multi-attack ability (and is in melee)" */

function planMultiAttackFirst(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext): void {
  const g = ctx.options.multiAttackByGroup ? GROUP_RANK[groupOf(c, decl, state, ctx.ini, ctx.options)] : 0;
  const entry = makeEntry(c, decl, 'action', 'highLowMultiAttackFirst', 1);
  place(ctx, key('multi-attack', g, 0, 0, lostTie(state)), 'multi-attack', entry, c, decl);
}

/* ============================== "5. ... HIGH group initiative ... LOW group" */

/**
 * The place of an action type in its group: D1 innate abilities (turn-undead) first, D4 other last; D2 missiles
 * (missile, throw) and D3 melee between, in the order of the option groupOrder.
 */
function typeRank(action: ActionKind, options: HighLowOptions): number {
  const missileFirst = options.groupOrder !== 'melee-first';
  if (action === 'turn-undead') return 1;
  if (action === 'missile' || action === 'throw') return missileFirst ? 2 : 3;
  if (action === 'melee') return missileFirst ? 3 : 2;
  return 4;
}

/**
 * "Innate abilities must be used 1st in initiative (D1. Innate Abilities)": an action declared `innate` (an ability
 * with no notation is "[innate] (minor, 1 segment)") takes D1 of its group whatever its type, with turn undead.
 */
function rankOf(decl: Declaration, options: HighLowOptions): number {
  return decl.innate === true ? 1 : typeRank(decl.action, options);
}

/*
 * Within a group, "action order by type determines who acts first": D1 innate abilities, then missiles and melee
 * (option groupOrder), then D4 other. Ties of the same type: the delayed condition loses; melee between different
 * sides goes by weapon speed (lower first); still equal, simultaneous.
 */
function planGroupAction(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext): void {
  const group = groupOf(c, decl, state, ctx.ini, ctx.options);
  const reason = groupReason(c, decl, state, group, ctx);
  const attack = decl.action === 'melee' || decl.action === 'missile';
  const at = key(group, rankOf(decl, ctx.options), 0, 0, lostTie(state));
  const entry = makeEntry(c, decl, 'action', reason, attack ? 1 : undefined);
  place(ctx, at, group, entry, c, decl);
}

/** Why an action stands where it does in HIGH or LOW (the first that applies). */
function groupReason(c: Combatant, decl: Declaration, state: CombatantState, group: Group, ctx: PlanContext): string {
  if (state.delayed) return 'highLowDelayedCondition';
  if (decl.delayed === true || decl.action === 'delay') return 'highLowDeclaredDelay';
  if (decl.delaying === true) return 'highLowDelaying';
  if (decl.innate === true) return 'highLowInnate';
  if (reactionAdjustment(c, decl, ctx.options) !== 0 && group !== (ctx.ini.labels?.[c.side] === 'high' ? 'high' : 'low')) {
    return group === 'high' ? 'highLowDexterityHigh' : 'highLowDexterityLow';
  }
  return group === 'high' ? 'highLowHighGroup' : 'highLowLowGroup';
}

/**
 * "melee vs. melee" ties: melee weapon speed decides only where a time key holds melee of more than one side (allies
 * are never split). Such a key is split by weapon speed, lower first ("your weapon speed will be 8 instead of 7");
 * equal speeds stay simultaneous. Every other melee key is kept whole.
 */
function settleWeaponSpeedTies(ctx: PlanContext): void {
  for (const [at, tie] of ctx.melee) {
    const split = ctx.options.weaponSpeedTies && tie.manySides;
    for (let i = 0; i < tie.entries.length; i++) {
      const entry = tie.entries[i];
      if (split && (entry.reason === 'highLowHighGroup' || entry.reason === 'highLowLowGroup')) entry.reason = 'highLowWeaponSpeed';
      ctx.out.add(split ? withSpeed(at, tie.speeds[i]) : at, tie.where, entry);
    }
  }
  ctx.melee.clear();
}

/* ============================== "6. ... any remaining attacks due to the multi-attack ability" */

function planRemainingRoutines(c: Combatant, decl: Declaration, state: CombatantState, routines: number, ctx: PlanContext): void {
  if (routines < 2) return;
  const g = ctx.options.multiAttackByGroup ? GROUP_RANK[groupOf(c, decl, state, ctx.ini, ctx.options)] : 0;
  for (let r = 2; r <= routines; r++) {
    const at = key('remaining-attacks', r, g, rankOf(decl, ctx.options), lostTie(state));
    const entry = makeEntry(c, decl, 'routine', 'highLowRemainingRoutine', r);
    place(ctx, at, 'remaining-attacks', entry, c, decl);
  }
}

/* ============================== "7. ... resolve all 'spells' ... Spell Initiative Chart" */

/*
 * Incantations and invocations "always begin on the 1st segment" and go off in the spells phase (ruling "Spell
 * initiative"): shortest casting time first, equal time HIGH before LOW (the delayed count as LOW but do not lose
 * ties), still equal simultaneous. "1 round" (10) completes in this round's spells phase; longer castings carry on,
 * and a carried casting goes off in the spells phase of the round its remaining time runs out, ordered as if its
 * casting time were the remaining segments. Concentration: any damage before it goes off loses an incantation "as if
 * cast"; a device is not lost to damage.
 */
function spellKey(time: number, group: Group): Key {
  return key('spells', time, GROUP_RANK[group]);
}

function planCasting(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext): void {
  const device = decl.action === 'device';
  // "Any minor action that requires 1 segment will add 1 segment to any major action ... This additional segment will
  // be factored into ... other timed actions": the casting takes that many segments more.
  const time = (decl.castingTime as number) + minorActionsOf(decl); // validated: integer 1..100, minor actions 0..10
  const id = `${c.id}@${ctx.round}`; // "Only one spell can be cast per round"
  const begin = key('activation');
  place(ctx, begin, 'activation', makeEntry(c, decl, 'cast-begin', 'highLowActivation', undefined, id), c, decl);
  const complete = time <= SEGMENTS_PER_ROUND ? spellKey(time, groupOf(c, decl, state, ctx.ini, ctx.options)) : null;
  const reason = device ? 'highLowDevice' : 'highLowSpellInitiative';
  if (complete !== null) place(ctx, complete, 'spells', makeEntry(c, decl, 'cast-complete', reason, undefined, id), c, decl);
  const breakable: From = device ? 'never' : 'start';
  ctx.out.cast({
    id, caster: c.id, spell: decl.spell ?? decl.action, device, castingTime: time, beganRound: ctx.round, begin, complete,
    lossFrom: breakable, preventFrom: breakable, expends: !device, remaining: complete !== null ? 0 : time - SEGMENTS_PER_ROUND,
  });
}

/**
 * A casting carried in from an earlier round: it takes the caster's whole round, and goes off in the spells phase if
 * its time runs out. One that runs on is planned like any casting (not `carry`, which lists carried castings after
 * all others), so castings stay in the order of the combatants.
 */
function planCarried(c: Combatant, casting: Casting, state: CombatantState, ctx: PlanContext, out: RoundBuilder): void {
  const remaining = Math.max(1, Math.ceil(finiteOr(casting.remaining, 1)));
  if (remaining <= SEGMENTS_PER_ROUND) {
    const at = spellKey(remaining, groupOf(c, undefined, state, ctx.ini, ctx.options));
    out.carryIn(casting, { key: at, where: AT.spells, reason: 'highLowCarriedCasting' });
    return;
  }
  const breakable: From = casting.device ? 'never' : 'start';
  out.cast({ ...casting, begin: null, complete: null, lossFrom: breakable, preventFrom: breakable, remaining: remaining - SEGMENTS_PER_ROUND });
}

/*
 * "Spell Casting. All incantations require deep concentration during the casting time. If this concentration is
 * broken, the spell being cast fails and is lost as if cast"; and of a major action given up: "consequences for ending
 * the declared major action are assessed normally for that action; e.g. loss of spell". A caster who elects not to
 * complete an incantation loses it (option cancelLosesSpell); an invocation (device) is not an incantation.
 */
function cancelLoses(casting: Casting, options: HighLowOptions): boolean {
  return options.cancelLosesSpell === true && !casting.device;
}

/* ---------------------------------------------- the round assembled: steps 3-7 */

function planDeclared(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext): void {
  const routines = routinesOf(c, decl);
  if (decl.goFirst === true && decl.action !== 'none') {
    // Step 3 (validated: not a casting, a delay or a complex activity); further attack routines still wait for step 6.
    planFast(c, decl, ctx);
    if (decl.action === 'melee' || decl.action === 'missile') planRemainingRoutines(c, decl, state, routines, ctx);
    return;
  }
  if (decl.delaying === true && state.delayed && !FAST.has(decl.action) && decl.action !== 'none') {
    // "A delayed individual performing delaying activities treats those activities as complex (that typically Go
    // Last)": the activity takes the round ("No other action or activity can be performed that round").
    return planComplex(c, decl, ctx, 'highLowDelayingComplex');
  }
  switch (decl.action) {
    case 'parley':
    case 'flee':
    case 'charge':
      return planFast(c, decl, ctx);
    case 'melee':
      if (routines < 2) return planGroupAction(c, decl, state, ctx);
      planMultiAttackFirst(c, decl, state, ctx);
      return planRemainingRoutines(c, decl, state, routines, ctx);
    case 'missile':
      // Missiles are not "in melee": the first routine keeps its group turn.
      planGroupAction(c, decl, state, ctx);
      return planRemainingRoutines(c, decl, state, routines, ctx);
    case 'spell':
    case 'device':
      return planCasting(c, decl, state, ctx);
    case 'complex':
      return planComplex(c, decl, ctx, 'highLowGoLast');
    case 'none':
      return;
    default:
      // turn-undead (D1), throw (with missiles), consumable, move, other, delay (D4).
      return planGroupAction(c, decl, state, ctx);
  }
}

/** Every entry of the round at its time key, in one pass over the combatants; then the weapon-speed ties. */
function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: HighLowOptions): Schedule {
  const out = new RoundBuilder('high-low', input.round);
  const ctx: PlanContext = { round: input.round, ini: initiative, options, out, melee: new Map() };
  const carried = new Map<string, Casting[]>(); // castings carried in, by caster
  for (const x of input.carryIn ?? []) carried.set(x.caster, [...(carried.get(x.caster) ?? []), x]);
  for (const c of encounter.combatants) {
    const state = stateOf(c, input.states);
    if (!isActive(state) || surprisedThisRound(input, c.id)) continue; // dead, dying, fled, or surprised in round 1
    const carry = carried.get(c.id);
    if (carry) {
      // A casting under way is the caster's major action: a new declaration waits.
      for (const casting of carry) planCarried(c, casting, state, ctx, out);
      continue;
    }
    const decl = input.declarations[c.id];
    if (!decl || validateDeclaration(decl, c, options)) continue;
    planDeclared(c, decl, state, ctx);
  }
  settleWeaponSpeedTies(ctx);
  return out.build(initiative);
}

/* ============================== "8. ... the End the Round sequence" */

/*
 * The delayed condition lasts "for the rest of the round". The text has no dying rule: with deathAt below 0 a
 * combatant at 0 or less is dying and, if bleedPerRound > 0, loses that many hit points here.
 */
function endOfRound(_encounter: Encounter, input: EndOfRoundInput, _dice: Dice, options: HighLowOptions): EndOfRoundResult {
  const bleed = whole(options.bleedPerRound, 0);
  const end = new RoundEnd(input);
  for (const id of Object.keys(input.after)) {
    const s = input.after[id];
    const bleeding = bleed > 0 && s.condition === 'dying';
    if (!('delayed' in s) && !bleeding) continue;
    const next = copyState(s);
    delete next.delayed;
    if (!bleeding) end.set(id, next);
    else {
      next.hp -= bleed;
      if (next.hp <= options.deathAt) next.condition = 'dead';
      end.bleed(id, bleed, next);
    }
  }
  return end.result();
}

/* ============================== "Delay. [delay] ... announce your intent to delay" */

export type DelayResult =
  | { ok: true; schedule: Schedule; states: Record<string, CombatantState> }
  | { ok: false; problem: Problem };

/** A casting of a built schedule with its steps named by key again, to be planned anew. */
function plannedAgain(x: Casting, steps: readonly Step[]): PlannedCasting {
  const from = (i: number): From => (i >= NEVER ? 'never' : i <= 0 ? 'start' : steps[i].key);
  const begin = x.beginStep < 0 ? null : steps[x.beginStep].key;
  const complete = x.completeStep === null ? null : steps[x.completeStep].key;
  return { ...x, begin, complete, lossFrom: from(x.lossFrom), preventFrom: from(x.preventFrom) };
}

/**
 * A combatant announces a delay during group actions: steps 0..currentStep have been played (-1: none) and the delay
 * is announced before step currentStep + 1. "If you are in HIGH initiative, you lose all actions until LOW initiative
 * ... You also gain the delayed condition for the rest of the round. If you announce a delay during LOW initiative,
 * you lose your major action that round." Its unplayed entries are placed again as a delayed individual (LOW, losing
 * ties; spells count it LOW); everyone else keeps their place in `schedule` (the round as it is being played: late
 * joiners spliced in, leavers' entries kept) and the played steps keep their indices, so play goes on at
 * currentStep + 1. `during`: the phase the delay is announced in (the step being played), where it is not the next
 * step's; `open`: the index of a step being played, kept even when only the delayer was in it. `input` and
 * `initiative` are the round's plan (its declarations and the states it began with); `states` are the states now.
 * Pure.
 */
export function announceDelay(
  encounter: Encounter, input: RoundInput, initiative: InitiativeResult, schedule: Schedule,
  combatantId: string, currentStep: number, states: Record<string, CombatantState>, options: HighLowOptions = highLowDefaults,
  at: { during?: string; open?: number } = {},
): DelayResult {
  const c = encounter.combatants.find((x) => x.id === combatantId);
  if (!c) return { ok: false, problem: { key: 'UnknownCombatant', data: { id: combatantId } } };
  const data = { name: c.name };
  const now = states[c.id] ?? stateOf(c, input.states);
  if (!isActive(now) || surprisedThisRound(input, c.id)) return { ok: false, problem: { key: 'HighLowDelayCannotAct', data } };
  const next = Number.isInteger(currentStep) && currentStep >= -1 ? schedule.steps[currentStep + 1] : undefined;
  const during = at.during ?? next?.phase;
  if (during !== 'high' && during !== 'low') return { ok: false, problem: { key: 'HighLowDelayOutsideGroupPhase', data } };
  // Steps are rebuilt by their time keys: each must have its own (a round migrated without keys, or two steps spliced
  // in at one key, cannot be rebuilt without moving a played step).
  const keys = schedule.steps.map((st) => st.key);
  if (keys.some((k, i) => typeof k !== 'number' || (i > 0 && !(k > keys[i - 1])))) return { ok: false, problem: { key: 'HighLowDelayScheduleChanged', data } };
  const played = keyAt(schedule, currentStep); // -Infinity: nothing played yet
  const delayedState: CombatantState = { ...copyState(now), delayed: true };
  // The delayer planned anew with the delayed condition (only its own entries are taken from this plan).
  const replanned = planRound(encounter, { ...input, states: { ...input.states, [c.id]: delayedState } }, initiative, options);

  // Everyone else keeps their entries, and so does the delayer for the steps played;
  // within a step, these come before the delayer's new entries.
  const out = new RoundBuilder('high-low', schedule.round);
  const done = new Set<string>(); // the delayer's entries played, by kind, routine and casting
  const identity = (e: StepEntry) => `${e.kind}/${e.routine ?? 0}/${e.casting ?? ''}`;
  const completing = new Set<string>();
  const keep = (step: Step, entry: StepEntry) => {
    out.add(step.key, step, entry);
    if (entry.kind === 'cast-complete' && entry.casting) completing.add(entry.casting);
  };
  for (const step of schedule.steps) {
    for (const entry of step.entries) {
      if (entry.combatant !== c.id) keep(step, entry);
      else if (step.key <= played) {
        keep(step, entry);
        done.add(identity(entry));
      }
    }
  }
  const open = at.open !== undefined ? schedule.steps[at.open] : undefined;
  if (open) out.touch(open.key, open);
  const duringLow = during === 'low';
  for (const step of replanned.steps) {
    if (step.key <= played) continue;
    for (const entry of step.entries) {
      if (entry.combatant !== c.id || done.has(identity(entry))) continue;
      // "announce a delay during LOW initiative, you lose your major action".
      if (duringLow && entry.kind === 'action' && (step.phase === 'low' || step.phase === 'go-last')) continue;
      keep(step, step.phase === 'spells' ? entry : { ...entry, reason: 'highLowDelayedCondition' });
    }
  }
  const kept = (x: Casting) => x.completeStep === null || completing.has(x.id);
  for (const x of schedule.castings) if (x.caster !== c.id && kept(x)) out.cast(plannedAgain(x, schedule.steps));
  for (const x of replanned.castings) if (x.caster === c.id && kept(x)) out.cast(plannedAgain(x, replanned.steps));
  return { ok: true, schedule: out.build(schedule.initiative), states: { ...states, [c.id]: delayedState } };
}

/**
 * The flow's `delay` (flow/midround.ts), announced while step `q.step` is played: before the delayer's own turn in
 * that step when it has one it has not used ("Anytime during group actions, you can announce your intent to delay"),
 * else after that step. In a HIGH or LOW step the delay is announced during that group's actions.
 */
function delayNow(encounter: Encounter, q: MidRoundQuery & { played: boolean }, options: HighLowOptions): DelayPlan {
  const current = q.schedule.steps[q.step];
  const during = current?.phase === 'high' || current?.phase === 'low' ? current.phase : undefined;
  const r = announceDelay(encounter, q.round, q.initiative, q.schedule, q.combatant, q.played ? q.step : q.step - 1, q.states, options, { during, open: q.step });
  if (!r.ok) throw new RulesError(r.problem);
  return { schedule: r.schedule, states: r.states };
}

/* ============================== "Complex Activity. [go last] ... takes the entire round" */

/*
 * Declared with the action `complex`: "All complex activities must be declared" and "No other action or activity can
 * be performed that round" (validateDeclaration refuses Go First, delaying, innate and minor actions with it). A
 * delaying activity under the delayed condition is complex too: its entry is the activity (action `complex`), the
 * declared major action is not taken.
 */
function planComplex(c: Combatant, decl: Declaration, ctx: PlanContext, reason: 'highLowGoLast' | 'highLowDelayingComplex'): void {
  // "Those with the delayed condition can complete a complex action normally."
  const activity: Declaration = decl.action === 'complex' ? decl : { ...decl, action: 'complex' };
  place(ctx, key('go-last'), 'go-last', makeEntry(c, activity, 'action', reason), c, activity);
}

/* ============================== "Free Attack. [immediate]" and "Immediate Attack" */

export interface FreeAttackTaken {
  attacker: string;
  target: string;
  /** Step index of the round (a step stands for the segment of the trigger). */
  step: number;
}

/**
 * May `attacker` take a free attack on `target` now? Not while it cannot act or is surprised; "Only one free attack
 * may be taken per segment by any creature"; the one drawing it is subject to "one free attack ... per opponent per
 * round". `taken` lists this round's free attacks so far.
 */
export function freeAttackProblem(
  attacker: Combatant, target: Combatant, step: number, state: CombatantState, surprised: boolean, taken: readonly FreeAttackTaken[],
): Problem | null {
  const data = { name: attacker.name, target: target.name };
  if (!isActive(state)) return { key: 'HighLowFreeAttackCannotAct', data };
  if (surprised) return { key: 'HighLowFreeAttackSurprised', data };
  if (taken.some((t) => t.attacker === attacker.id && t.step === step)) return { key: 'HighLowFreeAttackOnePerSegment', data };
  if (taken.some((t) => t.attacker === attacker.id && t.target === target.id)) return { key: 'HighLowFreeAttackOnePerOpponent', data };
  return null;
}

/**
 * "Creatures using an immediate attack must have an available major action"; the surprised cannot. `majorActionUsed`:
 * it has already taken its major action.
 */
export function immediateAttackProblem(attacker: Combatant, state: CombatantState, surprised: boolean, majorActionUsed: boolean): Problem | null {
  const data = { name: attacker.name };
  if (!isActive(state)) return { key: 'HighLowFreeAttackCannotAct', data };
  if (surprised) return { key: 'HighLowFreeAttackSurprised', data };
  if (majorActionUsed) return { key: 'HighLowImmediateAttackNoMajorAction', data };
  return null;
}

/**
 * "a free attack taken will break concentration (e.g. spell casting)": the attacker's castings still under way at
 * `step` (not yet gone off), which the table then marks lost.
 */
export function castingsBrokenByFreeAttack(schedule: Schedule, attacker: string, step: number): string[] {
  return schedule.castings.filter((x) => x.caster === attacker && !x.device && (x.completeStep === null || step < x.completeStep)).map((x) => x.id);
}

/**
 * The flow's attack rules. "Declaring a Delay ... you act on LOW initiative": the `delay` entry is the delayer's turn
 * to act. A free attack at an opponent fleeing in this step ("In many cases, a free attack will be granted ... (ex. Flee
 * Melee)"), held to freeAttackProblem; it breaks the attacker's concentration (castingsBrokenByFreeAttack: "the spell
 * being cast fails and is lost as if cast"). Immediate attacks have triggers the engine does not know: the GM's.
 */
const attackRules: AttackRules = {
  turn: 'delay',
  outOfTurn(q) {
    if (q.attacker.side === q.target.side) return null;
    // The target fled out of the attacker's melee range on the map this round (movement, above), or flees in this step.
    const byMove = (q.provoked ?? []).some((p) => p.grant === 'free-attack');
    if (!byMove && !actsNow(q, q.target.id, ['flee'])) return null;
    const taken: FreeAttackTaken[] = q.attacks.filter((a) => a.as === 'free-attack').map((a) => ({ attacker: a.c, target: a.target, step: a.step }));
    const problem = freeAttackProblem(q.attacker, q.target, q.step, q.state, q.surprised, taken);
    return problem ? { problem } : { grant: 'free-attack', breaks: castingsBrokenByFreeAttack(q.schedule, q.attacker.id, q.step) };
  },
};

/* ============================== Movement on the map: "Positioning movement", concentration, Flee Melee */

/**
 * The movement rate in feet (Combatant.movement, feet as stored); absent: none known (the GM's). With the
 * `encumbrance` option and the weight carried known, no more than 002's table gives (inches, 12” = 120 ft).
 */
export function highLowRateFeet(c: Combatant, byEncumbrance: boolean): number | undefined {
  return storedRateFeet(c, byEncumbrance);
}

/** Declared actions whose major action is the movement itself ("movement is otherwise normally a major action"). */
const MOVING: ReadonlySet<ActionKind> = new Set<ActionKind>(['move', 'flee', 'charge', 'none']);

/** The most "Positioning movement" may cover in a round. */
export const POSITIONING_FEET = 10;

/**
 * Movement on the map (the `moved` input, flow/moved.ts):
 *  - "movement is otherwise normally a major action": a combatant that declared a move, a flight, a charge (or
 *    nothing) may move its rate (highLowRateFeet; a charge its charge distance if more) over the round's moves;
 *  - "Positioning movement of 10-ft. or less is a minor action but can only be done after a major action and cannot
 *    be done in melee": any other declaration allows 10 ft in all, only once one of its entries has acted, and not
 *    from within an opponent's melee range (a move that begins there);
 *  - concentration: "A caster concentrating on an ability can move around slowly ... walking up to half their
 *    movement rate per round": while its casting is under way, half its rate. RULING: the text gives the rule for
 *    maintained abilities; an incantation under way is concentration too ("any other action that requires
 *    concentration"), so it holds from the spell's first segment until it goes off;
 *  - beyond any of these the GM rules (allow, or forfeit the action).
 * Free attack: "In many cases, a free attack will be granted ... (ex. Flee Melee)": a combatant that declared flee and
 * leaves an opponent's melee range (begins within it, ends outside) draws that opponent's free attack, once per
 * opponent per round; the attack is held to freeAttackProblem (attackRules.outOfTurn).
 */
const movement: MovementRules<HighLowOptions> = {
  check(q) {
    const { combatant, declaration, move, earlier } = q;
    const action = declaration?.action;
    const rate = highLowRateFeet(combatant, q.options.encumbrance === true);
    const total = movedFeet(earlier) + feetOf(move.feet);
    let allowance: number | undefined;
    let beyond: string | undefined;
    if (q.casting) {
      if (rate !== undefined) allowance = rate / 2;
      if (allowance !== undefined && total > allowance) beyond = 'concentrating';
    } else if (action === undefined || MOVING.has(action)) {
      if (rate !== undefined) allowance = action === 'charge' ? Math.max(rate, feetOf(declaration?.distance)) : rate;
      if (allowance !== undefined && total > allowance) beyond = 'rate';
    } else {
      allowance = POSITIONING_FEET;
      if (feetOf(move.feet) > 0) {
        // Before its major action or from within melee no positioning is allowed at all: allowance 0.
        if (!q.acted) [allowance, beyond] = [0, 'positioningBeforeAction'];
        else if ((move.reach ?? []).some((r) => r.startIn && q.opponents.has(r.c))) [allowance, beyond] = [0, 'positioningInMelee'];
        else if (total > POSITIONING_FEET) beyond = 'positioning';
      }
    }
    const provoked: Provoked[] = [];
    if (action === 'flee') {
      for (const r of move.reach ?? []) {
        if (!r.startIn || r.endIn || !q.opponents.has(r.c) || provokedBefore(earlier, r.c, 'free-attack') || provoked.some((p) => p.by === r.c)) continue;
        provoked.push({ by: r.c, grant: 'free-attack', reason: 'highLowFleeFreeAttack' });
      }
    }
    const verdict: { allowance?: number; beyond?: string; provoked: Provoked[] } = { provoked };
    if (allowance !== undefined) verdict.allowance = allowance;
    if (beyond !== undefined) verdict.beyond = beyond;
    return verdict;
  },
};

/* ============================== Hit points (text silent) */

function applyDamage(_c: Combatant, state: CombatantState, amount: number, options: HighLowOptions): DamageResult {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return { state, wounds: 0 };
  const deathAt = Math.min(0, finiteOr(options.deathAt, 0));
  return hpDamage(state, amount, { incapacitatedAt: 0, deathAt });
}

/** Entering the combat at 0 hp or below is as damage leaves it: dying above `deathAt` (bleeding by bleedPerRound), dead at it. */
function startingCondition(c: Combatant, options: HighLowOptions): Condition {
  return conditionByHp(c.hp, { incapacitatedAt: 0, deathAt: Math.min(0, finiteOr(options.deathAt, 0)) }, 'dying');
}

/* ============================== Late joiners (text silent) */

/*
 * A combatant joining mid-round acts in its side's group (a side that did not roll is LOW), each entry in a step of
 * its own at the end of the phase it would act in, if that phase is still to come; a phase already played is missed.
 * Spells, devices and complex activities need the whole round (activation "begins on the 1st segment"): the newcomer
 * starts them next round.
 */
function lateJoin(_encounter: Encounter, newcomer: Combatant, input: LateJoinInput, _dice: Dice, options: HighLowOptions): LateJoinResult {
  const decl = input.declaration;
  const schedule = input.schedule;
  if (!decl || validateDeclaration(decl, newcomer, options)) return { schedule };
  if (decl.action === 'spell' || decl.action === 'device' || decl.action === 'complex' || decl.action === 'none') return { schedule };
  const planned: Placed[] = [];
  const out: Out = { add: (at, where, entry) => planned.push({ key: at, where, entry }), cast: () => undefined }; // no casting this round
  const ini: Groups = schedule.initiative ?? { sides: {}, labels: {} };
  const ctx: PlanContext = { round: input.round, ini, options, out, melee: new Map() };
  planDeclared(newcomer, decl, initialState(newcomer), ctx);
  settleWeaponSpeedTies(ctx);
  // The key now played (a round played to its end has no phase to come) against the last key of each entry's phase.
  const now = input.currentStep >= schedule.steps.length ? Infinity : keyAt(schedule, input.currentStep);
  const placed: Placed[] = [];
  for (const p of planned.sort((a, b) => a.key - b.key)) {
    const end = pack(RADIX, RANK[p.where.phase as HighLowPhase] + 1, 0, 0, 0, 0, 0) - 1; // parts clamp at RADIX - 1
    if (now > end) continue; // that phase is over
    if (p.entry) placed.push({ key: end, where: p.where, entry: { ...p.entry, reason: 'highLowLateJoin' }, join: false });
  }
  return { schedule: splice(schedule, input.currentStep, placed) };
}

/* ============================================================ morale (a ruling) */

/** The GM's calls checked at once by `moraleMethod` (2d6 by default): morale-methods.ts. */
const { moraleProblem, moraleNow } = rulingMorale<HighLowOptions>('2d6');

/* ================================================================ procedure */

export const highLowProcedure: Procedure<HighLowOptions> = {
  id: 'high-low',
  defaults: highLowDefaults,
  optionSpecs: OPTION_SPECS,
  phases: HIGH_LOW_PHASES,
  timing: 'phases',
  actions: ACTIONS,
  attackRules,
  movement,
  validateDeclaration,
  rollSurprise,
  // Surprise is a lost round 1, not a separate surprise round.
  planSurprise: () => null,
  rollCombatInitiative: () => ({}),
  rollInitiative,
  planRound,
  applyDamage,
  canAct: isActive,
  startingCondition,
  endOfRound,
  moraleProblem,
  moraleNow,
  lateJoin,
  announceDelay: delayNow,
  flowInputs: { delay },
  cancelLoses,
};
