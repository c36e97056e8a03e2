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
    expect('movement' in operation).toBe(false); // the instructions stay on the initiator
    expect(operation._movement[hero.id]).toBe(movement);
    expect(movement.method).toBe('api');
    expect(movement.origin).toEqual({ x: 0, y: 0, elevation: 0, width: 1, height: 1 });
    expect(movement.destination).toEqual({ x: 200, y: 0, elevation: 0, width: 1, height: 1 });
    expect(movement.chain).toEqual([]);
    expect(movement).toMatchObject({ recorded: false, constrained: false, autoRotate: false, showRuler: false, constrainOptions: {} });
    expect(movement.pending).toEqual({ waypoints: [], distance: 0, cost: 0, spaces: 0, diagonals: 0 });
    expect(movement.passed).toMatchObject({ distance: 10, cost: 10, spaces: 2, diagonals: 0 });
    // The passed path has the intermediate grid step (getCompleteMovementPath), then the destination.
    expect(movement.passed.waypoints.map((w: any) => [w.x, w.y, w.intermediate, w.snapped, w.checkpoint, w.cost])).toEqual([
      [100, 0, true, true, false, 5],
      [200, 0, false, false, true, 5],
    ]);
    expect(movement.passed.waypoints[1]).toMatchObject({ width: 1, height: 1, elevation: 0, action: 'walk', explicit: false, terrain: null, userId: foundry.users.gm.id, movementId: movement.id });
    // Not recorded: the origin is the unrecorded history.
    expect(movement.history.recorded.waypoints).toEqual([]);
    expect(movement.history.unrecorded.waypoints).toMatchObject([{ x: 0, y: 0, cost: 0, checkpoint: true, movementId: movement.id }]);
    expect(movement.history).toMatchObject({ distance: 0, cost: 0, spaces: 0, diagonals: 0 });
    expect('user' in movement).toBe(false); // TokenMovementOperation omits user, state, updateOptions
    expect(Object.isFrozen(movement)).toBe(true);
    // TokenDocument#movement is the TokenMovementData (with user, state, updateOptions)
    expect(hero.movement).toMatchObject({ id: movement.id, state: 'completed', method: 'api' });
    expect(hero.movement.user.id).toBe(foundry.users.gm.id);
    expect(hero.movement.updateOptions).toMatchObject({ animate: false, diff: false });
    if (generation >= 14) {
      expect(movement).toMatchObject({ split: false, subpathId: movement.id, measureOptions: {}, terrainOptions: {} });
      expect(movement.passed.waypoints[1].subpathId).toBe(movement.id);
    } else {
      expect('subpathId' in movement).toBe(false);
      expect('split' in movement).toBe(false);
    }
  });

  it('preMoveToken returning false rejects the movement: x/y dropped, the rest of the update goes, no moveToken', async () => {
    await listen();
    g.Hooks.on('preMoveToken', () => false);
    foundry.writes.clear();
    await hero.update({ x: 300, name: 'Renamed' });
    await foundry.settle();
    expect(foundry.writes.count('Token', 'update')).toBe(1);
    expect(hero.x).toBe(0);
    expect(hero.name).toBe('Renamed');
    expect(log.filter((l) => l.includes(':moveToken'))).toEqual([]);
    expect(await hero.move({ x: 300 })).toBe(false);
    expect(hero.x).toBe(0);
  });

  it('preMoveToken runs before preUpdateToken, which sees the destination; noHook skips it', async () => {
    const order: string[] = [];
    g.Hooks.on('preMoveToken', () => void order.push('preMoveToken'));
    g.Hooks.on('preUpdateToken', (_d: any, changes: any) => void order.push(`preUpdateToken ${changes.x},${changes.y}`));
    await hero.move([{ x: 100 }, { y: 100 }]);
    expect(order).toEqual(['preMoveToken', 'preUpdateToken 100,100']);
    await hero.update({ x: 0 }, { noHook: true });
    expect(order).toHaveLength(2);
    expect(hero.x).toBe(0);
  });

  it('a new token starts with no movement history; teleport: true on an update is a displace (deprecated)', async () => {
    const [t] = await scene.createEmbeddedDocuments('Token', [{ name: 'Ghost', actorId: actors[1].id, _movementHistory: [{ x: 5, y: 5 }] }]);
    expect(t.movementHistory).toEqual([]);
    let seen: any;
    g.Hooks.on('moveToken', (_d: any, m: any) => (seen = m));
    await t.update({ x: 400 }, { teleport: true });
    expect(seen.passed.waypoints.map((w: any) => [w.x, w.action, w.cost])).toEqual([[400, 'displace', 0]]);
    expect(foundry.deprecations.some((d) => d.includes('teleport'))).toBe(true);
  });

  it('an update that does not move the token is no movement', async () => {
    await listen();
    await hero.update({ name: 'Renamed' });
    await foundry.settle();
    expect(log.some((l) => /moveToken/i.test(l))).toBe(false);
  });

  it('in preMoveToken only autoRotate and showRuler of the movement are writable', async () => {
    let seen: any;
    g.Hooks.on('preMoveToken', (_doc: any, movement: any, operation: any) => {
      expect(operation.animate).toBe(false);
      expect(() => {
        movement.method = 'keyboard';
      }).toThrow();
      expect(() => {
        movement.passed.distance = 0;
      }).toThrow();
      movement.showRuler = true;
    });
    g.Hooks.on('moveToken', (_d: any, movement: any) => (seen = movement));
    await hero.update({ x: 100 }, { animate: false });
    await foundry.settle();
    expect(seen.method).toBe('api');
    expect(seen.showRuler).toBe(true);
  });

  it('a player moving their own token: preMoveToken on their client, moveToken everywhere with them as user', async () => {
    await listen();
    const seen: Record<string, any> = {};
    for (const u of [foundry.users.gm, foundry.users.player]) {
      await foundry.asUser(u, () => g.Hooks.on('moveToken', (_d: any, m: any, _o: any, user: any) => (seen[u.name] = { user: user.id, method: m.method, showRuler: m.showRuler })));
    }
    const mine = () => g.game.scenes.get(scene.id).tokens.get(hero.id);
    expect(await foundry.asUser(foundry.users.player, () => mine().move({ x: 100, y: 100 }, { method: 'keyboard' }))).toBe(true);
    await foundry.settle();
    expect(log.filter((l) => l.includes('preMoveToken'))).toEqual([`${foundry.users.player.name}:preMoveToken:Hero`]);
    const expected = { user: foundry.users.player.id, method: 'keyboard', showRuler: false };
    expect(seen).toEqual({ [foundry.users.gm.name]: expected, [foundry.users.player.name]: expected });
    const other = foundry.asUser(foundry.users.player, () => g.game.scenes.get(scene.id).tokens.get(ogre.id).move({ x: 100 }));
    await expect(other).rejects.toThrow(/lacks permission to update Token/);
  });

  it('TokenDocument#move: waypoints in one update, method and options carried, teleporting actions without steps', async () => {
    let seen: any;
    let operation: any;
    g.Hooks.on('moveToken', (_d: any, m: any, o: any) => ((seen = m), (operation = o)));
    const moved = await hero.move([{ x: 100, y: 100 }, { x: 200, y: 100, action: 'displace' }, { x: 300, y: 200, explicit: true }], { method: 'dragging', animate: false });
    await foundry.settle();
    expect(moved).toBe(true);
    expect([hero.x, hero.y]).toEqual([300, 200]);
    expect(seen).toMatchObject({ method: 'dragging', showRuler: true });
    expect(operation.animate).toBe(false);
    // The third waypoint takes the previous one's action (displace): no intermediate steps, no cost.
    expect(seen.passed.waypoints.map((w: any) => [w.x, w.y, w.action, w.explicit, w.checkpoint, w.cost])).toEqual([
      [100, 100, 'walk', false, false, 5],
      [200, 100, 'displace', false, false, 0],
      [300, 200, 'displace', true, true, 0],
    ]);
    expect(seen.passed).toMatchObject({ distance: 15, cost: 5, spaces: 3, diagonals: 2 });
    expect(await hero.move([])).toBe(false);
  });

  it('waypoints are validated as core does', async () => {
    await expect(hero.move({ x: 100, action: 'teleport-ish' })).rejects.toThrow(/action is invalid/);
    await expect(hero.move({ x: 'far' })).rejects.toThrow(/x must be a number/);
    await expect(hero.move({ x: 100 }, { method: 'undo' })).rejects.toThrow(/Invalid movement method/);
    await expect(hero.move({ x: 100 }, { method: 'flying' })).rejects.toThrow(/Invalid movement method/);
    expect(hero.x).toBe(0);
  });

  it('a token whose scene this client does not view has its costs at 0 (core: not rendered); distances are measured', async () => {
    const other = await g.Scene.create({ name: 'Elsewhere' });
    foundry.view(other);
    let seen: any;
    g.Hooks.on('moveToken', (_d: any, m: any) => (seen = m));
    await hero.update({ x: 200 });
    expect(seen.passed).toMatchObject({ distance: 10, cost: 0, spaces: 2 });
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
    const diagonal3 = [
      { x: 100, y: 600 },
      { x: 200, y: 700 },
      { x: 300, y: 800 },
    ];
    it('equidistant (5/5/5): three diagonals are 15 ft', async () => {
      const m = await run('EQUIDISTANT', diagonal3);
      expect(m.passed).toMatchObject({ distance: 15, cost: 15, spaces: 3, diagonals: 3 });
      expect(m.passed.waypoints.map((w: any) => [w.width, w.height, w.cost])).toEqual([
        [2, 2, 5],
        [2, 2, 5],
        [2, 2, 5],
      ]);
    });
    it('alternating (5/10/5): three diagonals are 20 ft over 3 spaces, the second costing 10', async () => {
      const m = await run('ALTERNATING_1', diagonal3);
      expect(m.passed).toMatchObject({ distance: 20, cost: 20, spaces: 3, diagonals: 3 });
      expect(m.passed.waypoints.map((w: any) => w.cost)).toEqual([5, 10, 5]);
    });
    it('alternating counts the diagonals of the whole path, intermediate steps included', async () => {
      const m = await run('ALTERNATING_1', [
        { x: 200, y: 700 },
        { x: 500, y: 700 },
        { x: 600, y: 800 },
      ]);
      expect(m.passed).toMatchObject({ distance: 35, cost: 35, spaces: 6, diagonals: 3 });
      expect(m.passed.waypoints.map((w: any) => [w.x, w.y, w.intermediate, w.cost])).toEqual([
        [100, 600, true, 5],
        [200, 700, false, 10],
        [300, 700, true, 5],
        [400, 700, true, 5],
        [500, 700, false, 5],
        [600, 800, false, 5],
      ]);
    });
    it('measureMovementPath measures the same without moving', async () => {
      await g.game.settings.set('core', 'gridDiagonals', g.CONST.GRID_DIAGONALS.ALTERNATING_1);
      const r = ogre.measureMovementPath([
        { x: 0, y: 500 },
        { x: 100, y: 600 },
        { x: 200, y: 700 },
      ]);
      expect(r).toMatchObject({ distance: 15, cost: 15, spaces: 2, diagonals: 2 });
      expect(r.waypoints.map((w: any) => w.cost)).toEqual([0, 5, 15]);
      expect(r.waypoints[2].backward).toMatchObject({ distance: 10, cost: 10, spaces: 1, diagonals: 1 });
      expect(ogre.x).toBe(0);
    });
  });

  describe('movement history', () => {
    let combat: any;
    beforeEach(async () => {
      combat = await g.Combat.create({ scene: scene.id, active: true });
      await combat.createEmbeddedDocuments('Combatant', [{ tokenId: hero.id, sceneId: scene.id, actorId: hero.actorId }]);
    });

    it('is not recorded before the combat has started', async () => {
      let seen: any;
      g.Hooks.on('moveToken', (_d: any, m: any) => (seen = m));
      await hero.update({ x: 100 });
      expect(seen.recorded).toBe(false);
      expect(hero.movementHistory).toEqual([]);
    });

    it('is recorded in a started combat; alternating diagonals continue across movements; undo and clear', async () => {
      await combat.startCombat();
      await g.game.settings.set('core', 'gridDiagonals', g.CONST.GRID_DIAGONALS.ALTERNATING_1);
      const moves: any[] = [];
      let records = 0;
      await foundry.asUser(foundry.users.player, () => g.Hooks.on('recordToken', () => records++));
      g.Hooks.on('moveToken', (_d: any, m: any) => moves.push(m));
      await hero.update({ x: 100, y: 100 });
      await hero.move({ x: 200, y: 200 });
      await foundry.settle();
      expect(moves.map((m) => m.recorded)).toEqual([true, true]);
      expect(moves[0].passed).toMatchObject({ distance: 5, cost: 5 });
      expect(moves[1].passed).toMatchObject({ distance: 10, cost: 10, spaces: 1, diagonals: 1 });
      expect(moves[1].history.recorded).toMatchObject({ distance: 5, cost: 5, spaces: 1, diagonals: 1 });
      expect(moves[1].history.unrecorded.waypoints).toEqual([]);
      expect(hero.movementHistory.map((w: any) => [w.x, w.y, w.movementId, w.cost])).toEqual([
        [0, 0, moves[0].id, 0],
        [100, 100, moves[0].id, 5],
        [200, 200, moves[1].id, 10],
      ]);
      expect(records).toBe(2);
      // Undo the second: back to where it started, history cut there.
      expect(await hero.revertRecordedMovement(moves[1].id)).toBe(true);
      await foundry.settle();
      expect([hero.x, hero.y]).toEqual([100, 100]);
      expect(moves[2]).toMatchObject({ method: 'undo', recorded: false, autoRotate: false, showRuler: false });
      expect(hero.movement.updateOptions).toMatchObject({ isUndo: true, animate: false });
      expect(hero.movementHistory.map((w: any) => w.movementId)).toEqual([moves[0].id, moves[0].id]);
      // Undo all: back to the first recorded position.
      expect(await hero.revertRecordedMovement()).toBe(true);
      expect([hero.x, hero.y]).toEqual([0, 0]);
      expect(hero.movementHistory).toEqual([]);
      expect(await hero.revertRecordedMovement()).toBe(false);
      expect(await hero.revertRecordedMovement('nothing')).toBe(false);
      await hero.update({ x: 100 });
      expect(hero.movementHistory).toHaveLength(2);
      const preUpdates: any[] = [];
      g.Hooks.on('preUpdateToken', (...a: any[]) => preUpdates.push(a));
      await hero.clearMovementHistory();
      await foundry.settle();
      expect(preUpdates).toEqual([]); // noHook
      expect(hero.movementHistory).toEqual([]);
      expect(records).toBe(6);
      // A direct write of the history is ignored (only undo and clear write it).
      await hero.update({ x: 200, _movementHistory: [] });
      expect(hero.movementHistory.map((w: any) => [w.x, w.y])).toEqual([
        [100, 0],
        [200, 0],
      ]);
    });
  });
});

