/**
 * The one driver. Every combat — Foundry's Combat, the scenario runner, the
 * tests — is played by feeding these inputs to `applyInput`: it checks the
 * input first and refuses it with a Problem, changing nothing, or carries it
 * out on the state in place. `apply` does the same on a copy.
 *
 * Inputs are small, plain JSON and carry every number they were decided with
 * (a joiner's stats, a declaration's speed factor and casting time), so a
 * Foundry combat stores them as its log and every client replays it
 * (log.ts); the dice a transition rolls are recorded beside the input.
 *
 * Discipline: a transition asks the procedure everything first (the
 * procedure may refuse by throwing a RulesError) and only then changes the
 * state, so a refusal never leaves half a change behind.
 */
import type { Dice } from '../dice';
import type { Combatant, Condition, DamageType, Declaration, Problem, Side } from '../model';
import { isDamageType, RulesError } from '../model';
import type { Casting, Encounter, LateJoinResult, Procedure, ProcedureOptions, RoundInput, Schedule } from '../procedure';
import { resolveOptions } from '../procedure';
import { getProcedure } from '../registry';
import { combatantProblem, copyState, initialState, NEVER, plainStartingCondition, startingConditionProblem } from '../round';
import { castingById, landHit, openStep } from './step';
import { attackGrant, recordAttack, type AttackGranted, type AttackInput } from './attack';
import type { WoundDetail, WoundInput } from './wounds';
import { applyMidRound, type MidRoundInput } from './midround';
import type { GmPhaseInput } from './gm-phases';
import { choose, type ChooseInput } from './choose';
import type { MovedDetail, MovedInput } from './moved';
import { part } from '../parts';
import { actionRefusedBy, cannotActProblem, engineDecidesActing, fallenReason } from './acting';
import { applyRetarget, type RetargetInput } from './retarget';
import {
  combatantOf,
  FLOW_VERSION,
  nameOf,
  RULES_REVISION,
  refuse,
  type FlowAttack,
  type FlowHit,
  type FlowInterruption,
  type FlowResult,
  type FlowStart,
  type FlowState,
  type LeftCombatant,
  type MoraleMade,
  type MoraleRequest,
} from './state';
import { copyJson } from '../journal';

/** What a combat is told, one input at a time. */
export type FlowInput =
  /** A declaration for the round being declared. */
  | { t: 'declare'; d: Declaration }
  /** A declaration taken back. */
  | { t: 'withdraw'; c: string }
  /** Initiative and the round's plan; `d`: declarations held back until now (the GM's, for monsters; null withdraws one). */
  | { t: 'begin'; d?: Record<string, Declaration | null> }
  /** On: the round's plan (while declaring), the next step, the end of the round, the next round. */
  | { t: 'next' }
  /** Damage (a negative amount heals) now; `type`: its damage type (individual-speed). */
  | { t: 'hit'; target: string; amount: number; by?: string; critical?: boolean; type?: DamageType }
  /** A caster elects not to complete a casting. */
  | { t: 'cancel'; casting: string }
  /** The GM undoes an interruption: the casting goes on, the spell is restored. */
  | { t: 'restore'; casting: string }
  /**
   * A combatant joins (late, while the round is played), with its side when the side is new. `was`: a combatant of
   * this encounter that left earlier (the same actor, added again under a new id): the joiner takes it over.
   */
  | { t: 'join'; c: Combatant; d?: Declaration; side?: Side; was?: string }
  /** A combatant leaves the combat: it no longer acts. */
  | { t: 'leave'; c: string }
  /** The GM moves a combatant to another side (with the side when it is new); it counts from the next plan. */
  | { t: 'move'; c: string; side: string; add?: Side }
  /** Morale checks the GM calls for: at once before the first round where the procedure has opening morale, else at the end of the round (not during the surprise segments). */
  | { t: 'morale'; requests: MoraleRequest[] }
  /** An attack now, held to the schedule (attack.ts); it rolls nothing: the damage comes as a `hit`. */
  | AttackInput
  /** individual-speed: a Heal check to stabilize, a Combat Injury the GM enters (wounds.ts). */
  | WoundInput
  /** A delay announced, a held or prepared action released, a casting the GM breaks (midround.ts). */
  | MidRoundInput
  /** What the GM records where the text gives no table (gm-phases.ts): a side's reaction, the encounter distance, bleeding staunched. */
  | GmPhaseInput
  /** A caster chooses its spell (or none) at its turn, where the procedure lets it (choose.ts; d12-ascending II.C). */
  | ChooseInput
  /** A token moved on the map while the round is played, as the map measured it (moved.ts, movement.ts). */
  | MovedInput
  /** An attacker whose target fell chooses another target, to hold, or nothing (retarget.ts; rules revision 5). */
  | RetargetInput;

export interface AppliedDetail {
  hit?: FlowHit;
  interruptions?: FlowInterruption[];
  /** The attack recorded (attack), with what allowed it. */
  attack?: FlowAttack;
  /** A Heal check's TN and result (heal), an injury entered (injury). */
  heal?: WoundDetail['heal'];
  injury?: WoundDetail['injury'];
  /** The move recorded (moved): feet this round so far, the allowance, who may now attack the mover out of turn. */
  moved?: MovedDetail;
}

