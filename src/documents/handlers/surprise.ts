/**
 * The sides' surprise as the GM set it in the surprise dialog, applied by the
 * active GM as the combat starts (combat.ts `start`): the engine's sides for
 * the roll, and the CombatantGroups' updates, written only once the start is
 * sure. Part of the GM's side (handlers chunk): start-up does not carry it.
 */
import type { Problem, Side } from '../../rules/model';
import type { Encounter } from '../../rules/procedure';
import type { SideSurprise } from '../queries';

/** The engine's side as the GM set it: alerted, surprised by the GM's ruling, or rolling with the situation's modifier. */
function stagedSide(side: Side, s: SideSurprise): Side {
  const out: Side = { id: side.id, name: side.name };
  if (s.stance === 'alerted') out.alerted = true;
  if (s.stance === 'surprised') out.surprised = true;
  if (s.stance === 'roll' && s.modifier !== 0) out.surpriseModifier = s.modifier;
  return out;
}

/**
 * Put the GM's settings on the encounter's sides (in place) and return the
 * groups' updates; a side the combat does not have is refused (nothing
 * changed). The modifier counts only where the side rolls: an alerted or
 * GM-surprised side keeps none.
 */
export function stageSurprise(combat: Combat.Implementation, encounter: Encounter, sides: Record<string, SideSurprise> | undefined): { updates: Record<string, unknown>[] } | { problem: Problem } {
  const updates: Record<string, unknown>[] = [];
  if (!sides) return { updates };
  for (const id of Object.keys(sides)) if (!combat.groups.get(id)) return { problem: { key: 'UnknownSideId', data: { side: id } } };
  encounter.sides = encounter.sides.map((side) => (sides[side.id] ? stagedSide(side, sides[side.id]) : side));
  for (const [id, s] of Object.entries(sides)) {
    updates.push({ _id: id, 'system.alerted': s.stance === 'alerted', 'system.surprised': s.stance === 'surprised', 'system.surpriseModifier': s.stance === 'roll' ? s.modifier : 0 });
  }
  return { updates };
}
