import '../standin/global';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { installFoundry } from '../standin';
import { registerDataModels } from '../../src/data';
import { parseAttackRoutines } from '../../src/rules/attack-routines';
import { attackHitDice, hitPointRange, overallHitDice, parseHitDice } from '../../src/rules/hit-dice';

type Doc = Record<string, any>;

/** scripts/packs/ids.mjs's packId, restated (a plain script without type declarations). */
function packId(pack: string, slug: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = createHash('sha256').update(`ten-segments:${pack}:${slug}`).digest();
  return Array.from(bytes.subarray(0, 16), (b) => alphabet[b % alphabet.length]).join('');
}

const DIR = join('packs', '_source', 'monsters');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.yml') ? [join(dir, e.name)] : [],
  );
}

const files = walk(DIR);
const all = files.map((file) => ({ file, doc: parse(readFileSync(file, 'utf8')) as Doc }));
const folders = all.filter(({ file }) => file.endsWith('_folder.yml'));
const monsters = all.filter(({ file }) => !file.endsWith('_folder.yml'));
const slugOfFile = (file: string) => file.split('/').pop()!.replace(/\.yml$/, '');

const REQUIRED = [
  'goblin', 'hobgoblin', 'hobgoblin-witch', 'kobold', 'orc', 'orc-leader', 'gnoll', 'bugbear', 'ogre', 'troll', 'skeleton',
  'zombie', 'ghoul', 'wight', 'wolf', 'giant-rat', 'giant-spider', 'bandit', 'bandit-leader', 'lizard-man', 'berserker', 'hill-giant',
  'owlbear',
];

/** The classic monster attack table read at AC 0, by attack hit dice (README, Classic monsters under individual-speed). */
function tableAac0(text: string): number {
  const hd = parseHitDice(text);
  if (!hd.ok) throw new Error(text);
  const row = attackHitDice(hd.value);
  if (hd.value.dice === 0.5 || (hd.value.dice === 1 && hd.value.modifier < 0)) return 20;
  if (row.dice === 1) return row.plus ? 18 : 19;
  const steps: [number, number][] = [[3, 16], [5, 15], [7, 13], [9, 12], [11, 10], [13, 9], [15, 8]];
  for (const [upTo, aac0] of steps) if (row.dice <= upTo) return aac0;
  return 7;
}

/** The item source of a pack entry, wherever it sits under packs/_source/<pack>. */
function itemSource(pack: string, slug: string): Doc | null {
  const dir = join('packs', '_source', pack);
  if (!existsSync(dir)) return null;
  const file = walk(dir).find((f) => slugOfFile(f) === slug);
  return file ? (parse(readFileSync(file, 'utf8')) as Doc) : null;
}

