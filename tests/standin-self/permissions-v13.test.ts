/**
 * The server's permission rules as Foundry v13's common code has them (issue 25, build 13.350), in both
 * generations (v14 taken to be the same): `Document#canUserModify` tests a role permission by the role only
 * and an ownership permission by the level; Combatant, Combat, Token, CombatantGroup, ChatMessage and User
 * as their base classes decide. Each rule is tried through the raw path (a modified client: the server alone
 * judges) and, where a client would do it, the ordinary path.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe.each([13, 14] as const)('permissions as v13 decides them, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let gm: any;
  let player: any;
  let player2: any;
  let assistant: any;
  let OWNER: number;
  let OBSERVER: number;

  beforeEach(() => {
    foundry = installFoundry({ generation });
    ({ gm, player, player2 } = foundry.users);
    assistant = foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    ({ OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS);
  });

  const refused = (action: string, documentName: string) => new RegExp(`lacks permission to ${action} ${documentName}`);

  describe('Document#canUserModify (fact 1)', () => {
    it('a role permission tests the role only: the owner of an actor who is a player may not delete it, an assistant who owns nothing may', async () => {
      const actor = await g.Actor.create({ name: 'Halvaine', type: 'base', ownership: { [player.id]: OWNER } });
      expect(actor.canUserModify(player, 'delete')).toBe(false);
      expect(actor.canUserModify(assistant, 'delete')).toBe(true);
      await expect(foundry.asUser(player, () => actor.delete())).rejects.toThrow(refused('delete', 'Actor'));
      await expect(foundry.raw(player).modify('delete', 'Actor', [actor.id])).rejects.toThrow(refused('delete', 'Actor'));
      expect(foundry.server.source(actor.uuid)).toBeTruthy();
      await foundry.asUser(assistant, () => actor.delete());
      expect(g.game.actors.has(actor.id)).toBe(false);
      expect(foundry.writes.all().at(-1)).toMatchObject({ documentName: 'Actor', action: 'delete', userId: assistant.id });
    });

    it('a player may not create a document of an ASSISTANT permission by making herself its owner', async () => {
      await expect(foundry.raw(player).modify('create', 'Scene', [{ name: 'Mine', ownership: { default: 0, [player.id]: OWNER } }])).rejects.toThrow(refused('create', 'Scene'));
      await expect(foundry.asUser(player, () => g.Scene.create({ name: 'Mine', ownership: { [player.id]: OWNER } }))).rejects.toThrow(refused('create', 'Scene'));
      expect(foundry.server.sources('Scene')).toEqual([]);
    });

    it('an ownership permission ("OWNER") tests the level: the owner of a scene may update it, an observer may not; neither may delete it', async () => {
      const scene = await g.Scene.create({ name: 'Keep', ownership: { default: OBSERVER, [player.id]: OWNER } });
      expect(scene.canUserModify(player, 'update')).toBe(true);
      expect(scene.canUserModify(player2, 'update')).toBe(false);
      await foundry.asUser(player, () => scene.update({ name: 'Her keep' }));
      await expect(foundry.raw(player2).modify('update', 'Scene', [{ _id: scene.id, name: 'Mine' }])).rejects.toThrow(refused('update', 'Scene'));
      await expect(foundry.raw(player).modify('delete', 'Scene', [scene.id])).rejects.toThrow(refused('delete', 'Scene'));
      expect(foundry.server.source(scene.uuid).name).toBe('Her keep');
    });

    it('User (BaseUser): a player updates herself but not her name, role or permissions, nor another user; an assistant any user but no escalation', async () => {
      await foundry.asUser(player, () => g.game.user.update({ color: '#ff0000', flags: { 'ten-segments': { seen: true } } }));
      expect(foundry.server.source(player.uuid)).toMatchObject({ color: '#ff0000', flags: { 'ten-segments': { seen: true } } });
      await expect(foundry.raw(player).modify('update', 'User', [{ _id: player.id, name: 'Queen' }])).rejects.toThrow(refused('update', 'User'));
      await expect(foundry.raw(player).modify('update', 'User', [{ _id: player.id, role: g.CONST.USER_ROLES.GAMEMASTER }])).rejects.toThrow(refused('update', 'User'));
      await expect(foundry.raw(player).modify('update', 'User', [{ _id: player.id, permissions: { ACTOR_CREATE: true } }])).rejects.toThrow(refused('update', 'User'));
      await expect(foundry.raw(player).modify('update', 'User', [{ _id: player2.id, color: '#00ff00' }])).rejects.toThrow(refused('update', 'User'));
      await foundry.raw(assistant).modify('update', 'User', [{ _id: player2.id, color: '#00ff00', name: 'Renamed' }]);
      await expect(foundry.raw(assistant).modify('update', 'User', [{ _id: player2.id, role: g.CONST.USER_ROLES.GAMEMASTER }])).rejects.toThrow(refused('update', 'User'));
      await foundry.settle();
      expect(foundry.server.source(player.uuid)).toMatchObject({ name: player.name, role: g.CONST.USER_ROLES.PLAYER });
      expect(foundry.server.source(player2.uuid)).toMatchObject({ color: '#00ff00', name: 'Renamed', role: g.CONST.USER_ROLES.PLAYER });
    });
  });

  describe('Combatant, Combat (facts 2, 3)', () => {
    let scene: any;
    let combat: any;
    let heroToken: any;
    let orcToken: any;
    let group: any;

    beforeEach(async () => {
      const [hero, orc] = await g.Actor.create([
        { name: 'Halvaine', type: 'base', ownership: { [player.id]: OWNER } },
        { name: 'Orc', type: 'base' },
      ]);
      scene = await g.Scene.create({ name: 'Keep', active: true });
      [heroToken, orcToken] = await scene.createEmbeddedDocuments('Token', [
        { name: 'Halvaine', actorId: hero.id, actorLink: true, x: 0, y: 0 },
        { name: 'Orc', actorId: orc.id, actorLink: true, x: 300, y: 0 },
      ]);
      combat = await g.Combat.create({ scene: scene.id, active: true });
      [group] = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Vanguard' }]);
      await combat.createEmbeddedDocuments('Combatant', [{ tokenId: orcToken.id, sceneId: scene.id, actorId: orc.id, initiative: 5 }]);
      foundry.writes.clear();
    });

    const combatantOf = (token: any, extra: any = {}) => ({ tokenId: token.id, sceneId: scene.id, actorId: token.actorId, ...extra });

    it('a player may create a combatant for what she owns with any field (group, initiative, hidden, flags, system), by the raw path and the ordinary one', async () => {
      const forged = { group: group.id, initiative: 99, hidden: true, defeated: true, name: 'Anyone', flags: { 'ten-segments': { anything: [1] } }, system: { x: 1 } };
      const [raw] = await foundry.raw(player).modify('create', 'Combatant', [combatantOf(heroToken, forged)], {}, combat.uuid);
      expect(foundry.server.source(`${combat.uuid}.Combatant.${raw._id}`)).toMatchObject(forged);
      // A second one, through her own client
      const [mine] = await foundry.asUser(player, () => combat.createEmbeddedDocuments('Combatant', [combatantOf(heroToken, { group: group.id, initiative: 50, hidden: true })]));
      expect(foundry.server.source(mine.uuid)).toMatchObject({ group: group.id, initiative: 50, hidden: true });
      expect(foundry.writes.all().map((w) => [w.documentName, w.action, w.userId])).toEqual([
        ['Combatant', 'create', player.id],
        ['Combatant', 'create', player.id],
      ]);
    });

    it('a combatant of what she does not own is refused, whatever it carries', async () => {
      await expect(foundry.raw(player).modify('create', 'Combatant', [combatantOf(orcToken)], {}, combat.uuid)).rejects.toThrow(refused('create', 'Combatant'));
      await expect(foundry.raw(player2).modify('create', 'Combatant', [combatantOf(heroToken)], {}, combat.uuid)).rejects.toThrow(refused('create', 'Combatant'));
      expect(foundry.writes.count()).toBe(0);
    });

    it('an owner updates only _id, initiative, flags, defeated and system; deletes her own; nothing of another', async () => {
      const [mine] = await combat.createEmbeddedDocuments('Combatant', [combatantOf(heroToken, { initiative: 10 })]);
      const orc = combat.combatants.find((c: any) => c.tokenId === orcToken.id);
      const parent = combat.uuid;
      await foundry.raw(player).modify('update', 'Combatant', [{ _id: mine.id, initiative: 3, defeated: true, flags: { f: 1 }, system: { s: 1 } }], {}, parent);
      for (const key of ['group', 'hidden', 'name', 'tokenId', 'actorId', 'img']) {
        const value = { group: group.id, hidden: true, name: 'X', tokenId: orcToken.id, actorId: orc.actorId, img: 'x.png' }[key];
        await expect(foundry.raw(player).modify('update', 'Combatant', [{ _id: mine.id, [key]: value }], {}, parent)).rejects.toThrow(refused('update', 'Combatant'));
      }
      await expect(foundry.raw(player).modify('update', 'Combatant', [{ _id: orc.id, initiative: 30 }], {}, parent)).rejects.toThrow(refused('update', 'Combatant'));
      await expect(foundry.raw(player).modify('delete', 'Combatant', [orc.id], {}, parent)).rejects.toThrow(refused('delete', 'Combatant'));
      await foundry.raw(player).modify('delete', 'Combatant', [mine.id], {}, parent);
      await foundry.settle();
      expect(combat.combatants.has(mine.id)).toBe(false);
      expect(combat.combatants.has(orc.id)).toBe(true);
    });

    it('any player writes round and turn, even one with no combatant in the combat; nothing else of the combat', async () => {
      await combat.createEmbeddedDocuments('Combatant', [combatantOf(heroToken, { initiative: 10 })]);
      await combat.startCombat();
      foundry.writes.clear();
      await foundry.asUser(player2, () => combat.update({ turn: 1 }));
      await foundry.raw(player2).modify('update', 'Combat', [{ _id: combat.id, round: 4, turn: 0 }]);
      await expect(foundry.raw(player2).modify('update', 'Combat', [{ _id: combat.id, round: 5, active: false }])).rejects.toThrow(refused('update', 'Combat'));
      await foundry.settle();
      expect(foundry.server.source(combat.uuid)).toMatchObject({ round: 4, turn: 0, active: true });
      expect(foundry.writes.all().map((w) => w.userId)).toEqual([player2.id, player2.id]);
    });
  });

  describe('Token (fact 4)', () => {
    let scene: any;
    let hero: any;
    let ogre: any;
    let log: string[];

    beforeEach(async () => {
      const actors = await g.Actor.create([
        { name: 'Hero', type: 'base', ownership: { [player.id]: OWNER } },
        { name: 'Ogre', type: 'base' },
      ]);
      scene = await g.Scene.create({ name: 'Keep', active: true });
      [hero, ogre] = await scene.createEmbeddedDocuments('Token', [
        { name: 'Hero', actorId: actors[0].id, actorLink: true, x: 0, y: 0 },
        { name: 'Ogre', actorId: actors[1].id, actorLink: true, x: 500, y: 500 },
      ]);
      foundry.view(scene);
      log = [];
      for (const user of [gm, player, player2]) {
        await foundry.asUser(user, () => {
          const me = g.game.user.name;
          g.Hooks.on('updateToken', (doc: any) => void log.push(`${me}:updateToken:${doc.name}`));
          g.Hooks.on('moveToken', (doc: any) => void log.push(`${me}:moveToken:${doc.name}`));
        });
      }
      foundry.writes.clear();
    });

    it('the owner of its actor may write any field; a plain x/y write without a movement is accepted and fires no moveToken anywhere', async () => {
      await foundry.raw(player).modify('update', 'Token', [{ _id: hero.id, x: 700, y: 300, hidden: true, disposition: 1, name: 'Shade' }], {}, scene.uuid);
      await foundry.settle();
      expect(foundry.server.source(hero.uuid)).toMatchObject({ x: 700, y: 300, hidden: true, disposition: 1, name: 'Shade' });
      expect(hero).toMatchObject({ x: 700, y: 300 });
      expect(log.filter((l) => l.includes('moveToken'))).toEqual([]);
      expect(log.filter((l) => l.includes('updateToken'))).toHaveLength(3);
      expect(hero.movementHistory).toEqual([]);
    });

    it('a token whose actor she does not own is refused; so is one whose actor is gone', async () => {
      await expect(foundry.raw(player).modify('update', 'Token', [{ _id: ogre.id, x: 0 }], {}, scene.uuid)).rejects.toThrow(refused('update', 'Token'));
      await expect(foundry.asUser(player2, () => hero.update({ x: 100 }))).rejects.toThrow(refused('update', 'Token'));
      const lost = await g.Actor.create({ name: 'Lost', type: 'base', ownership: { default: OWNER } });
      const [orphan] = await scene.createEmbeddedDocuments('Token', [{ name: 'Orphan', actorId: lost.id, actorLink: true }]);
      await lost.delete();
      await expect(foundry.raw(player).modify('update', 'Token', [{ _id: orphan.id, x: 100 }], {}, scene.uuid)).rejects.toThrow(refused('update', 'Token'));
      expect(foundry.server.source(orphan.uuid).x).toBe(0);
    });

    it('a token without an actor may be updated by anyone', async () => {
      const [marker] = await scene.createEmbeddedDocuments('Token', [{ name: 'Marker', x: 100, y: 100 }]);
      expect(marker.actor).toBeNull();
      foundry.writes.clear();
      expect(marker.canUserModify(player2, 'update', { x: 200 })).toBe(true);
      await foundry.raw(player2).modify('update', 'Token', [{ _id: marker.id, x: 200, hidden: true }], {}, scene.uuid);
      await foundry.asUser(player, () => marker.update({ name: 'Moved marker' }));
      await foundry.settle();
      expect(foundry.server.source(marker.uuid)).toMatchObject({ x: 200, hidden: true, name: 'Moved marker' });
      expect(foundry.writes.all().map((w) => w.userId)).toEqual([player2.id, player.id]);
      // Creating and deleting stay TOKEN_CREATE / TOKEN_DELETE (assistant)
      await expect(foundry.raw(player2).modify('delete', 'Token', [marker.id], {}, scene.uuid)).rejects.toThrow(refused('delete', 'Token'));
      await expect(foundry.raw(player2).modify('create', 'Token', [{ name: 'More' }], {}, scene.uuid)).rejects.toThrow(refused('create', 'Token'));
    });

    it('an unlinked token is updatable by the owner of its base actor', async () => {
      const [minion] = await scene.createEmbeddedDocuments('Token', [{ name: 'Minion', actorId: hero.actorId, actorLink: false, x: 0, y: 100 }]);
      await foundry.raw(player).modify('update', 'Token', [{ _id: minion.id, y: 300 }], {}, scene.uuid);
      await expect(foundry.raw(player2).modify('update', 'Token', [{ _id: minion.id, y: 400 }], {}, scene.uuid)).rejects.toThrow(refused('update', 'Token'));
      expect(foundry.server.source(minion.uuid).y).toBe(300);
    });
  });

  describe('CombatantGroup (fact 5)', () => {
    let combat: any;
    beforeEach(async () => {
      combat = await g.Combat.create({});
      foundry.writes.clear();
    });

    it('create and delete need the ASSISTANT role: a player who makes herself the owner is refused', async () => {
      const mine = { name: 'Mine', ownership: { default: 0, [player.id]: OWNER } };
      await expect(foundry.raw(player).modify('create', 'CombatantGroup', [mine], {}, combat.uuid)).rejects.toThrow(refused('create', 'CombatantGroup'));
      await expect(foundry.asUser(player, () => combat.createEmbeddedDocuments('CombatantGroup', [mine]))).rejects.toThrow(refused('create', 'CombatantGroup'));
      expect(foundry.writes.count()).toBe(0);
      const [made] = await foundry.asUser(assistant, () => combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Vanguard' }]));
      expect(foundry.writes.all()).toMatchObject([{ documentName: 'CombatantGroup', action: 'create', userId: assistant.id }]);
      expect(combat.groups.has(made.id)).toBe(true);
    });

    it('update by its owner (the level), delete not even by its owner', async () => {
      const [group] = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Vanguard', ownership: { [player.id]: OWNER } }]);
      await foundry.asUser(player, () => group.update({ name: 'Her vanguard' }));
      await expect(foundry.raw(player2).modify('update', 'CombatantGroup', [{ _id: group.id, name: 'Mine' }], {}, combat.uuid)).rejects.toThrow(refused('update', 'CombatantGroup'));
      await expect(foundry.raw(player).modify('delete', 'CombatantGroup', [group.id], {}, combat.uuid)).rejects.toThrow(refused('delete', 'CombatantGroup'));
      await expect(foundry.asUser(player, () => group.delete())).rejects.toThrow(refused('delete', 'CombatantGroup'));
      expect(foundry.server.source(group.uuid).name).toBe('Her vanguard');
      await foundry.raw(assistant).modify('delete', 'CombatantGroup', [group.id], {}, combat.uuid);
      await foundry.settle();
      expect(combat.groups.has(group.id)).toBe(false);
    });
  });

  describe('ChatMessage (fact 6)', () => {
    const forgedFlags = { 'ten-segments': { card: { kind: 'attack', outcome: 'hit', damage: 99 }, q: 'someone:1' }, core: { initiativeRoll: true } };

    it('a player creates a message with any flags under her own author, by the raw path and the ordinary one; every client has the flags', async () => {
      const [raw] = await foundry.raw(player).modify('create', 'ChatMessage', [{ content: 'forged', author: player.id, flags: forgedFlags }]);
      await foundry.settle();
      expect(foundry.server.source(`ChatMessage.${raw._id}`)).toMatchObject({ author: player.id, flags: forgedFlags });
      for (const user of [gm, player, player2]) expect(foundry.client(user).game.messages.get(raw._id).flags).toEqual(forgedFlags);
      const mine = await foundry.asUser(player, () => g.ChatMessage.create({ content: 'mine', flags: forgedFlags }));
      expect(foundry.server.source(mine.uuid)).toMatchObject({ author: player.id, flags: forgedFlags });
    });

    it('under another author she is refused; a GM may author as anyone', async () => {
      await expect(foundry.raw(player).modify('create', 'ChatMessage', [{ content: 'as the GM', author: gm.id, flags: forgedFlags }])).rejects.toThrow(refused('create', 'ChatMessage'));
      await expect(foundry.asUser(player, () => g.ChatMessage.create({ content: 'as player 2', author: player2.id }))).rejects.toThrow(refused('create', 'ChatMessage'));
      const [asPlayer] = await foundry.raw(gm).modify('create', 'ChatMessage', [{ content: 'as player 2', author: player2.id, flags: forgedFlags }]);
      expect(foundry.server.source(`ChatMessage.${asPlayer._id}`)).toMatchObject({ author: player2.id });
      // The author owns it: she may update and delete it, another player not
      await expect(foundry.raw(player).modify('update', 'ChatMessage', [{ _id: asPlayer._id, content: 'x' }])).rejects.toThrow(refused('update', 'ChatMessage'));
      await foundry.raw(player2).modify('update', 'ChatMessage', [{ _id: asPlayer._id, content: 'edited' }]);
      await foundry.raw(player2).modify('delete', 'ChatMessage', [asPlayer._id]);
      expect(foundry.server.sources('ChatMessage')).toEqual([]);
    });
  });
});
