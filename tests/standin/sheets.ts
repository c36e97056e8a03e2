/**
 * Document sheets as core v13/v14 has them: the registry of sheet classes
 * (DocumentSheetConfig.registerSheet and the collections' shorthand, filling
 * each client's CONFIG[doc].sheetClasses, with core's v1 sheets
 * pre-registered under "core"), `document.sheet`, DocumentSheetV2 (core's
 * options, permissions, title, context, submit path), ActorSheetV2 (its drop
 * chain), ItemSheetV2, BaseSheet, and the handle's test helpers that submit a
 * rendered sheet, drop on it, or click one of its actions, as a user would.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { CONST } from './constants';
import { currentEndpoint, ownerOf, runIn } from './state';
import { ApplicationV2, HandlebarsApplicationMixin } from './ui';
import { dataAttr, FormDataExtended, renderedForm, StubElement, StubForm } from './html';
import { expandObject, mergeObject } from './utils';

const g = () => globalThis as any;

/* ----------------------------------------------------------- DocumentSheetV2 */

/** Core's DocumentSheetV2 (v13 applications/api/document-sheet.mjs). */
export class DocumentSheetV2 extends ApplicationV2 {
  static override DEFAULT_OPTIONS: Record<string, any> = {
    id: '{id}',
    tag: 'form',
    classes: ['sheet'],
    document: null,
    viewPermission: CONST.DOCUMENT_OWNERSHIP_LEVELS.LIMITED,
    editPermission: CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER,
    canCreate: false,
    sheetConfig: true,
    form: { handler: onSubmitDocumentForm, submitOnChange: false, closeOnSubmit: false },
    window: { controls: [{ action: 'configureSheet', icon: 'fa-solid fa-gear', label: 'SHEETS.ConfigureSheet', ownership: 'OWNER' }] },
    actions: {
      configureSheet: { handler: () => undefined, buttons: [0] },
      copyUuid: { handler: copyUuid, buttons: [0, 2] },
      editImage: () => undefined,
      importDocument: () => undefined,
    },
  };
  constructor(options: any = {}) {
    if (!options.document) throw new Error('A DocumentSheetV2 application must be provided a Document instance.');
    super(options);
    // Core's _initializeApplicationOptions: uniqueId `${ClassName}-${uuid with dashes}`, the `{id}` of the id.
    const uniqueId = `${this.constructor.name}-${options.document.uuid.replaceAll('.', '-')}`;
    this.options.uniqueId = uniqueId;
    this.options.id = String(this.options.id).replace('{id}', uniqueId);
  }
  get document(): any {
    return this.options.document;
  }
  /** The user this sheet's client runs as. */
  protected get viewer(): any {
    return (this.client as any).user ?? g().game.user;
  }
  /** Core: the document's label and name ("Actor: Orc", the type's label when the document has types). */
  get title(): string {
    const doc = this.document;
    const cls = doc.constructor;
    const typeLabel = cls.hasTypeData ? g().CONFIG[cls.documentName]?.typeLabels?.[doc.type] : undefined;
    return `${g().game.i18n.localize(typeLabel ?? cls.metadata.label ?? `DOCUMENT.${cls.documentName}`)}: ${doc.name ?? doc.id}`;
  }
  /** Core: the user may view the document (viewPermission). */
  get isVisible(): boolean {
    return this.document.testUserPermission(this.viewer, this.options.viewPermission);
  }
  /** Core: not in a locked compendium, and the user has editPermission. */
  get isEditable(): boolean {
    if (this.document.pack) {
      const pack = g().game.packs?.get(this.document.pack);
      if (!pack || pack.locked) return false;
    }
    return this.document.testUserPermission(this.viewer, this.options.editPermission);
  }
  /** Core: a user who may not view the document is refused (render warns and renders nothing). */
  override _canRender(options: any): boolean | void {
    super._canRender(options);
    if (!this.isVisible) {
      const type = g().game.i18n.localize(this.document.constructor.metadata.label ?? this.document.documentName);
      throw new Error(g().game.i18n.format('SHEETS.DocumentSheetPrivate', { type }) === 'SHEETS.DocumentSheetPrivate' ? `You do not have permission to view this ${type} sheet.` : g().game.i18n.format('SHEETS.DocumentSheetPrivate', { type }));
    }
  }
  /** Core's common keys. */
  override async _prepareContext(options: any): Promise<any> {
    const context = await super._prepareContext(options);
    const document = this.document;
    return Object.assign(context, {
      document,
      source: document._source,
      fields: document.schema.fields,
      editable: this.isEditable,
      user: g().game.user,
      rootId: document.collection?.has(document.id) ? this.id : g().foundry.utils.randomID(),
    });
  }
  /** Core: the form data expanded to an object. */
  _processFormData(_event: any, _form: any, formData: FormDataExtended): any {
    return expandObject(formData.object);
  }
  /** Core: expand, merge updateData, validate (clean, no fallback) against the document; throws on a bad value. */
  _prepareSubmitData(event: any, form: any, formData: FormDataExtended, updateData?: any): any {
    const submitData = this._processFormData(event, form, formData);
    if (updateData) {
      mergeObject(submitData, updateData, { performDeletions: true });
      mergeObject(submitData, updateData, { performDeletions: false });
    }
    this.document.validate({ changes: submitData, clean: true, fallback: false });
    return submitData;
  }
  /** Core: update the document (create when canCreate and it has no id yet). */
  async _processSubmitData(_event: any, _form: any, submitData: any, options: any = {}): Promise<void> {
    const document = this.document;
    if (this.options.canCreate && !document.id) {
      await document.constructor.create(submitData, options);
      return;
    }
    await document.update(submitData, options);
  }
  override async render(options: any = {}, legacy?: any): Promise<this> {
    this.document.apps[this.id] = this;
    return super.render(options, legacy);
  }
  override async close(options: any = {}): Promise<this> {
    delete this.document.apps[this.id];
    return super.close(options);
  }
}

