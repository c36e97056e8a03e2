/**
 * From a Combat's documents to the engine's Encounter: sides are the
 * CombatantGroups, combatants carry the stats their actors give them
 * (translation in src/data/engine-view.ts).
 */
import type { Combatant as EngineCombatant, Problem, Side } from '../rules/model';
import type { Encounter } from '../rules/procedure';
import { combatantData, groupData } from '../data/systems';
import { toEngineCombatant, type ActorView, type ItemView } from '../data/engine-view';

export function sideOf(group: CombatantGroup.Implementation): Side {
  const system = groupData(group);
  const side: Side = { id: group.id as string, name: group.name || (group.id as string) };
  if (system?.alerted) side.alerted = true;
  if (system?.surprised) side.surprised = true;
  return side;
}

export function actorView(actor: Actor.Implementation): ActorView {
  const items: ItemView[] = actor.items.contents.map((i) => ({ id: i.id as string, name: i.name ?? '', type: i.type, system: i.system }));
  return { id: actor.id as string, name: actor.name ?? '', type: actor.type, system: actor.system, items };
}

/** The group id a combatant belongs to (v13 stores the id in `group`). */
export function groupIdOf(combatant: Combatant.Implementation): string | null {
  return combatant._source.group ?? null;
}

/** The engine's view of one combatant: its actor's stats, its document id, its side. */
export function engineCombatant(combatant: Combatant.Implementation, sideId: string): { combatant: EngineCombatant } | { problem: Problem } {
  const actor = combatant.actor;
  if (!actor) return { problem: { key: 'CombatantWithoutActor', data: { name: combatant.name ?? '' } } };
  // Monsters sharing one initiative roll (individual-speed) carry the same group on their combatants.
  const group = combatantData(combatant)?.initiativeGroup.trim();
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
