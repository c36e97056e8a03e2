/**
 * The preview's fixture world, built as tests/foundry/world.ts builds its
 * own: a GM and two players; Halvaine the magic-user (player 1's) with Sleep,
 * Brand the fighter (player 2's) with a long sword; orcs up to n combatants,
 * unlinked tokens "Orc 1", "Orc 2", … of one orc actor (as a GM drags one orc
 * from the sidebar several times, so the tracker collapses them);
 * tokens on a 5-ft grid; a combat started with the orcs surprised (under
 * segment-d6: the party rolls 4, the orcs 2, two segments lost). At each
 * round's declarations (Next, preview/main.ts) everyone declares through the
 * GM (Halvaine casting Sleep, the others in melee) and initiative is rolled.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { FoundryHandle } from '../tests/standin';
import type { TenSegmentsCombat } from '../src/documents/combat';
import { characterData, LONG_SWORD, monsterData, sleepData } from '../tests/foundry/fixtures';
import type { ProcedureId } from '../src/rules/model';
import { requestDeclaration } from '../src/documents/queries';

const g = globalThis as any;

export interface PreviewWorld {
  combat: TenSegmentsCombat;
  ids: { halvaine: string; brand: string; monsters: string[] };
  spell: any;
  sword: any;
}

/**
 * The map's layout (?map=1): a 16 × 10 square scene (100 px squares of 5 ft),
 * the party on the left, the orcs in a line on the right, and an ogre (a
 * large monster, a 2 × 2 token) behind them. Squares are [column, row].
 */
export const MAP = {
  grid: 100,
  columns: 16,
  rows: 10,
  halvaine: [2, 5],
  brand: [3, 4],
  orcs: (i: number): [number, number] => [9 + (i % 4), 3 + 2 * Math.floor(i / 4)],
  ogre: [12, 6],
} as const;

export async function buildWorld(foundry: FoundryHandle, procedure: ProcedureId, n: number, { start = true, map = false } = {}): Promise<PreviewWorld> {
  await g.game.settings.set('ten-segments', 'procedure', procedure);
  const { OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
  const p1 = foundry.users.player.id;
  const p2 = foundry.users.player2.id;
  const character = (name: string, owner: string) => characterData(name, owner, owner === p1 ? p2 : p1, { OWNER, OBSERVER });
  // One orc actor, its tokens unlinked ("Orc 1", "Orc 2", …), as a GM drags one orc from the sidebar several times.
  const monsters: any[] = [monsterData('Orc')];
  // The map's ogre: large, so its token covers 2 × 2 squares (core's token size for a large creature).
  if (map) monsters.push({ name: 'Ogre', type: 'monster', system: { hitDice: '4+1', hp: { value: 22, max: 22 }, ac: 5, aac0: '15', size: 'large', attacks: 'club 1d10', morale: 10 } });
  const [halvaine, brand, orc, ogreActor] = await g.Actor.create([character('Halvaine', p1), character('Brand', p2), ...monsters]);
  const orcs: { actor: any; name: string }[] = Array.from({ length: n - 2 }, (_, i) => ({ actor: orc, name: `Orc ${i + 1}` }));
  if (ogreActor) orcs.push({ actor: ogreActor, name: ogreActor.name });
  const [spell] = await halvaine.createEmbeddedDocuments('Item', [
    sleepData(2),
  ]);
  const [sword] = await brand.createEmbeddedDocuments('Item', [
    LONG_SWORD,
  ]);
  const at = ([column, row]: readonly [number, number]) => ({ x: column * MAP.grid, y: row * MAP.grid });
  const scene = await g.Scene.create(
    map ? { name: 'Keep', active: true, width: MAP.columns * MAP.grid, height: MAP.rows * MAP.grid, grid: { size: MAP.grid, distance: 5, units: 'ft' } } : { name: 'Keep', active: true },
  );
  const tokens = await scene.createEmbeddedDocuments('Token', [
    { name: 'Halvaine', actorId: halvaine.id, actorLink: true, ...(map ? at(MAP.halvaine) : { x: 0, y: 0 }), disposition: 1 },
    { name: 'Brand', actorId: brand.id, actorLink: true, ...(map ? at(MAP.brand) : { x: 100, y: 0 }), disposition: 1 },
    ...orcs.map(({ actor, name }, i: number) => {
      const large = actor.system?.size === 'large';
      const place = map ? at(large ? MAP.ogre : MAP.orcs(i)) : { x: 300 + 100 * (i % 10), y: 100 * Math.floor(i / 10) };
      // The orcs' tokens unlinked (each its own hit points, the actor unchanged); the ogre, one of a kind, linked.
      return { name, actorId: actor.id, actorLink: large, ...place, ...(large ? { width: 2, height: 2 } : {}), disposition: -1 };
    }),
  ]);
  const combat = (await g.Combat.create({ scene: scene.id, active: true })) as TenSegmentsCombat;
  const created = (await combat.createEmbeddedDocuments('Combatant', tokens.map((t: any) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })) as never)) as any[];
  await foundry.settle();
  const world: PreviewWorld = {
    combat,
    ids: { halvaine: created[0].id, brand: created[1].id, monsters: created.slice(2).map((c) => c.id) },
    spell,
    sword,
  };
  if (!start) return world; // the GM starts it: the surprise dialog (the tracker's Roll surprise)
  // Surprise: the party rolls 4, the orcs 2 (surprised for a segment).
  foundry.dice.push(4, 2);
  await combat.startCombat();
  return world;
}

