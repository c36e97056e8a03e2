/**
 * The active GM's comparison of an actor's health with what the combat flow
 * last recorded for its combatant (damage.ts queues it after every
 * transition of the combat): a difference is recorded as a hit, and the
 * interruptions it caused get their cards. Part of the GM's chunk.
 */
import type { CombatantState } from '../../rules/model';
import type { FlowState } from '../../rules/flow';
import type { TenSegmentsCombat } from '../combat';
import { notifyProblem } from '../problems';
import { loadedGMSide, loadGMSide } from '../requests';
import { actorData } from '../../data/systems';

/** Does this actor count Stress and Wound Points (individual-speed) rather than hp? */
function usesStressAndWounds(actor: Actor.Implementation): boolean {
  const ind = actorData(actor)?.individual;
  return !!ind && (ind.stress.max > 0 || ind.wounds.max > 0);
}

/** An actor's total health as combat counts it: hp, or Stress plus Wound Points where used. */
function healthOf(actor: Actor.Implementation): number {
  const sys = actorData(actor);
  if (!sys) return 0;
  if (usesStressAndWounds(actor)) return sys.individual.stress.value + sys.individual.wounds.value;
  return sys.hp.value;
}

/** Current Stress, or null where the actor has none. */
function stressOf(actor: Actor.Implementation): number | null {
  if (!usesStressAndWounds(actor)) return null;
  return actorData(actor)?.individual.stress.value ?? 0;
}

/** Stress and Wound Points count where the procedure counts them (individual-speed) and the actor has them; hp everywhere else. */
function countsStress(actor: Actor.Implementation, state: FlowState): boolean {
  return state.procedure === 'individual-speed' && usesStressAndWounds(actor);
}

/** The health the flow last recorded for a combatant, and the actor's now, counted the same way. */
function healthPair(actor: Actor.Implementation, state: FlowState, recorded: CombatantState): [number, number] {
  if (!countsStress(actor, state)) return [recorded.hp, actorData(actor)?.hp.value ?? 0];
  return [(recorded.stress ?? 0) + (recorded.woundPoints ?? 0), healthOf(actor)];
}

/** One combatant of a running combat whose actor changed: what the flow recorded against what the actor shows now. */
export async function compareHealth(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
  const state = combat.flowState;
  const combatant = combat.combatants.get(combatantId);
  const actor = combatant?.actor;
  const recorded = state?.states[combatantId];
  if (!state || !actor || !recorded) return;
  const [recordedHealth, shown] = healthPair(actor, state, recorded);
  const drop = recordedHealth - shown;
  if (drop === 0) return;
  // Wound Points lost while Stress stayed as the flow had it: the damage went past Stress (a critical hit).
  const stressNow = countsStress(actor, state) ? stressOf(actor) : null;
  const critical = drop > 0 && stressNow !== null && recorded.stress !== undefined && stressNow >= recorded.stress && recorded.stress > 0;
  const res = await combat.recordHit({ target: combatantId, amount: drop, ...(critical ? { critical: true } : {}) });
  if ('problem' in res) return notifyProblem(res.problem);
  const now = combat.flowState as FlowState;
  // The cards are the GM's side (chat.ts), a chunk loaded on first use.
  const interrupted = res.detail.interruptions ?? [];
  const gm = interrupted.length > 0 ? (loadedGMSide() ?? (await loadGMSide())) : null;
  for (const i of interrupted) await gm!.postInterruptionCard(combat, now, i);
}
