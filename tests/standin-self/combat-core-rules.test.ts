/**
 * The stand-in's Combat held to facts of Foundry v13's own code (issue 25;
 * CONFORMANCE.md, C1–C5): the server writes the turn a Combatant
 * write carries as `combatTurn`, which clients take without an updateCombat
 * hook; `combatant.group` is the raw id when the group is missing; a group's
 * initiative overrides its members'; v14's Combatant has no `sceneId`; v14
 * offers no `ChatMessage.applyMode`.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe.each([13, 14] as const)('core combat rules, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let scene: any;
  let combat: any;
  let halvaine: any;

  beforeEach(async () => {
    foundry = installFoundry({ generation });
    const { OWNER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    const actors = await g.Actor.create([
      { name: 'Halvaine', type: 'base', ownership: { [foundry.users.player.id]: OWNER } },
      { name: 'Orc', type: 'base' },
      { name: 'Goblin', type: 'base' },
    ]);
    scene = await g.Scene.create({ name: 'Keep', active: true });
    const tokens = await scene.createEmbeddedDocuments('Token', actors.map((a: any, i: number) => ({ name: a.name, actorId: a.id, actorLink: true, x: 100 * i, y: 0 })));
    combat = await g.Combat.create({ scene: scene.id, active: true });
    [halvaine] = await combat.createEmbeddedDocuments(
      'Combatant',
      tokens.map((t: any, i: number) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId, initiative: [12, 18, 5][i] })),
    );
    await combat.startCombat();
    await foundry.settle();
  });

  it('C1: a combatant write carrying combatTurn moves the turn on the server and every client, with no updateCombat hook; a reload keeps it', async () => {
    expect(combat.turn).toBe(0);
    const hooks: string[] = [];
    for (const client of foundry.clients()) client.Hooks.on('updateCombat', () => hooks.push(client.user.name));
    // A player's own combatant, a change she may make, and the option.
    await foundry.raw(foundry.users.player).modify('update', 'Combatant', [{ _id: halvaine.id, flags: { x: { y: 1 } } }], { combatTurn: 2 }, combat.uuid);
    await foundry.settle();
    expect(foundry.server.source(combat.uuid).turn).toBe(2);
    for (const client of foundry.clients()) expect(client.game.combats.get(combat.id).turn, client.user.name).toBe(2);
    expect(hooks).toEqual([]);
    foundry.reload(foundry.users.player2);
    expect(foundry.client(foundry.users.player2).game.combats.get(combat.id).turn).toBe(2);
  });

  it('C1: a create or delete carries it too; a write that changes nothing, or a turn the schema refuses, moves nothing', async () => {
    const player = foundry.raw(foundry.users.player);
    const [extra] = await player.modify('create', 'Combatant', [{ actorId: halvaine.actorId, name: 'Again' }], { combatTurn: 1 }, combat.uuid);
    await foundry.settle();
    expect(foundry.server.source(combat.uuid).turn).toBe(1);
    await player.modify('delete', 'Combatant', [extra.id], { combatTurn: 2 }, combat.uuid);
    await foundry.settle();
    expect(foundry.server.source(combat.uuid).turn).toBe(2);
    await player.modify('update', 'Combatant', [{ _id: halvaine.id, flags: { x: { y: 1 } } }], { combatTurn: 0 }, combat.uuid);
    await player.modify('update', 'Combatant', [{ _id: halvaine.id, flags: { x: { y: 1 } } }], { combatTurn: 1 }, combat.uuid);
    await foundry.settle();
    expect(foundry.server.source(combat.uuid).turn).toBe(0);
    await player.modify('update', 'Combatant', [{ _id: halvaine.id, flags: { x: { y: 2 } } }], { combatTurn: -3 }, combat.uuid);
    await foundry.settle();
    expect(foundry.server.source(combat.uuid).turn).toBe(0);
  });

  it('C2: combatant.group is the group, or the raw id when the combat has no such group', async () => {
    const [side] = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Party' }]);
    await halvaine.update({ group: side.id });
    expect(halvaine.group).toBe(combat.groups.get(side.id));
    await side.delete();
    expect(halvaine._source.group).toBe(side.id);
    expect(halvaine.group).toBe(side.id);
  });

  it("C3: a group's finite initiative overrides each member's; core's turns follow it", async () => {
    const [side] = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Party' }]);
    await halvaine.update({ group: side.id });
    expect(combat.turns.map((c: any) => c.name)).toEqual(['Orc', 'Halvaine', 'Goblin']);
    await side.update({ initiative: 30 });
    expect(halvaine.initiative).toBe(30);
    expect(halvaine._source.initiative).toBe(12);
    expect(combat.turns.map((c: any) => c.name)).toEqual(['Halvaine', 'Orc', 'Goblin']);
    expect(side.members.has(halvaine)).toBe(true);
  });

  it(`C4: ${generation === 13 ? 'a combatant keeps its sceneId' : 'a combatant has no sceneId (dropped as an unknown key); its token is on the combat\'s scene'}`, () => {
    if (generation === 13) expect(halvaine.sceneId).toBe(scene.id);
    else {
      expect(halvaine._source.sceneId).toBeUndefined();
      expect('sceneId' in halvaine._source).toBe(false);
    }
    expect(halvaine.token?.name).toBe('Halvaine');
  });
});
