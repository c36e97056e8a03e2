/**
 * Documents, collections and the client side of the database workflow,
 * after the v13 client (ClientDatabaseBackend, ClientDocumentMixin): the
 * pre-steps and pre-hooks run on the initiating client only, the request
 * goes to the server (server.ts: core's base rules only), and every client
 * applies the server's result to its own copy and runs its post callbacks
 * and hooks, as itself, with the author's id from the server.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { CONST, DOCUMENT_OWNERSHIP_LEVELS as LEVELS, USER_PERMISSIONS, USER_ROLES } from './constants';
import {
  BooleanField,
  DataModel,
  DocumentIdField,
  DocumentOwnershipField,
  DocumentStatsField,
  DocumentTypeField,
  FilePathField,
  ForeignDocumentField,
  HTMLField,
  JSONField,
  NumberField,
  ObjectField,
  SchemaField,
  StringField,
  TypeDataField,
  TypeDataModel,
  ArrayField,
  configRef,
  normalizeSpecialKeys,
  worldCollections,
  worldOf,
} from './fields';
import { hooks } from './hooks';
import { currentClient, currentEndpoint, openPending, ownerOf, popPending, recordError, setOwner, state, type Endpoint } from './state';
import { ForcedDeletion, deepClone, expandObject, getProperty, isEmpty, mergeObject } from './utils';
import { encode } from './wire';
import { sheetOf } from './sheets';
import type { ClientOnlyOperation, DeleteClientOnlyOperation, RenderOption, UpdateClientOnlyOperation, UpdateDefaults, UserQuery } from './shapes';

const CONFIG = () => configRef.CONFIG;
export const getDocumentClass = (name: string): any => CONFIG()?.[name]?.documentClass;

/* ------------------------------------------------------------ collections */

export class Collection<V = any> extends Map<string, V> {
  override get(key: string, { strict = false }: { strict?: boolean } = {}): V | undefined {
    const v = super.get(key);
    if (strict && v === undefined) throw new Error(`The key ${key} does not exist in the ${this.constructor.name} Collection`);
    return v;
  }
  override [Symbol.iterator](): any {
    return this.values();
  }
  get contents(): V[] {
    return Array.from(this.values());
  }
  filter(fn: (v: V, i: number, c: this) => unknown): V[] {
    return this.contents.filter((v, i) => fn(v, i, this));
  }
  map<T>(fn: (v: V, i: number, c: this) => T): T[] {
    return this.contents.map((v, i) => fn(v, i, this));
  }
  find(fn: (v: V, i: number, c: this) => unknown): V | undefined {
    return this.contents.find((v, i) => fn(v, i, this));
  }
  some(fn: (v: V, i: number, c: this) => unknown): boolean {
    return this.contents.some((v, i) => fn(v, i, this));
  }
  every(fn: (v: V, i: number, c: this) => unknown): boolean {
    return this.contents.every((v, i) => fn(v, i, this));
  }
  reduce<T>(fn: (acc: T, v: V, i: number) => T, initial: T): T {
    return this.contents.reduce(fn, initial);
  }
  getName(name: string, { strict = false } = {}): V | undefined {
    const v = this.find((d: any) => d.name === name);
    if (strict && !v) throw new Error(`An entry with name ${name} does not exist in the collection`);
    return v;
  }
}

export class DocumentCollection extends Collection<any> {
  constructor(readonly documentName: string) {
    super();
  }
  get documentClass(): any {
    return getDocumentClass(this.documentName);
  }
  override get(key: string, { strict = false }: { strict?: boolean } = {}): any {
    const v = Map.prototype.get.call(this, key);
    if (strict && v === undefined) throw new Error(`${this.documentName} id [${key}] does not exist in the ${this.constructor.name} collection.`);
    return v;
  }
  get name(): string {
    return this.documentName;
  }
}

/** A write to a compendium (a document of a pack, or `{pack}` in the operation): core refuses it when the pack is locked; the stand-in always does. */
export function refuseCompendiumWrite(pack: string | null | undefined, action: string): void {
  if (!pack) return;
  const locked = (globalThis as any).game?.packs?.get(pack)?.locked ?? true;
  throw new Error(locked ? `You may not ${action} documents in the locked compendium ${pack}.` : `The stand-in does not write to compendium packs (${pack}): import the document into the world first.`);
}

/** A world collection belongs to the endpoint (client or server) it was made on. */
export class WorldCollection extends DocumentCollection {
  constructor(documentName: string) {
    super(documentName);
    setOwner(this, currentEndpoint());
  }
  /**
   * Core's fromCompendium: the data of a compendium document for a world document: no id (unless keepId),
   * no sort (clearSort), the running user its owner (clearOwnership), folder kept unless clearFolder, and
   * `_stats.compendiumSource` its uuid (`duplicateSource` cleared).
   */
  fromCompendium(document: any, { clearFolder = false, clearSort = true, clearOwnership = true, keepId = false }: { clearFolder?: boolean; clearSort?: boolean; clearOwnership?: boolean; keepId?: boolean } = {}): any {
    const data = document instanceof DataModel ? document.toObject() : deepClone(document);
    if (!keepId) delete data._id;
    if (clearFolder) delete data.folder;
    if (clearSort) delete data.sort;
    if (clearOwnership && 'ownership' in data) data.ownership = { default: LEVELS.NONE, [state.user?.id]: LEVELS.OWNER };
    if (document?.pack) data._stats = { ...(data._stats ?? {}), compendiumSource: document.uuid, duplicateSource: null };
    return data;
  }
  /** Core's importFromCompendium: the pack's document through fromCompendium, updateData merged, created in the world. */
  async importFromCompendium(pack: any, id: string, updateData: any = {}, options: any = {}): Promise<any> {
    if (pack.documentName !== this.documentName) throw new Error(`The ${pack.documentName} Document type provided by Compendium ${pack.collection} is incorrect for this Collection`);
    const document = await pack.getDocument(id);
    const data = mergeObject(this.fromCompendium(document, options), updateData);
    const { clearFolder: _f, clearSort: _s, clearOwnership: _o, ...rest } = options;
    return this.documentClass.create(data, { ...rest, fromCompendium: true });
  }
}

export class Scenes extends WorldCollection {
  _viewed: any = null;
  constructor() {
    super('Scene');
  }
  get active(): any {
    return this.find((s: any) => s.active) ?? null;
  }
  get current(): any {
    return this.active;
  }
  get viewed(): any {
    return (this._viewed && this.get(this._viewed.id)) || this.active;
  }
}

export class EmbeddedCollection extends DocumentCollection {
  constructor(
    readonly collectionName: string,
    readonly parent: any,
    documentName: string,
  ) {
    super(documentName);
  }
  override get name(): string {
    return this.collectionName;
  }
}

/* --------------------------------------------------------------- Document */

const PERMS = { view: 'LIMITED', create: 'ASSISTANT', update: 'OWNER', delete: 'ASSISTANT' };

export class Document extends DataModel {
  static metadata: any = { name: 'Document', collection: null, embedded: {}, hasTypeData: false, isEmbedded: false, permissions: PERMS };
  /** Types besides those of CONFIG[name].dataModels: "base" where core defines it. */
  static baseTypeAlways = false;

  static get documentName(): string {
    return this.metadata.name;
  }
  get documentName(): string {
    return (this.constructor as typeof Document).documentName;
  }
  static get implementation(): any {
    return getDocumentClass(this.documentName) ?? this;
  }
  static get TYPES(): string[] {
    // The server knows the types of the system's manifest, not its data models
    const serverTypes = CONFIG()?.[this.documentName]?.serverTypes;
    if (serverTypes) return [...serverTypes];
    // A client knows the world's types (game.documentTypes, from the manifest as the server read it), not its data
    // models: a model for a type the manifest lacks makes no valid type (Conformance P2; the stricter reading).
    const worldTypes = (globalThis as any).game?.documentTypes?.[this.documentName];
    if (Array.isArray(worldTypes)) return [...worldTypes];
    const types = Object.keys(CONFIG()?.[this.documentName]?.dataModels ?? {});
    if (this.baseTypeAlways || !types.length) types.unshift(CONST.BASE_DOCUMENT_TYPE);
    return types;
  }
  static get hasTypeData(): boolean {
    return !!this.metadata.hasTypeData;
  }
  static get hierarchy(): Record<string, string> {
    return this.metadata.embedded ?? {};
  }

  declare apps: Record<string, any>;
  declare collections: Record<string, EmbeddedCollection>;

