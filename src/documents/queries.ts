/**
 * The GM's handlers of players' requests: declarations, and the GM-only
 * combat controls a client may ask for. Players cannot update a Combat they
 * do not control, so their requests go to the active GM as v13 queries
 * (requests.ts sends them and says who asks). A handler checks the
 * request's shape, who asks (`authorize`, permissions.ts) and what the
 * engine says, then writes; a refusal comes back with a localized reason
 * and nothing changes. Requests for one combat are handled one after
 * another, in the same queue as the combat's own transitions, so two players
 * declaring at once both keep theirs and a declaration racing the GM's Next
 * is either applied or refused, never lost.
 */
import type { Declaration, Problem } from '../rules/model';
import { loadProcedure } from '../rules/registry';
import { resolveOptions } from '../rules/procedure';
import { RulesError } from '../rules/model';
import { SYSTEM_ID } from '../settings';
import { authorize, type CombatAction } from './permissions';
import type { TenSegmentsCombat } from './combat';
import { declarationFromRequest, type DeclarationRequest } from './declarations';
import { engineCombatant, groupIdOf } from './encounter';
import { handleAttack, QUERY_ATTACK } from './attack';
import { answer, askGM, senderOf, serialize, type QueryAnswer, type QueryContext } from './requests';

export { serialize, whenIdle, type QueryAnswer, type QueryContext } from './requests';

export const QUERY_DECLARE = `${SYSTEM_ID}.declare`;
export const QUERY_COMBAT = `${SYSTEM_ID}.combat`;

export interface DeclareQuery {
  combatId: string;
  combatantId: string;
  declaration: DeclarationRequest;
  userId: string;
}

/** The GM-only operations a client may ask for: step changes, initiative, undoing an interruption. */
export const STEP_ACTIONS = ['nextTurn', 'previousTurn', 'nextRound', 'previousRound', 'rollInitiative', 'undoInterruption'] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];

