/**
 * Procedure `segment-d6` (seed 000_4031a11650ac9447.txt).
 *
 * A one-minute round of ten six-second segments. Surprise is a d6 per side,
 * counted in segments; initiative is a d6 per side, and "each party acts in
 * the segment indicated by the other party's die roll". Spells begin in the
 * caster's initiative segment and go off when the casting time is complete;
 * further attack routines wait for the other side's segment.
 *
 * The sections below follow the order of the seed text:
 *   1. Determine Surprise
 *   2. Declare Spells and General Actions
 *   3. Determine Initiative (missile bonus, ties, attack routines, spells)
 * then what the text leaves implicit (damage and death, end of round, late
 * joiners). Choices where the text is silent: README.md, Rules notes.
 *
 * Time keys: [segment, sub], packed into one number (round kit). Entries with
 * equal keys are one simultaneous step. Within a segment: sub 0 = a weapon set
 * against a charge strikes the charger first; sub 1 = every action, the start
 * and the completion of castings; sub r (r >= 2) = attack routine r, after
 * everything else in that segment has been resolved; sub 15, in the last
 * surprise segment only = the end of the surprise (a spell fully cast in it).
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, Condition, Declaration, Problem } from '../model';
import { RulesError, SEGMENTS_PER_ROUND } from '../model';
import type { Casting, DamageResult, EndOfRoundInput, EndOfRoundResult, Encounter, InitiativeResult, LateJoinInput, LateJoinResult } from '../procedure';
import type { AttackRules, MidRoundQuery, MoraleCheckRequest, OptionSpec, Procedure, ProcedureOptions, ReleasePlan, RoundInput, Schedule, StepEntry, SurpriseResult } from '../procedure';
import { MORALE_METHODS, rulingMorale, type MoraleMethod } from '../morale-methods';
import { actsNow, commonDeclarationProblem, conditionByHp, copyState, fromIndex, goesOffAt, hpDamage, initialState, isActive, keyAt } from '../round';
import { makeSchedule, NEVER, pack, rollSideDice, RoundBuilder, RoundEnd, sideTimings, splice, targetsSelf, winnerOf } from '../round';
import type { Key, Placed, PlannedCasting, SideTimings, Where } from '../round';
import { holdSteps, release, stop } from '../flow/held';
import { d6SurpriseSegments, rollD6SideSurprise } from '../round/surprise';

/* ================================================================ options */

export interface SegmentD6Options extends ProcedureOptions {
  /**
   * "if a character has a missile weapon in hand, he or she applies his or
   * her missile attack bonus as a bonus to his or her initiative": a missile
   * action moves `missileBonus` segments earlier (a penalty, later).
   */
  missileInitiative: boolean;
  /**
   * "The GM may handle this situation [a tie] in any way he or she chooses":
   * 'simultaneous' (the text's default) or 'reroll' (tied sides roll again).
   */
  tieRule: 'simultaneous' | 'reroll';
  /** The seed is silent on death: 'zero' = dead at 0 hp; 'minus-ten' = unconscious at 0, dead at -10. */
  deathRule: 'zero' | 'minus-ten';
  /** With deathRule 'minus-ten': hit points an unconscious combatant below 0 loses at the end of each round (0 = none). */
  bleedPerRound: number;
  /**
   * "nor can a spell be fully cast unless it is a one-segment spell": a spell
   * whose casting time ends with the last surprise segment is fully cast in
   * the surprise and goes off at its end, before round 1's initiative. Off: it
   * carries into round 1 and goes off in segment 1 (the engine before this
   * option; absent from the options a combat started then froze, so its log
   * replays as it was).
   */
  fullyCastInSurprise: boolean;
  /** RULING (an option, on; the seeds give no range penalties): a missile's medium range −2, long range −5 to hit (rules/attack.ts RANGE_MODIFIERS). */
  rangeModifiers: boolean;
  /**
   * RULING (issue 28; the text gives no morale rule): how a morale check the GM calls is made, at once
   * (morale-methods.ts): 2d6, d100 or d20 at or under the score, or the GM's own result. A failure routs.
   * Absent from a combat started before it: a call is taken and nothing is checked (as then).
   */
  moraleMethod: MoraleMethod;
}

const DEFAULTS: SegmentD6Options = { missileInitiative: true, tieRule: 'simultaneous', deathRule: 'zero', bleedPerRound: 0, fullyCastInSurprise: true, rangeModifiers: true, moraleMethod: '2d6' };

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'missileInitiative', type: 'boolean' },
  { key: 'tieRule', type: 'choice', choices: ['simultaneous', 'reroll'] },
  { key: 'deathRule', type: 'choice', choices: ['zero', 'minus-ten'] },
  { key: 'bleedPerRound', type: 'number', min: 0, max: 10 },
  { key: 'fullyCastInSurprise', type: 'boolean' },
  { key: 'rangeModifiers', type: 'boolean' },
  { key: 'moraleMethod', type: 'choice', choices: MORALE_METHODS },
];

