/**
 * The GM's form for the options of the world's combat procedure (Game
 * Settings → Ten Segments → Procedure options). The choices shown are the
 * procedure's own (optionSpecs); what is saved is checked by the engine,
 * and a refused value changes nothing. Saved options apply from the next
 * combat started: a running combat keeps the ones it started with.
 */
import type { OptionSpec, ProcedureOptions } from '../rules/procedure';
import { resolveOptions } from '../rules/procedure';
import { getProcedure, loadProcedure } from '../rules/registry';
import { isProcedureId, RulesError, type Problem, type ProcedureId } from '../rules/model';
import { SYSTEM_ID } from '../settings';
import { localizeProblem } from '../documents/problems';

export interface OptionField {
  key: string;
  name: string;
  label: string;
  hint: string;
  type: OptionSpec['type'];
  value: boolean | number | string;
  min?: number;
  max?: number;
  choices?: { value: string; label: string; selected: boolean }[];
}

/** The form's fields for a procedure (loaded) and its saved options (pure: labels are keys). */
export function optionFields(procedureId: ProcedureId, saved: ProcedureOptions = {}): OptionField[] {
  const procedure = getProcedure(procedureId);
  const { options } = resolveOptions(procedure, saved);
  return procedure.optionSpecs.map((spec) => {
    const base = `TENSEG.Option.${procedureId}.${spec.key}`;
    const field: OptionField = {
      key: spec.key,
      name: `options.${spec.key}`,
      label: `${base}.Name`,
      hint: `${base}.Hint`,
      type: spec.type,
      value: options[spec.key],
    };
    if (spec.min !== undefined) field.min = spec.min;
    if (spec.max !== undefined) field.max = spec.max;
    if (spec.type === 'choice') {
      field.choices = (spec.choices ?? []).map((c) => ({ value: c, label: `${base}.Choice.${c}`, selected: c === options[spec.key] }));
    }
    return field;
  });
}

/** Form values (strings, checkboxes) as typed options; problems name the option. */
export function readOptions(procedureId: ProcedureId, form: Record<string, unknown>): { options: ProcedureOptions; problems: Problem[] } {
  const procedure = getProcedure(procedureId);
  const given: ProcedureOptions = {};
  for (const spec of procedure.optionSpecs) {
    const raw = form[spec.key];
    if (spec.type === 'boolean') given[spec.key] = raw === true || raw === 'true' || raw === 'on';
    else if (spec.type === 'number') given[spec.key] = typeof raw === 'number' ? raw : raw === undefined || raw === '' ? Number.NaN : Number(raw);
    else given[spec.key] = typeof raw === 'string' ? raw : String(raw ?? '');
  }
  return resolveOptions(procedure, given);
}

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

export class ProcedureOptionsApp extends HandlebarsApplicationMixin(ApplicationV2) {
  static override DEFAULT_OPTIONS = {
    id: 'ten-segments-procedure-options',
    tag: 'form',
    classes: ['ten-segments', 'procedure-options'],
    window: { title: 'TENSEG.Setting.Options.Title', icon: 'fa-solid fa-swords' },
    position: { width: 560 },
    form: { handler: ProcedureOptionsApp.onSubmit, closeOnSubmit: true },
  };

  static override PARTS = {
    form: { template: `systems/${SYSTEM_ID}/templates/settings/procedure-options.hbs` },
  };

  get procedureId(): ProcedureId {
    const id = game.settings!.get(SYSTEM_ID, 'procedure');
    if (!isProcedureId(id)) throw new RulesError({ key: 'UnknownProcedure', data: { id: String(id) } });
    return id;
  }

  override async _prepareContext(options: foundry.applications.api.ApplicationV2.RenderOptions) {
    const context = await super._prepareContext(options);
    await loadProcedure(this.procedureId);
    const saved = game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {};
    return Object.assign(context, {
      procedure: `TENSEG.Procedure.${this.procedureId}.Name`,
      fields: optionFields(this.procedureId, saved[this.procedureId] ?? {}),
    });
  }

  /** Save the options, or refuse (nothing saved) with the first problem in words. */
  static async onSubmit(this: ProcedureOptionsApp, _event: Event, _form: HTMLFormElement, formData: { object: Record<string, unknown> }): Promise<void> {
    await saveProcedureOptions(this.procedureId, formData.object);
  }
}

/** Check and save one procedure's options (GM). Throws, saving nothing, on a refused value. */
export async function saveProcedureOptions(procedureId: ProcedureId, form: Record<string, unknown>): Promise<ProcedureOptions> {
  await loadProcedure(procedureId);
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(form)) flat[k.startsWith('options.') ? k.slice('options.'.length) : k] = v;
  const { options, problems } = readOptions(procedureId, flat);
  if (problems.length > 0) {
    const message = localizeProblem(problems[0]);
    ui.notifications?.error(message);
    throw new Error(message);
  }
  const all = { ...(game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {}) };
  all[procedureId] = options as Record<string, boolean | number | string>;
  await game.settings!.set(SYSTEM_ID, 'procedureOptions', all);
  return options;
}
