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
import { beforeAll, describe, expect, it } from 'vitest';
import { RandomDice, ScriptedDice, type Dice, type DieRequest, type ScriptedRoll } from '../../src/rules/dice';
import { PROCEDURE_IDS, RulesError, type Combatant, type Declaration, type ProcedureId, type Side } from '../../src/rules/model';
import type { Encounter } from '../../src/rules/procedure';
import {
  apply,
  applyInput,
  chainKey,
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
import type { Json } from '../../src/rules/journal';
import { diff } from '../../src/rules/journal-diff';

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

/* ================================================== 1. segment-d6 (seed 000) */

/** Round 1 of the Halvaine example: Halvaine declares a spell, the GM's orcs are held until initiative. */
function halvaineRound(castingTime: number, dice: ScriptedRoll[]) {
  const combat = d6Combat(dice);
  give(combat.state, { t: 'declare', d: sleep(castingTime) });
  give(combat.state, { t: 'begin', d: orcsAttack }, combat.dice);
  return combat;
}

/** The round's castings by caster (their ids are the engine's own). */
function castingOf(state: FlowState, caster: string): string {
  const c = state.schedule?.castings.find((x) => x.caster === caster);
  if (!c) throw new Error(`no casting of ${caster}`);
  return c.id;
}

/** Outcomes of every entry of a combatant (of a kind) over the rest of the round, played to its end. */
function playRoundCollecting(state: FlowState, combatant: string, kind: string, dice: Dice = NO_DICE): EntryOutcome[] {
  const seen: EntryOutcome[] = [];
  for (;;) {
    const o = outcomeNow(state, combatant, kind);
    if (o) seen.push(o);
    give(state, { t: 'next' }, dice);
    if (state.stage !== 'resolve') return seen;
  }
}

describe('segment-d6 through the flow (seed 000)', () => {
  it('declare and withdraw before initiative: "Before the two sides roll initiative, spell casters must state what spells (if any) they will be casting"', () => {
    const { state, dice } = d6Combat([init('party', 1, 5), init('orcs', 1, 4)]);
    expect(state).toMatchObject({ round: 1, firstRound: 1, stage: 'declare', initiative: null, schedule: null });
    const first = sleep(2);
    give(state, { t: 'declare', d: first });
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    // The declaration recorded is the one given, not a live reference to the caller's object.
    first.spell = 'Web';
    expect(state.declarations).toEqual({ halvaine: sleep(2), fighter: melee('fighter', 'orc') });
    // Declared again before initiative: the new declaration replaces the old.
    give(state, { t: 'declare', d: sleep(2, 'Web') });
    give(state, { t: 'withdraw', c: 'fighter' });
    expect(state.declarations).toEqual({ halvaine: sleep(2, 'Web') });
    // Nothing rolled or planned while declaring: only the two surprise dice so far.
    expect(state.initiative).toBeNull();
    expect(state.schedule).toBeNull();
    expect(dice.log.map((l) => l.request.purpose)).toEqual(['surprise', 'surprise']);

    give(state, { t: 'begin' }, dice);
    expect(stepOf(state, 'fighter')).toBe(-1); // withdrawn: does nothing this round
    expect(state.schedule?.castings.map((c) => c.spell)).toEqual(['Web']);
  });

  it('begin rolls initiative and plans the round, with the GM\'s held declarations: the Halvaine example ("begins casting in the fourth segment ... The orcs attack in the fifth segment ... his spell will go off in the sixth")', () => {
    const { state, dice } = d6Combat([init('party', 1, 5), init('orcs', 1, 4)]);
    give(state, { t: 'declare', d: sleep(2) });
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    // The GM formed the monsters' plan beforehand and holds it until initiative; null takes one back.
    give(state, { t: 'begin', d: { ...orcsAttack, fighter: null } }, dice);
    expect(state.initiative?.sides).toEqual({ party: 5, orcs: 4 });
    expect(state.initiative?.winner).toBe('party'); // "highest result is the winner"
    expect(state.declarations).toEqual({ halvaine: sleep(2), ...orcsAttack });
    // "each party acts in the segment indicated by the other party's die roll"
    expect(segmentOf(state, 'halvaine', 'cast-begin')).toBe(4);
    expect(segmentOf(state, 'orc', 'action')).toBe(5);
    expect(segmentOf(state, 'orc2', 'action')).toBe(5);
    expect(segmentOf(state, 'halvaine', 'cast-complete')).toBe(6);
    expect(stepOf(state, 'fighter')).toBe(-1);
    expect(state).toMatchObject({ stage: 'resolve', step: 0 });
    expect(currentActors(state)).toEqual(['halvaine']);
    expect(outcomeNow(state, 'halvaine', 'cast-begin')).toBe('begins');
    expect(dice.unused()).toEqual([]);
  });

  it('next plays one step at a time: "a goblin killed in the first segment of the round will be dead (and thus unable to attack) by the time the fifth segment of the round arrives"', () => {
    const { state, dice } = d6Combat([init('party', 1, 5), init('orcs', 1, 1), init('party', 2, 2), init('orcs', 2, 3)]);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, dice);
    // "If the party rolls a 6 ... and the monsters roll a 1, ... the party will be acting in segment 1": here 5 and 1.
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([1, 5]);
    expect(currentActors(state)).toEqual(['fighter']);
    expect(give(state, { t: 'hit', target: 'orc', amount: 5, by: 'fighter' }).hit?.after).toBe('dead'); // rules note: dead at 0 hp
    give(state, { t: 'next' });
    expect(state.step).toBe(1);
    expect(state.outcomes).toHaveLength(2); // exactly one more step opened
    expect(outcomeNow(state, 'orc')).toBe('cannot-act');
    expect(outcomeNow(state, 'orc2')).toBe('acts');
    expect(currentActors(state)).toEqual(['orc2']);
    // After the last step: the end of the round, which reports the dead (rules note: "nothing beyond reporting deaths").
    give(state, { t: 'next' });
    expect(state.stage).toBe('end-of-round');
    expect(state.end).toEqual([{ kind: 'death', combatant: 'orc' }]);
    // "declare spells and general actions for the next round": same as last round while it can still be done.
    give(state, { t: 'next' });
    expect(state).toMatchObject({ round: 2, stage: 'declare', schedule: null, initiative: null });
    // The fighter's attack at the dead orc is not carried on (rules revision 5, issue 28: "same as last round" never carries a fallen target).
    expect(state.declarations).toEqual({ orc2: melee('orc2', 'fighter') });
    give(state, { t: 'declare', d: melee('fighter', 'orc2') });
    give(state, { t: 'begin' }, dice);
    expect(stepOf(state, 'orc')).toBe(-1);
    expect(dice.unused()).toEqual([]);
  });

  it('a tie is one simultaneous step: "It is possible for two combatants to kill each other during a simultaneous initiative round!"', () => {
    const { state, dice } = d6Combat([init('party', 1, 3), init('orcs', 1, 3)]);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(state.schedule?.steps).toHaveLength(1);
    expect(state.initiative?.winner).toBeNull();
    give(state, { t: 'hit', target: 'orc', amount: 5, by: 'fighter' });
    // The orc died in this very step, yet its blow still lands and it is shown acting.
    give(state, { t: 'hit', target: 'fighter', amount: 10, by: 'orc' });
    expect(outcomeNow(state, 'orc')).toBe('acts');
    expect(state.states.orc.condition).toBe('dead');
    expect(state.states.fighter.condition).toBe('dead');
    give(state, { t: 'next' });
    expect(state.end).toEqual([
      { kind: 'death', combatant: 'fighter' },
      { kind: 'death', combatant: 'orc' },
    ]);
  });

  describe('spells and hits (README casting ruling: damage in S … S + time − 1 interrupts and the spell is lost)', () => {
    it('a hit in the fifth segment spoils the casting: "provided, of course, that the orcish attack in the fifth segment does not interrupt and thus spoil his casting"', () => {
      const { state } = halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4)]);
      playTo(state, stepOf(state, 'orc'));
      const detail = give(state, { t: 'hit', target: 'halvaine', amount: 2, by: 'orc' });
      expect(detail.interruptions).toEqual([expect.objectContaining({ caster: 'halvaine', spell: 'Sleep', outcome: 'interrupted', expended: true })]);
      expect(state.states.halvaine.expended).toEqual(['Sleep']); // lost: one copy gone
      give(state, { t: 'next' });
      expect(state.schedule?.steps[state.step].segment).toBe(6);
      expect(outcomeNow(state, 'halvaine', 'cast-complete')).toBe('interrupted');
      expect(currentActors(state)).not.toContain('halvaine');
      finishRound(state);
      expect(state.states.halvaine.expended).toEqual(['Sleep']);
    });

    it('damage before the caster\'s segment does nothing: "The spell caster does not actually begin casting the spell until his or her initiative segment"', () => {
      // Party rolls 2: the orcs act in segment 2; the orcs roll 4: Halvaine begins in 4, goes off in 6.
      const { state } = halvaineRound(2, [init('party', 1, 2), init('orcs', 1, 4)]);
      expect(segmentOf(state, 'orc')).toBe(2);
      playTo(state, stepOf(state, 'orc'));
      expect(give(state, { t: 'hit', target: 'halvaine', amount: 2, by: 'orc' }).interruptions).toEqual([]);
      expect(playRoundCollecting(state, 'halvaine', 'cast-complete')).toEqual(['goes-off']);
      expect(state.states.halvaine.expended).toEqual(['Sleep']); // cast: one copy used
    });

    it('damage in the segment the spell goes off is simultaneous and does not stop it (README casting ruling)', () => {
      // A 1-segment spell begun in 4 goes off in 5, the orcs' segment.
      const { state } = halvaineRound(1, [init('party', 1, 5), init('orcs', 1, 4)]);
      playTo(state, stepOf(state, 'halvaine', 'cast-complete'));
      expect(outcomeNow(state, 'orc')).toBe('acts');
      expect(give(state, { t: 'hit', target: 'halvaine', amount: 2, by: 'orc' }).interruptions).toEqual([]);
      expect(outcomeNow(state, 'halvaine', 'cast-complete')).toBe('goes-off');
    });

    it('cancel: "the spell caster may elect not to cast the spell" — it does not go off and is not expended', () => {
      const { state } = halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4)]);
      const casting = castingOf(state, 'halvaine');
      give(state, { t: 'cancel', casting });
      expect(state.status[casting]).toBe('cancelled');
      expect(outcomeNow(state, 'halvaine', 'cast-begin')).toBe('cancelled'); // shown at once in the step being played
      expect(currentActors(state)).toEqual([]);
      expectRefused(state, { t: 'cancel', casting }, 'NoCasting'); // nothing left to cancel
      give(state, { t: 'next' });
      // A hit now breaks nothing: no casting is under way.
      expect(give(state, { t: 'hit', target: 'halvaine', amount: 1, by: 'orc' }).interruptions).toEqual([]);
      expect(playRoundCollecting(state, 'halvaine', 'cast-complete')).toEqual(['cancelled']);
      expect(state.states.halvaine.expended).toEqual([]);
    });

    it('restore: the GM undoes an interruption, the casting goes on and the spell is restored (then spent once when it goes off)', () => {
      const { state } = halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4)]);
      playTo(state, stepOf(state, 'orc'));
      const casting = castingOf(state, 'halvaine');
      give(state, { t: 'hit', target: 'halvaine', amount: 2, by: 'orc' });
      give(state, { t: 'restore', casting });
      expect(state.interruptions).toEqual([]);
      expect(state.status[casting]).toBe('pending');
      expect(state.states.halvaine.expended).toEqual([]);
      expectRefused(state, { t: 'restore', casting }, 'NoInterruption');
      expect(playRoundCollecting(state, 'halvaine', 'cast-complete')).toEqual(['goes-off']);
      expect(state.states.halvaine.expended).toEqual(['Sleep']);
    });

    it('healing is no hit: it interrupts nothing (README, Foundry choices: "Healing is followed … but is no hit")', () => {
      const { state } = halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4)]);
      playTo(state, stepOf(state, 'orc'));
      const detail = give(state, { t: 'hit', target: 'halvaine', amount: -2 });
      expect(detail.interruptions).toEqual([]);
      expect(state.states.halvaine.hp).toBe(8);
      expect(state.hits).toEqual([]);
      expect(playRoundCollecting(state, 'halvaine', 'cast-complete')).toEqual(['goes-off']);
    });
  });

  describe('a casting longer than the round (rules note: "Past segment 10 it carries over … and is vulnerable from the start of the next round until it goes off")', () => {
    const carryDice = [init('party', 1, 3), init('orcs', 1, 4), init('party', 2, 2), init('orcs', 2, 6)];

    /** Halvaine begins a 10-segment spell in segment 4 of round 1; the round is played to its end. */
    function carrying() {
      const combat = halvaineRound(10, carryDice);
      finishRound(combat.state, combat.dice);
      return combat;
    }

    /** On to round 2 with Halvaine declaring nothing new; the outcomes of the carried casting's completion in round 2. */
    function round2(state: FlowState, dice: Dice): EntryOutcome[] {
      if (state.stage === 'end-of-round') give(state, { t: 'next' });
      if (state.declarations.halvaine) give(state, { t: 'withdraw', c: 'halvaine' });
      give(state, { t: 'begin' }, dice);
      return playRoundCollecting(state, 'halvaine', 'cast-complete', dice);
    }

    it('carries into the next round and goes off there (begun in 4, ten segments: segment 4 of round 2)', () => {
      const { state, dice } = carrying();
      expect(state.carry.map((c) => c.caster)).toEqual(['halvaine']);
      give(state, { t: 'next' });
      give(state, { t: 'withdraw', c: 'halvaine' });
      give(state, { t: 'begin' }, dice);
      expect(segmentOf(state, 'halvaine', 'cast-complete')).toBe(4);
      expect(playRoundCollecting(state, 'halvaine', 'cast-complete', dice)).toEqual(['goes-off']);
      expect(state.states.halvaine.expended).toEqual(['Sleep']);
    });

    it('a hit while the next round is declared breaks it: it is not carried into the round', () => {
      const { state, dice } = carrying();
      give(state, { t: 'next' });
      const detail = give(state, { t: 'hit', target: 'halvaine', amount: 1 });
      expect(detail.interruptions?.map((i) => i.outcome)).toEqual(['interrupted']);
      expect(round2(state, dice)).toEqual([]);
      expect(state.states.halvaine.expended).toEqual(['Sleep']);
    });

    // What happens to a carried casting between the last step and the next round's plan counts (transitions.ts: carry
    // keeps the castings running past the round, their status decides which carry on).
    it('a hit after the last step of the round (end of round) breaks it too: reported lost, it must not go off next round', () => {
      const { state, dice } = carrying();
      const detail = give(state, { t: 'hit', target: 'halvaine', amount: 1 });
      expect(detail.interruptions?.map((i) => i.outcome)).toEqual(['interrupted']); // the GM is told the spell is lost …
      expect(state.states.halvaine.expended).toEqual(['Sleep']);
      expect(round2(state, dice)).not.toContain('goes-off'); // … so it must not go off in round 2
      expect(state.states.halvaine.expended).toEqual(['Sleep']); // and one casting spends one copy
    });

    it('a last copy lost while the next round is declared: "same as last round" does not begin the spell again', () => {
      const combat = d6Combat(carryDice);
      give(combat.state, { t: 'declare', d: sleep(10, 'Web') }); // her only Web
      give(combat.state, { t: 'begin', d: orcsAttack }, combat.dice);
      const { state, dice } = combat;
      finishRound(state, dice);
      give(state, { t: 'next' });
      expect(state.declarations.halvaine).toMatchObject({ spell: 'Web' }); // kept: the Web is still being cast
      give(state, { t: 'hit', target: 'halvaine', amount: 1 });
      expect(state.states.halvaine.expended).toEqual(['Web']);
      give(state, { t: 'begin' }, dice);
      expect(state.declarations.halvaine).toBeUndefined();
      expect(state.schedule?.castings.filter((c) => c.caster === 'halvaine')).toEqual([]);
    });

    it('a casting cancelled after the last step of the round ("may elect not to cast the spell") does not go off next round', () => {
      const { state, dice } = carrying();
      give(state, { t: 'cancel', casting: castingOf(state, 'halvaine') });
      expect(round2(state, dice)).not.toContain('goes-off');
      expect(state.states.halvaine.expended).toEqual([]);
    });

    it('an interruption the GM undoes after the last step of the round: the casting goes on into the next round', () => {
      const { state, dice } = halvaineRound(10, carryDice);
      const casting = castingOf(state, 'halvaine');
      playTo(state, stepOf(state, 'halvaine', 'cast-begin'));
      give(state, { t: 'hit', target: 'halvaine', amount: 1, by: 'orc' });
      finishRound(state, dice);
      give(state, { t: 'restore', casting });
      expect(state.states.halvaine.expended).toEqual([]);
      expect(round2(state, dice)).toEqual(['goes-off']);
    });
  });

  describe('combatants joining, leaving, changing sides', () => {
    it('a joiner before initiative is planned with the others, in its side\'s segment', () => {
      const { state, dice } = d6Combat([init('party', 1, 5), init('orcs', 1, 4)]);
      const orc3: Combatant = { id: 'orc3', name: 'Orc 3', side: 'orcs', hp: 5 };
      give(state, { t: 'join', c: orc3, d: melee('orc3', 'fighter') }, dice);
      expect(state.states.orc3).toMatchObject({ hp: 5, condition: 'ok' });
      expect(state.joins).toEqual([]); // not a late joiner: the round is not under way
      give(state, { t: 'begin', d: orcsAttack }, dice);
      expect(segmentOf(state, 'orc3')).toBe(5);
      expect(stepOf(state, 'orc3')).toBe(stepOf(state, 'orc'));
    });

    it('a late joiner acts with its side if its side\'s segment is still to come (rules note: late joiners), otherwise from the next round', () => {
      const { state, dice } = halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4), init('party', 2, 2), init('orcs', 2, 3)]);
      const wolf: Combatant = { id: 'wolf', name: 'Wolf', side: 'orcs', hp: 4 };
      const goblin: Combatant = { id: 'goblin', name: 'Goblin', side: 'orcs', hp: 3 };
      // Segment 4 (the party's) is being played; the orcs act in 5.
      expect(state.schedule?.steps[state.step].segment).toBe(4);
      give(state, { t: 'join', c: wolf, d: melee('wolf', 'fighter') }, dice);
      expect(state.joins).toEqual([{ combatant: 'wolf', step: 0 }]);
      expect(stepOf(state, 'wolf')).toBe(stepOf(state, 'orc')); // with its side, in segment 5
      give(state, { t: 'next' });
      expect(outcomeNow(state, 'wolf')).toBe('acts');
      // Now the orcs' segment is being played: a newcomer on their side has missed it.
      give(state, { t: 'join', c: goblin, d: melee('goblin', 'halvaine') }, dice);
      expect(stepOf(state, 'goblin')).toBe(-1);
      finishRound(state);
      give(state, { t: 'next' });
      expect(state.declarations.goblin).toEqual(melee('goblin', 'halvaine'));
      give(state, { t: 'begin' }, dice);
      // Round 2: the party rolled 2, so the orcs' side (with both newcomers) acts in segment 2.
      expect(segmentOf(state, 'goblin')).toBe(2);
      expect(segmentOf(state, 'wolf')).toBe(2);
    });

    it('leave: the combatant acts no more, its declaration is gone, it is no longer a target; its state is kept for the recap', () => {
      const { state, dice } = halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4), init('party', 2, 3), init('orcs', 2, 3)]);
      give(state, { t: 'leave', c: 'orc2' });
      expect(state.encounter.combatants.map((c) => c.id)).toEqual(['halvaine', 'fighter', 'orc']);
      expect(state.declarations.orc2).toBeUndefined();
      expect(state.states.orc2).toMatchObject({ hp: 5, condition: 'fled' });
      expectRefused(state, { t: 'hit', target: 'orc2', amount: 1 }, 'UnknownCombatant');
      expectRefused(state, { t: 'leave', c: 'orc2' }, 'UnknownCombatant');
      give(state, { t: 'next' });
      expect(outcomeNow(state, 'orc2')).toBe('cannot-act');
      expect(outcomeNow(state, 'orc')).toBe('acts');
      finishRound(state);
      give(state, { t: 'next' });
      expect(Object.keys(state.declarations).sort()).toEqual(['halvaine', 'orc']);
      give(state, { t: 'begin' }, dice);
      expect(stepOf(state, 'orc2')).toBe(-1);
    });

    it('move before initiative: the combatant acts with its new side ("each party acts in the segment indicated by the other party\'s die roll")', () => {
      const { state, dice } = d6Combat([init('party', 1, 5), init('orcs', 1, 4)]);
      give(state, { t: 'move', c: 'orc2', side: 'party' });
      expect(state.encounter.combatants.find((c) => c.id === 'orc2')?.side).toBe('party');
      give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'orc') } }, dice);
      expect(segmentOf(state, 'orc2')).toBe(4); // with the party: the orcs' die
      expect(segmentOf(state, 'orc')).toBe(5);
    });

    it('move during the round counts from the next plan; a new side rolls its own die (ruling: "the segment shown by the highest die rolled by any opposing side")', () => {
      const dice = [init('party', 1, 5), init('orcs', 1, 4), init('party', 2, 2), init('orcs', 2, 3), init('deserters', 2, 6)];
      const { state, dice: scripted } = halvaineRound(2, dice);
      const planned = structuredClone(state.schedule);
      give(state, { t: 'move', c: 'orc2', side: 'deserters', add: { id: 'deserters', name: 'Deserters' } });
      expect(state.encounter.sides.map((s) => s.id)).toEqual(['party', 'orcs', 'deserters']);
      expect(state.schedule).toEqual(planned); // this round stands
      give(state, { t: 'next' });
      expect(outcomeNow(state, 'orc2')).toBe('acts');
      finishRound(state);
      give(state, { t: 'next' });
      give(state, { t: 'begin' }, scripted);
      expect(state.initiative?.sides).toEqual({ party: 2, orcs: 3, deserters: 6 });
      expect(segmentOf(state, 'orc2')).toBe(3); // highest opposing die: the orcs' 3 over the party's 2
      expect(segmentOf(state, 'orc')).toBe(6); // highest opposing die: the deserters' 6
      expect(segmentOf(state, 'halvaine', 'cast-begin')).toBe(6);
    });
  });

  it('morale: the text has none; RULING (issue 28) the GM\'s call is checked at once, 2d6 at or under the score (7 without one), a failure routs; the end of the round rolls none', () => {
    const { state, dice } = halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4), { purpose: 'morale', combatant: 'orc', result: 9 }]);
    give(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'leader-killed' }] }, dice);
    expect(state.morale).toEqual([{ kind: 'morale', combatant: 'orc', trigger: 'leader-killed', roll: 9, total: 9, target: 7, passed: false, method: '2d6', stage: 'resolve', step: 0 }]);
    expect(state.states.orc.routed).toBe(true);
    expect(state.moraleRequests).toEqual([]);
    finishRound(state); // NO_DICE: no morale die is asked for at the end
    expect(state.end?.some((e) => e.kind === 'morale')).toBe(false);
  });

  it('the surprise segments (round 0): "If the party rolls a 2 and the monsters roll a 5, ... the monsters ... have both of those 2 surprise segments in which to act"', () => {
    const { state, dice } = d6Combat([init('party', 1, 5), init('orcs', 1, 4)], [surprise('party', 2), surprise('orcs', 5)]);
    expect(state).toMatchObject({ round: 0, firstRound: 0, stage: 'declare' });
    expect(state.surprise.surprised).toEqual({ halvaine: 2, fighter: 2, orc: 0, orc2: 0 });
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: orcsAttack }, dice);
    expect(state.round).toBe(0);
    expect(state.initiative).toBeNull(); // "After any surprise segments are resolved ... each side rolls initiative"
    expect(state.schedule?.steps.map((s) => [s.phase, s.segment, s.entries.map((e) => e.combatant)])).toEqual([
      ['d6-surprise', 1, ['orc', 'orc2']],
      ['d6-surprise', 2, ['orc', 'orc2']],
    ]);
    expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'fear' }] }, 'MoraleInSurprise');
    finishRound(state);
    expect(state.end).toEqual([]); // the surprise segments have no end of round
    give(state, { t: 'next' });
    expect(state).toMatchObject({ round: 1, stage: 'declare' });
    expect(state.declarations).toEqual({ fighter: melee('fighter', 'orc'), ...orcsAttack });
    give(state, { t: 'begin' }, dice);
    expect(state.initiative?.sides).toEqual({ party: 5, orcs: 4 });
    // "Surprise is checked only once per combat"
    expect(dice.log.filter((l) => l.request.purpose === 'surprise')).toHaveLength(2);
  });
});

