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