/* ============================================================ vocabulary */

const PHASE_SURPRISE = 'd6-surprise';
const PHASE_SEGMENT = 'd6-segment';

/** Sub-keys within a segment (see the file header). */
const SUB_INTERRUPT = 0;
const SUB_ACTION = 1;
/** After everything else of the last surprise segment: the end of the surprise, before round 1's initiative. */
const SUB_SURPRISE_END = 15;

/** A cap for attack routines per round and for surprise segments (bad data must not blow up a plan). */
export const MAX_ROUTINES = 10;
const MAX_SURPRISE = SEGMENTS_PER_ROUND;

/** Reasons: localization keys under TENSEG.Reason. */
export const REASON = {
  sideSegment: 'SegmentD6SideSegment',
  missileBonus: 'SegmentD6MissileBonus',
  laterRoutine: 'SegmentD6LaterRoutine',
  routineFollows: 'SegmentD6RoutineFollows',
  interrupt: 'SegmentD6Interrupt',
  holds: 'SegmentD6Holds',
  castBegins: 'SegmentD6CastBegins',
  castComplete: 'SegmentD6CastComplete',
  carried: 'SegmentD6Carried',
  surprise: 'SegmentD6Surprise',
  surpriseEnd: 'SegmentD6SurpriseEnd',
  released: 'SegmentD6Released',
} as const;

const ACTIONS: readonly ActionKind[] = [
  'melee', 'missile', 'spell', 'device', 'turn-undead', 'charge', 'flee', 'parley',
  'wait', 'set-vs-charge', 'consumable', 'throw', 'move', 'other', 'none',
];

/* ================================================================ helpers */

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** A whole number or 0 (bad stats never crash a plan). */
const intOr0 = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

const isCasting = (a: ActionKind) => a === 'spell' || a === 'device';
const isAttack = (a: ActionKind) => a === 'melee' || a === 'missile';

/** Attack routines this round: the declaration's, else the combatant's, else one (clamped). */
export function routinesOf(c: Combatant, d: Declaration): number {
  return isAttack(d.action) ? clamp(intOr0(d.routines ?? c.routines ?? 1), 1, MAX_ROUTINES) : 1;
}

const castingId = (round: number, combatant: string): string => `${combatant}@${round}`;

/** The time key of [segment, sub] (segments 0..10, subs 0..MAX_ROUTINES). */
const keyOf = (segment: number, sub: number): Key => pack(16, segment, sub);

/** The phase and segment of the steps, made once per segment and shared by every plan. */
const wheresOf = (phase: string): Where[] => Array.from({ length: SEGMENTS_PER_ROUND + 1 }, (_, segment) => ({ phase, segment }));
const WHERE_SURPRISE = wheresOf(PHASE_SURPRISE);
const WHERE_SEGMENT = wheresOf(PHASE_SEGMENT);
const whereOf = (table: Where[], segment: number): Where => table[segment] ?? { phase: table[0].phase, segment };

/** Receives the timed entries of a placement, in order (into a builder, or a list). */
type Emit = (segment: number, sub: number, entry: StepEntry) => void;

/** A step entry: who, what, why, at whom, then its `casting` or `routine` where it has one (every entry in this property order). */
type Extra = Pick<StepEntry, 'casting' | 'routine'>;
function entryOf(combatant: string, kind: StepEntry['kind'], action: ActionKind, reason: string, target: string | undefined, extra?: Extra): StepEntry {
  const entry: StepEntry = { combatant, kind, action, reason };
  if (target !== undefined) entry.target = target;
  if (extra) Object.assign(entry, extra);
  return entry;
}

/**
 * A spell or device begun in segment `begin`: its entries handed to `emit`,
 * and the casting, going off in segment `complete` or (null) running on with
 * `remaining` segments to go; with `atEnd`, it goes off after everything else
 * of segment `complete` (the end of the surprise). A device is never broken,
 * a spell from the first step of the segment it begins in.
 */
function beginCasting(
  c: Combatant, d: Declaration, round: number, T: number, begin: number, complete: number | null, remaining: number, emit: Emit, atEnd = false,
): PlannedCasting {
  const id = castingId(round, c.id);
  const sub = atEnd ? SUB_SURPRISE_END : SUB_ACTION;
  emit(begin, SUB_ACTION, entryOf(c.id, 'cast-begin', d.action, REASON.castBegins, d.target, { casting: id }));
  if (complete !== null) emit(complete, sub, entryOf(c.id, 'cast-complete', d.action, atEnd ? REASON.surpriseEnd : REASON.castComplete, d.target, { casting: id }));
  const device = d.action === 'device';
  const window = device ? 'never' : keyOf(begin, 0);
  return {
    id, caster: c.id, spell: d.spell ?? d.action, device, castingTime: T, beganRound: round,
    begin: keyOf(begin, SUB_ACTION), complete: complete === null ? null : keyOf(complete, sub),
    lossFrom: window, preventFrom: window, expends: !device, remaining,
  };
}