/** Core's #onSubmitDocumentForm: nothing when not editable; prepare (validate), then process (update). */
async function onSubmitDocumentForm(this: DocumentSheetV2, event: any, form: any, formData: FormDataExtended, options: any = {}): Promise<void> {
  if (!this.isEditable) return;
  const { updateData, ...updateOptions } = options;
  const submitData = this._prepareSubmitData(event, form, formData, updateData);
  await this._processSubmitData(event, form, submitData, updateOptions);
}

/** Core's copyUuid action: the uuid (right click: the id) to the clipboard; here, an info notification. */
function copyUuid(this: DocumentSheetV2, event: any): void {
  event.preventDefault?.();
  const id = event.button === 2 ? this.document.id : this.document.uuid;
  g().ui.notifications.info(`${this.document.documentName} ${id} copied`);
}

/** Core's ActorSheetV2: width 600, the `actor`, and the drop chain (v13/v14). */
export class ActorSheetV2 extends DocumentSheetV2 {
  static override DEFAULT_OPTIONS: Record<string, any> = { position: { width: 600 } };
  get actor(): any {
    return this.document;
  }
  /** The drag data of the event's text/plain JSON (core: TextEditor.getDragEventData; bad JSON → {}). */
  static getDragEventData(event: any): any {
    try {
      return JSON.parse(event.dataTransfer?.getData('text/plain') ?? '');
    } catch {
      return {};
    }
  }
  async _onDrop(event: any): Promise<unknown> {
    const data = ActorSheetV2.getDragEventData(event);
    const actor = this.actor;
    if (g().Hooks.call('dropActorSheetData', actor, this, data) === false) return;
    const documentClass = g().foundry.utils.getDocumentClass(data.type);
    if (documentClass) {
      const document = await documentClass.fromDropData(data);
      return this._onDropDocument(event, document);
    }
  }
  async _onDropDocument(event: any, document: any): Promise<unknown> {
    switch (document.documentName) {
      case 'ActiveEffect':
        return this._onDropActiveEffect(event, document);
      case 'Actor':
        return this._onDropActor(event, document);
      case 'Item':
        return this._onDropItem(event, document);
      case 'Folder':
        return this._onDropFolder(event, document);
    }
  }
  async _onDropActiveEffect(_event: any, _effect: any): Promise<unknown> {
    throw new Error('The stand-in has no ActiveEffect');
  }
  async _onDropActor(_event: any, _actor: any): Promise<unknown> {
    if (!this.actor.isOwner) return null;
    return null;
  }
  async _onDropFolder(_event: any, _folder: any): Promise<unknown> {
    throw new Error('The stand-in has no Folder');
  }
  /** Core: nothing unless the user owns the actor; its own item is sorted; another is created on it (its id kept if free). */
  async _onDropItem(event: any, item: any): Promise<any> {
    if (!this.actor.isOwner) return null;
    if (this.actor.uuid === item.parent?.uuid) return this._onSortItem(event, item);
    const keepId = !this.actor.items.has(item.id);
    const result = await g().Item.implementation.create(item.toObject(), { parent: this.actor, keepId });
    return result ?? null;
  }
  /** Core: sort the item before the item row it was dropped on (integer sort, density 100000). */
  async _onSortItem(event: any, item: any): Promise<any> {
    const items = this.actor.items;
    const source = items.get(item.id);
    const dropTarget = event.target?.closest?.('[data-item-id]');
    if (!dropTarget) return;
    const target = items.get(dropTarget.dataset.itemId);
    if (!target || source.id === target.id) return;
    const siblings = items.filter((i: any) => i.id !== source.id).sort((a: any, b: any) => a.sort - b.sort);
    siblings.splice(siblings.indexOf(target), 0, source);
    const updates = siblings.map((s: any, i: number) => ({ _id: s.id, sort: (i + 1) * 100000 })).filter((u: any) => items.get(u._id).sort !== u.sort);
    return this.actor.updateEmbeddedDocuments('Item', updates);
  }
}

