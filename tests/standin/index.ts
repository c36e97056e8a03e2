/**
 * The in-repo stand-in of the Foundry VTT API (generations 13 and 14) that the
 * Ten Segments Foundry layer is tested against: a server and one client per
 * connected user, in one process. See README.md for what is modelled, from
 * which source, and what is left out.
 *
 *   const foundry = installFoundry({ generation: 13 });
 *   foundry.everyClient(initSystem);
 *   await foundry.asUser(foundry.users.player, () => actor.update({...}));
 *   expect(foundry.writes.count('Actor', 'update')).toBe(1);
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { CONST } from './constants';
import { Combat, CombatEncounters, Combatant, CombatantGroup } from './combat';
import { Roll, Die, NumericTerm, OperatorTerm, StringTerm, applyMode, currentMode, diceSource, legacyToMessageMode } from './dice';
import {
  Actor,
  ChatMessage,
  Collection,
  Document,
  DocumentCollection,
  EmbeddedCollection,
  Item,
  Scene,
  SquareGrid,
  TokenDocument,
  User,
  WorldCollection,
  databaseTransport,
  fromUuidIn,
  getDocumentClass,
  rollFactory,
} from './documents';
import { DataModel, DataModelValidationError, TypeDataModel, configRef, fields } from './fields';
import { ClientKeybindings, KeyboardManager, Localization, queryTransport, userQuery } from './game';
import { hooks } from './hooks';
import { network, type PendingMessage } from './network';
import { currentClient, currentEndpoint, deprecate, mulberry32, resetPending, runAs, runIn, state, type ErrorRecord, type Generation, type RenderRecord, type WriteRecord } from './state';
import { ApplicationV2, CombatTracker, ContextMenu, HandlebarsApplicationMixin, applicationInstances, templates } from './ui';
import { DialogV2 } from './dialog';
import { ActorSheet, ActorSheetV2, BaseSheet, DocumentSheetConfig, DocumentSheetV2, ItemSheet, ItemSheetV2, clickSheetAction, dropOnSheet, submitSheet } from './sheets';
import { SceneConfig } from './scene-config';
import { FormDataExtended } from './html';
import { DataFieldOperator, ForcedDeletion, ForcedReplacement, utils } from './utils';
import { Client, loadLangInto, type LangSource } from './client';
import { createWorld, currentWorld, manifestTypes } from './world';
import { systemPackage, useSystemPackage, type SystemPackage } from './package';
import { resolve as resolvePath } from 'node:path';
import { installCanvas } from './canvas';
import { installMovement } from './movement';
export { dropOnCanvas } from './canvas';
import type { ModifyRequest } from './server';
import type { KeyContext } from './shapes';
import type { ChatCreateOptionsV13, ChatCreateOptionsV14, ChatModeMethodsV13, ChatModeMethodsV14, ChatModeStaticsV13, ChatModeStaticsV14, MessageMode, RollMode } from './shapes';

export interface InstallOptions {
  generation: Generation;
  /** Lang JSON objects or paths of JSON files, loaded into every client's game.i18n. */
  lang?: LangSource | LangSource[];
  /** The system id: a valid flag scope, and the socket event `system.<id>` the server relays. */
  systemId?: string;
  /** Seed for document ids and unscripted dice. */
  seed?: number;
  /** The sub-types the server knows, by document name (default: the documentTypes of the system's manifest as Foundry read it). */
  documentTypes?: Record<string, string[]>;
  /**
   * The system folder the world installs (package.ts): its manifest (validated as Foundry validates it), templates,
   * languages (when `lang` is not given: the manifest's English file) and packs. Default: the repository's sources;
   * built-system.ts reads a built `dist/`.
   */
  system?: SystemPackage;
}

/** What a test sees of one client. */
export interface ClientView {
  /** That client's own copy of its user. */
  readonly user: any;
  readonly game: any;
  readonly Hooks: any;
  readonly ui: any;
  readonly CONFIG: any;
  /** ui.notifications calls on that client. */
  readonly notifications: { type: 'info' | 'warn' | 'error'; message: string }[];
  /** Errors that client caught and logged. */
  readonly errors: ErrorRecord[];
  /** Application renders on that client. */
  readonly renders: RenderRecord[];
  readonly connected: boolean;
  /** Run fn on that client (as asUser). */
  run<T>(fn: () => T | Promise<T>): Promise<T>;
}

