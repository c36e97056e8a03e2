/**
 * Requests a user's client sends to the active GM: declarations (and their
 * withdrawal) and the combat controls another GM's client asks for, with the
 * shapes of their bodies. The active GM's handlers are in
 * handlers/queries.ts, a chunk of their own loaded when the first request
 * arrives (requests.ts); requests.ts is the plumbing.
 */
import type { MoraleMethod } from '../rules/procedure';
import type { TenSegmentsCombat } from './combat';
import type { DeclarationRequest } from './declarations';
import { askGM, type QueryAnswer } from './requests';
import type { RequestedCombatAction } from './request-schema';

export { serialize, whenIdle, type QueryAnswer } from './requests';

export interface DeclareRequest {
  combatId: string;
  combatantId: string;
  declaration: DeclarationRequest;
}

/** The GM declares one action for several combatants (issue 29): their ids, comma-separated; `nearest`: each at its nearest standing foe. */
export interface DeclareGroupRequest {
  combatId: string;
  members: string;
  declaration: DeclarationRequest;
  nearest?: boolean;
}

export interface WithdrawRequest {
  combatId: string;
  combatantId: string;
}

export type StepAction = RequestedCombatAction;

export interface CombatActionRequest {
  combatId: string;
  action: StepAction;
  /** undoInterruption: the casting to restore. */
  castingId?: string;
  /** undoInterruption pressed on a chat card: the card's message id (a player's card, or one the log does not bear out, is refused). */
  card?: string;
  /** moveToSide: who moves, and to which side (CombatantGroup). */
  combatantId?: string;
  groupId?: string;
  /** morale: what calls for the check (combatantId: who checks), and the opposed score. */
  trigger?: string;
  opposed?: number;
  /** morale, where the procedure lets the GM choose how (d12-ascending): the method, the score, the GM's own result. */
  method?: MoraleMethod;
  score?: number;
  passed?: boolean;
  /** morale: should the check fail, the combatant surrenders (d12-ascending, seed 002). */
  surrender?: boolean;
  /** rollInitiative: dice rolled at the table by hand, by side id (or combatant id where the procedure rolls per combatant). */
  dice?: Record<string, number>;
  /** startCombat: the surprise card whispered to the GMs instead of shown to everyone (seed 004's footnote: public by default). */
  surpriseGMOnly?: boolean;
  /** startCombat: each side's surprise as the GM set it (surprise dialog), by group id; written as the combat starts. */
  surpriseSides?: Record<string, SideSurprise>;
}

/** A side's surprise as the GM sets it before the combat starts (surprise dialog). */
export interface SideSurprise {
  stance: 'roll' | 'alerted' | 'surprised';
  /** The situation's modifier, in pips of the surprise die (counts only where the side rolls). */
  modifier: number;
}

/* ------------------------------------------------------- client side */

/** A user's side: declare for a combatant, through the active GM (who handles its own at once). */
export async function requestDeclaration(combat: TenSegmentsCombat, combatantId: string, declaration: DeclarationRequest): Promise<QueryAnswer> {
  const body: DeclareRequest = { combatId: combat.id as string, combatantId, declaration };
  return askGM('declare', body, { key: 'NoActiveGM' });
}

/** A GM's side: one declaration for several combatants, each checked as if declared alone; the answer names those refused. */
export async function requestGroupDeclaration(combat: TenSegmentsCombat, members: readonly string[], declaration: DeclarationRequest, nearest = false): Promise<QueryAnswer> {
  const body: DeclareGroupRequest = { combatId: combat.id as string, members: members.join(','), declaration };
  if (nearest) body.nearest = true;
  return askGM('declareGroup', body, { key: 'NoActiveGM' });
}

/** A user's side: withdraw a declaration. */
export async function requestWithdrawal(combat: TenSegmentsCombat, combatantId: string): Promise<QueryAnswer> {
  const body: WithdrawRequest = { combatId: combat.id as string, combatantId };
  return askGM('withdraw', body, { key: 'NoActiveGMRequest' });
}

/** A GM's side: a combat control, carried out by the active GM. */
export async function requestCombatAction(combat: TenSegmentsCombat, action: StepAction, extra: Omit<CombatActionRequest, 'combatId' | 'action'> = {}): Promise<QueryAnswer> {
  const body: CombatActionRequest = { combatId: combat.id as string, action, ...extra };
  return askGM('combat', body, { key: 'NoActiveGMRequest' });
}
