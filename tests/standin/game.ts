/**
 * game.settings (v13 ClientSettings behaviour), game.i18n (Localization) and
 * game.time, plus User#query (v13 queries).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { DataField, DataModel, DataModelValidationError, ValidationFailure, configRef, worldCollections } from './fields';
import { hooks } from './hooks';
import { broadcastBytes, runAs, state } from './state';
import { deepClone, expandObject, getProperty, getType, isSubclass, mergeObject, objectsEqual } from './utils';

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

export class ClientSettings {
  readonly settings = new Map<string, SettingConfig>();
  readonly menus = new Map<string, any>();
  #world = new Map<string, unknown>();
  /** client and user scope: one store per user, as each user plays on their own client. */
  #perUser = new Map<string, Map<string, unknown>>();

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
    if (cfg.scope === 'world') return this.#world;
    const uid = state.user?.id ?? 'none';
    let m = this.#perUser.get(uid);
    if (!m) this.#perUser.set(uid, (m = new Map()));
    return m;
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
    const user = state.user;
    const store = this.#store(cfg);
    const prior = store.has(id) ? store.get(id) : undefined;
    if (cfg.scope === 'world') {
      if (!user?.hasPermission('SETTINGS_MODIFY')) throw new Error(`User ${user?.name} lacks permission to ${store.has(id) ? 'update' : 'create'} Setting [${id}]`);
      if (store.has(id) && objectsEqual(prior, json)) return this.get(namespace, key);
      state.writes.push({ documentName: 'Setting', action: store.has(id) ? 'update' : 'create', count: 1, userId: user.id, bytes: broadcastBytes({ key: id, value: json }) });
    } else if (store.has(id) && objectsEqual(prior, json)) return this.get(namespace, key);
    store.set(id, json);
    const now = this.get(namespace, key);
    try {
      cfg.onChange?.(now, options, user?.id);
    } catch (err) {
      hooks.onError(`ClientSettings#set(${id})`, err as Error);
    }
    return now;
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

export class GameTime {
  worldTime = 0;
  /** Advance the world clock (core stores it in a world setting: GM only). */
  async advance(seconds: number, options: any = {}): Promise<number> {
    const user = state.user;
    if (!user?.isGM) throw new Error(`User ${user?.name} lacks permission to update Setting [core.time]`);
    state.writes.push({ documentName: 'Setting', action: 'update', count: 1, userId: user.id, bytes: broadcastBytes({ key: 'core.time', value: this.worldTime + seconds }) });
    return this._apply(seconds, options, user.id);
  }
  _apply(delta: number, options: any, userId: string): number {
    this.worldTime += delta;
    hooks.callAll('updateWorldTime', this.worldTime, delta, options, userId);
    return this.worldTime;
  }
}

/* ----------------------------------------------------------------- queries */

/**
 * User#query (v13): the query must be registered in CONFIG.queries, the
 * sender needs QUERY_USER, the recipient must be connected. The handler runs
 * on the recipient's client (as that user) with the data as JSON, and its
 * error comes back as an Error with the message; a timeout rejects.
 */
export async function userQuery(this: any, queryName: string, queryData: unknown, { timeout }: { timeout?: number } = {}): Promise<unknown> {
  const handler = configRef.CONFIG.queries?.[queryName];
  if (!handler) throw new Error(`User query '${queryName}' is not registered`);
  const sender = state.user;
  if (!sender?.hasPermission('QUERY_USER')) throw new Error('You do not have permission to query users');
  if (!this.active) throw new Error(`User [${this.id}] is not active`);
  const data = queryData === undefined ? undefined : JSON.parse(JSON.stringify(queryData));
  const recipient = worldCollections.get('User')!.get(this.id);
  let result: unknown;
  const run = runAs(recipient, () => handler(data, { timeout }));
  try {
    if (timeout === undefined) result = await run;
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expire = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`The query '${queryName}' timed out`)), timeout);
      });
      try {
        result = await Promise.race([run, expire]);
      } finally {
        clearTimeout(timer);
      }
    }
  } catch (err) {
    throw new Error((err as Error)?.message ?? String(err));
  }
  return result === undefined ? undefined : JSON.parse(JSON.stringify(result));
}