/** A modified client: requests straight to the server as that user, no client-side code at all. */
export interface RawClient {
  /**
   * A database request as the client sends it. payload: the sources (create),
   * the changes each with its _id (update), or the ids (delete); options as
   * sent (any JSON); parentUuid for embedded documents. Resolves with that
   * client's documents once it has applied the server's result, or rejects
   * with the server's refusal.
   */
  modify(action: 'create' | 'update' | 'delete', documentName: string, payload: any[], options?: Record<string, unknown>, parentUuid?: string | null): Promise<any[]>;
  /** A socket message as that client sends it. */
  emit(event: string, data: unknown): void;
  /** A query as that client sends it (no check on the sender's side). */
  query(recipient: any, name: string, data: unknown, options?: { timeout?: number }): Promise<unknown>;
}

export interface FoundryHandle {
  readonly generation: Generation;
  /** A fresh world: no documents, hooks, settings, CONFIG customizations, set-ups or records; default users again, all connected. */
  reset(): void;
  /** Run fn on `user`'s client (game, Hooks, ui, CONFIG are that client's inside fn and in its async work only). */
  asUser<T>(user: any, fn: () => T | Promise<T>): Promise<T>;
  /** Make `user`'s client the one that runs the test's code from now on. */
  setUser(user: any): void;
  /** Users, as the running client's copies. setActive connects or disconnects the user's client. */
  users: { gm: any; player: any; player2: any; add(data: { name: string; role?: number; active?: boolean }): any; setActive(user: any, active: boolean): void };
  /** Database writes: one per batched create/update/delete operation the server wrote. */
  writes: { all(): WriteRecord[]; count(documentName?: string, action?: 'create' | 'update' | 'delete'): number; bytes(documentName?: string): number; clear(): void };
  /** Application renders by app id on the GM's client (users.gm): ui.combat counts as "combat". Other clients: client(user).renders. */
  renders: { all(): RenderRecord[]; count(app?: string): number; onRender(fn: (r: RenderRecord) => void): () => void; clear(): void };
  /** ui.notifications calls on the GM's client (users.gm). Other clients: client(user).notifications. */
  readonly notifications: { type: 'info' | 'warn' | 'error'; message: string }[];
  /** Errors Foundry catches and logs, on every client and the server (each with its userId, or "server"). */
  readonly errors: ErrorRecord[];
  readonly deprecations: string[];
  /** What Foundry's setup screen warned of when it read the system's manifest: each field that failed validation and fell back (package.ts). */
  readonly packageWarnings: string[];
  /** One scripted queue for the whole world: whichever client rolls takes the next result. */
  dice: { push(...results: number[]): void; seed(seed: number): void; requireScripted: boolean; readonly remaining: number[]; readonly log: { faces: number; result: number; scripted: boolean }[] };
  /** Merge lang JSON into every client's game.i18n (also those that connect later). */
  loadLang(json: Record<string, unknown> | string): void;
  /** Fire init, i18nInit, setup (then build ui.combat from CONFIG.ui.combat) and ready, on every connected client. */
  boot(): Promise<void>;
  /** Let game.scenes.viewed be this scene, on every client. */
  view(scene: any): void;
  /** Wait until the network has nothing deliverable and the async work it and the hooks started has finished. */
  settle(): Promise<void>;
  /** A context menu over these entries, read in the running generation's shape. */
  contextMenu(entries: any[]): ContextMenu;
  /** Run fn on every connected client now and on every client that connects later (system set-up: initSystem). */
  everyClient(fn: () => unknown): Promise<void>;
  /**
   * The user presses the keys of a registered keybinding action (`namespace.action`) on their client, as
   * core's KeyboardManager runs it: a `restricted` action is skipped for a user who is not a GM; otherwise its
   * `onDown` runs with a keyboard context of its first binding. Returns whether the press was consumed (the
   * handler returned true); false when it did not run. Throws for an action nobody registered.
   */
  pressKey(user: any, action: string): Promise<boolean>;
  /** A user's client, for assertions. */
  client(user: any): ClientView;
  /** The connected clients, in connection order. */
  clients(): ClientView[];
  /** A fresh client for the user (loaded from the server, set-up, init…ready); userConnected on the others. */
  connect(user: any): void;
  /** The user's client goes away; userConnected on the others; game.users.activeGM follows. */
  disconnect(user: any): void;
  /** disconnect, then connect. */
  reload(user: any): void;
  /** The messages between clients and server. */
  network: {
    hold(): void;
    release(): void;
    deliver(n?: number): Promise<void>;
    drop(filter?: ((m: PendingMessage) => boolean) | number): PendingMessage[];
    readonly pending: PendingMessage[];
    readonly held: boolean;
    /** Messages delivered so far. */
    readonly log: PendingMessage[];
  };
  /** A modified client of `user`: requests straight to the server. */
  raw(user: any): RawClient;
  /**
   * The user edits the rendered sheet and submits it: every name must be an enabled form control of the
   * rendered HTML (input/select/textarea/prose-mirror), values set as typed and cast as FormDataExtended
   * does; then core's _onSubmitForm → handler (_prepareSubmitData → validate → _processSubmitData → update);
   * an error becomes ui.notifications.error on the sheet's client and nothing is written.
   */
  submitSheet(sheet: any, values: Record<string, unknown>): Promise<void>;
  /** Drop drag data on the rendered sheet (dataTransfer text/plain JSON) through its _onDrop; `onItemId`: on that item's row. */
  dropOnSheet(sheet: any, dragData: unknown, options?: { onItemId?: string }): Promise<unknown>;
  /** Click the rendered [data-action=action] whose data-* match `dataset` (else an error): the handler as core calls it. */
  clickSheetAction(sheet: any, action: string, dataset?: Record<string, string>, options?: { button?: number }): Promise<unknown>;
  /** The server's store. */
  server: {
    /** Stored sources of a world collection (Actor, Item, Scene, Combat, ChatMessage, User). */
    sources(documentName: string): any[];
    /** The stored source of a document, or null. */
    source(uuid: string): any;
    /** Replace the stored world documents (raw sources by document name), then every connected client reloads its collections from them. */
    load(sources: Record<string, any[]>): void;
    readonly worldTime: number;
    /** World settings as stored. */
    readonly settings: Map<string, unknown>;
  };
}

