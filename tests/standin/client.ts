/**
 * One user's client: its own game (user, users, world collections holding
 * its own copies of every document, settings, i18n, time, socket), its own
 * Hooks, ui and CONFIG. It talks to the server only through the network
 * (network.ts): database requests, world settings, socket messages and
 * queries; and it applies what the server broadcasts, running its own post
 * callbacks and hooks as itself.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { readFileSync } from 'node:fs';
import { CONST, MESSAGE_MODES, MESSAGE_MODE_ICONS } from './constants';
import { Combat, Combatant, CombatantGroup, emptyCollections, type CombatEncounters } from './combat';
import { Roll, Die, diceSource } from './dice';
import { Actor, ChatMessage, Collection, Item, Scene, TokenDocument, User, Users, receiveModify } from './documents';
import { ClientKeybindings, ClientSettings, GameTime, Localization, closeKeybindings } from './game';
import { HookRegistry } from './hooks';
import { network } from './network';
import { recordError, runIn, state, track, type Endpoint, type ErrorRecord, type RenderRecord } from './state';
import { CombatTracker, Notifications } from './ui';
import { registerCoreSheets } from './sheets';
import { manifestSystem } from './manifest';
import { CompendiumPacks } from './packs';
import type { ClientPort, ModifyRequest, Server } from './server';
import { decode, encode } from './wire';
import type { MessageMode, ModeSettingV13, ModeSettingV14, QueryHandler, RollMode, SocketApi, SocketListener } from './shapes';

/** A lang JSON object, or the path of a JSON file. */
export type LangSource = Record<string, unknown> | string;

export function loadLangInto(i18n: Localization, lang: LangSource | LangSource[] | undefined): void {
  const list = lang === undefined ? [] : Array.isArray(lang) ? lang : [lang];
  for (const l of list) i18n.load(typeof l === 'string' ? JSON.parse(readFileSync(l, 'utf8')) : l);
}

