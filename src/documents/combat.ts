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
 * One writer: only the active GM's client writes the log. Another GM's
 * buttons send a request to it (requests.ts), as a player's declarations
 * do; a round or turn changed by anyone else (core lets the owner of the
 * current combatant) is put back by the active GM. Entries carry a key made
 * of their number and a hash of the entry before them: should two GMs each
 * write an entry on the same log (a handover while a write was in flight),
 * the active GM plays the later one again on top (re-basing), or drops it
 * with a notice when it no longer fits.
 *
 * The GM's declarations for combatants no player owns are held until
 * initiative is rolled, then enter the log with it (seed 004, phase 6: the
 * DM "privately notes" them).
 *
 * Core's hooks fire as core fires them: `combatStart` before the start is
 * written, `combatTurn` / `combatRound` (with `{direction, worldTime:
 * {delta}}`) before a step or round change is written. The world clock
 * advances with the round (a minute a round, the surprise segments six
 * seconds each). Transitions of one combat run one after another
 * (`exclusive`), so a declaration arriving while the GM presses Next cannot
 * overwrite it.
 */
import type { DamageType, Declaration, Problem } from '../rules/model';
import { RulesError } from '../rules/model';
import {
  applyInput,
  currentActors,
  declarationProblem,
  entriesOf,
  chainKey,
  FLOW_VERSION,
  FlowLog,
  outOfPlace,
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
import { deletionUpdate, gmMode, turnChangeOptions } from './compat';
import { groupIdOf, sideOf } from './encounter';
import { SYSTEM_ID } from '../settings';
import { localizeProblem, notifyProblem } from './problems';
import { authorize, isActiveGM, type CombatAction } from './permissions';
import type { DeclarationRequest } from './declarations';
import { requestCombatAction, type CombatActionRequest, type SideSurprise, type StepAction } from './queries';
import { joinMissing } from './combatant';
import { isPossibleTotal, type Dice, type DieRequest } from '../rules/dice';
import { loadedGMSide, loadGMSide, serialize, type GMSide } from './requests';
import { COMBAT_SCHEMA } from '../data/combat-log';
import { combatData, combatantData } from '../data/systems';

export type { MoraleRequest } from '../rules/flow';

interface TransactOptions {
  /** 1 forward, -1 back (Previous). */
  direction?: 1 | -1;
  /** A move through the round (step or round change): core's combatTurn / combatRound hook and the world clock. */
  navigate?: boolean;
  /** Combatants whose actors already show the health the flow now has (a hit just taken). */
  skipHealthOf?: readonly string[];
  /** The request that asks for this (its key, on the first entry): a retry finds it (madeBy). */
  q?: string;
  /** On a leave: who left (madeBy's counterpart for a combatant coming back, joinFlow). */
  k?: string;
  /** Initiative dice rolled at the table by hand, by side id or combatant id: given to the engine instead of rolling (handDice). */
  manual?: Readonly<Record<string, number>>;
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

/** Dice that give the totals an entry first rolled while they still fit, then roll anew (an entry re-based, Combat#rebase). */
function firstRecorded(totals: readonly number[], fresh: Dice): Dice {
  let i = 0;
  return {
    roll(request: DieRequest): number {
      const t = totals[i++];
      if (typeof t === 'number' && t >= request.count && t <= request.count * request.faces) return t;
      return fresh.roll(request);
    },
  };
}

/**
 * Initiative dice rolled at the table by hand: the engine's initiative die
 * for a combatant (where the procedure rolls per combatant) or a side takes
 * the total given for it, checked against the die, once; every other die
 * is rolled. `used` collects the ids whose totals were taken.
 */
function handDice(given: Readonly<Record<string, number>>, fresh: Dice, used: Set<string>, nameOf: (id: string) => string): Dice {
  return {
    roll(request: DieRequest): number {
      if (request.purpose !== 'initiative') return fresh.roll(request);
      // A die asked for again for the same roller (a tie rolled again) is rolled.
      const who = [request.combatant, request.side].find((id): id is string => id !== undefined && Object.prototype.hasOwnProperty.call(given, id));
      if (who === undefined || used.has(who)) return fresh.roll(request);
      const total = given[who];
      if (!isPossibleTotal(request, total)) {
        throw new RulesError({ key: 'InitiativeDieImpossible', data: { name: nameOf(who), value: total, die: `${request.count}d${request.faces}` } });
      }
      used.add(who);
      return total;
    },
  };
}

/** Held declarations by combat, in a world setting the active GM writes (a reload or a handover keeps them). */
/** Does a spell or device go off in the step being played (its outcome is decided as the step is reached)? The card is the GM side's (chat.ts). */
function spellGoesOff(state: FlowState): boolean {
  const step = state.stage === 'resolve' ? state.schedule?.steps[state.step] : undefined;
  const outcomes = state.outcomes[state.step] ?? [];
  return !!step && step.entries.some((e, i) => e.kind === 'cast-complete' && outcomes[i] === 'goes-off');
}

/** The combatants in turn order: in v14's typings stored documents (`Combatant.Stored`), as core's own `turns`. */
type Turns = ReturnType<Combat['setupTurns']>;

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
    return combatData(this)?.log ?? {};
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

  /** Declarations the GM holds back until initiative (GMs only): combatant id → declaration, or null to withdraw. */
  get held(): Record<string, Declaration | null> {
    if (!game.user?.isGM) return {};
    return heldStore()[this.id as string] ?? {};
  }

  private async setHeld(held: Record<string, Declaration | null>): Promise<void> {
    if (!isActiveGM()) return;
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
    if (!isActiveGM()) return { problem: { key: 'NotActiveGM' } };
    const before = this.flowState;
    if (!before) return { problem: { key: 'CombatNotStarted' } };
    await loadProcedure(before.procedure);
    const { result } = await withRolls((rolled) => {
      const used = new Set<string>();
      const dice = options.manual ? handDice(options.manual, rolled, used, (id) => this.nameOfId(id)) : rolled;
      const state = structuredClone(before);
      const made: { entry: InputEntry; detail: AppliedDetail; ended: FlowState | null; begun: FlowState | null; opened: boolean; spellOff: FlowState | null }[] = [];
      const give = (input: FlowInput): AppliedDetail | Problem => {
        const recording = new RecordingDice(dice);
        const { stage, opening, round, step } = state;
        const done = applyInput(state, input, recording);
        if (!done.ok) return done.problem;
        const entry: InputEntry = { ...structuredClone(input) };
        if (recording.totals.length > 0) entry.r = recording.totals;
        if (made.length === 0 && options.q) entry.q = options.q;
        if (made.length === 0 && options.k) entry.k = options.k;
        const ended = stage !== 'end-of-round' && state.stage === 'end-of-round' ? structuredClone(state) : null;
        // A round begun: its initiative rolled and its steps planned (the surprise segments roll none).
        const begun = stage === 'declare' && state.stage !== 'declare' && state.initiative !== null ? structuredClone(state) : null;
        // A step just reached in which a spell goes off: its card (the spells' outcomes are decided as the step is reached).
        const reached = state.stage === 'resolve' && (stage !== 'resolve' || round !== state.round || step !== state.step);
        const spellOff = reached && spellGoesOff(state) ? structuredClone(state) : null;
        made.push({ entry, detail: done.detail ?? {}, ended, begun, opened: opening === null && state.opening !== null, spellOff });
        return done.detail ?? {};
      };
      let problem: Problem | null = null;
      try {
        problem = plan(state, give) ?? null;
      } catch (err) {
        if (!(err instanceof RulesError)) throw err;
        problem = err.problem;
      }
      // A die entered by hand that the engine never asked for (a side that rolls none, a combatant not rolling): refused, not ignored.
      const unused = Object.keys(options.manual ?? {}).find((id) => !used.has(id));
      if (!problem && unused !== undefined) problem = { key: 'InitiativeDieUnused', data: { name: this.nameOfId(unused) } };
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
    const gm = loadedGMSide() ?? (await loadGMSide());
    for (const m of result.made) {
      if (m.begun) await gm.postInitiativeCard(this, m.begun);
      if (m.spellOff) await gm.postSpellOffCard(this, m.spellOff);
      if (m.ended) await gm.postEndOfRoundCard(this, m.ended);
    }
    if (result.made.some((m) => m.opened)) await gm.postMoraleCard(this, after, after.opening ?? []);
    // A new round: combatants in the tracker but not in the fight join it (combatant.ts).
    if (after.round > before.round) await joinMissing(this);
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
    await this.update(data, updateOptions);
    const gm = loadedGMSide() ?? (await loadGMSide());
    await gm.applySync(this, gm.planSync(before, after, skipHealthOf));
  }

  /** A combatant's or a side's name, for a refusal (the id itself when neither). */
  private nameOfId(id: string): string {
    return this.combatants.get(id)?.name ?? this.groups.get(id)?.name ?? id;
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

  /**
   * Round and turn follow the flow: only the GM's transitions change them
   * (core lets the owner of the current combatant). This stops an honest
   * client only; Foundry's server runs core's rule, so the active GM puts back
   * what anyone else wrote (_onUpdate).
   */
  protected override _canChangeRound(user: User.Implementation): boolean {
    return authorize('changeStep', user) === null;
  }

  protected override _canChangeTurn(user: User.Implementation): boolean {
    return authorize('changeStep', user) === null;
  }

  /** Has the request with this key (sender:id) made an entry already? (A retry is answered without doing it again.) */
  madeBy(q: string): boolean {
    const entries = this.entries;
    for (let i = entries.length - 1; i >= 0; i--) if ((entries[i][1] as InputEntry).q === q) return true;
    return false;
  }

  /** Core order: combatants by their first appearance in this round's schedule, the rest after. */
  orderedCombatants(state: FlowState | null = this.flowState): Turns {
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
  override setupTurns(): Turns {
    const turns = this.orderedCombatants();
    this.turns = turns;
    if (this.turn !== null && this.turn !== undefined && (this.turn < 0 || this.turn >= turns.length)) this.turn = turns.length > 0 ? 0 : null;
    this.current = this._getCurrentState(this.turn === null ? undefined : turns[this.turn]);
    if (!this.previous) this.previous = this.current;
    return turns;
  }

  /** A new entry may reorder the combatants: core only re-sorts when combatants change, so sort before core reads `combatant`. */
  protected override _onUpdate(...args: Parameters<Combat['_onUpdate']>): void {
    const [changed, , userId] = args;
    const logChanged = foundry.utils.hasProperty(changed as object, 'system.log');
    if (logChanged) {
      // Read the log after every change of it, on every client: entries deleted by Previous are forgotten before any new one arrives.
      this.tensegCache = null;
      this.turns = this.orderedCombatants();
    }
    super._onUpdate(...args);
    if (!isActiveGM()) return;
    const author = game.users?.get(userId as string);
    const stepChanged = 'round' in (changed as object) || 'turn' in (changed as object);
    if (stepChanged && !author?.isGM) void this.exclusive(() => this.putBackStep(author?.name ?? String(userId)));
    if (logChanged && userId !== game.user?.id) void this.exclusive(() => this.rebase());
  }

  /** The active GM: round and turn back to what the flow says, after a change by a non-GM. */
  private async putBackStep(who: string): Promise<void> {
    const state = this.flowState;
    if (!state) return;
    const data = this.turnDataFor(state);
    if (data.round === this.round && data.turn === this.turn) return;
    await this.update(data);
    notifyProblem({ key: 'TurnReverted', data: { user: who } });
  }

  /**
   * The active GM: entries another GM wrote on a log it had not fully seen
   * (a handover with a write in flight) are played again on top, each checked
   * again and with the dice it rolled; one that no longer fits is dropped
   * with a notice. One write.
   */
  private async rebase(): Promise<void> {
    const entries = this.entries;
    const at = outOfPlace(entries);
    if (at < 1) return;
    const before = this.flowState;
    const base = this.replay.read(entries.slice(0, at)).state;
    if (!before || !base) return;
    await loadProcedure(base.procedure);
    const state = structuredClone(base);
    const data: Record<string, unknown> = {};
    for (const [key] of entries.slice(at)) Object.assign(data, deletionUpdate('system.log', key));
    let previous = entries[at - 1][0];
    let n = at;
    const { result: dropped } = await withRolls((fresh) => {
      const out: Problem[] = [];
      for (const [, entry] of entries.slice(at)) {
        if (entry.t === 'start' || entry.t === 'snapshot' || entry.t === 'patch') continue;
        const { r, q, k, ...input } = entry;
        const recording = new RecordingDice(firstRecorded(r ?? [], fresh));
        const done = applyInput(state, input as FlowInput, recording);
        if (!done.ok) {
          out.push(done.problem);
          continue;
        }
        const redo: InputEntry = { ...(input as FlowInput) };
        if (recording.totals.length > 0) redo.r = recording.totals;
        if (q) redo.q = q;
        if (k) redo.k = k;
        previous = chainKey(n++, previous, redo);
        data[`system.log.${previous}`] = redo;
      }
      return out;
    });
    Object.assign(data, this.turnDataFor(state));
    await this.update(data);
    const gm = loadedGMSide() ?? (await loadGMSide());
    await gm.applySync(this, gm.planSync(before, state));
    for (const problem of dropped) notifyProblem({ key: 'RebaseDropped', data: { reason: localizeProblem(problem) } });
  }

  /**
   * A combat control on this client: refused when this user may not, sent to
   * the active GM when this client is not it, else carried out in the
   * combat's queue.
   */
  private async command(action: StepAction, right: CombatAction, extra: Omit<CombatActionRequest, 'combatId' | 'action'> = {}): Promise<Problem | null> {
    const denied = authorize(right, game.user);
    if (denied) return this.report(denied);
    if (!isActiveGM()) {
      const done = await requestCombatAction(this, action, extra);
      if (!done.ok) ui.notifications?.error(done.message);
      return done.ok ? null : { key: done.key };
    }
    return this.report(await this.exclusive(() => this.run(action, extra)));
  }

  /** The active GM's side of a control another GM pressed (handlers/queries.ts): in the combat's queue; a retry is not done again. */
  async control(req: CombatActionRequest, q: string): Promise<Problem | null> {
    return this.exclusive(async () => (this.madeBy(q) ? null : this.run(req.action, req, q)));
  }

  /** Carry out a control (the caller holds the queue, on the active GM's client). */
  private async run(action: StepAction, req: Omit<CombatActionRequest, 'combatId' | 'action'>, q?: string): Promise<Problem | null> {
    if (action === 'startCombat') return this.start(req.surpriseGMOnly === true, req.surpriseSides);
    if (action === 'moveToSide') return this.move(req.combatantId ?? '', req.groupId ?? '', q);
    if (action === 'morale') {
      const m: MoraleRequest = { combatant: req.combatantId ?? '', trigger: req.trigger ?? '' };
      if (req.opposed !== undefined) m.opposed = req.opposed;
      if (req.method !== undefined) m.method = req.method;
      if (req.score !== undefined) m.score = req.score;
      if (req.passed !== undefined) m.passed = req.passed;
      return this.transition({ t: 'morale', requests: [m] }, { q });
    }
    const state = this.flowState;
    if (!state) return { key: 'CombatNotStarted' };
    switch (action) {
      case 'nextTurn':
        return state.stage === 'declare' ? this.beginWithHeld(q) : this.transition({ t: 'next' }, { navigate: true, q });
      case 'previousTurn':
        return this.undo((entries) => entries.length - 1);
      case 'nextRound':
        return this.skipRound(state, q);
      case 'previousRound': {
        const target = state.stage === 'declare' ? state.round - 1 : state.round;
        return this.undo((entries) => {
          // The longest earlier log whose state is the declarations of the target round (or earlier).
          const path = this.replay.waypoints();
          for (let k = Math.min(entries.length, path.length) - 1; k >= 1; k--) {
            if (path[k].stage === 'declare' && path[k].round <= target) return k;
          }
          return 1;
        });
      }
      case 'rollInitiative':
        return state.stage === 'declare' ? this.beginWithHeld(q, req.dice) : { key: 'NotDeclaring' };
      case 'undoInterruption':
        return this.transition({ t: 'restore', casting: req.castingId ?? '' }, { q });
    }
  }

  /** Start: freeze the world's procedure and options, roll surprise, open declarations. */
  /**
   * Start. From the surprise dialog: `sides`, each side's surprise as the GM
   * set it (written to its CombatantGroup as the combat starts, nothing if
   * it does not), and `surpriseGMOnly`, the surprise card for the GMs only
   * (public by default: seed 004's footnote).
   */
  override async startCombat(options: { surpriseGMOnly?: boolean; sides?: Record<string, SideSurprise> } = {}): Promise<this> {
    await this.startWithSurprise(options);
    return this;
  }

  /** startCombat with the answer: null when started, else the problem (already told in words). */
  async startWithSurprise(options: { surpriseGMOnly?: boolean; sides?: Record<string, SideSurprise> } = {}): Promise<Problem | null> {
    const extra: Omit<CombatActionRequest, 'combatId' | 'action'> = {};
    if (options.surpriseGMOnly) extra.surpriseGMOnly = true;
    if (options.sides && Object.keys(options.sides).length > 0) extra.surpriseSides = options.sides;
    return this.command('startCombat', 'manage', extra);
  }

  /** A declaration kept on a combatant before it entered the flow, checked as the request it was (anyone may create a combatant with one). */
  private storedDeclaration(c: Combatant.Implementation, { declarationRequestProblem, isDeclarationRequest, declarationFromRequest }: GMSide): Declaration | null {
    const stored = combatantData(c)?.declaration;
    if (stored === null || stored === undefined) return null;
    const name = c.name ?? '';
    const shape = declarationRequestProblem(stored);
    const o = stored.override;
    const given = o !== undefined && o !== null && o !== '' && !(typeof o === 'object' && Object.keys(o as object).length === 0);
    const override = given ? { key: 'OverrideGMOnly' } : null;
    const problem = shape ?? override;
    if (problem || !isDeclarationRequest(stored)) {
      notifyProblem({ key: 'DeclarationStoredInvalid', data: { name, reason: localizeProblem(problem ?? { key: 'MalformedRequest' }) } });
      return null;
    }
    const built = declarationFromRequest(c, stored);
    if ('problem' in built) {
      notifyProblem({ key: 'DeclarationStoredInvalid', data: { name, reason: localizeProblem(built.problem) } });
      return null;
    }
    return { ...built.declaration, combatant: c.id as string };
  }

  private async start(surpriseGMOnly = false, sides?: Record<string, SideSurprise>): Promise<Problem | null> {
    if (this.entries.length > 0) return { key: 'CombatAlreadyStarted' };
    // Stored by an older schema and not migrated yet (the migration reported why): starting would write over it.
    if ((combatData(this)?.version ?? COMBAT_SCHEMA) < COMBAT_SCHEMA) return { key: 'CombatNotMigrated' };
    const procedure = game.settings!.get(SYSTEM_ID, 'procedure');
    const allOptions = game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {};
    try {
      await loadProcedure(procedure);
    } catch (err) {
      if (err instanceof RulesError) return err.problem;
      throw err;
    }
    // The engine's view of the documents and the request schema (for declarations stored on combatants) are the GM's side of requests, a chunk loaded on first use.
    const gm = loadedGMSide() ?? (await loadGMSide());
    const built = gm.buildEncounter(this);
    if ('problem' in built) return built.problem;
    // The sides as the GM set them in the surprise dialog: rolled with, and written only once the start is sure.
    const staged = gm.stageSurprise(this, built.encounter, sides);
    if ('problem' in staged) return staged.problem;
    const { result } = await withRolls((dice) => startCombat(procedure, allOptions[procedure] ?? {}, built.encounter, dice));
    if (!result.ok) return result.problem;
    const startEntry: LogEntry = { t: 'start', v: FLOW_VERSION, s: result.start };
    const startKey = chainKey(0, null, startEntry);
    const state = new FlowLog().read([[startKey, startEntry]]).state as FlowState;
    const data: Record<string, unknown> = { [`system.log.${startKey}`]: startEntry };
    let previous = startKey;
    // Declarations made before the start (players', kept on their combatants) survive it, checked again.
    let n = 1;
    for (const c of this.combatants) {
      const decl = this.storedDeclaration(c, gm);
      if (!decl) continue;
      const input: FlowInput = { t: 'declare', d: decl };
      const done = applyInput(state, input, NO_DICE, getProcedure(procedure));
      if (!done.ok) {
        notifyProblem(done.problem);
        continue;
      }
      previous = chainKey(n++, previous, input);
      data[`system.log.${previous}`] = input;
    }
    Object.assign(data, this.turnDataFor(state));
    if (staged.updates.length > 0) await this.updateEmbeddedDocuments('CombatantGroup', staged.updates as never);
    callHook('combatStart', this, data);
    await this.update(data);
    // The surprise, as it was rolled (public by default: seed 004, footnote; for the GMs only when the GM chose so).
    await gm.postSurpriseCard(this, state, surpriseGMOnly ? gmMode() : undefined);
    return null;
  }

  /** The inputs that begin the round: the held declarations with initiative. */
  private async beginWithHeld(q?: string, manual?: Readonly<Record<string, number>>): Promise<Problem | null> {
    const held = this.held;
    const d = Object.keys(held).length > 0 ? held : undefined;
    const problem = await this.transition(d ? { t: 'begin', d } : { t: 'begin' }, { navigate: true, q, ...(manual && Object.keys(manual).length > 0 ? { manual } : {}) });
    if (!problem && d) await this.setHeld({});
    return problem;
  }

  override async nextTurn(): Promise<this> {
    await this.command('nextTurn', 'changeStep');
    return this;
  }

  override async previousTurn(): Promise<this> {
    await this.command('previousTurn', 'changeStep');
    return this;
  }

  /** Next round: every remaining step and the end of the round, in one write. */
  override async nextRound(): Promise<this> {
    await this.command('nextRound', 'changeStep');
    return this;
  }

  private async skipRound(start: FlowState, q?: string): Promise<Problem | null> {
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
      { navigate: true, q },
    );
    if ('problem' in done) return done.problem;
    if (Object.keys(held).length > 0 && start.stage === 'declare') await this.setHeld({});
    return null;
  }

  /** Previous round: back to the declarations of this round, or of the round before when already there. */
  override async previousRound(): Promise<this> {
    await this.command('previousRound', 'changeStep');
    return this;
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
    await this.command('rollInitiative', 'rollInitiative');
    return this;
  }

  /** Initiative with dice rolled at the table by hand (by side id, or combatant id where the procedure rolls per combatant); a refusal is shown and returned. */
  async rollInitiativeWith(dice: Record<string, number>): Promise<Problem | null> {
    return this.command('rollInitiative', 'rollInitiative', { dice });
  }

  override async rollAll(): Promise<this> {
    return this.rollInitiative();
  }

  override async rollNPC(): Promise<this> {
    return this.rollInitiative();
  }

  /* -------------------------------------------------- GM-side operations */

  /**
   * Record a declaration (already authorised and built from the documents;
   * the caller holds the queue, on the active GM's client). The GM's plan
   * for a combatant no player owns is held back until initiative, after the
   * same checks. A declaration the same as the one recorded writes nothing
   * (a request sent again).
   */
  async recordDeclaration(combatantId: string, declaration: Declaration, how: { q?: string; hold?: boolean } = {}): Promise<Problem | null> {
    const d = { ...declaration, combatant: combatantId };
    if (!how.hold) {
      const current = this.flowState?.declarations[combatantId];
      if (current && JSON.stringify(current) === JSON.stringify(d)) return null;
      return this.transition({ t: 'declare', d }, { q: how.q });
    }
    const state = this.flowState;
    if (state) {
      await loadProcedure(state.procedure);
      const problem = declarationProblem(state, d);
      if (problem) return problem;
    }
    await this.setHeld({ ...this.held, [combatantId]: d });
    return null;
  }

  /** Forget a plan held for this combatant (a later declaration for it replaced it). */
  async dropHeld(combatantId: string): Promise<void> {
    const held = this.held;
    if (!(combatantId in held)) return;
    delete held[combatantId];
    await this.setHeld(held);
  }

  /** Withdraw (cancel) a declaration; the caller holds the queue. */
  async withdrawDeclaration(combatantId: string, how: { q?: string; hold?: boolean } = {}): Promise<Problem | null> {
    if (how.hold && combatantId in this.held) {
      await this.dropHeld(combatantId);
      return null;
    }
    return this.transition({ t: 'withdraw', c: combatantId }, { q: how.q });
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

  /**
   * An attack the engine accepted, and the damage it did, as one write; the
   * target's health then follows from the flow (sync). The caller holds the queue.
   */
  async recordAttack(
    attack: FlowInput & { t: 'attack' },
    damage: number,
    q: string,
    hit: { critical?: boolean; type?: DamageType } = {},
  ): Promise<{ problem: Problem } | { detail: AppliedDetail }> {
    const done = await this.transact(
      (_, give) => {
        const a = give(attack);
        if ('key' in a) return a as Problem;
        if (damage <= 0) return null;
        // individual-speed: a critical hit goes past Stress, and its damage type picks the Combat Injury table.
        const h = give({ t: 'hit', target: attack.target, amount: damage, by: attack.c, ...(hit.critical ? { critical: true } : {}), ...(hit.type !== undefined ? { type: hit.type } : {}) });
        return 'key' in h ? (h as Problem) : null;
      },
      { q },
    );
    return 'problem' in done ? done : { detail: done.details[1] ?? {} };
  }

  /** The GM moves a combatant to another side (a CombatantGroup); the engine counts it from the next planning. */
  async moveToSide(combatantId: string, groupId: string): Promise<Problem | null> {
    return this.command('moveToSide', 'manage', { combatantId, groupId });
  }

  private async move(combatantId: string, groupId: string, q?: string): Promise<Problem | null> {
    const combatant = this.combatants.get(combatantId);
    if (!combatant) return { key: 'UnknownCombatant', data: { id: combatantId } };
    const group = this.groups.get(groupId);
    if (!group) return { key: 'UnknownSide', data: { name: combatant.name ?? '', side: groupId } };
    const state = this.flowState;
    if (state?.encounter.combatants.some((c) => c.id === combatantId)) {
      const side = sideOf(group);
      const problem = await this.transition({ t: 'move', c: combatantId, side: groupId, ...(state.encounter.sides.some((s) => s.id === groupId) ? {} : { add: side }) }, { q });
      if (problem) return problem;
    }
    await combatant.update({ group: groupId });
    return null;
  }

  /** How a combatant is known across leaving and coming back: its token, else its actor. */
  static whoIs(combatant: Combatant.Implementation): string | null {
    if (combatant.tokenId) return `t:${combatant.sceneId ?? ''}.${combatant.tokenId}`;
    return combatant.actorId ? `a:${combatant.actorId}` : null;
  }

  /** The combatant of this flow that left and was this one (same token or actor), not yet taken over; null when it is new. */
  private cameBack(combatant: Combatant.Implementation): string | null {
    const who = TenSegmentsCombat.whoIs(combatant);
    if (!who) return null;
    const entries = this.entries;
    const taken = new Set<string>();
    for (const [, e] of entries) if (e.t === 'join' && e.was) taken.add(e.was);
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i][1] as InputEntry;
      if (e.t !== 'leave' || e.k !== who || taken.has(e.c)) continue;
      // The engine checks the rest (the one named left this combat and was not taken over since).
      return e.c;
    }
    return null;
  }

  /**
   * A combatant added while the combat runs joins the flow: one that was in
   * it before (the same token or actor, removed and added again) takes up
   * its place with its surprise and base initiative; a new one is a late
   * joiner. A declaration it was created with (`system.declaration`) is
   * checked like any request. The caller holds the queue (combatant.ts).
   */
  async joinFlow(combatant: Combatant.Implementation): Promise<Problem | null> {
    // The engine's view of the combatant and the request schema are the GM's side of requests (a chunk loaded on first use).
    const gm = loadedGMSide() ?? (await loadGMSide());
    const state = this.flowState;
    if (!state || state.encounter.combatants.some((c) => c.id === combatant.id)) return null;
    const groupId = groupIdOf(combatant);
    const group = groupId ? this.groups.get(groupId) : undefined;
    const side = group ? sideOf(group) : null;
    const engine = gm.engineCombatant(combatant, side?.id ?? state.encounter.sides[0]?.id ?? 'none');
    if ('problem' in engine) return engine.problem;
    const input: FlowInput & { t: 'join' } = { t: 'join', c: engine.combatant };
    const was = this.cameBack(combatant);
    if (was) input.was = was;
    const stored = this.storedDeclaration(combatant, gm);
    if (stored) input.d = stored;
    if (side && !state.encounter.sides.some((s) => s.id === side.id)) input.side = side;
    return this.transition(input);
  }

  /** A combatant removed while the combat runs stops acting (its past stays in the flow). The caller holds the queue. */
  async leaveFlow(combatant: Combatant.Implementation): Promise<Problem | null> {
    const state = this.flowState;
    const id = combatant.id as string;
    if (!state?.encounter.combatants.some((c) => c.id === id)) return null;
    return this.transition({ t: 'leave', c: id }, { k: TenSegmentsCombat.whoIs(combatant) ?? undefined });
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
    if (!isActiveGM()) {
      // Another GM: each check is a request to the active GM.
      for (const m of requests) {
        const { combatant, trigger, ...rest } = m;
        const problem = await this.command('morale', 'manage', { combatantId: combatant, trigger, ...rest });
        if (problem) return problem;
      }
      return null;
    }
    return this.exclusive(async () => this.report(await this.transition({ t: 'morale', requests })));
  }

  /** Show a problem (if any) to the user and hand it back. */
  private report(problem: Problem | null): Problem | null {
    if (problem) notifyProblem(problem);
    return problem;
  }
}