let options: InstallOptions = { generation: 13 };

/** ChatMessage creation options carry the mode: applied before the pre-create hook, as core does in _preCreate. */
const chatPreCreate = ChatMessage.prototype._preCreate;
ChatMessage.prototype._preCreate = async function (this: any, data: any, opts: ChatCreateOptionsV13 & ChatCreateOptionsV14, user: any) {
  const v14 = state.generation >= 14;
  let mode: RollMode | MessageMode | 'roll' | undefined = v14 ? opts.messageMode : (opts.rollMode as RollMode | 'roll' | undefined);
  if (v14 && !mode && opts.rollMode) {
    deprecate('The rollMode creation option is deprecated in favor of messageMode');
    mode = legacyToMessageMode(opts.rollMode);
  }
  if (mode) this.updateSource(applyMode({}, mode === 'roll' ? currentMode() : mode));
  return chatPreCreate.call(this, data, opts, user);
};

rollFactory.fromJSON = (json: string) => Roll.fromJSON(json);
(User.prototype as any).query = userQuery;
databaseTransport.request = (request: ModifyRequest) => (currentClient() as Client).request(request);
queryTransport.send = (recipientId, name, data, timeout) => (currentClient() as Client).query(recipientId, name, data, timeout);

const fromUuidSync = (uuid: string): any => fromUuidIn(currentEndpoint(), uuid);

/** The generation's API on the shared classes (ChatMessage roll/message modes). */
function installGeneration(): void {
  const g = globalThis as any;
  const settings = () => g.game.settings;
  if (state.generation >= 14) {
    g._del = new ForcedDeletion();
    g._replace = (value: unknown) => ForcedReplacement.create(value);
    g.foundry.data.operators = { DataFieldOperator, ForcedDeletion, ForcedReplacement };
    // Neither v13's applyRollMode nor an applyMode (Conformance: v14 message modes).
    for (const name of ['applyRollMode', 'applyMode']) {
      delete (ChatMessage as any)[name];
      delete (ChatMessage.prototype as any)[name];
    }
    const statics: ChatModeStaticsV14 = {};
    const methods: ChatModeMethodsV14 = {};
    Object.assign(ChatMessage, statics);
    Object.assign(ChatMessage.prototype, methods);
  } else {
    delete g._del;
    delete g._replace;
    delete g.foundry.data.operators;
    delete (ChatMessage as any).applyMode;
    delete (ChatMessage.prototype as any).applyMode;
    const statics: ChatModeStaticsV13 = { applyRollMode: (data, mode) => applyMode(data, mode === 'roll' ? settings().get('core', 'rollMode') : mode) };
    const methods: ChatModeMethodsV13 = {
      applyRollMode(this: any, mode) {
        return this.updateSource(applyMode({}, mode === 'roll' ? settings().get('core', 'rollMode') : mode));
      },
    };
    Object.assign(ChatMessage, statics);
    Object.assign(ChatMessage.prototype, methods);
  }
}

