/**
 * "The nearest foe" of the odds (README, How a trial is played): counted in
 * grid squares, the larger of the two differences (a diagonal step is one
 * square); where either has no position, or on a tie, the first in the
 * given order. The trials (trial.ts) and the Foundry setup
 * (src/documents/odds-setup.ts) both ask it.
 */
export interface Position {
  x: number;
  y: number;
}

/** The nearest of `list` to `from` among those `accept` takes (no allocation: the trials ask it on every attack). */
export function nearest<T>(from: Position | undefined, list: readonly T[], accept: (c: T) => boolean, positionOf: (c: T) => Position | undefined): T | undefined {
  let best: T | undefined;
  let bestD = Infinity;
  for (const c of list) {
    if (!accept(c)) continue;
    const to = positionOf(c);
    const d = from && to ? Math.max(Math.abs(from.x - to.x), Math.abs(from.y - to.y)) : Number.MAX_SAFE_INTEGER;
    if (best === undefined || d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}
