/**
 * A group declared at once (issue 29): the GM declares one action for every
 * undeclared monster identical to one (same actor, or same compendium
 * source) or for the selected tokens; each member is checked as if declared
 * alone and those refused are named; the monsters' plans are held in one
 * write. A player cannot ask for it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, idle, makeWorld, type World } from './world';
import { requestGroupDeclaration } from '../../src/documents/queries';
import { groupMembers, nearestFoe } from '../../src/documents/group';
import { prepareDeclarationContext } from '../../src/apps/declaration-dialog';

const SOURCE = 'Compendium.ten-segments.monsters.Actor.orc0000000000000';

/** Two orcs from one compendium entry (different actors, as dragged from a pack twice), and an ogre of its own beside them. */
async function fromPack(w: World): Promise<{ a: string; b: string; ogre: string }> {
  const orc = (name: string) => ({ name, type: 'monster', _stats: { compendiumSource: SOURCE }, system: { hitDice: '1', hp: { value: 6, max: 6 }, ac: 6, aac0: '19', attacks: 'weapon 1d8' } });
  const actors = await g.Actor.create([orc('Orc A'), orc('Orc B'), { name: 'Ogre', type: 'monster', system: { hitDice: '4+1', hp: { value: 22, max: 22 }, ac: 5, aac0: '15', attacks: 'club 1d10' } }]);
  const tokens = await w.scene.createEmbeddedDocuments(
    'Token',
    actors.map((a: any, i: number) => ({ name: a.name, actorId: a.id, actorLink: true, x: 400 + 100 * i, y: 200, disposition: -1 })),
  );
  const group = (w.combat as any).combatants.get(w.ids.orc1)._source.group;
  const made = await w.combat.createEmbeddedDocuments('Combatant', tokens.map((t: any) => ({ tokenId: t.id, sceneId: w.scene.id, actorId: t.actorId, group })) as never);
  await idle(w);
  const [a, b, ogre] = (made as any[]).map((c) => c.id as string);
  return { a, b, ogre };
}

describe.each([13, 14] as const)('a group declared at once, generation %i', (generation) => {
  it('segment-d6: "Orc ×2: attack in melee, nearest foe" — identical monsters, not the ogre; each at its own nearest foe; held in one write', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { a, b, ogre } = await fromPack(w);
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await idle(w);
    // The world's orcs: tokens of two actors of their own; Orc A and B: one compendium source; the ogre: its own.
    expect(groupMembers(combat, ids.orc1)).toEqual([ids.orc1]);
    expect(groupMembers(combat, a)).toEqual([a, b]);
    expect(groupMembers(combat, ogre)).toEqual([ogre]);
    // Brand (x 100) stands nearer both orcs (x 300) than Halvaine (x 0).
    expect(nearestFoe(combat, combat.combatants.get(ids.orc1) as any)).toBe(ids.brand);
    const context = prepareDeclarationContext(combat, ids.orc1, 'declare', {}, null, [ids.orc1, ids.orc2]);
    expect(context.heading).toBe('Orc 1 ×2: one declaration for all');
    expect(context.group).toEqual({ count: 2, names: 'For: Orc 1, Orc 2' });
    expect(context.targets[0]).toMatchObject({ id: '@nearest', label: 'Nearest foe (each its own)', selected: true });

    // The active GM's writes of the held store (a world setting sent whole to every client).
    let writes = 0;
    const settings = g.game.settings;
    const set = settings.set;
    settings.set = function (this: unknown, ns: string, key: string, ...rest: unknown[]) {
      if (key === 'heldDeclarations') writes++;
      return set.call(this, ns, key, ...rest);
    };
    expect(await requestGroupDeclaration(combat, [a, b, ids.orc1, ids.orc2], { action: 'melee' }, true)).toEqual({ ok: true });
    await idle(w);
    settings.set = set;
    expect(writes).toBe(1);
    expect(combat.held).toEqual({
      [a]: expect.objectContaining({ action: 'melee', target: ids.brand }),
      [b]: expect.objectContaining({ action: 'melee', target: ids.brand }),
      [ids.orc1]: expect.objectContaining({ action: 'melee', target: ids.brand }),
      [ids.orc2]: expect.objectContaining({ action: 'melee', target: ids.brand }),
    });
    // Declared: nobody left like them.
    expect(groupMembers(combat, b)).toEqual([b]);
  });

  it('each member checked as if alone: those refused are named, the rest declared; all refused changes nothing; a player cannot ask', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await idle(w);
    // Halvaine's Sleep for Halvaine and an orc: the orc carries no such spell.
    const partly = await requestGroupDeclaration(combat, [ids.halvaine, ids.orc1], { action: 'spell', spell: w.spell.id });
    expect(partly).toMatchObject({ ok: true, message: expect.stringMatching(/^Declared for 1 of 2\. Refused — Orc 1: /) });
    await idle(w);
    expect((combat as any).flowState.declarations[ids.halvaine]).toMatchObject({ action: 'spell', spell: 'Sleep' });
    expect(combat.held[ids.orc1]).toBeUndefined();

    const before = JSON.stringify({ log: (combat as any).system.log, held: combat.held });
    const none = await requestGroupDeclaration(combat, [ids.orc1, ids.orc2], { action: 'spell', spell: w.spell.id });
    expect(none).toMatchObject({ ok: false, key: 'GroupAllRefused', message: expect.stringContaining('Orc 2: ') });
    const player = await foundry.asUser(foundry.users.player, () => requestGroupDeclaration(combat, [ids.orc1], { action: 'melee' }));
    expect(player).toMatchObject({ ok: false, key: 'OnlyGM' });
    const forged = await foundry.asUser(foundry.users.player, () => requestGroupDeclaration(combat, ['bad id!'], { action: 'melee' }));
    expect(forged.ok).toBe(false);
    await idle(w);
    expect(JSON.stringify({ log: (combat as any).system.log, held: combat.held })).toBe(before);
    expect(foundry.errors).toEqual([]);
  });
});
