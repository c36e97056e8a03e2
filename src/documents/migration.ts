/**
 * World migration. The schema version a world was last migrated to is kept
 * in the world setting `schemaVersion`; at ready the active GM migrates every
 * actor, item (world and embedded) and combat (with its combatants) still on
 * an older schema.
 *
 * Each step is a pure function of a document's stored source (src/data).
 * The stored sources are read from `game.data`, the world data as the server
 * sent it, before the data models' `migrateData` converted it in memory.
 * Because the in-memory source is already converted, an ordinary update
 * (which core diffs against the in-memory source) would find nothing to send
 * and the database would keep the old shapes; so the update is sent with
 * `diff: false`, and it names only the fields the migration changed (dotted
 * paths, deletions as `-=key` / `_del`), so nothing else is overwritten.
 * Core's client cleans an update against the data model before sending it
 * (in place: what it sends is the cleaned object), which drops any key of
 * `system` the model does not define, deletions included: such a key cannot
 * be removed by an update and stays in the database, where the model never
 * reads it. The migration leaves those deletions out, and a document whose
 * only change was one has nothing to write.
 *
 * A document that cannot be migrated — it could not be loaded, a value
 * cannot be converted without being lost, or the converted data is refused —
 * is reported and left as it was; the version is raised only when everything
 * migrated. Running again changes nothing already migrated.
 */
import { classTurnsUndead, migrateActorSource } from '../data/migrations';
import { COMBAT_SCHEMA } from '../data/combat-log';
import { logFromSchema1 } from '../data/combat-log-v1';
import type { Json } from '../rules/journal';
import { diff } from '../rules/journal-diff';
import { SYSTEM_ID } from '../settings';
import { deletionUpdate } from './compat-writes';

import { MIGRATION_OPTION, SCHEMA_VERSION } from './schema-version';

export { SCHEMA_VERSION };

type Source = Record<string, unknown>;
type SourceMigration = (source: Source) => Source;
export type MigratedKind = 'Actor' | 'Item' | 'Combat' | 'Combatant' | 'CombatantGroup';

interface Migration {
  /** The version a world has after this step. */
  version: number;
  /** Each function gets a document's own source, without its embedded collections. */
  Actor?: SourceMigration;
  Item?: SourceMigration;
  Combat?: SourceMigration;
  Combatant?: SourceMigration;
  CombatantGroup?: SourceMigration;
}

