/**
 * Helpers for the flow's rules tests (flow-attack, flow-addict-final,
 * flow-rejoin): start a combat with scripted dice, give inputs that must be
 * taken, check refusals (a TENSEG.Error message, nothing changed).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ScriptedDice, type Dice, type DieRequest, type ScriptedRoll } from '../../src/rules/dice';
import { applyInput, startFlow, type Applied, type FlowInput, type FlowState } from '../../src/rules/flow';
import { RulesError, type Combatant, type Declaration, type ProcedureId } from '../../src/rules/model';
import type { Encounter } from '../../src/rules/procedure';

const lang = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;

/** Dice that must not be asked. */
export const NO_DICE: Dice = {
  roll(request: DieRequest): number {
    throw new Error(`no die expected (asked for ${request.purpose})`);
  },
};

/** Carry out an input that must be accepted; its detail. */
export function give(state: FlowState, input: FlowInput, dice: Dice = NO_DICE): NonNullable<Extract<Applied, { ok: true }>['detail']> {
  const done = applyInput(state, input, dice);
  if (!done.ok) throw new Error(`refused ${input.t}: ${JSON.stringify(done.problem)}`);
  return done.detail ?? {};
}

/**
 * An input must be refused with `key`: a TENSEG.Error message whose
 * placeholders the problem fills, and the state exactly as it was.
 */
export function expectRefused(state: FlowState, input: unknown, key: string, dice: Dice = NO_DICE): void {
  const before = structuredClone(state);
  const done = applyInput(state, input as FlowInput, dice);
  expect(done.ok, `${JSON.stringify(input)} should be refused`).toBe(false);
  if (!done.ok) {
    expect(done.problem.key).toBe(key);
    const text = lang[`TENSEG.Error.${key}`];
    expect(text, `TENSEG.Error.${key}`).toBeTypeOf('string');
    for (const placeholder of text.match(/{[^}]+}/g) ?? []) expect(done.problem.data ?? {}, `${key} ${placeholder}`).toHaveProperty(placeholder.slice(1, -1));
  }
  expect(state).toStrictEqual(before);
}

export const init = (side: string, round: number, result: number): ScriptedRoll => ({ purpose: 'initiative', side, round, result });
export const surprise = (side: string, result: number): ScriptedRoll => ({ purpose: 'surprise', side, round: 0, result });
/** individual-speed: a combatant's own d12 (Base Initiative). */
export const base = (combatant: string, result: number): ScriptedRoll => ({ purpose: 'initiative', combatant, result });

export const d = (combatant: string, action: Declaration['action'], extra: Partial<Declaration> = {}): Declaration => ({ combatant, action, ...extra });
export const melee = (combatant: string, target: string, extra: Partial<Declaration> = {}): Declaration => d(combatant, 'melee', { target, ...extra });

export function encounter(...combatants: Combatant[]): Encounter {
  const sides = [...new Set(combatants.map((c) => c.side))].map((id) => ({ id, name: id[0].toUpperCase() + id.slice(1) }));
  return structuredClone({ sides, combatants });
}

/** A combat under way: the first state, and the dice that go on answering from `rolls`. */
export function start(procedure: ProcedureId, enc: Encounter, rolls: ScriptedRoll[], options: Record<string, boolean | number | string> = {}) {
  const dice = new ScriptedDice(rolls);
  const started = startFlow(procedure, options, enc, dice);
  if (!started.ok) throw new RulesError(started.problem);
  return { state: started.state, dice };
}

/** Index of the first step of the round holding an entry of this combatant (of this kind or action). */
export function stepOf(state: FlowState, combatant: string, what?: { kind?: string; action?: string }): number {
  return (state.schedule?.steps ?? []).findIndex((s) =>
    s.entries.some((e) => e.combatant === combatant && (!what?.kind || e.kind === what.kind) && (!what?.action || e.action === what.action)),
  );
}

/** Next until step k is the one being played. */
export function playTo(state: FlowState, k: number, dice: Dice = NO_DICE): void {
  expect(state.stage).toBe('resolve');
  expect(k).toBeGreaterThanOrEqual(state.step);
  while (state.step < k) give(state, { t: 'next' }, dice);
}

/** Next through the rest of the round's steps, to its end. */
export function finishRound(state: FlowState, dice: Dice = NO_DICE): void {
  while (state.stage === 'resolve') give(state, { t: 'next' }, dice);
  expect(state.stage).toBe('end-of-round');
}
