/**
 * Requests to the GM: how a player's client (or another GM's) asks the active
 * GM's client, the one writer of every combat, to do something, and how the
 * answer comes back. The handlers are in handlers/ (queries.ts, attack.ts,
 * midround.ts), a chunk of their own with the schema: only the active GM runs
 * them, so a client loads that chunk when the first request reaches it, not at
 * start-up.
 *
 * Who asks. Requests travel on the system's socket (`system.ten-segments`,
 * `socket: true` in the manifest). Foundry's server hands every listener the
 * id of the user whose client sent the message; that is the sender, and
 * nothing in the payload is (a v13 query handler is never told the sender,
 * so queries are not used for requests).
 *
 * Answers. A socket message reaches every other client: the answer names the
 * user it is for, carries only that request's id and the localized answer
 * (what any player may see), and every other client ignores it. A client
 * takes answers only from a GM.
 *
 * Retries. Every request has an id made by its client. The active GM keeps
 * the answer of each (sender, id) it handled and gives a retry that answer
 * without doing anything again; entries of the combat log and attack chat
 * cards carry the request's key too, so a GM taking over after a reload or a
 * handover answers a retry the same way; a retry of a request the GM is
 * still working on waits for that work's answer. A request is never given up
 * on for being slow (issue 27): a client with no answer after REQUEST_SLOW (requests-client.ts)
 * tells its user once that it is still waiting and sends the request again
 * with the same id, at doubling intervals up to REQUEST_RETRY_MAX, until the
 * answer comes; its open requests go to the new active GM when the GM
 * changes, and while no GM is connected they wait (the user told once) for
 * the next one. A request made while no GM is connected is refused at once
 * (nothing was sent, nothing is done).
 *
 * Bounds. Every request is checked against its schema (request-schema.ts)
 * before any work: too large, too deep, an unknown key or a wrong value is
 * refused without echoing the input.
 *
 * Order. Requests that arrive while the handlers' chunk is loading wait for
 * it on one promise and go on in the order they arrived; once it is loaded a
 * request reaches its handler (and the combat's queue, `serialize`) in the
 * same task it arrived in, as before.
 */
import type { Problem } from '../rules/model';
import { SYSTEM_ID } from '../settings';
import { localizeProblem } from './problems';
import { isActiveGM } from './permissions';
import { clientState } from './client-state';
import type { RequestKind } from './request-schema';
import type { CombatActionRequest, DeclareGroupRequest, DeclareRequest, WithdrawRequest } from './queries';
import type { AttackRequest } from './attack';
import type { MidRoundRequest } from './midround';
import type { HealthCardRequest } from './health-card';

/** The socket event of the system. */
export const CHANNEL = `system.${SYSTEM_ID}`;

/** Answers the active GM remembers, per (sender, request id), for retries. */
export const ANSWERS_KEPT = 500;

/** The active GM's answer: done (with a note in words where part of it was refused: a group declaration), or refused in words. */
export type QueryAnswer = { ok: true; message?: string } | { ok: false; key: string; message: string };
export type Refusal = { ok: false; key: string; message: string };

/** The body of each kind of request, once its schema (request-schema.ts) has passed it. */
export interface RequestBodies {
  declare: DeclareRequest;
  declareGroup: DeclareGroupRequest;
  withdraw: WithdrawRequest;
  attack: AttackRequest;
  combat: CombatActionRequest;
  midround: MidRoundRequest;
  health: HealthCardRequest;
}

/** A handler of one kind of request, on the active GM's client; `q` is the request's key ("sender:id") for what it writes. */
export type RequestHandler<K extends RequestKind> = (body: RequestBodies[K], sender: User.Implementation, q: string) => Promise<{ ok: boolean }>;

export interface RequestMessage {
  k: 'req';
  id: string;
  kind: RequestKind;
  body: object;
}

export interface AnswerMessage {
  k: 'ans';
  to: string;
  id: string;
  answer: unknown;
}

const queuesOf = () => clientState('queues', () => new Map<string, Promise<unknown>>());

/** Run `task` after every earlier task for the same key has finished. */
export function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
  const queues = queuesOf();
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(task, task);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/** Resolves once every queued task (for `key`, or for all keys) has finished. */
export async function whenIdle(key?: string): Promise<void> {
  const queues = queuesOf();
  for (;;) {
    // Requests waiting for the GM's side join their queues once it is loaded (before this goes on: the same promise, awaited later).
    const side = gmSideOf();
    if (side.loading && !side.loaded) await side.loading.catch(() => undefined);
    const pending = key === undefined ? [...queues.values()] : queues.has(key) ? [queues.get(key)!] : [];
    if (pending.length === 0) return;
    await Promise.all(pending);
  }
}

export function refusal(problem: Problem): Refusal {
  return { ok: false, key: problem.key, message: localizeProblem(problem) };
}

export function answer(problem: Problem | null): QueryAnswer {
  return problem ? refusal(problem) : { ok: true };
}

/* ------------------------------------------------------------ GM side */

/** The GM's side of requests (handlers/index.ts): the schema and the handlers, a chunk loaded on first use. */
export type GMSide = typeof import('./handlers');

/** This client's copy of the GM's side: loaded, or the one promise every request waiting for it awaits. */
const gmSideOf = () => clientState('gmSide', () => ({ loaded: null as GMSide | null, loading: null as Promise<GMSide> | null }));

