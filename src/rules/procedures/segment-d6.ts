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
 * Time keys: [segment, sub]. Entries with equal keys are one simultaneous
 * step. Within a segment: sub 0 = a weapon set against a charge strikes the
 * charger first; sub 1 = every action, the start and the completion of
 * castings; sub r (r >= 2) = attack routine r, after everything else in
 * that segment has been resolved.
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, Declaration, Problem } from '../model';
import { SEGMENTS_PER_ROUND } from '../model';
import type {
  Casting,
  DamageResult,
  EndEvent,
  EndOfRoundInput,
  EndOfRoundResult,
  Encounter,
  InitiativeResult,
  LateJoinInput,
  LateJoinResult,
  OptionSpec,
  Procedure,
  ProcedureOptions,
  RoundInput,
  Schedule,
  StepEntry,
  SurpriseResult,
} from '../procedure';
import {
  commonDeclarationProblem,
  compareKeys,
  d6SurpriseSegments,
  goesOffAt,
  hpDamage,
  initialState,
  NEVER,
  rollD6SideSurprise,
  ScheduleBuilder,
  type TimeKey,
  copyState,
} from '../common';

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
}

const DEFAULTS: SegmentD6Options = {
  missileInitiative: true,
  tieRule: 'simultaneous',
  deathRule: 'zero',
  bleedPerRound: 0,
};

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'missileInitiative', type: 'boolean' },
  { key: 'tieRule', type: 'choice', choices: ['simultaneous', 'reroll'] },
  { key: 'deathRule', type: 'choice', choices: ['zero', 'minus-ten'] },
  { key: 'bleedPerRound', type: 'number', min: 0, max: 10 },
];

/* ============================================================ vocabulary */

const PHASE_SURPRISE = 'd6-surprise';
const PHASE_SEGMENT = 'd6-segment';

/** Sub-keys within a segment (see the file header). */
const SUB_INTERRUPT = 0;
const SUB_ACTION = 1;

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
} as const;

const ACTIONS: readonly ActionKind[] = [
  'melee',
  'missile',
  'spell',
  'device',
  'turn-undead',
  'charge',
  'flee',
  'parley',
  'wait',
  'set-vs-charge',
  'consumable',
  'throw',
  'move',
  'other',
  'none',
];

/* ================================================================ helpers */

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** A whole number or 0 (bad stats never crash a plan). */
const intOr0 = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

const isCasting = (a: ActionKind) => a === 'spell' || a === 'device';
const isAttack = (a: ActionKind) => a === 'melee' || a === 'missile';

function canActState(state: CombatantState): boolean {
  return state.condition === 'ok';
}

/** Attack routines this round: the declaration's, else the combatant's, else one (clamped). */
export function routinesOf(c: Combatant, d: Declaration): number {
  if (!isAttack(d.action)) return 1;
  const n = Math.trunc(intOr0(d.routines ?? c.routines ?? 1));
  return clamp(n, 1, MAX_ROUTINES);
}

function castingId(round: number, combatant: string): string {
  return `${combatant}@${round}`;
}

/**
 * The largest value in a map and how to get "the largest value of every
 * other key" in O(1): top value, its holder, how many hold it, runner-up.
 */
class MaxOfOthers {
  private top = -Infinity;
  private topId: string | null = null;
  private topCount = 0;
  private second = -Infinity;
  private size = 0;
  /** Counts the value `v` held by key `id`. */
  add(id: string, v: number): void {
    this.size += 1;
    if (v > this.top) {
      this.second = this.top;
      this.top = v;
      this.topId = id;
      this.topCount = 1;
    } else if (v === this.top) {
      this.topCount += 1;
      this.second = v;
    } else if (v > this.second) this.second = v;
  }
  /** The largest value held by a key other than `id`, or undefined when there is none. */
  others(id: string): number | undefined {
    if (this.size === 0) return undefined;
    if (id === this.topId && this.topCount === 1) return this.size > 1 ? this.second : undefined;
    return this.top;
  }
}

/** One timed entry of a placement: its key, its step's segment and what happens. */
interface Placed {
  key: TimeKey;
  segment: number;
  entry: StepEntry;
}

/** Receives the timed entries of a placement, in order (into a schedule, or a list). */
type Emit = (segment: number, sub: number, entry: StepEntry) => void;

