/**
 * What a Combat stores, checked. Pure: no Foundry global.
 *
 * Schema 2 (this build): `system.version` = 2 (`system.schema` before world
 * schema 4) and `system.log`, the combat as
 * its log of transitions (src/rules/flow/log.ts), entries keyed e00000x…,
 * e00001x… (flow/log.ts chainKey). A combat stored by schema 1 becomes a log
 * in the world migration (combat-log-v1.ts).
 */

import type { FlowInput } from '../rules/flow';

/** The schema of the Combat's stored data this build writes. */
export const COMBAT_SCHEMA = 2;

/** The kinds of log entry a stored log may hold. */
export const ENTRY_KINDS = [
  'start', 'snapshot', 'patch', 'declare', 'withdraw', 'begin', 'next', 'hit', 'cancel', 'restore', 'join', 'leave', 'move', 'morale', 'attack',
  'delay', 'release', 'break', 'choose', 'reaction', 'distance', 'staunch', 'heal', 'injury', 'moved', 'retarget', 'stop',
] as const;

/** Every input of the flow can be stored: a kind missing here is a type error, not a log the GM cannot write. */
type Unstorable = Exclude<FlowInput['t'], (typeof ENTRY_KINDS)[number]>;
const everyInputStorable: [Unstorable] extends [never] ? true : Unstorable = true;
void everyInputStorable;

/** Keys of log entries: "e", five or more digits (the entry's number), and the chain hash a store adds (flow/log.ts chainKey). */
export const ENTRY_KEY = /^e\d{5,}(?:x[0-9a-z]{1,7})?$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Null if a stored entry has the frame of a log entry, else the reason (a key under TENSEG.Error). */
export function entryProblem(value: unknown): { key: string; data?: Record<string, string> } | null {
  if (!isRecord(value)) return { key: 'CombatLogEntryInvalid', data: { reason: 'type' } };
  if (!(ENTRY_KINDS as readonly unknown[]).includes(value.t)) return { key: 'CombatLogEntryInvalid', data: { reason: String(value.t) } };
  if (value.r !== undefined && !(Array.isArray(value.r) && value.r.every((n) => typeof n === 'number' && Number.isInteger(n)))) {
    return { key: 'CombatLogEntryInvalid', data: { reason: 'dice' } };
  }
  if (value.q !== undefined && !(typeof value.q === 'string' && value.q.length <= 100)) return { key: 'CombatLogEntryInvalid', data: { reason: 'request' } };
  if (value.k !== undefined && !(typeof value.k === 'string' && value.k.length <= 100)) return { key: 'CombatLogEntryInvalid', data: { reason: 'who' } };
  return null;
}
