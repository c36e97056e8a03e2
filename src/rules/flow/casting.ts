/**
 * Who is actually casting now, and the armor class an attack on them is
 * rolled against (d12-ascending III.E "Spellcasters lose dexterity AC bonus
 * only while actually casting"). Pure reads of the flow's state: the Foundry
 * attack path asks here, the procedure's attack rules decide.
 */
import type { Casting, Procedure, ProcedureOptions } from '../procedure';
import { getProcedure } from '../registry';
import { combatantOf, type FlowState } from './state';

type P = Procedure<ProcedureOptions>;

/**
 * The spell `id` is actually casting now, or null: from the step its
 * casting begins (its spell chosen, where it is chosen at the caster's turn)
 * until it goes off or is stopped (interrupted, prevented, cancelled). A
 * casting carried in from an earlier round is under way from the start of
 * the round; one running past the round, through its end and the next
 * round's declarations. A magic device is no spellcasting.
 */
export function castingNow(state: FlowState, id: string): Casting | null {
  const resolving = state.stage === 'resolve' && state.schedule;
  const list = resolving ? (state.schedule as NonNullable<FlowState['schedule']>).castings : state.carry;
  const k = state.step;
  for (const c of list) {
    if (c.caster !== id || c.device || c.choosing || (state.status[c.id] ?? 'pending') !== 'pending') continue;
    if (!resolving || (c.beginStep <= k && (c.completeStep === null || k < c.completeStep))) return c;
  }
  return null;
}

/**
 * The armor class an attack on `target` is rolled against now: `ac` (its
 * sheet's), as the procedure's attack rules change it (AttackRules.armorClass:
 * d12-ascending takes the Dexterity bonus off while the target is actually
 * casting); `casting` tells whether that happened because of a casting.
 */
export function armorClassNow(state: FlowState, target: string, ac: number, procedure: P = getProcedure(state.procedure)): { ac: number; casting: boolean } {
  const c = combatantOf(state, target);
  const rule = procedure.attackRules?.armorClass;
  if (!c || !rule) return { ac, casting: false };
  const casting = castingNow(state, target) !== null;
  return { ac: rule({ target: c, ac, casting }), casting };
}