/** The GM's side, loading it on first use (again after a failed load). Every caller gets the same promise, so waiters go on in order. */
export function loadGMSide(): Promise<GMSide> {
  const side = gmSideOf();
  if (!side.loading) {
    const loading = import('./handlers').then(
      (m) => (side.loaded = m),
      (err: unknown) => {
        if (side.loading === loading) side.loading = null;
        throw err;
      },
    );
    side.loading = loading;
  }
  return side.loading;
}

/** Whether this client has loaded the GM's side (tests: requests that arrive before it are the ones that wait for it). */
export function gmSideLoaded(): boolean {
  return gmSideOf().loaded !== null;
}

/** The GM's side if this client has it already (then a request goes on in the task it arrived in). */
export function loadedGMSide(): GMSide | null {
  return gmSideOf().loaded;
}

/** Check a request's body, then hand it to its handler (handlers/serve.ts, in the GM's chunk). */
export async function run<K extends RequestKind>(kind: K, body: unknown, sender: User.Implementation, q: string): Promise<unknown> {
  let gm = loadedGMSide();
  if (!gm) {
    try {
      gm = await loadGMSide();
    } catch (err) {
      return unloaded(err);
    }
  }
  return gm.runRequest(kind, body, sender, q);
}

/** The GM's side could not be loaded (the chunk did not arrive): the request fails in words, and the next one tries again. */
function unloaded(err: unknown): Refusal {
  console.error('Ten Segments | loading the request handlers', err);
  return refusal({ key: 'RequestFailed', data: { reason: err instanceof Error ? err.name : 'error' } });
}

/** A word from the active GM to one user about something the GM did to what that user did (issue 26): its problem key and data. */
export interface NoteMessage {
  k: 'note';
  to: string;
  key: NoteKey;
  data: Record<string, string>;
}

/** What a GM may tell a user this way: each a TENSEG.Error key, shown to that user as a warning. */
export const NOTE_KEYS = ['DuplicateCombatantYours', 'SidePutBackYours', 'HealthHeldYours'] as const;
export type NoteKey = (typeof NOTE_KEYS)[number];

export function emit(message: RequestMessage | AnswerMessage | NoteMessage): void {
  game.socket?.emit(CHANNEL, message);
}

/** The GM tells `userId` (on their own client, in their language) why something of theirs was changed. */
export function tell(userId: string, problem: { key: NoteKey; data: Record<string, string> }): void {
  emit({ k: 'note', to: userId, key: problem.key, data: problem.data });
}

/** A note for this user, taken only from a GM (the server's word for the sender), only of a known key, with plain text data. */
function receiveNote(message: Record<string, unknown>, senderId: string): void {
  if (message.to !== game.user?.id || !game.users?.get(senderId)?.isGM) return;
  const key = message.key;
  if (typeof key !== 'string' || !(NOTE_KEYS as readonly string[]).includes(key)) return;
  const data = message.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return;
  const fields = Object.entries(data as Record<string, unknown>);
  if (fields.length > 8 || fields.some(([, v]) => typeof v !== 'string' || v.length > 200)) return;
  ui.notifications?.warn(localizeProblem({ key, data: Object.fromEntries(fields) as Record<string, string> }));
}

/** The active GM's side of a request message from `senderId` (the server's word); the rest once the GM's side is loaded (handlers/serve.ts). */
async function serve(message: Record<string, unknown>, senderId: string): Promise<void> {
  if (!isActiveGM()) return;
  const sender = game.users?.get(senderId);
  if (!sender) return;
  const id = typeof message.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(message.id) ? message.id : null;
  let gm = loadedGMSide();
  if (!gm) {
    try {
      gm = await loadGMSide();
    } catch (err) {
      if (id) emit({ k: 'ans', to: senderId, id, answer: unloaded(err) });
      return;
    }
  }
  // From here to the handler, nothing waits: requests keep the order they arrived in.
  return gm.serveRequest(message, sender, senderId, id);
}

/* -------------------------------------------------------- client side */

/** The client side of requests (requests-client.ts: sending, retries, answers), a chunk loaded at a client's first request. */
type ClientSide = typeof import('./requests-client');
let clientSide: ClientSide | null = null;

/**
 * Send a request to the active GM and return the answer; the active GM
 * handles its own at once. No GM connected when asked is an answer too
 * (`noGM`), never an exception; once sent, the answer is the GM's, however
 * long it takes (requests-client.ts).
 */
export async function askGM<A extends { ok: boolean }>(kind: RequestKind, body: object, noGM: Problem): Promise<A | Refusal> {
  const user = game.user as User.Implementation | null;
  if (!user) return refusal({ key: 'UnknownUser' });
  const id = foundry.utils.randomID(16);
  if (isActiveGM()) return (await run(kind, body, user, `${user.id}:${id}`)) as A | Refusal;
  if (!game.users?.activeGM) return refusal(noGM);
  clientSide ??= await import('./requests-client');
  return clientSide.ask<A>(kind, body, id);
}

/** Listen on the system's socket (every client) and follow changes of the active GM. */
export function registerRequests(): void {
  game.socket?.on(CHANNEL, (data: unknown, senderId: unknown) => {
    if (typeof data !== 'object' || data === null || Array.isArray(data) || typeof senderId !== 'string') return;
    const message = data as Record<string, unknown>;
    if (message.k === 'req') void serve(message, senderId);
    // Answers and GM changes concern only open requests: none before the client side is loaded.
    else if (message.k === 'ans') clientSide?.receive(message, senderId);
    else if (message.k === 'note') receiveNote(message, senderId);
  });
  Hooks.on('userConnected', () => clientSide?.onGMChange());
}
