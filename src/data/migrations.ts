/**
 * Source migrations run by the models' `migrateData` before validation. Pure:
 * they take and change a plain source object.
 *
 *  - Hit dice and AAC0 typed as numbers (a common import shape) become text.
 *  - Movement given as a single number of inches ("12") becomes feet per
 *    round in `movement.base` (12" = 120 ft).
 *  - hp / ac written as numeric strings become numbers.
 *  - A character stored before "Turns undead" was on the sheet (issue 28) turns
 *    undead where its class reads as one that turns: cleric or paladin (also
 *    the German Kleriker; a class name containing the word, "Cleric 3",
 *    "Half-elf cleric/fighter"); every other keeps the field's default, not
 *    turning. A value once stored is never changed.
 */
import { inchesToFeet } from './shapes';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numeric(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Classes that turn undead (the classic game's cleric and paladin), as a class name may write them. */
const TURNING_CLASS = /\b(?:cleric|paladin|kleriker)\b/i;

/** Does a class name (free text on the sheet) name a class that turns undead? */
export function classTurnsUndead(className: unknown): boolean {
  return typeof className === 'string' && TURNING_CLASS.test(className);
}

/**
 * A character's system source whose `details` has no `turnsUndead`, as the code before issue 28 stored it: it turns
 * where its class name names a class that turns (in place). A stored value, true or false, is kept.
 */
export function migrateCharacterTurning(source: Record<string, unknown>): Record<string, unknown> {
  const details = isRecord(source) ? source.details : undefined;
  if (!isRecord(details) || Object.hasOwn(details, 'turnsUndead')) return source;
  if (classTurnsUndead(details.className)) details.turnsUndead = true;
  return source;
}

export function migrateActorSource(source: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(source)) return source;
  if (typeof source.hitDice === 'number') source.hitDice = source.hitDice === 0.5 ? '½' : String(source.hitDice);
  if (typeof source.aac0 === 'number') source.aac0 = String(source.aac0);
  if (isRecord(source.attack) && typeof source.attack.aac0 === 'number') source.attack.aac0 = String(source.attack.aac0);
  const move = numeric(source.movement);
  if (move !== undefined) source.movement = { base: inchesToFeet(move), charge: 0 };
  if (typeof source.ac === 'string') {
    const ac = numeric(source.ac);
    if (ac !== undefined) source.ac = ac;
  }
  if (isRecord(source.hp)) {
    for (const k of ['value', 'max'] as const) {
      if (typeof source.hp[k] === 'string') {
        const n = numeric(source.hp[k]);
        if (n !== undefined) source.hp[k] = n;
      }
    }
  }
  return source;
}
