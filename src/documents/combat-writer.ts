/**
 * What only the active GM's client runs of a combat: the transactions that
 * write its log (each input checked and carried out by the engine, the dice
 * recorded, one update, then actors and chat cards), the start, Previous,
 * the re-basing of entries written by another GM, and the documents joining
 * and leaving the flow. Part of the GM's chunk (handlers/index.ts), loaded on
 * first use: the Combat document (combat.ts) keeps what every client reads
 * (the replay, the order, the held declarations) and calls these.
 */
import { loadParts } from '../rules/parts';
import type { DamageType, Declaration, Problem } from '../rules/model';
import type { EndEvent } from '../rules/procedure';
import { RulesError } from '../rules/model';
import {
  applyInput,
  declarationProblem,
  chainKey,
  FLOW_VERSION,
  FlowLog,
  outOfPlace,
  RecordedDice,
  RecordingDice,
  startCombat,
  type AppliedDetail,
  type BlowMark,
  type FlowInput,
  type FlowState,
  type InputEntry,
  type LogEntry,
  type MoraleRequest,
} from '../rules/flow';
import { secondsBeforeRound } from '../rules/flow/clock';
import { getProcedure, loadProcedure } from '../rules/registry';
import { withRolls, type RolledDie } from './dice';
import { combatantKeys, deletionUpdate, gmMode, turnChangeOptions } from './compat-writes';
import { groupIdOf, sideOf } from './encounter';
import { SYSTEM_ID } from '../settings';
import { DECLARATION_CHANGES } from './declaration-limit';
import { localizeProblem, notifyProblem } from './problems';
import { isActiveGM } from './permissions';
import type { CombatActionRequest, SideSurprise, StepAction } from './queries';
import { isPossibleTotal, type Dice, type DieRequest } from '../rules/dice';
import { loadedGMSide, loadGMSide, type GMSide } from './requests';
import { COMBAT_SCHEMA } from '../data/combat-log';
import { combatData, combatantData } from '../data/systems';
import type { TenSegmentsCombat, TransactOptions, Transacted } from './combat';
import { sceneOfCombat, withSceneOptions } from './scene-options';
import { gmCardFlags, gmCards, interruptionCardProblem } from './card-flags';

