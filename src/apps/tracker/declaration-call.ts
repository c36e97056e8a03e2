/**
 * "Call for declarations": the GM's tracker asks every player to declare.
 * The GM's client sends one message on the system socket
 * (`{ k: 'call', combat }`, the channel of requests.ts); each client that
 * hears it from a GM — the sender is the id Foundry's server gives the
 * listener, never a field of the message — opens the declaration dialog for
 * each of its user's combatants still to declare. A message from anyone but
 * a GM is ignored, and so is one for a combat this client does not know.
 *
 * Under `addict` the declarations are made in turn, with the running clock
 * (the declaration dialog's module, helper B). Until that module exports its
 * entry, the addict call also goes out as a broadcast: `addictCall` is the
 * hook point that will hand it over.
 */
import { CHANNEL } from '../../documents/requests';
import type { TenSegmentsCombat } from '../../documents/combat';
import { playerViewer } from '../../documents/viewer';

/** What opens the declaration dialog (tests replace `open` to see who opens what). */
export const declarationOpener = {
  async open(combat: Combat.Implementation, combatantId: string, options: { mode: 'declare' | 'release' }): Promise<void> {
    const { openDeclarationDialog } = await import('../declaration-dialog');
    await openDeclarationDialog(combat, combatantId, options);
  },
};

/**
 * Hook point for addict's turn-based declaring: the declaration dialog's
 * module (helper B) will export the entry that runs the turns and its
 * clock; set `addictCall.run` to it (or replace this body) when it lands.
 * Null: addict's call is broadcast as every other procedure's.
 */
export const addictCall: { run: ((combat: TenSegmentsCombat) => Promise<void>) | null } = { run: null };

/** The message of a call. */
interface CallMessage {
  k: 'call';
  combat: string;
}

/** The combatants this user owns that may still declare this round (from the timeline view, as the tracker shows them). */
export async function stillToDeclare(combat: TenSegmentsCombat): Promise<string[]> {
  const state = combat.flowState;
  if (!state || state.stage !== 'declare') return [];
  const { timeline } = await import('../../rules/timeline');
  const view = timeline(state, game.user?.isGM ? { gm: true } : playerViewer(combat, game.user as User.Implementation));
  return view.combatants.filter((c) => c.mayDeclare && !c.declared && !!combat.combatants.get(c.id)?.isOwner).map((c) => c.id);
}

/** Open the declaration dialog for each of this user's combatants still to declare. */
export async function declareMine(combat: TenSegmentsCombat): Promise<void> {
  for (const id of await stillToDeclare(combat)) await declarationOpener.open(combat, id, { mode: 'declare' });
}

/** The GM's button: every player's client opens its dialogs (addict: the turn-based flow, once it is there). */
export async function callForDeclarations(combat: TenSegmentsCombat): Promise<void> {
  if (!game.user?.isGM) return;
  if (combat.flowState?.procedure === 'addict' && addictCall.run) return addictCall.run(combat);
  const message: CallMessage = { k: 'call', combat: combat.id as string };
  game.socket?.emit(CHANNEL, message);
  ui.notifications?.info(game.i18n!.localize('TENSEG.Tracker.CalledDeclarations'));
}

/** A call heard on the socket: from a GM only, for a combat this client knows. */
export async function onCall(data: unknown, senderId: unknown): Promise<void> {
  if (typeof data !== 'object' || data === null || (data as { k?: unknown }).k !== 'call') return;
  if (typeof senderId !== 'string' || !game.users?.get(senderId)?.isGM) return;
  const id = (data as { combat?: unknown }).combat;
  if (typeof id !== 'string') return;
  const combat = game.combats?.get(id) as TenSegmentsCombat | undefined;
  if (!combat || game.user?.isGM) return;
  await declareMine(combat);
}

/** Listen for calls (every client, at init). */
export function registerDeclarationCalls(): void {
  game.socket?.on(CHANNEL, (data: unknown, senderId: unknown) => void onCall(data, senderId));
}
