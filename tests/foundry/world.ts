/**
 * A small world for the Foundry-layer tests: a GM and two players, a party
 * (Halvaine the magic-user, owned by player 1; Brand the fighter, owned by
 * player 2) and orcs, tokens on a 5-ft grid, and a combat with all of them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { installFoundry, type FoundryHandle } from '../standin';
import { initSystem } from '../../src/system';
import type { TenSegmentsCombat } from '../../src/documents/combat';
import { characterData, LONG_SWORD, monsterData, sleepData } from './fixtures';
import type { ProcedureId } from '../../src/rules/model';

import { requestDeclaration, whenIdle } from '../../src/documents/queries';

export const g = globalThis as any;

export interface World {
  foundry: FoundryHandle;
  combat: TenSegmentsCombat;
  scene: any;
  actors: { halvaine: any; brand: any; orc1: any; orc2: any };
  /** Combatant ids by actor key. */
  ids: { halvaine: string; brand: string; orc1: string; orc2: string };
  spell: any;
  sword: any;
}

export async function makeWorld(generation: 13 | 14, procedure: ProcedureId, options: Record<string, unknown> = {}): Promise<World> {
  const foundry = installFoundry({ generation, lang: 'lang/en.json', systemId: 'ten-segments' });
  foundry.everyClient(initSystem);
  await g.game.settings.set('ten-segments', 'procedure', procedure);
  await g.game.settings.set('ten-segments', 'procedureOptions', { [procedure]: options });
  const { OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
  const p1 = foundry.users.player.id;
  const p2 = foundry.users.player2.id;
  const character = (name: string, owner: string) => characterData(name, owner, owner === p1 ? p2 : p1, { OWNER, OBSERVER });
  const monster = monsterData;
  const [halvaine, brand, orc1, orc2] = await g.Actor.create([
    character('Halvaine', p1),
    character('Brand', p2),
    monster('Orc 1'),
    monster('Orc 2'),
  ]);
  const [spell] = await halvaine.createEmbeddedDocuments('Item', [
    sleepData(1),
  ]);
  const [sword] = await brand.createEmbeddedDocuments('Item', [
    LONG_SWORD,
  ]);
  const scene = await g.Scene.create({ name: 'Keep', active: true });
  const tokens = await scene.createEmbeddedDocuments('Token', [
    { name: 'Halvaine', actorId: halvaine.id, actorLink: true, x: 0, y: 0, disposition: 1 },
    { name: 'Brand', actorId: brand.id, actorLink: true, x: 100, y: 0, disposition: 1 },
    { name: 'Orc 1', actorId: orc1.id, actorLink: true, x: 300, y: 0, disposition: -1 },
    { name: 'Orc 2', actorId: orc2.id, actorLink: true, x: 300, y: 100, disposition: -1 },
  ]);
  const combat = (await g.Combat.create({ scene: scene.id, active: true })) as TenSegmentsCombat;
  const created = await combat.createEmbeddedDocuments(
    'Combatant',
    tokens.map((t: any) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })) as never,
  );
  await foundry.settle();
  const id = (i: number) => (created as any[])[i].id as string;
  foundry.writes.clear();
  return {
    foundry,
    combat,
    scene,
    actors: { halvaine, brand, orc1, orc2 },
    ids: { halvaine: id(0), brand: id(1), orc1: id(2), orc2: id(3) },
    spell,
    sword,
  };
}

/** Plain text of a card as a reader sees it (tags and runs of spaces removed, entities read). */
export function cardText(message: any): string {
  return String(message.content)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The kind a system card was posted as (flag `kind`). */
export const cardKind = (m: any) => m.flags?.['ten-segments']?.kind as string | undefined;

/** The cards of these kinds a user's chat log shows, in order, as text (a whisper only to its recipients). */
export function cardsSeenBy(w: World, user: any, ...kinds: string[]): string[] {
  const messages: any[] = (w.foundry.client(user) as any).game.messages.contents;
  return messages.filter((m) => kinds.includes(cardKind(m) ?? '') && (m.whisper.length === 0 || m.whisper.includes(user.id))).map(cardText);
}

/** Until the active GM has answered every request and every client has caught up. */
export async function idle(w: { foundry: FoundryHandle }): Promise<void> {
  await w.foundry.client(w.foundry.users.gm).run(() => whenIdle());
  await w.foundry.settle();
}

/**
 * The combat started with `surprise` (the dice of surprise), Brand declaring
 * his long sword at Orc 1 (player 2's request) and, with `orcs`, those orcs
 * at Brand (the GM's); then, with `initiative`, its dice rolled.
 */
export async function brandVersusOrcs(w: World, surprise: number[], { orcs = [] as string[], initiative = undefined as number[] | undefined } = {}): Promise<void> {
  w.foundry.dice.push(...surprise);
  await w.combat.startCombat();
  await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
  for (const orc of orcs) await requestDeclaration(w.combat, orc, { action: 'melee', target: w.ids.brand });
  if (initiative) {
    w.foundry.dice.push(...initiative);
    await w.combat.rollInitiative();
  }
  await idle(w);
}
