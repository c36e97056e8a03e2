/**
 * Procedure `individual-speed` (seed 003, "Combat Procedure").
 *
 * Every creature rolls a Base Initiative once per combat (d12 minus its
 * Agility modifier); each round its Round Initiative is that base plus the
 * modifier of the action it declared; actions resolve from the lowest count to
 * the highest, ties simultaneously. Damage goes to Stress, then Wound Points.
 * At the end of each round the Dying bleed and monsters may check morale.
 *
 * Sections follow the order of the seed text: Step 1 Surprise, Step 2
 * Initiative (with late joiners), Step 3 Declare Actions, Step 4 Monster
 * Morale Check, Step 5 Ending Combat, then Combat Stats (Stress, Wound
 * Points, Defense, Armour) and Critical Hits and Injuries.
 * Choices made where the text is silent are marked RULING and listed in
 * README.md, Rules notes.
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, CombatInjury, Condition, DamageType, Declaration, Problem, Wound } from '../model';
import { RulesError, SEGMENTS_PER_ROUND } from '../model';
import type { Casting, DamageResult, EndOfRoundInput, EndOfRoundResult, Encounter, InitiativeResult, InjuryEntry, LateJoinInput, WoundRules } from '../procedure';
import type { AttackRules, LateJoinResult, OptionSpec, Procedure, ProcedureOptions, RoundInput, Schedule, StepEntry, SurpriseResult } from '../procedure';
import { commonDeclarationProblem, keyAt, RoundBuilder, RoundEnd, splice } from '../round';
import type { From, Key, Placed, PlannedCasting, Where } from '../round';
import { applyWoundInput, chargeOutOfTurn } from '../flow/wounds';
import { storedRateFeet } from '../encumbrance';
import { feetOf, movedFeet, type MovementRules, type MovementVerdict } from '../movement';

/* ------------------------------------------------------------------ options */

export interface IndividualSpeedOptions extends ProcedureOptions {
  /** "the Referee may elect to have some monsters share a single Initiative
   * roll": combatants of one side with the same initiativeGroup share one d12. */
  sharedRolls: boolean;
  /** RULING (the text is silent): damage to a caster after the round starts
   * and before its spell's count loses the spell. Devices are never interrupted. */
  interruptCasting: boolean;
  /** Check the automatic morale triggers (more than half the Wound Points in
   * one hit, outnumbered). When off, only checks the GM asks for are rolled. */
  automaticMorale: boolean;
  /**
   * The engine applies the Wound Points rules of Combat Stats and the Combat
   * Injuries of a critical hit: each Wound Point injury marked with its
   * damage and type, 1 Wound Point for each action of an Incapacitated or
   * Dying creature, Heal checks that stabilize, the d% and the table of a
   * critical hit. Off: the GM applies them (the engine keeps Stress, Wound
   * Points, conditions and the Dying creature's end-of-round loss). A combat
   * started before this option existed has none in its frozen options: off.
   */
  woundRules: boolean;
  /** RULING (an option, off): Speed no more than seed 002's encumbrance table gives the weight carried (12” = 120 ft). */
  encumbrance: boolean;
  /** RULING (an option, on; the seeds give no range penalties): a missile's medium range −2, long range −5 to hit (rules/attack.ts RANGE_MODIFIERS). */
  rangeModifiers: boolean;
}

const DEFAULTS: IndividualSpeedOptions = { sharedRolls: true, interruptCasting: true, automaticMorale: true, woundRules: true, encumbrance: false, rangeModifiers: true };

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'sharedRolls', type: 'boolean' }, { key: 'interruptCasting', type: 'boolean' }, { key: 'automaticMorale', type: 'boolean' },
  { key: 'woundRules', type: 'boolean' },
  { key: 'encumbrance', type: 'boolean' },
  { key: 'rangeModifiers', type: 'boolean' },
];

/** Are the Wound Points rules the engine's in this combat? (Absent from a combat's frozen options: no.) */
function woundRulesOn(options: IndividualSpeedOptions): boolean {
  return options.woundRules === true;
}

/** Phase ids, in round order (TENSEG.Phase.<id>). */
const PHASE_CASTING = 'speed-casting'; // spells declared at the start of the round are being cast
const PHASE_COUNT = 'speed-count'; // actions by Round Initiative, lowest first
const PHASE_END = 'speed-end'; // end of round: bleeding and monster morale (endOfRound, no step)
const PHASES = [PHASE_CASTING, PHASE_COUNT, PHASE_END] as const;

const ACTIONS: readonly ActionKind[] = [
  'melee', 'missile', 'spell', 'device', 'consumable', 'throw', 'full-defense', 'defensive-attack',
  'move', 'flee', 'parley', 'other', 'none',
];

/** Actions that are attacks with a weapon: they have attack routines. */
const ATTACKS: ReadonlySet<ActionKind> = new Set<ActionKind>(['melee', 'missile', 'defensive-attack']);

/** Reasons shown on the timeline (TENSEG.Reason.<key>). */
const REASON = {
  weaponSpeed: 'IndividualSpeedWeaponSpeed',
  spellSpeed: 'IndividualSpeedSpellSpeed',
  deviceSpeed: 'IndividualSpeedDeviceSpeed',
  consumable: 'IndividualSpeedConsumable',
  throw: 'IndividualSpeedThrow',
  fullDefense: 'IndividualSpeedFullDefense',
  defensiveAttack: 'IndividualSpeedDefensiveAttack',
  stated: 'IndividualSpeedStatedModifier',
  none: 'IndividualSpeedNoModifier',
  castingBegins: 'IndividualSpeedCastingBegins',
  carried: 'IndividualSpeedCarriedCasting',
  lateJoin: 'IndividualSpeedLateJoin',
  lateJoinOwed: 'IndividualSpeedLateJoinOwed',
} as const;

/** Morale triggers this procedure raises by itself (TENSEG.MoraleTrigger.<id>). */
export const MORALE_TRIGGER = { wound: 'half-wounds', outnumbered: 'outnumbered', obvious: 'obvious' } as const;

