/**
 * The multi-client model: every user is a client with its own copies, its
 * own Hooks and CONFIG; the server applies core's base rules only and
 * broadcasts every write to every client; the network can be held, delivered
 * step by step and lose messages; clients connect, disconnect and reload; a
 * modified client can talk to the server directly (the raw path).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe.each([13, 14] as const)('multi-client, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let gm: any;
  let player: any;
  let player2: any;
  beforeEach(() => {
    foundry = installFoundry({ generation });
    ({ gm, player, player2 } = foundry.users);
  });

  const nameOn = (user: any, uuid: string) => foundry.client(user).game.actors.get(uuid.split('.')[1])?.name;
  const playerActor = () => g.Actor.create({ name: 'Halvaine', type: 'base', ownership: { [player.id]: g.CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER } });

  describe('clients', () => {
    it('each client has its own game, user, Hooks, CONFIG, ui and copies of the documents', async () => {
      const actor = await playerActor();
      const mine = await foundry.asUser(player, () => ({ game: g.game, user: g.game.user, hooks: g.Hooks, config: g.CONFIG, ui: g.ui, actor: g.game.actors.get(actor.id) }));
      expect(mine.user.id).toBe(player.id);
      expect(g.game.user.id).toBe(gm.id);
      expect(mine.game).not.toBe(g.game);
      expect(mine.hooks).not.toBe(g.Hooks);
      expect(mine.config).not.toBe(g.CONFIG);
      expect(mine.ui.notifications).not.toBe(g.ui.notifications);
      expect(mine.actor).not.toBe(actor);
      expect(mine.actor.toObject()).toEqual(actor.toObject());
      // The document classes are shared
      expect(mine.actor).toBeInstanceOf(g.Actor);
    });

    it('copies diverge until the server’s broadcast is delivered to each client', async () => {
      const actor = await g.Actor.create({ name: 'Orc', type: 'base' });
      foundry.network.hold();
      const done = actor.update({ name: 'Goblin' });
      await foundry.settle(); // the pre-steps run; the request waits on the network
      expect(foundry.network.pending).toMatchObject([{ type: 'modifyDocument', action: 'update', documentName: 'Actor', from: gm.id, to: 'server' }]);
      expect(foundry.server.source(actor.uuid).name).toBe('Orc');
      await foundry.network.deliver(1); // the server writes and broadcasts: the others first, the initiator last
      expect(foundry.server.source(actor.uuid).name).toBe('Goblin');
      expect(foundry.network.pending.map((m) => [m.from, m.to])).toEqual([
        ['server', player.id],
        ['server', player2.id],
        ['server', gm.id],
      ]);
      expect([nameOn(gm, actor.uuid), nameOn(player, actor.uuid), nameOn(player2, actor.uuid)]).toEqual(['Orc', 'Orc', 'Orc']);
      await foundry.network.deliver(1);
      expect([nameOn(gm, actor.uuid), nameOn(player, actor.uuid), nameOn(player2, actor.uuid)]).toEqual(['Orc', 'Goblin', 'Orc']);
      let resolved = false;
      void done.then(() => (resolved = true));
      await foundry.network.deliver(1);
      expect(resolved).toBe(false); // the initiator's operation resolves when its own copy has the change
      foundry.network.release();
      await done;
      expect([nameOn(gm, actor.uuid), nameOn(player, actor.uuid), nameOn(player2, actor.uuid)]).toEqual(['Goblin', 'Goblin', 'Goblin']);
      expect(foundry.writes.count('Actor', 'update')).toBe(1);
    });

    it('a dropped broadcast leaves that client’s copy stale', async () => {
      const actor = await g.Actor.create({ name: 'Orc', type: 'base' });
      foundry.network.hold();
      const done = actor.update({ name: 'Goblin' });
      await foundry.settle();
      await foundry.network.deliver(1);
      expect(foundry.network.drop((m) => m.to === player2.id)).toHaveLength(1);
      foundry.network.release();
      await done;
      await foundry.settle();
      expect([nameOn(gm, actor.uuid), nameOn(player, actor.uuid), nameOn(player2, actor.uuid)]).toEqual(['Goblin', 'Goblin', 'Orc']);
    });

    it('a lost request never reaches the server: nothing is written, the operation never resolves', async () => {
      const actor = await g.Actor.create({ name: 'Orc', type: 'base' });
      foundry.network.hold();
      let settled = false;
      void actor.update({ name: 'Goblin' }).finally(() => (settled = true));
      await foundry.settle();
      expect(foundry.network.drop()).toHaveLength(1);
      foundry.network.release();
      await foundry.settle();
      expect(settled).toBe(false);
      expect(foundry.writes.count('Actor', 'update')).toBe(0);
      expect(foundry.server.source(actor.uuid).name).toBe('Orc');
    });
  });

  describe('hooks', () => {
    it('pre-hooks run on the initiating client only; post hooks on every client, as itself, with the author’s id from the server', async () => {
      const actor = await playerActor();
      const seen: any[] = [];
      foundry.everyClient(() => {
        g.Hooks.on('preUpdateActor', (_doc: any, _changes: any, options: any, userId: string) => seen.push(['pre', g.game.user.name, userId, options.tag]));
        g.Hooks.on('updateActor', (doc: any, _changed: any, options: any, userId: string) => seen.push(['post', g.game.user.name, userId, options.tag, doc === g.game.actors.get(doc.id)]));
      });
      await foundry.asUser(player, () => actor.update({ name: 'Hal' }, { tag: 'renamed' }));
      await foundry.settle();
      expect(seen).toEqual([
        ['pre', 'Player 1', player.id, 'renamed'],
        ['post', 'Gamemaster', player.id, 'renamed', true],
        ['post', 'Player 2', player.id, 'renamed', true],
        ['post', 'Player 1', player.id, 'renamed', true],
      ]);
    });

    it('a hook registered on the GM’s client only never sees what the GM’s client did not receive', async () => {
      const actor = await playerActor();
      const seen: string[] = [];
      g.Hooks.on('updateActor', () => seen.push(g.game.user.name));
      await foundry.asUser(player, () => g.Hooks.on('updateActor', () => seen.push(g.game.user.name)));
      await foundry.asUser(player, () => actor.update({ name: 'Hal' }));
      expect(seen).toEqual(['Gamemaster', 'Player 1']);
    });

    it('settle waits for async work started by hooks on every client', async () => {
      const actor = await playerActor();
      const done: string[] = [];
      foundry.everyClient(() =>
        g.Hooks.on('updateActor', async () => {
          for (let i = 0; i < 5; i++) await Promise.resolve();
          if (g.game.user.isGM) await g.ChatMessage.create({ content: 'seen' });
          done.push(g.game.user.name);
        }),
      );
      await foundry.asUser(player, () => actor.update({ name: 'Hal' }));
      await foundry.settle();
      expect(done.sort()).toEqual(['Gamemaster', 'Player 1', 'Player 2']);
      expect(foundry.client(player2).game.messages.size).toBe(1);
    });

    it('a client whose copy fails its own validation on receipt records the error and keeps its copy', async () => {
      const { fields } = g.foundry.data;
      class Strict extends g.foundry.abstract.TypeDataModel {
        static defineSchema() {
          return { hp: new fields.NumberField({ required: true, nullable: false, integer: true, initial: 1 }) };
        }
      }
      class Stricter extends Strict {
        static validateJoint(data: any) {
          if (data.hp > 5) throw new Error('too many hit points');
        }
      }
      foundry.everyClient(() => {
        g.CONFIG.Actor.dataModels.character = g.game.user.id === player2.id ? Stricter : Strict;
      });
      const actor = await g.Actor.create({ name: 'Orc', type: 'character', system: { hp: 3 } });
      await actor.update({ 'system.hp': 8 });
      await foundry.settle();
      expect(foundry.client(player).game.actors.get(actor.id).system.hp).toBe(8);
      expect(foundry.client(player2).game.actors.get(actor.id).system.hp).toBe(3);
      expect(foundry.client(player2).errors.map((e) => e.error.message).join()).toMatch(/too many hit points/);
      expect(foundry.errors.every((e) => e.userId === player2.id)).toBe(true);
    });
  });

  describe('the server’s rules', () => {
    /** A combat in round 1 whose current combatant is the player's. */
    async function startedCombat(): Promise<any> {
      const mine = await playerActor();
      const orc = await g.Actor.create({ name: 'Orc', type: 'base' });
      const combat = await g.Combat.create({});
      await combat.createEmbeddedDocuments('Combatant', [
        { actorId: mine.id, initiative: 20 },
        { actorId: orc.id, initiative: 5 },
      ]);
      await combat.startCombat();
      expect(combat.combatant.actor.id).toBe(mine.id);
      foundry.writes.clear();
      return combat;
    }
    class StubbornCombat extends g.Combat {
      _canChangeTurn() {
        return false;
      }
      _canChangeRound() {
        return false;
      }
    }

    it('a subclass refusing _canChangeTurn does not stop the server: it calls the base class (true)', async () => {
      foundry.everyClient(() => {
        g.CONFIG.Combat.documentClass = StubbornCombat;
      });
      const combat = await startedCombat();
      expect(combat).toBeInstanceOf(StubbornCombat);
      await foundry.raw(player).modify('update', 'Combat', [{ _id: combat.id, turn: 1 }]);
      await foundry.settle();
      expect(combat.turn).toBe(1);
      expect(foundry.server.source(combat.uuid).turn).toBe(1);
      expect(foundry.writes.all()).toMatchObject([{ documentName: 'Combat', action: 'update', userId: player.id }]);
      // And through the ordinary client, which checks nothing of the kind either
      await foundry.asUser(player, () => combat.update({ round: 2, turn: 0 }));
      expect([combat.round, combat.turn]).toEqual([2, 0]);
    });

    it('a change the base rules forbid is refused by the server even when the client-side check is skipped', async () => {
      const combat = await startedCombat();
      // A client-side guard (a pre-hook) stops the ordinary path…
      foundry.everyClient(() => g.Hooks.on('preUpdateCombat', () => !!g.game.user.isGM));
      expect(await foundry.asUser(player, () => combat.update({ turn: 1 }))).toBeUndefined();
      // …the raw path skips it, and the server allows round and turn for any player
      await foundry.raw(player2).modify('update', 'Combat', [{ _id: combat.id, turn: 1 }]);
      // …but nothing else: BaseCombat lets players write round, turn and combatants only
      await expect(foundry.raw(player).modify('update', 'Combat', [{ _id: combat.id, active: false }])).rejects.toThrow(/lacks permission to update Combat/);
      await expect(foundry.raw(player).modify('update', 'Combat', [{ _id: combat.id, round: 3, flags: { x: 1 } }])).rejects.toThrow(/lacks permission/);
      await foundry.settle();
      expect(foundry.server.source(combat.uuid)).toMatchObject({ active: false, round: 1, turn: 1 });
      expect(foundry.writes.all().map((w) => w.userId)).toEqual([player2.id]);
    });

    it('combatants: an owner may write initiative, flags, defeated and system (BaseCombatant, v13), nothing else; others nothing', async () => {
      const combat = await startedCombat();
      const mine = combat.combatants.find((c: any) => c.actor.name === 'Halvaine');
      const orc = combat.combatants.find((c: any) => c.actor.name === 'Orc');
      const parent = combat.uuid;
      await foundry.raw(player).modify('update', 'Combatant', [{ _id: mine.id, initiative: 3, system: { note: 'forged' } }], {}, parent);
      await expect(foundry.raw(player).modify('update', 'Combatant', [{ _id: mine.id, hidden: true }], {}, parent)).rejects.toThrow(/lacks permission/);
      await expect(foundry.raw(player).modify('update', 'Combatant', [{ _id: orc.id, initiative: 30 }], {}, parent)).rejects.toThrow(/lacks permission/);
      await expect(foundry.raw(player2).modify('delete', 'Combatant', [mine.id], {}, parent)).rejects.toThrow(/lacks permission to delete/);
      await foundry.settle();
      expect(mine.initiative).toBe(3);
      expect(foundry.server.source(mine.uuid).system).toEqual({ note: 'forged' });
    });

    it('the server runs no system code: no data model validates its copy, and its classes are the base ones', async () => {
      foundry.everyClient(() => {
        g.CONFIG.Combat.documentClass = StubbornCombat;
      });
      const combat = await startedCombat();
      await foundry.raw(gm).modify('update', 'Combat', [{ _id: combat.id, system: { anything: [1, 2] } }]);
      expect(foundry.server.source(combat.uuid).system).toEqual({ anything: [1, 2] });
      // A ChatMessage may only be created as its author (BaseChatMessage)
      await expect(foundry.raw(player).modify('create', 'ChatMessage', [{ content: 'forged', author: gm.id }])).rejects.toThrow(/lacks permission to create ChatMessage/);
      await expect(foundry.raw(player).modify('create', 'Actor', [{ name: 'Mine', type: 'base' }])).rejects.toThrow(/lacks permission to create Actor/);
      // Core's schema still holds on the server
      await expect(foundry.raw(gm).modify('update', 'Combat', [{ _id: combat.id, round: 'soon' }])).rejects.toThrow(/round/);
    });
  });

  describe('the raw path', () => {
    it('forged options arrive at every client’s hooks as sent, with the real userId; no client-side step runs', async () => {
      const actor = await playerActor();
      const seen: any[] = [];
      foundry.everyClient(() => {
        g.Hooks.on('preUpdateActor', () => seen.push('pre'));
        g.Hooks.on('updateActor', (_doc: any, changed: any, options: any, userId: string) => seen.push({ on: g.game.user.name, changed: changed.name, options, userId }));
      });
      const forged = { tensegSync: true, diff: false, render: false, userId: gm.id, nested: { x: [1] } };
      const [doc] = await foundry.raw(player).modify('update', 'Actor', [{ _id: actor.id, name: 'Forged' }], forged);
      await foundry.settle();
      expect(doc.name).toBe('Forged');
      expect(seen).not.toContain('pre');
      expect(seen).toHaveLength(3);
      for (const s of seen) {
        expect(s).toMatchObject({ changed: 'Forged', options: { ...forged, action: 'update' }, userId: player.id });
      }
      expect(seen.map((s) => s.on)).toEqual(['Gamemaster', 'Player 2', 'Player 1']);
    });

    it('options are JSON-copied: every client gets its own copy', async () => {
      const actor = await playerActor();
      const got: any[] = [];
      foundry.everyClient(() => g.Hooks.on('updateActor', (_d: any, _c: any, options: any) => got.push(options)));
      await actor.update({ name: 'X' }, { list: [1], when: new Date(0) });
      await foundry.settle();
      expect(got[0]).not.toBe(got[1]);
      expect(got[0].list).not.toBe(got[1].list);
      expect(got[0].when).toBe('1970-01-01T00:00:00.000Z');
    });
  });

  describe('socket', () => {
    it('relays system.<id> messages to every other client, with the sender the server knows', async () => {
      const got: any[] = [];
      foundry.everyClient(() => g.game.socket.on('system.ten-segments', (data: any, senderId: string) => got.push([g.game.user.name, data, senderId])));
      foundry.raw(player).emit('system.ten-segments', { from: gm.id, amount: 3 });
      await foundry.asUser(player2, () => g.game.socket.emit('system.ten-segments', { hello: true }));
      await foundry.settle();
      expect(got).toEqual([
        ['Gamemaster', { from: gm.id, amount: 3 }, player.id],
        ['Player 2', { from: gm.id, amount: 3 }, player.id],
        ['Gamemaster', { hello: true }, player2.id],
        ['Player 1', { hello: true }, player2.id],
      ]);
    });

    it('other event names are not relayed; off removes a listener; data is a JSON copy', async () => {
      const got: any[] = [];
      const listener = (data: any) => got.push(data);
      await foundry.asUser(player, () => g.game.socket.on('system.ten-segments', listener).on('module.other', listener));
      const payload = { at: new Date(0) };
      g.game.socket.emit('module.other', payload);
      g.game.socket.emit('system.ten-segments', payload);
      await foundry.settle();
      expect(got).toEqual([{ at: '1970-01-01T00:00:00.000Z' }]);
      await foundry.asUser(player, () => g.game.socket.off('system.ten-segments', listener));
      g.game.socket.emit('system.ten-segments', payload);
      await foundry.settle();
      expect(got).toHaveLength(1);
    });

    it('held, a socket message waits; dropped, it is lost', async () => {
      const got: any[] = [];
      await foundry.asUser(player, () => g.game.socket.on('system.ten-segments', (d: any) => got.push(d)));
      foundry.network.hold();
      g.game.socket.emit('system.ten-segments', 1);
      g.game.socket.emit('system.ten-segments', 2);
      expect(foundry.network.pending.map((m) => [m.type, m.name, m.from])).toEqual([
        ['socket', 'system.ten-segments', gm.id],
        ['socket', 'system.ten-segments', gm.id],
      ]);
      foundry.network.drop(foundry.network.pending[0].id);
      await foundry.network.deliver();
      expect(foundry.network.pending.map((m) => m.to)).toEqual([player.id, player2.id]);
      await foundry.network.deliver();
      expect(got).toEqual([2]);
    });
  });

  describe('queries', () => {
    it('go through the server to the recipient’s client; the handler gets (data, {timeout}) and never the sender', async () => {
      const calls: any[] = [];
      foundry.everyClient(() => {
        g.CONFIG.queries['ten-segments.echo'] = (...args: any[]) => {
          calls.push([g.game.user.name, ...args]);
          return 'ok';
        };
      });
      foundry.network.hold();
      const answer = foundry.asUser(player, () => gm.query('ten-segments.echo', { claimed: player.id }, { timeout: 5000 }));
      await foundry.settle();
      expect(foundry.network.pending.map((m) => [m.type, m.from, m.to])).toEqual([['query', player.id, 'server']]);
      foundry.network.release();
      expect(await answer).toBe('ok');
      expect(calls).toEqual([['Gamemaster', { claimed: player.id }, { timeout: 5000 }]]);
      expect(foundry.network.log.filter((m) => m.type.startsWith('query')).map((m) => [m.type, m.from, m.to])).toEqual([
        ['query', player.id, 'server'],
        ['query', 'server', gm.id],
        ['queryAnswer', gm.id, 'server'],
        ['queryAnswer', 'server', player.id],
      ]);
    });
  });

  describe('no wall time', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('with fake timers, writes, broadcasts and settle still make progress; a query timeout waits for the fake clock', async () => {
      vi.useFakeTimers();
      const actor = await playerActor();
      await foundry.asUser(player, () => actor.update({ name: 'Hal' }));
      await foundry.settle();
      expect(foundry.clients().map((c) => c.game.actors.get(actor.id).name)).toEqual(['Hal', 'Hal', 'Hal']);
      foundry.everyClient(() => {
        g.CONFIG.queries['ten-segments.ping'] = () => 'pong';
      });
      foundry.network.hold();
      const answer = foundry.asUser(player, () => gm.query('ten-segments.ping', {}, { timeout: 10_000 }));
      let outcome = '';
      answer.catch((err: Error) => (outcome = err.message));
      await foundry.settle();
      expect(foundry.network.drop()).toMatchObject([{ type: 'query', from: player.id }]);
      foundry.network.release();
      await foundry.settle();
      expect(outcome).toBe('');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(outcome).toMatch(/timed out/);
    });
  });

  describe('connect, disconnect, reload', () => {
    it('disconnecting the GM hands activeGM over on every client, fires userConnected, and loses its queued messages', async () => {
      const assistant = foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
      const seen: any[] = [];
      foundry.everyClient(() => g.Hooks.on('userConnected', (user: any, connected: boolean) => seen.push([g.game.user.name, user.name, connected])));
      const actor = await g.Actor.create({ name: 'Orc', type: 'base' });
      foundry.network.hold();
      void actor.update({ name: 'Lost' });
      await foundry.settle();
      expect(foundry.network.pending).toHaveLength(1);
      foundry.disconnect(gm);
      expect(foundry.network.pending).toHaveLength(0);
      foundry.network.release();
      expect(seen).toEqual([
        ['Player 1', 'Gamemaster', false],
        ['Player 2', 'Gamemaster', false],
        ['Assistant', 'Gamemaster', false],
      ]);
      for (const u of [player, player2, assistant]) expect(foundry.client(u).game.users.activeGM.id).toBe(assistant.id);
      expect(foundry.client(player).game.users.get(gm.id).active).toBe(false);
      await expect(foundry.asUser(gm, () => 1)).rejects.toThrow(/not connected/);
      expect(() => g.game.socket.emit('system.ten-segments', 1)).toThrow(/not connected/);
      foundry.connect(gm);
      expect(seen.at(-1)).toEqual(['Assistant', 'Gamemaster', true]);
      expect(foundry.client(player).game.users.activeGM.id).toBe(gm.id);
      expect(g.game.actors.get(actor.id).name).toBe('Orc');
    });

    it('a reloaded client is fresh: set-up, init…ready, documents from the server, its browser storage kept', async () => {
      const events: string[] = [];
      foundry.everyClient(() => {
        g.game.settings.register('ten-segments', 'view', { scope: 'client', type: String, default: 'list' });
        for (const e of ['init', 'i18nInit', 'setup', 'ready']) g.Hooks.once(e, () => events.push(`${g.game.user.name} ${e} ${g.game.actors.size}`));
      });
      await g.Actor.create({ name: 'Orc', type: 'base' });
      await foundry.asUser(player, () => g.game.settings.set('ten-segments', 'view', 'grid'));
      const before = foundry.client(player).game;
      foundry.reload(player);
      const after = foundry.client(player).game;
      expect(after).not.toBe(before);
      expect(events).toEqual(['Player 1 init 0', 'Player 1 i18nInit 0', 'Player 1 setup 0', 'Player 1 ready 1']);
      expect(after.ready).toBe(true);
      expect(after.actors.contents.map((a: any) => a.name)).toEqual(['Orc']);
      expect(await foundry.asUser(player, () => g.game.settings.get('ten-segments', 'view'))).toBe('grid');
      expect(foundry.clients().map((c) => c.user.name)).toEqual(['Gamemaster', 'Player 2', 'Player 1']);
    });

    it('boot fires the life cycle on every connected client', async () => {
      const ready: string[] = [];
      foundry.everyClient(() => g.Hooks.on('ready', () => ready.push(g.game.user.name)));
      await foundry.boot();
      expect(ready).toEqual(['Gamemaster', 'Player 1', 'Player 2']);
    });
  });

  describe('asUser', () => {
    it('an operation on another client’s copy works on the acting client’s own copy, found by uuid', async () => {
      const actor = await playerActor();
      let preDoc: any;
      await foundry.asUser(player, () => g.Hooks.on('preUpdateActor', (doc: any) => (preDoc = doc)));
      const [updated] = await foundry.asUser(player, () => g.Actor.updateDocuments([{ _id: actor.id, name: 'A' }]));
      const result = await foundry.asUser(player, () => actor.update({ name: 'B' }));
      const own = foundry.client(player).game.actors.get(actor.id);
      expect(preDoc).toBe(own);
      expect(updated).toBe(own);
      expect(result).toBe(own);
      expect(actor.name).toBe('B');
    });

    it('a document the acting client does not have is an error', async () => {
      foundry.network.hold();
      const created = g.Actor.create({ name: 'Orc', type: 'base', ownership: { default: 3 } });
      await foundry.settle();
      await foundry.network.deliver(1); // the server writes
      foundry.network.drop((m) => m.to === player2.id); // player 2 never hears of it
      foundry.network.release();
      const orc = await created;
      await expect(foundry.asUser(player2, () => orc.createEmbeddedDocuments('Item', [{ name: 'Axe', type: 'base' }]))).rejects.toThrow(
        `Actor.${orc.id} does not exist on the client of Player 2`,
      );
      await expect(foundry.asUser(player2, () => orc.update({ name: 'Axe' }))).rejects.toThrow(/does not exist/);
      await expect(foundry.asUser(player, () => orc.createEmbeddedDocuments('Item', [{ name: 'Axe', type: 'base' }]))).resolves.toHaveLength(1);
    });

    it('world time moves on every client when a combat round advances it', async () => {
      const combat = await g.Combat.create({});
      foundry.everyClient(() => {
        g.CONFIG.time.roundTime = 60;
      });
      await combat.startCombat();
      await combat.nextRound();
      expect(foundry.clients().map((c) => c.game.time.worldTime)).toEqual([60, 60, 60]);
      expect(foundry.server.worldTime).toBe(60);
    });
  });
});