/**
 * The charge scenario (?map=1&procedure=addict&scenario=charge; README, Charges and ranges on the map): no
 * surprise (4 and 4); Orc 1 stands at the east edge (column 15, row 4) and Brand charges it from column 3 (55 ft to
 * the square beside it); the ogre (2×2) charges Halvaine from column 12 (45 ft to the squares beside her); Halvaine
 * casts Sleep (segments 1 to 3), Orc 2 fights Brand. Initiative: party 2, orcs 1, so the party acts from segment 1,
 * the orcs from 2. Seed 004 fn 19, charging 240 ft a round (120 ft doubled indoors): 24 ft a segment; Brand arrives
 * in segment 3 (72 ft ≥ 55 − 3.5), the ogre in segment 3 (48 ft ≥ 45 − 1).
 */
export async function chargeScenario(foundry: FoundryHandle, world: PreviewWorld): Promise<void> {
  const { combat, ids } = world;
  const [orc1, orc2] = ids.monsters;
  const ogre = ids.monsters.at(-1)!;
  await combat.combatants.get(orc1)!.token!.update({ x: 15 * MAP.grid, y: 4 * MAP.grid });
  foundry.dice.push(4, 4);
  await combat.startCombat();
  await requestDeclaration(combat, ids.brand, { action: 'charge', weapon: world.sword.id, target: orc1 });
  await requestDeclaration(combat, ogre, { action: 'charge', target: ids.halvaine });
  await requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: world.spell.id, target: orc2 } as never);
  await requestDeclaration(combat, orc2, { action: 'melee', target: ids.brand });
  for (const id of ids.monsters.slice(2, -1)) await requestDeclaration(combat, id, { action: 'melee', target: ids.brand });
  foundry.dice.push(2, 1);
  await combat.rollInitiative();
}

/** Everyone declares, the GM for all: Halvaine casts Sleep at the first orc, Brand and the orcs fight. */
export async function declareAll(world: PreviewWorld): Promise<void> {
  const { combat, ids } = world;
  const first = ids.monsters[0];
  await requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: world.spell.id, target: first } as never);
  await requestDeclaration(combat, ids.brand, { action: 'melee', weapon: world.sword.id, target: first });
  for (const [i, id] of ids.monsters.entries()) await requestDeclaration(combat, id, { action: 'melee', target: i % 2 ? ids.brand : ids.halvaine });
}

/* ------------------------------------------------------------ the sheets */

/** The sheets the page shows (?sheet=…): a representative document of each kind. */
export const SHEETS = ['fighter', 'magic-user', 'ogre', 'weapon', 'spell', 'armor', 'gear'] as const;
export type SheetKey = (typeof SHEETS)[number];

/** The documents whose sheets the page shows: actors and world items, by sheet key. */
export type SheetDocs = Record<SheetKey, any>;

/**
 * The sheets' documents, beside the combat (never in it): Aldric the fighter
 * (player 2's; long sword equipped, a short bow, chain mail worn, 9 of 12 hp,
 * AC 4, AAC0 19, Dexterity 16 with its surprise, reaction and missile
 * adjustments), Mirela the magic-user (player 1's; spells of levels 1 and 2
 * with casting times in segments, some memorized, one expended), an ogre
 * (HD "4+1", a stat block's attack routines, surprise ranges, number
 * appearing, morale), and one world item of each type, visible to everyone.
 */
