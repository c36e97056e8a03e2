/**
 * Mid-round actions (src/rules/flow/midround.ts): a delay announced during
 * group actions (high-low), a held or prepared action released (segment-d6,
 * addict), a casting given up (every procedure; high-low loses the spell) and
 * a casting the GM breaks (high-low, d12-ascending, and every procedure's
 * castings). Each is an input of the one flow: refused with a localized
 * Problem and nothing changed, or carried out and replayed from the log to
 * the same state. Each rules test names the seed passage (seeds/000…004) or
 * ruling (seeds/README.md, README.md "Rules notes") it checks.
 */
import { describe, expect, it } from 'vitest';
import { attackProblem, currentEntries, entryKey, midRoundProblem, replay, type FlowState, type KeyedLog } from '../../src/rules/flow';
import type { Combatant } from '../../src/rules/model';
import { entryProblem } from '../../src/data/combat-log';
import { timeline } from '../../src/rules/timeline';
import { playCombat } from '../../src/rules/play';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { ScriptedDice } from '../../src/rules/dice';
import { d, encounter, expectRefused, finishRound, give, init, melee, playTo, start, stepOf, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });
const attack = (c: string, target: string) => ({ t: 'attack' as const, c, target });

/** Who is in each step, by phase (or segment), as the GM reads the round. */
const steps = (state: FlowState) => state.schedule?.steps.map((s) => [s.segment ?? s.phase, s.entries.map((e) => `${e.combatant}:${e.kind}`)]);

/** The outcome of a combatant's entry (of a kind) in the step being played. */
const outcomeNow = (state: FlowState, c: string, kind = 'action') => currentEntries(state).find((o) => o.entry.combatant === c && o.entry.kind === kind)?.outcome;

/* ============================================================== high-low: delay */

