/**
 * Mutable state shared by the stand-in's modules. One world, one process:
 * `installFoundry` / `handle.reset()` put it back to a fresh world.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { AsyncLocalStorage } from 'node:async_hooks';

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

/** Per async call chain: which user's client is running the code (asUser, queries, GM-only workflows). */
const clientContext = new AsyncLocalStorage<{ user: any }>();
let baseUser: any = null;

export const state = {
  generation: 13 as Generation,
  /** The User whose client runs the code (see asUser): follows the async call chain, never leaks to the caller. */
  get user(): any {
    return clientContext.getStore()?.user ?? baseUser;
  },
  set user(u: any) {
    const store = clientContext.getStore();
    if (store) store.user = u;
    else baseUser = u;
  },
  writes: [] as WriteRecord[],
  renders: [] as RenderRecord[],
  notifications: [] as { type: 'info' | 'warn' | 'error'; message: string }[],
  /** Errors Foundry would catch and log (Hooks.onError): hook callbacks that threw, failed validation. */
  errors: [] as { location: string; error: Error }[],
  /** Compatibility warnings (logCompatibilityWarning). */
  deprecations: [] as string[],
  renderListeners: [] as ((r: RenderRecord) => void)[],
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

export function recordError(location: string, error: unknown): void {
  state.errors.push({ location, error: error instanceof Error ? error : new Error(String(error)) });
}

export function deprecate(message: string): void {
  state.deprecations.push(message);
}

export function recordRender(app: string, options: any): void {
  const r = { app, options };
  state.renders.push(r);
  for (const fn of state.renderListeners) fn(r);
}

/** Run fn as `user`'s client. The user follows fn's own async chain only (AsyncLocalStorage). */
export function runAs<T>(user: any, fn: () => T | Promise<T>): Promise<T> {
  return clientContext.run({ user }, async () => fn());
}

/* ---------------------------------------------------------- pending work */

const pendingStack: Promise<unknown>[][] = [];
const orphanPending: Promise<unknown>[] = [];

/**
 * Remember async work a post-write callback started without awaiting it
 * (turn events, _onEnter/_onExit). The database operation that ran the
 * callback waits for it before resolving, so tests do not race it.
 */
export function trackPending(p: unknown): void {
  if (p instanceof Promise) (pendingStack[pendingStack.length - 1] ?? orphanPending).push(p);
}
export function resetPending(): void {
  pendingStack.length = 0;
  orphanPending.length = 0;
}
export function openPending(): void {
  pendingStack.push([]);
}
/** Close the list opened by openPending; call it before any await so concurrent operations cannot interleave. */
export function popPending(): Promise<unknown>[] {
  return pendingStack.pop() ?? [];
}
/** Wait for work started outside any database operation. */
export async function settleOrphans(): Promise<void> {
  while (orphanPending.length) await orphanPending.shift();
}
