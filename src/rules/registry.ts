/**
 * The five procedures by id: the only place that knows them all. In Foundry
 * each procedure is its own chunk, loaded when a world or a combat needs it
 * (`loadProcedure`); the engine then finds it synchronously (`getProcedure`).
 * Node tools load them all at once (procedures/all.ts).
 */
import type { ProcedureId } from './model';
import { isProcedureId, PROCEDURE_IDS, RulesError } from './model';
import type { Procedure, ProcedureOptions } from './procedure';

type AnyProcedure = Procedure<ProcedureOptions>;

/** Each procedure's module, loaded on demand. */
const LOADERS: Record<ProcedureId, () => Promise<AnyProcedure>> = {
  'segment-d6': () => import('./procedures/segment-d6').then((m) => m.segmentD6Procedure as unknown as AnyProcedure),
  'high-low': () => import('./procedures/high-low').then((m) => m.highLowProcedure as unknown as AnyProcedure),
  'd12-ascending': () => import('./procedures/d12-ascending').then((m) => m.d12AscendingProcedure as unknown as AnyProcedure),
  'individual-speed': () => import('./procedures/individual-speed').then((m) => m.individualSpeedProcedure as unknown as AnyProcedure),
  addict: () => import('./procedures/addict').then((m) => m.addictProcedure as unknown as AnyProcedure),
};

const loaded = new Map<ProcedureId, AnyProcedure>();
const loading = new Map<ProcedureId, Promise<AnyProcedure>>();

/** A procedure now in memory, under its id (the static table of Node tools uses this too). */
export function registerProcedure(procedure: AnyProcedure): void {
  loaded.set(procedure.id, procedure);
}

/** Is this procedure in memory? */
export function isLoaded(id: ProcedureId): boolean {
  return loaded.has(id);
}

/** Load a procedure's module (once); an unknown id is a RulesError with key UnknownProcedure. */
export function loadProcedure(id: unknown): Promise<AnyProcedure> {
  if (!isProcedureId(id)) return Promise.reject(new RulesError({ key: 'UnknownProcedure', data: { id: describe(id) } }));
  const have = loaded.get(id);
  if (have) return Promise.resolve(have);
  let pending = loading.get(id);
  if (!pending) {
    pending = LOADERS[id]().then((p) => {
      registerProcedure(p);
      return p;
    });
    loading.set(id, pending);
  }
  return pending;
}

/** Load every procedure (tools that may play any of them). */
export async function loadAllProcedures(): Promise<Record<ProcedureId, AnyProcedure>> {
  const all = await Promise.all(PROCEDURE_IDS.map((id) => loadProcedure(id)));
  return Object.fromEntries(all.map((p) => [p.id, p])) as Record<ProcedureId, AnyProcedure>;
}

/**
 * The procedure for an id, once loaded. An unknown id is a RulesError with
 * key UnknownProcedure; a known one not loaded yet, ProcedureNotLoaded.
 */
export function getProcedure(id: unknown): AnyProcedure {
  if (!isProcedureId(id)) throw new RulesError({ key: 'UnknownProcedure', data: { id: describe(id) } });
  const p = loaded.get(id);
  if (!p) throw new RulesError({ key: 'ProcedureNotLoaded', data: { id } });
  return p;
}

/** A printable form of any value, even one whose toString throws. */
function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
