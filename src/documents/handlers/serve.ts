/**
 * The active GM's side of a request (requests.ts): the envelope and the body
 * checked against their schema, the handler of its kind run, and the answer
 * remembered per (sender, id) so a retry gets it without the work being done
 * again. Part of the GM's chunk; requests.ts calls it once that is loaded,
 * in the task the request arrived in, so requests keep their order.
 */
import type { RequestKind } from '../request-schema';
import { envelopeProblem, requestProblem } from '../request-schema';
import { ANSWERS_KEPT, emit, refusal, type RequestBodies, type RequestHandler } from '../requests';
import { clientState } from '../client-state';
import { HANDLERS } from './index';

/** (sender|id) → the answer, in the order handled: the oldest is forgotten first. */
const answeredOf = () => clientState('answered', () => new Map<string, Promise<unknown>>());

/** A body the schema of its kind passed (`problem` null) is that kind's body: the schema is the check, this the type it gives. */
function passedSchema<K extends RequestKind>(_kind: K, _body: unknown, problem: null): _body is RequestBodies[K] {
  return problem === null;
}

/** Check a request's body, then hand it to its handler. */
export async function runRequest<K extends RequestKind>(kind: K, body: unknown, sender: User.Implementation, q: string): Promise<unknown> {
  const problem = requestProblem(kind, body);
  if (problem) return refusal(problem);
  const handler = HANDLERS[kind] as RequestHandler<K> | undefined;
  if (!handler || !passedSchema(kind, body, problem)) return refusal({ key: 'MalformedRequest' });
  try {
    return await handler(body, sender, q);
  } catch (err) {
    console.error('Ten Segments | request', kind, err);
    return refusal({ key: 'RequestFailed', data: { reason: err instanceof Error ? err.name : 'error' } });
  }
}

function remember(key: string, pending: Promise<unknown>): void {
  const answered = answeredOf();
  answered.set(key, pending);
  while (answered.size > ANSWERS_KEPT) answered.delete(answered.keys().next().value as string);
}

/** A request message from `senderId` (the server's word), on the active GM's client: checked, run once, answered. */
export async function serveRequest(message: Record<string, unknown>, sender: User.Implementation, senderId: string, id: string | null): Promise<void> {
  const problem = envelopeProblem(message);
  if (problem) {
    // Without a readable id, nobody could match the answer: the request is dropped.
    if (id) emit({ k: 'ans', to: senderId, id, answer: refusal(problem) });
    return;
  }
  const key = `${senderId}|${id}`;
  let pending = answeredOf().get(key);
  if (!pending) {
    pending = runRequest(message.kind as RequestKind, message.body, sender, `${senderId}:${id}`);
    remember(key, pending);
  }
  emit({ k: 'ans', to: senderId, id: id as string, answer: await pending });
}
