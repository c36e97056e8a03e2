/**
 * game.settings (v13 ClientSettings behaviour), game.i18n (Localization) and
 * game.time, plus User#query (v13 queries).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { DataField, DataModel, DataModelValidationError, ValidationFailure, configRef } from './fields';
import { hooks } from './hooks';
import { state } from './state';
import { deepClone, expandObject, getProperty, getType, isSubclass, mergeObject, objectsEqual } from './utils';
import type { KeyBinding, KeybindingActionData, KeybindingsApi, QueryOptions } from './shapes';

/* ---------------------------------------------------------------- settings */

export interface SettingConfig {
  key: string;
  namespace: string;
  name?: string;
  hint?: string;
  scope: 'world' | 'client' | 'user';
  config?: boolean;
  type?: any;
  default?: unknown;
  choices?: Record<string, string> | string[];
  range?: { min: number; max: number; step?: number };
  onChange?: (value: unknown, options: any, userId?: string) => void;
  requiresReload?: boolean;
}

/** How a client's settings reach the server (set by client.ts). */
export interface SettingsPort {
  /** Send a world setting to the server; resolves once this client has the server's answer applied. */
  setWorld(key: string, value: unknown, options: any): Promise<void>;
}

/**
 * game.settings of one client. World settings are the server's: set sends
 * the value (checked here against the registered type) to the server, which
 * refuses without SETTINGS_MODIFY and broadcasts a change to every client,
 * each calling its own onChange. Client and user scopes are this user's
 * browser storage: kept across reloads, never sent (user scope is simpler
 * than core, which stores it on the server).
 */
export class ClientSettings {
  readonly settings = new Map<string, SettingConfig>();
  readonly menus = new Map<string, any>();
  /** This client's copy of the world settings, as the server sent them. */
  readonly world = new Map<string, unknown>();

  constructor(
    private readonly port: SettingsPort,
    /** client and user scope: this user's storage. */
    private readonly local: Map<string, unknown>,
  ) {}

  register(namespace: string, key: string, data: Partial<SettingConfig>): void {
    if (!namespace || !key) throw new Error('You must specify both namespace and key portions of the setting');
    const id = `${namespace}.${key}`;
    const scope = data.scope ?? 'client';
    if (!['world', 'client', 'user'].includes(scope)) throw new Error(`Invalid setting scope "${scope}" for ${id}`);
    if (data.choices && data.type && ![String, Number].includes(data.type) && !(data.type instanceof DataField)) {
      throw new Error(`Setting ${id}: choices require a String or Number type`);
    }
    this.settings.set(id, { ...data, key, namespace, scope, config: data.config ?? false } as SettingConfig);
  }
  registerMenu(namespace: string, key: string, data: any): void {
    this.menus.set(`${namespace}.${key}`, { ...data, key, namespace });
  }