const foundryNamespace = {
  utils: { ...utils, getDocumentClass, Collection },
  data: {
    fields,
    validation: { DataModelValidationError },
  } as any,
  abstract: { DataModel, TypeDataModel, Document },
  documents: {
    BaseActor: Actor,
    Actor,
    Item,
    Scene,
    TokenDocument,
    Combat,
    Combatant,
    CombatantGroup,
    ChatMessage,
    User,
    collections: {
      CombatEncounters,
      WorldCollection,
      DocumentCollection,
      EmbeddedCollection,
      Actors: { registerSheet: (...a: any[]) => (DocumentSheetConfig.registerSheet as any)(Actor, ...a), unregisterSheet: (...a: any[]) => (DocumentSheetConfig.unregisterSheet as any)(Actor, ...a) },
      Items: { registerSheet: (...a: any[]) => (DocumentSheetConfig.registerSheet as any)(Item, ...a), unregisterSheet: (...a: any[]) => (DocumentSheetConfig.unregisterSheet as any)(Item, ...a) },
    },
  },
  dice: { Roll, terms: { Die, NumericTerm, OperatorTerm, StringTerm } },
  grid: { SquareGrid },
  helpers: { interaction: { ClientKeybindings, KeyboardManager } },
  applications: {
    api: { ApplicationV2, HandlebarsApplicationMixin, DocumentSheetV2, DocumentSheet: DocumentSheetV2, DialogV2 },
    sheets: { ActorSheetV2, ItemSheetV2, ActorSheet: ActorSheetV2, ItemSheet: ItemSheetV2, BaseSheet, SceneConfig },
    apps: { DocumentSheetConfig },
    handlebars: { loadTemplates: templates.loadTemplates, renderTemplate: templates.renderTemplate },
    sidebar: { tabs: { CombatTracker } },
    ux: { ContextMenu, FormDataExtended },
    /** The running client's rendered applications by id (ui.ts). */
    get instances() {
      return applicationInstances();
    },
  },
  appv1: {
    sheets: { ActorSheet, ItemSheet },
  },
};

/**
 * `Hooks` while a system module loads (built-system.ts): its body's registrations are recorded, to be made on
 * every client; anything else a module body does with Hooks at load is not modelled (an error).
 */
const moduleLoadHooks = {
  on: (hook: string, fn: (...args: any[]) => unknown) => void state.moduleLoad!.registrations.push({ kind: 'on', hook, fn }),
  once: (hook: string, fn: (...args: any[]) => unknown) => void state.moduleLoad!.registrations.push({ kind: 'once', hook, fn }),
  call: (hook: string) => {
    throw new Error(`Hooks.call("${hook}") while a module loads is not modelled by the stand-in`);
  },
  callAll: (hook: string) => {
    throw new Error(`Hooks.callAll("${hook}") while a module loads is not modelled by the stand-in`);
  },
};

/** The globals of the running client: game, CONFIG, ui and Hooks resolve to it (on the server: its game and CONFIG, no ui, no Hooks). */
function defineClientGlobal(name: string, get: () => unknown): void {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: true,
    get,
    set() {
      throw new Error(`The stand-in's ${name} is the running client's; it cannot be replaced`);
    },
  });
}

function installGlobals(): void {
  const g = globalThis as any;
  g.foundry = foundryNamespace;
  g.CONST = CONST;
  defineClientGlobal('game', () => currentEndpoint().game);
  defineClientGlobal('CONFIG', () => currentEndpoint().CONFIG);
  defineClientGlobal('ui', () => currentEndpoint().ui ?? undefined);
  defineClientGlobal('Hooks', () => (state.moduleLoad ? moduleLoadHooks : currentEndpoint().hooks ? currentEndpoint().hooks : hooks));
  g.Roll = Roll;
  g.Actor = Actor;
  g.Item = Item;
  g.Scene = Scene;
  g.TokenDocument = TokenDocument;
  g.Combat = Combat;
  g.Combatant = Combatant;
  g.CombatantGroup = CombatantGroup;
  g.ChatMessage = ChatMessage;
  g.User = User;
  g.fromUuidSync = fromUuidSync;
  g.fromUuid = async (uuid: string) => fromUuidSync(uuid);
}

