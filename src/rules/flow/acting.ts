/**
 * Who can act, and who can be struck, decided by the engine for every
 * procedure (issue 28). From rules revision 5 (RULES_REVISION), the flow asks
 * here, not each procedure's `canAct` alone:
 *
 *  - dead, fled: nothing (every procedure; the dead and the fled "no longer
 *    act", transitions.ts `leave`);
 *  - dying, unconscious: what the procedure's own damage rules allow
 *    (`Procedure.canAct`): nothing under segment-d6, high-low, d12-ascending
 *    and addict (each's thresholds put it "out of the fight"); under
 *    individual-speed an Incapacitated creature "is conscious ... any other
 *    action it takes causes it to take 1 Wound Point of damage" and a Dying
 *    one "continues to function as an Incapacitated creature, but can only
 *    take 1 action" (seed 003, Wound Points: the Wound Point is charged by the
 *    procedure's WoundRules.actionCost) — a limited action, not a refusal;
 *  - surrendered: nothing. Seed 002, Withdrawal Tactics: "Surrender: You
 *    don't even see the point in running. You either throw down your weapon,
 *    put up your hands ...". RULING: the same for every procedure;
 *  - routed (its morale broke): only flight. Seed 002: "Disengaging forces do
 *    not fight as they fall back"; "Flee in panic: You turn and run ... Opponents
 *    may take an AoO at your back". Seed 003's morale check routs a monster
 *    (individual-speed.ts: "the GM declares flight or surrender"). RULING: in
 *    every procedure a routed combatant may declare and carry out only `flee`
 *    (or nothing); every attack, release or casting it asks for is refused.
 *    The free attacks the procedures grant to others against one that flees
 *    (high-low "Free Attack", d12-ascending's attacks of opportunity, segment-d6's
 *    "fleeing attack") stay as they are: a routed combatant is not fallen, and
 *    may be struck.
 *
 * Fallen (nobody strikes it, and a declaration aimed at it waits for its
 * owner's choice: transitions.ts `retarget`): dead, fled, surrendered.
 *
 * Combats started under an earlier revision keep the rules they started with:
 * only the procedure's `canAct`, and any target.
 */
import type { ActionKind, CombatantState, Problem } from '../model';
import type { Procedure, ProcedureOptions } from '../procedure';
import type { FlowState } from './state';
import { nameOf } from './state';

/** The rules revision from which the engine decides who can act and who is fallen (this file). */
export const ACTING_REVISION = 5;

/** Why a combatant cannot act (in full): a key of the timeline and of the tracker's row (TENSEG.CannotAct.*). */
export type CannotActReason = 'dead' | 'fled' | 'surrendered' | 'dying' | 'unconscious' | 'routed';

/** Why a target cannot be struck. */
export type FallenReason = 'dead' | 'fled' | 'surrendered';

type CanAct = Pick<Procedure<ProcedureOptions>, 'canAct'>;

/** Does this combat decide who can act here (rules revision 5 or later)? */
export function engineDecidesActing(state: Pick<FlowState, 'rules'>): boolean {
  return (state.rules ?? 0) >= ACTING_REVISION;
}

/** Fallen: dead, fled or surrendered (null: it may be struck). */
export function fallenReason(s: CombatantState | undefined): FallenReason | null {
  if (!s) return 'fled';
  if (s.condition === 'dead') return 'dead';
  if (s.condition === 'fled') return 'fled';
  if (s.surrendered) return 'surrendered';
  return null;
}

/**
 * Why this state cannot act at all, or, for 'routed', only flee; null: it may
 * act (as its procedure allows: an individual-speed Incapacitated creature at
 * the cost of a Wound Point). `byEngine`: rules revision 5 or later (routed and
 * surrendered count); before, only the procedure's `canAct`.
 */
export function cannotActReason(s: CombatantState | undefined, procedure: CanAct, byEngine: boolean): CannotActReason | null {
  if (!s) return 'fled';
  if (s.condition === 'dead') return 'dead';
  if (s.condition === 'fled') return 'fled';
  if (!procedure.canAct(s)) return s.condition === 'dying' ? 'dying' : 'unconscious';
  if (!byEngine) return null;
  if (s.surrendered) return 'surrendered';
  if (s.routed) return 'routed';
  return null;
}

/** Actions a routed combatant may still take (seed 002, "Flee in panic"; RULING above). */
export const ROUTED_ACTIONS: ReadonlySet<ActionKind> = new Set<ActionKind>(['flee', 'none']);

/** Why this combatant may not take this action now (null: it may). */
export function actionRefusedBy(state: FlowState, id: string, action: ActionKind | undefined, procedure: CanAct): CannotActReason | null {
  const reason = cannotActReason(state.states[id], procedure, engineDecidesActing(state));
  if (reason === 'routed' && action !== undefined && ROUTED_ACTIONS.has(action)) return null;
  return reason;
}

const ACT_REFUSED: Record<CannotActReason, string> = {
  dead: 'ActRefusedDead',
  fled: 'ActRefusedFled',
  surrendered: 'ActRefusedSurrendered',
  dying: 'ActRefusedDying',
  unconscious: 'ActRefusedUnconscious',
  routed: 'ActRefusedRouted',
};

/** The keys of those refusals (a script that could not foresee who falls tolerates them: play.ts, odds/trial.ts). */
export const ACT_REFUSED_KEYS: readonly string[] = Object.values(ACT_REFUSED);

/** The refusal in words for a combatant that cannot act: an attack, a release, a casting or a declaration it asks for. */
export function cannotActProblem(state: FlowState, id: string, reason: CannotActReason): Problem {
  return { key: ACT_REFUSED[reason], data: { name: nameOf(state, id) } };
}

const TARGET_FALLEN: Record<FallenReason, string> = {
  dead: 'AttackTargetFallenDead',
  fled: 'AttackTargetFallenFled',
  surrendered: 'AttackTargetFallenSurrendered',
};

/** The refusal in words for a blow at a fallen target. */
export function fallenTargetProblem(state: FlowState, id: string, target: string, reason: FallenReason): Problem {
  return { key: TARGET_FALLEN[reason], data: { name: nameOf(state, id), target: nameOf(state, target) } };
}