describe.each([13, 14] as const)('combat clears movement history as core does, generation %i', (generation) => {
  it("at the start of the combatant's turn and when it leaves the combat", async () => {
    const foundry = installFoundry({ generation });
    const [a, b] = await g.Actor.create([
      { name: 'A', type: 'base' },
      { name: 'B', type: 'base' },
    ]);
    const scene = await g.Scene.create({ name: 'Keep', active: true });
    foundry.view(scene);
    const [ta, tb] = await scene.createEmbeddedDocuments('Token', [
      { name: 'A', actorId: a.id, actorLink: true, x: 0, y: 0 },
      { name: 'B', actorId: b.id, actorLink: true, x: 500, y: 0 },
    ]);
    const combat = await g.Combat.create({ scene: scene.id, active: true });
    const [ca] = await combat.createEmbeddedDocuments('Combatant', [
      { tokenId: ta.id, sceneId: scene.id, actorId: a.id, initiative: 20 },
      { tokenId: tb.id, sceneId: scene.id, actorId: b.id, initiative: 10 },
    ]);
    await combat.startCombat();
    await foundry.settle();
    await ta.update({ x: 100 });
    await tb.update({ x: 600 });
    expect([ta.movementHistory.length, tb.movementHistory.length]).toEqual([2, 2]);
    await combat.nextTurn(); // B's turn starts: B's history is cleared
    await foundry.settle();
    expect([ta.movementHistory.length, tb.movementHistory.length]).toEqual([2, 0]);
    await ca.delete(); // A leaves
    await foundry.settle();
    expect(ta.movementHistory).toEqual([]);
  });
});