export async function buildSheetDocs(foundry: FoundryHandle): Promise<SheetDocs> {
  // Core gives a new document its type's default image; the stand-in none: the page's placeholder (served for /icons/).
  const portrait = (data: any) => ({ img: 'icons/svg/mystery-man.svg', ...data });
  const { OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
  const p1 = foundry.users.player.id;
  const p2 = foundry.users.player2.id;
  const [fighter, magicUser, ogre] = await g.Actor.create([
    portrait(characterData('Aldric', p2, p1, { OWNER, OBSERVER }, {
      hp: { value: 9, max: 12 },
      ac: 4,
      abilities: { str: 16, int: 9, wis: 11, dex: 16, con: 14, cha: 10 },
      details: { className: 'Fighter', level: 3 },
      surprise: { surprisedAdjust: -1, surprisesOthersAdjust: 1, surprisedOn: 0, surprisesOn: 0, neverSurprised: false },
      combat: { reactionAdjustment: 1, missileBonus: 1, initiativeAdjustment: 0, routines: 1, dexAcBonus: 2 },
      movement: { base: 90, charge: 0 },
    })),
    portrait(characterData('Mirela', p1, p2, { OWNER, OBSERVER }, {
      hp: { value: 5, max: 6 },
      ac: 9,
      attack: { mode: 'aac0', aac0: '20' },
      abilities: { str: 8, int: 17, wis: 12, dex: 13, con: 10, cha: 11 },
      details: { className: 'Magic-user', level: 3 },
    })),
    {
      name: 'Ogre',
      type: 'monster',
      img: 'icons/svg/mystery-man.svg',
      system: {
        hitDice: '4+1',
        hp: { value: 22, max: 22 },
        ac: 5,
        aac0: '15',
        size: 'large',
        attacks: 'MELEE: club (1d10); MISSILE: hurled rock (1d8)',
        routines: 1,
        morale: 10,
        numberAppearing: '2d6',
        surprise: { surprisedOn: 2, surprisesOn: 3, surprisedAdjust: 0, surprisesOthersAdjust: 0, neverSurprised: false },
        movement: { base: 90, charge: 0 },
      },
    },
  ]);
  const [sword] = await fighter.createEmbeddedDocuments('Item', [
    portrait(LONG_SWORD),
    portrait({ name: 'Short bow', type: 'weapon', system: { damage: { small: '1d6', large: '1d6' }, speed: 7, length: 0, space: 1, kind: 'missile', rate: 2, range: { short: 50, medium: 100, long: 150 }, equipped: false } }),
    portrait({ name: 'Chain mail', type: 'armor', system: { ac: 5, bonus: 0, bulk: 'fairly', movement: 90, equipped: true, weight: 30 } }),
    portrait({ name: 'Rope, 50 ft', type: 'gear', system: { quantity: 1, weight: 5 } }),
  ]);
  const spell = (name: string, level: number, segments: number, memorized: number, expended: number, extra: Record<string, unknown> = {}) => ({
    img: 'icons/svg/mystery-man.svg',
    name,
    type: 'spell',
    system: { level, castingTime: { value: segments, unit: 'segments' }, castingTN: 10 + level, memorized, expended, ...extra },
  });
  await magicUser.createEmbeddedDocuments('Item', [
    spell('Sleep', 1, 1, 2, 1, { range: '90 ft', area: '30 ft cube', duration: '5 rounds/level', save: 'none' }),
    spell('Magic missile', 1, 1, 1, 0, { range: '60 ft + 10 ft/level', duration: 'instantaneous', save: 'none' }),
    spell('Shield', 1, 1, 0, 0, { range: '0', duration: '5 rounds/level' }),
    spell('Web', 2, 2, 1, 0, { range: '5 ft/level', area: '80 cubic ft', duration: '2 turns/level', save: 'negates' }),
    spell('Mirror image', 2, 2, 0, 0, { range: '0', duration: '2 rounds/level' }),
    portrait({ name: 'Dagger', type: 'weapon', system: { damage: { small: '1d4', large: '1d3' }, speed: 2, length: 1, space: 1, kind: 'melee', equipped: true } }),
  ]);
  const everyone = { default: OBSERVER };
  const [weapon, spellItem, armor, gear] = await g.Item.create(([
    { name: 'Halberd', type: 'weapon', ownership: everyone, system: { damage: { small: '1d10', large: '2d6' }, speed: 9, length: 8, space: 5, kind: 'melee', critical: 3, damageTypes: ['piercing', 'slashing'], weight: 15 } },
    { ...spell('Fireball', 3, 3, 0, 0, { range: '100 ft + 10 ft/level', area: '20 ft radius', duration: 'instantaneous', save: 'half' }), ownership: everyone },
    { name: 'Plate mail', type: 'armor', ownership: everyone, system: { ac: 3, bonus: 0, bulk: 'bulky', movement: 60, weight: 45 } },
    { name: 'Lantern, hooded', type: 'gear', ownership: everyone, system: { quantity: 1, weight: 3 } },
  ] as any[]).map(portrait));
  void sword;
  return { fighter, 'magic-user': magicUser, ogre, weapon, spell: spellItem, armor, gear };
}
