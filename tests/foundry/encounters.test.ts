/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Ready encounters (issue 12): an `encounter` actor dropped on the map by a
 * GM places one unlinked token per creature on free squares and adds the
 * creatures to the current combat, on one side (the hostile CombatantGroup),
 * identical ones sharing an initiativeGroup (individual-speed: one d12 per
 * kind, seed 003). A player cannot place one. A monster dropped on the map
 * the ordinary way and added to combat joins the hostile side with its
 * attack routines offered in the declaration dialog.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, g, idle, type World } from './world';
import { monsterData } from './fixtures';
import { dropOnCanvas } from '../standin';
import { prepareDeclarationContext, legalChoices } from '../../src/apps/declaration-dialog';
import { groupData } from '../../src/data/systems';
import { takeFreeBlock } from '../../src/documents/encounter-place';
import { clickSheetAction } from '../standin/sheets';
// @ts-expect-error: a plain ES module of the build scripts, no typings
import { packId } from '../../scripts/packs/ids.mjs';

const packUuid = (pack: string, slug: string) => `Compendium.ten-segments.${pack}.Actor.${packId(pack, slug)}`;
/** Every square a token covers, as "col,row". */
const footprint = (t: any) => {
  const out: string[] = [];
  for (let c = 0; c < t.width; c++) for (let r = 0; r < t.height; r++) out.push(`${t.x / 100 + c},${t.y / 100 + r}`);
  return out;
};

const hobgoblin = { ...monsterData('Hobgoblin'), system: { ...monsterData('Hobgoblin').system, attacks: 'MELEE: weapon (1d8)' } };
const witch = { ...monsterData('Hobgoblin witch'), system: { ...monsterData('Hobgoblin witch').system, attacks: 'MELEE: dagger (1d4)' } };
const wolf = { ...monsterData('Wolf'), system: { ...monsterData('Wolf').system, attacks: 'MELEE: bite (1d6)' } };

/** World monsters and an encounter naming them: four hobgoblins, a hobgoblin witch and two wolves. */
async function raiders(): Promise<{ encounter: any; monsters: any[] }> {
  const monsters = await g.Actor.create([hobgoblin, witch, wolf]);
  const [h, w, f] = monsters;
  const [encounter] = await g.Actor.create([
    {
      name: 'Hobgoblin raiders',
      type: 'encounter',
      system: { members: [{ uuid: h.uuid, count: 4 }, { uuid: w.uuid, count: 1 }, { uuid: f.uuid, count: 2 }], notes: '<p>Raiders.</p>' },
    },
  ]);
  return { encounter, monsters };
}

const squareOf = (t: any) => `${t.x / 100},${t.y / 100}`;
const tokensOf = (scene: any, actor: any) => scene.tokens.filter((t: any) => t.actorId === actor.id);

