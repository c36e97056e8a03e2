/**
 * Who may do what in a combat, decided on the GM's side: the GM does
 * everything; a player acts only for combatants whose actor they own
 * (OWNER: an observer may watch, not act). Every operation a user can
 * trigger goes through `authorize` on the GM's client before anything is
 * written, whichever way it arrived (a query from a player, or the GM's own
 * client).
 */
import type { Problem } from '../rules/model';

/** `manage`: the GM's other combat controls (start, move a combatant to a side, ask for morale). */
export type CombatAction = 'declare' | 'changeStep' | 'rollInitiative' | 'applyDamage' | 'undoInterruption' | 'manage';

export const COMBAT_ACTIONS: readonly CombatAction[] = ['declare', 'changeStep', 'rollInitiative', 'applyDamage', 'undoInterruption'];

export function ownsCombatant(user: User.Implementation, combatant: Combatant.Implementation): boolean {
  const actor = combatant.actor;
  if (actor) return actor.testUserPermission(user, 'OWNER');
  return combatant.testUserPermission(user, 'OWNER');
}

/**
 * null when `user` may do `action` (for `combatant`, the one acting, where the
 * action has one), else the reason.
 *
 *  - declare, applyDamage (an attack by the combatant): the GM, or a player
 *    owning the combatant's actor;
 *  - changeStep (next/previous step or round, start): the GM only;
 *  - rollInitiative, undoInterruption, manage (start, sides, morale): the GM
 *    only (initiative is rolled for sides by the procedure, never per
 *    combatant by a player).
 */
export function authorize(action: CombatAction, user: User.Implementation | null | undefined, combatant?: Combatant.Implementation | null): Problem | null {
  if (!user) return { key: 'UnknownUser' };
  if (user.isGM) return null;
  switch (action) {
    case 'declare':
    case 'applyDamage':
      if (!combatant) return { key: 'UnknownCombatant', data: { id: '' } };
      return ownsCombatant(user, combatant) ? null : { key: 'NotYourCombatant', data: { name: combatant.name ?? '' } };
    case 'changeStep':
      return { key: 'OnlyGMAdvances' };
    default:
      // rollInitiative, undoInterruption, manage
      return { key: 'OnlyGM' };
  }
}

/**
 * Is this client the active GM's, the one writer of every combat? Another
 * GM's controls go through it as requests (requests.ts), as a player's do.
 */
export function isActiveGM(): boolean {
  const user = game.user;
  return !!user?.isGM && game.users?.activeGM?.id === user.id;
}