export type Applied = { ok: true; detail?: AppliedDetail } | { ok: false; problem: Problem };

const OK: Applied = { ok: true };

type P = Procedure<ProcedureOptions>;

/** The rules revision a combat follows (state.rules; absent: 0, a combat started before the first). */
function revision(state: FlowState): number {
  return state.rules ?? 0;
}

/** Runs a procedure call that may refuse by throwing a RulesError. */
export function asking<T>(call: () => T): { ok: true; value: T } | { ok: false; problem: Problem } {
  try {
    return { ok: true, value: call() };
  } catch (err) {
    if (err instanceof RulesError) return { ok: false, problem: err.problem };
    throw err;
  }
}

/* ---------------------------------------------------------------- start */

/**
 * The condition a combatant enters the combat in: the one it is given
 * (Combatant.condition) where its hit points allow it, else the one the
 * procedure's own damage rules give them (Procedure.startingCondition: at 0
 * or below it may be unconscious or dying rather than dead); with `byRules`
 * false (a combat started before the engine decided it), dead at 0 hp or below.
 */
export function enteringCondition(procedure: P, c: Combatant, options: ProcedureOptions, byRules: boolean): { ok: true; value: Condition } | { ok: false; problem: Problem } {
  const derived = asking(() => (byRules && procedure.startingCondition ? procedure.startingCondition(c, options) : plainStartingCondition(c)));
  if (!derived.ok) return derived;
  const problem = startingConditionProblem(c, derived.value);
  if (problem) return { ok: false, problem };
  return { ok: true, value: c.condition ?? derived.value };
}

/** The first state of a combat from its start. */
export function flowFrom(start: FlowStart, owned = false): FlowState {
  // `owned`: the start is the state's own (a fresh start nobody else keeps), so it is not copied.
  const encounter = owned ? start.encounter : copyJson(start.encounter);
  const states: FlowState['states'] = {};
  const conditions = start.conditions;
  for (const c of encounter.combatants) states[c.id] = conditions ? initialState(c, conditions[c.id] ?? 'ok') : initialState(c);
  const state: FlowState = {
    v: FLOW_VERSION,
    procedure: start.procedure,
    options: owned ? start.options : copyJson(start.options),
    encounter,
    stage: 'declare',
    round: start.round,
    firstRound: start.round,
    step: 0,
    surprise: owned ? start.surprise : copyJson(start.surprise),
    baseInitiative: { ...start.baseInitiative },
    declarations: {},
    initiative: null,
    schedule: null,
    states,
    status: {},
    roundStart: {},
    outcomes: [],
    hits: [],
    interruptions: [],
    joins: [],
    carry: [],
    owed: {},
    cancelled: [],
    moraleRequests: [],
    opening: null,
    end: null,
  };
  if (start.rules !== undefined) state.rules = start.rules;
  return state;
}

/* ------------------------------------------------------------ declaring */

/**
 * Has the combatant a copy of this spell still in memory? Its memorized
 * copies (Combatant.spells, one entry per copy) less those expended in this
 * combat. Without a spell list nothing is known, so nothing is refused.
 */
export function spellAvailable(state: FlowState, decl: Declaration): boolean {
  if (decl.action !== 'spell' || !decl.spell) return true;
  const c = combatantOf(state, decl.combatant);
  if (!c?.spells) return true;
  let have = 0;
  for (const s of c.spells) if (s === decl.spell) have++;
  for (const s of state.states[c.id]?.expended ?? []) if (s === decl.spell) have--;
  return have > 0;
}

/**
 * The declarations the round is planned from. A spell declaration whose every
 * copy left in memory is already under way in a casting carried into this
 * round (a 1-round spell, its declaration carried on "same as last round") is
 * that casting, not a new one: it is kept as the combatant's declaration but
 * begins nothing, so the spell does not start again, with no copy left, once
 * the carried casting went off. Without a spell list nothing is known, so
 * nothing is held back (as spellAvailable).
 */
function roundDeclarations(state: FlowState): FlowState['declarations'] {
  if (revision(state) < 1) return state.declarations;
  const underWay = state.carry.filter((c) => !c.device && (state.status[c.id] ?? 'pending') === 'pending');
  if (underWay.length === 0) return state.declarations;
  const planned: FlowState['declarations'] = {};
  for (const id of Object.keys(state.declarations)) {
    const decl = state.declarations[id];
    const casting = decl.action === 'spell' && decl.spell ? underWay.filter((c) => c.caster === id && c.spell === decl.spell).length : 0;
    const c = casting > 0 ? combatantOf(state, id) : undefined;
    if (c?.spells) {
      let left = -casting;
      for (const s of c.spells) if (s === decl.spell) left++;
      for (const s of state.states[id]?.expended ?? []) if (s === decl.spell) left--;
      if (left <= 0) continue;
    }
    planned[id] = decl;
  }
  return planned;
}