type PendingCasting = Parameters<ScheduleBuilder['addCasting']>[0];

/**
 * The time keys a plan uses, and the phase and segment of their steps, are
 * few (segments 0..10, subs 0..MAX_ROUTINES): made once and shared by every
 * plan rather than allocated per entry (the keys frozen: they are read-only
 * to everyone who receives them).
 */
const KEYS: TimeKey[][] = Array.from({ length: SEGMENTS_PER_ROUND + 1 }, (_, segment) =>
  Array.from({ length: MAX_ROUTINES + 1 }, (_, sub) => Object.freeze([segment, sub])),
);

function timeKey(segment: number, sub: number): TimeKey {
  return KEYS[segment]?.[sub] ?? [segment, sub];
}

type Where = { phase: string; segment: number };
const wheresOf = (phase: string): Where[] => Array.from({ length: SEGMENTS_PER_ROUND + 1 }, (_, segment) => ({ phase, segment }));
const WHERE_SURPRISE = wheresOf(PHASE_SURPRISE);
const WHERE_SEGMENT = wheresOf(PHASE_SEGMENT);

function whereOf(table: Where[], segment: number): Where {
  return table[segment] ?? { phase: table[0].phase, segment };
}

/**
 * A step entry: who, what, why, and at whom. Every entry is built in this
 * property order, then `casting` or `routine` where it has one.
 */
function entryOf(combatant: string, kind: StepEntry['kind'], action: ActionKind, reason: string, target: string | undefined): StepEntry {
  const entry: StepEntry = { combatant, kind, action, reason };
  if (target !== undefined) entry.target = target;
  return entry;
}

/* ======================================================== 1. Determine Surprise */

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
  for (const c of encounter.combatants) {
    const v = raw[c.id];
    surprised[c.id] = typeof v === 'number' && Number.isFinite(v) ? clamp(Math.round(v), 0, MAX_SURPRISE) : 0;
  }
  return { rolls, surprised, unit: 'segments' };
}

/**
 * Surprise segments. "the unsurprised party may act for a number of
 * 'surprise' segments": segments k = 1..M, M the longest individual
 * surprise; in segment k every declared combatant whose own surprise count is
 * below k acts once ("Actions that would normally happen over the course of a
 * round may be completed in one surprise segment"). A spell is begun once
 * ("nor can a spell be fully cast unless it is a one-segment spell") and goes
 * off at k + casting time, carrying into round 1 when that is past M.
 */
