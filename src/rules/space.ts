/**
 * Space on a grid (seed 001, "When using a grid or battle map…"): squares of
 * 5 ft, distance measured centre to centre, and weapons that need room.
 */

/** "Any weapon requiring more than 4-ft. of space to use requires at least one open adjacent square." */
export const SPACE_WITHOUT_OPEN_SQUARE = 4;

export function needsOpenSquare(spaceFeet: number | undefined): boolean {
  return (spaceFeet ?? 0) > SPACE_WITHOUT_OPEN_SQUARE;
}

export interface Square {
  col: number;
  row: number;
}

/** The eight squares around one. */
export function adjacentSquares(at: Square): Square[] {
  const out: Square[] = [];
  for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) if (dr || dc) out.push({ col: at.col + dc, row: at.row + dr });
  return out;
}

/**
 * Can a weapon needing `spaceFeet` be used from `at`? Yes if it needs 4 ft or
 * less; otherwise only with an adjacent square that no creature occupies
 * ("could make a weapon unusable if attacked by many enemies").
 */
export function canUseWeaponHere(spaceFeet: number | undefined, at: Square, occupied: readonly Square[]): boolean {
  if (!needsOpenSquare(spaceFeet)) return true;
  const taken = new Set(occupied.map((s) => `${s.col},${s.row}`));
  return adjacentSquares(at).some((s) => !taken.has(`${s.col},${s.row}`));
}
