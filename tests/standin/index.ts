/**
 * The in-repo stand-in of the Foundry VTT API (generations 13 and 14) that the
 * Ten Segments Foundry layer is tested against. See README.md for what is
 * modelled, from which source, and what is left out.
 *
 *   const foundry = installFoundry({ generation: 13 });
 *   await foundry.asUser(foundry.users.player, () => actor.update({...}));
 *   expect(foundry.writes.count('Actor', 'update')).toBe(1);
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { readFileSync } from 'node:fs';
import { CONST, MESSAGE_MODES, USER_ROLES } from './constants';
import { Combat, CombatEncounters, Combatant, CombatantGroup } from './combat';
import { Roll, Die, NumericTerm, OperatorTerm, StringTerm, applyMode, diceSource, legacyToMessageMode } from './dice';
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
  Users,
  WorldCollection,
  getDocumentClass,
  rollFactory,
  serverEffects,
} from './documents';
import { DataModel, DataModelValidationError, TypeDataModel, configRef, fields, worldCollections } from './fields';
import { ClientSettings, GameTime, Localization, userQuery } from './game';
import { hooks } from './hooks';
import { deprecate, mulberry32, resetPending, runAs, settleOrphans, state, type Generation, type RenderRecord, type WriteRecord } from './state';
import { ActorSheetV2, ApplicationV2, CombatTracker, ContextMenu, DocumentSheetV2, HandlebarsApplicationMixin, ItemSheetV2, Notifications, sheetRegistry, templates } from './ui';
import { DataFieldOperator, ForcedDeletion, ForcedReplacement, utils } from './utils';

export interface InstallOptions {
  generation: Generation;
  /** Lang JSON objects or paths of JSON files, loaded into game.i18n. */
  lang?: Record<string, unknown> | string | (Record<string, unknown> | string)[];
  /** The system id: a valid flag scope. */
  systemId?: string;
  /** Seed for document ids and unscripted dice. */
  seed?: number;
}

export interface FoundryHandle {
  readonly generation: Generation;
  /** A fresh world: no documents, hooks, settings, CONFIG customizations or records; default users again. */
  reset(): void;
  /** Run fn on `user`'s client (game.user is that user inside fn and in its async work only). */
  asUser<T>(user: any, fn: () => T | Promise<T>): Promise<T>;
  /** Make `user` the client that runs the test's code from now on. */
  setUser(user: any): void;
  users: { gm: any; player: any; player2: any; add(data: { name: string; role?: number; active?: boolean }): any; setActive(user: any, active: boolean): void };
  /** Database writes: one per batched create/update/delete operation that reached the database. */
  writes: { all(): WriteRecord[]; count(documentName?: string, action?: 'create' | 'update' | 'delete'): number; bytes(documentName?: string): number; clear(): void };
  /** Application renders by app id: ui.combat counts as "combat"; a document update re-renders the apps in its `apps`. */
  renders: { all(): RenderRecord[]; count(app?: string): number; onRender(fn: (r: RenderRecord) => void): () => void; clear(): void };
  readonly notifications: { type: 'info' | 'warn' | 'error'; message: string }[];
  /** Errors Foundry catches and logs (hook callbacks, data preparation, rejected creations/updates). */
  readonly errors: { location: string; error: Error }[];
  readonly deprecations: string[];
  dice: { push(...results: number[]): void; seed(seed: number): void; requireScripted: boolean; readonly remaining: number[]; readonly log: { faces: number; result: number; scripted: boolean }[] };
  /** Merge lang JSON into game.i18n. */
  loadLang(json: Record<string, unknown> | string): void;
  /** Fire init, i18nInit, setup (then build ui.combat from CONFIG.ui.combat) and ready. */
  boot(): Promise<void>;
  /** Let game.scenes.viewed be this scene. */
  view(scene: any): void;
  /** Wait for async work begun outside any database operation. */
  settle(): Promise<void>;
  /** A context menu over these entries, read in the running generation's shape. */
  contextMenu(entries: any[]): ContextMenu;
}

