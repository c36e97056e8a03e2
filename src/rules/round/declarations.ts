/**
 * Declaration checks every procedure shares: the declaration is the
 * combatant's, its action is one the procedure has, a spell or device has a
 * casting time, a spell is one the combatant has memorized, numbers are sane;
 * turning undead and using a device only by one that has them (abilityProblem).
 * A procedure adds the checks of its own text.
 */
import type { Combatant, Declaration, Problem, WeaponStats } from '../model';
import { SEGMENTS_PER_ROUND } from '../model';

const allowedSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function badNumber(v: unknown, signed: boolean): boolean {
  return v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || (!signed && v < 0));
}

export function commonDeclarationProblem(decl: Declaration, combatant: Combatant, allowed: readonly string[]): Problem | null {
  if (!decl || typeof decl !== 'object') return { key: 'DeclarationWrongCombatant', data: { name: combatant.name } };
  if (decl.combatant !== combatant.id) return { key: 'DeclarationWrongCombatant', data: { name: combatant.name } };
  let set = allowedSets.get(allowed);
  if (!set) {
    set = new Set(allowed);
    allowedSets.set(allowed, set);
  }
  if (!set.has(decl.action)) return { key: 'ActionNotInProcedure', data: { action: decl.action } };
  const ability = abilityProblem(decl, combatant);
  if (ability) return ability;
  if (decl.action === 'spell' || decl.action === 'device') {
    if (decl.castingTime === undefined || !Number.isInteger(decl.castingTime) || decl.castingTime < 1 || decl.castingTime > 100) {
      return { key: 'CastingTimeInvalid', data: { name: combatant.name } };
    }
  }
  if (decl.action === 'spell' && decl.spell && combatant.spells && !combatant.spells.includes(decl.spell)) {
    return { key: 'SpellNotMemorized', data: { name: combatant.name, spell: decl.spell } };
  }
  // "release at segment N" belongs to a held or prepared action (segment-d6 hold, addict B: both `wait`).
  if (decl.releaseAt !== undefined) {
    if (decl.action !== 'wait') return { key: 'ReleaseAtNotHeld', data: { name: combatant.name } };
    if (!Number.isInteger(decl.releaseAt) || decl.releaseAt < 1 || decl.releaseAt > SEGMENTS_PER_ROUND) return { key: 'ReleaseAtInvalid', data: { name: combatant.name } };
  }
  // routines, hesitation and distance cannot be negative; speed (a modifier) can.
  const field = badNumber(decl.routines, false)
    ? 'routines'
    : badNumber(decl.hesitation, false)
      ? 'hesitation'
      : badNumber(decl.distance, false)
        ? 'distance'
        : badNumber(decl.speed, true)
          ? 'speed'
          : null;
  return field ? { key: 'NumberInvalid', data: { name: combatant.name, field } } : null;
}

/**
 * Turning undead and using a device are actions of those who have them (issue 28; seed 004's action list: "D
 * missiles · turn undead · cast spell · use device"; 004 note 20: a device's usage "assuming the wielder is still
 * alive", a device has a wielder). The seeds do not say who turns: the ruling is the sheet's (a character's
 * "Turns undead", checked for a class that turns, the cleric and paladin of the classic game), and a device is one
 * of its items marked as a magic device. Not known (a combatant without the field, as an older log or a scenario
 * that does not say): allowed, as a spell list not known allows any spell.
 */
export function abilityProblem(decl: Declaration, combatant: Combatant): Problem | null {
  if (decl.action === 'turn-undead' && combatant.turnsUndead === false) return { key: 'DeclarationCannotTurn', data: { name: combatant.name } };
  if (decl.action === 'device' && Array.isArray(combatant.devices) && combatant.devices.length === 0) return { key: 'DeclarationNoDevice', data: { name: combatant.name } };
  return null;
}

/** A declared number of attack routines that is not a whole number of at least `least`. */
export function badRoutines(routines: unknown, least = 1): boolean {
  return routines !== undefined && (typeof routines !== 'number' || !Number.isInteger(routines) || routines < least);
}

/** The first of `fields` of a weapon that is not a finite number of 0 or more, or null. */
export function badWeaponField(weapon: WeaponStats | undefined, fields: readonly ('speed' | 'length' | 'space' | 'rate')[]): string | null {
  if (weapon === undefined) return null;
  if (typeof weapon !== 'object' || weapon === null) return fields[0] ?? 'weapon';
  for (const field of fields) {
    const v = weapon[field];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) return field;
  }
  return null;
}

/** An attack, charge or set weapon aimed at oneself. */
export function targetsSelf(decl: Declaration, combatant: Combatant): boolean {
  return decl.target !== undefined && decl.target === combatant.id;
}
