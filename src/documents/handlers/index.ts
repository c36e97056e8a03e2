/**
 * The active GM's side of requests, a chunk of its own: the schema every
 * request is checked against (../request-schema.ts) and the handler of each
 * kind. Only the active GM's client runs them, and only when a request
 * arrives, so no client loads them at start-up: requests.ts loads this module
 * when the first request reaches the active GM (and combat.ts when a combat
 * starts or a combatant joins one: the engine's view of the documents and
 * the declarations stored on combatants).
 */
import type { RequestKind } from '../request-schema';
import type { RequestHandler } from '../requests';
import { handleCombatAction, handleDeclare, handleDeclareGroup, handleWithdraw } from './queries';
import { handleAttack } from './attack';
import { handleMidRound } from './midround';
import { handleHealthCard } from './health';

export { envelopeProblem, requestProblem, declarationRequestProblem, isDeclarationRequest } from '../request-schema';
// What the active GM alone needs besides: the engine's view of the documents, a declaration from a request.
export { buildEncounter, engineCombatant } from '../engine-encounter';
export { declarationFromRequest } from '../declarations';
// What the active GM writes after a transition: actors in line with the flow, chat cards.
export { applySync, planSync } from '../sync';
export { stageSurprise } from './surprise';
export { postEndOfRoundCard, postInitiativeCard, postMoraleChecks, postInterruptionCard, postSpellOffCard, postSurpriseCard } from '../chat';
// The Combat's writing: transactions, the start, Previous, re-basing, joining and leaving (combat.ts calls these).
export * as writer from '../combat-writer';
export { compareHealth, holdHealth, repairStored, touchesCountedHealth } from './health';
// What a GM that stopped left half-written (no lost hit, issue 27): finished by the next active GM.
export { finishLeft } from '../blow-record';
// A token moved during a round (by a movement or a plain write of its position): measured, given to the engine, the GM asked, the attack-of-opportunity cards (token-moved.ts).
export { onTokenMoved, onTokenWritten, movementIdle } from '../token-moved';
// The request's envelope and body checked, its handler run, the answer kept for retries (requests.ts calls these).
export { runRequest, serveRequest } from './serve';

/** The handler of each kind of request. */
export const HANDLERS: { [K in RequestKind]: RequestHandler<K> } = {
  declare: handleDeclare,
  declareGroup: handleDeclareGroup,
  withdraw: handleWithdraw,
  attack: handleAttack,
  combat: handleCombatAction,
  midround: handleMidRound,
  health: handleHealthCard,
};
