/**
 * Players cannot update a Combat they do not control, so their requests go to
 * the active GM as v13 queries. The GM's handler checks the request's shape,
 * who asks, and what the engine says, then writes; a refusal comes back with
 * a localized reason and nothing changes. Requests for one combat are handled
 * one after another, so two players declaring at once both keep theirs.
 */
import type { Problem } from '../rules/model';
import { SYSTEM_ID } from '../settings';
import { authorize } from './permissions';
import { localizeProblem } from './problems';
import type { TenSegmentsCombat } from './combat';
import { declarationFromRequest, type DeclarationRequest } from './declarations';

export const QUERY_DECLARE = `${SYSTEM_ID}.declare`;

export interface DeclareQuery {
  combatId: string;
  combatantId: string;
  declaration: DeclarationRequest;
  userId: string;
}

export type QueryAnswer = { ok: true } | { ok: false; key: string; message: string };

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

function answer(problem: Problem | null): QueryAnswer {
  return problem ? { ok: false, key: problem.key, message: localizeProblem(problem) } : { ok: true };
}

function isDeclareQuery(data: unknown): data is DeclareQuery {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    typeof d.combatId === 'string' &&
    typeof d.combatantId === 'string' &&
    typeof d.userId === 'string' &&
    typeof d.declaration === 'object' &&
    d.declaration !== null &&
    !Array.isArray(d.declaration)
  );
}

/** The GM's side: validate and record one declaration. */
export async function handleDeclare(data: unknown): Promise<QueryAnswer> {
  if (!game.user?.isGM) return answer({ key: 'OnlyGM' });
  if (!isDeclareQuery(data)) return answer({ key: 'MalformedRequest' });
  return serialize(data.combatId, async () => {
    const combat = game.combats?.get(data.combatId) as TenSegmentsCombat | undefined;
    if (!combat) return answer({ key: 'UnknownCombat' });
    const combatant = combat.combatants.get(data.combatantId);
    if (!combatant) return answer({ key: 'UnknownCombatant', data: { id: data.combatantId } });
    const user = game.users?.get(data.userId);
    const denied = authorize('declare', user, combatant);
    if (denied) return answer(denied);
    const built = declarationFromRequest(combatant, data.declaration);
    if ('problem' in built) return answer(built.problem);
    if (!combat.journal) {
      // Before the combat starts the declaration waits on the combatant.
      await combatant.update({ 'system.declaration': built.declaration } as never);
      return answer(null);
    }
    return answer(await combat.recordDeclaration(combatant.id as string, built.declaration));
  });
}

export function registerQueries(): void {
  (CONFIG.queries as unknown as Record<string, (data: unknown) => Promise<QueryAnswer>>)[QUERY_DECLARE] = handleDeclare;
}

/** A user's side: declare for a combatant, directly when GM, else through the active GM. */
export async function requestDeclaration(
  combat: TenSegmentsCombat,
  combatantId: string,
  declaration: DeclarationRequest,
): Promise<QueryAnswer> {
  const payload: DeclareQuery = { combatId: combat.id as string, combatantId, declaration, userId: game.user?.id as string };
  if (game.user?.isGM) return handleDeclare(payload);
  const gm = game.users?.activeGM;
  if (!gm) return answer({ key: 'NoActiveGM' });
  const send = gm.query as unknown as (name: string, data: unknown, options?: { timeout?: number }) => Promise<QueryAnswer>;
  return send.call(gm, QUERY_DECLARE, payload, { timeout: 10_000 });
}
