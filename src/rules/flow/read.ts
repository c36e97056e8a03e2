/** Reading a flow state: what the current step is and who acts in it. */
import type { Condition } from '../model';
import type { StepEntry } from '../procedure';
import type { EntryOutcome, FlowHit, FlowState } from './state';

/** The entries of the current step, with their outcomes (empty outside resolution). */
export function currentEntries(state: FlowState): { entry: StepEntry; outcome: EntryOutcome }[] {
  if (state.stage !== 'resolve' || !state.schedule) return [];
  const step = state.schedule.steps[state.step];
  const outcomes = state.outcomes[state.step];
  if (!step || !outcomes) return [];
  return step.entries.map((entry, i) => ({ entry, outcome: outcomes[i] }));
}

/** The combatants who act in the current step, in order: the first is the Combat's "current combatant". */
export function currentActors(state: FlowState): string[] {
  const seen = new Set<string>();
  for (const { entry, outcome } of currentEntries(state)) {
    if (outcome === 'acts' || outcome === 'begins' || outcome === 'goes-off') seen.add(entry.combatant);
  }
  return [...seen];
}

/** Who fell (or rose) from the hits of one step: each target whose condition after its last hit differs from before its first. */
export function fallenBy(hits: readonly FlowHit[]): { combatant: string; condition: Condition }[] {
  const first = new Map<string, Condition>();
  const last = new Map<string, Condition>();
  for (const h of hits) {
    if (!first.has(h.target)) first.set(h.target, h.before);
    last.set(h.target, h.after);
  }
  return [...first].filter(([id, before]) => last.get(id) !== before).map(([id]) => ({ combatant: id, condition: last.get(id) as Condition }));
}
