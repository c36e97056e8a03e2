/**
 * Attacks held to the schedule (src/rules/flow/attack.ts, the `attack`
 * input): accepted only while the round's steps are played, from a combatant
 * able to act, at another combatant in the combat, on an attack routine the
 * schedule gives it in this step (or a held action, or an attack its
 * procedure grants out of turn), with its declared weapon. Each rules test
 * names the seed passage (seeds/000…004) or ruling (seeds/README.md) it checks.
 */
import { describe, expect, it } from 'vitest';
import { attackProblem, currentActors, scheduledAttacksLeft, type FlowState } from '../../src/rules/flow';
import { PROCEDURE_IDS, type Combatant, type ProcedureId } from '../../src/rules/model';
import type { ScriptedRoll } from '../../src/rules/dice';
import { base, d, encounter, expectRefused, finishRound, give, init, melee, playTo, start, stepOf, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });
const attack = (c: string, target: string, extra: { weapon?: string; routine?: number } = {}) => ({ t: 'attack' as const, c, target, ...extra });

/** The grant an accepted attack was recorded with. */
function grantOf(state: FlowState, c: string, target: string, extra: { weapon?: string; routine?: number } = {}): string | undefined {
  return give(state, attack(c, target, extra)).attack?.as;
}

/* ============================================================ segment-d6 */