/**
 * "Some actions may allow the other side to 'interrupt' with an action such
 * as ... attacking charging opponents with spears set against a charge": a
 * charge planned this round (its segment, the charger and the charger's side).
 */
interface Charge {
  segment: number;
  charger: string;
  side: string | undefined;
}

/** The charges of a round, by charger and by target (whether a charge comes from an opponent is asked of its target). */
class Charges {
  private readonly byCharger = new Map<string, Charge>();
  private readonly byTarget = new Map<string, Charge[]>();

  add(charge: Charge, target: string | undefined): void {
    this.byCharger.set(charge.charger, charge);
    if (target === undefined) return;
    const aimed = this.byTarget.get(target);
    if (aimed) aimed.push(charge);
    else this.byTarget.set(target, [charge]);
  }

  /** The charge a combatant makes this round, if it does. */
  of(charger: string): Charge | undefined {
    return this.byCharger.get(charger);
  }

  /** The earliest charge aimed at `target` by an opponent (the first listed, on a tie). */
  against(target: Combatant): Charge | undefined {
    let earliest: Charge | undefined;
    for (const charge of this.byTarget.get(target.id) ?? []) {
      if (charge.side !== target.side && (!earliest || charge.segment < earliest.segment)) earliest = charge;
    }
    return earliest;
  }
}

/** The charge a weapon set against a charge meets: its target's, if an opponent charges, else the earliest aimed at it. */
function chargeAgainst(c: Combatant, d: Declaration, charges: Charges): Charge | undefined {
  const targetCharge = d.target !== undefined ? charges.of(d.target) : undefined;
  return targetCharge && targetCharge.side !== c.side ? targetCharge : charges.against(c);
}

/* ======================================================== 1. Determine Surprise */

/** A combatant's surprise segments, whole and within 0..10 (bad data counts as none). */
const surpriseCount = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? clamp(Math.round(v), 0, MAX_SURPRISE) : 0);

/**
 * "Each side rolls a d6. If the result is a 1, the group is surprised for one
 * segment ... a 2 ... two segments" — widened by a monster that "surprises on
 * 1-3"; alerted sides "will not need to make a surprise roll at all"; a
 * character's surprise bonus negates segments (a penalty creates them) only
 * where its side is surprised (README ruling).
 */
function rollSurprise(encounter: Encounter, dice: Dice): SurpriseResult {
  const rolls = rollD6SideSurprise(encounter, dice, 0);
  const raw = d6SurpriseSegments(encounter, rolls);
  const surprised: Record<string, number> = {};
  for (const c of encounter.combatants) surprised[c.id] = surpriseCount(raw[c.id]);
  return { rolls, surprised, unit: 'segments' };
}

/**
 * Surprise segments. "the unsurprised party may act for a number of
 * 'surprise' segments": segments k = 1..M, M the longest individual
 * surprise; in segment k every declared combatant whose own surprise count is
 * below k acts once ("Actions that would normally happen over the course of a
 * round may be completed in one surprise segment").
 *
 * Spells: "beginning a spell" is one of those actions, "nor can a spell be
 * fully cast unless it is a one-segment spell". A spell is begun once, in the
 * caster's first free segment k, and goes off at k + casting time (README
 * casting ruling) while that is a surprise segment. One whose casting time
 * ends with the last surprise segment (k + time = M + 1: a one-segment spell
 * begun in segment M) is fully cast in the surprise: it goes off at its end,
 * after everything else of segment M, before round 1's initiative. A longer
 * one cannot be fully cast in the surprise: it is begun, and carries into
 * round 1 with k + time − M segments left (going off in that segment of round 1).
 */