/** Core's ItemSheetV2: the `item`. */
export class ItemSheetV2 extends DocumentSheetV2 {
  get item(): any {
    return this.document;
  }
  get actor(): any {
    return this.document.actor;
  }
}

/** Core's fallback sheet for a sub-type with no sheet (name, image): a small copy of its template. */
export class BaseSheet extends HandlebarsApplicationMixin(DocumentSheetV2) {
  static override DEFAULT_OPTIONS: Record<string, any> = { classes: ['base-sheet'], form: { submitOnChange: true } };
  static override PARTS = { sheet: { template: 'templates/sheets/base-sheet.hbs' } };
}

/** core's v1 sheets (foundry.appv1.sheets): registered as "core" defaults; the stand-in does not render AppV1. */
class V1Sheet {
  constructor(
    readonly object: any,
    readonly options: any = {},
  ) {}
  get document(): any {
    return this.object;
  }
  async render(): Promise<never> {
    throw new Error(`The stand-in does not render v1 sheets (${this.constructor.name}): register an ApplicationV2 sheet with makeDefault`);
  }
}
export class ActorSheet extends V1Sheet {}
export class ItemSheet extends V1Sheet {}

/* -------------------------------------------------------------- registration */

/** What registerSheet reads of its options (contracts.ts: every key declared, every option the typings accept accepted). */
export interface SheetRegistrationOptions {
  label?: string | (() => string) | undefined;
  types?: string[] | undefined;
  themes?: Record<string, string> | null | undefined;
  makeDefault?: boolean | undefined;
  canBeDefault?: boolean | undefined;
  canConfigure?: boolean | undefined;
}

export interface SheetEntry {
  id: string;
  cls: any;
  default: boolean;
  label: string;
  canBeDefault: boolean;
  canConfigure: boolean;
}

/** The document class's name and its sub-types on the running client (game.documentTypes). */
function typesOf(documentClass: any, types?: string[]): string[] {
  const known: string[] = g().game.documentTypes?.[documentClass.documentName] ?? documentClass.TYPES;
  if (!types?.length) return known;
  const unknown = types.filter((t) => !known.includes(t));
  if (unknown.length) throw new Error(`${documentClass.documentName} has no sub-type ${unknown.join(', ')} (its types: ${known.join(', ')})`);
  return types;
}

/**
 * DocumentSheetConfig (foundry.applications.apps.DocumentSheetConfig): registerSheet / unregisterSheet
 * on the running client's CONFIG[doc].sheetClasses[type][`${scope}.${ClassName}`] = {id, cls, default,
 * label, canBeDefault, canConfigure}, as core's _registerSheet. Registering for a sub-type the document
 * does not have is an error (v14's typing; core would register it).
 */
