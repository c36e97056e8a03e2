/**
 * Measuring on the scene's grid: token centres, the distance between two
 * tokens centre to centre (seed 001), the room a weapon needs, and the path
 * a charger takes to its target (seed 004, footnote 19).
 *
 * Every distance is the scene grid's own measurement (core's
 * `grid.measurePath`, so the world's diagonal rule, core setting
 * `gridDiagonals`, applies), in scene units (feet). Positions are a token's
 * top-left corner in pixels, as core stores them and as `TokenDocument#move`
 * takes its waypoints.
 */
import { canUseWeaponHere, type Square } from '../rules/space';

export interface Point {
  x: number;
  y: number;
}

export interface TokenLike {
  x?: number | null;
  y?: number | null;
  width?: number | null;
  height?: number | null;
  parent?: Scene.Implementation | null;
  id?: string | null;
}

/** What the system reads of a scene's grid (core's BaseGrid; v14's typings merge the grid classes' measurePath into one that takes nothing). */
export interface GridLike {
  size: number;
  distance: number;
  type?: number;
  isSquare?: boolean;
  measurePath?(waypoints: Point[], options: object): { distance: number };
}

interface Grid {
  size: number;
  distance: number;
  square: boolean;
  measure(a: Point, b: Point): number;
}

function gridOf(token: TokenLike): Grid {
  const grid = token.parent?.grid as GridLike | undefined;
  const size = grid?.size ?? 100;
  const distance = grid?.distance ?? 5;
  // Gridless is type 0; hexagonal grids are measured by core's measurePath but walked as a straight line.
  const square = grid ? (grid.isSquare ?? grid.type === 1) : true;
  const measure = grid?.measurePath
    ? (a: Point, b: Point) => grid.measurePath!([a, b], {}).distance
    : (a: Point, b: Point) => (Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)) / size) * distance;
  return { size, distance, square, measure };
}

/** A token's squares: its top-left square and its size in whole squares. */
export interface Footprint {
  col: number;
  row: number;
  w: number;
  h: number;
  /** Reached by a teleporting action (core's `blink`, `displace`): no squares in between, no feet. */
  jump?: boolean;
  /** The token's elevation there (scene units, feet), where a move's path reads it (move-measure.ts). */
  z?: number;
}

/** Whole squares of a token's side (a token smaller than a square fills one). */
const squares = (n: number | null | undefined): number => Math.max(1, Math.round(n ?? 1));

/** The footprint of a token placed at (x, y): its top-left square is the one holding the centre of its top-left square's worth of pixels. */
export function footprintOf(p: Pick<TokenLike, 'x' | 'y' | 'width' | 'height'>, size: number): Footprint {
  return { col: Math.floor(((p.x ?? 0) + size / 2) / size), row: Math.floor(((p.y ?? 0) + size / 2) / size), w: squares(p.width), h: squares(p.height) };
}

/** Do two footprints touch or overlap (an opponent within melee range: adjacent squares, diagonals included)? */
export function touches(a: Footprint, b: Footprint): boolean {
  const cols = Math.max(b.col - (a.col + a.w - 1), a.col - (b.col + b.w - 1));
  const rows = Math.max(b.row - (a.row + a.h - 1), a.row - (b.row + b.h - 1));
  return cols <= 1 && rows <= 1;
}

/** The squares of a straight run from `a` to `b`, `a` left out: one square a step (a king's move, as core's direct path), diagonal while both offsets change. */
export function lineOfSquares(a: Footprint, b: Footprint): Footprint[] {
  const dc = b.col - a.col;
  const dr = b.row - a.row;
  const n = Math.max(Math.abs(dc), Math.abs(dr));
  const out: Footprint[] = [];
  for (let k = 1; k <= n; k++) out.push({ col: a.col + Math.round((dc * k) / n), row: a.row + Math.round((dr * k) / n), w: b.w, h: b.h });
  return out;
}

function centreAt(token: TokenLike, at: Point, size: number): Point {
  return { x: at.x + ((token.width ?? 1) * size) / 2, y: at.y + ((token.height ?? 1) * size) / 2 };
}

export function tokenCenter(token: TokenLike): Point {
  const { size } = gridOf(token);
  return centreAt(token, { x: token.x ?? 0, y: token.y ?? 0 }, size);
}

/** Distance in feet (scene units) between two tokens, centre to centre, by the scene's grid rules (seed 001). */
export function distanceBetween(a: TokenLike, b: TokenLike): number {
  return gridOf(a).measure(tokenCenter(a), tokenCenter(b));
}

/**
 * The straight path a charger takes to its target: from the charger's
 * centre to the centre of the nearest position where the charger's
 * footprint touches the target's (adjacent squares, diagonals included, the
 * melee range), measured by the scene's grid.
 */
export interface ChargePath {
  /** Feet from the start to the end: the gap the charger must close (0: already touching). */
  distance: number;
  /** The token's position (top-left, pixels) at the start, at each grid space along the path, and at the end. */
  waypoints: Point[];
  /** Feet from the start to each waypoint (same length as waypoints; the last is `distance`). */
  feet: number[];
  /** Walked as a straight line, not square by square (gridless and hexagonal scenes). */
  line?: boolean;
}

