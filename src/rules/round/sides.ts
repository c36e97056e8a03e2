/**
 * Side initiative, shared by the procedures that roll a die per side: who
 * rolls, who wins, and seed 000's timing, "each party acts in the segment
 * indicated by the other party's die roll" (README ruling: with more than two
 * sides, the highest die of any opposing side).
 */
import type { Dice } from '../dice';
import type { Combatant } from '../model';
import type { Encounter } from '../procedure';

/**
 * One die per side that has a member `able` to act, in the encounter's order
 * of sides; sides with nobody able do not roll. The scan of combatants stops
 * once every side has been found able.
 */
export function rollSideDice(
  encounter: Encounter,
  dice: Dice,
  roll: { faces: number; round: number },
  able: (c: Combatant) => boolean,
): Record<string, number> {
  const waiting = new Set<string>();
  for (const s of encounter.sides) waiting.add(s.id);
  const found = new Set<string>();
  for (const c of encounter.combatants) {
    if (found.size === waiting.size) break;
    if (waiting.has(c.side) && !found.has(c.side) && able(c)) found.add(c.side);
  }
  const sides: Record<string, number> = {};
  for (const s of encounter.sides) {
    if (found.has(s.id) && sides[s.id] === undefined) {
      sides[s.id] = dice.roll({ purpose: 'initiative', count: 1, faces: roll.faces, side: s.id, round: roll.round });
    }
  }
  return sides;
}

/**
 * The side holding the best value alone (highest, or lowest with `lowest`),
 * or null on a tie for best, or when fewer than `atLeast` sides rolled.
 */
export function winnerOf(values: Record<string, number>, opts: { lowest?: boolean; atLeast?: number } = {}): string | null {
  let winner: string | null = null;
  let best = opts.lowest ? Infinity : -Infinity;
  let count = 0;
  let rolled = 0;
  for (const id of Object.keys(values)) {
    const v = values[id];
    rolled++;
    if (opts.lowest ? v < best : v > best) {
      best = v;
      winner = id;
      count = 1;
    } else if (v === best) count++;
  }
  return count === 1 && rolled >= (opts.atLeast ?? 1) ? winner : null;
}

/** The highest value, how many hold it, and the next highest. */
interface TopTwo {
  first: number;
  count: number;
  second: number;
}

function topTwo(values: readonly number[]): TopTwo {
  let first = -Infinity;
  let count = 0;
  let second = -Infinity;
  for (const v of values) {
    if (v > first) {
      second = first;
      first = v;
      count = 1;
    } else if (v === first) {
      count++;
      second = v;
    } else if (v > second) second = v;
  }
  return { first, count, second };
}

/** The highest of the values other than one holder's own. */
function highestOther(t: TopTwo, own: number): number {
  return own === t.first && t.count === 1 ? t.second : t.first;
}

/** When a side acts, from the dice. */
export interface SideTiming {
  /** The segment of the highest opposing die (1 when no opposing side rolled). */
  segment: number;
  /** The latest segment of any opposing side that rolled, or the side's own when none did. */
  otherSegment: number;
  /** Place of its die among the distinct dice, highest first (0 = the best); a side without a die comes last. */
  rank: number;
  /** Another side rolled the same die. */
  tied: boolean;
}

export interface SideTimings {
  /** Ranks run from 0 to ranks − 1. */
  ranks: number;
  of(side: string): SideTiming;
}

/**
 * Each side's timing from the dice it rolled (values that are not finite are
 * ignored). A side that did not roll acts in the segment of the highest die,
 * after every side that did.
 */
export function sideTimings(rolled: Record<string, number>): SideTimings {
  const ids: string[] = [];
  const dice: number[] = [];
  for (const id of Object.keys(rolled)) {
    const die = rolled[id];
    if (typeof die !== 'number' || !Number.isFinite(die)) continue;
    ids.push(id);
    dice.push(die);
  }
  const dieTop = topTwo(dice);
  const segments = dice.map((die) => {
    const other = highestOther(dieTop, die);
    return Number.isFinite(other) ? other : 1;
  });
  const segmentTop = topTwo(segments);
  const distinct = [...new Set(dice)].sort((a, b) => b - a);
  const rankOf = new Map(distinct.map((d, i) => [d, i]));
  const holders = new Map<number, number>();
  for (const d of dice) holders.set(d, (holders.get(d) ?? 0) + 1);
  const bySide = new Map<string, SideTiming>();
  ids.forEach((id, i) => {
    const other = highestOther(segmentTop, segments[i]);
    bySide.set(id, {
      segment: segments[i],
      otherSegment: Number.isFinite(other) ? other : segments[i],
      rank: rankOf.get(dice[i]) as number,
      tied: (holders.get(dice[i]) as number) > 1,
    });
  });
  const noDieSegment = Number.isFinite(dieTop.first) ? dieTop.first : 1;
  const noDie: SideTiming = {
    segment: noDieSegment,
    otherSegment: Number.isFinite(segmentTop.first) ? segmentTop.first : noDieSegment,
    rank: distinct.length,
    tied: false,
  };
  return { ranks: distinct.length + 1, of: (side) => bySide.get(side) ?? noDie };
}
