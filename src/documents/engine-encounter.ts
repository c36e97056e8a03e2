/**
 * From a Combat's documents to the engine's Encounter: sides are the
 * CombatantGroups, combatants carry the stats their actors give them
 * (translation in src/data/engine-view.ts). Only the active GM builds them
 * (starting a combat, a late joiner, checking a request): this is part of
 * the GM's side of requests (handlers/index.ts), loaded on first use.
 */
import type { Combatant as EngineCombatant, Problem } from '../rules/model';
import type { Encounter } from '../rules/procedure';
import { combatantData } from '../data/systems';
import { toEngineCombatant, type ActorView, type ItemView } from '../data/engine-view';
import { groupIdOf, sideOf } from './encounter';

export function actorView(actor: Actor.Implementation): ActorView {
  const items: ItemView[] = actor.items.contents.map((i) => ({ id: i.id as string, name: i.name ?? '', type: i.type, system: i.system }));
  return { id: actor.id as string, name: actor.name ?? '', type: actor.type, system: actor.system, items };
}

/** The engine's view of one combatant: its actor's stats, its document id, its side. */
export function engineCombatant(combatant: Combatant.Implementation, sideId: string): { combatant: EngineCombatant } | { problem: Problem } {
  const actor = combatant.actor;
  if (!actor) return { problem: { key: 'CombatantWithoutActor', data: { name: combatant.name ?? '' } } };
  // Monsters sharing one initiative roll (individual-speed) carry the same group on their combatants. Only the GM's
  // combatants share ("shared rolls for identical monsters"): a player can write their own combatant's data, so a
  // group set on a combatant a player owns is not read (it would let them take the monsters' roll).
  const group = combatant.hasPlayerOwner ? undefined : combatantData(combatant)?.initiativeGroup.trim();
  const parsed = toEngineCombatant(actorView(actor), {
    id: combatant.id as string,
    side: sideId,
    name: combatant.name ?? undefined,
    ...(group ? { initiativeGroup: group } : {}),
  });
  return parsed.ok ? { combatant: parsed.value } : { problem: parsed.problem };
}

export function buildEncounter(combat: Combat.Implementation): { encounter: Encounter } | { problem: Problem } {
  const sides = combat.groups.contents.map(sideOf);
  const combatants: EngineCombatant[] = [];
  for (const c of combat.combatants.contents) {
    const group = groupIdOf(c);
    if (!group) return { problem: { key: 'CombatantWithoutSide', data: { name: c.name ?? '' } } };
    const built = engineCombatant(c, group);
    if ('problem' in built) return built;
    combatants.push(built.combatant);
  }
  return { encounter: { sides, combatants } };
}