describe('high-low (seed 001): "Delay. [delay] ... Anytime during group actions, you can announce your intent to delay"', () => {
  const people = () => encounter(pc('hero', { weapon: { speed: 4 } }), pc('ally'), pc('mage', { spells: ['Sleep'] }), foe('orc', { weapon: { speed: 4 } }), foe('gob'));
  /** Nobody surprised; the party HIGH (6 against 2). */
  const hl = () => start('high-low', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]);

  it('"If you are in HIGH initiative, you lose all actions until LOW initiative ... You also gain the delayed condition": announced at its HIGH turn, it acts in LOW and loses the tie', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    give(state, { t: 'declare', d: d('ally', 'other') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'hero') } }, dice);
    expect(steps(state)).toEqual([
      ['high', ['hero:action']],
      ['high', ['ally:action']],
      ['low', ['orc:action']],
    ]);
    expect(outcomeNow(state, 'hero')).toBe('acts');
    // What a tracker asks before it offers the control; asking changes nothing.
    const asked = structuredClone(state);
    expect(midRoundProblem(state, { t: 'delay', c: 'hero' })).toBeNull();
    expect(midRoundProblem(state, { t: 'release', c: 'hero', d: melee('hero', 'orc') })).toEqual({ key: 'ReleaseNotInProcedure', data: { name: 'Hero' } });
    expect(state).toStrictEqual(asked);
    give(state, { t: 'delay', c: 'hero' });
    // Its turn is gone from HIGH (the step being played stays, in its place); it comes after the LOW orc, losing the tie.
    expect(steps(state)).toEqual([
      ['high', []],
      ['high', ['ally:action']],
      ['low', ['orc:action']],
      ['low', ['hero:action']],
    ]);
    expect(state.states.hero.delayed).toBe(true);
    expect(state.schedule?.steps[3].entries[0].reason).toBe('highLowDelayedCondition');
    expect(state.midRound).toEqual([{ t: 'delay', c: 'hero', step: 0 }]);
    expect(attackProblem(state, attack('hero', 'orc'))?.key).toBe('AttackNotYourStep');
    playTo(state, 3);
    expect(give(state, attack('hero', 'orc')).attack?.as).toBe('schedule');
    // The timeline tells who delayed, and when; the condition shows on the combatant.
    const view = timeline(state);
    expect(view.steps[0].midRound).toEqual([{ kind: 'delay', combatant: 'hero' }]);
    expect(view.combatants.find((c) => c.id === 'hero')?.delayed).toBe(true);
    // "for the rest of the round": the end of the round clears it.
    finishRound(state);
    expect(state.states.hero.delayed).toBeUndefined();
    give(state, { t: 'next' });
    expect(state.midRound).toBeUndefined();
  });

  it('"If you announce a delay during LOW initiative, you lose your major action that round"', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('ally', 'missile', { target: 'orc' }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'ally'), gob: d('gob', 'missile', { target: 'ally' }) } }, dice);
    expect(steps(state)).toEqual([
      ['high', ['ally:action']],
      ['low', ['gob:action']],
      ['low', ['orc:action']],
    ]);
    playTo(state, 2);
    give(state, { t: 'delay', c: 'orc' });
    expect(steps(state)).toEqual([
      ['high', ['ally:action']],
      ['low', ['gob:action']],
      ['low', []],
    ]);
    expect(state.states.orc.delayed).toBe(true);
    expect(attackProblem(state, attack('orc', 'ally'))?.key).toBe('AttackNotYourStep');
    // The steps played keep their outcomes and indices.
    expect(state.outcomes[1]).toEqual(['acts']);
  });

  it('a delay announced after one\'s turn (it has struck) gives no second turn: only the delayed condition', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'hero') } }, dice);
    give(state, attack('hero', 'orc'));
    const before = structuredClone(state.schedule);
    give(state, { t: 'delay', c: 'hero' });
    expect(state.schedule).toEqual(before);
    expect(state.states.hero.delayed).toBe(true);
    expect(outcomeNow(state, 'hero')).toBe('acts');
  });

  it('"Spells consider the delayed individual to have LOW initiative but ties are not automatically lost": a caster delaying in HIGH goes off with the LOW casters', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    give(state, { t: 'begin', d: { gob: d('gob', 'spell', { spell: 'Curse', castingTime: 2 }), orc: melee('orc', 'hero') } }, dice);
    const spellSteps = () => state.schedule?.steps.filter((s) => s.phase === 'spells').map((s) => s.entries.map((e) => e.combatant).sort());
    expect(spellSteps()).toEqual([['mage'], ['gob']]);
    playTo(state, stepOf(state, 'hero'));
    give(state, { t: 'delay', c: 'mage' });
    expect(spellSteps()).toEqual([['gob', 'mage']]);
  });

  it('refused, with nothing changed: outside group actions, twice, while declaring, by one who cannot act, in a procedure without the rule', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('ally', 'parley') });
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    expectRefused(state, { t: 'delay', c: 'hero' }, 'MidRoundOutsideRound');
    give(state, { t: 'begin', d: { orc: melee('orc', 'hero') } }, dice);
    expect(state.schedule?.steps.map((s) => s.phase)).toEqual(['fast', 'high', 'low']);
    // The fast actions (parley) come before group actions; the ally's turn is one of them.
    expectRefused(state, { t: 'delay', c: 'ally' }, 'HighLowDelayOutsideGroupPhase');
    // Before HIGH begins, one whose turn is still to come may delay.
    give(state, { t: 'delay', c: 'hero' });
    expectRefused(state, { t: 'delay', c: 'hero' }, 'DelayAnnounced');
    give(state, { t: 'hit', target: 'orc', amount: 20 });
    expectRefused(state, { t: 'delay', c: 'orc' }, 'HighLowDelayCannotAct');
    expectRefused(state, { t: 'delay', c: 'nobody' }, 'UnknownCombatant');
    const d6 = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]);
    give(d6.state, { t: 'declare', d: melee('hero', 'orc') });
    give(d6.state, { t: 'begin' }, d6.dice);
    expectRefused(d6.state, { t: 'delay', c: 'hero' }, 'DelayNotInProcedure');
  });

  it('a late joiner spliced into the round keeps its place when another delays (the round as played, not as planned)', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: melee('hero', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'hero') } }, dice);
    give(state, { t: 'join', c: foe('wolf'), d: melee('wolf', 'ally') });
    const wolf = stepOf(state, 'wolf');
    expect(state.schedule?.steps[wolf].entries[0].reason).toBe('highLowLateJoin');
    give(state, { t: 'delay', c: 'hero' });
    expect(state.schedule?.steps.find((s) => s.entries.some((e) => e.combatant === 'wolf'))?.entries[0].reason).toBe('highLowLateJoin');
  });
});

