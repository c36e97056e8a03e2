/**
 * Tokens moved during a round (issue 13, Deliver 2 and 3; issue 26, item 5),
 * what start-up carries of it: the `moveToken` and `updateToken` hooks and
 * where each token was last seen (the attack-of-opportunity card's render
 * hook is the chat cards' one, damage.ts). The judging (token-moved.ts) is
 * the GM's side of requests (handlers/index.ts), loaded by the active GM at
 * the first move it sees while a combat exists if it is not loaded yet; the
 * card's button (opportunity-card.ts) is a chunk loaded when such a card is
 * first drawn.
 *
 * Core fires `moveToken` on every client after a token's move is written;
 * only the active GM's client acts on it, so a player's move is judged and
 * recorded by the GM's client, never by the player's own. A move the system
 * makes itself carries the update option `tenSegments` (`{charge: true}`: a
 * charger's share of its path; `{undo: true}`: a move taken back at the GM's
 * word) and is not judged again when this client made it
 * (src/types/token-movement.d.ts).
 *
 * A token's x, y or elevation written without a movement (a plain database
 * update carrying no `_movement` for it: a modified client's; the owner of
 * the token's actor may write any field, and core's server accepts it) fires
 * no `moveToken` anywhere, only `updateToken` (on every client, with the
 * change and the options as sent). The active GM judges that change too, as
 * a straight move from where the token was to where it is.
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

/** A token's position as this client last saw it: its top-left corner in pixels and its elevation in scene units. */
export type SeenPosition = readonly [x: number, y: number, elevation: number];

/**
 * Where each token stood when this client last saw it. Core's hooks on a
 * receiving client give only the new values (`updateToken`'s change; the
 * document already holds them), and core keeps no earlier position a system
 * can trust: v12's `_priorPosition` option is gone since v13 (and was set by
 * the sending client, as every option is); `TokenDocument#movement` and the
 * movement history are written only by movements, and the history is a field
 * the token's owner may write. So every client keeps its own record, from
 * what its own copies showed: filled at ready (every scene's tokens), on a
 * token's or a scene's creation, and on every update of a token (the position
 * before it read first, for the judging). Every client, not only the active
 * GM's: another GM who takes over as active GM judges the next write from its
 * own record. Keyed by the token document (a WeakMap): a deleted token's
 * entry goes with it, and a document this client rebuilt without a hook has
 * none, so its next write is not judged (its position is recorded then).
 */
const seen = () => clientState('seenPositions', () => new WeakMap<object, SeenPosition>());

function see(tokens: Iterable<TokenDocument.Implementation>): void {
  const positions = seen();
  for (const t of tokens) positions.set(t, [t.x, t.y, t.elevation]);
}

/** Does this client judge moves now (the active GM's, while a combat exists)? The judging is the GM's side (handlers/index.ts), loaded on first use. */
const judging = () => isActiveGM() && !!game.combats?.size;

export function registerTokenMovement(): void {
  Hooks.on('moveToken', (document, movement, operation, user) => {
    if (judging()) void track(loadGMSide().then((gm) => gm.onTokenMoved(document, movement, operation, user)));
  });
  Hooks.once('ready', () => {
    for (const scene of game.scenes ?? []) see(scene.tokens as Iterable<TokenDocument.Implementation>);
  });
  Hooks.on('createToken', (token) => see([token as TokenDocument.Implementation]));
  Hooks.on('createScene', (scene) => see(scene.tokens as Iterable<TokenDocument.Implementation>));
  Hooks.on('updateToken', (token, _changed, options, userId) => {
    const document = token as TokenDocument.Implementation;
    const before = seen().get(document);
    see([document]);
    const now = seen().get(document)!;
    // The options are the sender's: read only whether it carried a movement of this token (judged by moveToken, which core fires after this hook) and the system's tag.
    const sent = options as { _movement?: Record<string, unknown>; tenSegments?: TenSegmentsMovement.Tag };
    if (!before || String(before) === String(now) || !judging() || sent._movement?.[document.id as string]) return;
    void track(loadGMSide().then((gm) => gm.onTokenWritten(document, before, now, sent.tenSegments, userId)));
  });
}