  constructor(data: any = {}, context: any = {}) {
    // The stand-in keeps embedded collections out of the schema (core has them in `_source`): their sources are
    // read before the model cleans the data it owns, which drops them from the caller's object (the stricter).
    if (data instanceof DataModel) data = data.toObject();
    const embeddedData: Record<string, any[]> = {};
    for (const collName of Object.values((new.target as typeof Document).hierarchy)) embeddedData[collName] = data?.[collName] ?? [];
    super(data, { parent: context.parent ?? null, strict: context.strict });
    // A compendium document (tests/standin/packs.ts) knows its pack.
    Object.defineProperty(this, '_packId', { value: context.pack ?? null, enumerable: false });
    if (!this.parent) setOwner(this, currentEndpoint());
    Object.defineProperty(this, 'apps', { value: {}, enumerable: false });
    Object.defineProperty(this, 'collections', { value: {}, enumerable: false });
    const embedded = (this.constructor as typeof Document).hierarchy;
    for (const [docName, collName] of Object.entries(embedded)) {
      const coll = new EmbeddedCollection(collName, this, docName);
      this.collections[collName] = coll;
      Object.defineProperty(this, collName, { value: coll, enumerable: false, configurable: true });
      for (const d of embeddedData[collName]) {
        const child = new (getDocumentClass(docName) ?? Document)(d, { parent: this, _nested: true });
        coll.set(child.id, child);
      }
    }
    if (!context._nested) this._safePrepareData();
  }

  get id(): string | null {
    return this._id ?? null;
  }
  get isEmbedded(): boolean {
    return !!this.parent && !!(this.constructor as typeof Document).metadata.isEmbedded;
  }
  get parentCollection(): string | null {
    return (this.constructor as typeof Document).metadata.collection;
  }
  get collection(): DocumentCollection | undefined {
    if (this.parent) return this.parent.getEmbeddedCollection(this.documentName);
    return worldOf(this).get(this.documentName);
  }
  get uuid(): string {
    const own = `${this.documentName}.${this.id}`;
    if (this.parent) return `${this.parent.uuid}.${own}`;
    return this.pack ? `Compendium.${this.pack}.${own}` : own;
  }
  get inCompendium(): boolean {
    return !!this.pack;
  }
  /** The collection id of the compendium holding this document (an embedded document: its parent's), or null. */
  get pack(): string | null {
    return (this as any)._packId ?? this.parent?.pack ?? null;
  }
  /** The CompendiumCollection holding this document, or null. */
  get compendium(): any {
    return this.pack ? ((globalThis as any).game?.packs?.get(this.pack) ?? null) : null;
  }

  getEmbeddedCollection(name: string): EmbeddedCollection {
    const collName = (this.constructor as typeof Document).hierarchy[name] ?? name;
    const c = this.collections[collName];
    if (!c) throw new Error(`${name} is not a valid embedded Document within the ${this.documentName} Document`);
    return c;
  }
  getEmbeddedDocument(name: string, id: string, { strict = false } = {}): any {
    return this.getEmbeddedCollection(name).get(id, { strict });
  }
  async createEmbeddedDocuments(name: string, data: any[] = [], operation: any = {}): Promise<any[]> {
    this.getEmbeddedCollection(name);
    return getDocumentClass(name).createDocuments(data, { ...operation, parent: this });
  }
  async updateEmbeddedDocuments(name: string, updates: any[] = [], operation: any = {}): Promise<any[]> {
    this.getEmbeddedCollection(name);
    return getDocumentClass(name).updateDocuments(updates, { ...operation, parent: this });
  }
  async deleteEmbeddedDocuments(name: string, ids: string[] = [], operation: any = {}): Promise<any[]> {
    this.getEmbeddedCollection(name);
    return getDocumentClass(name).deleteDocuments(ids, { ...operation, parent: this });
  }

  /* ---------------------------------------------------------- CRUD */

  static async create(data: any, operation: any = {}): Promise<any> {
    const many = Array.isArray(data);
    const created = await this.createDocuments(many ? data : [data], operation);
    return many ? created : created.shift();
  }
  static async createDocuments(data: any[] = [], operation: any = {}): Promise<any[]> {
    return createDocuments(this.implementation, data, operation);
  }
  static async updateDocuments(updates: any[] = [], operation: any = {}): Promise<any[]> {
    return updateDocuments(this.implementation, updates, operation);
  }
  static async deleteDocuments(ids: string[] = [], operation: any = {}): Promise<any[]> {
    return deleteDocuments(this.implementation, ids, operation);
  }
  async update(data: any = {}, operation: any = {}): Promise<any> {
    refuseCompendiumWrite(this.pack, 'update');
    const updates = await (this.constructor as typeof Document).updateDocuments([{ ...data, _id: this.id }], { ...operation, parent: this.parent });
    return updates.shift();
  }
  async delete(operation: any = {}): Promise<any> {
    refuseCompendiumWrite(this.pack, 'delete');
    const deleted = await (this.constructor as typeof Document).deleteDocuments([this.id as string], { ...operation, parent: this.parent });
    return deleted.shift();
  }

  /* --------------------------------------------- lifecycle callbacks */

  async _preCreate(data: any, options: any, user: any): Promise<boolean | void> {
    if (this.system instanceof TypeDataModel) return this.system._preCreate(data, options, user);
  }
  _onCreate(data: any, options: any, userId: string): void {
    if (this.system instanceof TypeDataModel) this.system._onCreate(data, options, userId);
  }
  async _preUpdate(changes: any, options: any, user: any): Promise<boolean | void> {
    if (this.system instanceof TypeDataModel) return this.system._preUpdate(changes, options, user);
  }
  _onUpdate(changed: any, options: RenderOption, userId: string): void {
    if (options.render !== false) this.render(false, { renderContext: `update${this.documentName}`, renderData: changed });
    if (this.system instanceof TypeDataModel) this.system._onUpdate(changed, options, userId);
  }
  async _preDelete(options: any, user: any): Promise<boolean | void> {
    if (this.system instanceof TypeDataModel) return this.system._preDelete(options, user);
  }
  _onDelete(options: any, userId: string): void {
    if (this.system instanceof TypeDataModel) this.system._onDelete(options, userId);
  }
  static async _preCreateOperation(_documents: any[], _operation: any, _user: any): Promise<boolean | void> {}
  static async _onCreateOperation(_documents: any[], _operation: any, _user: any): Promise<void> {}
  static async _preUpdateOperation(_documents: any[], _operation: any, _user: any): Promise<boolean | void> {}
  static async _onUpdateOperation(_documents: any[], _operation: any, _user: any): Promise<void> {}
  static async _preDeleteOperation(_documents: any[], _operation: any, _user: any): Promise<boolean | void> {}
  static async _onDeleteOperation(_documents: any[], _operation: any, _user: any): Promise<void> {}

  _dispatchDescendantDocumentEvents(event: string, collection: string, args: any[], _parent?: any): void {
    _parent ||= this;
    const fn = (this as any)[`_${event}DescendantDocuments`];
    if (!(fn instanceof Function)) throw new Error(`Invalid descendant document event "${event}"`);
    fn.call(this, _parent, collection, ...args);
    this.parent?._dispatchDescendantDocumentEvents?.(event, collection, args, _parent);
  }
  _preCreateDescendantDocuments(..._args: any[]): void {}
  _onCreateDescendantDocuments(_parent: any, collection: string, _documents: any[], data: any, options: RenderOption, _userId?: string): void {
    if (options.render !== false) this.render(false, { renderContext: `create${collection}`, renderData: data });
  }
  _preUpdateDescendantDocuments(..._args: any[]): void {}
  _onUpdateDescendantDocuments(_parent: any, collection: string, _documents: any[], changes: any, options: RenderOption, _userId?: string): void {
    if (options.render !== false) this.render(false, { renderContext: `update${collection}`, renderData: changes });
  }
  _preDeleteDescendantDocuments(..._args: any[]): void {}
  _onDeleteDescendantDocuments(_parent: any, collection: string, _documents: any[], ids: any, options: RenderOption, _userId?: string): void {
    if (options.render !== false) this.render(false, { renderContext: `delete${collection}`, renderData: ids });
  }

  /* ------------------------------------------------- data preparation */

