/**
 * A validated scenario played through the one driver (src/rules/play.ts).
 * What the file format adds to the flow's own rules:
 *  - a round with an entry in `declarations` replaces the whole set; a round
 *    without one is "same as last round" (the flow's rule);
 *  - round 0 without an entry uses round 1's, so the side that surprises does
 *    what it would have done anyway.
 */
import type { Dice } from '../../rules/dice';
import type { Combatant, Declaration, Problem } from '../../rules/model';
import { RulesError } from '../../rules/model';
import type { CombatLog, CombatScript, DamageEvent, RoundLog } from '../../rules/play';
import type { Encounter, LateJoinInput, Procedure, ProcedureOptions } from '../../rules/procedure';
import { playCombat } from '../../rules/play';
import { show } from './check';
import { ScenarioDice } from './dice';
import type { ValidScenario } from './types';

/** The declarations a round's entry gives, or null for "same as last round". */
export function declarationsFor(scenario: ValidScenario, round: number): Record<string, Declaration> | null {
  const explicit = scenario.declarations;
  if (round === 0) return { ...(explicit.get(0) ?? explicit.get(1) ?? {}) };
  const set = explicit.get(round);
  return set ? { ...set } : null;
}

/** The script the player feeds to the flow. */
export function scriptOf(scenario: ValidScenario): CombatScript {
  return {
    rounds: scenario.rounds,
    declarations: (round) => declarationsFor(scenario, round),
    damage: scenario.damage,
    moraleRequests: scenario.morale.map((m) => ({ ...m })),
    joins: scenario.joins.map((j) => ({ ...j, combatant: { ...j.combatant } })),
    cancelled: scenario.cancels.map((c) => ({ ...c })),
    wounds: scenario.wounds.map((w) => ({ ...w, input: { ...w.input } })),
    delays: scenario.delays.map((x) => ({ ...x })),
    releases: scenario.releases.map((x) => ({ ...x, declaration: { ...x.declaration } })),
    breaks: scenario.breaks.map((x) => ({ ...x })),
    attacks: scenario.attacks.map((x) => ({ ...x })),
    reactions: scenario.reactions.map((r) => ({ ...r })),
    ...(scenario.distance !== undefined ? { distance: scenario.distance } : {}),
    staunch: scenario.staunch.map((s) => ({ ...s })),
    choices: scenario.choices.map((c) => ({ ...c })),
    retargets: scenario.retargets.map((x) => ({ ...x })),
  };
}

export type RunResult = { ok: true; log: CombatLog; dice: ScenarioDice } | { ok: false; problems: Problem[]; internal?: boolean };

/**
 * The procedure, with a check on each late joiner as it joins: a join's
 * `step` is "before the step with this index", so 1 to the number of steps
 * the round has then (that number: after its last step). Past that the join
 * would silently happen after the last step; how many steps a round has is
 * known only once it is planned, so this is where it is found. A RulesError
 * naming joins[i].step stops the play: a problem with the file.
 */
export function checkingJoins(scenario: ValidScenario): Procedure<ProcedureOptions> {
  const procedure = scenario.procedure;
  const checked = Object.create(procedure) as Procedure<ProcedureOptions>;
  checked.lateJoin = (encounter: Encounter, newcomer: Combatant, input: LateJoinInput, dice: Dice, options: ProcedureOptions) => {
    const i = scenario.joins.findIndex((j) => j.combatant.id === newcomer.id && j.round === input.round);
    const join = scenario.joins[i];
    const steps = input.schedule.steps.length;
    if (join && join.step > steps) {
      throw new RulesError({
        key: 'JoinStepBeyondRound',
        path: `joins[${i}].step`,
        data: { step: join.step, round: join.round, steps, name: newcomer.name },
      });
    }
    return procedure.lateJoin(encounter, newcomer, input, dice, options);
  };
  return checked;
}

/**
 * Play a validated scenario. A RulesError (an impossible scripted die, a
 * declaration the engine refuses) comes back as a problem; any other error is
 * an engine fault, reported as `internal` with its message.
 */
export function runScenario(scenario: ValidScenario, fallback: Dice): RunResult {
  const dice = new ScenarioDice(scenario.dice, fallback);
  try {
    const encounter = { sides: scenario.encounter.sides, combatants: [...scenario.encounter.combatants] };
    const log = playCombat(checkingJoins(scenario), encounter, scenario.options, dice, scriptOf(scenario));
    return { ok: true, log, dice };
  } catch (e) {
    if (e instanceof RulesError) return { ok: false, problems: [e.problem] };
    const message = e instanceof Error ? `${e.name}: ${e.message}` : show(e);
    return { ok: false, internal: true, problems: [{ key: 'EngineFault', data: { message, procedure: scenario.procedure.id } }] };
  }
}

/** Why a scripted damage entry never landed. */
export type Undelivered = 'surprise-not-played' | 'round-not-played' | 'no-moment' | 'target-absent';

/**
 * The damage entries that never landed, each with why: its round was not
 * played (the surprise of a combat that had none, a round past --rounds), its
 * moment never came in the round (an attack that did not happen, no such
 * segment; the round lists it as unapplied), or it came but the target was
 * not in the fight (a joiner not yet there), which the flow refuses.
 */
export function undeliveredDamage(scenario: ValidScenario, log: CombatLog): { index: number; damage: DamageEvent; why: Undelivered }[] {
  const out: { index: number; damage: DamageEvent; why: Undelivered }[] = [];
  const byRound = new Map<number, RoundLog>();
  if (log.surpriseRound) byRound.set(0, log.surpriseRound);
  for (const r of log.rounds) byRound.set(r.round, r);
  /** What is left to match in each round: the entries the round could not place, the hits that landed. */
  const left = new Map<number, { unapplied: string[]; hits: string[] }>();
  const sig = (target: string, amount: number, by: string | undefined) => JSON.stringify([target, amount, by ?? null]);
  for (const [n, r] of byRound) {
    left.set(n, {
      unapplied: r.unapplied.map((d) => JSON.stringify(d)),
      hits: r.steps.flatMap((st) => st.damage.filter((h) => !h.strain).map((h) => sig(h.target, h.amount, h.by))),
    });
  }
  const take = (list: string[], item: string): boolean => {
    const at = list.indexOf(item);
    if (at < 0) return false;
    list.splice(at, 1);
    return true;
  };
  scenario.damage.forEach((damage, index) => {
    const round = left.get(damage.round);
    if (!round) out.push({ index, damage, why: damage.round === 0 ? 'surprise-not-played' : 'round-not-played' });
    else if (take(round.unapplied, JSON.stringify(damage))) out.push({ index, damage, why: 'no-moment' });
    else if (!take(round.hits, sig(damage.target, damage.amount, damage.by))) out.push({ index, damage, why: 'target-absent' });
  });
  return out;
}
