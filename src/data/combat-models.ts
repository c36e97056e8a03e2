/**
 * System data of Combat, Combatant and CombatantGroup (type `base` in v13).
 *
 * Combat: `schema` and `log`, the combat as its log of transitions
 * (combat-log.ts, src/rules/flow/log.ts); the Combat document replays it.
 * Combatant: the declaration it waits with before the combat starts, and the
 * group of monsters it shares an initiative roll with. CombatantGroup: the
 * engine side it stands for, alerted or surprised by the GM's ruling, and the
 * situation's surprise modifier.
 */
import { isActionKind } from '../rules/model';
import { fields, boolField, checkedBy, intField, textField } from './fields';
import { LIMITS } from './shapes';
import { COMBAT_SCHEMA, ENTRY_KEY, entryProblem } from './combat-log';
import type { LogEntry } from '../rules/flow/log';

function combatSchema() {
  const { NumberField, ObjectField, TypedObjectField } = fields();
  const entryOptions = { validate: checkedBy(entryProblem) };
  return {
    // Not `schema`: a DataModel's own getter, which core's assignment of the field would hit (a TypeError there).
    version: new NumberField({ required: true, nullable: false, integer: true, min: 1, initial: COMBAT_SCHEMA }),
    // Each entry is held to entryProblem when written: read back, it is a LogEntry.
    log: new TypedObjectField(new ObjectField<typeof entryOptions, LogEntry, LogEntry>(entryOptions), { validateKey: (k: string) => ENTRY_KEY.test(k) }),
  };
}

export type CombatSchema = ReturnType<typeof combatSchema>;

export class CombatData extends foundry.abstract.TypeDataModel<CombatSchema, Combat.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Combat'];

  static override defineSchema(): CombatSchema {
    return combatSchema();
  }

  /**
   * A combat stored by schema 1 (the flow as JSON text and its reverse
   * patches) is read as not started until the active GM's world migration
   * (loaded only then) rewrites it as its log: players who connect before the
   * GM see it then.
   */
  static override migrateData(source: Record<string, unknown>): Record<string, unknown> {
    if (source && ('flow' in source || 'history' in source) && !source.log) source.version = 1;
    // Stored before world schema 4 as `schema` (the world migration renames it for good).
    if (source && 'schema' in source) {
      if (source.version === undefined) source.version = source.schema;
      delete source.schema;
    }
    return super.migrateData(source) as Record<string, unknown>;
  }
}

function isDeclarationLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'action' in value && isActionKind(value.action);
}

function actionOf(value: unknown): string {
  return typeof value === 'object' && value !== null && 'action' in value ? String(value.action) : String(value);
}

function combatantSchema() {
  const { ObjectField } = fields();
  return {
    declaration: new ObjectField({
      required: true,
      nullable: true,
      initial: null,
      validate: checkedBy((value) =>
        value === null || isDeclarationLike(value) ? null : { key: 'ActionUnknown', data: { action: actionOf(value) } },
      ),
    }),
    initiativeGroup: textField(''),
  };
}

export type CombatantSchema = ReturnType<typeof combatantSchema>;

export class CombatantData extends foundry.abstract.TypeDataModel<CombatantSchema, Combatant.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Combatant'];

  static override defineSchema(): CombatantSchema {
    return combatantSchema();
  }
}

function combatantGroupSchema() {
  return {
    side: textField(''),
    alerted: boolField(false),
    surprised: boolField(false),
    /** The situation's adjustment of the side's chance to be surprised, in pips of the surprise die (Side.surpriseModifier); 0 by default, so no migration. */
    surpriseModifier: intField(LIMITS.surpriseAdjust, 0),
  };
}

export type CombatantGroupSchema = ReturnType<typeof combatantGroupSchema>;

export class CombatantGroupData extends foundry.abstract.TypeDataModel<CombatantGroupSchema, CombatantGroup.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.CombatantGroup'];

  static override defineSchema(): CombatantGroupSchema {
    return combatantGroupSchema();
  }
}
