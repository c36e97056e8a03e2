/**
 * The world: one server, one client per connected user, the network between
 * them, and the system set-up every client runs (handle.everyClient).
 * Connecting, disconnecting and reloading clients.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { USER_ROLES } from './constants';
import { Client, type LangSource } from './client';
import { network } from './network';
import { Server } from './server';
import { baseEndpoint, runIn, track, type Generation } from './state';
import { randomID } from './utils';
import { systemPackage } from './package';

/** The sub-types of the installed system's manifest as Foundry read it (package.ts): what the server knows of them. */
export function manifestTypes(): Record<string, string[]> {
  return systemPackage().types;
}

export interface WorldOptions {
  generation: Generation;
  systemId: string;
  lang: LangSource[];
  documentTypes: Record<string, string[]>;
}

export class World {
  readonly server: Server;
  /** Every client ever connected in this world, by user id (the latest for a user). */
  readonly clients = new Map<string, Client>();
  /** System set-up run on every client, also on those that connect later. */
  readonly setups: (() => unknown)[] = [];
  readonly lang: LangSource[];
  /** Each user's browser storage (client and user settings), kept across reloads. */
  readonly storage = new Map<string, Map<string, unknown>>();
  /** The user whose client runs the test's code outside asUser. */
  baseUserId = '';
  readonly defaults = { gm: '', player: '', player2: '' };

  constructor(readonly options: WorldOptions) {
    this.server = new Server(options.documentTypes, options.generation);
    this.lang = [...options.lang];
  }

  /** Clients connected now, in connection order. */
  get connected(): Client[] {
    return this.server.clients as Client[];
  }

  userName(userId: string): string {
    return this.server.userOf(userId)?.name ?? userId;
  }

  /** The client of a user (a User document of any client, or an id); an error if the user never connected. */
  clientOf(user: any): Client {
    const id = typeof user === 'string' ? user : user?.id;
    const client = this.clients.get(id);
    if (!client) throw new Error(`${this.userName(id)} has no client in this world`);
    return client;
  }

  addUser(data: { name: string; role?: number; active?: boolean }): string {
    const source = { _id: randomID(), name: data.name, role: data.role ?? USER_ROLES.PLAYER };
    this.server.addUser(source);
    for (const client of this.clients.values()) client.addUser(source, false);
    if (data.active ?? true) this.connect(source._id, { lifecycle: this.server.clients.length > 0 });
    return source._id;
  }

  /**
   * A fresh client for the user, loaded from the server: the set-up of
   * everyClient runs on it, then init, i18nInit and setup fire, the
   * documents load, ui.combat is built, and ready fires; then
   * userConnected fires on every other client.
   */
  connect(userId: string, { lifecycle = true } = {}): Client {
    if (this.clients.get(userId)?.connected) throw new Error(`${this.userName(userId)} is already connected`);
    const serverUser = this.server.userOf(userId);
    if (!serverUser) throw new Error(`No user ${userId} in this world`);
    serverUser.active = true;
    let storage = this.storage.get(userId);
    if (!storage) this.storage.set(userId, (storage = new Map()));
    const client = new Client(userId, { server: this.server, systemId: this.options.systemId, lang: this.lang, storage });
    this.clients.set(userId, client);
    const others = [...this.server.clients];
    this.server.clients.push(client);
    for (const other of others) {
      const copy = other.collections.get('User').get(userId);
      if (copy) copy.active = true;
    }
    for (const setup of this.setups) track(runIn(client, setup), 'everyClient set-up', client);
    if (lifecycle) {
      client.lifecycle('init');
      client.lifecycle('i18nInit');
      client.lifecycle('setup');
    }
    client.loadDocuments();
    if (lifecycle) client.lifecycle('ready');
    for (const other of others) {
      runIn(other, () => other.hooks.callAll('userConnected', other.collections.get('User').get(userId), true));
    }
    return client;
  }

  /** The user's client goes away: its queued messages are lost, it is inactive everywhere, userConnected fires on the others. */
  disconnect(userId: string): void {
    const client = this.clients.get(userId);
    if (!client?.connected) return;
    client.connected = false;
    network.forget(client);
    this.server.clients.splice(this.server.clients.indexOf(client), 1);
    const serverUser = this.server.userOf(userId);
    if (serverUser) serverUser.active = false;
    for (const other of this.server.clients) {
      const copy = other.collections.get('User').get(userId);
      if (copy) copy.active = false;
      runIn(other, () => other.hooks.callAll('userConnected', copy, false));
    }
  }

  reload(userId: string): Client {
    this.disconnect(userId);
    return this.connect(userId);
  }

  /** Run fn on every connected client now, and on every client that connects later (before its ready). */
  everyClient(fn: () => unknown): Promise<void> {
    this.setups.push(fn);
    const results = this.connected.map((client) => runIn(client, fn));
    const promises = results.filter((r): r is Promise<unknown> => r instanceof Promise);
    for (const p of promises) track(p, 'everyClient set-up');
    return Promise.all(promises).then(() => undefined);
  }

  /** Fire init, i18nInit, setup, then build ui.combat and fire ready, on every connected client. */
  boot(): void {
    for (const event of ['init', 'i18nInit', 'setup', 'ready'] as const) for (const client of this.connected) client.lifecycle(event);
  }

  /** Every client of this world stops (a fresh world replaces it). */
  close(): void {
    for (const client of this.clients.values()) {
      client.connected = false;
      client.retired = true;
    }
    this.server.clients.length = 0;
    this.server.retired = true;
  }
}

let current: World | null = null;

export function currentWorld(): World {
  if (!current) throw new Error('The Foundry stand-in is not installed');
  return current;
}

/** A fresh world: the server, the users gm, player and player2, each connected with a client (no life cycle yet). */
export function createWorld(options: WorldOptions): World {
  current?.close();
  network.reset();
  const world = new World(options);
  current = world;
  baseEndpoint.resolve = () => world.clients.get(world.baseUserId) ?? null;
  const gm = { _id: randomID(), name: 'Gamemaster', role: USER_ROLES.GAMEMASTER };
  const player = { _id: randomID(), name: 'Player 1', role: USER_ROLES.PLAYER };
  const player2 = { _id: randomID(), name: 'Player 2', role: USER_ROLES.PLAYER };
  for (const u of [gm, player, player2]) world.server.addUser(u);
  world.defaults.gm = gm._id;
  world.defaults.player = player._id;
  world.defaults.player2 = player2._id;
  world.baseUserId = gm._id;
  for (const u of [gm, player, player2]) world.connect(u._id, { lifecycle: false });
  return world;
}
