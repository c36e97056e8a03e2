/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The encounters pack's sources (packs/_source/encounters, written by
 * scripts/packs/encounters.mjs): as the generator writes them, each a valid
 * `encounter` actor naming monsters of the monsters pack by their stable ids.
 */
import '../standin/global';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { installFoundry } from '../standin';
import { registerDataModels } from '../../src/data';
// @ts-expect-error: a plain ES module of the build scripts, no typings
import { ENCOUNTERS, encounterSource, monsterUuid } from '../../scripts/packs/encounters.mjs';
// @ts-expect-error: a plain ES module of the build scripts, no typings
import { packId, slugOf } from '../../scripts/packs/ids.mjs';

const DIR = join('packs', '_source', 'encounters');
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'));
const docs = files.map((file) => ({ file, doc: parse(readFileSync(join(DIR, file), 'utf8')) as any }));

/** The monster slugs every helper may name (issue 12 brief): the monsters pack has these ids. */
const REQUIRED_MONSTERS = 'goblin hobgoblin hobgoblin-witch kobold orc orc-leader gnoll bugbear ogre troll skeleton zombie ghoul wight wolf giant-rat giant-spider bandit bandit-leader lizard-man berserker hill-giant owlbear'.split(' ');

describe('encounters pack sources', () => {
  beforeAll(() => {
    installFoundry({ generation: 13 }).everyClient(registerDataModels);
  });

  it('are the generator\'s output, at least nine, one file per encounter named by its slug', () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
    expect(files.sort()).toEqual((ENCOUNTERS as any[]).map((row) => `${slugOf(row[0])}.yml`).sort());
    for (const row of ENCOUNTERS as any[]) {
      const written = docs.find((d) => d.file === `${slugOf(row[0])}.yml`)!.doc;
      expect(written).toEqual(encounterSource(row));
    }
  });

  it('each has its stable id and key, and names only the monsters pack\'s required monsters, hostile', () => {
    const byUuid = new Map(REQUIRED_MONSTERS.map((slug) => [monsterUuid(slug), slug]));
    for (const { file, doc } of docs) {
      expect(doc._id, file).toBe(packId('encounters', file.replace(/\.yml$/, '')));
      expect(doc._key, file).toBe(`!actors!${doc._id}`);
      expect(doc.type, file).toBe('encounter');
      expect(doc.system.disposition, file).toBe(-1);
      expect(doc.system.members.length, file).toBeGreaterThan(0);
      for (const m of doc.system.members) {
        expect(byUuid.has(m.uuid), `${file}: ${m.uuid}`).toBe(true);
        expect(m.uuid).toBe(`Compendium.ten-segments.monsters.Actor.${packId('monsters', byUuid.get(m.uuid))}`);
      }
      // One or two sentences of our own.
      expect(doc.system.notes, file).toMatch(/^<p>[^<]+<\/p>$/);
      expect((doc.system.notes.match(/[.!?](\s|<)/g) ?? []).length, file).toBeLessThanOrEqual(2);
    }
  });

  it('each is a valid encounter actor, kept as written', async () => {
    for (const { file, doc } of docs) {
      const created = await (globalThis as any).Actor.create({ name: doc.name, type: doc.type, system: doc.system });
      expect(created, file).toBeTruthy();
      expect(created.toObject().system, file).toEqual(doc.system);
    }
  });

  it.runIf(existsSync(join('packs', '_source', 'monsters')))('names monsters the monsters pack has', () => {
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.yml') ? [join(dir, e.name)] : []));
    const monsters = new Map(walk(join('packs', '_source', 'monsters')).map((f) => parse(readFileSync(f, 'utf8')) as any).filter((d) => d.type === 'monster').map((d) => [d._id, d]));
    for (const { file, doc } of docs) for (const m of doc.system.members) expect(monsters.has(m.uuid.split('.').at(-1)), `${file}: ${m.uuid}`).toBe(true);
  });
});
