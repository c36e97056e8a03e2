/**
 * Damage during combat that does not come from an attack: a GM or an owner
 * changing health on a sheet. The active GM's client compares what it sees
 * (the actor's health now) with what the combat flow last recorded for that
 * combatant, and records the difference as a hit; it never believes options
 * another client sent with its update (a modified client can send any). The
 * engine decides whether a casting is interrupted or the combatant falls;
 * the GM's client copies that onto items and combatants and posts a chat
 * card, from which the GM can undo an interruption.
 */
import type { CombatantState } from '../rules/model';
import type { FlowState } from '../rules/flow';
import type { TenSegmentsCombat } from './combat';
import { notifyProblem } from './problems';
import { authorize, isActiveGM } from './permissions';
import { requestCombatAction } from './queries';
import { SYSTEM_ID } from '../settings';
import { MIGRATION_OPTION, SYNC_OPTION } from './schema-version';
import { loadedGMSide, loadGMSide } from './requests';
import { actorData } from '../data/systems';

/** Does this actor count Stress and Wound Points (individual-speed) rather than hp? */
function usesStressAndWounds(actor: Actor.Implementation): boolean {
  const ind = actorData(actor)?.individual;
  return !!ind && (ind.stress.max > 0 || ind.wounds.max > 0);
}

/** An actor's total health as combat counts it: hp, or Stress plus Wound Points where used. */
export function healthOf(actor: Actor.Implementation): number {
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

/** Is this combatant's actor the actor that changed? Unlinked tokens of one actor are different actors (compare by uuid). */
function isActorOf(combatant: Combatant.Implementation, actor: Actor.Implementation): boolean {
  const own = combatant.actor;
  return !!own && (own === actor || own.uuid === actor.uuid);
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
async function compare(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
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

/**
 * The active GM's reaction to any update of an actor in a running combat,
 * whoever made it and whatever options came with it: each combatant of that
 * actor is compared after every transition already queued for its combat.
 */
export async function onActorUpdated(actor: Actor.Implementation, options: Record<string, unknown> = {}, userId?: string): Promise<void> {
  if (!isActiveGM()) return;
  // This client's own copy of the flow onto actors (sync.ts) is no damage; the mark is believed from this client only.
  if (options[SYNC_OPTION] && userId === game.user?.id) return;
  // Nor is this client's world migration (migration.ts), which writes new fields and converts shapes, never health.
  if (options[MIGRATION_OPTION] !== undefined && userId === game.user?.id) return;
  // Every task is queued now, so whoever waits for the combat (whenIdle) waits for all of them.
  const tasks: Promise<void>[] = [];
  for (const combat of (game.combats?.contents ?? []) as TenSegmentsCombat[]) {
    const state = combat.flowState;
    if (!state) continue;
    for (const combatant of combat.combatants.contents) {
      if (!isActorOf(combatant, actor)) continue;
      if (!state.encounter.combatants.some((c) => c.id === combatant.id)) continue;
      const id = combatant.id as string;
      tasks.push(combat.exclusive(() => compare(combat, id)));
    }
  }
  await Promise.all(tasks);
}

/** A GM presses "undo" on an interruption card: the active GM carries it out. */
export async function undoFromCard(combatId: string, castingId: string): Promise<void> {
  const denied = authorize('undoInterruption', game.user);
  if (denied) return notifyProblem(denied);
  const combat = game.combats?.get(combatId) as TenSegmentsCombat | undefined;
  if (!combat) return notifyProblem({ key: 'UnknownCombat' });
  const done = await requestCombatAction(combat, 'undoInterruption', { castingId });
  if (!done.ok) ui.notifications?.error(done.message);
}

export function registerDamageHooks(): void {
  Hooks.on('updateActor', (actor, _changes, options, userId) => {
    void onActorUpdated(actor as Actor.Implementation, options as Record<string, unknown>, userId as string);
  });
  Hooks.on('renderChatMessageHTML', (message, html) => {
    const flags = (message as ChatMessage.Implementation).flags as Record<string, { kind?: string; combat?: string; casting?: string }>;
    const data = flags?.[SYSTEM_ID];
    if (data?.kind !== 'interruption') return;
    const button = (html as HTMLElement).querySelector<HTMLButtonElement>('[data-action="tenseg-undo-interruption"]');
    if (!button) return;
    if (!game.user?.isGM) {
      button.remove();
      return;
    }
    button.addEventListener('click', () => void undoFromCard(data.combat as string, data.casting as string));
  });
}
