/**
 * The Combat of Ten Segments: core turn order is replaced by the procedure's
 * schedule. The combat flow (src/rules/flow.ts) lives in system data as JSON,
 * with its undo history as reverse patches; every transition is one update
 * of this document. round and turn are mirrored so core features that read
 * `combat.combatant` see the first actor of the current step.
 */
import type { Declaration, Problem } from '../rules/model';
import type { FlowJournal, FlowResult, FlowState } from '../rules/flow';
import * as flow from '../rules/flow';
import type { Hit, HitResult } from '../rules/resolve';
import { SECONDS_PER_SEGMENT, SEGMENTS_PER_ROUND } from '../rules/model';
import { withRolls } from './dice';
import type { Dice } from '../rules/dice';
import { turnChangeOptions } from './compat';
import { buildEncounter, engineCombatant, groupIdOf, sideOf } from './encounter';
import { SYSTEM_ID } from '../settings';
import { notifyProblem } from './problems';
import { applySync, planSync } from './sync';
import { postEndOfRoundCard } from './chat';

/** What the Combat keeps in system data (see src/data for the schema). */
export interface CombatSystem {
  /** The flow state as JSON, "" before the combat starts. */
  flow: string;
  /** Reverse patches, oldest first, as JSON. */
  history: string[];
}

