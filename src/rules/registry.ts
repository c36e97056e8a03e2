/** The five procedures by id: the only place that knows them all. */
import type { ProcedureId } from './model';
import { isProcedureId, RulesError } from './model';
import type { Procedure, ProcedureOptions } from './procedure';
import { segmentD6Procedure } from './procedures/segment-d6';
import { highLowProcedure } from './procedures/high-low';
import { d12AscendingProcedure } from './procedures/d12-ascending';
import { individualSpeedProcedure } from './procedures/individual-speed';
import { addictProcedure } from './procedures/addict';

export const PROCEDURES: Record<ProcedureId, Procedure<ProcedureOptions>> = {
  'segment-d6': segmentD6Procedure as unknown as Procedure<ProcedureOptions>,
  'high-low': highLowProcedure as unknown as Procedure<ProcedureOptions>,
  'd12-ascending': d12AscendingProcedure as unknown as Procedure<ProcedureOptions>,
  'individual-speed': individualSpeedProcedure as unknown as Procedure<ProcedureOptions>,
  addict: addictProcedure as unknown as Procedure<ProcedureOptions>,
};

/** The procedure for an id; an unknown id is a RulesError with key UnknownProcedure. */
export function getProcedure(id: unknown): Procedure<ProcedureOptions> {
  if (!isProcedureId(id)) throw new RulesError({ key: 'UnknownProcedure', data: { id: describe(id) } });
  return PROCEDURES[id];
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