function planSurprise(encounter: Encounter, surprise: SurpriseResult, declarations: Record<string, Declaration>, options: SegmentD6Options): Schedule | null {
  const count = (c: Combatant): number => surpriseCount(surprise.surprised[c.id]);
  const M = encounter.combatants.reduce((m, c) => Math.max(m, count(c)), 0);
  if (M === 0) return null;

  const able = (c: Combatant) => isActive(initialState(c));
  // Charges: each charger moves in its first surprise segment.
  const charges = new Charges();
  for (const c of encounter.combatants) {
    const d = declarations[c.id];
    if (d && d.action === 'charge' && able(c) && count(c) < M) charges.add({ segment: count(c) + 1, charger: c.id, side: c.side }, d.target);
  }

  const b = new RoundBuilder('segment-d6', 0);
  let any = false;
  const emit: Emit = (segment, sub, entry) => b.add(keyOf(segment, sub), whereOf(WHERE_SURPRISE, segment), entry);
  for (const c of encounter.combatants) {
    const d = declarations[c.id];
    if (!d || d.action === 'none' || !able(c) || count(c) >= M) continue; // count >= M: surprised throughout
    const first = count(c) + 1;
    if (isCasting(d.action)) {
      const T = d.castingTime;
      if (typeof T !== 'number' || !Number.isInteger(T) || T < 1) continue;
      const end = first + T;
      if (end <= M) b.cast(beginCasting(c, d, 0, T, first, end, 0, emit));
      else if (end === M + 1 && options.fullyCastInSurprise === true) b.cast(beginCasting(c, d, 0, T, first, M, 0, emit, true));
      else b.cast(beginCasting(c, d, 0, T, first, null, end - M, emit));
    } else if (d.action === 'wait') emit(first, SUB_ACTION, entryOf(c.id, 'action', d.action, REASON.holds, d.target));
    else {
      // A weapon set against a charge strikes first from the segment a charge against it begins.
      const against = d.action === 'set-vs-charge' ? chargeAgainst(c, d, charges) : undefined;
      const extra = isAttack(d.action) ? { routine: 1 } : undefined;
      for (let k = first; k <= M; k++) {
        if (against && k >= against.segment) emit(k, SUB_INTERRUPT, entryOf(c.id, 'action', d.action, REASON.interrupt, against.charger, extra));
        else emit(k, SUB_ACTION, entryOf(c.id, 'action', d.action, REASON.surprise, d.target, extra));
      }
    }
    any = true;
  }
  return any ? b.build() : null;
}

/* =========================================== 2. Declare Spells and General Actions */

/**
 * "spell casters must state what spells (if any) they will be casting ...
 * Non-spell casters should also tell the GM, in general terms, what they will
 * be doing". Checked here: the common checks, a named spell, attack routines.
 */
function validateDeclaration(decl: Declaration, combatant: Combatant): Problem | null {
  const common = commonDeclarationProblem(decl, combatant, ACTIONS);
  if (common) return common;
  if (decl.action === 'spell' && (typeof decl.spell !== 'string' || decl.spell.trim() === '')) {
    return { key: 'SegmentD6SpellNotNamed', data: { name: combatant.name } };
  }
  const n = decl.routines ?? combatant.routines ?? 1;
  if (isAttack(decl.action) && (!Number.isInteger(n) || n < 1 || n > MAX_ROUTINES)) {
    return { key: 'SegmentD6RoutinesInvalid', data: { name: combatant.name, routines: String(n), max: MAX_ROUTINES } };
  }
  if (decl.action === 'missile' && combatant.missileBonus !== undefined && !Number.isInteger(combatant.missileBonus)) {
    return { key: 'NumberInvalid', data: { name: combatant.name, field: 'missileBonus' } };
  }
  if (targetsSelf(decl, combatant) && (isAttack(decl.action) || decl.action === 'charge' || decl.action === 'set-vs-charge')) {
    return { key: 'SegmentD6TargetSelf', data: { name: combatant.name } };
  }
  return null;
}

/* ======================================================= 3. Determine Initiative */

/**
 * "each side rolls initiative on a d6 ... the higher roll is the better roll".
 * Sides with no member able to act do not roll. Ties: simultaneous (the
 * text), or with tieRule 'reroll' the tied sides roll again (at most ten
 * times, and only while six faces can keep every side apart).
 */
function rollInitiative(encounter: Encounter, input: RoundInput, dice: Dice, options: SegmentD6Options): InitiativeResult {
  const round = input.round;
  const sides = rollSideDice(encounter, dice, { faces: 6, round }, (c) => isActive(input.states[c.id] ?? initialState(c)));
  const order = encounter.sides.map((s) => s.id).filter((id) => sides[id] !== undefined);
  if (options.tieRule === 'reroll' && order.length <= 6) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const seen = new Map<number, number>();
      for (const id of order) seen.set(sides[id], (seen.get(sides[id]) ?? 0) + 1);
      const tied = order.filter((id) => (seen.get(sides[id]) ?? 0) > 1);
      if (tied.length === 0) break;
      for (const id of tied) sides[id] = dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: id, round });
    }
  }
  return { round, sides, individuals: {}, winner: winnerOf(sides) };
}

/**
 * Who acts when, from the initiative dice. "each party acts in the segment
 * indicated by the other party's die roll"; with more than two sides, the
 * highest die of any opposing side (README ruling). A side with no opposing
 * die (nobody else rolled) acts in segment 1. Dice are read as whole segments
 * 1..10, a die that is not a number counting as 1.
 */