/** Ids of the sides the GM marked surprised (for a repeated side id, its last entry counts). */
function surprisedSides(encounter: Encounter): ReadonlySet<string> {
  let out: Set<string> | null = null;
  for (const s of encounter.sides) {
    if (s.surprised === true) (out ??= new Set()).add(s.id);
    else out?.delete(s.id);
  }
  return out ?? NO_SIDES;
}
const NO_SIDES: ReadonlySet<string> = new Set();

/* ======================================================= Step 1: Surprise */
/* "those who are unaware of enemies at the start of combat are surprised in
 * the first round": no die; the GM marks a surprised side (Side.surprised).
 * "surprised creatures still roll their Initiative ... but do not get to act".
 * Surprise costs the first round itself: there is no separate surprise round
 * (planSurprise gives null). */

function rollSurprise(encounter: Encounter): SurpriseResult {
  const sides = surprisedSides(encounter);
  const surprised: Record<string, number> = {};
  for (const c of encounter.combatants) {
    // RULING: a creature that can never be surprised is never "unaware".
    surprised[c.id] = sides.has(c.side) && !c.neverSurprised ? 1 : 0;
  }
  return { rolls: {}, surprised, unit: 'round' };
}

/** Is this combatant surprised in this round? Only round 1 is ever surprised. */
function isSurprised(c: Combatant, round: number, surprise: SurpriseResult | null, sides: ReadonlySet<string>): boolean {
  if (round !== 1) return false;
  const s = surprise?.surprised[c.id];
  if (s !== undefined) return s > 0;
  return sides.has(c.side) && !c.neverSurprised;
}

/* ===================================================== Step 2: Initiative */
/* "roll a d12 and subtract your Agility modifier ... this is the character's
 * Base Initiative Score", rolled once, "at the beginning of combat". */

function agilityOf(c: Combatant): number {
  const a = c.agilityModifier ?? 0;
  if (typeof a === 'number' && Number.isFinite(a)) return a;
  throw new RulesError({ key: 'NumberInvalid', data: { name: c.name, field: 'agilityModifier' } });
}

function d12(c: Combatant, dice: Dice, round: number): number {
  return dice.roll({ purpose: 'initiative', count: 1, faces: 12, side: c.side, combatant: c.id, round });
}

/**
 * Base Initiative for everyone. "the Referee may elect to have some monsters
 * share a single Initiative roll": with sharedRolls, combatants of one side
 * carrying the same initiativeGroup share one d12, requested for the group's
 * first member (each still subtracts its own Agility modifier, which identical
 * stat blocks make the same).
 */
function rollCombatInitiative(_: Encounter, combatants: Combatant[], dice: Dice, options: IndividualSpeedOptions): Record<string, number> {
  const out: Record<string, number> = {};
  const groupDie = new Map<string, number>();
  for (const c of combatants) {
    if (!options.sharedRolls || !c.initiativeGroup) {
      out[c.id] = d12(c, dice, 1) - agilityOf(c);
      continue;
    }
    const group = `${c.side}\u0000${c.initiativeGroup}`;
    if (!groupDie.has(group)) groupDie.set(group, d12(c, dice, 1));
    out[c.id] = groupDie.get(group)! - agilityOf(c);
  }
  return out;
}

/* "a creature's Round Initiative is their Base Initiative plus their action
 * modifier" (the modifiers are listed in Step 3). Surprised creatures neither
 * declare nor act in round 1. */

function baseOf(c: Combatant, base: Record<string, number>): number {
  const b = base[c.id];
  if (b === undefined || !Number.isFinite(b)) throw new RulesError({ key: 'BaseInitiativeMissing', data: { name: c.name } });
  return b;
}

/**
 * Does this combatant act this round? It declared an action other than
 * 'none', it can act, and it is not surprised. `sides` is only read in round 1
 * (the only round surprise costs).
 */
function declaresAction(
  c: Combatant, decl: Declaration | undefined, state: CombatantState | undefined, input: RoundInput, sides: ReadonlySet<string>,
): decl is Declaration {
  if (!decl || decl.action === 'none' || !state || !canAct(state)) return false;
  return !isSurprised(c, input.round, input.surprise, sides);
}

/** The surprised sides, for the surprise check: only round 1 needs them. */
function sidesForSurprise(encounter: Encounter, round: number): ReadonlySet<string> {
  return round === 1 ? surprisedSides(encounter) : NO_SIDES;
}

/** Round Initiative of everyone who declares an action, in one pass. */
function rollInitiative(encounter: Encounter, input: RoundInput): InitiativeResult {
  const sides = sidesForSurprise(encounter, input.round);
  const individuals: Record<string, number> = {};
  for (const c of encounter.combatants) {
    const decl = input.declarations[c.id];
    if (!declaresAction(c, decl, input.states[c.id], input, sides)) continue;
    individuals[c.id] = baseOf(c, input.baseInitiative) + actionModifier(decl, c).modifier;
  }
  return { round: input.round, sides: {}, individuals, winner: null };
}

/* "if at any point during combat, new combatants enter play, they immediately
 * roll Initiative and (if they are not Surprised) may declare actions. if any
 * creature has an Initiative for the round that has already passed, that
 * creature acts during the next round with an addition -12 modifier ... in
 * addition to declaring their action for that round" (the Ghoul: base 8, +0,
 * round at 13 → next round at -4 and at 8). */