describe.each([13, 14] as const)('ready encounters, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'individual-speed');
  });

  it('a GM drops an encounter: one unlinked hostile token per creature on free squares, all in the hostile group, identical ones sharing an initiativeGroup', async () => {
    const { encounter, monsters } = await raiders();
    const before = w.scene.tokens.contents.map(squareOf);
    const hostile: any = w.combat.groups.find((gr: any) => groupData(gr)?.side === 'hostile');
    w.foundry.writes.clear();
    // Dropped on Orc 1's square (300,0): the creatures go around it, never on a taken square.
    const result = await dropOnCanvas({ type: 'Actor', uuid: encounter.uuid, x: 350, y: 50 });
    expect(result).toBe(false); // core does not place the encounter actor itself
    await idle(w);
    const placed = w.scene.tokens.filter((t: any) => monsters.some((m: any) => m.id === t.actorId));
    expect(placed).toHaveLength(7);
    const squares = placed.map(squareOf);
    expect(new Set(squares).size).toBe(7);
    for (const s of squares) expect(before).not.toContain(s);
    for (const t of placed) {
      expect(t.actorLink).toBe(false);
      expect(t.disposition).toBe(-1);
      // Within two squares of the drop point (nearest free squares first).
      expect(Math.max(Math.abs(t.x / 100 - 3), Math.abs(t.y / 100))).toBeLessThanOrEqual(2);
    }
    expect(w.scene.tokens.filter((t: any) => t.actorId === encounter.id)).toHaveLength(0);
    expect(tokensOf(w.scene, monsters[0]).map((t: any) => t.name).sort()).toEqual(['Hobgoblin 1', 'Hobgoblin 2', 'Hobgoblin 3', 'Hobgoblin 4']);
    expect(tokensOf(w.scene, monsters[1]).map((t: any) => t.name)).toEqual(['Hobgoblin witch']);
    // One token write, one combatant write (the hostile side exists already), no actor written.
    expect(w.foundry.writes.count('Token', 'create')).toBe(1);
    expect(w.foundry.writes.count('Combatant', 'create')).toBe(1);
    expect(w.foundry.writes.count('Actor')).toBe(0);
    expect(w.foundry.writes.count('CombatantGroup', 'create')).toBe(0);
    // Seven combatants in the one hostile group (the orcs' side).
    const joined = w.combat.combatants.filter((c: any) => placed.some((t: any) => t.id === c.tokenId));
    expect(joined).toHaveLength(7);
    expect(new Set(joined.map((c: any) => c._source.group))).toEqual(new Set([hostile.id]));
    const groupOf = (actor: any) => joined.filter((c: any) => c.actorId === actor.id).map((c: any) => c.system.initiativeGroup);
    expect(groupOf(monsters[0])).toEqual(['hobgoblin', 'hobgoblin', 'hobgoblin', 'hobgoblin']);
    expect(groupOf(monsters[1])).toEqual(['']);
    expect(groupOf(monsters[2])).toEqual(['wolf', 'wolf']);
  });

  it('with no combat, placing creates one on the scene; under individual-speed each kind rolls one d12', async () => {
    await w.combat.delete();
    // Only the raiders: Halvaine, Brand and the orcs stay out of this fight.
    const { encounter } = await raiders();
    await dropOnCanvas({ type: 'Actor', uuid: encounter.uuid, x: 1050, y: 1050 });
    await idle(w);
    expect(g.game.combats.contents).toHaveLength(1);
    const combat = g.game.combats.contents[0];
    expect(combat._source.scene).toBe(w.scene.id);
    expect(combat.combatants.size).toBe(7);
    expect(combat.groups.size).toBe(1);
    expect(groupData(combat.groups.contents[0])?.side).toBe('hostile');
    w.foundry.dice.push(...Array(20).fill(6));
    const before = w.foundry.dice.log.length;
    await combat.startCombat();
    await combat.rollInitiative();
    await idle(w);
    const d12s = w.foundry.dice.log.slice(before).filter((r) => r.faces === 12);
    // Hobgoblins one, the witch one, the wolves one.
    expect(d12s).toHaveLength(3);
  });

  it('a player cannot place an encounter: told so, and nothing is created', async () => {
    const { encounter } = await raiders();
    await encounter.update({ ownership: { default: g.CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER } });
    await w.foundry.settle();
    const tokens = w.scene.tokens.size;
    const combatants = w.combat.combatants.size;
    const actors = g.game.actors.size;
    w.foundry.writes.clear();
    const player = w.foundry.users.player;
    const result = await w.foundry.asUser(player, () => dropOnCanvas({ type: 'Actor', uuid: encounter.uuid, x: 1050, y: 1050 }));
    expect(result).toBe(false);
    await idle(w);
    expect(w.foundry.client(player).notifications).toContainEqual({ type: 'warn', message: 'Only a GM can place an encounter on a scene.' });
    expect(w.foundry.writes.all()).toEqual([]);
    expect(w.scene.tokens.size).toBe(tokens);
    expect(w.combat.combatants.size).toBe(combatants);
    expect(g.game.actors.size).toBe(actors);
  });

  it('the sheet places the encounter for a GM only, and takes monsters dragged in as members', async () => {
    const { encounter, monsters } = await raiders();
    const sheet = encounter.sheet;
    await sheet.render({ force: true });
    // A wolf dragged in: one more wolf. A goblin: a new member. An encounter: refused.
    const [goblin] = await g.Actor.create([monsterData('Goblin')]);
    await sheet._onDropActor({} as any, monsters[2]);
    await sheet._onDropActor({} as any, goblin);
    await sheet._onDropActor({} as any, encounter);
    expect(encounter.system.members.map((m: any) => m.count)).toEqual([4, 1, 3, 1]);
    expect(encounter.system.members[3].uuid).toBe(goblin.uuid);
    expect(w.foundry.notifications.at(-1)).toEqual({ type: 'warn', message: 'Hobgoblin raiders cannot be a member of an encounter: drop a monster or a character.' });
    await sheet.renderSettled?.();
    // The GM's "Place on scene": around the middle of the viewed map (4000×3000: square 20,15).
    await clickSheetAction(sheet, 'placeEncounter');
    await idle(w);
    const placed = w.scene.tokens.filter((t: any) => [...monsters, goblin].some((m: any) => m.id === t.actorId));
    expect(placed).toHaveLength(9);
    for (const t of placed) expect(Math.max(Math.abs(t.x / 100 - 20), Math.abs(t.y / 100 - 15))).toBeLessThanOrEqual(1);
    expect(w.combat.combatants.size).toBe(4 + 9);
    // A player with the sheet open sees no such button; the placing itself refuses a player in words.
    const player = w.foundry.users.player;
    await encounter.update({ ownership: { default: g.CONST.DOCUMENT_OWNERSHIP_LEVELS.OBSERVER } });
    await w.foundry.settle();
    const theirs = w.foundry.client(player).game.actors.get(encounter.id).sheet;
    await w.foundry.asUser(player, () => theirs.render({ force: true }));
    await expect(clickSheetAction(theirs, 'placeEncounter')).rejects.toThrow();
    w.foundry.writes.clear();
    const { placeOnViewedScene } = await import('../../src/documents/encounter-place');
    expect(await w.foundry.asUser(player, () => placeOnViewedScene(w.foundry.client(player).game.actors.get(encounter.id)))).toBeNull();
    expect(w.foundry.client(player).notifications.at(-1)).toEqual({ type: 'warn', message: 'Only a GM can place an encounter on a scene.' });
    expect(w.foundry.writes.all()).toEqual([]);
  });

  it('a monster dropped on the map and added to the combat joins the hostile side, its routines offered in the declaration dialog', async () => {
    const [troll] = await g.Actor.create([{ ...monsterData('Troll'), system: { ...monsterData('Troll').system, attacks: 'MELEE: 2 claws (1d4+4/1d4+4) and bite (2d6)' } }]);
    const token = await dropOnCanvas({ type: 'Actor', uuid: troll.uuid, x: 1050, y: 1050 });
    expect(token).toMatchObject({ x: 1000, y: 1000, actorLink: false, disposition: -1 });
    const [combatant] = (await w.combat.createEmbeddedDocuments('Combatant', [{ tokenId: token.id, sceneId: w.scene.id, actorId: troll.id }] as never)) as any[];
    await idle(w);
    const hostile: any = w.combat.groups.find((gr: any) => groupData(gr)?.side === 'hostile');
    expect(combatant._source.group).toBe(hostile.id);
    const context = prepareDeclarationContext(w.combat, combatant.id, 'declare');
    expect(context.routines.map((r) => r.label)).toEqual(['MELEE: 2 claws (1d4+4/1d4+4) and bite (2d6)']);
    expect(legalChoices(w.combat, combatant, 'declare').map((c) => c.action)).toContain('melee');
  });
});