/* ====================================================== 1. addict (seed 004) */

const addictEncounter = (): Encounter =>
  structuredClone({
    sides: [
      { id: 'party', name: 'Party' },
      { id: 'foes', name: 'Foes' },
    ],
    combatants: [
      { id: 'mage', name: 'Mage', side: 'party', hp: 6, spells: ['Sleep', 'Sleep'] },
      { id: 'fighter', name: 'Fighter', side: 'party', hp: 10 },
      { id: 'footman', name: 'Footman', side: 'party', hp: 4, morale: 40 },
      { id: 'ogre', name: 'Ogre', side: 'foes', hp: 20 },
      { id: 'gob', name: 'Goblin', side: 'foes', hp: 5, morale: 30 },
    ],
  });

function addictCombat(more: ScriptedRoll[], surpriseDice: ScriptedRoll[] = [surprise('party', 4), surprise('foes', 4)]) {
  const dice = new ScriptedDice([...surpriseDice, ...more]);
  const started = startFlow('addict', {}, addictEncounter(), dice);
  if (!started.ok) throw new RulesError(started.problem);
  return { state: started.state, dice };
}

const spellOfMage = (castingTime: number, extra: Partial<Declaration> = {}) => d('mage', 'spell', { spell: 'Sleep', castingTime, ...extra });
const foesAttack = { ogre: melee('ogre', 'mage'), gob: melee('gob', 'fighter') };
const moraleRoll = (combatant: string, result: number): ScriptedRoll => ({ purpose: 'morale', combatant, result });