/** Can this declaration be recorded now? Null if so. */
export function declarationProblem(state: FlowState, decl: Declaration, procedure: P = getProcedure(state.procedure)): Problem | null {
  if (state.stage !== 'declare') return { key: 'NotDeclaring' };
  const combatant = typeof decl?.combatant === 'string' ? combatantOf(state, decl.combatant) : undefined;
  if (!combatant) return { key: 'UnknownCombatant', data: { id: String(decl?.combatant) } };
  const cs = state.states[combatant.id];
  if (engineDecidesActing(state)) {
    // From rules revision 5 (acting.ts): why it cannot act, in words; a routed combatant may declare only flight.
    const reason = actionRefusedBy(state, combatant.id, decl.action, procedure);
    if (reason) return cannotActProblem(state, combatant.id, reason);
    const fallen = typeof decl.target === 'string' && decl.target !== combatant.id ? fallenReason(state.states[decl.target]) : null;
    if (fallen) return { key: 'DeclarationTargetFallen', data: { name: combatant.name, target: nameOf(state, decl.target as string) } };
  }
  if (!cs || !procedure.canAct(cs)) return { key: 'CombatantCannotAct', data: { name: combatant.name } };
  const final = finalProblem(state, combatant);
  if (final) return final;
  const problem = procedure.validateDeclaration(decl, combatant, state.options, state.encounter);
  if (problem) return problem;
  if (!spellAvailable(state, decl)) return { key: 'SpellNotMemorized', data: { name: combatant.name, spell: decl.spell ?? '' } };
  return null;
}

/**
 * Seed 004, phase 6: "Once an action is declared, it cannot be changed, but it
 * can be canceled". Where declarations are final (addict), a combatant that
 * declared in this round's declarations cannot declare again; and one that
 * cancelled cannot declare another action in its place either, since that
 * would be the change the text forbids (the cancel stands until the next
 * round's declarations). A declaration carried on from last round ("same as
 * last round") was not declared in this round: it may be replaced, once.
 */
function finalProblem(state: FlowState, combatant: Combatant): Problem | null {
  const mark = state.finalDeclarations?.[combatant.id];
  if (mark === 'declared') return { key: 'DeclarationFinal', data: { name: combatant.name } };
  if (mark === 'cancelled') return { key: 'DeclarationCancelled', data: { name: combatant.name } };
  return null;
}

/** Mark a declaration made in this round's declarations, where the procedure makes them final. */
function markFinal(state: FlowState, id: string, mark: 'declared' | 'cancelled', procedure: P): void {
  if (procedure.declarationsFinal) (state.finalDeclarations ??= {})[id] = mark;
}

/* ------------------------------------------------------------ the round */

function openCurrentStep(state: FlowState, procedure: P): void {
  if (!state.schedule || state.step >= state.schedule.steps.length) return;
  state.outcomes[state.step] = openStep(procedure, state, state.step);
}

/**
 * Initiative and the round's plan, from the declarations; resolution begins
 * at the first step. Castings broken while the round was being declared are
 * not carried into it.
 */
function beginRound(state: FlowState, dice: Dice, procedure: P): Applied {
  const planned = asking(() => {
    const round = state.round;
    let initiative: FlowState['initiative'] = null;
    let schedule: Schedule | null = null;
    if (round === 0) {
      schedule = procedure.planSurprise(state.encounter, state.surprise, state.declarations, state.options);
      // Nobody acts in the surprise after all: round 1 is declared next (the declarations stand).
      if (!schedule) return null;
    } else {
      const input: RoundInput = {
        round,
        declarations: roundDeclarations(state),
        states: state.states,
        surprise: state.surprise,
        baseInitiative: state.baseInitiative,
        carryIn: state.carry.filter((c) => (state.status[c.id] ?? 'pending') === 'pending'),
        owed: state.owed,
      };
      if (state.rules !== undefined) input.rules = state.rules;
      initiative = procedure.rollInitiative(state.encounter, input, dice, state.options);
      schedule = procedure.planRound(state.encounter, input, initiative, state.options);
    }
    return { round, initiative, schedule };
  });
  if (!planned.ok) return planned;
  if (planned.value === null) {
    newRound(state, procedure);
    return OK;
  }
  const { round, initiative } = planned.value;
  let { schedule } = planned.value;
  state.round = round;
  state.initiative = initiative;
  state.schedule = schedule;
  state.status = {};
  // A hold set to "release at segment N" makes that step (segment-d6, addict; held.ts).
  const holdSteps = procedure.flowInputs?.holdSteps;
  if (holdSteps) state.schedule = schedule = holdSteps(state, schedule, procedure);
  for (const c of schedule.castings) state.status[c.id] = 'pending';
  state.roundStart = {};
  for (const id of Object.keys(state.states)) state.roundStart[id] = copyState(state.states[id]);
  state.outcomes = [];
  state.hits = [];
  state.interruptions = [];
  state.joins = [];
  state.cancelled = [];
  state.owed = {};
  state.end = null;
  delete state.attacks;
  delete state.midRound;
  delete state.moves;
  delete state.finalDeclarations;
  delete state.retargets;
  state.stage = 'resolve';
  state.step = 0;
  openCurrentStep(state, procedure);
  return OK;
}

