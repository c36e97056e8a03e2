/**
 * The mid-round actions only some procedures have (flow/midround.ts
 * dispatches them through Procedure.flowInputs, so their code is in those
 * procedures' chunks): a delay announced (high-low), a held or prepared
 * action released (segment-d6, addict), and the moments it can be released
 * at: the GM stopping at a segment where nothing is scheduled, and a hold set
 * to "release at segment N".
 */
import type { Combatant, Declaration, Problem } from '../model';
import { RulesError } from '../model';
import type { Casting, InitiativeResult, MidRoundQuery, Procedure, ProcedureOptions, RoundInput, Schedule, StepEntry } from '../procedure';
import { splice, type Placed } from '../round';
import { copyJson } from '../journal';
import { ableState, holdHasCome, releasedThisRound } from './attack';
import { actionRefusedBy, cannotActProblem, engineDecidesActing } from './acting';
import { combatantOf, refuse, type EntryOutcome, type FlowInterruption, type FlowState, type MidRoundRecord } from './state';
import { getProcedure } from '../registry';
import { asking, spellAvailable, type Applied } from './transitions';
import { playing, RELEASABLE, type MidRoundInput } from './midround';

type P = Procedure<ProcedureOptions>;


function record(state: FlowState, r: MidRoundRecord): void {
  (state.midRound ??= []).push(r);
}

/** The round's plan as the procedure made it: its declarations, the states it began with, the castings carried into it. */
function roundInputOf(state: FlowState, schedule: Schedule): RoundInput {
  const planned = new Set(schedule.castings.map((c) => c.id));
  return {
    round: state.round,
    declarations: state.declarations,
    states: Object.keys(state.roundStart).length > 0 ? state.roundStart : state.states,
    surprise: state.surprise,
    baseInitiative: state.baseInitiative,
    carryIn: state.carry.filter((c) => planned.has(c.id)),
  };
}

function queryOf(state: FlowState, schedule: Schedule, k: number, combatant: string): MidRoundQuery {
  const initiative: InitiativeResult = state.initiative ?? schedule.initiative ?? { round: state.round, sides: {}, individuals: {}, winner: null };
  return { round: roundInputOf(state, schedule), initiative, schedule, step: k, states: state.states, combatant };
}

/**
 * The outcome of an entry that comes into the step being played now (a
 * released action, a delayer's turn): decided as the step's own were, from
 * the combatant's state at the start of the step.
 */
function freshOutcome(state: FlowState, procedure: P, e: StepEntry): EntryOutcome {
  const able = ableState(state, e.combatant, procedure) !== null;
  if (e.kind !== 'cast-begin' && e.kind !== 'cast-complete') return able ? 'acts' : 'cannot-act';
  const st = e.casting ? (state.status[e.casting] ?? 'pending') : 'pending';
  if (st === 'interrupted' || st === 'prevented' || st === 'cancelled') return st;
  if (!able) return 'cannot-act';
  return e.kind === 'cast-begin' ? 'begins' : 'goes-off';
}

/**
 * The outcomes of the step being played after its entries changed: an entry
 * it had keeps the outcome decided when the step opened; a new one is
 * decided now.
 */
function outcomesAfter(state: FlowState, procedure: P, before: readonly StepEntry[], outcomes: readonly EntryOutcome[], after: readonly StepEntry[]): EntryOutcome[] {
  const texts = before.map((e) => JSON.stringify(e));
  const used = new Set<number>();
  return after.map((e) => {
    const text = JSON.stringify(e);
    const i = texts.findIndex((t, j) => !used.has(j) && t === text);
    if (i >= 0 && outcomes[i] !== undefined) {
      used.add(i);
      return outcomes[i];
    }
    return freshOutcome(state, procedure, e);
  });
}

