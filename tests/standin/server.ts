/**
 * The server: the authoritative store of the world's sources, held as core's
 * base document classes (never a system subclass, never a system data model:
 * `system` is a plain object here), with only core's common (base) rules.
 *
 * It refuses what a user may not do by the base classes' permission rules
 * (`canUserModify` of the base class, on the server's own copy), validates
 * core's schema, assigns ids and `_stats`, records the write, and broadcasts
 * the result to every connected client: the others first, in connection
 * order, then the initiator (whose operation then resolves). It runs no hook,
 * no `_pre`/`_on` callback of a client class, no system code at all. It
 * relays `system.<id>` socket messages to every other client with the
 * sender's id, and queries to their recipient.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { Combat, Combatant, CombatantGroup, emptyCollections } from './combat';
import { Actor, ChatMessage, Item, Scene, TokenDocument, User, Users, fromUuidIn, grantCreatorOwnership } from './documents';
import { configRef } from './fields';
import { network } from './network';
import { broadcastBytes, runIn, state, type Endpoint, type ErrorRecord, type RenderRecord } from './state';
import { deepClone, isEmpty, mergeObject, objectsEqual, randomID } from './utils';
import { encode } from './wire';
import type { CreateOptions, ServerAddedOptions, TurnChangeOptions } from './shapes';

/** What the server needs of a client. */
export interface ClientPort extends Endpoint {
  receiveModify(wire: string, requestId?: number): unknown;
  receiveSetting(wire: string, requestId?: number): unknown;
  refused(requestId: number, message: string): void;
  receiveSocket(event: string, wire: string, senderId: string): unknown;
  receiveQuery(name: string, wire: string, timeout: number | undefined, answer: (result: { ok: boolean; wire?: string; message?: string }) => void): unknown;
  receiveAnswer(queryId: number, result: { ok: boolean; wire?: string; message?: string }): unknown;
}

export interface ModifyRequest {
  action: 'create' | 'update' | 'delete';
  documentName: string;
  parentUuid: string | null;
  /** create: the sources */
  data?: any[];
  /** update: the changes, each with its _id */
  updates?: any[];
  /** delete: the ids */
  ids?: string[];
  options: any;
}

export interface ModifyResult {
  action: 'create' | 'update' | 'delete';
  documentName: string;
  parentUuid: string | null;
  /** create: the sources as stored; update: the changes as applied (with _id and _stats); delete: the ids */
  result: any[];
  /** The options as the initiator sent them, plus action and modifiedTime. */
  options: any;
  /** The author, as the server knows the connection. */
  userId: string;
  /** A Combat round/turn change that moved the world clock (option worldTime.delta). */
  worldTime?: { delta: number; time: number };
}

const BASE_CLASSES: Record<string, any> = {
  Actor,
  Item,
  Scene,
  Token: TokenDocument,
  Combat,
  Combatant,
  CombatantGroup,
  ChatMessage,
  User,
};

function serverConfig(documentTypes: Record<string, string[]>): any {
  const config: any = {};
  for (const [name, cls] of Object.entries(BASE_CLASSES)) {
    const types = ['base', ...(documentTypes[name] ?? [])];
    config[name] = { documentClass: cls, dataModels: {}, serverTypes: [...new Set(types)] };
  }
  return config;
}

function refuse(user: any, action: string, doc: any): never {
  throw new Error(`User ${user.name} lacks permission to ${action} ${doc.documentName} [${doc.id ?? 'new'}]`);
}

/** New ids unless keepId; embedded documents keep theirs unless keepEmbeddedIds is false (core's default: kept). */
function assignIds(data: any, cls: any, keepId: boolean, keepEmbeddedIds = true): void {
  if (!keepId || !data._id) data._id = randomID();
  for (const [docName, collName] of Object.entries(cls.hierarchy ?? {})) {
    const childCls = BASE_CLASSES[docName as string];
    for (const child of data[collName as string] ?? []) assignIds(child, childCls, keepEmbeddedIds, keepEmbeddedIds);
  }
}

export class Server implements Endpoint {
  readonly kind = 'server' as const;
  readonly id = 'server';
  readonly collections = new Map<string, any>();
  readonly CONFIG: any;
  readonly game: any;
  readonly hooks = null;
  readonly ui = null;
  readonly user = null;
  readonly errors: ErrorRecord[] = [];
  readonly renders: RenderRecord[] = [];
  renderListeners: ((r: RenderRecord) => void)[] = [];
  connected = true;
  retired = false;
  /** World settings as stored: key → JSON value. */
  readonly settings = new Map<string, unknown>();
  /** Connected clients, in connection order. */
  readonly clients: ClientPort[] = [];

