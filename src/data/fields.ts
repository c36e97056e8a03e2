/**
 * Small builders for the schema fields every model here uses. They read
 * `foundry.data.fields` when called (inside `defineSchema`), never at import.
 */
import type { Problem } from '../rules/model';
import { BASE_MOVEMENT_FEET, LIMITS } from './shapes';

type Range = { readonly min: number; readonly max: number };

/** A problem as a localized message (the key itself when no translation is loaded). */
export function localizedProblem(problem: Problem): string {
  const key = `TENSEG.Error.${problem.key}`;
  const i18n = typeof game === 'undefined' ? undefined : game.i18n;
  if (!i18n?.has?.(key)) return key;
  const data = Object.fromEntries(Object.entries(problem.data ?? {}).map(([k, v]) => [k, String(v)]));
  return i18n.format(key, data);
}

/**
 * A field validator from a pure check: the check's Problem becomes the
 * validation failure's (localized) message.
 */
export function checkedBy(check: (value: unknown) => Problem | null) {
  return (value: unknown): true => {
    const problem = check(value);
    if (problem) throw new Error(localizedProblem(problem));
    return true;
  };
}

export function fields() {
  return foundry.data.fields;
}

/**
 * Numbers off a field's scale are refused (a validation error), not clamped:
 * a NumberField's own min / max would silently clamp them when cleaned. The
 * scales are in LIMITS (shapes.ts) for sheets to show.
 */
function inRange(range: Range, integer: boolean) {
  return checkedBy((value) =>
    typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max && (!integer || Number.isInteger(value))
      ? null
      : { key: integer ? 'FieldRangeInteger' : 'FieldRange', data: { value: String(value), min: range.min, max: range.max } },
  );
}

/** A required integer within a range; values outside it are refused. */
export function intField(range: Range, initial: number) {
  const { NumberField } = fields();
  return new NumberField({
    required: true,
    nullable: false,
    integer: true,
    initial,
    validate: inRange(range, true),
  });
}

/** A required number within a range (not necessarily whole); values outside it are refused. */
export function numField(range: Range, initial: number, step?: number) {
  const { NumberField } = fields();
  return new NumberField({
    required: true,
    nullable: false,
    initial,
    ...(step ? { step } : {}),
    validate: inRange(range, false),
  });
}

/**
 * A running tally (current hit points, Stress, Wound Points): damage and
 * healing may overshoot, so it is clamped to the range instead of refused.
 */
export function tallyField(range: Range, initial: number) {
  const { NumberField } = fields();
  return new NumberField({ required: true, nullable: false, integer: true, min: range.min, max: range.max, initial });
}

export function boolField(initial = false) {
  const { BooleanField } = fields();
  return new BooleanField({ required: true, initial });
}

export function textField(initial = '') {
  const { StringField } = fields();
  return new StringField({ required: true, blank: true, initial });
}

export function htmlField() {
  const { HTMLField } = fields();
  return new HTMLField({ required: true, blank: true, initial: '' });
}

export function valueMaxField(range: Range, initial: number) {
  const { SchemaField } = fields();
  return new SchemaField({ value: tallyField(range, initial), max: intField({ min: 0, max: range.max }, initial) });
}

export function surpriseField() {
  const { SchemaField } = fields();
  return new SchemaField({
    surprisedOn: intField(LIMITS.surpriseRange, 0),
    surprisesOn: intField(LIMITS.surpriseRange, 0),
    surprisedAdjust: intField(LIMITS.surpriseAdjust, 0),
    surprisesOthersAdjust: intField(LIMITS.surpriseAdjust, 0),
    neverSurprised: boolField(false),
  });
}

export function movementField() {
  const { SchemaField } = fields();
  return new SchemaField({
    base: numField(LIMITS.movement, BASE_MOVEMENT_FEET),
    charge: numField(LIMITS.movement, 0),
  });
}

export function individualFields() {
  return {
    agility: intField(LIMITS.smallModifier, 0),
    insight: intField(LIMITS.smallModifier, 0),
    stress: valueMaxField(LIMITS.stressWounds, 0),
    wounds: valueMaxField(LIMITS.stressWounds, 0),
    defense: intField(LIMITS.defenseBonus, 0),
    armour: intField(LIMITS.armour, 0),
    attackBonus: intField(LIMITS.attackBonus, 0),
  };
}
