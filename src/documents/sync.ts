/**
 * After a transition, bring actors and combatants in line with what the
 * engine decided: spells expended (or restored by an undo), health changed by
 * the flow itself (bleeding, an undone hit), Foundry's defeated status. The
 * engine decides; this only copies, batched where Foundry allows (see applySync).
 * These writes carry a mark the active GM's damage hook believes from its own
 * client only (another client's options are never read): a linked actor in
 * two combats must not turn one combat's Previous into the other's hit.
 * Only the active GM writes: this is part of the GM's side (handlers/index.ts),
 * a chunk loaded on first use.
 */
import type { CombatantState } from '../rules/model';
import type { FlowState } from '../rules/flow';
import { spellData } from '../data/systems';
import { SYNC_OPTION } from './schema-version';

const HEALTH_PATHS = {
  hp: 'system.hp.value',
  stress: 'system.individual.stress.value',
  woundPoints: 'system.individual.wounds.value',
} as const;

function count(list: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of list) m.set(s, (m.get(s) ?? 0) + 1);
  return m;
}

/** What to write, computed purely from two flow states (tested without Foundry). */
export interface SyncPlan {
  /** Per combatant: spell name → change in copies expended (+ cast or lost, − restored). */
  spells: Record<string, Record<string, number>>;
  /** Per combatant: health fields the flow changed. */
  health: Record<string, Partial<Record<keyof typeof HEALTH_PATHS, number>>>;
  /** Per combatant: defeated true/false when death came or went. */
  defeated: Record<string, boolean>;
}

export function planSync(before: FlowState | null, after: FlowState, skipHealthOf: readonly string[] = []): SyncPlan {
  const plan: SyncPlan = { spells: {}, health: {}, defeated: {} };
  for (const [id, now] of Object.entries(after.states)) {
    const prev: CombatantState | undefined = before?.states[id];
    if (!prev) continue;
    const a = count(prev.expended);
    const b = count(now.expended);
    for (const name of new Set([...a.keys(), ...b.keys()])) {
      const delta = (b.get(name) ?? 0) - (a.get(name) ?? 0);
      if (delta !== 0) (plan.spells[id] ??= {})[name] = delta;
    }
    if (!skipHealthOf.includes(id)) {
      for (const key of Object.keys(HEALTH_PATHS) as (keyof typeof HEALTH_PATHS)[]) {
        if (now[key] !== undefined && now[key] !== prev[key]) (plan.health[id] ??= {})[key] = now[key] as number;
      }
    }
    if ((prev.condition === 'dead') !== (now.condition === 'dead')) plan.defeated[id] = now.condition === 'dead';
  }
  return plan;
}

/**
 * Write a sync plan: spells as one item update per caster (items are embedded
 * in their actor); health as one batched update of every world actor (tokens'
 * synthetic actors, which live in their scenes, one update each); defeated as
 * one combatant update for the combat.
 */
export async function applySync(combat: Combat.Implementation, plan: SyncPlan): Promise<void> {
  const worldHealth: Record<string, unknown>[] = [];
  const ids = new Set([...Object.keys(plan.spells), ...Object.keys(plan.health)]);
  for (const id of ids) {
    const actor = combat.combatants.get(id)?.actor;
    if (!actor) continue;
    const spellChanges = plan.spells[id] ?? {};
    const itemUpdates: Record<string, unknown>[] = [];
    for (const [name, delta] of Object.entries(spellChanges)) {
      const item = actor.items.find((i) => i.type === 'spell' && i.name === name);
      if (!item) continue;
      const sys = spellData(item);
      if (!sys) continue;
      const expended = Math.max(0, Math.min(sys.memorized, sys.expended + delta));
      if (expended !== sys.expended) itemUpdates.push({ _id: item.id, 'system.expended': expended });
    }
    if (itemUpdates.length > 0) await actor.updateEmbeddedDocuments('Item', itemUpdates);
    const health = plan.health[id];
    if (health && Object.keys(health).length > 0) {
      const data: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(health)) data[HEALTH_PATHS[key as keyof typeof HEALTH_PATHS]] = value as number;
      if (actor.isToken) await actor.update(data, { [SYNC_OPTION]: true });
      else worldHealth.push({ _id: actor.id, ...data });
    }
  }
  if (worldHealth.length > 0) {
    // One actor fighting as two combatants (linked tokens) gets one update: the last value wins, as it would.
    const byActor = new Map<string, Record<string, unknown>>();
    for (const u of worldHealth) byActor.set(u._id as string, { ...(byActor.get(u._id as string) ?? {}), ...u });
    await Actor.updateDocuments([...byActor.values()], { [SYNC_OPTION]: true });
  }
  const defeated = Object.entries(plan.defeated).filter(([id]) => combat.combatants.has(id));
  if (defeated.length > 0) {
    await combat.updateEmbeddedDocuments('Combatant', defeated.map(([id, d]) => ({ _id: id, defeated: d })));
  }
}