/* ======================================================== segment-d6: release */

describe('segment-d6 (seed 000): "some combatants might \'hold\' (choose to delay) their actions, waiting to act until these later segments"', () => {
  const people = () => encounter(pc('fighter', { weapon: { name: 'Sword' } }), pc('mage', { spells: ['Sleep', 'Sleep'] }), foe('orc'), foe('gob'));
  /** Party 5, foes 4: the party acts in segment 4, the foes in 5. */
  const d6 = (party = 5, foes = 4) => start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, party), init('foes', 1, foes), init('party', 2, party), init('foes', 2, foes)]);

  it('released as an attack in a later segment: it joins the step being played, one attack, once a round', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    give(state, { t: 'begin', d: { orc: d('orc', 'charge', { target: 'fighter' }) } }, dice);
    expect(steps(state)).toEqual([
      [4, ['fighter:action']],
      [5, ['orc:action']],
    ]);
    expect(state.schedule?.steps[0].entries[0].reason).toBe('SegmentD6Holds');
    give(state, { t: 'next' });
    give(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') });
    expect(steps(state)).toEqual([
      [4, ['fighter:action']],
      [5, ['orc:action', 'fighter:action']],
    ]);
    const released = state.schedule?.steps[1].entries[1];
    expect(released).toMatchObject({ action: 'melee', target: 'orc', routine: 1, reason: 'SegmentD6Released' });
    expect(outcomeNow(state, 'orc')).toBe('acts');
    expect(currentEntries(state).map((o) => o.outcome)).toEqual(['acts', 'acts']);
    expect(give(state, attack('fighter', 'orc')).attack?.as).toBe('schedule');
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
    expectRefused(state, { t: 'release', c: 'fighter', d: melee('fighter', 'gob') }, 'ReleaseUsed');
    expect(timeline(state).steps[1].midRound).toEqual([{ kind: 'release', combatant: 'fighter', action: 'melee' }]);
  });

  it('not before its hold has come, not by one who holds nothing, not after its held attack, not as another kind of action', () => {
    // Party 2, foes 5: the foes act in segment 2, the party (holding) in 5.
    const { state, dice } = d6(2, 5);
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    give(state, { t: 'declare', d: melee('mage', 'gob') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(steps(state)).toEqual([
      [2, ['orc:action']],
      [5, ['fighter:action', 'mage:action']],
    ]);
    expectRefused(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') }, 'ReleaseNotHeld');
    give(state, { t: 'next' });
    expectRefused(state, { t: 'release', c: 'mage', d: melee('mage', 'orc') }, 'ReleaseNotHeld');
    expectRefused(state, { t: 'release', c: 'fighter', d: d('fighter', 'flee') }, 'ReleaseActionInvalid');
    expectRefused(state, { t: 'release', c: 'fighter', d: melee('fighter', 'fighter') }, 'SegmentD6TargetSelf');
    expectRefused(state, { t: 'release', c: 'fighter', d: melee('fighter', 'troll') }, 'UnknownCombatant');
    expectRefused(state, { t: 'release', c: 'fighter', d: d('fighter', 'spell', { castingTime: 1 }) }, 'SegmentD6SpellNotNamed');
    expectRefused(state, { t: 'release', c: 'fighter' }, 'MalformedRequest');
    // The held action spent as one attack ("held"): nothing left to release.
    expect(give(state, attack('fighter', 'orc')).attack?.as).toBe('held');
    expectRefused(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') }, 'ReleaseUsed');
    finishRound(state);
    expectRefused(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') }, 'MidRoundOutsideRound');
  });

  it('released as the start of a spell: "That segment is the first segment of the casting time"; it goes off at this segment + casting time, a hit before then loses it', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('mage', 'wait') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage') } }, dice);
    give(state, { t: 'next' });
    give(state, { t: 'release', c: 'mage', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    expect(steps(state)).toEqual([
      [4, ['mage:action']],
      [5, ['orc:action', 'mage:cast-begin']],
      [7, ['mage:cast-complete']],
    ]);
    expect(outcomeNow(state, 'mage', 'cast-begin')).toBe('begins');
    const casting = state.schedule!.castings[0];
    expect(casting).toMatchObject({ caster: 'mage', spell: 'Sleep', beginStep: 1, completeStep: 2, lossFrom: 1 });
    // The orc strikes in the same segment: the casting time has begun, the spell is lost and expended.
    const hit = give(state, { t: 'hit', target: 'mage', amount: 2, by: 'orc' });
    expect(hit.interruptions).toEqual([expect.objectContaining({ caster: 'mage', outcome: 'interrupted', expended: true })]);
    expect(state.states.mage.expended).toEqual(['Sleep']);
  });

  it('a spell released unhit goes off; one running past segment 10 carries into the next round', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('mage', 'wait') });
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    give(state, { t: 'begin' }, dice);
    give(state, { t: 'release', c: 'mage', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 1 }) });
    give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step].segment).toBe(5);
    expect(outcomeNow(state, 'mage', 'cast-complete')).toBe('goes-off');
    expect(state.states.mage.expended).toEqual(['Sleep']);
    finishRound(state);
    give(state, { t: 'next' });
    give(state, { t: 'begin' }, dice);
    give(state, { t: 'release', c: 'mage', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 8 }) });
    // Begun in segment 4 with 8 segments: past 10, three left for the next round.
    expect(state.schedule?.castings[0]).toMatchObject({ completeStep: null, remaining: 2 });
    finishRound(state);
    expect(state.carry.map((c) => c.remaining)).toEqual([2]);
  });

  it('released in the last surprise segment, a one-segment spell goes off at the end of the surprise: "nor can a spell be fully cast unless it is a one-segment spell"', () => {
    // The party 5 (not surprised), the foes 2: two surprise segments for the party.
    const { state, dice } = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 2)]);
    expect(state.round).toBe(0);
    give(state, { t: 'declare', d: d('mage', 'wait') });
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'next' }, dice);
    expect(state.stage).toBe('resolve');
    while (state.schedule!.steps[state.step].segment !== 2) give(state, { t: 'next' });
    give(state, { t: 'release', c: 'mage', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 1 }) });
    const casting = state.schedule!.castings[0];
    // It does not carry into round 1: it completes in the surprise, at its end.
    expect(casting).toMatchObject({ caster: 'mage', remaining: 0 });
    expect(casting.completeStep).not.toBeNull();
    const complete = state.schedule!.steps[casting.completeStep!];
    expect(complete.segment).toBe(2);
    expect(complete.entries.find((e) => e.kind === 'cast-complete')?.reason).toBe('SegmentD6SurpriseEnd');
    finishRound(state);
    expect(state.states.mage.expended).toEqual(['Sleep']);
    expect(state.carry.filter((c) => state.status[c.id] === 'pending')).toEqual([]);
  });
});

