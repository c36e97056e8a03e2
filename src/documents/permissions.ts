/**
 * Who may do what in a combat, decided on the GM's side: the GM does
 * everything; a player acts only for combatants whose actor they own.
 */
import type { Problem } from '../rules/model';

export type CombatAction = 'declare' | 'changeStep' | 'rollInitiative' | 'applyDamage' | 'undoInterruption';

const OWNER = 3; // CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER

export function ownsCombatant(user: User.Implementation, combatant: Combatant.Implementation): boolean {
  const actor = combatant.actor;
  if (actor) return actor.testUserPermission(user, OWNER as never);
  return combatant.testUserPermission(user, OWNER as never);
}

/**
 * null when `user` may do `action` (for `combatant`, the one acting, where the
 * action has one), else the reason.
 */
export function authorize(action: CombatAction, user: User.Implementation | null | undefined, combatant?: Combatant.Implementation): Problem | null {
  if (!user) return { key: 'UnknownUser' };
  if (user.isGM) return null;
  switch (action) {
    case 'declare':
    case 'applyDamage':
      if (!combatant) return { key: 'UnknownCombatant', data: { id: '' } };
      return ownsCombatant(user, combatant) ? null : { key: 'NotYourCombatant', data: { name: combatant.name ?? '' } };
    default:
      return { key: 'OnlyGM' };
  }
}
