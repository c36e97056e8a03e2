/**
 * Procedure `d12-ascending` (seed 002, "Combat Procedure").
 *
 * I   Check for surprise: d12 per side, 1-4 surprises, range adjusted by the
 *     surprise table; surprise lasts one round (our round 0).
 * II  Determine initiative: d12 per side modified by dexterity, lowest acts
 *     first, ties simultaneous; spells begin on the initiative result and go
 *     off after their casting time; charging: the longer weapon first;
 *     optional tie-breaks (G).
 * III Additional combat rules: readied missiles fire before initiative, all
 *     attacks on the combatant's turn, attacks of opportunity, movement.
 * Then the tables: attacks per round by level, surprise modifiers.
 *
 * Schedules are built by the round kit (src/rules/round) from time keys
 * [phase, place, first strike]: the place orders the counts, lowest first,
 * and inside a count the II.G tie-break groups; a II.E first strike takes the
 * place of the turn it strikes before, just ahead of it.
 *
 * Pure rules code: no Foundry, no DOM, no Roll. Choices where the text is
 * silent are marked RULING and listed in README.md, Rules notes.
 */
import type { Dice } from '../dice';
import { applyArmorClassBonus } from '../armor-class';
import type { ActionKind, Combatant, CombatantState, Condition, Declaration, Problem, WeaponStats } from '../model';
import { RulesError, sideSurpriseModifier } from '../model';
import type {
  AttackRules, Casting, ChooseSpellInput, DamageResult, Encounter, EndOfRoundInput, EndOfRoundResult, InitiativeResult, LateJoinInput, LateJoinResult,
  MoraleCheckRequest, MoraleMethod, OptionSpec, OutOfTurnQuery, Procedure, ProcedureOptions, RoundInput, Schedule, Step, StepEntry, SurpriseResult,
} from '../procedure';
import { MORALE_METHODS } from '../morale-methods';
import { standardRateFeet } from '../encumbrance';
import { feetOf, feetWithin, movedFeet, provokedBefore, type MovementRules, type Provoked } from '../movement';
import {
  actsNow, badRoutines, badWeaponField, commonDeclarationProblem, conditionByHp, hpDamage, initialState, isActive, makeSchedule, pack, RoundBuilder, RoundEnd,
  rollSideDice, splice, targetsSelf, winnerOf, type Key, type Placed, type PlannedCasting, type Where,
} from '../round';

/* ================================================================ options */

export type D12InitiativeMode = 'group' | 'group-adjusted' | 'individual';

export interface D12AscendingOptions extends ProcedureOptions {
  /**
   * II.A/B: 'group' = one d12 per side, unmodified; 'group-adjusted' = one d12
   * per side, each combatant's dexterity adjustment applied to it ("modify by
   * dexterity", the default); 'individual' = characters roll their own d12
   * (and their own surprise), monsters still by side.
   */
  initiativeMode: D12InitiativeMode;
  /** II.G "Ties between melee weapons may be decided by comparing WSF". */
  tieWeaponSpeed: boolean;
  /** II.G "Ties involving multiple weapon attacks ... go to whoever has more attacks". */
  tieMoreAttacks: boolean;
  /** II.G "Ties between spell completion and a melee strike go to whichever is lower". */
  tieSpellVsMelee: boolean;
  /** II.G "Ties between missile fire and spell completion go to the missile if ...". */
  tieMissileVsSpell: boolean;
  /** RULING (text silent): hit points at or below which a combatant is dead; at or below 0 it cannot act. */
  deathAt: number;
  /** RULING (text silent): with deathAt below 0, hit points a dying combatant loses at the end of each round (0 = none). */
  bleedPerRound: number;
  /**
   * "no formal method is given herein for checking morale the DM can still
   * make such a check in any way he sees fit": the method of a check the GM
   * calls for when the request names none (a request may name its own).
   */
  moraleMethod: MoraleMethod;
  /** "Movement During the Round": the standard rate by the weight carried (002's table); off: the combatant's own rate. */
  encumbrance: boolean;
  /** RULING (an option, on; the seeds give no range penalties): a missile's medium range −2, long range −5 to hit (rules/attack.ts RANGE_MODIFIERS). */
  rangeModifiers: boolean;
}

export const D12_DEFAULTS: Readonly<D12AscendingOptions> = Object.freeze({
  initiativeMode: 'group-adjusted',
  tieWeaponSpeed: false,
  tieMoreAttacks: false,
  tieSpellVsMelee: false,
  tieMissileVsSpell: false,
  deathAt: 0,
  bleedPerRound: 0,
  moraleMethod: 'd100',
  encumbrance: true,
  rangeModifiers: true,
});

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'initiativeMode', type: 'choice', choices: ['group', 'group-adjusted', 'individual'] },
  { key: 'tieWeaponSpeed', type: 'boolean' },
  { key: 'tieMoreAttacks', type: 'boolean' },
  { key: 'tieSpellVsMelee', type: 'boolean' },
  { key: 'tieMissileVsSpell', type: 'boolean' },
  { key: 'deathAt', type: 'number', min: -10, max: 0 },
  { key: 'bleedPerRound', type: 'number', min: 0, max: 10 },
  { key: 'moraleMethod', type: 'choice', choices: MORALE_METHODS },
  { key: 'encumbrance', type: 'boolean' },
  { key: 'rangeModifiers', type: 'boolean' },
];

/* ============================================================ phases, keys */

/** Phase ids in round order (TENSEG.Phase.<id>). */
export const PHASE_READIED = 'd12-readied'; // III.A readied missiles, before initiative
export const PHASE_SURPRISE = 'd12-surprise'; // I.D surprise round, highest surprise die first
export const PHASE_INITIATIVE = 'd12-initiative'; // II.A counts, lowest first
export const PHASE_WITHDRAWAL = 'd12-withdrawal'; // disengaging / fleeing: no initiative advantage
export const PHASE_FULL_ROUND = 'd12-full-round'; // II.C spells needing a full round, last
const PHASES = [PHASE_READIED, PHASE_SURPRISE, PHASE_INITIATIVE, PHASE_WITHDRAWAL, PHASE_FULL_ROUND] as const;
type PhaseId = (typeof PHASES)[number];
/** The first part of a time key (the surprise round has no initiative phase, the other rounds no surprise phase). */
const RANK: Record<PhaseId, number> = { [PHASE_READIED]: 0, [PHASE_SURPRISE]: 1, [PHASE_INITIATIVE]: 1, [PHASE_WITHDRAWAL]: 2, [PHASE_FULL_ROUND]: 3 };
/** A time key: [phase rank, place in the ordered phase, 0 = a first strike just ahead of the place / 1 = the place itself]. */
const RADIX = 2 ** 14; // keys stay small integers (fast in V8): up to 16,383 places
const keyOf = (phase: PhaseId, place = 0, ahead = false): Key => pack(RADIX, RANK[phase], place, ahead ? 0 : 1);

/** Reasons shown on entries (TENSEG.Reason.<key>). */
export const REASONS = {
  readied: 'd12Readied',
  longerWeapon: 'd12LongerWeapon',
  armedVsUnarmed: 'd12ArmedVsUnarmed',
  chargeTooFar: 'd12ChargeTooFar',
  fullRound: 'd12FullRound',
  withdrawal: 'd12Withdrawal',
  tieMoreAttacks: 'd12TieMoreAttacks',
  tieSpeed: 'd12TieSpeed',
  tieMissileVsSpell: 'd12TieMissileVsSpell',
  aooMissile: 'd12AooMissile',
  aooCasting: 'd12AooCasting',
  aooMoving: 'd12AooMoving',
  aooFleeing: 'd12AooFleeing',
  chosenAfterTies: 'd12ChosenAfterTies',
} as const;

const ACTIONS: readonly ActionKind[] = ['melee', 'missile', 'spell', 'device', 'turn-undead', 'charge', 'move', 'flee', 'parley', 'full-defense', 'other', 'none'];

const DIE = 12;
/** Rounds are ten segments; a casting time of 10 or more "needs a full round". */
const FULL_ROUND = 10;

/* ===================================================== helpers: combatants */

const finite = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);

const isCharacter = (c: Combatant): boolean => c.kind === 'character';
const weaponOf = (c: Combatant, d: Declaration): WeaponStats | undefined => d.weapon ?? c.weapon;

/**
 * II.E "Weapons always win initiative vs. unarmed unless special abilities
 * apply [e.g. monks are never 'unarmed']". RULING: only a character with no
 * weapon is unarmed; monsters fight with natural weapons (length 1, the
 * model's convention) and monks are never unarmed.
 */
export function isUnarmed(c: Combatant, d: Declaration): boolean {
  if (weaponOf(c, d)) return false;
  if (c.className?.trim().toLowerCase() === 'monk') return false;
  return isCharacter(c);
}