function isRecord(v: unknown): v is Source {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Version 1: the first released schema. Worlds made with the pre-release
 * build (version 0) stored movement as inches, hit dice and AAC0 as numbers,
 * hp and AC as numeric text (src/data/migrations.ts), and a combatant's
 * declaration in the flag `flags.ten-segments.declaration`; all become the
 * version 1 fields.
 */
/**
 * A declaration kept on a combatant by schema 2 or earlier (the engine's
 * Declaration: a weapon's stats, a spell's name and casting time) as the
 * request it now is (items by id, choices; the numbers come from the items
 * when the combat starts). Null when it cannot be read.
 */
function requestOfDeclaration(d: unknown, actorId: unknown): Record<string, unknown> | null {
  if (!isRecord(d) || typeof d.action !== 'string') return null;
  if (!('combatant' in d) && !isRecord(d.weapon) && !('castingTime' in d)) return d; // already a request
  const actor = typeof actorId === 'string' ? game.actors?.get(actorId) : undefined;
  const idOf = (type: string, name: unknown) => (typeof name === 'string' ? actor?.items.find((i) => i.type === type && i.name === name)?.id : undefined);
  const out: Record<string, unknown> = { action: d.action };
  for (const k of ['target', 'note'] as const) if (typeof d[k] === 'string' && d[k] !== '') out[k] = d[k];
  for (const k of ['readied', 'delayed'] as const) if (d[k] === true) out[k] = true;
  const weapon = idOf('weapon', isRecord(d.weapon) ? d.weapon.name : undefined);
  if (weapon) out.weapon = weapon;
  const spell = idOf('spell', d.spell);
  if (spell) out.spell = spell;
  else if (typeof d.spell === 'string' && d.spell !== '') out.spellName = d.spell;
  return out;
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    Actor: (source) => {
      if (!isRecord(source.system)) return source;
      return { ...source, system: migrateActorSource(structuredClone(source.system)) };
    },
    Combatant: (source) => {
      const flags = isRecord(source.flags) ? source.flags : {};
      const own = flags[SYSTEM_ID];
      if (!isRecord(own) || !Object.hasOwn(own, 'declaration')) return source;
      const { declaration: legacy, ...rest } = own;
      const system = isRecord(source.system) ? source.system : {};
      // A declaration already in system data was written by a newer build: it wins.
      const declaration = system.declaration ?? legacy ?? null;
      return { ...source, system: { ...system, declaration }, flags: { ...flags, [SYSTEM_ID]: rest } };
    },
  },
  {
    /**
     * Version 2: the combat is stored as its log of transitions
     * (src/data/combat-log.ts): a running combat's flow and undo history
     * become a snapshot and one patch entry per transition, so play and
     * Previous go on as before. Fields nothing ever wrote are dropped:
     * combatants' `routinesUsed` and `spellsExpended`, sides' `surpriseRoll`
     * and `initiativeRoll` (and the combat's `flow` and `history`): the data
     * models no longer read them; the database keeps them (see above).
     */
    version: 2,
    Combat: (source) => {
      const system = isRecord(source.system) ? source.system : {};
      if (!('flow' in system) && !('history' in system)) return source;
      // Migrated already (a run whose version was not raised, then reloaded): the old text stays beside the
      // log, as core's client cannot delete it; the log, which play has moved on since, is the combat.
      if (isRecord(system.log)) return source;
      const { flow, history, ...rest } = system;
      return { ...source, system: { ...rest, version: COMBAT_SCHEMA, log: logFromSchema1(flow, history) } };
    },
    Combatant: (source) => withoutSystemKeys(source, ['routinesUsed', 'spellsExpended']),
    CombatantGroup: (source) => withoutSystemKeys(source, ['surpriseRoll', 'initiativeRoll']),
  },
  {
    /**
     * Version 3: a declaration waiting on a combatant is the request it came
     * from (items by id), checked again when it enters the combat.
     */
    version: 3,
    Combatant: (source) => {
      const system = isRecord(source.system) ? source.system : {};
      if (!isRecord(system.declaration)) return source;
      const declaration = requestOfDeclaration(system.declaration, source.actorId);
      if (declaration === system.declaration) return source;
      return { ...source, system: { ...system, declaration } };
    },
  },
  {
    /**
     * Version 4: a combat's stored-data version is `system.version`; it was
     * `system.schema`, the name of a DataModel getter that core's data model
     * cannot assign.
     */
    version: 4,
    Combat: (source) => {
      const system = isRecord(source.system) ? source.system : {};
      if (!('schema' in system)) return source;
      const { schema, ...rest } = system;
      return { ...source, system: { ...rest, version: rest.version ?? schema } };
    },
  },
  {
    /**
     * Version 5: the fields individual-speed's Defense, Armour, critical hits
     * and Combat Injuries read (seed 003). Nothing stored says what they are
     * (no text converts an Armor Class or a weapon's name into them), so
     * every actor and item gets the rules' defaults where it has none: an
     * actor's Defense bonus, Armour bonus and attack bonus 0; a weapon's
     * critical multiplier x2 and no damage type; an armour's Defense and
     * Armour bonuses 0. A value already there is kept.
     */
    version: 5,
    Actor: (source) => (source.type === 'character' || source.type === 'monster' ? withDefaults(source, ['individual'], ACTOR_DEFAULTS_V5) : source),
    Item: (source) =>
      source.type === 'weapon' ? withDefaults(source, [], WEAPON_DEFAULTS_V5) : source.type === 'armor' ? withDefaults(source, [], ARMOR_DEFAULTS_V5) : source,
  },
  {
    /**
     * Version 6 (issue 28): turning undead and using a magic device are offered only to one who has them. A
     * character gets "Turns undead" from its class name (a cleric or paladin turns: src/data/migrations.ts), every
     * other actor does not turn; a gear item is no magic device until the GM marks it one (nothing stored says
     * which is: a name such as "Staff" may be a walking stick). A value already there is kept.
     */
    version: 6,
    Actor: (source) => {
      if (source.type === 'character') {
        const system = isRecord(source.system) ? source.system : {};
        const details = isRecord(system.details) ? system.details : {};
        return withDefaults(source, ['details'], { turnsUndead: classTurnsUndead(details.className) });
      }
      return source.type === 'monster' ? withDefaults(source, [], { turnsUndead: false }) : source;
    },
    Item: (source) => (source.type === 'gear' ? withDefaults(source, [], { device: false }) : source),
  },
];