  #config(namespace: string, key: string): SettingConfig {
    const cfg = this.settings.get(`${namespace}.${key}`);
    if (!cfg) throw new Error(`"${namespace}.${key}" is not a registered game setting`);
    return cfg;
  }
  #store(cfg: SettingConfig): Map<string, unknown> {
    return cfg.scope === 'world' ? this.world : this.local;
  }

  get(namespace: string, key: string): any {
    const cfg = this.#config(namespace, key);
    const store = this.#store(cfg);
    const id = `${namespace}.${key}`;
    const raw = store.has(id) ? store.get(id) : deepClone(cfg.default);
    if (isSubclass(cfg.type, DataModel)) return new cfg.type(deepClone(raw ?? {}));
    if (cfg.type instanceof DataField) return cfg.type.initialize(deepClone(raw));
    return deepClone(raw);
  }

  /** Type-checked like core: the value must fit the registered type, choices and range, else an Error and nothing stored. */
  async set(namespace: string, key: string, value: unknown, options: any = {}): Promise<unknown> {
    const cfg = this.#config(namespace, key);
    const id = `${namespace}.${key}`;
    const json = this.#clean(cfg, value);
    if (cfg.scope === 'world') {
      await this.port.setWorld(id, json, options);
      return this.get(namespace, key);
    }
    if (this.local.has(id) && objectsEqual(this.local.get(id), json)) return this.get(namespace, key);
    this.local.set(id, json);
    this.#changed(cfg, options, state.user?.id);
    return this.get(namespace, key);
  }

  /** A world setting change broadcast by the server. */
  _receive(id: string, value: unknown, options: any, userId: string): void {
    this.world.set(id, value);
    const cfg = this.settings.get(id);
    if (cfg) this.#changed(cfg, options, userId);
  }

  #changed(cfg: SettingConfig, options: any, userId: string | undefined): void {
    const id = `${cfg.namespace}.${cfg.key}`;
    try {
      cfg.onChange?.(this.get(cfg.namespace, cfg.key), options, userId);
    } catch (err) {
      hooks.onError(`ClientSettings#set(${id})`, err as Error);
    }
  }

  #clean(cfg: SettingConfig, value: unknown): unknown {
    const id = `${cfg.namespace}.${cfg.key}`;
    const t = cfg.type;
    if (t instanceof DataField) {
      const cleaned = t.clean(deepClone(value));
      const f = t.validate(cleaned);
      if (f) throw new DataModelValidationError(f, `Setting [${id}]`);
      return t.toObject(cleaned);
    }
    if (isSubclass(t, DataModel)) return new t(value instanceof DataModel ? value.toObject() : deepClone(value)).toObject();
    const bad = (msg: string) => new DataModelValidationError(new ValidationFailure(msg), `Setting [${id}]`);
    if (t === Boolean && typeof value !== 'boolean') throw bad('must be a boolean');
    if (t === Number && (typeof value !== 'number' || !Number.isFinite(value))) throw bad('must be a finite number');
    if (t === String && typeof value !== 'string') throw bad('must be a string');
    if (t === Object && getType(value) !== 'Object') throw bad('must be an object');
    if (t === Array && !Array.isArray(value)) throw bad('must be an Array');
    if (cfg.choices) {
      const keys = Array.isArray(cfg.choices) ? cfg.choices : Object.keys(cfg.choices);
      if (!keys.map(String).includes(String(value))) throw bad(`${String(value)} is not a valid choice`);
    }
    if (cfg.range && typeof value === 'number' && (value < cfg.range.min || value > cfg.range.max)) {
      throw bad(`must be between ${cfg.range.min} and ${cfg.range.max}`);
    }
    return deepClone(value);
  }
}

/* -------------------------------------------------------------------- i18n */

export class Localization {
  lang = 'en';
  translations: Record<string, any> = {};
  /** Merge a lang JSON (nested or dotted keys). */
  load(json: Record<string, unknown>): void {
    mergeObject(this.translations, expandObject(json));
  }
  has(key: string): boolean {
    return typeof getProperty(this.translations, key) === 'string';
  }
  /** The translation, or the key itself when there is none. */
  localize(key: string): string {
    const v = getProperty(this.translations, key);
    return typeof v === 'string' ? v : key;
  }
  /** Localize, then replace {name} placeholders from data (core inserts "undefined" for a missing one). */
  format(key: string, data: Record<string, unknown> = {}): string {
    return this.localize(key).replace(/{[^}]+}/g, (k) => String(data[k.slice(1, -1)]));
  }
}

/* -------------------------------------------------------------------- time */

/**
 * game.time of one client. The world clock is the server's world setting
 * core.time: advance sends the new time there (refused without
 * SETTINGS_MODIFY); every client fires updateWorldTime on the change.
 */
export class GameTime {
  worldTime = 0;
  constructor(private readonly port: SettingsPort) {}
  async advance(seconds: number, options: any = {}): Promise<number> {
    await this.port.setWorld('core.time', this.worldTime + seconds, options);
    return this.worldTime;
  }
  /** The server changed the clock. */
  _receive(time: number, options: any, userId: string): number {
    const delta = time - this.worldTime;
    this.worldTime = time;
    hooks.callAll('updateWorldTime', this.worldTime, delta, options, userId);
    return this.worldTime;
  }
}

/* ----------------------------------------------------------------- queries */