  prepareData(): void {
    const isTypeData = this.system instanceof TypeDataModel;
    if (isTypeData) this.system.prepareBaseData();
    this.prepareBaseData();
    this.prepareEmbeddedDocuments();
    if (isTypeData) this.system.prepareDerivedData();
    this.prepareDerivedData();
  }
  prepareBaseData(): void {}
  prepareEmbeddedDocuments(): void {
    for (const c of Object.values(this.collections ?? {})) for (const d of c) d._safePrepareData();
  }
  prepareDerivedData(): void {}
  _safePrepareData(): void {
    try {
      this.prepareData();
    } catch (err) {
      recordError(`${this.documentName}#prepareData`, err);
    }
  }
  /** Re-initialize from source (with embedded documents) and prepare again. */
  override reset(): void {
    this._reinitialize();
    this._safePrepareData();
  }
  _reinitialize(): void {
    this._initialize();
    for (const c of Object.values(this.collections ?? {})) for (const d of c) d._reinitialize();
  }
  override updateSource(changes: any = {}, options: any = {}): any {
    const diff = super.updateSource(changes, options);
    if (!options.dryRun && this.collections) this._safePrepareData();
    return diff;
  }
  override toObject(source = true): any {
    const data = super.toObject(source);
    for (const [name, c] of Object.entries(this.collections ?? {})) data[name] = c.map((d: any) => d.toObject(source));
    return data;
  }
  /** Core's Document#sheet: one instance of the configured sheet class of the document's type (BaseSheet when none). */
  get sheet(): any {
    return sheetOf(this);
  }
  /** Core's toDragData: {type, uuid}, or {type, data} for a document without an id. */
  toDragData(): { type: string; uuid?: string; data?: any } {
    const dragData: { type: string; uuid?: string; data?: any } = { type: this.documentName };
    if (this.id) dragData.uuid = this.uuid;
    else dragData.data = this.toObject();
    return dragData;
  }
  /** Core's fromDropData: the document of `data.data` (a new one) or of `data.uuid` (fromUuid); of this document class, else an error. */
  static async fromDropData(data: any, _options: any = {}): Promise<any> {
    let document: any = null;
    if (data?.data) document = new this(data.data);
    else if (data?.uuid) document = await (globalThis as any).fromUuid(data.uuid);
    if (!document) throw new Error('Failed to resolve Document from provided DragData. Either data or a UUID must be provided.');
    if (document.documentName !== this.documentName) throw new Error(`Invalid Document type '${document.documentName}' provided to ${this.name}.fromDropData.`);
    // Core flags the source of a document dropped from a compendium, so its copy (item.toObject()) carries it.
    if (document.pack && document.id && !document._source._stats?.compendiumSource) document.updateSource({ '_stats.compendiumSource': document.uuid });
    return document;
  }
  protected override _labelFor(source: any): string {
    return `${this.documentName} [${source?._id ?? 'new'}]`;
  }

  /** Re-render the applications registered in this.apps (each counts its own render). */
  render(force = false, context: any = {}): void {
    for (const app of Object.values(this.apps)) {
      Promise.resolve(app.render(force, deepClone(context))).catch((err) => recordError(`${app.constructor?.name}#render`, err));
    }
  }

  getRollData(): any {
    return {};
  }

  /* ------------------------------------------------------- permissions */

  getUserLevel(user: any = state.user): number {
    if (!user) return LEVELS.NONE;
    if (user.isGM) return LEVELS.OWNER;
    if (this.pack) return this.compendium?.getUserLevel(user) ?? LEVELS.NONE;
    if (this.isEmbedded) return this.parent.getUserLevel(user);
    const ownership = this._source.ownership;
    if (!ownership) return LEVELS.NONE;
    const own = ownership[user.id];
    if (own !== undefined && own !== LEVELS.INHERIT) return own;
    return ownership.default ?? LEVELS.NONE;
  }
  testUserPermission(user: any, permission: string | number, { exact = false } = {}): boolean {
    const level = this.getUserLevel(user);
    const target = typeof permission === 'string' ? (LEVELS as any)[permission] : permission;
    if (target === undefined) throw new Error(`Invalid permission level "${permission}"`);
    return exact ? level === target : level >= target;
  }
  /**
   * v13's rule (common/abstract/document.mjs, build 13.350; v14 taken to be the same): a test function, else a
   * USER_PERMISSIONS name (the user's permission), else a USER_ROLES name (**the role only**: an owner without the
   * role is refused), else a DOCUMENT_OWNERSHIP_LEVELS name (the user's level over the document); anything else
   * is refused. v12's "owner OR role" is gone.
   */
  canUserModify(user: any, action: 'create' | 'update' | 'delete', data: any = {}): boolean {
    const perm = (this.constructor as typeof Document).metadata.permissions?.[action] ?? (PERMS as any)[action];
    if (perm instanceof Function) return perm(user, this, data);
    if (perm in USER_PERMISSIONS) return user.hasPermission(perm);
    if (perm in USER_ROLES) return user.hasRole(perm);
    if (perm in LEVELS) return this.testUserPermission(user, perm);
    return false;
  }
  get isOwner(): boolean {
    return this.testUserPermission(state.user, 'OWNER');
  }
  get permission(): number {
    return this.getUserLevel(state.user);
  }
  get limited(): boolean {
    return this.testUserPermission(state.user, 'LIMITED', { exact: true });
  }
  get visible(): boolean {
    return this.isEmbedded ? this.parent.visible : this.testUserPermission(state.user, 'LIMITED');
  }
  get hasPlayerOwner(): boolean {
    return worldOf(this).get('User')!.some((u: any) => !u.isGM && this.testUserPermission(u, 'OWNER'));
  }

  /* ------------------------------------------------------------- flags */

  static validFlagScopes(): string[] {
    return ['core', 'world', configRef.systemId];
  }
  getFlag(scope: string, key: string): any {
    if (!Document.validFlagScopes().includes(scope)) throw new Error(`Flag scope "${scope}" is not valid or not currently active`);
    if (!this.flags || !(scope in this.flags)) return undefined;
    return getProperty(this.flags[scope], key);
  }
  async setFlag(scope: string, key: string, value: unknown): Promise<any> {
    if (!Document.validFlagScopes().includes(scope)) throw new Error(`Flag scope "${scope}" is not valid or not currently active`);
    return this.update({ [`flags.${scope}.${key}`]: value });
  }
  async unsetFlag(scope: string, key: string): Promise<any> {
    if (!Document.validFlagScopes().includes(scope)) throw new Error(`Flag scope "${scope}" is not valid or not currently active`);
    if (state.generation >= 14) return this.update({ [`flags.${scope}.${key}`]: new ForcedDeletion() });
    const head = key.split('.');
    const tail = `-=${head.pop()}`;
    return this.update({ [['flags', scope, ...head, tail].join('.')]: null });
  }
}

/* -------------------------------------------------- database workflow */

/** Options cross a socket: anything not JSON-serializable is refused. */
function serializeOptions(options: any): any {
  try {
    return JSON.parse(encode(options));
  } catch (err) {
    throw new Error(`Database operation options must be JSON-serializable: ${(err as Error).message}`);
  }
}

function collectionFor(cls: any, parent: any): DocumentCollection {
  if (parent) return parent.getEmbeddedCollection(cls.documentName);
  const c = worldCollections.get(cls.documentName);
  if (!c) throw new Error(`No world collection for ${cls.documentName}`);
  return c;
}

/** A document by uuid in an endpoint's world (an unlinked token's actor included). */
export function fromUuidIn(endpoint: Endpoint, uuid: string): any {
  if (String(uuid).startsWith('Compendium.')) return (endpoint as any).game?.packs?.fromUuid(uuid) ?? null;
  const parts = String(uuid).split('.');
  let doc: any = endpoint.collections.get(parts[0])?.get(parts[1]) ?? null;
  for (let i = 2; doc && i + 1 < parts.length; i += 2) {
    try {
      doc = doc.getEmbeddedDocument(parts[i], parts[i + 1]) ?? (parts[i] === 'Actor' ? doc.actor : null);
    } catch {
      return null;
    }
  }
  return doc;
}

/**
 * The running client's own copy of a document. Tests often hold the GM's
 * copy and act with it as another user (handle.asUser): the operation then
 * works on the acting client's copy, found by uuid; a document that client
 * does not have is an error.
 */
export function localCopy<T>(doc: T): T {
  if (!doc) return doc;
  const here = currentEndpoint();
  if (ownerOf(doc) === here) return doc;
  const own = fromUuidIn(here, (doc as any).uuid);
  if (!own) throw new Error(`${(doc as any).uuid} does not exist on the client of ${here.user?.name ?? here.id}`);
  return own;
}

/** How a client sends its database requests (set by client.ts). */
export const databaseTransport: { request: (request: any) => Promise<any[]> } = {
  request: async () => {
    throw new Error('No server');
  },
};

