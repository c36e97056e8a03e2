/**
 * Charges on the map (issue 13): how far each charger has come by the end of
 * a step (seed 004 footnote 19 under addict; elsewhere at the step the charge
 * acts), and the timeline's lines for it. A part of the engine loaded with the
 * first charge declared (parts.ts): the timeline shows no progress until then.
 */
import type { Declaration } from './model';
import type { FlowState } from './flow/state';
import { SEGMENTS_PER_ROUND } from './model';
import { nameOf } from './flow/state';
import { standardRateFeet } from './encumbrance';
import { getProcedure, isLoaded } from './registry';

/**
 * A charge declared this round and how far its charger has come by the end
 * of the step being played (chargeProgress). Feet throughout.
 *  - `path`: the declaration's `distance` (addict: else the encounter
 *    distance, phase 3), 0 when neither is known;
 *  - `moved`: feet of it covered so far;
 *  - `arrived`: it attacks in this step or an earlier one;
 *  - `short`: the round ends before it arrives (addict's CHARGE_FALLS_SHORT
 *    entry; d12-ascending's charge too far for its movement, III.D).
 */
export interface ChargeProgress {
  c: string;
  target?: string;
  path: number;
  moved: number;
  arrived: boolean;
  short: boolean;
}

/** The reason d12-ascending gives a charge farther than its movement (III.D: it moves, and does not attack). */
const D12_CHARGE_TOO_FAR = 'd12ChargeTooFar';

/** The reason addict gives a charge that does not arrive this round (addict-charge.ts CHARGE_FALLS_SHORT, footnote 19). */
const CHARGE_FALLS_SHORT = 'addictChargeFallsShort';

const feet = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined);

/**
 * For each charge declared this round (the encounter's order), how many feet
 * of its path its charger has covered by the end of the step being played
 * (every step once the round is over). Empty while no round is planned.
 *  - addict, footnote 19: "the charger moves 1/10th of their charge MV every
 *    segment, and … must end the segment at a distance equal to or less than
 *    their weapon length in order to attack": 1/10 of its charge movement
 *    (footnote 9) per segment from the segment it starts in (its side's,
 *    with its hesitation), never past the point where the gap left is its
 *    weapon length (no length: 1 ft, as the plan reads it).
 *  - every other procedure (a charge is one action: high-low's fast action,
 *    segment-d6's and d12-ascending's entries): nothing before the step
 *    where the charge acts, then all of its path; d12-ascending III.D, a
 *    charge farther than its movement: its movement, from the step it moves.
 */
export function chargeProgress(state: FlowState): ChargeProgress[] {
  return chargeProgressAt(state, state.stage === 'end-of-round' ? Infinity : state.step);
}