/** Weapon length for II.E: unarmed 0, natural attacks or unknown length 1. */
export function reachOf(c: Combatant, d: Declaration): number {
  if (isUnarmed(c, d)) return 0;
  return finite(weaponOf(c, d)?.length, 1);
}

/* ================================================ I  Check for surprise */

/* "A 1-4 on a d12 otherwise normally indicates surprise." */
export const BASE_SURPRISE_RANGE = 4;

interface SideSurpriseData {
  /** Best "surprises others" adjustment among the side's members. */
  others: number;
  /** Best (lowest) "is surprised" adjustment among the side's members. */
  own: number;
  members: Combatant[];
}

function sideData(encounter: Encounter): Map<string, SideSurpriseData> {
  const out = new Map<string, SideSurpriseData>();
  for (const s of encounter.sides) out.set(s.id, { others: -Infinity, own: Infinity, members: [] });
  for (const c of encounter.combatants) {
    const d = out.get(c.side);
    if (!d) continue;
    d.members.push(c);
    const adj = surpriseAdjustments(c);
    d.others = Math.max(d.others, adj.others);
    d.own = Math.min(d.own, adj.own);
  }
  return out;
}

/** The best "surprises others" adjustment among the sides opposing `sideId` (0 when none has members). */
function opposingBest(data: Map<string, SideSurpriseData>, sideId: string): number {
  let best = -Infinity;
  for (const [side, d] of data) if (side !== sideId && d.members.length > 0) best = Math.max(best, d.others);
  return Number.isFinite(best) ? best : 0;
}

const clampRange = (r: number) => Math.max(0, Math.min(DIE, r));

/**
 * The surprise range a side (or one of its members rolling individually) is
 * subject to: 1-4, plus the opposing sides' best "surprises" adjustment
 * ("an elf on point makes the standard enemy surprise range 1-8"), plus the
 * side's best "is surprised" adjustment ("Adjustments are applied to the
 * normal surprise range, not the die roll").
 */
export function surpriseRangeFor(encounter: Encounter, sideId: string, individual?: Combatant): number {
  const data = sideData(encounter);
  const d = data.get(sideId);
  const own = individual ? surpriseAdjustments(individual).own : d && Number.isFinite(d.own) ? d.own : 0;
  const situation = sideSurpriseModifier(encounter.sides.find((s) => s.id === sideId));
  return clampRange(BASE_SURPRISE_RANGE + opposingBest(data, sideId) + own + situation);
}

function rollSurprise(encounter: Encounter, dice: Dice, options: D12AscendingOptions): SurpriseResult {
  const data = sideData(encounter);
  const individual = options.initiativeMode === 'individual';
  const rolls: Record<string, number> = {};
  const surprised: Record<string, number> = {};
  for (const side of encounter.sides) {
    const d = data.get(side.id);
    if (!d || d.members.length === 0) continue;
    // The situation's modifier the GM gives the side (heightened alert, noise…): on the range, as the table's adjustments are.
    const enemy = opposingBest(data, side.id) + sideSurpriseModifier(side);
    const sideRange = clampRange(BASE_SURPRISE_RANGE + enemy + (Number.isFinite(d.own) ? d.own : 0));
    // I.A "The DM may dictate that surprise exists": no roll. RULING: if the GM
    // marks a side both surprised and alerted, surprised wins.
    if (side.surprised) {
      for (const c of d.members) surprised[c.id] = c.neverSurprised ? 0 : 1;
      continue;
    }
    // An alerted side noticed the others first: it is not surprised, rolls nothing.
    if (side.alerted) {
      for (const c of d.members) surprised[c.id] = 0;
      continue;
    }
    // "Using this option PC's would get to make individual surprise ... rolls
    // while opponents will generally be rolled for as a group."
    const groupMembers = individual ? d.members.filter((c) => !isCharacter(c)) : d.members;
    if (groupMembers.length > 0) {
      const roll = dice.roll({ purpose: 'surprise', count: 1, faces: DIE, side: side.id, round: 0 });
      rolls[side.id] = roll;
      for (const c of groupMembers) surprised[c.id] = !c.neverSurprised && roll <= sideRange ? 1 : 0;
    }
    if (individual) {
      for (const c of d.members) {
        if (!isCharacter(c)) continue;
        const roll = dice.roll({ purpose: 'surprise', count: 1, faces: DIE, combatant: c.id, round: 0 });
        rolls[c.id] = roll;
        const range = clampRange(BASE_SURPRISE_RANGE + enemy + surpriseAdjustments(c).own);
        surprised[c.id] = !c.neverSurprised && roll <= range ? 1 : 0;
      }
    }
  }
  // I.C "If neither side is surprised or both sides are surprised then proceed
  // to step II": a surprise round only when some are surprised and others are not.
  let some = false;
  let all = true;
  for (const c of encounter.combatants) {
    // Combatants of unknown sides are never surprised (the flow refuses them at the start anyway).
    if (surprised[c.id] === undefined) surprised[c.id] = 0;
    if (!isActive(initialState(c))) continue; // out of the fight as it begins (0 hp or below, or entering it fled …)
    if (surprised[c.id]) some = true;
    else all = false;
  }
  if (!some || all) for (const c of encounter.combatants) surprised[c.id] = 0;
  return { rolls, surprised, unit: 'round' };
}

/** Is anyone marked surprised (so a surprise round took place)? */
function surpriseRoundHappened(surprise: SurpriseResult | null): boolean {
  if (!surprise) return false;
  for (const id in surprise.surprised) if (surprise.surprised[id] > 0) return true;
  return false;
}

/**
 * I.D "Surprise lasts 1 round. If not surprised you act as in a normal round.
 * If needed, resolve actions in order of highest surprise die roll first."
 * RULING: the surprise round is planned like a normal round in which each
 * unsurprised combatant's place is 13 − its surprise die (alerted sides, which
 * did not roll, first; unsurprised members of a side the GM ruled surprised
 * last); steps show no count. Dexterity does not change this order.
 */
function planSurprise(encounter: Encounter, surprise: SurpriseResult, declarations: Record<string, Declaration>, options: D12AscendingOptions): Schedule | null {
  if (!surpriseRoundHappened(surprise)) return null;
  return plan(encounter, { round: 0, combatRound: 1, declarations, placeOf: surprisePlace(encounter, surprise), carryIn: [], phase: PHASE_SURPRISE, options, rules: 0 });
}

/** A combatant's place in the surprise round: unsurprised and able to act (above 0 hp, not entering the combat out of it), 13 − its surprise die; else none. */
function surprisePlace(encounter: Encounter, surprise: SurpriseResult): (c: Combatant) => number | undefined {
  const sideById = new Map(encounter.sides.map((s) => [s.id, s]));
  return (c) => {
    if ((surprise.surprised[c.id] ?? 0) > 0 || !isActive(initialState(c))) return undefined;
    const side = sideById.get(c.side);
    let die = surprise.rolls[c.id] ?? surprise.rolls[c.side];
    if (die === undefined) die = side?.alerted && !side.surprised ? DIE + 1 : 0;
    return DIE + 1 - die;
  };
}

/* ============================================== II  Determine initiative */

/**
 * II.A "Roll a d12 for the party; modify by dexterity; DM rolls for
 * opponents." One d12 per side with a member able to act; in 'individual'
 * mode each character rolls its own (II.B) and only sides with monsters roll.
 */
function rollInitiative(encounter: Encounter, input: RoundInput, dice: Dice, options: D12AscendingOptions): InitiativeResult {
  const individual = options.initiativeMode === 'individual';
  const ownRoll = (c: Combatant) => individual && isCharacter(c);
  const sides = rollSideDice(encounter, dice, { faces: DIE, round: input.round }, (c) => isActive(input.states[c.id]) && !ownRoll(c));
  const individuals: Record<string, number> = {};
  const lowest: Record<string, number> = { ...sides };
  for (const c of encounter.combatants) {
    if (!isActive(input.states[c.id]) || !ownRoll(c)) continue;
    const roll = dice.roll({ purpose: 'initiative', count: 1, faces: DIE, combatant: c.id, round: input.round });
    individuals[c.id] = roll - finite(c.initiativeAdjustment);
    lowest[c.side] = Math.min(lowest[c.side] ?? Infinity, roll);
  }
  // "Sides act in order of lowest to highest result indicated by the die they
  // rolled for themselves": the winner is the lowest die; a tie has no winner.
  return { round: input.round, sides, individuals, winner: winnerOf(lowest, { lowest: true }) };
}

/**
 * A combatant's initiative result (its count): the side's die, minus its
 * dexterity adjustment in the adjusted modes ("by adjusting the die roll
 * individually you might act simultaneous with, or prior to the enemy"), or
 * its own modified roll. RULING: with no result at all (inconsistent input) it
 * acts on the slowest die, 12.
 */