/**
 * Token movement (set by movement.ts): core's TokenDocument._preUpdateOperation removes the movement
 * instructions (`movement`, `_movementArguments`, the deprecated `teleport`/`forced`) from the operation
 * before it is sent, keeping `_movement`.
 */
export const tokenMovement: { finalize: (options: any) => void } = { finalize: () => {} };

export async function createDocuments(cls: any, data: any[], operation: any = {}): Promise<any[]> {
  const client = currentClient();
  const user = client.user;
  const { parent: given = null, noHook = false, pack, ...options }: ClientOnlyOperation & Record<string, any> = operation;
  refuseCompendiumWrite(pack ?? given?.pack, 'create');
  const parent = localCopy(given);
  const type = cls.documentName;
  const candidates: any[] = [];
  for (let d of data) {
    d = d instanceof DataModel ? d.toObject() : expandObject(d ?? {});
    d = cls.migrateDataSafe(d);
    let doc: any;
    try {
      doc = new cls(deepClone(d), { parent });
    } catch (err) {
      recordError('ClientDatabaseBackend##preCreateDocumentArray', err);
      notifyError((err as Error).message);
      continue;
    }
    let allowed = (await doc._preCreate(d, options, user)) ?? true;
    allowed &&= noHook || hooks.call(`preCreate${type}`, doc, d, options, user.id);
    if (allowed === false) continue;
    candidates.push(doc);
  }
  if (!candidates.length) return [];
  Object.assign(operation, options);
  if ((await cls._preCreateOperation(candidates, operation, user)) === false) return [];
  const sent = serializeOptions(options);
  return databaseTransport.request({ action: 'create', documentName: type, parentUuid: parent?.uuid ?? null, data: candidates.map((d) => d.toObject()), options: sent });
}

export async function updateDocuments(cls: any, updates: any[], operation: any = {}): Promise<any[]> {
  const client = currentClient();
  const user = client.user;
  const { parent: given = null, noHook = false, pack, updates: _u, ...rest }: UpdateClientOnlyOperation & Record<string, any> = operation;
  refuseCompendiumWrite(pack ?? given?.pack, 'update');
  const parent = localCopy(given);
  const options: UpdateDefaults & Record<string, any> = { diff: true, recursive: true, render: true, ...rest };
  // Core's TokenDocument#_preUpdate reads `noHook` from the operation (to skip preMoveToken); not sent.
  if (cls.documentName === 'Token' && noHook) options.noHook = true;
  const type = cls.documentName;
  const collection = collectionFor(cls, parent);
  const documents: any[] = [];
  const toUpdate: any[] = [];
  for (const update of updates) {
    if (!update?._id) throw new Error('You must provide an _id for every object in the update data Array.');
    let changes = normalizeSpecialKeys(update instanceof DataModel ? update.toObject() : expandObject(update));
    const doc = collection.get(update._id, { strict: true });
    // The sub-type travels with a change to `system`, which it interprets
    if ('system' in changes && 'type' in doc._source && !('type' in changes)) changes.type = doc._source.type;
    changes = cls.migrateDataSafe(changes);
    let allowed = (await doc._preUpdate(changes, options, user)) ?? true;
    allowed &&= noHook || hooks.call(`preUpdate${type}`, doc, changes, options, user.id);
    if (allowed === false) continue;
    let diff: any;
    try {
      diff = doc.updateSource(changes, { dryRun: true });
    } catch (err) {
      notifyError((err as Error).message.split('] ').pop() as string);
      recordError('ClientDatabaseBackend##preUpdateDocumentArray', err);
      continue;
    }
    if (options.diff) {
      if (isEmpty(diff)) continue;
      diff._id = doc.id;
      changes = diff;
    } else changes._id = doc.id;
    documents.push(doc);
    toUpdate.push(changes);
  }
  if (!toUpdate.length) return [];
  Object.assign(operation, options);
  if ((await cls._preUpdateOperation(documents, operation, user)) === false) return [];
  if (type === 'Token') {
    tokenMovement.finalize(options);
    delete options.noHook;
  }
  const sent = serializeOptions(options);
  return databaseTransport.request({ action: 'update', documentName: type, parentUuid: parent?.uuid ?? null, updates: toUpdate, options: sent });
}

export async function deleteDocuments(cls: any, ids: string[], operation: any = {}): Promise<any[]> {
  const client = currentClient();
  const user = client.user;
  const { parent: given = null, noHook = false, pack, deleteAll, ids: _i, ...options }: DeleteClientOnlyOperation & Record<string, any> = operation;
  refuseCompendiumWrite(pack ?? given?.pack, 'delete');
  const parent = localCopy(given);
  const type = cls.documentName;
  const collection = collectionFor(cls, parent);
  const targets = deleteAll ? Array.from(collection.keys()) : ids;
  const documents: any[] = [];
  for (const id of targets) {
    const doc = collection.get(id, { strict: true });
    let allowed = (await doc._preDelete(options, user)) ?? true;
    allowed &&= noHook || hooks.call(`preDelete${type}`, doc, options, user.id);
    if (allowed === false) continue;
    documents.push(doc);
  }
  if (!documents.length) return [];
  Object.assign(operation, options);
  if ((await cls._preDeleteOperation(documents, operation, user)) === false) return [];
  const sent = serializeOptions(options);
  return databaseTransport.request({ action: 'delete', documentName: type, parentUuid: parent?.uuid ?? null, ids: documents.map((d) => d.id), options: sent });
}

/**
 * A client receives the server's result of a write (its own or another
 * user's) and applies it to its own copy: preX descendant events, the change,
 * the parent re-prepared, `_onX` and the `xDocument` hook per document, onX
 * descendant events, `_onXOperation`; with the author's id (and User) from
 * the server and the options as sent. A copy that fails this client's
 * validation is left as it was and the error recorded. Runs on the receiving
 * client; resolves with the documents once the async work its callbacks
 * started (turn events) has finished.
 */
export async function receiveModify(msg: any): Promise<any[]> {
  const cls = getDocumentClass(msg.documentName);
  if (!cls) throw new Error(`No ${msg.documentName} document class on this client`);
  const parent = msg.parentUuid ? fromUuidIn(currentEndpoint(), msg.parentUuid) : null;
  if (msg.parentUuid && !parent) return [];
  const collection = collectionFor(cls, parent);
  const { options, userId } = msg;
  const author = worldCollections.get('User')?.get(userId) ?? null;
  const type = cls.documentName;
  const operation = { ...options, parent };
  openPending();
  let documents: any[];
  if (msg.action === 'create') {
    parent?._dispatchDescendantDocumentEvents('preCreate', collection.name, [msg.result, options, userId]);
    const created: [any, any][] = [];
    for (const src of msg.result) {
      try {
        const doc = new cls(deepClone(src), { parent, _nested: !!parent });
        collection.set(doc.id, doc);
        created.push([src, doc]);
      } catch (err) {
        recordError('ClientDatabaseBackend#_handleCreateDocuments', err);
      }
    }
    parent?.reset();
    documents = created.map(([src, doc]) => {
      safeCall(() => doc._onCreate(src, options, userId), `${type}#_onCreate`);
      hooks.callAll(`create${type}`, doc, options, userId);
      return doc;
    });
    parent?._dispatchDescendantDocumentEvents('onCreate', collection.name, [documents, msg.result, options, userId]);
  } else if (msg.action === 'update') {
    parent?._dispatchDescendantDocumentEvents('preUpdate', collection.name, [msg.result, options, userId]);
    const applied: [any, any][] = [];
    for (const change of msg.result) {
      const doc = collection.get(change._id);
      if (!doc) continue;
      try {
        const diff = doc.updateSource(change);
        diff._id = doc.id;
        applied.push([doc, diff]);
      } catch (err) {
        recordError('ClientDatabaseBackend#_handleUpdateDocuments', err);
      }
    }
    parent?.reset();
    documents = applied.map(([doc, diff]) => {
      safeCall(() => doc._onUpdate(diff, options, userId), `${type}#_onUpdate`);
      hooks.callAll(`update${type}`, doc, diff, options, userId);
      return doc;
    });
    parent?._dispatchDescendantDocumentEvents('onUpdate', collection.name, [documents, applied.map(([, d]) => d), options, userId]);
    if (msg.worldTime) (globalThis as any).game.time._receive(msg.worldTime.time, options, userId);
  } else {
    parent?._dispatchDescendantDocumentEvents('preDelete', collection.name, [msg.result, options, userId]);
    const removed = (msg.result as string[]).map((id) => collection.get(id)).filter(Boolean);
    for (const doc of removed) collection.delete(doc.id);
    parent?.reset();
    documents = removed.map((doc) => {
      safeCall(() => doc._onDelete(options, userId), `${type}#_onDelete`);
      hooks.callAll(`delete${type}`, doc, options, userId);
      return doc;
    });
    parent?._dispatchDescendantDocumentEvents('onDelete', collection.name, [documents, msg.result, options, userId]);
  }
  const pending = popPending();
  const hook = { create: '_onCreateOperation', update: '_onUpdateOperation', delete: '_onDeleteOperation' }[msg.action as 'create'];
  await cls[hook](documents, operation, author);
  await Promise.all(pending);
  return documents;
}