/** chargeProgress at the end of step `k` of the round's schedule (Infinity: the whole round). */
export function chargeProgressAt(state: FlowState, k: number): ChargeProgress[] {
  const schedule = state.schedule;
  if (!schedule || state.stage === 'declare') return [];
  const steps = schedule.steps;
  const last = Math.min(k, steps.length - 1);
  const out: ChargeProgress[] = [];
  const timing = state.procedure === 'addict' && isLoaded('addict') ? getProcedure('addict').chargeTiming : undefined;
  for (const c of state.encounter.combatants) {
    const decl: Declaration | undefined = state.declarations[c.id];
    if (!decl || decl.action !== 'charge') continue;
    // Where the schedule puts the charge: its arrival, its falls-short entry, d12-ascending's move instead.
    let arrive = -1;
    let short = -1;
    let tooFar = -1;
    steps.forEach((step, j) => {
      for (const e of step.entries) {
        if (e.combatant !== c.id || e.kind !== 'action') continue;
        if (e.reason === CHARGE_FALLS_SHORT) short = j;
        else if (e.reason === D12_CHARGE_TOO_FAR) tooFar = j;
        else if (e.action === 'charge' && arrive < 0) arrive = j;
      }
    });
    // addict's charge timing (Procedure.chargeTiming, footnotes 9 and 19), from its loaded procedure; its encounter distance (phase 3).
    const addict = timing !== undefined;
    const path = feet(decl.distance) ?? (addict ? feet(state.encounter.distance) : undefined) ?? 0;
    // A charger that could not act when its charge came (down before it) does not arrive.
    const acted = arrive >= 0 && steps[arrive].entries.every((e, i) => e.combatant !== c.id || e.kind !== 'action' || state.outcomes[arrive]?.[i] !== 'cannot-act');
    const p: ChargeProgress = { c: c.id, path, moved: 0, arrived: acted && arrive <= last, short: false };
    if (decl.target !== undefined) p.target = decl.target;
    if (addict) {
      const perSegment = (timing.movement(c, { chargeOutdoors: state.options.chargeOutdoors === true }) ?? 0) / SEGMENTS_PER_ROUND;
      const length = feet((decl.weapon ?? c.weapon)?.length) ?? 1;
      const stop = Math.max(0, path - length);
      const start = timing.start(state, decl, c);
      const lastSegment = steps[steps.length - 1]?.segment ?? SEGMENTS_PER_ROUND;
      // It stops where a blow that leaves it unable to act lands (the rest of that segment is simultaneous).
      const down = state.hits.find((h) => h.target === c.id && h.after !== 'ok' && h.step <= last);
      const at = down ? Math.min(last, down.step) : last;
      const segment = at < 0 ? 0 : (steps[at]?.segment ?? lastSegment);
      if (start !== undefined && segment >= start && perSegment > 0) p.moved = Math.min(stop, perSegment * (segment - start + 1));
      if (p.arrived) p.moved = stop;
      // Falls short: its entry says so (rules revision 3), or, planned before, it never arrives this round.
      p.short = short >= 0 || (arrive < 0 && start !== undefined && start <= lastSegment && perSegment * (lastSegment - start + 1) < stop - 1e-9);
    } else if (tooFar >= 0) {
      p.short = true;
      // As far as d12-ascending's standard rate takes it (its chargeTooFar; rules revision 3, before: the movement as stored).
      const rate = (state.rules ?? 0) >= 3 ? standardRateFeet(c, state.options.encumbrance !== false) : feet(c.movement);
      if (tooFar <= last) p.moved = Math.min(path, rate ?? 0);
    } else if (p.arrived) p.moved = path;
    out.push(p);
  }
  return out;
}

/**
 * A charger's progress at the end of a step, and its text: `key` a
 * localization key (TENSEG.Charge.*: Closing "closing 24 of 60 ft", Arrives,
 * FallsShort "falls short: 12 ft left") with `data` {name, moved, path, left}.
 */
export interface ChargeView {
  combatant: string;
  target?: string;
  path: number;
  moved: number;
  arrived: boolean;
  short: boolean;
  key: 'TENSEG.Charge.Closing' | 'TENSEG.Charge.Arrives' | 'TENSEG.Charge.FallsShort';
  data: { name: string; moved: number; path: number; left: number };
}

const feetText = (n: number): number => Math.round(n * 10) / 10;

/**
 * The chargers whose progress this step changes (or where it arrives or falls
 * short, the round's last step for a charge that never arrives): a step to
 * come only for the viewer's own side.
 */
export function chargeViews(state: FlowState, k: number, played: boolean, mine: (id: string) => boolean, shown: (id: string) => boolean): ChargeView[] {
  if (!state.declarations || !Object.values(state.declarations).some((d) => d.action === 'charge')) return [];
  const now = chargeProgressAt(state, k);
  if (now.length === 0) return [];
  const before = new Map(chargeProgressAt(state, k - 1).map((p) => [p.c, p]));
  const lastStep = (state.schedule?.steps.length ?? 0) - 1;
  const out: ChargeView[] = [];
  for (const p of now) {
    if (!shown(p.c) || (!played && !mine(p.c))) continue;
    const was = before.get(p.c);
    const arrivesHere = p.arrived && !(k > 0 && was?.arrived);
    const shortHere = p.short && k === lastStep;
    if (!arrivesHere && !shortHere && (k > 0 && was ? was.moved === p.moved : p.moved === 0)) continue;
    if (p.arrived && !arrivesHere) continue;
    const key: ChargeView['key'] = arrivesHere ? 'TENSEG.Charge.Arrives' : shortHere ? 'TENSEG.Charge.FallsShort' : 'TENSEG.Charge.Closing';
    const v: ChargeView = {
      combatant: p.c, path: p.path, moved: p.moved, arrived: p.arrived, short: p.short, key,
      data: { name: nameOf(state, p.c), moved: feetText(p.moved), path: feetText(p.path), left: feetText(Math.max(0, p.path - p.moved)) },
    };
    if (p.target !== undefined && shown(p.target)) v.target = p.target;
    out.push(v);
  }
  return out;
}