describe('segment-d6 (seed 000): attacks in the segment of the side', () => {
  const sword = { name: 'Long sword', speed: 5 };
  const bow = { name: 'Short bow', missile: true, rate: 2 };
  const people = () =>
    encounter(pc('fighter', { weapon: sword }), pc('archer', { weapon: bow }), pc('mage'), foe('orc'), foe('orc2', { attackRoutines: 2 }));
  /** Party 5, foes 4: "each party acts in the segment indicated by the other party's die roll" — the party in 4, the foes in 5. */
  const d6 = (more: Parameters<typeof start>[2] = [], surprised = [surprise('party', 5), surprise('foes', 5)]) =>
    start('segment-d6', people(), [...surprised, init('party', 1, 5), init('foes', 1, 4), ...more]);

  it('only while the round is played: "Determine Initiative ... Party with initiative acts first" — not while declaring, not after the last step', () => {
    const { state, dice } = d6();
    expectRefused(state, attack('fighter', 'orc'), 'AttackOutsideRound');
    expect(attackProblem(state, attack('fighter', 'orc'))).toEqual({ key: 'AttackOutsideRound', data: { name: 'Fighter' } });
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    finishRound(state);
    expectRefused(state, attack('fighter', 'orc'), 'AttackOutsideRound');
  });

  it('in its own segment, one attack per routine; not in the other side\'s segment ("a goblin killed in the first segment ... unable to attack")', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: melee('fighter', 'orc', { weapon: sword }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([4, 5]);
    expect(currentActors(state)).toEqual(['fighter']);
    expectRefused(state, attack('orc', 'fighter'), 'AttackNotYourStep');
    expect(grantOf(state, 'fighter', 'orc', { weapon: 'Long sword' })).toBe('schedule');
    expect(state.attacks).toEqual([{ c: 'fighter', target: 'orc', step: 0, as: 'schedule', weapon: 'Long sword' }]);
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
    give(state, { t: 'next' });
    expectRefused(state, attack('fighter', 'orc'), 'AttackNotYourStep');
    expect(grantOf(state, 'orc', 'fighter')).toBe('schedule');
    // Attacks are the round's: a new round begins with none.
    finishRound(state);
    give(state, { t: 'next' });
    expect(state.attacks).toBeUndefined();
  });

  it('a second attack routine "cannot [be used] until after the other side\'s initiative segment has been resolved": the count starts again in that step', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: melee('fighter', 'orc', { routines: 2 }) });
    give(state, { t: 'begin' }, dice);
    give(state, attack('fighter', 'orc'));
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
    playTo(state, stepOf(state, 'fighter', { kind: 'routine' }));
    expect(state.schedule?.steps[state.step].segment).toBe(5);
    expect(grantOf(state, 'fighter', 'orc')).toBe('schedule');
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
  });

  it('a missile routine allows its rate of fire (seed 001: "an orc fires a short bow twice" is one attack routine)', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('archer', 'missile', { target: 'orc' }) });
    give(state, { t: 'begin' }, dice);
    // How many the schedule still allows (what the odds' trials ask once): the rate of fire, less those made.
    expect(scheduledAttacksLeft(state, 'archer')).toBe(2);
    expect(scheduledAttacksLeft(state, 'orc')).toBe(0);
    give(state, attack('archer', 'orc', { weapon: 'Short bow' }));
    expect(scheduledAttacksLeft(state, 'archer')).toBe(1);
    give(state, attack('archer', 'orc2', { weapon: 'Short bow' }));
    expect(scheduledAttacksLeft(state, 'archer')).toBe(0);
    expectRefused(state, attack('archer', 'orc'), 'NoAttackLeft');
    // Outside a round's steps: none.
    finishRound(state);
    expect(scheduledAttacksLeft(state, 'archer')).toBe(0);
  });

  it('dead in an earlier segment it cannot attack; killed in its own segment it still does ("It is possible for two combatants to kill each other during a simultaneous initiative round!")', () => {
    const { state, dice } = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 3), init('foes', 1, 3), init('party', 2, 5), init('foes', 2, 4)]);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, dice);
    expect(currentActors(state).sort()).toEqual(['fighter', 'orc', 'orc2']);
    give(state, attack('fighter', 'orc'));
    give(state, { t: 'hit', target: 'orc', amount: 12, by: 'fighter' });
    expect(state.states.orc.condition).toBe('dead');
    expect(grantOf(state, 'orc', 'fighter')).toBe('schedule');
    finishRound(state);
    give(state, { t: 'next' });
    give(state, { t: 'begin' }, dice);
    // Round 2: the foes act in segment 5, the orc is dead by then.
    playTo(state, stepOf(state, 'orc2'));
    expectRefused(state, attack('orc', 'fighter'), 'ActRefusedDead');
  });

  it('the target is another combatant still in this combat; the attacker one still in it', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expectRefused(state, attack('fighter', 'fighter'), 'AttackTargetInvalid');
    expectRefused(state, attack('fighter', 'troll'), 'AttackTargetInvalid');
    give(state, { t: 'leave', c: 'orc2' });
    expectRefused(state, attack('fighter', 'orc2'), 'AttackTargetInvalid');
    expectRefused(state, attack('ghost', 'orc'), 'UnknownCombatant');
    give(state, { t: 'leave', c: 'fighter' });
    expectRefused(state, attack('fighter', 'orc'), 'ActRefusedFled');
    for (const bad of [{ t: 'attack' }, { t: 'attack', c: 'fighter' }, { t: 'attack', c: 7, target: 'orc' }, attack('archer', 'orc', { routine: -1 }), attack('archer', 'orc', { routine: 1.5 }), { ...attack('archer', 'orc'), weapon: 3 }]) {
      expectRefused(state, bad, 'MalformedRequest');
    }
  });

  it('with its declared weapon ("attacking with a sword"); natural attacks take any weapon; a monster\'s routine must be one of its stat block', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: melee('fighter', 'orc', { weapon: sword }) });
    give(state, { t: 'declare', d: d('archer', 'missile', { target: 'orc' }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'archer') } }, dice);
    expectRefused(state, attack('fighter', 'orc', { weapon: 'Dagger' }), 'AttackWeaponNotDeclared');
    expectRefused(state, attack('fighter', 'orc', { routine: 0 }), 'AttackRoutineNotDeclared');
    // The weapon in hand stands for a declaration that names none.
    expectRefused(state, attack('archer', 'orc', { weapon: 'Sling' }), 'AttackWeaponNotDeclared');
    give(state, attack('fighter', 'orc', { weapon: ' long SWORD ' }));
    give(state, attack('archer', 'orc'));
    give(state, { t: 'next' });
    // The orcs have no weapon: natural attacks, any weapon or routine is taken; orc2's block lists two routines.
    give(state, attack('orc', 'fighter', { weapon: 'Club' }));
    expectRefused(state, attack('orc2', 'archer', { routine: 2 }), 'AttackRoutineUnknown');
    give(state, attack('orc2', 'archer', { routine: 1 }));
  });

  it('a weapon set against a charge strikes in the charger\'s segment, before it ("attacking charging opponents with spears set against a charge")', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('fighter', 'set-vs-charge', { target: 'orc' }) });
    give(state, { t: 'begin', d: { orc: d('orc', 'charge', { target: 'fighter' }) } }, dice);
    expect(state.schedule?.steps.map((s) => [s.segment, s.entries.map((e) => e.action)])).toEqual([
      [5, ['set-vs-charge']],
      [5, ['charge']],
    ]);
    expect(grantOf(state, 'fighter', 'orc')).toBe('schedule');
    give(state, { t: 'next' });
    expect(grantOf(state, 'orc', 'fighter')).toBe('schedule');
  });

  it('a fleeing attack: "Some actions may allow the other side to \'interrupt\' with an action such as a fleeing attack" — once per fleeing foe', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: d('orc', 'flee'), orc2: melee('orc2', 'fighter') } }, dice);
    playTo(state, stepOf(state, 'orc'));
    expect(grantOf(state, 'fighter', 'orc')).toBe('fleeing-attack');
    expectRefused(state, attack('fighter', 'orc'), 'FleeingAttackTaken');
    // Not at one who stands, nor by the fleer's own side.
    expectRefused(state, attack('archer', 'orc2'), 'AttackNotYourStep');
    expect(grantOf(state, 'archer', 'orc')).toBe('fleeing-attack');
  });

  it('a held action: "some combatants might \'hold\' (choose to delay) their actions, waiting to act until these later segments" — one attack, from its segment on', () => {
    const { state, dice } = d6([], [surprise('party', 5), surprise('foes', 5)]);
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([4, 5]);
    give(state, { t: 'next' });
    expect(grantOf(state, 'fighter', 'orc')).toBe('held');
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
  });

  it('the surprise segments: "the unsurprised party may act"; the surprised may not even take a fleeing attack', () => {
    const { state, dice } = d6([], [surprise('party', 2), surprise('foes', 5)]);
    expect(state.round).toBe(0);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: d('orc', 'flee'), orc2: melee('orc2', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([1, 2]);
    expect(grantOf(state, 'orc2', 'fighter')).toBe('schedule');
    expectRefused(state, attack('fighter', 'orc'), 'AttackerSurprised');
  });
});

