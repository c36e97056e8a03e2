/**
 * The token's health bar follows the procedure (src/documents/actor-defaults.ts):
 * a new actor's prototype token shows hit points, or under individual speed
 * Wound Points on bar 1 and Stress on bar 2 (seed 003); both are among the
 * bars core offers for each actor type (CONFIG.Actor.trackableAttributes).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld } from '../foundry/world';
import { barChanges, healthBars, prototypeDefaults } from '../../src/documents/actor-defaults';

describe.each([13, 14] as const)('the token\'s health bar, generation %i', (generation) => {
  it('hit points under the d6/d12 procedures; Wound Points (bar 1) and Stress (bar 2) under individual speed; what the creation data sets stands', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { FRIENDLY, HOSTILE } = g.CONST.TOKEN_DISPOSITIONS;
    expect(prototypeDefaults('character', {})).toEqual({ 'prototypeToken.actorLink': true, 'prototypeToken.disposition': FRIENDLY, 'prototypeToken.bar1.attribute': 'hp' });
    await g.game.settings.set('ten-segments', 'procedure', 'individual-speed');
    await w.foundry.settle();
    expect(prototypeDefaults('monster', {})).toEqual({
      'prototypeToken.actorLink': false,
      'prototypeToken.disposition': HOSTILE,
      'prototypeToken.bar1.attribute': 'individual.wounds',
      'prototypeToken.bar2.attribute': 'individual.stress',
    });
    // A compendium's or module's own bar stands.
    expect(prototypeDefaults('monster', { prototypeToken: { bar1: { attribute: 'hp' } } })).not.toHaveProperty(['prototypeToken.bar1.attribute']);
    expect(prototypeDefaults('weapon', {})).toBeNull();
    // Every bar a procedure uses is one core offers for both actor types.
    for (const type of ['character', 'monster']) {
      const bars = g.CONFIG.Actor.trackableAttributes[type].bar;
      for (const procedure of ['segment-d6', 'individual-speed']) {
        const { bar1, bar2 } = healthBars(procedure);
        expect(bars).toContain(bar1);
        if (bar2) expect(bars).toContain(bar2);
      }
    }
  });

  it('a new actor made in the world: its prototype token\'s bar 1 is the procedure\'s health, and core offers it as a bar', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const [fighter] = await g.Actor.create([{ name: 'Fighter', type: 'character' }]);
    expect(fighter.prototypeToken.bar1.attribute).toBe('hp');
    await g.game.settings.set('ten-segments', 'procedure', 'individual-speed');
    await w.foundry.settle();
    const [ogre, hireling] = await g.Actor.create([
      { name: 'Ogre', type: 'monster' },
      { name: 'Hireling', type: 'character', prototypeToken: { bar1: { attribute: 'hp' } } },
    ]);
    expect([ogre.prototypeToken.bar1.attribute, ogre.prototypeToken.bar2.attribute]).toEqual(['individual.wounds', 'individual.stress']);
    expect(hireling.prototypeToken.bar1.attribute).toBe('hp');
    for (const type of ['character', 'monster']) {
      const offered = g.TokenDocument.getTrackedAttributes(type).bar.map((path: string[]) => path.join('.'));
      expect(offered).toEqual(expect.arrayContaining(['hp', 'individual.wounds', 'individual.stress']));
    }
  });

  it('the GM changes the procedure: existing actors\' prototype tokens and their placed tokens follow, by the active GM, one batched write per collection; a bar the GM chose stays', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm } = w.foundry.users;
    const [fighter, ogre, hireling] = await g.Actor.create([
      { name: 'Fighter', type: 'character' },
      { name: 'Ogre', type: 'monster' },
      { name: 'Hireling', type: 'character', prototypeToken: { bar1: { attribute: 'movement.base' } } },
    ]);
    const scene = await g.Scene.create({ name: 'Cave' });
    const place = (actor: any, x: number) => ({ ...actor.toObject().prototypeToken, actorId: actor.id, x, y: 0 });
    await scene.createEmbeddedDocuments('Token', [place(fighter, 0), place(ogre, 100), place(ogre, 200), place(hireling, 300)]);
    await w.foundry.settle();
    const bars = (t: any) => [t.bar1.attribute, t.bar2.attribute];
    expect(scene.tokens.contents.map(bars)).toEqual([['hp', null], ['hp', null], ['hp', null], ['movement.base', null]]);
    w.foundry.writes.clear();

    await g.game.settings.set('ten-segments', 'procedure', 'individual-speed');
    await w.foundry.settle();
    // Every client sees it (world documents), and only the active GM wrote it: one update of the actors, one of the scene's tokens.
    for (const user of [gm, w.foundry.users.player]) {
      const game = w.foundry.client(user).game as any;
      expect(bars(game.actors.get(fighter.id).prototypeToken)).toEqual(['individual.wounds', 'individual.stress']);
      expect(bars(game.actors.get(ogre.id).prototypeToken)).toEqual(['individual.wounds', 'individual.stress']);
      // The Hireling's bar 1 was the GM's choice: it stays; its empty bar 2 takes Stress.
      expect(bars(game.actors.get(hireling.id).prototypeToken)).toEqual(['movement.base', 'individual.stress']);
      expect(game.scenes.get(scene.id).tokens.contents.map(bars)).toEqual([
        ['individual.wounds', 'individual.stress'],
        ['individual.wounds', 'individual.stress'],
        ['individual.wounds', 'individual.stress'],
        ['movement.base', 'individual.stress'],
      ]);
    }
    // makeWorld's party and orcs follow as well, in the same write; its Keep's tokens in one write of their own.
    expect(w.foundry.writes.count('Actor', 'update')).toBe(1);
    expect(w.foundry.writes.count('Token', 'update')).toBe(2);
    expect(new Set(w.foundry.writes.all().map((r) => r.userId))).toEqual(new Set([gm.id]));

    // And back: hit points on bar 1, bar 2 emptied.
    w.foundry.writes.clear();
    await g.game.settings.set('ten-segments', 'procedure', 'd12-ascending');
    await w.foundry.settle();
    expect(bars(fighter.prototypeToken)).toEqual(['hp', null]);
    expect(bars(hireling.prototypeToken)).toEqual(['movement.base', null]);
    expect(scene.tokens.contents.map(bars)).toEqual([['hp', null], ['hp', null], ['hp', null], ['movement.base', null]]);
    expect(w.foundry.writes.count('Actor', 'update')).toBe(1);
    expect(w.foundry.writes.count('Token', 'update')).toBe(2);
    // A change between two procedures with the same health writes nothing.
    w.foundry.writes.clear();
    await g.game.settings.set('ten-segments', 'procedure', 'segment-d6');
    await w.foundry.settle();
    expect(w.foundry.writes.count('Actor', 'update')).toBe(0);
    expect(w.foundry.writes.count('Token', 'update')).toBe(0);
  });

  it('a bar that shows something other than health or stamina is the GM\'s and stays', () => {
    expect(barChanges({ bar1: { attribute: 'hp' }, bar2: { attribute: null } }, 'individual-speed')).toEqual({ 'bar1.attribute': 'individual.wounds', 'bar2.attribute': 'individual.stress' });
    expect(barChanges({ bar1: { attribute: 'ac' }, bar2: { attribute: 'movement.base' } }, 'individual-speed')).toBeNull();
    expect(barChanges({ bar1: { attribute: 'individual.wounds' }, bar2: { attribute: 'individual.stress' } }, 'segment-d6', 'prototypeToken.')).toEqual({ 'prototypeToken.bar1.attribute': 'hp', 'prototypeToken.bar2.attribute': null });
    expect(barChanges({ bar1: { attribute: 'hp' }, bar2: { attribute: null } }, 'high-low')).toBeNull();
  });
});