let options: InstallOptions = { generation: 13 };

class Scenes extends WorldCollection {
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

function loadLangInto(i18n: Localization, lang: InstallOptions['lang']): void {
  const list = lang === undefined ? [] : Array.isArray(lang) ? lang : [lang];
  for (const l of list) i18n.load(typeof l === 'string' ? JSON.parse(readFileSync(l, 'utf8')) : l);
}

function buildConfig(): any {
  const v14 = state.generation >= 14;
  const doc = (documentClass: any, extra: any = {}) => ({ documentClass, dataModels: {}, typeLabels: {}, ...extra });
  return {
    Actor: doc(Actor),
    Item: doc(Item),
    Scene: doc(Scene),
    Token: doc(TokenDocument),
    Combat: doc(Combat, { initiative: { formula: null, decimals: 2 }, sounds: {} }),
    Combatant: doc(Combatant),
    CombatantGroup: doc(CombatantGroup),
    ChatMessage: doc(ChatMessage, v14 ? { modes: Object.fromEntries(MESSAGE_MODES.map((m) => [m, { label: `CHAT.Mode${m}` }])) } : {}),
    User: doc(User),
    Dice: { rolls: [Roll], terms: { d: Die }, randomUniform: () => diceSource.random() },
    queries: {},
    statusEffects: [],
    specialStatusEffects: { DEFEATED: 'dead', INVISIBLE: 'invisible', BLIND: 'blind' },
    time: { turnTime: 0, roundTime: 0 },
    sounds: { dice: 'sounds/dice.wav' },
    ui: { combat: CombatTracker },
    debug: {},
  };
}

function registerCoreSettings(settings: ClientSettings): void {
  if (state.generation >= 14) {
    settings.register('core', 'messageMode', { scope: 'client', type: String, default: 'public', choices: Object.fromEntries(MESSAGE_MODES.map((m) => [m, m])) });
  } else {
    const modes = Object.values(CONST.DICE_ROLL_MODES);
    settings.register('core', 'rollMode', { scope: 'client', type: String, default: CONST.DICE_ROLL_MODES.PUBLIC, choices: Object.fromEntries(modes.map((m) => [m, m])) });
  }
  settings.register('core', 'combatTrackerConfig', { scope: 'world', type: Object, default: { resource: '', skipDefeated: false, turnMarker: { enabled: true } } });
  settings.register('core', 'gridDiagonals', { scope: 'world', type: Number, default: CONST.GRID_DIAGONALS.EQUIDISTANT, choices: Object.values(CONST.GRID_DIAGONALS).map(String) });
}

function makeUser(data: { name: string; role?: number; active?: boolean }): any {
  const u = new User({ _id: utils.randomID(), name: data.name, role: data.role ?? USER_ROLES.PLAYER });
  u.active = data.active ?? true;
  worldCollections.get('User')!.set(u.id, u);
  return u;
}

const defaultUsers: { gm: any; player: any; player2: any } = { gm: null, player: null, player2: null };

/** Put a fresh world on globalThis. */
function resetWorld(): void {
  const seed = options.seed ?? 1;
  state.writes = [];
  state.renders = [];
  state.notifications = [];
  state.errors = [];
  state.deprecations = [];
  state.renderListeners = [];
  sheetRegistry.registered = [];
  templates.loaded = [];
  templates.rendered = [];
  state.rng = mulberry32(seed);
  diceSource.reset(seed + 41);
  resetPending();
  hooks.reset();
  configRef.systemId = options.systemId ?? 'ten-segments';
  const CONFIG = buildConfig();
  configRef.CONFIG = CONFIG;

  worldCollections.clear();
  const users = new Users();
  const collections: Record<string, DocumentCollection> = {
    User: users,
    Actor: new WorldCollection('Actor'),
    Item: new WorldCollection('Item'),
    Scene: new Scenes(),
    Combat: new CombatEncounters(),
    ChatMessage: new WorldCollection('ChatMessage'),
  };
  for (const [name, c] of Object.entries(collections)) worldCollections.set(name, c);

  const settings = new ClientSettings();
  const i18n = new Localization();
  loadLangInto(i18n, options.lang);
  const time = new GameTime();
  const v14 = state.generation >= 14;
  const game: any = {
    release: { generation: state.generation, version: v14 ? '14.360' : '13.351', build: v14 ? 360 : 351 },
    get version() {
      return this.release.version;
    },
    system: { id: configRef.systemId, title: 'Ten Segments', version: '0.1.0', initiative: '1d20' },
    world: { id: 'test-world' },
    ready: false,
    paused: false,
    get user() {
      return state.user;
    },
    get userId() {
      return state.user?.id;
    },
    settings,
    i18n,
    time,
    users,
    actors: collections.Actor,
    items: collections.Item,
    scenes: collections.Scene,
    combats: collections.Combat,
    messages: collections.ChatMessage,
    collections: new Collection(Object.entries(collections)),
    get combat() {
      return (collections.Combat as CombatEncounters).viewed;
    },
  };
  const ui = { notifications: new Notifications(), combat: new CombatTracker() };
  const g = globalThis as any;
  g.game = game;
  g.CONFIG = CONFIG;
  g.ui = ui;

  registerCoreSettings(settings);
  defaultUsers.gm = makeUser({ name: 'Gamemaster', role: USER_ROLES.GAMEMASTER });
  defaultUsers.player = makeUser({ name: 'Player 1' });
  defaultUsers.player2 = makeUser({ name: 'Player 2' });
  state.user = defaultUsers.gm;

  // Generation-specific API surface
  if (v14) {
    g._del = new ForcedDeletion();
    g._replace = (value: unknown) => ForcedReplacement.create(value);
    g.foundry.data.operators = { DataFieldOperator, ForcedDeletion, ForcedReplacement };
    delete (ChatMessage as any).applyRollMode;
    delete (ChatMessage.prototype as any).applyRollMode;
    (ChatMessage as any).applyMode = (data: any, mode?: string) => applyMode(data, mode ?? settings.get('core', 'messageMode'));
    (ChatMessage.prototype as any).applyMode = function (this: any, mode?: string) {
      return this.updateSource(applyMode({}, mode ?? settings.get('core', 'messageMode')));
    };
  } else {
    delete g._del;
    delete g._replace;
    delete g.foundry.data.operators;
    delete (ChatMessage as any).applyMode;
    delete (ChatMessage.prototype as any).applyMode;
    (ChatMessage as any).applyRollMode = (data: any, mode: string) => applyMode(data, mode === 'roll' ? settings.get('core', 'rollMode') : mode);
    (ChatMessage.prototype as any).applyRollMode = function (this: any, mode: string) {
      return this.updateSource(applyMode({}, mode === 'roll' ? settings.get('core', 'rollMode') : mode));
    };
  }
}

serverEffects.afterUpdate = (_type, opts, user) => {
  const delta = opts?.worldTime?.delta;
  if (typeof delta === 'number' && delta !== 0) (globalThis as any).game.time._apply(delta, opts, user.id);
};
rollFactory.fromJSON = (json: string) => Roll.fromJSON(json);
(User.prototype as any).query = userQuery;

/** ChatMessage creation options carry the mode: applied before the pre-create hook, as core does in _preCreate. */
const chatPreCreate = ChatMessage.prototype._preCreate;
ChatMessage.prototype._preCreate = async function (this: any, data: any, opts: any, user: any) {
  const v14 = state.generation >= 14;
  let mode = v14 ? opts.messageMode : opts.rollMode;
  if (v14 && !mode && opts.rollMode) {
    deprecate('The rollMode creation option is deprecated in favor of messageMode');
    mode = legacyToMessageMode(opts.rollMode);
  }
  if (mode) this.updateSource(applyMode({}, mode));
  return chatPreCreate.call(this, data, opts, user);
};

function fromUuidSync(uuid: string): any {
  const parts = String(uuid).split('.');
  let doc: any = worldCollections.get(parts[0])?.get(parts[1]) ?? null;
  for (let i = 2; doc && i + 1 < parts.length; i += 2) {
    try {
      doc = doc.getEmbeddedDocument(parts[i], parts[i + 1]) ?? (parts[i] === 'Actor' ? doc.actor : null);
    } catch {
      return null;
    }
  }
  return doc;
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
      Actors: { registerSheet: (...a: any[]) => (sheetRegistry.registerSheet as any)(Actor, ...a), unregisterSheet: (...a: any[]) => (sheetRegistry.unregisterSheet as any)(Actor, ...a) },
      Items: { registerSheet: (...a: any[]) => (sheetRegistry.registerSheet as any)(Item, ...a), unregisterSheet: (...a: any[]) => (sheetRegistry.unregisterSheet as any)(Item, ...a) },
    },
  },
  dice: { Roll, terms: { Die, NumericTerm, OperatorTerm, StringTerm } },
  grid: { SquareGrid },
  applications: {
    api: { ApplicationV2, HandlebarsApplicationMixin, DocumentSheetV2 },
    sheets: { ActorSheetV2, ItemSheetV2 },
    apps: { DocumentSheetConfig: sheetRegistry },
    handlebars: { loadTemplates: templates.loadTemplates, renderTemplate: templates.renderTemplate },
    sidebar: { tabs: { CombatTracker } },
    ux: { ContextMenu },
  },
};

