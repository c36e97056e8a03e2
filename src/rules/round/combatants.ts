/**
 * The shape of a combatant the engine is given (at the start, or joining):
 * checked once, so no procedure meets a malformed one. Stats a combatant does
 * not have are absent; those it has must be what the engine reads.
 */
import type { Combatant, Problem } from '../model';
import { isDamageType } from '../model';
import { CONDITIONS } from './health';

const NUMBERS = [
  'maxHp',
  'routines',
  'attackRoutines',
  'surpriseAdjustment',
  'initiativeAdjustment',
  'missileBonus',
  'dexterityAcBonus',
  'surprisedOn',
  'surprisesOn',
  'surprisesOthersAdjust',
  'surprisedAdjust',
  'level',
  'agilityModifier',
  'insightModifier',
  'strength',
  'stress',
  'maxStress',
  'woundPoints',
  'maxWoundPoints',
  'morale',
  'movement',
  'chargeMovement',
  'carried',
  'defenseBonus',
  'armour',
  'attackBonus',
] as const satisfies readonly (keyof Combatant)[];
const TEXTS = ['className', 'hitDice', 'initiativeGroup'] as const satisfies readonly (keyof Combatant)[];
const WEAPON_NUMBERS = ['speed', 'length', 'space', 'rate', 'critical'] as const;

const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Null if `value` is a combatant the engine can play, else the first field that is not (CombatantFieldInvalid). */
export function combatantProblem(value: unknown): Problem | null {
  if (!isRecord(value) || !isText(value.id) || value.id === '') return { key: 'MalformedRequest' };
  const name = isText(value.name) ? value.name : value.id;
  const bad = (field: string): Problem => ({ key: 'CombatantFieldInvalid', data: { name, field } });
  if (!isText(value.name)) return bad('name');
  if (!isText(value.side) || value.side === '') return bad('side');
  if (!isNumber(value.hp)) return bad('hp');
  if (value.kind !== undefined && value.kind !== 'character' && value.kind !== 'monster') return bad('kind');
  for (const f of NUMBERS) if (value[f] !== undefined && !isNumber(value[f])) return bad(f);
  for (const f of TEXTS) if (value[f] !== undefined && !isText(value[f])) return bad(f);
  if (value.neverSurprised !== undefined && typeof value.neverSurprised !== 'boolean') return bad('neverSurprised');
  if (value.small !== undefined && typeof value.small !== 'boolean') return bad('small');
  if (value.spells !== undefined && !(Array.isArray(value.spells) && value.spells.every(isText))) return bad('spells');
  if (value.condition !== undefined && !CONDITIONS.some((x) => x === value.condition)) return bad('condition');
  if (value.weapon !== undefined) {
    const w = value.weapon;
    if (!isRecord(w)) return bad('weapon');
    for (const f of WEAPON_NUMBERS) if (w[f] !== undefined && !isNumber(w[f])) return bad(`weapon.${f}`);
    if (w.name !== undefined && !isText(w.name)) return bad('weapon.name');
    if (w.missile !== undefined && typeof w.missile !== 'boolean') return bad('weapon.missile');
    if (w.damageTypes !== undefined && !(Array.isArray(w.damageTypes) && w.damageTypes.every(isDamageType))) return bad('weapon.damageTypes');
  }
  return null;
}
