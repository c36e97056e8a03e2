/**
 * Mid-round actions: what a combatant (or the GM) does while a round's steps
 * are played, beyond its declared action and the attacks it allows
 * (attack.ts). Each is an input of the one flow (transitions.ts), plain JSON
 * like every other, stored in a combat's log and replayed by every client:
 *
 *  - `delay`: a delay announced during group actions (high-low "Delay"), by
 *    the procedure's `announceDelay`: the delayer's entries still to come are
 *    placed anew, the played steps keep their indices (held.ts);
 *  - `release`: a held (segment-d6 "hold") or prepared (addict B) action
 *    released now as the action it becomes — an attack, a missile, or the
 *    start of a spell — by the procedure's `releaseHeld`: its entries join
 *    the step being played, its casting goes off later (held.ts);
 *  - `stop`: the GM stops at a segment where nothing is scheduled, for a held
 *    or prepared action to be released there (segment-d6, addict; held.ts);
 *  - `break`: the GM breaks a casting no hit broke (a failed save, the
 *    caster's movement or ability to act impeded, jostling: seeds 001, 002),
 *    lost (and expended) or prevented as a hit at this moment would, shown as
 *    an interruption and undone by `restore`.
 *
 * A caster electing not to complete a casting is the flow's `cancel`
 * (transitions.ts). Like every transition, each action asks the procedure
 * everything first and only then changes the state: a refusal is a Problem
 * and changes nothing.
 */
import type { ActionKind, Declaration, Problem } from '../model';
import type { Casting, Procedure, ProcedureOptions, Schedule } from '../procedure';
import { NEVER } from '../round';
import { copyJson } from '../journal';
import { combatantOf, nameOf, refuse, BREAK_CAUSES, type BreakCause, type FlowInterruption, type FlowState } from './state';
import { getProcedure } from '../registry';
import type { Applied } from './transitions';

type P = Procedure<ProcedureOptions>;

/** A mid-round action: the flow's inputs of this file. */
export type MidRoundInput =
  /** A combatant announces a delay now (high-low). */
  | { t: 'delay'; c: string }
  /** A held or prepared action released now, as the action `d` (its combatant is `c`). */
  | { t: 'release'; c: string; d: Declaration }
  /** The GM breaks a casting no hit broke, for a reason (default 'other'). */
  | { t: 'break'; casting: string; why?: BreakCause }
  /** The GM stops at segment `seg`, where nothing is scheduled, for a held or prepared action to be released there. */
  | { t: 'stop'; seg: number };

/** What a held or prepared action can become when released: an attack, a missile, the start of a spell or a device. */
export const RELEASABLE: readonly ActionKind[] = ['melee', 'missile', 'spell', 'device'];

/** The round being played and its step, or the Problem: mid-round actions happen only then. */
export function playing(state: FlowState, name: string): { ok: true; schedule: Schedule; k: number } | { ok: false; problem: Problem } {
  const schedule = state.schedule;
  if (state.stage !== 'resolve' || !schedule || !schedule.steps[state.step]) return refuse('MidRoundOutsideRound', { name });
  return { ok: true, schedule, k: state.step };
}

/* ------------------------------------------------------------------ break */

/**
 * The GM breaks a casting no hit broke. high-low: "Concentration is always
 * broken by any the following conditions occurring during the time period of
 * concentration: caster takes damage; caster fails a save; caster's movement
 * or ability to act is impeded", and allies moving past each other cause
 * "jostling, so any concentration (i.e. spell casting) will be broken";
 * d12-ascending II.D "Damage (or failed save that affects the casters
 * actions) means the spell is forgotten if disruption occurs while actually
 * casting". It does what a hit at this moment does to the casting (its
 * lossFrom / preventFrom): lost, and expended where the procedure's
 * interruption expends, or prevented; a device is never broken. While the
 * round is declared only castings carried over are under way; after the last
 * step a casting running past the round can still be broken.
 */