/** The steps are played: castings still under way carry on; the procedure's end of round. */
function endRound(state: FlowState, dice: Dice, procedure: P): Applied {
  const schedule = state.schedule as Schedule;
  // The surprise segments have no end-of-round steps; morale asked for in them waits for round 1's end.
  const ended = asking(() =>
    state.round === 0
      ? null
      : procedure.endOfRound(
          state.encounter,
          {
            round: state.round,
            before: state.roundStart,
            after: state.states,
            hits: state.hits.map(({ target, wounds, by }) => (by === undefined ? { target, wounds } : { target, wounds, by })),
            moraleRequests: state.moraleRequests,
          },
          dice,
          state.options,
        ),
  );
  if (!ended.ok) return ended;
  const end = ended.value;
  state.step = schedule.steps.length;
  // Every casting running past the round; which of them still carry on is read from their status (a hit, a cancel or a
  // restore may still change it before the next round is planned).
  state.carry = schedule.carryOut;
  if (end) {
    const states: FlowState['states'] = {};
    for (const id of Object.keys(end.states)) states[id] = copyState(end.states[id]);
    state.states = states;
    state.moraleRequests = [];
  }
  state.end = end ? end.events : [];
  state.stage = 'end-of-round';
  return OK;
}

/**
 * The declarations that can still be carried out: by a combatant able to act, a spell with a copy left in memory.
 * From rules revision 5 (acting.ts): not a routed combatant's, other than flight; not one aimed at a fallen target
 * (dead, fled, surrendered): "same as last round" never carries it (issue 28).
 */
export function carriedOut(state: FlowState, procedure: P): FlowState['declarations'] {
  const kept: FlowState['declarations'] = {};
  const byEngine = engineDecidesActing(state);
  for (const id of Object.keys(state.declarations)) {
    const cs = state.states[id];
    const d = state.declarations[id];
    if (!cs || !procedure.canAct(cs) || !spellAvailable(state, d)) continue;
    if (byEngine) {
      if (actionRefusedBy(state, id, d.action, procedure) !== null) continue;
      if (typeof d.target === 'string' && d.target !== id && fallenReason(state.states[d.target]) !== null) continue;
    }
    kept[id] = d;
  }
  return kept;
}

/** The next round's declarations, defaulting to "same as last round" while they can still be carried out. */
function newRound(state: FlowState, procedure: P): void {
  state.declarations = carriedOut(state, procedure);
  if (revision(state) >= 2) {
    for (const id of Object.keys(state.declarations)) {
      const d = state.declarations[id];
      if (d.hesitation === undefined && d.hesitationSeconds === undefined) continue;
      const { hesitation: _h, hesitationSeconds: _s, ...rest } = d;
      state.declarations[id] = rest;
    }
  }
  // The castings that carry on into the new round, with their status (a hit while it is declared may still break one).
  state.carry = state.carry.filter((c) => (state.status[c.id] ?? 'pending') === 'pending');
  state.round += 1;
  state.stage = 'declare';
  state.roundStart = {};
  state.step = 0;
  state.schedule = null;
  state.initiative = null;
  state.status = {};
  for (const c of state.carry) state.status[c.id] = 'pending';
  state.outcomes = [];
  state.hits = [];
  state.interruptions = [];
  state.joins = [];
  state.cancelled = [];
  state.end = null;
  delete state.attacks;
  delete state.midRound;
  delete state.moves;
  delete state.finalDeclarations;
  delete state.morale;
  delete state.retargets;
}

function next(state: FlowState, dice: Dice, procedure: P): Applied {
  if (state.stage === 'declare') return beginRound(state, dice, procedure);
  if (state.stage === 'resolve') {
    const last = (state.schedule?.steps.length ?? 0) - 1;
    if (state.step < last) {
      state.step += 1;
      openCurrentStep(state, procedure);
      return OK;
    }
    return endRound(state, dice, procedure);
  }
  newRound(state, procedure);
  return OK;
}

/**
 * The `attack` input once attackGrant allowed it: the attack recorded (and
 * the castings its grant breaks), and a charge it made out of turn. The odds'
 * trials (odds/trial.ts) call it after their own attackGrant, so the grant is
 * not asked twice.
 */
export function makeAttack(state: FlowState, input: AttackInput, granted: Extract<AttackGranted, { ok: true }>, procedure: P): ReturnType<typeof recordAttack> {
  const detail = recordAttack(state, input, granted);
  procedure.flowInputs?.chargeOutOfTurn?.(state, input, granted, procedure);
  return detail;
}

/* ----------------------------------------------------------------- damage */

/**
 * Damage taken now. While resolving it lands at the current step; before the
 * round is planned it threatens only castings carried over from the last
 * round; after the last step it lands after every step.
 */
function hit(state: FlowState, input: Extract<FlowInput, { t: 'hit' }>, procedure: P, dice: Dice): Applied {
  const target = typeof input.target === 'string' ? combatantOf(state, input.target) : undefined;
  if (!target || !state.states[target.id]) return refuse('UnknownCombatant', { id: String(input.target) });
  if (typeof input.amount !== 'number' || !Number.isFinite(input.amount)) return refuse('NumberInvalid', { name: target.name, field: 'amount' });
  if (input.type !== undefined && !isDamageType(input.type)) return refuse('DamageTypeUnknown', { name: target.name, type: String(input.type) });
  let schedule: Schedule;
  let k: number;
  if (state.stage === 'declare' || !state.schedule) {
    // Only castings carried over are under way: a schedule of no steps in which they can be broken from the start.
    schedule = {
      procedure: state.procedure,
      round: state.round,
      steps: [],
      castings: state.carry.map((c) => ({ ...c, lossFrom: c.device ? NEVER : 0, preventFrom: c.device ? NEVER : 0, completeStep: null })),
      carryOut: [],
    };
    for (const c of schedule.castings) state.status[c.id] ??= 'pending';
    k = 0;
  } else {
    schedule = state.schedule;
    k = state.stage === 'resolve' ? state.step : schedule.steps.length;
  }
  const landed = landHit(procedure, state, schedule, k, target, input, dice);
  // Healing keeps the engine's health in step with the actor; it is no hit.
  if (input.amount >= 0) state.hits.push(landed.hit);
  for (const i of landed.interruptions) state.interruptions.push(i);
  return { ok: true, detail: { hit: landed.hit, interruptions: landed.interruptions } };
}

