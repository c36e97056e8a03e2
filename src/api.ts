/**
 * A small API for macros and modules, on `game.tenSegments`, until the
 * declaration dialogs and the segment tracker arrive: every call goes the
 * same way the dialogs will (players' requests through the active GM).
 *
 *   game.tenSegments.declare(combatantId, { action: 'melee', weapon: itemId, target: otherCombatantId })
 *   game.tenSegments.attack(attackerId, targetId, { weapon: itemId })
 *   game.tenSegments.next()  // GM: next step
 */
import type { TenSegmentsCombat } from './documents/combat';
import { requestDeclaration, requestCombatAction, type QueryAnswer } from './documents/queries';
import { requestAttack } from './documents/attack';
import type { DeclarationRequest } from './documents/declarations';
import { notifyProblem } from './documents/problems';

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

export const api = {
  /** Declare an action for a combatant you control (the GM: any). */
  async declare(combatantId: string, request: DeclarationRequest): Promise<QueryAnswer> {
    const combat = currentCombat();
    return combat ? shown(await requestDeclaration(combat, combatantId, request)) : noCombat();
  },
  /** Attack with a combatant you control: a weapon item, or a monster's routine and attack by index. */
  async attack(attackerId: string, targetId: string, how: { weapon?: string; routine?: number; attack?: number } = {}) {
    const combat = currentCombat();
    if (!combat) return noCombat();
    const request: Parameters<typeof requestAttack>[1] = { attackerId, targetId };
    if (how.weapon !== undefined) request.weaponId = how.weapon;
    if (how.routine !== undefined) request.routine = how.routine;
    if (how.attack !== undefined) request.attack = how.attack;
    return shown(await requestAttack(combat, request));
  },
  /** GM: move the combat to the next step (or round, or back). */
  async next(): Promise<QueryAnswer> {
    const combat = currentCombat();
    return combat ? shown(await requestCombatAction(combat, 'nextTurn')) : noCombat();
  },
  async previous(): Promise<QueryAnswer> {
    const combat = currentCombat();
    return combat ? shown(await requestCombatAction(combat, 'previousTurn')) : noCombat();
  },
};

export function registerApi(): void {
  (game as unknown as { tenSegments: typeof api }).tenSegments = api;
}
