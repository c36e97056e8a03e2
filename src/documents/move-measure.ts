/**
 * A token's move measured on its scene's grid, for the engine's `moved`
 * input (src/rules/movement.ts `MoveMeasure`): the feet moved and, for every
 * opponent's token, the feet moved from squares within its melee range.
 *
 * The path is the movement's origin and the waypoints it passed (a position
 * written without a movement: where the token was, then where it is), each
 * step from one square to the next (a straight run between two waypoints is
 * the grid's line of squares: diagonal steps while both offsets change).
 * Feet over the ground are what the scene grid's `measurePath` gives the
 * whole path of squares, so the world's diagonal rule (core setting
 * `gridDiagonals`: 5/10/5, equal, …) counts as Foundry counts it; a step's
 * feet are the growth of that measure. RULING: a change of elevation (scene
 * units, feet) adds the feet climbed or dropped to the step's feet (spread
 * evenly over a straight run; a rise in place is a step of its own), whatever
 * the diagonal rule; the ground is measured in two dimensions. Melee range is the two tokens' footprints touching or overlapping
 * (adjacent squares, diagonals included; seed 001 "Space Required", the
 * contract's ReachPassed), for tokens of any size in whole squares.
 *
 * Only measuring: whether a move is allowed, and whom it provokes, are the
 * rules' (the procedures' movement rules read these numbers). Part of the
 * active GM's movement chunk (token-moved.ts).
 */

import type { MoveMeasure, ReachPassed } from '../rules/movement';
import { footprintOf, lineOfSquares, touches, type Footprint, type GridLike, type TokenLike } from './grid';

export type { MoveMeasure, ReachPassed };

/**
 * The path square by square through the given positions (repeated squares dropped; a change of elevation in the same
 * square is a step of its own; along a straight run the elevation changes evenly, square by square).
 */
export function pathOfSquares(positions: readonly Footprint[]): Footprint[] {
  const path: Footprint[] = [];
  for (const p of positions) {
    const last = path[path.length - 1];
    if (!last) {
      path.push(p);
      continue;
    }
    if (last.col === p.col && last.row === p.row) {
      if ((last.z ?? 0) !== (p.z ?? 0)) path.push(p);
      else if (last.w !== p.w || last.h !== p.h) path[path.length - 1] = { ...p, ...(last.jump ? { jump: true } : {}) };
      continue;
    }
    if (p.jump) {
      path.push(p);
      continue;
    }
    const line = lineOfSquares(last, p);
    const z0 = last.z;
    const z1 = p.z;
    if (z0 === undefined && z1 === undefined) path.push(...line);
    else path.push(...line.map((f, k) => ({ ...f, z: (z0 ?? 0) + (((z1 ?? 0) - (z0 ?? 0)) * (k + 1)) / line.length })));
  }
  return path;
}

/** Feet, to a tenth (the exact diagonal rule gives irrational lengths; the log keeps a short number). */
const tenth = (feet: number) => Math.round(feet * 10) / 10;

/**
 * The feet of each step of a path (index k: from square k − 1 to square k;
 * index 0 is 0), by the grid's measure of the path so far, so a diagonal
 * rule that alternates counts over the whole path (a teleport costs nothing;
 * the walk after it is measured anew from where it lands). Without a grid measure: one square's
 * distance a step. A step's change of elevation adds its feet (RULING, above).
 */
export function stepFeet(path: readonly Footprint[], grid: GridLike): number[] {
  const centre = (f: Footprint) => ({ x: (f.col + 0.5) * grid.size, y: (f.row + 0.5) * grid.size });
  const out: number[] = [0];
  // The path walked so far (a teleport's jump left out: the walk goes on from where it lands).
  const walked: { x: number; y: number }[] = path.length > 0 ? [centre(path[0])] : [];
  let before = 0;
  for (let k = 1; k < path.length; k++) {
    if (path[k].jump) {
      out.push(0);
      walked.length = 0;
      walked.push(centre(path[k]));
      before = 0;
      continue;
    }
    walked.push(centre(path[k]));
    const upTo = grid.measurePath ? grid.measurePath(walked, {}).distance : (walked.length - 1) * grid.distance;
    out.push(upTo - before + Math.abs((path[k].z ?? 0) - (path[k - 1].z ?? 0)));
    before = upTo;
  }
  return out;
}

