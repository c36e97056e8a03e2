/**
 * A declaration request from the form (item ids, strings) made into an engine
 * Declaration, with what only the scene knows: the distance a charger must
 * cover, and whether a long weapon has the room it needs.
 */
import type { Declaration, Problem } from '../rules/model';
import { needsOpenSquare } from '../rules/space';
import { toDeclaration, type DeclarationPayload } from '../data/engine-view';
import { actorView } from './encounter';
import { gapBetween, weaponUsableAt } from './grid';

export type DeclarationRequest = DeclarationPayload;

export function declarationFromRequest(
  combatant: Combatant.Implementation,
  request: DeclarationRequest,
): { declaration: Declaration } | { problem: Problem } {
  const actor = combatant.actor;
  if (!actor) return { problem: { key: 'CombatantWithoutActor', data: { name: combatant.name ?? '' } } };
  const parsed = toDeclaration(request, { combatant: combatant.id as string, name: combatant.name ?? '', items: actorView(actor).items });
  if (!parsed.ok) return { problem: parsed.problem };
  const declaration = parsed.value;
  const token = combatant.token;
  const combat = combatant.parent;
  if (token && combat) {
    const target = declaration.target ? combat.combatants.get(declaration.target)?.token : null;
    // Seed 004 fn 19: a charge arrives when the gap closes to the weapon's length.
    if (declaration.action === 'charge' && declaration.distance === undefined && target && target.parent === token.parent) {
      declaration.distance = gapBetween(token, target);
    }
    // Seed 001: a weapon needing more than 4 ft needs an open adjacent square.
    const space = declaration.weapon?.space;
    if ((declaration.action === 'melee' || declaration.action === 'charge') && needsOpenSquare(space) && token.parent) {
      const others = token.parent.tokens.contents;
      if (!weaponUsableAt(token, others, space as number)) {
        return { problem: { key: 'WeaponNoRoom', data: { name: combatant.name ?? '', weapon: declaration.weapon?.name ?? '' } } };
      }
    }
  }
  return { declaration };
}