/** The new schedule in place of the round's: the step being played (same moment) keeps its entries' outcomes. */
function replaceSchedule(state: FlowState, procedure: P, old: Schedule, next: Schedule, k: number): void {
  const before = old.steps[k];
  state.schedule = next;
  for (const c of next.castings) state.status[c.id] ??= 'pending';
  const now = next.steps[k];
  if (!now || now.key !== before.key) throw new Error(`a mid-round action moved the step being played (${before.key})`);
  state.outcomes[k] = outcomesAfter(state, procedure, before.entries, state.outcomes[k] ?? [], now.entries);
}

/* ------------------------------------------------------------------ delay */

/**
 * high-low, "Delay. [delay] (minor, special initiative rules) Anytime during
 * group actions, you can announce your intent to delay." The delay comes
 * before the delayer's own turn in the step being played when it has one
 * there it has not used (no attack made, no blow struck), else after that
 * step. Announced once a round ("You also gain the delayed condition for the
 * rest of the round").
 */
export function delay(state: FlowState, input: Extract<MidRoundInput, { t: 'delay' }>, procedure: P): Applied {
  const c = typeof input.c === 'string' ? combatantOf(state, input.c) : undefined;
  if (!c) return refuse('UnknownCombatant', { id: String(input.c) });
  if (!procedure.announceDelay) return refuse('DelayNotInProcedure', { name: c.name });
  const at = playing(state, c.name);
  if (!at.ok) return at;
  const { schedule, k } = at;
  if (state.states[c.id]?.delayed) return refuse('DelayAnnounced', { name: c.name });
  const mine = schedule.steps[k].entries.some((e) => e.combatant === c.id);
  const used = (state.attacks ?? []).some((a) => a.c === c.id && a.step === k) || state.hits.some((h) => h.by === c.id && h.step === k);
  const announce = procedure.announceDelay;
  const planned = asking(() => announce(state.encounter, { ...queryOf(state, schedule, k, c.id), played: !mine || used }, state.options));
  if (!planned.ok) return planned;
  replaceSchedule(state, procedure, schedule, copyJson(planned.value.schedule), k);
  state.states = copyJson(planned.value.states);
  record(state, { t: 'delay', c: c.id, step: k });
  return { ok: true };
}

/* ---------------------------------------------------------------- release */

/** A new casting lost or prevented at once by damage the caster took earlier this round, where its windows reach back (addict: "any damage taken on a round"). */
function earlierDamage(state: FlowState, casting: Casting, k: number): FlowInterruption | null {
  let outcome: FlowInterruption['outcome'] | null = null;
  for (const h of state.hits) {
    if (h.target !== casting.caster || !(h.amount > 0) || h.step > k) continue;
    if (h.step >= casting.lossFrom) outcome = 'interrupted';
    else if (h.step >= casting.preventFrom && outcome === null) outcome = 'prevented';
  }
  if (outcome === null) return null;
  state.status[casting.id] = outcome;
  const expended = outcome === 'interrupted' && casting.expends && !casting.device;
  if (expended) state.states[casting.caster].expended.push(casting.spell);
  return { round: state.round, step: k, casting: casting.id, caster: casting.caster, spell: casting.spell, outcome, expended };
}

/** Why a release cannot be made now (nothing asked of the procedure yet), or null. */
function releaseProblem(state: FlowState, procedure: P, c: Combatant, d: Declaration): Problem | null {
  const name = c.name;
  const hold = procedure.attackRules?.held;
  if (!procedure.releaseHeld || hold === undefined) return { key: 'ReleaseNotInProcedure', data: { name } };
  if (!RELEASABLE.includes(d.action)) return { key: 'ReleaseActionInvalid', data: { name, action: String(d.action) } };
  if (!ableState(state, c.id, procedure)) {
    // From rules revision 5 the refusal says why (acting.ts): a routed combatant only flees, a surrendered one does nothing.
    const reason = engineDecidesActing(state) ? actionRefusedBy(state, c.id, d.action, procedure) : null;
    return reason ? cannotActProblem(state, c.id, reason) : { key: 'ReleaseCannotAct', data: { name } };
  }
  // "waiting to act until these later segments" / "becomes prepared at the time it would normally resolve".
  if (!holdHasCome(state, c.id, hold)) return { key: 'ReleaseNotHeld', data: { name } };
  const heldAttack = (state.attacks ?? []).some((a) => a.c === c.id && a.as === 'held');
  if (releasedThisRound(state, c.id) || heldAttack) return { key: 'ReleaseUsed', data: { name } };
  const problem = procedure.validateDeclaration(d, c, state.options);
  if (problem) return problem;
  if (d.target !== undefined && !combatantOf(state, d.target)) return { key: 'UnknownCombatant', data: { id: String(d.target) } };
  if (!spellAvailable(state, d)) return { key: 'SpellNotMemorized', data: { name, spell: d.spell ?? '' } };
  return null;
}

