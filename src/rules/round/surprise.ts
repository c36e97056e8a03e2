/**
 * The d6 surprise of seeds 000 and 004, shared by the procedures that count
 * surprise in segments: a side is surprised for as many segments as its die
 * shows when the die is within its surprise range (1-2, widened by a member
 * who is "surprised on 1-3" or an opponent who "surprises on 1-3"); a
 * combatant's reaction adjustment removes segments, a penalty adds them, only
 * where its side is surprised (README ruling: dexterity cannot create surprise).
 */
import type { Dice } from '../dice';
import type { Encounter, SurpriseResult } from '../procedure';
import { sideSurpriseModifier } from '../model';

/** Each side's d6, except alerted sides and sides whose members are all never surprised. */
export function rollD6SideSurprise(encounter: Encounter, dice: Dice, round = 0): Record<string, number> {
  const rolls: Record<string, number> = {};
  const members = new Map<string, { count: number; neverSurprised: number }>();
  for (const c of encounter.combatants) {
    const m = members.get(c.side) ?? { count: 0, neverSurprised: 0 };
    m.count += 1;
    if (c.neverSurprised) m.neverSurprised += 1;
    members.set(c.side, m);
  }
  for (const side of encounter.sides) {
    const m = members.get(side.id);
    if (side.alerted || !m || m.count === m.neverSurprised) continue;
    rolls[side.id] = dice.roll({ purpose: 'surprise', count: 1, faces: 6, side: side.id, round });
  }
  return rolls;
}

/**
 * The surprise range each side is subject to: its own (the widest of its
 * members' surprisedOn, at least `base`), widened by the best surpriser among
 * its opponents, then moved by the situation's modifier the GM gives the side
 * (`Side.surpriseModifier`, never below 0). One pass over the combatants,
 * whatever the number of sides.
 */
export function surpriseRanges(encounter: Encounter, base = 2): Map<string, number> {
  const own = new Map<string, number>();
  const imposed = new Map<string, number>();
  for (const c of encounter.combatants) {
    own.set(c.side, Math.max(own.get(c.side) ?? base, c.surprisedOn ?? 0));
    imposed.set(c.side, Math.max(imposed.get(c.side) ?? 0, c.surprisesOn ?? 0));
  }
  let best: [string | null, number] = [null, 0];
  let second = 0;
  for (const [side, v] of imposed) {
    if (v > best[1]) {
      second = best[1];
      best = [side, v];
    } else if (v > second) second = v;
  }
  const out = new Map<string, number>();
  for (const side of encounter.sides) {
    const fromOpponents = best[0] === side.id ? second : best[1];
    out.set(side.id, Math.max(0, Math.max(own.get(side.id) ?? base, fromOpponents) + sideSurpriseModifier(side)));
  }
  return out;
}

export function surpriseRange(encounter: Encounter, sideId: string, base = 2): number {
  return surpriseRanges(encounter, base).get(sideId) ?? base;
}

/** Per-combatant surprise segments from the side rolls. */
export function d6SurpriseSegments(encounter: Encounter, rolls: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  const ranges = surpriseRanges(encounter);
  for (const c of encounter.combatants) {
    const roll = rolls[c.side];
    const range = ranges.get(c.side) ?? 2;
    const side = roll !== undefined && roll <= range ? roll : 0;
    out[c.id] = c.neverSurprised || side === 0 ? 0 : Math.max(0, side - (c.surpriseAdjustment ?? 0));
  }
  return out;
}

export function noSurprise(encounter: Encounter, unit: SurpriseResult['unit']): SurpriseResult {
  const surprised: Record<string, number> = {};
  for (const c of encounter.combatants) surprised[c.id] = 0;
  return { rolls: {}, surprised, unit };
}
