/**
 * addict, phase 6 (seed 004), declaring in turn:
 *   "2. DM rolls to determine first to declare based on roster order.
 *    3. First player declares an action. For every full 6 seconds of
 *       real-life delay, the DM notes that the character will delay 1 segment."
 * Footnote 10: asking the DM for clarification does not count against the
 * timer (the GM's pause).
 *
 * The GM orders the roster; a die of the roster's size picks who declares
 * first, then the roster goes on in order (round the end). The GM's tracker
 * calls each in turn (`callNext`); the called player's declaration dialog
 * opens by itself with the running clock. The clock is the active GM's: the
 * time the call was written and the time the declaration arrives at the
 * active GM's client, less the paused time; the seconds go into the
 * declaration as `hesitationSeconds` (the engine makes whole segments of them,
 * floor(s / 6)), and the answer stops the clock.
 *
 * The call lives in the combat's flags (`flags['ten-segments'].declaring`),
 * written by the active GM only: core lets a player write nothing of a
 * Combat but its round and turn, so no player can forge a call or its time.
 *
 * Time is read through `clockNow()`, replaceable in tests (`setClock`).
 */
import type { Problem } from '../rules/model';
import { SYSTEM_ID } from '../settings';
import { isActiveGM } from './permissions';
import { notifyProblem } from './problems';
import type { TenSegmentsCombat } from './combat';

/** One full segment of delay for every full 6 s of real-life delay. */
export const SECONDS_PER_HESITATION = 6;

/** The state of declaring in turn, in the combat's flags. Times in ms of the active GM's clock. */
export interface TurnCall {
  /** The round of the flow these calls are for (a new round calls again). */
  round: number;
  /** The roster as the GM ordered it. */
  roster: string[];
  /** The die (1..roster length) that picked who declares first. */
  roll: number;
  /** The roster from the one the die picked, round the end: the order of the calls. */
  order: string[];
  /** Place in `order` of the last one called (-1: nobody yet). */
  index: number;
  /** The combatant called now, or null (not started, or all called). */
  called: string | null;
  calledAt: number | null;
  /** When the GM paused the clock (null: running). */
  pausedAt: number | null;
  /** Paused time so far since the call. */
  pausedMs: number;
  /** The clock stopped by the answer: its seconds (null: still running). */
  answeredSeconds: number | null;
  /** The answers so far this round: who, after how long, how many segments of delay. */
  answers: { combatant: string; seconds: number; segments: number }[];
}

/* ---------------------------------------------------------------- clock */

let now: () => number = () => Date.now();

/** The clock every measure here reads (ms). */
export function clockNow(): number {
  return now();
}

/** Replace the clock (tests); without an argument, the real one again. */
export function setClock(clock?: () => number): void {
  now = clock ?? (() => Date.now());
}

/* ------------------------------------------------------------- reading */

/** The combat's call state, or null. */
export function turnCall(combat: Combat.Implementation | null | undefined): TurnCall | null {
  const flags = (combat as unknown as { flags?: Record<string, Record<string, unknown>> } | null)?.flags;
  const call = flags?.[SYSTEM_ID]?.declaring as TurnCall | undefined | null;
  return call && typeof call === 'object' && Array.isArray(call.order) ? call : null;
}

/** Seconds on the clock at `at` (the active GM's measure): the call to now (or to the pause), less paused time. */
export function elapsedSeconds(call: TurnCall, at: number = clockNow()): number {
  if (call.answeredSeconds !== null && call.answeredSeconds !== undefined) return call.answeredSeconds;
  if (call.called === null || call.calledAt === null) return 0;
  const end = call.pausedAt ?? at;
  const ms = end - call.calledAt - (call.pausedMs ?? 0);
  return Math.max(0, Math.floor(ms / 100) / 10);
}

/** Segments of delay for `seconds` ("every full 6 seconds"). */
export function hesitationSegments(seconds: number): number {
  return Math.floor(seconds / SECONDS_PER_HESITATION);
}

/** What a screen shows of the clock (the tracker's and the dialog's): seconds, whole segments so far, paused or running. */
export interface ClockView {
  combatant: string;
  seconds: number;
  segments: number;
  paused: boolean;
  running: boolean;
  /** "0:13" */
  text: string;
}

export function clockView(call: TurnCall | null, at: number = clockNow()): ClockView | null {
  if (!call?.called) return null;
  const seconds = elapsedSeconds(call, at);
  const whole = Math.floor(seconds);
  const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  const answered = call.answeredSeconds !== null && call.answeredSeconds !== undefined;
  return { combatant: call.called, seconds, segments: hesitationSegments(seconds), paused: call.pausedAt !== null && !answered, running: !answered && call.pausedAt === null, text };
}

/* ------------------------------------------------------- the GM's side */

type Answer = { ok: true } | { ok: false; problem: Problem };

const refused = (key: string, data?: Record<string, string>): Answer => {
  const problem: Problem = data ? { key, data } : { key };
  notifyProblem(problem);
  return { ok: false, problem };
};

async function write(combat: TenSegmentsCombat, call: TurnCall | null): Promise<void> {
  if (call === null) await combat.update({ [`flags.${SYSTEM_ID}.-=declaring`]: null } as never);
  else await combat.update({ [`flags.${SYSTEM_ID}.declaring`]: call } as never);
}

