/**
 * The two mechanics of playing a round, shared by every transition that
 * plays one: opening a step (who acts, which castings begin and go off) and
 * landing a hit (the procedure's damage, then the casting rules each Casting
 * carries). Both change the flow's states and statuses in place.
 */
import type { Combatant, DamageType } from '../model';
import type { Dice } from '../dice';
import type { Procedure, ProcedureOptions, Schedule, StepEntry, WoundRules } from '../procedure';
import type { CastingStatus, EntryOutcome, FlowHit, FlowInterruption, FlowState } from './state';
import { forfeited } from './moves';
import { engineDecidesActing, ROUTED_ACTIONS } from './acting';

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
 * of the step (so a combatant killed later in the same step still acts, and
 * one that forfeited its action by moving does not); a casting that goes off
 * is done (a spell is expended).
 */
export function openStep(procedure: Procedure<ProcedureOptions>, state: FlowState, k: number): EntryOutcome[] {
  const schedule = state.schedule as Schedule;
  const { states, status } = state;
  const entries = schedule.steps[k].entries;
  const out: EntryOutcome[] = new Array(entries.length);
  const byEngine = engineDecidesActing(state);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const s = states[entry.combatant];
    // From rules revision 5 (acting.ts): a surrendered combatant does nothing, a routed one only flees.
    const can = s !== undefined && procedure.canAct(s) && !(byEngine && (s.surrendered || (s.routed && !ROUTED_ACTIONS.has(entry.action))));
    if (!isCast(entry)) {
      // A combatant that moved and forfeited its action this round (the `moved` input, flow/moved.ts) acts no more.
      out[i] = can && !forfeited(state, entry.combatant) ? 'acts' : 'cannot-act';
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
  if (procedure.wounds) chargeActions(procedure.wounds, state, k, out);
  return out;
}

const combatantIndex = new WeakMap<readonly Combatant[], Map<string, Combatant>>();

/** The encounter's combatant by id (indexed once per list of combatants). */
function combatantById(list: readonly Combatant[], id: string): Combatant | undefined {
  let index = combatantIndex.get(list);
  if (!index) {
    index = new Map(list.map((c) => [c.id, c]));
    combatantIndex.set(list, index);
  }
  return index.get(id);
}

/**
 * What the actions taken in step k cost (WoundRules.actionCost, decided from
 * the states as the step opened): the cost lands as a hit the combatant deals
 * itself, after every entry's outcome is decided (so it does not stop
 * anything of this step) and without interrupting castings.
 */
function chargeActions(wounds: WoundRules, state: FlowState, k: number, out: EntryOutcome[]): void {
  const schedule = state.schedule as Schedule;
  const entries = schedule.steps[k].entries;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (!wounds.isAction(entry, out[i])) continue;
    const id = entry.combatant;
    const combatant = combatantById(state.encounter.combatants, id);
    const now = state.states[id];
    if (!combatant || !now) continue;
    const earlier = () => {
      let n = 0;
      for (let j = 0; j < k; j++) {
        const outcomes = state.outcomes[j] ?? [];
        schedule.steps[j].entries.forEach((e, x) => e.combatant === id && wounds.isAction(e, outcomes[x]) && n++);
      }
      for (let x = 0; x < i; x++) if (entries[x].combatant === id && wounds.isAction(entries[x], out[x])) n++;
      // Its attacks out of turn in earlier steps (a Reposte) were actions too.
      for (const a of state.attacks ?? []) if (a.c === id && a.as !== 'schedule' && a.step < k) n++;
      return n;
    };
    const cost = wounds.actionCost({ combatant, state: now, entry, outcome: out[i], earlier }, state.options);
    if (!cost) continue;
    state.states[id] = cost.state;
    state.hits.push({ step: k, target: id, amount: cost.wounds, wounds: cost.wounds, by: id, strain: true, before: now.condition, after: cost.state.condition });
  }
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
  hit: { amount: number; by?: string; critical?: boolean; type?: DamageType },
  dice?: Dice,
): { hit: FlowHit; interruptions: FlowInterruption[] } {
  const { states, status } = state;
  const before = states[target.id].condition;
  const detail = hit.critical || hit.type !== undefined ? { ...(hit.critical ? { critical: true } : {}), ...(hit.type !== undefined ? { type: hit.type } : {}) } : undefined;
  const result = procedure.applyDamage(target, states[target.id], hit.amount, state.options, detail);
  states[target.id] = result.state;
  // individual-speed: "whenever a creature is hit by a Critical Hit there is a chance that the creature receives a Combat Injury".
  const check = hit.critical && result.wounds > 0 && dice && procedure.wounds ? procedure.wounds.criticalHit(target, result.state, { wounds: result.wounds, type: hit.type }, dice, state.round, state.options) : null;
  if (check) states[target.id] = check.state;
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
  if (hit.type !== undefined) out.type = hit.type;
  if (check) out.injury = check.check;
  return { hit: out, interruptions };
}
