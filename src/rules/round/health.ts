/**
 * Health in the round kit: a combatant's starting state, hit-point damage
 * with its thresholds, copies of states, and the end of a round (bleeding and
 * deaths reported as events, states copied only when something changes).
 */
import type { Combatant, CombatantState, Condition, Problem } from '../model';
import type { DamageResult, Encounter, EndEvent, EndOfRoundInput, EndOfRoundResult } from '../procedure';

/** The conditions a combatant may be given to enter a combat in (Combatant.condition). */
export const CONDITIONS: readonly Condition[] = ['ok', 'incapacitated', 'dying', 'dead', 'fled'];

/**
 * A combatant's state as it enters a combat. Its condition: the one it is
 * given (Combatant.condition), else `derived`, what its hit points put it in
 * by the procedure's own rules (Procedure.startingCondition), else dead at 0
 * hp or below (the rule of combats started before the procedures decided it,
 * whose logs replay as they were).
 */
export function initialState(c: Combatant, derived?: Condition): CombatantState {
  const state: CombatantState = { hp: c.hp, condition: 'ok', expended: [] };
  if (c.stress !== undefined) state.stress = c.stress;
  if (c.woundPoints !== undefined) state.woundPoints = c.woundPoints;
  if (c.condition !== undefined) state.condition = c.condition;
  else if (derived !== undefined) state.condition = derived;
  else if (c.hp <= 0) state.condition = 'dead';
  return state;
}

/** Dead at 0 hp or below: the starting condition where a procedure decides none (and in combats started before they did). */
export function plainStartingCondition(c: Combatant): Condition {
  return c.hp <= 0 ? 'dead' : 'ok';
}

/**
 * The condition hit points put a combatant in by a procedure's thresholds:
 * above `incapacitatedAt` able to fight, at or below `deathAt` dead, between
 * them `below` (unconscious, or dying where it bleeds), as its damage does.
 */
export function conditionByHp(hp: number, thresholds: { incapacitatedAt: number; deathAt: number }, below: Condition): Condition {
  if (hp <= thresholds.deathAt) return 'dead';
  return hp <= thresholds.incapacitatedAt ? below : 'ok';
}

/**
 * Null if the condition a combatant is given (Combatant.condition) agrees with
 * its hit points, `derived` being what they put it in by the procedure's
 * rules: able to fight only where they leave it so; unconscious or dying only
 * where they put it out of the fight yet alive (either may be given there: a
 * combatant stabilized below 0 does not bleed). Dead or fled is the GM's word
 * at any hit points.
 */
export function startingConditionProblem(c: Combatant, derived: Condition): Problem | null {
  const given = c.condition;
  if (given === undefined || given === 'dead' || given === 'fled' || given === derived) return null;
  if (given !== 'ok' && derived !== 'ok' && derived !== 'dead' && derived !== 'fled') return null;
  return { key: 'StartingConditionImpossible', data: { name: c.name, condition: given, rule: derived } };
}

export function initialStates(encounter: Encounter): Record<string, CombatantState> {
  const out: Record<string, CombatantState> = {};
  for (const c of encounter.combatants) out[c.id] = initialState(c);
  return out;
}

/**
 * A copy of a combatant's state with its own `expended`, built field by field
 * in one order so every copy has the same shape (fast to copy again).
 */
export function copyState(s: CombatantState): CombatantState {
  const c: CombatantState = { hp: s.hp, condition: s.condition, expended: s.expended.slice() };
  if (s.stress !== undefined) c.stress = s.stress;
  if (s.woundPoints !== undefined) c.woundPoints = s.woundPoints;
  if (s.delayed !== undefined) c.delayed = s.delayed;
  if (s.routed !== undefined) c.routed = s.routed;
  if (s.surrendered !== undefined) c.surrendered = s.surrendered;
  if (s.stabilized !== undefined) c.stabilized = s.stabilized;
  // Wounds and injuries are never changed in place: a copy of the list is enough.
  if (s.wounds !== undefined) c.wounds = s.wounds.slice();
  if (s.injuries !== undefined) c.injuries = s.injuries.slice();
  if (s.staunched !== undefined) c.staunched = s.staunched;
  return c;
}

/**
 * A shallow copy of a record, key by key: the same as `{ ...record }` for
 * plain data, but several times faster once the record is large enough for V8
 * to keep it as a hash table (about 16 keys), where a spread is slow.
 */
export function copyRecord<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record)) out[key] = record[key];
  return out;
}

export function isActive(state: CombatantState | undefined): boolean {
  return !!state && state.condition === 'ok';
}

/**
 * Hit-point damage with two thresholds: at or below `incapacitatedAt` the
 * combatant cannot act (dying); at or below `deathAt` it is dead. The dead
 * and the fled stay as they are.
 */
export function hpDamage(state: CombatantState, amount: number, thresholds: { incapacitatedAt: number; deathAt: number }): DamageResult {
  const hp = state.hp - amount;
  let condition: Condition = state.condition;
  if (condition !== 'dead' && condition !== 'fled') {
    if (hp <= thresholds.deathAt) condition = 'dead';
    else if (hp <= thresholds.incapacitatedAt) condition = 'dying';
  }
  return { state: { ...state, hp, condition }, wounds: amount };
}

/**
 * The end of a round being worked out: states pass through unchanged (never
 * mutated) until the first change, then are copied once; events in the order
 * they happen.
 */
export class RoundEnd {
  states: Record<string, CombatantState>;
  readonly events: EndEvent[] = [];

  constructor(private readonly input: EndOfRoundInput) {
    this.states = input.after;
  }

  /** Replace a combatant's state (copying the record on the first change). */
  set(id: string, state: CombatantState): void {
    if (this.states === this.input.after) this.states = copyRecord(this.input.after);
    this.states[id] = state;
  }

  /** A combatant bleeds `amount` into `next`; a bleed that kills is reported as a death too. */
  bleed(id: string, amount: number, next: CombatantState): void {
    this.set(id, next);
    this.events.push({ kind: 'bleed', combatant: id, amount });
    if (next.condition === 'dead') this.events.push({ kind: 'death', combatant: id });
  }

  death(id: string): void {
    this.events.push({ kind: 'death', combatant: id });
  }

  /** Killed during this round (not dead when it began). */
  diedThisRound(id: string): boolean {
    return this.states[id]?.condition === 'dead' && this.input.before[id]?.condition !== 'dead';
  }

  result(): EndOfRoundResult {
    return { states: this.states, events: this.events };
  }
}
