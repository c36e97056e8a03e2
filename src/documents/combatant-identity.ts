/**
 * Who a combatant is, for the rule "one combatant per token, and per actor for a linked actor" (issue 26):
 * the keys that name it. A combatant of a linked actor is that actor (`a:<actor>`), on whichever of its tokens
 * or on none; one of an unlinked token is that token (`t:<scene>.<token>`); a combatant with an actor and no
 * token is the actor. Two combatants of one combat sharing a key are one creature twice.
 */
import { combatantSceneId } from './compat-writes';

/** The keys naming a combatant, the one stored on its `leave` entry first (combat-writer.ts whoIs). */
export function identityKeys(combatant: Combatant.Implementation): string[] {
  const keys: string[] = [];
  const token = combatant.tokenId ? `t:${combatantSceneId(combatant) ?? ''}.${combatant.tokenId}` : null;
  // A token's actor counts when the token is linked to it; a combatant with no token stands for its (world) actor.
  const linked = combatant.tokenId ? !!combatant.token?.actorLink : true;
  if (combatant.actorId && linked) keys.push(`a:${combatant.actorId}`);
  if (token) keys.push(token);
  return keys;
}

/** Another combatant of the same combat that is this one's creature (a shared key), or null. */
export function duplicateOf(combat: Combat.Implementation, combatant: Combatant.Implementation): Combatant.Implementation | null {
  const mine = new Set(identityKeys(combatant));
  if (mine.size === 0) return null;
  return combat.combatants.find((other) => other.id !== combatant.id && identityKeys(other).some((k) => mine.has(k))) ?? null;
}