/** The GM undoes an interruption (from its chat card): the casting goes on and the spell is restored. */
function restore(state: FlowState, castingId: string): Applied {
  const at = state.interruptions.findIndex((i) => i.casting === castingId && i.round === state.round);
  if (at < 0) return refuse('NoInterruption');
  const record = state.interruptions[at];
  state.interruptions.splice(at, 1);
  state.status[castingId] = 'pending';
  if (record.expended) {
    const list = state.states[record.caster].expended;
    const i = list.lastIndexOf(record.spell);
    if (i >= 0) list.splice(i, 1);
  }
  return OK;
}

/**
 * The caster elects not to complete a casting ("may elect not to cast the
 * spell", seed 000: the spell is kept). Entries of that casting in the step
 * being played show it. Where the procedure says giving it up loses the spell
 * (high-low, `cancelLoses`), it is expended "as if cast".
 */
function cancel(state: FlowState, castingId: string, procedure: P): Applied {
  const casting = state.schedule ? castingById(state.schedule, castingId) : undefined;
  if (!casting || state.status[castingId] !== 'pending') return refuse('NoCasting');
  state.status[castingId] = 'cancelled';
  state.cancelled.push(castingId);
  if (procedure.cancelLoses?.(casting, state.options)) {
    state.states[casting.caster].expended.push(casting.spell);
    (state.midRound ??= []).push({ t: 'cancel', c: casting.caster, step: state.step, casting: castingId, spell: casting.spell });
  }
  const step = state.stage === 'resolve' ? state.schedule?.steps[state.step] : undefined;
  const outcomes = state.outcomes[state.step];
  if (step && outcomes) step.entries.forEach((e, i) => e.casting === castingId && (outcomes[i] = 'cancelled'));
  return OK;
}

/* ------------------------------------------------------------ combatants */

/** The sides with `side` added when it is new; a problem when the id names no side and none is given. */
function sidesWith(state: FlowState, id: string, side: Side | undefined, name: string): { ok: true; sides: Side[] } | { ok: false; problem: Problem } {
  if (state.encounter.sides.some((s) => s.id === id)) return { ok: true, sides: state.encounter.sides };
  if (!side || side.id !== id) return refuse('UnknownSide', { name, side: id });
  return { ok: true, sides: [...state.encounter.sides, copyJson(side)] };
}

/**
 * Can `was` be taken over by a joiner? It must be a combatant of this
 * encounter that has left (its state is kept, it is no longer among the
 * combatants) and that no joiner has taken over yet.
 */
function takeOverProblem(state: FlowState, was: unknown): Problem | null {
  if (typeof was !== 'string') return { key: 'MalformedRequest' };
  if (!state.states[was] || combatantOf(state, was)) return { key: 'JoinWasNotLeft', data: { name: nameOf(state, was) } };
  const by = state.takenOver?.[was];
  if (by !== undefined) return { key: 'JoinWasTakenOver', data: { name: nameOf(state, was), by: nameOf(state, by) } };
  return null;
}

/**
 * The joiner `id` takes over `was`, which left: its surprise die (its
 * surprise itself is set by the caller), and while a round is under way what the one that left had
 * still to do in it: its entries in the steps after the current one, its
 * castings still pending (and those carried on), an extra action owed.
 * Steps played stay as they were. Its base initiative is set by the caller.
 */
function takeOver(state: FlowState, was: string, id: string): void {
  if (state.surprise.rolls[was] !== undefined) state.surprise.rolls[id] = state.surprise.rolls[was];
  const renamed = <T extends { caster: string; id: string }>(list: T[]): T[] =>
    list.map((x) => (x.caster === was && (state.status[x.id] ?? 'pending') === 'pending' ? { ...x, caster: id } : x));
  const schedule = state.schedule;
  if (schedule) {
    // From rules revision 4 the step being played is its own too: it may finish what it left (its attacks in it are counted).
    const from = state.stage === 'resolve' ? state.step + (revision(state) >= 4 ? 0 : 1) : schedule.steps.length;
    state.schedule = {
      ...schedule,
      steps: schedule.steps.map((step, k) =>
        k < from || !step.entries.some((e) => e.combatant === was)
          ? step
          : { ...step, entries: step.entries.map((e) => (e.combatant === was ? { ...e, combatant: id } : e)) },
      ),
      castings: renamed(schedule.castings),
      carryOut: renamed(schedule.carryOut),
    };
  }
  state.carry = renamed(state.carry);
  if (state.owed[was] !== undefined) {
    state.owed[id] = state.owed[was];
    delete state.owed[was];
  }
  (state.takenOver ??= {})[was] = id;
  if (revision(state) >= 4) returnAs(state, was, id);
}