/* =========================================================== addict: prepare */

describe('addict (seed 004): "Preparing actions ... it\'s triggered when the case defined by the player\'s declaration occurs"', () => {
  const people = () => encounter(pc('sentry', { weapon: { name: 'Bow', missile: true } }), pc('mage', { spells: ['Sleep'] }), foe('gob', { movement: 90 }), foe('ogre'));
  const addict = () => start('addict', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)]);

  it('"I shoot anything that comes around the corner": prepared in its segment, triggered as a missile when the goblin comes', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: d('sentry', 'wait', { note: 'I shoot anything that comes around the corner' }) });
    give(state, { t: 'begin', d: { gob: d('gob', 'charge', { target: 'sentry', distance: 0 }) } }, dice);
    playTo(state, stepOf(state, 'gob'));
    give(state, { t: 'release', c: 'sentry', d: d('sentry', 'missile', { target: 'gob' }) });
    const entry = currentEntries(state).find((o) => o.entry.combatant === 'sentry');
    expect(entry).toEqual({ entry: expect.objectContaining({ action: 'missile', target: 'gob', reason: 'addictPreparedTriggered' }), outcome: 'acts' });
    expect(give(state, attack('sentry', 'gob')).attack?.as).toBe('schedule');
  });

  it('"the start of spellcasting can be prepared, but the finish cannot", and "any damage taken on a round causes the spell to be lost, even if the start of casting was delayed!"', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: d('mage', 'wait') });
    give(state, { t: 'begin', d: { gob: melee('gob', 'mage') } }, dice);
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([2, 5]);
    give(state, { t: 'hit', target: 'mage', amount: 1, by: 'gob' });
    give(state, { t: 'next' });
    const done = give(state, { t: 'release', c: 'mage', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    // Hit in segment 2, before it began: the spell begun in 5 is lost at once, and expended.
    expect(done.interruptions).toEqual([expect.objectContaining({ caster: 'mage', outcome: 'interrupted', expended: true, step: 1 })]);
    expect(outcomeNow(state, 'mage', 'cast-begin')).toBe('interrupted');
    expect(state.states.mage.expended).toEqual(['Sleep']);
    // It would have gone off in segment 8, the first step of that segment.
    expect(state.schedule?.steps.at(-1)).toMatchObject({ segment: 8, entries: [expect.objectContaining({ kind: 'cast-complete' })] });
    // The GM's undo lets it go on.
    give(state, { t: 'restore', casting: state.schedule!.castings[0].id });
    expect(state.states.mage.expended).toEqual([]);
  });

  it('no held actions in high-low: nothing to release', () => {
    const hl = start('high-low', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]);
    give(hl.state, { t: 'declare', d: d('sentry', 'other') });
    give(hl.state, { t: 'begin' }, hl.dice);
    expectRefused(hl.state, { t: 'release', c: 'sentry', d: d('sentry', 'missile', { target: 'gob' }) }, 'ReleaseNotInProcedure');
  });
});