export function initiativeCount(c: Combatant, initiative: InitiativeResult, options: D12AscendingOptions): number {
  const own = initiative.individuals[c.id];
  return own !== undefined ? own : sideCount(c, initiative, options);
}

/** The count from the side's die alone (no individual roll). */
function sideCount(c: Combatant, initiative: InitiativeResult, options: D12AscendingOptions): number {
  const side = initiative.sides[c.side] ?? DIE;
  return options.initiativeMode === 'group' ? side : side - finite(c.initiativeAdjustment);
}

function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: D12AscendingOptions): Schedule {
  // RULING: rounds of the combat are counted from the surprise round when
  // there was one (it is the combat's first round) for the 3/2 alternation.
  const combatRound = input.round + (surpriseRoundHappened(input.surprise) ? 1 : 0);
  // Without individual rolls, no search of an empty record per combatant (slow across thousands of ids).
  const count = options.initiativeMode === 'individual' || Object.keys(initiative.individuals).length > 0 ? initiativeCount : sideCount;
  const placeOf = (c: Combatant) => (isActive(input.states[c.id]) ? count(c, initiative, options) : undefined);
  const p: PlanInput = { round: input.round, combatRound, declarations: input.declarations, placeOf, carryIn: input.carryIn, phase: PHASE_INITIATIVE, options, rules: input.rules ?? 0 };
  return plan(encounter, p, initiative);
}

/* -------------------------------------------------------------- planning */

interface PlanInput {
  round: number;
  combatRound: number;
  declarations: Record<string, Declaration>;
  /** A combatant's place (initiative count) in the ordered phase; undefined when it cannot act. */
  placeOf: (c: Combatant) => number | undefined;
  carryIn: Casting[];
  /** The rules revision of the combat (RoundInput.rules). */
  rules: number;
  /** The ordered phase: its steps show their count in the initiative phase, none in the surprise round. */
  phase: typeof PHASE_SURPRISE | typeof PHASE_INITIATIVE;
  options: D12AscendingOptions;
}

type TieClass = 'melee' | 'missile' | 'spell' | 'other';

/** One thing a combatant does at one moment; all its entries share a step. Every Item has the same fields. */
interface Item {
  c: Combatant;
  d: Declaration;
  phase: PhaseId;
  count: number;
  entries: StepEntry[];
  tie: TieClass;
  attacks: number;
  wsf: number | undefined;
  castingTime: number | undefined;
  beganAt: number | undefined;
  /** The count shown on its step (a first strike shows the count it was pulled ahead of). */
  countShown: number;
  /** Why it is where it is (tie-break or first strike), given to entries without a reason. */
  reason: string | undefined;
  /** Its place in the ordered phase: counts lowest first, inside a count the II.G groups. */
  place: number;
  key: Key;
}

interface PendingCast {
  id: string;
  c: Combatant;
  spell: string;
  device: boolean;
  castingTime: number;
  begin: Item;
  complete: Item | null;
  remaining: number;
  /** II.C: the spell is chosen on the initiative result (isChoosing). */
  choosing: boolean;
}

function makeItem(c: Combatant, d: Declaration, phase: PhaseId, count: number, entries: StepEntry[], tie: TieClass, attacks: number): Item {
  return { c, d, phase, count, entries, tie, attacks, wsf: undefined, castingTime: undefined, beganAt: undefined, countShown: count, reason: undefined, place: 0, key: 0 };
}

/** Attack routines for melee and charges: declaration, then the table, then the combatant. */
export function routinesFor(c: Combatant, d: Declaration, combatRound: number): number {
  const declared = d.routines;
  if (declared !== undefined && Number.isInteger(declared) && declared >= 1) return declared;
  if (d.action === 'missile') return 1;
  const table = attacksPerRound(c.className, c.level, combatRound);
  if (table !== undefined) return table;
  const own = c.routines;
  return own !== undefined && Number.isInteger(own) && own >= 1 ? own : 1;
}

function attackEntries(c: Combatant, d: Declaration, action: ActionKind, n: number, reason?: string): StepEntry[] {
  const out = new Array<StepEntry>(n);
  for (let r = 1; r <= n; r++) {
    const kind = r === 1 ? 'action' : 'routine';
    const e: StepEntry =
      d.target === undefined ? { combatant: c.id, kind, action, routine: r } : { combatant: c.id, kind, action, routine: r, target: d.target };
    if (reason) e.reason = reason;
    out[r - 1] = e;
  }
  return out;
}

function entry(c: Combatant, d: Declaration, kind: StepEntry['kind'], extra: { action?: ActionKind; casting?: string; reason?: string } = {}): StepEntry {
  const e: StepEntry = { combatant: c.id, kind, action: extra.action ?? d.action };
  if (extra.casting !== undefined) e.casting = extra.casting;
  if (extra.reason !== undefined) e.reason = extra.reason;
  if (d.target !== undefined) e.target = d.target;
  return e;
}

/** Appends the items one declaration produces (none for 'none') to `out`. */
function itemsFor(c: Combatant, d: Declaration, place: number, p: PlanInput, casts: PendingCast[], out: Item[]): void {
  switch (d.action) {
    case 'none':
      return;
    case 'missile': {
      const routines = routinesFor(c, d, p.combatRound);
      const rate = Math.max(1, Math.floor(finite(weaponOf(c, d)?.rate, 1)));
      // III.A "A character beginning a round with missile weapon ready and
      // target in sight fires before initiative is rolled".
      if (d.readied) out.push(makeItem(c, d, PHASE_READIED, place, attackEntries(c, d, 'missile', routines, REASONS.readied), 'missile', routines * rate));
      else out.push(makeItem(c, d, p.phase, place, attackEntries(c, d, 'missile', routines), 'missile', routines * rate));
      return;
    }
    case 'melee':
    case 'charge': {
      // III.D "Faster movement than that sacrifices any combat or casting."
      // From rules revision 3 the standard rate is the seed's ("12” ... six squares", encumbrance.ts); before, the movement as stored.
      const movement = p.rules >= 3 ? standardRateFeet(c, p.options.encumbrance !== false) : c.movement;
      if (d.action === 'charge' && d.distance !== undefined && movement !== undefined && Number.isFinite(movement) && d.distance > movement) {
        out.push(makeItem(c, d, p.phase, place, [entry(c, d, 'action', { action: 'move', reason: REASONS.chargeTooFar })], 'other', 0));
        return;
      }
      // III.B "ALL a characters attacks resolve on their turn": every routine in one step.
      const routines = routinesFor(c, d, p.combatRound);
      const w = weaponOf(c, d)?.speed;
      const item = makeItem(c, d, p.phase, place, attackEntries(c, d, d.action, routines), 'melee', routines);
      if (w !== undefined && Number.isFinite(w)) item.wsf = w;
      out.push(item);
      return;
    }
    case 'spell':
    case 'device':
      casts.push(castItems(c, d, place, p.round, p.phase, out));
      return;
    case 'flee':
      // "Disengaging forces ... sacrifice any and ALL initiative advantage for the round."
      out.push(makeItem(c, d, PHASE_WITHDRAWAL, place, [entry(c, d, 'action', { reason: REASONS.withdrawal })], 'other', 0));
      return;
    default:
      out.push(makeItem(c, d, p.phase, place, [entry(c, d, 'action')], 'other', 0));
  }
}

/**
 * II.C "A spellcaster may decide on his initiative result what spell to cast,
 * if any": a spell declared without naming it (no spell, no casting time) is
 * chosen when the caster's turn comes (the flow's `choose` input, chooseSpell
 * below). RULING: naming the spell and its casting time in the declaration is
 * still allowed (the caster decided early); such a spell is planned at once
 * and takes part in the II.G tie-breaks.
 */
export function isChoosing(d: Declaration): boolean {
  return d.action === 'spell' && d.spell === undefined && d.castingTime === undefined;
}

/**
 * Castings (II.C, II.D, "Casting in Combat"): a spell begins on the caster's
 * initiative result and goes off at result + casting time. "Spells needing a
 * full round to cast are resolved last in the round": a casting time of 10 or
 * more goes off in the full-round phase. RULING: a casting time over 10 takes
 * whole rounds (15 → 2 rounds) and goes off last in its final round. A spell
 * still to be chosen has only its begin (chooseSpell places the rest).
 */
