/**
 * The Combat's stored round state machine, read back from system data.
 *
 * The Combat stores the engine's whole flow state (src/rules/flow.ts) as one
 * JSON string in `system.flow` ("" before the combat starts) and its undo
 * stack as reverse patches, one JSON string each, in `system.history`. Whole
 * strings rather than object fields, because Foundry merges object updates
 * key by key and a flow state must be replaced exactly.
 *
 * This module checks those strings and gives the parts a sheet or tracker
 * needs: phase, round, step, procedure and options frozen at the start, the
 * schedule, surprise and initiative results, base initiative, carried-over
 * castings, declarations. Pure: no Foundry global.
 */
import type { Declaration, Problem, ProcedureId } from '../rules/model';
import { isProcedureId } from '../rules/model';
import type { Casting, InitiativeResult, ProcedureOptions, Schedule, SurpriseResult } from '../rules/procedure';
import type { FlowStage, FlowState } from '../rules/flow';
import type { Parsed } from '../rules/hit-dice';

export const FLOW_STAGES: readonly FlowStage[] = ['declare', 'resolve', 'end-of-round'];

/** The phases of the combat flow as the tracker shows them (TENSEG.Combat.Flow.<phase>). */
export const COMBAT_PHASES = ['setup', 'surprise', 'declarations', 'resolution', 'end-of-round'] as const;
export type CombatPhase = (typeof COMBAT_PHASES)[number];

export interface CombatSystemSource {
  flow: string;
  history: string[];
}

/** What the tracker needs to know about the stored flow. */
export interface FlowSummary {
  phase: CombatPhase;
  procedure: ProcedureId | null;
  options: ProcedureOptions;
  round: number;
  step: number;
  schedule: Schedule | null;
  surprise: SurpriseResult | null;
  initiative: InitiativeResult | null;
  baseInitiative: Record<string, number>;
  carry: Casting[];
  declarations: Record<string, Declaration>;
  /** How many transitions "Previous" can undo. */
  undoDepth: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const bad = (key: string, data?: Problem['data']): { ok: false; problem: Problem } => ({
  ok: false,
  problem: data ? { key, data } : { key },
});

/**
 * Parse `system.flow`: null before the combat starts, else a flow state whose
 * frame (procedure, stage, round, step, encounter, declarations) is sound.
 */
export function parseFlow(raw: unknown): Parsed<FlowState | null> {
  if (raw === '' || raw === null || raw === undefined) return { ok: true, value: null };
  if (typeof raw !== 'string') return bad('CombatFlowInvalid', { reason: 'type' });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return bad('CombatFlowInvalid', { reason: 'json' });
  }
  if (!isRecord(value)) return bad('CombatFlowInvalid', { reason: 'json' });
  if (!isProcedureId(value.procedure)) return bad('UnknownProcedure', { id: String(value.procedure) });
  if (!FLOW_STAGES.includes(value.stage as FlowStage)) return bad('CombatFlowInvalid', { reason: 'stage' });
  for (const key of ['round', 'step'] as const) {
    const n = value[key];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return bad('CombatFlowInvalid', { reason: key });
  }
  if (!isRecord(value.encounter) || !Array.isArray(value.encounter.sides) || !Array.isArray(value.encounter.combatants)) {
    return bad('CombatFlowInvalid', { reason: 'encounter' });
  }
  if (!isRecord(value.declarations) || !isRecord(value.options)) return bad('CombatFlowInvalid', { reason: 'declarations' });
  // The frame is checked; the rest is the engine's own output.
  return { ok: true, value: value as unknown as FlowState };
}

/** Parse one undo entry: a JSON array of patch operations. */
export function isHistoryEntry(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) && v.every((op) => isRecord(op) && Array.isArray(op.path));
  } catch {
    return false;
  }
}

export function phaseOf(state: FlowState | null): CombatPhase {
  if (!state) return 'setup';
  if (state.round === 0 && state.stage !== 'end-of-round') return 'surprise';
  if (state.stage === 'declare') return 'declarations';
  if (state.stage === 'resolve') return 'resolution';
  return 'end-of-round';
}

export function summarize(state: FlowState | null, historyLength = 0): FlowSummary {
  if (!state) {
    return {
      phase: 'setup',
      procedure: null,
      options: {},
      round: 0,
      step: 0,
      schedule: null,
      surprise: null,
      initiative: null,
      baseInitiative: {},
      carry: [],
      declarations: {},
      undoDepth: 0,
    };
  }
  return {
    phase: phaseOf(state),
    procedure: state.procedure,
    options: state.options,
    round: state.round,
    step: state.step,
    schedule: state.schedule ?? null,
    surprise: state.surprise ?? null,
    initiative: state.initiative ?? null,
    baseInitiative: state.baseInitiative ?? {},
    carry: state.carry ?? [],
    declarations: state.declarations ?? {},
    undoDepth: historyLength,
  };
}

/** The source to store for a flow and its history (what `system` should hold). */
export function toCombatSource(state: FlowState | null, history: readonly unknown[] = []): CombatSystemSource {
  return { flow: state ? JSON.stringify(state) : '', history: history.map((h) => JSON.stringify(h)) };
}