function safeCall(fn: () => unknown, location: string): void {
  try {
    const r = fn();
    if (r instanceof Promise) r.catch((err) => recordError(location, err));
  } catch (err) {
    recordError(location, err);
  }
}

/** An error notification on the running client. */
export const notifyError = (message: string): void => {
  currentClient().ui.notifications.error(message);
};

/* ------------------------------------------------------------------ User */

/**
 * BaseUser's permission tests (v13 common code, build 13.350; v14 taken to be the same). Create: an assistant or
 * GM, of a role no higher than their own (special permissions: a full GM). Update: a full GM anything; a banned
 * user nothing; nobody else `permissions` or `passwordSalt`, below assistant neither `name` nor `role`, nor anyone
 * a GM's `password`; no role above one's own; an assistant any user, a player only themselves. Delete: a role at
 * least the user's and at least assistant.
 */
const userPermissions = {
  create: (user: any, doc: any) => {
    if (!user.isGM) return false;
    if (!isEmpty(doc._source.permissions ?? {})) return user.hasRole(USER_ROLES.GAMEMASTER);
    return user.hasRole(doc._source.role);
  },
  update: (user: any, doc: any, changes: any) => {
    if (user.role === USER_ROLES.GAMEMASTER) return true;
    if (user.role === USER_ROLES.NONE) return false;
    const restricted = ['permissions', 'passwordSalt'];
    if (user.role < USER_ROLES.ASSISTANT) restricted.push('name', 'role');
    if (doc._source.role === USER_ROLES.GAMEMASTER) restricted.push('password');
    if (restricted.some((k) => k in changes)) return false;
    if ('role' in changes && !user.hasRole(changes.role)) return false;
    return user.isGM || user.id === doc.id;
  },
  delete: (user: any, doc: any) => user.hasRole(Math.max(USER_ROLES.ASSISTANT, doc._source.role)),
};

export class User extends Document {
  static override metadata = { ...Document.metadata, name: 'User', collection: 'users', permissions: userPermissions };
  static override defineSchema() {
    return {
      _id: new DocumentIdField(),
      name: new StringField({ required: true, blank: false }),
      role: new NumberField({ required: true, nullable: false, integer: true, min: 0, max: 4, initial: USER_ROLES.PLAYER }),
      character: new ForeignDocumentField('Actor'),
      color: new StringField({ initial: '#888888' }),
      permissions: new ObjectField(),
      flags: new ObjectField(),
    };
  }
  /** Connected? Set by the test handle, not stored. */
  active = true;
  get isGM(): boolean {
    return this.role >= USER_ROLES.ASSISTANT;
  }
  get isSelf(): boolean {
    return state.user?.id === this.id;
  }
  get isActiveGM(): boolean {
    return worldOf(this).get('User')!.activeGM?.id === this.id;
  }
  get isBanned(): boolean {
    return this.role === USER_ROLES.NONE;
  }
  hasRole(role: string | number, { exact = false } = {}): boolean {
    const level = typeof role === 'string' ? (USER_ROLES as any)[role] : role;
    if (level === undefined) return false;
    return exact ? this.role === level : this.role >= level;
  }
  hasPermission(permission: string): boolean {
    if (this.role === USER_ROLES.GAMEMASTER) return true;
    if (permission in (this._source.permissions ?? {})) return !!this._source.permissions[permission];
    const p = (USER_PERMISSIONS as any)[permission];
    return p ? this.role >= p.defaultRole : false;
  }
  can(action: string): boolean {
    return action in USER_PERMISSIONS ? this.hasPermission(action) : this.hasRole(action);
  }
  override getUserLevel(user: any = state.user): number {
    return user?.isGM || user?.id === this.id ? LEVELS.OWNER : LEVELS.LIMITED;
  }
  /** Set by index.ts (queries need the world's CONFIG and settings). */
  declare query: UserQuery;
}

export class Users extends WorldCollection {
  constructor() {
    super('User');
  }
  /** The active GM with the highest role, ties by lowest id (one designated GM client). */
  get activeGM(): any {
    let best: any = null;
    for (const u of this.values()) {
      if (!u.active || !u.isGM) continue;
      if (!best || u.role > best.role || (u.role === best.role && u.id < best.id)) best = u;
    }
    return best;
  }
  get current(): any {
    return state.user;
  }
  get players(): any[] {
    return this.filter((u: any) => !u.isGM);
  }
}

/* ----------------------------------------------------------- Actor, Item */

const baseSchema = (cls: any) => ({
  _id: new DocumentIdField(),
  name: new StringField({ required: true, blank: false }),
  type: new DocumentTypeField(cls),
  img: new FilePathField(),
  system: new TypeDataField(cls),
  ownership: new DocumentOwnershipField(),
  flags: new ObjectField(),
  _stats: new DocumentStatsField(),
});

/** Non-GM creators of world actors and items become owners (BaseActor / BaseItem _preCreate: common code, on the client and the server). */
export function grantCreatorOwnership(doc: any, user: any): void {
  if (!doc.parent && !user.isGM && !doc._source.ownership?.[user.id]) doc.updateSource({ ownership: { [user.id]: LEVELS.OWNER } });
}

