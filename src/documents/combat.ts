/**
 * The Combat of Ten Segments: core turn order is replaced by the procedure's
 * schedule. The combat flow (src/rules/flow.ts) lives in system data as JSON,
 * with its undo history as reverse patches; every transition is one update
 * of this document. round and turn are mirrored so core features that read
 * `combat.combatant` see the first actor of the current step.
 *
 * Core's hooks fire as core fires them: `combatStart` before the start is
 * written, `combatTurn` / `combatRound` (with `{direction, worldTime: {delta}}`)
 * before a step or round change is written. The world clock advances with
 * the round (one minute a round, the surprise segments six seconds each).
 * Transitions of one combat run one after another (see queries.ts
 * `serialize`), so a declaration arriving while the GM presses Next cannot
 * overwrite it.
 */
import type { Declaration, Problem } from '../rules/model';
import type { FlowJournal, FlowResult, FlowState } from '../rules/flow';
import * as flow from '../rules/flow';
import type { Hit, HitResult } from '../rules/resolve';
import { SECONDS_PER_SEGMENT, SEGMENTS_PER_ROUND } from '../rules/model';
import { getProcedure } from '../rules/registry';
import { withRolls } from './dice';
import type { Dice } from '../rules/dice';
import { turnChangeOptions } from './compat';
import { buildEncounter, engineCombatant, groupIdOf, sideOf } from './encounter';
import { SYSTEM_ID } from '../settings';
import { notifyProblem } from './problems';
import { authorize } from './permissions';
import { applySync, planSync } from './sync';
import { postEndOfRoundCard, postMoraleCard } from './chat';
import { serialize } from './queries';

/** What the Combat keeps in system data (see src/data for the schema). */
export interface CombatSystem {
  /** The flow state as JSON, "" before the combat starts. */
  flow: string;
  /** Reverse patches, oldest first, as JSON. */
  history: string[];
}

type Transition = (state: FlowState, dice: Dice) => FlowResult;

/** A morale check the GM calls for (intimidation, overwhelming fear…). */
export interface MoraleRequest {
  combatant: string;
  trigger: string;
  opposed?: number;
}

interface CommitOptions {
  /** 1 forward, -1 back (Previous). */
  direction?: 1 | -1;
  /** A move through the round (step or round change): core's combatTurn / combatRound hook and the world clock. */
  navigate?: boolean;
  /** Combatants whose actors already show the health the flow now has (a hit just taken). */
  skipHealthOf?: readonly string[];
  /** End-of-round states passed through, oldest first: each gets its chat card. */
  ended?: readonly FlowState[];
}

/** Core's combat hooks, with the update data and options this system sends (core's own {round, turn} plus system data). */
function callHook(hook: 'combatStart' | 'combatTurn' | 'combatRound', ...args: unknown[]): void {
  (Hooks.callAll as unknown as (hook: string, ...args: unknown[]) => void)(hook, ...args);
}

const SECONDS_PER_ROUND = SEGMENTS_PER_ROUND * SECONDS_PER_SEGMENT;

/**
 * Seconds of combat before `state`'s round begins: the surprise segments (six
 * seconds each) or surprise round, then a minute a round. Only differences
 * are used, so a procedure without round 0 never needs its length.
 */
export function secondsBeforeRound(state: FlowState | null): number {
  if (!state || state.round <= 0) return 0;
  const surprised = Object.values(state.surprise?.surprised ?? {});
  const surprise =
    state.surprise?.unit === 'segments'
      ? Math.min(SEGMENTS_PER_ROUND, Math.max(0, ...surprised.filter((n) => Number.isFinite(n)))) * SECONDS_PER_SEGMENT
      : SECONDS_PER_ROUND;
  return surprise + (state.round - 1) * SECONDS_PER_ROUND;
}

export class TenSegmentsCombat extends Combat {
  #cache: { raw: string; history: string[]; journal: FlowJournal } | null = null;

  get tensegSystem(): CombatSystem {
    return this.system as unknown as CombatSystem;
  }

