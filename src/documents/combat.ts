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
// The flow's modules by name, not its index (which re-exports what only the GM's and the dialogs' chunks use): start-up loads what the replay needs.
import { entriesOf, FlowLog, type BlowMark, type InputEntry, type KeyedLog, type LogEntry } from '../rules/flow/log';
import { currentActors } from '../rules/flow/read';
import type { AppliedDetail, FlowInput } from '../rules/flow/transitions';
import type { FlowState, MoraleRequest } from '../rules/flow/state';
import { isLoaded, loadProcedure } from '../rules/registry';
import { loadParts, partsFor } from '../rules/parts';
import type { ProcedureId } from '../rules/model';
import { isProcedureId } from '../rules/model';
import { SYSTEM_ID } from '../settings';
import { authorize, isActiveGM, type CombatAction } from './permissions';
import type { CombatActionRequest, SideSurprise, StepAction } from './queries';
import { loadedGMSide, loadGMSide, serialize } from './requests';
import { combatData } from '../data/systems';

export type { MoraleRequest } from '../rules/flow/state';

/** What only the active GM runs (combat-writer.ts): in the GM's chunk, loaded on first use. */
/** A control's and a morale call's bodies (combat-command.ts), once loaded. */
let commands: typeof import('./combat-command') | null = null;

async function writer(): Promise<typeof import('./combat-writer')> {
  return (loadedGMSide() ?? (await loadGMSide())).writer;
}

export interface TransactOptions {
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
  /** On an attack: what the blow was (log.ts BlowMark): a GM taking over answers its retry and posts its card from it. */
  b?: BlowMark;
  /** Initiative dice rolled at the table by hand, by side id or combatant id: given to the engine instead of rolling (handDice). */
  manual?: Readonly<Record<string, number>>;
}

/** What a transaction did: the state after it and the detail of each input. */
export interface Transacted {
  state: FlowState;
  details: AppliedDetail[];
}

/** The procedure a log plays (its start), if any. */
function procedureOfLog(entries: readonly (readonly [string, LogEntry])[]): ProcedureId | null {
  for (const [, e] of entries) {
    if (e.t === 'start' && isProcedureId(e.s.procedure)) return e.s.procedure;
    if (e.t === 'snapshot' && isProcedureId(e.s.procedure)) return e.s.procedure;
  }
  return null;
}

/** The combatants in turn order: in v14's typings stored documents (`Combatant.Stored`), as core's own `turns`. */
type Turns = ReturnType<Combat['setupTurns']>;

/** A combatant write's options carry a turn for the server to write (core's `combatTurn`). */
const carriesTurn = (options: unknown): boolean => typeof (options as { combatTurn?: unknown } | null)?.combatTurn === 'number';

