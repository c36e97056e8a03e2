/**
 * Each procedure is its own chunk in Foundry, loaded when a world or a
 * combat needs it (src/rules/registry.ts): the world's procedure at start-up,
 * the one a running combat was started with, a new one when the GM changes
 * the setting. Until then the engine refuses, with a clear problem, rather
 * than guess.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PROCEDURE_IDS, RulesError } from '../../src/rules/model';

type Registry = typeof import('../../src/rules/registry');

/** A registry as a client has it at start-up: nothing loaded (the test setup loads every procedure into its own copy). */
async function freshRegistry(): Promise<Registry> {
  vi.resetModules();
  return import('../../src/rules/registry');
}

function problemOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    if (e instanceof Error && 'problem' in e) return (e as RulesError).problem;
    throw e;
  }
  return null;
}

describe('loading procedures on demand', () => {
  let r: Registry;
  beforeEach(async () => {
    r = await freshRegistry();
  });

  it('a procedure not loaded yet is refused by name, then found once loaded', async () => {
    expect(r.isLoaded('addict')).toBe(false);
    expect(problemOf(() => r.getProcedure('addict'))).toEqual({ key: 'ProcedureNotLoaded', data: { id: 'addict' } });
    const p = await r.loadProcedure('addict');
    expect(p.id).toBe('addict');
    expect(r.isLoaded('addict')).toBe(true);
    expect(r.getProcedure('addict')).toBe(p);
    // Only what was asked for is loaded.
    expect(PROCEDURE_IDS.filter((id) => r.isLoaded(id))).toEqual(['addict']);
  });

  it('two loads of one procedure at once load it once', async () => {
    const [a, b] = await Promise.all([r.loadProcedure('high-low'), r.loadProcedure('high-low')]);
    expect(a).toBe(b);
    expect(await r.loadProcedure('high-low')).toBe(a);
  });

  it('an unknown procedure is refused, loading or getting, with its id shown', async () => {
    await expect(r.loadProcedure('chess')).rejects.toMatchObject({ problem: { key: 'UnknownProcedure', data: { id: 'chess' } } });
    expect(problemOf(() => r.getProcedure({ id: 7 }))).toEqual({ key: 'UnknownProcedure', data: { id: '{"id":7}' } });
    const hostile = {
      toJSON() {
        throw new Error('no');
      },
    };
    expect(problemOf(() => r.getProcedure(hostile))).toEqual({ key: 'UnknownProcedure', data: { id: 'object' } });
    expect(problemOf(() => r.getProcedure(undefined))).toEqual({ key: 'UnknownProcedure', data: { id: 'undefined' } });
  });

  it('tools that may play any procedure load all five', async () => {
    const all = await r.loadAllProcedures();
    expect(Object.keys(all).sort()).toEqual([...PROCEDURE_IDS].sort());
    for (const id of PROCEDURE_IDS) expect(all[id].id).toBe(id);
  });
});