export class Actor extends Document {
  static override metadata = {
    ...Document.metadata,
    name: 'Actor',
    collection: 'actors',
    embedded: { Item: 'items' },
    hasTypeData: true,
    permissions: {
      create: (user: any) => user.hasPermission('ACTOR_CREATE'),
      update: (user: any, doc: any) => doc.testUserPermission(user, 'OWNER'),
      delete: 'ASSISTANT',
    },
  };
  static override defineSchema() {
    return {
      ...baseSchema(this),
      sort: new NumberField({ integer: true, initial: 0, nullable: false }),
      // Core's PrototypeToken, the part a system sets per actor type: link, side, bars, image, size, sight.
      prototypeToken: new SchemaField({
        name: new StringField({ initial: '' }),
        actorLink: new BooleanField({ initial: false }),
        disposition: new NumberField({ integer: true, initial: -1, nullable: false, choices: [-2, -1, 0, 1] }),
        displayBars: new NumberField({ required: true, integer: true, nullable: false, initial: CONST.TOKEN_DISPLAY_MODES.NONE, choices: Object.values(CONST.TOKEN_DISPLAY_MODES) }),
        bar1: new SchemaField({ attribute: new StringField({ required: true, nullable: true, blank: false, initial: null }) }),
        bar2: new SchemaField({ attribute: new StringField({ required: true, nullable: true, blank: false, initial: null }) }),
        width: new NumberField({ required: true, nullable: false, positive: true, initial: 1 }),
        height: new NumberField({ required: true, nullable: false, positive: true, initial: 1 }),
        texture: new SchemaField({ src: new StringField({ required: true, nullable: true, initial: null }) }),
        sight: new SchemaField({ enabled: new BooleanField({ initial: false }) }),
      }),
    };
  }
  /** Status ids applied by active effects (no ActiveEffect in the stand-in: stays empty unless a test adds to it). */
  statuses = new Set<string>();
  /** Core's temporary effects (those a Token draws as icons): none, as there is no ActiveEffect in the stand-in. */
  get temporaryEffects(): any[] {
    return [];
  }
  /**
   * Core's order: BaseActor's (ownership; the token's name and image from the actor's), the data model's
   * _preCreate, then the client Actor's _applyDefaultTokenSettings (so a bar a data model sets is
   * overwritten by the defaults unless the creation data gives it; a subclass's _preCreate after super wins).
   */
  override async _preCreate(data: any, options: any, user: any) {
    grantCreatorOwnership(this, user);
    const token = this._source.prototypeToken;
    if (!token.name) this.updateSource({ 'prototypeToken.name': this.name });
    if (!token.texture?.src || token.texture.src === CONST.DEFAULT_TOKEN) this.updateSource({ 'prototypeToken.texture.src': this.img ?? CONST.DEFAULT_TOKEN });
    const allowed = await super._preCreate(data, options, user);
    if (allowed === false) return false;
    this._applyDefaultTokenSettings(data, { fromCompendium: !!options.fromCompendium });
    return allowed;
  }
  /** Core's: the world's core.defaultToken, bar1/bar2 from game.system's primary/secondary token attribute, the creation data's prototypeToken over them (from a compendium: the defaults over). */
  _applyDefaultTokenSettings(data: any, { fromCompendium = false }: { fromCompendium?: boolean } = {}): unknown {
    const game = (globalThis as any).game;
    const defaults = deepClone(game.settings.get('core', 'defaultToken') ?? {});
    const { primaryTokenAttribute, secondaryTokenAttribute } = game.system;
    if (primaryTokenAttribute && !('bar1' in defaults)) defaults.bar1 = { attribute: primaryTokenAttribute };
    if (secondaryTokenAttribute && !('bar2' in defaults)) defaults.bar2 = { attribute: secondaryTokenAttribute };
    if (fromCompendium) return this.updateSource({ prototypeToken: defaults });
    const prototypeToken = mergeObject(defaults, expandObject(data ?? {}).prototypeToken ?? {});
    return this.updateSource({ prototypeToken });
  }
  /** A synthetic (unlinked token) actor has the TokenDocument as parent. */
  get isToken(): boolean {
    return this.parent instanceof TokenDocument;
  }
  get token(): any {
    return this.isToken ? this.parent : null;
  }
  get itemTypes(): Record<string, any[]> {
    const types: Record<string, any[]> = Object.fromEntries(Item.TYPES.map((t) => [t, []]));
    for (const i of this.items) (types[i.type] ??= []).push(i);
    return types;
  }
  override getUserLevel(user: any = state.user): number {
    if (!user) return LEVELS.NONE;
    if (user.isGM) return LEVELS.OWNER;
    if (this.pack) return this.compendium?.getUserLevel(user) ?? LEVELS.NONE;
    const ownership = this._source.ownership ?? {};
    return ownership[user.id] ?? ownership.default ?? LEVELS.NONE;
  }
  override getRollData(): any {
    return this.system;
  }
  /** Tokens of this actor in the viewed scene. */
  getActiveTokens(): any[] {
    const scene = worldOf(this).get('Scene')?.viewed;
    if (!scene) return [];
    if (this.isToken) return scene.tokens.get(this.token.id) ? [this.token] : [];
    return scene.tokens.filter((t: any) => t.actorId === this.id && t.actorLink);
  }
  get inCombat(): boolean {
    return worldOf(this).get('Combat')!.some((c: any) => c.getCombatantsByActor(this).length > 0);
  }
  override get uuid(): string {
    return this.isToken ? `${this.parent.uuid}.Actor.${this.id}` : super.uuid;
  }
}

export class Item extends Document {
  static override metadata = {
    ...Document.metadata,
    name: 'Item',
    collection: 'items',
    hasTypeData: true,
    isEmbedded: false,
    permissions: {
      create: (user: any, doc: any) => (doc.parent ? doc.parent.canUserModify(user, 'update') : user.hasPermission('ITEM_CREATE')),
      update: 'OWNER',
      delete: 'OWNER',
    },
  };
  static override defineSchema() {
    return { ...baseSchema(this), sort: new NumberField({ integer: true, initial: 0, nullable: false }) };
  }
  override get isEmbedded(): boolean {
    return !!this.parent;
  }
  get actor(): any {
    return this.parent instanceof Actor ? this.parent : null;
  }
  override async _preCreate(data: any, options: any, user: any) {
    grantCreatorOwnership(this, user);
    return super._preCreate(data, options, user);
  }
  override getRollData(): any {
    return { ...(this.actor?.getRollData() ?? {}), item: this.system };
  }
}

/* --------------------------------------------------------- Scene, Token */

export class Scene extends Document {
  static override metadata = { ...Document.metadata, name: 'Scene', collection: 'scenes', embedded: { Token: 'tokens' } };
  static override defineSchema() {
    return {
      _id: new DocumentIdField(),
      name: new StringField({ required: true, blank: false }),
      active: new BooleanField(),
      width: new NumberField({ integer: true, positive: true, initial: 4000, nullable: false }),
      height: new NumberField({ integer: true, positive: true, initial: 3000, nullable: false }),
      grid: new SchemaField({
        type: new NumberField({ required: true, nullable: false, choices: Object.values(CONST.GRID_TYPES), initial: CONST.GRID_TYPES.SQUARE }),
        size: new NumberField({ required: true, nullable: false, integer: true, min: 50, initial: 100 }),
        distance: new NumberField({ required: true, nullable: false, positive: true, initial: 5 }),
        units: new StringField({ initial: 'ft' }),
      }),
      ownership: new DocumentOwnershipField(),
      flags: new ObjectField(),
      _stats: new DocumentStatsField(),
    };
  }
  declare grid: any;
  protected override _initialize(options: any = {}): void {
    super._initialize(options);
    this.grid = new SquareGrid(this._source.grid);
  }
  get isView(): boolean {
    return worldOf(this).get('Scene')?.viewed === this;
  }
}