function planSurprise(
  encounter: Encounter,
  surprise: SurpriseResult,
  declarations: Record<string, Declaration>,
): Schedule | null {
  const count = (c: Combatant): number => {
    const v = surprise.surprised[c.id];
    return typeof v === 'number' && Number.isFinite(v) ? clamp(Math.round(v), 0, MAX_SURPRISE) : 0;
  };
  let M = 0;
  for (const c of encounter.combatants) M = Math.max(M, count(c));
  if (M === 0) return null;

  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const able = (c: Combatant) => canActState(initialState(c));

  // Charges: the first surprise segment in which each charger moves, and the
  // earliest charge aimed at each combatant (for weapons set against a charge).
  const chargeFirst = new Map<string, number>();
  const chargedAt = new Map<string, { segment: number; charger: string }>();
  for (const c of encounter.combatants) {
    const d = declarations[c.id];
    if (!d || d.action !== 'charge' || !able(c) || count(c) >= M) continue;
    const first = count(c) + 1;
    chargeFirst.set(c.id, first);
    const t = d.target !== undefined ? byId.get(d.target) : undefined;
    if (t && t.side !== c.side) {
      const prev = chargedAt.get(t.id);
      if (!prev || first < prev.segment) chargedAt.set(t.id, { segment: first, charger: c.id });
    }
  }

  const b = new ScheduleBuilder('segment-d6', 0);
  let any = false;
  const add = (segment: number, sub: number, entry: StepEntry) => b.add(timeKey(segment, sub), whereOf(WHERE_SURPRISE, segment), entry);
  for (const c of encounter.combatants) {
    const d = declarations[c.id];
    if (!d || d.action === 'none' || !able(c)) continue;
    const own = count(c);
    if (own >= M) continue; // surprised throughout
    const first = own + 1;

    if (isCasting(d.action)) {
      const T = d.castingTime;
      if (typeof T !== 'number' || !Number.isInteger(T) || T < 1) continue;
      const id = castingId(0, c.id);
      const device = d.action === 'device';
      const begin = entryOf(c.id, 'cast-begin', d.action, REASON.castBegins, d.target);
      begin.casting = id;
      add(first, SUB_ACTION, begin);
      const end = first + T;
      const completes = end <= M;
      if (completes) {
        const complete = entryOf(c.id, 'cast-complete', d.action, REASON.castComplete, d.target);
        complete.casting = id;
        add(end, SUB_ACTION, complete);
      }
      b.addCasting({
        id,
        caster: c.id,
        spell: d.spell ?? d.action,
        device,
        castingTime: T,
        beganRound: 0,
        begin: timeKey(first, SUB_ACTION),
        complete: completes ? timeKey(end, SUB_ACTION) : null,
        lossFrom: device ? 'never' : [first],
        preventFrom: device ? 'never' : [first],
        expends: !device,
        remaining: completes ? 0 : end - M,
      });
      any = true;
      continue;
    }
    if (d.action === 'wait') {
      add(first, SUB_ACTION, entryOf(c.id, 'action', d.action, REASON.holds, d.target));
      any = true;
      continue;
    }
    // A weapon set against a charge strikes first from the segment a charge against it begins.
    let setFrom = Infinity;
    let charger: string | undefined;
    if (d.action === 'set-vs-charge') {
      const t = d.target !== undefined ? byId.get(d.target) : undefined;
      const targetFirst = t && t.side !== c.side ? chargeFirst.get(t.id) : undefined;
      if (targetFirst !== undefined) {
        setFrom = targetFirst;
        charger = t!.id;
      } else {
        const against = chargedAt.get(c.id);
        if (against) {
          setFrom = against.segment;
          charger = against.charger;
        }
      }
    }
    for (let k = first; k <= M; k++) {
      const interrupts = k >= setFrom;
      const entry = interrupts
        ? entryOf(c.id, 'action', d.action, REASON.interrupt, charger ?? d.target)
        : entryOf(c.id, 'action', d.action, REASON.surprise, d.target);
      if (isAttack(d.action)) entry.routine = 1;
      add(k, interrupts ? SUB_INTERRUPT : SUB_ACTION, entry);
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
  if (isAttack(decl.action)) {
    const n = decl.routines ?? combatant.routines ?? 1;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_ROUTINES) {
      return { key: 'SegmentD6RoutinesInvalid', data: { name: combatant.name, routines: String(n), max: MAX_ROUTINES } };
    }
  }
  if (decl.action === 'missile' && combatant.missileBonus !== undefined) {
    const m = combatant.missileBonus;
    if (typeof m !== 'number' || !Number.isInteger(m)) {
      return { key: 'NumberInvalid', data: { name: combatant.name, field: 'missileBonus' } };
    }
  }
  if (decl.target !== undefined && decl.target === combatant.id && (isAttack(decl.action) || decl.action === 'charge' || decl.action === 'set-vs-charge')) {
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
  // Sides still looking for a member able to act; the scan stops once every side has one.
  const unable = new Set<string>();
  for (const s of encounter.sides) unable.add(s.id);
  for (const c of encounter.combatants) {
    if (unable.size === 0) break;
    if (!unable.has(c.side)) continue;
    const state = input.states[c.id] ?? initialState(c);
    if (canActState(state)) unable.delete(c.side);
  }
  const sides: Record<string, number> = {};
  const order: string[] = [];
  for (const s of encounter.sides) if (!unable.has(s.id)) order.push(s.id);
  for (const id of order) sides[id] = dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: id, round });
  if (options.tieRule === 'reroll' && order.length <= 6) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const seen = new Map<number, number>();
      for (const id of order) seen.set(sides[id], (seen.get(sides[id]) ?? 0) + 1);
      const tied = order.filter((id) => (seen.get(sides[id]) ?? 0) > 1);
      if (tied.length === 0) break;
      for (const id of tied) sides[id] = dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: id, round });
    }
  }
  let winner: string | null = null;
  let best = -Infinity;
  let bestCount = 0;
  for (const id of order) {
    if (sides[id] > best) {
      best = sides[id];
      winner = id;
      bestCount = 1;
    } else if (sides[id] === best) bestCount += 1;
  }
  return { round, sides, individuals: {}, winner: bestCount === 1 ? winner : null };
}

