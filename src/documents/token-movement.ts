/**
 * Tokens moved during a round (issue 13, Deliver 2 and 3), what start-up
 * carries of it: the `moveToken` hook and the Attack button of the
 * attack-of-opportunity card. Everything else is the `token-moved` chunk,
 * loaded by the active GM at the first move it sees while a combat exists.
 *
 * Core fires `moveToken` on every client after a token's move is written;
 * only the active GM's client acts on it, so a player's move is judged and
 * recorded by the GM's client, never by the player's own. A move the system
 * makes itself carries the update option `tenSegments` (`{charge: true}`: a
 * charger's share of its path; `{undo: true}`: a move taken back at the GM's
 * word) and is not judged again when this client made it
 * (src/types/token-movement.d.ts).
 */
import { SYSTEM_ID } from '../settings';
import { clientState } from './client-state';
import { isActiveGM } from './permissions';
import { notifyProblem } from './problems';

/** The work the active GM has under way on moves (a move judged, a ruling carried out): tests and callers wait for it. */
const pendingOf = () => clientState('movement', () => new Set<Promise<unknown>>());

/** Keep `task` among the work under way until it settles. */
export function track<T>(task: Promise<T>): Promise<T> {
  const pending = pendingOf();
  pending.add(task);
  const done = () => void pending.delete(task);
  task.then(done, done);
  return task;
}

/** Resolves once every move this client is judging has been judged (a question put to the GM counts as judged once asked). */
export async function movementIdle(): Promise<void> {
  const pending = pendingOf();
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** The attack-of-opportunity card's button: the GM sends the ordinary attack request (the chunk it needs is loaded then). */
async function attackFromCard(flags: { combat?: string | null; attacker?: string | null; target?: string | null; weapon?: string; routine?: number }): Promise<void> {
  const combat = game.combats?.get(flags.combat ?? '');
  if (!combat) return notifyProblem({ key: 'UnknownCombat' });
  const { requestAttack } = await import('./attack');
  const answer = await requestAttack(combat, {
    attackerId: flags.attacker ?? '',
    targetId: flags.target ?? '',
    ...(flags.weapon ? { weaponId: flags.weapon } : { routine: flags.routine ?? 0, attack: 0 }),
  });
  if (!answer.ok) ui.notifications?.error(answer.message);
}

export function registerTokenMovement(): void {
  Hooks.on('moveToken', (document, movement, operation, user) => {
    if (!isActiveGM() || (game.combats?.size ?? 0) === 0) return;
    void track(import('./token-moved').then((m) => m.onTokenMoved(document, movement, operation, user)));
  });
  Hooks.on('renderChatMessageHTML', (message, html) => {
    const flags = (message as ChatMessage.Implementation).flags as Record<string, { kind?: string; combat?: string | null; attacker?: string | null; target?: string | null; weapon?: string; routine?: number }>;
    const data = flags?.[SYSTEM_ID];
    if (data?.kind !== 'opportunity') return;
    const button = (html as HTMLElement).querySelector<HTMLButtonElement>('[data-action="tenseg-opportunity-attack"]');
    if (!button) return;
    if (!game.user?.isGM) {
      button.remove();
      return;
    }
    button.addEventListener('click', () => void attackFromCard(data));
  });
}
