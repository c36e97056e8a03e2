/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from './world';
import { measureMovement, measurePath, pathOfSquares } from '../../src/documents/move-measure';
import { footprintOf, lineOfSquares, touches, type Footprint } from '../../src/documents/grid';

// Seed 001: "each square will be equal to a 5-ft. by 5-ft. area"; melee range is the two tokens' footprints touching or
// overlapping (the contract's ReachPassed: adjacent squares, diagonals included). Feet by the scene grid's measurePath,
// under the world's diagonal rule (core setting gridDiagonals).
const at = (col: number, row: number, w = 1, h = 1): Footprint => ({ col, row, w, h });
const px = (col: number, row: number, size = 1) => ({ x: col * 100, y: row * 100, width: size, height: size });

describe('footprints', () => {
  it('touch when adjacent (diagonals included) or overlapping, for any size', () => {
    expect(touches(at(0, 0), at(1, 1))).toBe(true);
    expect(touches(at(0, 0), at(2, 0))).toBe(false);
    // A 2×2 at (3,2)–(4,3): a 1×1 on row 1 touches it from column 2 to 5, on row 0 never.
    const ogre = at(3, 2, 2, 2);
    expect([1, 2, 3, 4, 5, 6].map((c) => touches(at(c, 1), ogre))).toEqual([false, true, true, true, true, false]);
    expect(touches(at(4, 0), ogre)).toBe(false);
    // Two 2×2s side by side, and one square apart.
    expect(touches(at(0, 0, 2, 2), at(2, 1, 2, 2))).toBe(true);
    expect(touches(at(0, 0, 2, 2), at(3, 1, 2, 2))).toBe(false);
  });

  it('a straight run is a line of squares, diagonal while both offsets change', () => {
    expect(lineOfSquares(at(0, 0), at(3, 1)).map((f) => [f.col, f.row])).toEqual([
      [1, 0],
      [2, 1],
      [3, 1],
    ]);
    expect(pathOfSquares([at(0, 0), at(0, 0), at(2, 2)]).map((f) => [f.col, f.row])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    // A token's top-left corner in pixels to its squares (an unsnapped corner goes to the nearest square).
    expect(footprintOf({ x: 240, y: 160, width: 2, height: 2 }, 100)).toEqual({ col: 2, row: 2, w: 2, h: 2 });
  });

  it('feet from the squares within range, and whether the move began and ended there', () => {
    const grid = { size: 100, distance: 5 };
    // East along row 0 from column 0 to 6, past an orc at (3,1): within its range at columns 2, 3, 4.
    const path = pathOfSquares([at(0, 0), at(6, 0)]);
    expect(measurePath(path, grid, [{ c: 'orc', at: at(3, 1) }])).toEqual({ feet: 30, reach: [{ c: 'orc', feet: 15, startIn: false, endIn: false }] });
    // One never within range is left out.
    expect(measurePath(path, grid, [{ c: 'far', at: at(3, 4) }])).toEqual({ feet: 30 });
    // Starting beside it and stepping away: 5 ft from within, began within, ended outside.
    expect(measurePath(pathOfSquares([at(2, 0), at(4, 0)]), grid, [{ c: 'orc', at: at(1, 1) }])).toEqual({ feet: 10, reach: [{ c: 'orc', feet: 5, startIn: true, endIn: false }] });
  });
});

describe.each([13, 14] as const)('a move measured on the scene grid, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'd12-ascending');
  });
  const token = (id: string) => (w.combat.combatants.get(id) as any).token;
  const move = (origin: any, ...waypoints: any[]) => ({ origin, passed: { waypoints, distance: 0 } }) as any;

  it.each([
    ['equal diagonals', 0, 15],
    ['5/10/5', 4, 20],
  ])('three diagonal squares under %s (gridDiagonals %i): %i ft', async (_name, rule, feet) => {
    await g.game.settings.set('core', 'gridDiagonals', rule);
    expect(measureMovement(token(w.ids.brand), move(px(1, 0), px(4, 3)), [])).toEqual({ feet });
    // Through waypoints, the rule counts over the whole path (5/10/5: the second diagonal is 10 ft wherever it falls).
    expect(measureMovement(token(w.ids.brand), move(px(1, 0), px(2, 1), px(3, 2), px(4, 3)), [])).toEqual({ feet });
  });

  it('a teleporting action (core\'s displace, blink) costs nothing and passes no square in between', () => {
    const measured = measureMovement(token(w.ids.brand), move(px(1, 0), { ...px(5, 5), action: 'displace' }, px(6, 5)), [{ c: w.ids.orc1, token: token(w.ids.orc1) }]);
    // Brand begins beside nothing; the jump lands at (5,5), then one square walked: 5 ft. Orc 1 at (3,0) is never passed.
    expect(measured).toEqual({ feet: 5 });
    // Teleported away from Orc 1's side: began within its range, no feet from within it.
    const away = measureMovement(token(w.ids.brand), move(px(2, 0), { ...px(8, 8), action: 'blink' }), [{ c: w.ids.orc1, token: token(w.ids.orc1) }]);
    expect(away).toEqual({ feet: 0, reach: [{ c: w.ids.orc1, feet: 0, startIn: true, endIn: false }] });
  });

  it.each([
    [0, 1],
    [4, 1],
    [0, 2],
    [4, 2],
  ])('under gridDiagonals %i a %i×%i token past an orc: the feet within its range', async (rule, size) => {
    await g.game.settings.set('core', 'gridDiagonals', rule);
    await token(w.ids.brand).update({ width: size, height: size });
    // Orc 1 stands at (3,0) (world.ts); the mover goes east along row 2 (1×1: rows 2; 2×2: rows 2–3) from column 0 to 7.
    const measured = measureMovement(token(w.ids.brand), move(px(0, 2, size), px(7, 2, size)), [{ c: w.ids.orc1, token: token(w.ids.orc1) }]);
    // 1×1 on row 2 is 2 rows below the orc: never within range. 2×2 on rows 2–3: likewise (its top is row 2).
    expect(measured).toEqual({ feet: 35 });
    // One row up (row 1), within range at columns 2–4 (1×1) or 1–4 (2×2: its right column reaches 2 first).
    const closer = measureMovement(token(w.ids.brand), move(px(0, 1, size), px(7, 1, size)), [{ c: w.ids.orc1, token: token(w.ids.orc1) }]);
    expect(closer).toEqual({ feet: 35, reach: [{ c: w.ids.orc1, feet: size === 1 ? 15 : 20, startIn: false, endIn: false }] });
  });

  // RULING (move-measure.ts): a change of elevation adds the feet climbed or dropped, whatever the diagonal rule; spread
  // evenly over a straight run, a rise in place a step of its own (issue 26: a position written without a movement, its
  // elevation too, is measured as a move).
  it('a change of elevation adds its feet: in place, and along a straight run', () => {
    const up = (p: any, elevation: number) => ({ ...p, elevation });
    // 20 ft up in place.
    expect(measureMovement(token(w.ids.brand), move(up(px(1, 5), 0), up(px(1, 5), 20)), [])).toEqual({ feet: 20 });
    // Four squares (20 ft) while dropping 10 ft: 30 ft.
    expect(measureMovement(token(w.ids.brand), move(up(px(0, 5), 10), up(px(4, 5), 0)), [])).toEqual({ feet: 30 });
    // A waypoint without an elevation keeps the one before it: nothing added.
    expect(measureMovement(token(w.ids.brand), move(up(px(0, 5), 10), px(4, 5)), [])).toEqual({ feet: 20 });
    // A teleport costs nothing, up or down.
    expect(measureMovement(token(w.ids.brand), move(up(px(0, 5), 0), { ...up(px(0, 5), 50), action: 'displace' }), [])).toEqual({ feet: 0 });
    // Rising 10 ft beside Orc 1 (3,0) from (2,1): 10 ft from within its range, begun and ended there.
    expect(measureMovement(token(w.ids.brand), move(up(px(2, 1), 0), up(px(2, 1), 10)), [{ c: w.ids.orc1, token: token(w.ids.orc1) }])).toEqual({
      feet: 10,
      reach: [{ c: w.ids.orc1, feet: 10, startIn: true, endIn: true }],
    });
  });

  it('a straight run spreads the elevation over its squares', () => {
    const path = pathOfSquares([{ ...at(0, 0), z: 0 }, { ...at(4, 0), z: 20 }]);
    expect(path.map((f) => [f.col, f.z])).toEqual([
      [0, 0],
      [1, 5],
      [2, 10],
      [3, 15],
      [4, 20],
    ]);
  });
});
