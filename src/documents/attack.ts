/**
 * Attacks, the user's side: the request a client sends the active GM and the
 * answer it gets. The GM's side (the checks, the roll, the damage, the chat
 * card) is handlers/attack.ts, in the chunk of handlers loaded when the first
 * request arrives (requests.ts).
 */
import { askGM } from './requests';
import { currentMessageMode } from './compat-writes';

export interface AttackRequest {
  combatId: string;
  attackerId: string;
  targetId: string;
  /** A weapon item of the attacker's actor… */
  weaponId?: string;
  /** …or a monster routine (index) and the attack in it (index). */
  routine?: number;
  attack?: number;
  /**
   * The message mode the requesting user has chosen (a mode of this
   * generation: request-schema.ts); the card is shown so. Absent (a macro or
   * an older client): public, as a message nobody chose a mode for.
   */
  mode?: string;
  /**
   * individual-speed: the damage type of the blow, where the weapon has
   * several ("the player whose character made the attack chooses"; the
   * Referee for a monster's routine). Absent: the weapon's first type.
   */
  damageType?: string;
}

export type AttackAnswer =
  | { ok: true; hit: boolean; natural: number; needed: number; damage: number; critical?: boolean }
  | { ok: false; key: string; message: string };

/** A user's side: attack with a combatant, through the active GM; the card is shown in this user's current message mode unless `mode` says otherwise. */
export async function requestAttack(combat: Combat.Implementation, request: Omit<AttackRequest, 'combatId'>): Promise<AttackAnswer> {
  const body: AttackRequest = { ...request, combatId: combat.id as string, mode: request.mode ?? currentMessageMode() };
  return askGM<AttackAnswer>('attack', body, { key: 'NoActiveGMRequest' });
}
