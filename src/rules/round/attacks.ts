/**
 * What a procedure's attack rules (procedure.ts, AttackRules) read of the
 * step being played: who does what in it, and with what outcome.
 */
import type { ActionKind } from '../model';
import type { OutOfTurnQuery } from '../procedure';

/** Does `id` have an entry of one of these actions in the current step, with one of these outcomes ('acts' by default)? */
export function actsNow(q: Pick<OutOfTurnQuery, 'entries'>, id: string, actions: readonly ActionKind[], outcomes: readonly string[] = ['acts']): boolean {
  return q.entries.some(({ entry, outcome }) => entry.combatant === id && actions.includes(entry.action) && outcomes.includes(outcome));
}