/** A square grid (v13 foundry.grid.SquareGrid subset): offsets, centres, measurePath. */
export class SquareGrid {
  type: number;
  size: number;
  sizeX: number;
  sizeY: number;
  distance: number;
  units: string;
  constructor({ type = 1, size = 100, distance = 5, units = 'ft' }: any = {}) {
    if (type !== CONST.GRID_TYPES.SQUARE) throw new Error('The stand-in models square grids only');
    this.type = type;
    this.size = this.sizeX = this.sizeY = size;
    this.distance = distance;
    this.units = units;
  }
  get isSquare(): boolean {
    return true;
  }
  get diagonals(): number {
    return (globalThis as any).game?.settings?.get('core', 'gridDiagonals') ?? CONST.GRID_DIAGONALS.EQUIDISTANT;
  }
  getOffset({ x, y }: { x: number; y: number }): { i: number; j: number } {
    return { i: Math.floor(y / this.size), j: Math.floor(x / this.size) };
  }
  getCenterPoint(c: { i?: number; j?: number; x?: number; y?: number }): { x: number; y: number } {
    const { i, j } = c.i !== undefined ? (c as { i: number; j: number }) : this.getOffset(c as { x: number; y: number });
    return { x: (j + 0.5) * this.size, y: (i + 0.5) * this.size };
  }
  /**
   * Core's SquareGrid#measurePath (v13/v14, 2D): waypoints are points {x, y} or offsets {i, j}; per segment the
   * moves `spaces` (a diagonal is one space; ILLEGAL: two moves, no diagonal), `diagonals`, the `cost` in grid
   * units by the diagonal rule (alternating rules count the diagonals of the whole path), and the `distance`
   * between the points (equal to the cost between square centres). A waypoint's `teleport` makes its segment
   * cost 0; its `cost` (number or function(from, to, distance, waypoint)) replaces the default cost.
   */
  measurePath(waypoints: any[], { cost }: { cost?: any } = {}): any {
    const D = CONST.GRID_DIAGONALS;
    const rule = this.diagonals;
    const zero = () => ({ distance: 0, cost: 0, spaces: 0, diagonals: 0, euclidean: 0 });
    const result: any = { waypoints: [], segments: [], ...zero() };
    if (!waypoints.length) return result;
    const toOffset = (w: any) => (w.x !== undefined ? this.getOffset(w) : { i: w.i, j: w.j });
    const toPoint = (w: any) => (w.x !== undefined ? { x: w.x, y: w.y } : this.getCenterPoint(w));
    let o0 = toOffset(waypoints[0]);
    let p0 = toPoint(waypoints[0]);
    let l0 = rule === D.ALTERNATING_2 ? 1 : 0;
    let dx0 = l0;
    let dy0 = l0;
    let nd = l0 * 1.5;
    let previous: any = { backward: null, forward: null, ...zero() };
    result.waypoints.push(previous);
    for (let k = 1; k < waypoints.length; k++) {
      const w1 = waypoints[k];
      const o1 = toOffset(w1);
      const p1 = toPoint(w1);
      let di = Math.abs(o0.i - o1.i);
      let dj = Math.abs(o0.j - o1.j);
      if (di < dj) [di, dj] = [dj, di];
      let n = di;
      let d = dj;
      let c: number;
      const nd0 = nd;
      if (rule === D.EQUIDISTANT) c = di;
      else if (rule === D.EXACT) c = di + (Math.SQRT2 - 1) * dj;
      else if (rule === D.APPROXIMATE) c = di + 0.5 * dj;
      else if (rule === D.RECTILINEAR) c = di + dj;
      else if (rule === D.ALTERNATING_1 || rule === D.ALTERNATING_2) {
        nd += dj;
        c = di + (Math.floor(nd / 2) - Math.floor(nd0 / 2));
      } else {
        n = di + dj;
        d = 0;
        c = n;
      }
      let dx = Math.abs(p0.x - p1.x) / this.size;
      let dy = Math.abs(p0.y - p1.y) / this.size;
      if (dx < dy) [dx, dy] = [dy, dx];
      let l: number;
      if (rule === D.EQUIDISTANT) l = dx;
      else if (rule === D.EXACT) l = dx + (Math.SQRT2 - 1) * dy;
      else if (rule === D.APPROXIMATE) l = dx + 0.5 * dy;
      else if (rule === D.ALTERNATING_1 || rule === D.ALTERNATING_2) {
        dx0 += dx;
        dy0 += dy;
        const fx = Math.floor(dx0);
        const fy = Math.floor(dy0);
        const a = fx + 0.5 * fy;
        const mx = dx0 - fx;
        const my = dy0 - fy;
        const l1 = Math.floor(a) * (1 - mx) + Math.floor(a + 1) * (mx - my) + Math.floor(a + 1.5) * my;
        l = l1 - l0;
        l0 = l1;
      } else l = dx + dy;
      if (Math.abs(l - c) < 1e-8) l = c;
      const cost1 = w1.cost ?? cost;
      let segCost: number;
      if (cost1 === undefined || c === 0) segCost = w1.teleport ? 0 : c * this.distance;
      else if (typeof cost1 === 'function') segCost = cost1(o0, o1, c * this.distance, w1);
      else segCost = Number(cost1);
      const euclidean = (Math.hypot(p0.x - p1.x, p0.y - p1.y) / this.size) * this.distance;
      const segment = { from: previous, to: null as any, distance: l * this.distance, cost: segCost, spaces: n, diagonals: d, euclidean };
      const current: any = {
        backward: segment,
        forward: null,
        distance: previous.distance + segment.distance,
        cost: previous.cost + segment.cost,
        spaces: previous.spaces + n,
        diagonals: previous.diagonals + d,
        euclidean: previous.euclidean + euclidean,
      };
      segment.to = current;
      previous.forward = segment;
      result.segments.push(segment);
      result.waypoints.push(current);
      previous = current;
      o0 = o1;
      p0 = p1;
    }
    Object.assign(result, { distance: previous.distance, cost: previous.cost, spaces: previous.spaces, diagonals: previous.diagonals, euclidean: previous.euclidean });
    return result;
  }
  /** Core's SquareGrid#getDirectPath (2D): the offsets of a shortest direct path through the waypoints (Bresenham; 4-connected when diagonals are ILLEGAL). */
  getDirectPath(waypoints: any[]): { i: number; j: number }[] {
    if (!waypoints.length) return [];
    const toOffset = (w: any) => (w.x !== undefined ? this.getOffset(w) : { i: w.i, j: w.j });
    const o0 = toOffset(waypoints[0]);
    let { i: i0, j: j0 } = o0;
    const path = [o0];
    const diagonals = this.diagonals !== CONST.GRID_DIAGONALS.ILLEGAL;
    for (let k = 1; k < waypoints.length; k++) {
      const o1 = toOffset(waypoints[k]);
      const { i: i1, j: j1 } = o1;
      if (i0 === i1 && j0 === j1) continue;
      const di = Math.abs(i0 - i1);
      const dj = 0 - Math.abs(j0 - j1);
      const si = i0 < i1 ? 1 : -1;
      const sj = j0 < j1 ? 1 : -1;
      let e = di + dj;
      for (;;) {
        if (diagonals) {
          const e2 = e * 2;
          if (e2 >= dj) {
            e += dj;
            i0 += si;
          }
          if (e2 <= di) {
            e += di;
            j0 += sj;
          }
        } else if (e > 0) {
          e += 2 * dj;
          i0 += si;
        } else {
          e += 2 * di;
          j0 += sj;
        }
        if (i0 === i1 && j0 === j1) break;
        path.push({ i: i0, j: j0 });
      }
      path.push(o1);
      i0 = i1;
      j0 = j1;
    }
    return path;
  }
}

