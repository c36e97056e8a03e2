/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { whenChargesMoved } from '../../src/documents/charge-moves';
import { chargeArrivalSegment } from '../../src/rules/procedures/addict';
import { chargeAcross, chargeTooFar, declare, flow, settle, token } from './charge-helpers';

// Seed 004 fn 19: "the charger moves 1/10th of their charge MV every segment, and the charger must end the segment at a
// distance equal to or less than their weapon length in order to attack"; fn 9: charge MV is MV +100% indoors (Brand:
// 120 ft, charging 240 ft a round, 24 ft a segment). README, Charges and ranges on the map.
const D = { EQUIDISTANT: 0, ALTERNATING_1: 4 };
const segmentNow = (w: World) => flow(w).schedule!.steps[flow(w).step]?.segment;

/** The token updates the system made, with their options (every client hears them; the GM's client is read). */
function watchMoves(): any[] {
  const seen: any[] = [];
  g.Hooks.on('updateToken', (doc: any, changed: any, options: any) => {
    if ('x' in changed || 'y' in changed) seen.push({ name: doc.name, x: doc.x, y: doc.y, options });
  });
  return seen;
}
/** The moveToken hooks (core v13/v14: every client, after the update) on the GM's client: the movement and the operation. */
function watchMovements(w: World): any[] {
  const seen: any[] = [];
  w.foundry.client(w.foundry.users.gm).run(() =>
    g.Hooks.on('moveToken', (doc: any, movement: any, operation: any) => seen.push({ name: doc.name, method: movement.method, to: [movement.destination.x, movement.destination.y], operation })),
  );
  return seen;
}
/** Step through the round; the charger's square (column, row) after each step, by segment. */
async function walk(w: World, id: string): Promise<[number, number, number][]> {
  const seen: [number, number, number][] = [];
  for (let guard = 0; guard < 20 && flow(w).stage === 'resolve'; guard++) {
    seen.push([segmentNow(w)!, token(w, id).x / 100, token(w, id).y / 100]);
    await w.combat.nextTurn();
    await settle(w);
  }
  return seen;
}