function castItems(c: Combatant, d: Declaration, place: number, round: number, phase: PhaseId, out: Item[]): PendingCast {
  const t = d.castingTime ?? 1;
  const id = `${c.id}:${round}:${d.spell ?? d.action}`;
  const begin = makeItem(c, d, phase, place, [entry(c, d, 'cast-begin', { casting: id })], 'other', 0);
  out.push(begin);
  if (isChoosing(d)) return { id, c, spell: '', device: false, castingTime: 0, begin, complete: null, remaining: 0, choosing: true };
  let complete: Item | null = null;
  let remaining = 0;
  if (t < FULL_ROUND) {
    complete = makeItem(c, d, phase, place + t, [entry(c, d, 'cast-complete', { casting: id })], 'spell', 0);
    complete.castingTime = t;
    complete.beganAt = place;
  } else if (t <= FULL_ROUND) {
    complete = makeItem(c, d, PHASE_FULL_ROUND, 0, [entry(c, d, 'cast-complete', { casting: id, reason: REASONS.fullRound })], 'other', 0);
  } else {
    remaining = FULL_ROUND * (Math.ceil(t / FULL_ROUND) - 1);
  }
  if (complete) out.push(complete);
  return { id, c, spell: d.spell ?? d.action, device: d.action === 'device', castingTime: t, begin, complete, remaining, choosing: false };
}

/**
 * II.D "Any damage taken before completing a spell in that round prevents
 * any/all spell completion" (spell kept); damage "while actually casting"
 * loses and expends it. RULING: devices are not spellcasting: damage never
 * stops them.
 */
function plannedCasting(cast: PendingCast, round: number): PlannedCasting {
  const spell = !cast.device;
  const { id, spell: name, device, castingTime, remaining } = cast;
  const begin = cast.begin.key;
  // Still to be chosen: "Any damage taken before completing a spell in that round prevents any/all spell completion"
  // until its turn; it ends at its begin step (chooseSpell places its completion), nothing to lose or expend yet.
  if (cast.choosing) return { id, caster: cast.c.id, spell: '', device: false, castingTime: 0, beganRound: round, begin, complete: begin, lossFrom: 'never', preventFrom: 'start', expends: false, remaining: 0 };
  const complete = cast.complete ? cast.complete.key : null;
  return { id, caster: cast.c.id, spell: name, device, castingTime, beganRound: round, begin, complete, lossFrom: spell ? begin : 'never', preventFrom: spell ? 'start' : 'never', expends: spell, remaining };
}

/**
 * II.C "A spellcaster may decide on his initiative result what spell to cast,
 * if any. Caster is then casting for the duration of the listed casting time;
 * then the effects are resolved." The caster chose at its turn (its begin
 * step, the one being played): the casting begins there, at its result S,
 * and goes off at S + casting time as any other does (10: last in the round;
 * over 10: in a later round). Its completion is spliced in after the step
 * being played, so the steps played keep their places.
 * RULING (II.G): the order planned at S + time stands. With a tie-break that
 * reads casting time switched on (tieSpellVsMelee, tieMissileVsSpell), the
 * spell goes off after every step at that count holding a weapon attack such
 * a tie-break would compare it with: a spell chosen on the initiative result
 * cannot win a tie on casting time. Otherwise it joins the turns at that
 * count (II.F "Ties are just that – simultaneous results").
 */
function chooseSpell(encounter: Encounter, input: ChooseSpellInput, options: D12AscendingOptions): Schedule {
  const { schedule, currentStep } = input;
  const casting = schedule.castings.find((c) => c.id === input.casting);
  if (!casting || !casting.choosing || casting.beginStep !== currentStep) throw new RulesError({ key: 'ChooseSpellNothing', data: { name: nameIn(encounter, casting?.caster ?? '') } });
  const t = input.castingTime;
  const target = schedule.steps[currentStep].entries.find((e) => e.casting === casting.id)?.target;
  const complete: StepEntry = { combatant: casting.caster, kind: 'cast-complete', action: 'spell', casting: casting.id };
  if (target !== undefined) complete.target = target;
  let placed: Placed | null = null;
  if (t < FULL_ROUND) placed = completionAfterChoice(encounter, input, options, complete, t);
  else if (t <= FULL_ROUND) {
    complete.reason = REASONS.fullRound;
    placed = { key: keyOf(PHASE_FULL_ROUND), where: { phase: PHASE_FULL_ROUND }, entry: complete };
  }
  const spliced = placed ? splice(schedule, currentStep, [placed]) : schedule;
  const key = placed?.key;
  const castings = spliced.castings.map((c): Casting => {
    if (c.id !== casting.id) return c;
    const { choosing: _chosen, ...rest } = c;
    return {
      ...rest,
      spell: input.spell,
      castingTime: t,
      completeStep: key === undefined ? null : spliced.steps.findIndex((st, j) => j > currentStep && st.key === key),
      // "Damage ... while actually casting": from this step on the spell is lost and expended.
      lossFrom: currentStep,
      expends: true,
      remaining: t > FULL_ROUND ? FULL_ROUND * (Math.ceil(t / FULL_ROUND) - 1) : 0,
    };
  });
  return makeSchedule('d12-ascending', spliced.round, spliced.steps, castings, spliced.initiative);
}

const nameIn = (encounter: Encounter, id: string): string => encounter.combatants.find((c) => c.id === id)?.name ?? id;

/** II.E first strikes stand just ahead of the turn they strike before, and show its count. */
const FIRST_STRIKE_REASONS: ReadonlySet<string> = new Set([REASONS.longerWeapon, REASONS.armedVsUnarmed]);
const isFirstStrike = (step: Step): boolean => step.entries.length > 0 && step.entries.every((e) => e.reason !== undefined && FIRST_STRIKE_REASONS.has(e.reason));

/**
 * The count of each step of the round's ordered phase (undefined for the
 * other phases): the count it shows; in the surprise round, whose steps show
 * none, the place it was planned at (13 − the surprise die; a completion: its
 * casting's begin + casting time; a first strike: the turn it is ahead of).
 */
function stepCounts(encounter: Encounter, schedule: Schedule, surprise: SurpriseResult): (number | undefined)[] {
  const steps = schedule.steps;
  const out = new Array<number | undefined>(steps.length).fill(undefined);
  if (schedule.round !== 0) {
    for (let k = 0; k < steps.length; k++) if (steps[k].phase === PHASE_INITIATIVE) out[k] = steps[k].count;
    return out;
  }
  const place = surprisePlace(encounter, surprise);
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const castings = new Map(schedule.castings.map((c) => [c.id, c]));
  let ahead: number | undefined;
  for (let k = steps.length - 1; k >= 0; k--) {
    const step = steps[k];
    if (step.phase !== PHASE_SURPRISE) continue;
    if (isFirstStrike(step)) {
      out[k] = ahead;
      continue;
    }
    const e = step.entries[0];
    const c = e ? byId.get(e.combatant) : undefined;
    const at = c ? place(c) : undefined;
    const cast = e?.kind === 'cast-complete' && e.casting !== undefined ? castings.get(e.casting) : undefined;
    out[k] = at === undefined ? undefined : cast ? at + cast.castingTime : at;
    ahead = out[k];
  }
  return out;
}

/** Where a spell chosen on the initiative result goes off, before the full round: at count S + t (chooseSpell's ruling). */
function completionAfterChoice(encounter: Encounter, input: ChooseSpellInput, o: D12AscendingOptions, complete: StepEntry, t: number): Placed {
  const { schedule, currentStep } = input;
  const steps = schedule.steps;
  const counts = stepCounts(encounter, schedule, input.surprise);
  const phase = steps[currentStep].phase;
  const x = (counts[currentStep] ?? DIE) + t;
  const where: Where = phase === PHASE_INITIATIVE ? { phase, count: x } : { phase };
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  // A weapon attack a casting-time tie-break compares a spell completion with (tieBreak).
  const compared = (e: StepEntry): boolean => {
    if (o.tieMissileVsSpell && e.action === 'missile' && (e.kind === 'action' || e.kind === 'routine')) return true;
    if (!o.tieSpellVsMelee || (e.action !== 'melee' && e.action !== 'charge')) return false;
    const c = byId.get(e.combatant);
    const d = input.declarations[e.combatant];
    const wsf = c && d ? weaponOf(c, d)?.speed : undefined;
    return wsf !== undefined && Number.isFinite(wsf);
  };
  const ordered = (j: number) => steps[j].phase === phase;
  let lastCompared = -1;
  let firstTurn = -1;
  let end = currentStep + 1; // the first step after the count
  for (let j = currentStep + 1; j < steps.length && ordered(j) && (counts[j] ?? Infinity) <= x; j++) {
    end = j + 1;
    if (counts[j] !== x) continue;
    if (steps[j].entries.some(compared)) lastCompared = j;
    if (firstTurn < 0 && !isFirstStrike(steps[j])) firstTurn = j;
  }
  if (lastCompared >= 0) {
    complete.reason = REASONS.chosenAfterTies;
    const after = lastCompared + 1;
    if (after < end && !isFirstStrike(steps[after])) return { key: steps[after].key, where, entry: complete };
    return { key: between(steps, lastCompared), where, entry: complete };
  }
  if (firstTurn >= 0) return { key: steps[firstTurn].key, where, entry: complete };
  return { key: between(steps, end - 1), where, entry: complete };
}

/** A key after step `j`'s and before the next step's (one past the last key when `j` is the last step). */
function between(steps: readonly Step[], j: number): Key {
  const lo = steps[j].key;
  return j + 1 < steps.length ? (lo + steps[j + 1].key) / 2 : lo + 1;
}