export interface CombatActionQuery {
  combatId: string;
  action: StepAction;
  /** undoInterruption: the casting to restore. */
  castingId?: string;
  userId: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 64;

function isDeclareQuery(data: unknown): data is DeclareQuery {
  if (!isRecord(data)) return false;
  return isId(data.combatId) && isId(data.combatantId) && typeof data.userId === 'string' && isRecord(data.declaration);
}

/* ------------------------------------------------------------ declare */

/** Before the combat starts: the world's procedure decides whether the declaration would be legal. */
async function checkBeforeStart(combatant: Combatant.Implementation, declaration: Declaration): Promise<Problem | null> {
  const id = game.settings!.get(SYSTEM_ID, 'procedure');
  let procedure;
  try {
    procedure = await loadProcedure(id);
  } catch (err) {
    if (err instanceof RulesError) return err.problem;
    throw err;
  }
  const all = (game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {}) as Record<string, Record<string, unknown>>;
  const { options } = resolveOptions(procedure, (all[procedure.id] ?? {}) as never);
  const built = engineCombatant(combatant, groupIdOf(combatant) ?? '');
  if ('problem' in built) return built.problem;
  return procedure.validateDeclaration({ ...declaration, combatant: built.combatant.id }, built.combatant, options);
}

/** The GM's side: validate and record one declaration. */
export async function handleDeclare(data: unknown, context?: QueryContext): Promise<QueryAnswer> {
  if (!game.user?.isGM) return answer({ key: 'OnlyGM' });
  if (!isDeclareQuery(data)) return answer({ key: 'MalformedRequest' });
  const who = senderOf(data.userId, context);
  if ('problem' in who) return answer(who.problem);
  return serialize(data.combatId, async () => {
    const combat = game.combats?.get(data.combatId) as TenSegmentsCombat | undefined;
    if (!combat) return answer({ key: 'UnknownCombat' });
    const combatant = combat.combatants.get(data.combatantId);
    if (!combatant) return answer({ key: 'UnknownCombatant', data: { id: data.combatantId } });
    const denied = authorize('declare', who.user, combatant);
    if (denied) return answer(denied);
    const built = declarationFromRequest(combatant, data.declaration);
    if ('problem' in built) return answer(built.problem);
    if (!combat.flowState) {
      const illegal = await checkBeforeStart(combatant, built.declaration);
      if (illegal) return answer(illegal);
      // The GM's plan for a combatant no player owns is held until initiative.
      if (combat.holdsFor(combatant.id as string)) return answer(await combat.recordDeclaration(combatant.id as string, built.declaration));
      // Before the combat starts the declaration waits on the combatant. An
      // update would merge a new declaration into the earlier one (keeping
      // its other fields) and validate only what changed, so an earlier one
      // is cleared first: a changed mind costs two writes, before the start only.
      if ((combatant.system as unknown as { declaration?: unknown }).declaration) {
        await combatant.update({ 'system.declaration': null } as never);
      }
      await combatant.update({ 'system.declaration': built.declaration } as never);
      return answer(null);
    }
    return answer(await combat.recordDeclaration(combatant.id as string, built.declaration));
  });
}

/* ------------------------------------------------------ GM-only steps */

const ACTION_RIGHT: Record<StepAction, CombatAction> = {
  nextTurn: 'changeStep',
  previousTurn: 'changeStep',
  nextRound: 'changeStep',
  previousRound: 'changeStep',
  rollInitiative: 'rollInitiative',
  undoInterruption: 'undoInterruption',
};

function isCombatActionQuery(data: unknown): data is CombatActionQuery {
  if (!isRecord(data)) return false;
  if (!isId(data.combatId) || typeof data.userId !== 'string') return false;
  if (typeof data.action !== 'string' || !(STEP_ACTIONS as readonly string[]).includes(data.action)) return false;
  if (data.action === 'undoInterruption') return isId(data.castingId);
  return data.castingId === undefined;
}

/**
 * The step itself, on the GM's client. Step changes and initiative are the
 * combat's own methods (one implementation, one write per transition, queued
 * on the combat); the refusals they would only show in a notification are
 * checked first, so that they come back as the answer. Whatever the combat
 * still refuses (an engine problem) it shows on the GM's client, which is
 * the asker's: only a GM gets this far.
 */
async function runStep(combat: TenSegmentsCombat, req: CombatActionQuery): Promise<Problem | null> {
  const state = combat.flowState;
  if (!state) return { key: 'CombatNotStarted' };
  const undoable = combat.entries.length > 1;
  switch (req.action) {
    case 'nextTurn':
      await combat.nextTurn();
      return null;
    case 'previousTurn':
      if (!undoable) return { key: 'NothingToUndo' };
      await combat.previousTurn();
      return null;
    case 'nextRound':
      await combat.nextRound();
      return null;
    case 'previousRound':
      if (!undoable) return { key: 'NothingToUndo' };
      await combat.previousRound();
      return null;
    case 'rollInitiative':
      if (state.stage !== 'declare') return { key: 'NotDeclaring' };
      await combat.rollInitiative();
      return null;
    case 'undoInterruption':
      return combat.exclusive(() => combat.undoInterruption(req.castingId as string));
  }
}

/** The GM's side of a step change, initiative roll or undo: GM only, one at a time per combat. */
export async function handleCombatAction(data: unknown, context?: QueryContext): Promise<QueryAnswer> {
  if (!game.user?.isGM) return answer({ key: 'OnlyGM' });
  if (!isCombatActionQuery(data)) return answer({ key: 'MalformedRequest' });
  const who = senderOf(data.userId, context);
  if ('problem' in who) return answer(who.problem);
  const denied = authorize(ACTION_RIGHT[data.action], who.user);
  if (denied) return answer(denied);
  const combat = game.combats?.get(data.combatId) as TenSegmentsCombat | undefined;
  if (!combat) return answer({ key: 'UnknownCombat' });
  return answer(await runStep(combat, data));
}

/* ----------------------------------------------------------- register */

type Handler = (data: unknown, context?: QueryContext) => Promise<unknown>;

export function registerQueries(): void {
  const queries = CONFIG.queries as unknown as Record<string, Handler>;
  queries[QUERY_DECLARE] = handleDeclare;
  queries[QUERY_ATTACK] = handleAttack;
  queries[QUERY_COMBAT] = handleCombatAction;
}

/* ------------------------------------------------------- client side */

/** A user's side: declare for a combatant, directly when GM, else through the active GM. */
export async function requestDeclaration(combat: TenSegmentsCombat, combatantId: string, declaration: DeclarationRequest): Promise<QueryAnswer> {
  const payload: DeclareQuery = { combatId: combat.id as string, combatantId, declaration, userId: game.user?.id as string };
  return askGM(QUERY_DECLARE, payload, handleDeclare, { key: 'NoActiveGM' });
}

/** A user's side: change the step, roll initiative or undo an interruption, through the active GM. */
export async function requestCombatAction(combat: TenSegmentsCombat, action: StepAction, castingId?: string): Promise<QueryAnswer> {
  const payload: CombatActionQuery = { combatId: combat.id as string, action, userId: game.user?.id as string };
  if (castingId !== undefined) payload.castingId = castingId;
  return askGM(QUERY_COMBAT, payload, handleCombatAction, { key: 'NoActiveGMRequest' });
}