export class TokenDocument extends Document {
  static override metadata = {
    ...Document.metadata,
    name: 'Token',
    collection: 'tokens',
    isEmbedded: true,
    permissions: {
      create: 'TOKEN_CREATE',
      /**
       * BaseToken.#canUpdate (v13 common code, schemaVersion 13.341, build 13.350): a GM anything; in a compendium
       * the owner; with an actor, whoever owns the actor (any field: the server judges no movement it is not sent);
       * a token without an actor (no actorId) **anyone**; an actorId whose actor is gone nobody but a GM.
       */
      update: (user: any, doc: any) => {
        if (user.isGM) return true;
        if (doc.pack) return doc.testUserPermission(user, 'OWNER');
        const actor = doc.actor;
        if (actor) return actor.testUserPermission(user, 'OWNER');
        return !doc._source.actorId;
      },
      delete: 'TOKEN_DELETE',
    },
  };
  static override defineSchema() {
    return {
      _id: new DocumentIdField(),
      name: new StringField({ blank: true }),
      actorId: new ForeignDocumentField('Actor', { idOnly: true }),
      actorLink: new BooleanField(),
      delta: new ObjectField(),
      x: new NumberField({ required: true, integer: true, nullable: false, initial: 0 }),
      y: new NumberField({ required: true, integer: true, nullable: false, initial: 0 }),
      elevation: new NumberField({ required: true, nullable: false, initial: 0 }),
      width: new NumberField({ required: true, nullable: false, positive: true, initial: 1 }),
      height: new NumberField({ required: true, nullable: false, positive: true, initial: 1 }),
      disposition: new NumberField({ required: true, nullable: false, choices: Object.values(CONST.TOKEN_DISPOSITIONS), initial: CONST.TOKEN_DISPOSITIONS.HOSTILE }),
      hidden: new BooleanField(),
      // Core's bars: an attribute path of the actor's system data each (core's initial: game.system's primary/secondary token attribute).
      bar1: new SchemaField({ attribute: new StringField({ required: true, nullable: true, blank: false, initial: null }) }),
      bar2: new SchemaField({ attribute: new StringField({ required: true, nullable: true, blank: false, initial: null }) }),
      flags: new ObjectField(),
      // Core's recorded movement history (v13/v14): measured waypoints; written by the movement workflow (movement.ts).
      _movementHistory: new ArrayField(new ObjectField()),
    };
  }
  declare _synthetic: { key: string; actor: any } | undefined;
  get baseActor(): any {
    return worldOf(this).get('Actor')?.get(this.actorId) ?? null;
  }
  get isLinked(): boolean {
    return this.actorLink;
  }
  /** Linked: the world Actor. Unlinked: a synthetic Actor (base source + delta) whose parent is this token. */
  get actor(): any {
    const base = this.baseActor;
    if (!base) return null;
    if (this.actorLink) return base;
    const key = `${base._source._stats?.modifiedTime}`;
    if (this._synthetic?.key !== key) {
      const src = mergeObject(base.toObject(), deepClone(this._source.delta ?? {}), { inplace: false });
      const actor = new (getDocumentClass('Actor'))(src, { parent: this });
      Object.defineProperty(this, '_synthetic', { value: { key, actor }, writable: true, configurable: true, enumerable: false });
    }
    return this._synthetic!.actor;
  }
  /**
   * Core's TokenDocument.getTrackedAttributes (v13/v14): a DataModel (class or instance) or SchemaField →
   * its schema; a type or nothing → CONFIG.Actor.trackableAttributes when the system set any (the type's,
   * else every type's), else the union over every type's data model. Paths as arrays of keys.
   */
  static getTrackedAttributes(data?: any, _path: string[] = []): { bar: string[][]; value: string[][] } {
    if (data instanceof DataModel || (typeof data === 'function' && data.prototype instanceof DataModel)) return this._getTrackedAttributesFromSchema(data.schema, _path);
    if (data instanceof SchemaField) return this._getTrackedAttributesFromSchema(data, _path);
    if (data && typeof data === 'object') return this._getTrackedAttributesFromObject(data, _path);
    if (!data || typeof data === 'string') {
      const config = this._getConfiguredTrackedAttributes(data);
      if (config) return config;
    }
    const bar = new Set<string>();
    const value = new Set<string>();
    for (const model of Object.values(CONFIG().Actor.dataModels ?? {}) as any[]) {
      const inner = this.getTrackedAttributes(model, _path);
      for (const a of inner.bar) bar.add(a.join('.'));
      for (const a of inner.value) value.add(a.join('.'));
    }
    return { bar: [...bar].map((a) => a.split('.')), value: [...value].map((a) => a.split('.')) };
  }
  /** Core's: CONFIG.Actor.trackableAttributes of the type (else all types' united); undefined when the system configured none. */
  static _getConfiguredTrackedAttributes(type?: string): { bar: string[][]; value: string[][] } | undefined {
    const configured = CONFIG().Actor.trackableAttributes ?? {};
    if (isEmpty(configured)) return undefined;
    let config: { bar: string[]; value: string[] } | undefined = deepClone(type ? configured[type] : undefined);
    if (!config || isEmpty(config)) {
      const bar = new Set<string>();
      const value = new Set<string>();
      for (const attrs of Object.values(configured) as any[]) {
        (attrs.bar ?? []).forEach((a: string) => bar.add(a));
        (attrs.value ?? []).forEach((a: string) => value.add(a));
      }
      config = { bar: [...bar], value: [...value] };
    }
    return { bar: (config.bar ?? []).map((a) => a.split('.')), value: (config.value ?? []).map((a) => a.split('.')) };
  }
  /** Core's: a NumberField is a value; a SchemaField (or embedded model) with `value` and `max` a bar; other schemas recursed. */
  static _getTrackedAttributesFromSchema(schema: SchemaField, _path: string[] = []): { bar: string[][]; value: string[][] } {
    const attributes: { bar: string[][]; value: string[][] } = { bar: [], value: [] };
    for (const [name, field] of Object.entries(schema.fields)) {
      const p = _path.concat([name]);
      if (field instanceof NumberField) attributes.value.push(p);
      if (field instanceof SchemaField) {
        if (field.has('value') && field.has('max')) attributes.bar.push(p);
        else {
          const inner = this._getTrackedAttributesFromSchema(field, p);
          attributes.bar.push(...inner.bar);
          attributes.value.push(...inner.value);
        }
      }
    }
    return attributes;
  }
  /** Core's for plain data: a number is a value; an object with numeric value and max a bar. */
  static _getTrackedAttributesFromObject(data: any, _path: string[] = []): { bar: string[][]; value: string[][] } {
    const attributes: { bar: string[][]; value: string[][] } = { bar: [], value: [] };
    for (const [k, v] of Object.entries(data ?? {})) {
      const p = _path.concat([k]);
      if (typeof v === 'number') attributes.value.push(p);
      else if (v && typeof v === 'object' && !Array.isArray(v)) {
        if (typeof (v as any).value === 'number' && 'max' in (v as any)) attributes.bar.push(p);
        else {
          const inner = this._getTrackedAttributesFromObject(v, p);
          attributes.bar.push(...inner.bar);
          attributes.value.push(...inner.value);
        }
      }
    }
    return attributes;
  }
  override getEmbeddedCollection(name: string): EmbeddedCollection {
    if (name !== 'Actor') return super.getEmbeddedCollection(name);
    const c = new EmbeddedCollection('delta', this, 'Actor');
    const a = this.actor;
    if (a && !this.actorLink) c.set(a.id, a);
    return c;
  }
  override _onUpdateDescendantDocuments(parent: any, collection: string, documents: any[], changes: any[], options: any, userId?: string): void {
    if (collection === 'delta') {
      for (const { _id, _stats, ...c } of changes) mergeObject(this._source.delta, deepClone(c), { performDeletions: true });
    }
    super._onUpdateDescendantDocuments(parent, collection, documents, changes, options, userId);
  }
  override getUserLevel(user: any = state.user): number {
    if (user?.isGM) return LEVELS.OWNER;
    return this.actor?.getUserLevel(user) ?? LEVELS.NONE;
  }
  /** The centre of the token in canvas pixels. */
  getCenterPoint(position: { x?: number; y?: number; width?: number; height?: number } = {}): { x: number; y: number; elevation: number } {
    const size = this.parent?.grid?.size ?? 100;
    const { x = this.x, y = this.y, width = this.width, height = this.height } = position;
    return { x: x + (width * size) / 2, y: y + (height * size) / 2, elevation: this.elevation };
  }
  get center(): { x: number; y: number } {
    return this.getCenterPoint();
  }
  get object(): null {
    return null;
  }
  get combatant(): any {
    return worldOf(this).get('Combat')?.viewed?.getCombatantsByToken(this)[0] ?? null;
  }
  get inCombat(): boolean {
    return !!this.combatant;
  }
}

/* ------------------------------------------------------------ ChatMessage */

export class ChatMessage extends Document {
  static override baseTypeAlways = true;
  static override metadata = {
    ...Document.metadata,
    name: 'ChatMessage',
    collection: 'messages',
    hasTypeData: true,
    /**
     * BaseChatMessage (v13 common code, schemaVersion 13.341): create by a GM as anyone, else only under one's own
     * author and with at least the PLAYER role; nothing else of the message is judged (any flags, content, rolls
     * of any kind). Update and delete: the owner (the author, or a GM).
     */
    permissions: {
      create: (user: any, doc: any) => {
        if (user.isGM) return true;
        if (user.id !== doc._source.author) return false;
        return user.hasRole('PLAYER');
      },
      update: 'OWNER',
      delete: 'OWNER',
    },
  };
  static override defineSchema() {
    return {
      _id: new DocumentIdField(),
      type: new DocumentTypeField(this, { initial: CONST.BASE_DOCUMENT_TYPE }),
      system: new TypeDataField(this),
      style: new NumberField({ required: true, nullable: false, choices: Object.values(CONST.CHAT_MESSAGE_STYLES), initial: 0 }),
      author: new ForeignDocumentField('User', { nullable: false, initial: () => state.user?.id }),
      timestamp: new NumberField({ required: true, nullable: false, initial: () => Date.now() }),
      flavor: new HTMLField(),
      content: new HTMLField(),
      speaker: new SchemaField({
        scene: new ForeignDocumentField('Scene', { idOnly: true }),
        actor: new ForeignDocumentField('Actor', { idOnly: true }),
        token: new ForeignDocumentField('Token', { idOnly: true }),
        alias: new StringField(),
      }),
      whisper: new ArrayField(new ForeignDocumentField('User', { idOnly: true })),
      blind: new BooleanField(),
      rolls: new ArrayField(new JSONField()),
      sound: new FilePathField(),
      emote: new BooleanField(),
      flags: new ObjectField(),
      _stats: new DocumentStatsField(),
    };
  }
  /**
   * `rolls` become Roll instances rebuilt from the stored JSON (Roll.fromJSON
   * set by index.ts), dropping one that fails, in prepareDerivedData as core
   * does: an accessor here would break the next initialization, which
   * assigns every field as core does.
   */
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    const rolls: any[] = [];
    for (const json of this._source.rolls ?? []) {
      try {
        rolls.push(rollFactory.fromJSON(json));
      } catch (err) {
        recordError('ChatMessage#prepareDerivedData', err);
      }
    }
    this.rolls = rolls;
  }
  get isRoll(): boolean {
    return this._source.rolls.length > 0;
  }
  get isAuthor(): boolean {
    return this._source.author === state.user?.id;
  }
  override getUserLevel(user: any = state.user): number {
    if (user?.id === this._source.author) return LEVELS.OWNER;
    return super.getUserLevel(user);
  }
  static getSpeaker({ scene, actor, token, alias }: any = {}): any {
    const scenes = worldCollections.get('Scene');
    if (token) return { scene: token.parent?.id ?? null, token: token.id, actor: token.actor?.id ?? null, alias: alias ?? token.name };
    if (actor) return { scene: (scene ?? scenes?.viewed)?.id ?? null, actor: actor.id, token: null, alias: alias ?? actor.name };
    return { scene: (scene ?? scenes?.viewed)?.id ?? null, actor: null, token: null, alias: alias ?? state.user?.name };
  }
  static getWhisperRecipients(name: string): any[] {
    const users = worldCollections.get('User')!;
    if (name.toLowerCase() === 'gm') return users.filter((u: any) => u.isGM);
    return users.filter((u: any) => u.name === name);
  }
}

/** Set by index.ts (dice module) to rebuild Rolls from ChatMessage JSON. */
export const rollFactory: { fromJSON: (json: string) => any } = { fromJSON: (j) => JSON.parse(j) };

export { TypeDataModel };