export const DocumentSheetConfig = {
  registerSheet(documentClass: any, scope: string, sheetClass: any, { label, types, makeDefault = false, canBeDefault = true, canConfigure = true, themes }: SheetRegistrationOptions = {}): void {
    if (typeof sheetClass !== 'function') throw new Error('registerSheet needs a sheet class');
    void themes;
    const id = `${scope}.${sheetClass.name}`;
    const classes = (g().CONFIG[documentClass.documentName].sheetClasses ??= {});
    const text = typeof label === 'function' ? label() : label ? g().game.i18n.localize(label) : id;
    for (const t of typesOf(documentClass, types)) {
      classes[t] ??= {};
      if (makeDefault) for (const s of Object.values(classes[t]) as SheetEntry[]) s.default = false;
      classes[t][id] = { id, cls: sheetClass, default: makeDefault, label: text, canBeDefault, canConfigure } satisfies SheetEntry;
    }
  },
  unregisterSheet(documentClass: any, scope: string, sheetClass: any, { types }: { types?: string[] } = {}): void {
    const id = `${scope}.${sheetClass?.name}`;
    const classes = g().CONFIG[documentClass.documentName].sheetClasses ?? {};
    for (const t of typesOf(documentClass, types)) delete classes[t]?.[id];
  },
};

/** Core's own defaults on a new client (v13 _registerDefaultSheets): the v1 Actor and Item sheets under "core", for every sub-type. */
export function registerCoreSheets(CONFIG: any, types: Record<string, string[]>): void {
  for (const [name, cls] of [
    ['Actor', ActorSheet],
    ['Item', ItemSheet],
  ] as const) {
    const classes: Record<string, Record<string, SheetEntry>> = (CONFIG[name].sheetClasses = {});
    for (const t of types[name] ?? ['base']) classes[t] = { [`core.${cls.name}`]: { id: `core.${cls.name}`, cls, default: true, label: `core.${cls.name}`, canBeDefault: true, canConfigure: true } };
  }
}

/** Core's Document#_getSheetClass: the flagged or default class of the document's type, else BaseSheet. */
export function sheetClassOf(doc: any): any {
  const CONFIG = (ownerOf(doc) as any).CONFIG;
  const sheets: Record<string, SheetEntry> = CONFIG[doc.documentName]?.sheetClasses?.[doc.type ?? CONST.BASE_DOCUMENT_TYPE] ?? {};
  const override = doc.flags?.core?.sheetClass ?? null;
  if (override !== null && override in sheets) return sheets[override].cls;
  const classes = Object.values(sheets);
  if (!classes.length) return BaseSheet;
  return (classes.find((s) => s.default) ?? classes[classes.length - 1]).cls;
}

/** Core's Document#sheet: one instance, built on the document's client (`new cls({document})`, a v1 class `new cls(doc, {editable})`). */
export function sheetOf(doc: any): any {
  if (doc._sheet) return doc._sheet;
  const cls = sheetClassOf(doc);
  if (!cls) return null;
  const sheet = runIn(ownerOf(doc), () => (cls.prototype instanceof ApplicationV2 ? new cls({ document: doc }) : new cls(doc, { editable: doc.isOwner })));
  Object.defineProperty(doc, '_sheet', { value: sheet, writable: true, configurable: true, enumerable: false });
  return sheet;
}

/* --------------------------------------------------------- the test's helpers */

async function requireRendered(sheet: any): Promise<StubForm | HTMLElement> {
  await sheet?.renderSettled?.();
  if (!sheet?.rendered) throw new Error(`${sheet?.constructor?.name ?? 'The sheet'} is not rendered: render it first (await sheet.render({force: true}))`);
  return sheet.element ?? renderedForm(sheet);
}

/** Set a control as the user would: a number/text typed as a string, a checkbox checked, a select's option chosen (it must be one). */
function setControl(control: any, value: unknown): void {
  const tag = String(control.tagName ?? control.tag).toLowerCase();
  const type = String(control.type ?? '').toLowerCase();
  if (control.disabled) throw new Error(`The control "${control.name}" is disabled: the user cannot change it`);
  if (tag === 'input' && type === 'checkbox') {
    if (typeof value !== 'boolean') throw new Error(`The checkbox "${control.name}" takes true or false`);
    if (control instanceof StubElement) {
      if (value) control.attrs.checked = '';
      else delete control.attrs.checked;
    } else control.checked = value;
    return;
  }
  const text = value === null || value === undefined ? '' : String(value);
  if (tag === 'select') {
    const options: any[] = control instanceof StubElement ? control.descendants().filter((o) => o.tag === 'option') : [...control.options];
    const values = options.map((o) => (o instanceof StubElement ? o.optionValue : o.value));
    if (!values.includes(text)) throw new Error(`The select "${control.name}" has no option "${text}" (its options: ${values.join(', ')})`);
    if (control instanceof StubElement) {
      for (const o of options) {
        if (o.optionValue === text) o.attrs.selected = '';
        else delete o.attrs.selected;
      }
    }
    else control.value = text;
    return;
  }
  if (control instanceof StubElement) {
    if (tag === 'textarea') control.text = text;
    else control.attrs.value = text;
  } else control.value = text;
}

