/**
 * Compendium packs: the system's packs of system.json, loaded from their YAML
 * sources (packs/_source/<pack>/**.yml, as `npm run build` compiles them) on
 * each client at its first `game.packs`. Follows core's CompendiumCollection
 * in what the system and the tests use: `game.packs.get('ten-segments.monsters')`,
 * `pack.index` (loaded with the pack, as core loads indexes at start-up),
 * `getIndex()`, `getDocuments(query)`, `getDocument(id)`, `getUuid(id)`,
 * `folders`, `locked` (a system's pack is locked, as core's default),
 * `configure({locked})`, `documentClass`, `metadata`, `title`, and the
 * pack's ownership per role (the manifest's, core's defaults otherwise).
 *
 * A compendium document is its document class built with the pack
 * (`doc.pack`, `doc.compendium`, `doc.inCompendium`, uuid
 * `Compendium.<pack>.<Type>.<id>`, embedded documents under it); it is built
 * once per client and cached, as core caches what it fetched. Stricter than
 * core: the stand-in never writes to a pack (locked or not, a write is an
 * error). Not modelled: Folder documents (`folders` holds their sources),
 * the pack's sidebar application, NeDB/LevelDB.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { parse } from 'yaml';
import { Collection, DocumentCollection, getDocumentClass } from './documents';
import { deepClone } from './utils';
import { systemPackage } from './package';

const LEVELS = { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } as const;
/** Core's default pack ownership (CompendiumCollection.DEFAULT_OWNERSHIP). */
const DEFAULT_OWNERSHIP: Record<string, keyof typeof LEVELS> = { PLAYER: 'OBSERVER', TRUSTED: 'OBSERVER', ASSISTANT: 'OWNER' };
const ROLES: Record<number, string> = { 1: 'PLAYER', 2: 'TRUSTED', 3: 'ASSISTANT', 4: 'GAMEMASTER' };

export interface PackMetadata {
  id: string;
  name: string;
  label: string;
  type: string;
  path: string;
  system: string;
  packageType: 'system';
  packageName: string;
  ownership: Record<string, string>;
}
interface PackSource {
  metadata: PackMetadata;
  documents: any[];
  folders: any[];
}

/** The manifest's packs with their sources, parsed once per system package (per root). */
let sourceCache: { key: unknown; sources: PackSource[] } | undefined;
let rootOverride: string | undefined;

/**
 * Read the packs from another tree (its system.json and packs/_source), for the stand-in's own tests of
 * pack shapes the repository has no source for yet; no argument: the installed system's again. Clients made after
 * the call see it (call it before installFoundry).
 */
export function usePackRoot(dir?: string): void {
  rootOverride = dir;
  sourceCache = undefined;
}

function yamlFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(f) ? [p] : [];
  });
}

/** A source as the CLI packs it: `_key` dropped, embedded documents included. */
function withoutKeys(doc: any): any {
  if (Array.isArray(doc)) return doc.map(withoutKeys);
  if (!doc || typeof doc !== 'object') return doc;
  const { _key, ...rest } = doc;
  for (const k of ['items', 'effects']) if (Array.isArray(rest[k])) rest[k] = rest[k].map(withoutKeys);
  return rest;
}

/**
 * The installed system's packs (package.ts): from its compiled packs when it was read from a build
 * (built-system.ts, through the official CLI), else from system.json and packs/_source (a source without
 * `_key` is skipped, as the CLI does).
 */
export function packSources(): PackSource[] {
  const pkg = systemPackage();
  const key = rootOverride ?? pkg;
  if (sourceCache?.key === key) return sourceCache.sources;
  const root = rootOverride ?? pkg.root;
  const manifest = rootOverride ? JSON.parse(readFileSync(resolvePath(root, 'system.json'), 'utf8')) : pkg.manifest;
  const compiled = rootOverride ? undefined : pkg.packs;
  const sources = (manifest.packs ?? []).map((p: any) => {
    const documents: any[] = [];
    const folders: any[] = [];
    const entries = compiled ? (compiled.get(p.name) ?? []) : yamlFiles(resolvePath(root, 'packs', '_source', p.name)).map((file) => parse(readFileSync(file, 'utf8')));
    for (const doc of entries) {
      if (!doc?._key) continue;
      (String(doc._key).startsWith('!folders!') ? folders : documents).push(withoutKeys(doc));
    }
    const metadata: PackMetadata = { id: `${manifest.id}.${p.name}`, name: p.name, label: p.label, type: p.type, path: p.path, system: p.system, packageType: 'system', packageName: manifest.id, ownership: { ...DEFAULT_OWNERSHIP, ...(p.ownership ?? {}) } };
    return { metadata, documents, folders };
  });
  sourceCache = { key, sources };
  return sources;
}