function overlaps(a: Footprint, b: Footprint): boolean {
  return a.col < b.col + b.w && a.col + a.w > b.col && a.row < b.row + b.h && a.row + a.h > b.row;
}

/**
 * The charger's path to its target. `others`: the scene's other tokens; a
 * free square beside the target is preferred to one another token holds
 * (two chargers at one target do not end on the same square).
 */
export function chargePath(charger: TokenLike, target: TokenLike, others: readonly TokenLike[] = []): ChargePath {
  const g = gridOf(charger);
  const start: Point = { x: charger.x ?? 0, y: charger.y ?? 0 };
  const from = centreAt(charger, start, g.size);
  if (!g.square) return straightPath(charger, target, g, start, from);
  const c = footprintOf(charger, g.size);
  const t = footprintOf(target, g.size);
  if (!overlaps(c, t) && touches(c, t)) {
    return { distance: 0, waypoints: [start], feet: [0] };
  }
  const held = others
    .filter((o) => o !== charger && o !== target && !(o.id && (o.id === charger.id || o.id === target.id)))
    .map((o) => footprintOf(o, g.size));
  // Every position touching the target's footprint without overlapping it; the nearest by the grid, then the straightest.
  let best: { col: number; row: number; key: number[] } | null = null;
  for (let col = t.col - c.w; col <= t.col + t.w; col++) {
    for (let row = t.row - c.h; row <= t.row + t.h; row++) {
      const box = { col, row, w: c.w, h: c.h };
      if (overlaps(box, t)) continue;
      const at = { x: start.x + (col - c.col) * g.size, y: start.y + (row - c.row) * g.size };
      const centre = centreAt(charger, at, g.size);
      const key = [held.some((o) => overlaps(box, o)) ? 1 : 0, g.measure(from, centre), (centre.x - from.x) ** 2 + (centre.y - from.y) ** 2];
      if (!best || less(key, best.key)) best = { col, row, key };
    }
  }
  // A straight line of grid spaces to the best position.
  const waypoints: Point[] = [start];
  const feet: number[] = [0];
  for (const sq of lineOfSquares(c, { ...c, col: best!.col, row: best!.row })) {
    const at = { x: start.x + (sq.col - c.col) * g.size, y: start.y + (sq.row - c.row) * g.size };
    waypoints.push(at);
    feet.push(g.measure(from, centreAt(charger, at, g.size)));
  }
  return { distance: feet[feet.length - 1], waypoints, feet };
}

function less(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** Gridless (and hexagonal) scenes: the straight line from centre to centre, stopping where the two footprints touch. */
function straightPath(charger: TokenLike, target: TokenLike, g: Grid, start: Point, from: Point): ChargePath {
  const to = tokenCenter(target);
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const halfW = (((charger.width ?? 1) + (target.width ?? 1)) * g.size) / 2;
  const halfH = (((charger.height ?? 1) + (target.height ?? 1)) * g.size) / 2;
  const s = Math.max(Math.abs(dx) / halfW, Math.abs(dy) / halfH);
  if (s <= 1) return { distance: 0, waypoints: [start], feet: [0] };
  const f = 1 - 1 / s;
  const end = { x: Math.round(start.x + dx * f), y: Math.round(start.y + dy * f) };
  const distance = g.measure(from, centreAt(charger, end, g.size));
  return { distance, waypoints: [start, end], feet: [0, distance], line: true };
}

/**
 * Where the charger stands after `feet` of its path: on a square grid the
 * last grid space along it reached within `feet` (a token stands on a
 * square); gridless, the point that far along the line. Past the end: the end.
 */
export function pointAlong(path: ChargePath, feet: number): Point {
  const { waypoints, feet: at } = path;
  const last = waypoints.length - 1;
  if (feet >= at[last]) return waypoints[last];
  if (path.line && last === 1 && at[1] > 0) {
    const f = Math.max(0, feet) / at[1];
    return { x: Math.round(waypoints[0].x + (waypoints[1].x - waypoints[0].x) * f), y: Math.round(waypoints[0].y + (waypoints[1].y - waypoints[0].y) * f) };
  }
  let k = 0;
  while (k < last && at[k + 1] <= feet + 1e-9) k++;
  return waypoints[k];
}

/** The gap a charger must close to reach a target: the length of its charge path (adjacent = 0). */
export function gapBetween(a: TokenLike, b: TokenLike, others: readonly TokenLike[] = []): number {
  return chargePath(a, b, others).distance;
}

/** Can this token swing a weapon needing `spaceFeet`, given the other tokens on its scene? */
export function weaponUsableAt(token: TokenLike, others: readonly TokenLike[], spaceFeet: number): boolean {
  const { size } = gridOf(token);
  const occupied: Square[] = [];
  for (const o of others) {
    if (o === token || (o.id && o.id === token.id)) continue;
    const s = footprintOf(o, size);
    for (let dc = 0; dc < s.w; dc++) for (let dr = 0; dr < s.h; dr++) occupied.push({ col: s.col + dc, row: s.row + dr });
  }
  return canUseWeaponHere(spaceFeet, footprintOf(token, size), occupied);
}