function lateJoin(
  encounter: Encounter, newcomer: Combatant, input: LateJoinInput, dice: Dice, options: IndividualSpeedOptions,
): LateJoinResult {
  // RULING: a late joiner rolls its own d12 even if it carries an initiativeGroup.
  const baseInitiative = d12(newcomer, dice, input.round) - agilityOf(newcomer);
  const decl = input.declaration;
  const surprised = isSurprised(newcomer, input.round, null, surprisedSides(encounter));
  // RULING: no declaration (or a surprised newcomer) means no action now and none owed.
  if (!decl || decl.action === 'none' || surprised) return { schedule: input.schedule, baseInitiative };
  const problem = validateDeclaration(decl, newcomer, options);
  if (problem) throw new RulesError(problem);

  const { modifier, reason } = actionModifier(decl, newcomer);
  const count = baseInitiative + modifier;
  const schedule = input.schedule;
  const now = Math.min(input.currentStep, schedule.steps.length - 1); // the step being played (-1: none yet)
  // At or before the count being played, its count has passed: it acts next round at base + modifier - 12 as well.
  if (count <= keyAt(schedule, now)) return { schedule, baseInitiative, owedNextRound: count - 12 };

  // Its count is still to come: it joins that step, or a new step in count order.
  // RULING: its spell or device begins and goes off in that step, breakable from the next step on.
  const from: From = options.interruptCasting && decl.action !== 'device' ? 'next' : 'never';
  const casting = castingOf(newcomer, decl, input.round, count, count, from);
  const placed: Placed[] = [];
  const into = { add: (key: Key, where: Where, entry: StepEntry) => placed.push({ key, where, entry }) };
  placeAction(into, count, newcomer, decl, casting ? reason : REASON.lateJoin, 'ok', casting?.id ?? null);
  const joined = splice(schedule, now, placed, casting ? [casting] : []);
  if (joined.initiative) joined.initiative = { ...joined.initiative, individuals: { ...joined.initiative.individuals, [newcomer.id]: count } };
  return { schedule: joined, baseInitiative };
}

/* ================================================= Step 3: Declare Actions */
/* "a list of combat actions and their modifiers to Initiative":
 *   attack with a weapon (+ weapon speed) · cast a spell (+ spell speed)
 *   use a consumable item (+6 unless otherwise stated)
 *   throw an item (+2 unless otherwise stated) · full-defense (-1)
 *   defensively attack (+ weapon speed +1)
 * "Spell Speed is typically equal to a spell's casting TN minus 10": the
 * declaration carries it in `speed`. RULING: `speed`, when given, is the
 * stated modifier of any action ("unless otherwise stated"). */

const CONSUMABLE_MODIFIER = 6;
const THROW_MODIFIER = 2;
const FULL_DEFENSE_MODIFIER = -1;
const DEFENSIVE_ATTACK_MODIFIER = 1;

function weaponSpeed(decl: Declaration, c: Combatant): number {
  // Natural attacks have no speed: +0 (the Ghoul's claws).
  return decl.weapon?.speed ?? c.weapon?.speed ?? 0;
}

export function actionModifier(decl: Declaration, c: Combatant): { modifier: number; reason: string } {
  if (decl.speed !== undefined && decl.action !== 'spell' && decl.action !== 'device') {
    return { modifier: decl.speed, reason: REASON.stated };
  }
  switch (decl.action) {
    case 'melee':
    case 'missile':
      return { modifier: weaponSpeed(decl, c), reason: REASON.weaponSpeed };
    case 'spell':
      return { modifier: decl.speed ?? 0, reason: REASON.spellSpeed };
    case 'device':
      // RULING: using a device is using an item: +6 unless its speed is stated.
      return { modifier: decl.speed ?? CONSUMABLE_MODIFIER, reason: REASON.deviceSpeed };
    case 'consumable':
      return { modifier: CONSUMABLE_MODIFIER, reason: REASON.consumable };
    case 'throw':
      return { modifier: THROW_MODIFIER, reason: REASON.throw };
    case 'full-defense':
      return { modifier: FULL_DEFENSE_MODIFIER, reason: REASON.fullDefense };
    case 'defensive-attack':
      // "may use Defensive Attack even if they do not actually attack. in this
      // case, treat the weapon speed as 0": declared with routines: 0.
      return { modifier: (decl.routines === 0 ? 0 : weaponSpeed(decl, c)) + DEFENSIVE_ATTACK_MODIFIER, reason: REASON.defensiveAttack };
    default:
      return { modifier: 0, reason: REASON.none };
  }
}

function isInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

function validateDeclaration(decl: Declaration, combatant: Combatant, _options: IndividualSpeedOptions): Problem | null {
  const name = combatant.name;
  // The casting time is not used here (the count is set by spell speed), so it is optional.
  const timeless = (decl.action === 'spell' || decl.action === 'device') && decl.castingTime === undefined;
  const common = commonDeclarationProblem(timeless ? { ...decl, castingTime: 1 } : decl, combatant, ACTIONS);
  if (common) return common;
  if (decl.action === 'spell' && decl.speed === undefined) return { key: 'SpellSpeedMissing', data: { name, spell: decl.spell ?? '' } };
  if (decl.speed !== undefined && !isInteger(decl.speed)) return { key: 'NumberInvalid', data: { name, field: 'speed' } };
  if (ATTACKS.has(decl.action)) {
    const speed = decl.weapon?.speed ?? combatant.weapon?.speed;
    if (speed !== undefined && !isInteger(speed)) return { key: 'NumberInvalid', data: { name, field: 'weapon.speed' } };
    const routines = decl.routines ?? combatant.routines;
    const least = decl.action === 'defensive-attack' ? 0 : 1;
    const badRoutines = routines !== undefined && (!isInteger(routines) || routines < least);
    if (badRoutines) return { key: 'NumberInvalid', data: { name, field: 'routines' } };
  }
  return null;
}

/** The casting a declared spell or device starts (its moments and windows as keys), or null for any other action. */
function castingOf(c: Combatant, decl: Declaration, round: number, begin: Key, complete: Key, from: From): PlannedCasting | null {
  if (decl.action !== 'spell' && decl.action !== 'device') return null;
  const device = decl.action === 'device';
  return {
    id: `${round}:${c.id}:${decl.action}`, caster: c.id, spell: decl.spell ?? '', device, castingTime: decl.castingTime ?? 0,
    beganRound: round, begin, complete, lossFrom: from, preventFrom: from, expends: !device, remaining: 0,
  };
}

/**
 * The entries one declared action puts at its count, into the round being
 * planned (or a late joiner's list): one per attack routine for attacks (all
 * at the same count), the completion of a spell or device, or the action
 * itself. RULING: a Dying creature ("can only take 1 action") gets one routine
 * only. Entries are written out whole, with `target` only when one was declared.
 */
