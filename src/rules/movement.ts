/**
 * Movement on the map during a round (issue 13). The documents layer measures
 * a token's move (MoveMeasure: feet, and the opponents' melee ranges the path
 * passed through) and sends it as the flow's `moved` input
 * (flow/transitions.ts); the procedure's movement rules
 * (Procedure.movement, in each procedure's own file) say what the round
 * allows and who may now attack the mover out of turn. Pure: no Foundry.
 */
import type { Combatant, CombatantState, Declaration } from './model';
import type { ProcedureOptions } from './procedure';
import type { FlowState } from './flow/state';
import { SEGMENTS_PER_ROUND } from './model';
import { standardRateFeet } from './encumbrance';
import { addictChargeStart, chargeMovementOf, encounterDistanceOf, CHARGE_FALLS_SHORT } from './procedures/addict-charge';

/**
 * An opponent whose melee range the path passed through. `c`: its combatant
 * id; `feet`: feet moved starting from squares within that range;
 * `startIn` / `endIn`: the move began / ended within it. Melee range: the two
 * tokens' footprints touch or overlap (adjacent squares, diagonals included).
 */
export interface ReachPassed {
  c: string;
  feet: number;
  startIn: boolean;
  endIn: boolean;
}

/** A move as the map measured it: feet along the path, and the melee ranges it passed through. */
export interface MoveMeasure {
  feet: number;
  reach?: ReachPassed[];
}

/** The GM's ruling on a move beyond what the round allows: let it stand, or let it stand and the mover gives up its action. */
export type MoveRuling = 'allow' | 'forfeit';

/** The attack a move provokes: an attack of opportunity (d12-ascending) or a free attack (high-low). */
export type ProvokedGrant = 'opportunity' | 'free-attack';

/** Who may now attack the mover out of turn, and why (`reason`: a key under TENSEG.Reason). */
export interface Provoked {
  by: string;
  grant: ProvokedGrant;
  reason: string;
}

/** A move recorded this round (FlowState.moves), in the step being played then. */
export interface FlowMove {
  c: string;
  feet: number;
  step: number;
  reach?: ReachPassed[];
  ruling?: MoveRuling;
  /** Feet the round allowed it when it moved, where the procedure gives a limit. */
  allowance?: number;
  provoked: Provoked[];
}

/** What a procedure's movement rules are told about one move. */
export interface MovementQuery<O extends ProcedureOptions = ProcedureOptions> {
  combatant: Combatant;
  state: CombatantState;
  /** Its action this round (its declaration, or the action a held one was released as). */
  declaration?: Declaration;
  move: MoveMeasure;
  /** Its own moves earlier this round. */
  earlier: readonly FlowMove[];
  /** One of its entries acted (or began a casting) in a step played so far this round, the current one included. */
  acted: boolean;
  /** A casting of its own is under way now (begun, or carried in, and not yet gone off or stopped). */
  casting: boolean;
  /** Opponents (another side, still in the combat and able to act), by id. */
  opponents: ReadonlyMap<string, Combatant>;
  options: O;
}

/**
 * What the procedure decides: the feet the round allows it (absent: the text
 * gives no limit, the GM's), `beyond`: why this move goes past what is
 * allowed (a key suffix under TENSEG.Movement.Why), and the attacks it provokes.
 */
export interface MovementVerdict {
  allowance?: number;
  beyond?: string;
  provoked: Provoked[];
}

/** A procedure's movement rules (Procedure.movement); absent: movement is the GM's, recorded only. */
export interface MovementRules<O extends ProcedureOptions = ProcedureOptions> {
  check(query: MovementQuery<O>): MovementVerdict;
}

/** A finite number of feet, else 0; never negative. */
export function feetOf(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/** Feet moved in `moves` (this round's, one combatant's). */
export function movedFeet(moves: readonly FlowMove[]): number {
  let n = 0;
  for (const m of moves) n += feetOf(m.feet);
  return n;
}

/** Feet moved within `opponent`'s melee range over `moves` and `now`. */
export function feetWithin(opponent: string, moves: readonly FlowMove[], now?: MoveMeasure): number {
  let n = 0;
  for (const m of moves) for (const r of m.reach ?? []) if (r.c === opponent) n += feetOf(r.feet);
  for (const r of now?.reach ?? []) if (r.c === opponent) n += feetOf(r.feet);
  return n;
}

/** Has `by` already been provoked by this combatant's earlier moves this round, for this grant? */
export function provokedBefore(moves: readonly FlowMove[], by: string, grant: ProvokedGrant): boolean {
  return moves.some((m) => m.provoked.some((p) => p.by === by && p.grant === grant));
}

/** Is a ReachPassed well formed? */
function reachOk(r: unknown): r is ReachPassed {
  if (!r || typeof r !== 'object') return false;
  const x = r as ReachPassed;
  return typeof x.c === 'string' && typeof x.feet === 'number' && Number.isFinite(x.feet) && x.feet >= 0 && typeof x.startIn === 'boolean' && typeof x.endIn === 'boolean';
}

/** Is a move's measure well formed (feet a finite number ≥ 0, reach a list of ReachPassed)? */
export function moveMeasureOk(m: { feet?: unknown; reach?: unknown }): boolean {
  if (typeof m.feet !== 'number' || !Number.isFinite(m.feet) || m.feet < 0) return false;
  if (m.reach === undefined) return true;
  return Array.isArray(m.reach) && m.reach.every(reachOk);
}

/* charges */

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
    const addict = state.procedure === 'addict';
    const path = feet(decl.distance) ?? (addict ? encounterDistanceOf(state.encounter) : undefined) ?? 0;
    // A charger that could not act when its charge came (down before it) does not arrive.
    const acted = arrive >= 0 && steps[arrive].entries.every((e, i) => e.combatant !== c.id || e.kind !== 'action' || state.outcomes[arrive]?.[i] !== 'cannot-act');
    const p: ChargeProgress = { c: c.id, path, moved: 0, arrived: acted && arrive <= last, short: false };
    if (decl.target !== undefined) p.target = decl.target;
    if (addict) {
      const perSegment = (chargeMovementOf(c, { chargeOutdoors: state.options.chargeOutdoors === true }) ?? 0) / SEGMENTS_PER_ROUND;
      const length = feet((decl.weapon ?? c.weapon)?.length) ?? 1;
      const stop = Math.max(0, path - length);
      const start = addictChargeStart(state, decl, c);
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
