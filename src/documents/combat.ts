/**
 * The Combat of Ten Segments: core turn order is replaced by the procedure's
 * schedule.
 *
 * What is stored: `system.log`, the combat as its log of transitions
 * (src/rules/flow/log.ts) — the start, then each input with the dice it
 * rolled, one keyed entry per transition. Every client replays the log with
 * the engine (kept between reads, so a new entry replays only itself); the GM's
 * client alone writes it, one update per transition, carrying only the new
 * entries and core's `round` and `turn` (kept in step so core's hooks, turn
 * marker and clock work). Previous deletes the last entry.
 *
 * The GM's declarations for combatants no player owns are held on the GM's
 * client until initiative is rolled, then enter the log with it (seed 004,
 * phase 6: the DM "privately notes" them).
 *
 * Core's hooks fire as core fires them: `combatStart` before the start is
 * written, `combatTurn` / `combatRound` (with `{direction, worldTime:
 * {delta}}`) before a step or round change is written. The world clock
 * advances with the round (a minute a round, the surprise segments six
 * seconds each). Transitions of one combat run one after another
 * (`exclusive`), so a declaration arriving while the GM presses Next cannot
 * overwrite it.
 */
import type { Declaration, Problem } from '../rules/model';
import { RulesError } from '../rules/model';
import {
  applyInput,
  currentActors,
  declarationProblem,
  entriesOf,
  chainKey,
  FLOW_VERSION,
  FlowLog,
  RecordingDice,
  secondsBeforeRound,
  startCombat,
  type AppliedDetail,
  type FlowInput,
  type FlowState,
  type InputEntry,
  type KeyedLog,
  type LogEntry,
  type MoraleRequest,
} from '../rules/flow';
import { getProcedure, isLoaded, loadProcedure } from '../rules/registry';
import type { ProcedureId } from '../rules/model';
import { isProcedureId } from '../rules/model';
import { withRolls } from './dice';
import { deletionUpdate, turnChangeOptions } from './compat';
import { buildEncounter, engineCombatant, groupIdOf, sideOf } from './encounter';
import { SYSTEM_ID } from '../settings';
import { notifyProblem } from './problems';
import { authorize } from './permissions';
import { applySync, planSync } from './sync';
import { postEndOfRoundCard, postMoraleCard } from './chat';
import { serialize } from './requests';
import { COMBAT_SCHEMA } from '../data/combat-log';

export type { MoraleRequest } from '../rules/flow';

interface TransactOptions {
  /** 1 forward, -1 back (Previous). */
  direction?: 1 | -1;
  /** A move through the round (step or round change): core's combatTurn / combatRound hook and the world clock. */
  navigate?: boolean;
  /** Combatants whose actors already show the health the flow now has (a hit just taken). */
  skipHealthOf?: readonly string[];
}

/** What a transaction did: the state after it and the detail of each input. */
export interface Transacted {
  state: FlowState;
  details: AppliedDetail[];
}

/** Core's combat hooks, with the update data and options this system sends (core's own {round, turn} plus the log). */
function callHook(hook: 'combatStart' | 'combatTurn' | 'combatRound', ...args: unknown[]): void {
  (Hooks.callAll as unknown as (hook: string, ...args: unknown[]) => void)(hook, ...args);
}

/** The procedure a log plays (its start), if any. */
function procedureOfLog(entries: readonly (readonly [string, LogEntry])[]): ProcedureId | null {
  for (const [, e] of entries) {
    if (e.t === 'start' && isProcedureId(e.s.procedure)) return e.s.procedure;
    if (e.t === 'snapshot' && isProcedureId(e.s.procedure)) return e.s.procedure;
  }
  return null;
}

/** A declaration rolls nothing. */
const NO_DICE = {
  roll(): number {
    throw new Error('a declaration rolls no dice');
  },
};

/** GM client: held declarations by combat, kept in a client setting so a reload does not lose them. */
type HeldStore = Record<string, Record<string, Declaration | null>>;

function heldStore(): HeldStore {
  try {
    return structuredClone(game.settings!.get(SYSTEM_ID, 'heldDeclarations') ?? {});
  } catch {
    return {};
  }
}

export class TenSegmentsCombat extends Combat {
  /*
   * The replay and its last result. Declared, not initialised: Foundry builds
   * the turns (and so reads the flow) while the document is still being
   * constructed, before a class field would exist; they are made on first use.
   */
  private declare tensegReplay?: FlowLog;
  /** The state last replayed; forgotten whenever an update changes the log (_onUpdate). */
  private declare tensegCache?: { state: FlowState | null } | null;