function placeAction(
  into: Pick<RoundBuilder, 'add'>, count: Key, c: Combatant, decl: Declaration, reason: string, condition: Condition, casting: string | null,
): void {
  const where = countStep(count);
  const combatant = c.id;
  const action = decl.action;
  const target = decl.target;
  if (casting !== null) {
    const kind = 'cast-complete';
    if (target === undefined) into.add(count, where, { combatant, kind, action, reason, casting });
    else into.add(count, where, { combatant, kind, action, reason, target, casting });
    return;
  }
  if (!ATTACKS.has(action)) {
    const kind = 'action';
    into.add(count, where, target === undefined ? { combatant, kind, action, reason } : { combatant, kind, action, reason, target });
    return;
  }
  const declared = decl.routines ?? c.routines ?? 1;
  const routines = condition === 'dying' ? 1 : Math.max(1, declared);
  for (let routine = 1; routine <= routines; routine++) into.add(count, where, routineEntry(combatant, action, reason, target, routine));
}

/** Attack routine `routine` (the first is the declared action itself). */
function routineEntry(combatant: string, action: ActionKind, reason: string, target: string | undefined, routine: number): StepEntry {
  const kind = routine === 1 ? 'action' : 'routine';
  return target === undefined ? { combatant, kind, action, reason, routine } : { combatant, kind, action, reason, target, routine };
}

/* "each round is resolved by resolving the combatants' actions in order from
 * lowest Initiative to highest Initiative, with tied results resolving
 * simultaneously": one step per count, the count its key. RULING: a spell is
 * being cast from the start of the round (it was declared then): the casting
 * step comes before every count. */

/** The casting step's key: below every count (finite, so schedules stay plain JSON). */
const CASTING_KEY: Key = -Number.MAX_VALUE;
const CASTING_STEP: Where = { phase: PHASE_CASTING };

const countStep = (count: number): Where => ({ phase: PHASE_COUNT, count });

function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: IndividualSpeedOptions): Schedule {
  const plan = new RoundBuilder('individual-speed', input.round);
  const sides = sidesForSurprise(encounter, input.round);
  const vulnerable = (device: boolean): From => (options.interruptCasting && !device ? 'start' : 'never');

  for (const c of encounter.combatants) {
    const decl = input.declarations[c.id];
    const state = input.states[c.id];
    if (!declaresAction(c, decl, state, input, sides)) continue;
    const { modifier, reason } = actionModifier(decl, c);
    const planned = baseOf(c, input.baseInitiative) + modifier;
    const count = initiative.individuals[c.id] ?? planned;
    const casting = castingOf(c, decl, input.round, CASTING_KEY, count, vulnerable(decl.action === 'device'));
    placeAction(plan, count, c, decl, reason, state!.condition, casting?.id ?? null);
    if (casting) {
      const begin: StepEntry = { combatant: c.id, kind: 'cast-begin', action: decl.action, casting: casting.id, reason: REASON.castingBegins };
      if (decl.target !== undefined) begin.target = decl.target;
      plan.add(CASTING_KEY, CASTING_STEP, begin);
      plan.cast(casting);
    }
  }

  // Late joiners whose count had passed: the extra action at base + modifier - 12.
  const owed = input.owed ?? {};
  const owedIds = Object.keys(owed);
  const known = owedIds.length > 0 ? new Set(encounter.combatants.map((c) => c.id)) : null;
  for (const id of owedIds) {
    const state = input.states[id];
    const count = owed[id];
    if (!known?.has(id) || !state || !canAct(state) || !Number.isFinite(count)) continue;
    const decl = input.declarations[id];
    const entry: StepEntry = { combatant: id, kind: 'late-join', action: decl?.action ?? 'other', reason: REASON.lateJoinOwed };
    if (decl?.target !== undefined) entry.target = decl.target;
    plan.add(count, countStep(count), entry);
  }

  // Castings carried in go off at count `remaining` (within this round), or carry on.
  for (const carried of input.carryIn) {
    const count = carried.remaining;
    const at = count <= SEGMENTS_PER_ROUND ? { key: count, where: countStep(count), reason: REASON.carried } : null;
    plan.carryIn(carried, at, vulnerable(carried.device));
  }
  return plan.build(initiative);
}

/* ============================================ Step 4: Monster Morale Check */
/* "at the end of each round, check to see if the monsters need to roll for
 * morale": more than half its Wound Points in a single hit; outnumbered; the
 * target of an Intimidation check (opposed). "a 3d6 roll plus the monster's
 * Insight modifier plus its HD plus the number of allies"; "TN ... 11 plus the
 * number of opponents" (or the Intimidation result); "automatically fails ...
 * if the outcome is obvious". Before morale, the Dying bleed (Wound Points). */