/** How a client sends a query (set by client.ts). */
export const queryTransport: { send: (recipientId: string, name: string, data: unknown, timeout: number | undefined) => Promise<unknown> } = {
  send: async () => {
    throw new Error('No server');
  },
};

/**
 * User#query (v13): the query must be registered in CONFIG.queries, the
 * sender needs QUERY_USER, the recipient must be connected. The query goes
 * through the server to the recipient's client, whose handler runs there (as
 * that user) with the data as JSON and `{timeout}` only (never the sender);
 * its error comes back as an Error with the message; a timeout rejects.
 */
export async function userQuery(this: any, queryName: string, queryData: unknown, { timeout }: QueryOptions = {}): Promise<unknown> {
  const handler = configRef.CONFIG.queries?.[queryName];
  if (!handler) throw new Error(`User query '${queryName}' is not registered`);
  const sender = state.user;
  if (!sender?.hasPermission('QUERY_USER')) throw new Error('You do not have permission to query users');
  if (!this.active) throw new Error(`User [${this.id}] is not active`);
  return queryTransport.send(this.id, queryName, queryData, timeout);
}

/* ------------------------------------------------------------- keybindings */

/** foundry.helpers.interaction.KeyboardManager: its MODIFIER_KEYS, the modifiers a binding may name (the key handling itself is the handle's `pressKey`). */
export class KeyboardManager {
  static readonly MODIFIER_KEYS = Object.freeze({ CONTROL: 'Control', SHIFT: 'Shift', ALT: 'Alt' } as const);
}
const MODIFIER_KEYS: readonly string[] = Object.values(KeyboardManager.MODIFIER_KEYS);

/** A registered action, with register's defaults applied (ClientKeybindings.StoredKeybindingActionConfig). */
export interface StoredKeybindingAction extends KeybindingActionData {
  namespace: string;
  uneditable: KeyBinding[];
  editable: KeyBinding[];
  repeat: boolean;
  reservedModifiers: string[];
  precedence: number;
  order: number;
}

const closedKeybindings = new WeakSet<ClientKeybindings>();

/**
 * game.keybindings (v13/v14 ClientKeybindings): `register` takes an action
 * only until the init hook is over (Foundry: "You cannot register a
 * Keybinding after the init hook"), needs a namespace, an action and a
 * name, checks each binding's key and modifiers, and applies core's
 * defaults into `actions` (the user's own bindings are not modelled).
 * Pressing keys is the handle's `pressKey`.
 */
export class ClientKeybindings implements KeybindingsApi {
  readonly actions = new Map<string, StoredKeybindingAction>();
  #order = 0;

  register(namespace: string, action: string, data: KeybindingActionData): void {
    if (closedKeybindings.has(this)) throw new Error('You cannot register a Keybinding after the init hook');
    if (!namespace || !action) throw new Error('You must specify both the namespace and action portion of the Keybinding action');
    if (typeof data?.name !== 'string' || data.name === '') throw new Error(`The Keybinding action ${namespace}.${action} needs a name`);
    const bindings = (list: KeyBinding[] | undefined) =>
      (list ?? []).map((b) => {
        if (typeof b?.key !== 'string' || b.key === '') throw new Error(`Keybinding action ${namespace}.${action}: a binding needs a key`);
        for (const m of b.modifiers ?? []) if (!MODIFIER_KEYS.includes(m)) throw new Error(`Keybinding action ${namespace}.${action}: ${m} is not a modifier key`);
        return { key: b.key, logicalKey: b.logicalKey ?? b.key, modifiers: [...(b.modifiers ?? [])] };
      });
    this.actions.set(`${namespace}.${action}`, {
      ...data,
      namespace,
      uneditable: bindings(data.uneditable),
      editable: bindings(data.editable),
      repeat: data.repeat ?? false,
      reservedModifiers: [...(data.reservedModifiers ?? [])],
      precedence: data.precedence ?? 1, // CONST.KEYBINDING_PRECEDENCE.NORMAL
      order: this.#order++,
    });
  }
}

/** The init hook is over: no more actions (client.ts, after `init`). */
export function closeKeybindings(k: ClientKeybindings): void {
  closedKeybindings.add(k);
}
