/**
 * A declaration request from the form (item ids, strings) made into an engine
 * Declaration, with what only the scene knows: the distance a charger must
 * cover, and whether a long weapon has the room it needs.
 *
 * A request may come from any client, so it is read defensively: only the
 * known fields, only as own properties (a `__proto__` or `constructor` key
 * is ignored), numbers within what the form can send, ids that name this
 * combat's combatants and this actor's items. The procedure then decides
 * whether the declaration is legal (src/rules).
 */
import type { Declaration, Problem } from '../rules/model';
import { needsOpenSquare } from '../rules/space';
import { toDeclaration, type DeclarationPayload } from '../data/engine-view';
import { LIMITS } from '../data/shapes';
import { actorView } from './encounter';
import { gapBetween, weaponUsableAt } from './grid';

export type DeclarationRequest = DeclarationPayload;

const FIELDS = [
  'action',
  'target',
  'weapon',
  'spell',
  'spellName',
  'castingTime',
  'speed',
  'routines',
  'hesitation',
  'distance',
  'readied',
  'delayed',
  'note',
] as const satisfies readonly (keyof DeclarationPayload)[];

/** The longest free text (spell or device name, note) a declaration keeps. */
export const MAX_TEXT = 500;

/**
 * Bounds of what the declaration form can send, beyond which a number is
 * not a mistake of play but a broken or hostile request. They decide no rule:
 * the procedure still checks the value (src/rules).
 */
const NUMBER_BOUNDS: Record<'speed' | 'routines' | 'hesitation' | 'distance', { min: number; max: number }> = {
  /** individual-speed: casting TN - 10 or an action modifier. */
  speed: { min: -LIMITS.castingTN.max, max: LIMITS.castingTN.max },
  routines: { min: 0, max: LIMITS.routines.max },
  /** addict: segments of hesitation; a casting takes at most this many segments too. */
  hesitation: { min: 0, max: LIMITS.castingSegments.max },
  /** Feet to the target when the round begins. */
  distance: { min: 0, max: LIMITS.rangeFeet.max },
};

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The request's known fields, own properties only, on an object without a prototype. */
function ownFields(request: unknown): Record<string, unknown> | null {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return null;
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of FIELDS) if (has(request, k)) out[k] = (request as Record<string, unknown>)[k];
  return out;
}

const TEXT_FIELDS = ['target', 'weapon', 'spell', 'spellName', 'note'] as const;
const FLAG_FIELDS = ['readied', 'delayed'] as const;

/**
 * A field of the wrong type is refused rather than ignored, so that a request
 * is never accepted as something other than what was asked. Absent, null and
 * "" mean "not given"; numbers are checked by the translation (they may come
 * as strings from a form).
 */
function fieldTypeProblem(fields: Record<string, unknown>, name: string): Problem | null {
  const action = fields.action;
  if (typeof action !== 'string' || action.trim() === '') return { key: 'DeclarationActionMissing', data: { name } };
  for (const field of TEXT_FIELDS) {
    const v = fields[field];
    if (v !== undefined && v !== null && typeof v !== 'string') return { key: 'DeclarationFieldInvalid', data: { name, field } };
  }
  for (const field of FLAG_FIELDS) {
    const v = fields[field];
    if (v !== undefined && v !== null && typeof v !== 'boolean' && typeof v !== 'string') return { key: 'DeclarationFieldInvalid', data: { name, field } };
  }
  return null;
}

export function declarationFromRequest(
  combatant: Combatant.Implementation,
  request: DeclarationRequest,
): { declaration: Declaration } | { problem: Problem } {
  const actor = combatant.actor;
  const name = combatant.name ?? '';
  if (!actor) return { problem: { key: 'CombatantWithoutActor', data: { name } } };
  const fields = ownFields(request);
  if (!fields) return { problem: { key: 'MalformedRequest' } };
  const typeProblem = fieldTypeProblem(fields, name);
  if (typeProblem) return { problem: typeProblem };
  for (const k of ['spellName', 'note'] as const) {
    const text = fields[k];
    if (typeof text === 'string' && text.trim().length > MAX_TEXT) {
      return { problem: { key: 'DeclarationTextTooLong', data: { name, max: MAX_TEXT } } };
    }
  }
  const parsed = toDeclaration(fields as unknown as DeclarationPayload, { combatant: combatant.id as string, name, items: actorView(actor).items });
  if (!parsed.ok) return { problem: parsed.problem };
  const declaration = parsed.value;
  for (const [field, { min, max }] of Object.entries(NUMBER_BOUNDS) as [keyof typeof NUMBER_BOUNDS, { min: number; max: number }][]) {
    const v = declaration[field];
    if (v !== undefined && (v < min || v > max)) return { problem: { key: 'NumberInvalid', data: { name, field } } };
  }
  const combat = combatant.parent;
  if (declaration.target !== undefined && !combat?.combatants.get(declaration.target)) {
    return { problem: { key: 'DeclarationTargetUnknown', data: { name } } };
  }
  const token = combatant.token;
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
        return { problem: { key: 'WeaponNoRoom', data: { name, weapon: declaration.weapon?.name ?? '' } } };
      }
    }
  }
  return { declaration };
}