/* ====================================================================== cancel */

describe('cancel: a caster "may elect not to cast the spell"', () => {
  const people = () => encounter(pc('mage', { spells: ['Sleep'] }), foe('orc'));

  it('seed 000: the spell is kept, not expended', () => {
    const { state, dice } = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'begin' }, dice);
    give(state, { t: 'cancel', casting: state.schedule!.castings[0].id });
    expect(state.states.mage.expended).toEqual([]);
    expect(state.midRound).toBeUndefined();
  });

  it('seed 004 phase 6: "it can be canceled during action resolution" — the declaration cancelled, the spell kept', () => {
    const { state, dice } = start('addict', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)]);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'begin' }, dice);
    give(state, { t: 'cancel', casting: state.schedule!.castings[0].id });
    expect(state.states.mage.expended).toEqual([]);
  });

  it('seed 001: "If this concentration is broken, the spell being cast fails and is lost as if cast" — "consequences for ending the declared major action ... e.g. loss of spell"', () => {
    const hl = (options = {}) => start('high-low', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)], options);
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage') } }, dice);
    const casting = state.schedule!.castings[0].id;
    playTo(state, stepOf(state, 'orc'));
    give(state, { t: 'cancel', casting });
    expect(state.states.mage.expended).toEqual(['Sleep']);
    expect(state.midRound).toEqual([{ t: 'cancel', c: 'mage', step: 1, casting, spell: 'Sleep' }]);
    expect(timeline(state).steps[1].midRound).toEqual([{ kind: 'cancel', combatant: 'mage', casting, spell: 'Sleep' }]);
    // A player of the orcs' side sees that the mage gave a casting up, not which spell.
    expect(timeline(state, { gm: false, sides: ['foes'] }).steps[1].midRound).toEqual([{ kind: 'cancel', combatant: 'mage', casting }]);
    // Option cancelLosesSpell off (a combat started before the option: absent, the same): the spell is kept.
    for (const off of [hl({ cancelLosesSpell: false }), (() => {
      const old = hl();
      delete old.state.options.cancelLosesSpell;
      return old;
    })()]) {
      give(off.state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
      give(off.state, { t: 'begin' }, off.dice);
      give(off.state, { t: 'cancel', casting: off.state.schedule!.castings[0].id });
      expect(off.state.states.mage.expended).toEqual([]);
    }
  });
});