const ACTOR_DEFAULTS_V5 = { defense: 0, armour: 0, attackBonus: 0 };
const WEAPON_DEFAULTS_V5 = { critical: 2, damageTypes: [] as string[] };
const ARMOR_DEFAULTS_V5 = { defense: 0, armour: 0 };

/** The source with `defaults` set in `system.<path>` where they are missing; the same source when none is. */
function withDefaults(source: Source, path: string[], defaults: Record<string, unknown>): Source {
  const system = isRecord(source.system) ? source.system : {};
  let at: unknown = system;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  const here = isRecord(at) ? at : {};
  const missing = Object.keys(defaults).filter((k) => !Object.hasOwn(here, k));
  if (missing.length === 0) return source;
  const filled = { ...here, ...Object.fromEntries(missing.map((k) => [k, structuredClone(defaults[k])])) };
  const out = structuredClone(system);
  let parent: Source = out;
  for (const key of path.slice(0, -1)) parent = (parent[key] = isRecord(parent[key]) ? parent[key] : {}) as Source;
  if (path.length === 0) return { ...source, system: { ...out, ...filled } };
  parent[path[path.length - 1]] = filled;
  return { ...source, system: out };
}

function withoutSystemKeys(source: Source, keys: readonly string[]): Source {
  const system = isRecord(source.system) ? source.system : null;
  if (!system || !keys.some((k) => k in system)) return source;
  return { ...source, system: Object.fromEntries(Object.entries(system).filter(([k]) => !keys.includes(k))) };
}

/** The embedded collections of each migrated document, migrated on their own. */
const EMBEDDED: Partial<Record<MigratedKind, string[]>> = { Actor: ['items', 'effects'], Item: ['effects'], Combat: ['combatants', 'groups'] };

/** Apply every step above `from` to one document's own source (pure; embedded collections are left out). */
export function migrateSource(kind: MigratedKind, source: Source, from: number): Source {
  let out: Source = { ...source };
  for (const key of EMBEDDED[kind] ?? []) delete out[key];
  for (const m of MIGRATIONS) {
    const step = m[kind];
    if (m.version > from && step) out = step(out);
  }
  return out;
}

/**
 * The update that turns `before` into `after`: the changed fields only, as
 * dotted paths (an array is replaced whole), deletions in the running
 * generation's form. Null when nothing changed.
 */
export function updateFor(before: Source, after: Source): Source | null {
  const own = (s: Source) => Object.fromEntries(Object.entries(s).filter(([k]) => !Object.values(EMBEDDED).flat().includes(k)));
  const changes = diff(own(before) as Json, own(after) as Json);
  if (changes.length === 0) return null;
  const update: Source = { _id: before._id };
  for (const change of changes) {
    // Arrays are written whole: cut the path at the first index.
    const cut = change.path.findIndex((p) => typeof p === 'number');
    const path = (cut === -1 ? change.path : change.path.slice(0, cut)).map(String);
    if (cut !== -1) update[path.join('.')] = structuredClone(getPath(after, path));
    else if (change.value === undefined) Object.assign(update, deletionUpdate(path.slice(0, -1).join('.'), path[path.length - 1]));
    else update[path.join('.')] = structuredClone(change.value);
  }
  return update;
}

function getPath(value: unknown, path: string[]): unknown {
  let v = value;
  for (const k of path) v = isRecord(v) || Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/* ------------------------------------------------------ lossless check */

/** Two leaf values the same once the data model has cast them ("5" and 5, " x" and "x"). */
function sameLeaf(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b) || isRecord(a) || isRecord(b)) return JSON.stringify(a) === JSON.stringify(b);
  return (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean') && String(a).trim() === String(b).trim();
}

/**
 * Paths whose migrated value the data model would change when it reads the
 * document (a value it cannot read falls back to its default, a number out of
 * range is clamped): those values would be lost. Keys the schema does not
 * know are not compared (the database keeps them; the model never shows them).
 */
