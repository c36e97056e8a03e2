/**
 * What the flow reads of this round's moves (FlowState.moves) at every step:
 * start-up code, small; the `moved` input itself (and movesOf) is a part
 * loaded on demand (moved.ts, parts.ts).
 */
import type { Provoked } from '../movement';
import type { FlowState } from './state';

/** Has this combatant forfeited its action this round by moving (ruling 'forfeit')? */
export function forfeited(state: FlowState, id: string): boolean {
  return state.moves?.some((m) => m.c === id && m.ruling === 'forfeit') ?? false;
}

/** What `target`'s moves this round provoked from `by`, in order. */
export function provokedBy(state: FlowState, target: string, by: string): Provoked[] {
  const out: Provoked[] = [];
  for (const m of state.moves ?? []) if (m.c === target) for (const p of m.provoked) if (p.by === by) out.push(p);
  return out;
}
