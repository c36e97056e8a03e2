/**
 * Health in the round kit: a combatant's starting state, hit-point damage
 * with its thresholds, copies of states, and the end of a round (bleeding and
 * deaths reported as events, states copied only when something changes).
 */
import type { Combatant, CombatantState, Condition } from '../model';
import type { DamageResult, Encounter, EndEvent, EndOfRoundInput, EndOfRoundResult } from '../procedure';

export function initialState(c: Combatant): CombatantState {
  const state: CombatantState = { hp: c.hp, condition: 'ok', expended: [] };
  if (c.stress !== undefined) state.stress = c.stress;
  if (c.woundPoints !== undefined) state.woundPoints = c.woundPoints;
  if (c.hp <= 0) state.condition = 'dead';
  return state;
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
