/**
 * The plumbing of requests to the GM, apart from what they ask: the queue
 * that runs one combat's requests and transitions one after another, sending
 * a request to the active GM and turning every failure into an answer, and
 * who a request comes from. The handlers are in queries.ts and attack.ts.
 *
 * Who asks. Foundry v13 calls a query handler as `handler(queryData,
 * {timeout})`: core knows the sender (from the socket) but does not pass it
 * on, so the sender's id travels in the payload and a client could forge it.
 * Foundry 14.352 and later pass the sender as `{timeout, user}`; when it is
 * there it is used and a payload naming someone else is refused. Without it
 * (v13) the payload's user is believed, except that it is never taken for a
 * GM: a GM's own requests are handled on the GM's client and never arrive as
 * queries, so a query claiming a GM is forged.
 */
import type { Problem } from '../rules/model';
import { localizeProblem } from './problems';

/** How long a player's client waits for the GM's answer. */
export const QUERY_TIMEOUT = 10_000;

export type QueryAnswer = { ok: true } | { ok: false; key: string; message: string };

/**
 * What Foundry hands a query handler besides the data: `{timeout}` in v13,
 * `{timeout, user}` (the sender) from 14.352. The GM's own client passes
 * `{user: game.user}` when it handles its own request.
 */
export interface QueryContext {
  timeout?: number;
  user?: unknown;
}

const queues = new Map<string, Promise<unknown>>();

/** Run `task` after every earlier task for the same key has finished. */
export function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
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
  for (;;) {
    const pending = key === undefined ? [...queues.values()] : queues.has(key) ? [queues.get(key)!] : [];
    if (pending.length === 0) return;
    await Promise.all(pending);
  }
}

export function refusal(problem: Problem): { ok: false; key: string; message: string } {
  return { ok: false, key: problem.key, message: localizeProblem(problem) };
}

export function answer(problem: Problem | null): QueryAnswer {
  return problem ? refusal(problem) : { ok: true };
}

/**
 * The user a request comes from: the sender Foundry vouches for when it
 * passes one (a payload naming another user is refused), else the user the
 * payload names, never a GM (see the header).
 */
export function senderOf(claimed: unknown, context: QueryContext | undefined): { user: User.Implementation } | { problem: Problem } {
  const given = context?.user;
  if (given !== undefined && given !== null) {
    const id = typeof given === 'string' ? given : (given as { id?: unknown }).id;
    if (typeof id !== 'string') return { problem: { key: 'UnknownUser' } };
    if (id !== claimed) return { problem: { key: 'SenderMismatch' } };
    const user = game.users?.get(id);
    return user ? { user } : { problem: { key: 'UnknownUser' } };
  }
  const user = typeof claimed === 'string' ? game.users?.get(claimed) : undefined;
  if (!user) return { problem: { key: 'UnknownUser' } };
  if (user.isGM) return { problem: { key: 'SenderUnverified' } };
  return { user };
}

/** The context the GM's client gives its own requests: the sender is itself. */
export function localContext(): QueryContext {
  return { user: game.user };
}

/**
 * Send `payload` to the active GM and return the answer; a GM handles it on
 * their own client. A missing GM or a query that fails (timeout, GM gone)
 * is an answer too, never an exception.
 */
export async function askGM<A>(name: string, payload: object, local: (data: unknown, context: QueryContext) => Promise<A>, noGM: Problem): Promise<A | { ok: false; key: string; message: string }> {
  if (game.user?.isGM) return local(payload, localContext());
  const gm = game.users?.activeGM;
  if (!gm) return refusal(noGM);
  const send = gm.query as unknown as (name: string, data: unknown, options?: { timeout?: number }) => Promise<A>;
  try {
    return await send.call(gm, name, payload, { timeout: QUERY_TIMEOUT });
  } catch (err) {
    return refusal({ key: 'RequestFailed', data: { reason: err instanceof Error ? err.message : String(err) } });
  }
}
