import './standin/global';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFoundry } from './standin';
import { registerDataModels } from '../src/data';
import { COLLECTION, EMBEDDED, MINIMUMS, entries, isFolder, keyProblems, readSources, uuidsIn, type Source } from './packs/sources';
import { CARRIED } from '../scripts/packs/carried.mjs';

// The CLI ships no type declarations: load it by name so it is typed as we use it.
const CLI = '@foundryvtt/foundryvtt-cli';
type Cli = {
  compilePack: (src: string, dest: string, options: { yaml: boolean; recursive: boolean; log: boolean }) => Promise<void>;
  extractPack: (src: string, dest: string, options: { yaml: boolean; log: boolean }) => Promise<void>;
};

const manifest = JSON.parse(readFileSync('system.json', 'utf8'));
const PACKS = manifest.packs as { name: string; type: string; path: string }[];
const SOURCES = new Map(PACKS.map((p) => [p.name, readSources(join('packs', '_source', p.name))]));
const TYPE = new Map(PACKS.map((p) => [p.name, p.type]));

/** A source as the CLI gives it back: the embedded collections it knows are always there (empty when absent). */
function withCollections(doc: any, collection: string): any {
  const out = { ...doc };
  for (const name of Object.keys(EMBEDDED[collection] ?? {})) out[name] = (doc[name] ?? []).map((d: any) => withCollections(d, name));
  return out;
}

/** Creates every entry (with its embedded items) through the system data models: nothing refused, clamped or dropped. */
async function expectValid(sources: Source[], type: string): Promise<void> {
  const cls = (globalThis as any)[type];
  for (const { file, doc } of entries(sources)) {
    const items = (doc.items ?? []).map((i: any) => ({ _id: i._id, name: i.name, type: i.type, system: i.system }));
    const created = await cls.create({ name: doc.name, type: doc.type, system: doc.system });
    expect(created, file).toBeTruthy();
    if (items.length) await created.createEmbeddedDocuments('Item', items, { keepId: true });
    expect(created.toObject().system, file).toMatchObject(doc.system ?? {});
    for (const item of doc.items ?? []) {
      const embedded = created.items.get(item._id);
      expect(embedded, `${file}: ${item.name}`).toBeTruthy();
      expect(embedded.toObject().system, `${file}: ${item.name}`).toMatchObject(item.system ?? {});
    }
  }
}

beforeAll(() => {
  installFoundry({ generation: 13 }).everyClient(registerDataModels);
});

describe('the manifest', () => {
  it('declares the four packs, each in one of packFolders', () => {
    expect(PACKS.map((p) => p.name)).toEqual(['weapons', 'spells', 'monsters', 'encounters']);
    const grouped = (folders: any[]): string[] => folders.flatMap((f) => [...(f.packs ?? []), ...grouped(f.folders ?? [])]);
    expect(grouped(manifest.packFolders).sort()).toEqual(PACKS.map((p) => p.name).sort());
  });

  it.each(Object.entries(MINIMUMS))('pack %s has at least %i entries (the issue\'s minimum)', (name, minimum) => {
    expect(entries(SOURCES.get(name) ?? []).length).toBeGreaterThanOrEqual(minimum);
  });
});

