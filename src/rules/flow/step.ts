/**
 * The two mechanics of playing a round, shared by every transition that
 * plays one: opening a step (who acts, which castings begin and go off) and
 * landing a hit (the procedure's damage, then the casting rules each Casting
 * carries). Both change the flow's states and statuses in place.
 */
import type { Combatant } from '../model';
import type { Procedure, ProcedureOptions, Schedule, StepEntry } from '../procedure';
import type { CastingStatus, EntryOutcome, FlowHit, FlowInterruption, FlowState } from './state';

const castingIndex = new WeakMap<Schedule, Map<string, Schedule['castings'][number]>>();

/** A schedule's casting by id (indexed once per schedule). */
export function castingById(schedule: Schedule, id: string): Schedule['castings'][number] | undefined {
  let index = castingIndex.get(schedule);
  if (!index) {
    index = new Map(schedule.castings.map((c) => [c.id, c]));
    castingIndex.set(schedule, index);
  }
  return index.get(id);
}

function isCast(e: StepEntry): boolean {
  return e.kind === 'cast-begin' || e.kind === 'cast-complete';
}

/**
 * Open step k: each entry's outcome is decided from the states at the start
 * of the step (so a combatant killed later in the same step still acts); a
 * casting that goes off is done (a spell is expended).
 */
export function openStep(procedure: Procedure<ProcedureOptions>, state: FlowState, k: number): EntryOutcome[] {
  const schedule = state.schedule as Schedule;
  const { states, status } = state;
  const entries = schedule.steps[k].entries;
  const out: EntryOutcome[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const s = states[entry.combatant];
    const can = s !== undefined && procedure.canAct(s);
    if (!isCast(entry)) {
      out[i] = can ? 'acts' : 'cannot-act';
      continue;
    }
    const st: CastingStatus = entry.casting ? (status[entry.casting] ?? 'pending') : 'pending';
    let outcome: EntryOutcome;
    if (st === 'interrupted' || st === 'prevented' || st === 'cancelled') outcome = st;
    else if (!can) outcome = 'cannot-act';
    else outcome = entry.kind === 'cast-begin' ? 'begins' : 'goes-off';
    if (entry.kind === 'cast-complete' && entry.casting) {
      if (outcome === 'goes-off') {
        status[entry.casting] = 'done';
        const casting = castingById(schedule, entry.casting);
        if (casting && !casting.device) states[casting.caster].expended.push(casting.spell);
      } else if (outcome === 'cannot-act') status[entry.casting] = 'interrupted';
    }
    out[i] = outcome;
  }
  return out;
}

/**
 * Land one hit at step k: the procedure applies the damage, then every
 * pending casting of the target is interrupted or prevented according to its
 * lossFrom / preventFrom (damage in the step a casting goes off is
 * simultaneous and does not stop it). Healing (a negative amount) is no hit.
 */
export function landHit(
  procedure: Procedure<ProcedureOptions>,
  state: FlowState,
  schedule: Schedule,
  k: number,
  target: Combatant,
  hit: { amount: number; by?: string; critical?: boolean },
): { hit: FlowHit; interruptions: FlowInterruption[] } {
  const { states, status } = state;
  const before = states[target.id].condition;
  const result = procedure.applyDamage(target, states[target.id], hit.amount, state.options, hit.critical ? { critical: true } : undefined);
  states[target.id] = result.state;
  const interruptions: FlowInterruption[] = [];
  if (hit.amount > 0) {
    for (const casting of schedule.castings) {
      if (casting.caster !== target.id || status[casting.id] !== 'pending') continue;
      if (casting.completeStep !== null && k >= casting.completeStep) continue;
      if (k >= casting.lossFrom) {
        status[casting.id] = 'interrupted';
        const expended = casting.expends && !casting.device;
        if (expended) states[casting.caster].expended.push(casting.spell);
        interruptions.push({ round: state.round, step: k, casting: casting.id, caster: casting.caster, spell: casting.spell, outcome: 'interrupted', expended });
      } else if (k >= casting.preventFrom) {
        status[casting.id] = 'prevented';
        interruptions.push({ round: state.round, step: k, casting: casting.id, caster: casting.caster, spell: casting.spell, outcome: 'prevented', expended: false });
      }
    }
  }
  const out: FlowHit = { step: k, target: target.id, amount: hit.amount, wounds: result.wounds, before, after: states[target.id].condition };
  if (hit.by !== undefined) out.by = hit.by;
  if (hit.critical) out.critical = true;
  return { hit: out, interruptions };
}