  private get replay(): FlowLog {
    return (this.tensegReplay ??= new FlowLog());
  }

  /** The stored log (keyed entries). */
  get log(): KeyedLog {
    return ((this.system as unknown as { log?: KeyedLog })?.log ?? {}) as KeyedLog;
  }

  /** The log's entries in order. */
  get entries(): [string, LogEntry][] {
    return entriesOf(this.log);
  }

  /** The procedure this combat was started with (null before it starts). */
  get loggedProcedure(): ProcedureId | null {
    return procedureOfLog(this.entries);
  }

  /**
   * The flow's state, replayed from the log: the same on every client; null
   * before the combat starts (and while the procedure's rules are loading).
   */
  get flowState(): FlowState | null {
    if (this.tensegCache) return this.tensegCache.state;
    const entries = this.entries;
    if (entries.length === 0) return null;
    const procedure = procedureOfLog(entries);
    if (procedure && !isLoaded(procedure)) {
      void loadProcedure(procedure).then(() => {
        this.tensegCache = null;
        ui.combat?.render();
      });
      return null;
    }
    const { state, problems } = this.replay.read(entries);
    for (const { problem } of problems) console.warn(`Ten Segments | combat ${this.id}:`, problem);
    this.tensegCache = { state };
    return state;
  }

  /* --------------------------------------------------- held declarations */

  /** Declarations the GM holds back until initiative (this client only): combatant id → declaration, or null to withdraw. */
  get held(): Record<string, Declaration | null> {
    return heldStore()[this.id as string] ?? {};
  }

  private async setHeld(held: Record<string, Declaration | null>): Promise<void> {
    const store = heldStore();
    if (Object.keys(held).length === 0) delete store[this.id as string];
    else store[this.id as string] = held;
    await game.settings!.set(SYSTEM_ID, 'heldDeclarations', store);
  }

  /** The declarations as this client sees them: those in the log, with the ones the GM holds (on the GM's client). */
  get gmDeclarations(): Record<string, Declaration> {
    const out: Record<string, Declaration> = { ...(this.flowState?.declarations ?? {}) };
    for (const [id, d] of Object.entries(this.held)) {
      if (d) out[id] = d;
      else delete out[id];
    }
    return out;
  }

  /** Is a declaration for this combatant held back when the GM makes it (nobody but the GM plays it)? */
  holdsFor(combatantId: string): boolean {
    const combatant = this.combatants.get(combatantId);
    return !!game.user?.isGM && !!combatant && !combatant.hasPlayerOwner;
  }

  /* ------------------------------------------------------------ writing */

  /** Combatant ids (documents) acting in the current step, first one first. */
  currentActorIds(state: FlowState | null = this.flowState): string[] {
    return state ? currentActors(state) : [];
  }

  /** Core's round and turn for a flow state: `turn` points at the first actor of the current step; null while nobody acts. */
  turnDataFor(state: FlowState): { round: number; turn: number | null } {
    const turns = this.orderedCombatants(state);
    const first = this.currentActorIds(state).find((id) => turns.some((c) => c.id === id));
    return { round: Math.max(1, state.round), turn: first ? turns.findIndex((c) => c.id === first) : null };
  }