/**
 * A path's feet and, for each opponent footprint, what it passed of its
 * melee range: feet moved starting from a square within range, whether it
 * began and ended within range. An opponent never within range along the
 * path is left out. Pure: tests give it footprints and a grid.
 */
export function measurePath(path: readonly Footprint[], grid: GridLike, opponents: readonly { c: string; at: Footprint }[]): MoveMeasure {
  const feet = stepFeet(path, grid);
  const total = feet.reduce((a, b) => a + b, 0);
  const reach: ReachPassed[] = [];
  for (const o of opponents) {
    const within = path.map((p) => touches(p, o.at));
    if (!within.some(Boolean)) continue;
    let inRange = 0;
    for (let k = 1; k < path.length; k++) if (within[k - 1] && !path[k].jump) inRange += feet[k];
    reach.push({ c: o.c, feet: tenth(inRange), startIn: within[0], endIn: within[within.length - 1] });
  }
  return reach.length > 0 ? { feet: tenth(total), reach } : { feet: tenth(total) };
}

/** Does a movement action teleport (core's CONFIG.Token.movement.actions: `blink`, `displace`)? */
function teleports(action: string | undefined): boolean {
  if (!action) return false;
  const actions = (CONFIG.Token as { movement?: { actions?: Record<string, { teleport?: boolean } | undefined> } }).movement?.actions;
  return actions?.[action]?.teleport ?? (action === 'blink' || action === 'displace');
}

/**
 * What is measured of a move: where it began and the waypoints it passed. A movement (core's
 * TokenMovementOperation) is one; a position written without a movement is its previous position and the one
 * written (token-movement.ts).
 */
export interface MovePath {
  readonly origin: TenSegmentsMovement.Position;
  readonly passed: { readonly waypoints: readonly TenSegmentsMovement.Waypoint[] };
}

/** The squares a movement went through: its origin, then the waypoints it passed in this operation, with their elevation (a waypoint without one keeps the previous). */
export function movementPath(movement: MovePath, size: number): Footprint[] {
  let z = movement.origin.elevation ?? 0;
  const at = movement.passed.waypoints.map((p) => {
    z = p.elevation ?? z;
    return { ...footprintOf(p, size), z, ...(teleports(p.action) ? { jump: true } : {}) };
  });
  return pathOfSquares([{ ...footprintOf(movement.origin, size), z: movement.origin.elevation ?? 0 }, ...at]);
}

/** The scene grid a token is on, as this file reads it (a 100-pixel, 5-ft square without one). */
export function gridOfScene(scene: Scene.Implementation | null | undefined): GridLike {
  // v14's typings merge the grid classes' measurePath into one that takes nothing (grid.ts reads it the same way).
  const grid: GridLike | undefined = scene?.grid as GridLike | undefined;
  return { size: grid?.size ?? 100, distance: grid?.distance ?? 5, measurePath: grid?.measurePath?.bind(grid) };
}

/**
 * A token's movement measured for the engine: the feet of the path it
 * passed, and the melee ranges of the opponents' tokens (`opponents`: their
 * combatant ids and tokens, where they stand now) it passed through.
 */
export function measureMovement(token: TokenDocument.Implementation, movement: MovePath, opponents: readonly { c: string; token: TokenLike }[]): MoveMeasure {
  const grid = gridOfScene(token.parent);
  const path = movementPath(movement, grid.size);
  return measurePath(
    path,
    grid,
    opponents.map((o) => ({ c: o.c, at: footprintOf(o.token, grid.size) })),
  );
}