describe('monsters pack sources', () => {
  it('has at least 62 monsters, the required slugs among them, ids from packId', () => {
    expect(monsters.length).toBeGreaterThanOrEqual(62);
    const slugs = new Set(monsters.map(({ file }) => slugOfFile(file)));
    for (const slug of REQUIRED) expect(slugs.has(slug), slug).toBe(true);
    for (const { file, doc } of monsters) {
      expect(doc._id, file).toBe(packId('monsters', slugOfFile(file)));
      expect(doc._key, file).toBe(`!actors!${doc._id}`);
      expect(doc.type, file).toBe('monster');
    }
  });

  it('puts every monster in a folder that exists', () => {
    const ids = new Set(folders.map(({ doc }) => doc._id));
    for (const { doc } of folders) expect(doc._key).toBe(`!folders!${doc._id}`);
    for (const { file, doc } of monsters) expect(ids.has(doc.folder), file).toBe(true);
  });

  it.each(monsters.map(({ file, doc }) => [file, doc] as [string, Doc]))('%s: every routine parses and every attack has damage', (file, doc) => {
    const parsed = parseAttackRoutines(doc.system.attacks);
    expect(parsed.ok, `${file}: ${JSON.stringify(parsed)}`).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.length, file).toBeGreaterThan(0);
    for (const routine of parsed.value) {
      expect(routine.attacks.length, routine.text).toBeGreaterThan(0);
      for (const attack of routine.attacks) {
        expect(attack.damage.length, routine.text).toBe(attack.count);
        for (const d of attack.damage) expect(d.trim(), routine.text).not.toBe('');
      }
    }
  });

  it('derives hit points, AAC0 and the individual-speed figures by the README rules', () => {
    for (const { file, doc } of monsters) {
      const sys = doc.system;
      const hd = parseHitDice(sys.hitDice);
      expect(hd.ok, file).toBe(true);
      if (!hd.ok) continue;
      const { min, max } = hitPointRange(hd.value);
      expect(sys.hp.max, file).toBe(Math.max(1, Math.round(hd.value.dice === 0.5 ? 2.5 : (min + max) / 2)));
      expect(sys.hp.value, file).toBe(sys.hp.max);
      if (doc.name !== 'Stirge') expect(Number(sys.aac0), file).toBe(tableAac0(sys.hitDice));
      const ind = sys.individual;
      const base = { small: 6, medium: 10, large: 14 }[sys.size as 'small' | 'medium' | 'large'];
      expect(ind.strength, file).toBe(base + Math.floor(overallHitDice(hd.value) / 2));
      expect(ind.wounds, file).toEqual({ value: ind.strength, max: ind.strength });
      expect(ind.agility, file).toBe({ small: 1, medium: 0, large: -1 }[sys.size as string]);
      const strMod = Math.floor((ind.strength - 10) / 2);
      const average = hd.value.dice === 0.5 ? 2.5 : (min + max) / 2;
      expect(ind.stress.max, file).toBe(Math.max(1, Math.round(average + hd.value.dice * strMod)));
      expect(ind.armour, file).toBe(Math.floor((10 - sys.ac) / 3));
      expect(ind.defense + ind.armour, file).toBe(10 - sys.ac);
      expect(ind.attackBonus, file).toBe(20 - Number(sys.aac0));
      const grid = sys.size === 'large' ? 2 : 1;
      expect(doc.prototypeToken, file).toMatchObject({ actorLink: false, disposition: -1, width: grid, height: grid, });
      // No bar in the pack: the world's procedure picks it when the monster is imported (hp, or Wound Points under individual-speed).
      expect(doc.prototypeToken.bar1, file).toBeUndefined();
    }
  });

  it('embeds the weapons and spells it uses as copies of the pack entries', () => {
    let count = 0;
    for (const { file, doc } of monsters) {
      for (const item of doc.items ?? []) {
        count++;
        const pack = item.type === 'spell' ? 'spells' : 'weapons';
        expect(item._key, file).toBe(`!actors.items!${doc._id}.${item._id}`);
        expect(item._stats?.compendiumSource, file).toBe(`Compendium.ten-segments.${pack}.Item.${item._id}`);
        const source = [...walkSlugs(pack)].find(([, id]) => id === item._id);
        expect(source, `${file}: ${item.name} is not in the ${pack} pack`).toBeTruthy();
        if (!source) continue;
        const entry = itemSource(pack, source[0])!;
        // In hand and memorized, so the monster fights and casts when dropped on a map; every other field is the entry's.
        if (item.type === 'weapon') expect(item.system.equipped, `${file}: ${item.name} in hand`).toBe(true);
        if (item.type === 'spell') expect(item.system.memorized, `${file}: ${item.name} memorized`).toBeGreaterThanOrEqual(1);
        const { equipped: _e, memorized: _m, ...rest } = item.system;
        const { equipped: _se, memorized: _sm, ...entryRest } = entry.system;
        expect(rest, `${file}: ${item.name}`).toEqual(entryRest);
        expect(item.name, file).toBe(entry.name);
      }
    }
    expect(count).toBeGreaterThan(0);
    const witch = monsters.find(({ file }) => slugOfFile(file) === 'hobgoblin-witch')!.doc;
    expect(witch.items.some((i: Doc) => i.type === 'spell')).toBe(true);
  });
});

function* walkSlugs(pack: string): Generator<[string, string]> {
  const dir = join('packs', '_source', pack);
  if (!existsSync(dir)) return;
  for (const f of walk(dir)) if (!f.endsWith('_folder.yml')) yield [slugOfFile(f), packId(pack, slugOfFile(f))];
}

describe.each([13, 14] as const)('monsters pack sources in generation %i', (generation) => {
  beforeAll(() => {
    installFoundry({ generation }).everyClient(registerDataModels);
  });

  it('every monster is valid for MonsterData, kept as written', async () => {
    const cls = (globalThis as any).Actor;
    for (const { file, doc } of monsters) {
      const created = await cls.create({ name: doc.name, type: doc.type, system: doc.system });
      expect(created, file).toBeTruthy();
      expect(created.toObject().system, file).toMatchObject(doc.system);
    }
  });

  it('issue 28: no monster of the pack turns undead or carries a magic device (the declaration offers it neither)', async () => {
    const cls = (globalThis as any).Actor;
    for (const { file, doc } of monsters) {
      const created = await cls.create({ name: doc.name, type: doc.type, system: doc.system, items: doc.items ?? [] });
      expect(created.system.turnsUndead, file).toBe(false);
      expect(created.items.filter((i: any) => i.type === 'gear' && i.system.device), file).toEqual([]);
    }
  });
});