describe('addict through the flow (seed 004)', () => {
  it('phase 4 before phase 5: the opening morale check is rolled at once, then the surprise segments ("Perform phases 6 and 8 … for the surprising party, one surprise segment at a time")', () => {
    const { state, dice } = addictCombat([moraleRoll('footman', 85), init('party', 1, 3), init('foes', 1, 4)], [surprise('party', 2), surprise('foes', 4)]);
    // Phase 2: the party rolled 2, surprised for two segments (seed 000's d6); the foes are not surprised.
    expect(state).toMatchObject({ round: 0, firstRound: 0, stage: 'declare' });
    expect(state.surprise.surprised).toMatchObject({ mage: 2, fighter: 2, footman: 2, ogre: 0, gob: 0 });
    // Phase 4: "if the fight is so lopsided there is the question of overwhelming fear, a morale check should be made right off the bat".
    give(state, { t: 'morale', requests: [{ combatant: 'footman', trigger: 'overwhelming-fear' }] }, dice);
    // README (addict): d100, passes at or under the morale score; a failure routs.
    expect(state.opening).toEqual([expect.objectContaining({ kind: 'morale', combatant: 'footman', roll: 85, target: 40, passed: false })]);
    expect(state.states.footman.routed).toBe(true);
    expect(state.moraleRequests).toEqual([]);
    // Rules revision 5 (issue 28): each call before round 1 is an opening check too (the tracker's Morale button calls one
    // per monster); during the surprise segments there is no end of round to check at.
    give(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'fear' }] }, new ScriptedDice([moraleRoll('gob', 10)]));
    expect(state.opening).toEqual([expect.objectContaining({ combatant: 'footman' }), expect.objectContaining({ combatant: 'gob', roll: 10, passed: true })]);

    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: foesAttack }, dice);
    // Phase 5: the surprising foes act in each surprise segment (they repeat their declaration); no initiative is rolled.
    expect(state.initiative).toBeNull();
    expect(state.schedule?.steps.map((s) => [s.phase, s.segment])).toEqual([
      ['addict-surprise-resolution', 1],
      ['addict-surprise-resolution', 2],
    ]);
    for (const step of state.schedule?.steps ?? []) expect(step.entries.map((e) => e.combatant).sort()).toEqual(['gob', 'ogre']);
    expectRefused(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'fear' }] }, 'MoraleInSurprise');
    finishRound(state);
    expectRefused(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'fear' }] }, 'MoraleInSurprise');
    give(state, { t: 'next' });
    // Round 1: phase 6 again; a morale call now is checked at once, in the round (no second opening check).
    expect(state).toMatchObject({ round: 1, stage: 'declare' });
    give(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'fear' }] }, new ScriptedDice([moraleRoll('gob', 10)]));
    expect(state.morale).toEqual([expect.objectContaining({ combatant: 'gob', roll: 10, target: 30, passed: true, stage: 'declare' })]);
    expect(state.moraleRequests).toEqual([]);
    expect(state.opening).toHaveLength(2);
    give(state, { t: 'begin' }, dice);
    // Phase 7: "One player rolls for their party's initiative and the DM rolls for the other parties".
    expect(state.initiative?.sides).toEqual({ party: 3, foes: 4 });
  });

  it('declare, withdraw, begin: spells begin in segment 1, each side acts in the segment of the other side\'s die (footnote 18: "rolling a 5 means that any spell taking 1-4 segments to cast could be completed before the spellcaster was attacked")', () => {
    const { state, dice } = addictCombat([init('party', 1, 5), init('foes', 1, 2)]);
    give(state, { t: 'declare', d: spellOfMage(4) });
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'declare', d: melee('footman', 'gob') });
    give(state, { t: 'withdraw', c: 'footman' });
    give(state, { t: 'begin', d: foesAttack }, dice);
    expect(state.initiative?.winner).toBe('party'); // "the party rolling higher wins initiative"
    expect(segmentOf(state, 'mage', 'cast-begin')).toBe(1);
    expect(segmentOf(state, 'fighter')).toBe(2);
    expect(segmentOf(state, 'mage', 'cast-complete')).toBe(5);
    expect(segmentOf(state, 'ogre')).toBe(5);
    expect(stepOf(state, 'footman')).toBe(-1);
    // Footnote 18 ("completed before the spellcaster was attacked"): the 4-segment spell goes off at the top of
    // segment 5, in a step of its own before the ogre's blow of segment 5, which comes too late.
    expect(stepOf(state, 'mage', 'cast-complete')).toBeLessThan(stepOf(state, 'ogre'));
    playTo(state, stepOf(state, 'mage', 'cast-complete'));
    expect(outcomeNow(state, 'mage', 'cast-complete')).toBe('goes-off');
    playTo(state, stepOf(state, 'ogre'));
    expect(give(state, { t: 'hit', target: 'mage', amount: 2, by: 'ogre' }).interruptions).toEqual([]);
    expect(state.states.mage.expended).toEqual(['Sleep']);
  });

  it('a hit before the spell goes off loses it, "even if the start of casting was delayed" (footnote 11: "Spells are always lost if the caster is hit during a round before they finish casting")', () => {
    const { state, dice } = addictCombat([init('party', 1, 2), init('foes', 1, 5)]);
    // Three segments of hesitation: the casting begins in segment 4; the foes act in segment 2.
    give(state, { t: 'declare', d: spellOfMage(3, { hesitation: 3 }) });
    give(state, { t: 'begin', d: foesAttack }, dice);
    expect(segmentOf(state, 'mage', 'cast-begin')).toBe(4);
    expect(segmentOf(state, 'ogre')).toBe(2);
    playTo(state, stepOf(state, 'ogre'));
    const detail = give(state, { t: 'hit', target: 'mage', amount: 2, by: 'ogre' });
    expect(detail.interruptions).toEqual([expect.objectContaining({ caster: 'mage', outcome: 'interrupted', expended: true })]);
    expect(state.states.mage.expended).toEqual(['Sleep']);
    expect(playRoundCollecting(state, 'mage', 'cast-complete')).not.toContain('goes-off');
  });

  it('cancel ("it can be canceled during action resolution") and restore (the GM\'s undo) of a casting', () => {
    const { state, dice } = addictCombat([init('party', 1, 2), init('foes', 1, 5)]);
    give(state, { t: 'declare', d: spellOfMage(3) });
    give(state, { t: 'begin', d: foesAttack }, dice);
    const casting = castingOf(state, 'mage');
    playTo(state, stepOf(state, 'ogre'));
    give(state, { t: 'hit', target: 'mage', amount: 2, by: 'ogre' });
    give(state, { t: 'restore', casting });
    expect(state.states.mage.expended).toEqual([]);
    give(state, { t: 'cancel', casting });
    expect(playRoundCollecting(state, 'mage', 'cast-complete')).toEqual(['cancelled']);
    expect(state.states.mage.expended).toEqual([]);
  });

  it('GM morale calls during the round are checked at once by phase 4\'s die (issue 28, "morale answers at once"; a failed check sets routed), not again at the end', () => {
    const { state, dice } = addictCombat([init('party', 1, 5), init('foes', 1, 2), moraleRoll('gob', 50), moraleRoll('ogre', 20)]);
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: foesAttack }, dice);
    give(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'ally-slain' }, { combatant: 'ogre', trigger: 'ally-slain' }] }, dice);
    expect(state.opening).toBeNull(); // not an opening check: the round is under way
    // Goblin: 50 over its morale 30, fails. Ogre: no score, default 50; 20 passes.
    expect(state.morale).toEqual([
      expect.objectContaining({ combatant: 'gob', roll: 50, target: 30, passed: false, stage: 'resolve', step: 0 }),
      expect.objectContaining({ combatant: 'ogre', roll: 20, target: 50, passed: true, stage: 'resolve', step: 0 }),
    ]);
    expect(state.states.gob.routed).toBe(true);
    expect(state.states.ogre.routed).toBeFalsy();
    expect(state.moraleRequests).toEqual([]);
    while (state.stage === 'resolve') give(state, { t: 'next' }, NO_DICE); // nothing rolled at the end
    expect((state.end ?? []).filter((e) => e.kind === 'morale')).toEqual([]);
  });

  it('join mid-round (README addict, late joiners: "acts as if it had declared in phase 6, in its side\'s segment, if that moment is still to come"), leave, move', () => {
    const { state, dice } = addictCombat([init('party', 1, 5), init('foes', 1, 2), init('party', 2, 6), init('foes', 2, 1)]);
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: foesAttack }, dice);
    // The party acts in segment 2, the foes in 5.
    expect(state.schedule?.steps[state.step].segment).toBe(2);
    const wolf: Combatant = { id: 'wolf', name: 'Wolf', side: 'foes', hp: 6 };
    give(state, { t: 'join', c: wolf, d: melee('wolf', 'fighter') }, dice);
    expect(segmentOf(state, 'wolf')).toBe(5);
    expect(stepOf(state, 'wolf')).toBe(stepOf(state, 'gob')); // with its side, same letter (G, melee)
    // The goblin flees the fight before its segment: it no longer acts.
    give(state, { t: 'leave', c: 'gob' });
    playTo(state, stepOf(state, 'wolf'));
    expect(outcomeNow(state, 'wolf')).toBe('acts');
    expect(outcomeNow(state, 'gob')).toBe('cannot-act');
    finishRound(state);
    give(state, { t: 'next' });
    // The ogre changes sides: from the next plan it acts in the party's segment (the foes' die).
    give(state, { t: 'move', c: 'ogre', side: 'party' });
    give(state, { t: 'declare', d: melee('ogre', 'wolf') });
    // The goblin the fighter attacked has fled: "same as last round" does not carry an attack at it (rules revision 5); the fighter turns to the wolf.
    expect(state.declarations.fighter).toBeUndefined();
    give(state, { t: 'declare', d: melee('fighter', 'wolf') });
    give(state, { t: 'begin' }, dice);
    expect(state.initiative?.sides).toEqual({ party: 6, foes: 1 });
    expect(segmentOf(state, 'ogre')).toBe(1);
    expect(segmentOf(state, 'fighter')).toBe(1);
    expect(segmentOf(state, 'wolf')).toBe(6);
    expect(stepOf(state, 'gob')).toBe(-1);
  });
});

