/**
 * The client side of requests (requests.ts): a request sent to the active GM
 * waits for its one answer. It is never given up on for being slow: when no
 * answer has come after REQUEST_SLOW the player is told once that it is still
 * waiting, and the request is sent again with the same id (the GM answers a
 * retry with the answer of the first, and a retry of one still being worked
 * on waits for it), then again at doubling intervals up to REQUEST_RETRY_MAX.
 * When the active GM changes, open requests go to the new one; while no GM
 * is connected they wait (the player told once) and go to the first GM who
 * connects. An answer is taken from any GM for that request's id: a GM's
 * client answers only a request it ran as the active GM, so whichever GM
 * answers first says what was done, and the next GM gives a retry the same
 * answer (handlers/serve.ts, the log's request keys).
 *
 * A chunk loaded at this client's first request to another client
 * (requests.ts `askGM`); answers and GM changes only concern open requests,
 * so nothing of it is needed before.
 */
import { CHANNEL, run, type Refusal } from './requests';
import { localizeProblem } from './problems';
import { isActiveGM } from './permissions';
import { clientState } from './client-state';
import type { RequestKind } from './request-schema';

/** The client that asked (a timer may fire outside its code): its open requests, socket, users and notifications. */
interface Asker {
  open: Map<string, Open>;
  socket: unknown;
  users: typeof game.users;
  notify: (message: string) => void;
  /** The words it shows, localized when it asked. */
  slow: string;
  noGM: string;
}

interface Open {
  kind: RequestKind;
  body: object;
  resolve: (answer: unknown) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** How long to wait for an answer before sending it again (doubling, up to REQUEST_RETRY_MAX). */
  wait: number;
  /** The GM it was last sent to (null: none connected, it waits for one). */
  sentTo: string | null;
  toldSlow: boolean;
  toldNoGM: boolean;
  client: Asker;
}

/** How long a client waits for an answer before telling its user it is still waiting and sending the request again (same id). */
export const REQUEST_SLOW = 10_000;

/** The longest a client waits between two sends of a request with no answer (the wait doubles from REQUEST_SLOW). */
export const REQUEST_RETRY_MAX = 60_000;

const openOf = () => clientState('open', () => new Map<string, Open>());

/** Send (again) to the active GM, with the same id; with none connected, wait for one (told once). */
function send(id: string, o: Open): void {
  if (o.timer !== undefined) clearTimeout(o.timer);
  o.timer = undefined;
  const gm = o.client.users?.activeGM;
  if (!gm) {
    o.sentTo = null;
    if (!o.toldNoGM) {
      o.toldNoGM = true;
      o.client.notify(o.client.noGM);
    }
    return;
  }
  o.sentTo = gm.id ?? null;
  o.timer = setTimeout(() => slow(id, o), o.wait);
  (o.client.socket as { emit(event: string, data: unknown): void } | null)?.emit(CHANNEL, { k: 'req', id, kind: o.kind, body: o.body });
}

function settle(id: string, value: unknown, open: Map<string, Open> = openOf()): void {
  const o = open.get(id);
  if (!o) return;
  open.delete(id);
  if (o.timer !== undefined) clearTimeout(o.timer);
  o.resolve(value);
}

/** No answer yet: the player is told once that it is still waiting, and it is sent again with the same id, a while later each time. */
function slow(id: string, o: Open): void {
  o.timer = undefined;
  if (o.client.open.get(id) !== o) return;
  if (!o.toldSlow) {
    o.toldSlow = true;
    o.client.notify(o.client.slow);
  }
  o.wait = Math.min(o.wait * 2, REQUEST_RETRY_MAX);
  send(id, o);
}

/** An answer for this client, from a GM (any GM: see above). */
export function receive(message: Record<string, unknown>, senderId: string): void {
  if (message.to !== game.user?.id || typeof message.id !== 'string') return;
  if (!game.users?.get(senderId)?.isGM) return;
  settle(message.id, message.answer);
}

/** A user connected or left: open requests go to the new active GM if it changed, or wait while none is connected. */
export function onGMChange(): void {
  const open = openOf();
  if (open.size === 0) return;
  if (isActiveGM()) {
    // This client became the writer: it answers its own open requests itself.
    const self = game.user?.id ?? null;
    for (const [id, o] of [...open]) {
      if (o.sentTo === self) continue; // already running here
      if (o.timer !== undefined) clearTimeout(o.timer);
      o.timer = undefined;
      o.sentTo = self;
      void run(o.kind, o.body, game.user as User.Implementation, `${game.user?.id}:${id}`).then((a) => settle(id, a));
    }
    return;
  }
  const gm = game.users?.activeGM?.id ?? null;
  for (const [id, o] of open) {
    if (o.sentTo === gm) continue;
    o.wait = REQUEST_SLOW;
    send(id, o);
  }
}

/** Send a request (kind, body, its id) to the active GM, who is another client; resolves with the answer. */
export function ask<A extends { ok: boolean }>(kind: RequestKind, body: object, id: string): Promise<A | Refusal> {
  return new Promise<A | Refusal>((resolve) => {
    const notifications = ui.notifications;
    const client: Asker = {
      open: openOf(),
      socket: game.socket,
      users: game.users,
      notify: (message) => notifications?.info(message),
      slow: localizeProblem({ key: 'RequestStillWaiting' }),
      noGM: localizeProblem({ key: 'RequestWaitingForGM' }),
    };
    const o: Open = { kind, body, resolve: resolve as (a: unknown) => void, timer: undefined, wait: REQUEST_SLOW, sentTo: null, toldSlow: false, toldNoGM: false, client };
    client.open.set(id, o);
    send(id, o);
  });
}