function installGlobals(): void {
  const g = globalThis as any;
  g.foundry = foundryNamespace;
  g.CONST = CONST;
  g.Hooks = hooks;
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

const handle: FoundryHandle = {
  get generation() {
    return state.generation;
  },
  reset: () => resetWorld(),
  asUser: (user, fn) => runAs(user, fn),
  setUser: (user) => {
    state.user = user;
  },
  users: {
    get gm() {
      return defaultUsers.gm;
    },
    get player() {
      return defaultUsers.player;
    },
    get player2() {
      return defaultUsers.player2;
    },
    add: (data) => makeUser(data),
    setActive: (user, active) => {
      user.active = active;
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
    all: () => [...state.renders],
    count: (app) => state.renders.filter((r) => !app || r.app === app).length,
    onRender: (fn) => {
      state.renderListeners.push(fn);
      return () => {
        state.renderListeners = state.renderListeners.filter((f) => f !== fn);
      };
    },
    clear: () => {
      state.renders = [];
    },
  },
  get notifications() {
    return state.notifications;
  },
  get errors() {
    return state.errors;
  },
  get deprecations() {
    return state.deprecations;
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
  loadLang: (json) => loadLangInto((globalThis as any).game.i18n, json),
  boot: async () => {
    const g = globalThis as any;
    hooks.callAll('init');
    hooks.callAll('i18nInit');
    hooks.callAll('setup');
    g.ui.combat = new g.CONFIG.ui.combat();
    g.game.ready = true;
    hooks.callAll('ready');
  },
  view: (scene) => {
    (worldCollections.get('Scene') as Scenes)._viewed = scene;
  },
  settle: () => settleOrphans(),
  contextMenu: (entries) => new ContextMenu(null, '', entries),
};

/** Install (or re-install) the stand-in for a generation, with a fresh world. */
export function installFoundry(opts: InstallOptions): FoundryHandle {
  if (opts.generation !== 13 && opts.generation !== 14) throw new Error(`Unsupported generation ${String(opts.generation)}`);
  options = { ...opts };
  state.generation = opts.generation;
  installGlobals();
  resetWorld();
  return handle;
}

export { ContextMenu } from './ui';
export type { Generation } from './state';