/* ======================================================================= break */

describe('break: the GM breaks a casting no hit broke', () => {
  const people = () => encounter(pc('mage', { spells: ['Sleep'] }), pc('priest', { spells: ['Bless'] }), foe('orc'));

  it('high-low: "Concentration is always broken by ... caster fails a save; caster\'s movement or ability to act is impeded" — lost as if cast, shown as broken, undone by the GM', () => {
    const { state, dice } = start('high-low', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage') } }, dice);
    const casting = state.schedule!.castings[0].id;
    playTo(state, stepOf(state, 'orc'));
    const done = give(state, { t: 'break', casting, why: 'save' });
    expect(done.interruptions).toEqual([{ round: 1, step: 1, casting, caster: 'mage', spell: 'Sleep', outcome: 'interrupted', expended: true, broken: 'save' }]);
    expect(state.states.mage.expended).toEqual(['Sleep']);
    expect(timeline(state).steps[1].interruptions).toEqual([{ casting, caster: 'mage', spell: 'Sleep', outcome: 'interrupted', expended: true, broken: 'save' }]);
    expectRefused(state, { t: 'break', casting }, 'NoCasting');
    give(state, { t: 'restore', casting });
    expect(state.states.mage.expended).toEqual([]);
    finishRound(state);
    expect(state.states.mage.expended).toEqual(['Sleep']); // it went off after all
  });

  it('d12-ascending II.D: "failed save that affects the casters actions means the spell is forgotten if disruption occurs while actually casting" — before its count it is only prevented', () => {
    const { state, dice } = start('d12-ascending', people(), [surprise('party', 12), surprise('foes', 12), init('party', 1, 5), init('foes', 1, 2)], { initiativeMode: 'group' });
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    give(state, { t: 'declare', d: d('priest', 'spell', { spell: 'Bless', castingTime: 3 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage') } }, dice);
    const [sleep, bless] = state.schedule!.castings.map((c) => c.id);
    expect(state.schedule?.steps[0].count).toBe(2);
    expect(give(state, { t: 'break', casting: sleep, why: 'save' }).interruptions?.[0]).toMatchObject({ outcome: 'prevented', expended: false });
    playTo(state, stepOf(state, 'priest', { kind: 'cast-begin' }));
    expect(give(state, { t: 'break', casting: bless, why: 'impeded' }).interruptions?.[0]).toMatchObject({ outcome: 'interrupted', expended: true });
    expect(state.states.mage.expended).toEqual([]);
    expect(state.states.priest.expended).toEqual(['Bless']);
  });

  it('refused with nothing changed: a device, a casting not yet begun where only its casting time is at risk (seed 000), no such casting, a bad reason', () => {
    const { state, dice } = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 2), init('foes', 1, 5)]);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'declare', d: d('priest', 'device', { spell: 'Wand', castingTime: 2 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage') } }, dice);
    // The foes act in segment 2, the party (casting) in 5.
    const [sleep, wand] = state.schedule!.castings.map((c) => c.id);
    expectRefused(state, { t: 'break', casting: sleep }, 'BreakNotYetCasting');
    expectRefused(state, { t: 'break', casting: wand }, 'BreakDevice');
    expectRefused(state, { t: 'break', casting: 'nothing' }, 'NoCasting');
    expectRefused(state, { t: 'break', casting: sleep, why: 'bored' }, 'MalformedRequest');
    give(state, { t: 'next' });
    expect(give(state, { t: 'break', casting: sleep, why: 'jostled' }).interruptions?.[0]).toMatchObject({ outcome: 'interrupted', expended: true, broken: 'jostled' });
  });

  it('individual-speed with interruptCasting off: what no hit breaks, no break breaks either', () => {
    const { state } = start('individual-speed', people(), [
      { purpose: 'initiative', combatant: 'mage', result: 2 },
      { purpose: 'initiative', combatant: 'priest', result: 3 },
      { purpose: 'initiative', combatant: 'orc', result: 9 },
    ], { interruptCasting: false });
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', speed: 4 }) });
    give(state, { t: 'begin' });
    expectRefused(state, { t: 'break', casting: state.schedule!.castings[0].id }, 'BreakNotBreakable');
  });

  it('a casting carried over is broken while the next round is declared', () => {
    const { state, dice } = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 10 }) });
    give(state, { t: 'begin' }, dice);
    finishRound(state);
    give(state, { t: 'next' });
    expect(state.stage).toBe('declare');
    const casting = state.carry[0].id;
    give(state, { t: 'break', casting });
    expect(state.status[casting]).toBe('interrupted');
    expect(state.states.mage.expended).toEqual(['Sleep']);
  });
});

