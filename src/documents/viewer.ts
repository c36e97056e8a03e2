/**
 * Whose eyes a client reads the round with: a player's viewer for a combat
 * (their combatants' sides; the combatants the GM hides). Shared by the token
 * icons and notices (round-display.ts) and the combat tracker.
 */
import type { Viewer } from '../rules/timeline';
import { ownsCombatant } from './permissions';
import { groupIdOf } from './encounter';

/** A player's viewer for a combat: their combatants' sides; the combatants the GM hides. */
export function playerViewer(combat: Combat.Implementation, user: User.Implementation): Viewer {
  const sides = new Set<string>();
  const hidden: string[] = [];
  for (const c of combat.combatants) {
    if (c.hidden) hidden.push(c.id as string);
    const group = groupIdOf(c);
    if (group && ownsCombatant(user, c)) sides.add(group);
  }
  return { gm: false, sides: [...sides], hidden };
}
