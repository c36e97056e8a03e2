/**
 * How the GM checks morale where a text gives no method (d12-ascending: "no
 * formal method is given herein for checking morale the DM can still make
 * such a check in any way he sees fit"): a roll at or under a score (d100,
 * 2d6, d20), or the GM's own result ('gm'). A module of its own: d12-ascending's
 * chunk takes it without the procedure kit's option checks (procedure.ts).
 *
 * segment-d6 and high-low give no morale rule either (001 names only "a bonus
 * to morale checks"): RULING (issue 28, rules notes) they check a morale the GM
 * calls by the same methods (their `moraleMethod` option, 2d6 by default), at
 * once, and a failed check routs; a combatant without a morale score counts
 * the middle of the die's range (MIDDLE_SCORE, as addict's phase 4 does).
 */
import type { Combatant, CombatantState, Problem } from './model';
import type { Dice } from './dice';
import type { Encounter, EndOfRoundResult, MoraleCheckRequest } from './procedure';

export const MORALE_METHODS = ['d100', '2d6', 'd20', 'gm'] as const;
export type MoraleMethod = (typeof MORALE_METHODS)[number];

/** The dice of each rolled method. */
export const MORALE_DICE: Record<Exclude<MoraleMethod, 'gm'>, { count: number; faces: number }> = {
  d100: { count: 1, faces: 100 },
  '2d6': { count: 2, faces: 6 },
  d20: { count: 1, faces: 20 },
};

/** A check the GM calls (a type only: this module loads nothing of the kit). */
type Called = MoraleCheckRequest;

const isMethod = (m: unknown): m is MoraleMethod => (MORALE_METHODS as readonly unknown[]).includes(m);

/** The method of a call: its own, else the option's, else `fallback`. */
export function methodOf(request: Called, option: unknown, fallback: MoraleMethod): MoraleMethod {
  return request.method ?? (isMethod(option) ? option : fallback);
}

/** The score a roll must be at or under: the request's, else the combatant's morale score. */
export function moraleScore(c: Combatant, request: Called): number | undefined {
  return request.score !== undefined ? request.score : c.morale !== undefined && Number.isFinite(c.morale) ? c.morale : undefined;
}

/** The score assumed for a combatant without one, where a procedure assumes one: the middle of the die's range (as addict's). */
export const MIDDLE_SCORE: Record<Exclude<MoraleMethod, 'gm'>, number> = { d100: 50, '2d6': 7, d20: 10 };

/**
 * A call the method cannot answer (a method unknown, a number that is none, no result for 'gm', and, unless the
 * procedure assumes the middle score, no score to roll under), or null.
 */
export function methodProblem(c: Combatant, request: Called, method: MoraleMethod, middle = false): Problem | null {
  const name = c.name;
  if (request.method !== undefined && !isMethod(request.method)) {
    return { key: 'MoraleMethodInvalid', data: { name, method: String(request.method), methods: MORALE_METHODS.join(', ') } };
  }
  for (const field of ['score', 'opposed'] as const) {
    const v = request[field];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) return { key: 'NumberInvalid', data: { name, field } };
  }
  if (request.passed !== undefined && typeof request.passed !== 'boolean') return { key: 'MalformedRequest' };
  if (method === 'gm') return request.passed === undefined ? { key: 'MoraleResultMissing', data: { name } } : null;
  if (!middle && moraleScore(c, request) === undefined) return { key: 'MoraleScoreMissing', data: { name, method } };
  return null;
}

/**
 * One check by a method: a roll at or under the score less `opposed`, or the GM's result. A failure routs;
 * the state returned is a copy when it changed.
 */
export function checkByMethod(
  c: Combatant, state: CombatantState, request: Called, method: MoraleMethod, dice: Dice, round: number,
): { state: CombatantState; event: { kind: 'morale'; combatant: string; trigger: string; roll: number; total: number; target: number; passed: boolean; method: MoraleMethod } } {
  let roll = 0;
  let target = 0;
  let passed: boolean;
  if (method === 'gm') passed = request.passed === true;
  else {
    const opposed = typeof request.opposed === 'number' && Number.isFinite(request.opposed) ? request.opposed : 0;
    target = (moraleScore(c, request) ?? MIDDLE_SCORE[method]) - opposed;
    roll = dice.roll({ purpose: 'morale', ...MORALE_DICE[method], combatant: c.id, side: c.side, round });
    passed = roll <= target;
  }
  const next = passed ? state : { ...state, expended: state.expended.slice(), routed: true };
  return { state: next, event: { kind: 'morale', combatant: c.id, trigger: request.trigger, roll, total: roll, target, passed, method } };
}

/**
 * A ruling's morale for a procedure whose text has none (segment-d6, high-low; issue 28): the GM's call refused
 * before it is taken (an unknown method, no score, no result for 'gm'; never in a combat started before the
 * option), and the calls checked at once (rules revision 5) by the option's method, `fallback` by default; a
 * failure routs. Nobody dead or gone checks.
 */
export function rulingMorale<O extends { moraleMethod?: unknown }>(fallback: MoraleMethod) {
  const moraleProblem = (c: Combatant, request: MoraleCheckRequest, options: O): Problem | null =>
    options.moraleMethod === undefined ? null : methodProblem(c, request, methodOf(request, options.moraleMethod, fallback), true);
  const moraleNow = (encounter: Encounter, requests: MoraleCheckRequest[], states: Record<string, CombatantState>, dice: Dice, options: O, round: number): EndOfRoundResult => {
    const out: EndOfRoundResult = { states: { ...states }, events: [] };
    for (const request of requests) {
      const c = encounter.combatants.find((x) => x.id === request.combatant);
      const state = out.states[request.combatant];
      if (!c || !state || state.condition === 'dead' || state.condition === 'fled' || moraleProblem(c, request, options)) continue;
      const done = checkByMethod(c, state, request, methodOf(request, options.moraleMethod, fallback), dice, round);
      out.states[c.id] = done.state;
      out.events.push(done.event);
    }
    return out;
  };
  return { moraleProblem, moraleNow };
}
