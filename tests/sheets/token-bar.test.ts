/**
 * The token's health bar follows the procedure (src/documents/actor-defaults.ts):
 * a new actor's prototype token shows hit points, or under individual speed
 * Wound Points on bar 1 and Stress on bar 2 (seed 003); both are among the
 * bars core offers for each actor type (CONFIG.Actor.trackableAttributes).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld } from '../foundry/world';
import { healthBars, prototypeDefaults } from '../../src/documents/actor-defaults';

describe.each([13, 14] as const)('the token\'s health bar, generation %i', (generation) => {
  it('hit points under the d6/d12 procedures; Wound Points (bar 1) and Stress (bar 2) under individual speed; what the creation data sets stands', async () => {
    await makeWorld(generation, 'segment-d6');
    const { FRIENDLY, HOSTILE } = g.CONST.TOKEN_DISPOSITIONS;
    expect(prototypeDefaults('character', {})).toEqual({ 'prototypeToken.actorLink': true, 'prototypeToken.disposition': FRIENDLY, 'prototypeToken.bar1.attribute': 'hp' });
    await g.game.settings.set('ten-segments', 'procedure', 'individual-speed');
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
    await makeWorld(generation, 'segment-d6');
    const [fighter] = await g.Actor.create([{ name: 'Fighter', type: 'character' }]);
    expect(fighter.prototypeToken.bar1.attribute).toBe('hp');
    await g.game.settings.set('ten-segments', 'procedure', 'individual-speed');
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
});