/** Core's CompendiumCollection, read-only. */
export class CompendiumCollection extends DocumentCollection {
  readonly metadata: PackMetadata;
  /** Core's index: one entry per document (_id, uuid, name, type, img, folder), loaded with the pack. */
  readonly index = new Collection<any>();
  /** The pack's folders (their sources: the stand-in has no Folder document). */
  readonly folders = new Collection<any>();
  locked = true;
  readonly #sources = new Map<string, any>();

  constructor(source: PackSource) {
    super(source.metadata.type);
    this.metadata = source.metadata;
    for (const f of source.folders) this.folders.set(f._id, deepClone(f));
    for (const d of source.documents) {
      this.#sources.set(d._id, d);
      this.index.set(d._id, { _id: d._id, uuid: this.getUuid(d._id), name: d.name, type: d.type, img: d.img ?? null, folder: d.folder ?? null });
    }
  }
  /** "ten-segments.monsters". */
  get collection(): string {
    return this.metadata.id;
  }
  override get name(): string {
    return this.metadata.name;
  }
  get title(): string {
    return this.metadata.label;
  }
  getUuid(id: string): string {
    return `Compendium.${this.collection}.${this.documentName}.${id}`;
  }
  async getIndex(_options: { fields?: string[] } = {}): Promise<Collection<any>> {
    const fields = _options.fields ?? [];
    for (const [id, entry] of this.index) {
      for (const f of fields) entry[f] = f.split('.').reduce((o: any, k) => o?.[k], this.#sources.get(id));
    }
    return this.index;
  }
  /** The document of an id, built once (undefined for an id the pack does not hold). */
  getDocumentSync(id: string): any {
    let doc = Map.prototype.get.call(this, id);
    if (doc) return doc;
    const source = this.#sources.get(id);
    if (!source) return undefined;
    const cls = getDocumentClass(this.documentName);
    doc = new cls(deepClone(source), { pack: this.collection });
    this.set(id, doc);
    return doc;
  }
  async getDocument(id: string): Promise<any> {
    return this.getDocumentSync(id);
  }
  /** Every document, or those whose source matches a query of field values (`{name: 'Orc'}`, `{_id__in: [...]}`). */
  async getDocuments(query: Record<string, unknown> = {}): Promise<any[]> {
    const matches = (s: any) =>
      Object.entries(query).every(([k, v]) => {
        if (k.endsWith('__in')) return (v as unknown[]).includes(s[k.slice(0, -4)]);
        return k.split('.').reduce((o: any, p) => o?.[p], s) === v;
      });
    return [...this.#sources.values()].filter(matches).map((s) => this.getDocumentSync(s._id));
  }
  /** Core: lock or unlock (a GM's setting). */
  async configure({ locked }: { locked?: boolean } = {}): Promise<this> {
    if (locked !== undefined) this.locked = locked;
    return this;
  }
  /** The user's level on the pack: GM owner; otherwise the pack's ownership for the user's role. */
  getUserLevel(user: any): number {
    if (!user) return LEVELS.NONE;
    if (user.isGM) return LEVELS.OWNER;
    let level: number = LEVELS.NONE;
    for (let role = 1; role <= (user.role ?? 1); role++) {
      const named = this.metadata.ownership[ROLES[role]];
      if (named && named in LEVELS) level = Math.max(level, LEVELS[named as keyof typeof LEVELS]);
    }
    return level;
  }
  testUserPermission(user: any, permission: keyof typeof LEVELS | number): boolean {
    return this.getUserLevel(user) >= (typeof permission === 'number' ? permission : LEVELS[permission]);
  }
  get visible(): boolean {
    return this.testUserPermission((globalThis as any).game?.user, 'OBSERVER');
  }
}

/** game.packs: the system's packs, keyed by collection id. */
export class CompendiumPacks extends Collection<CompendiumCollection> {
  constructor() {
    super();
    for (const source of packSources()) this.set(source.metadata.id, new CompendiumCollection(source));
  }
  /** A compendium uuid (`Compendium.<scope>.<pack>.<Type>.<id>[.<Type>.<id>…]`): the document, or null. */
  fromUuid(uuid: string): any {
    const parts = String(uuid).split('.');
    if (parts[0] !== 'Compendium') return null;
    const pack = this.get(`${parts[1]}.${parts[2]}`);
    if (!pack || parts[3] !== pack.documentName) return null;
    let doc = pack.getDocumentSync(parts[4]) ?? null;
    for (let i = 5; doc && i + 1 < parts.length; i += 2) {
      try {
        doc = doc.getEmbeddedDocument(parts[i], parts[i + 1]) ?? null;
      } catch {
        return null;
      }
    }
    return doc;
  }
}