/**
 * II.E "When entering/charging into melee range of any opponent the longer
 * weapon strikes first, regardless of initiative. Weapons always win
 * initiative vs. unarmed." RULING: this applies to a pair that fights each
 * other: a charge (or melee) at a target whose own melee or charge is aimed
 * at the attacker or at no one. The winner's whole turn moves to a step just
 * before the loser's turn when it was not already earlier; a pull is computed
 * from the initiative order, never from another pull.
 */
function applyFirstStrikes(items: Item[], phase: PhaseId, declarations: Record<string, Declaration>): void {
  // Often no two fight each other: the declarations tell, before attacks are mapped by combatant.
  if (!items.some((it) => it.tie === 'melee' && it.phase === phase && mayBePair(it, declarations))) return;
  const attackOf = new Map<string, Item>();
  for (const it of items) if (it.tie === 'melee' && it.phase === phase) attackOf.set(it.c.id, it);
  // Pulls are collected first and applied after: they compare initiative places only.
  const pulls = new Map<Item, { to: number; reason: string; count: number }>();
  const pull = (winner: Item, loser: Item, reason: string) => {
    if (winner.place < loser.place) return;
    const prev = pulls.get(winner);
    if (!prev || loser.place < prev.to) pulls.set(winner, { to: loser.place, reason, count: loser.count });
  };
  for (const x of attackOf.values()) {
    const targetId = x.d.target;
    if (targetId === undefined || targetId === x.c.id) continue;
    const y = attackOf.get(targetId);
    if (!y || (y.d.target !== undefined && y.d.target !== x.c.id)) continue;
    const charge = x.d.action === 'charge' || y.d.action === 'charge';
    const rx = reachOf(x.c, x.d);
    const ry = reachOf(y.c, y.d);
    if ((rx === 0) !== (ry === 0)) {
      if (ry === 0) pull(x, y, REASONS.armedVsUnarmed);
      else pull(y, x, REASONS.armedVsUnarmed);
    } else if (charge && rx !== ry) {
      if (rx > ry) pull(x, y, REASONS.longerWeapon);
      else pull(y, x, REASONS.longerWeapon);
    }
  }
  for (const [it, p] of pulls) {
    it.place = p.to;
    it.key = keyOf(it.phase, p.to, true);
    it.countShown = p.count;
    it.reason = p.reason;
  }
}

/** Can this attack be one of a II.E pair? Its target is declared to melee or charge, at this attacker or at no one. */
function mayBePair(x: Item, declarations: Record<string, Declaration>): boolean {
  const targetId = x.d.target;
  if (targetId === undefined || targetId === x.c.id) return false;
  const y = declarations[targetId];
  return !!y && (y.action === 'melee' || y.action === 'charge') && (y.target === undefined || y.target === x.c.id);
}

function pushTo(groups: Map<number, Item[]>, key: number, it: Item): void {
  const list = groups.get(key);
  if (list) list.push(it);
  else groups.set(key, [it]);
}

const ascending = (groups: Map<number, unknown>): number[] => [...groups.keys()].sort((x, y) => x - y);
const isWeaponAttack = (it: Item) => it.tie === 'melee' || it.tie === 'missile';

/**
 * II.F "Ties are just that – simultaneous results." II.G optional tie-breaks
 * among the items at one count. Sub-keys, lowest first, equal = simultaneous.
 * RULING: a tie-break only ever makes the loser of a pair it names act later;
 * anything it does not name shares the first step of the count.
 *  a. more attacks: weapon attacks (melee, charge, missile) with more attacks first;
 *  b. speed: melee by WSF (tieWeaponSpeed), spell completion vs melee by
 *     casting time vs WSF (tieSpellVsMelee);
 *  c. missile vs spell completion: the spell goes after the missile when its
 *     casting time is higher than the caster's initiative result.
 * Returns the count's items as simultaneous groups in order (each group keeps
 * the items' order) and sets each item's tie-break reason.
 */
function tieBreak(group: Item[], o: D12AscendingOptions): Item[][] {
  let maxA = 1;
  if (o.tieMoreAttacks) for (const it of group) if (isWeaponAttack(it)) maxA = Math.max(maxA, it.attacks);
  const byA = new Map<number, Item[]>();
  for (const it of group) {
    const a = o.tieMoreAttacks ? -(isWeaponAttack(it) ? it.attacks : maxA) : 0;
    if (o.tieMoreAttacks && a > -maxA) it.reason = REASONS.tieMoreAttacks;
    pushTo(byA, a, it);
  }
  const out: Item[][] = [];
  for (const a of ascending(byA)) {
    const sub = byA.get(a) as Item[];
    const hasSpell = sub.some((it) => it.tie === 'spell');
    const hasMelee = sub.some((it) => it.tie === 'melee' && it.wsf !== undefined);
    const meleeCompared = o.tieWeaponSpeed || (o.tieSpellVsMelee && hasSpell);
    const spellCompared = o.tieSpellVsMelee && hasMelee;
    const value = (it: Item): number | undefined =>
      it.tie === 'melee' && meleeCompared ? it.wsf : it.tie === 'spell' && spellCompared ? it.castingTime : undefined;
    let min = Infinity;
    for (const it of sub) {
      const v = value(it);
      if (v !== undefined) min = Math.min(min, v);
    }
    if (!Number.isFinite(min)) min = 0;
    const byB = new Map<number, Item[]>();
    for (const it of sub) {
      const b = value(it) ?? min;
      if (b > min && it.reason === undefined) it.reason = REASONS.tieSpeed;
      pushTo(byB, b, it);
    }
    for (const b of ascending(byB)) {
      const same = byB.get(b) as Item[];
      if (!o.tieMissileVsSpell || !same.some((it) => it.tie === 'missile')) {
        out.push(same);
        continue;
      }
      const first: Item[] = [];
      const after: Item[] = [];
      for (const it of same) {
        if (it.tie === 'spell' && (it.castingTime ?? 0) > (it.beganAt ?? 0)) {
          after.push(it);
          if (it.reason === undefined) it.reason = REASONS.tieMissileVsSpell;
        } else first.push(it);
      }
      if (first.length > 0) out.push(first);
      if (after.length > 0) out.push(after);
    }
  }
  return out;
}

/**
 * Gives every item its time key: readied missiles; the ordered phase by count
 * (II.A lowest first), inside a count by the II.G groups, each first strike
 * (II.E) just before the turn it was pulled ahead of; withdrawal; full round.
 */
function orderItems(items: Item[], p: PlanInput): void {
  const byCount = new Map<number, Item[]>();
  for (const it of items) if (it.phase === p.phase) pushTo(byCount, it.count, it);
  const o = p.options;
  const tieBreaks = o.tieMoreAttacks || o.tieWeaponSpeed || o.tieSpellVsMelee || o.tieMissileVsSpell;
  let place = 0;
  for (const count of ascending(byCount)) {
    const group = byCount.get(count) as Item[];
    for (const same of tieBreaks ? tieBreak(group, o) : [group]) {
      const key = keyOf(p.phase, place);
      for (const it of same) {
        it.place = place;
        it.key = key;
      }
      place++;
    }
  }
  for (const it of items) if (it.phase !== p.phase) it.key = keyOf(it.phase);
  applyFirstStrikes(items, p.phase, p.declarations);
}

function plan(encounter: Encounter, p: PlanInput, initiative?: InitiativeResult): Schedule {
  const casts: PendingCast[] = [];
  const items: Item[] = [];
  // II.C "Caster is then casting for the duration of the listed casting time": a casting carried in takes its caster's
  // whole round (it goes off last in the round, or runs on), so its declaration begins nothing new (rules revision 1:
  // a combat started before plans it as it did).
  const casting = p.carryIn.length > 0 && p.rules >= 1 ? new Set(p.carryIn.map((x) => x.caster)) : null;
  for (const c of encounter.combatants) {
    const d = p.declarations[c.id];
    if (!d || casting?.has(c.id)) continue;
    const place = p.placeOf(c);
    if (place !== undefined) itemsFor(c, d, place, p, casts, items);
  }
  orderItems(items, p);
  const round = new RoundBuilder('d12-ascending', p.round);
  for (const it of items) {
    const where: Where = it.phase === PHASE_INITIATIVE ? { phase: it.phase, count: it.countShown } : { phase: it.phase };
    for (const e of it.entries) {
      if (it.reason && !e.reason) e.reason = it.reason;
      round.add(it.key, where, e);
    }
  }
  for (const cast of casts) round.cast(plannedCasting(cast, p.round));
  // Carried castings: "resolved last in the round" when they finish now; a
  // spell still running is lost to damage at any step, a device never.
  const last = { key: keyOf(PHASE_FULL_ROUND), where: { phase: PHASE_FULL_ROUND }, reason: REASONS.fullRound };
  for (const cast of p.carryIn) round.carryIn(cast, cast.remaining <= FULL_ROUND ? last : null);
  return markChoosing(round.build(initiative), casts);
}