/* ===================================================================== the log */

describe('mid-round actions are stored in the log and replayed to the same state', () => {
  it('a scripted combat with a delay, a release, a break and an out-of-turn attack replays entry for entry', () => {
    const hl = playCombat(
      PROCEDURES['high-low'],
      encounter(pc('hero'), pc('mage', { spells: ['Sleep'] }), foe('orc'), foe('gob')),
      {},
      new ScriptedDice([surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]),
      {
        rounds: 1,
        declarations: () => ({ hero: melee('hero', 'orc'), mage: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }), orc: d('orc', 'flee'), gob: melee('gob', 'hero') }),
        delays: [{ round: 1, combatant: 'hero', phase: 'high' }],
        breaks: [{ round: 1, combatant: 'mage', phase: 'low', why: 'jostled' }],
        attacks: [{ round: 1, attacker: 'hero', target: 'orc', phase: 'fast', damage: 3 }],
      },
    );
    expect(hl.notDone).toEqual([]);
    const kinds = hl.entries.map((e) => e.t);
    expect(kinds).toEqual(expect.arrayContaining(['delay', 'break', 'attack']));
    for (const e of hl.entries) expect(entryProblem(e), e.t).toBeNull();
    const keyed: KeyedLog = Object.fromEntries(hl.entries.map((e, i) => [entryKey(i), e]));
    const { state, problems } = replay(keyed);
    expect(problems).toEqual([]);
    expect(state).toStrictEqual(hl.state);
    // What the script did: the free attack at the fleeing orc, then the delay, then the casting broken.
    expect(hl.state.attacks).toEqual([expect.objectContaining({ c: 'hero', target: 'orc', as: 'free-attack' })]);
    expect(hl.state.states.orc.hp).toBe(7);
    expect(hl.state.interruptions).toEqual([expect.objectContaining({ caster: 'mage', broken: 'jostled', expended: true })]);
  });
});