/* ============================================ 2. validation first, nothing changed */

describe('a refused input changes nothing (validation first)', () => {
  /** Round 1 of the Halvaine example under way: step 0 (segment 4) is being played. */
  const resolving = () => halvaineRound(2, [init('party', 1, 5), init('orcs', 1, 4)]).state;
  const declaring = () => d6Combat([init('party', 1, 5), init('orcs', 1, 4)]).state;

  it('malformed inputs: not an input, an unknown kind, missing or ill-typed fields → MalformedRequest', () => {
    for (const state of [declaring(), resolving()]) {
      expectRefused(state, null, 'MalformedRequest');
      expectRefused(state, {}, 'MalformedRequest');
      expectRefused(state, { t: 'attack', target: 'orc' }, 'MalformedRequest');
      expectRefused(state, { t: 'join' }, 'MalformedRequest');
      expectRefused(state, { t: 'join', c: 'wolf' }, 'MalformedRequest');
      expectRefused(state, { t: 'join', c: { id: 7, side: 'orcs', name: 'x', hp: 1 } }, 'MalformedRequest');
      expectRefused(state, { t: 'morale', requests: [] }, 'MalformedRequest');
      expectRefused(state, { t: 'morale', requests: 'orc' }, 'MalformedRequest');
      expectRefused(state, { t: 'morale' }, 'MalformedRequest');
      expectRefused(state, { t: 'hit', target: 'orc', amount: Number.NaN }, 'NumberInvalid');
      expectRefused(state, { t: 'hit', target: 'orc', amount: '3' }, 'NumberInvalid');
      expectRefused(state, { t: 'hit', target: 'orc' }, 'NumberInvalid');
    }
  });

  it('unknown combatants (never there, or gone) → UnknownCombatant; taking back a declaration never made → NoDeclaration', () => {
    const state = declaring();
    give(state, { t: 'leave', c: 'orc2' });
    for (const id of ['ghost', 'orc2']) {
      expectRefused(state, { t: 'declare', d: melee(id, 'fighter') }, 'UnknownCombatant');
      expectRefused(state, { t: 'hit', target: id, amount: 3 }, 'UnknownCombatant');
      expectRefused(state, { t: 'leave', c: id }, 'UnknownCombatant');
      expectRefused(state, { t: 'move', c: id, side: 'party' }, 'UnknownCombatant');
      expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'x' }, { combatant: id, trigger: 'x' }] }, 'UnknownCombatant');
      expectRefused(state, { t: 'begin', d: { [id]: melee(id, 'fighter') } }, 'UnknownCombatant');
      expectRefused(state, { t: 'withdraw', c: id }, 'NoDeclaration');
    }
    expectRefused(state, { t: 'withdraw', c: 'fighter' }, 'NoDeclaration');
    expectRefused(state, { t: 'declare', d: undefined }, 'UnknownCombatant');
  });

  it('declaring, withdrawing or beginning again while the round is played → NotDeclaring (seed 004: "Once an action is declared, it cannot be changed")', () => {
    const state = resolving();
    expectRefused(state, { t: 'declare', d: melee('fighter', 'orc') }, 'NotDeclaring');
    expectRefused(state, { t: 'withdraw', c: 'halvaine' }, 'NotDeclaring');
    expectRefused(state, { t: 'begin' }, 'NotDeclaring');
    expectRefused(state, { t: 'begin', d: { fighter: melee('fighter', 'orc') } }, 'NotDeclaring');
    finishRound(state);
    expectRefused(state, { t: 'declare', d: melee('fighter', 'orc') }, 'NotDeclaring');
    expectRefused(state, { t: 'begin' }, 'NotDeclaring');
  });

  it('declarations the rules do not allow: an action of another procedure, a spell not memorized or all spent, a fallen combatant, a spell without its name', () => {
    const state = declaring();
    expectRefused(state, { t: 'declare', d: d('fighter', 'delay') }, 'ActionNotInProcedure');
    expectRefused(state, { t: 'declare', d: sleep(2, 'Fireball') }, 'SpellNotMemorized');
    // "spell casters must state what spells (if any) they will be casting"
    expectRefused(state, { t: 'declare', d: d('halvaine', 'spell', { castingTime: 2 }) }, 'SegmentD6SpellNotNamed');
    expectRefused(state, { t: 'declare', d: d('fighter', 'melee', { target: 'fighter' }) }, 'SegmentD6TargetSelf');
    // The GM's held declarations are all or nothing: one bad one and none is recorded.
    expectRefused(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: d('orc2', 'spell', { spell: 'x', castingTime: 0 }) } }, 'CastingTimeInvalid');
    expectRefused(state, { t: 'begin', d: { orc: melee('orc2', 'fighter') } }, 'DeclarationWrongCombatant');
    give(state, { t: 'hit', target: 'orc', amount: 5 });
    expect(state.states.orc.condition).toBe('dead');
    expectRefused(state, { t: 'declare', d: melee('orc', 'fighter') }, 'ActRefusedDead');
    expectRefused(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, 'ActRefusedDead');
  });

  it('a spell with no copy left cannot be declared: "a spell cast is expended" (model), one copy per memorized entry', () => {
    const { state, dice } = d6Combat([init('party', 1, 5), init('orcs', 1, 4)]);
    give(state, { t: 'declare', d: sleep(1, 'Web') });
    give(state, { t: 'begin' }, dice);
    finishRound(state);
    expect(state.states.halvaine.expended).toEqual(['Web']);
    give(state, { t: 'next' });
    // "same as last round" cannot carry a spell with no copy left …
    expect(state.declarations.halvaine).toBeUndefined();
    // … and it cannot be declared again; another memorized spell can.
    expectRefused(state, { t: 'declare', d: sleep(1, 'Web') }, 'SpellNotMemorized');
    give(state, { t: 'declare', d: sleep(1, 'Sleep') });
  });

  it('a begin the procedure itself refuses after the held declarations passed their checks records none of them (individual-speed: BaseInitiativeMissing)', () => {
    const started = startFlow('individual-speed', {}, skirmish(), new RandomDice(5));
    if (!started.ok) throw new RulesError(started.problem);
    const state = started.state;
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    // A combat whose stored state lost the orc's Base Initiative (rolled "once, at the beginning of combat").
    delete state.baseInitiative.orc;
    expectRefused(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: null } }, 'BaseInitiativeMissing');
  });

  it('castings: nothing to cancel while declaring or for an unknown id → NoCasting; nothing to restore → NoInterruption', () => {
    const state = declaring();
    expectRefused(state, { t: 'cancel', casting: 'halvaine@1' }, 'NoCasting');
    expectRefused(state, { t: 'restore', casting: 'halvaine@1' }, 'NoInterruption');
    const playing = resolving();
    expectRefused(playing, { t: 'cancel', casting: 'nope' }, 'NoCasting');
    expectRefused(playing, { t: 'cancel' }, 'NoCasting');
    expectRefused(playing, { t: 'restore', casting: castingOf(playing, 'halvaine') }, 'NoInterruption');
  });

  it('joining and moving: an id already in the fight, a side that does not exist, a declaration for someone else or against the rules', () => {
    for (const state of [declaring(), resolving()]) {
      expectRefused(state, { t: 'join', c: { ...orc, name: 'Another orc' } }, 'AlreadyInCombat');
      const wolf: Combatant = { id: 'wolf', name: 'Wolf', side: 'wolves', hp: 4 };
      expectRefused(state, { t: 'join', c: wolf }, 'UnknownSide');
      expectRefused(state, { t: 'join', c: wolf, side: { id: 'dogs', name: 'Dogs' } }, 'UnknownSide');
      const stray: Combatant = { ...wolf, side: 'orcs' };
      expectRefused(state, { t: 'join', c: stray, d: melee('orc', 'fighter') }, 'DeclarationWrongCombatant');
      expectRefused(state, { t: 'join', c: stray, d: melee('wolf', 'wolf') }, 'SegmentD6TargetSelf');
      expectRefused(state, { t: 'move', c: 'orc', side: 'wolves' }, 'UnknownSide');
      expectRefused(state, { t: 'move', c: 'orc', side: 'wolves', add: { id: 'dogs', name: 'Dogs' } }, 'UnknownSide');
    }
  });

  it('morale during the surprise segments → MoraleInSurprise (segment-d6 has no opening morale check)', () => {
    const { state, dice } = d6Combat([], [surprise('party', 1), surprise('orcs', 5)]);
    expect(state.round).toBe(0);
    const call = { t: 'morale', requests: [{ combatant: 'fighter', trigger: 'fear' }] };
    expectRefused(state, call, 'MoraleInSurprise');
    give(state, { t: 'begin', d: orcsAttack }, dice);
    expectRefused(state, call, 'MoraleInSurprise');
  });

  it('a hit on the dead is taken (the actor shows it) but changes nothing else: the dead stay dead and no casting is touched', () => {
    const state = resolving();
    give(state, { t: 'hit', target: 'orc', amount: 5 });
    const before = structuredClone(state);
    give(state, { t: 'hit', target: 'orc', amount: 3 });
    expect(state.states.orc).toEqual({ ...before.states.orc, hp: -3 });
    expect(state.status).toEqual(before.status);
    expect(state.interruptions).toEqual(before.interruptions);
    give(state, { t: 'hit', target: 'orc', amount: -20 });
    expect(state.states.orc.condition).toBe('dead'); // healing raises no one
  });

  it('next while declaring is no refusal: it is "the round\'s plan (while declaring)", the same as begin without held declarations', () => {
    const script = [surprise('party', 5), surprise('orcs', 5), init('party', 1, 5), init('orcs', 1, 4)];
    const a = startFlow('segment-d6', {}, d6Encounter(), new ScriptedDice(script));
    const b = startFlow('segment-d6', {}, d6Encounter(), new ScriptedDice(script));
    if (!a.ok || !b.ok) throw new Error('start');
    for (const s of [a.state, b.state]) give(s, { t: 'declare', d: sleep(2) });
    const diceA = new ScriptedDice(script.slice(2));
    const diceB = new ScriptedDice(script.slice(2));
    give(a.state, { t: 'next' }, diceA);
    give(b.state, { t: 'begin' }, diceB);
    expect(a.state.stage).toBe('resolve');
    expect(a.state).toEqual(b.state);
  });

  it('apply() is the copying form: the state given is never changed, accepted or refused', () => {
    const state = resolving();
    const before = structuredClone(state);
    const hit = apply(state, { t: 'hit', target: 'halvaine', amount: 2, by: 'orc' }, NO_DICE);
    expect(hit.ok).toBe(true);
    if (hit.ok) expect(hit.state.states.halvaine.hp).toBe(4);
    expect(apply(state, { t: 'begin' }, NO_DICE)).toEqual({ ok: false, problem: { key: 'NotDeclaring' } });
    expect(state).toStrictEqual(before);
  });

  // A joiner's stats are checked as a whole (round/combatants.ts) before any procedure reads them.
  it('a joiner whose stats are malformed (spells not a list) is refused, not a crash', () => {
    const state = declaring();
    const odd = { id: 'odd', name: 'Odd', side: 'party', hp: 3, spells: 5 } as unknown as Combatant;
    const before = structuredClone(state);
    let done: Applied | undefined;
    expect(() => (done = applyInput(state, { t: 'join', c: odd, d: d('odd', 'spell', { spell: 'Sleep', castingTime: 1 }) }, NO_DICE))).not.toThrow();
    expect(done?.ok).toBe(false);
    if (done && !done.ok) expect(ERROR_KEYS.has(done.problem.key)).toBe(true);
    expect(done).toEqual({ ok: false, problem: { key: 'CombatantFieldInvalid', data: { name: 'Odd', field: 'spells' } } });
    expect(state).toStrictEqual(before);
  });
});