/* ============================================================== high-low */

describe('high-low (seed 001): group phases, free attacks', () => {
  const people = () => encounter(pc('fighter', { routines: 2 }), pc('mage', { spells: ['Sleep'] }), pc('thief'), foe('orc'), foe('orc2'), foe('gob'));
  /** No surprise (5s on the d6); HIGH: the party (6 over 2). */
  const hl = (surprised = [surprise('party', 5), surprise('foes', 5)]) => start('high-low', people(), [...surprised, init('party', 1, 6), init('foes', 1, 2)]);

  it('"The group with the highest roll acts first during HIGH group initiative ... LOW group": each attacks in its phase only', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: melee('thief', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'thief') } }, dice);
    expect(state.schedule?.steps.map((s) => s.phase)).toEqual(['high', 'low']);
    expectRefused(state, attack('orc', 'thief'), 'AttackNotYourStep');
    expect(grantOf(state, 'thief', 'orc')).toBe('schedule');
    give(state, { t: 'next' });
    expectRefused(state, attack('thief', 'orc'), 'AttackNotYourStep');
    expect(grantOf(state, 'orc', 'thief')).toBe('schedule');
  });

  it('multi-attack: the first routine in step 4, "any remaining attacks due to the multi-attack ability" in step 6', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin' }, dice);
    expect(state.schedule?.steps.map((s) => s.phase)).toEqual(['multi-attack', 'remaining-attacks']);
    give(state, attack('fighter', 'orc'));
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
    give(state, { t: 'next' });
    give(state, attack('fighter', 'orc2'));
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
  });

  it('a free attack at a foe fleeing melee ("Free Attack. [immediate] ... (ex. Flee Melee)"): "Only one free attack may be taken per segment by any creature"; it breaks a caster\'s concentration', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    give(state, { t: 'begin', d: { orc: d('orc', 'flee'), orc2: d('orc2', 'flee') } }, dice);
    playTo(state, stepOf(state, 'orc'));
    expect(state.schedule?.steps[state.step].entries.map((e) => e.combatant)).toEqual(['orc', 'orc2']);
    const done = give(state, attack('mage', 'orc'));
    expect(done.attack?.as).toBe('free-attack');
    // "a free attack taken will break concentration (e.g. spell casting)": the spell "fails and is lost as if cast".
    expect(done.interruptions).toEqual([expect.objectContaining({ caster: 'mage', spell: 'Sleep', outcome: 'interrupted', expended: true })]);
    expect(state.states.mage.expended).toEqual(['Sleep']);
    expectRefused(state, attack('mage', 'orc2'), 'HighLowFreeAttackOnePerSegment');
    expect(grantOf(state, 'thief', 'orc2')).toBe('free-attack');
    // Not at an ally, nor by one of the fleers' side.
    expectRefused(state, attack('gob', 'orc'), 'AttackNotYourStep');
  });

  it('"Creatures with the surprised condition cannot make free attacks": surprised, the party loses round 1', () => {
    const { state, dice } = hl([surprise('party', 1), surprise('foes', 5)]);
    expect(state.surprise.surprised.thief).toBe(1);
    give(state, { t: 'declare', d: melee('thief', 'orc') });
    give(state, { t: 'begin', d: { orc: d('orc', 'flee') } }, dice);
    expectRefused(state, attack('thief', 'orc'), 'HighLowFreeAttackSurprised');
  });

  it('"Declaring a Delay ... you act on LOW initiative": the delayer may attack then', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('thief', 'delay') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'thief') } }, dice);
    // D3 melee before D4 other in the LOW group.
    expect(state.schedule?.steps.map((s) => [s.phase, s.entries.map((e) => e.combatant)])).toEqual([
      ['low', ['orc']],
      ['low', ['thief']],
    ]);
    expectRefused(state, attack('thief', 'orc'), 'AttackNotYourStep');
    give(state, { t: 'next' });
    expect(grantOf(state, 'thief', 'orc')).toBe('schedule');
    expectRefused(state, attack('thief', 'orc'), 'NoAttackLeft');
  });
});

