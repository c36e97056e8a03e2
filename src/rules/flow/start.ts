/**
 * A combat's start (the procedure and options frozen, surprise rolled once,
 * per-combat initiative): what the active GM's client runs when it starts a
 * combat, in the GM's chunk. Every client replays a start from its log entry
 * (flowFrom, transitions.ts) without it. Re-exported by the flow's index.
 */
import type { Dice } from '../dice';
import type { Condition, Problem } from '../model';
import type { Encounter, Procedure, ProcedureOptions } from '../procedure';
import { resolveOptions } from '../procedure';
import { getProcedure } from '../registry';
import { copyJson } from '../journal';
import { combatantProblem } from '../round';
import { refuse, RULES_REVISION, type FlowResult, type FlowStart } from './state';
import { asking, enteringCondition, flowFrom } from './transitions';

type P = Procedure<ProcedureOptions>;

function isProcedure(v: unknown): v is P {
  return typeof v === 'object' && v !== null && typeof (v as P).planRound === 'function';
}

/** Does this surprise give a surprise phase (round 0) before round 1? */
function hasSurprisePhase(procedure: Procedure<ProcedureOptions>, encounter: Encounter, surprise: FlowStart['surprise'], options: ProcedureOptions): boolean {
  if (!Object.values(surprise.surprised).some((n) => n > 0)) return false;
  if (surprise.unit === 'segments') return true;
  return procedure.planSurprise(encounter, surprise, {}, options) !== null;
}

/** What a combat's start decides before any die: the procedure, its options resolved, the condition each combatant enters in. */
export interface CheckedStart {
  procedure: P;
  options: ProcedureOptions;
  conditions: Record<string, Condition>;
}

/** A start's checks: the procedure found, its options resolved, each combatant sound, on a side of the encounter, in the condition its hit points allow. */
export function checkStart(procedureOrId: unknown, givenOptions: ProcedureOptions, encounter: Encounter): { ok: true; value: CheckedStart } | { ok: false; problem: Problem } {
  const found = asking(() => (isProcedure(procedureOrId) ? procedureOrId : getProcedure(procedureOrId)));
  if (!found.ok) return found;
  const procedure = found.value;
  const { options, problems } = resolveOptions(procedure, givenOptions);
  if (problems.length > 0) return { ok: false, problem: problems[0] };
  const conditions: Record<string, Condition> = {};
  for (const c of encounter.combatants) {
    const malformed = combatantProblem(c);
    if (malformed) return { ok: false, problem: malformed };
    if (!encounter.sides.some((s) => s.id === c.side)) return refuse('UnknownSide', { name: c.name, side: c.side });
    const entering = enteringCondition(procedure, c, options, true);
    if (!entering.ok) return entering;
    if (entering.value !== 'ok') conditions[c.id] = entering.value;
  }
  return { ok: true, value: { procedure, options, conditions } };
}

/**
 * A checked start's dice, on a copy of the encounter: surprise rolled once,
 * per-combat initiative. The odds' trials check once and roll per trial; they
 * pass `copy` false with an encounter object of their own whose sides and
 * combatants they never change (the flow replaces those lists, never changes
 * them in place, but for `move`, which a trial does not use).
 */
export function rollStart(checked: CheckedStart, encounter: Encounter, dice: Dice, copy = true): { ok: true; start: FlowStart } | { ok: false; problem: Problem } {
  const { procedure, options, conditions } = checked;
  const enc = copy ? copyJson(encounter) : encounter;
  const rolled = asking(() => ({
    surprise: procedure.rollSurprise(enc, dice, options),
    baseInitiative: procedure.rollCombatInitiative(enc, enc.combatants, dice, options),
  }));
  if (!rolled.ok) return rolled;
  const { surprise, baseInitiative } = rolled.value;
  const round = hasSurprisePhase(procedure, enc, surprise, options) ? 0 : 1;
  return { ok: true, start: { procedure: procedure.id, options, encounter: enc, surprise, baseInitiative, round, rules: RULES_REVISION, conditions: { ...conditions } } };
}

/** Start a combat: the procedure and options frozen, surprise rolled once, per-combat initiative. */
export function startCombat(
  procedureOrId: unknown,
  givenOptions: ProcedureOptions,
  encounter: Encounter,
  dice: Dice,
): { ok: true; start: FlowStart } | { ok: false; problem: Problem } {
  const checked = checkStart(procedureOrId, givenOptions, encounter);
  return checked.ok ? rollStart(checked.value, encounter, dice) : checked;
}

/** startCombat and flowFrom in one. */
export function startFlow(procedureOrId: unknown, options: ProcedureOptions, encounter: Encounter, dice: Dice): FlowResult<FlowStart> {
  const started = startCombat(procedureOrId, options, encounter, dice);
  if (!started.ok) return started;
  return { ok: true, state: flowFrom(started.start), detail: started.start };
}
