/**
 * A sheet's edit the data model refuses (issue 29): told in a GM's words,
 * and the sheet drawn again from what is stored.
 *
 * Why the next edit was lost: core's document sheet submits the WHOLE form
 * on every change (DocumentSheetV2#_prepareSubmitData validates every
 * control's value) and, on a refusal, only shows the error: the refused
 * value stays typed in its field. Every later change submitted it again, so
 * every later update was refused as a whole ("Level 3 → 4" lost with it).
 * Here the form goes back to the stored values (the sheet is rendered from
 * the document), so the next change submits only values the model takes.
 *
 * The message names the field by its label (the model's
 * LOCALIZATION_PREFIXES, as core labels fields) with the model's reason
 * (src/data/fields.ts: every check of ours is a localized Problem) and the
 * value it keeps; never the document's id or the field's path. A refusal of
 * the values together (a model's validateJoint, e.g. more copies expended
 * than memorized) is checked here too, before anything is sent: core would
 * refuse it only in the update, with the form still holding it.
 *
 * A chunk loaded with the sheets' bodies: core's submit path that calls it
 * is synchronous (shell.ts keeps the loaded module).
 */
import { SYSTEM_ID } from '../../settings';

/** What this module reads of a sheet (core's DocumentSheetV2, v13 and v14 alike). */
export interface RefusingSheet {
  readonly document: foundry.abstract.Document.Any;
  render(options?: object): Promise<unknown>;
}

interface Failure {
  readonly message?: string;
  readonly invalidValue?: unknown;
}
interface ValidationError {
  getAllFailures?(): Record<string, Failure> | void;
}
type ModelClass = { LOCALIZATION_PREFIXES?: string[]; validateJoint?(data: object): void };

const i18n = () => game.i18n!;
/** A refusal's words: TENSEG.Sheet.Refused.Empty, .Field, .Joint or .Other. */
const text = (kind: string, data: Record<string, string>) => i18n().format(`TENSEG.Sheet.Refused.${kind}`, data);

/** A value as a GM reads it: a number or text as it is, blank as "empty". */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return i18n().localize('TENSEG.Sheet.Refused.Blank');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The field's label: the model's (its LOCALIZATION_PREFIXES' `FIELDS.<path>.label`, the last prefix first, as core merges them), else the sheet's name label or core's. */
export function labelOf(document: foundry.abstract.Document.Any, path: string): string {
  const doc = document as unknown as { system?: { constructor: ModelClass }; documentName: string };
  if (path.startsWith('system.') && doc.system) {
    // An array's entries are labelled as core's localization keys them: `<array>.element.<field>`.
    const rest = path.slice('system.'.length).replace(/\.\d+(?=\.|$)/g, '.element');
    const prefixes = [...(doc.system.constructor.LOCALIZATION_PREFIXES ?? [])].reverse();
    for (const prefix of prefixes) {
      const key = `${prefix}.FIELDS.${rest}.label`;
      if (i18n().has(key)) return i18n().localize(key);
    }
  }
  const sheetKey = `TENSEG.Sheet.${doc.documentName}.Name`;
  if (path === 'name' && i18n().has(sheetKey)) return i18n().localize(sheetKey);
  const core = fieldAt(document, path)?.label;
  return core ? i18n().localize(core) : path;
}

/**
 * The reason for a field's refusal: the model's message (ours are localized
 * Problems: src/data/fields.ts checkedBy); a blank value or a message of
 * core's own (English, e.g. "may not be a blank string") in our words.
 */
function reasonOf(failure: Failure, ours: boolean): { kind: string; reason: string } {
  const value = failure.invalidValue;
  if (value === '' || value === null || value === undefined) return { kind: 'Empty', reason: '' };
  if (ours && failure.message) return { kind: 'Field', reason: failure.message };
  return { kind: 'Other', reason: '' };
}

interface Field {
  readonly label?: string;
  readonly fields?: Record<string, Field>;
  /** An ArrayField's entries. */
  readonly element?: Field;
  readonly options?: { readonly validate?: unknown };
}

/** The schema field at a dotted path (through SchemaFields' `fields`; `system.` through the document's system model). */
function fieldAt(document: foundry.abstract.Document.Any, path: string): Field | undefined {
  const doc = document as unknown as { schema: Field; system?: { schema?: Field } };
  const inSystem = path.startsWith('system.') && doc.system?.schema;
  let field: Field | undefined = inSystem ? doc.system!.schema : doc.schema;
  for (const name of (inSystem ? path.slice('system.'.length) : path).split('.')) field = /^\d+$/.test(name) && field?.element ? field.element : field?.fields?.[name];
  return field;
}

/** Does the field at `path` carry a check of ours (a localized message)? */
function hasOwnCheck(document: foundry.abstract.Document.Any, path: string): boolean {
  return typeof fieldAt(document, path)?.options?.validate === 'function';
}

/** One line per refused field: "{field} stays {stored}: {reason}"; a refusal of the model as a whole (its values together, path `system`) as "Not saved: {reason}". */
function fieldLines(document: foundry.abstract.Document.Any, failures: Record<string, Failure>): string[] {
  const source = (document as unknown as { _source: object })._source;
  return Object.entries(failures).map(([path, failure]) => {
    if (path === 'system' || fieldAt(document, path)?.fields) return text('Joint', { reason: failure.message ?? '' });
    const { kind, reason } = reasonOf(failure, hasOwnCheck(document, path));
    return text(kind, {
      field: labelOf(document, path),
      stored: shown(foundry.utils.getProperty(source, path)),
      value: shown(failure.invalidValue),
      reason,
    });
  });
}

/**
 * The values together, as the update would have them: the model's
 * validateJoint on the stored system data with the submitted one merged in.
 * Its message (ours, localized) when it refuses them, else null.
 */
function jointRefusal(document: foundry.abstract.Document.Any, submitData: Record<string, unknown>): string | null {
  const doc = document as unknown as { system?: { constructor: ModelClass; toObject(): object } };
  const system = (foundry.utils.expandObject(submitData) as { system?: object }).system;
  const model = doc.system?.constructor;
  if (!system || !model?.validateJoint) return null;
  const next = foundry.utils.mergeObject(doc.system!.toObject(), system, { inplace: false, performDeletions: true });
  try {
    model.validateJoint(next);
    return null;
  } catch (err) {
    return text('Joint', { reason: (err as Error).message });
  }
}

/** The refusal told and the form back to the stored values: an Error whose message is the GM's words (core's submit path shows it). */
function refuse(sheet: RefusingSheet, message: string): Error {
  void sheet.render();
  const error = new Error(message);
  error.name = `${SYSTEM_ID}.SheetRefusal`;
  return error;
}

/**
 * What core's submit path does after `_prepareSubmitData` threw: a
 * validation error of the document's fields becomes the refusal in words
 * (and the sheet is drawn again from what is stored); anything else goes
 * on as it came.
 */
export function refusedFields(sheet: RefusingSheet, error: unknown): unknown {
  const failures = (error as ValidationError | null)?.getAllFailures?.();
  if (!failures || !Object.keys(failures).length) return error;
  return refuse(sheet, fieldLines(sheet.document, failures).join(' '));
}

/** After core's checks passed: the values together refused by the model, as a refusal in words (thrown); else nothing. */
export function checkJoint(sheet: RefusingSheet, submitData: Record<string, unknown>): void {
  const message = jointRefusal(sheet.document, submitData);
  if (message) throw refuse(sheet, message);
}