function lostPaths(migrated: unknown, cleaned: unknown, path: string, out: { path: string; value: unknown }[]): void {
  if (migrated === null || migrated === undefined) return;
  if (isRecord(migrated)) {
    if (!isRecord(cleaned)) {
      out.push({ path, value: migrated });
      return;
    }
    for (const [k, v] of Object.entries(migrated)) if (Object.hasOwn(cleaned, k)) lostPaths(v, cleaned[k], `${path}.${k}`, out);
    return;
  }
  if (!sameLeaf(migrated, cleaned)) out.push({ path, value: migrated });
}

type SchemaLike = { fields: Record<string, unknown> };
type ModelClass = { cleanData(source: Source, options?: Record<string, unknown>): Source; schema: SchemaLike };

/**
 * Whether core's client keeps this dotted update path when it cleans the
 * update against the data model: under `system`, each key inside a schema
 * (a deletion `-=key` too) must be one of its fields; inside any other field
 * (an object, an array) the keys are the field's own. Paths outside `system`
 * are the document's.
 */
function keptByModel(model: ModelClass | undefined, path: string): boolean {
  const [head, ...rest] = path.split('.');
  if (head !== 'system' || !model) return true;
  let fields: Record<string, unknown> = model.schema.fields;
  for (const part of rest) {
    const field = fields[part.startsWith('-=') ? part.slice(2) : part];
    if (!field) return false;
    const inner = (field as Partial<SchemaLike>).fields;
    if (!inner) return true;
    fields = inner;
  }
  return true;
}

/** The update without what core's client would drop from it (keptByModel); null when nothing is left to write. */
function writable(update: Source, model: ModelClass | undefined): Source | null {
  const kept = Object.fromEntries(Object.entries(update).filter(([path]) => path === '_id' || keptByModel(model, path)));
  return Object.keys(kept).some((k) => k !== '_id') ? kept : null;
}

function systemModel(kind: MigratedKind, type: unknown): ModelClass | undefined {
  const config = (CONFIG as unknown as Record<string, { dataModels?: Record<string, ModelClass> } | undefined>)[kind];
  return typeof type === 'string' ? config?.dataModels?.[type] : undefined;
}

/* ------------------------------------------------------------- running */

export interface MigrationFailure {
  /** "Actor", "Item", "Combat" or "Combatant"; null when the world's stored data is missing. */
  documentName: MigratedKind | null;
  /** Document id, and the parent's for an embedded document. */
  id: string;
  parentId?: string;
  name: string;
  /** Lang key under TENSEG.Migration of the reason. */
  reason: 'Unreadable' | 'Lossy' | 'Refused' | 'NoStoredData';
  /** The reason, localized. */
  message: string;
}

export interface MigrationReport {
  from: number;
  to: number;
  /** Documents written, by kind. */
  actors: number;
  items: number;
  combats: number;
  combatants: number;
  groups: number;
  failed: MigrationFailure[];
}

type RawWorld = { actors?: Source[]; items?: Source[]; combats?: Source[] };

interface LiveDocument {
  id: string | null;
  name?: string | null;
  _source: Source;
  updateSource(changes: Source, options: { dryRun: boolean }): unknown;
}
interface LiveCollection {
  get(id: string): LiveDocument | undefined;
  invalidDocumentIds?: Set<string>;
}
type UpdateMany = (updates: Source[], operation: Record<string, unknown>) => Promise<LiveDocument[] | undefined>;

/** One document's planned update. */
interface Planned {
  raw: Source;
  update: Source;
}

/** Raw sources already written this session: a second run never sends them again (game.data is not refreshed until reload). */
const written = new WeakSet<object>();

function text(key: string, data: Record<string, unknown> = {}): string {
  const full = `TENSEG.Migration.${key}`;
  const strings = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return game.i18n ? game.i18n.format(full, strings) : full;
}

class Run {
  readonly report: MigrationReport;
  constructor(readonly from: number) {
    this.report = { from, to: SCHEMA_VERSION, actors: 0, items: 0, combats: 0, combatants: 0, groups: 0, failed: [] };
  }

