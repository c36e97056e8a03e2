/**
 * The few pure parts of addict's charge (seed 004, footnotes 9 and 19) and
 * timing, apart from addict.ts only as a reading aid: addict.ts uses and
 * re-exports them, and gives the charge's progress on the map (charges.ts)
 * what it needs through its procedure (Procedure.chargeTiming), so this is
 * in addict's chunk alone.
 */
import type { Combatant, Declaration } from '../model';
import { SECONDS_PER_SEGMENT } from '../model';
import type { ChargeStartQuery, Encounter } from '../procedure';
import { sideTimings, type SideTiming } from '../round/sides';

/** Options that shape a charge (addict's AddictOptions.chargeOutdoors). */
type ChargeOptions = { chargeOutdoors: boolean };

/** Where a member of a side acts: its side's segment after `hesitation` segments, once free of a casting at segment `free`. */
export function chargeFirstSegment(t: Pick<SideTiming, 'segment'>, hesitation: number, free: number): number {
  return Math.max(t.segment + hesitation, free);
}

/**
 * "For every full 6 seconds of real-life delay, the DM notes that the
 * character will delay 1 segment": segments as the GM noted them
 * (`hesitation`), or the seconds the table timed (`hesitationSeconds`),
 * floor(s / 6). Footnote 10 (asking the DM does not count) is the timer's.
 */
export function hesitationOf(decl: Pick<Declaration, 'hesitation' | 'hesitationSeconds'>): number {
  const h = decl.hesitation;
  if (typeof h === 'number' && Number.isInteger(h) && h > 0) return h;
  const s = decl.hesitationSeconds;
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? Math.floor(s / SECONDS_PER_SEGMENT) : 0;
}

/** Charge movement per round in feet: the combatant's own, else MV +100% indoors / +33.33% outdoors (footnote 9). */
export function chargeMovementOf(c: Combatant, options: ChargeOptions): number | undefined {
  if (typeof c.chargeMovement === 'number' && Number.isFinite(c.chargeMovement)) return c.chargeMovement;
  if (typeof c.movement === 'number' && Number.isFinite(c.movement)) return c.movement * (options.chargeOutdoors ? 4 / 3 : 2);
  return undefined;
}

/** The encounter distance (phase 3) when the GM has recorded one: feet, a finite number of 0 or more. */
export function encounterDistanceOf(encounter: Encounter | undefined): number | undefined {
  const d = encounter?.distance;
  return typeof d === 'number' && Number.isFinite(d) && d >= 0 ? d : undefined;
}

/**
 * The reason of the entry a charge that does not arrive this round gets in
 * the round's last segment (footnote 19: it "must end the segment at a
 * distance equal to or less than their weapon length in order to attack"; it
 * never does this round). It does not attack (flow/attack.ts); rules revision
 * 3 on (flow/state.ts).
 */
export const CHARGE_FALLS_SHORT = 'addictChargeFallsShort';

/**
 * Where a charger starts moving this round (footnote 19: "moves 1/10th of
 * their charge MV every segment"): the segment its action is placed from,
 * as planRound / planSurprise place it (its side's segment and its
 * hesitation, or its first surprise segment; not before a casting carried in
 * goes off). Undefined when there is no round planned.
 */
export function addictChargeStart(
  q: ChargeStartQuery,
  decl: Declaration,
  c: Combatant,
): number | undefined {
  const h = hesitationOf(decl);
  if (q.round === 0) return (q.surprise.surprised[c.id] ?? 0) + 1 + h;
  const ini = q.schedule?.initiative ?? q.initiative;
  if (!ini) return undefined;
  let free = 0;
  for (const k of q.schedule?.castings ?? []) {
    if (k.caster !== c.id || k.beganRound >= q.round || k.completeStep === null) continue;
    free = Math.max(free, q.schedule?.steps[k.completeStep]?.segment ?? 0);
  }
  return chargeFirstSegment(sideTimings(ini.sides).of(c.side), h, free);
}