/** Only the active GM, under addict, while a round is declared. */
function canCall(combat: TenSegmentsCombat): Answer {
  if (!game.user?.isGM) return refused('DeclaringInTurnGMOnly');
  if (!isActiveGM()) return refused('NotActiveGM');
  const state = combat.flowState;
  if (!state || state.procedure !== 'addict') return refused('DeclaringInTurnAddictOnly');
  if (state.stage !== 'declare') return refused('NotDeclaring');
  return { ok: true };
}

/** The default roster: the combatants a player owns, in the combat's order (6.1: the DM notes the others privately). */
export function defaultRoster(combat: Combat.Implementation): string[] {
  return combat.combatants.contents.filter((c) => c.hasPlayerOwner && !c.isDefeated).map((c) => c.id as string);
}

/** Whether the combatant has declared in this round's declarations (skipped by the calls). */
function declared(combat: TenSegmentsCombat, id: string): boolean {
  return combat.flowState?.finalDeclarations?.[id] !== undefined;
}

/**
 * The active GM: begin declaring in turn with the roster in the GM's order
 * (default: the player-owned combatants); a die of the roster's size picks
 * who declares first ("DM rolls to determine first to declare based on
 * roster order"), and that one is called at once.
 */
export async function startDeclaringInTurn(combat: TenSegmentsCombat, roster: string[] = defaultRoster(combat)): Promise<Answer> {
  const can = canCall(combat);
  if (!can.ok) return can;
  const ids = roster.filter((id, i) => combat.combatants.get(id) && roster.indexOf(id) === i);
  if (ids.length === 0) return refused('DeclaringInTurnNobody');
  const roll = ids.length === 1 ? 1 : ((await new Roll(`1d${ids.length}`).evaluate()).total as number);
  const first = Math.min(ids.length, Math.max(1, roll)) - 1;
  const order = [...ids.slice(first), ...ids.slice(0, first)];
  const call: TurnCall = { round: combat.flowState!.round, roster: ids, roll, order, index: -1, called: null, calledAt: null, pausedAt: null, pausedMs: 0, answeredSeconds: null, answers: [] };
  return callFrom(combat, call);
}

function callFrom(combat: TenSegmentsCombat, call: TurnCall): Promise<Answer> {
  let index = call.index + 1;
  while (index < call.order.length && (declared(combat, call.order[index]) || !combat.combatants.get(call.order[index]))) index++;
  const next: TurnCall = { ...call, index, called: call.order[index] ?? null, calledAt: index < call.order.length ? clockNow() : null, pausedAt: null, pausedMs: 0, answeredSeconds: null };
  return write(combat, next).then(() => ({ ok: true }) as Answer);
}

/** The active GM: call the next in the order (those who have declared already are passed over); after the last, nobody is called. */
export async function callNext(combat: TenSegmentsCombat): Promise<Answer> {
  const can = canCall(combat);
  if (!can.ok) return can;
  const call = turnCall(combat);
  // A new round's declarations (phase 11 "returns to Phase 6"): the same roster, a new die for who declares first.
  if (!call || call.round !== combat.flowState!.round) return startDeclaringInTurn(combat, call?.roster);
  return callFrom(combat, call);
}

/** The active GM: pause the clock (a question to the GM, footnote 10) or let it run again. */
export async function pauseClock(combat: TenSegmentsCombat, paused: boolean): Promise<Answer> {
  if (!game.user?.isGM) return refused('DeclaringInTurnGMOnly');
  if (!isActiveGM()) return refused('NotActiveGM');
  const call = turnCall(combat);
  if (!call?.called || call.calledAt === null || call.answeredSeconds !== null) return refused('DeclaringInTurnNoCall');
  const at = clockNow();
  if (paused && call.pausedAt === null) await write(combat, { ...call, pausedAt: at });
  else if (!paused && call.pausedAt !== null) await write(combat, { ...call, pausedAt: null, pausedMs: (call.pausedMs ?? 0) + (at - call.pausedAt) });
  return { ok: true };
}

/** The active GM: stop declaring in turn (the call state goes). */
export async function stopDeclaringInTurn(combat: TenSegmentsCombat): Promise<Answer> {
  if (!game.user?.isGM) return refused('DeclaringInTurnGMOnly');
  if (!isActiveGM()) return refused('NotActiveGM');
  if (turnCall(combat)) await write(combat, null);
  return { ok: true };
}

/**
 * The active GM, as a declaration arrives: the seconds on the clock if the
 * combatant is the one called this round and the clock still runs (or is
 * paused), otherwise undefined (no timing).
 */
export function arrivalSeconds(combat: TenSegmentsCombat, combatantId: string): number | undefined {
  const call = turnCall(combat);
  const state = combat.flowState;
  if (!call || !state || state.procedure !== 'addict' || state.stage !== 'declare' || call.round !== state.round) return undefined;
  if (call.called !== combatantId || call.calledAt === null || call.answeredSeconds !== null) return undefined;
  return elapsedSeconds(call);
}

/** The active GM, once the called combatant's declaration is recorded: the clock stops at `seconds`. */
export async function stopClock(combat: TenSegmentsCombat, combatantId: string, seconds: number): Promise<void> {
  const call = turnCall(combat);
  if (!call || call.called !== combatantId) return;
  const answers = [...(call.answers ?? []), { combatant: combatantId, seconds, segments: hesitationSegments(seconds) }];
  await write(combat, { ...call, answeredSeconds: seconds, pausedAt: null, answers });
}