/** Number of Hit Dice from "4+4", "2d8", "5d8+15"; RULING: less than one HD ("1/2") adds 0. */
export function hitDiceCount(c: Combatant): number {
  const hd = c.hitDice?.trim();
  if (hd) {
    if (/^\d+\s*\//.test(hd)) return 0;
    const m = /^(\d+)/.exec(hd);
    if (m) return Number(m[1]);
  }
  return c.level !== undefined && Number.isFinite(c.level) ? c.level : 0;
}

/** RULING: "able to fight" = condition ok and not routed. */
function ableToFight(state: CombatantState | undefined): boolean {
  return !!state && state.condition === 'ok' && !state.routed;
}

/** RULING: every creature that is not a player character ('character') is a monster for morale. */
function checksMorale(c: Combatant, state: CombatantState | undefined): boolean {
  return c.kind !== 'character' && !!state && state.condition !== 'dead' && state.condition !== 'fled' && !state.routed;
}

type MoraleRequest = NonNullable<EndOfRoundInput['moraleRequests']>[number];
const NO_REQUESTS: readonly MoraleRequest[] = [];

/** The GM's morale requests by combatant, in the order given; null when there are none. */
function requestsByCombatant(requests: readonly MoraleRequest[] | undefined): Map<string, MoraleRequest[]> | null {
  if (!requests || requests.length === 0) return null;
  const out = new Map<string, MoraleRequest[]>();
  for (const r of requests) {
    const list = out.get(r.combatant);
    if (list) list.push(r);
    else out.set(r.combatant, [r]);
  }
  return out;
}

function endOfRound(encounter: Encounter, input: EndOfRoundInput, dice: Dice, options: IndividualSpeedOptions): EndOfRoundResult {
  const end = new RoundEnd(input); // states copied only if someone bleeds or routs

  // Wound Points: "a Dying creature also automatically takes 1 Wound Point of damage at the end of every round".
  // RULING: unless it is Stabilized (a Heal check): that is what stabilizing it means.
  for (const c of encounter.combatants) {
    const s = end.states[c.id];
    if (s && s.condition === 'dying' && !s.stabilized) end.bleed(c.id, 1, bleed(c, s, options));
  }

  // Who can still fight, per side (counted once).
  const ableBySide = new Map<string, number>();
  let ableTotal = 0;
  for (const c of encounter.combatants) {
    if (!ableToFight(end.states[c.id])) continue;
    ableBySide.set(c.side, (ableBySide.get(c.side) ?? 0) + 1);
    ableTotal++;
  }

  const biggestHit = new Map<string, number>();
  for (const h of input.hits) {
    // RULING: the Wound Point a creature pays for acting (woundRules) is no hit it took.
    if (woundRulesOn(options) && h.by === h.target) continue;
    biggestHit.set(h.target, Math.max(biggestHit.get(h.target) ?? 0, h.wounds));
  }
  const requests = requestsByCombatant(input.moraleRequests);

  for (const c of encounter.combatants) {
    const state = end.states[c.id];
    if (!checksMorale(c, state)) continue;
    const asked = requests?.get(c.id) ?? NO_REQUESTS;
    const own = ableBySide.get(c.side) ?? 0;
    const allies = own - (ableToFight(state) ? 1 : 0);
    const opponents = ableTotal - own;
    let trigger: string | null = null;
    if (asked.length > 0) trigger = asked[0].trigger;
    else if (options.automaticMorale && (biggestHit.get(c.id) ?? 0) > maxWounds(c) / 2) trigger = MORALE_TRIGGER.wound;
    else if (options.automaticMorale && opponents > own) trigger = MORALE_TRIGGER.outnumbered;
    if (trigger === null) continue;

    const opposed = asked.map((r) => r.opposed).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    const target = opposed.length > 0 ? Math.max(...opposed) : 11 + opponents;
    const obvious = asked.some((r) => r.trigger === MORALE_TRIGGER.obvious);
    if (obvious) trigger = MORALE_TRIGGER.obvious; // "automatically fails": no roll
    const roll = obvious ? 0 : dice.roll({ purpose: 'morale', count: 3, faces: 6, side: c.side, combatant: c.id, round: input.round });
    const insight = Number.isFinite(c.insightModifier) ? (c.insightModifier as number) : 0;
    const total = obvious ? 0 : roll + insight + hitDiceCount(c) + allies;
    const passed = !obvious && total >= target;
    end.events.push({ kind: 'morale', combatant: c.id, trigger, roll, total, target, passed });
    // RULING: a failed check routs the monster; the GM declares flight or surrender.
    if (!passed) end.set(c.id, { ...state!, routed: true });
  }
  return end.result();
}

/* ==================================================== Step 5: Ending Combat */
/* "a combat ends if all creatures stop fighting": the GM ends it; nothing to
 * decide here. */

/* ======================================= Combat Stats: Stress, Wound Points */
/* "damage first lowers the creature's current Stress (unless ... the damage
 * was from a critical hit). when the creature runs out of Stress, any further
 * damage lowers their current Wound Points". Critical hits: "all the weapon
 * damage is dealt to the opponent's Wound Points". "Wound Points reaches 0,
 * the creature is Incapacitated"; "below 0 is Dying"; "reaches the negative
 * value of their Strength Score, they die". Combatants without Wound Points
 * use hp in their place. */

/** Wound Points if the combatant has them, else hp. */
function woundsOf(c: Combatant, s: CombatantState): number {
  return s.woundPoints ?? (c.woundPoints !== undefined ? c.woundPoints : s.hp);
}

function withWounds(c: Combatant, s: CombatantState, value: number): CombatantState {
  return s.woundPoints !== undefined || c.woundPoints !== undefined ? { ...s, woundPoints: value } : { ...s, hp: value };
}

/** Maximum Wound Points (for "more than half its Wound Points"). */
function maxWounds(c: Combatant): number {
  return c.woundPoints !== undefined ? c.maxWoundPoints ?? c.woundPoints : c.maxHp ?? c.hp;
}

/** Dead at -Strength; RULING: without a Strength score, at minus the maximum Wound Points (which equal Strength). */
export function deathThreshold(c: Combatant): number {
  const strength = c.strength ?? maxWounds(c);
  return -Math.max(0, Number.isFinite(strength) ? strength : 0);
}

function conditionAt(c: Combatant, value: number, current: Condition): Condition {
  if (current === 'dead' || current === 'fled') return current;
  if (value <= deathThreshold(c)) return 'dead';
  if (value < 0) return 'dying';
  if (value === 0) return 'incapacitated';
  return current;
}

/**
 * Entering the combat is as damage leaves it: "when a creature's current Wound Points reaches 0, the creature is
 * Incapacitated"; below 0 "Dying"; at the negative of its Strength it dies.
 */
function startingCondition(c: Combatant): Condition {
  return conditionAt(c, c.woundPoints !== undefined ? c.woundPoints : c.hp, 'ok');
}

function applyDamage(
  combatant: Combatant, state: CombatantState, amount: number, options: IndividualSpeedOptions, detail?: { critical?: boolean; type?: DamageType },
): DamageResult {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return { state: { ...state }, wounds: 0 };
  let rest = amount;
  let next: CombatantState = { ...state };
  if (!detail?.critical && state.stress !== undefined && state.stress > 0) {
    const absorbed = Math.min(state.stress, rest);
    next.stress = state.stress - absorbed;
    rest -= absorbed;
  }
  if (rest > 0) {
    next = woundedBy(combatant, next, rest, options, detail?.type);
    // RULING: a new wound from a hit undoes a Heal check's stabilizing (the creature bleeds again).
    if (woundRulesOn(options)) delete next.stabilized;
  }
  return { state: next, wounds: rest };
}

/**
 * `amount` Wound Points lost. "each such instance of damage should be marked
 * as an injury including its damage type and the amount of damage taken in
 * that injury" (with woundRules: the Heal check's TN reads them).
 */
function woundedBy(c: Combatant, s: CombatantState, amount: number, options: IndividualSpeedOptions, type?: DamageType): CombatantState {
  const value = woundsOf(c, s) - amount;
  const next = { ...withWounds(c, s, value), condition: conditionAt(c, value, s.condition) };
  if (woundRulesOn(options)) {
    const wound: Wound = type === undefined ? { amount } : { amount, type };
    next.wounds = [...(s.wounds ?? []), wound];
  }
  return next;
}

/** The end-of-round Wound Point a Dying creature loses. */
function bleed(c: Combatant, s: CombatantState, options: IndividualSpeedOptions): CombatantState {
  return woundedBy(c, s, 1, options);
}

/**
 * An Incapacitated creature "is conscious" and may act: "any other action it
 * takes causes it to take 1 Wound Point of damage" (with woundRules, the
 * engine charges it: see the Wound Point rules below); a Dying one
 * "continues to function as an Incapacitated creature" with one action. Dead
 * and fled creatures do not act.
 */
function canAct(state: CombatantState): boolean {
  return state.condition === 'ok' || state.condition === 'incapacitated' || state.condition === 'dying';
}

/* ==================================================== Speed: movement on the map */

/** Feet an Incapacitated creature crawls in a round: "1 yard per turn". */
export const CRAWL_FEET = 3;

/** Speed in feet (Combatant.movement, as stored); absent: none known (the GM's). The `encumbrance` option caps it by 002's table (12” = 120 ft). */
export function speedFeet(c: Combatant, byEncumbrance: boolean): number | undefined {
  return storedRateFeet(c, byEncumbrance);
}

/** "Broken Shin ... move at half speed" (blunt row 2), where the state has it. */
function brokenShin(state: CombatantState): boolean {
  return (state.injuries ?? []).some((i) => i.type === 'blunt' && i.row === 2);
}

/**
 * Movement on the map (the `moved` input, flow/moved.ts), over the round's moves:
 *  - Speed: "a creature can move any number of times in a round, but can only move up to a total distance equal to
 *    its speed in a single round";
 *  - half of it: "a character using Full-Defense can only move up to half their speed that round"; "a Stabilized
 *    creature can move at half its movement speed per round"; Broken Shin "move at half speed";
 *  - Incapacitated (and Dying, which "continues to function as an Incapacitated creature"), not stabilized: "can crawl
 *    at a rate of 1 yard per turn" (3 ft a round);
 *  - Dying: "cannot both move and take an action": once one of its entries acted it cannot move (dyingActed); a move
 *    before it acts while it declared an action (not a move, a flight or nothing) is the GM's ruling
 *    (dyingMoveOrAct: forfeit the action, or allow);
 *  - beyond any of these the GM rules (allow, or forfeit the action).
 */
const movement: MovementRules<IndividualSpeedOptions> = {
  check(q) {
    const { combatant, state, declaration, move, earlier } = q;
    const action = declaration?.action;
    const total = movedFeet(earlier) + feetOf(move.feet);
    const speed = speedFeet(combatant, q.options.encumbrance === true);
    let allowance: number | undefined = speed;
    let why = 'speed';
    const down = state.condition === 'incapacitated' || state.condition === 'dying';
    if (down && !state.stabilized) {
      allowance = speed === undefined ? CRAWL_FEET : Math.min(speed, CRAWL_FEET);
      why = 'crawl';
    } else if (speed !== undefined) {
      const half = state.stabilized ? 'stabilized' : action === 'full-defense' ? 'fullDefense' : brokenShin(state) ? 'brokenShin' : undefined;
      if (half) {
        allowance = speed / 2;
        why = half;
      }
    }
    let beyond = allowance !== undefined && total > allowance ? why : undefined;
    if (state.condition === 'dying' && feetOf(move.feet) > 0) {
      if (q.acted) {
        allowance = 0;
        beyond = 'dyingActed';
      } else if (beyond === undefined && action !== undefined && action !== 'move' && action !== 'flee' && action !== 'none') {
        // Moving instead of its action: nothing is allowed beside the action it declared.
        allowance = 0;
        beyond = 'dyingMoveOrAct';
      }
    }
    const verdict: MovementVerdict = { provoked: [] };
    if (allowance !== undefined) verdict.allowance = allowance;
    if (beyond !== undefined) verdict.beyond = beyond;
    return verdict;
  },
};

/* ==================================================== Wound Points (woundRules) */
/* "the Incapacitated creature can crawl at a rate of 1 yard per turn, and any
 * other action it takes causes it to take 1 Wound Point of damage"; "a Dying
 * creature continues to function as an Incapacitated creature, but can only
 * take 1 action"; "a Dying or Incapacitated creature can be stabilized with a
 * Heal check at a TN of 10 + the highest damage value of wounds it has. a
 * Stabilized creature ... can take up to 1 action without taking damage.
 * however, it takes 1 Wound Point damage for every action beyond the first it
 * takes in a round."
 *
 * RULING (how the engine sees an action taken): an entry of the schedule that
 * acts as the creature's declared action (its first attack routine, a late
 * joiner's action) or a spell or device that goes off; further attack
 * routines are part of that action, and a spell is charged once, when it goes
 * off (so the Wound Point does not interrupt the spell it pays for). A
 * declared `move` is the crawl: no charge. The Wound Point goes straight to
 * Wound Points (it is "Wound Point damage"), is marked as a wound, and shows
 * as a hit the creature deals itself as its step opens. */

/** Is this entry, with this outcome, an action the creature takes? */
function isAction(entry: StepEntry, outcome: string): boolean {
  if (outcome === 'goes-off') return entry.kind === 'cast-complete';
  return outcome === 'acts' && (entry.kind === 'action' || entry.kind === 'late-join') && entry.action !== 'move';
}

function hurt(state: CombatantState): boolean {
  return state.condition === 'incapacitated' || state.condition === 'dying';
}

const woundRules: WoundRules<IndividualSpeedOptions> = {
  isAction,

  actionCost({ combatant, state, earlier }, options) {
    if (!woundRulesOn(options) || !hurt(state)) return null;
    if (state.stabilized && earlier() === 0) return null; // "up to 1 action without taking damage"
    return { state: woundedBy(combatant, state, 1, options), wounds: 1 };
  },

  heal(c, state, total, options) {
    if (!woundRulesOn(options)) throw new RulesError({ key: 'WoundRulesOff', data: { name: c.name } });
    if (!hurt(state)) throw new RulesError({ key: 'HealNotNeeded', data: { name: c.name } });
    if (state.stabilized) throw new RulesError({ key: 'AlreadyStabilized', data: { name: c.name } });
    // "10 + the highest damage value of wounds it has" (none marked: 10). Meeting the TN passes (as morale's).
    const tn = 10 + (state.wounds ?? []).reduce((most, w) => Math.max(most, w.amount), 0);
    const passed = total >= tn;
    return { state: passed ? { ...state, stabilized: true } : { ...state }, tn, passed };
  },

  criticalHit: (c, state, hit, dice, round, options) => criticalInjury(c, state, hit, dice, round, options),
  enterInjury: (c, state, entry, dice, round, options) => enteredInjury(c, state, entry, dice, round, options),
};

/* ====================================== Defense and Armour (Combat Stats) */
/* "a creature has a Defense score equal to 10 plus its Agility modifier plus
 * its Defense bonus"; "any attack must equal or exceed a creature's Defense
 * score to hit it"; Full-Defense "adds +4 to their Defense score"; "Armour
 * reduces the damage taken from each hit of an attack". The engine does not
 * roll attacks (the table does, and sends the damage as a hit): the roll
 * against Defense, the critical multiplier and Armour are in ../attack.ts
 * (defenseScore, resolveDefenseAttack, damageTaken), which the Foundry attack
 * path uses under this procedure. */

/* ======================================= Critical Hits and Injuries */
/* "when an attack scores a critical hit, it multiplies the damage dealt
 * according to the weapon attack critical multiplier" (../attack.ts
 * damageTaken); "all the weapon damage is dealt to the opponent's Wound
 * Points even if the struck opponent has Stress remaining" (applyDamage,
 * `critical`). "the Referee rolls a d%. if the result is equal to or lower
 * than the damage dealt by the Critical Hit, the creature struck receives a
 * Combat Injury. the Referee then rolls on the Combat Injury table that
 * corresponds with the type of damage the Critical Hit attack did".
 *
 * RULING: "the damage dealt by the Critical Hit" is the Wound Points it took
 * (after Armour: what was "dealt to the opponent's Wound Points"). The hit
 * names its damage type ("if there was more than one damage type, the player
 * whose character made the attack chooses", the Referee for monsters). Only
 * the blunt table has rows in the text; the piercing, slashing, chopping,
 * fire, cold, electric, sonic, acid, holy and unholy tables are empty: an
 * injury of those types (or of a type not known) is marked for the GM to
 * pick (the `injury` input). A row naming an arm or hand rolls a d4 ("1 or 2
 * is the main hand arm. 3 or 4 is the offhand arm"); its ability damage is
 * rolled once and lost by each ability it names. The effects (half speed,
 * prone, cannot attack with that arm …) are shown with the injury for the GM:
 * the engine has no arms, senses or skill checks to apply them to. */

/** One row of a Combat Injury table: its name and effect are localized (TENSEG.Injury.<type>.<row>.Name / .Effect). */
interface InjuryRow {
  /** The row names an arm or a hand: roll a d4 for the side. */
  side?: true;
  /** Ability damage: `count` d `faces`, lost by each ability named. */
  damage?: { count: number; faces: number; abilities: readonly string[] };
  /** The row has an effect besides its ability damage (TENSEG.Injury.<type>.<row>.Effect). */
  effect: boolean;
}

const AGI = ['agility'] as const;
const STR = ['strength'] as const;
const DEX = ['dexterity'] as const;
const PER = ['perception'] as const;

/** The Blunt Combat Injuries table, d20 rows 1 to 20. */
export const BLUNT_INJURIES: readonly InjuryRow[] = [
  { effect: true }, // 1 crushed foot: -5 to Balance checks
  { damage: { count: 1, faces: 8, abilities: AGI }, effect: true }, // 2 broken shin: half speed
  { damage: { count: 1, faces: 12, abilities: AGI }, effect: true }, // 3 shattered kneecap: prone until healed
  { damage: { count: 1, faces: 10, abilities: AGI }, effect: false }, // 4 broken femur
  { damage: { count: 4, faces: 4, abilities: AGI }, effect: false }, // 5 shattered hip
  { damage: { count: 2, faces: 4, abilities: STR }, effect: true }, // 6 broken rib: 1 action per 2 turns
  { damage: { count: 3, faces: 4, abilities: STR }, effect: false }, // 7 broken collarbone
  { side: true, damage: { count: 2, faces: 8, abilities: ['strength', 'dexterity'] }, effect: true }, // 8 crushed shoulder
  { side: true, damage: { count: 1, faces: 10, abilities: STR }, effect: true }, // 9 broken upper arm
  { side: true, damage: { count: 1, faces: 12, abilities: DEX }, effect: true }, // 10 shattered elbow
  { side: true, damage: { count: 1, faces: 10, abilities: ['strength', 'dexterity'] }, effect: true }, // 11 broken forearm
  { side: true, damage: { count: 4, faces: 4, abilities: DEX }, effect: true }, // 12 shattered hand
  { damage: { count: 1, faces: 8, abilities: DEX }, effect: false }, // 13 broken finger
  { effect: true }, // 14 broken neck: paralysed
  { effect: true }, // 15 crushed windpipe
  { effect: true }, // 16 broken jaw
  { damage: { count: 1, faces: 10, abilities: PER }, effect: true }, // 17 broken nose
  { damage: { count: 2, faces: 8, abilities: PER }, effect: true }, // 18 eye swollen shut
  { damage: { count: 1, faces: 12, abilities: PER }, effect: true }, // 19 cauliflower ear
  { damage: { count: 1, faces: 8, abilities: ['memory', 'perception'] }, effect: true }, // 20 cracked skull: concussed
];

/** The tables by damage type: only blunt has rows in the text. */
export const INJURY_TABLES: Readonly<Partial<Record<DamageType, readonly InjuryRow[]>>> = { blunt: BLUNT_INJURIES };

/** Row `row` (1-based) of a type's table, its d4 side and ability damage rolled. */
function injuryAt(c: Combatant, type: DamageType, row: number, side: 'main' | 'off' | undefined, dice: Dice, round: number): CombatInjury {
  const data = (INJURY_TABLES[type] ?? [])[row - 1];
  const injury: CombatInjury = { round, type, row };
  if (data?.side) injury.side = side ?? (dice.roll({ purpose: 'injury', count: 1, faces: 4, combatant: c.id, round }) <= 2 ? 'main' : 'off');
  if (data?.damage) {
    const { count, faces, abilities } = data.damage;
    injury.abilityDamage = { abilities: [...abilities], amount: dice.roll({ purpose: 'injury', count, faces, combatant: c.id, round }) };
  }
  return injury;
}

function withInjury(state: CombatantState, injury: CombatInjury): CombatantState {
  return { ...state, injuries: [...(state.injuries ?? []), injury] };
}

function criticalInjury(
  c: Combatant, state: CombatantState, hit: { wounds: number; type?: DamageType }, dice: Dice, round: number, options: IndividualSpeedOptions,
): { state: CombatantState; check: { roll: number; wounds: number; injury?: CombatInjury } } | null {
  if (!woundRulesOn(options)) return null;
  const roll = dice.roll({ purpose: 'injury', count: 1, faces: 100, combatant: c.id, round });
  if (roll > hit.wounds) return { state, check: { roll, wounds: hit.wounds } };
  const table = hit.type !== undefined ? INJURY_TABLES[hit.type] : undefined;
  let injury: CombatInjury;
  if (hit.type !== undefined && table) {
    injury = injuryAt(c, hit.type, dice.roll({ purpose: 'injury', count: 1, faces: table.length, combatant: c.id, round }), undefined, dice, round);
  } else {
    // The text's table is empty (or the type is not known): marked for the GM to pick.
    injury = hit.type !== undefined ? { round, type: hit.type } : { round };
  }
  return { state: withInjury(state, injury), check: { roll, wounds: hit.wounds, injury } };
}

/** An injury a check left for the GM to pick: neither a row nor the GM's words yet. */
const pending = (i: CombatInjury): boolean => i.row === undefined && i.text === undefined;

function enteredInjury(
  c: Combatant, state: CombatantState, entry: InjuryEntry, dice: Dice, round: number, options: IndividualSpeedOptions,
): { state: CombatantState; injury: CombatInjury } {
  const name = c.name;
  if (!woundRulesOn(options)) throw new RulesError({ key: 'WoundRulesOff', data: { name } });
  if (entry.row !== undefined) {
    const table = entry.type !== undefined ? INJURY_TABLES[entry.type] : undefined;
    if (entry.type === undefined) throw new RulesError({ key: 'InjuryEntryInvalid', data: { name } });
    if (!table) throw new RulesError({ key: 'InjuryTableEmpty', data: { name, type: entry.type } });
    if (entry.row < 1 || entry.row > table.length) throw new RulesError({ key: 'InjuryRowInvalid', data: { name, row: entry.row, rows: table.length } });
  }
  const list = state.injuries ?? [];
  // The latest injury left to pick, of this type (or of a type not known, or any when the entry names none), is the one completed.
  const fits = (i: CombatInjury) => pending(i) && (entry.type === undefined || i.type === undefined || i.type === entry.type);
  let at = -1;
  for (let i = list.length - 1; i >= 0 && at < 0; i--) if (fits(list[i])) at = i;
  const when = at >= 0 ? list[at].round : round;
  const type = entry.type ?? (at >= 0 ? list[at].type : undefined);
  let injury: CombatInjury;
  if (entry.row !== undefined && type !== undefined) injury = injuryAt(c, type, entry.row, entry.side, dice, when);
  else {
    injury = type !== undefined ? { round: when, type } : { round: when };
    if (entry.text !== undefined) injury.text = entry.text;
  }
  if (entry.row !== undefined && entry.text !== undefined) injury.text = entry.text;
  const injuries = at >= 0 ? list.map((x, i) => (i === at ? injury : x)) : [...list, injury];
  return { state: { ...state, injuries }, injury };
}

/* ------------------------------------------------------------------ attacks */
/* The flow's attack rules. "a Dying creature ... can only take 1 action of any
 * kind on its turn": one attack in a step. "when using the Full-Defense action
 * ... if they are attacked they may make a Reposte as a Reaction": at one who
 * attacked it in this step, once a round (a creature takes "1 each of a
 * Standard Action, Free Action, and Reaction"); a surprised creature does not
 * act. A Reposte drawn by "entering a creature's threat range" needs
 * positions the engine does not have: the GM's. */

const attackRules: AttackRules = {
  cap: (state) => (state.condition === 'dying' ? 1 : undefined),
  outOfTurn(q) {
    const { attacker, target } = q;
    if (q.declarations[attacker.id]?.action !== 'full-defense') return null;
    if (!q.attacks.some((a) => a.step === q.step && a.c === target.id && a.target === attacker.id)) return null;
    const data = { name: attacker.name, target: target.name };
    if (q.surprised) return { problem: { key: 'AttackerSurprised', data } };
    if (q.attacks.some((a) => a.c === attacker.id && a.as === 'riposte')) return { problem: { key: 'RiposteUsed', data } };
    return { grant: 'riposte' };
  },
};

/* ---------------------------------------------------------------- procedure */

export const individualSpeedProcedure: Procedure<IndividualSpeedOptions> = {
  id: 'individual-speed',
  defaults: DEFAULTS,
  optionSpecs: OPTION_SPECS,
  phases: PHASES,
  timing: 'counts',
  actions: ACTIONS,
  attackRules,
  movement,
  wounds: woundRules,
  flowInputs: { wound: applyWoundInput, chargeOutOfTurn },
  validateDeclaration,
  rollSurprise: (encounter) => rollSurprise(encounter),
  planSurprise: () => null,
  rollCombatInitiative,
  rollInitiative: (encounter, input) => rollInitiative(encounter, input),
  planRound,
  applyDamage,
  canAct,
  startingCondition,
  endOfRound,
  lateJoin,
};