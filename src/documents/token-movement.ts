/**
 * Tokens moved during a round (issue 13, Deliver 2 and 3), what start-up
 * carries of it: the `moveToken` hook (the attack-of-opportunity card's
 * render hook is the chat cards' one, damage.ts). The judging (token-moved.ts) is the GM's side of requests
 * (handlers/index.ts), loaded by the active GM at the first move it sees
 * while a combat exists if it is not loaded yet; the card's button
 * (opportunity-card.ts) is a chunk loaded when such a card is first drawn.
 *
 * Core fires `moveToken` on every client after a token's move is written;
 * only the active GM's client acts on it, so a player's move is judged and
 * recorded by the GM's client, never by the player's own. A move the system
 * makes itself carries the update option `tenSegments` (`{charge: true}`: a
 * charger's share of its path; `{undo: true}`: a move taken back at the GM's
 * word) and is not judged again when this client made it
 * (src/types/token-movement.d.ts).
 */
import { clientState } from './client-state';
import { isActiveGM } from './permissions';
import { loadGMSide } from './requests';

/** The work the active GM has under way on moves (a move judged, a ruling carried out): tests and callers wait for it. */
export const pendingMoves = () => clientState('movement', () => new Set<Promise<unknown>>());

/** Keep `task` among the work under way until it settles. */
export function track<T>(task: Promise<T>): Promise<T> {
  const pending = pendingMoves();
  pending.add(task);
  const done = () => void pending.delete(task);
  task.then(done, done);
  return task;
}

export function registerTokenMovement(): void {
  Hooks.on('moveToken', (document, movement, operation, user) => {
    if (!isActiveGM() || (game.combats?.size ?? 0) === 0) return;
    // The judging is the GM's side (handlers/index.ts), loaded on first use.
    void track(loadGMSide().then((gm) => gm.onTokenMoved(document, movement, operation, user)));
  });
}
