/**
 * A stored world for migration tests: the server's copy of the raw sources
 * and a load that builds the world collections from them as Foundry does.
 *
 *  - `loadWorld` puts the raw sources in the stand-in's server; every client
 *    then has them on `game.data` and builds its world collections from
 *    copies of them, as Foundry does at load: each document goes through its
 *    data model (`migrateData`, cleaning, validation); one that fails
 *    validation is left out and its id kept in the collection's
 *    `invalidDocumentIds`.
 *  - `Database` is the server's copy: the raw sources, changed only by writes
 *    that reach the database. It reads what each update sent from the
 *    pre-update hook (the change as requested; with `diff: false` that is
 *    what core sends) and commits it on the update hook (which fires only
 *    when the write happened), with the server's `_stats`. Deletions of
 *    embedded keys (`-=key` / ForcedDeletion) are applied.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { expect } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';
import { initSystem } from '../../src/system';

const g = globalThis as any;
const LANG = ['lang/en.json'];

export type Source = Record<string, any>;
export interface StoredWorld {
  actors: Source[];
  items: Source[];
  scenes: Source[];
  combats: Source[];
}

/** Collections of a world, with their document names and embedded collections. */
export const COLLECTIONS = [
  ['actors', 'Actor'],
  ['items', 'Item'],
  ['scenes', 'Scene'],
  ['combats', 'Combat'],
] as const;
const EMBEDDED: Record<string, { collection: string; parent: string }> = {
  Item: { collection: 'items', parent: 'Actor' },
  Token: { collection: 'tokens', parent: 'Scene' },
  Combatant: { collection: 'combatants', parent: 'Combat' },
  CombatantGroup: { collection: 'groups', parent: 'Combat' },
};
const WORLD_COLLECTION: Record<string, keyof StoredWorld> = { Actor: 'actors', Item: 'items', Scene: 'scenes', Combat: 'combats' };

/** The server's copy of the world: raw sources changed only by writes that reached the database. */
export class Database {
  data: StoredWorld;
  /** Changes requested, by document uuid, waiting for their write. */
  #requested = new Map<string, any>();
  constructor(stored: StoredWorld) {
    this.data = structuredClone(stored);
  }

  record(doc: any): Source | undefined {
    const embedded = doc.parent && EMBEDDED[doc.documentName];
    if (embedded) return (this.record(doc.parent)?.[embedded.collection] as Source[] | undefined)?.find((s) => s._id === doc.id);
    return this.data[WORLD_COLLECTION[doc.documentName]]?.find((s) => s._id === doc.id);
  }

  find(collection: keyof StoredWorld, id: string): Source {
    const s = this.data[collection].find((d) => d._id === id);
    if (!s) throw new Error(`no stored ${collection} ${id}`);
    return s;
  }

  /** Listen to the database workflow of the installed stand-in (hooks are cleared on every install). */
  attach(): void {
    for (const name of ['Actor', 'Item', 'Scene', 'Token', 'Combat', 'Combatant', 'CombatantGroup']) {
      g.Hooks.on(`preUpdate${name}`, (doc: any, changes: any) => {
        this.#requested.set(doc.uuid, changes);
      });
      g.Hooks.on(`update${name}`, (doc: any, changed: any, options: any) => {
        const requested = this.#requested.get(doc.uuid);
        this.#requested.delete(doc.uuid);
        // Core sends the diff against the in-memory source, or with diff: false the change as requested.
        const { _id, _stats, ...sent } = g.foundry.utils.deepClone(options.diff === false ? requested : changed);
        const record = this.record(doc);
        if (!record) throw new Error(`update of ${doc.uuid}, which the database does not hold`);
        g.foundry.utils.mergeObject(record, sent, { performDeletions: true });
        // The server stamps every document with a _stats field, a record stored without one included
        if (changed._stats) record._stats = { ...record._stats, ...changed._stats };
      });
    }
  }
}

/**
 * Put `stored` in the server's database; every client then builds its world
 * collections from it as Foundry does at load, with `game.data` holding the
 * stored sources.
 */
export function loadWorld(foundry: FoundryHandle, stored: StoredWorld): void {
  foundry.server.load({ Actor: stored.actors, Item: stored.items, Scene: stored.scenes, Combat: stored.combats });
}

/** A fresh stand-in with the system initialised and `stored` loaded at schema `version`. */
export async function boot(generation: 13 | 14, stored: StoredWorld, version = 0): Promise<{ foundry: FoundryHandle; db: Database }> {
  const foundry = installFoundry({ generation, lang: LANG, systemId: 'ten-segments' });
  foundry.everyClient(initSystem);
  if (version > 0) await g.game.settings.set('ten-segments', 'schemaVersion', version);
  loadWorld(foundry, stored);
  const db = new Database(stored);
  db.attach();
  foundry.writes.clear();
  return { foundry, db };
}

export const withoutStats = (s: Source): Source => {
  const { _stats, ...rest } = s;
  for (const key of ['items', 'tokens', 'combatants', 'groups']) if (Array.isArray(rest[key])) rest[key] = rest[key].map(withoutStats);
  return rest;
};


/** Each live document is what a reload of its stored record gives. */
export function expectMemoryMatchesDatabase(db: Database): void {
  for (const [collection, documentName] of COLLECTIONS) {
    const cls = g.CONFIG[documentName].documentClass;
    for (const stored of db.data[collection]) {
      const live = g.game[collection].get(stored._id);
      expect(live, `${documentName} ${stored.name}`).toBeDefined();
      expect(live.toObject(), `${documentName} ${stored.name}`).toStrictEqual(new cls(structuredClone(stored)).toObject());
    }
  }
}

