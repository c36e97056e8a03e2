/**
 * A stored value no client's model accepts (issue 27). Foundry's server
 * stores an actor's `system` data without the system's data model (it runs
 * no system code), so a modified client can write `"abc"`, `null` or `1e308`
 * as hit points. Every client applies the server's change to its own copy
 * with `updateSource`: a value the model refuses throws there (the copy
 * stays as it was, the error is logged, no update hook fires), a value the
 * model cleans (1e308 clamped to 9999) is stored cleaned. Either way the
 * server's document and the clients' copies disagree, and a refused value
 * makes the actor invalid at the next load (it vanishes from the world).
 *
 * So the system's Actor class (token-status.ts) passes what it receives
 * through `guardReceipt`: on the active GM's client, a change of `system`
 * data whose values the copy could not take as they came is noted, and the
 * GM's side (handlers/health.ts repairStored) writes the stored document
 * back: the fight's value for a counted health field of a combatant in a
 * running combat, else the value this client held before (the last valid
 * one), with a notice to the GM. Start-up code: small, no GM's side here.
 */
import { isActiveGM } from './permissions';
import { clientState } from './client-state';
import { loadedGMSide, loadGMSide, serialize } from './requests';

/** Actors (by uuid) whose stored document this client is repairing: their update hook is no one's change of health. */
const repairing = () => clientState('healthRepairs', () => new Set<string>());

export function beingRepaired(actor: Actor.Implementation): boolean {
  return repairing().has(actor.uuid as string);
}

/** The `system` leaves a change writes, dotted (Foundry's own deletion and replacement keys left out). */
function systemLeaves(changes: unknown): [string, unknown][] {
  if (typeof changes !== 'object' || changes === null) return [];
  const flat = foundry.utils.flattenObject(changes as object) as Record<string, unknown>;
  return Object.entries(flat).filter(([path]) => path.startsWith('system.') && !path.includes('-=') && !path.includes('=='));
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Is this a world actor of this client's, receiving a change (not a dry run, not a document being made)? */
function isReceipt(actor: Actor.Implementation, options: unknown): boolean {
  if ((options as { dryRun?: boolean } | undefined)?.dryRun) return false;
  return !!actor.id && game.actors?.get(actor.id) === actor;
}

/** `apply` is the Actor's own updateSource; what it could not take as it came is repaired by the active GM. */
export function guardReceipt<T>(actor: Actor.Implementation, changes: unknown, options: unknown, apply: () => T): T {
  if (!isActiveGM() || !isReceipt(actor, options)) return apply();
  const leaves = systemLeaves(changes);
  if (leaves.length === 0) return apply();
  const source = actor._source as object;
  const before = Object.fromEntries(leaves.map(([path]) => [path, foundry.utils.getProperty(source, path)]));
  let result: T;
  try {
    result = apply();
  } catch (err) {
    // Nothing of the change reached this copy: all of it goes back.
    scheduleRepair(actor, before);
    throw err;
  }
  const bad = leaves.filter(([path, value]) => !same(foundry.utils.getProperty(actor._source as object, path), value));
  if (bad.length > 0) scheduleRepair(actor, Object.fromEntries(bad.map(([path]) => [path, before[path]])));
  return result;
}

function scheduleRepair(actor: Actor.Implementation, previous: Record<string, unknown>): void {
  const set = repairing();
  set.add(actor.uuid as string);
  // After what is queued for the actor's combat (the fight's value is read then); a combat's key orders it with the comparisons.
  const combat = (game.combats?.contents ?? []).find((c) => c.combatants.contents.some((x) => x.actor === actor || x.actor?.uuid === actor.uuid));
  void serialize((combat?.id as string | undefined) ?? `repair:${actor.uuid}`, async () => {
    try {
      await (loadedGMSide() ?? (await loadGMSide())).repairStored(actor, previous);
    } finally {
      set.delete(actor.uuid as string);
    }
  }).catch((err: unknown) => console.error('Ten Segments | repairing a stored actor', err));
}
