/**
 * The charges the Foundry checks play (charge-moves, tracker-charges): the
 * fixture world (world.ts) under addict, Brand charging Orc 1 across the map.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { expect } from 'vitest';
import { g, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { whenChargesMoved } from '../../src/documents/charge-moves';

export const token = (w: World, id: string) => (w.combat.combatants.get(id) as any).token;
export const flow = (w: World) => w.combat.flowState!;

export async function declare(w: World, id: string, d: any): Promise<void> {
  expect(await requestDeclaration(w.combat, id, d)).toEqual({ ok: true });
}

/** Every client's hooks run and the GM's charge moves done. */
export async function settle(w: World): Promise<void> {
  await w.foundry.settle();
  await whenChargesMoved();
  await w.foundry.settle();
}

/**
 * Brand (column 1) charges Orc 1 moved to column 21 (95 ft to close);
 * Halvaine casts (steps in segments 1–3), Orc 2 attacks Halvaine; the party
 * rolls 2, the orcs 1: the party acts in segment 1 (the orcs' die). Before
 * initiative, `beforeInitiative` may look at the declarations.
 */
export async function chargeAcross(w: World, beforeInitiative?: () => void): Promise<void> {
  await token(w, w.ids.orc1).update({ x: 2100 });
  w.foundry.dice.push(4, 4);
  await w.combat.startCombat();
  await declare(w, w.ids.brand, { action: 'charge', target: w.ids.orc1, weapon: w.sword.id });
  await declare(w, w.ids.halvaine, { action: 'spell', spell: w.spell.id });
  await declare(w, w.ids.orc2, { action: 'melee', target: w.ids.halvaine });
  beforeInitiative?.();
  w.foundry.dice.push(2, 1);
  await w.combat.rollInitiative();
  await settle(w);
}

/**
 * Under 5/10/5 diagonals, animation off: Orc 1 at column 41, row 30, 265 ft
 * from Brand (10 straight squares and 29 diagonals: 50 + 215), more than his
 * 240 ft of charge in a round; Orc 2 attacks Halvaine; the orcs' die 1.
 */
export async function chargeTooFar(w: World, afterPlacing?: () => void): Promise<void> {
  await g.game.settings.set('core', 'gridDiagonals', 4);
  await g.game.settings.set('ten-segments', 'animateCharges', false);
  await token(w, w.ids.orc1).update({ x: 4100, y: 3000 });
  afterPlacing?.();
  w.foundry.dice.push(4, 4);
  await w.combat.startCombat();
  await declare(w, w.ids.brand, { action: 'charge', target: w.ids.orc1, weapon: w.sword.id });
  await declare(w, w.ids.orc2, { action: 'melee', target: w.ids.halvaine });
  expect(flow(w).declarations[w.ids.brand].distance).toBe(265);
  w.foundry.dice.push(6, 1);
  await w.combat.rollInitiative();
  await settle(w);
}
