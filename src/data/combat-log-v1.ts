/**
 * How a combat stored by schema 1 becomes a log (the world migration,
 * src/documents/migration.ts, loads this only when a world is older). Pure:
 * no Foundry global.
 *
 * Schema 1 stored the whole flow state as one JSON string (`system.flow`) and
 * its undo history as reverse patches, one JSON string each
 * (`system.history`). Such a combat becomes a log that loses nothing: the
 * oldest state the history reaches, converted, as a snapshot, then one patch
 * entry per transition after it, so Previous walks back through the old
 * history exactly as before, and play goes on from the newest state.
 */
import type { Condition } from '../rules/model';
import type { EndEvent, Schedule } from '../rules/procedure';
import type { Json, PatchOp } from '../rules/journal';
import { diff, patch } from '../rules/journal-diff';
import { entryKey, FLOW_VERSION, type EntryOutcome, type FlowHit, type FlowState, type KeyedLog, type LogEntry } from '../rules/flow';

interface V1State {
  procedure: FlowState['procedure'];
  options: FlowState['options'];
  encounter: FlowState['encounter'];
  stage: FlowState['stage'];
  round: number;
  step: number;
  surprise: FlowState['surprise'];
  baseInitiative: Record<string, number>;
  declarations: FlowState['declarations'];
  initiative: FlowState['initiative'];
  schedule: (Omit<Schedule, 'steps'> & { steps: Omit<Schedule['steps'][number], 'key'>[] }) | null;
  progress: { states: FlowState['states']; status: FlowState['status'] };
  roundStart: FlowState['states'];
  outcomes: { outcome: EntryOutcome }[][];
  hits: { target: string; wounds: number; by?: string; step: number }[];
  interruptions: FlowState['interruptions'];
  carry: FlowState['carry'];
  owed: Record<string, number>;
  cancelled: string[];
  moraleRequests: FlowState['moraleRequests'];
  end: { events: EndEvent[] } | null;
}

/**
 * A schema-1 flow state in the shape of this engine. What schema 1 did not
 * keep is made up as little as possible: a hit's amount is the wounds it
 * did, its conditions before and after are the target's now (so a recap of
 * that round names no falls), steps have no time key (a combatant joining in
 * that very round acts from the next one), and the combat's first round is
 * read from its surprise.
 */
export function stateFromSchema1(old: V1State): FlowState {
  const declaring = old.stage === 'declare';
  const states = old.progress?.states ?? {};
  const someoneSurprised = Object.values(old.surprise?.surprised ?? {}).some((n) => n > 0);
  const hasRoundZero = someoneSurprised && (old.surprise?.unit === 'segments' || old.procedure === 'd12-ascending');
  const condition = (id: string): Condition => states[id]?.condition ?? 'ok';
  const schedule: Schedule | null =
    declaring || !old.schedule
      ? null
      : {
          ...old.schedule,
          // No key: the engine knows the step order, not the time each step stands for.
          steps: old.schedule.steps.map((s) => ({ ...s, key: null as unknown as number })),
        };
  const hits: FlowHit[] = declaring
    ? []
    : (old.hits ?? []).map((h) => {
        const hit: FlowHit = { step: h.step, target: h.target, amount: h.wounds, wounds: h.wounds, before: condition(h.target), after: condition(h.target) };
        if (h.by !== undefined) hit.by = h.by;
        return hit;
      });
  return {
    v: FLOW_VERSION,
    procedure: old.procedure,
    options: old.options ?? {},
    encounter: old.encounter,
    stage: old.stage,
    round: old.round,
    firstRound: hasRoundZero ? 0 : 1,
    step: declaring ? 0 : old.step,
    surprise: old.surprise,
    baseInitiative: old.baseInitiative ?? {},
    declarations: old.declarations ?? {},
    initiative: declaring ? null : (old.initiative ?? null),
    schedule,
    states,
    status: old.progress?.status ?? {},
    roundStart: declaring ? {} : (old.roundStart ?? {}),
    outcomes: declaring ? [] : (old.outcomes ?? []).map((list) => (list ?? []).map((o) => o.outcome)),
    hits,
    interruptions: (old.interruptions ?? []).filter((i) => !declaring || i.round === old.round),
    joins: [],
    carry: old.carry ?? [],
    owed: old.owed ?? {},
    cancelled: declaring ? [] : (old.cancelled ?? []),
    moraleRequests: old.moraleRequests ?? [],
    opening: null,
    end: declaring ? null : (old.end?.events ?? null),
  };
}

/**
 * The log of a combat stored by schema 1 (`flow` JSON text, `history` reverse
 * patches as JSON text, oldest first). An empty flow (a combat not started)
 * is an empty log. Text that does not parse throws (the migration reports
 * the combat and leaves it as it was).
 */
export function logFromSchema1(flow: unknown, history: unknown): KeyedLog {
  if (flow === '' || flow === null || flow === undefined) return {};
  if (typeof flow !== 'string') throw new Error('system.flow is not text');
  const newest = JSON.parse(flow) as V1State;
  const patches = (Array.isArray(history) ? history : []).map((h) => {
    if (typeof h !== 'string') throw new Error('system.history holds something other than text');
    return JSON.parse(h) as PatchOp[];
  });
  // history[i] turns state i + 1 back into state i.
  const old: V1State[] = new Array(patches.length + 1);
  old[patches.length] = newest;
  for (let i = patches.length - 1; i >= 0; i--) old[i] = patch(old[i + 1] as unknown as Json, patches[i]) as unknown as V1State;
  const states = old.map(stateFromSchema1);
  const log: Record<string, LogEntry> = { [entryKey(0)]: { t: 'snapshot', v: FLOW_VERSION, s: states[0] } };
  for (let i = 1; i < states.length; i++) {
    log[entryKey(i)] = { t: 'patch', ops: diff(states[i - 1] as unknown as Json, states[i] as unknown as Json) };
  }
  return log;
}