/* ========================================================= d12-ascending */

describe('d12-ascending (seed 002): lowest first, all attacks on the turn, attacks of opportunity', () => {
  const people = () =>
    encounter(
      pc('fighter', { className: 'Fighter', level: 13 }),
      pc('archer', { weapon: { name: 'Bow', missile: true } }),
      pc('mage', { spells: ['Sleep'] }),
      foe('orc'),
      foe('gob'),
    );
  /** Nobody surprised (12s); the party rolls 3, the foes 8: "Sides act in order of lowest to highest result". */
  const d12 = (surprised = [surprise('party', 12), surprise('foes', 12)]) => start('d12-ascending', people(), [...surprised, init('party', 1, 3), init('foes', 1, 8)], { initiativeMode: 'group' });

  it('"ALL a characters attacks resolve on their turn": 2/1 at level 13, both routines in its step; the foes on theirs', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => s.count)).toEqual([3, 8]);
    expectRefused(state, attack('orc', 'fighter'), 'AttackNotYourStep');
    give(state, attack('fighter', 'orc'));
    give(state, attack('fighter', 'orc'));
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
    give(state, { t: 'next' });
    expect(grantOf(state, 'orc', 'fighter')).toBe('schedule');
  });

  it('III.C "Missile fire versus adjacent opponents attacking you with a melee weapon draws an Attack of Opportunity"; III.F "Generally only one AoO per round per character"', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: d('archer', 'missile', { target: 'gob' }) });
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'archer'), gob: melee('gob', 'mage') } }, dice);
    expect(state.schedule?.steps[0].entries.map((e) => [e.combatant, e.kind])).toEqual([
      ['archer', 'action'],
      ['mage', 'cast-begin'],
    ]);
    expect(grantOf(state, 'orc', 'archer')).toBe('opportunity');
    expectRefused(state, attack('orc', 'archer'), 'AttackOfOpportunityUsed');
    // "Casting while in melee range also draws an AoO": the goblin attacking the mage.
    expect(grantOf(state, 'gob', 'mage')).toBe('opportunity');
    // The archer shoots at the goblin: engaged with it too, but the goblin's one AoO is spent.
    expectRefused(state, attack('gob', 'archer'), 'AttackOfOpportunityUsed');
  });

  it('"Flee in panic ... Opponents may take an AoO at your back"; without a trigger, or not engaged, no attack out of turn', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: d('fighter', 'flee', { target: 'orc' }) });
    give(state, { t: 'declare', d: melee('archer', 'gob') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), gob: melee('gob', 'archer') } }, dice);
    expectRefused(state, attack('orc', 'archer'), 'AttackNotYourStep');
    playTo(state, stepOf(state, 'fighter'));
    expect(state.schedule?.steps[state.step].phase).toBe('d12-withdrawal');
    expectRefused(state, attack('gob', 'fighter'), 'AttackNotYourStep');
    expect(grantOf(state, 'orc', 'fighter')).toBe('opportunity');
  });

  it('I.D "Surprise lasts 1 round": the surprised neither act nor take attacks of opportunity in it', () => {
    const { state, dice } = d12([surprise('party', 2), surprise('foes', 12)]);
    expect(state.round).toBe(0);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: d('orc', 'flee', { target: 'fighter' }), gob: melee('gob', 'fighter') } }, dice);
    playTo(state, stepOf(state, 'orc'));
    expectRefused(state, attack('fighter', 'orc'), 'AttackerSurprised');
  });
});