function timingOf(initiativeSides: Record<string, number>): SideTimings {
  const segments: Record<string, number> = {};
  for (const [id, v] of Object.entries(initiativeSides)) segments[id] = clamp(Math.round(Number.isFinite(v) ? v : 1), 1, SEGMENTS_PER_ROUND);
  return sideTimings(segments);
}

/** What placing one combatant needs to know about everybody else. */
interface RoundContext {
  round: number;
  options: SegmentD6Options;
  timing: SideTimings;
  charges: Charges;
}

/**
 * The segment of a combatant's declared action. "The dexterity bonus for
 * surprise is not added to an individual's initiative for melee attacks, but
 * if a character has a missile weapon in hand, he or she applies his or her
 * missile attack bonus as a bonus to his or her initiative" (never before 1,
 * never after 10: README ruling).
 */
function actionSegment(c: Combatant, d: Declaration, timing: SideTimings, options: SegmentD6Options): number {
  const s = timing.of(c.side).segment;
  const bonus = missileBonusOf(c, d, options);
  return bonus === 0 ? s : clamp(s - bonus, 1, SEGMENTS_PER_ROUND);
}

/** The missile bonus that moves this action (0 when none applies). */
function missileBonusOf(c: Combatant, d: Declaration, options: SegmentD6Options): number {
  return d.action === 'missile' && options.missileInitiative ? intOr0(c.missileBonus) : 0;
}

/**
 * Every entry of one combatant's declaration in a regular round, its action
 * segment S (actionSegment) given, handed to `emit` in order; returns the
 * casting it begins, if any.
 */
function placeInRound(c: Combatant, d: Declaration, S: number, ctx: RoundContext, emit: Emit): PlannedCasting | null {
  if (d.action === 'none') return null;
  const reason = missileBonusOf(c, d, ctx.options) !== 0 ? REASON.missileBonus : REASON.sideSegment;

  /*
   * "Note about spells: ... The spell caster does not actually begin casting
   * the spell until his or her initiative segment. That segment is the first
   * segment of the casting time. The spell does not 'go off' until the
   * casting has been completed." Ruling: it goes off in S + casting time;
   * damage in S .. S + time - 1 spoils it, damage before S does nothing.
   */
  if (isCasting(d.action)) {
    const T = d.castingTime;
    if (typeof T !== 'number' || !Number.isInteger(T) || T < 1) return null;
    const off = goesOffAt(S, T);
    const complete = off.round === 0 ? off.segment : null;
    return beginCasting(c, d, ctx.round, T, S, complete, complete === null ? S + T - SEGMENTS_PER_ROUND : 0, emit);
  }

  /*
   * "A creature or character with multiple attack routines cannot use the
   * second attack routine until after the other side's initiative segment
   * has been resolved": routine r >= 2 goes in the latest opposing segment
   * (or the combatant's own, if later), after everything else there.
   */
  if (isAttack(d.action)) {
    emit(S, SUB_ACTION, entryOf(c.id, 'action', d.action, reason, d.target, { routine: 1 }));
    const n = routinesOf(c, d);
    if (n < 2) return null;
    const opponents = ctx.timing.of(c.side).otherSegment;
    const later = Math.max(S, opponents);
    const why = opponents >= S ? REASON.laterRoutine : REASON.routineFollows;
    for (let r = 2; r <= n; r++) emit(later, r, entryOf(c.id, 'routine', d.action, why, d.target, { routine: r }));
    return null;
  }

  /*
   * "Some actions may allow the other side to 'interrupt' with an action such
   * as ... attacking charging opponents with spears set against a charge":
   * the set weapon strikes in the charger's segment, before the charger.
   */
  if (d.action === 'set-vs-charge') {
    const against = chargeAgainst(c, d, ctx.charges);
    if (against) emit(against.segment, SUB_INTERRUPT, entryOf(c.id, 'action', d.action, REASON.interrupt, against.charger));
    else emit(S, SUB_ACTION, entryOf(c.id, 'action', d.action, reason, d.target));
    return null;
  }

  /*
   * "some combatants might 'hold' (choose to delay) their actions, waiting to
   * act until these later segments": the entry marks where the hold begins;
   * when the held action is released is the player's choice, resolved by the GM.
   */
  if (d.action === 'wait') {
    emit(S, SUB_ACTION, entryOf(c.id, 'action', d.action, REASON.holds, d.target));
    return null;
  }

  emit(S, SUB_ACTION, entryOf(c.id, 'action', d.action, reason, d.target));
  return null;
}

/** The segment a casting carried in goes off in, or null when it carries on again. */
function carriedCompletion(c: Casting): number | null {
  const r = Math.max(1, Math.trunc(intOr0(c.remaining)) || 1);
  return r <= SEGMENTS_PER_ROUND ? r : null;
}

/**
 * The round: "Party with initiative acts first ... Party that lost initiative
 * acts ... the remaining four segments are still important because spells
 * may take effect during this time".
 */
