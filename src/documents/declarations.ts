/** A declaration request from the form (item ids, strings) made into an engine Declaration. */
import type { Declaration, Problem } from '../rules/model';
import { toDeclaration, type DeclarationPayload } from '../data/engine-view';
import { actorView } from './encounter';

export type DeclarationRequest = DeclarationPayload;

export function declarationFromRequest(
  combatant: Combatant.Implementation,
  request: DeclarationRequest,
): { declaration: Declaration } | { problem: Problem } {
  const actor = combatant.actor;
  if (!actor) return { problem: { key: 'CombatantWithoutActor', data: { name: combatant.name ?? '' } } };
  const parsed = toDeclaration(request, { combatant: combatant.id as string, name: combatant.name ?? '', items: actorView(actor).items });
  return parsed.ok ? { declaration: parsed.value } : { problem: parsed.problem };
}
