/**
 * Hooks (v13 client/helpers/hooks.mjs behaviour): on/once return a numeric id;
 * call stops at the first callback returning exactly false and returns false;
 * callAll runs every callback. A callback that throws is caught and logged
 * (here: recorded in handle.errors) and the other callbacks still run.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { recordError } from './state';

interface HookEntry {
  hook: string;
  id: number;
  fn: (...args: any[]) => unknown;
  once: boolean;
}

let events: Record<string, HookEntry[]> = {};
let ids = new Map<number, HookEntry>();
let nextId = 1;

function run(entry: HookEntry, args: unknown[]): unknown {
  if (entry.once) hooks.off(entry.hook, entry.id);
  try {
    return entry.fn(...args);
  } catch (err) {
    recordError(`Hooks.#call(${entry.hook})`, err);
    return undefined;
  }
}

export const hooks = {
  get events(): Record<string, HookEntry[]> {
    return events;
  },
  on(hook: string, fn: (...args: any[]) => unknown, { once = false } = {}): number {
    if (typeof fn !== 'function') throw new Error(`Hook "${hook}" callback must be a function`);
    const entry = { hook, id: nextId++, fn, once };
    (events[hook] ??= []).push(entry);
    ids.set(entry.id, entry);
    return entry.id;
  },
  once(hook: string, fn: (...args: any[]) => unknown): number {
    return hooks.on(hook, fn, { once: true });
  },
  off(hook: string, fn: number | ((...args: any[]) => unknown)): void {
    let entry: HookEntry | undefined;
    if (typeof fn === 'number') entry = ids.get(fn);
    else entry = events[hook]?.find((h) => h.fn === fn);
    if (!entry || entry.hook !== hook) return;
    events[hook] = events[hook].filter((h) => h !== entry);
    ids.delete(entry.id);
  },
  callAll(hook: string, ...args: unknown[]): true {
    for (const entry of Array.from(events[hook] ?? [])) run(entry, args);
    return true;
  },
  call(hook: string, ...args: unknown[]): boolean {
    for (const entry of Array.from(events[hook] ?? [])) {
      if (run(entry, args) === false) return false;
    }
    return true;
  },
  onError(location: string, error: Error, { notify }: { notify?: string | null; msg?: string; log?: string } = {}): void {
    recordError(location, error);
    if (notify) (globalThis as any).ui?.notifications?.[notify]?.(error.message);
  },
  reset(): void {
    events = {};
    ids = new Map();
    nextId = 1;
  },
};