function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: SegmentD6Options): Schedule {
  const round = input.round;
  const b = new RoundBuilder('segment-d6', round);
  const emit: Emit = (segment, sub, entry) => b.add(keyOf(segment, sub), whereOf(WHERE_SEGMENT, segment), entry);
  const timing = timingOf(initiative.sides);

  // Castings carried in go off at segment `remaining`, vulnerable from the
  // start of the round; their casters are busy until then. One that runs
  // through this round too: a spell can be broken from the start, a device
  // never (kept in its place among the round's castings).
  const busyUntil = new Map<string, number>();
  for (const c of input.carryIn) {
    const at = carriedCompletion(c);
    if (at === null) {
      const remaining = intOr0(c.remaining) - SEGMENTS_PER_ROUND;
      if (!c.device) b.carry({ ...c, remaining });
      else {
        const { id, caster, spell, device, castingTime, beganRound, expends } = c;
        b.cast({ id, caster, spell, device, castingTime, beganRound, begin: null, complete: null, lossFrom: 'never', preventFrom: 'never', expends, remaining });
      }
      busyUntil.set(c.caster, Infinity);
      continue;
    }
    b.carryIn(c, { key: keyOf(at, SUB_ACTION), where: whereOf(WHERE_SEGMENT, at), reason: REASON.carried });
    busyUntil.set(c.caster, Math.max(busyUntil.get(c.caster) ?? 0, at));
  }

  // The charges of the round: a weapon set against a charge is placed from them.
  const charges = new Charges();
  const ctx: RoundContext = { round, options, timing, charges };
  const place = (c: Combatant, d: Declaration, segment: number) => {
    const planned = placeInRound(c, d, segment, ctx, emit);
    if (planned) b.cast(planned);
  };

  // Who acts, placed in encounter order as they come, until the first weapon
  // set against a charge (the one placement that depends on others' charges):
  // it, and everyone after it, wait until every charge of the round is known.
  const waiting: { c: Combatant; d: Declaration; segment: number }[] = [];
  for (const c of encounter.combatants) {
    const d = input.declarations[c.id];
    if (!d || d.action === 'none') continue;
    if (!isActive(input.states[c.id] ?? initialState(c))) continue;
    const segment = actionSegment(c, d, timing, options);
    // A caster still casting acts only after the spell carried in went off.
    if (busyUntil.size > 0 && segment <= (busyUntil.get(c.id) ?? 0)) continue;
    if (d.action === 'charge') charges.add({ segment, charger: c.id, side: c.side }, d.target);
    if (waiting.length > 0 || d.action === 'set-vs-charge') waiting.push({ c, d, segment });
    else place(c, d, segment);
  }
  for (const w of waiting) place(w.c, w.d, w.segment);
  return b.build(initiative);
}

/* ==================================================== attacks out of the plan */

/**
 * "some combatants might 'hold' (choose to delay) their actions, waiting to
 * act until these later segments": a `wait` entry holds one attack for any
 * later moment of the round. "Some actions may allow the other side to
 * 'interrupt' with an action such as a fleeing attack": any opponent of a
 * combatant fleeing in this step may attack it, once per fleeing opponent a
 * round (the engine has no positions: the GM judges who is close enough); not
 * while surprised.
 */
const attackRules: AttackRules = {
  held: 'wait',
  outOfTurn(q) {
    const { attacker, target } = q;
    if (attacker.side === target.side || !actsNow(q, target.id, ['flee'])) return null;
    const data = { name: attacker.name, target: target.name };
    if (q.surprised) return { problem: { key: 'AttackerSurprised', data } };
    if (q.attacks.some((a) => a.c === attacker.id && a.target === target.id && a.as === 'fleeing-attack')) return { problem: { key: 'FleeingAttackTaken', data } };
    return { grant: 'fleeing-attack' };
  },
};

/**
 * The held action released (the flow's `release`, flow/midround.ts): "some
 * combatants might 'hold' (choose to delay) their actions, waiting to act
 * until these later segments". RULING: it becomes its action now, in the step
 * being played (the released entries join it): an attack, a missile, or the
 * start of a spell, which goes off at this segment + casting time (README
 * casting ruling; "That segment is the first segment of the casting time")
 * and can be spoiled from now until then; in the surprise segments it carries
 * into round 1 past the last of them, as a spell begun there does. Past
 * segment 10 it carries into the next round.
 */