/* ============================================= a skirmish every procedure plays */

/** Two sides, a caster, a fighter and two monsters: declarations legal under every procedure. */
const skirmish = (): Encounter =>
  structuredClone({
    sides: [
      { id: 'party', name: 'Party' },
      { id: 'foes', name: 'Foes' },
    ],
    combatants: [
      { id: 'mage', name: 'Mage', side: 'party', kind: 'character', hp: 14, maxHp: 14, spells: ['Sleep', 'Sleep', 'Sleep', 'Sleep'] },
      { id: 'fighter', name: 'Fighter', side: 'party', kind: 'character', hp: 30, maxHp: 30, weapon: { speed: 5, length: 3 } },
      { id: 'orc', name: 'Orc', side: 'foes', kind: 'monster', hp: 25, maxHp: 25, hitDice: '1', morale: 60 },
      { id: 'orc2', name: 'Orc 2', side: 'foes', kind: 'monster', hp: 25, maxHp: 25, hitDice: '1', morale: 60 },
    ],
  });

const castSleep = (): Declaration => d('mage', 'spell', { spell: 'Sleep', castingTime: 3, speed: 2, target: 'orc' });
const wolf: Combatant = { id: 'wolf', name: 'Wolf', side: 'foes', kind: 'monster', hp: 12, maxHp: 12, hitDice: '1' };