  /**
   * Run inputs on the replayed state as one transaction: each input checked
   * and carried out by the engine (dice rolled as real Foundry rolls and
   * recorded), then one update appending an entry per input; then what the engine changed is copied
   * onto actors and combatants, and chat cards posted. `plan` gives the
   * inputs one at a time (it may look at the state between them); a refusal
   * writes nothing. The caller holds the combat's queue (`exclusive`).
   */
  async transact(plan: (state: FlowState, give: (input: FlowInput) => AppliedDetail | Problem) => Problem | null | void, options: TransactOptions = {}): Promise<{ problem: Problem } | Transacted> {
    const before = this.flowState;
    if (!before) return { problem: { key: 'CombatNotStarted' } };
    await loadProcedure(before.procedure);
    const { result } = await withRolls((dice) => {
      const state = structuredClone(before);
      const made: { entry: InputEntry; detail: AppliedDetail; ended: FlowState | null; opened: boolean }[] = [];
      const give = (input: FlowInput): AppliedDetail | Problem => {
        const recording = new RecordingDice(dice);
        const { stage, opening } = state;
        const done = applyInput(state, input, recording);
        if (!done.ok) return done.problem;
        const entry: InputEntry = { ...structuredClone(input) };
        if (recording.totals.length > 0) entry.r = recording.totals;
        const ended = stage !== 'end-of-round' && state.stage === 'end-of-round' ? structuredClone(state) : null;
        made.push({ entry, detail: done.detail ?? {}, ended, opened: opening === null && state.opening !== null });
        return done.detail ?? {};
      };
      let problem: Problem | null = null;
      try {
        problem = plan(state, give) ?? null;
      } catch (err) {
        if (!(err instanceof RulesError)) throw err;
        problem = err.problem;
      }
      return { problem, state, made };
    });
    if (result.problem) return { problem: result.problem };
    if (result.made.length === 0) return { state: before, details: [] };
    const after = result.state;
    const entries = this.entries;
    const start = entries.length;
    const data: Record<string, unknown> = { ...this.turnDataFor(after) };
    let previous = entries[start - 1]?.[0] ?? null;
    result.made.forEach((m, i) => {
      previous = chainKey(start + i, previous, m.entry);
      data[`system.log.${previous}`] = m.entry;
    });
    await this.write(data, before, after, options);
    for (const m of result.made) if (m.ended) await postEndOfRoundCard(this, m.ended);
    if (result.made.some((m) => m.opened)) await postMoraleCard(this, after, after.opening ?? []);
    return { state: after, details: result.made.map((m) => m.detail) };
  }

  /** One update of the combat (with core's hooks when it moves through the round), then the sync of actors. */
  private async write(data: Record<string, unknown>, before: FlowState | null, after: FlowState, options: TransactOptions): Promise<void> {
    const { direction = 1, navigate = false, skipHealthOf = [] } = options;
    let updateOptions: Record<string, unknown> = {};
    if (navigate) {
      updateOptions = turnChangeOptions(direction, secondsBeforeRound(after) - secondsBeforeRound(before));
      // Core announces the change before writing it; a hook may still adjust the update.
      callHook(data.round !== this.round ? 'combatRound' : 'combatTurn', this, data, updateOptions);
    }
    await this.update(data as never, updateOptions as never);
    await applySync(this, planSync(before, after, skipHealthOf));
  }

  /** Run a single input as a transaction; a refusal is returned and nothing is written. */
  async transition(input: FlowInput, options: TransactOptions = {}): Promise<Problem | null> {
    const done = await this.transact((_, give) => {
      const r = give(input);
      return 'key' in r ? (r as Problem) : null;
    }, options);
    return 'problem' in done ? done.problem : null;
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

  /** A new entry may reorder the combatants: core only re-sorts when combatants change, so sort before core reads `combatant`. */
  protected override _onUpdate(...args: Parameters<Combat['_onUpdate']>): void {
    const [changed] = args;
    if (foundry.utils.hasProperty(changed as object, 'system.log')) {
      // Read the log after every change of it, on every client: entries deleted by Previous are forgotten before any new one arrives.
      this.tensegCache = null;
      this.turns = this.orderedCombatants();
    }
    super._onUpdate(...args);
  }

  /** Start: freeze the world's procedure and options, roll surprise, open declarations. */
  override async startCombat(): Promise<this> {
    const denied = authorize('manage', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      if (this.entries.length > 0) return this.refuse({ key: 'CombatAlreadyStarted' });
      // Stored by an older schema and not migrated yet (the migration reported why): starting would write over it.
      if (Number((this.system as unknown as { schema?: number }).schema ?? COMBAT_SCHEMA) < COMBAT_SCHEMA) return this.refuse({ key: 'CombatNotMigrated' });
      const procedure = game.settings!.get(SYSTEM_ID, 'procedure');
      const allOptions = game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {};
      try {
        await loadProcedure(procedure);
      } catch (err) {
        if (err instanceof RulesError) return this.refuse(err.problem);
        throw err;
      }
      const built = buildEncounter(this);
      if ('problem' in built) return this.refuse(built.problem);
      const { result } = await withRolls((dice) => startCombat(procedure, allOptions[procedure] ?? {}, built.encounter, dice));
      if (!result.ok) return this.refuse(result.problem);
      const startEntry: LogEntry = { t: 'start', v: FLOW_VERSION, s: result.start };
      const startKey = chainKey(0, null, startEntry);
      const state = new FlowLog().read([[startKey, startEntry]]).state as FlowState;
      const data: Record<string, unknown> = { [`system.log.${startKey}`]: startEntry };
      let previous = startKey;
      // Declarations made before the start (players', kept on their combatants) survive it.
      let n = 1;
      for (const c of this.combatants) {
        const decl = (c.system as unknown as { declaration?: Declaration | null })?.declaration;
        if (!decl) continue;
        const input: FlowInput = { t: 'declare', d: { ...decl, combatant: c.id as string } };
        const done = applyInput(state, input, NO_DICE, getProcedure(procedure));
        if (!done.ok) {
          notifyProblem(done.problem);
          continue;
        }
        previous = chainKey(n++, previous, input);
        data[`system.log.${previous}`] = input;
      }
      Object.assign(data, this.turnDataFor(state));
      callHook('combatStart', this, data);
      await this.update(data as never);
      return this;
    });
  }