/** Held declarations by combat, in a world setting the active GM writes (a reload or a handover keeps them). */
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

  /** The replay (also the GM's writer's: Previous, re-basing). */
  get replay(): FlowLog {
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
    // Parts of the engine this log needs beyond start-up (a move on the map: rules/parts.ts), loaded first.
    const parts = partsFor(entries.map(([, e]) => e.t));
    if (parts.length > 0) {
      void loadParts(parts).then(() => {
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

  /** Hold back (or forget) the GM's plans for this combat (the active GM only). */
  async setHeld(held: Record<string, Declaration | null>): Promise<void> {
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
    return (await writer()).transact(this, plan, options);
  }

  /** Run a single input as a transaction; a refusal is returned and nothing is written. */
  async transition(input: FlowInput, options: TransactOptions = {}): Promise<Problem | null> {
    if (!isActiveGM()) return { key: 'NotActiveGM' };
    return (await writer()).transition(this, input, options);
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
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i][1] as InputEntry;
      // A change of mind keeps the keys of the requests whose entries it replaced (qs).
      if (e.q === q || (Array.isArray(e.qs) && e.qs.includes(q))) return true;
    }
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
    // The active GM re-bases entries another GM wrote (combat-writer.ts), and puts back round and turn.
    if (logChanged && userId !== game.user?.id) void this.exclusive(async () => (await writer()).rebase(this));
    const moved = 'round' in (changed as object) || 'turn' in (changed as object);
    this.checkStep(userId as string, moved);
  }

  /*
   * Core lets any user change a combat's round and turn, and the server writes the turn a Combatant create,
   * update or delete carries as its `combatTurn` option, which clients apply without an updateCombat hook
   * (issue 25). So after every write of this combat or of its combatants, the active GM compares them with the
   * flow's and puts back a difference, whoever made it.
   */
  protected override _onCreateDescendantDocuments(...args: Parameters<Combat['_onCreateDescendantDocuments']>): void {
    super._onCreateDescendantDocuments(...args);
    if (args[1] === 'combatants') this.checkStep(args[5] as string, carriesTurn(args[4]));
  }
  protected override _onUpdateDescendantDocuments(...args: Parameters<Combat['_onUpdateDescendantDocuments']>): void {
    super._onUpdateDescendantDocuments(...args);
    if (args[1] === 'combatants') this.checkStep(args[5] as string, carriesTurn(args[4]));
  }
  protected override _onDeleteDescendantDocuments(...args: Parameters<Combat['_onDeleteDescendantDocuments']>): void {
    super._onDeleteDescendantDocuments(...args);
    if (args[1] === 'combatants') this.checkStep(args[5] as string, carriesTurn(args[4]));
  }

  /**
   * The active GM, after a write by `userId`: round and turn back to the flow's when they differ (in the
   * combat's queue, after what is under way). `moved`: the write itself set them (round or turn, or a
   * `combatTurn`); a player who did is named to the GM.
   */
  private checkStep(userId: string, moved: boolean): void {
    const state = this.flowState;
    if (!isActiveGM() || !state) return;
    const data = this.turnDataFor(state);
    if (data.round === this.round && data.turn === this.turn) return;
    const author = game.users?.get(userId);
    const player = moved && !author?.isGM ? (author?.name ?? userId) : null;
    void this.exclusive(async () => (await writer()).putBackStep(this, player));
  }


  /**
   * A combat control on this client: refused when this user may not, sent to
   * the active GM when this client is not it, else carried out in the
   * combat's queue.
   */
  private command(action: StepAction, right: CombatAction, extra: Omit<CombatActionRequest, 'combatId' | 'action'> = {}): Promise<Problem | null> {
    // The commands' bodies are a chunk (combat-command.ts), loaded at the first; once loaded, called in the same task.
    return commands ? commands.command(this, action, right, extra) : import('./combat-command').then((m) => (commands = m).command(this, action, right, extra));
  }

  /** The active GM's side of a control another GM pressed (handlers/queries.ts): in the combat's queue; a retry is not done again. */
  async control(req: CombatActionRequest, q: string): Promise<Problem | null> {
    return this.exclusive(async () => (this.madeBy(q) ? null : (await writer()).run(this, req.action, req, q)));
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
  /** Previous round: back to the declarations of this round, or of the round before when already there. */
  override async previousRound(): Promise<this> {
    await this.command('previousRound', 'changeStep');
    return this;
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
  async recordDeclaration(combatantId: string, declaration: Declaration, how: { q?: string; hold?: boolean; limit?: string } = {}): Promise<Problem | null> {
    return (await writer()).recordDeclaration(this, combatantId, declaration, how);
  }


  /** Forget a plan held for this combatant (a later declaration for it replaced it). */
  async dropHeld(combatantId: string): Promise<void> {
    const held = this.held;
    if (!(combatantId in held)) return;
    delete held[combatantId];
    await this.setHeld(held);
  }

  /** Withdraw (cancel) a declaration; the caller holds the queue. */
  async withdrawDeclaration(combatantId: string, how: { q?: string; hold?: boolean; limit?: string } = {}): Promise<Problem | null> {
    return (await writer()).withdrawDeclaration(this, combatantId, how);
  }

  /** Damage taken by a combatant now: what the engine decided (interruptions, falls). The caller holds the queue. */
  async recordHit(hit: { target: string; amount: number; by?: string; critical?: boolean }): Promise<{ problem: Problem } | { detail: AppliedDetail }> {
    if (!isActiveGM()) return { problem: { key: 'NotActiveGM' } };
    return (await writer()).recordHit(this, hit);
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
    b?: BlowMark,
  ): Promise<{ problem: Problem } | { detail: AppliedDetail }> {
    if (!isActiveGM()) return { problem: { key: 'NotActiveGM' } };
    return (await writer()).recordAttack(this, attack, damage, q, hit, b);
  }


  /** The GM moves a combatant to another side (a CombatantGroup); the engine counts it from the next planning. */
  async moveToSide(combatantId: string, groupId: string): Promise<Problem | null> {
    return this.command('moveToSide', 'manage', { combatantId, groupId });
  }

  /**
   * A combatant added while the combat runs joins the flow: one that was in
   * it before (the same token or actor, removed and added again) takes up
   * its place with its surprise and base initiative; a new one is a late
   * joiner. A declaration it was created with (`system.declaration`) is
   * checked like any request. The caller holds the queue (combatant.ts).
   */
  async joinFlow(combatant: Combatant.Implementation): Promise<Problem | null> {
    return (await writer()).joinFlow(this, combatant);
  }

  /** A combatant removed while the combat runs stops acting (its past stays in the flow). The caller holds the queue. */
  async leaveFlow(combatant: Combatant.Implementation): Promise<Problem | null> {
    const state = this.flowState;
    if (!state?.encounter.combatants.some((c) => c.id === combatant.id)) return null;
    return (await writer()).leaveFlow(this, combatant);
  }


  /**
   * The GM calls for a morale check. Before round 1 of a procedure with an
   * opening morale check (addict phase 4) it is rolled at once and shown in
   * a chat card; otherwise it is rolled with the end of the round.
   */
  async requestMorale(request: MoraleRequest | MoraleRequest[]): Promise<Problem | null> {
    return (commands ??= await import('./combat-command')).requestMorale(this, request, (a, r, e) => this.command(a, r, e));
  }
}