function releaseHeld(encounter: Encounter, q: MidRoundQuery & { declaration: Declaration }, options: SegmentD6Options): ReleasePlan {
  const c = encounter.combatants.find((x) => x.id === q.combatant);
  if (!c) throw new RulesError({ key: 'UnknownCombatant', data: { id: q.combatant } });
  const now = q.schedule.steps[q.step];
  const d = q.declaration;
  const round = q.schedule.round;
  const S = now.segment ?? 1;
  const placed: Placed[] = [];
  const here = (entry: StepEntry) => placed.push({ key: now.key, where: now, entry });
  if (!isCasting(d.action)) {
    here(entryOf(c.id, 'action', d.action, REASON.released, d.target, isAttack(d.action) ? { routine: 1 } : undefined));
    return { placed, castings: [] };
  }
  const T = d.castingTime as number; // validated: integer 1..100
  const surprise = round === 0;
  const last = surprise ? Math.max(0, ...Object.values(q.round.surprise?.surprised ?? {}).map(surpriseCount)) : SEGMENTS_PER_ROUND;
  const end = S + T;
  // As a spell begun in the surprise (planSurprise): one that ends with the last surprise segment goes off at its end.
  const atEnd = surprise && end === last + 1 && options.fullyCastInSurprise === true;
  const complete = end <= last ? end : atEnd ? last : null;
  const table = surprise ? WHERE_SURPRISE : WHERE_SEGMENT;
  const emit: Emit = (segment, sub, entry) => {
    if (entry.kind === 'cast-begin') here({ ...entry, reason: REASON.released });
    else placed.push({ key: keyOf(segment, sub), where: whereOf(table, segment), entry });
  };
  const casting = beginCasting(c, d, round, T, S, complete, complete === null ? end - last : 0, emit, atEnd);
  const window = casting.device ? 'never' : 'next';
  return { placed, castings: [{ ...casting, begin: now.key, lossFrom: window, preventFrom: window }] };
}

/**
 * Where an empty step of a segment goes (flow/held.ts): the GM stopping there
 * for a held action, or a hold set to "release at segment N". The round's
 * segments are 1–10; the surprise's, up to the last surprise segment.
 */
function segmentStep(_encounter: Encounter, q: { schedule: Schedule; surprise: SurpriseResult }, segment: number): { key: Key; where: Where } | null {
  const surprise = q.schedule.round === 0;
  const last = surprise ? Math.max(0, ...Object.values(q.surprise?.surprised ?? {}).map(surpriseCount)) : SEGMENTS_PER_ROUND;
  if (segment < 1 || segment > last) return null;
  return { key: keyOf(segment, SUB_ACTION), where: whereOf(surprise ? WHERE_SURPRISE : WHERE_SEGMENT, segment) };
}

/* =================================================== damage, death, end of round */

const thresholdsOf = (options: SegmentD6Options) => (options.deathRule === 'minus-ten' ? { incapacitatedAt: 0, deathAt: -10 } : { incapacitatedAt: 0, deathAt: 0 });

/**
 * A combatant entering the combat at 0 hp or below is as damage would leave
 * it: dead by default, unconscious from 0 to -9 with deathRule 'minus-ten'.
 */
function startingCondition(c: Combatant, options: SegmentD6Options): Condition {
  return conditionByHp(c.hp, thresholdsOf(options), 'incapacitated');
}

/**
 * "a goblin killed in the first segment of the round will be dead (and thus
 * unable to attack) by the time the fifth segment of the round arrives".
 * The seed does not say when a combatant dies: dead at 0 hp by default, or
 * unconscious at 0 and dead at -10 (deathRule 'minus-ten').
 */
function applyDamage(state: CombatantState, amount: number, options: SegmentD6Options): DamageResult {
  const amt = typeof amount === 'number' && Number.isFinite(amount) ? amount : 0;
  const thresholds = thresholdsOf(options);
  const result = hpDamage(state, amt, thresholds);
  let condition = result.state.condition;
  // No bleeding in this procedure: below 0 is unconscious, not dying.
  if (condition === 'dying') condition = 'incapacitated';
  if (amt < 0 && condition === 'incapacitated' && result.state.hp > thresholds.incapacitatedAt) condition = 'ok';
  return { state: { ...result.state, condition }, wounds: Math.max(0, amt) };
}

/**
 * "The round is complete": the seed has nothing at its end but the dead. With
 * deathRule 'minus-ten' a table may add bleeding (bleedPerRound): an
 * unconscious combatant below 0 hp loses that much and dies at -10. Bleeding,
 * then deaths, in encounter order; a death is reported only for one who was
 * not dead when the round began.
 */
function endOfRound(encounter: Encounter, input: EndOfRoundInput, options: SegmentD6Options): EndOfRoundResult {
  const bleed = options.deathRule === 'minus-ten' && options.bleedPerRound > 0 ? Math.trunc(options.bleedPerRound) : 0;
  const bleeds = (s: CombatantState) => bleed > 0 && s.condition === 'incapacitated' && s.hp < 0;
  const end = new RoundEnd(input);
  // Most rounds: nobody to report, and the states pass through unchanged
  // (never mutated); otherwise every state returned is a copy of its own.
  const ids = Object.keys(input.after);
  if (!ids.some((id) => bleeds(input.after[id]) || end.diedThisRound(id))) return end.result();
  for (const id of ids) end.set(id, copyState(input.after[id]));
  for (const c of encounter.combatants) {
    const state = end.states[c.id];
    if (!state) continue;
    if (bleeds(state)) {
      state.hp -= bleed;
      if (state.hp <= -10) state.condition = 'dead';
      end.events.push({ kind: 'bleed', combatant: c.id, amount: bleed });
    }
    if (end.diedThisRound(c.id)) end.death(c.id);
  }
  return end.result();
}