describe.each(PACKS.map((p) => [p.name, p.type]))('pack %s (%s)', (name, type) => {
  const sources = SOURCES.get(name)!;

  it('every source, folder and embedded document has an _id and the _key compilePack needs; ids unique; folders exist', () => {
    expect(keyProblems(sources, type)).toEqual([]);
  });

  it('every document and every embedded item is valid for the system data models, values kept as written', async () => {
    await expectValid(sources, type);
  });

  it('every embedded copy of a pack item names its entry (_stats.compendiumSource) and carries the same system data', () => {
    for (const { file, doc } of entries(sources)) {
      for (const item of doc.items ?? []) {
        const source = item._stats?.compendiumSource;
        expect(source, `${file}: ${item.name} has no _stats.compendiumSource`).toMatch(/^Compendium\.ten-segments\./);
        const [ref] = uuidsIn(source);
        expect(ref, `${file}: ${item.name}: ${source}`).toBeTruthy();
        expect(TYPE.get(ref.pack), `${file}: ${item.name}: ${source} names a pack of Items`).toBe('Item');
        const entry = entries(SOURCES.get(ref.pack) ?? []).find((s) => s.doc._id === ref.id);
        expect(entry, `${file}: ${item.name}: ${source} is not in the ${ref.pack} pack`).toBeTruthy();
        expect(item.type, `${file}: ${item.name}`).toBe(entry!.doc.type);
        // The copy is the entry as carried (README, Compendium packs): a creature's weapons in hand, its spells memorized once; nothing else differs.
        const carried = CARRIED[item.type] ?? {};
        expect(item.system, `${file}: ${item.name}: system differs from ${ref.pack}/${entry!.file}`).toEqual({ ...(entry!.doc.system as object), ...carried });
      }
    }
  });

  it('every compendium uuid anywhere in a source names an existing entry of the right pack and type', () => {
    const missing: string[] = [];
    for (const { file, doc } of sources) {
      for (const ref of uuidsIn(doc)) {
        const target = entries(SOURCES.get(ref.pack) ?? []).find((s) => s.doc._id === ref.id);
        if (TYPE.get(ref.pack) !== ref.type || !target) missing.push(`${file}${ref.path}: ${ref.uuid}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('compile → extract round-trips every source with nothing lost', async () => {
    const { compilePack, extractPack } = (await import(CLI)) as Cli;
    const tmp = mkdtempSync(join(tmpdir(), `pack-${name}-`));
    try {
      await compilePack(join('packs', '_source', name), join(tmp, 'db'), { yaml: true, recursive: true, log: false });
      await extractPack(join(tmp, 'db'), join(tmp, 'out'), { yaml: true, log: false });
      const back = new Map(readSources(join(tmp, 'out')).map((s) => [s.doc._key, s.doc]));
      expect(back.size).toBe(sources.length);
      for (const { file, doc } of sources) {
        const collection = isFolder({ file, doc }) ? 'folders' : COLLECTION[type];
        expect(back.get(doc._key), file).toEqual(withCollections(doc, collection));
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the key check is not silent (a fixture pack in a temp dir)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'pack-fixture-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const item = (id: string, extra: string) => `_id: ${id}\nname: Club ${id}\ntype: weapon\nsystem: {}\n${extra}`;

  it('a source without _key, with a wrong _key, or an embedded item keyed as a primary one is reported', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const dir = join(tmp, 'src');
    mkdirSync(join(dir, 'melee'), { recursive: true });
    writeFileSync(join(dir, 'melee', '_folder.yml'), "_id: FolderAAAAAAAAAA\n_key: '!folders!FolderAAAAAAAAAA'\nname: Melee\ntype: Item\nsorting: a\n");
    writeFileSync(join(dir, 'melee', 'good.yml'), item('GoodAAAAAAAAAAAA', "_key: '!items!GoodAAAAAAAAAAAA'\nfolder: FolderAAAAAAAAAA\n"));
    writeFileSync(join(dir, 'melee', 'nokey.yml'), item('NoKeyAAAAAAAAAAA', ''));
    writeFileSync(join(dir, 'wrong.yml'), item('WrongAAAAAAAAAAA', "_key: '!actors!WrongAAAAAAAAAAA'\nfolder: MissingAAAAAAAAA\n"));
    writeFileSync(join(dir, 'dup.yml'), item('GoodAAAAAAAAAAAA', "_key: '!items!GoodAAAAAAAAAAAA'\n"));
    const problems = keyProblems(readSources(dir), 'Item');
    expect(problems).toEqual([
      'melee/good.yml: id GoodAAAAAAAAAAAA already used by dup.yml',
      'melee/nokey.yml: no _key (compilePack would skip it silently)',
      "wrong.yml: _key is '!actors!WrongAAAAAAAAAAA', should be '!items!WrongAAAAAAAAAAA'",
      'wrong.yml: folder MissingAAAAAAAAA is not a folder of this pack',
    ]);

    const actor = (items: string) =>
      `_id: OrcAAAAAAAAAAAAA\n_key: '!actors!OrcAAAAAAAAAAAAA'\nname: Orc\ntype: monster\nsystem: {}\nitems:\n${items}`;
    const adir = join(tmp, 'actors');
    mkdirSync(adir, { recursive: true });
    writeFileSync(join(adir, 'orc.yml'), actor("  - _id: ClubAAAAAAAAAAAA\n    _key: '!items!ClubAAAAAAAAAAAA'\n    name: Club\n  - _id: SpearAAAAAAAAAAA\n    name: Spear\n"));
    expect(keyProblems(readSources(adir), 'Actor')).toEqual([
      "orc.yml items[0] (Club): _key is '!items!ClubAAAAAAAAAAAA', should be '!actors.items!OrcAAAAAAAAAAAAA.ClubAAAAAAAAAAAA'",
      'orc.yml items[1] (Spear): _key is missing, should be \'!actors.items!OrcAAAAAAAAAAAAA.SpearAAAAAAAAAAA\'',
    ]);
  });

  it('the validation reaches embedded items: a monster carrying a weapon with a value the model refuses fails', async () => {
    const dagger = entries(SOURCES.get('weapons')!).find((s) => s.doc.name === 'Dagger')!.doc;
    const monster = (system: unknown) => [{ file: 'orc.yml', doc: { _id: 'OrcAAAAAAAAAAAAA', _key: '!actors!OrcAAAAAAAAAAAAA', name: 'Orc', type: 'monster', system: {}, items: [{ ...dagger, _id: 'DaggerAAAAAAAAAA', system }] } }];
    await expectValid(monster(dagger.system), 'Actor');
    await expect(expectValid(monster({ ...dagger.system, speed: 'quick' }), 'Actor')).rejects.toThrow();
  });

  it('…which the CLI itself does not do: it compiles the fixture without the keyless source', async () => {
    const { compilePack, extractPack } = (await import(CLI)) as Cli;
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const dir = join(tmp, 'silent');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'good.yml'), item('GoodAAAAAAAAAAAA', "_key: '!items!GoodAAAAAAAAAAAA'\n"));
    writeFileSync(join(dir, 'nokey.yml'), item('NoKeyAAAAAAAAAAA', ''));
    await compilePack(dir, join(tmp, 'silent-db'), { yaml: true, recursive: true, log: false });
    await extractPack(join(tmp, 'silent-db'), join(tmp, 'silent-out'), { yaml: true, log: false });
    const back: Source[] = readSources(join(tmp, 'silent-out'));
    expect(back.map((s) => s.doc._id)).toEqual(['GoodAAAAAAAAAAAA']);
  });
});