/** A fresh world: records cleared, a new server and clients. */
function resetWorld(): void {
  const seed = options.seed ?? 1;
  state.writes = [];
  state.errors = [];
  state.deprecations = [];
  templates.loaded = [];
  templates.rendered = [];
  state.rng = mulberry32(seed);
  diceSource.reset(seed + 41);
  resetPending();
  configRef.systemId = options.systemId ?? 'ten-segments';
  const pkg = useSystemPackage(options.system);
  const manifestLang = options.system ? (pkg.manifest.languages ?? []).filter((l: any) => l.lang === 'en').map((l: any) => resolvePath(pkg.root, l.path)) : [];
  const lang = options.lang === undefined ? manifestLang : Array.isArray(options.lang) ? options.lang : [options.lang];
  createWorld({ generation: state.generation, systemId: configRef.systemId, lang, documentTypes: options.documentTypes ?? manifestTypes() });
}

const world = () => currentWorld();
const userId = (user: any): string => (typeof user === 'string' ? user : user?.id);
/** The running client's copy of a user. */
const localUser = (id: string): any => currentEndpoint().collections.get('User')?.get(id) ?? world().server.userOf(id);
const gmClient = (): Client => world().clientOf(world().defaults.gm);

function view(client: Client): ClientView {
  return {
    get user() {
      return client.user;
    },
    game: client.game,
    Hooks: client.hooks,
    get ui() {
      return client.ui;
    },
    CONFIG: client.CONFIG,
    get notifications() {
      return client.notifications;
    },
    errors: client.errors,
    renders: client.renders,
    get connected() {
      return client.connected;
    },
    run: (fn) => runAs(client, fn),
  };
}