describe.each([13, 14] as const)('charges on the map, generation %i', (generation) => {
  it('addict: a charge across the map moves 1/10 of its charge MV a segment and lands in the segment footnote 19 gives', async () => {
    const w = await makeWorld(generation, 'addict');
    const moves = watchMoves();
    const movements = watchMovements(w);
    // Brand in column 1, Orc 1 in column 21: 19 squares, 95 ft to close; the party acts in segment 1 (the orcs' die), the orcs in 2.
    await chargeAcross(w, () => {
      moves.length = 0;
      movements.length = 0;
      expect(flow(w).declarations[w.ids.brand].distance).toBe(95);
    });
    // Within 3.5 ft after four segments: 96 ft ≥ 91.5.
    expect(chargeArrivalSegment(95, 240, 3.5, 1)).toBe(4);
    // After segment 1: 24 ft (the 4 whole squares within it), 2: 48 ft (9), 3: 72 ft (14), 4: beside Orc 1 (column 20).
    expect(await walk(w, w.ids.brand)).toEqual([
      [1, 5, 0],
      [2, 10, 0],
      [3, 15, 0],
      [4, 20, 0],
    ]);
    // The charge is Brand's in segment 4.
    const arrives = flow(w).schedule!.steps.find((s: any) => s.entries.some((e: any) => e.combatant === w.ids.brand && e.action === 'charge'));
    expect(arrives!.segment).toBe(4);
    // Every move the system's own, animated (the default), one a step.
    expect(moves.map((m) => m.x)).toEqual([500, 1000, 1500, 2000].flatMap((x) => Array(moves.length / 4).fill(x)));
    expect(moves.every((m) => m.options.tenSegments?.charge === true && m.options.animate === true)).toBe(true);
    // Core's token movement (TokenDocument#move): a movement each, by the API, the operation carrying the system's option.
    expect(movements.map((m) => m.to)).toEqual([[500, 0], [1000, 0], [1500, 0], [2000, 0]]);
    expect(movements.every((m) => m.name === 'Brand' && m.method === 'api' && m.operation.tenSegments?.charge === true)).toBe(true);
    expect(w.foundry.errors).toEqual([]);
  });

  it('addict: a charge too long for the round falls short and says so, its token where the round left it (5/10/5 diagonals)', async () => {
    const w = await makeWorld(generation, 'addict');
    const moves = watchMoves();
    // Orc 1 diagonally away: Brand (column 1, row 0) to column 41, row 30; the square beside it is column 40, row 29: 29 diagonals
    // and 10 straight: 50 + 29 diagonals at 5/10/5 (15 × 5 + 14 × 10 = 215), 265 ft, more than 240 ft in a round.
    await chargeTooFar(w, () => {
      moves.length = 0;
    });
    const seen = await walk(w, w.ids.brand);
    expect(flow(w).stage).toBe('end-of-round');
    // The last segment says it falls short; the GM is told.
    const last = flow(w).schedule!.steps.at(-1)!;
    expect(last.segment).toBe(10);
    expect(last.entries.some((e: any) => e.combatant === w.ids.brand && e.reason === 'addictChargeFallsShort')).toBe(true);
    expect(w.foundry.notifications.some((n: any) => /falls short/.test(n.message) && n.message.includes('Brand'))).toBe(true);
    // After the round the token has covered 240 ft of 265 by the grid's rule, set down at once (animateCharges off).
    const end = token(w, w.ids.brand);
    expect(seen.at(-1)![0]).toBe(10);
    const left = w.scene.grid.measurePath([{ x: end.x + 50, y: end.y + 50 }, { x: 4050, y: 2950 }]).distance;
    expect(265 - left).toBeLessThanOrEqual(240);
    expect(265 - left).toBeGreaterThan(230);
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.every((m) => m.options.animate === false && m.options.tenSegments?.charge === true)).toBe(true);
  });

  it('d12-ascending: a 2×2 charger moves its whole path at the step its charge acts, to the square beside its target', async () => {
    const w = await makeWorld(generation, 'd12-ascending');
    await token(w, w.ids.brand).update({ width: 2, height: 2, x: 100, y: 200 }); // columns 1–2, rows 2–3
    await token(w, w.ids.orc1).update({ x: 800, y: 0 }); // column 8, row 0
    w.foundry.dice.push(12, 12); // no surprise
    await w.combat.startCombat();
    await declare(w, w.ids.brand, { action: 'charge', target: w.ids.orc1, weapon: w.sword.id });
    await declare(w, w.ids.orc2, { action: 'melee', target: w.ids.halvaine });
    // Columns 1–2 to 6–7 beside it, rows 2–3 to 1–2: five squares, one diagonal: 25 ft.
    expect(flow(w).declarations[w.ids.brand].distance).toBe(25);
    w.foundry.dice.push(1, 6); // the party first
    await w.combat.rollInitiative();
    await settle(w);
    const steps = flow(w).schedule!.steps;
    const at = steps.findIndex((s: any) => s.entries.some((e: any) => e.combatant === w.ids.brand));
    const positions: [number, number][] = [];
    for (let k = 0; k < steps.length && flow(w).stage === 'resolve'; k++) {
      positions.push([token(w, w.ids.brand).x, token(w, w.ids.brand).y]);
      await w.combat.nextTurn();
      await settle(w);
    }
    expect(at).toBeGreaterThanOrEqual(0);
    positions.forEach((p, k) => expect(p).toEqual(k < at ? [100, 200] : [600, 100]));
  });

  it('d12-ascending: a charge farther than the standard rate (III.D) moves that far at its step and falls short', async () => {
    const w = await makeWorld(generation, 'd12-ascending');
    await token(w, w.ids.orc1).update({ x: 1200 }); // Brand in column 1, Orc 1 in column 12: 50 ft to close
    w.foundry.dice.push(12, 12);
    await w.combat.startCombat();
    await declare(w, w.ids.brand, { action: 'charge', target: w.ids.orc1, weapon: w.sword.id });
    await declare(w, w.ids.orc2, { action: 'melee', target: w.ids.halvaine });
    w.foundry.dice.push(1, 6);
    await w.combat.rollInitiative();
    await settle(w);
    for (let guard = 0; guard < 10 && flow(w).stage === 'resolve'; guard++) {
      await w.combat.nextTurn();
      await settle(w);
    }
    // Seed 002: 12" is six squares: 30 ft of the 50, so column 7; the GM is told it falls short.
    expect(token(w, w.ids.brand).x).toBe(700);
    expect(w.foundry.notifications.some((n: any) => /falls short/.test(n.message) && n.message.includes('Brand'))).toBe(true);
  });
});
