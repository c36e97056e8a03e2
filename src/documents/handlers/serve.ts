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

/** A request this GM took: its answer (a promise while it is being worked on), and whether that has come. */
interface Kept {
  answer: Promise<unknown>;
  done: boolean;
}

/** (sender|id) → what this GM answered or is working on, in the order taken: the oldest answered is forgotten first, one still being worked on never. */
const answeredOf = () => clientState('answered', () => new Map<string, Kept>());

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

function remember(key: string, answer: Promise<unknown>): void {
  const answered = answeredOf();
  const kept: Kept = { answer, done: false };
  answered.set(key, kept);
  const markDone = () => {
    kept.done = true;
    forget(answered);
  };
  void answer.then(markDone, markDone);
  forget(answered);
}

/** Beyond ANSWERS_KEPT, the oldest answers are forgotten; a request still being worked on is kept, so a retry of it waits for its answer instead of running again. */
function forget(answered: Map<string, Kept>): void {
  if (answered.size <= ANSWERS_KEPT) return;
  for (const [key, kept] of answered) {
    if (answered.size <= ANSWERS_KEPT) return;
    if (kept.done) answered.delete(key);
  }
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
  // A retry (same sender, same id) gets the first answer; one arriving while the first is still being worked on waits for it.
  let pending = answeredOf().get(key)?.answer;
  if (!pending) {
    pending = runRequest(message.kind as RequestKind, message.body, sender, `${senderId}:${id}`);
    remember(key, pending);
  }
  emit({ k: 'ans', to: senderId, id: id as string, answer: await pending });
}