const handle: FoundryHandle = {
  get generation() {
    return state.generation;
  },
  reset: () => resetWorld(),
  asUser: (user, fn) => {
    const client = world().clientOf(userId(user));
    if (!client.connected) return Promise.reject(new Error(`${world().userName(client.id)} is not connected: their client cannot act`));
    return runAs(client, fn);
  },
  setUser: (user) => {
    world().baseUserId = world().clientOf(userId(user)).id;
  },
  users: {
    get gm() {
      return localUser(world().defaults.gm);
    },
    get player() {
      return localUser(world().defaults.player);
    },
    get player2() {
      return localUser(world().defaults.player2);
    },
    add: (data) => localUser(world().addUser(data)),
    setActive: (user, active) => {
      if (active) {
        if (!world().clientOf(userId(user)).connected) world().connect(userId(user));
      } else world().disconnect(userId(user));
    },
  },
  writes: {
    all: () => [...state.writes],
    count: (documentName, action) => state.writes.filter((w) => (!documentName || w.documentName === documentName) && (!action || w.action === action)).length,
    bytes: (documentName) => state.writes.filter((w) => !documentName || w.documentName === documentName).reduce((n, w) => n + w.bytes, 0),
    clear: () => {
      state.writes = [];
    },
  },
  renders: {
    all: () => [...gmClient().renders],
    count: (app) => gmClient().renders.filter((r) => !app || r.app === app).length,
    onRender: (fn) => {
      const client = gmClient();
      client.renderListeners.push(fn);
      return () => {
        client.renderListeners = client.renderListeners.filter((f) => f !== fn);
      };
    },
    clear: () => {
      gmClient().renders.length = 0;
    },
  },
  get notifications() {
    return gmClient().notifications;
  },
  get errors() {
    return state.errors;
  },
  get deprecations() {
    return state.deprecations;
  },
  get packageWarnings() {
    return [...systemPackage().warnings];
  },
  dice: {
    push: (...results) => {
      diceSource.queue.push(...results);
    },
    seed: (seed) => {
      diceSource.random = mulberry32(seed);
    },
    get requireScripted() {
      return diceSource.requireScripted;
    },
    set requireScripted(v: boolean) {
      diceSource.requireScripted = v;
    },
    get remaining() {
      return [...diceSource.queue];
    },
    get log() {
      return diceSource.log;
    },
  },
  loadLang: (json) => {
    world().lang.push(json);
    for (const client of world().clients.values()) loadLangInto(client.game.i18n as Localization, json);
  },
  boot: async () => {
    world().boot();
  },
  view: (scene) => {
    for (const client of world().clients.values()) {
      const scenes = client.collections.get('Scene');
      scenes._viewed = scene ? (scenes.get(scene.id) ?? null) : null;
    }
  },
  settle: () => network.settle(),
  contextMenu: (entries) => new ContextMenu(null, '', entries),
  everyClient: (fn) => world().everyClient(fn),
  submitSheet,
  dropOnSheet,
  clickSheetAction,
  pressKey: (user, action) => {
    const client = world().clientOf(userId(user));
    if (!client.connected) return Promise.reject(new Error(`${world().userName(client.id)} is not connected: their client cannot act`));
    return runAs(client, () => {
      const stored = client.game.keybindings.actions.get(action);
      if (!stored) throw new Error(`${action} is not a registered keybinding action`);
      if (stored.restricted && !client.user.isGM) return false;
      const binding = stored.editable[0] ?? stored.uneditable[0] ?? { key: '', modifiers: [] };
      const modifiers: string[] = [...(binding.modifiers ?? [])];
      const event = { type: 'keydown', code: binding.key, key: binding.key, repeat: false, shiftKey: modifiers.includes('Shift'), ctrlKey: modifiers.includes('Control'), altKey: modifiers.includes('Alt'), metaKey: modifiers.includes('Meta') };
      const context: KeyContext = {
        key: binding.key,
        logicalKey: binding.logicalKey ?? binding.key,
        event: event as unknown as KeyboardEvent,
        isShift: modifiers.includes('Shift'),
        isControl: modifiers.includes('Control') || modifiers.includes('Meta'),
        isAlt: modifiers.includes('Alt'),
        hasModifier: modifiers.length > 0,
        modifiers,
        up: false,
        repeat: false,
        action,
      };
      return stored.onDown?.(context) === true;
    });
  },
  client: (user) => view(world().clientOf(userId(user))),
  clients: () => world().connected.map(view),
  connect: (user) => {
    world().connect(userId(user));
  },
  disconnect: (user) => world().disconnect(userId(user)),
  reload: (user) => {
    world().reload(userId(user));
  },
  network: {
    hold: () => network.hold(),
    release: () => network.release(),
    deliver: (n) => network.deliver(n),
    drop: (filter) => network.drop(filter),
    get pending() {
      return network.pending;
    },
    get held() {
      return network.held;
    },
    get log() {
      return [...network.log];
    },
  },
  raw: (user) => {
    const client = () => world().clientOf(userId(user));
    return {
      modify: (action, documentName, payload, opts = {}, parentUuid = null) => {
        const key = action === 'create' ? 'data' : action === 'update' ? 'updates' : 'ids';
        return client().request({ action, documentName, parentUuid, [key]: payload, options: opts } as ModifyRequest);
      },
      emit: (event, data) => client().emit(event, data),
      query: (recipient, name, data, { timeout } = {}) => client().query(userId(recipient), name, data, timeout),
    };
  },
  server: {
    sources: (documentName) => world().server.sources(documentName),
    source: (uuid) => world().server.source(uuid),
    load: (sources) => {
      world().server.load(sources);
      for (const client of world().connected) client.loadDocuments();
    },
    get worldTime() {
      return world().server.worldTime;
    },
    get settings() {
      return world().server.settings;
    },
  },
};

/** Install (or re-install) the stand-in for a generation, with a fresh world. */
export function installFoundry(opts: InstallOptions): FoundryHandle {
  if (opts.generation !== 13 && opts.generation !== 14) throw new Error(`Unsupported generation ${String(opts.generation)}`);
  options = { ...opts };
  state.generation = opts.generation;
  installGlobals();
  installCanvas();
  installMovement();
  installGeneration();
  resetWorld();
  return handle;
}

/** Run fn on the server (stand-in internals and its own tests). */
export function onServer<T>(fn: () => T): T {
  return runIn(world().server, fn);
}

export { ContextMenu } from './ui';
export type { Generation } from './state';
export type { PendingMessage } from './network';