  constructor(documentTypes: Record<string, string[]>, generation: number) {
    this.CONFIG = serverConfig(documentTypes);
    const collections = runIn(this, () => emptyCollections(new Users()));
    for (const [name, c] of Object.entries(collections)) this.collections.set(name, c);
    this.game = { release: { generation }, users: collections.User, actors: collections.Actor, items: collections.Item, scenes: collections.Scene, combats: collections.Combat, messages: collections.ChatMessage };
    this.settings.set('core.time', 0);
  }

  /** Run fn on the server (for the user whose request it handles). */
  run<T>(fn: () => T, user?: any): T {
    return runIn(this, fn, user);
  }

  get worldTime(): number {
    return Number(this.settings.get('core.time') ?? 0);
  }

  /** The server's own copy of a user. */
  userOf(id: string): any {
    return this.collections.get('User').get(id);
  }

  /** Add a user to the world (not through the database: a test operation). */
  addUser(source: any): any {
    return this.run(() => {
      const u = new User(source);
      u.active = false;
      this.collections.get('User').set(u.id, u);
      return u;
    });
  }

  /** Replace the stored world documents by these sources (as the database holds them), keyed by document name. */
  load(sources: Record<string, any[]>): void {
    this.run(() => {
      for (const [name, list] of Object.entries(sources)) {
        const coll = this.collections.get(name);
        if (!coll || name === 'User') throw new Error(`The stand-in's server cannot load ${name} documents`);
        coll.clear();
        for (const src of list ?? []) {
          const doc = new BASE_CLASSES[name](deepClone(src), { strict: false });
          coll.set(doc.id, doc);
        }
      }
    });
  }

  /** The stored sources of a world collection. */
  sources(name: string): any[] {
    return this.run(() => this.collections.get(name).map((d: any) => d.toObject()));
  }

  /* --------------------------------------------------- database requests */

  /** A client's create/update/delete request arrives. */
  modify(from: ClientPort, request: ModifyRequest, requestId: number): void {
    const user = this.userOf(from.id);
    let outcome: ModifyResult;
    try {
      outcome = this.run(() => {
        const applied = this.#apply(request, user);
        this.#writeCombatTurn(applied, request.parentUuid ? fromUuidIn(this, request.parentUuid) : null);
        return applied;
      }, user);
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      this.#send(from, { type: 'refusal', action: request.action, documentName: request.documentName, data: message }, () => from.refused(requestId, message));
      return;
    }
    const wire = encode(outcome);
    if (outcome.result.length) {
      state.writes.push({ documentName: request.documentName, action: request.action, count: outcome.result.length, userId: user.id, bytes: broadcastBytes(outcome.result) });
      for (const client of this.clients) {
        if (client !== from) this.#send(client, { type: 'modifyDocument', action: request.action, documentName: request.documentName, data: wire }, () => client.receiveModify(wire));
      }
    }
    this.#send(from, { type: 'modifyDocument', action: request.action, documentName: request.documentName, data: wire }, () => from.receiveModify(wire, requestId));
  }

