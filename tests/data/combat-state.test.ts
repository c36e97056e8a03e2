import { describe, expect, it } from 'vitest';
import { isHistoryEntry, parseFlow, phaseOf, summarize, toCombatSource } from '../../src/data/combat-state';
import type { FlowState } from '../../src/rules/flow';

/** The frame of a stored flow: enough for the Combat's views (the engine fills the rest). */
function flowState(over: Record<string, unknown> = {}): FlowState {
  return {
    procedure: 'segment-d6',
    options: { missileInitiative: true },
    encounter: { sides: [{ id: 'party', name: 'Party' }], combatants: [{ id: 'c1', name: 'Halvaine', side: 'party', hp: 6 }] },
    stage: 'declare',
    round: 1,
    step: 0,
    surprise: { rolls: { party: 4 }, surprised: { c1: 0 }, unit: 'segments' },
    baseInitiative: {},
    declarations: { c1: { combatant: 'c1', action: 'spell', spell: 'Sleep', castingTime: 2 } },
    initiative: null,
    schedule: null,
    progress: { states: {}, status: {} },
    roundStart: {},
    outcomes: [],
    hits: [],
    interruptions: [],
    carry: [],
    owed: {},
    cancelled: [],
    moraleRequests: [],
    end: null,
    ...over,
  } as unknown as FlowState;
}

describe('the stored combat flow', () => {
  it('is empty before the combat starts: phase "setup"', () => {
    expect(parseFlow('')).toEqual({ ok: true, value: null });
    expect(summarize(null).phase).toBe('setup');
  });

  it('round-trips through system data with its undo history', () => {
    const state = flowState();
    const source = toCombatSource(state, [[{ path: ['round'], value: 0 }]]);
    const back = parseFlow(source.flow);
    expect(back).toEqual({ ok: true, value: state });
    expect(source.history.every(isHistoryEntry)).toBe(true);
    const s = summarize(back.ok ? back.value : null, source.history.length);
    expect(s).toMatchObject({
      phase: 'declarations',
      procedure: 'segment-d6',
      options: { missileInitiative: true },
      round: 1,
      undoDepth: 1,
      declarations: { c1: { action: 'spell', castingTime: 2 } },
    });
  });

  it('phases follow the flow: surprise (round 0), declarations, resolution, end of round', () => {
    expect(phaseOf(flowState({ round: 0 }))).toBe('surprise');
    expect(phaseOf(flowState({ round: 0, stage: 'resolve' }))).toBe('surprise');
    expect(phaseOf(flowState({ round: 2, stage: 'declare' }))).toBe('declarations');
    expect(phaseOf(flowState({ round: 2, stage: 'resolve' }))).toBe('resolution');
    expect(phaseOf(flowState({ round: 2, stage: 'end-of-round' }))).toBe('end-of-round');
  });

  it('refuses unreadable or foreign state with a problem', () => {
    expect(parseFlow('{not json')).toMatchObject({ ok: false, problem: { key: 'CombatFlowInvalid', data: { reason: 'json' } } });
    expect(parseFlow('[]')).toMatchObject({ ok: false, problem: { key: 'CombatFlowInvalid' } });
    expect(parseFlow(JSON.stringify(flowState({ procedure: 'gurps' })))).toMatchObject({ ok: false, problem: { key: 'UnknownProcedure', data: { id: 'gurps' } } });
    expect(parseFlow(JSON.stringify(flowState({ stage: 'lunch' })))).toMatchObject({ ok: false, problem: { data: { reason: 'stage' } } });
    expect(parseFlow(JSON.stringify(flowState({ round: -1 })))).toMatchObject({ ok: false, problem: { data: { reason: 'round' } } });
    expect(parseFlow(JSON.stringify(flowState({ encounter: null })))).toMatchObject({ ok: false, problem: { data: { reason: 'encounter' } } });
    expect(parseFlow(42)).toMatchObject({ ok: false });
  });

  it('undo entries are lists of patch operations', () => {
    expect(isHistoryEntry('[{"path":["round"],"value":1}]')).toBe(true);
    expect(isHistoryEntry('[]')).toBe(true);
    expect(isHistoryEntry('{"path":[]}')).toBe(false);
    expect(isHistoryEntry('[{"value":1}]')).toBe(false);
    expect(isHistoryEntry('nope')).toBe(false);
    expect(isHistoryEntry(3)).toBe(false);
  });
});