function buildConfig(): any {
  const v14 = state.generation >= 14;
  const doc = (documentClass: any, extra: any = {}) => ({ documentClass, dataModels: {}, typeLabels: {}, ...extra });
  return {
    Actor: doc(Actor, { trackableAttributes: {} }), // core's default: filled by type by a system
    Item: doc(Item),
    Scene: doc(Scene),
    Token: doc(TokenDocument),
    Combat: doc(Combat, { initiative: { formula: null, decimals: 2 }, initiativeIcon: { icon: '../icons/svg/d20.svg', hover: '../icons/svg/d20-highlight.svg' }, sounds: {} }),
    Combatant: doc(Combatant),
    CombatantGroup: doc(CombatantGroup),
    // v14 (14.366 typings, CONFIG.ChatMessage.Modes): label and icon; a `handler` only where a package sets one.
    ChatMessage: doc(ChatMessage, v14 ? { modes: Object.fromEntries(MESSAGE_MODES.map((m) => [m, { label: `CHAT.MODES.${m}`, icon: MESSAGE_MODE_ICONS[m] }])) } : {}),
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
  const core = (id: `core.${string}`, data: Parameters<ClientSettings['register']>[2]) => settings.register('core', id.slice('core.'.length), data);
  if (state.generation >= 14) {
    const choices = Object.fromEntries(MESSAGE_MODES.map((m) => [m, m])) as Record<ModeSettingV14['choice'], MessageMode>;
    core('core.messageMode' satisfies ModeSettingV14['key'], { scope: 'client', type: String, default: 'public', choices });
  } else {
    const modes = Object.values(CONST.DICE_ROLL_MODES);
    const choices = Object.fromEntries(modes.map((m) => [m, m])) as Record<ModeSettingV13['choice'], RollMode>;
    core('core.rollMode' satisfies ModeSettingV13['key'], { scope: 'client', type: String, default: CONST.DICE_ROLL_MODES.PUBLIC, choices });
  }
  settings.register('core', 'defaultToken', { scope: 'world', type: Object, default: {} });
  settings.register('core', 'combatTrackerConfig', { scope: 'world', type: Object, default: { resource: '', skipDefeated: false, turnMarker: { enabled: true } } });
  settings.register('core', 'gridDiagonals', { scope: 'world', type: Number, default: CONST.GRID_DIAGONALS.EQUIDISTANT, choices: Object.values(CONST.GRID_DIAGONALS).map(String) });
}

/** The world collections a client loads from the server, in load order (combats read actors and scenes). */
const LOADED = [
  ['Actor', 'actors'],
  ['Item', 'items'],
  ['Scene', 'scenes'],
  ['ChatMessage', 'messages'],
  ['Combat', 'combats'],
] as const;

/** game.socket of one client: messages go through the server to every other client. */
export class ClientSocket implements SocketApi {
  readonly #listeners = new Map<string, SocketListener[]>();
  constructor(private readonly client: Client) {}
  on(event: string, fn: SocketListener): this {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), fn]);
    return this;
  }
  off(event: string, fn?: SocketListener): this {
    this.#listeners.set(
      event,
      fn ? (this.#listeners.get(event) ?? []).filter((f) => f !== fn) : [],
    );
    return this;
  }
  emit(event: string, data?: unknown): void {
    this.client.emit(event, data);
  }
  listeners(event: string): SocketListener[] {
    return [...(this.#listeners.get(event) ?? [])];
  }
}

interface Waiting {
  resolve: (value: any) => void;
  reject: (error: Error) => void;
}

export interface ClientContext {
  server: Server;
  systemId: string;
  lang: LangSource[];
  /** This user's browser storage (client and user settings), kept across reloads. */
  storage: Map<string, unknown>;
}

let nextRequestId = 1;

export class Client implements Endpoint, ClientPort {
  readonly kind = 'client' as const;
  readonly collections = new Map<string, any>();
  readonly hooks = new HookRegistry();
  readonly errors: ErrorRecord[] = [];
  readonly renders: RenderRecord[] = [];
  renderListeners: ((r: RenderRecord) => void)[] = [];
  connected = true;
  retired = false;
  declare readonly CONFIG: any;
  declare readonly game: any;
  declare readonly ui: any;
  declare readonly user: any;
  readonly #requests = new Map<number, Waiting>();
  readonly #queries = new Map<number, Waiting>();
  readonly #server: Server;
  #packs: CompendiumPacks | undefined;

  constructor(
    readonly id: string,
    ctx: ClientContext,
  ) {
    this.#server = ctx.server;
    runIn(this, () => this.#build(ctx));
  }

  #build(ctx: ClientContext): void {
    const server = this.#server;
    const CONFIG = buildConfig();
    // game.documentTypes: the sub-types of the manifest (the server's), "base" included, as core's.
    const documentTypes: Record<string, string[]> = Object.fromEntries(Object.entries(server.CONFIG).filter(([, c]: [string, any]) => c?.serverTypes).map(([n, c]: [string, any]) => [n, [...c.serverTypes]]));
    registerCoreSheets(CONFIG, documentTypes);
    const users = new Users();
    for (const u of server.collections.get('User')) this.#addUser(users, u.toObject(), u.active);
    const collections = emptyCollections(users);
    for (const [name, c] of Object.entries(collections)) this.collections.set(name, c);
    const port = { setWorld: (key: string, value: unknown, options: any) => this.#setWorld(key, value, options) };
    const settings = new ClientSettings(port, ctx.storage);
    for (const [key, value] of server.settings) if (key !== 'core.time') settings.world.set(key, structuredClone(value));
    const i18n = new Localization();
    loadLangInto(i18n, ctx.lang);
    const time = new GameTime(port);
    time.worldTime = server.worldTime;
    const v14 = state.generation >= 14;
    const client = this;
    const game: any = {
      release: { generation: state.generation, version: v14 ? '14.360' : '13.351', build: v14 ? 360 : 351 },
      get version() {
        return this.release.version;
      },
      // Core builds game.system from the manifest it read (package.ts); the id is the world's system.
      system: { ...manifestSystem(), id: ctx.systemId },
      documentTypes,
      world: { id: 'test-world' },
      ready: false,
      paused: false,
      get user() {
        return client.user;
      },
      get userId() {
        return client.id;
      },
      settings,
      i18n,
      keybindings: new ClientKeybindings(),
      time,
      socket: new ClientSocket(this),
      users,
      actors: collections.Actor,
      items: collections.Item,
      scenes: collections.Scene,
      combats: collections.Combat,
      messages: collections.ChatMessage,
      collections: new Collection(Object.entries(collections)),
      // The system's compendium packs (tests/standin/packs.ts), loaded at the first use.
      get packs() {
        return (client.#packs ??= new CompendiumPacks());
      },
      data: {},
      get combat() {
        return (collections.Combat as CombatEncounters).viewed;
      },
    };
    Object.defineProperty(this, 'CONFIG', { value: CONFIG });
    Object.defineProperty(this, 'game', { value: game });
    Object.defineProperty(this, 'user', { get: () => users.get(this.id) });
    Object.defineProperty(this, 'ui', { value: { notifications: new Notifications(), combat: new CombatTracker() } });
    registerCoreSettings(settings);
  }

  #addUser(users: any, source: any, active: boolean): any {
    const u = new User(structuredClone(source));
    u.active = active;
    users.set(u.id, u);
    return u;
  }

  /** A user added to the world after this client connected. */
  addUser(source: any, active: boolean): any {
    return runIn(this, () => this.#addUser(this.collections.get('User'), source, active));
  }

  get notifications(): { type: 'info' | 'warn' | 'error'; message: string }[] {
    return this.ui.notifications.shown;
  }

  /** Build the world collections from the server's sources, as a client does at load. */
  loadDocuments(): void {
    runIn(this, () => {
      const data: Record<string, any[]> = {};
      for (const [name, key] of LOADED) {
        const sources = this.#server.sources(name);
        data[key] = structuredClone(sources);
        const coll = this.collections.get(name);
        coll.clear();
        const invalid = new Set<string>();
        const cls = this.CONFIG[name].documentClass;
        for (const src of sources) {
          try {
            const doc = new cls(structuredClone(src));
            coll.set(doc.id, doc);
          } catch {
            invalid.add(src._id);
          }
        }
        coll.invalidDocumentIds = invalid;
      }
      data.users = this.#server.sources('User');
      this.game.data = data;
    });
  }

  /** Run a hook event of the client's life cycle (init, i18nInit, setup, ready). */
  lifecycle(event: 'init' | 'i18nInit' | 'setup' | 'ready'): void {
    runIn(this, () => {
      if (event === 'ready') {
        this.ui.combat = new this.CONFIG.ui.combat();
        this.game.ready = true;
      }
      this.hooks.callAll(event);
      // Foundry takes keybinding actions only until the init hook is over.
      if (event === 'init') closeKeybindings(this.game.keybindings);
    });
  }

  /* ----------------------------------------------------------- outgoing */

  #send(message: { type: string; action?: string; documentName?: string; name?: string; data: any }, deliver: () => unknown): void {
    network.send({ from: this.id, to: 'server', ...message }, { fromClient: this, toClient: null }, deliver);
  }

  /** Send a database request straight to the server; resolves with this client's documents once it has applied the result. */
  request(request: ModifyRequest): Promise<any[]> {
    return new Promise((resolve, reject) => {
      const id = nextRequestId++;
      const wire = encode(request);
      this.#requests.set(id, { resolve, reject });
      try {
        this.#send({ type: 'modifyDocument', action: request.action, documentName: request.documentName, data: wire }, () => this.#server.modify(this, decode(wire), id));
      } catch (err) {
        this.#requests.delete(id);
        reject(err as Error);
      }
    });
  }

  #setWorld(key: string, value: unknown, options: any): Promise<void> {
    return new Promise((resolve, reject) => {
      const id = nextRequestId++;
      let wire: string;
      try {
        wire = encode({ key, value, options });
        this.#send({ type: 'setting', name: key, data: wire }, () => this.#server.setting(this, decode(wire), id));
      } catch (err) {
        reject(err as Error);
        return;
      }
      this.#requests.set(id, { resolve, reject });
    });
  }

  emit(event: string, data: unknown): void {
    const wire = encode(data ?? null);
    this.#send({ type: 'socket', name: event, data: wire }, () => this.#server.socket(this, event, wire));
  }

  /** Send a query to a user's client through the server. */
  query(recipientId: string, name: string, data: unknown, timeout: number | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const queryId = nextRequestId++;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const wire = data === undefined ? '' : encode(data);
      const done = () => {
        if (timer !== undefined) clearTimeout(timer);
        this.#queries.delete(queryId);
      };
      this.#queries.set(queryId, {
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      try {
        this.#send({ type: 'query', name, data: wire }, () => this.#server.query(this, { to: recipientId, name, wire, timeout, queryId }));
      } catch (err) {
        done();
        reject(err as Error);
        return;
      }
      if (timeout !== undefined) timer = setTimeout(() => this.#queries.get(queryId)?.reject(new Error(`The query '${name}' timed out`)), timeout);
    });
  }

  /* ----------------------------------------------------------- incoming */

  receiveModify(wire: string, requestId?: number): Promise<void> {
    const waiting = requestId === undefined ? undefined : this.#requests.get(requestId);
    if (requestId !== undefined) this.#requests.delete(requestId);
    return runIn(this, async () => {
      const msg = decode(wire);
      let documents: any[] = [];
      try {
        if (msg.result.length) documents = await receiveModify(msg);
      } catch (err) {
        if (waiting) return waiting.reject(err as Error);
        throw err;
      }
      waiting?.resolve(documents);
    });
  }

  receiveSetting(wire: string, requestId?: number): void {
    const waiting = requestId === undefined ? undefined : this.#requests.get(requestId);
    if (requestId !== undefined) this.#requests.delete(requestId);
    runIn(this, () => {
      const msg = decode(wire);
      if (msg.changed) {
        if (msg.key === 'core.time') this.game.time._receive(msg.value, msg.options, msg.userId);
        else this.game.settings._receive(msg.key, msg.value, msg.options, msg.userId);
      }
    });
    waiting?.resolve(undefined);
  }

  refused(requestId: number, message: string): void {
    const waiting = this.#requests.get(requestId);
    this.#requests.delete(requestId);
    waiting?.reject(new Error(message));
  }

  receiveSocket(event: string, wire: string, senderId: string): void {
    runIn(this, () => {
      for (const fn of this.game.socket.listeners(event)) {
        try {
          track(fn(decode(wire), senderId), `socket ${event}`);
        } catch (err) {
          recordError(`socket ${event}`, err);
        }
      }
    });
  }

  receiveQuery(name: string, wire: string, timeout: number | undefined, answer: (result: { ok: boolean; wire?: string; message?: string }) => void): Promise<void> {
    return runIn(this, async () => {
      let result: { ok: boolean; wire?: string; message?: string };
      try {
        const handler: QueryHandler | undefined = this.CONFIG.queries?.[name];
        if (!handler) throw new Error(`User query '${name}' is not registered`);
        const value = await handler(wire === '' ? undefined : decode(wire), { timeout });
        result = { ok: true, wire: value === undefined ? undefined : encode(value) };
      } catch (err) {
        result = { ok: false, message: (err as Error)?.message ?? String(err) };
      }
      if (this.connected) answer(result);
    });
  }

  receiveAnswer(queryId: number, result: { ok: boolean; wire?: string; message?: string }): void {
    const waiting = this.#queries.get(queryId);
    if (!waiting) return;
    if (result.ok) waiting.resolve(result.wire === undefined ? undefined : decode(result.wire));
    else waiting.reject(new Error(result.message));
  }
}