type Transition = (state: FlowState, dice: Dice) => FlowResult;

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

  /** The update that stores a journal: one write, round and turn mirrored. */
  updateDataFor(journal: FlowJournal): Record<string, unknown> {
    const state = journal.state;
    const turns = this.orderedCombatants(state);
    const first = this.currentActorIds(state)[0];
    const turn = first ? Math.max(0, turns.findIndex((c) => c.id === first)) : 0;
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
   * defeated), and post the end-of-round card when the round has just ended.
   */
  async commit(journal: FlowJournal, direction: 1 | -1 = 1, skipHealthOf: readonly string[] = []): Promise<this> {
    const before = this.flowState;
    const data = this.updateDataFor(journal);
    const advance = direction * (data.round !== this.round ? SEGMENTS_PER_ROUND * SECONDS_PER_SEGMENT : 0);
    await this.update(data as never, turnChangeOptions(direction, advance) as never);
    await applySync(this, planSync(before, journal.state, skipHealthOf));
    if (direction === 1 && journal.state.stage === 'end-of-round' && before?.stage !== 'end-of-round') {
      await postEndOfRoundCard(this, journal.state);
    }
    return this;
  }

  /** Run a transition on the current flow; a refusal is shown and nothing is written. */
  async transition(step: Transition, direction: 1 | -1 = 1): Promise<Problem | null> {
    const journal = this.journal;
    if (!journal) return { key: 'CombatNotStarted' };
    const { result } = await withRolls((dice) => flow.record(journal, step(journal.state, dice)));
    const recorded = result;
    if (!recorded.ok) return recorded.problem;
    await this.commit(recorded.journal, direction);
    return null;
  }

  /* --------------------------------------------------------- core API */

  /** Core order: combatants by their first appearance in this round's schedule, the rest after. */
  orderedCombatants(state: FlowState | null = this.flowState): Combatant.Implementation[] {
    const all = [...this.combatants.contents];
    if (!state?.schedule) return all.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
    const first = new Map<string, number>();
    state.schedule.steps.forEach((step, i) => {
      for (const e of step.entries) if (!first.has(e.combatant)) first.set(e.combatant, i);
    });
    const rank = (c: Combatant.Implementation) => first.get(c.id as string) ?? Number.MAX_SAFE_INTEGER;
    return all.sort((a, b) => rank(a) - rank(b) || (a.name ?? '').localeCompare(b.name ?? ''));
  }

  override setupTurns(): Combatant.Implementation[] {
    const turns = this.orderedCombatants();
    this.turns = turns;
    return turns;
  }

  /** Start: freeze the world's procedure and options, roll surprise, open declarations. */
  override async startCombat(): Promise<this> {
    if (!game.user?.isGM) return this.refuse({ key: 'OnlyGM' });
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
      if (decl) {
        const declared = flow.declare(state, { ...decl, combatant: c.id as string });
        if (declared.ok) state = declared.state;
      }
    }
    Hooks.callAll('combatStart', this, { round: Math.max(1, state.round), turn: 0 });
    await this.commit({ state, history: [] });
    return this;
  }

  override async nextTurn(): Promise<this> {
    if (!game.user?.isGM) return this.refuse({ key: 'OnlyGMAdvances' });
    const problem = await this.transition((s, d) => flow.next(s, d));
    return problem ? this.refuse(problem) : this;
  }

  override async previousTurn(): Promise<this> {
    if (!game.user?.isGM) return this.refuse({ key: 'OnlyGMAdvances' });
    const journal = this.journal;
    if (!journal) return this.refuse({ key: 'CombatNotStarted' });
    const back = flow.previous(journal);
    if (!back.ok) return this.refuse(back.problem);
    await this.commit(back.journal, -1);
    return this;
  }

  /** Next round: every remaining step and the end of the round, in one write. */
  override async nextRound(): Promise<this> {
    if (!game.user?.isGM) return this.refuse({ key: 'OnlyGMAdvances' });
    let journal = this.journal;
    if (!journal) return this.refuse({ key: 'CombatNotStarted' });
    const startRound = journal.state.round;
    const start = journal;
    const { result } = await withRolls((dice) => {
      let j = start;
      for (let guard = 0; guard < 10_000; guard++) {
        const recorded = flow.record(j, flow.next(j.state, dice));
        if (!recorded.ok) return recorded;
        j = recorded.journal;
        if (j.state.round > startRound && j.state.stage === 'declare') break;
      }
      return { ok: true as const, journal: j };
    });
    if (!result.ok) return this.refuse(result.problem);
    journal = result.journal;
    await this.commit(journal);
    return this;
  }

  /** Previous round: back to the declarations of the round before. */
  override async previousRound(): Promise<this> {
    if (!game.user?.isGM) return this.refuse({ key: 'OnlyGMAdvances' });
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
    await this.commit(journal, -1);
    return this;
  }

  /** Initiative is rolled for sides (or everyone) by the procedure, never per combatant. */
  override async rollInitiative(): Promise<this> {
    if (!game.user?.isGM) return this.refuse({ key: 'OnlyGM' });
    const state = this.flowState;
    if (!state) return this.refuse({ key: 'CombatNotStarted' });
    if (state.stage !== 'declare') return this.refuse({ key: 'NotDeclaring' });
    const problem = await this.transition((s, d) => flow.beginRound(s, d));
    return problem ? this.refuse(problem) : this;
  }

  override async rollAll(): Promise<this> {
    return this.rollInitiative();
  }

  override async rollNPC(): Promise<this> {
    return this.rollInitiative();
  }

  /* -------------------------------------------------- GM-side operations */

  /** Record a declaration (already authorised). */
  async recordDeclaration(combatantId: string, declaration: Declaration): Promise<Problem | null> {
    return this.transition((s) => flow.declare(s, { ...declaration, combatant: combatantId }));
  }

  /** Damage taken by a combatant now: returns what the engine decided (interruptions, falls). */
  async recordHit(hit: Hit): Promise<{ problem: Problem } | { result: HitResult }> {
    const journal = this.journal;
    if (!journal) return { problem: { key: 'CombatNotStarted' } };
    const res = flow.damage(journal.state, hit);
    if (!res.ok) return { problem: res.problem };
    const recorded = flow.record(journal, res);
    if (!recorded.ok) return { problem: recorded.problem };
    // The actor already shows the damage: copy everything but its health.
    await this.commit(recorded.journal, 1, [hit.target]);
    return { result: res.detail as HitResult };
  }

  async undoInterruption(castingId: string): Promise<Problem | null> {
    return this.transition((s) => flow.undoInterruption(s, castingId));
  }

  /** The GM moves a combatant to another side (a CombatantGroup). */
  async moveToSide(combatantId: string, groupId: string): Promise<Problem | null> {
    const combatant = this.combatants.get(combatantId);
    if (!combatant) return { key: 'UnknownCombatant', data: { id: combatantId } };
    const state = this.flowState;
    if (state) {
      const moved = flow.moveToSide(state, combatantId, groupId);
      if (!moved.ok) {
        if (moved.problem.key !== 'UnknownSide') return moved.problem;
        const group = this.groups.get(groupId);
        if (!group) return moved.problem;
        const added = flow.addSide(state, sideOf(group));
        if (!added.ok) return added.problem;
        const again = flow.moveToSide(added.state, combatantId, groupId);
        if (!again.ok) return again.problem;
        await combatant.update({ group: groupId } as never);
        return this.transition(() => again);
      }
      await combatant.update({ group: groupId } as never);
      return this.transition(() => moved);
    }
    await combatant.update({ group: groupId } as never);
    return null;
  }

  /** A combatant added while the combat runs joins the flow (late joiner). */
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
    return this.transition((_, dice) => flow.addCombatant(base, engine.combatant, dice));
  }

  private refuse(problem: Problem): this {
    notifyProblem(problem);
    return this;
  }
}