/**
 * The user edits the rendered sheet and submits it: each name must be an enabled form control in the
 * rendered HTML (else an error); values are set as typed (numbers as strings are fine), then core's path
 * runs: FormDataExtended of the whole form (cast by control type), the form's handler through
 * _onSubmitForm (an error → ui.notifications.error, nothing written).
 */
export async function submitSheet(sheet: any, values: Record<string, unknown>): Promise<void> {
  const form: any = await requireRendered(sheet);
  const controls: any[] = form instanceof StubForm ? form.elements : [...form.elements, ...form.querySelectorAll('prose-mirror[name]')];
  for (const [name, value] of Object.entries(values)) {
    const matching = controls.filter((c) => c.name === name);
    if (!matching.length) throw new Error(`The rendered ${sheet.constructor.name} has no form control named "${name}" (its controls: ${[...new Set(controls.map((c) => c.name))].join(', ')})`);
    if (matching[0].type === 'radio') {
      const radio = matching.find((c) => String(c.value) === String(value));
      if (!radio) throw new Error(`No radio "${name}" with the value "${String(value)}"`);
      for (const c of matching) setControl(c, c === radio);
      continue;
    }
    setControl(matching[0], value);
  }
  const event = { type: 'submit', target: form, currentTarget: form, preventDefault() {}, stopPropagation() {} };
  await runIn(sheet.client, () => sheet._onSubmitForm(sheet.options.form, event));
  await sheet.renderSettled();
}

/** The drag data dropped on the sheet (core's drop event: dataTransfer text/plain JSON); `onItemId`: dropped on that item's row. */
export async function dropOnSheet(sheet: any, dragData: unknown, { onItemId }: { onItemId?: string } = {}): Promise<unknown> {
  const form: any = await requireRendered(sheet);
  let target: any = form;
  if (onItemId) {
    target = form.querySelector(`[data-item-id="${onItemId}"]`);
    if (!target) throw new Error(`The rendered ${sheet.constructor.name} has no element with data-item-id "${onItemId}"`);
  }
  const text = JSON.stringify(dragData);
  const event = {
    type: 'drop',
    target,
    currentTarget: form,
    dataTransfer: { types: ['text/plain'], getData: (type: string) => (type === 'text/plain' ? text : '') },
    preventDefault() {},
    stopPropagation() {},
  };
  if (typeof sheet._onDrop !== 'function') throw new Error(`${sheet.constructor.name} takes no drop`);
  const result = await runIn(sheet.client, () => sheet._onDrop(event));
  await sheet.renderSettled();
  return result;
}

/**
 * The user clicks the rendered element with data-action=`action` whose data-* attributes match `dataset`
 * (one must exist, else an error); its handler runs as core's dispatch calls it (`this` the sheet,
 * (event, target)). The target answers dataset and closest() inside the rendered markup.
 */
export async function clickSheetAction(sheet: any, action: string, dataset: Record<string, string> = {}, { button = 0 }: { button?: number } = {}): Promise<unknown> {
  const form: any = await requireRendered(sheet);
  const candidates: any[] = [...form.querySelectorAll(`[data-action="${action}"]`)];
  const target = candidates.find((el) => Object.entries(dataset).every(([k, v]) => el.getAttribute(dataAttr(k)) === String(v)));
  if (!target) {
    const seen = candidates.map((el) => JSON.stringify({ ...el.dataset })).join(' ');
    throw new Error(`The rendered ${sheet.constructor.name} has no [data-action="${action}"] with ${JSON.stringify(dataset)} (found: ${seen || 'none'})`);
  }
  const event = { type: 'click', button, target, currentTarget: form, preventDefault() {}, stopPropagation() {} };
  let handler = sheet.options.actions?.[action];
  return runIn(sheet.client, async () => {
    if (!handler) return sheet._onClickAction(event, target);
    let buttons = [0];
    if (typeof handler === 'object') {
      buttons = handler.buttons ?? [0];
      handler = handler.handler;
    }
    if (!buttons.includes(button)) return undefined;
    return handler.call(sheet, event, target);
  }).finally(() => sheet.renderSettled());
}

/** The running client (for the handle's helpers). */
export const sheetClient = () => currentEndpoint();
