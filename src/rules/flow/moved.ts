/**
 * The `moved` input: a token moved on the map while a round is played, as
 * the GM's client measured it (movement.ts MoveMeasure). It is held to the
 * procedure's movement rules (Procedure.movement) and recorded in
 * `state.moves`, one small record a move:
 *  - only while the round's steps are played (MoveNotDuringRound);
 *  - within what the declaration and procedure allow: recorded;
 *  - beyond it, without the GM's ruling: refused (MoveBeyondAllowance, data
 *    { name, feet, allowance, why }; `why` a key suffix under
 *    TENSEG.Movement.Why), nothing recorded;
 *  - ruling 'allow': recorded as is; 'forfeit': recorded, and the mover gives
 *    up its action for the rest of the round: its entries in later steps
 *    cannot act (reason `movedForfeit`), its attacks are refused
 *    (ActionForfeited, flow/attack.ts), its casting under way is broken
 *    (FlowInterruption.broken 'moved': interrupted where it would be lost,
 *    else prevented) and one not begun yet is prevented.
 * What a move provokes (the procedure's answer) is recorded with it; the
 * attack itself is the ordinary `attack` input, which the procedure's
 * AttackRules.outOfTurn grants from it (OutOfTurnQuery.provoked).
 */
import type { Problem } from '../model';
import { RulesError } from '../model';
import type { Procedure, ProcedureOptions } from '../procedure';
import { feetOf, movedFeet, type FlowMove, type MoveRuling, type MovementVerdict, type Provoked, type ReachPassed } from '../movement';
import { combatantOf, nameOf, type FlowInterruption, type FlowState } from './state';
import type { Applied } from './transitions';

type P = Procedure<ProcedureOptions>;

/** Is a ReachPassed well formed? */
function reachOk(r: unknown): r is ReachPassed {
  if (!r || typeof r !== 'object') return false;
  const x = r as ReachPassed;
  return typeof x.c === 'string' && typeof x.feet === 'number' && Number.isFinite(x.feet) && x.feet >= 0 && typeof x.startIn === 'boolean' && typeof x.endIn === 'boolean';
}

/**
 * Is a move's measure well formed (feet a finite number ≥ 0, reach a list of ReachPassed)? Here,
 * with the input's checks, not in movement.ts: the procedures' chunk does not carry it.
 */
export function moveMeasureOk(m: { feet?: unknown; reach?: unknown }): boolean {
  if (typeof m.feet !== 'number' || !Number.isFinite(m.feet) || m.feet < 0) return false;
  if (m.reach === undefined) return true;
  return Array.isArray(m.reach) && m.reach.every(reachOk);
}

/** This round's moves of one combatant. */
export function movesOf(state: FlowState, id: string): FlowMove[] {
  return (state.moves ?? []).filter((m) => m.c === id);
}

/** A token moved (feet along its path, the opponents' melee ranges passed) and, for a move beyond the allowance, the GM's ruling. */
export interface MovedInput {
  t: 'moved';
  c: string;
  feet: number;
  reach?: ReachPassed[];
  ruling?: MoveRuling;
}

/** What a move recorded: feet, feet this round so far, the allowance where the procedure gives one, who may now attack the mover and why. */
export interface MovedDetail {
  c: string;
  feet: number;
  total: number;
  allowance?: number;
  provoked: Provoked[];
}

function refuse(key: string, data?: Record<string, string | number>): { ok: false; problem: Problem } {
  return { ok: false, problem: data ? { key, data } : { key } };
}

/**
 * Has it taken its action yet this round: an entry of an earlier step acted (or began or completed a casting), a
 * casting of its began or went off in the step being played, or it made an attack this round. An attack entry of the
 * step being played has not acted until its attack is made.
 */
function actedThisRound(state: FlowState, id: string): boolean {
  const steps = state.schedule?.steps ?? [];
  if (state.attacks?.some((a) => a.c === id)) return true;
  for (let k = 0; k <= state.step && k < steps.length; k++) {
    const outcomes = state.outcomes[k] ?? [];
    const done = (o: string | undefined) => o === 'begins' || o === 'goes-off' || (k < state.step && o === 'acts');
    if (steps[k].entries.some((e, i) => e.combatant === id && done(outcomes[i]))) return true;
  }
  return false;
}

/** A casting of its own under way at the step being played: pending, begun (or carried in), not gone off. */
function castingUnderWay(state: FlowState, id: string): boolean {
  const k = state.step;
  return (state.schedule?.castings ?? []).some(
    (c) => c.caster === id && (state.status[c.id] ?? 'pending') === 'pending' && c.beginStep <= k && (c.completeStep === null || k < c.completeStep),
  );
}