describe.each([13, 14] as const)('ready encounters from the compendium, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'individual-speed');
  });
  const imported = (slug: string) => g.game.actors.filter((a: any) => a._source._stats?.compendiumSource === packUuid('monsters', slug));

  it('the pack\'s hobgoblin raiders dropped by a GM: the monsters imported once, seven hostile tokens and combatants, their routines usable', async () => {
    const actors = g.game.actors.size;
    expect(await dropOnCanvas({ type: 'Actor', uuid: packUuid('encounters', 'hobgoblin-raiders'), x: 1050, y: 1050 })).toBe(false);
    await idle(w);
    // Hobgoblin, hobgoblin witch and wolf imported into the world, each naming its pack entry; the encounter itself is not.
    expect(g.game.actors.size).toBe(actors + 3);
    for (const slug of ['hobgoblin', 'hobgoblin-witch', 'wolf']) expect(imported(slug), slug).toHaveLength(1);
    const [hob, wolf] = [imported('hobgoblin')[0], imported('wolf')[0]];
    expect(hob.items.size).toBeGreaterThan(0); // its weapons came with it
    const placed = w.scene.tokens.filter((t: any) => t.x >= 800);
    expect(placed).toHaveLength(7);
    expect(new Set(placed.flatMap(footprint)).size).toBe(7);
    const joined = w.combat.combatants.filter((c: any) => placed.some((t: any) => t.id === c.tokenId));
    const hostile: any = w.combat.groups.find((gr: any) => groupData(gr)?.side === 'hostile');
    expect(joined.map((c: any) => c._source.group)).toEqual(Array(7).fill(hostile.id));
    expect(joined.filter((c: any) => c.actorId === hob.id).map((c: any) => c.system.initiativeGroup)).toEqual(Array(4).fill('hobgoblin'));
    expect(joined.filter((c: any) => c.actorId === wolf.id).map((c: any) => c.system.initiativeGroup)).toEqual(['wolf', 'wolf']);
    // A hobgoblin's routines are offered in its declaration, and melee is legal.
    const one: any = joined.find((c: any) => c.actorId === hob.id);
    const context = prepareDeclarationContext(w.combat, one.id, 'declare');
    expect(context.routines.map((r) => r.label)).toEqual(['morning star (2d4)', 'MISSILE: 2 short bow arrows (1d6/1d6)']);
    expect(legalChoices(w.combat, one, 'declare').map((c) => c.action)).toContain('melee');
    // A second encounter with wolves uses the world's wolf again: only its goblins are imported.
    await dropOnCanvas({ type: 'Actor', uuid: packUuid('encounters', 'goblin-war-band'), x: 2050, y: 2050 });
    await idle(w);
    expect(g.game.actors.size).toBe(actors + 4);
    expect(imported('wolf')).toHaveLength(1);
    expect(w.scene.tokens.filter((t: any) => t.actorId === wolf.id)).toHaveLength(4);
    expect(w.foundry.errors).toEqual([]);
  });

  it('an encounter with a large monster keeps every footprint on free squares (the ogre takes 2×2)', async () => {
    await dropOnCanvas({ type: 'Actor', uuid: packUuid('encounters', 'ogre-and-goblins'), x: 350, y: 150 });
    await idle(w);
    const all = w.scene.tokens.contents;
    expect(all).toHaveLength(4 + 5);
    const squares = all.flatMap(footprint);
    expect(new Set(squares).size).toBe(squares.length);
    const ogre = all.find((t: any) => t.name === 'Ogre');
    expect([ogre.width, ogre.height]).toEqual([2, 2]);
  });

  it('a troll dragged from the monsters pack onto the map and added to the combat is hostile, its routines offered', async () => {
    const token = await dropOnCanvas({ type: 'Actor', uuid: packUuid('monsters', 'troll'), x: 1100, y: 1100 });
    expect(token).toMatchObject({ x: 1000, y: 1000, actorLink: false, disposition: -1, width: 2 });
    const [combatant] = (await w.combat.createEmbeddedDocuments('Combatant', [{ tokenId: token.id, sceneId: w.scene.id, actorId: token.actorId }] as never)) as any[];
    await idle(w);
    const hostile: any = w.combat.groups.find((gr: any) => groupData(gr)?.side === 'hostile');
    expect(combatant._source.group).toBe(hostile.id);
    const context = prepareDeclarationContext(w.combat, combatant.id, 'declare');
    expect(context.routines.map((r) => r.label)).toEqual(['2 claws (1d4+4/1d4+4) and bite (2d6)']);
    expect(legalChoices(w.combat, combatant, 'declare').map((c) => c.action)).toContain('melee');
  });

  it('a player cannot place the pack\'s encounter either', async () => {
    const player = w.foundry.users.player;
    w.foundry.writes.clear();
    const uuid = packUuid('encounters', 'troll');
    expect(await w.foundry.asUser(player, () => dropOnCanvas({ type: 'Actor', uuid, x: 1050, y: 1050 }))).toBe(false);
    await idle(w);
    expect(w.foundry.client(player).notifications).toEqual([{ type: 'warn', message: 'Only a GM can place an encounter on a scene.' }]);
    expect(w.foundry.writes.all()).toEqual([]);
    expect(w.foundry.errors).toEqual([]);
  });
});

describe('free squares', () => {
  it('ring by ring around the start, nearest first, whole blocks for large tokens, within the map', () => {
    const room = { occupied: new Set(['0,0']), bounds: { minCol: 0, minRow: 0, maxCol: 3, maxRow: 3 } };
    expect(takeFreeBlock(room, { col: 0, row: 0 })).toEqual({ col: 1, row: 0 });
    expect(takeFreeBlock(room, { col: 0, row: 0 })).toEqual({ col: 0, row: 1 });
    // A 2×2 block: (0,0),(1,0),(0,1) are taken; the nearest whole block is at (1,1).
    expect(takeFreeBlock(room, { col: 0, row: 0 }, 2, 2)).toEqual({ col: 1, row: 1 });
    // Left: (2,0), (0,2). Then nothing.
    expect(takeFreeBlock(room, { col: 0, row: 0 })).toEqual({ col: 2, row: 0 });
    expect(takeFreeBlock(room, { col: 0, row: 0 })).toEqual({ col: 0, row: 2 });
    expect(takeFreeBlock(room, { col: 0, row: 0 })).toBeNull();
  });
});
