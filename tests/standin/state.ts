/**
 * Mutable state shared by the stand-in's modules, and the execution context.
 *
 * The world is one server and one client per connected user (see README.md).
 * Code runs on an *endpoint*: a client (its own game, CONFIG, Hooks, ui and
 * copies of every document) or the server (an authoritative store of sources
 * that runs no system code). Which endpoint runs the code follows the async
 * call chain (AsyncLocalStorage); code outside any context runs on the base
 * client, the GM's unless the test chose another (handle.setUser).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as realSetImmediate } from 'node:timers';

export type Generation = 13 | 14;

export interface WriteRecord {
  documentName: string;
  action: 'create' | 'update' | 'delete';
  count: number;
  userId: string;
  /**
   * Bytes the server broadcasts to every other client for this write: the
   * created sources, the changes (with _id and _stats), or the deleted ids,
   * as JSON (a v14 operator such as _del counts as its name).
   */
  bytes: number;
}

/** Length of a broadcast as JSON; v14 operators are written as their short names. */
export function broadcastBytes(value: unknown): number {
  return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && v.constructor && v.constructor.name === 'ForcedDeletion' ? '_del' : v))?.length ?? 0;
}

export interface RenderRecord {
  app: string;
  options: any;
}

/** An error Foundry catches and logs, with the endpoint it happened on: a user id, or "server". */
export interface ErrorRecord {
  location: string;
  error: Error;
  userId: string;
}

/** A client or the server: where code runs. */
export interface Endpoint {
  readonly kind: 'client' | 'server';
  /** The user id of a client, "server" for the server. */
  readonly id: string;
  /** World collections by document name (User, Actor, Item, Scene, Combat, ChatMessage). */
  readonly collections: Map<string, any>;
  readonly CONFIG: any;
  readonly game: any;
  /** The endpoint's Hooks registry; the server has none. */
  readonly hooks: any;
  readonly ui: any;
  /** This client's own copy of its user; the server has none. */
  readonly user: any;
  readonly errors: ErrorRecord[];
  readonly renders: RenderRecord[];
  renderListeners: ((r: RenderRecord) => void)[];
  connected: boolean;
  /** Its world was replaced (handle.reset): whatever it still does is no longer recorded. */
  retired?: boolean;
}

interface Context {
  endpoint: Endpoint;
  /** Server context: the user whose request the server is handling. */
  user?: any;
}

const context = new AsyncLocalStorage<Context>();

/** Set by index.ts: the endpoint that runs code outside any context (the base client). */
export const baseEndpoint: { resolve: () => Endpoint | null } = { resolve: () => null };

/** A hook a module's body registered at load: `Hooks.on` or `Hooks.once`. */
export interface ModuleHookRegistration {
  kind: 'on' | 'once';
  hook: string;
  fn: (...args: any[]) => unknown;
}

/** The endpoint running the current code. */
export function currentEndpoint(): Endpoint {
  const ep = context.getStore()?.endpoint ?? baseEndpoint.resolve();
  if (!ep) throw new Error('The Foundry stand-in is not installed');
  return ep;
}

/** The client running the current code; an error on the server. */
export function currentClient(): Endpoint {
  const ep = currentEndpoint();
  if (ep.kind !== 'client') throw new Error('This runs on a client; the server runs no client code');
  return ep;
}

/** Run fn synchronously on `endpoint` (its async continuations stay there). */
export function runIn<T>(endpoint: Endpoint, fn: () => T, user?: any): T {
  return context.run({ endpoint, user }, fn);
}

/** Run fn on `endpoint`'s client; the endpoint follows fn's own async chain only, never the caller's. */
export function runAs<T>(endpoint: Endpoint, fn: () => T | Promise<T>): Promise<T> {
  return context.run({ endpoint }, async () => fn());
}

/* ------------------------------------------------------- document owners */

const owners = new WeakMap<object, Endpoint>();

/** Remember which endpoint a (top-level) document belongs to. */
export function setOwner(doc: object, endpoint: Endpoint): void {
  owners.set(doc, endpoint);
}

/** The endpoint a document belongs to: its own, its parent's, else the running one. */
export function ownerOf(doc: any): Endpoint {
  for (let d = doc; d; d = d.parent) {
    const ep = owners.get(d);
    if (ep) return ep;
  }
  return currentEndpoint();
}

/* ------------------------------------------------------------------ state */

export const state = {
  generation: 13 as Generation,
  /** The User whose client runs the code (on the server: the user whose request it handles). */
  get user(): any {
    const store = context.getStore();
    if (store?.user) return store.user;
    return currentEndpoint().user;
  },
  get endpoint(): Endpoint {
    return currentEndpoint();
  },
  /**
   * While a system module is being loaded (built-system.ts): the hook registrations its body makes, which the
   * global `Hooks` records instead of registering, to be made on every client.
   */
  moduleLoad: null as null | { registrations: ModuleHookRegistration[] },
  writes: [] as WriteRecord[],
  /** Every endpoint's errors, in order (each endpoint also keeps its own). */
  errors: [] as ErrorRecord[],
  /** Compatibility warnings (logCompatibilityWarning), on any client. */
  deprecations: [] as string[],
  idCounter: 0,
  rng: mulberry32(1),
};

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Record an error Foundry would catch and log, on the running endpoint. */
export function recordError(location: string, error: unknown, endpoint: Endpoint = currentEndpoint()): void {
  if (endpoint.retired) return;
  const record = { location, error: error instanceof Error ? error : new Error(String(error)), userId: endpoint.id };
  endpoint.errors.push(record);
  state.errors.push(record);
}

export function deprecate(message: string): void {
  state.deprecations.push(message);
}

/** A render request of an application of `endpoint`'s client. */
export function recordRender(app: string, options: any, endpoint: Endpoint = currentEndpoint()): void {
  const r = { app, options };
  endpoint.renders.push(r);
  for (const fn of endpoint.renderListeners) fn(r);
}

/* ---------------------------------------------------------- pending work */

const pendingStack: Promise<unknown>[][] = [];
const tracked = new Set<Promise<unknown>>();

/** Remember async work for settle(); its failure is recorded as an error of the endpoint it ran on. */
export function track(p: unknown, location = 'async work', endpoint?: Endpoint): void {
  if (!(p instanceof Promise)) return;
  const ep = endpoint ?? currentEndpoint();
  const guarded = p.then(
    () => undefined,
    (err) => recordError(location, err, ep),
  );
  tracked.add(guarded);
  void guarded.then(() => tracked.delete(guarded));
}

/**
 * Remember async work a post-write callback started without awaiting it
 * (turn events, _onEnter/_onExit). The client's handling of the write waits
 * for it before the initiator's operation resolves; outside such handling it
 * is tracked for settle().
 */
export function trackPending(p: unknown): void {
  if (!(p instanceof Promise)) return;
  const top = pendingStack[pendingStack.length - 1];
  if (top) top.push(p);
  else track(p, 'pending work');
}
export function resetPending(): void {
  pendingStack.length = 0;
  tracked.clear();
}
export function openPending(): void {
  pendingStack.push([]);
}
/** Close the list opened by openPending; call it before any await so concurrent operations cannot interleave. */
export function popPending(): Promise<unknown>[] {
  return pendingStack.pop() ?? [];
}
export function trackedCount(): number {
  return tracked.size;
}
export function trackedWork(): Promise<unknown>[] {
  return [...tracked];
}

/**
 * One turn of the event loop: every queued microtask has run. Node's own
 * setImmediate, taken at load, so vitest fake timers do not stop it; it
 * measures no time.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}
