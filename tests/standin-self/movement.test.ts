/**
 * Token movement as core v13/v14 documents it (foundryvtt.com/api and /api/v14: hookEvents.preMoveToken,
 * hookEvents.moveToken, TokenDocument#move, TokenMovementOperation, TokenMovementData,
 * TokenMovementSectionData, TokenMeasuredMovementWaypoint, TokenMovementHistoryData,
 * TokenDocument#measureMovementPath / movementHistory / revertRecordedMovement / clearMovementHistory).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe.each([13, 14] as const)('token movement, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let scene: any;
  let actors: any[];
  let hero: any;
  let ogre: any;
  let log: string[];

  /** Record movement hooks on every client, tagged with the client's user name. */
  async function listen(): Promise<void> {
    for (const user of [foundry.users.gm, foundry.users.player]) {
      await foundry.asUser(user, () => {
        const me = g.game.user.name;
        g.Hooks.on('preMoveToken', (doc: any) => void log.push(`${me}:preMoveToken:${doc.name}`));
        g.Hooks.on('updateToken', (doc: any) => void log.push(`${me}:updateToken:${doc.name}`));
        g.Hooks.on('moveToken', (doc: any) => void log.push(`${me}:moveToken:${doc.name}`));
      });
    }
  }

  beforeEach(async () => {
    foundry = installFoundry({ generation });
    log = [];
    const { OWNER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    actors = await g.Actor.create([
      { name: 'Hero', type: 'base', ownership: { [foundry.users.player.id]: OWNER } },
      { name: 'Ogre', type: 'base' },
    ]);
    scene = await g.Scene.create({ name: 'Keep', active: true });
    [hero, ogre] = await scene.createEmbeddedDocuments('Token', [
      { name: 'Hero', actorId: actors[0].id, actorLink: true, x: 0, y: 0 },
      { name: 'Ogre', actorId: actors[1].id, actorLink: true, x: 0, y: 500, width: 2, height: 2 },
    ]);
    foundry.view(scene);
  });

  it('an x/y update: preMoveToken on the initiator only, then moveToken on every client after updateToken', async () => {
    await listen();
    let seen: any[] = [];
    g.Hooks.on('moveToken', (...args: any[]) => (seen = args));
    await hero.update({ x: 200, y: 0 }, { animate: false, 'ten-segments': { reason: 'test' } });
    await foundry.settle();
    expect(log.filter((l) => l.includes('preMoveToken'))).toEqual([`${foundry.users.gm.name}:preMoveToken:Hero`]);
    for (const who of [foundry.users.gm.name, foundry.users.player.name]) {
      const mine = log.filter((l) => l.startsWith(`${who}:`) && !l.includes('pre'));
      expect(mine).toEqual([`${who}:updateToken:Hero`, `${who}:moveToken:Hero`]);
    }
    const [doc, movement, operation, user] = seen;
    expect(doc).toBe(hero);
    expect(user.id).toBe(foundry.users.gm.id);
    expect(operation.animate).toBe(false);
    expect(operation['ten-segments']).toEqual({ reason: 'test' });
    expect(operation.movement[hero.id].id).toBe(movement.id);
    expect(movement.method).toBe('api');
    expect(movement.origin).toEqual({ x: 0, y: 0, elevation: 0, width: 1, height: 1 });
    expect(movement.destination).toEqual({ x: 200, y: 0, elevation: 0, width: 1, height: 1 });
    expect(movement.chain).toEqual([]);
    expect(movement.recorded).toBe(false);
    expect(movement.constrained).toBe(false);
    expect(movement.pending).toEqual({ waypoints: [], distance: 0, cost: 0, spaces: 0, diagonals: 0 });
    expect(movement.passed).toMatchObject({ distance: 10, cost: 10, spaces: 2, diagonals: 0 });
    expect(movement.passed.waypoints).toHaveLength(1);
    expect(movement.passed.waypoints[0]).toMatchObject({
      x: 200,
      y: 0,
      width: 1,
      height: 1,
      elevation: 0,
      action: 'walk',
      cost: 10,
      checkpoint: true,
      explicit: false,
      snapped: false,
      intermediate: false,
      terrain: null,
      userId: foundry.users.gm.id,
      movementId: movement.id,
    });
    expect('user' in movement).toBe(false); // TokenMovementOperation omits user, state, updateOptions
    expect(Object.isFrozen(movement)).toBe(true);
    // TokenDocument#movement is the TokenMovementData (with user, state, updateOptions)
    expect(hero.movement).toMatchObject({ id: movement.id, state: 'completed', method: 'api' });
    expect(hero.movement.user.id).toBe(foundry.users.gm.id);
    expect(hero.movement.updateOptions.animate).toBe(false);
    if (generation >= 14) {
      expect(movement).toMatchObject({ split: false, subpathId: expect.any(String) });
      expect(movement.passed.waypoints[0].subpathId).toBe(movement.subpathId);
    } else {
      expect('subpathId' in movement).toBe(false);
      expect('split' in movement).toBe(false);
    }
  });

  it('preMoveToken returning false rejects the whole update: nothing written, no moveToken', async () => {
    await listen();
    g.Hooks.on('preMoveToken', () => false);
    foundry.writes.clear();
    await hero.update({ x: 300, name: 'Renamed' });
    await foundry.settle();
    expect(foundry.writes.count('Token', 'update')).toBe(0);
    expect(hero.x).toBe(0);
    expect(hero.name).toBe('Hero');
    expect(log.filter((l) => l.includes(':moveToken') || l.includes(':updateToken'))).toEqual([]);
  });

  it('an update that does not move the token is no movement', async () => {
    await listen();
    await hero.update({ name: 'Renamed' });
    await foundry.settle();
    expect(log.some((l) => l.includes('MoveToken') || l.includes('moveToken'))).toBe(false);
  });

  it('the movement in preMoveToken: v13 nothing writable, v14 only autoRotate and showRuler', async () => {
    let seen: any;
    g.Hooks.on('preMoveToken', (_doc: any, movement: any, operation: any) => {
      expect(operation.animate).toBe(false);
      expect(() => {
        movement.method = 'keyboard';
      }).toThrow();
      expect(() => {
        movement.passed.distance = 0;
      }).toThrow();
      if (generation >= 14) movement.showRuler = true;
      else
        expect(() => {
          movement.showRuler = true;
        }).toThrow();
    });
    g.Hooks.on('moveToken', (_d: any, movement: any) => (seen = movement));
    await hero.update({ x: 100 }, { animate: false });
    await foundry.settle();
    expect(seen.method).toBe('api');
    expect(seen.showRuler).toBe(generation >= 14);
  });

  it('a player moving their own token: preMoveToken on their client, moveToken everywhere with them as user', async () => {
    await listen();
    const users: Record<string, string> = {};
    for (const u of [foundry.users.gm, foundry.users.player]) {
      await foundry.asUser(u, () => g.Hooks.on('moveToken', (_d: any, _m: any, _o: any, user: any) => (users[u.name] = user.id)));
    }
    await foundry.asUser(foundry.users.player, () => g.game.scenes.get(scene.id).tokens.get(hero.id).move({ x: 100, y: 100 }, { method: 'keyboard' }));
    await foundry.settle();
    expect(log.filter((l) => l.includes('preMoveToken'))).toEqual([`${foundry.users.player.name}:preMoveToken:Hero`]);
    expect(users).toEqual({ [foundry.users.gm.name]: foundry.users.player.id, [foundry.users.player.name]: foundry.users.player.id });
    const other = foundry.asUser(foundry.users.player, () => g.game.scenes.get(scene.id).tokens.get(ogre.id).move({ x: 100 }));
    await expect(other).rejects.toThrow(/lacks permission to update Token/);
  });

  it('TokenDocument#move: waypoints in one update, method and options carried, true when moved', async () => {
    let seen: any;
    let operation: any;
    g.Hooks.on('moveToken', (_d: any, m: any, o: any) => ((seen = m), (operation = o)));
    const moved = await hero.move([{ x: 100, y: 100 }, { x: 200, y: 100, action: 'displace' }, { x: 300, y: 200, explicit: true }], { method: 'dragging', animate: false });
    await foundry.settle();
    expect(moved).toBe(true);
    expect(hero.x).toBe(300);
    expect(hero.y).toBe(200);
    expect(seen.method).toBe('dragging');
    expect(operation.animate).toBe(false);
    expect(seen.passed.waypoints.map((w: any) => [w.x, w.y, w.action, w.explicit, w.checkpoint])).toEqual([
      [100, 100, 'walk', false, false],
      [200, 100, 'displace', false, false],
      [300, 200, 'displace', true, true],
    ]);
    expect(seen.passed).toMatchObject({ distance: 15, spaces: 3, diagonals: 2 });
    expect(await hero.move({ x: 300, y: 200 })).toBe(false);
  });

  describe('a 2×2 token measured by the scene grid, as core measures each diagonal rule', () => {
    const run = async (rule: 'EQUIDISTANT' | 'ALTERNATING_1', path: { x: number; y: number }[]) => {
      await g.game.settings.set('core', 'gridDiagonals', g.CONST.GRID_DIAGONALS[rule]);
      let seen: any;
      g.Hooks.on('moveToken', (_d: any, m: any) => (seen = m));
      await ogre.move(path);
      await foundry.settle();
      return seen;
    };
    it('equidistant (5/5/5): three diagonals are 15 ft', async () => {
      const m = await run('EQUIDISTANT', [{ x: 100, y: 600 }, { x: 200, y: 700 }, { x: 300, y: 800 }]);
      expect(m.passed).toMatchObject({ distance: 15, cost: 15, spaces: 3, diagonals: 3 });
      expect(m.passed.waypoints.map((w: any) => [w.width, w.height, w.cost])).toEqual([
        [2, 2, 5],
        [2, 2, 5],
        [2, 2, 5],
      ]);
    });
    it('alternating (5/10/5): three diagonals are 20 ft, the second costing 10', async () => {
      const m = await run('ALTERNATING_1', [{ x: 100, y: 600 }, { x: 200, y: 700 }, { x: 300, y: 800 }]);
      expect(m.passed).toMatchObject({ distance: 20, cost: 20, spaces: 4, diagonals: 3 });
      expect(m.passed.waypoints.map((w: any) => w.cost)).toEqual([5, 10, 5]);
    });
    it('alternating counts the diagonals of the whole path: two in one leg then one', async () => {
      const m = await run('ALTERNATING_1', [{ x: 200, y: 700 }, { x: 500, y: 700 }, { x: 600, y: 800 }]);
      expect(m.passed).toMatchObject({ distance: 35, spaces: 7, diagonals: 3 });
      expect(m.passed.waypoints.map((w: any) => w.cost)).toEqual([15, 15, 5]);
    });
    it('measureMovementPath measures the same without moving', async () => {
      await g.game.settings.set('core', 'gridDiagonals', g.CONST.GRID_DIAGONALS.ALTERNATING_1);
      const r = ogre.measureMovementPath([{ x: 0, y: 500 }, { x: 100, y: 600 }, { x: 200, y: 700 }]);
      expect(r).toMatchObject({ distance: 15, spaces: 3, diagonals: 2 });
      expect(r.waypoints.map((w: any) => w.cost)).toEqual([0, 5, 15]);
      expect(ogre.x).toBe(0);
    });
  });

  it('in combat the movement is recorded; the history grows; revertRecordedMovement undoes the last; clearMovementHistory empties it', async () => {
    const combat = await g.Combat.create({ scene: scene.id, active: true });
    await combat.createEmbeddedDocuments('Combatant', [{ tokenId: hero.id, sceneId: scene.id, actorId: hero.actorId }]);
    const moves: any[] = [];
    let records = 0;
    await foundry.asUser(foundry.users.player, () => g.Hooks.on('recordToken', () => records++));
    g.Hooks.on('moveToken', (_d: any, m: any) => moves.push(m));
    await hero.update({ x: 200 });
    await hero.move({ x: 200, y: 100 });
    await foundry.settle();
    expect(moves.map((m) => m.recorded)).toEqual([true, true]);
    expect(moves[1].history.recorded).toMatchObject({ distance: 10, spaces: 2 });
    expect(moves[1].history).toMatchObject({ distance: 10, cost: 10, spaces: 2, diagonals: 0 });
    expect(moves[1].history.unrecorded.waypoints).toEqual([]);
    expect(hero.movementHistory.map((w: any) => [w.x, w.y, w.movementId])).toEqual([
      [0, 0, moves[0].id],
      [200, 0, moves[0].id],
      [200, 100, moves[1].id],
    ]);
    expect(records).toBe(2);
    expect(await hero.revertRecordedMovement(moves[0].id)).toBe(false); // not the last
    expect(await hero.revertRecordedMovement()).toBe(true);
    await foundry.settle();
    expect([hero.x, hero.y]).toEqual([200, 0]);
    expect(moves[2]).toMatchObject({ method: 'undo', recorded: false });
    expect(hero.movementHistory.map((w: any) => w.movementId)).toEqual([moves[0].id, moves[0].id]);
    expect(await hero.revertRecordedMovement()).toBe(true);
    expect([hero.x, hero.y]).toEqual([0, 0]);
    expect(hero.movementHistory).toEqual([]);
    expect(await hero.revertRecordedMovement()).toBe(false);
    await hero.update({ x: 100 });
    await hero.clearMovementHistory();
    await foundry.settle();
    expect(hero.movementHistory).toEqual([]);
    expect(records).toBe(6);
  });

  it('out of combat nothing is recorded', async () => {
    let seen: any;
    g.Hooks.on('moveToken', (_d: any, m: any) => (seen = m));
    await hero.update({ x: 100 });
    expect(seen.recorded).toBe(false);
    expect(hero.movementHistory).toEqual([]);
  });
});