  /** The flow and its history, or null before the combat starts. */
  get journal(): FlowJournal | null {
    const sys = this.tensegSystem;
    if (!sys?.flow) return null;
    if (this.#cache?.raw !== sys.flow || this.#cache.history !== sys.history) {
      this.#cache = {
        raw: sys.flow,
        history: sys.history,
        journal: { state: JSON.parse(sys.flow) as FlowState, history: (sys.history ?? []).map((h) => JSON.parse(h)) },
      };
    }
    return this.#cache.journal;
  }

  get flowState(): FlowState | null {
    return this.journal?.state ?? null;
  }

  /* ------------------------------------------------------------ writing */

  /** Combatant ids (documents) acting in the current step, first one first. */
  currentActorIds(state: FlowState | null = this.flowState): string[] {
    return state ? flow.currentActors(state) : [];
  }

  /**
   * The update that stores a journal: one write, round and turn mirrored.
   * `turn` points at the first actor of the current step in core's order;
   * null while nobody acts (declarations, end of round, a step of nobody).
   */
  updateDataFor(journal: FlowJournal): Record<string, unknown> {
    const state = journal.state;
    const turns = this.orderedCombatants(state);
    const first = this.currentActorIds(state).find((id) => turns.some((c) => c.id === id));
    const turn = first ? turns.findIndex((c) => c.id === first) : null;
    return {
      round: Math.max(1, state.round),
      turn,
      'system.flow': JSON.stringify(state),
      'system.history': journal.history.map((h) => JSON.stringify(h)),
    };
  }

  /**
   * Store a new journal in one update, then copy onto actors and combatants
   * what the engine changed (spells expended, health the flow changed,
   * defeated), and post the end-of-round card of every round that ended.
   */
  async commit(journal: FlowJournal, options: CommitOptions = {}): Promise<this> {
    const { direction = 1, navigate = false, skipHealthOf = [] } = options;
    const before = this.flowState;
    const data = this.updateDataFor(journal);
    let updateOptions: Record<string, unknown> = {};
    if (navigate) {
      updateOptions = turnChangeOptions(direction, secondsBeforeRound(journal.state) - secondsBeforeRound(before));
      // Core announces the change before writing it; a hook may still adjust the update.
      callHook(data.round !== this.round ? 'combatRound' : 'combatTurn', this, data, updateOptions);
    }
    await this.update(data as never, updateOptions as never);
    await applySync(this, planSync(before, journal.state, skipHealthOf));
    if (direction === 1) {
      const ended = options.ended ?? (journal.state.stage === 'end-of-round' && before?.stage !== 'end-of-round' ? [journal.state] : []);
      for (const state of ended) await postEndOfRoundCard(this, state);
    }
    return this;
  }

  /**
   * Run a transition on the current flow; a refusal is returned and nothing
   * is written. The caller holds the combat's queue (see `exclusive`).
   */
  async transition(step: Transition, direction: 1 | -1 = 1, navigate = false): Promise<Problem | null> {
    const journal = this.journal;
    if (!journal) return { key: 'CombatNotStarted' };
    const { result: recorded } = await withRolls((dice) => flow.record(journal, step(journal.state, dice)));
    if (!recorded.ok) return recorded.problem;
    await this.commit(recorded.journal, { direction, navigate });
    return null;
  }

  /** Run `task` after every other transition of this combat (declarations, hits, the GM's buttons). */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return serialize(this.id as string, task);
  }

  /* --------------------------------------------------------- core API */

  /** Round and turn follow the flow: only the GM's transitions change them (core lets players by default). */
  protected override _canChangeRound(user: User.Implementation): boolean {
    return authorize('changeStep', user) === null;
  }

  protected override _canChangeTurn(user: User.Implementation): boolean {
    return authorize('changeStep', user) === null;
  }


  /** Core order: combatants by their first appearance in this round's schedule, the rest after. */
  orderedCombatants(state: FlowState | null = this.flowState): Combatant.Implementation[] {
    const all = [...this.combatants.contents];
    const byName = (a: Combatant.Implementation, b: Combatant.Implementation) =>
      (a.name ?? '').localeCompare(b.name ?? '') || ((a.id as string) > (b.id as string) ? 1 : -1);
    if (!state?.schedule) return all.sort(byName);
    const first = new Map<string, number>();
    state.schedule.steps.forEach((step, i) => {
      for (const e of step.entries) if (!first.has(e.combatant)) first.set(e.combatant, i);
    });
    const rank = (c: Combatant.Implementation) => first.get(c.id as string) ?? Number.MAX_SAFE_INTEGER;
    return all.sort((a, b) => rank(a) - rank(b) || byName(a, b));
  }

  /** Core's setupTurns with the schedule's order (core sorts by initiative); keeps core's state tracking. */
  override setupTurns(): Combatant.Implementation[] {
    const turns = this.orderedCombatants();
    this.turns = turns;
    if (this.turn !== null && this.turn !== undefined && (this.turn < 0 || this.turn >= turns.length)) this.turn = turns.length > 0 ? 0 : null;
    this.current = this._getCurrentState(this.turn === null ? undefined : turns[this.turn]);
    if (!this.previous) this.previous = this.current;
    return turns;
  }

  /** A new flow may reorder the combatants: core only re-sorts when combatants change, so sort before core reads `combatant`. */
  protected override _onUpdate(...args: Parameters<Combat['_onUpdate']>): void {
    const [changed] = args;
    if (foundry.utils.hasProperty(changed as object, 'system.flow')) this.turns = this.orderedCombatants();
    super._onUpdate(...args);
  }

  /** Start: freeze the world's procedure and options, roll surprise, open declarations. */
  override async startCombat(): Promise<this> {
    const denied = authorize('manage', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      if (this.journal) return this.refuse({ key: 'CombatAlreadyStarted' });
      const procedure = game.settings!.get(SYSTEM_ID, 'procedure');
      const allOptions = game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {};
      const built = buildEncounter(this);
      if ('problem' in built) return this.refuse(built.problem);
      const { result } = await withRolls((dice) => flow.startFlow(procedure, allOptions[procedure] ?? {}, built.encounter, dice));
      if (!result.ok) return this.refuse(result.problem);
      // Declarations made before the start survive it.
      let state = result.state;
      for (const c of this.combatants) {
        const decl = (c.system as unknown as { declaration?: Declaration | null })?.declaration;
        if (!decl) continue;
        const declared = flow.declare(state, { ...decl, combatant: c.id as string });
        if (declared.ok) state = declared.state;
        else notifyProblem(declared.problem);
      }
      const journal = { state, history: [] };
      const data = this.updateDataFor(journal);
      callHook('combatStart', this, data);
      await this.update(data as never);
      return this;
    });
  }

  override async nextTurn(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const problem = await this.transition((s, d) => flow.next(s, d), 1, true);
      return problem ? this.refuse(problem) : this;
    });
  }

  override async previousTurn(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const journal = this.journal;
      if (!journal) return this.refuse({ key: 'CombatNotStarted' });
      const back = flow.previous(journal);
      if (!back.ok) return this.refuse(back.problem);
      await this.commit(back.journal, { direction: -1, navigate: true });
      return this;
    });
  }

  /** Next round: every remaining step and the end of the round, in one write. */
  override async nextRound(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const start = this.journal;
      if (!start) return this.refuse({ key: 'CombatNotStarted' });
      const startRound = start.state.round;
      const { result } = await withRolls((dice) => {
        let j = start;
        const ended: FlowState[] = [];
        for (let guard = 0; guard < 10_000; guard++) {
          const recorded = flow.record(j, flow.next(j.state, dice));
          if (!recorded.ok) return recorded;
          j = recorded.journal;
          if (j.state.stage === 'end-of-round') ended.push(j.state);
          if (j.state.round > startRound && j.state.stage === 'declare') break;
        }
        return { ok: true as const, journal: j, ended };
      });
      if (!result.ok) return this.refuse(result.problem);
      await this.commit(result.journal, { navigate: true, ended: result.ended });
      return this;
    });
  }

  /** Previous round: back to the declarations of this round, or of the round before when already there. */
  override async previousRound(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      let journal = this.journal;
      if (!journal) return this.refuse({ key: 'CombatNotStarted' });
      const target = journal.state.stage === 'declare' ? journal.state.round - 1 : journal.state.round;
      let moved = false;
      while (journal.history.length > 0) {
        const back = flow.previous(journal);
        if (!back.ok) break;
        journal = back.journal;
        moved = true;
        if (journal.state.round <= target && journal.state.stage === 'declare') break;
      }
      if (!moved) return this.refuse({ key: 'NothingToUndo' });
      await this.commit(journal, { direction: -1, navigate: true });
      return this;
    });
  }

  /** Initiative is rolled for sides (or everyone) by the procedure, never per combatant. */
  override async rollInitiative(): Promise<this> {
    const denied = authorize('rollInitiative', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const state = this.flowState;
      if (!state) return this.refuse({ key: 'CombatNotStarted' });
      if (state.stage !== 'declare') return this.refuse({ key: 'NotDeclaring' });
      const problem = await this.transition((s, d) => flow.beginRound(s, d), 1, true);
      return problem ? this.refuse(problem) : this;
    });
  }

  override async rollAll(): Promise<this> {
    return this.rollInitiative();
  }

  override async rollNPC(): Promise<this> {
    return this.rollInitiative();
  }

  /* -------------------------------------------------- GM-side operations */

  /** Record a declaration (already authorised; the caller holds the queue). */
  async recordDeclaration(combatantId: string, declaration: Declaration): Promise<Problem | null> {
    return this.transition((s) => flow.declare(s, { ...declaration, combatant: combatantId }));
  }

  /** Damage taken by a combatant now: returns what the engine decided (interruptions, falls). The caller holds the queue. */
  async recordHit(hit: Hit): Promise<{ problem: Problem } | { result: HitResult }> {
    const journal = this.journal;
    if (!journal) return { problem: { key: 'CombatNotStarted' } };
    const res = flow.damage(journal.state, hit);
    if (!res.ok) return { problem: res.problem };
    const recorded = flow.record(journal, res);
    if (!recorded.ok) return { problem: recorded.problem };
    // The actor already shows the damage: copy everything but its health.
    await this.commit(recorded.journal, { skipHealthOf: [hit.target] });
    return { result: res.detail as HitResult };
  }

  /** The caller holds the queue (damage.ts undoFromCard). */
  async undoInterruption(castingId: string): Promise<Problem | null> {
    return this.transition((s) => flow.undoInterruption(s, castingId));
  }

  /** The GM moves a combatant to another side (a CombatantGroup); the engine counts it from the next planning. */
  async moveToSide(combatantId: string, groupId: string): Promise<Problem | null> {
    const denied = authorize('manage', game.user);
    if (denied) return this.report(denied);
    return this.exclusive(async () => {
      const combatant = this.combatants.get(combatantId);
      if (!combatant) return this.report({ key: 'UnknownCombatant', data: { id: combatantId } });
      const group = this.groups.get(groupId);
      if (!group) return this.report({ key: 'UnknownSide', data: { name: combatant.name ?? '', side: groupId } });
      const state = this.flowState;
      if (state?.encounter.combatants.some((c) => c.id === combatantId)) {
        let base = state;
        if (!state.encounter.sides.some((s) => s.id === groupId)) {
          const added = flow.addSide(state, sideOf(group));
          if (!added.ok) return this.report(added.problem);
          base = added.state;
        }
        const moved = flow.moveToSide(base, combatantId, groupId);
        if (!moved.ok) return this.report(moved.problem);
        await combatant.update({ group: groupId } as never);
        return this.report(await this.transition(() => moved));
      }
      await combatant.update({ group: groupId } as never);
      return null;
    });
  }

  /**
   * A combatant added while the combat runs joins the flow (late joiner),
   * with the declaration it was created with (`system.declaration`), if any.
   * The caller holds the queue (combatant.ts).
   */
  async joinFlow(combatant: Combatant.Implementation): Promise<Problem | null> {
    const state = this.flowState;
    if (!state || state.encounter.combatants.some((c) => c.id === combatant.id)) return null;
    const groupId = groupIdOf(combatant);
    const group = groupId ? this.groups.get(groupId) : undefined;
    const side = group ? sideOf(group) : null;
    let base = state;
    if (side && !state.encounter.sides.some((s) => s.id === side.id)) {
      const added = flow.addSide(state, side);
      if (!added.ok) return added.problem;
      base = added.state;
    }
    const engine = engineCombatant(combatant, side?.id ?? state.encounter.sides[0]?.id ?? 'none');
    if ('problem' in engine) return engine.problem;
    const stored = (combatant.system as unknown as { declaration?: Declaration | null }).declaration;
    const declaration = stored ? { ...stored, combatant: combatant.id as string } : undefined;
    return this.transition((_, dice) => flow.addCombatant(base, engine.combatant, dice, declaration));
  }

  /**
   * The GM calls for a morale check. Before round 1 of a procedure with an
   * opening morale check (addict phase 4) it is rolled at once and shown in
   * a chat card; otherwise it is rolled with the end of this round's steps.
   */
  async requestMorale(request: MoraleRequest | MoraleRequest[]): Promise<Problem | null> {
    const denied = authorize('manage', game.user);
    if (denied) return this.report(denied);
    const requests = Array.isArray(request) ? request : [request];
    return this.exclusive(async () => {
      const journal = this.journal;
      if (!journal) return this.report({ key: 'CombatNotStarted' });
      const state = journal.state;
      if (getProcedure(state.procedure).openingMorale && flow.beforeFirstRound(state)) {
        const { result } = await withRolls((dice) => {
          const checked = flow.openingMorale(state, requests, dice);
          return checked.ok ? { checked, recorded: flow.record(journal, checked) } : { checked, recorded: null };
        });
        if (!result.checked.ok) return this.report(result.checked.problem);
        if (!result.recorded?.ok) return this.report(result.recorded ? result.recorded.problem : { key: 'NoOpeningMorale' });
        await this.commit(result.recorded.journal);
        await postMoraleCard(this, result.recorded.journal.state, result.checked.detail ?? []);
        return null;
      }
      // The surprise segments (round 0) have no end of round: flow.ts would drop the request.
      if (state.round === 0) return this.report({ key: 'MoraleInSurprise' });
      let next: FlowResult = { ok: true, state };
      for (const r of requests) {
        next = next.ok ? flow.requestMorale(next.state, r) : next;
      }
      if (!next.ok) return this.report(next.problem);
      const done = next;
      return this.report(await this.transition(() => done));
    });
  }

  private refuse(problem: Problem): this {
    notifyProblem(problem);
    return this;
  }

  /** Show a problem (if any) to the user and hand it back. */
  private report(problem: Problem | null): Problem | null {
    if (problem) notifyProblem(problem);
    return problem;
  }
}
