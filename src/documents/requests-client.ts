/**
 * The client side of requests (requests.ts): a request sent to the active GM
 * waits for its answer, is sent once more with the same id when none comes in
 * time, goes to the new active GM when the GM changes, and is refused in words
 * when no GM is left. A chunk loaded at this client's first request to
 * another client (requests.ts `askGM`); answers and GM changes only concern
 * open requests, so nothing of it is needed before.
 */
import { CHANNEL, REQUEST_TIMEOUT, refusal, run, type Refusal } from './requests';
import { isActiveGM } from './permissions';
import { clientState } from './client-state';
import type { RequestKind } from './request-schema';

interface Open {
  kind: RequestKind;
  body: object;
  resolve: (answer: unknown) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  tries: number;
  /** The client that asked (a timer may fire outside its code): its open requests, socket and users. */
  client: { open: Map<string, Open>; socket: unknown; users: typeof game.users };
}

const openOf = () => clientState('open', () => new Map<string, Open>());

function send(id: string, o: Open): void {
  o.tries++;
  if (o.timer !== undefined) clearTimeout(o.timer);
  o.timer = setTimeout(() => expire(id, o), REQUEST_TIMEOUT);
  (o.client.socket as { emit(event: string, data: unknown): void } | null)?.emit(CHANNEL, { k: 'req', id, kind: o.kind, body: o.body });
}

function settle(id: string, value: unknown, open: Map<string, Open> = openOf()): void {
  const o = open.get(id);
  if (!o) return;
  open.delete(id);
  if (o.timer !== undefined) clearTimeout(o.timer);
  o.resolve(value);
}

/** No answer in time: once more with the same id (the GM answers a retry without doing it twice), then give up. */
function expire(id: string, o: Open): void {
  if (o.client.open.get(id) !== o) return;
  if (o.tries < 2 && o.client.users?.activeGM) return send(id, o);
  settle(id, refusal({ key: 'RequestTimedOut' }), o.client.open);
}

/** An answer for this client, from a GM. */
export function receive(message: Record<string, unknown>, senderId: string): void {
  if (message.to !== game.user?.id || typeof message.id !== 'string') return;
  if (!game.users?.get(senderId)?.isGM) return;
  settle(message.id, message.answer);
}

/** The active GM changed (a GM connected or left): open requests go to the new one, or are refused in words when none is left. */
export function onGMChange(): void {
  const open = openOf();
  if (open.size === 0) return;
  if (isActiveGM()) {
    // This client became the writer: it answers its own open requests itself.
    for (const [id, o] of [...open]) void run(o.kind, o.body, game.user as User.Implementation, `${game.user?.id}:${id}`).then((a) => settle(id, a));
    return;
  }
  if (!game.users?.activeGM) {
    for (const id of [...open.keys()]) settle(id, refusal({ key: 'GMLeft' }));
    return;
  }
  for (const [id, o] of open) {
    o.tries = 0;
    send(id, o);
  }
}

/** Send a request (kind, body, its id) to the active GM, who is another client; resolves with the answer. */
export function ask<A extends { ok: boolean }>(kind: RequestKind, body: object, id: string): Promise<A | Refusal> {
  return new Promise<A | Refusal>((resolve) => {
    const client = { open: openOf(), socket: game.socket, users: game.users };
    const o: Open = { kind, body, resolve: resolve as (a: unknown) => void, timer: undefined, tries: 0, client };
    client.open.set(id, o);
    send(id, o);
  });
}
