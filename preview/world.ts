/**
 * The preview's fixture world, built as tests/foundry/world.ts builds its
 * own: a GM and two players; Halvaine the magic-user (player 1's) with Sleep,
 * Brand the fighter (player 2's) with a long sword; orcs up to n combatants;
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

export async function buildWorld(foundry: FoundryHandle, procedure: ProcedureId, n: number, { start = true } = {}): Promise<PreviewWorld> {
  await g.game.settings.set('ten-segments', 'procedure', procedure);
  const { OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
  const p1 = foundry.users.player.id;
  const p2 = foundry.users.player2.id;
  const character = (name: string, owner: string) => characterData(name, owner, owner === p1 ? p2 : p1, { OWNER, OBSERVER });
  const monster = monsterData;
  const monsters = Array.from({ length: n - 2 }, (_, i) => monster(`Orc ${i + 1}`));
  const [halvaine, brand, ...orcs] = await g.Actor.create([character('Halvaine', p1), character('Brand', p2), ...monsters]);
  const [spell] = await halvaine.createEmbeddedDocuments('Item', [
    sleepData(2),
  ]);
  const [sword] = await brand.createEmbeddedDocuments('Item', [
    LONG_SWORD,
  ]);
  const scene = await g.Scene.create({ name: 'Keep', active: true });
  const tokens = await scene.createEmbeddedDocuments('Token', [
    { name: 'Halvaine', actorId: halvaine.id, actorLink: true, x: 0, y: 0, disposition: 1 },
    { name: 'Brand', actorId: brand.id, actorLink: true, x: 100, y: 0, disposition: 1 },
    ...orcs.map((o: any, i: number) => ({ name: o.name, actorId: o.id, actorLink: true, x: 300 + 100 * (i % 10), y: 100 * Math.floor(i / 10), disposition: -1 })),
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

/** Everyone declares, the GM for all: Halvaine casts Sleep at the first orc, Brand and the orcs fight. */
export async function declareAll(world: PreviewWorld): Promise<void> {
  const { combat, ids } = world;
  const first = ids.monsters[0];
  await requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: world.spell.id, target: first } as never);
  await requestDeclaration(combat, ids.brand, { action: 'melee', weapon: world.sword.id, target: first });
  for (const [i, id] of ids.monsters.entries()) await requestDeclaration(combat, id, { action: 'melee', target: i % 2 ? ids.brand : ids.halvaine });
}
