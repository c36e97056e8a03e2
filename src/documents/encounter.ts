/**
 * Sides and groups of a Combat's documents, as every client reads them. The
 * engine's Encounter built from the documents (stats from actors) is
 * engine-encounter.ts, on the active GM's side (a chunk loaded on first use).
 */
import type { Side } from '../rules/model';
import { groupData } from '../data/systems';

export function sideOf(group: CombatantGroup.Implementation): Side {
  const system = groupData(group);
  const side: Side = { id: group.id as string, name: group.name || (group.id as string) };
  if (system?.alerted) side.alerted = true;
  if (system?.surprised) side.surprised = true;
  const modifier = system?.surpriseModifier;
  if (typeof modifier === 'number' && Number.isFinite(modifier) && modifier !== 0) side.surpriseModifier = Math.trunc(modifier);
  return side;
}

/** The group id a combatant belongs to (v13 stores the id in `group`). */
export function groupIdOf(combatant: Combatant.Implementation): string | null {
  return combatant._source.group ?? null;
}
