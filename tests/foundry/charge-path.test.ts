/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from './world';
import { chargePath, gapBetween, pointAlong } from '../../src/documents/grid';
import { declarationFromRequest } from '../../src/documents/declarations';

// Seed 001: "each square will be equal to a 5-ft. by 5-ft. area"; "Distance is measured from center-to-center".
// Seed 004 fn 19: the charger "must end the segment at a distance equal to or less than their weapon length in order to
// attack": the gap it closes runs to where its footprint touches the target's (README, Charges and ranges on the map).
const D = { EQUIDISTANT: 0, EXACT: 1, RECTILINEAR: 3, ALTERNATING_1: 4, ALTERNATING_2: 5 };

describe.each([13, 14] as const)('a charger\'s path on the map, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'addict');
  });
  const token = (id: string) => (w.combat.combatants.get(id) as any).token;
  const place = async (name: string, x: number, y: number, size = 1) =>
    (await w.scene.createEmbeddedDocuments('Token', [{ name, actorId: w.actors.orc2.id, actorLink: false, x, y, width: size, height: size, disposition: -1 }]))[0];

  it('1×1 to 1×1 in a line: from the charger\'s centre to the square beside the target, square by square', async () => {
    await token(w.ids.orc1).update({ x: 1100 }); // Brand at column 1, Orc 1 at column 11
    const path = chargePath(token(w.ids.brand), token(w.ids.orc1));
    expect(path.distance).toBe(45);
    expect(path.waypoints.map((p) => p.x)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(path.feet).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
    // 24 ft along: the last square reached within it (20 ft); past the end: the end.
    expect(pointAlong(path, 24)).toEqual({ x: 500, y: 0 });
    expect(pointAlong(path, 48)).toEqual({ x: 1000, y: 0 });
    expect(pointAlong(path, 0)).toEqual({ x: 100, y: 0 });
    // Already touching: nothing to close.
    expect(gapBetween(token(w.ids.halvaine), token(w.ids.brand))).toBe(0);
  });

  it.each([
    ['equidistant', D.EQUIDISTANT, 20, [0, 5, 10, 15, 20]],
    ['5/10/5', D.ALTERNATING_1, 30, [0, 5, 15, 20, 30]],
    ['10/5/10', D.ALTERNATING_2, 30, [0, 10, 15, 25, 30]],
    ['exact', D.EXACT, 20 * Math.SQRT2, [0, 1, 2, 3, 4].map((k) => 5 * k * Math.SQRT2)],
    ['rectilinear', D.RECTILINEAR, 40, [0, 10, 20, 30, 40]],
  ])('on the diagonal, by the grid\'s rule (%s)', async (_name, rule, total, feet) => {
    await g.game.settings.set('core', 'gridDiagonals', rule);
    await token(w.ids.orc1).update({ x: 600, y: 500 }); // four squares diagonally beyond the square touching it
    const path = chargePath(token(w.ids.brand), token(w.ids.orc1));
    expect(path.distance).toBeCloseTo(total, 6);
    expect(path.waypoints.at(-1)).toEqual({ x: 500, y: 400 });
    path.feet.forEach((f, k) => expect(f).toBeCloseTo(feet[k], 6));
    const built = declarationFromRequest(w.combat.combatants.get(w.ids.brand) as any, { action: 'charge', target: w.ids.orc1, weapon: w.sword.id });
    expect('declaration' in built && built.declaration.distance).toBeCloseTo(total, 6);
  });

  it('a 2×2 target: the gap runs to its nearest edge, not its centre less a square', async () => {
    const ogre = await place('Ogre', 600, 0, 2); // columns 6–7, rows 0–1
    const path = chargePath(token(w.ids.brand), ogre);
    expect(path.distance).toBe(20); // Brand in column 1 to column 5
    expect(path.waypoints.at(-1)).toEqual({ x: 500, y: 0 });
  });

  it('a 2×2 charger: its footprint touches the target\'s; measured from its centre', async () => {
    const ogre = await place('Ogre', 0, 300, 2); // columns 0–1, rows 3–4
    const goblin = await place('Goblin', 700, 400); // column 7, row 4
    const path = chargePath(ogre, goblin);
    expect(path.distance).toBe(25); // to columns 5–6: five squares
    expect(path.waypoints.at(-1)).toEqual({ x: 500, y: 300 });
    // Diagonal too: a 3×3 (large) goblin chief far off; 5/10/5 counts the diagonals.
    await g.game.settings.set('core', 'gridDiagonals', D.ALTERNATING_1);
    const chief = await place('Chief', 1000, 1000, 3); // columns 10–12, rows 10–12
    const to = chargePath(ogre, chief);
    // The ogre (0–1, 3–4) ends touching the chief's corner: columns 8–9, rows 8–9, eight squares, five of them diagonal.
    expect(to.waypoints.at(-1)).toEqual({ x: 800, y: 800 });
    expect(to.distance).toBe(5 + 10 + 5 + 10 + 5 + 3 * 5);
    expect(to.waypoints).toHaveLength(9);
  });

  it('a second charger at the same target ends on a free square beside it', async () => {
    await token(w.ids.orc1).update({ x: 1100 });
    await token(w.ids.brand).update({ x: 1000 }); // Brand already beside Orc 1 (column 10)
    const path = chargePath(token(w.ids.halvaine), token(w.ids.orc1), w.scene.tokens.contents);
    expect(path.waypoints.at(-1)).not.toEqual({ x: 1000, y: 0 });
    expect(path.distance).toBe(50); // to column 10 on row 1 (or row −1): ten squares with one diagonal
  });
});

describe.each([13, 14] as const)('the scene\'s outdoors flag, generation %i', (generation) => {
  it('addict\'s chargeOutdoors follows the scene where it says; absent, the world\'s option (footnote 9)', async () => {
    const w = await makeWorld(generation, 'addict', { chargeOutdoors: true });
    w.foundry.dice.push(3, 4);
    await w.combat.startCombat();
    expect(w.combat.flowState!.options.chargeOutdoors).toBe(true);
    const again = async (outdoors: boolean) => {
      await w.scene.setFlag('ten-segments', 'outdoors', outdoors);
      const next = await g.Combat.create({ scene: w.scene.id });
      await next.createEmbeddedDocuments('Combatant', w.combat.combatants.map((c: any) => ({ actorId: c.actorId, tokenId: c.tokenId, sceneId: w.scene.id })));
      w.foundry.dice.push(3, 4);
      await next.startCombat();
      return next.flowState.options.chargeOutdoors;
    };
    expect(await again(false)).toBe(false);
    expect(await again(true)).toBe(true);
  });
});
