/**
 * The bodies of the API on `game.tenSegments` (api.ts), a chunk loaded at
 * the first call. A small API for macros and modules: every call goes the
 * way the tracker's controls and the dialogs go (players' requests through
 * the active GM).
 *
 *   game.tenSegments.declare(combatantId, { action: 'melee', weapon: itemId, target: otherCombatantId })
 *   game.tenSegments.attack(attackerId, targetId, { weapon: itemId })
 *   game.tenSegments.next()  // GM: next step
 *   game.tenSegments.delay(combatantId)  // high-low: announce a delay now
 *   game.tenSegments.release(combatantId, { action: 'missile', weapon: itemId, target: otherCombatantId })
 *   game.tenSegments.cancelCasting(combatantId)  // elect not to complete its spell
 *   game.tenSegments.breakCasting(combatantId, { why: 'save' })  // GM: a casting broken without a hit
 *   game.tenSegments.chooseSpell(combatantId, spellItemId)  // d12-ascending: the spell chosen at its turn (null: none)
 *   game.tenSegments.reaction(groupId, 'Hostile'), .encounterDistance(60), .staunch(combatantId)  // GM, addict phases 1, 3, 11
 *   game.tenSegments.healCheck(combatantId, 14), .injury(combatantId, { damageType: 'blunt', row: 7 })  // GM, individual-speed
 */
import type { TenSegmentsCombat } from './documents/combat';
import { requestDeclaration, requestCombatAction, type QueryAnswer } from './documents/queries';
import { requestAttack } from './documents/attack';
import type { DeclarationRequest } from './documents/declarations';
import { notifyProblem } from './documents/problems';
import { requestMidRound } from './documents/midround';
import type { BreakCause } from './rules/flow/state';
import type { DamageType } from './rules/model';

function currentCombat(): TenSegmentsCombat | null {
  return (game.combat as TenSegmentsCombat | null | undefined) ?? null;
}

function noCombat(): QueryAnswer {
  notifyProblem({ key: 'UnknownCombat' });
  return { ok: false, key: 'UnknownCombat', message: game.i18n?.localize('TENSEG.Error.UnknownCombat') ?? 'UnknownCombat' };
}

/** Show a refusal to the user who asked, and pass the answer on. */
function shown<T extends { ok: boolean; message?: string }>(answer: T): T {
  if (!answer.ok && answer.message) ui.notifications?.error(answer.message);
  return answer;
}

/** Run a request on the current combat and show its refusal; without a combat, say so. */
async function onCombat(ask: (combat: TenSegmentsCombat) => Promise<QueryAnswer>): Promise<QueryAnswer> {
  const combat = currentCombat();
  return combat ? shown(await ask(combat)) : noCombat();
}

/** A mid-round action on the current combat (midround.ts). */
const midRound = (action: Parameters<typeof requestMidRound>[1], extra: Parameters<typeof requestMidRound>[2]): Promise<QueryAnswer> => onCombat((combat) => requestMidRound(combat, action, extra));

export const api = {
  /** Declare an action for a combatant you control (the GM: any). */
  async declare(combatantId: string, request: DeclarationRequest): Promise<QueryAnswer> {
    return onCombat((combat) => requestDeclaration(combat, combatantId, request));
  },
  /** Attack with a combatant you control: a weapon item, or a monster's routine and attack by index. */
  async attack(attackerId: string, targetId: string, how: { weapon?: string; routine?: number; attack?: number } = {}) {
    const request: Parameters<typeof requestAttack>[1] = { attackerId, targetId };
    if (how.weapon !== undefined) request.weaponId = how.weapon;
    if (how.routine !== undefined) request.routine = how.routine;
    if (how.attack !== undefined) request.attack = how.attack;
    return onCombat((combat) => requestAttack(combat, request));
  },
  /** GM: move the combat to the next step (or round, or back). */
  async next(): Promise<QueryAnswer> {
    return onCombat((combat) => requestCombatAction(combat, 'nextTurn'));
  },
  async previous(): Promise<QueryAnswer> {
    return onCombat((combat) => requestCombatAction(combat, 'previousTurn'));
  },
  /** Announce a delay now for a combatant you control (high-low: "Anytime during group actions"). */
  async delay(combatantId: string): Promise<QueryAnswer> {
    return midRound('delay', { combatantId });
  },
  /** Release a combatant's held (segment-d6) or prepared (addict) action now, as an attack, a missile or the start of a spell. */
  async release(combatantId: string, declaration: DeclarationRequest): Promise<QueryAnswer> {
    return midRound('release', { combatantId, declaration });
  },
  /** Elect not to complete a casting: every casting of the combatant under way, or one (`casting`, its id). */
  async cancelCasting(combatantId: string, how: { casting?: string } = {}): Promise<QueryAnswer> {
    return midRound('cancel', { combatantId, ...(how.casting !== undefined ? { castingId: how.casting } : {}) });
  },
  /** GM: break a casting no hit broke (a failed save, movement or action impeded, jostling). */
  async breakCasting(combatantId: string, how: { casting?: string; why?: BreakCause } = {}): Promise<QueryAnswer> {
    return midRound('break', { combatantId, ...(how.casting !== undefined ? { castingId: how.casting } : {}), ...(how.why !== undefined ? { why: how.why } : {}) });
  },
  /** d12-ascending II.C: at its turn, the caster chooses the spell (an item of its actor), or none. */
  async chooseSpell(combatantId: string, spell: string | null): Promise<QueryAnswer> {
    return midRound('choose', spell === null ? { combatantId, none: true } : { combatantId, spell });
  },
  /** GM, addict phase 1: a side's (CombatantGroup's) reaction, in the GM's words; `secret`: players do not see it. */
  async reaction(groupId: string, result: string, how: { roll?: number; secret?: boolean } = {}): Promise<QueryAnswer> {
    return midRound('reaction', { groupId, result, ...how });
  },
  /** GM, addict phase 3: the encounter distance in feet. */
  async encounterDistance(feet: number): Promise<QueryAnswer> {
    return midRound('distance', { feet });
  },
  /** GM, individual-speed: the total of a Heal check made to stabilize a Dying or Incapacitated combatant. */
  async healCheck(combatantId: string, total: number): Promise<QueryAnswer> {
    return midRound('heal', { combatantId, total });
  },
  /** GM, individual-speed: a Combat Injury — a row of the damage type's table, or words of your own where the text's table is empty. */
  async injury(combatantId: string, injury: { damageType?: DamageType; row?: number; side?: 'main' | 'off'; text?: string }): Promise<QueryAnswer> {
    return midRound('injury', { combatantId, ...injury });
  },
  /** GM, addict phase 11: staunch a combatant's bleeding. */
  async staunch(combatantId: string): Promise<QueryAnswer> {
    return midRound('staunch', { combatantId });
  },
};