/* ============================================================== late joiners */

/**
 * A newcomer acts with its side if its side's segment has not yet come this
 * round (every moment it would be placed at is still to come); otherwise it
 * acts from the next round on.
 */
function lateJoin(encounter: Encounter, newcomer: Combatant, input: LateJoinInput, options: SegmentD6Options): LateJoinResult {
  const { schedule, declaration } = input;
  if (!declaration || schedule.round < 1 || !schedule.initiative) return { schedule };
  if (validateDeclaration(declaration, newcomer) !== null) return { schedule };

  // Charges already planned this round, read from the schedule.
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const sideOf = (id: string) => byId.get(id)?.side ?? (id === newcomer.id ? newcomer.side : undefined);
  const charges = new Charges();
  for (const { segment, entries } of schedule.steps) {
    for (const e of entries) if (e.action === 'charge' && e.kind === 'action' && segment !== undefined) charges.add({ segment, charger: e.combatant, side: sideOf(e.combatant) }, e.target);
  }
  const ctx: RoundContext = { round: schedule.round, options, timing: timingOf(schedule.initiative.sides), charges };
  const placed: Placed[] = [];
  const S = actionSegment(newcomer, declaration, ctx.timing, options);
  const planned = placeInRound(newcomer, declaration, S, ctx, (segment, sub, entry) =>
    placed.push({ key: keyOf(segment, sub), where: whereOf(WHERE_SEGMENT, segment), entry }),
  );
  if (placed.length === 0) return { schedule };
  const current = Math.min(input.currentStep, schedule.steps.length - 1);
  const earliest = placed.reduce((m, p) => Math.min(m, p.key), Infinity);
  if (earliest <= keyAt(schedule, current)) return { schedule }; // its segment has come: next round
  return { schedule: spellWindows(splice(schedule, current, placed, planned ? [planned] : [])) };
}

/**
 * The windows of a round's castings read again from its steps, as planRound
 * places them: a spell begun this round can be spoiled from the first step of
 * the segment it begins in (a newcomer may have opened one before it: a
 * weapon set against a charge), one carried in from the start of the round,
 * a device never.
 */
function spellWindows(schedule: Schedule): Schedule {
  const keys = schedule.steps.map((s) => s.key);
  const from = (c: Casting, window: number): number =>
    window >= NEVER ? NEVER : c.beginStep < 0 ? 0 : fromIndex(keyOf(schedule.steps[c.beginStep].segment ?? 0, 0), keys);
  const castings = schedule.castings.map((c) => ({ ...c, lossFrom: from(c, c.lossFrom), preventFrom: from(c, c.preventFrom) }));
  return makeSchedule(schedule.procedure, schedule.round, schedule.steps, castings, schedule.initiative);
}

/* ============================================================ morale (a ruling) */

/** The GM's calls checked at once by `moraleMethod` (2d6 by default): morale-methods.ts. */
const { moraleProblem, moraleNow } = rulingMorale<SegmentD6Options>('2d6');

/* =============================================================== the procedure */

/*
 * Movement on the map: the text sets no movement rate and no attack for moving, so no `movement` rules: a move
 * during the round (the `moved` input, flow/moved.ts) is the GM's, recorded only.
 */
export const segmentD6Procedure: Procedure<SegmentD6Options> = {
  id: 'segment-d6',
  defaults: DEFAULTS,
  optionSpecs: OPTION_SPECS,
  phases: [PHASE_SURPRISE, PHASE_SEGMENT],
  timing: 'segments',
  actions: ACTIONS,
  attackRules,

  validateDeclaration,
  rollSurprise,
  planSurprise,
  rollCombatInitiative: () => ({}),
  rollInitiative,
  planRound,
  applyDamage: (_combatant, state, amount, options) => applyDamage(state, amount, options),
  canAct: isActive,
  startingCondition,
  endOfRound: (encounter, input, _dice, options) => endOfRound(encounter, input, options),
  moraleProblem,
  moraleNow,
  lateJoin: (encounter, newcomer, input, _dice, options) => lateJoin(encounter, newcomer, input, options),
  releaseHeld: (encounter, query, options) => releaseHeld(encounter, query, options),
  segmentStep,
  flowInputs: { release, stop, holdSteps },
};
