/**
 * The compendium sources as the CLI reads them (packs/_source/<pack>/**.yml, recursively) and the checks the
 * CLI does not make: `compilePack` silently skips a file without `_key`, and a wrong `_key` puts a document in
 * the wrong collection (or overwrites another), so every source is checked here instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';

export type Source = { file: string; doc: Record<string, any> };

/** The issue's minimum entries per pack: the count test reads them from here. */
export const MINIMUMS: Record<string, number> = { weapons: 40, spells: 60, monsters: 60, encounters: 8 };

/** The manifest's collection names (the CLI's TYPE_COLLECTION_MAP, the part packs use). */
export const COLLECTION: Record<string, string> = { Item: 'items', Actor: 'actors', JournalEntry: 'journal', Adventure: 'adventures', Folder: 'folders' };
/** Embedded collections per primary collection (the CLI's HIERARCHY, the part packs use). */
export const EMBEDDED: Record<string, Record<string, string>> = { actors: { items: 'Item', effects: 'ActiveEffect' }, items: { effects: 'ActiveEffect' } };

export const ID = /^[A-Za-z0-9]{16}$/;
/** A compendium uuid of this system, anywhere in a source. */
export const UUID = /Compendium\.ten-segments\.([a-z0-9-]+)\.(Item|Actor|JournalEntry|Adventure)\.([A-Za-z0-9]{16})/g;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(f) ? [p] : [];
    });
}

/** Every YAML source of a pack folder, recursively (documents and `_folder.yml`). A missing folder has none. */
export function readSources(dir: string): Source[] {
  let files: string[];
  try {
    files = yamlFiles(dir);
  } catch {
    return [];
  }
  return files.map((p) => ({ file: relative(dir, p), doc: (parse(readFileSync(p, 'utf8')) ?? {}) as Record<string, any> }));
}

export const isFolder = (s: Source): boolean => typeof s.doc._key === 'string' && s.doc._key.startsWith('!folders!');
/** The pack's entries (what a GM sees in the compendium): every source but the folders. */
export const entries = (sources: Source[]): Source[] => sources.filter((s) => !isFolder(s));

/**
 * Problems with ids and keys in a pack's sources (empty when all is well): every source and every embedded
 * document has a 16-character `_id` and the `_key` the CLI needs (`!items!id`, `!actors!id`, `!folders!id`,
 * `!actors.items!actorId.itemId`); ids are unique per pack; a folder is of the pack's type; a document's
 * `folder` names a folder of the pack.
 */
export function keyProblems(sources: Source[], type: string): string[] {
  const problems: string[] = [];
  const collection = COLLECTION[type];
  const ids = new Map<string, string>();
  const folders = new Set(sources.filter(isFolder).map((s) => s.doc._id));
  const seen = (id: string, where: string) => {
    if (ids.has(id)) problems.push(`${where}: id ${id} already used by ${ids.get(id)}`);
    else ids.set(id, where);
  };
  const embedded = (doc: any, coll: string, keyPrefix: string, idPrefix: string, where: string) => {
    for (const [name] of Object.entries(EMBEDDED[coll] ?? {})) {
      const list = doc[name];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        problems.push(`${where}: ${name} is not a list`);
        continue;
      }
      list.forEach((child: any, i: number) => {
        const at = `${where} ${name}[${i}]${child?.name ? ` (${child.name})` : ''}`;
        if (!ID.test(String(child?._id))) problems.push(`${at}: _id ${child?._id} is not 16 letters and digits`);
        else seen(`${idPrefix}.${name}/${child._id}`, at); // unique within its parent
        const key = `!${keyPrefix}.${name}!${idPrefix}.${child?._id}`;
        if (child?._key !== key) problems.push(`${at}: _key is ${child?._key === undefined ? 'missing' : `'${child._key}'`}, should be '${key}'`);
        embedded(child, name, `${keyPrefix}.${name}`, `${idPrefix}.${child?._id}`, at);
      });
    }
  };
  for (const { file, doc } of sources) {
    if (!ID.test(String(doc._id))) problems.push(`${file}: _id ${doc._id} is not 16 letters and digits`);
    else seen(doc._id, file);
    const folder = isFolder({ file, doc });
    const key = `!${folder ? 'folders' : collection}!${doc._id}`;
    if (doc._key === undefined) problems.push(`${file}: no _key (compilePack would skip it silently)`);
    else if (doc._key !== key) problems.push(`${file}: _key is '${doc._key}', should be '${key}'`);
    if (typeof doc.name !== 'string' || !doc.name) problems.push(`${file}: no name`);
    if (folder && doc.type !== type) problems.push(`${file}: a folder of type ${doc.type} in a pack of ${type}`);
    if (doc.folder != null && !folders.has(doc.folder)) problems.push(`${file}: folder ${doc.folder} is not a folder of this pack`);
    if (!folder) embedded(doc, collection, collection, doc._id, file);
  }
  return problems;
}

/** Every compendium uuid of this system in a value (strings anywhere, keys included), with where it was found. */
export function uuidsIn(value: unknown, path = ''): { path: string; uuid: string; pack: string; type: string; id: string }[] {
  if (typeof value === 'string') return [...value.matchAll(UUID)].map((m) => ({ path, uuid: m[0], pack: m[1], type: m[2], id: m[3] }));
  if (Array.isArray(value)) return value.flatMap((v, i) => uuidsIn(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [...uuidsIn(k, `${path}.${k}`), ...uuidsIn(v, `${path}.${k}`)]);
  return [];
}
