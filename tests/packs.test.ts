import './standin/global';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { installFoundry } from './standin';
import { registerDataModels } from '../src/data';

// compilePack silently skips a source without `_key`: every pack source is checked here.
const manifest = JSON.parse(readFileSync('system.json', 'utf8'));
const COLLECTION: Record<string, string> = { Item: 'items', Actor: 'actors', JournalEntry: 'journal', Adventure: 'adventures' };

describe.each(manifest.packs.map((p: { name: string; type: string }) => [p.name, p.type]) as [string, string][])('pack %s', (name, type) => {
  const dir = join('packs', '_source', name);
  const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
  const docs = files.map((f) => ({ file: f, doc: parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown> }));

  beforeAll(() => {
    installFoundry({ generation: 13 }).everyClient(registerDataModels);
  });

  it('has sources, each with an id and the _key compilePack needs', () => {
    expect(docs.length).toBeGreaterThan(0);
    const ids = new Set<string>();
    for (const { file, doc } of docs) {
      expect(doc._id, file).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(doc._key, file).toBe(`!${COLLECTION[type]}!${doc._id}`);
      expect(ids.has(doc._id as string), `${file}: duplicate id`).toBe(false);
      ids.add(doc._id as string);
      expect(typeof doc.name, file).toBe('string');
    }
  });

  it('every document is valid for the system data models (nothing would be refused on import)', async () => {
    const cls = (globalThis as any)[type];
    for (const { file, doc } of docs) {
      const created = await cls.create({ name: doc.name, type: doc.type, system: doc.system });
      expect(created, file).toBeTruthy();
      // Values are kept as written: no clamping or dropping of a field.
      expect(created.toObject().system, file).toMatchObject(doc.system as object);
    }
  });
});