/** The castings whose spell is still to be chosen are marked so (a planned casting carries no such mark). */
function markChoosing(schedule: Schedule, casts: readonly PendingCast[]): Schedule {
  for (const cast of casts) {
    if (!cast.choosing) continue;
    const planned = schedule.castings.find((x) => x.id === cast.id);
    if (planned) planned.choosing = true;
  }
  return schedule;
}

/* ================================================= III  Additional rules */

/** What a combatant is about to do, for the attack-of-opportunity helper. */
export interface AooQuery {
  action: ActionKind;
  /** III.C: adjacent opponents attacking this combatant with melee weapons. */
  adjacentMeleeAttackers?: number;
  /** An opponent is within melee range. */
  inMeleeRange?: boolean;
  /** Feet moved this round while within an opponent's melee range. */
  movedFeet?: number;
  /** The move is a 5' step: the only movement of the round, before other actions. */
  fiveFootStep?: boolean;
  /** Most the combatant may move this round (over-encumbrance, full-round casting…). */
  movementLimitFeet?: number;
  /** "Flee in panic" (not an orderly disengage). */
  panic?: boolean;
}

/**
 * "The 5' Step": 5 feet before other actions, as the only movement, unless the
 * combatant may only move 5 feet or less anyway.
 */
export function canFiveFootStep(q: { movedFeet?: number; otherMovement?: boolean; beforeActions?: boolean; movementLimitFeet?: number }): boolean {
  const moved = finite(q.movedFeet);
  if (moved > 5 || q.otherMovement) return false;
  if (q.beforeActions === false) return false;
  if (q.movementLimitFeet !== undefined && q.movementLimitFeet <= 5) return false;
  return true;
}

/**
 * Reasons (TENSEG.Reason keys) why an intended action can draw an attack of
 * opportunity; empty when none. The GM announces them (the text: "the DM
 * should announce that the characters intended actions can or will have such
 * consequences") and decides; generally one AoO per round per character.
 *  III.C missile fire while adjacent opponents attack you in melee;
 *  III.C casting while in melee range;
 *  III.F moving more than 5' while remaining within melee range (a legal 5' step never does);
 *  "Flee in panic ... Opponents may take an AoO at your back".
 */
export function attackOfOpportunityReasons(q: AooQuery): string[] {
  const out: string[] = [];
  if (q.action === 'missile' && finite(q.adjacentMeleeAttackers) > 0) out.push(REASONS.aooMissile);
  if (q.action === 'spell' && q.inMeleeRange) out.push(REASONS.aooCasting);
  const panic = q.action === 'flee' && !!q.panic;
  if (panic && q.inMeleeRange) out.push(REASONS.aooFleeing);
  const moved = finite(q.movedFeet);
  if (!panic && q.inMeleeRange && moved > 0) {
    const legalStep = !!q.fiveFootStep && canFiveFootStep({ movedFeet: moved, movementLimitFeet: q.movementLimitFeet });
    // More than 5': AoO. 5' or less that is not a legal 5' step "might draw consequences".
    if (!legalStep) out.push(REASONS.aooMoving);
  }
  return out;
}

export function drawsAttackOfOpportunity(q: AooQuery): boolean {
  return attackOfOpportunityReasons(q).length > 0;
}

/**
 * The flow's attack rules: an attack of opportunity at an opponent engaged
 * with the attacker that, in this step, fires missiles (III.C "Missile fire
 * versus adjacent opponents attacking you with a melee weapon draws an Attack
 * of Opportunity"), begins a spell ("Casting while in melee range also draws
 * an AoO") or flees ("Opponents may take an AoO at your back"); III.F
 * "Generally only one AoO per round per character"; not while surprised
 * (I.D). RULING: the engine has no positions; engaged stands for adjacent or
 * in melee range: the attacker declared melee or a charge at the target, or
 * the target's declaration is aimed at the attacker. A move on the map that
 * provoked the attacker (movement, above: III.F, "Flee in panic") grants
 * one too, in the step of the move or any later one of the round.
 */
const attackRules: AttackRules = {
  outOfTurn(q) {
    const { attacker, target, declarations } = q;
    if (attacker.side === target.side) return null;
    // A move of the target this round provoked this attacker (III.F, "Flee in panic"; flow/moved.ts), once.
    const byMove = (q.provoked ?? []).some((p) => p.grant === 'opportunity');
    const mine = declarations[attacker.id];
    const engaged = ((mine?.action === 'melee' || mine?.action === 'charge') && mine.target === target.id) || declarations[target.id]?.target === attacker.id;
    const byAction = engaged && (actsNow(q, target.id, ['missile', 'flee']) || beginsCasting(q, target.id));
    if (!byMove && !byAction) return null;
    const data = { name: attacker.name, target: target.name };
    if (q.surprised) return { problem: { key: 'AttackerSurprised', data } };
    if (q.attacks.some((a) => a.c === attacker.id && a.as === 'opportunity')) return { problem: { key: 'AttackOfOpportunityUsed', data } };
    return { grant: 'opportunity' };
  },
  armorClass: ({ target, ac, casting }) => (casting ? armorClassWhileCasting(ac, target.dexterityAcBonus) : ac),
};

/** Does `id` begin casting in this step? Not while its spell is still to be chosen (II.C), nor once it chose none. */
function beginsCasting(q: Pick<OutOfTurnQuery, 'entries' | 'schedule'>, id: string): boolean {
  return q.entries.some(({ entry, outcome }) => {
    if (entry.combatant !== id || outcome !== 'begins' || (entry.action !== 'spell' && entry.action !== 'device')) return false;
    return !q.schedule.castings.some((c) => c.id === entry.casting && c.choosing);
  });
}

/**
 * III.E "Spellcasters lose dexterity AC bonus only while actually casting":
 * the armor class an attack is rolled against while the target is casting
 * (from the step its spell begins until it goes off or is stopped;
 * flow/casting.ts castingNow) is its AC without its Dexterity bonus
 * (`dexterityAcBonus`: 2 means its AC is 2 better for Dexterity, so it is 2
 * worse while casting). RULING: a Dexterity penalty is no bonus and is not
 * lost; a magic device is no spellcasting; the AC stays on the -10..10 scale.
 */
export function armorClassWhileCasting(ac: number, dexterityAcBonus: number | undefined): number {
  const bonus = finite(dexterityAcBonus);
  return bonus > 0 ? applyArmorClassBonus(ac, -bonus) : ac;
}

/* ================================== III.D/F, "Movement During the Round", "The 5' Step" */

/** Actions with no combat or casting to sacrifice: moving is all the combatant does. */
const MOVING_ONLY: ReadonlySet<ActionKind> = new Set<ActionKind>(['move', 'flee', 'none']);

/**
 * Movement on the map (the `moved` input, flow/moved.ts):
 *  - III.D "All characters may move their standard rate and still use their
 *    full attack routine or cast ... Faster movement than that sacrifices any
 *    combat or casting": beyond the standard rate (standardRateFeet, encumbrance.ts) over
 *    the round's moves the GM rules (allow, or forfeit the action). RULING: a
 *    combatant that declared move, flee or nothing has no combat to sacrifice
 *    ("You can move further/faster, sometimes a lot more"): no limit, the
 *    GM's; a charger may cover its charge distance.
 *  - III.F "Moving more than 5' while remaining within melee range of an
 *    opponent allows an Attack Of Opportunity": feet moved from squares
 *    within an opponent's melee range, summed over the round's moves; more
 *    than 5 provokes that opponent. 5' or less provokes only where it is no
 *    5' Step ("this is your only movement for that round", "prior to other
 *    actions", and the combatant not "ONLY allowed to move 5' or less":
 *    "You can still move your 5' – you just might draw consequences") and
 *    the move ends within the range (Withdrawal: "the first 5' backward
 *    generally doesn't draw an AoO because it then puts you outside the
 *    opponent's weapon reach").
 *  - "Flee in panic ... Opponents may take an AoO at your back": a declared
 *    flee moving from within an opponent's melee range provokes it,
 *    whatever the feet (RULING: a declared flee is the flight in panic; an
 *    orderly fall back or disengage is declared as a move).
 *  - "Generally only one AoO per round per character": one provocation per
 *    opponent per round; the attack is granted once (attackRules.outOfTurn).
 */