/**
 * Rules revision 4 (issue 26): the joiner `id` is `was` come back, the same combatant (RULING, rules notes:
 * a combatant removed from the tracker and added again keeps everything the fight knew of it). Its
 * condition as it left (dying stays dying and bleeds), its declaration of the round unless it came back
 * with one of its own, its initiative result, and this round's attacks, moves and mid-round actions as its
 * own (so leaving does not give it a second allowance).
 */
function returnAs(state: FlowState, was: string, id: string): void {
  const left = state.left?.[was];
  const before = state.states[was];
  if (before) state.states[id] = { ...copyState(before), ...(left ? { condition: left.condition } : {}) };
  if (left?.declaration && !state.declarations[id]) {
    state.declarations[id] = { ...copyJson(left.declaration), combatant: id };
    if (left.final) state.finalDeclarations = { ...state.finalDeclarations, [id]: left.final };
  }
  // New objects, never changed in place (a state given out is shared with the log's marks).
  const initiative = state.initiative;
  if (initiative && initiative.individuals[was] !== undefined) state.initiative = { ...initiative, individuals: { ...initiative.individuals, [id]: initiative.individuals[was] } };
  if (initiative?.labels?.[was] !== undefined) state.initiative = { ...state.initiative!, labels: { ...initiative.labels, [id]: initiative.labels[was] } };
  const theirs = <T extends { c: string }>(list: T[] | undefined): T[] | undefined => list?.map((x) => (x.c === was ? { ...x, c: id } : x));
  if (state.attacks) state.attacks = theirs(state.attacks);
  if (state.moves) state.moves = theirs(state.moves);
  if (state.midRound) state.midRound = theirs(state.midRound);
}

/**
 * A combatant joins: a late joiner while the round is played, else planned
 * with the others. With `was` it is a combatant that left coming back under a
 * new id: it takes that one over (takeOver) and keeps its base initiative
 * (seed 003: "Base Initiative does not change during the whole combat"), so
 * no new base is rolled; it is no late joiner (no late-joiner steps, no
 * action owed at -12): it acts where the one that left was to act, else from
 * the next round. Its side is the one given: the engine keeps no side for a
 * combatant that left.
 */
function join(state: FlowState, input: Extract<FlowInput, { t: 'join' }>, dice: Dice, procedure: P): Applied {
  const c = input.c;
  const malformed = combatantProblem(c);
  if (malformed) return { ok: false, problem: malformed };
  if (combatantOf(state, c.id)) return refuse('AlreadyInCombat', { name: c.name });
  const was = input.was;
  if (was !== undefined) {
    const problem = takeOverProblem(state, was);
    if (problem) return { ok: false, problem };
  }
  const sides = sidesWith(state, c.side, input.side, c.name);
  if (!sides.ok) return sides;
  const entering = enteringCondition(procedure, c, state.options, revision(state) >= 1);
  if (!entering.ok) return entering;
  if (input.d) {
    if (input.d.combatant !== c.id) return refuse('DeclarationWrongCombatant', { name: c.name });
    const problem = procedure.validateDeclaration(input.d, c, state.options, state.encounter);
    if (problem) return { ok: false, problem };
  }
  const newcomer = copyJson(c);
  const encounter: Encounter = { ...state.encounter, sides: sides.sides, combatants: [...state.encounter.combatants, newcomer] };
  // A round migrated from schema 1 has steps without time keys: nothing can be spliced into it, so its joiner acts from the next round.
  const late = was === undefined && state.stage === 'resolve' && state.schedule !== null && state.schedule.steps.every((s) => typeof s.key === 'number');
  const kept = was !== undefined ? state.baseInitiative[was] : undefined;
  const decided = asking((): { joined: LateJoinResult | null; base: Record<string, number> } =>
    late
      ? {
          joined: procedure.lateJoin(
            encounter,
            newcomer,
            { round: state.round, schedule: state.schedule as Schedule, currentStep: state.step, declaration: input.d, baseInitiative: state.baseInitiative },
            dice,
            state.options,
          ),
          base: {},
        }
      : { joined: null, base: kept !== undefined ? { [c.id]: kept } : procedure.rollCombatInitiative(encounter, [newcomer], dice, state.options) },
  );
  if (!decided.ok) return decided;
  const { joined, base } = decided.value;
  state.encounter = encounter;
  state.states[c.id] = initialState(newcomer, entering.value);
  if (joined) state.roundStart[c.id] = initialState(newcomer, entering.value);
  // Seed 000: "Surprise is checked only once per combat, at the beginning of an encounter": one taken over keeps its own.
  state.surprise.surprised[c.id] = was !== undefined ? (state.surprise.surprised[was] ?? 0) : 0;
  if (input.d) state.declarations[c.id] = copyJson(input.d);
  if (input.d && state.stage === 'declare') markFinal(state, c.id, 'declared', procedure);
  Object.assign(state.baseInitiative, base);
  if (joined) {
    for (const casting of joined.schedule.castings) state.status[casting.id] ??= 'pending';
    state.schedule = joined.schedule;
    if (joined.baseInitiative !== undefined) state.baseInitiative[c.id] = joined.baseInitiative;
    if (joined.owedNextRound !== undefined) state.owed[c.id] = joined.owedNextRound;
    state.joins.push({ combatant: c.id, step: state.step });
  }
  if (was !== undefined) {
    // States when the round began: the one that left's, for the end of the round (addict bleeds who began it below 0).
    if (state.stage === 'resolve') state.roundStart[c.id] = state.roundStart[was] ? copyState(state.roundStart[was]) : initialState(newcomer, entering.value);
    takeOver(state, was, c.id);
  }
  return OK;
}