/**
 * Could `d` be released now (its combatant's held or prepared action, in the
 * step being played)? Null if so; asked by the declaration dialog through
 * legalActions (legal.ts), changes nothing.
 */
export function releaseCheck(state: FlowState, d: Declaration, procedure: P = getProcedure(state.procedure)): Problem | null {
  const c = typeof d?.combatant === 'string' ? combatantOf(state, d.combatant) : undefined;
  if (!c) return { key: 'UnknownCombatant', data: { id: String(d?.combatant) } };
  const at = playing(state, c.name);
  if (!at.ok) return at.problem;
  return releaseProblem(state, procedure, c, d);
}

/**
 * A held or prepared action released now as the action `input.d` (once a
 * round, once its hold entry has come): the procedure places its entries in
 * the step being played and its casting's completion later; a casting the
 * caster's earlier damage this round already reaches is lost (or prevented)
 * at once.
 */
export function release(state: FlowState, input: Extract<MidRoundInput, { t: 'release' }>, procedure: P): Applied {
  const c = typeof input.c === 'string' ? combatantOf(state, input.c) : undefined;
  if (!c) return refuse('UnknownCombatant', { id: String(input.c) });
  if (!input.d || typeof input.d !== 'object') return refuse('MalformedRequest');
  const at = playing(state, c.name);
  if (!at.ok) return at;
  const { schedule, k } = at;
  const d: Declaration = { ...copyJson(input.d), combatant: c.id };
  const problem = releaseProblem(state, procedure, c, d);
  if (problem) return { ok: false, problem };
  const place = procedure.releaseHeld;
  if (!place) return refuse('ReleaseNotInProcedure', { name: c.name });
  const planned = asking(() => place(state.encounter, { ...queryOf(state, schedule, k, c.id), declaration: d }, state.options));
  if (!planned.ok) return planned;
  const { placed, castings } = planned.value;
  if (castings.some((x) => schedule.castings.some((y) => y.id === x.id))) return refuse('ReleaseUsed', { name: c.name });
  if (placed.some((p) => p.key < schedule.steps[k].key)) throw new Error(`${procedure.id}: a released action placed before the step being played`);
  const next = splice(schedule, k - 1, placed, castings);
  const old = schedule.steps[k];
  const outcomes = state.outcomes[k] ?? [];
  state.schedule = next;
  const interruptions: FlowInterruption[] = [];
  for (const x of next.castings) {
    if (state.status[x.id] !== undefined) continue;
    state.status[x.id] = 'pending';
    const lost = earlierDamage(state, x, k);
    if (lost) interruptions.push(lost);
  }
  if (next.steps[k]?.key !== old.key) throw new Error(`${procedure.id}: a released action moved the step being played`);
  state.outcomes[k] = outcomesAfter(state, procedure, old.entries, outcomes, next.steps[k].entries);
  for (const i of interruptions) state.interruptions.push(i);
  record(state, { t: 'release', c: c.id, step: k, d });
  return interruptions.length > 0 ? { ok: true, detail: { interruptions } } : { ok: true };
}


/* ------------------------------------------------------------------- stop */