function malformed(input: MovedInput): boolean {
  return (
    !input ||
    typeof input !== 'object' ||
    typeof input.c !== 'string' ||
    !moveMeasureOk(input) ||
    (input.ruling !== undefined && input.ruling !== 'allow' && input.ruling !== 'forfeit')
  );
}

/**
 * The mover gives up its action for the rest of the round: its entries in
 * later steps are marked (reason movedForfeit; flow/step.ts openStep lets them
 * not act), its castings still pending are broken with cause 'moved'.
 */
function forfeit(state: FlowState, id: string): FlowInterruption[] {
  const schedule = state.schedule;
  if (!schedule) return [];
  const k = state.step;
  for (let j = k + 1; j < schedule.steps.length; j++) for (const e of schedule.steps[j].entries) if (e.combatant === id) e.reason = 'movedForfeit';
  const out: FlowInterruption[] = [];
  for (const casting of schedule.castings) {
    if (casting.caster !== id || (state.status[casting.id] ?? 'pending') !== 'pending') continue;
    if (casting.completeStep !== null && k >= casting.completeStep) continue;
    const lost = !casting.device && casting.beginStep <= k && k >= casting.lossFrom;
    const outcome: FlowInterruption['outcome'] = lost ? 'interrupted' : 'prevented';
    const expended = lost && casting.expends;
    state.status[casting.id] = outcome;
    if (expended) state.states[id].expended.push(casting.spell);
    const record: FlowInterruption = { round: state.round, step: k, casting: casting.id, caster: id, spell: casting.spell, outcome, expended, broken: 'moved' };
    state.interruptions.push(record);
    out.push(record);
  }
  return out;
}

/** Check and record a move (see the file's comment). */
export function applyMoved(state: FlowState, input: MovedInput, procedure: P): Applied {
  if (malformed(input)) return refuse('MalformedRequest');
  const c = combatantOf(state, input.c);
  if (!c || !state.states[c.id]) return refuse('UnknownCombatant', { id: input.c });
  const name = nameOf(state, c.id);
  if (state.stage !== 'resolve' || !state.schedule?.steps[state.step]) return refuse('MoveNotDuringRound', { name });
  const earlier = movesOf(state, c.id);
  const release = state.midRound?.find((r) => r.t === 'release' && r.c === c.id);
  const declaration = release?.t === 'release' ? release.d : state.declarations[c.id];
  const opponents = new Map(
    state.encounter.combatants
      .filter((o) => o.id !== c.id && o.side !== c.side && state.states[o.id] !== undefined && procedure.canAct(state.states[o.id]))
      .map((o) => [o.id, o] as const),
  );
  const move = { feet: input.feet, ...(input.reach ? { reach: input.reach } : {}) };
  let verdict: MovementVerdict = { provoked: [] };
  if (procedure.movement) {
    const rules = procedure.movement;
    try {
      verdict = rules.check({
        combatant: c,
        state: state.states[c.id],
        ...(declaration ? { declaration } : {}),
        move,
        earlier,
        acted: actedThisRound(state, c.id),
        casting: castingUnderWay(state, c.id),
        opponents,
        options: state.options,
      });
    } catch (err) {
      if (err instanceof RulesError) return { ok: false, problem: err.problem };
      throw err;
    }
  }
  const total = movedFeet(earlier) + feetOf(input.feet);
  if (verdict.beyond !== undefined && input.ruling === undefined) {
    return refuse('MoveBeyondAllowance', { name, feet: total, allowance: verdict.allowance ?? 0, why: verdict.beyond });
  }
  const provoked = verdict.provoked.filter((p) => opponents.has(p.by));
  const record: FlowMove = { c: c.id, feet: input.feet, step: state.step, provoked };
  if (input.reach && input.reach.length > 0) record.reach = input.reach.map((r) => ({ ...r }));
  if (input.ruling !== undefined) record.ruling = input.ruling;
  if (verdict.allowance !== undefined) record.allowance = verdict.allowance;
  (state.moves ??= []).push(record);
  const moved: MovedDetail = { c: c.id, feet: input.feet, total, provoked: provoked.map((p) => ({ ...p })) };
  if (verdict.allowance !== undefined) moved.allowance = verdict.allowance;
  const interruptions = input.ruling === 'forfeit' ? forfeit(state, c.id) : [];
  return { ok: true, detail: interruptions.length > 0 ? { moved, interruptions } : { moved } };
}