/** A combatant leaves: its state is kept (the recap names it), it acts no more. */
function leave(state: FlowState, id: string): Applied {
  if (typeof id !== 'string' || !combatantOf(state, id)) return refuse('UnknownCombatant', { id: String(id) });
  if (revision(state) >= 4 && state.states[id]) {
    // What it had, for its return (returnAs).
    const left: LeftCombatant = { condition: state.states[id].condition };
    if (state.declarations[id]) left.declaration = copyJson(state.declarations[id]);
    if (state.finalDeclarations?.[id]) left.final = state.finalDeclarations[id];
    state.left = { ...state.left, [id]: left };
  }
  state.encounter = { ...state.encounter, combatants: state.encounter.combatants.filter((c) => c.id !== id) };
  delete state.declarations[id];
  if (state.finalDeclarations) delete state.finalDeclarations[id];
  if (state.states[id]) state.states[id] = { ...state.states[id], condition: 'fled' };
  return OK;
}

function move(state: FlowState, input: Extract<FlowInput, { t: 'move' }>): Applied {
  const c = typeof input.c === 'string' ? combatantOf(state, input.c) : undefined;
  if (!c) return refuse('UnknownCombatant', { id: String(input.c) });
  const sides = sidesWith(state, input.side, input.add, c.name);
  if (!sides.ok) return sides;
  state.encounter.sides = sides.sides;
  c.side = input.side;
  return OK;
}

/**
 * Before round 1 is played: the window of addict's phase 4 (opening morale),
 * after the surprise check and before the surprise segments.
 */
export function beforeFirstRound(state: FlowState): boolean {
  if (state.stage !== 'declare') return false;
  if (state.round === 0) return true;
  return state.round === 1 && !Object.values(state.surprise.surprised).some((n) => n > 0);
}

function morale(state: FlowState, requests: readonly MoraleRequest[], dice: Dice, procedure: P): Applied {
  if (!Array.isArray(requests) || requests.length === 0) return refuse('MalformedRequest');
  for (const r of requests) {
    const c = r && typeof r.combatant === 'string' ? combatantOf(state, r.combatant) : undefined;
    if (!c) return refuse('UnknownCombatant', { id: String(r?.combatant) });
    // The procedure may refuse a check it cannot make (a method it lacks, a player character: d12-ascending).
    const problem = procedure.moraleProblem?.(c, r, state.options);
    if (problem) return { ok: false, problem };
    // Surrender as the consequence of a failure: only where the text gives it (seed 002), from rules revision 5.
    if (r.surrender !== undefined && typeof r.surrender !== 'boolean') return refuse('MalformedRequest');
    if (r.surrender && (!procedure.moraleSurrender || revision(state) < 5)) return refuse('MoraleSurrenderNotInRules', { name: c.name });
  }
  const copies = requests.map((r) => copyJson(r));
  // Addict phase 4, once before round 1; from rules revision 5 (issue 28) each call before round 1 is checked and
  // added to the opening (the tracker's morale button calls one check per monster).
  if (procedure.openingMorale && beforeFirstRound(state) && (state.opening === null || revision(state) >= 5)) {
    const opening = procedure.openingMorale;
    const checked = asking(() => opening(state.encounter, copies, state.states, dice, state.options));
    if (!checked.ok) return checked;
    const states: FlowState['states'] = {};
    for (const id of Object.keys(checked.value.states)) states[id] = copyState(checked.value.states[id]);
    state.states = states;
    state.opening = state.opening === null ? checked.value.events : [...state.opening, ...checked.value.events];
    return OK;
  }
  // The surprise segments have no end of round to check morale at: the GM calls for it in round 1.
  if (state.round === 0) return refuse('MoraleInSurprise');
  if (revision(state) >= 5 && procedure.moraleNow) return moraleNow(state, copies, dice, procedure, procedure.moraleNow);
  for (const r of copies) state.moraleRequests.push(r);
  return OK;
}

/**
 * Rules revision 5 (issue 28, "morale answers at once"): the checks are made now, where the procedure makes a
 * called check at once; each is kept with the stage and step it was made in (state.morale). One who is dead or
 * gone checks nothing: refused in words.
 */
function moraleNow(state: FlowState, requests: MoraleRequest[], dice: Dice, procedure: P, check: NonNullable<P['moraleNow']>): Applied {
  for (const r of requests) {
    const condition = state.states[r.combatant]?.condition;
    if (condition === 'dead' || condition === 'fled') return refuse('MoraleNotInFight', { name: combatantOf(state, r.combatant)?.name ?? r.combatant, condition });
  }
  const checked = asking(() => check(state.encounter, requests, state.states, dice, state.options, state.round));
  if (!checked.ok) return checked;
  const states: FlowState['states'] = {};
  for (const id of Object.keys(checked.value.states)) states[id] = copyState(checked.value.states[id]);
  state.states = states;
  const when: Pick<MoraleMade, 'stage' | 'step'> = state.stage === 'resolve' ? { stage: state.stage, step: state.step } : { stage: state.stage };
  for (const e of checked.value.events) if (e.kind === 'morale') (state.morale ??= []).push({ ...copyJson(e), ...when });
  return OK;
}

