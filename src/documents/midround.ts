/**
 * Mid-round actions, the user's side (request kind `midround`): the request a
 * player or GM sends the active GM. What each becomes, who may ask, and the
 * GM's handling are handlers/midround.ts (its MID_ROUND table), in the chunk
 * of handlers loaded when the first request arrives (requests.ts).
 */
import type { DamageType } from '../rules/model';
import type { BreakCause } from '../rules/flow/state';
import type { TenSegmentsCombat } from './combat';
import { askGM, type QueryAnswer } from './requests';
import type { DeclarationRequest } from './declarations';
import type { MidRoundActionName } from './request-schema';

export interface MidRoundRequest {
  combatId: string;
  action: MidRoundActionName;
  combatantId?: string;
  castingId?: string;
  declaration?: DeclarationRequest;
  why?: BreakCause;
  /** choose: the spell item chosen, or none. */
  spell?: string;
  none?: boolean;
  /** retarget: the opponent an attacker whose target fell turns to, or hold. */
  targetId?: string;
  hold?: boolean;
  /** reaction: the side, the result in the GM's words, the roll, hidden from players. */
  groupId?: string;
  result?: string;
  roll?: number;
  secret?: boolean;
  /** distance: the encounter distance in feet. */
  feet?: number;
  /** heal: the Heal check's total. */
  total?: number;
  /** stop: the segment the GM stops at. */
  segment?: number;
  /** injury: its table (damage type), row, arm or hand, or the GM's words. */
  damageType?: DamageType;
  row?: number;
  side?: 'main' | 'off';
  text?: string;
}

/** A user's side: a mid-round action, through the active GM (who handles its own at once). */
export async function requestMidRound(combat: TenSegmentsCombat, action: MidRoundActionName, extra: Omit<MidRoundRequest, 'combatId' | 'action'> = {}): Promise<QueryAnswer> {
  const body: MidRoundRequest = { combatId: combat.id as string, action, ...extra };
  return askGM('midround', body, { key: 'NoActiveGMRequest' });
}