/**
 * Who acts when, from the initiative dice. "each party acts in the segment
 * indicated by the other party's die roll"; with more than two sides, the
 * highest die of any opposing side (README ruling). A side with no opposing
 * die (nobody else rolled) acts in segment 1.
 */
export interface SideTiming {
  /** The segment a side acts in. */
  segment(side: string): number;
  /** The latest segment of any opposing side that rolled (for further attack routines). */
  opponentsDone(side: string): number;
}

export function sideTiming(initiativeSides: Record<string, number>): SideTiming {
  const ids = Object.keys(initiativeSides);
  const byDie = new MaxOfOthers();
  for (const id of ids) {
    const v = initiativeSides[id];
    byDie.add(id, clamp(Math.round(Number.isFinite(v) ? v : 1), 1, SEGMENTS_PER_ROUND));
  }
  const segment = (side: string) => byDie.others(side) ?? 1;
  const bySegment = new MaxOfOthers();
  for (const id of ids) bySegment.add(id, segment(id));
  return { segment, opponentsDone: (side) => bySegment.others(side) ?? segment(side) };
}

/** What placing one combatant needs to know about everybody else. */
interface RoundContext {
  round: number;
  options: SegmentD6Options;
  timing: SideTiming;
  /** The charge a combatant makes this round, if it does: its segment and the charger's side. */
  chargeBy(id: string): { segment: number; side: string | undefined } | undefined;
  /** The earliest charge aimed at a combatant by an opponent. */
  chargedAt(target: Combatant): { segment: number; charger: string } | undefined;
}

/** A charge planned this round. */
interface Charge {
  segment: number;
  charger: string;
  side: string;
}

/** The earliest of the charges aimed at `target` that come from another side (the first listed, on a tie). */
function earliestOpposing(charges: readonly Charge[] | undefined, target: Combatant): Charge | undefined {
  let earliest: Charge | undefined;
  for (const charge of charges ?? []) {
    if (charge.side !== target.side && (!earliest || charge.segment < earliest.segment)) earliest = charge;
  }
  return earliest;
}

/**
 * The segment of a combatant's declared action. "The dexterity bonus for
 * surprise is not added to an individual's initiative for melee attacks, but
 * if a character has a missile weapon in hand, he or she applies his or her
 * missile attack bonus as a bonus to his or her initiative" (never before 1,
 * never after 10: README ruling).
 */
