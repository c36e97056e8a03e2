/**
 * A small API for macros and modules, on `game.tenSegments` (what each call
 * does: api-calls.ts). Only the names are set at init; the bodies are a
 * chunk loaded at the first call, so start-up does not carry them.
 */
import type { api as Calls } from './api-calls';

type Api = typeof Calls;

/** Every call of the API, in api-calls.ts's order. */
const NAMES = ['declare', 'attack', 'next', 'previous', 'delay', 'release', 'cancelCasting', 'breakCasting', 'chooseSpell', 'reaction', 'encounterDistance', 'healCheck', 'injury', 'staunch'] as const satisfies readonly (keyof Api)[];

/** Every name, checked: a call added to api-calls.ts and not here does not compile. */
const ALL: Exclude<keyof Api, (typeof NAMES)[number]> extends never ? typeof NAMES : never = NAMES;

/** game.tenSegments: each call loads the bodies (once) and runs its own. */
export const api = Object.fromEntries(
  ALL.map((name) => [name, async (...args: unknown[]) => ((await import('./api-calls')).api[name] as (...a: unknown[]) => unknown)(...args)]),
) as unknown as Api;

export function registerApi(): void {
  (game as unknown as { tenSegments: Api }).tenSegments = api;
}