const movement: MovementRules<D12AscendingOptions> = {
  check(q) {
    const { combatant, declaration, move, earlier } = q;
    const action = declaration?.action;
    const standard = standardRateFeet(combatant, q.options.encumbrance !== false);
    const total = movedFeet(earlier) + feetOf(move.feet);
    let allowance: number | undefined;
    if (action !== undefined && !MOVING_ONLY.has(action)) allowance = action === 'charge' ? Math.max(standard, feetOf(declaration?.distance)) : standard;
    const beyond = allowance !== undefined && total > allowance ? 'standardRate' : undefined;
    const fiveFootStep = earlier.length === 0 && total <= 5 && !q.acted && standard > 5;
    const provoked: Provoked[] = [];
    for (const r of move.reach ?? []) {
      if (!q.opponents.has(r.c) || provokedBefore(earlier, r.c, 'opportunity') || provoked.some((p) => p.by === r.c)) continue;
      if (action === 'flee') {
        if (r.startIn || feetOf(r.feet) > 0) provoked.push({ by: r.c, grant: 'opportunity', reason: REASONS.aooFleeing });
        continue;
      }
      const within = feetWithin(r.c, earlier, { feet: 0, reach: [r] });
      if (within > 5 || (within > 0 && !fiveFootStep && r.endIn)) provoked.push({ by: r.c, grant: 'opportunity', reason: REASONS.aooMoving });
    }
    const verdict: { allowance?: number; beyond?: string; provoked: Provoked[] } = { provoked };
    if (allowance !== undefined) verdict.allowance = allowance;
    if (beyond !== undefined) verdict.beyond = beyond;
    return verdict;
  },
};

/* ============== tables: "MULTIPLE ATTACKS PER ROUND BY LEVEL", "SURPRISE" */

/* "MULTIPLE ATTACKS PER ROUND BY LEVEL" */
export type AttackRate = '1/1' | '3/2' | '2/1';

/** Rows by lowest level, as in the seed table. */
export const ATTACKS_PER_ROUND_TABLE: Readonly<Record<string, readonly { minLevel: number; rate: AttackRate }[]>> = {
  fighter: [{ minLevel: 1, rate: '1/1' }, { minLevel: 7, rate: '3/2' }, { minLevel: 13, rate: '2/1' }],
  paladin: [{ minLevel: 1, rate: '1/1' }, { minLevel: 8, rate: '3/2' }, { minLevel: 14, rate: '2/1' }],
  ranger: [{ minLevel: 1, rate: '1/1' }, { minLevel: 8, rate: '3/2' }, { minLevel: 15, rate: '2/1' }],
  monk: [{ minLevel: 1, rate: '1/1' }, { minLevel: 6, rate: '3/2' }, { minLevel: 12, rate: '2/1' }],
};

/** The table's rate for a class and level, or undefined when the class is not in the table. */
export function attackRate(className: string | undefined, level: number | undefined): AttackRate | undefined {
  if (!className || level === undefined || !Number.isInteger(level) || level < 1) return undefined;
  const rows = ATTACKS_PER_ROUND_TABLE[className.trim().toLowerCase()];
  if (!rows) return undefined;
  let rate: AttackRate | undefined;
  for (const row of rows) if (level >= row.minLevel) rate = row.rate;
  return rate;
}

/**
 * Attack routines in a given round of the combat (1 = its first round).
 * README ruling: 3/2 is one routine in odd rounds, two in even rounds.
 * Undefined when the class is not in the table.
 */
export function attacksPerRound(className: string | undefined, level: number | undefined, round: number): number | undefined {
  const rate = attackRate(className, level);
  if (rate === undefined) return undefined;
  if (rate === '1/1') return 1;
  if (rate === '2/1') return 2;
  const n = Number.isInteger(round) && round >= 1 ? round : 1;
  return n % 2 === 0 ? 2 : 1;
}

/* "SURPRISE ... Standard modifiers" (classes the engine can recognise). */
/**
 * Class-based surprise adjustments in pips of the d12 range: "Ranger surprises
 * +2", "Ranger is surprised -2", "Monk lvl 5-8 is surprised -1, 9-12 -2, 13
 * -3". "On point" (elf/halfling +4) and the monster rows depend on the
 * situation or the monster's old rules: the GM enters them on the combatant.
 * An explicit surprisesOthersAdjust / surprisedAdjust replaces these.
 */
export function surpriseAdjustments(c: Combatant): { others: number; own: number } {
  const cls = c.className?.trim().toLowerCase();
  const level = c.level ?? 0;
  let others = 0;
  let own = 0;
  if (cls === 'ranger') {
    others = 2;
    own = -2;
  } else if (cls === 'monk') {
    own = level >= 13 ? -3 : level >= 9 ? -2 : level >= 5 ? -1 : 0;
  }
  return { others: finite(c.surprisesOthersAdjust, others), own: finite(c.surprisedAdjust, own) };
}

/* ============================================ damage, death, end of round */

function applyDamage(_c: Combatant, state: CombatantState, amount: number, options: D12AscendingOptions): DamageResult {
  const n = Number.isFinite(amount) && amount > 0 ? amount : 0;
  return hpDamage(state, n, { incapacitatedAt: 0, deathAt: Math.min(0, finite(options.deathAt, 0)) });
}

/** Entering the combat at 0 hp or below is as damage leaves it: dying above `deathAt` (bleeding by bleedPerRound), dead at it. */
function startingCondition(c: Combatant, options: D12AscendingOptions): Condition {
  return conditionByHp(c.hp, { incapacitatedAt: 0, deathAt: Math.min(0, finite(options.deathAt, 0)) }, 'dying');
}

/* ------------------------------------------------- morale ("Withdrawal Tactics and Effects of Failed Morale") */

/** The trigger of the one check the text lets a player character make: "require a morale check for PC's to see if they successfully rally". */
export const MORALE_RALLY = 'rally';

const MORALE_DICE: Record<Exclude<MoraleMethod, 'gm'>, { count: number; faces: number }> = {
  d100: { count: 1, faces: 100 },
  '2d6': { count: 2, faces: 6 },
  d20: { count: 1, faces: 20 },
};

/**
 * A combat started before `moraleMethod` existed (its start entry has no such
 * option) keeps the old rule, so its stored log replays the same: morale
 * requests are taken and ignored (README, "Stored data").
 */
const oldMorale = (options: D12AscendingOptions): boolean => options.moraleMethod === undefined;

const moraleMethodOf = (request: MoraleCheckRequest, options: D12AscendingOptions): MoraleMethod =>
  request.method ?? ((MORALE_METHODS as readonly unknown[]).includes(options.moraleMethod) ? options.moraleMethod : D12_DEFAULTS.moraleMethod);

/** The score a morale roll must be at or under: the request's, else the combatant's morale score. */
const moraleScoreOf = (c: Combatant, request: MoraleCheckRequest): number | undefined =>
  request.score !== undefined ? request.score : c.morale !== undefined && Number.isFinite(c.morale) ? c.morale : undefined;

/**
 * "Although no formal method is given herein for checking morale the DM can
 * still make such a check in any way he sees fit and adjusted for
 * circumstances as he sees fit": the GM calls a check with a method (the
 * request's, else the `moraleMethod` option): a roll of d100, 2d6 or d20 at
 * or under a score (the request's, else the combatant's morale score, less
 * `opposed`), or the GM's own result ('gm', `passed`). "Player characters
 * never check morale – their morale is decided by the players": a
 * character's check is refused, except the one the text names, "require a
 * morale check for PC's to see if they successfully rally" (trigger 'rally').
 */
function moraleProblem(c: Combatant, request: MoraleCheckRequest, options: D12AscendingOptions): Problem | null {
  if (oldMorale(options)) return null;
  const name = c.name;
  if (request.method !== undefined && !(MORALE_METHODS as readonly unknown[]).includes(request.method)) {
    return { key: 'MoraleMethodInvalid', data: { name, method: String(request.method), methods: MORALE_METHODS.join(', ') } };
  }
  for (const field of ['score', 'opposed'] as const) {
    const v = request[field];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) return { key: 'NumberInvalid', data: { name, field } };
  }
  if (request.passed !== undefined && typeof request.passed !== 'boolean') return { key: 'MalformedRequest' };
  if (isCharacter(c) && request.trigger !== MORALE_RALLY) return { key: 'D12MoraleCharacter', data: { name } };
  const method = moraleMethodOf(request, options);
  if (method === 'gm') return request.passed === undefined ? { key: 'MoraleResultMissing', data: { name } } : null;
  if (moraleScoreOf(c, request) === undefined) return { key: 'MoraleScoreMissing', data: { name, method } };
  return null;
}

/**
 * The checks called this round, in the order called: a failed check routs
 * (`routed`: the GM plays the fall back, disengage or flight the text
 * describes), or, where the call asks for it (rules revision 5), ends in the
 * text's "Surrender" (`surrendered`); a rally that holds ends the rout.
 * Nobody dead or gone checks.
 */
