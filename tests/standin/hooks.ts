/**
 * Hooks (v13 client/helpers/hooks.mjs behaviour): on/once return a numeric id;
 * call stops at the first callback returning exactly false and returns false;
 * callAll runs every callback. A callback that throws is caught and logged
 * (here: recorded in handle.errors) and the other callbacks still run.
 *
 * Every client has its own registry (HookRegistry); the exported `hooks` is
 * the registry of the client running the code. The server runs no hooks.
 * A callback that returns a promise is tracked for settle(), and its
 * rejection recorded as an error (the browser would log it).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { currentEndpoint, recordError, track } from './state';

interface HookEntry {
  hook: string;
  id: number;
  fn: (...args: any[]) => unknown;
  once: boolean;
}

export class HookRegistry {
  events: Record<string, HookEntry[]> = {};
  #ids = new Map<number, HookEntry>();
  #nextId = 1;

  #run(entry: HookEntry, args: unknown[]): unknown {
    if (entry.once) this.off(entry.hook, entry.id);
    try {
      const result = entry.fn(...args);
      if (result instanceof Promise) track(result, `Hooks.#call(${entry.hook})`);
      return result;
    } catch (err) {
      recordError(`Hooks.#call(${entry.hook})`, err);
      return undefined;
    }
  }
  on(hook: string, fn: (...args: any[]) => unknown, { once = false } = {}): number {
    if (typeof fn !== 'function') throw new Error(`Hook "${hook}" callback must be a function`);
    const entry = { hook, id: this.#nextId++, fn, once };
    (this.events[hook] ??= []).push(entry);
    this.#ids.set(entry.id, entry);
    return entry.id;
  }
  once(hook: string, fn: (...args: any[]) => unknown): number {
    return this.on(hook, fn, { once: true });
  }
  off(hook: string, fn: number | ((...args: any[]) => unknown)): void {
    let entry: HookEntry | undefined;
    if (typeof fn === 'number') entry = this.#ids.get(fn);
    else entry = this.events[hook]?.find((h) => h.fn === fn);
    if (!entry || entry.hook !== hook) return;
    this.events[hook] = this.events[hook].filter((h) => h !== entry);
    this.#ids.delete(entry.id);
  }
  callAll(hook: string, ...args: unknown[]): true {
    for (const entry of Array.from(this.events[hook] ?? [])) this.#run(entry, args);
    return true;
  }
  call(hook: string, ...args: unknown[]): boolean {
    for (const entry of Array.from(this.events[hook] ?? [])) {
      if (this.#run(entry, args) === false) return false;
    }
    return true;
  }
  onError(location: string, error: Error, { notify }: { notify?: string | null; msg?: string; log?: string } = {}): void {
    recordError(location, error);
    if (notify) currentEndpoint().ui?.notifications?.[notify]?.(error.message);
  }
}

function registry(): HookRegistry {
  const ep = currentEndpoint();
  if (!ep.hooks) throw new Error('The server runs no hooks');
  return ep.hooks;
}

/** The Hooks of the client running the code. */
export const hooks = {
  get events(): Record<string, HookEntry[]> {
    return registry().events;
  },
  on: (hook: string, fn: (...args: any[]) => unknown, options?: { once?: boolean }) => registry().on(hook, fn, options),
  once: (hook: string, fn: (...args: any[]) => unknown) => registry().once(hook, fn),
  off: (hook: string, fn: number | ((...args: any[]) => unknown)) => registry().off(hook, fn),
  callAll: (hook: string, ...args: unknown[]): true => registry().callAll(hook, ...args),
  call: (hook: string, ...args: unknown[]): boolean => registry().call(hook, ...args),
  onError: (location: string, error: Error, options?: { notify?: string | null; msg?: string; log?: string }) => registry().onError(location, error, options),
};