/* ------------------------------------------------------------------ apply */

/**
 * Carry out one input on `state` in place, or refuse it (a Problem, nothing
 * changed). The dice are asked for whatever the transition rolls.
 */
export function applyInput(state: FlowState, input: FlowInput, dice: Dice, procedure: P = getProcedure(state.procedure)): Applied {
  switch (input?.t) {
    case 'declare': {
      const problem = declarationProblem(state, input.d, procedure);
      if (problem) return { ok: false, problem };
      state.declarations[input.d.combatant] = copyJson(input.d);
      markFinal(state, input.d.combatant, 'declared', procedure);
      return OK;
    }
    case 'withdraw':
      if (state.stage !== 'declare') return refuse('NotDeclaring');
      if (typeof input.c !== 'string' || !state.declarations[input.c]) return refuse('NoDeclaration', { name: combatantOf(state, input.c)?.name ?? String(input.c) });
      delete state.declarations[input.c];
      // A final declaration cancelled stays cancelled; one carried on from last round is only taken back.
      if (state.finalDeclarations?.[input.c] === 'declared') state.finalDeclarations[input.c] = 'cancelled';
      return OK;
    case 'begin': {
      if (state.stage !== 'declare') return refuse('NotDeclaring');
      const held = input.d ?? {};
      // Held declarations are checked together, before any is recorded: all or none.
      for (const id of Object.keys(held)) {
        const d = held[id];
        if (d === null) continue;
        const problem = d?.combatant === id ? declarationProblem(state, d, procedure) : { key: 'DeclarationWrongCombatant', data: { name: id } };
        if (problem) return { ok: false, problem };
      }
      const before = { ...state.declarations };
      for (const id of Object.keys(held)) {
        const d = held[id];
        if (d === null) delete state.declarations[id];
        else state.declarations[id] = copyJson(d);
      }
      // What happened while the round was declared (a carried casting broken, a combatant felled) may leave a
      // declaration kept from last round impossible: it is not planned.
      state.declarations = carriedOut(state, procedure);
      const begun = beginRound(state, dice, procedure);
      if (!begun.ok) state.declarations = before;
      return begun;
    }
    case 'next':
      return next(state, dice, procedure);
    case 'hit':
      return hit(state, input, procedure, dice);
    case 'cancel':
      return cancel(state, input.casting, procedure);
    case 'restore':
      return restore(state, input.casting);
    case 'join':
      return join(state, input, dice, procedure);
    case 'leave':
      return leave(state, input.c);
    case 'move':
      return move(state, input);
    case 'morale':
      return morale(state, input.requests, dice, procedure);
    case 'attack': {
      const granted = attackGrant(state, input, procedure);
      if (!granted.ok) return granted;
      return { ok: true, detail: makeAttack(state, input, granted, procedure) };
    }
    case 'heal':
    case 'injury': {
      // The procedure's chunk carries the Wound Point inputs (individual-speed); elsewhere they are refused.
      if (procedure.flowInputs?.wound) return procedure.flowInputs.wound(state, input, dice, procedure);
      const c = typeof input.c === 'string' ? combatantOf(state, input.c) : undefined;
      if (!c || !state.states[c.id]) return refuse('UnknownCombatant', { id: String(input.c) });
      return refuse('WoundRulesNotInProcedure', { procedure: procedure.id });
    }
    case 'delay':
    case 'release':
    case 'break':
    case 'stop':
      return applyMidRound(state, input, procedure);
    case 'reaction':
    case 'distance':
    case 'staunch':
      // The procedure's chunk carries the GM's phases (addict); elsewhere they are refused.
      return procedure.flowInputs?.gmPhase ? procedure.flowInputs.gmPhase(state, input, procedure) : refuse('PhaseNotInProcedure', { phase: input.t, procedure: procedure.id });
    case 'choose':
      return choose(state, input, procedure);
    case 'retarget':
      return applyRetarget(state, input, procedure);
    case 'moved': {
      // A part loaded with the first move (parts.ts): the GM's writer and the replay load it first.
      const moved = part('moved');
      return moved ? moved.applyMoved(state, input, procedure) : refuse('EnginePartNotLoaded', { part: 'moved' });
    }
    default:
      return refuse('MalformedRequest');
  }
}

/** The same on a copy: `state` is never changed. */
export function apply(state: FlowState, input: FlowInput, dice: Dice, procedure?: P): FlowResult<AppliedDetail> {
  const copy = copyJson(state);
  const done = applyInput(copy, input, dice, procedure);
  return done.ok ? { ok: true, state: copy, detail: done.detail } : done;
}

/** Castings of this round's schedule by `caster`, still pending. */
export function pendingCastingsOf(state: FlowState, caster: string): Casting[] {
  return (state.schedule?.castings ?? []).filter((c) => c.caster === caster && state.status[c.id] === 'pending');
}