describe('property: random inputs, valid and not, in every procedure', () => {
  const ids = ['mage', 'fighter', 'orc', 'orc2', 'wolf', 'ghost'];
  const who = fc.constantFrom(...ids);
  const decl = fc.oneof(
    who.chain((c) => fc.constantFrom(melee(c, 'orc'), melee(c, 'fighter'), d(c, 'none'), d(c, 'flee'), d(c, 'delay'), d(c, 'melee', { target: c }))),
    fc.constantFrom(castSleep(), { ...castSleep(), spell: 'Wish' }, { ...castSleep(), castingTime: 0 }, d('mage', 'spell', { spell: 'Sleep', castingTime: 12, speed: 4 })),
  );
  const junk = fc.oneof(fc.constant(null), fc.constant({}), fc.constant([]), fc.integer(), fc.string({ maxLength: 4 }), fc.constant({ id: 5 }), fc.constant(Number.NaN));
  const input: fc.Arbitrary<unknown> = fc.oneof(
    { arbitrary: fc.constant({ t: 'next' }), weight: 8 },
    { arbitrary: decl.map((x) => ({ t: 'declare', d: x })), weight: 3 },
    { arbitrary: who.map((c) => ({ t: 'withdraw', c })), weight: 1 },
    { arbitrary: fc.dictionary(who, fc.option(decl, { nil: null }), { maxKeys: 2, noNullPrototype: true }).map((h) => ({ t: 'begin', d: h })), weight: 2 },
    { arbitrary: fc.record({ target: who, amount: fc.oneof(fc.integer({ min: -5, max: 12 }), junk) }, { noNullPrototype: true }).map((h) => ({ t: 'hit', ...h })), weight: 3 },
    { arbitrary: fc.record({ t: fc.constantFrom('cancel', 'restore'), casting: fc.oneof(fc.nat(3), junk) }, { noNullPrototype: true }), weight: 2 },
    {
      arbitrary: fc
        .record({ side: fc.constantFrom('foes', 'party', 'beasts'), with: fc.boolean(), declares: fc.option(decl, { nil: undefined }), was: fc.option(who, { nil: undefined }) }, { noNullPrototype: true })
        .map((j) => ({
          t: 'join',
          c: { ...wolf, side: j.side },
          ...(j.with ? { side: { id: j.side, name: 'Beasts' } } : {}),
          ...(j.declares ? { d: { ...j.declares, combatant: 'wolf' } } : {}),
          ...(j.was ? { was: j.was } : {}),
        })),
      weight: 1,
    },
    { arbitrary: who.map((c) => ({ t: 'leave', c })), weight: 1 },
    {
      arbitrary: fc
        .record({ c: who, target: who, weapon: fc.option(fc.constantFrom('Sword', 'Bow'), { nil: undefined }), routine: fc.option(fc.integer({ min: -1, max: 2 }), { nil: undefined }) }, { noNullPrototype: true })
        .map((a) => ({ t: 'attack', c: a.c, target: a.target, ...(a.weapon ? { weapon: a.weapon } : {}), ...(a.routine !== undefined ? { routine: a.routine } : {}) })),
      weight: 3,
    },
    { arbitrary: fc.record({ c: who, side: fc.constantFrom('foes', 'party', 'beasts'), add: fc.boolean() }, { noNullPrototype: true }).map((m) => ({ t: 'move', c: m.c, side: m.side, ...(m.add ? { add: { id: m.side, name: 'X' } } : {}) })), weight: 1 },
    { arbitrary: fc.array(who, { maxLength: 2 }).map((cs) => ({ t: 'morale', requests: cs.map((c) => ({ combatant: c, trigger: 'fear' })) })), weight: 1 },
    { arbitrary: fc.oneof(junk, fc.record({ t: fc.constantFrom('declare', 'hit', 'join', 'move', 'begin', 'zap'), d: junk, c: junk, target: junk, side: junk, requests: junk }, { noNullPrototype: true })), weight: 2 },
  );

  /** A cancel or restore by number names the n-th casting of the round (or of the interruptions), so some of them are real. */
  function concrete(state: FlowState, x: unknown): unknown {
    const i = x as { t?: string; casting?: unknown };
    if ((i?.t === 'cancel' || i?.t === 'restore') && typeof i.casting === 'number') {
      const pool = i.t === 'cancel' ? (state.schedule?.castings ?? []).map((c) => c.id) : state.interruptions.map((c) => c.casting);
      return { t: i.t, casting: pool.length > 0 ? pool[i.casting % pool.length] : 'none' };
    }
    return x;
  }

  for (const procedure of PROCEDURE_IDS) {
    it(`${procedure}: a refusal never changes the state, names a TENSEG.Error message, and nothing throws`, () => {
      const seen = { refused: 0, accepted: 0, played: 0 };
      fc.assert(
        fc.property(fc.array(input, { maxLength: 60 }), fc.integer(), (inputs, seed) => {
          const dice = new RandomDice(seed);
          const started = startFlow(procedure, {}, skirmish(), dice);
          if (!started.ok) throw new RulesError(started.problem);
          const state = started.state;
          for (const raw of inputs) {
            const x = concrete(state, raw);
            const before = structuredClone(state);
            const done = applyInput(state, x as FlowInput, dice);
            if (!done.ok) {
              seen.refused++;
              expect(ERROR_KEYS.has(done.problem.key), done.problem.key).toBe(true);
              expect(state).toStrictEqual(before);
            } else seen.accepted++;
            if (state.stage === 'resolve') seen.played++;
          }
        }),
        { numRuns: 60 },
      );
      // The sequences did reach rounds under way, with inputs both taken and refused.
      expect(Math.min(seen.refused, seen.accepted, seen.played)).toBeGreaterThan(0);
    });
  }
});

