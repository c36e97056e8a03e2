/**
 * The flow's Wound Point inputs (individual-speed, seed 003 "Wound Points"
 * and "Critical Hits and Injuries"), carried out through the procedure's
 * WoundRules; a procedure without them refuses both.
 *
 *  - `heal`: "a Dying or Incapacitated creature can be stabilized with a Heal
 *    check at a TN of 10 + the highest damage value of wounds it has": the GM
 *    enters the check's total; the procedure decides the TN and the result.
 *  - `injury`: the GM enters a Combat Injury: a row of a table the text gives
 *    (blunt), or their own words where the text's table is empty (piercing,
 *    slashing … unholy); it completes an injury a critical hit's check left
 *    for the GM to pick.
 *
 * Either may come at any moment of the combat: while a round is declared,
 * played, or ended. Like every input, each checks everything first and
 * changes nothing when it refuses.
 */
import type { Dice } from '../dice';
import type { CombatInjury, DamageType, Problem } from '../model';
import { isDamageType, RulesError } from '../model';
import type { Procedure, ProcedureOptions } from '../procedure';
import type { AttackGranted, AttackInput } from './attack';
import { combatantOf, refuse, type FlowState } from './state';

export type WoundInput =
  /** A Heal check to stabilize a Dying or Incapacitated combatant: the check's total, as the GM reads it. */
  | { t: 'heal'; c: string; total: number }
  /** The GM enters a Combat Injury: a `row` of its type's table where the text gives one, else `text`. */
  | { t: 'injury'; c: string; type?: DamageType; row?: number; side?: 'main' | 'off'; text?: string };

/** What a Wound Point input did. */
export interface WoundDetail {
  heal?: { tn: number; total: number; passed: boolean };
  injury?: CombatInjury;
}

type Applied = { ok: true; detail: WoundDetail } | { ok: false; problem: Problem };

import { INJURY_TEXT_MAX } from './limits';
export { INJURY_TEXT_MAX };

function malformedInjury(input: Extract<WoundInput, { t: 'injury' }>): boolean {
  return (
    (input.type !== undefined && !isDamageType(input.type)) ||
    (input.row !== undefined && !(typeof input.row === 'number' && Number.isInteger(input.row))) ||
    (input.side !== undefined && input.side !== 'main' && input.side !== 'off') ||
    (input.text !== undefined && (typeof input.text !== 'string' || input.text.trim() === '' || input.text.length > INJURY_TEXT_MAX)) ||
    (input.row === undefined && input.text === undefined)
  );
}

/** Carry out a Wound Point input on `state` in place, or refuse it (nothing changed). */
export function applyWoundInput(state: FlowState, input: WoundInput, dice: Dice, procedure: Procedure<ProcedureOptions>): Applied {
  const c = typeof input.c === 'string' ? combatantOf(state, input.c) : undefined;
  if (!c || !state.states[c.id]) return refuse('UnknownCombatant', { id: String(input.c) });
  const rules = procedure.wounds;
  if (!rules) return refuse('WoundRulesNotInProcedure', { procedure: procedure.id });
  try {
    if (input.t === 'heal') {
      if (typeof input.total !== 'number' || !Number.isInteger(input.total)) return refuse('NumberInvalid', { name: c.name, field: 'total' });
      const healed = rules.heal(c, state.states[c.id], input.total, state.options);
      state.states[c.id] = healed.state;
      return { ok: true, detail: { heal: { tn: healed.tn, total: input.total, passed: healed.passed } } };
    }
    if (malformedInjury(input)) return refuse('InjuryEntryInvalid', { name: c.name });
    const entry = { ...(input.type !== undefined ? { type: input.type } : {}), ...(input.row !== undefined ? { row: input.row } : {}), ...(input.side !== undefined ? { side: input.side } : {}), ...(input.text !== undefined ? { text: input.text.trim() } : {}) };
    const entered = rules.enterInjury(c, state.states[c.id], entry, dice, state.round, state.options);
    state.states[c.id] = entered.state;
    return { ok: true, detail: { injury: entered.injury } };
  } catch (err) {
    if (err instanceof RulesError) return { ok: false, problem: err.problem };
    throw err;
  }
}

/**
 * An attack out of turn (a Reposte) is an action too: what it costs the
 * attacker (WoundRules.actionCost: an Incapacitated or Dying creature's
 * Wound Point), taken as the attack is recorded, like the cost of an action
 * of the schedule (step.ts). Its earlier actions this round: the schedule's
 * up to this step and its earlier attacks out of turn.
 */
export function chargeOutOfTurn(state: FlowState, input: AttackInput, granted: Extract<AttackGranted, { ok: true }>, procedure: Procedure<ProcedureOptions>): void {
  const rules = procedure.wounds;
  const c = combatantOf(state, input.c);
  const now = c ? state.states[c.id] : undefined;
  if (!rules || granted.grant === 'schedule' || !c || !now) return;
  const earlier = () => {
    let n = 0;
    const steps = state.schedule?.steps ?? [];
    for (let k = 0; k <= state.step && k < steps.length; k++) {
      const outcomes = state.outcomes[k] ?? [];
      steps[k].entries.forEach((e, i) => e.combatant === c.id && rules.isAction(e, outcomes[i]) && n++);
    }
    const outOfTurn = (state.attacks ?? []).filter((a) => a.c === c.id && a.as !== 'schedule').length;
    return n + outOfTurn - 1; // this attack is already recorded
  };
  const cost = rules.actionCost({ combatant: c, state: now, entry: { combatant: c.id, kind: 'action', action: 'melee' }, outcome: 'acts', earlier }, state.options);
  if (!cost) return;
  state.states[c.id] = cost.state;
  state.hits.push({ step: state.step, target: c.id, amount: cost.wounds, wounds: cost.wounds, by: c.id, strain: true, before: now.condition, after: cost.state.condition });
}