/** Core's combat hooks, with the update data and options this system sends (core's own {round, turn} plus the log). */
function callHook(hook: 'combatStart' | 'combatTurn' | 'combatRound', ...args: unknown[]): void {
  (Hooks.callAll as unknown as (hook: string, ...args: unknown[]) => void)(hook, ...args);
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

/** Does a spell or device go off in the step being played (its outcome is decided as the step is reached)? The card is the GM side's (chat.ts). */
function spellGoesOff(state: FlowState): boolean {
  const step = state.stage === 'resolve' ? state.schedule?.steps[state.step] : undefined;
  const outcomes = state.outcomes[state.step] ?? [];
  return !!step && step.entries.some((e, i) => e.kind === 'cast-complete' && outcomes[i] === 'goes-off');
}

  /**
   * Run inputs on the replayed state as one transaction: each input checked
   * and carried out by the engine (dice rolled as real Foundry rolls and
   * recorded), then one update appending an entry per input; then what the engine changed is copied
   * onto actors and combatants, and chat cards posted. `plan` gives the
   * inputs one at a time (it may look at the state between them); a refusal
   * writes nothing. The caller holds the combat's queue (`exclusive`).
   */
export async function transact(combat: TenSegmentsCombat, plan: (state: FlowState, give: (input: FlowInput) => AppliedDetail | Problem) => Problem | null | void, options: TransactOptions = {}): Promise<{ problem: Problem } | Transacted> {
  if (!isActiveGM()) return { problem: { key: 'NotActiveGM' } };
  const before = combat.flowState;
  if (!before) return { problem: { key: 'CombatNotStarted' } };
  await loadProcedure(before.procedure);
  // The `moved` input's checks: a part of the engine the GM loads before it writes (rules/parts.ts).
  await loadParts(['moved']);
  const { result, rolls } = await withRolls((rolled) => {
    const used = new Set<string>();
    const dice = options.manual ? handDice(options.manual, rolled, used, (id) => nameOfId(combat, id)) : rolled;
    const state = structuredClone(before);
    const made: { entry: InputEntry; detail: AppliedDetail; ended: FlowState | null; begun: FlowState | null; opened: MoraleEvent[]; spellOff: FlowState | null; morale: MoraleEvent[] }[] = [];
    const give = (input: FlowInput): AppliedDetail | Problem => {
      const recording = new RecordingDice(dice);
      const { stage, opening, round, step } = state;
      const checked = state.morale?.length ?? 0;
      const done = applyInput(state, input, recording);
      if (!done.ok) return done.problem;
      const entry: InputEntry = { ...structuredClone(input) };
      if (recording.totals.length > 0) entry.r = recording.totals;
      if (made.length === 0 && options.q) entry.q = options.q;
      if (made.length === 0 && options.k) entry.k = options.k;
      if (made.length === 0 && options.b) entry.b = options.b;
      const ended = stage !== 'end-of-round' && state.stage === 'end-of-round' ? structuredClone(state) : null;
      // A round begun: its initiative rolled and its steps planned (the surprise segments roll none).
      const begun = stage === 'declare' && state.stage !== 'declare' && state.initiative !== null ? structuredClone(state) : null;
      // A step just reached in which a spell goes off: its card (the spells' outcomes are decided as the step is reached).
      const reached = state.stage === 'resolve' && (stage !== 'resolve' || round !== state.round || step !== state.step);
      const spellOff = reached && spellGoesOff(state) ? structuredClone(state) : null;
      // The morale checks this input made: at once (rules revision 5), or by the end of the round it ended.
      const morale: MoraleEvent[] = (state.morale ?? []).slice(round === state.round ? checked : 0).map(({ stage: _s, step: _k, ...e }) => e);
      if (ended) for (const e of ended.end ?? []) if (e.kind === 'morale') morale.push(e);
      // The opening morale checks (addict phase 4) this input made.
      const opened = (state.opening ?? []).slice(opening?.length ?? 0).filter((e): e is MoraleEvent => e.kind === 'morale');
      made.push({ entry, detail: done.detail ?? {}, ended, begun, opened, spellOff, morale });
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
    if (!problem && unused !== undefined) problem = { key: 'InitiativeDieUnused', data: { name: nameOfId(combat, unused) } };
    return { problem, state, made };
  });
  if (result.problem) return { problem: result.problem };
  if (result.made.length === 0) return { state: before, details: [] };
  const after = result.state;
  const entries = combat.entries;
  const start = entries.length;
  const data: Record<string, unknown> = { ...combat.turnDataFor(after) };
  let previous = entries[start - 1]?.[0] ?? null;
  result.made.forEach((m, i) => {
    previous = chainKey(start + i, previous, m.entry);
    data[`system.log.${previous}`] = m.entry;
  });
  await write(combat, data, before, after, options);
  const gm = loadedGMSide() ?? (await loadGMSide());
  for (const m of result.made) {
    if (m.begun) await gm.postInitiativeCard(combat, m.begun);
    if (m.spellOff) await gm.postSpellOffCard(combat, m.spellOff);
    if (m.ended) await gm.postEndOfRoundCard(combat, m.ended);
  }
  // Each morale check made, its card at once, with the die it was rolled with: addict's opening check (phase 4) as a
  // check the GM calls in a round (issue 28), under its own title.
  const opening = result.made.flatMap((m) => m.opened);
  const checks = result.made.flatMap((m) => m.morale);
  const moraleRolls = rolls.filter((r) => r.request.purpose === 'morale');
  if (opening.length > 0) await gm.postMoraleChecks(combat, after.round, withMoraleRolls(opening, moraleRolls), 'TENSEG.Chat.OpeningMorale.Title');
  if (checks.length > 0) await gm.postMoraleChecks(combat, after.round, withMoraleRolls(checks, moraleRolls));
  // A new round: combatants in the tracker but not in the fight join it (combatant.ts).
  if (after.round > before.round) await (await import('./combatant-join')).joinMissing(combat);
  return { state: after, details: result.made.map((m) => m.detail) };
}

type MoraleEvent = Extract<EndEvent, { kind: 'morale' }>;

/**
 * Each check with the Roll of its die (the transaction's morale rolls, in order, by combatant; each taken from
 * `left` as it is given); none for a check without a roll.
 */
function withMoraleRolls(checks: readonly MoraleEvent[], left: RolledDie[]): { event: MoraleEvent; roll?: Roll }[] {
  return checks.map((event) => {
    if (event.method === 'gm' || (event.roll === 0 && !event.passed)) return { event };
    const i = left.findIndex((r) => r.request.combatant === event.combatant);
    if (i < 0) return { event };
    const [found] = left.splice(i, 1);
    return { event, roll: found.roll };
  });
}

/** One update of the combat (with core's hooks when it moves through the round), then the sync of actors. */
async function write(combat: TenSegmentsCombat, data: Record<string, unknown>, before: FlowState | null, after: FlowState, options: TransactOptions): Promise<void> {
  const { direction = 1, navigate = false, skipHealthOf = [] } = options;
  let updateOptions: Record<string, unknown> = {};
  if (navigate) {
    updateOptions = turnChangeOptions(direction, secondsBeforeRound(after) - secondsBeforeRound(before));
    // Core announces the change before writing it; a hook may still adjust the update.
    callHook(data.round !== combat.round ? 'combatRound' : 'combatTurn', combat, data, updateOptions);
  }
  await combat.update(data, updateOptions);
  const gm = loadedGMSide() ?? (await loadGMSide());
  await gm.applySync(combat, gm.planSync(before, after, skipHealthOf));
}

/** A combatant's or a side's name, for a refusal (the id itself when neither). */
function nameOfId(combat: TenSegmentsCombat, id: string): string {
  return combat.combatants.get(id)?.name ?? combat.groups.get(id)?.name ?? id;
}

/** Run a single input as a transaction; a refusal is returned and nothing is written. */
export async function transition(combat: TenSegmentsCombat, input: FlowInput, options: TransactOptions = {}): Promise<Problem | null> {
  const done = await transact(combat, (_, give) => {
    const r = give(input);
    return 'key' in r ? (r as Problem) : null;
  }, options);
  return 'problem' in done ? done.problem : null;
}

/**
 * The active GM: round and turn back to what the flow says, after another write moved them; `player` names
 * the player whose write did (told to the GM even when something queued before has already put them back).
 */
export async function putBackStep(combat: TenSegmentsCombat, player: string | null): Promise<void> {
  if (player) notifyProblem({ key: 'TurnReverted', data: { user: player } });
  const state = combat.flowState;
  if (!state) return;
  const data = combat.turnDataFor(state);
  if (data.round === combat.round && data.turn === combat.turn) return;
  const changed: { round?: number; turn?: number | null } = {};
  if (data.round !== combat.round) changed.round = data.round;
  if (data.turn !== combat.turn) changed.turn = data.turn;
  await combat.update(changed);
}

/**
 * The active GM: entries another GM wrote on a log it had not fully seen
 * (a handover with a write in flight) are played again on top, each checked
 * again and with the dice it rolled; one that no longer fits is dropped
 * with a notice. One write.
 */
export async function rebase(combat: TenSegmentsCombat): Promise<void> {
  const entries = combat.entries;
  const at = outOfPlace(entries);
  if (at < 1) return;
  const before = combat.flowState;
  const base = combat.replay.read(entries.slice(0, at)).state;
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
  Object.assign(data, combat.turnDataFor(state));
  await combat.update(data);
  const gm = loadedGMSide() ?? (await loadGMSide());
  await gm.applySync(combat, gm.planSync(before, state));
  for (const problem of dropped) notifyProblem({ key: 'RebaseDropped', data: { reason: localizeProblem(problem) } });
}

/** Carry out a control (the caller holds the queue, on the active GM's client). */
export async function run(combat: TenSegmentsCombat, action: StepAction, req: Omit<CombatActionRequest, 'combatId' | 'action'>, q?: string): Promise<Problem | null> {
  if (action === 'startCombat') return start(combat, req.surpriseGMOnly === true, req.surpriseSides);
  if (action === 'moveToSide') return move(combat, req.combatantId ?? '', req.groupId ?? '', q);
  if (action === 'morale') {
    const m: MoraleRequest = { combatant: req.combatantId ?? '', trigger: req.trigger ?? '' };
    if (req.opposed !== undefined) m.opposed = req.opposed;
    if (req.method !== undefined) m.method = req.method;
    if (req.score !== undefined) m.score = req.score;
    if (req.passed !== undefined) m.passed = req.passed;
    if (req.surrender !== undefined) m.surrender = req.surrender;
    return transition(combat, { t: 'morale', requests: [m] }, { q });
  }
  const state = combat.flowState;
  if (!state) return { key: 'CombatNotStarted' };
  switch (action) {
    case 'nextTurn':
      return state.stage === 'declare' ? beginWithHeld(combat, q) : transition(combat, { t: 'next' }, { navigate: true, q });
    case 'previousTurn':
      return undo(combat, (entries) => entries.length - blowEntries(entries));
    case 'nextRound':
      return skipRound(combat, state, q);
    case 'previousRound': {
      const target = state.stage === 'declare' ? state.round - 1 : state.round;
      return undo(combat, (entries) => {
        // The longest earlier log whose state is the declarations of the target round (or earlier).
        const path = combat.replay.waypoints();
        for (let k = Math.min(entries.length, path.length) - 1; k >= 1; k--) {
          if (path[k].stage === 'declare' && path[k].round <= target) return k;
        }
        return 1;
      });
    }
    case 'rollInitiative':
      return state.stage === 'declare' ? beginWithHeld(combat, q, req.dice) : { key: 'NotDeclaring' };
    case 'undoInterruption': {
      // Pressed on a card: the card must be a GM's, of this casting, and borne out by the log (a player may post any flags).
      if (req.card !== undefined) {
        const message = game.messages?.get(req.card);
        const problem = message ? interruptionCardProblem(message) : { key: 'CardNotByGM' };
        if (problem) return problem;
        if (gmCardFlags(message as ChatMessage.Implementation)?.casting !== req.castingId || gmCardFlags(message as ChatMessage.Implementation)?.combat !== combat.id) return { key: 'CardNotInLog' };
      }
      return transition(combat, { t: 'restore', casting: req.castingId ?? '' }, { q });
    }
  }
}

/** A declaration kept on a combatant before it entered the flow, checked as the request it was (anyone may create a combatant with one). */
function storedDeclaration(c: Combatant.Implementation, { declarationRequestProblem, isDeclarationRequest, declarationFromRequest }: GMSide): Declaration | null {
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

/** Start: freeze the world's procedure and options, roll surprise, open declarations. */
async function start(combat: TenSegmentsCombat, surpriseGMOnly = false, sides?: Record<string, SideSurprise>): Promise<Problem | null> {
  if (combat.entries.length > 0) return { key: 'CombatAlreadyStarted' };
  // Stored by an older schema and not migrated yet (the migration reported why): starting would write over it.
  if ((combatData(combat)?.version ?? COMBAT_SCHEMA) < COMBAT_SCHEMA) return { key: 'CombatNotMigrated' };
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
  const built = gm.buildEncounter(combat);
  if ('problem' in built) return built.problem;
  // The sides as the GM set them in the surprise dialog: rolled with, and written only once the start is sure.
  const staged = gm.stageSurprise(combat, built.encounter, sides);
  if ('problem' in staged) return staged.problem;
  const { result } = await withRolls((dice) => startCombat(procedure, withSceneOptions(procedure, allOptions[procedure] ?? {}, sceneOfCombat(combat)), built.encounter, dice));
  if (!result.ok) return result.problem;
  const startEntry: LogEntry = { t: 'start', v: FLOW_VERSION, s: result.start };
  const startKey = chainKey(0, null, startEntry);
  const state = new FlowLog().read([[startKey, startEntry]]).state as FlowState;
  const data: Record<string, unknown> = { [`system.log.${startKey}`]: startEntry };
  let previous = startKey;
  // Declarations made before the start (players', kept on their combatants) survive it, checked again.
  let n = 1;
  for (const c of combat.combatants) {
    const decl = storedDeclaration(c, gm);
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
  Object.assign(data, combat.turnDataFor(state));
  if (staged.updates.length > 0) await combat.updateEmbeddedDocuments('CombatantGroup', staged.updates as never);
  callHook('combatStart', combat, data);
  await combat.update(data);
  // The surprise, as it was rolled (public by default: seed 004, footnote; for the GMs only when the GM chose so).
  await gm.postSurpriseCard(combat, state, surpriseGMOnly ? gmMode() : undefined);
  return null;
}

/** The inputs that begin the round: the held declarations with initiative. */
async function beginWithHeld(combat: TenSegmentsCombat, q?: string, manual?: Readonly<Record<string, number>>): Promise<Problem | null> {
  const held = combat.held;
  const d = Object.keys(held).length > 0 ? held : undefined;
  const problem = await transition(combat, d ? { t: 'begin', d } : { t: 'begin' }, { navigate: true, q, ...(manual && Object.keys(manual).length > 0 ? { manual } : {}) });
  if (!problem && d) await combat.setHeld({});
  return problem;
}

async function skipRound(combat: TenSegmentsCombat, start: FlowState, q?: string): Promise<Problem | null> {
  const held = combat.held;
  const done = await transact(combat, 
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
  if (Object.keys(held).length > 0 && start.stage === 'declare') await combat.setHeld({});
  return null;
}

/**
 * Undo: keep the first `keep(entries)` entries, delete the rest in one
 * write (the start always stays), restore on actors what they changed, and
 * give the GM back the declarations a deleted initiative had taken (plans
 * held for a later round's declarations are dropped with them).
 */
/** The initiative cards of this combat for rounds `from` to `to` (both versions), deleted: their rolls were undone. */
async function deleteInitiativeCards(combat: TenSegmentsCombat, from: number, to: number): Promise<void> {
  // A GM's cards only: a player's message that claims to be one is hers, and tells nothing of the log.
  const ids = gmCards()
    .filter(({ flags: f }) => (f.kind === 'initiative' || f.kind === 'initiative-gm') && f.combat === combat.id && typeof f.round === 'number' && f.round >= from && f.round <= to)
    .map(({ message }) => message.id as string);
  if (ids.length > 0) await ChatMessage.deleteDocuments(ids);
}

/**
 * How many entries the last step back takes: a blow that did damage is its `attack` entry and the `hit` written with
 * it (recordAttack, one write): Previous takes both, the blow and its card, never the damage alone.
 */
function blowEntries(entries: readonly [string, LogEntry][]): number {
  const last = entries[entries.length - 1]?.[1];
  const before = entries[entries.length - 2]?.[1];
  if (last?.t !== 'hit' || before?.t !== 'attack' || !before.b) return 1;
  return last.by === before.c && last.target === before.target ? 2 : 1;
}

/** The cards of the attacks whose entries were taken back (flag `request`: the entry's `q`), deleted: the blow is no more. */
async function deleteAttackCards(combat: TenSegmentsCombat, taken: readonly [string, LogEntry][]): Promise<void> {
  const requests = new Set(taken.flatMap(([, entry]) => (entry.t === 'attack' && typeof entry.q === 'string' ? [entry.q] : [])));
  if (requests.size === 0) return;
  const ids = (game.messages?.contents ?? [])
    .filter((m) => {
      const f = (m.flags as Record<string, { kind?: string; combat?: string; request?: string } | undefined>)[SYSTEM_ID];
      return !!f && f.kind === 'attack' && f.combat === combat.id && typeof f.request === 'string' && requests.has(f.request);
    })
    .map((m) => m.id as string);
  if (ids.length > 0) await ChatMessage.deleteDocuments(ids);
}

async function undo(combat: TenSegmentsCombat, keep: (entries: [string, LogEntry][]) => number): Promise<Problem | null> {
  const entries = combat.entries;
  const before = combat.flowState;
  if (!before) return { key: 'CombatNotStarted' };
  const k = Math.max(1, keep(entries));
  if (k >= entries.length) return { key: 'NothingToUndo' };
  const after = combat.replay.read(entries.slice(0, k)).state as FlowState;
  const data: Record<string, unknown> = { ...combat.turnDataFor(after) };
  const back: Record<string, Declaration | null> = {};
  for (const [key, entry] of entries.slice(k)) {
    Object.assign(data, deletionUpdate('system.log', key));
    if (entry.t === 'begin' && entry.d) Object.assign(back, entry.d);
  }
  await write(combat, data, before, after, { direction: -1, navigate: true });
  // An initiative undone takes its card with it (the players' and the GMs' version): Next rolls again and posts the new one.
  if (entries.slice(k).some(([, entry]) => entry.t === 'begin')) await deleteInitiativeCards(combat, after.stage === 'declare' ? after.round : after.round + 1, before.round);
  // An attack taken back takes its card with it: Next and a new Attack post the blow as it is struck again.
  await deleteAttackCards(combat, entries.slice(k));
  // Held plans belong to the declarations they were made in: leaving those, the GM holds what the deleted initiative had taken (or nothing).
  const stay = before.stage === 'declare' && after.stage === 'declare' && before.round === after.round;
  if (!stay) {
    const held = after.stage === 'declare' ? back : {};
    if (Object.keys(held).length > 0 || Object.keys(combat.held).length > 0) await combat.setHeld(held);
  }
  return null;
}

/** Where this round's declarations begin in the log: the index of their first entry (the entries before it opened them). */
function declarationsFrom(combat: TenSegmentsCombat, entries: readonly (readonly [string, LogEntry])[], state: FlowState): number {
  combat.replay.read(entries);
  const path = combat.replay.waypoints();
  let from = entries.length;
  // Entry j is of these declarations when the state before it (path[j]) is them; the start always stays.
  while (from > 1 && path[from - 1]?.stage === 'declare' && path[from - 1].round === state.round) from--;
  return from;
}

/** A combatant's own entry of a round's declarations: its declaration or its withdrawal. */
function isOwnDeclaration(entry: LogEntry, combatantId: string): boolean {
  return (entry.t === 'declare' && entry.d?.combatant === combatantId) || (entry.t === 'withdraw' && entry.c === combatantId);
}

/** The keys of the requests an entry carries (the one that made it, and those of the entries it replaced). */
function requestKeys(entry: LogEntry): string[] {
  const e = entry as InputEntry;
  return [...(Array.isArray(e.qs) ? e.qs : []), ...(typeof e.q === 'string' ? [e.q] : [])];
}

/**
 * How many Combat writes this user's declarations and withdrawals made in
 * this round's declarations (declaration-limit.ts): the keys of her requests
 * on the round's declaration entries, replaced ones included.
 */
export function declarationWrites(combat: TenSegmentsCombat, userId: string): number {
  const state = combat.flowState;
  if (!state || state.stage !== 'declare') return 0;
  const entries = combat.entries;
  const mine = `${userId}:`;
  let n = 0;
  for (const [, e] of entries.slice(declarationsFrom(combat, entries, state))) {
    if (e.t !== 'declare' && e.t !== 'withdraw') continue;
    for (const q of requestKeys(e)) if (q.startsWith(mine)) n++;
  }
  return n;
}

/** A player who has used her changes of this round (the GM is not counted): the refusal, else null. */
function changesSpent(combat: TenSegmentsCombat, userId: string | undefined): Problem | null {
  if (userId === undefined || declarationWrites(combat, userId) <= DECLARATION_CHANGES) return null;
  return { key: 'DeclarationChangesSpent', data: { count: DECLARATION_CHANGES } };
}

/**
 * A declaration or withdrawal in a round's declarations, written so that the
 * log keeps at most one entry of the combatant's own per round (two when it
 * withdrew what it had not declared before the round): the combatant's
 * earlier entries of these declarations are replaced by the new one, in the
 * place of the first (the combatant keeps its place among the declarations)
 * or else at the end, and the entries after them are keyed again in order.
 * A replacement is written only when the log's replay then gives the very
 * state that appending the input would give; otherwise the input is appended
 * (the old way). One write either way. The new entry keeps the keys of the
 * requests of the entries it replaced (`qs`): a retry of one of them is known
 * (madeBy), and a player's changes are counted (declarationWrites).
 */
async function declareInPlace(combat: TenSegmentsCombat, input: FlowInput & ({ t: 'declare' } | { t: 'withdraw' }), combatantId: string, q: string | undefined): Promise<Problem | null> {
  if (!isActiveGM()) return { key: 'NotActiveGM' };
  const entries = combat.entries;
  const before = combat.flowState;
  if (!before || before.stage !== 'declare') return transition(combat, input, { q });
  const from = declarationsFrom(combat, entries, before);
  const own: number[] = [];
  for (let j = from; j < entries.length; j++) if (isOwnDeclaration(entries[j][1], combatantId)) own.push(j);
  if (own.length === 0) return transition(combat, input, { q });
  await loadProcedure(before.procedure);
  await loadParts(['moved']);
  const procedure = getProcedure(before.procedure);
  // What appending would give: the replacement must give the same.
  const appended = structuredClone(before);
  const done = applyInput(appended, input, NO_DICE, procedure);
  if (!done.ok) return done.problem;
  const target = JSON.stringify(appended);
  const first = own[0];
  const base = combat.replay.read(entries.slice(0, first)).state;
  const rest = entries.slice(first).filter((_, i) => !own.includes(first + i));
  const entry: InputEntry = { ...structuredClone(input) };
  const replaced = own.flatMap((j) => requestKeys(entries[j][1]));
  if (q) entry.q = q;
  if (replaced.length > 0) entry.qs = replaced;
  const tryOrder = (order: (readonly [string, LogEntry])[]): FlowState | null => {
    if (!base) return null;
    const state = structuredClone(base);
    for (const [, e] of order) {
      if (e.t === 'start' || e.t === 'snapshot' || e.t === 'patch') return null;
      const { r, q: _q, qs: _qs, k: _k, b: _b, ...rest } = e;
      try {
        if (!applyInput(state, rest as FlowInput, new RecordedDice(r), procedure).ok) return null;
      } catch (err) {
        if (err instanceof RulesError) return null;
        throw err;
      }
    }
    return JSON.stringify(state) === target ? state : null;
  };
  const mark = ['', entry] as const;
  let order: (readonly [string, LogEntry])[] = [mark, ...rest];
  let after = tryOrder(order);
  if (!after) {
    order = [...rest, mark];
    after = tryOrder(order);
  }
  // Back to the whole log (the writer's replay was read up to `first`).
  combat.replay.read(entries);
  if (!after) return transition(combat, input, { q });
  const data: Record<string, unknown> = { ...combat.turnDataFor(after) };
  // A key the new order gives again holds the same transition (chainKey): only the new entry is written there again (its marks changed).
  const written = new Set<string>();
  let previous = entries[first - 1][0];
  order.forEach(([, e], i) => {
    previous = chainKey(first + i, previous, e);
    written.add(previous);
    if (e === entry || !(previous in combat.log)) data[`system.log.${previous}`] = e;
  });
  for (const [key] of entries.slice(first)) if (!written.has(key)) Object.assign(data, deletionUpdate('system.log', key));
  await write(combat, data, before, after, {});
  return null;
}

/**
 * Record a declaration (already authorised and built from the documents;
 * the caller holds the queue, on the active GM's client). The GM's plan
 * for a combatant no player owns is held back until initiative, after the
 * same checks. A declaration the same as the one recorded writes nothing
 * (a request sent again). A change of mind replaces the combatant's entry
 * (declareInPlace); `limit`: the player whose request this is, refused once
 * she has spent this round's changes (declaration-limit.ts).
 */
export async function recordDeclaration(combat: TenSegmentsCombat, combatantId: string, declaration: Declaration, how: { q?: string; hold?: boolean; limit?: string } = {}): Promise<Problem | null> {
  const d = { ...declaration, combatant: combatantId };
  if (!how.hold) {
    const current = combat.flowState?.declarations[combatantId];
    if (current && JSON.stringify(current) === JSON.stringify(d)) return null;
    return changesSpent(combat, how.limit) ?? declareInPlace(combat, { t: 'declare', d }, combatantId, how.q);
  }
  const state = combat.flowState;
  if (state) {
    await loadProcedure(state.procedure);
    const problem = declarationProblem(state, d);
    if (problem) return problem;
  }
  await combat.setHeld({ ...combat.held, [combatantId]: d });
  return null;
}

/** Withdraw (cancel) a declaration; the caller holds the queue. As recordDeclaration: in place, and counted for a player (`limit`). */
export async function withdrawDeclaration(combat: TenSegmentsCombat, combatantId: string, how: { q?: string; hold?: boolean; limit?: string } = {}): Promise<Problem | null> {
  if (how.hold && combatantId in combat.held) {
    await combat.dropHeld(combatantId);
    return null;
  }
  return changesSpent(combat, how.limit) ?? declareInPlace(combat, { t: 'withdraw', c: combatantId }, combatantId, how.q);
}

/** Damage taken by a combatant now: what the engine decided (interruptions, falls). The caller holds the queue. */
export async function recordHit(combat: TenSegmentsCombat, hit: { target: string; amount: number; by?: string; critical?: boolean }): Promise<{ problem: Problem } | { detail: AppliedDetail }> {
  // The actor already shows the damage: copy everything but its health.
  const done = await transact(combat, 
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
export async function recordAttack(
  combat: TenSegmentsCombat,
  attack: FlowInput & { t: 'attack' },
  damage: number,
  q: string,
  hit: { critical?: boolean; type?: DamageType } = {},
  b?: BlowMark,
): Promise<{ problem: Problem } | { detail: AppliedDetail }> {
  const done = await transact(combat, 
    (_, give) => {
      const a = give(attack);
      if ('key' in a) return a as Problem;
      if (damage <= 0) return null;
      // individual-speed: a critical hit goes past Stress, and its damage type picks the Combat Injury table.
      const h = give({ t: 'hit', target: attack.target, amount: damage, by: attack.c, ...(hit.critical ? { critical: true } : {}), ...(hit.type !== undefined ? { type: hit.type } : {}) });
      return 'key' in h ? (h as Problem) : null;
    },
    { q, ...(b ? { b } : {}) },
  );
  return 'problem' in done ? done : { detail: done.details[1] ?? {} };
}

async function move(combat: TenSegmentsCombat, combatantId: string, groupId: string, q?: string): Promise<Problem | null> {
  const combatant = combat.combatants.get(combatantId);
  if (!combatant) return { key: 'UnknownCombatant', data: { id: combatantId } };
  const group = combat.groups.get(groupId);
  if (!group) return { key: 'UnknownSide', data: { name: combatant.name ?? '', side: groupId } };
  const state = combat.flowState;
  if (state?.encounter.combatants.some((c) => c.id === combatantId)) {
    const side = sideOf(group);
    const problem = await transition(combat, { t: 'move', c: combatantId, side: groupId, ...(state.encounter.sides.some((s) => s.id === groupId) ? {} : { add: side }) }, { q });
    if (problem) return problem;
  }
  await combatant.update({ group: groupId });
  return null;
}

/**
 * The keys naming a combatant across leaving and coming back (issue 26): its actor when linked to it (a
 * linked token's, or the actor of a combatant with no token), its token.
 */
function identityKeys(combatant: Combatant.Implementation): string[] {
  return combatantKeys(combatant, combatant.tokenId ? !!combatant.token?.actorLink : true);
}

/** How a combatant is known across leaving and coming back (stored on its `leave` entry): its linked actor, else its token, else its actor. */
export function whoIs(combatant: Combatant.Implementation): string | null {
  return identityKeys(combatant)[0] ?? null;
}

/**
 * The combatant of this flow that left and was this one, not yet taken over; null when it is new. The same
 * token, or the same linked actor whatever the new combatant names (a token of it, or the actor alone). A
 * `leave` entry written before issue 26 names a linked actor's token (`t:`): that token, when its scene still
 * holds it, stands for its actor too.
 */
function cameBack(combat: TenSegmentsCombat, combatant: Combatant.Implementation): string | null {
  const mine = new Set(identityKeys(combatant));
  if (mine.size === 0) return null;
  const entries = combat.entries;
  const taken = new Set<string>();
  for (const [, e] of entries) if (e.t === 'join' && e.was) taken.add(e.was);
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i][1] as InputEntry;
    if (e.t !== 'leave' || typeof e.k !== 'string' || taken.has(e.c)) continue;
    // The engine checks the rest (the one named left this combat and was not taken over since).
    if (keysOfLeft(e.k).some((k) => mine.has(k))) return e.c;
  }
  return null;
}

/** What a stored identity stands for: itself, and for a linked token (`t:<scene>.<token>`) its actor. */
function keysOfLeft(k: string): string[] {
  const token = /^t:([^.]*)\.(.+)$/.exec(k);
  if (!token) return [k];
  const doc = game.scenes?.get(token[1])?.tokens.get(token[2]);
  return doc?.actorLink && doc.actorId ? [k, `a:${doc.actorId}`] : [k];
}

/**
 * A combatant added while the combat runs joins the flow: one that was in
 * it before (the same token or actor, removed and added again) takes up
 * its place with its surprise and base initiative; a new one is a late
 * joiner. A declaration it was created with (`system.declaration`) is
 * checked like any request. The caller holds the queue (combatant.ts).
 */
export async function joinFlow(combat: TenSegmentsCombat, combatant: Combatant.Implementation): Promise<Problem | null> {
  // The engine's view of the combatant and the request schema are the GM's side of requests (a chunk loaded on first use).
  const gm = loadedGMSide() ?? (await loadGMSide());
  const state = combat.flowState;
  if (!state || state.encounter.combatants.some((c) => c.id === combatant.id)) return null;
  const groupId = groupIdOf(combatant);
  const group = groupId ? combat.groups.get(groupId) : undefined;
  const side = group ? sideOf(group) : null;
  const engine = gm.engineCombatant(combatant, side?.id ?? state.encounter.sides[0]?.id ?? 'none');
  if ('problem' in engine) return engine.problem;
  const input: FlowInput & { t: 'join' } = { t: 'join', c: engine.combatant };
  const was = cameBack(combat, combatant);
  if (was) input.was = was;
  const stored = storedDeclaration(combatant, gm);
  if (stored) input.d = stored;
  if (side && !state.encounter.sides.some((s) => s.id === side.id)) input.side = side;
  return transition(combat, input);
}

/** A combatant removed while the combat runs stops acting (its past stays in the flow). The caller holds the queue. */
export async function leaveFlow(combat: TenSegmentsCombat, combatant: Combatant.Implementation): Promise<Problem | null> {
  const state = combat.flowState;
  const id = combatant.id as string;
  if (!state?.encounter.combatants.some((c) => c.id === id)) return null;
  return transition(combat, { t: 'leave', c: id }, { k: whoIs(combatant) ?? undefined });
}