/**
 * The moment a step of segment `seg` would take in the round being played:
 * the first step still to come in that segment, else where the procedure puts
 * an empty one (null: the round has no such segment).
 */
function segmentSpot(state: FlowState, procedure: P, schedule: Schedule, after: number, seg: number): { key: number; where: Placed['where']; planned: boolean } | null {
  const planned = schedule.steps.find((st, j) => j > after && st.segment === seg);
  if (planned) return { key: planned.key, where: planned, planned: true };
  const spot = procedure.segmentStep?.(state.encounter, { schedule, surprise: state.surprise }, seg) ?? null;
  return spot ? { ...spot, planned: false } : null;
}

/**
 * The GM stops at segment `seg`, where nothing is scheduled: seed 000, "some
 * combatants might 'hold' (choose to delay) their actions, waiting to act
 * until these later segments", and segments 7–10 "are still important because
 * spells and other actions might occur in them". RULING: the schedule has
 * steps only where something happens, so the GM may stop at any later segment
 * of the round as an empty step, where a held (segment-d6) or prepared
 * (addict B) action can be released. Only later than the step being played,
 * only where no step of that segment is still to come (press Next to reach
 * it), and only within the round (the last surprise segment in the surprise).
 */
export function stop(state: FlowState, input: Extract<MidRoundInput, { t: 'stop' }>, procedure: P): Applied {
  const seg = input.seg;
  if (typeof seg !== 'number' || !Number.isInteger(seg)) return refuse('MalformedRequest');
  const schedule = state.schedule;
  if (state.stage !== 'resolve' || !schedule || !schedule.steps[state.step]) return refuse('StopOutsideRound');
  if (!procedure.releaseHeld || !procedure.segmentStep) return refuse('StopNotInProcedure');
  const k = state.step;
  const now = schedule.steps[k].segment;
  if (now === undefined) return refuse('StopOutsideRound');
  const segment = String(seg);
  if (seg <= now) return refuse('StopPassed', { segment });
  const spot = segmentSpot(state, procedure, schedule, k, seg);
  if (!spot) return refuse('StopPastRound', { segment });
  if (spot.planned) return refuse('StopHasStep', { segment });
  if (spot.key <= schedule.steps[k].key) throw new Error(`${procedure.id}: an empty segment placed before the step being played`);
  const next = splice(schedule, k, [{ key: spot.key, where: spot.where }]);
  if (next.steps[k]?.key !== schedule.steps[k].key) throw new Error(`${procedure.id}: an empty segment moved the step being played`);
  state.schedule = next;
  return { ok: true };
}

/**
 * The round's schedule with a step at each segment a hold is set to be
 * released at (Declaration.releaseAt), later than the hold itself: the holder's
 * marker entry joins the first step of that segment, or makes one where
 * nothing else is scheduled. A release is still the holder's choice, made
 * there or at any other moment after the hold (`release`); "release at
 * segment N" only makes sure the GM stops there.
 */
export function holdSteps(state: FlowState, schedule: Schedule, procedure: P): Schedule {
  const hold = procedure.attackRules?.held;
  if (hold === undefined || !procedure.segmentStep) return schedule;
  const placed: Placed[] = [];
  const seen = new Set<string>();
  schedule.steps.forEach((st, k) => {
    for (const e of st.entries) {
      if (e.kind !== 'action' || e.action !== hold || seen.has(e.combatant)) continue;
      seen.add(e.combatant);
      const at = state.declarations[e.combatant]?.releaseAt;
      if (at === undefined || st.segment === undefined || at <= st.segment) continue;
      const spot = segmentSpot(state, procedure, schedule, k, at);
      if (spot) placed.push({ key: spot.key, where: spot.where, entry: { combatant: e.combatant, kind: 'action', action: hold, reason: 'ReleaseAt' } });
    }
  });
  return placed.length > 0 ? splice(schedule, -1, placed) : schedule;
}
