/**
 * "Call for declarations": the GM's tracker asks every player to declare.
 * The GM's client sends one message on the system socket
 * (`{ k: 'call', combat }`, the channel of requests.ts: actions.ts
 * callForDeclarations); each client that hears it from a GM — the sender is
 * the id Foundry's server gives the listener, never a field of the message —
 * opens the declaration dialog for each of its user's combatants still to
 * declare. A message from anyone but a GM is ignored, and so is one for a
 * combat this client does not know. Only this listener is loaded at
 * start-up; what it opens is loaded when a call comes.
 *
 * Under `addict` the declarations are made in turn, with the running clock
 * (documents/declaring-in-turn.ts): the GM's tracker starts it and calls each
 * in turn; the called player's dialog opens from the combat's call state
 * (declaration-dialog.ts onDeclaringChanged), not from this broadcast.
 */
import { CHANNEL } from '../../documents/requests';
import type { TenSegmentsCombat } from '../../documents/combat';

/** A call heard on the socket: from a GM only, for a combat this client knows. */
export async function onCall(data: unknown, senderId: unknown): Promise<void> {
  if (typeof data !== 'object' || data === null || (data as { k?: unknown }).k !== 'call') return;
  if (typeof senderId !== 'string' || !game.users?.get(senderId)?.isGM) return;
  const id = (data as { combat?: unknown }).combat;
  if (typeof id !== 'string') return;
  const combat = game.combats?.get(id) as TenSegmentsCombat | undefined;
  if (!combat || game.user?.isGM) return;
  await (await import('./actions')).declareMine(combat);
}

/** Listen for calls (every client, at init). */
export function registerDeclarationCalls(): void {
  game.socket?.on(CHANNEL, (data: unknown, senderId: unknown) => void onCall(data, senderId));
}