function breakCasting(state: FlowState, input: Extract<MidRoundInput, { t: 'break' }>): Applied {
  const why = input.why ?? 'other';
  if (typeof input.casting !== 'string' || !(BREAK_CAUSES as readonly unknown[]).includes(why)) return refuse('MalformedRequest');
  let castings: readonly Casting[];
  let k: number;
  if (state.stage === 'declare' || !state.schedule) {
    castings = state.carry.map((c) => ({ ...c, lossFrom: c.device ? NEVER : 0, preventFrom: c.device ? NEVER : 0, completeStep: null }));
    k = 0;
  } else {
    castings = state.schedule.castings;
    k = state.stage === 'resolve' ? state.step : state.schedule.steps.length;
  }
  const casting = castings.find((c) => c.id === input.casting);
  if (!casting || (state.status[casting.id] ?? 'pending') !== 'pending') return refuse('NoCasting');
  const data = { name: nameOf(state, casting.caster), spell: casting.spell };
  if (casting.device) return refuse('BreakDevice', data);
  // Nothing breaks it (individual-speed with interruptCasting off): a break does what a hit would.
  if (casting.lossFrom >= NEVER && casting.preventFrom >= NEVER) return refuse('BreakNotBreakable', data);
  if (casting.completeStep !== null && k >= casting.completeStep) return refuse('NoCasting');
  let outcome: FlowInterruption['outcome'];
  if (k >= casting.lossFrom) outcome = 'interrupted';
  else if (k >= casting.preventFrom) outcome = 'prevented';
  else return refuse('BreakNotYetCasting', data);
  const expended = outcome === 'interrupted' && casting.expends;
  state.status[casting.id] = outcome;
  if (expended) state.states[casting.caster].expended.push(casting.spell);
  const broken: FlowInterruption = { round: state.round, step: k, casting: casting.id, caster: casting.caster, spell: casting.spell, outcome, expended, broken: why };
  state.interruptions.push(broken);
  return { ok: true, detail: { interruptions: [broken] } };
}

/* ------------------------------------------------------------------ apply */

/** Carry out a mid-round action on `state` in place, or refuse it (a Problem, nothing changed). */
export function applyMidRound(state: FlowState, input: MidRoundInput, procedure: P): Applied {
  switch (input.t) {
    case 'delay': {
      // The procedures that have these carry their code in their chunks (Procedure.flowInputs, held.ts).
      if (procedure.flowInputs?.delay) return procedure.flowInputs.delay(state, input, procedure);
      const c = typeof input.c === 'string' ? combatantOf(state, input.c) : undefined;
      return c ? refuse('DelayNotInProcedure', { name: c.name }) : refuse('UnknownCombatant', { id: String(input.c) });
    }
    case 'release': {
      if (procedure.flowInputs?.release) return procedure.flowInputs.release(state, input, procedure);
      const c = typeof input.c === 'string' ? combatantOf(state, input.c) : undefined;
      if (!c) return refuse('UnknownCombatant', { id: String(input.c) });
      if (!input.d || typeof input.d !== 'object') return refuse('MalformedRequest');
      const at = playing(state, c.name);
      return at.ok ? refuse('ReleaseNotInProcedure', { name: c.name }) : at;
    }
    case 'break':
      return breakCasting(state, input);
    case 'stop':
      if (procedure.flowInputs?.stop) return procedure.flowInputs.stop(state, input, procedure);
      return refuse('StopNotInProcedure');
  }
}

/**
 * Null if this mid-round action can be taken now, else the reason (a key under
 * TENSEG.Error): what a tracker's control asks before it offers the action.
 * Pure: `state` is not changed (the action is tried on a copy).
 */
export function midRoundProblem(state: FlowState, input: MidRoundInput, procedure: P = getProcedure(state.procedure)): Problem | null {
  const done = applyMidRound(copyJson(state), input, procedure);
  return done.ok ? null : done.problem;
}