/* ========================================================== 3. the log */

/**
 * Writes a combat's log as the Foundry layer does (src/documents/combat.ts,
 * transact): the start with the engine version, then each accepted input
 * with the dice totals it rolled, as stored JSON. A refused input writes
 * nothing.
 */
class LogWriter {
  readonly entries: [string, LogEntry][] = [];
  /** states[n]: the state after entries[0..n]. */
  readonly states: FlowState[] = [];
  readonly state: FlowState;

  constructor(
    procedure: ProcedureId,
    encounter: Encounter,
    readonly dice: Dice,
    options: Record<string, boolean | number | string> = {},
  ) {
    const started = startCombat(procedure, options, encounter, dice);
    if (!started.ok) throw new RulesError(started.problem);
    this.entries.push([entryKey(0), stored({ t: 'start', v: FLOW_VERSION, s: started.start })]);
    this.state = flowFrom(started.start);
    this.states.push(structuredClone(this.state));
  }

  give(input: FlowInput): Applied {
    const recording = new RecordingDice(this.dice);
    const done = applyInput(this.state, input, recording);
    if (!done.ok) return done;
    const entry: InputEntry = { ...structuredClone(input) };
    if (recording.totals.length > 0) entry.r = [...recording.totals];
    this.entries.push([entryKey(this.entries.length), stored(entry)]);
    this.states.push(structuredClone(this.state));
    return done;
  }

  must(input: FlowInput): void {
    const done = this.give(input);
    if (!done.ok) throw new Error(`refused ${input.t}: ${JSON.stringify(done.problem)}`);
  }

  keyed(entries = this.entries): KeyedLog {
    return Object.fromEntries(entries);
  }

  /** Entry counts after which a round's declarations open (the round boundaries). */
  roundOpenings(): number[] {
    const out: number[] = [];
    for (let n = 1; n < this.states.length; n++) if (opensRound(this.states[n - 1], this.states[n])) out.push(n + 1);
    return out;
  }
}

/** An entry as the Combat stores it: plain JSON. */
function stored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Three rounds (after any surprise) of the skirmish, with every kind of input
 * a GM gives: declarations and a withdrawal, held declarations at initiative,
 * hits (one on the caster), a restore and a cancel of castings, a late
 * joiner, a change of side, a leaver, morale calls.
 */
function fightLogged(procedure: ProcedureId, seed: number): LogWriter {
  const w = new LogWriter(procedure, skirmish(), new RandomDice(seed));
  const s = w.state;
  let restored = false;
  const pending = (caster: string) => s.schedule?.castings.find((c) => c.caster === caster && s.status[c.id] === 'pending')?.id;
  for (let guard = 0; !(s.round >= 4 && s.stage === 'declare'); guard++) {
    if (guard > 400) throw new Error(`${procedure}: the combat does not move on`);
    if (s.stage === 'declare') {
      if (s.round <= 1) {
        w.give({ t: 'declare', d: castSleep() });
        w.must({ t: 'declare', d: melee('fighter', 'orc') });
        w.give({ t: 'morale', requests: [{ combatant: 'orc2', trigger: 'fear' }] }); // refused in a surprise phase
        // A routed orc may only flee (rules revision 5, flow/acting.ts: seed 002 "Flee in panic").
        w.must({ t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: s.states.orc2.routed ? { combatant: 'orc2', action: 'flee' } : melee('orc2', 'mage') } });
      } else if (s.round === 2) {
        w.give({ t: 'withdraw', c: 'mage' });
        w.must({ t: 'move', c: 'orc2', side: 'party' });
        w.must({ t: 'declare', d: s.states.orc2.routed ? { combatant: 'orc2', action: 'flee' } : melee('orc2', 'orc') });
        w.must({ t: 'next' });
      } else {
        w.give({ t: 'declare', d: castSleep() });
        w.must({ t: 'begin', d: { fighter: melee('fighter', 'wolf') } });
      }
      continue;
    }
    if (s.stage === 'resolve') {
      if (s.step === 0) w.must({ t: 'hit', target: 'orc', amount: 2, by: 'fighter' });
      if (s.step === 0 && s.round === 2) w.must({ t: 'join', c: wolf, d: melee('wolf', 'fighter') });
      if (s.step === 0 && s.round === 3) w.must({ t: 'morale', requests: [{ combatant: 'orc', trigger: 'losing' }] });
      if (s.step === 0 && s.round === 3 && pending('mage')) w.must({ t: 'cancel', casting: pending('mage') as string });
      // The caster is hit where its casting begins (or at once, for one carried in from the last round).
      if (pending('mage') && s.step === Math.max(0, stepOf(s, 'mage', 'cast-begin'))) w.must({ t: 'hit', target: 'mage', amount: 1, by: 'orc2' });
      if (!restored && s.interruptions[0]) {
        w.must({ t: 'restore', casting: s.interruptions[0].casting });
        restored = true;
      }
      if (s.step === 1 && s.round === 3) w.must({ t: 'leave', c: 'wolf' });
    }
    w.must({ t: 'next' });
  }
  return w;
}

/** The state a fresh client reads from entries. */
const fresh = (entries: readonly (readonly [string, LogEntry])[]) => new FlowLog().read(entries);

