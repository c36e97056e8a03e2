/**
 * Measuring on the scene's grid: token centres, the distance between two
 * tokens centre to centre (seed 001), and the room a weapon needs.
 */
import { canUseWeaponHere, type Square } from '../rules/space';

interface TokenLike {
  x?: number | null;
  y?: number | null;
  width?: number | null;
  height?: number | null;
  parent?: Scene.Implementation | null;
  id?: string | null;
}

function gridOf(token: TokenLike): { size: number; distance: number; measure?: (a: { x: number; y: number }, b: { x: number; y: number }) => number } {
  // What the system reads of a scene's grid (core's BaseGrid; v14's typings merge the grid classes' measurePath into one that takes nothing).
  const grid: { size: number; distance: number; measurePath?(waypoints: { x: number; y: number }[], options: object): { distance: number } } | undefined = token.parent?.grid;
  const size = grid?.size ?? 100;
  const distance = grid?.distance ?? 5;
  const measure = grid?.measurePath ? (a: { x: number; y: number }, b: { x: number; y: number }) => grid.measurePath!([a, b], {}).distance : undefined;
  return { size, distance, measure };
}

export function tokenCenter(token: TokenLike): { x: number; y: number } {
  const { size } = gridOf(token);
  return { x: (token.x ?? 0) + ((token.width ?? 1) * size) / 2, y: (token.y ?? 0) + ((token.height ?? 1) * size) / 2 };
}

/** Distance in feet (scene units) between two tokens, centre to centre, by the scene's grid rules. */
export function distanceBetween(a: TokenLike, b: TokenLike): number {
  const { size, distance, measure } = gridOf(a);
  const ca = tokenCenter(a);
  const cb = tokenCenter(b);
  if (measure) return measure(ca, cb);
  const squares = Math.max(Math.abs(ca.x - cb.x), Math.abs(ca.y - cb.y)) / size;
  return squares * distance;
}

/** The gap a charger must close to reach a target: centre distance less one square (adjacent = 0). */
export function gapBetween(a: TokenLike, b: TokenLike): number {
  const { distance } = gridOf(a);
  return Math.max(0, distanceBetween(a, b) - distance);
}

export function squareOf(token: TokenLike): Square {
  const { size } = gridOf(token);
  return { col: Math.round((token.x ?? 0) / size), row: Math.round((token.y ?? 0) / size) };
}

/** Can this token swing a weapon needing `spaceFeet`, given the other tokens on its scene? */
export function weaponUsableAt(token: TokenLike, others: readonly TokenLike[], spaceFeet: number): boolean {
  const occupied: Square[] = [];
  for (const o of others) {
    if (o === token || (o.id && o.id === token.id)) continue;
    const s = squareOf(o);
    const w = Math.max(1, Math.round(o.width ?? 1));
    const h = Math.max(1, Math.round(o.height ?? 1));
    for (let dc = 0; dc < w; dc++) for (let dr = 0; dr < h; dr++) occupied.push({ col: s.col + dc, row: s.row + dr });
  }
  return canUseWeaponHere(spaceFeet, squareOf(token), occupied);
}