function actionSegment(c: Combatant, d: Declaration, timing: SideTiming, options: SegmentD6Options): number {
  const s = timing.segment(c.side);
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
function placeInRound(c: Combatant, d: Declaration, S: number, ctx: RoundContext, emit: Emit): PendingCasting | null {
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
    const id = castingId(ctx.round, c.id);
    const device = d.action === 'device';
    const begin = entryOf(c.id, 'cast-begin', d.action, REASON.castBegins, d.target);
    begin.casting = id;
    emit(S, SUB_ACTION, begin);
    const off = goesOffAt(S, T);
    const completes = off.round === 0;
    if (completes) {
      const complete = entryOf(c.id, 'cast-complete', d.action, REASON.castComplete, d.target);
      complete.casting = id;
      emit(off.segment, SUB_ACTION, complete);
    }
    return {
      id,
      caster: c.id,
      spell: d.spell ?? d.action,
      device,
      castingTime: T,
      beganRound: ctx.round,
      begin: timeKey(S, SUB_ACTION),
      complete: completes ? timeKey(off.segment, SUB_ACTION) : null,
      // Devices are never interrupted (procedure.ts); spells from their first segment.
      lossFrom: device ? 'never' : [S],
      preventFrom: device ? 'never' : [S],
      expends: !device,
      remaining: completes ? 0 : S + T - SEGMENTS_PER_ROUND,
    };
  }

  /*
   * "A creature or character with multiple attack routines cannot use the
   * second attack routine until after the other side's initiative segment
   * has been resolved": routine r >= 2 goes in the latest opposing segment
   * (or the combatant's own, if later), after everything else there.
   */
  if (isAttack(d.action)) {
    const first = entryOf(c.id, 'action', d.action, reason, d.target);
    first.routine = 1;
    emit(S, SUB_ACTION, first);
    const n = routinesOf(c, d);
    if (n < 2) return null;
    const opponents = ctx.timing.opponentsDone(c.side);
    const later = Math.max(S, opponents);
    const why = opponents >= S ? REASON.laterRoutine : REASON.routineFollows;
    for (let r = 2; r <= n; r++) {
      const routine = entryOf(c.id, 'routine', d.action, why, d.target);
      routine.routine = r;
      emit(later, r, routine);
    }
    return null;
  }

  /*
   * "Some actions may allow the other side to 'interrupt' with an action such
   * as ... attacking charging opponents with spears set against a charge":
   * the set weapon strikes in the charger's segment, before the charger.
   */
  if (d.action === 'set-vs-charge') {
    const targetCharge = d.target !== undefined ? ctx.chargeBy(d.target) : undefined;
    const against =
      targetCharge !== undefined && targetCharge.side !== c.side
        ? { segment: targetCharge.segment, charger: d.target as string }
        : ctx.chargedAt(c);
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
  const b = new ScheduleBuilder('segment-d6', round);
  const emit: Emit = (segment, sub, entry) => b.add(timeKey(segment, sub), whereOf(WHERE_SEGMENT, segment), entry);
  const timing = sideTiming(initiative.sides);

  // Castings carried in go off at segment `remaining`, vulnerable from the
  // start of the round; their casters are busy until then.
  const busyUntil = new Map<string, number>();
  for (const c of input.carryIn) {
    const at = carriedCompletion(c);
    if (at === null) {
      const carried: Casting = { ...c, remaining: intOr0(c.remaining) - SEGMENTS_PER_ROUND };
      if (c.device) b.addCasting({ ...pendingOf(carried), begin: null, complete: null, lossFrom: 'never', preventFrom: 'never' });
      else b.addCarry(carried);
      busyUntil.set(c.caster, Infinity);
      continue;
    }
    emit(at, SUB_ACTION, {
      combatant: c.caster,
      kind: 'cast-complete',
      action: c.device ? 'device' : 'spell',
      casting: c.id,
      reason: REASON.carried,
    });
    b.addCasting({
      ...pendingOf(c),
      begin: null,
      complete: timeKey(at, SUB_ACTION),
      lossFrom: c.device ? 'never' : 'start',
      preventFrom: c.device ? 'never' : 'start',
      remaining: 0,
    });
    busyUntil.set(c.caster, Math.max(busyUntil.get(c.caster) ?? 0, at));
  }

  // The charges of the round, by charger and by target (whether a charge
  // comes from an opponent is asked of its target): a weapon set against a
  // charge is placed from them.
  const chargesBy = new Map<string, Charge>();
  const chargesAt = new Map<string, Charge[]>();
  const ctx: RoundContext = {
    round,
    options,
    timing,
    chargeBy: (id) => chargesBy.get(id),
    chargedAt: (target) => earliestOpposing(chargesAt.get(target.id), target),
  };
  const place = (c: Combatant, d: Declaration, segment: number) => {
    const casting = placeInRound(c, d, segment, ctx, emit);
    if (casting) b.addCasting(casting);
  };

  // Who acts, placed in encounter order as they come, until the first weapon
  // set against a charge (the one placement that depends on others' charges):
  // it, and everyone after it, wait until every charge of the round is known.
  const waiting: Combatant[] = [];
  const waitingDeclarations: Declaration[] = [];
  const waitingSegments: number[] = [];
  for (const c of encounter.combatants) {
    const d = input.declarations[c.id];
    if (!d || d.action === 'none') continue;
    if (!canActState(input.states[c.id] ?? initialState(c))) continue;
    const segment = actionSegment(c, d, timing, options);
    // A caster still casting acts only after the spell carried in went off.
    if (busyUntil.size > 0 && segment <= (busyUntil.get(c.id) ?? 0)) continue;
    if (d.action === 'charge') {
      const charge: Charge = { segment, charger: c.id, side: c.side };
      chargesBy.set(c.id, charge);
      if (d.target !== undefined) {
        const aimed = chargesAt.get(d.target);
        if (aimed) aimed.push(charge);
        else chargesAt.set(d.target, [charge]);
      }
    }
    if (waiting.length > 0 || d.action === 'set-vs-charge') {
      waiting.push(c);
      waitingDeclarations.push(d);
      waitingSegments.push(segment);
    } else place(c, d, segment);
  }
  for (let i = 0; i < waiting.length; i++) place(waiting[i], waitingDeclarations[i], waitingSegments[i]);
  return b.build(initiative);
}

function pendingOf(c: Casting): PendingCasting {
  return {
    id: c.id,
    caster: c.caster,
    spell: c.spell,
    device: c.device,
    castingTime: c.castingTime,
    beganRound: c.beganRound,
    begin: null,
    complete: null,
    lossFrom: 'start',
    preventFrom: 'start',
    expends: c.expends,
    remaining: c.remaining,
  };
}

/* =================================================== damage, death, end of round */

/**
 * "a goblin killed in the first segment of the round will be dead (and thus
 * unable to attack) by the time the fifth segment of the round arrives".
 * The seed does not say when a combatant dies: dead at 0 hp by default, or
 * unconscious at 0 and dead at -10 (deathRule 'minus-ten').
 */
function applyDamage(state: CombatantState, amount: number, options: SegmentD6Options): DamageResult {
  const amt = typeof amount === 'number' && Number.isFinite(amount) ? amount : 0;
  const thresholds = options.deathRule === 'minus-ten' ? { incapacitatedAt: 0, deathAt: -10 } : { incapacitatedAt: 0, deathAt: 0 };
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
 * unconscious combatant below 0 hp loses that much and dies at -10.
 */
function endOfRound(encounter: Encounter, input: EndOfRoundInput, options: SegmentD6Options): EndOfRoundResult {
  const bleed = options.deathRule === 'minus-ten' && options.bleedPerRound > 0 ? Math.trunc(options.bleedPerRound) : 0;
  let anyChange = false;
  for (const id of Object.keys(input.after)) {
    const s = input.after[id];
    if ((bleed > 0 && s.condition === 'incapacitated' && s.hp < 0) || (s.condition === 'dead' && input.before[id]?.condition !== 'dead')) {
      anyChange = true;
      break;
    }
  }
  const events: EndEvent[] = [];
  // Most rounds: nobody to report, and the states pass through unchanged (never mutated).
  if (!anyChange) return { states: input.after, events };
  const states: Record<string, CombatantState> = {};
  for (const id of Object.keys(input.after)) states[id] = copyState(input.after[id]);
  // Bleeding, then deaths, in encounter order.
  for (const c of encounter.combatants) {
    const after = states[c.id];
    if (!after) continue;
    if (bleed > 0 && after.condition === 'incapacitated' && after.hp < 0) {
      after.hp -= bleed;
      events.push({ kind: 'bleed', combatant: c.id, amount: bleed });
      if (after.hp <= -10) after.condition = 'dead';
    }
    if (after.condition === 'dead' && input.before[c.id]?.condition !== 'dead') {
      events.push({ kind: 'death', combatant: c.id });
    }
  }
  return { states, events };
}

/* ============================================================== late joiners */

/** The time key of a step this procedure built, read back from its entries (schedules are plain JSON). */
function stepKey(step: Schedule['steps'][number]): TimeKey {
  const first = step.entries[0];
  let sub = SUB_ACTION;
  if (first?.reason === REASON.interrupt) sub = SUB_INTERRUPT;
  else if (first?.kind === 'routine') sub = first.routine ?? 2;
  return [step.segment ?? 0, sub];
}

/**
 * A newcomer acts with its side if its side's segment has not yet come this
 * round; otherwise it acts from the next round on.
 */
function lateJoin(encounter: Encounter, newcomer: Combatant, input: LateJoinInput, options: SegmentD6Options): LateJoinResult {
  const { schedule, declaration } = input;
  if (!declaration || schedule.round < 1 || !schedule.initiative) return { schedule };
  if (validateDeclaration(declaration, newcomer) !== null) return { schedule };
  const keys = schedule.steps.map(stepKey);

  // Charges already planned this round, read from the schedule.
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const chargeSeg = new Map<string, number>();
  const chargedAt = new Map<string, { segment: number; charger: string }>();
  schedule.steps.forEach((s) => {
    for (const e of s.entries) {
      if (e.action !== 'charge' || e.kind !== 'action' || s.segment === undefined) continue;
      chargeSeg.set(e.combatant, s.segment);
      const t = e.target !== undefined ? byId.get(e.target) : undefined;
      if (t && t.side !== byId.get(e.combatant)?.side && !chargedAt.has(t.id)) chargedAt.set(t.id, { segment: s.segment, charger: e.combatant });
    }
  });
  const sideOf = (id: string) => byId.get(id)?.side ?? (id === newcomer.id ? newcomer.side : undefined);
  const ctx: RoundContext = {
    round: schedule.round,
    options,
    timing: sideTiming(schedule.initiative.sides),
    chargeBy: (id) => {
      const segment = chargeSeg.get(id);
      return segment === undefined ? undefined : { segment, side: sideOf(id) };
    },
    chargedAt: (target) => chargedAt.get(target.id),
  };
  const placed: Placed[] = [];
  const S = actionSegment(newcomer, declaration, ctx.timing, options);
  const casting = placeInRound(newcomer, declaration, S, ctx, (segment, sub, entry) => placed.push({ key: [segment, sub], segment, entry }));
  if (placed.length === 0) return { schedule };
  const firstKey = placed.reduce((m, p) => (compareKeys(p.key, m) < 0 ? p.key : m), placed[0].key);
  const current = Math.min(input.currentStep, keys.length - 1);
  if (current >= 0 && compareKeys(firstKey, keys[current]) <= 0) return { schedule }; // its segment has come: next round

  const b = new ScheduleBuilder('segment-d6', schedule.round);
  schedule.steps.forEach((s, i) => {
    for (const e of s.entries) b.add(keys[i], { phase: s.phase, segment: s.segment, count: s.count }, e);
  });
  for (const p of placed) b.add(p.key, { phase: PHASE_SEGMENT, segment: p.segment }, p.entry);
  const keyAt = (i: number | null): TimeKey | null => (i === null || i < 0 || i >= keys.length ? null : keys[i]);
  const fromIndex = (i: number, c: Casting): TimeKey | 'start' | 'never' => {
    if (i >= schedule.steps.length) return 'never';
    if (c.beginStep < 0) return 'start';
    return [schedule.steps[i].segment ?? 0];
  };
  for (const c of schedule.castings) {
    b.addCasting({
      ...pendingOf(c),
      begin: keyAt(c.beginStep),
      complete: keyAt(c.completeStep),
      lossFrom: c.lossFrom >= NEVER ? 'never' : fromIndex(c.lossFrom, c),
      preventFrom: c.preventFrom >= NEVER ? 'never' : fromIndex(c.preventFrom, c),
    });
  }
  if (casting) b.addCasting(casting);
  return { schedule: b.build(schedule.initiative) };
}

/* =============================================================== the procedure */

export const segmentD6Procedure: Procedure<SegmentD6Options> = {
  id: 'segment-d6',
  defaults: DEFAULTS,
  optionSpecs: OPTION_SPECS,
  phases: [PHASE_SURPRISE, PHASE_SEGMENT],
  timing: 'segments',
  actions: ACTIONS,

  validateDeclaration: (decl, combatant) => validateDeclaration(decl, combatant),
  rollSurprise: (encounter, dice) => rollSurprise(encounter, dice),
  planSurprise: (encounter, surprise, declarations) => planSurprise(encounter, surprise, declarations),
  rollCombatInitiative: () => ({}),
  rollInitiative: (encounter, input, dice, options) => rollInitiative(encounter, input, dice, options),
  planRound: (encounter, input, initiative, options) => planRound(encounter, input, initiative, options),
  applyDamage: (_combatant, state, amount, options) => applyDamage(state, amount, options),
  canAct: canActState,
  endOfRound: (encounter, input, _dice, options) => endOfRound(encounter, input, options),
  lateJoin: (encounter, newcomer, input, _dice, options) => lateJoin(encounter, newcomer, input, options),
};
