/**
 * System data of Combat, Combatant and CombatantGroup (type `base` in v13).
 *
 * Combat: the engine's flow state as JSON and its undo stack (see
 * combat-state.ts for why strings), with read-only views of the parts the
 * tracker shows. Combatant: its declaration, routines used, spells expended.
 * CombatantGroup: the engine side it stands for and its dice.
 */
import type { FlowState } from '../rules/flow';
import { isActionKind } from '../rules/model';
import { fields, boolField, checkedBy, intField, textField } from './fields';
import { isHistoryEntry, parseFlow, summarize, type FlowSummary } from './combat-state';

function combatSchema() {
  const { ArrayField, StringField } = fields();
  return {
    flow: new StringField({
      required: true,
      blank: true,
      initial: '',
      validate: checkedBy((value) => {
        const r = parseFlow(value);
        return r.ok ? null : r.problem;
      }),
    }),
    history: new ArrayField(
      new StringField({
        required: true,
        blank: false,
        validate: checkedBy((value) => (isHistoryEntry(value) ? null : { key: 'CombatHistoryInvalid' })),
      }),
    ),
  };
}

export type CombatSchema = ReturnType<typeof combatSchema>;

export class CombatData extends foundry.abstract.TypeDataModel<CombatSchema, Combat.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Combat'];

  static override defineSchema(): CombatSchema {
    return combatSchema();
  }

  #parsed: { raw: string; state: FlowState | null } | null = null;

  /** The stored flow state, or null before the combat starts (or if unreadable). */
  get state(): FlowState | null {
    const raw = this.flow;
    if (this.#parsed?.raw !== raw) {
      const r = parseFlow(raw);
      this.#parsed = { raw, state: r.ok ? r.value : null };
    }
    return this.#parsed.state;
  }

  /** Phase, round, step, procedure, schedule, surprise, initiative… of the stored flow. */
  get summary(): FlowSummary {
    return summarize(this.state, this.history.length);
  }

  get started(): boolean {
    return this.state !== null;
  }
}

function isDeclarationLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'action' in value && isActionKind(value.action);
}

function actionOf(value: unknown): string {
  return typeof value === 'object' && value !== null && 'action' in value ? String(value.action) : String(value);
}

function combatantSchema() {
  const { ArrayField, ObjectField, StringField } = fields();
  return {
    declaration: new ObjectField({
      required: true,
      nullable: true,
      initial: null,
      validate: checkedBy((value) =>
        value === null || isDeclarationLike(value) ? null : { key: 'ActionUnknown', data: { action: actionOf(value) } },
      ),
    }),
    routinesUsed: intField({ min: 0, max: 100 }, 0),
    spellsExpended: new ArrayField(new StringField({ required: true, blank: false })),
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
  const { NumberField } = fields();
  const die = () => new NumberField({ required: true, nullable: true, integer: true, min: 1, max: 100, initial: null });
  return {
    side: textField(''),
    alerted: boolField(false),
    surprised: boolField(false),
    surpriseRoll: die(),
    initiativeRoll: die(),
  };
}

export type CombatantGroupSchema = ReturnType<typeof combatantGroupSchema>;

export class CombatantGroupData extends foundry.abstract.TypeDataModel<CombatantGroupSchema, CombatantGroup.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.CombatantGroup'];

  static override defineSchema(): CombatantGroupSchema {
    return combatantGroupSchema();
  }
}
