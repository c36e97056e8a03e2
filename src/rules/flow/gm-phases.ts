/**
 * The phases whose result the GM records because the text gives no table for
 * them (Procedure.gmPhases; addict, seed 004, phases 1, 3 and 11):
 *  - `reaction` (phase 1, "DM checks reaction for the opposing party"): a
 *    side's reaction in the GM's words, with the roll made on their table,
 *    before the first round is played (the window of the opening phases);
 *  - `distance` (phase 3, "Roll encounter distance"): the encounter distance
 *    in feet, while a round is declared (the GM records it again as the
 *    sides close); a charge declared without a distance closes it;
 *  - `staunch` (phase 11, "bleeding can be staunched"): at the end of a
 *    round, once the GM judges the combat resolved, a bleeding combatant
 *    bleeds no more.
 * Like every input, each is checked first and refused with a Problem,
 * changing nothing, or carried out on the state.
 */
import type { Problem } from '../model';
import { RulesError } from '../model';
import type { EncounterReaction, Procedure, ProcedureOptions } from '../procedure';
import { copyState } from '../round';
import { combatantOf, refuse, type FlowState } from './state';
import { beforeFirstRound, type Applied } from './transitions';

/** What the GM records in those phases. */
export type GmPhaseInput =
  /** Phase 1: a side's reaction, the result in the GM's words (at most REACTION_MAX characters), the roll if any; `secret`: players do not see it. */
  | { t: 'reaction'; side: string; result: string; roll?: number; secret?: boolean }
  /** Phase 3: the encounter distance in feet. */
  | { t: 'distance'; feet: number }
  /** Phase 11: the GM staunches a combatant's bleeding. */
  | { t: 'staunch'; c: string };

import { DISTANCE_MAX, REACTION_MAX } from './limits';
export { DISTANCE_MAX, REACTION_MAX };

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

type P = Procedure<ProcedureOptions>;

/** A phase this procedure does not have. */
function noPhase(procedure: P, phase: string): Applied {
  return refuse('PhaseNotInProcedure', { phase, procedure: procedure.id });
}

/** The reaction as recorded, or why it cannot be. */
function reactionOf(input: Extract<GmPhaseInput, { t: 'reaction' }>): EncounterReaction | Problem {
  const { result, roll, secret } = input;
  const side = String(input.side);
  if (typeof result !== 'string' || result.trim() === '' || result.length > REACTION_MAX || CONTROL.test(result)) {
    return { key: 'ReactionResultInvalid', data: { side, max: REACTION_MAX } };
  }
  if (roll !== undefined && (typeof roll !== 'number' || !Number.isFinite(roll))) return { key: 'ReactionRollInvalid', data: { side, roll: String(roll) } };
  if (secret !== undefined && typeof secret !== 'boolean') return { key: 'MalformedRequest' };
  const out: EncounterReaction = { result: result.trim() };
  if (roll !== undefined) out.roll = roll;
  if (secret) out.secret = true;
  return out;
}

function reaction(state: FlowState, input: Extract<GmPhaseInput, { t: 'reaction' }>, procedure: P): Applied {
  if (!procedure.gmPhases?.reaction) return noPhase(procedure, 'reaction');
  // Phase 1 comes before the rounds: once round 1 (or the surprise) is played, it is past.
  if (!beforeFirstRound(state)) return refuse('PhaseOver', { phase: procedure.gmPhases.reaction });
  if (typeof input.side !== 'string' || !state.encounter.sides.some((s) => s.id === input.side)) return refuse('UnknownSideId', { side: String(input.side) });
  const recorded = reactionOf(input);
  if ('key' in recorded) return { ok: false, problem: recorded };
  state.encounter.reactions = { ...(state.encounter.reactions ?? {}), [input.side]: recorded };
  return { ok: true };
}

function distance(state: FlowState, feet: unknown, procedure: P): Applied {
  if (!procedure.gmPhases?.distance) return noPhase(procedure, 'distance');
  if (state.stage !== 'declare') return refuse('NotDeclaring');
  if (typeof feet !== 'number' || !Number.isFinite(feet) || feet < 0 || feet > DISTANCE_MAX) return refuse('DistanceInvalid', { feet: String(feet), max: DISTANCE_MAX });
  state.encounter.distance = feet;
  return { ok: true };
}

function staunch(state: FlowState, id: unknown, procedure: P): Applied {
  const staunching = procedure.gmPhases?.staunch;
  if (!staunching) return noPhase(procedure, 'staunch');
  // Recovery follows the end of the round the combat was resolved in.
  if (state.stage !== 'end-of-round') return refuse('StaunchNotNow');
  const c = typeof id === 'string' ? combatantOf(state, id) : undefined;
  const now = c ? state.states[c.id] : undefined;
  if (!c || !now) return refuse('UnknownCombatant', { id: String(id) });
  let next;
  try {
    next = staunching(c, copyState(now));
  } catch (err) {
    if (err instanceof RulesError) return { ok: false, problem: err.problem };
    throw err;
  }
  state.states[c.id] = next;
  return { ok: true };
}

/** Carry out one of these inputs on `state` in place, or refuse it (a Problem, nothing changed). */
export function applyGmPhase(state: FlowState, input: GmPhaseInput, procedure: P): Applied {
  switch (input.t) {
    case 'reaction':
      return reaction(state, input, procedure);
    case 'distance':
      return distance(state, input.feet, procedure);
    case 'staunch':
      return staunch(state, input.c, procedure);
  }
}
