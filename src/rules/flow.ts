/**
 * The combat flow: a pure state machine over plain JSON that the Foundry
 * Combat stores in its system data. Surprise (once per combat) →
 * declarations → initiative → resolution step by step → end of round → next
 * round. Every transition takes a state and returns a new one (or a Problem
 * and no change), so the Combat writes once per transition and "Previous"
 * restores an exact earlier state from the journal.
 */
import type { Dice } from './dice';
import type { Combatant, CombatantState, Declaration, Problem, ProcedureId, Side } from './model';
import { RulesError } from './model';
import type {
  Casting,
  EndEvent,
  EndOfRoundResult,
  Encounter,
  InitiativeResult,
  Procedure,
  ProcedureOptions,
  RoundInput,
  Schedule,
  StepEntry,
  SurpriseResult,
} from './procedure';
import { resolveOptions } from './procedure';
import { getProcedure } from './registry';
import { initialState } from './common';
import type { EntryOutcome, Hit, HitResult, RoundProgress } from './resolve';
import { landHit, openStep, startProgress } from './resolve';
import type { Json, PatchOp } from './journal';
import { diff, patch } from './journal';

export type FlowStage = 'declare' | 'resolve' | 'end-of-round';

export interface FlowInterruption {
  round: number;
  step: number;
  casting: string;
  caster: string;
  spell: string;
  outcome: 'interrupted' | 'prevented';
  expended: boolean;
}

export interface FlowState {
  procedure: ProcedureId;
  options: ProcedureOptions;
  encounter: Encounter;
  stage: FlowStage;
  /** 0 = the surprise segments (or surprise round), then 1, 2, … */
  round: number;
  /** Index of the current step while resolving. */
  step: number;
  surprise: SurpriseResult;
  baseInitiative: Record<string, number>;
  declarations: Record<string, Declaration>;
  initiative: InitiativeResult | null;
  schedule: Schedule | null;
  progress: RoundProgress;
  /** States when the round began (end-of-round steps compare with them). */
  roundStart: Record<string, CombatantState>;
  /** Outcomes of each step opened so far this round. */
  outcomes: { entry: StepEntry; outcome: EntryOutcome }[][];
  hits: { target: string; wounds: number; by?: string; step: number }[];
  interruptions: FlowInterruption[];
  /** Castings carried into the round being declared. */
  carry: Casting[];
  owed: Record<string, number>;
  cancelled: string[];
  moraleRequests: { combatant: string; trigger: string; opposed?: number }[];
  end: EndOfRoundResult | null;
}

export type FlowResult<T = unknown> = { ok: true; state: FlowState; detail?: T } | { ok: false; problem: Problem };

const refuse = (key: string, data?: Problem['data']): { ok: false; problem: Problem } => ({
  ok: false,
  problem: data ? { key, data } : { key },
});

