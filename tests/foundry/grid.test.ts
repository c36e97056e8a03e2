/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world';
import { distanceBetween, gapBetween, weaponUsableAt } from '../../src/documents/grid';
import { declarationFromRequest } from '../../src/documents/declarations';
import { chargeArrivalSegment } from '../../src/rules/procedures/addict';

// Seed 001: "each square will be equal to a 5-ft. by 5-ft. area"; "Distance is measured
// from center-to-center". Seed 004 fn 19: the charger moves 1/10 of its charge MV each
// segment and must end a segment within its weapon's length to attack.
describe.each([13, 14] as const)('the grid, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'addict');
  });
  const token = (id: string) => (w.combat.combatants.get(id) as any).token;

  it('measures between token centres on the scene grid, in feet', () => {
    // Brand at (100,0), Orc 1 at (300,0): two squares apart centre to centre.
    expect(distanceBetween(token(w.ids.brand), token(w.ids.orc1))).toBe(10);
    expect(distanceBetween(token(w.ids.halvaine), token(w.ids.brand))).toBe(5);
    // Adjacent creatures have no gap to close.
    expect(gapBetween(token(w.ids.halvaine), token(w.ids.brand))).toBe(0);
    expect(gapBetween(token(w.ids.brand), token(w.ids.orc1))).toBe(5);
  });

  it('a charge declared at a token gets the gap from the map, and the engine places the blow by it', async () => {
    await token(w.ids.orc1).update({ x: 1100 }); // ten squares east of Brand: a 45 ft gap
    const built = declarationFromRequest(w.combat.combatants.get(w.ids.brand) as any, { action: 'charge', target: w.ids.orc1, weapon: w.sword.id });
    expect('declaration' in built && built.declaration.distance).toBe(45);
    // Charge MV 240 ft: 24 ft a segment; within 3.5 ft after 2 segments (48 ft ≥ 41.5).
    expect(chargeArrivalSegment(45, 240, 3.5)).toBe(2);
  });

  it('a weapon needing more than 4 ft cannot be used with no open square around (seed 001, Space Required)', async () => {
    const [halberd] = await w.actors.brand.createEmbeddedDocuments('Item', [
      { name: 'Halberd', type: 'weapon', system: { damage: { small: '1d10', large: '2d6' }, speed: 9, length: 6, space: 6, kind: 'melee' } },
    ]);
    // Surround Brand (square 1,0 on a 100 px grid) on all eight squares.
    const around = [
      [0, -1], [1, -1], [2, -1], [0, 1], [1, 1], [2, 1], [2, 0],
    ].map(([c, r]) => ({ name: 'Goblin', actorId: w.actors.orc2.id, actorLink: false, x: c * 100, y: r * 100, disposition: -1 }));
    await w.scene.createEmbeddedDocuments('Token', around);
    // Halvaine stands at (0,0): the eighth square. Brand is boxed in.
    const boxed = weaponUsableAt(token(w.ids.brand), w.scene.tokens.contents, 6);
    expect(boxed).toBe(false);
    const refused = declarationFromRequest(w.combat.combatants.get(w.ids.brand) as any, { action: 'melee', target: w.ids.orc1, weapon: halberd.id });
    expect(refused).toMatchObject({ problem: { key: 'WeaponNoRoom' } });
    // The sword (3 ft) is fine.
    const sword = declarationFromRequest(w.combat.combatants.get(w.ids.brand) as any, { action: 'melee', target: w.ids.orc1, weapon: w.sword.id });
    expect('declaration' in sword).toBe(true);
  });
});
