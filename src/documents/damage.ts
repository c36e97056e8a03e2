/**
 * Damage during combat. Whoever changes an actor's health keeps the old value
 * in the update options (pre-update hook); the active GM alone, on the update
 * hook, tells the combat flow about the drop. The engine decides whether a
 * casting is interrupted or the combatant falls; the GM's client copies that
 * onto items and combatants and posts a chat card, from which the GM can
 * undo an interruption.
 */
import type { FlowState } from '../rules/flow';
import type { TenSegmentsCombat } from './combat';
import { SYNC_OPTION } from './sync';
import { notifyProblem } from './problems';
import { authorize } from './permissions';
import { SYSTEM_ID } from '../settings';

export const BEFORE_OPTION = 'tensegHealthBefore';
export const ATTACKER_OPTION = 'tensegAttacker';
/** Stress before the update (individual-speed), to tell a hit that went past Stress. */
export const STRESS_BEFORE_OPTION = 'tensegStressBefore';

interface HealthData {
  hp?: { value?: number };
  individual?: { stress?: { value?: number; max?: number }; wounds?: { value?: number; max?: number } };
}

/** Does this actor count Stress and Wound Points (individual-speed) rather than hp? */
function usesStressAndWounds(actor: Actor.Implementation): boolean {
  const ind = (actor.system as unknown as HealthData).individual;
  return !!ind && ((ind.stress?.max ?? 0) > 0 || (ind.wounds?.max ?? 0) > 0);
}

/** An actor's total health as combat counts it: hp, or Stress plus Wound Points where used. */
export function healthOf(actor: Actor.Implementation): number {
  const sys = actor.system as unknown as HealthData;
  if (usesStressAndWounds(actor)) return (sys.individual?.stress?.value ?? 0) + (sys.individual?.wounds?.value ?? 0);
  return sys.hp?.value ?? 0;
}

/** Current Stress, or null where the actor has none. */
function stressOf(actor: Actor.Implementation): number | null {
  if (!usesStressAndWounds(actor)) return null;
  return (actor.system as unknown as HealthData).individual?.stress?.value ?? 0;
}

/** Is this combatant's actor the actor that changed? Unlinked tokens of one actor are different actors (compare by uuid). */
function isActorOf(combatant: Combatant.Implementation, actor: Actor.Implementation): boolean {
  const own = combatant.actor;
  return !!own && (own === actor || own.uuid === actor.uuid);
}

function isActiveGM(): boolean {
  return !!game.user?.isGM && game.users?.activeGM?.id === game.user.id;
}

/** Chat card for an interrupted or prevented casting, with the GM's undo button. */
async function postInterruptionCard(combat: TenSegmentsCombat, state: FlowState, i: { casting: string; caster: string; spell: string; outcome: string; expended: boolean }): Promise<void> {
  const combatant = combat.combatants.get(i.caster);
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/interruption.hbs`, {
    caster: combatant?.name ?? i.caster,
    spell: i.spell,
    outcome: i.outcome,
    expended: i.expended,
    round: state.round,
    casting: i.casting,
    combat: combat.id,
  });
  await ChatMessage.create({
    content,
    speaker: ChatMessage.getSpeaker({ actor: combatant?.actor ?? undefined }),
    flags: { [SYSTEM_ID]: { kind: 'interruption', combat: combat.id, casting: i.casting } },
  } as never);
}

/** The active GM's reaction to a health change of an actor in combat. */
export async function onActorUpdated(actor: Actor.Implementation, options: Record<string, unknown>): Promise<void> {
  if (!isActiveGM() || options[SYNC_OPTION]) return;
  const before = options[BEFORE_OPTION];
  if (typeof before !== 'number') return;
  const drop = before - healthOf(actor);
  if (drop === 0) return;
  // Wound Points lost while Stress stayed as it was: the damage went past Stress (a critical hit).
  const stressBefore = options[STRESS_BEFORE_OPTION];
  const stressNow = stressOf(actor);
  const critical = drop > 0 && typeof stressBefore === 'number' && stressNow !== null && stressNow >= stressBefore && stressBefore > 0;
  // Every task is queued now, so whoever waits for the combat (whenIdle) waits for all of them.
  const tasks: Promise<void>[] = [];
  for (const combat of (game.combats?.contents ?? []) as TenSegmentsCombat[]) {
    const state = combat.flowState;
    if (!state) continue;
    for (const combatant of combat.combatants.contents) {
      if (!isActorOf(combatant, actor)) continue;
      if (!state.encounter.combatants.some((c) => c.id === combatant.id)) continue;
      tasks.push(
        combat.exclusive(async () => {
          const by = typeof options[ATTACKER_OPTION] === 'string' ? (options[ATTACKER_OPTION] as string) : undefined;
          const hit = { target: combatant.id as string, amount: drop, ...(by ? { by } : {}), ...(critical ? { critical: true } : {}) };
          const res = await combat.recordHit(hit);
          if ('problem' in res) return notifyProblem(res.problem);
          const now = combat.flowState as FlowState;
          for (const i of res.detail.interruptions ?? []) await postInterruptionCard(combat, now, i);
        }),
      );
    }
  }
  await Promise.all(tasks);
}

/** The GM presses "undo" on an interruption card. */
export async function undoFromCard(combatId: string, castingId: string): Promise<void> {
  const denied = authorize('undoInterruption', game.user);
  if (denied) return notifyProblem(denied);
  const combat = game.combats?.get(combatId) as TenSegmentsCombat | undefined;
  if (!combat) return notifyProblem({ key: 'UnknownCombat' });
  await combat.exclusive(async () => {
    const problem = await combat.undoInterruption(castingId);
    if (problem) notifyProblem(problem);
  });
}

export function registerDamageHooks(): void {
  Hooks.on('preUpdateActor', (actor, _changes, options) => {
    const opts = options as Record<string, unknown>;
    opts[BEFORE_OPTION] = healthOf(actor as Actor.Implementation);
    const stress = stressOf(actor as Actor.Implementation);
    if (stress !== null) opts[STRESS_BEFORE_OPTION] = stress;
  });
  Hooks.on('updateActor', (actor, _changes, options) => {
    void onActorUpdated(actor as Actor.Implementation, options as Record<string, unknown>);
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