  /** The inputs that begin the round: the held declarations with initiative. */
  private async beginWithHeld(): Promise<Problem | null> {
    const held = this.held;
    const d = Object.keys(held).length > 0 ? held : undefined;
    const problem = await this.transition(d ? { t: 'begin', d } : { t: 'begin' }, { navigate: true });
    if (!problem && d) await this.setHeld({});
    return problem;
  }

  override async nextTurn(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const state = this.flowState;
      if (!state) return this.refuse({ key: 'CombatNotStarted' });
      const problem = state.stage === 'declare' ? await this.beginWithHeld() : await this.transition({ t: 'next' }, { navigate: true });
      return problem ? this.refuse(problem) : this;
    });
  }

  override async previousTurn(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const problem = await this.undo((entries) => entries.length - 1);
      return problem ? this.refuse(problem) : this;
    });
  }

  /** Next round: every remaining step and the end of the round, in one write. */
  override async nextRound(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const start = this.flowState;
      if (!start) return this.refuse({ key: 'CombatNotStarted' });
      const held = this.held;
      const done = await this.transact(
        (state, give) => {
          for (let guard = 0; guard < 10_000; guard++) {
            const input: FlowInput = state.stage === 'declare' && guard === 0 && Object.keys(held).length > 0 ? { t: 'begin', d: held } : { t: 'next' };
            const r = give(input);
            if ('key' in r) return r as Problem;
            if (state.round > start.round && state.stage === 'declare') return null;
          }
          return null;
        },
        { navigate: true },
      );
      if ('problem' in done) return this.refuse(done.problem);
      if (Object.keys(held).length > 0 && start.stage === 'declare') await this.setHeld({});
      return this;
    });
  }

  /** Previous round: back to the declarations of this round, or of the round before when already there. */
  override async previousRound(): Promise<this> {
    const denied = authorize('changeStep', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const state = this.flowState;
      if (!state) return this.refuse({ key: 'CombatNotStarted' });
      const target = state.stage === 'declare' ? state.round - 1 : state.round;
      const problem = await this.undo((entries) => {
        // The longest earlier log whose state is the declarations of the target round (or earlier).
        const path = this.replay.waypoints();
        for (let k = Math.min(entries.length, path.length) - 1; k >= 1; k--) {
          if (path[k].stage === 'declare' && path[k].round <= target) return k;
        }
        return 1;
      });
      return problem ? this.refuse(problem) : this;
    });
  }

  /**
   * Undo: keep the first `keep(entries)` entries, delete the rest in one
   * write (the start always stays), restore on actors what they changed, and
   * give the GM back the declarations a deleted initiative had taken (plans
   * held for a later round's declarations are dropped with them).
   */
  private async undo(keep: (entries: [string, LogEntry][]) => number): Promise<Problem | null> {
    const entries = this.entries;
    const before = this.flowState;
    if (!before) return { key: 'CombatNotStarted' };
    const k = Math.max(1, keep(entries));
    if (k >= entries.length) return { key: 'NothingToUndo' };
    const after = this.replay.read(entries.slice(0, k)).state as FlowState;
    const data: Record<string, unknown> = { ...this.turnDataFor(after) };
    const back: Record<string, Declaration | null> = {};
    for (const [key, entry] of entries.slice(k)) {
      Object.assign(data, deletionUpdate('system.log', key));
      if (entry.t === 'begin' && entry.d) Object.assign(back, entry.d);
    }
    await this.write(data, before, after, { direction: -1, navigate: true });
    // Held plans belong to the declarations they were made in: leaving those, the GM holds what the deleted initiative had taken (or nothing).
    const stay = before.stage === 'declare' && after.stage === 'declare' && before.round === after.round;
    if (!stay) {
      const held = after.stage === 'declare' ? back : {};
      if (Object.keys(held).length > 0 || Object.keys(this.held).length > 0) await this.setHeld(held);
    }
    return null;
  }

  /** Initiative is rolled for sides (or everyone) by the procedure, never per combatant. */
  override async rollInitiative(): Promise<this> {
    const denied = authorize('rollInitiative', game.user);
    if (denied) return this.refuse(denied);
    return this.exclusive(async () => {
      const state = this.flowState;
      if (!state) return this.refuse({ key: 'CombatNotStarted' });
      if (state.stage !== 'declare') return this.refuse({ key: 'NotDeclaring' });
      const problem = await this.beginWithHeld();
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

  /**
   * Record a declaration (already authorised; the caller holds the queue).
   * The GM's declaration for a combatant no player owns is held back until
   * initiative, after the same checks.
   */
  async recordDeclaration(combatantId: string, declaration: Declaration): Promise<Problem | null> {
    const d = { ...declaration, combatant: combatantId };
    if (!this.holdsFor(combatantId)) return this.transition({ t: 'declare', d });
    const state = this.flowState;
    if (state) {
      await loadProcedure(state.procedure);
      const problem = declarationProblem(state, d);
      if (problem) return problem;
    }
    await this.setHeld({ ...this.held, [combatantId]: d });
    return null;
  }

  /** Damage taken by a combatant now: what the engine decided (interruptions, falls). The caller holds the queue. */
  async recordHit(hit: { target: string; amount: number; by?: string; critical?: boolean }): Promise<{ problem: Problem } | { detail: AppliedDetail }> {
    // The actor already shows the damage: copy everything but its health.
    const done = await this.transact(
      (_, give) => {
        const r = give({ t: 'hit', ...hit });
        return 'key' in r ? (r as Problem) : null;
      },
      { skipHealthOf: [hit.target] },
    );
    return 'problem' in done ? done : { detail: done.details[0] ?? {} };
  }

  /** The caller holds the queue (damage.ts undoFromCard). */
  async undoInterruption(castingId: string): Promise<Problem | null> {
    return this.transition({ t: 'restore', casting: castingId });
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
        const side = sideOf(group);
        const problem = await this.transition({ t: 'move', c: combatantId, side: groupId, ...(state.encounter.sides.some((s) => s.id === groupId) ? {} : { add: side }) });
        if (problem) return this.report(problem);
      }
      await combatant.update({ group: groupId } as never);
      return null;
    });
  }

  /**
   * A combatant added while the combat runs joins the flow (a late joiner
   * while a round is played), with the declaration it was created with
   * (`system.declaration`), if any. The caller holds the queue (combatant.ts).
   */
  async joinFlow(combatant: Combatant.Implementation): Promise<Problem | null> {
    const state = this.flowState;
    if (!state || state.encounter.combatants.some((c) => c.id === combatant.id)) return null;
    const groupId = groupIdOf(combatant);
    const group = groupId ? this.groups.get(groupId) : undefined;
    const side = group ? sideOf(group) : null;
    const engine = engineCombatant(combatant, side?.id ?? state.encounter.sides[0]?.id ?? 'none');
    if ('problem' in engine) return engine.problem;
    const stored = (combatant.system as unknown as { declaration?: Declaration | null }).declaration;
    const input: FlowInput = { t: 'join', c: engine.combatant };
    if (stored) input.d = { ...stored, combatant: combatant.id as string };
    if (side && !state.encounter.sides.some((s) => s.id === side.id)) input.side = side;
    return this.transition(input);
  }

  /** A combatant removed while the combat runs stops acting (its past stays in the flow). The caller holds the queue. */
  async leaveFlow(combatantId: string): Promise<Problem | null> {
    const state = this.flowState;
    if (!state?.encounter.combatants.some((c) => c.id === combatantId)) return null;
    return this.transition({ t: 'leave', c: combatantId });
  }

  /**
   * The GM calls for a morale check. Before round 1 of a procedure with an
   * opening morale check (addict phase 4) it is rolled at once and shown in
   * a chat card; otherwise it is rolled with the end of the round.
   */
  async requestMorale(request: MoraleRequest | MoraleRequest[]): Promise<Problem | null> {
    const denied = authorize('manage', game.user);
    if (denied) return this.report(denied);
    const requests = Array.isArray(request) ? request : [request];
    return this.exclusive(async () => this.report(await this.transition({ t: 'morale', requests })));
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