function moraleChecks(encounter: Encounter, input: EndOfRoundInput, end: RoundEnd, dice: Dice, options: D12AscendingOptions): void {
  if (oldMorale(options)) return;
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  for (const request of input.moraleRequests ?? []) {
    const c = byId.get(request.combatant);
    const state = end.states[request.combatant];
    if (!c || !state || state.condition === 'dead' || state.condition === 'fled' || moraleProblem(c, request, options)) continue;
    const method = moraleMethodOf(request, options);
    let roll = 0;
    let target = 0;
    let passed: boolean;
    if (method === 'gm') passed = request.passed === true;
    else {
      target = (moraleScoreOf(c, request) ?? 0) - finite(request.opposed);
      roll = dice.roll({ purpose: 'morale', ...MORALE_DICE[method], combatant: c.id, side: c.side, round: input.round });
      passed = roll <= target;
    }
    // Seed 002, "Effects of Failed Morale": the GM's call may name surrender ("You don't even see the point in running").
    const surrenders = !passed && request.surrender === true;
    if (surrenders) end.set(c.id, { ...state, expended: state.expended.slice(), surrendered: true });
    else if (!passed) end.set(c.id, { ...state, expended: state.expended.slice(), routed: true });
    else if (request.trigger === MORALE_RALLY && state.routed) end.set(c.id, { ...state, expended: state.expended.slice(), routed: false });
    end.events.push({ kind: 'morale', combatant: c.id, trigger: request.trigger, roll, total: roll, target, passed, method, ...(surrenders ? { surrendered: true as const } : {}) });
  }
}

/** A check the GM calls, made at once (rules revision 5): the same check as moraleChecks, now. */
function moraleNow(
  encounter: Encounter, requests: MoraleCheckRequest[], states: Record<string, CombatantState>, dice: Dice, options: D12AscendingOptions, round: number,
): EndOfRoundResult {
  const input: EndOfRoundInput = { round, before: states, after: states, hits: [], moraleRequests: requests };
  const end = new RoundEnd(input);
  moraleChecks(encounter, input, end, dice, options);
  return end.result();
}

/**
 * The text has no dying rule, so the round ends with a death event for each
 * combatant killed in it, and a table that plays "dead at -10" may bleed the
 * dying (bleedPerRound); then the morale checks the GM called (moraleChecks).
 */
function endOfRound(encounter: Encounter, input: EndOfRoundInput, dice: Dice, options: D12AscendingOptions): EndOfRoundResult {
  const deathAt = Math.min(0, finite(options.deathAt, 0));
  const bleed = deathAt < 0 ? Math.max(0, Math.trunc(finite(options.bleedPerRound, 0))) : 0;
  const end = new RoundEnd(input);
  for (const id of Object.keys(input.after)) {
    const s = input.after[id];
    if (bleed > 0 && s.condition === 'dying') {
      const hp = s.hp - bleed;
      end.bleed(id, bleed, { ...s, expended: s.expended.slice(), hp, condition: hp <= deathAt ? 'dead' : 'dying' });
    } else if (end.diedThisRound(id)) end.death(id);
  }
  moraleChecks(encounter, input, end, dice, options);
  return end.result();
}

/* ============================================================ validation */

function validateDeclaration(decl: Declaration, c: Combatant): Problem | null {
  // II.C: a spell still to be chosen has no casting time yet; the rest of the shared checks apply (its time is checked when chosen).
  const common = commonDeclarationProblem(decl && typeof decl === 'object' && isChoosing(decl) ? { ...decl, castingTime: 1 } : decl, c, ACTIONS);
  if (common) return common;
  if (decl.readied && decl.action !== 'missile') return { key: 'D12ReadiedNotMissile', data: { name: c.name, action: decl.action } };
  if ((decl.action === 'melee' || decl.action === 'missile' || decl.action === 'charge') && badRoutines(decl.routines)) {
    return { key: 'D12RoutinesInvalid', data: { name: c.name, routines: String(decl.routines) } };
  }
  const w = decl.weapon;
  if (w && typeof w === 'object') {
    // A missile rate is a whole number of at least 1.
    const field = badWeaponField(w, ['speed', 'length', 'rate']) ?? (w.rate !== undefined && (!Number.isInteger(w.rate) || w.rate < 1) ? 'rate' : null);
    if (field) return { key: 'D12WeaponInvalid', data: { name: c.name, field } };
  }
  if (c.className && ATTACKS_PER_ROUND_TABLE[c.className.trim().toLowerCase()] && (c.level === undefined || !Number.isInteger(c.level) || c.level < 1)) {
    return { key: 'D12LevelInvalid', data: { name: c.name, className: c.className } };
  }
  if (c.initiativeAdjustment !== undefined && !Number.isFinite(c.initiativeAdjustment)) {
    return { key: 'NumberInvalid', data: { name: c.name, field: 'initiativeAdjustment' } };
  }
  if (targetsSelf(decl, c)) return { key: 'D12TargetSelf', data: { name: c.name } };
  return null;
}

/* ============================================================= late join */

/** Where a step stands against an item: by phase rank, then by count in the initiative phase. */
function compareStep(step: Step, it: Item): number {
  const r = (RANK[step.phase as PhaseId] ?? 0) - RANK[it.phase];
  if (r !== 0 || it.phase !== PHASE_INITIATIVE || step.count === undefined) return r;
  return step.count - it.count;
}

/**
 * RULING (text silent): a combatant joining mid-round acts on its side's
 * initiative result this round (a character in 'individual' mode rolls its
 * own d12) if that count has not passed yet, joining the first step of that
 * count; otherwise, or when its side has no result, it waits for the next
 * round. No tie-breaks or first strikes are applied to it.
 */
function lateJoin(encounter: Encounter, newcomer: Combatant, input: LateJoinInput, dice: Dice, options: D12AscendingOptions): LateJoinResult {
  const schedule = input.schedule;
  const decl = input.declaration;
  if (!decl || decl.action === 'none' || schedule.round === 0 || !schedule.initiative) return { schedule };
  const ini = schedule.initiative;
  let count: number | undefined;
  if (options.initiativeMode === 'individual' && isCharacter(newcomer)) {
    count = dice.roll({ purpose: 'initiative', count: 1, faces: DIE, combatant: newcomer.id, round: schedule.round }) - finite(newcomer.initiativeAdjustment);
  } else if (ini.sides[newcomer.side] !== undefined) {
    count = sideCount(newcomer, ini, options);
  }
  if (count === undefined) return { schedule };

  const d: Declaration = { ...decl, readied: false };
  const p: PlanInput = { round: schedule.round, combatRound: schedule.round, declarations: { [newcomer.id]: d }, placeOf: () => count, carryIn: [], phase: PHASE_INITIATIVE, options, rules: 0 };
  const casts: PendingCast[] = [];
  const items: Item[] = [];
  itemsFor(newcomer, d, count, p, casts, items);
  if (items.length === 0) return { schedule };
  const steps = schedule.steps;
  const current = steps[input.currentStep];
  if (current && compareStep(current, items[0]) > 0) return { schedule };

  // Each item joins the first step still to come at its phase and count, or
  // opens one at its place: a key between the steps around it (items come in
  // time order, so each is after the one before). Past the last step: after it.
  const played = Math.min(input.currentStep, steps.length - 1);
  const placed: Placed[] = [];
  let last = -Infinity;
  for (const it of items) {
    let at = Math.max(0, played + 1);
    while (at < steps.length && compareStep(steps[at], it) < 0) at++;
    const next = at < steps.length ? steps[at] : undefined;
    if (next && compareStep(next, it) === 0) it.key = next.key;
    else {
      const lo = Math.max(last, at > 0 ? steps[at - 1].key : -Infinity);
      it.key = next === undefined ? (lo === -Infinity ? 0 : lo + 1) : lo === -Infinity ? next.key - 1 : (lo + next.key) / 2;
    }
    last = it.key;
    const where: Where = it.phase === PHASE_INITIATIVE ? { phase: it.phase, count: it.count } : { phase: it.phase };
    for (const e of it.entries) placed.push({ key: it.key, where, entry: e });
  }
  const castings = casts.map((c) => plannedCasting(c, schedule.round));
  return { schedule: markChoosing(splice(schedule, played, placed, castings), casts) };
}

/* ============================================================= procedure */

export const d12AscendingProcedure: Procedure<D12AscendingOptions> = {
  id: 'd12-ascending',
  defaults: D12_DEFAULTS,
  optionSpecs: OPTION_SPECS,
  phases: PHASES,
  timing: 'counts',
  actions: ACTIONS,
  attackRules,
  movement,
  validateDeclaration,
  rollSurprise,
  planSurprise,
  rollCombatInitiative: () => ({}),
  rollInitiative,
  planRound,
  applyDamage,
  canAct: isActive,
  startingCondition,
  endOfRound,
  moraleProblem,
  moraleNow,
  // Seed 002, "Withdrawal Tactics and Effects of Failed Morale": "Surrender" is one of them (the GM's choice with the call).
  moraleSurrender: true,
  chooseSpell,
  lateJoin,
};