  fail(kind: MigratedKind, raw: Source, reason: MigrationFailure['reason'], parent?: Source, extra: Record<string, unknown> = {}): void {
    const name = String(raw.name ?? raw._id ?? '');
    const id = String(raw._id ?? '');
    const documentName = game.i18n?.localize(`DOCUMENT.${kind}`) ?? kind;
    const localizedName = documentName.startsWith('DOCUMENT.') ? kind : documentName;
    this.report.failed.push({
      documentName: kind,
      id,
      ...(parent ? { parentId: String(parent._id ?? '') } : {}),
      name,
      reason,
      message: text(reason, { document: localizedName, name, id, ...extra }),
    });
  }

  /**
   * Plan the update of one stored document against its loaded counterpart:
   * null when nothing changes or when it cannot be migrated (then reported).
   */
  plan(kind: MigratedKind, raw: Source, live: LiveDocument | undefined, parent?: Source): Planned | null {
    if (written.has(raw)) return null;
    let migrated: Source;
    try {
      migrated = migrateSource(kind, raw, this.from);
    } catch (err) {
      this.fail(kind, raw, 'Unreadable', parent, { error: lastLine(err) });
      return null;
    }
    const changes = updateFor(raw, migrated);
    if (!changes) return null;
    if (!live) {
      this.fail(kind, raw, 'Unreadable', parent);
      return null;
    }
    const model = systemModel(kind, migrated.type ?? live._source.type);
    const update = writable(changes, model);
    if (!update) return null;
    if (model && isRecord(migrated.system)) {
      const lost: { path: string; value: unknown }[] = [];
      lostPaths(migrated.system, model.cleanData(structuredClone(migrated.system)), 'system', lost);
      if (lost.length > 0) {
        this.fail(kind, raw, 'Lossy', parent, { path: lost[0].path, value: lost[0].value });
        return null;
      }
    }
    try {
      // deepClone keeps v14 operators (_del) as they are; the dry run may clean the copy in place.
      live.updateSource(foundry.utils.deepClone(update), { dryRun: true });
    } catch (err) {
      this.fail(kind, raw, 'Refused', parent, { error: lastLine(err) });
      return null;
    }
    return { raw, update };
  }

  /** Send planned updates as one batch; a document left out of the result was refused. Returns how many were written. */
  async send(kind: MigratedKind, planned: Planned[], updateMany: UpdateMany, parent?: Source): Promise<number> {
    if (planned.length === 0) return 0;
    const options = { diff: false, [MIGRATION_OPTION]: SCHEMA_VERSION };
    let done: Set<string>;
    try {
      const updated = (await updateMany(planned.map((p) => p.update), options)) ?? [];
      done = new Set(updated.map((d) => d.id as string));
    } catch (err) {
      for (const p of planned) this.fail(kind, p.raw, 'Refused', parent, { error: lastLine(err) });
      return 0;
    }
    let count = 0;
    for (const p of planned) {
      if (done.has(p.update._id as string)) {
        written.add(p.raw);
        count += 1;
      } else this.fail(kind, p.raw, 'Refused', parent, { error: '' });
    }
    return count;
  }
}

function lastLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? message;
}

function collection(name: 'actors' | 'items' | 'combats'): LiveCollection | undefined {
  return (game as unknown as Record<string, LiveCollection | undefined>)[name];
}

function embedded(doc: LiveDocument | undefined, name: string): LiveCollection | undefined {
  return doc ? ((doc as unknown as Record<string, LiveCollection | undefined>)[name] ?? undefined) : undefined;
}

function liveIn(coll: LiveCollection | undefined, raw: Source): LiveDocument | undefined {
  const id = raw._id;
  return typeof id === 'string' && !coll?.invalidDocumentIds?.has(id) ? coll?.get(id) : undefined;
}

function embeddedUpdater(parent: LiveDocument | undefined, documentName: string): UpdateMany {
  return async (updates, operation) => {
    const doc = parent as unknown as { updateEmbeddedDocuments(n: string, u: Source[], o: Record<string, unknown>): Promise<LiveDocument[]> };
    return doc.updateEmbeddedDocuments(documentName, updates, operation);
  };
}