  #send(client: ClientPort, message: { type: string; action?: string; documentName?: string; name?: string; data: any }, deliver: () => unknown): void {
    network.send({ from: 'server', to: client.id, ...message }, { fromClient: null, toClient: client }, deliver);
  }

  #collection(documentName: string, parentUuid: string | null): { cls: any; parent: any; collection: any } {
    const cls = BASE_CLASSES[documentName];
    if (!cls) throw new Error(`Unknown document type ${documentName}`);
    let parent: any = null;
    if (parentUuid) {
      parent = fromUuidIn(this, parentUuid);
      if (!parent) throw new Error(`The parent Document ${parentUuid} does not exist`);
      return { cls, parent, collection: parent.getEmbeddedCollection(documentName) };
    }
    if (cls.metadata.isEmbedded) throw new Error(`A ${documentName} must be created within a parent Document`);
    return { cls, parent, collection: this.collections.get(documentName) };
  }

  #apply(request: ModifyRequest, user: any): ModifyResult {
    const { action, documentName, parentUuid } = request;
    const sent = request.options && typeof request.options === 'object' && !Array.isArray(request.options) ? request.options : {};
    const { cls, parent, collection } = this.#collection(documentName, parentUuid);
    const now = Date.now();
    const options: ServerAddedOptions & Record<string, unknown> = { ...sent, action, modifiedTime: now };
    const base = { action, documentName, parentUuid, options, userId: user.id };
    if (action === 'create') return { ...base, result: this.#create(cls, parent, collection, request.data ?? [], user, !!(sent as Partial<CreateOptions>).keepId, now, (sent as { keepEmbeddedIds?: boolean }).keepEmbeddedIds !== false) };
    if (action === 'update') {
      const result = this.#update(parent, collection, request.updates ?? [], user, now);
      const delta = (sent as Partial<TurnChangeOptions>).worldTime?.delta;
      if (documentName === 'Combat' && result.length && typeof delta === 'number' && Number.isFinite(delta) && delta !== 0) {
        this.settings.set('core.time', this.worldTime + delta);
        return { ...base, result, worldTime: { delta, time: this.worldTime } };
      }
      return { ...base, result };
    }
    if (action === 'delete') return { ...base, result: this.#delete(parent, collection, request.ids ?? [], user) };
    throw new Error(`Unknown database action ${String(action)}`);
  }

  /**
   * v13 (issue 25, core build 13.350): a Combatant create, update or delete the user may make carries a
   * `combatTurn` option, and the server writes that turn into the parent combat (no Combat update of its own: the
   * clients apply it from the operation's options, without an updateCombat hook). Written when the operation
   * wrote something (a no-op is broadcast to no one: unconfirmed whether core writes the turn then) and the
   * value is one the Combat's schema takes.
   */
  #writeCombatTurn(outcome: ModifyResult, parent: any): void {
    const turn = outcome.options?.combatTurn;
    if (outcome.documentName !== 'Combatant' || !(parent instanceof Combat) || !outcome.result.length || typeof turn !== 'number') return;
    try {
      parent.updateSource({ turn });
    } catch {
      // A turn the Combat's schema refuses is not written (the operation itself stands).
    }
  }

  #create(cls: any, parent: any, collection: any, data: any[], user: any, keepId: boolean, now: number, keepEmbeddedIds = true): any[] {
    if (!Array.isArray(data)) throw new Error('The create request needs an Array of data');
    const docs = data.map((d) => {
      const doc = new cls(deepClone(d), { parent, _nested: !!parent });
      if (doc instanceof Actor || doc instanceof Item) grantCreatorOwnership(doc, user);
      return doc;
    });
    for (const doc of docs) if (!doc.canUserModify(user, 'create', doc._source)) refuse(user, 'create', doc);
    const result = docs.map((doc) => {
      const src = doc.toObject();
      assignIds(src, cls, keepId, keepEmbeddedIds);
      if ('_stats' in src) Object.assign(src._stats, { createdTime: now, modifiedTime: now, lastModifiedBy: user.id, systemId: configRef.systemId });
      return src;
    });
    for (const src of result) {
      if (collection.has(src._id)) throw new Error(`The ${cls.documentName} id [${src._id}] already exists`);
    }
    for (const src of result) {
      const doc = new cls(deepClone(src), { parent, _nested: !!parent });
      collection.set(doc.id, doc);
    }
    parent?.reset();
    return result;
  }

  #update(parent: any, collection: any, updates: any[], user: any, now: number): any[] {
    if (!Array.isArray(updates)) throw new Error('The update request needs an Array of changes');
    const docs = updates.map((u) => {
      if (!u?._id) throw new Error('You must provide an _id for every object in the update data Array.');
      return collection.get(u._id, { strict: true });
    });
    docs.forEach((doc, i) => {
      if (!doc.canUserModify(user, 'update', updates[i])) refuse(user, 'update', doc);
    });
    const diffs = docs.map((doc, i) => {
      if (doc instanceof Combat) baseCombatPreUpdate(doc, updates[i]);
      const { _id, ...change } = updates[i];
      return doc.updateSource(deepClone(change), { dryRun: true });
    });
    const result: any[] = [];
    docs.forEach((doc, i) => {
      if (isEmpty(diffs[i])) return;
      const { _id, ...change } = deepClone(updates[i]);
      if ('_stats' in doc._source) change._stats = { modifiedTime: now, lastModifiedBy: user.id };
      const diff = doc.updateSource(change);
      diff._id = doc.id;
      // An unlinked token's actor keeps its changes in the token's delta
      if (doc instanceof Actor && doc.parent instanceof TokenDocument) {
        const { _id: _i, _stats, ...delta } = deepClone(diff);
        mergeObject(doc.parent._source.delta, delta, { performDeletions: true });
      }
      result.push(diff);
    });
    parent?.reset();
    return result;
  }

  #delete(parent: any, collection: any, ids: string[], user: any): string[] {
    if (!Array.isArray(ids)) throw new Error('The delete request needs an Array of ids');
    const docs = ids.map((id) => collection.get(id, { strict: true }));
    for (const doc of docs) if (!doc.canUserModify(user, 'delete')) refuse(user, 'delete', doc);
    for (const doc of docs) collection.delete(doc.id);
    parent?.reset();
    return docs.map((d) => d.id);
  }

  /* -------------------------------------------------------------- settings */

  /** A client sets a world setting (core.time included). */
  setting(from: ClientPort, request: { key: string; value: unknown; options: any }, requestId: number): void {
    const user = this.userOf(from.id);
    const exists = this.settings.has(request.key);
    if (!user.hasPermission('SETTINGS_MODIFY')) {
      const message = `User ${user.name} lacks permission to ${exists ? 'update' : 'create'} Setting [${request.key}]`;
      this.#send(from, { type: 'refusal', name: request.key, data: message }, () => from.refused(requestId, message));
      return;
    }
    const changed = !exists || !objectsEqual(this.settings.get(request.key), request.value);
    const message = { key: request.key, value: request.value, options: { ...(request.options ?? {}) }, userId: user.id, changed };
    const wire = encode(message);
    if (changed) {
      state.writes.push({ documentName: 'Setting', action: exists ? 'update' : 'create', count: 1, userId: user.id, bytes: broadcastBytes({ key: request.key, value: request.value }) });
      this.settings.set(request.key, request.value);
      for (const client of this.clients) {
        if (client !== from) this.#send(client, { type: 'setting', name: request.key, data: wire }, () => client.receiveSetting(wire));
      }
    }
    this.#send(from, { type: 'setting', name: request.key, data: wire }, () => from.receiveSetting(wire, requestId));
  }

  /* ---------------------------------------------------------------- socket */

  /** Relay a `system.<id>` socket message to every other connected client, with the sender the server knows. */
  socket(from: ClientPort, event: string, wire: string): void {
    if (event !== `system.${configRef.systemId}`) return;
    for (const client of this.clients) {
      if (client !== from) this.#send(client, { type: 'socket', name: event, data: wire }, () => client.receiveSocket(event, wire, from.id));
    }
  }

  /* --------------------------------------------------------------- queries */

  /** Relay a query to its recipient; its answer goes back to the sender. */
  query(from: ClientPort, request: { to: string; name: string; wire: string; timeout?: number; queryId: number }): void {
    const recipient = this.clients.find((c) => c.id === request.to);
    if (!recipient) {
      const result = { ok: false, message: `User [${request.to}] is not active` };
      this.#send(from, { type: 'queryAnswer', name: request.name, data: result }, () => from.receiveAnswer(request.queryId, result));
      return;
    }
    this.#send(recipient, { type: 'query', name: request.name, data: request.wire }, () =>
      recipient.receiveQuery(request.name, request.wire, request.timeout, (result) => {
        network.send({ from: recipient.id, to: 'server', type: 'queryAnswer', name: request.name, data: result }, { fromClient: recipient, toClient: null }, () => {
          if (this.clients.includes(from)) this.#send(from, { type: 'queryAnswer', name: request.name, data: result }, () => from.receiveAnswer(request.queryId, result));
        });
      }),
    );
  }

  /** What the server knows of a document: its stored source (a copy), or null. */
  source(uuid: string): any {
    return this.run(() => fromUuidIn(this, uuid)?.toObject() ?? null);
  }
}

/** BaseCombat#_preUpdate (common code): a combat cannot be linked to a scene that does not hold all its combatants. */
function baseCombatPreUpdate(combat: any, changes: any): void {
  if (!('scene' in changes)) return;
  const sceneId = changes.scene;
  if (typeof sceneId === 'string' && /^[a-zA-Z0-9]{16}$/.test(sceneId) && combat.combatants.some((c: any) => c.sceneId && c.sceneId !== sceneId)) {
    throw new Error("You cannot link the Combat to a Scene that doesn't contain all its Combatants.");
  }
}
