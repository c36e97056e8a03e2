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
import type { TenSegmentsCombat } from './combat';
import { isActiveGM } from './permissions';
import { SYSTEM_ID } from '../settings';
import { MIGRATION_OPTION, SYNC_OPTION } from './schema-version';
import { loadedGMSide, loadGMSide } from './requests';
import { track } from './token-movement';
import { interruptionCardProblem } from './card-flags';
import { beingRepaired } from './health-guard';

/** Is this combatant's actor the actor that changed? Unlinked tokens of one actor are different actors (compare by uuid). */
function isActorOf(combatant: Combatant.Implementation, actor: Actor.Implementation): boolean {
  const own = combatant.actor;
  return !!own && (own === actor || own.uuid === actor.uuid);
}

/**
 * The active GM's reaction to any update of an actor in a running combat,
 * whatever options came with it: each combatant of that actor is compared
 * after every transition already queued for its combat. A GM's change of
 * health is taken (a drop is a hit, a rise healing); a player's change of
 * what the fight counts is not: the GM writes the fight's value back and
 * asks the GMs (handlers/health.ts holdHealth, health-card.ts). Who made it
 * is the server's word (`userId`), never an option.
 */
export async function onActorUpdated(actor: Actor.Implementation, options: Record<string, unknown> = {}, userId?: string, changes: Record<string, unknown> = {}): Promise<void> {
  if (!isActiveGM()) return;
  // A stored value no model accepts is being repaired (health-guard.ts): that repair writes what the fight counts.
  if (beingRepaired(actor)) return;
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
      // Health is the GM's during a combat: a player's change of what the fight counts is held for a GM (handlers/health.ts holdHealth).
      const byPlayer = !game.users?.get(userId ?? '')?.isGM;
      // The comparison is the GM's side (handlers/health.ts), loaded on first use; the task is queued now all the same.
      tasks.push(
        combat.exclusive(async () => {
          const gm = loadedGMSide() ?? (await loadGMSide());
          const now = combat.flowState;
          if (now && byPlayer && gm.touchesCountedHealth(actor, now, changes)) return gm.holdHealth(combat, id, changes, userId ?? '');
          return gm.compareHealth(combat, id);
        }),
      );
    }
  }
  await Promise.all(tasks);
}

/** A GM presses "undo" on an interruption card: the active GM carries it out (undo-card.ts, a chunk loaded at the first press); `card`, the message pressed. */
export async function undoFromCard(combatId: string, castingId: string, card?: string): Promise<void> {
  return (await import('./undo-card')).undoFromCard(combatId, castingId, card);
}

/**
 * The system's chat cards with a button, as a client draws them: the button
 * only for a GM, and only on a card a GM wrote whose flags agree with the
 * combat's log (card-flags.ts); on anything else it is removed.
 */
export function drawCardControls(message: ChatMessage.Implementation, html: HTMLElement): void {
  const flags = (message.flags as Record<string, { kind?: string; combat?: string; casting?: string } | undefined>)?.[SYSTEM_ID];
  // The attack-of-opportunity card (whispered to the GMs, token-movement.ts): its button is wired by a chunk loaded when such a card is drawn.
  if (flags?.kind === 'opportunity') return void track(import('./opportunity-card').then((m) => m.wireOpportunityCard(message, html)));
  // A player's change of a combatant's health held for the GMs (health-card.ts): Accept / Put back, for a GM on a GM's card only.
  if (flags?.kind === 'health') return void track(import('./health-card').then((m) => m.wireHealthCard(message, html)));
  // A system button on a card of another kind (a player's message may carry any markup) is never wired: not drawn either.
  html.querySelector<HTMLButtonElement>('[data-action="tenseg-opportunity-attack"]')?.remove();
  for (const action of ['tenseg-health-accept', 'tenseg-health-putback']) html.querySelector<HTMLButtonElement>(`[data-action="${action}"]`)?.remove();
  const button = html.querySelector<HTMLButtonElement>('[data-action="tenseg-undo-interruption"]');
  if (!button) return;
  if (!game.user?.isGM || flags?.kind !== 'interruption' || interruptionCardProblem(message)) {
    button.remove();
    return;
  }
  button.addEventListener('click', () => void undoFromCard(flags.combat as string, flags.casting as string, message.id as string));
}

export function registerDamageHooks(): void {
  Hooks.on('updateActor', (actor, changes, options, userId) => {
    void onActorUpdated(actor as Actor.Implementation, options as Record<string, unknown>, userId as string, changes as Record<string, unknown>);
  });
  // The system's chat cards with a button: one render hook for them all.
  Hooks.on('renderChatMessageHTML', (message, html) => drawCardControls(message as ChatMessage.Implementation, html as HTMLElement));
}
