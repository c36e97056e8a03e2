/**
 * World migration. The schema version a world was last migrated to is kept
 * in the world setting `schemaVersion`; at ready the active GM migrates every
 * actor, item (world and embedded) and combat still on an older schema.
 * Each step is a pure function of a document's stored source (src/data), so
 * a migration changes only what it must and loses nothing. A document that
 * fails to migrate is reported and left as it was; the version is only
 * raised when everything migrated.
 */
import { migrateActorSource } from '../data/migrations';
import { diff, type Json } from '../rules/journal';
import { SYSTEM_ID } from '../settings';

/** The schema this build writes. */
export const SCHEMA_VERSION = 1;

type SourceMigration = (source: Record<string, unknown>) => Record<string, unknown>;

interface Migration {
  /** The version a world has after this step. */
  version: number;
  actor?: SourceMigration;
  item?: SourceMigration;
  combat?: SourceMigration;
}

/**
 * Version 1: the first released schema. Worlds made with the pre-release
 * build (version 0) stored movement as inches, hit dice and AAC0 as numbers,
 * and a combatant's declaration in a flag; all become the version 1 fields.
 */
const MIGRATIONS: Migration[] = [
  {
    version: 1,
    actor: (source) => {
      const system = structuredClone((source.system ?? {}) as Record<string, unknown>);
      return { ...source, system: migrateActorSource(system) };
    },
    combat: (source) => {
      const combatants = ((source.combatants ?? []) as Record<string, unknown>[]).map((c) => {
        const flags = (c.flags ?? {}) as Record<string, Record<string, unknown> | undefined>;
        const legacy = flags[SYSTEM_ID]?.declaration;
        if (legacy === undefined) return c;
        const { declaration: _moved, ...rest } = flags[SYSTEM_ID] ?? {};
        return { ...c, system: { ...((c.system ?? {}) as object), declaration: legacy }, flags: { ...flags, [SYSTEM_ID]: rest } };
      });
      return { ...source, combatants };
    },
  },
];

/** Apply every step above `from` to one source (pure). */
export function migrateSource(kind: 'actor' | 'item' | 'combat', source: Record<string, unknown>, from: number): Record<string, unknown> {
  let out = source;
  for (const m of MIGRATIONS) if (m.version > from && m[kind]) out = (m[kind] as SourceMigration)(out);
  return out;
}

/** The update that turns `before` into `after`: changed top-level fields, replaced whole. */
export function updateFor(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> | null {
  const changes = diff(before as Json, after as Json);
  if (changes.length === 0) return null;
  const fields = new Set(changes.map((c) => String(c.path[0])));
  const update: Record<string, unknown> = { _id: before._id };
  for (const f of fields) update[f] = after[f];
  return update;
}

export interface MigrationReport {
  from: number;
  to: number;
  actors: number;
  items: number;
  combats: number;
  failed: string[];
}

type RawWorld = { actors?: Record<string, unknown>[]; items?: Record<string, unknown>[]; combats?: Record<string, unknown>[] };

/** Migrate the world if its schema is older than this build's. Active GM only. */
export async function migrateWorld(): Promise<MigrationReport | null> {
  if (!game.user?.isGM || game.users?.activeGM?.id !== game.user.id) return null;
  const from = Number(game.settings!.get(SYSTEM_ID, 'schemaVersion') ?? 0);
  if (from >= SCHEMA_VERSION) return null;
  const report: MigrationReport = { from, to: SCHEMA_VERSION, actors: 0, items: 0, combats: 0, failed: [] };
  // The stored sources, as they were before the data models read them.
  const raw = ((game as unknown as { data?: RawWorld }).data ?? {}) as RawWorld;
  const options = { diff: false, recursive: false, [`${SYSTEM_ID}Migration`]: true };

  const actorUpdates: Record<string, unknown>[] = [];
  for (const source of raw.actors ?? []) {
    try {
      const migrated = migrateSource('actor', source, from);
      const update = updateFor(source, migrated);
      if (update) actorUpdates.push(update);
      const items = (source.items ?? []) as Record<string, unknown>[];
      const itemUpdates = items.map((i) => updateFor(i, migrateSource('item', i, from))).filter((u): u is Record<string, unknown> => !!u);
      if (itemUpdates.length > 0) {
        const actor = game.actors?.get(source._id as string);
        await actor?.updateEmbeddedDocuments('Item', itemUpdates as never, options as never);
        report.items += itemUpdates.length;
      }
    } catch (err) {
      report.failed.push(`Actor ${String(source.name ?? source._id)}: ${(err as Error).message}`);
    }
  }
  if (actorUpdates.length > 0) {
    try {
      await Actor.updateDocuments(actorUpdates as never, options as never);
      report.actors = actorUpdates.length;
    } catch (err) {
      report.failed.push(`Actors: ${(err as Error).message}`);
    }
  }
  const itemUpdates = (raw.items ?? []).map((i) => updateFor(i, migrateSource('item', i, from))).filter((u): u is Record<string, unknown> => !!u);
  if (itemUpdates.length > 0) {
    try {
      await Item.updateDocuments(itemUpdates as never, options as never);
      report.items += itemUpdates.length;
    } catch (err) {
      report.failed.push(`Items: ${(err as Error).message}`);
    }
  }
  for (const source of raw.combats ?? []) {
    const update = updateFor(source, migrateSource('combat', source, from));
    if (!update) continue;
    try {
      const combat = game.combats?.get(source._id as string);
      const combatants = update.combatants as Record<string, unknown>[] | undefined;
      if (combat && combatants) {
        const changed = combatants.filter((c, i) => updateFor(((source.combatants ?? []) as Record<string, unknown>[])[i], c));
        await combat.updateEmbeddedDocuments('Combatant', changed.map((c) => ({ _id: c._id, system: c.system, flags: c.flags })) as never, options as never);
      }
      report.combats += 1;
    } catch (err) {
      report.failed.push(`Combat ${String(source._id)}: ${(err as Error).message}`);
    }
  }
  if (report.failed.length === 0) await game.settings!.set(SYSTEM_ID, 'schemaVersion', SCHEMA_VERSION);
  return report;
}
