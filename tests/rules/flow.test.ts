/**
 * The combat flow (src/rules/flow): the one driver every combat is played
 * by, and its log. What a GM running a combat sees: each input's effect on
 * the round (declarations, initiative, steps, hits and spells, joiners,
 * leavers, sides, morale, surprise), refusals that change nothing, and a
 * combat stored as a log that every client replays to the same state,
 * Previous included.
 *
 * Rules assertions name the seed passage (seeds/000…004) or the ruling
 * (seeds/README.md, README.md "Rules notes") they check.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomDice, ScriptedDice, type Dice, type DieRequest, type ScriptedRoll } from '../../src/rules/dice';
import { PROCEDURE_IDS, RulesError, type Combatant, type Declaration, type ProcedureId, type Side } from '../../src/rules/model';
import type { Encounter } from '../../src/rules/procedure';
import {
  apply,
  applyInput,
  currentActors,
  currentEntries,
  entriesOf,
  entryKey,
  FLOW_VERSION,
  flowFrom,
  FlowLog,
  migrateState,
  opensRound,
  RecordedDice,
  RecordingDice,
  replay,
  startCombat,
  startFlow,
  type Applied,
  type EntryOutcome,
  type FlowInput,
  type FlowState,
  type InputEntry,
  type KeyedLog,
  type LogEntry,
} from '../../src/rules/flow';
import { diff, type Json } from '../../src/rules/journal';

/* ================================================================ helpers */

/** Every problem key the flow may answer with must be a message under TENSEG.Error. */
const lang = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;
const ERROR_KEYS = new Set(Object.keys(lang).filter((k) => k.startsWith('TENSEG.Error.')).map((k) => k.slice('TENSEG.Error.'.length)));

/** Dice that must not be asked: a refusal is decided before anything is rolled. */
const NO_DICE: Dice = {
  roll(request: DieRequest): number {
    throw new Error(`no die expected (asked for ${request.purpose})`);
  },
};

/** Carry out an input that must be accepted. */
function give(state: FlowState, input: FlowInput, dice: Dice = NO_DICE): NonNullable<Extract<Applied, { ok: true }>['detail']> {
  const done = applyInput(state, input, dice);
  if (!done.ok) throw new Error(`refused ${input.t}: ${JSON.stringify(done.problem)}`);
  return done.detail ?? {};
}

/** An input must be refused with `key`, a TENSEG.Error message, and leave the state exactly as it was. */
function expectRefused(state: FlowState, input: unknown, key: string, dice: Dice = NO_DICE): void {
  const before = structuredClone(state);
  const done = applyInput(state, input as FlowInput, dice);
  expect(done.ok, `${JSON.stringify(input)} should be refused`).toBe(false);
  if (!done.ok) expect(done.problem.key).toBe(key);
  expect(ERROR_KEYS.has(key), `TENSEG.Error.${key} exists`).toBe(true);
  expect(state).toStrictEqual(before);
}

/** Index of the first step of the round holding an entry of this combatant (and kind). */
function stepOf(state: FlowState, combatant: string, kind?: string): number {
  return (state.schedule?.steps ?? []).findIndex((s) => s.entries.some((e) => e.combatant === combatant && (!kind || e.kind === kind)));
}

/** Segment of that step. */
function segmentOf(state: FlowState, combatant: string, kind?: string): number | undefined {
  const k = stepOf(state, combatant, kind);
  return k < 0 ? undefined : state.schedule?.steps[k].segment;
}

/** Outcome of a combatant's entry (of a kind) in the step being played. */
function outcomeNow(state: FlowState, combatant: string, kind?: string): EntryOutcome | undefined {
  return currentEntries(state).find((x) => x.entry.combatant === combatant && (!kind || x.entry.kind === kind))?.outcome;
}

/** Next until step k is the one being played. */
function playTo(state: FlowState, k: number, dice: Dice = NO_DICE): void {
  expect(state.stage).toBe('resolve');
  expect(k).toBeGreaterThanOrEqual(state.step);
  while (state.step < k) give(state, { t: 'next' }, dice);
}

/** Next through the rest of the round's steps, to its end. */
function finishRound(state: FlowState, dice: Dice = NO_DICE): void {
  while (state.stage === 'resolve') give(state, { t: 'next' }, dice);
  expect(state.stage).toBe('end-of-round');
}

const d = (combatant: string, action: Declaration['action'], extra: Partial<Declaration> = {}): Declaration => ({ combatant, action, ...extra });
const melee = (combatant: string, target: string): Declaration => d(combatant, 'melee', { target });
const init = (side: string, round: number, result: number): ScriptedRoll => ({ purpose: 'initiative', side, round, result });
const surprise = (side: string, result: number): ScriptedRoll => ({ purpose: 'surprise', side, round: 0, result });

/* ============================================ the Halvaine party (seed 000) */

const party: Side = { id: 'party', name: 'Party' };
const orcs: Side = { id: 'orcs', name: 'Orcs' };
const halvaine: Combatant = { id: 'halvaine', name: 'Halvaine the Arcane', side: 'party', hp: 6, spells: ['Sleep', 'Sleep', 'Web'] };
const fighter: Combatant = { id: 'fighter', name: 'Fighter', side: 'party', hp: 10 };
const orc: Combatant = { id: 'orc', name: 'Orc', side: 'orcs', hp: 5 };
const orc2: Combatant = { id: 'orc2', name: 'Orc 2', side: 'orcs', hp: 5 };

function d6Encounter(): Encounter {
  return structuredClone({ sides: [party, orcs], combatants: [halvaine, fighter, orc, orc2] });
}

/** A segment-d6 combat: surprise dice (default: nobody surprised, "play moves on to the regular combat round"), then `more`. */
function d6Combat(more: ScriptedRoll[] = [], surpriseDice: ScriptedRoll[] = [surprise('party', 5), surprise('orcs', 5)]) {
  const dice = new ScriptedDice([...surpriseDice, ...more]);
  const started = startFlow('segment-d6', {}, d6Encounter(), dice);
  if (!started.ok) throw new RulesError(started.problem);
  return { state: started.state, dice };
}

const sleep = (castingTime: number, spell = 'Sleep'): Declaration => d('halvaine', 'spell', { spell, castingTime, target: 'orc' });
const orcsAttack = { orc: melee('orc', 'halvaine'), orc2: melee('orc2', 'fighter') };