/* ====================================================== individual-speed */

describe('individual-speed (seed 003): counts, the riposte, the Dying', () => {
  const people = () =>
    encounter(
      pc('fighter', { routines: 2, woundPoints: 10, strength: 10 }),
      pc('guard', { woundPoints: 10, strength: 10 }),
      foe('ghoul', { woundPoints: 10, strength: 10 }),
      foe('wolf', { woundPoints: 10, strength: 10 }),
    );
  const speed = () => start('individual-speed', people(), [base('fighter', 3), base('guard', 4), base('ghoul', 6), base('wolf', 9)]);

  it('"creatures take turns resolving their actions in turn order from lowest Initiative to highest": each attacks at its count', () => {
    const { state } = speed();
    give(state, { t: 'declare', d: melee('guard', 'ghoul') });
    give(state, { t: 'begin', d: { ghoul: melee('ghoul', 'guard') } });
    expect(state.schedule?.steps.map((s) => s.count)).toEqual([4, 6]);
    expectRefused(state, attack('ghoul', 'guard'), 'AttackNotYourStep');
    give(state, attack('guard', 'ghoul'));
    give(state, { t: 'next' });
    give(state, attack('ghoul', 'guard'));
  });

  it('"when using the Full-Defense action ... if they are attacked they may make a Reposte as a Reaction": at its attacker, once a round', () => {
    const { state } = speed();
    give(state, { t: 'declare', d: d('guard', 'full-defense') });
    give(state, { t: 'begin', d: { ghoul: melee('ghoul', 'guard'), wolf: melee('wolf', 'guard') } });
    expectRefused(state, attack('guard', 'ghoul'), 'AttackNotYourStep'); // its own count: full defense, no attack
    playTo(state, stepOf(state, 'ghoul'));
    expectRefused(state, attack('guard', 'ghoul'), 'AttackNotYourStep'); // not attacked yet
    give(state, attack('ghoul', 'guard'));
    expectRefused(state, attack('guard', 'wolf'), 'AttackNotYourStep'); // the wolf has not attacked it
    expect(grantOf(state, 'guard', 'ghoul')).toBe('riposte');
    playTo(state, stepOf(state, 'wolf'));
    give(state, attack('wolf', 'guard'));
    expectRefused(state, attack('guard', 'wolf'), 'RiposteUsed');
  });

  it('"a Dying creature ... can only take 1 action of any kind on its turn": one routine of two; dead, none', () => {
    const { state } = speed();
    give(state, { t: 'declare', d: melee('fighter', 'wolf') });
    give(state, { t: 'declare', d: melee('guard', 'wolf') });
    give(state, { t: 'begin', d: { ghoul: melee('ghoul', 'guard') } });
    // Count 3: the fighter is brought to -1 Wound Points (Dying) at once, before the step of its blows ends.
    give(state, { t: 'hit', target: 'fighter', amount: 11 });
    expect(state.states.fighter.condition).toBe('dying');
    give(state, attack('fighter', 'wolf'));
    expectRefused(state, attack('fighter', 'wolf'), 'NoAttackLeft');
    // Count 4: the guard killed in an earlier step cannot attack.
    give(state, { t: 'hit', target: 'guard', amount: 30 });
    expect(state.states.guard.condition).toBe('dead');
    give(state, { t: 'next' });
    expectRefused(state, attack('guard', 'wolf'), 'ActRefusedDead');
  });

  it('"a character may use Defensive Attack even if they do not actually attack" (declared with no routine): no attack', () => {
    const { state } = speed();
    give(state, { t: 'declare', d: d('guard', 'defensive-attack', { target: 'ghoul', routines: 0 }) });
    give(state, { t: 'declare', d: d('fighter', 'defensive-attack', { target: 'ghoul' }) });
    give(state, { t: 'begin' });
    playTo(state, stepOf(state, 'guard'));
    expectRefused(state, attack('guard', 'ghoul'), 'NoAttackLeft');
  });
});

/* ================================================================ addict */

