/**
 * All five procedures at once, for the tools that run in Node (the scenario
 * runner, the benchmark, the tests): imported statically and registered, so
 * the engine finds any of them without loading. The Foundry bundle never
 * imports this file: there each procedure is a chunk of its own (registry.ts).
 */
import type { ProcedureId } from '../model';
import type { Procedure, ProcedureOptions } from '../procedure';
import { registerProcedure } from '../registry';
import { segmentD6Procedure } from './segment-d6';
import { highLowProcedure } from './high-low';
import { d12AscendingProcedure } from './d12-ascending';
import { individualSpeedProcedure } from './individual-speed';
import { addictProcedure } from './addict';
import { usePart } from '../parts';
import * as moved from '../flow/moved';
import * as charges from '../charges';

export const PROCEDURES: Record<ProcedureId, Procedure<ProcedureOptions>> = {
  'segment-d6': segmentD6Procedure as unknown as Procedure<ProcedureOptions>,
  'high-low': highLowProcedure as unknown as Procedure<ProcedureOptions>,
  'd12-ascending': d12AscendingProcedure as unknown as Procedure<ProcedureOptions>,
  'individual-speed': individualSpeedProcedure as unknown as Procedure<ProcedureOptions>,
  addict: addictProcedure as unknown as Procedure<ProcedureOptions>,
};

for (const p of Object.values(PROCEDURES)) registerProcedure(p);
// The engine's parts loaded on demand in Foundry (parts.ts), in memory here.
usePart('moved', moved);
usePart('charges', charges);