function procedureOf(state: Pick<FlowState, 'procedure'>): Procedure<ProcedureOptions> {
  return getProcedure(state.procedure);
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function nameOf(state: FlowState, id: string): string {
  return state.encounter.combatants.find((c) => c.id === id)?.name ?? id;
}

/** Does this surprise result give a surprise phase (round 0) before round 1? */
function hasSurprisePhase(procedure: Procedure<ProcedureOptions>, encounter: Encounter, surprise: SurpriseResult, options: ProcedureOptions): boolean {
  if (!Object.values(surprise.surprised).some((n) => n > 0)) return false;
  if (surprise.unit === 'segments') return true;
  return procedure.planSurprise(encounter, surprise, {}, options) !== null;
}

/* ------------------------------------------------------------------ start */

/** Start a combat: freeze procedure and options, roll surprise (once) and per-combat initiative. */
export function startFlow(procedureId: unknown, givenOptions: ProcedureOptions, encounter: Encounter, dice: Dice): FlowResult {
  let procedure: Procedure<ProcedureOptions>;
  try {
    procedure = getProcedure(procedureId);
  } catch (err) {
    if (err instanceof RulesError) return { ok: false, problem: err.problem };
    throw err;
  }
  const { options, problems } = resolveOptions(procedure, givenOptions);
  if (problems.length > 0) return { ok: false, problem: problems[0] };
  for (const c of encounter.combatants) {
    if (!encounter.sides.some((s) => s.id === c.side)) return refuse('UnknownSide', { name: c.name, side: c.side });
  }
  const enc = clone(encounter);
  const surprise = procedure.rollSurprise(enc, dice, options);
  const baseInitiative = procedure.rollCombatInitiative(enc, enc.combatants, dice, options);
  const states: Record<string, CombatantState> = {};
  for (const c of enc.combatants) states[c.id] = initialState(c);
  const round = hasSurprisePhase(procedure, enc, surprise, options) ? 0 : 1;
  const state: FlowState = {
    procedure: procedure.id,
    options,
    encounter: enc,
    stage: 'declare',
    round,
    step: 0,
    surprise,
    baseInitiative,
    declarations: {},
    initiative: null,
    schedule: null,
    progress: { states, status: {} },
    roundStart: clone(states),
    outcomes: [],
    hits: [],
    interruptions: [],
    carry: [],
    owed: {},
    cancelled: [],
    moraleRequests: [],
    end: null,
  };
  return { ok: true, state };
}

/* ----------------------------------------------------------- declarations */

/**
 * Has the combatant a copy of this spell still in memory? Its memorized
 * copies (Combatant.spells, one entry per copy) less those expended in this
 * combat. Without a spell list nothing is known, so nothing is refused.
 */
function spellAvailable(state: FlowState, decl: Declaration): boolean {
  if (decl.action !== 'spell' || !decl.spell) return true;
  const c = state.encounter.combatants.find((x) => x.id === decl.combatant);
  if (!c?.spells) return true;
  const have = c.spells.filter((s) => s === decl.spell).length;
  const spent = (state.progress.states[c.id]?.expended ?? []).filter((s) => s === decl.spell).length;
  return have > spent;
}

/** Record a declaration (validated by the procedure). Only while declaring. */
export function declare(state: FlowState, decl: Declaration): FlowResult {
  if (state.stage !== 'declare') return refuse('NotDeclaring');
  const combatant = state.encounter.combatants.find((c) => c.id === decl?.combatant);
  if (!combatant) return refuse('UnknownCombatant', { id: String(decl?.combatant) });
  const procedure = procedureOf(state);
  const cs = state.progress.states[combatant.id];
  if (!cs || !procedure.canAct(cs)) return refuse('CombatantCannotAct', { name: combatant.name });
  const problem = procedure.validateDeclaration(decl, combatant, state.options);
  if (problem) return { ok: false, problem };
  if (!spellAvailable(state, decl)) return refuse('SpellNotMemorized', { name: combatant.name, spell: decl.spell ?? '' });
  const next = clone(state);
  next.declarations[combatant.id] = clone(decl);
  return { ok: true, state: next };
}

export function withdrawDeclaration(state: FlowState, combatantId: string): FlowResult {
  if (state.stage !== 'declare') return refuse('NotDeclaring');
  if (!state.declarations[combatantId]) return refuse('NoDeclaration', { name: nameOf(state, combatantId) });
  const next = clone(state);
  delete next.declarations[combatantId];
  return { ok: true, state: next };
}

/* ------------------------------------------------------------- the round */

function openCurrentStep(state: FlowState): void {
  const procedure = procedureOf(state);
  if (!state.schedule || state.step >= state.schedule.steps.length) return;
  state.outcomes[state.step] = openStep(procedure, state.schedule, state.step, state.progress);
}

/** Roll initiative and plan the round from the declarations; begins resolution. */
export function beginRound(state: FlowState, dice: Dice): FlowResult {
  if (state.stage !== 'declare') return refuse('NotDeclaring');
  const procedure = procedureOf(state);
  const next = clone(state);
  let schedule: Schedule | null;
  if (next.round === 0) {
    schedule = procedure.planSurprise(next.encounter, next.surprise, next.declarations, next.options);
    if (!schedule) {
      // Nobody acts before round 1 after all: the declarations stand for round 1.
      next.round = 1;
      return beginRound(next, dice);
    }
    next.initiative = null;
  } else {
    const input: RoundInput = {
      round: next.round,
      declarations: next.declarations,
      states: next.progress.states,
      surprise: next.surprise,
      baseInitiative: next.baseInitiative,
      carryIn: next.carry,
      owed: next.owed,
    };
    next.initiative = procedure.rollInitiative(next.encounter, input, dice, next.options);
    schedule = procedure.planRound(next.encounter, input, next.initiative, next.options);
  }
  next.schedule = schedule;
  next.progress = startProgress(schedule, next.progress.states, next.cancelled);
  next.roundStart = clone(next.progress.states);
  next.outcomes = [];
  next.hits = [];
  next.interruptions = [];
  next.owed = {};
  next.end = null;
  next.stage = 'resolve';
  next.step = 0;
  openCurrentStep(next);
  return { ok: true, state: next };
}

function endRound(next: FlowState, dice: Dice): void {
  const procedure = procedureOf(next);
  const schedule = next.schedule as Schedule;
  next.carry = schedule.carryOut.filter((c) => next.progress.status[c.id] === 'pending');
  if (next.round === 0) {
    // The surprise segments have no end-of-round steps.
    next.end = { states: next.progress.states, events: [] };
  } else {
    next.end = procedure.endOfRound(
      next.encounter,
      {
        round: next.round,
        before: next.roundStart,
        after: next.progress.states,
        hits: next.hits.map(({ target, wounds, by }) => (by === undefined ? { target, wounds } : { target, wounds, by })),
        moraleRequests: next.moraleRequests,
      },
      dice,
      next.options,
    );
    next.progress.states = clone(next.end.states);
  }
  // Morale asked for during the surprise segments is checked at the end of round 1.
  if (next.round !== 0) next.moraleRequests = [];
  next.stage = 'end-of-round';
}

/** Move forward: next step, end of round, or the next round's declarations. */
export function next(state: FlowState, dice: Dice): FlowResult {
  if (state.stage === 'declare') return beginRound(state, dice);
  const n = clone(state);
  if (n.stage === 'resolve') {
    const last = (n.schedule?.steps.length ?? 0) - 1;
    if (n.step < last) {
      n.step += 1;
      openCurrentStep(n);
    } else {
      n.step = last + 1;
      endRound(n, dice);
    }
    return { ok: true, state: n };
  }
  // end-of-round → the next round's declarations, defaulting to "same as last round".
  const procedure = procedureOf(n);
  const kept: Record<string, Declaration> = {};
  for (const [id, d] of Object.entries(n.declarations)) {
    const cs = n.progress.states[id];
    // "Same as last round", as long as it can be done again (a spell needs a copy left).
    if (cs && procedure.canAct(cs) && spellAvailable(n, d)) kept[id] = d;
  }
  n.declarations = kept;
  n.round += 1;
  n.stage = 'declare';
  n.step = 0;
  n.schedule = null;
  n.initiative = null;
  n.outcomes = [];
  n.cancelled = [];
  n.end = null;
  n.progress = { states: n.progress.states, status: {} };
  return { ok: true, state: n };
}

/* ----------------------------------------------------------------- damage */

/**
 * Damage taken now. While resolving it lands at the current step; before
 * the round is planned it threatens only castings carried over from the last
 * round; after the last step it lands after every step.
 */
export function damage(state: FlowState, hit: Hit): FlowResult<HitResult> {
  const target = state.encounter.combatants.find((c) => c.id === hit?.target);
  if (!target) return refuse('UnknownCombatant', { id: String(hit?.target) });
  if (typeof hit.amount !== 'number' || !Number.isFinite(hit.amount)) return refuse('NumberInvalid', { name: target.name, field: 'amount' });
  const procedure = procedureOf(state);
  const n = clone(state);
  let schedule: Schedule;
  let k: number;
  if (n.stage === 'declare' || !n.schedule) {
    // Only carried-over castings are under way: model them as a schedule of no steps.
    const never = Number.MAX_SAFE_INTEGER; // devices are never interrupted
    schedule = {
      procedure: n.procedure,
      round: n.round,
      steps: [],
      castings: n.carry.map((c) => ({ ...c, lossFrom: c.device ? never : 0, preventFrom: c.device ? never : 0, completeStep: null })),
      carryOut: [],
    };
    for (const c of schedule.castings) n.progress.status[c.id] ??= 'pending';
    k = 0;
  } else {
    schedule = n.schedule;
    k = n.stage === 'resolve' ? n.step : n.schedule.steps.length;
  }
  const result = landHit(procedure, target, schedule, k, n.progress, hit, n.options);
  // Healing (a negative amount) keeps the engine's health in step with the actor; it is no hit.
  if (hit.amount > 0) n.hits.push({ target: hit.target, wounds: result.damage.wounds, step: k, ...(hit.by !== undefined ? { by: hit.by } : {}) });
  for (const i of result.interruptions) n.interruptions.push({ ...i, round: n.round, step: k });
  if (n.stage === 'declare') n.carry = n.carry.filter((c) => n.progress.status[c.id] === 'pending');
  return { ok: true, state: n, detail: result };
}

/** The GM undoes an interruption (from its chat card): the casting goes on and the spell is restored. */
export function undoInterruption(state: FlowState, castingId: string): FlowResult {
  const record = state.interruptions.find((i) => i.casting === castingId && i.round === state.round);
  if (!record) return refuse('NoInterruption');
  const n = clone(state);
  n.interruptions = n.interruptions.filter((i) => i !== n.interruptions.find((j) => j.casting === castingId && j.round === n.round));
  n.progress.status[castingId] = 'pending';
  if (record.expended) {
    const list = n.progress.states[record.caster].expended;
    const at = list.lastIndexOf(record.spell);
    if (at >= 0) list.splice(at, 1);
  }
  if (n.stage === 'declare') {
    const carried = state.schedule?.carryOut.find((c) => c.id === castingId);
    if (carried && !n.carry.some((c) => c.id === castingId)) n.carry.push(carried);
  }
  return { ok: true, state: n };
}

/** The caster elects not to complete a spell ("may elect not to cast the spell"). */
export function cancelCasting(state: FlowState, castingId: string): FlowResult {
  const casting = state.schedule?.castings.find((c) => c.id === castingId);
  if (!casting || state.progress.status[castingId] !== 'pending') return refuse('NoCasting');
  const n = clone(state);
  n.progress.status[castingId] = 'cancelled';
  n.cancelled.push(castingId);
  return { ok: true, state: n };
}

/**
 * Before round 1 is played: the window of addict's phase 4 (opening morale),
 * after the surprise check and before the surprise segments.
 */
export function beforeFirstRound(state: FlowState): boolean {
  if (state.stage !== 'declare') return false;
  if (state.round === 0) return true;
  // Round 1 declarations come after the surprise segments when there were any.
  return state.round === 1 && !Object.values(state.surprise.surprised).some((n) => n > 0);
}

/**
 * Opening morale (addict phase 4): the procedure checks the named combatants
 * now, before anyone acts (requestMorale, by contrast, waits for the end of a
 * round).
 */
export function openingMorale(
  state: FlowState,
  requests: readonly { combatant: string; trigger: string; opposed?: number }[],
  dice: Dice,
): FlowResult<EndEvent[]> {
  const procedure = procedureOf(state);
  if (!procedure.openingMorale || !beforeFirstRound(state)) return { ok: false, problem: { key: 'NoOpeningMorale' } };
  for (const r of requests) {
    if (!state.encounter.combatants.some((c) => c.id === r.combatant)) return { ok: false, problem: { key: 'UnknownCombatant', data: { id: r.combatant } } };
  }
  const result = procedure.openingMorale(state.encounter, requests.map((r) => ({ ...r })), state.progress.states, dice, state.options);
  const next = structuredClone(state);
  next.progress.states = structuredClone(result.states);
  return { ok: true, state: next, detail: result.events };
}

/* ------------------------------------------------------------ combatants */

/** A combatant joins: now if the round is being resolved (late joiner), else from the next planning. */
export function addCombatant(state: FlowState, combatant: Combatant, dice: Dice, declaration?: Declaration): FlowResult {
  if (state.encounter.combatants.some((c) => c.id === combatant.id)) return refuse('AlreadyInCombat', { name: combatant.name });
  if (!state.encounter.sides.some((s) => s.id === combatant.side)) return refuse('UnknownSide', { name: combatant.name, side: combatant.side });
  const procedure = procedureOf(state);
  if (declaration) {
    const problem = procedure.validateDeclaration(declaration, combatant, state.options);
    if (problem) return { ok: false, problem };
  }
  const n = clone(state);
  n.encounter.combatants.push(clone(combatant));
  n.progress.states[combatant.id] = initialState(combatant);
  n.roundStart[combatant.id] = initialState(combatant);
  n.surprise.surprised[combatant.id] = 0;
  if (declaration) n.declarations[combatant.id] = clone(declaration);
  if (n.stage === 'resolve' && n.schedule) {
    const res = procedure.lateJoin(
      n.encounter,
      combatant,
      { round: n.round, schedule: n.schedule, currentStep: n.step, declaration, baseInitiative: n.baseInitiative },
      dice,
      n.options,
    );
    n.schedule = res.schedule;
    if (res.baseInitiative !== undefined) n.baseInitiative[combatant.id] = res.baseInitiative;
    if (res.owedNextRound !== undefined) n.owed[combatant.id] = res.owedNextRound;
  } else {
    Object.assign(n.baseInitiative, procedure.rollCombatInitiative(n.encounter, [combatant], dice, n.options));
  }
  return { ok: true, state: n };
}

export function removeCombatant(state: FlowState, combatantId: string): FlowResult {
  if (!state.encounter.combatants.some((c) => c.id === combatantId)) return refuse('UnknownCombatant', { id: combatantId });
  const n = clone(state);
  n.encounter.combatants = n.encounter.combatants.filter((c) => c.id !== combatantId);
  delete n.declarations[combatantId];
  // Keep its state (history and recaps name it) but it no longer acts.
  if (n.progress.states[combatantId]) n.progress.states[combatantId].condition = 'fled';
  return { ok: true, state: n };
}

/** The GM moves a combatant to another side; it counts from the next planning. */
export function moveToSide(state: FlowState, combatantId: string, sideId: string): FlowResult {
  const c = state.encounter.combatants.find((x) => x.id === combatantId);
  if (!c) return refuse('UnknownCombatant', { id: combatantId });
  if (!state.encounter.sides.some((s) => s.id === sideId)) return refuse('UnknownSide', { name: c.name, side: sideId });
  const n = clone(state);
  n.encounter.combatants.find((x) => x.id === combatantId)!.side = sideId;
  return { ok: true, state: n };
}

export function addSide(state: FlowState, side: Side): FlowResult {
  if (state.encounter.sides.some((s) => s.id === side.id)) return refuse('SideExists', { side: side.name });
  const n = clone(state);
  n.encounter.sides.push(clone(side));
  return { ok: true, state: n };
}

/** The GM asks for a morale check at the end of this round (intimidation, a lopsided fight…). */
export function requestMorale(state: FlowState, request: { combatant: string; trigger: string; opposed?: number }): FlowResult {
  if (!state.encounter.combatants.some((c) => c.id === request.combatant)) return refuse('UnknownCombatant', { id: request.combatant });
  const n = clone(state);
  n.moraleRequests.push(clone(request));
  return { ok: true, state: n };
}

/* ---------------------------------------------------------------- reading */

/** The entries of the current step, with their outcomes (empty outside resolution). */
export function currentEntries(state: FlowState): { entry: StepEntry; outcome: EntryOutcome }[] {
  if (state.stage !== 'resolve') return [];
  return state.outcomes[state.step] ?? [];
}

/** The combatants who act in the current step, in order: the first is the Combat's "current combatant". */
export function currentActors(state: FlowState): string[] {
  const seen = new Set<string>();
  for (const { entry, outcome } of currentEntries(state)) {
    if (outcome === 'acts' || outcome === 'begins' || outcome === 'goes-off') seen.add(entry.combatant);
  }
  return [...seen];
}

/* ---------------------------------------------------------------- journal */

/**
 * A flow with its undo history. Each history entry is the reverse patch of
 * one transition (journal.ts), so Previous restores the exact earlier state
 * while the Combat stores only what changed.
 */
export interface FlowJournal {
  state: FlowState;
  history: PatchOp[][];
}

export const HISTORY_LIMIT = 200;

type JournalResult = { ok: true; journal: FlowJournal } | { ok: false; problem: Problem };

export function record(journal: FlowJournal, result: FlowResult): JournalResult {
  if (!result.ok) return result;
  const back = diff(result.state as unknown as Json, journal.state as unknown as Json);
  const history = [...journal.history, back].slice(-HISTORY_LIMIT);
  return { ok: true, journal: { state: result.state, history } };
}

export function previous(journal: FlowJournal): JournalResult {
  if (journal.history.length === 0) return refuse('NothingToUndo');
  const back = journal.history[journal.history.length - 1];
  const state = patch(journal.state as unknown as Json, back) as unknown as FlowState;
  return { ok: true, journal: { state, history: journal.history.slice(0, -1) } };
}