describe.each(PROCEDURE_IDS)('the log of a three-round %s combat', (procedure) => {
  let w: LogWriter;
  beforeAll(() => {
    w = fightLogged(procedure, 20240601 + PROCEDURE_IDS.indexOf(procedure));
  });

  it('the combat is a real one: three rounds and more, every kind of input', () => {
    expect(w.state.round).toBeGreaterThanOrEqual(4);
    const kinds = new Set(w.entries.map(([, e]) => e.t));
    for (const t of ['start', 'declare', 'withdraw', 'begin', 'next', 'hit', 'cancel', 'restore', 'join', 'leave', 'move', 'morale']) expect(kinds, t).toContain(t);
    expect(w.roundOpenings().length).toBeGreaterThanOrEqual(3);
  });

  it('replaying the log from scratch gives the state built by applying the inputs in turn', () => {
    const out = replay(w.keyed());
    expect(out.problems).toEqual([]);
    expect(out.state).toStrictEqual(w.state);
    // Entries are played in the order of their numbers, however the store lists them.
    expect(replay(Object.fromEntries([...w.entries].reverse())).state).toStrictEqual(w.state);
    expect(entriesOf(w.keyed()).map(([k]) => k)).toEqual(w.entries.map(([k]) => k));
  });

  it('reading the log with one more entry after a cached read equals a fresh read (and the state after that input)', () => {
    const cached = new FlowLog();
    for (let n = 1; n <= w.entries.length; n++) {
      const entries = w.entries.slice(0, n);
      const incremental = cached.read(entries).state;
      expect(incremental, `entry ${n - 1}`).toStrictEqual(fresh(entries).state);
      expect(incremental, `entry ${n - 1}`).toStrictEqual(w.states[n - 1]);
    }
  });

  it('Previous: dropping the last entry gives back exactly the state before that input, and no state read before is ever changed', () => {
    const log = new FlowLog();
    const kept: { state: FlowState; copy: FlowState }[] = [];
    const keep = (state: FlowState | null) => {
      kept.push({ state: state as FlowState, copy: structuredClone(state as FlowState) });
      return state;
    };
    keep(log.read(w.entries).state);
    for (let n = w.entries.length - 1; n >= 1; n--) {
      expect(keep(log.read(w.entries.slice(0, n)).state), `Previous from entry ${n}`).toStrictEqual(w.states[n - 1]);
    }
    // Forward again, as the GM plays on after going back; then back several rounds at once, and forward.
    for (let n = 2; n <= w.entries.length; n++) expect(keep(log.read(w.entries.slice(0, n)).state)).toStrictEqual(w.states[n - 1]);
    for (const n of [...w.roundOpenings(), 3, 1]) expect(keep(log.read(w.entries.slice(0, n)).state)).toStrictEqual(w.states[n - 1]);
    expect(keep(log.read(w.entries).state)).toStrictEqual(w.state);
    for (const { state, copy } of kept) expect(state).toStrictEqual(copy);
  });

  it('where the combat stood after each entry (the waypoints Previous Round walks back through)', () => {
    const log = new FlowLog();
    log.read(w.entries);
    const path = log.waypoints();
    expect(path).toHaveLength(w.entries.length + 1);
    w.states.forEach((s, i) => expect(path[i + 1]).toEqual({ entries: i + 1, stage: s.stage, round: s.round }));
    // After Previous the path is the shorter log's.
    log.read(w.entries.slice(0, 5));
    expect(log.waypoints()).toEqual(path.slice(0, 6));
  });

  it('a log that starts from a snapshot replays to the same state as the full log (and walks back to the snapshot)', () => {
    for (const k of [1, ...w.roundOpenings().map((n) => n - 1), Math.floor(w.entries.length / 2)]) {
      const fromSnapshot: [string, LogEntry][] = [[w.entries[k][0], stored({ t: 'snapshot', v: FLOW_VERSION, s: w.states[k] })], ...w.entries.slice(k + 1)];
      const log = new FlowLog();
      expect(log.read(fromSnapshot).state, `from entry ${k}`).toStrictEqual(w.state);
      for (let n = fromSnapshot.length - 1; n >= 1; n--) expect(log.read(fromSnapshot.slice(0, n)).state).toStrictEqual(w.states[k + n - 1]);
    }
  });

  it('a migrated log (a snapshot, then the old history as patches, then inputs) replays to the same state, and Previous walks back through the patches', () => {
    const k = 1;
    const m = Math.min(w.entries.length - 2, k + 6); // entries k+1 … m become patches
    const migrated: [string, LogEntry][] = [[w.entries[k][0], stored({ t: 'snapshot', v: FLOW_VERSION, s: w.states[k] })]];
    for (let i = k + 1; i <= m; i++) migrated.push([w.entries[i][0], stored({ t: 'patch', ops: diff(w.states[i - 1] as unknown as Json, w.states[i] as unknown as Json) })]);
    migrated.push(...w.entries.slice(m + 1));
    const log = new FlowLog();
    const read = log.read(migrated);
    expect(read.problems).toEqual([]);
    expect(read.state).toStrictEqual(w.state);
    for (let n = migrated.length - 1; n >= 1; n--) expect(log.read(migrated.slice(0, n)).state).toStrictEqual(w.states[k + n - 1]);
  });

  it('the dice are in the log: replay asks no die of anyone, and the inputs rolled again with other dice make another combat', () => {
    const rolled = w.entries.filter(([, e]) => (e as InputEntry).r !== undefined);
    expect(rolled.length).toBeGreaterThanOrEqual(3); // each round's initiative at least
    const realRandom = Math.random;
    Math.random = () => {
      throw new Error('replay must not roll');
    };
    try {
      expect(replay(w.keyed()).state).toStrictEqual(w.state);
    } finally {
      Math.random = realRandom;
    }
    // Each entry holds exactly the dice its transition rolls: replayed with them, every one is used and nothing else is asked.
    const again = flowFrom((w.entries[0][1] as Extract<LogEntry, { t: 'start' }>).s);
    w.entries.slice(1).forEach(([key, e], i) => {
      const { r, ...input } = e as InputEntry;
      const dice = new RecordedDice(r);
      expect(applyInput(again, input as FlowInput, dice).ok, key).toBe(true);
      expect(dice.done, key).toBe(true);
      expect(again, key).toStrictEqual(w.states[i + 1]);
    });
    // The same inputs with other dice (every die at its highest) make another combat: it is the recorded totals that repeat this one.
    const other = flowFrom((w.entries[0][1] as Extract<LogEntry, { t: 'start' }>).s);
    const highest: Dice = { roll: (r) => r.count * r.faces };
    const otherStates = w.entries.slice(1).map(([, e]) => {
      const { r: _r, ...input } = e as InputEntry;
      applyInput(other, input as FlowInput, highest);
      return structuredClone(other);
    });
    expect(otherStates).not.toStrictEqual(w.states.slice(1));
  });

  // A reader tells entries apart by their keys (log.ts, FlowLog.read). A store keys entries with chainKey: after
  // Previous the next input never gets the key of the entry it replaces, so a client that did not read the log between
  // the deletion and the new entry ("a client that missed entries") still replays the new one.
  it('an entry written after Previous gets a key never used before, and a reader that missed the deletion replays it', () => {
    const chained: [string, LogEntry][] = [];
    for (const [, e] of w.entries) chained.push([chainKey(chained.length, chained.at(-1)?.[0] ?? null, e), e]);
    expect(entriesOf(Object.fromEntries(chained)).map(([k]) => k)).toEqual(chained.map(([k]) => k));
    const log = new FlowLog();
    expect(log.read(chained).state).toStrictEqual(w.state);
    const n = chained.length - 1;
    // The last entry opened round 4; instead, the GM lands a blow after the last step of round 3.
    const blow: LogEntry = { t: 'hit', target: 'fighter', amount: 1 };
    const replaced: [string, LogEntry][] = [...chained.slice(0, n), [chainKey(n, chained[n - 1][0], blow), blow]];
    expect(replaced[n][0]).not.toBe(chained[n][0]);
    // The same entry after the same log gets the same key: a log written twice the same way is stored the same way.
    expect(chainKey(n, chained[n - 1][0], chained[n][1])).toBe(chained[n][0]);
    expect(fresh(replaced).problems).toEqual([]);
    expect(fresh(replaced).state?.states.fighter.hp).toBe(w.state.states.fighter.hp - 1);
    expect(log.read(replaced).state).toStrictEqual(fresh(replaced).state);
  });
});

/* ============================== 4. a log written by another engine version */

describe('a log written by another version of the engine (log.ts: "Engine versions", migrateState)', () => {
  let w: LogWriter;
  beforeAll(() => {
    w = fightLogged('addict', 77);
  });
  const newerVersion = { key: 'CombatFromNewerVersion', data: { version: FLOW_VERSION + 1 } };

  it('migrateState brings a state of an older version to this one and changes nothing else; a newer one is refused', () => {
    const migrated = migrateState({ ...structuredClone(w.state), v: FLOW_VERSION - 1 }, FLOW_VERSION - 1);
    expect(migrated).toStrictEqual(w.state);
    expect(migrateState(structuredClone(w.state), FLOW_VERSION)).toStrictEqual(w.state);
    let thrown: unknown;
    try {
      migrateState(structuredClone(w.state), FLOW_VERSION + 1);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(RulesError);
    expect((thrown as RulesError).problem).toEqual(newerVersion);
    expect(ERROR_KEYS.has('CombatFromNewerVersion')).toBe(true);
  });

  it('a log started by a newer engine is refused (CombatFromNewerVersion), never guessed at: no state, and no later entry played', () => {
    const newer: [string, LogEntry][] = w.entries.map(([k, e], i) => [k, i === 0 ? { ...(e as Extract<LogEntry, { t: 'start' }>), v: FLOW_VERSION + 1 } : e]);
    for (const read of [fresh(newer), replay(w.keyed(newer))]) {
      expect(read.state).toBeNull();
      expect(read.problems[0]).toEqual({ key: entryKey(0), problem: newerVersion });
      expect(read.problems.slice(1).every((p) => p.problem.key === 'CombatLogNoStart')).toBe(true);
    }
  });

  it('a snapshot written by a newer engine is refused; one written by an older engine is migrated to this version', () => {
    const k = w.roundOpenings()[0] - 1;
    const after = w.entries.slice(k + 1);
    const newer = fresh([[w.entries[k][0], { t: 'snapshot', v: FLOW_VERSION + 1, s: w.states[k] }], ...after]);
    expect(newer.state).toBeNull();
    expect(newer.problems[0]).toEqual({ key: w.entries[k][0], problem: newerVersion });
    const older = fresh([[w.entries[k][0], { t: 'snapshot', v: FLOW_VERSION - 1, s: { ...structuredClone(w.states[k]), v: FLOW_VERSION - 1 } }], ...after]);
    expect(older.problems).toEqual([]);
    expect(older.state?.v).toBe(FLOW_VERSION);
    expect(older.state).toStrictEqual(w.state);
  });

  it('the options a combat started with are frozen in its start entry: the replay uses them, and never fills a missing one from today\'s defaults', () => {
    // A combat started with a table's own options replays with them.
    const own = new LogWriter('segment-d6', d6Encounter(), new ScriptedDice([surprise('party', 5), surprise('orcs', 5)]), { missileInitiative: false, deathRule: 'minus-ten' });
    expect(replay(own.keyed()).state?.options).toMatchObject({ missileInitiative: false, deathRule: 'minus-ten' });
    // "an option missing from a stored start means the old rule": the replay keeps it missing.
    const start = structuredClone(own.entries[0][1]) as Extract<LogEntry, { t: 'start' }>;
    delete start.s.options.bleedPerRound;
    const read = replay({ [entryKey(0)]: start });
    expect(read.problems).toEqual([]);
    expect(read.state?.options).not.toHaveProperty('bleedPerRound');
  });

  it('an entry this engine cannot replay (its recorded dice do not fit) is skipped with CombatLogOutOfStep, changes nothing, and the replay goes on', () => {
    const k = w.entries.findIndex(([, e], i) => i > 1 && (e as InputEntry).r !== undefined);
    expect(k).toBeGreaterThan(1);
    const outOfStep: [string, LogEntry][] = w.entries.map(([key, e], i) => [key, i === k ? ({ ...e, r: [] } as LogEntry) : e]);
    const upTo = fresh(outOfStep.slice(0, k + 1));
    expect(upTo.problems).toEqual([{ key: w.entries[k][0], problem: expect.objectContaining({ key: 'CombatLogOutOfStep' }) }]);
    expect(ERROR_KEYS.has('CombatLogOutOfStep')).toBe(true);
    expect(upTo.state).toStrictEqual(w.states[k - 1]);
    let all: ReturnType<typeof fresh> | undefined;
    expect(() => (all = fresh(outOfStep))).not.toThrow();
    expect(all?.state).not.toBeNull();
    // Previous past the broken entry forgets its problem.
    const log = new FlowLog();
    log.read(outOfStep);
    expect(log.read(outOfStep.slice(0, k)).problems).toEqual([]);
  });
});
