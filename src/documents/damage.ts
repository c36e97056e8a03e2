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
import { serialize } from './queries';
import { SYNC_OPTION } from './sync';
import { notifyProblem } from './problems';
import { SYSTEM_ID } from '../settings';

export const BEFORE_OPTION = 'tensegHealthBefore';
export const ATTACKER_OPTION = 'tensegAttacker';

/** An actor's total health as combat counts it: hp, or Stress plus Wound Points where used. */
export function healthOf(actor: Actor.Implementation): number {
  const sys = actor.system as unknown as {
    hp?: { value?: number };
    individual?: { stress?: { value?: number; max?: number }; wounds?: { value?: number; max?: number } };
  };
  const ind = sys.individual;
  if (ind && ((ind.stress?.max ?? 0) > 0 || (ind.wounds?.max ?? 0) > 0)) return (ind.stress?.value ?? 0) + (ind.wounds?.value ?? 0);
  return sys.hp?.value ?? 0;
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
  for (const combat of (game.combats?.contents ?? []) as TenSegmentsCombat[]) {
    const state = combat.flowState;
    if (!state) continue;
    for (const combatant of combat.combatants.contents) {
      if (combatant.actor !== actor && combatant.actorId !== actor.id) continue;
      if (!state.encounter.combatants.some((c) => c.id === combatant.id)) continue;
      await serialize(combat.id as string, async () => {
        const by = typeof options[ATTACKER_OPTION] === 'string' ? (options[ATTACKER_OPTION] as string) : undefined;
        const res = await combat.recordHit({ target: combatant.id as string, amount: drop, ...(by ? { by } : {}) });
        if ('problem' in res) return notifyProblem(res.problem);
        const now = combat.flowState as FlowState;
        for (const i of res.result.interruptions) await postInterruptionCard(combat, now, i);
      });
    }
  }
}

/** The GM presses "undo" on an interruption card. */
export async function undoFromCard(combatId: string, castingId: string): Promise<void> {
  if (!game.user?.isGM) return notifyProblem({ key: 'OnlyGM' });
  const combat = game.combats?.get(combatId) as TenSegmentsCombat | undefined;
  if (!combat) return notifyProblem({ key: 'UnknownCombat' });
  await serialize(combatId, async () => {
    const problem = await combat.undoInterruption(castingId);
    if (problem) notifyProblem(problem);
  });
}

export function registerDamageHooks(): void {
  Hooks.on('preUpdateActor', (actor, _changes, options) => {
    (options as Record<string, unknown>)[BEFORE_OPTION] = healthOf(actor as Actor.Implementation);
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