async function runMigration(from: number): Promise<MigrationReport> {
  const run = new Run(from);
  const report = run.report;
  // The stored sources, as they were before the data models read them.
  const raw: RawWorld | undefined = game.data;
  if (!raw) {
    report.failed.push({ documentName: null, id: '', name: '', reason: 'NoStoredData', message: text('NoStoredData') });
    return report;
  }
  const actors = collection('actors');
  const items = collection('items');
  const combats = collection('combats');

  // Plan first (pure), write second: the GM is told before anything is written.
  const actorPlans: Planned[] = [];
  const itemPlansByActor: { actor: Source; live: LiveDocument; plans: Planned[] }[] = [];
  for (const source of raw.actors ?? []) {
    const live = liveIn(actors, source);
    const own = run.plan('Actor', source, live);
    if (own) actorPlans.push(own);
    if (!live) continue;
    const liveItems = embedded(live, 'items');
    const plans = ((source.items ?? []) as Source[])
      .map((i) => run.plan('Item', i, liveIn(liveItems, i), source))
      .filter((p): p is Planned => p !== null);
    if (plans.length > 0) itemPlansByActor.push({ actor: source, live, plans });
  }
  const worldItemPlans = (raw.items ?? []).map((i) => run.plan('Item', i, liveIn(items, i))).filter((p): p is Planned => p !== null);
  const combatPlans: Planned[] = [];
  const combatantPlans: { combat: Source; live: LiveDocument; plans: Planned[] }[] = [];
  const groupPlans: { combat: Source; live: LiveDocument; plans: Planned[] }[] = [];
  for (const source of raw.combats ?? []) {
    const live = liveIn(combats, source);
    const own = run.plan('Combat', source, live);
    if (own) combatPlans.push(own);
    if (!live) continue;
    const liveCombatants = embedded(live, 'combatants');
    const plans = ((source.combatants ?? []) as Source[])
      .map((c) => run.plan('Combatant', c, liveIn(liveCombatants, c), source))
      .filter((p): p is Planned => p !== null);
    if (plans.length > 0) combatantPlans.push({ combat: source, live, plans });
    const liveGroups = embedded(live, 'groups');
    const groups = ((source.groups ?? []) as Source[])
      .map((g) => run.plan('CombatantGroup', g, liveIn(liveGroups, g), source))
      .filter((p): p is Planned => p !== null);
    if (groups.length > 0) groupPlans.push({ combat: source, live, plans: groups });
  }

  const total =
    actorPlans.length + worldItemPlans.length + combatPlans.length + [...itemPlansByActor, ...combatantPlans, ...groupPlans].reduce((n, e) => n + e.plans.length, 0);
  if (total > 0) ui.notifications?.info(text('Begin', { version: String(SCHEMA_VERSION) }));

  const ActorClass = Actor as unknown as { updateDocuments: UpdateMany };
  const ItemClass = Item as unknown as { updateDocuments: UpdateMany };
  const CombatClass = Combat as unknown as { updateDocuments: UpdateMany };
  report.actors = await run.send('Actor', actorPlans, (u, o) => ActorClass.updateDocuments(u, o));
  for (const { actor, live, plans } of itemPlansByActor) report.items += await run.send('Item', plans, embeddedUpdater(live, 'Item'), actor);
  report.items += await run.send('Item', worldItemPlans, (u, o) => ItemClass.updateDocuments(u, o));
  report.combats = await run.send('Combat', combatPlans, (u, o) => CombatClass.updateDocuments(u, o));
  for (const { combat, live, plans } of combatantPlans) report.combatants += await run.send('Combatant', plans, embeddedUpdater(live, 'Combatant'), combat);
  for (const { combat, live, plans } of groupPlans) report.groups += await run.send('CombatantGroup', plans, embeddedUpdater(live, 'CombatantGroup'), combat);

  if (report.failed.length === 0) {
    await game.settings!.set(SYSTEM_ID, 'schemaVersion', SCHEMA_VERSION);
    if (total > 0) ui.notifications?.info(text('Done', { version: String(SCHEMA_VERSION) }));
  }
  return report;
}

let running: Promise<MigrationReport> | null = null;

/**
 * Migrate the world if its schema is older than this build's. Only the active
 * GM's client migrates; everyone else gets null, as does a world already up
 * to date. Concurrent calls share one run.
 */
export async function migrateWorld(): Promise<MigrationReport | null> {
  if (!game.user?.isGM || game.users?.activeGM?.id !== game.user.id) return null;
  const from = Number(game.settings!.get(SYSTEM_ID, 'schemaVersion') ?? 0);
  if (from >= SCHEMA_VERSION) return null;
  if (!running) running = runMigration(from).finally(() => (running = null));
  return running;
}