describe('addict (seed 004): action letters, set weapons, prepared actions', () => {
  const people = () => encounter(pc('fighter', { movement: 120 }), pc('spear', { weapon: { name: 'Spear', length: 8 } }), pc('sentry'), foe('ogre', { movement: 90 }), foe('gob'));
  const addict = (more: Parameters<typeof start>[2] = []) => start('addict', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2), ...more]);

  it('"If one side won initiative, resolve all of their actions ... After that, the losing side\'s actions": the winner attacks first, each in its step', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: { gob: melee('gob', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([2, 5]);
    expectRefused(state, attack('gob', 'fighter'), 'AttackNotYourStep');
    give(state, attack('fighter', 'gob'));
    give(state, { t: 'next' });
    give(state, attack('gob', 'fighter'));
  });

  it('"F vs E": a weapon set against a charge strikes at the charge\'s arrival, before the charger', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: d('spear', 'set-vs-charge', { target: 'ogre' }) });
    give(state, { t: 'begin', d: { ogre: d('ogre', 'charge', { target: 'spear', distance: 30 }) } }, dice);
    const set = stepOf(state, 'spear');
    expect(set).toBeLessThan(stepOf(state, 'ogre'));
    playTo(state, set);
    expect(grantOf(state, 'spear', 'ogre', { weapon: 'Spear' })).toBe('schedule');
    playTo(state, stepOf(state, 'ogre'));
    expect(grantOf(state, 'ogre', 'spear')).toBe('schedule');
  });

  it('"Preparing actions ... that action \'becomes prepared\' at the time it would normally resolve. Then, it\'s triggered when the case ... occurs": one attack, later in the round', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: d('sentry', 'wait', { note: 'I shoot anything that comes around the corner' }) });
    give(state, { t: 'begin', d: { gob: melee('gob', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => [s.segment, s.entries.map((e) => e.combatant)])).toEqual([
      [2, ['sentry']],
      [5, ['gob']],
    ]);
    give(state, { t: 'next' });
    expect(grantOf(state, 'sentry', 'gob')).toBe('held');
    expectRefused(state, attack('sentry', 'gob'), 'NoAttackLeft');
  });

  it('phase 9: at 0 hit points or below a combatant cannot act, so cannot attack', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: { gob: melee('gob', 'fighter') } }, dice);
    give(state, { t: 'hit', target: 'gob', amount: 11 });
    give(state, { t: 'next' });
    expectRefused(state, attack('gob', 'fighter'), 'ActRefusedDying');
  });
});

/* ============================================ the same checks, every procedure */

describe.each(PROCEDURE_IDS)('%s: the checks every attack passes', (procedure) => {
  const people = () => encounter(pc('fighter', { weapon: { name: 'Mace', speed: 7 } }), foe('orc', { attackRoutines: 1 }));
  /** Nobody surprised; the party first. */
  const rolls: Record<ProcedureId, ScriptedRoll[]> = {
    'segment-d6': [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)],
    'high-low': [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)],
    'd12-ascending': [surprise('party', 12), surprise('foes', 12), init('party', 1, 2), init('foes', 1, 9)],
    'individual-speed': [base('fighter', 1), base('orc', 9)],
    addict: [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)],
  };

  it('declared weapon, a target in the combat, one attack per routine, only in its step and while the round is played', () => {
    const { state, dice } = start(procedure, people(), rolls[procedure]);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    expectRefused(state, attack('fighter', 'orc'), 'AttackOutsideRound');
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(state.round).toBe(1);
    playTo(state, stepOf(state, 'fighter'));
    expect(currentActors(state)).toEqual(['fighter']);
    expectRefused(state, attack('orc', 'fighter'), 'AttackNotYourStep');
    expectRefused(state, attack('fighter', 'fighter'), 'AttackTargetInvalid');
    expectRefused(state, attack('fighter', 'orc', { weapon: 'Axe' }), 'AttackWeaponNotDeclared');
    expect(grantOf(state, 'fighter', 'orc', { weapon: 'Mace' })).toBe('schedule');
    expectRefused(state, attack('fighter', 'orc'), 'NoAttackLeft');
    playTo(state, stepOf(state, 'orc'));
    expectRefused(state, attack('orc', 'fighter', { routine: 1 }), 'AttackRoutineUnknown');
    expect(grantOf(state, 'orc', 'fighter', { routine: 0 })).toBe('schedule');
    finishRound(state, dice);
    expectRefused(state, attack('orc', 'fighter'), 'AttackOutsideRound');
  });
});
