/**
 * Procedure `addict` (seed 004_50ca767315dcbede.txt and the README rulings).
 * Each rules test quotes the passage it checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomDice, ScriptedDice, type ScriptedRoll } from '../../src/rules/dice';
import type { ActionKind, Combatant, CombatantState, Declaration } from '../../src/rules/model';
import { RulesError } from '../../src/rules/model';
import type { Casting, Encounter, InitiativeResult, RoundInput, Schedule, StepEntry } from '../../src/rules/procedure';
import { resolveOptions } from '../../src/rules/procedure';
import { playCombat, type CombatScript, type DamageEvent, type RoundLog } from '../../src/rules/play';
import { initialStates } from '../../src/rules/round';
import {
  addictProcedure as P,
  ADDICT_PHASES,
  chargeArrivalSegment,
  chargeMovementOf,
  DEFAULT_LETTERS,
  letterTableProblem,
  makeAddictProcedure,
  type AddictOptions,
} from '../../src/rules/procedures/addict';

/* ---------------------------------------------------------------- helpers */

const opts: AddictOptions = { ...P.defaults };

function encounter(...combatants: Combatant[]): Encounter {
  const sides = [...new Set(combatants.map((c) => c.side))].map((id) => ({ id, name: id }));
  return { sides, combatants };
}

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id, side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id, side: 'foes', hp: 10, ...extra });
const d = (combatant: string, action: ActionKind, extra: Partial<Declaration> = {}): Declaration => ({ combatant, action, ...extra });

function declarations(...ds: Declaration[]): Record<string, Declaration> {
  return Object.fromEntries(ds.map((x) => [x.combatant, x]));
}

function initiative(sides: Record<string, number>, round = 1): InitiativeResult {
  return { round, sides, individuals: {}, winner: null };
}

function plan(enc: Encounter, sides: Record<string, number>, ds: Declaration[], extra: Partial<RoundInput> = {}, o = opts): Schedule {
  const input: RoundInput = {
    round: 1,
    declarations: declarations(...ds),
    states: initialStates(enc),
    surprise: null,
    baseInitiative: {},
    carryIn: [],
    ...extra,
  };
  return P.planRound(enc, input, initiative(sides, input.round), o);
}

/** "segment:combatant" per entry kind, e.g. where('fighter') → [{segment, step, entry}]. */
function where(schedule: Schedule, combatant: string) {
  const out: { segment: number; step: number; entry: StepEntry }[] = [];
  schedule.steps.forEach((s, i) => {
    for (const e of s.entries) if (e.combatant === combatant) out.push({ segment: s.segment as number, step: i, entry: e });
  });
  return out;
}

const actionStep = (s: Schedule, id: string) => where(s, id).find((w) => w.entry.kind === 'action') ?? null;

/** Scripted dice: no surprise for anyone (3), then initiative per round. */
function scripted(inits: Record<string, number>[], more: ScriptedRoll[] = [], surprise: Record<string, number> = {}): ScriptedDice {
  const script: ScriptedRoll[] = [];
  for (const side of ['party', 'foes', 'third']) script.push({ purpose: 'surprise', side, round: 0, result: surprise[side] ?? 3 });
  inits.forEach((sides, i) => {
    for (const [side, result] of Object.entries(sides)) script.push({ purpose: 'initiative', side, round: i + 1, result });
  });
  return new ScriptedDice([...script, ...more]);
}

function combat(
  enc: Encounter,
  dice: ScriptedDice,
  perRound: Record<number, Declaration[]>,
  damage: DamageEvent[] = [],
  rounds = 1,
  extra: Partial<CombatScript> = {},
) {
  return playCombat(P, enc, opts, dice, {
    rounds,
    declarations: (round) => declarations(...(perRound[round] ?? [])),
    damage,
    ...extra,
  });
}

function outcomes(log: RoundLog, combatant: string) {
  return log.steps.flatMap((s) =>
    s.entries.filter((e) => e.entry.combatant === combatant).map((e) => ({ segment: s.segment, kind: e.entry.kind, outcome: e.outcome })),
  );
}

const goesOff = (log: RoundLog, caster: string) => outcomes(log, caster).some((o) => o.outcome === 'goes-off');

/* ============================================================ action list */

describe('action list ("coded by letter as they appear on DMG 61")', () => {
  it('README ruling: A parley, B wait, C flee, D missiles/turn/spell/device, E charge, F set, G melee, H other', () => {
    expect(DEFAULT_LETTERS).toMatchObject({
      parley: 'A',
      wait: 'B',
      flee: 'C',
      missile: 'D',
      'turn-undead': 'D',
      spell: 'D',
      device: 'D',
      charge: 'E',
      'set-vs-charge': 'F',
      melee: 'G',
      other: 'H',
    });
    expect(P.actions).toContain('none');
    expect(P.actions).not.toContain('full-defense');
    expect(P.actions).not.toContain('delay');
  });

  it('"resolve all of their actions in the order appearing in the action list": one side, letters A < B < C < D < G < H', () => {
    const enc = encounter(pc('a'), pc('b'), pc('c'), pc('dd'), pc('g'), pc('h'), foe('orc'));
    const s = plan(enc, { party: 4, foes: 2 }, [
      d('h', 'other'),
      d('g', 'melee', { target: 'orc' }),
      d('dd', 'missile', { target: 'orc' }),
      d('c', 'flee'),
      d('b', 'wait'),
      d('a', 'parley'),
    ]);
    const order = ['a', 'b', 'c', 'dd', 'g', 'h'].map((id) => actionStep(s, id)!);
    // All in the party's segment (the orcs' die, 2), each letter its own step, in letter order.
    expect(order.map((w) => w.segment)).toEqual([2, 2, 2, 2, 2, 2]);
    const steps = order.map((w) => w.step);
    expect([...steps].sort((x, y) => x - y)).toEqual(steps);
    expect(new Set(steps).size).toBe(6);
  });

  it('is data-driven: a GM relabelling melee before missiles changes the order', () => {
    const relabelled = makeAddictProcedure({ ...DEFAULT_LETTERS, melee: 'C', flee: 'G' });
    const enc = encounter(pc('archer'), pc('swordsman'), foe('orc'));
    const input: RoundInput = {
      round: 1,
      declarations: declarations(d('archer', 'missile', { target: 'orc' }), d('swordsman', 'melee', { target: 'orc' })),
      states: initialStates(enc),
      surprise: null,
      baseInitiative: {},
      carryIn: [],
    };
    const before = P.planRound(enc, input, initiative({ party: 4, foes: 2 }), opts);
    const after = relabelled.planRound(enc, input, initiative({ party: 4, foes: 2 }), opts);
    expect(actionStep(before, 'archer')!.step).toBeLessThan(actionStep(before, 'swordsman')!.step);
    expect(actionStep(after, 'swordsman')!.step).toBeLessThan(actionStep(after, 'archer')!.step);
  });

  it('a letter table with an unknown action or an empty letter is a Problem, thrown as a RulesError', () => {
    expect(letterTableProblem({ ...DEFAULT_LETTERS, melee: '' })?.key).toBe('AddictLetterTableInvalid');
    expect(letterTableProblem({ fly: 'X' } as never)?.key).toBe('AddictLetterTableInvalid');
    expect(() => makeAddictProcedure({ ...DEFAULT_LETTERS, melee: ' ' })).toThrow(RulesError);
  });

  it('lists all eleven phases in the order of the text', () => {
    expect(P.phases).toEqual(ADDICT_PHASES);
    expect(P.phases).toHaveLength(11);
    expect(P.phases[0]).toBe('addict-reaction');
    expect(P.phases[8]).toBe('addict-bleeding');
    expect(P.phases[10]).toBe('addict-recovery');
  });
});

/* ================================================== phase 2: surprise check */

describe('phase 2: surprise check', () => {
  const party = [pc('fighter'), pc('thief', { surpriseAdjustment: 2 }), pc('clumsy', { surpriseAdjustment: -1 })];
  const foes = [foe('orc1'), foe('orc2')];

  it('"One player rolls for their party\'s surprise, and the DM rolls for the other parties": one d6 per side, round 0', () => {
    const dice = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 4 },
      { purpose: 'surprise', side: 'foes', result: 2 },
    ]);
    const s = P.rollSurprise(encounter(...party, ...foes), dice, opts);
    expect(dice.log.map((l) => l.request)).toEqual([
      { purpose: 'surprise', count: 1, faces: 6, side: 'party', round: 0 },
      { purpose: 'surprise', count: 1, faces: 6, side: 'foes', round: 0 },
    ]);
    expect(s.unit).toBe('segments');
    expect(s.surprised).toMatchObject({ orc1: 2, orc2: 2, fighter: 0, thief: 0, clumsy: 0 });
  });

  it('"Detection of a party prior to this phase negates the possibility of surprise": an alerted side does not roll', () => {
    const enc = encounter(...party, ...foes);
    enc.sides[1].alerted = true;
    const dice = new ScriptedDice([{ purpose: 'surprise', side: 'party', result: 1 }]);
    const s = P.rollSurprise(enc, dice, opts);
    expect(s.rolls).toEqual({ party: 1 });
    expect(s.surprised.orc1).toBe(0);
    expect(s.surprised.fighter).toBe(1);
  });

  it('ruling: a reaction bonus removes segments and a penalty adds them, only where the side is surprised', () => {
    const dice = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 2 },
      { purpose: 'surprise', side: 'foes', result: 5 },
    ]);
    const s = P.rollSurprise(encounter(...party, ...foes), dice, opts);
    expect(s.surprised).toMatchObject({ fighter: 2, thief: 0, clumsy: 3, orc1: 0 });
    // Not surprised: the penalty does not create surprise.
    const dice2 = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 5 },
      { purpose: 'surprise', side: 'foes', result: 5 },
    ]);
    expect(P.rollSurprise(encounter(...party, ...foes), dice2, opts).surprised.clumsy).toBe(0);
  });

  it('ruling: "When both sides are surprised, the lesser count is subtracted from the greater" (party 1, monsters 2: one segment)', () => {
    const enc = encounter(pc('fighter'), ...foes);
    const roll = () =>
      new ScriptedDice([
        { purpose: 'surprise', side: 'party', result: 1 },
        { purpose: 'surprise', side: 'foes', result: 2 },
      ]);
    const s = P.rollSurprise(enc, roll(), opts);
    expect(s.surprised).toEqual({ fighter: 0, orc1: 1, orc2: 1 });
    const sched = P.planSurprise(enc, s, declarations(d('fighter', 'melee', { target: 'orc1' })), opts)!;
    expect(where(sched, 'fighter').map((w) => w.segment)).toEqual([1]);
    // The option off: counts stay absolute (nobody acts in segment 1, the party acts in segment 2).
    const raw = P.rollSurprise(enc, roll(), { ...opts, mutualSurprise: false });
    expect(raw.surprised).toEqual({ fighter: 1, orc1: 2, orc2: 2 });
    const sched2 = P.planSurprise(enc, raw, declarations(d('fighter', 'melee', { target: 'orc1' })), opts)!;
    expect(where(sched2, 'fighter').map((w) => w.segment)).toEqual([2]);
  });

  it('seed 000 example: monsters 1, party 2, one member +2 acts alone in segment 1, then with the monsters in segment 2', () => {
    const enc = encounter(pc('fighter'), pc('thief', { surpriseAdjustment: 2 }), foe('orc1'));
    const dice = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 2 },
      { purpose: 'surprise', side: 'foes', result: 1 },
    ]);
    const s = P.rollSurprise(enc, dice, opts);
    expect(s.surprised).toEqual({ fighter: 2, thief: 0, orc1: 1 });
    const sched = P.planSurprise(
      enc,
      s,
      declarations(d('fighter', 'melee', { target: 'orc1' }), d('thief', 'melee', { target: 'orc1' }), d('orc1', 'melee', { target: 'thief' })),
      opts,
    )!;
    expect(where(sched, 'thief').map((w) => w.segment)).toEqual([1, 2]);
    expect(where(sched, 'orc1').map((w) => w.segment)).toEqual([2]);
    expect(where(sched, 'fighter')).toEqual([]);
  });
});

/* ============================================ phase 4: opening morale check */

describe('phase 4: opening morale check', () => {
  // "if 5 light footmen are hired by a 1st level party to help clear out some goblins and an adult red dragon shows up,
  // that's a great time for an automatic morale check."
  const footmen = [1, 2, 3, 4, 5].map((i) => pc(`footman${i}`, { morale: 40 }));
  const enc = encounter(...footmen, pc('hero'), foe('dragon', { hp: 80 }));

  it('the footmen named by the GM each roll d100 against their morale; those over it break', () => {
    const rolls = [10, 41, 90, 40, 100];
    const dice = new ScriptedDice(rolls.map((result, i) => ({ purpose: 'morale' as const, combatant: `footman${i + 1}`, result })));
    const requests = footmen.map((f) => ({ combatant: f.id, trigger: 'overwhelming' }));
    const res = P.openingMorale!(enc, requests, initialStates(enc), dice, opts);
    expect(dice.log[0].request).toMatchObject({ purpose: 'morale', count: 1, faces: 100, combatant: 'footman1', round: 0 });
    expect(res.events.map((e) => (e.kind === 'morale' ? e.passed : null))).toEqual([true, false, false, true, false]);
    expect(footmen.map((f) => !!res.states[f.id].routed)).toEqual([false, true, true, false, true]);
    expect(res.states.hero.routed).toBeUndefined(); // nobody named the hero
  });

  it('option moraleDie 2d6 rolls 2d6 against a 2-12 score; `opposed` lowers the score', () => {
    const e2 = encounter(foe('goblin', { morale: 7 }), pc('hero'));
    const dice = new ScriptedDice([{ purpose: 'morale', combatant: 'goblin', result: 6 }]);
    const res = P.openingMorale!(e2, [{ combatant: 'goblin', trigger: 'reaction', opposed: 2 }], initialStates(e2), dice, {
      ...opts,
      moraleDie: '2d6',
    });
    expect(dice.log[0].request).toMatchObject({ count: 2, faces: 6 });
    expect(res.events[0]).toMatchObject({ kind: 'morale', roll: 6, target: 5, passed: false });
  });

  it('playCombat plays it before the surprise; unknown or dead combatants are skipped, not a crash', () => {
    const dice = scripted([], [{ purpose: 'morale', combatant: 'footman1', result: 95 }]);
    const log = combat(enc, dice, {}, [], 0, {
      moraleRequests: [
        { round: 0, combatant: 'footman1', trigger: 'overwhelming' },
        { round: 0, combatant: 'nobody', trigger: 'overwhelming' },
      ],
    });
    expect(log.openingMorale?.events).toHaveLength(1);
    expect(log.states.footman1.routed).toBe(true);
  });
});

/* =========================================== phase 5: surprise resolution */

describe('phase 5: surprise resolution', () => {
  const surprise = (s: Record<string, number>) => ({ rolls: {}, surprised: s, unit: 'segments' as const });

  it('"Perform phases 6 and 8 … for the surprising party, one surprise segment at a time"', () => {
    const enc = encounter(pc('fighter', { routines: 2 }), foe('orc'));
    const sched = P.planSurprise(enc, surprise({ fighter: 0, orc: 2 }), declarations(d('fighter', 'melee', { target: 'orc' }), d('orc', 'melee')), opts)!;
    expect(sched.round).toBe(0);
    expect(sched.steps.every((s) => s.phase === 'addict-surprise-resolution')).toBe(true);
    // Both attack routines in each surprise segment; the orc never.
    expect(where(sched, 'fighter').map((w) => [w.segment, w.entry.routine ?? 1])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
      [2, 2],
    ]);
    expect(where(sched, 'orc')).toEqual([]);
  });

  it('nobody surprised: no surprise segments', () => {
    const enc = encounter(pc('fighter'), foe('orc'));
    expect(P.planSurprise(enc, surprise({ fighter: 0, orc: 0 }), {}, opts)).toBeNull();
  });

  it('footnote 8: "complete a spell and begin casting another during surprise if there are remaining surprise segments"', () => {
    const mu = pc('mu', { spells: ['Magic Missile', 'Magic Missile'] });
    const enc = encounter(mu, foe('orc'));
    const decl = d('mu', 'spell', { spell: 'Magic Missile', castingTime: 1, target: 'orc' });
    const sched = P.planSurprise(enc, surprise({ mu: 0, orc: 3 }), declarations(decl), opts)!;
    // Begins in 1, goes off in 2 (S + casting time), the second copy begins in 2 and goes off in 3.
    expect(where(sched, 'mu').map((w) => `${w.segment}:${w.entry.kind}`)).toEqual(['1:cast-begin', '2:cast-complete', '2:cast-begin', '3:cast-complete']);
    // With one copy memorized, only one casting.
    const once = P.planSurprise(encounter(pc('mu', { spells: ['Magic Missile'] }), foe('orc')), surprise({ mu: 0, orc: 3 }), declarations(decl), opts)!;
    expect(once.castings).toHaveLength(1);
  });

  it('a casting still running at the end of the surprise goes off in round 1 (surprise 2 segments, begun 1, time 3 → round 1 segment 2)', () => {
    const enc = encounter(pc('mu'), foe('orc'));
    const dice = scripted([{ party: 1, foes: 6 }], [], { foes: 2 });
    const log = combat(enc, dice, { 0: [d('mu', 'spell', { spell: 'Web', castingTime: 3 })] });
    expect(log.surpriseRound!.carryOut).toHaveLength(1);
    expect(log.surpriseRound!.carryOut[0].remaining).toBe(2);
    const r1 = log.rounds[0];
    expect(outcomes(r1, 'mu')).toEqual([{ segment: 2, kind: 'cast-complete', outcome: 'goes-off' }]);
    expect(r1.states.mu.expended).toEqual(['Web']);
  });

  it('a charge made in the surprise lands when it arrives, and the charger fights on in the segments left', () => {
    const enc = encounter(pc('knight', { chargeMovement: 240, weapon: { length: 10, speed: 7 } }), foe('orc'));
    // 24 ft a segment: 40 ft to close to within 10 ft → end of segment 2.
    const sched = P.planSurprise(enc, surprise({ knight: 0, orc: 4 }), declarations(d('knight', 'charge', { target: 'orc', distance: 50 })), opts)!;
    expect(where(sched, 'knight').map((w) => `${w.segment}:${w.entry.action}`)).toEqual(['2:charge', '3:melee', '4:melee']);
  });
});

/* ============================================== phase 6: action declarations */

describe('phase 6: action declarations', () => {
  const enc = encounter(pc('fighter'), pc('mu'), foe('orc'));

  it('"For every full 6 seconds of real-life delay … the character will delay 1 segment"', () => {
    const s = plan(enc, { party: 5, foes: 2 }, [d('fighter', 'melee', { target: 'orc' }), d('mu', 'missile', { target: 'orc', hesitation: 2 })]);
    expect(actionStep(s, 'fighter')!.segment).toBe(2);
    expect(actionStep(s, 'mu')!.segment).toBe(4);
    expect(actionStep(s, 'mu')!.entry.reason).toBe('addictHesitation');
  });

  it('hesitation in seconds, as the table timed it: "For every full 6 seconds of real-life delay … 1 segment" (floor(s / 6))', () => {
    const at = (seconds: number) => actionStep(plan(enc, { party: 5, foes: 2 }, [d('fighter', 'melee', { target: 'orc', hesitationSeconds: seconds })]), 'fighter');
    expect(at(0)!.segment).toBe(2);
    expect(at(5.9)!.segment).toBe(2);
    expect(at(6)!.segment).toBe(3);
    expect(at(17.5)!.segment).toBe(4);
    expect(at(6)!.entry.reason).toBe('addictHesitation');
    expect(at(54)).toBeNull(); // 9 segments: past segment 10
  });

  it.each([
    [{ hesitationSeconds: -1 }, 'AddictHesitationSecondsInvalid'],
    [{ hesitationSeconds: Number.NaN }, 'AddictHesitationSecondsInvalid'],
    [{ hesitationSeconds: Number.POSITIVE_INFINITY }, 'AddictHesitationSecondsInvalid'],
    [{ hesitationSeconds: '12' as unknown as number }, 'AddictHesitationSecondsInvalid'],
    [{ hesitationSeconds: 12, hesitation: 2 }, 'AddictHesitationTwice'],
  ])('hesitation seconds %j → %s (refused, not guessed)', (extra, key) => {
    expect(P.validateDeclaration(d('fighter', 'melee', extra), enc.combatants[0], opts)?.key).toBe(key);
  });

  it('an action delayed past segment 10 does not happen this round', () => {
    const s = plan(enc, { party: 5, foes: 6 }, [d('fighter', 'melee', { target: 'orc', hesitation: 5 })]);
    expect(where(s, 'fighter')).toEqual([]);
  });

  it('footnote 11 / "any damage taken on a round causes the spell to be lost, even if the start of casting was delayed"', () => {
    const dice = scripted([{ party: 2, foes: 5 }]);
    // The orcs act in segment 2; the mage hesitated 3 (begins in 4): hit in 2, the spell is lost and expended.
    const log = combat(enc, dice, { 1: [d('mu', 'spell', { spell: 'Sleep', castingTime: 1, hesitation: 3 }), d('orc', 'melee', { target: 'mu' })] }, [
      { round: 1, by: 'orc', target: 'mu', amount: 2 },
    ]);
    const r1 = log.rounds[0];
    expect(outcomes(r1, 'mu').map((o) => `${o.segment}:${o.outcome}`)).toEqual(['4:interrupted', '5:interrupted']);
    expect(r1.steps.flatMap((s) => s.interruptions)).toEqual([
      expect.objectContaining({ caster: 'mu', spell: 'Sleep', outcome: 'interrupted', expended: true }),
    ]);
    expect(log.states.mu.expended).toEqual(['Sleep']);
  });

  it.each([
    [d('fighter', 'full-defense'), 'ActionNotInProcedure'],
    [d('mu', 'spell', { spell: 'Sleep' }), 'CastingTimeInvalid'],
    [d('fighter', 'melee', { hesitation: 1.5 }), 'AddictHesitationNotWhole'],
    [d('fighter', 'melee', { hesitation: -1 }), 'NumberInvalid'],
    [d('fighter', 'melee', { routines: 0 }), 'AddictRoutinesInvalid'],
    [d('fighter', 'melee', { routines: 1.5 }), 'AddictRoutinesInvalid'],
    [d('fighter', 'melee', { weapon: { speed: -2 } }), 'AddictWeaponInvalid'],
    [d('fighter', 'charge', { target: 'orc' }), 'AddictChargeNoDistance'],
    [d('fighter', 'charge', { target: 'orc', distance: 30 }), 'AddictChargeNoMovement'],
    [d('orc', 'melee'), 'DeclarationWrongCombatant'],
  ])('bad declaration %j → %s', (decl, key) => {
    const who = decl.action === 'spell' ? enc.combatants[1] : enc.combatants[0];
    expect(P.validateDeclaration(decl, who, opts)?.key).toBe(key);
  });

  it('good declarations pass; a charge takes movement from MV when there is no charge MV', () => {
    const runner = pc('runner', { movement: 120 });
    expect(P.validateDeclaration(d('runner', 'charge', { distance: 30, target: 'orc' }), runner, opts)).toBeNull();
    expect(P.validateDeclaration(d('fighter', 'melee', { hesitation: 2, routines: 2 }), enc.combatants[0], opts)).toBeNull();
    expect(P.validateDeclaration(d('fighter', 'none'), enc.combatants[0], opts)).toBeNull();
  });

  it('playCombat refuses a bad declaration with the Problem key', () => {
    expect(() => combat(enc, scripted([{ party: 1, foes: 2 }]), { 1: [d('fighter', 'melee', { hesitation: 0.5 })] })).toThrow(/AddictHesitationNotWhole/);
  });
});

/* =============================================== phase 7: initiative check */

describe('phase 7: initiative check', () => {
  const enc = encounter(pc('fighter'), foe('orc'), { id: 'wolf', name: 'wolf', side: 'third', hp: 5 });
  const input = (states = initialStates(enc)): RoundInput => ({ round: 3, declarations: {}, states, surprise: null, baseInitiative: {}, carryIn: [] });

  it('"One player rolls for their party\'s initiative and the DM rolls for the other parties": d6 per side with side and round', () => {
    const dice = new ScriptedDice([
      { purpose: 'initiative', side: 'party', result: 4 },
      { purpose: 'initiative', side: 'foes', result: 2 },
      { purpose: 'initiative', side: 'third', result: 1 },
    ]);
    const ini = P.rollInitiative(enc, input(), dice, opts);
    expect(dice.log.map((l) => l.request)).toEqual([
      { purpose: 'initiative', count: 1, faces: 6, side: 'party', round: 3 },
      { purpose: 'initiative', count: 1, faces: 6, side: 'foes', round: 3 },
      { purpose: 'initiative', count: 1, faces: 6, side: 'third', round: 3 },
    ]);
    expect(ini).toMatchObject({ round: 3, sides: { party: 4, foes: 2, third: 1 }, winner: 'party' });
  });

  it('"On ties, no side wins"; a side with nobody able to act does not roll', () => {
    const states = initialStates(enc);
    states.wolf = { ...states.wolf, hp: -1, condition: 'dying' };
    const dice = new ScriptedDice([
      { purpose: 'initiative', side: 'party', result: 3 },
      { purpose: 'initiative', side: 'foes', result: 3 },
    ]);
    const ini = P.rollInitiative(enc, input(states), dice, opts);
    expect(ini.sides).toEqual({ party: 3, foes: 3 });
    expect(ini.winner).toBeNull();
  });

  it('has no per-combat initiative', () => {
    expect(P.rollCombatInitiative(enc, enc.combatants, new ScriptedDice([]), opts)).toEqual({});
  });
});

/* ============================================== phase 8: action resolution */

describe('phase 8: action resolution', () => {
  it('"If one side won initiative, resolve all of their actions … After that, the losing side\'s actions"', () => {
    const enc = encounter(pc('fighter'), pc('archer'), foe('orc'), foe('goblin'));
    const s = plan(enc, { party: 5, foes: 3 }, [
      d('fighter', 'melee', { target: 'orc' }),
      d('archer', 'other'),
      d('orc', 'parley'),
      d('goblin', 'missile', { target: 'archer' }),
    ]);
    // The winner acts in the segment of the loser's die (3), the loser in the winner's (5).
    expect(actionStep(s, 'fighter')!.segment).toBe(3);
    expect(actionStep(s, 'archer')!.segment).toBe(3);
    expect(actionStep(s, 'orc')!.segment).toBe(5);
    const last = Math.max(actionStep(s, 'fighter')!.step, actionStep(s, 'archer')!.step);
    expect(actionStep(s, 'orc')!.step).toBeGreaterThan(last);
    expect(s.initiative?.sides).toEqual({ party: 5, foes: 3 });
  });

  it('ruling (more than two sides): a side acts in the segment of the highest opposing die', () => {
    const enc = encounter(pc('fighter'), foe('orc'), { id: 'wolf', name: 'wolf', side: 'third', hp: 5 });
    const s = plan(enc, { party: 2, foes: 5, third: 4 }, [d('fighter', 'melee'), d('orc', 'melee'), d('wolf', 'melee')]);
    expect([actionStep(s, 'orc')!.segment, actionStep(s, 'wolf')!.segment, actionStep(s, 'fighter')!.segment]).toEqual([4, 5, 5]);
    // In segment 5 the wolf's side (die 4) resolves before the party's (die 2).
    expect(actionStep(s, 'wolf')!.step).toBeLessThan(actionStep(s, 'fighter')!.step);
  });

  describe('spells and devices', () => {
    const enc = encounter(pc('mu', { spells: ['Sleep', 'Sleep'] }), foe('orc'));

    it('footnote 18: "rolling a 5 means that any spell taking 1-4 segments to cast could be completed before the spellcaster was attacked"', () => {
      for (const time of [1, 2, 3, 4, 5]) {
        // The party rolls 5: the orcs act in segment 5 and hit the mage.
        const log = combat(enc, scripted([{ party: 5, foes: 4 }]), { 1: [d('mu', 'spell', { spell: 'Sleep', castingTime: time }), d('orc', 'melee', { target: 'mu' })] }, [
          { round: 1, by: 'orc', target: 'mu', amount: 1 },
        ]);
        expect(goesOff(log.rounds[0], 'mu')).toBe(time <= 4);
      }
    });

    it('README casting ruling: begins in segment 1, goes off in 1 + casting time', () => {
      const s = plan(enc, { party: 1, foes: 6 }, [d('mu', 'spell', { spell: 'Sleep', castingTime: 3 })]);
      expect(where(s, 'mu').map((w) => `${w.segment}:${w.entry.kind}`)).toEqual(['1:cast-begin', '4:cast-complete']);
      expect(s.castings[0]).toMatchObject({ caster: 'mu', spell: 'Sleep', castingTime: 3, expends: true, remaining: 0, lossFrom: 0 });
    });

    it('README: a casting time of "1 round" is 10 segments and carries into the next round (goes off in segment 1)', () => {
      const log = combat(enc, scripted([{ party: 3, foes: 4 }, { party: 3, foes: 4 }]), { 1: [d('mu', 'spell', { spell: 'Sleep', castingTime: 10 })], 2: [d('mu', 'melee', { target: 'orc' })] }, [], 2);
      expect(log.rounds[0].carryOut).toHaveLength(1);
      expect(log.rounds[0].carryOut[0].remaining).toBe(1);
      expect(outcomes(log.rounds[1], 'mu')).toEqual([
        { segment: 1, kind: 'cast-complete', outcome: 'goes-off' },
        // The mage's own declaration for round 2 still happens, in its side's segment (4).
        { segment: 4, kind: 'action', outcome: 'acts' },
      ]);
    });

    it('a carried spell is lost to damage in the round it began; a carried device is not (footnote 20)', () => {
      const one = (action: 'spell' | 'device') =>
        combat(
          enc,
          scripted([{ party: 3, foes: 4 }, { party: 3, foes: 4 }]),
          { 1: [d('mu', action, { spell: 'Sleep', castingTime: 12 }), d('orc', 'melee', { target: 'mu' })] },
          [{ round: 1, by: 'orc', target: 'mu', amount: 1 }],
          2,
        );
      const spell = one('spell');
      expect(spell.rounds[0].carryOut).toEqual([]);
      expect(spell.states.mu.expended).toEqual(['Sleep']);
      const device = one('device');
      expect(device.rounds[0].carryOut).toHaveLength(1);
      // Begun in 1, 12 segments: goes off in segment 3 of round 2.
      expect(outcomes(device.rounds[1], 'mu')).toEqual([{ segment: 3, kind: 'cast-complete', outcome: 'goes-off' }]);
    });
  });

  describe('resolving ties', () => {
    it('"Any time an attack … goes off at the same time as another action, all actions fully resolve": both die', () => {
      const enc = encounter(pc('fighter', { hp: 3, weapon: { speed: 5 } }), foe('orc', { hp: 3, weapon: { speed: 5 } }));
      const log = combat(enc, scripted([{ party: 4, foes: 4 }]), { 1: [d('fighter', 'melee', { target: 'orc' }), d('orc', 'melee', { target: 'fighter' })] }, [
        { round: 1, by: 'fighter', target: 'orc', amount: 3 },
        { round: 1, by: 'orc', target: 'fighter', amount: 3 },
      ]);
      expect(log.states.fighter.condition).toBe('dying');
      expect(log.states.orc.condition).toBe('dying');
    });

    it('"Any time an attack, spell, or whatever goes off at the same time as another action, all actions fully resolve. All spells are cast": two spells going off together both resolve, each killing the other caster', () => {
      const enc = encounter(pc('mu', { hp: 3 }), foe('shaman', { hp: 3 }));
      const log = combat(enc, scripted([{ party: 4, foes: 4 }]), { 1: [d('mu', 'spell', { spell: 'Bolt', castingTime: 3, target: 'shaman' }), d('shaman', 'spell', { spell: 'Bolt', castingTime: 3, target: 'mu' })] }, [
        { round: 1, by: 'mu', spell: true, target: 'shaman', amount: 5 },
        { round: 1, by: 'shaman', spell: true, target: 'mu', amount: 5 },
      ]);
      const step = log.rounds[0].steps.find((s) => s.entries.some((e) => e.entry.kind === 'cast-complete'))!;
      expect(step.entries.map((e) => `${e.entry.combatant}:${e.outcome}`)).toEqual(['mu:goes-off', 'shaman:goes-off']);
      expect([log.states.mu.condition, log.states.shaman.condition]).toEqual(['dying', 'dying']);
    });

    it('footnote 18, "completed before the spellcaster was attacked": a spell going off in the segment of the blow goes off first, and the attacker it kills does not strike', () => {
      const enc = encounter(pc('mu', { hp: 6 }), foe('orc', { hp: 3 }));
      const play = (o: AddictOptions) =>
        playCombat(P, enc, o, scripted([{ party: 5, foes: 2 }]), {
          rounds: 1,
          // The party rolls 5: the orc attacks in 5; the 4-segment spell, begun in 1, goes off in 5.
          declarations: () => declarations(d('mu', 'spell', { spell: 'Fire', castingTime: 4, target: 'orc' }), d('orc', 'melee', { target: 'mu' })),
          damage: [
            { round: 1, by: 'mu', spell: true, target: 'orc', amount: 13 },
            { round: 1, by: 'orc', target: 'mu', amount: 2 },
          ],
        });
      const log = play(opts);
      const five = log.rounds[0].steps.filter((s) => s.segment === 5);
      expect(five.map((s) => s.entries.map((e) => `${e.entry.combatant}:${e.outcome}`))).toEqual([['mu:goes-off'], ['orc:cannot-act']]);
      expect(log.states.orc.condition).toBe('dead');
      expect(log.states.mu.hp).toBe(6);
      // Option tieRules 'segments': the completion joins the first step of its segment and both resolve.
      const together = play({ ...opts, tieRules: 'segments' });
      const step = together.rounds[0].steps.find((s) => s.segment === 5)!;
      expect(step.entries.map((e) => `${e.entry.combatant}:${e.outcome}`).sort()).toEqual(['mu:goes-off', 'orc:acts']);
      expect(together.states.mu.hp).toBe(4);
    });

    it('speed factor: on a tie the lower weapon speed factor strikes first; a killed slower fighter does not strike', () => {
      const enc = encounter(pc('thief', { hp: 3, weapon: { speed: 2, length: 1 } }), foe('ogre', { hp: 3, weapon: { speed: 10, length: 6 } }));
      const log = combat(enc, scripted([{ party: 4, foes: 4 }]), { 1: [d('thief', 'melee', { target: 'ogre' }), d('ogre', 'melee', { target: 'thief' })] }, [
        { round: 1, by: 'thief', target: 'ogre', amount: 5 },
        { round: 1, by: 'ogre', target: 'thief', amount: 5 },
      ]);
      expect(outcomes(log.rounds[0], 'ogre')[0].outcome).toBe('cannot-act');
      expect(log.states.thief.condition).toBe('ok');
      expect(log.states.ogre.condition).toBe('dying');
    });

    it('bug (issue 9): a melee attacker alone in its step is not told "the lower speed factor strikes first" (nobody to strike before)', () => {
      // Tied at 3: the orc parleys, so the fighter is the only one striking in segment 3.
      const enc = encounter(pc('fighter', { weapon: { speed: 5 } }), foe('orc', { weapon: { speed: 7 } }));
      const tied = plan(enc, { party: 3, foes: 3 }, [d('fighter', 'melee', { target: 'orc' }), d('orc', 'parley')]);
      expect(actionStep(tied, 'fighter')!.entry.reason).toBeUndefined();
      expect(actionStep(plan(enc, { party: 3, foes: 3 }, [d('fighter', 'melee', { target: 'orc' })], {}, { ...opts, tieRules: 'segments' }), 'fighter')!.entry.reason).toBeUndefined();
      // In the surprise segments no side has initiative; a lone surpriser strikes before nobody either.
      const surprise = { rolls: {}, surprised: { fighter: 0, orc: 2 }, unit: 'segments' as const };
      const s = P.planSurprise(enc, surprise, declarations(d('fighter', 'melee', { target: 'orc' })), opts)!;
      expect(where(s, 'fighter').map((w) => w.entry.reason)).toEqual([undefined, undefined]);
      // Two sides striking in the same tied step: the reason stays where the speed factor orders them.
      const both = plan(enc, { party: 3, foes: 3 }, [d('fighter', 'melee', { target: 'orc' }), d('orc', 'melee', { target: 'fighter' })]);
      expect(actionStep(both, 'fighter')!.entry.reason).toBe('addictSpeedFactor');
      expect(actionStep(both, 'orc')!.entry.reason).toBe('addictSpeedFactor');
    });

    it('speed factor does not order sides when initiative is not tied (the winner resolves first)', () => {
      const enc = encounter(pc('thief', { weapon: { speed: 2 } }), foe('ogre', { weapon: { speed: 10 } }));
      const s = plan(enc, { party: 1, foes: 4 }, [d('thief', 'melee', { target: 'ogre' }), d('ogre', 'melee', { target: 'thief' })]);
      expect(actionStep(s, 'ogre')!.segment).toBe(1);
      expect(actionStep(s, 'ogre')!.step).toBeLessThan(actionStep(s, 'thief')!.step);
    });

    it('footnote 16: "Attacks without speed factor … claws, teeth … always resolve on tie rounds"', () => {
      const enc = encounter(pc('swordsman', { hp: 4, weapon: { speed: 5 } }), foe('bear', { hp: 4 }));
      const log = combat(enc, scripted([{ party: 3, foes: 3 }]), { 1: [d('swordsman', 'melee', { target: 'bear' }), d('bear', 'melee', { target: 'swordsman' })] }, [
        { round: 1, by: 'swordsman', target: 'bear', amount: 9 },
        { round: 1, by: 'bear', target: 'swordsman', amount: 2 },
      ]);
      // The sword kills the bear, and the claws still land.
      expect(outcomes(log.rounds[0], 'bear')[0].outcome).toBe('acts');
      expect(log.states.swordsman.hp).toBe(2);
      expect(log.states.bear.condition).toBe('dying');
    });

    it('footnote 17: "Speed factor is ignored during a charge; only weapon length is considered" (longer first)', () => {
      const enc = encounter(
        pc('lancer', { chargeMovement: 240, weapon: { speed: 9, length: 10 } }),
        foe('raider', { chargeMovement: 240, weapon: { speed: 2, length: 3 } }),
      );
      const s = plan(enc, { party: 2, foes: 2 }, [d('lancer', 'charge', { target: 'raider', distance: 10 }), d('raider', 'charge', { target: 'lancer', distance: 3 })]);
      const lancer = actionStep(s, 'lancer')!;
      const raider = actionStep(s, 'raider')!;
      expect([lancer.segment, raider.segment]).toEqual([2, 2]);
      expect(lancer.step).toBeLessThan(raider.step);
    });

    it('F vs E: a weapon set against the charge strikes first at the charge\'s arrival, even against the initiative winner', () => {
      const enc = encounter(pc('pikeman', { hp: 5, weapon: { speed: 13, length: 14 } }), foe('ogre', { hp: 4, movement: 90, weapon: { length: 6 } }));
      // The ogres win (their segment is the party's die, 1); 18 ft a segment, 36 ft to within 6 ft: end of segment 2.
      const log = combat(enc, scripted([{ party: 1, foes: 6 }]), { 1: [d('pikeman', 'set-vs-charge'), d('ogre', 'charge', { target: 'pikeman', distance: 42 })] }, [
        { round: 1, by: 'pikeman', target: 'ogre', amount: 8 },
        { round: 1, by: 'ogre', target: 'pikeman', amount: 8 },
      ]);
      expect(outcomes(log.rounds[0], 'pikeman')).toEqual([{ segment: 2, kind: 'action', outcome: 'acts' }]);
      expect(outcomes(log.rounds[0], 'ogre')).toEqual([{ segment: 2, kind: 'action', outcome: 'cannot-act' }]);
      expect(log.states.pikeman.hp).toBe(5);
    });

    it('F with no charge coming becomes prepared in its side\'s segment', () => {
      const enc = encounter(pc('pikeman'), foe('orc'));
      const s = plan(enc, { party: 3, foes: 5 }, [d('pikeman', 'set-vs-charge'), d('orc', 'missile', { target: 'pikeman' })]);
      expect(actionStep(s, 'pikeman')).toMatchObject({ segment: 5, entry: { reason: 'addictSetNoCharge' } });
    });

    it('E vs D, footnote 14: "The missile user may choose to fire their missiles at whatever point/range they desire during the charge"', () => {
      const enc = encounter(pc('archer', { hp: 5 }), foe('orc', { hp: 3, chargeMovement: 240, weapon: { length: 5 } }));
      const log = combat(enc, scripted([{ party: 3, foes: 3 }]), { 1: [d('archer', 'missile', { target: 'orc' }), d('orc', 'charge', { target: 'archer', distance: 5 })] }, [
        { round: 1, by: 'archer', target: 'orc', amount: 3 },
        { round: 1, by: 'orc', target: 'archer', amount: 3 },
      ]);
      // Tied in segment 3: the orc is already in reach, yet the arrow flies first and drops it.
      expect(outcomes(log.rounds[0], 'orc')).toEqual([{ segment: 3, kind: 'action', outcome: 'cannot-act' }]);
      expect(log.states.archer.hp).toBe(5);
    });

    it('E vs D: a charge against a caster lands in its arrival segment; the spell is lost if it has not gone off', () => {
      const enc = encounter(pc('mu'), foe('orc', { chargeMovement: 240, weapon: { length: 5 } }));
      for (const [time, expected] of [
        [1, true],
        [2, true], // goes off in 3, the segment the charge lands: simultaneous
        [3, false],
      ] as const) {
        // Tied at 2: the orc starts in 2, 24 ft a segment, 29 ft to within 5 ft: lands at the end of segment 3.
        const log = combat(enc, scripted([{ party: 2, foes: 2 }]), { 1: [d('mu', 'spell', { spell: 'Sleep', castingTime: time }), d('orc', 'charge', { target: 'mu', distance: 34 })] }, [
          { round: 1, by: 'orc', target: 'mu', amount: 1 },
        ]);
        expect(outcomes(log.rounds[0], 'orc')[0].segment).toBe(3);
        expect(goesOff(log.rounds[0], 'mu')).toBe(expected);
      }
    });

    it('G vs D, footnote 20: "Spells are lost if the caster is hit, but device usage can still happen normally assuming the wielder is still alive"', () => {
      const enc = encounter(pc('mu', { hp: 4 }), foe('orc'));
      const play = (action: 'spell' | 'device', amount: number) =>
        combat(enc, scripted([{ party: 2, foes: 2 }]), { 1: [d('mu', action, { spell: 'Fire', castingTime: 4 }), d('orc', 'melee', { target: 'mu' })] }, [
          { round: 1, by: 'orc', target: 'mu', amount },
        ]).rounds[0];
      expect(goesOff(play('spell', 1), 'mu')).toBe(false);
      expect(goesOff(play('device', 1), 'mu')).toBe(true);
      expect(goesOff(play('device', 4), 'mu')).toBe(false); // the wielder is down
    });

    it('D vs D: missiles against a spell are decided by the segment timing', () => {
      const enc = encounter(pc('mu'), foe('archer'));
      const play = (time: number) =>
        combat(enc, scripted([{ party: 4, foes: 4 }]), { 1: [d('mu', 'spell', { spell: 'Sleep', castingTime: time }), d('archer', 'missile', { target: 'mu' })] }, [
          { round: 1, by: 'archer', target: 'mu', amount: 1 },
        ]).rounds[0];
      expect(goesOff(play(3), 'mu')).toBe(true); // goes off in 4 with the arrow
      expect(goesOff(play(4), 'mu')).toBe(false); // would go off in 5: the arrow in 4 spoils it
    });
  });

  describe('the tie rules, each an order (README addict, "Tie rules"; option tieRules)', () => {
    const segmentsOpts: AddictOptions = { ...opts, tieRules: 'segments' };
    const playWith = (o: AddictOptions, enc: Encounter, dice: () => ScriptedDice, ds: Declaration[], damage: DamageEvent[]) =>
      playCombat(P, enc, o, dice(), { rounds: 1, declarations: () => declarations(...ds), damage }).rounds[0];

    it('speed factor: equal speed factors of two sides strike together, and say so', () => {
      const enc = encounter(pc('fighter', { weapon: { speed: 5 } }), foe('orc', { weapon: { speed: 5 } }));
      const s = plan(enc, { party: 2, foes: 2 }, [d('fighter', 'melee', { target: 'orc' }), d('orc', 'melee', { target: 'fighter' })]);
      expect(actionStep(s, 'fighter')!.step).toBe(actionStep(s, 'orc')!.step);
      expect(actionStep(s, 'fighter')!.entry.reason).toBe('addictSpeedFactorEqual');
    });

    it('footnote 16: "Attacks without speed factor … always resolve on tie rounds", even when a faster blow from a third combatant kills the monster', () => {
      // Tied at 3. The thief's dagger (2) kills the bear before the swordsman's sword (5) would strike.
      const enc = encounter(pc('thief', { weapon: { speed: 2 } }), pc('swordsman', { hp: 10, weapon: { speed: 5 } }), foe('bear', { hp: 4 }));
      const ds = [d('thief', 'melee', { target: 'bear' }), d('swordsman', 'melee', { target: 'bear' }), d('bear', 'melee', { target: 'swordsman' })];
      const damage: DamageEvent[] = [
        { round: 1, by: 'thief', target: 'bear', amount: 9 },
        { round: 1, by: 'bear', target: 'swordsman', amount: 3 },
      ];
      const r = playWith(opts, enc, () => scripted([{ party: 3, foes: 3 }]), ds, damage);
      // The claws resolve with the first blow aimed at the bear, so no blow of the tie stops them.
      expect(outcomes(r, 'bear')).toEqual([{ segment: 3, kind: 'action', outcome: 'acts' }]);
      expect(r.states.swordsman.hp).toBe(7);
      expect(r.schedule.steps.flatMap((st) => st.entries).find((e) => e.combatant === 'bear')!.reason).toBe('addictNoSpeedFactor');
      // Segment timing keeps the claws with their target's own blow, after the dagger: the dead bear does not strike.
      const old = playWith(segmentsOpts, enc, () => scripted([{ party: 3, foes: 3 }]), ds, damage);
      expect(outcomes(old, 'bear')).toEqual([{ segment: 3, kind: 'action', outcome: 'cannot-act' }]);
    });

    it('footnote 17: "Speed factor is ignored during a charge; only weapon length is considered": the longer weapon of the one charged strikes first, equal lengths together', () => {
      // Tied at 2. The orc charges from 10 ft at 24 ft a segment with a 3.5 ft sword: it lands in segment 2, where the
      // spearman (8 ft spear, speed factor 8, slower than the sword's 4) strikes back at it.
      const fight = (spearLength: number, o = opts) =>
        playWith(
          o,
          encounter(pc('spearman', { hp: 5, weapon: { speed: 8, length: spearLength } }), foe('orc', { hp: 4, chargeMovement: 240, weapon: { speed: 4, length: 3.5 } })),
          () => scripted([{ party: 2, foes: 2 }]),
          [d('spearman', 'melee', { target: 'orc' }), d('orc', 'charge', { target: 'spearman', distance: 10 })],
          [
            { round: 1, by: 'spearman', target: 'orc', amount: 6 },
            { round: 1, by: 'orc', target: 'spearman', amount: 6 },
          ],
        );
      const longer = fight(8);
      expect(outcomes(longer, 'spearman')).toEqual([{ segment: 2, kind: 'action', outcome: 'acts' }]);
      expect(outcomes(longer, 'orc')).toEqual([{ segment: 2, kind: 'action', outcome: 'cannot-act' }]);
      expect(longer.schedule.steps.flatMap((st) => st.entries).find((e) => e.combatant === 'spearman')!.reason).toBe('addictChargeLength');
      // Equal lengths: the same moment, both strike.
      const equal = fight(3.5);
      expect([outcomes(equal, 'spearman')[0].outcome, outcomes(equal, 'orc')[0].outcome]).toEqual(['acts', 'acts']);
      expect(equal.states.spearman.condition).toBe('dying');
      // Segment timing: the charge (E) comes before the melee (G) by its letter.
      expect(outcomes(fight(8, segmentsOpts), 'spearman')).toEqual([{ segment: 2, kind: 'action', outcome: 'cannot-act' }]);
    });

    it('D vs D, footnote 18: a spell whose casting time is under the tied die goes off before the missiles of that segment; a longer one is spoiled by them', () => {
      // Tied at 4: the archer shoots in segment 4. A 3-segment spell begun in 1 goes off in 4, before the arrow.
      const enc = encounter(pc('mu', { hp: 5 }), foe('archer', { hp: 3 }));
      const duel = (time: number) =>
        playWith(opts, enc, () => scripted([{ party: 4, foes: 4 }]), [d('mu', 'spell', { spell: 'Bolt', castingTime: time, target: 'archer' }), d('archer', 'missile', { target: 'mu' })], [
          { round: 1, by: 'mu', spell: true, target: 'archer', amount: 5 },
          { round: 1, by: 'archer', target: 'mu', amount: 2 },
        ]);
      const quick = duel(3);
      expect(goesOff(quick, 'mu')).toBe(true);
      expect(outcomes(quick, 'archer')).toEqual([{ segment: 4, kind: 'action', outcome: 'cannot-act' }]);
      expect(quick.states.mu.hp).toBe(5);
      const slow = duel(4);
      expect(goesOff(slow, 'mu')).toBe(false);
      expect(slow.steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ caster: 'mu', outcome: 'interrupted', expended: true })]);
    });

    it('E vs D: a spell that goes off in the segment the charge lands goes off before the charge strikes; footnote 19 places the charge', () => {
      // Tied at 2: the orc starts in 2 at 24 ft a segment, 29 ft to within 5 ft: lands at the end of segment 3.
      const enc = encounter(pc('mu', { hp: 5 }), foe('orc', { hp: 3, chargeMovement: 240, weapon: { length: 5 } }));
      const r = playWith(opts, enc, () => scripted([{ party: 2, foes: 2 }]), [d('mu', 'spell', { spell: 'Bolt', castingTime: 2, target: 'orc' }), d('orc', 'charge', { target: 'mu', distance: 34 })], [
        { round: 1, by: 'mu', spell: true, target: 'orc', amount: 5 },
        { round: 1, by: 'orc', target: 'mu', amount: 5 },
      ]);
      const three = r.steps.filter((s) => s.segment === 3);
      expect(three.map((s) => s.entries.map((e) => `${e.entry.combatant}:${e.outcome}`))).toEqual([['mu:goes-off'], ['orc:cannot-act']]);
      expect(r.states.mu.hp).toBe(5);
    });

    it('G vs D, footnotes 18 and 20: the die against the casting time; win or lose, "a higher initiative roll is better"', () => {
      const enc = encounter(pc('mu', { hp: 10 }), foe('orc'));
      const blow = (time: number, sides: Record<string, number>, action: 'spell' | 'device' = 'spell') =>
        playWith(opts, enc, () => scripted([sides]), [d('mu', action, { spell: 'Web', castingTime: time }), d('orc', 'melee', { target: 'mu' })], [
          { round: 1, by: 'orc', target: 'mu', amount: 1 },
        ]);
      // Tied at 3: the blow comes in segment 3. A 2-segment spell goes off in 3, before it; a 3-segment one is lost.
      const before = blow(2, { party: 3, foes: 3 });
      const three = before.steps.filter((s) => s.segment === 3);
      expect(three[0].entries.map((e) => e.entry.kind)).toEqual(['cast-complete']);
      expect(goesOff(before, 'mu')).toBe(true);
      expect(goesOff(blow(3, { party: 3, foes: 3 }), 'mu')).toBe(false);
      // "Spells are lost if the caster is hit, but device usage can still happen normally assuming the wielder is still alive."
      expect(goesOff(blow(3, { party: 3, foes: 3 }, 'device'), 'mu')).toBe(true);
      // The caster's side rolls 5 and loses to a 6: the orcs still strike in segment 5, and a 4-segment spell is done first.
      expect(goesOff(blow(4, { party: 5, foes: 6 }), 'mu')).toBe(true);
      expect(goesOff(blow(5, { party: 5, foes: 6 }), 'mu')).toBe(false);
    });

    it('footnote 11: hesitation "never allows a combatant to delay casting a spell so as to not lose it": a start pushed past the round is still exposed, and the spell goes off next round', () => {
      const enc = encounter(pc('mu', { spells: ['Sleep'] }), foe('orc'));
      // 72 seconds of hesitation: 12 segments. Begun in (round 2) segment 3, 3 segments: goes off in round 2, segment 6.
      const mage = d('mu', 'spell', { spell: 'Sleep', castingTime: 3, hesitationSeconds: 72 });
      const run = (damage: DamageEvent[]) =>
        playCombat(P, enc, opts, scripted([{ party: 3, foes: 2 }, { party: 3, foes: 2 }]), {
          rounds: 2,
          declarations: (round) => declarations(...(round === 1 ? [mage, d('orc', 'melee', { target: 'mu' })] : [d('mu', 'none'), d('orc', 'parley')])),
          damage,
        });
      const hit = run([{ round: 1, by: 'orc', target: 'mu', amount: 1 }]);
      expect(hit.rounds[0].steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ caster: 'mu', spell: 'Sleep', outcome: 'interrupted', expended: true })]);
      expect(hit.states.mu.expended).toEqual(['Sleep']);
      expect(outcomes(hit.rounds[1], 'mu')).toEqual([]);
      const untouched = run([]);
      expect(untouched.rounds[0].carryOut).toEqual([expect.objectContaining({ caster: 'mu', spell: 'Sleep', remaining: 6 })]);
      expect(outcomes(untouched.rounds[1], 'mu')).toEqual([{ segment: 6, kind: 'cast-complete', outcome: 'goes-off' }]);
      // The round's plan holds the casting from the start of the round; a combat started before issue 9 (its frozen
      // options have no tieRules) planned none, so a hit cost nothing.
      expect(plan(enc, { party: 3, foes: 2 }, [mage]).castings).toEqual([expect.objectContaining({ caster: 'mu', beginStep: -1, completeStep: null, lossFrom: 0, remaining: 6 })]);
      const { tieRules: _dropped, ...before } = opts;
      expect(plan(enc, { party: 3, foes: 2 }, [mage], {}, before as AddictOptions).castings).toEqual([]);
    });
  });

  describe('multiple attack routines', () => {
    it('further routines come after the other side\'s segment', () => {
      const enc = encounter(pc('fighter', { routines: 2 }), foe('orc'));
      const s = plan(enc, { party: 5, foes: 2 }, [d('fighter', 'melee', { target: 'orc' }), d('orc', 'melee', { target: 'fighter' })]);
      const f = where(s, 'fighter');
      expect(f.map((w) => [w.segment, w.entry.kind])).toEqual([
        [2, 'action'],
        [5, 'routine'],
      ]);
      expect(f[1].step).toBeGreaterThan(actionStep(s, 'orc')!.step);
    });

    it('footnote 13: MAR does not win automatically: a 1-segment spell completes against a fighter hitting with both routines (tie at 2)', () => {
      const enc = encounter(pc('mu', { hp: 10 }), foe('fighter', { routines: 2, weapon: { speed: 5 } }));
      const log = combat(enc, scripted([{ party: 2, foes: 2 }]), { 1: [d('mu', 'spell', { spell: 'Sleep', castingTime: 1 }), d('fighter', 'melee', { target: 'mu' })] }, [
        { round: 1, by: 'fighter', target: 'mu', amount: 2 },
        { round: 1, by: 'fighter', target: 'mu', amount: 2, routine: 2 },
      ]);
      expect(goesOff(log.rounds[0], 'mu')).toBe(true);
      expect(log.states.mu.hp).toBe(6);
    });
  });

  describe('charge movement (footnotes 9 and 19)', () => {
    it('footnote 19: "the charger moves 1/10th of their charge MV every segment … at a distance equal to or less than their weapon length"', () => {
      // 240 ft: 24 ft a segment. 60 ft away with a 5 ft weapon: 36, 12, then within reach at the end of segment 3.
      expect(chargeArrivalSegment(60, 240, 5)).toBe(3);
      expect(chargeArrivalSegment(53, 240, 5)).toBe(2); // 48 ft to close: exactly two segments
      expect(chargeArrivalSegment(4, 240, 5)).toBe(1); // already within reach
      expect(chargeArrivalSegment(60, 240, 5, 4)).toBe(6); // starting in segment 4
      expect(chargeArrivalSegment(60, 0, 5)).toBeGreaterThan(10);
    });

    it('footnote 9: "Charge … increases MV by 100% (indoors) or 33.33% (outdoors)"; a charge MV of its own wins', () => {
      const c = pc('x', { movement: 120 });
      expect(chargeMovementOf(c, { chargeOutdoors: false })).toBe(240);
      expect(chargeMovementOf(c, { chargeOutdoors: true })).toBeCloseTo(160, 6);
      expect(chargeMovementOf(pc('y', { movement: 120, chargeMovement: 150 }), { chargeOutdoors: false })).toBe(150);
    });

    it('the charge starts in its side\'s segment and a charge that cannot arrive this round is not scheduled', () => {
      const enc = encounter(pc('knight', { movement: 60, weapon: { length: 5 } }), foe('orc'));
      // 12 ft a segment: 29 ft to close → 3 segments, starting in segment 4 → lands in 6.
      expect(actionStep(plan(enc, { party: 1, foes: 4 }, [d('knight', 'charge', { target: 'orc', distance: 34 })]), 'knight')!.segment).toBe(6);
      expect(actionStep(plan(enc, { party: 1, foes: 4 }, [d('knight', 'charge', { target: 'orc', distance: 200 })]), 'knight')).toBeNull();
    });

    it('phase 3: a charge declared without a distance closes the encounter distance the GM recorded; its own distance wins', () => {
      const knight = pc('knight', { movement: 60, weapon: { length: 5 } });
      const enc: Encounter = { ...encounter(knight, foe('orc')), distance: 34 };
      const charge = d('knight', 'charge', { target: 'orc' });
      // Refused while no distance is known at all, taken once the encounter has one.
      expect(P.validateDeclaration(charge, knight, opts)?.key).toBe('AddictChargeNoDistance');
      expect(P.validateDeclaration(charge, knight, opts, encounter(knight, foe('orc')))?.key).toBe('AddictChargeNoDistance');
      expect(P.validateDeclaration(charge, knight, opts, enc)).toBeNull();
      // 34 ft as above: lands in segment 6; a stated 10 ft (5 to close): in its first segment, 4.
      expect(actionStep(plan(enc, { party: 1, foes: 4 }, [charge]), 'knight')!.segment).toBe(6);
      expect(actionStep(plan(enc, { party: 1, foes: 4 }, [{ ...charge, distance: 10 }]), 'knight')!.segment).toBe(4);
      // Without any distance the planner skips the charge, as it skips every declaration it would refuse.
      expect(actionStep(plan(encounter(knight, foe('orc')), { party: 1, foes: 4 }, [charge]), 'knight')).toBeNull();
    });
  });

  it('"Preparing actions": a wait (B) "becomes prepared at the time it would normally resolve"', () => {
    const enc = encounter(pc('guard'), foe('orc'));
    expect(actionStep(plan(enc, { party: 2, foes: 6 }, [d('guard', 'wait')]), 'guard')!.segment).toBe(6);
  });

  it('dead, dying and undeclared combatants are not scheduled', () => {
    const enc = encounter(pc('a'), pc('b'), pc('c'), foe('orc'));
    const states = initialStates(enc);
    states.a = { ...states.a, hp: -3, condition: 'dying' };
    states.b = { ...states.b, hp: -12, condition: 'dead' };
    const s = plan(enc, { party: 2, foes: 6 }, [d('a', 'melee'), d('b', 'melee'), d('orc', 'melee')], { states });
    expect(s.steps.flatMap((x) => x.entries.map((e) => e.combatant))).toEqual(['orc']);
  });

  it('a combatant killed in an earlier step does not act (playCombat)', () => {
    const enc = encounter(pc('fighter'), foe('orc', { hp: 4 }));
    const log = combat(enc, scripted([{ party: 6, foes: 1 }]), { 1: [d('fighter', 'melee', { target: 'orc' }), d('orc', 'melee', { target: 'fighter' })] }, [
      { round: 1, by: 'fighter', target: 'orc', amount: 20 },
      { round: 1, by: 'orc', target: 'fighter', amount: 5 },
    ]);
    expect(log.states.orc.condition).toBe('dead');
    expect(outcomes(log.rounds[0], 'orc')).toEqual([{ segment: 6, kind: 'action', outcome: 'cannot-act' }]);
    expect(log.states.fighter.hp).toBe(10);
    expect(log.rounds[0].unapplied).toHaveLength(1);
  });
});

/* =========================================================== phase 9: bleeding */

describe('phase 9: bleeding', () => {
  const enc = encounter(pc('a'), pc('b'), pc('c'), pc('e'), foe('orc'));
  const st = (hp: number, condition: CombatantState['condition'] = hp > 0 ? 'ok' : 'dying'): CombatantState => ({ hp, condition, expended: [] });

  it('"Any combatants who had negative hit points at the start of the round lose 1 hit point. Anyone who hits -10 dies."', () => {
    const before = { a: st(-3), b: st(5), c: st(-9), e: st(0), orc: st(4) };
    const after = { a: st(-3), b: st(-2), c: st(-9), e: st(0), orc: st(4) };
    const res = P.endOfRound(enc, { round: 1, before, after, hits: [] }, new ScriptedDice([]), opts);
    expect(res.states.a.hp).toBe(-4);
    expect(res.states.b.hp).toBe(-2); // went negative this round: no bleeding yet
    expect(res.states.e.hp).toBe(0); // 0 is not negative
    expect(res.states.c).toMatchObject({ hp: -10, condition: 'dead' });
    expect(res.events).toEqual([
      { kind: 'bleed', combatant: 'a', amount: 1 },
      { kind: 'bleed', combatant: 'c', amount: 1 },
      { kind: 'death', combatant: 'c' },
    ]);
  });

  it('damage thresholds: 0 or below cannot act, -10 or below is dead; healing above 0 wakes', () => {
    const c = enc.combatants[0];
    const down = P.applyDamage(c, st(5), 5, opts);
    expect(down.state).toMatchObject({ hp: 0, condition: 'dying' });
    expect(P.canAct(down.state)).toBe(false);
    expect(P.applyDamage(c, st(5), 15, opts).state.condition).toBe('dead');
    expect(P.applyDamage(c, st(5), 14, opts).state.condition).toBe('dying');
    expect(P.applyDamage(c, st(-2), -4, opts).state).toMatchObject({ hp: 2, condition: 'ok' });
    expect(P.applyDamage(c, st(5), Number.NaN, opts).state.hp).toBe(5);
  });

  it('phase 11, "bleeding can be staunched": a staunched combatant loses no more hit points; a fresh wound bleeds again', () => {
    const staunched: CombatantState = { ...st(-4), staunched: true };
    const res = P.endOfRound(enc, { round: 1, before: { a: staunched }, after: { a: staunched }, hits: [] }, new ScriptedDice([]), opts);
    expect(res.states.a.hp).toBe(-4);
    expect(res.events).toEqual([]);
    const wounded = P.applyDamage(enc.combatants[0], staunched, 2, opts).state;
    expect(wounded).toMatchObject({ hp: -6, condition: 'dying' });
    expect(wounded.staunched).toBeUndefined();
    expect(P.endOfRound(enc, { round: 2, before: { a: wounded }, after: { a: wounded }, hits: [] }, new ScriptedDice([]), opts).states.a.hp).toBe(-7);
    // Healed to 0 or more, it is no longer bleeding: the mark goes.
    expect(P.applyDamage(enc.combatants[0], staunched, -5, opts).state.staunched).toBeUndefined();
    expect(P.applyDamage(enc.combatants[0], staunched, -3, opts).state.staunched).toBe(true);
  });

  it('phase 11: only a bleeding combatant can be staunched (below 0, not dead, not staunched already)', () => {
    const staunch = P.gmPhases!.staunch!;
    expect(staunch(enc.combatants[0], st(-3))).toEqual({ hp: -3, condition: 'dying', expended: [], staunched: true });
    for (const s of [st(5), st(0), st(-12, 'dead'), { ...st(-3), staunched: true }, st(-2, 'fled')]) {
      expect(() => staunch(enc.combatants[0], s)).toThrow(RulesError);
    }
    const problemOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof RulesError ? e.problem : e;
      }
      return null;
    };
    expect(problemOf(() => staunch(enc.combatants[0], st(4)))).toEqual({ key: 'AddictNotBleeding', data: { name: 'a', hp: 4 } });
  });

  it('bleeds round after round to death in a whole combat', () => {
    const e = encounter(pc('hero', { hp: 5 }), foe('orc'));
    const inits = Array.from({ length: 9 }, () => ({ party: 3, foes: 4 }));
    const log = combat(e, scripted(inits), { 1: [d('orc', 'melee', { target: 'hero' })] }, [{ round: 1, by: 'orc', target: 'hero', amount: 7 }], 9);
    // -2 after round 1; -3 … -10 over rounds 2-9.
    expect(log.rounds.map((r) => r.states.hero.hp)).toEqual([-2, -3, -4, -5, -6, -7, -8, -9, -10]);
    expect(log.states.hero.condition).toBe('dead');
    expect(log.rounds[8].end!.events).toContainEqual({ kind: 'death', combatant: 'hero' });
  });
});

/* ================================================================ late join */

describe('late joiners', () => {
  const enc = () => encounter(pc('fighter'), foe('orc'));
  const schedule = () => plan(enc(), { party: 5, foes: 2 }, [d('fighter', 'melee', { target: 'orc' }), d('orc', 'melee', { target: 'fighter' })]);

  it('a newcomer acts with its side if the side\'s segment is still to come', () => {
    const s = schedule(); // segment 2: fighter; segment 5: orc
    const res = P.lateJoin(enc(), foe('orc2'), { round: 1, schedule: s, currentStep: 0, declaration: d('orc2', 'melee', { target: 'fighter' }), baseInitiative: {} }, new ScriptedDice([]), opts);
    expect(res.schedule.steps).toHaveLength(s.steps.length);
    expect(actionStep(res.schedule, 'orc2')!.step).toBe(actionStep(s, 'orc')!.step);
  });

  it('not if that moment has passed, and a caster waits for the next round', () => {
    const s = schedule();
    const late = P.lateJoin(enc(), pc('cleric'), { round: 1, schedule: s, currentStep: 0, declaration: d('cleric', 'melee'), baseInitiative: {} }, new ScriptedDice([]), opts);
    expect(where(late.schedule, 'cleric')).toEqual([]);
    const caster = P.lateJoin(enc(), foe('shaman'), { round: 1, schedule: s, currentStep: -1, declaration: d('shaman', 'spell', { castingTime: 1 }), baseInitiative: {} }, new ScriptedDice([]), opts);
    expect(caster.schedule).toBe(s);
  });

  it('a newcomer in a segment with no step gets a new step; casting step indices follow', () => {
    const e = encounter(pc('mu'), pc('fighter'), foe('orc'));
    const s = plan(e, { party: 5, foes: 2 }, [d('mu', 'spell', { castingTime: 6, spell: 'Fire' }), d('fighter', 'melee', { target: 'orc' })]);
    // Steps: 1 begin, 2 fighter, 7 complete. A wolf joins the foes (acting in 5) with hesitation 0.
    const res = P.lateJoin(e, foe('wolf'), { round: 1, schedule: s, currentStep: 1, declaration: d('wolf', 'melee', { target: 'mu' }), baseInitiative: {} }, new ScriptedDice([]), opts);
    expect(res.schedule.steps.map((x) => x.segment)).toEqual([1, 2, 5, 7]);
    expect(res.schedule.castings[0].completeStep).toBe(3);
    expect(res.schedule.steps[3].entries[0].kind).toBe('cast-complete');
  });
});

/* ================================================================== options */

describe('options', () => {
  it('defaults are the rulings; bad values and unknown keys are Problems', () => {
    expect(P.defaults).toEqual({ chargeOutdoors: false, mutualSurprise: true, moraleDie: 'd100', tieRules: 'footnotes', rangeModifiers: true });
    const { problems } = resolveOptions(P, { moraleDie: 'd20', fooBar: true });
    expect(problems.map((p) => p.key).sort()).toEqual(['BadOption', 'UnknownOption']);
    expect(resolveOptions(P, { chargeOutdoors: true }).options.chargeOutdoors).toBe(true);
  });
});

/* ====================================================== property-based tests */

const KINDS: ActionKind[] = ['parley', 'wait', 'flee', 'missile', 'turn-undead', 'spell', 'device', 'charge', 'set-vs-charge', 'melee', 'other', 'none'];

interface World {
  enc: Encounter;
  decls: Record<string, Declaration>;
  seed: number;
}

const worldArb: fc.Arbitrary<World> = fc
  .record({
    sides: fc.integer({ min: 2, max: 3 }),
    people: fc.array(
      fc.record({
        side: fc.nat(2),
        hp: fc.integer({ min: 1, max: 12 }),
        routines: fc.integer({ min: 1, max: 3 }),
        speed: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
        length: fc.integer({ min: 1, max: 10 }),
        movement: fc.constantFrom(60, 90, 120, 150),
        adjust: fc.integer({ min: -2, max: 2 }),
        action: fc.constantFrom(...KINDS),
        target: fc.nat(30),
        castingTime: fc.integer({ min: 1, max: 12 }),
        hesitation: fc.integer({ min: 0, max: 3 }),
        distance: fc.integer({ min: 0, max: 120 }),
      }),
      { minLength: 2, maxLength: 14 },
    ),
    seed: fc.integer(),
  })
  .map(({ sides, people, seed }) => {
    const sideIds = ['party', 'foes', 'third'].slice(0, sides);
    const combatants: Combatant[] = people.map((p, i) => ({
      id: `c${i}`,
      name: `c${i}`,
      side: sideIds[i < sides ? i : p.side % sides], // every side has someone
      hp: p.hp,
      routines: p.routines,
      movement: p.movement,
      surpriseAdjustment: p.adjust,
      weapon: p.speed === undefined ? { length: p.length } : { speed: p.speed, length: p.length },
    }));
    const decls: Record<string, Declaration> = {};
    people.forEach((p, i) => {
      const me = combatants[i];
      const foes = combatants.filter((c) => c.side !== me.side);
      const decl: Declaration = { combatant: me.id, action: p.action, hesitation: p.hesitation };
      if (foes.length > 0) decl.target = foes[p.target % foes.length].id;
      if (p.action === 'spell' || p.action === 'device') {
        decl.castingTime = p.castingTime;
        decl.spell = `S${i}`;
      }
      if (p.action === 'charge') decl.distance = p.distance;
      decls[me.id] = decl;
    });
    return { enc: { sides: sideIds.map((id) => ({ id, name: id })), combatants }, decls, seed };
  });

/** Independent of the implementation: walk the charge segment by segment. */
function walkCharge(distance: number, chargeMv: number, length: number, start: number): number {
  let left = distance;
  for (let seg = start; seg <= 10; seg++) {
    if (seg > start || left > length) left -= chargeMv / 10;
    if (left <= length + 1e-9) return seg;
  }
  return 99;
}

describe('properties over random encounters', () => {
  it('every living combatant appears exactly as its declaration and attack routines allow, in the right segment', () => {
    fc.assert(
      fc.property(worldArb, ({ enc, decls, seed }) => {
        const states = initialStates(enc);
        const input: RoundInput = { round: 1, declarations: decls, states, surprise: null, baseInitiative: {}, carryIn: [] };
        const ini = P.rollInitiative(enc, input, new RandomDice(seed), opts);
        const s = P.planRound(enc, input, ini, opts);
        const highestOther = (side: string) => Math.max(...Object.entries(ini.sides).filter(([id]) => id !== side).map(([, v]) => v));
        for (const c of enc.combatants) {
          const decl = decls[c.id];
          const mine = where(s, c.id);
          const h = decl.hesitation ?? 0;
          const seg = highestOther(c.side) + h;
          const count = (kind: string) => mine.filter((w) => w.entry.kind === kind).length;
          switch (decl.action) {
            case 'none':
              expect(mine).toEqual([]);
              break;
            case 'spell':
            case 'device': {
              const off = 1 + h + (decl.castingTime as number);
              expect(mine.filter((w) => w.entry.kind === 'cast-begin').map((w) => w.segment)).toEqual([1 + h]);
              expect(mine.filter((w) => w.entry.kind === 'cast-complete').map((w) => w.segment)).toEqual(off <= 10 ? [off] : []);
              expect(s.carryOut.filter((x) => x.caster === c.id)).toHaveLength(off <= 10 ? 0 : 1);
              break;
            }
            case 'melee':
            case 'missile':
              expect(count('action')).toBe(1);
              expect(count('routine')).toBe((c.routines as number) - 1);
              expect(mine.find((w) => w.entry.kind === 'action')!.segment).toBe(seg);
              break;
            case 'charge': {
              const arrival = walkCharge(decl.distance as number, (c.movement as number) * 2, c.weapon!.length as number, seg);
              expect(mine.map((w) => w.segment)).toEqual(arrival <= 10 ? [arrival] : []);
              break;
            }
            case 'set-vs-charge':
              expect(mine).toHaveLength(1);
              break;
            default:
              expect(mine.map((w) => w.segment)).toEqual([seg]);
          }
        }
        // Steps in order of segment.
        const segs = s.steps.map((x) => x.segment as number);
        expect([...segs].sort((a, b) => a - b)).toEqual(segs);
      }),
      { numRuns: 300 },
    );
  });

  it('in the surprise nobody acts while surprised, and the unsurprised act in every segment they can', () => {
    fc.assert(
      fc.property(worldArb, ({ enc, decls, seed }) => {
        const surprise = P.rollSurprise(enc, new RandomDice(seed), opts);
        const s = P.planSurprise(enc, surprise, decls, opts);
        const n = Math.max(...enc.combatants.map((c) => surprise.surprised[c.id]));
        if (n === 0) {
          expect(s).toBeNull();
          return;
        }
        expect(s).not.toBeNull();
        for (const c of enc.combatants) {
          const mine = where(s!, c.id);
          for (const w of mine) expect(w.segment).toBeGreaterThan(surprise.surprised[c.id]);
          const decl = decls[c.id];
          if (decl.action === 'melee' || decl.action === 'missile') {
            const first = surprise.surprised[c.id] + 1 + (decl.hesitation ?? 0);
            const expected = Math.max(0, n - first + 1);
            expect(mine.filter((w) => w.entry.kind === 'action')).toHaveLength(expected);
            expect(mine.filter((w) => w.entry.kind === 'routine')).toHaveLength(expected * ((c.routines as number) - 1));
          }
        }
        const segs = s!.steps.map((x) => x.segment as number);
        expect([...segs].sort((a, b) => a - b)).toEqual(segs);
      }),
      { numRuns: 300 },
    );
  });

  it('whole combats: no one acts after falling in an earlier step, simultaneous damage still lands, spells hit before going off are lost; deterministic', () => {
    fc.assert(
      fc.property(worldArb, fc.array(fc.record({ by: fc.nat(30), target: fc.nat(30), amount: fc.integer({ min: 1, max: 8 }), round: fc.integer({ min: 0, max: 3 }), routine: fc.integer({ min: 1, max: 2 }), spell: fc.boolean() }), { maxLength: 25 }), ({ enc, decls, seed }, hits) => {
        const ids = enc.combatants.map((c) => c.id);
        const damage: DamageEvent[] = hits.map((h) => ({
          round: h.round,
          by: ids[h.by % ids.length],
          target: ids[h.target % ids.length],
          amount: h.amount,
          routine: h.routine,
          spell: h.spell,
        }));
        const script: CombatScript = { rounds: 3, declarations: () => decls, damage };
        const run = () => playCombat(P, enc, opts, new RandomDice(seed), script);
        const log = run();
        expect(run()).toEqual(log); // the same dice give the same combat
        const rounds = [...(log.surpriseRound ? [log.surpriseRound] : []), ...log.rounds];
        let start: Record<string, CombatantState> = initialStates(enc);
        for (const r of rounds) {
          const down = new Set(Object.entries(start).filter(([, s]) => s.condition !== 'ok').map(([id]) => id));
          const hitAt = new Map<string, number>();
          const attacks = new Map<string, number>();
          const spellDealt = new Set<string>();
          r.steps.forEach((step, k) => {
            for (const e of step.entries) {
              if (e.outcome === 'acts' || e.outcome === 'goes-off' || e.outcome === 'begins') expect(down.has(e.entry.combatant)).toBe(false);
              if (e.outcome === 'goes-off') {
                // "Spells are always lost if the caster is hit during a round before they finish casting."
                const casting = r.schedule.castings.find((c) => c.id === e.entry.casting)!;
                const first = hitAt.get(e.entry.combatant);
                if (!casting.device) expect(first === undefined || first >= k).toBe(true);
              }
            }
            // Damage from everyone who acted in this step lands in it, even from those who fall in it.
            const expected = new Map<string, number>();
            for (const e of step.entries) {
              const who = e.entry.combatant;
              let n = 0;
              if (e.outcome === 'acts' && (e.entry.kind === 'action' || e.entry.kind === 'routine')) {
                const nth = (attacks.get(who) ?? 0) + 1;
                attacks.set(who, nth);
                n = damage.filter((ev) => ev.round === r.round && ev.by === who && !ev.spell && (ev.routine ?? 1) === nth).length;
              } else if (e.outcome === 'goes-off' && !spellDealt.has(who)) {
                spellDealt.add(who);
                n = damage.filter((ev) => ev.round === r.round && ev.by === who && ev.spell).length;
              }
              expected.set(who, (expected.get(who) ?? 0) + n);
            }
            for (const [who, n] of expected) expect(step.damage.filter((x) => x.by === who)).toHaveLength(n);
            for (const x of step.damage) if (x.amount > 0 && !hitAt.has(x.target)) hitAt.set(x.target, k);
            for (const f of step.fallen) if (f.condition !== 'ok') down.add(f.combatant);
          });
          start = r.states;
        }
        // Ordered steps in every schedule.
        for (const r of rounds) {
          const segs = r.schedule.steps.map((x) => x.segment as number);
          expect([...segs].sort((a, b) => a - b)).toEqual(segs);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the same dice give the same schedule', () => {
    fc.assert(
      fc.property(worldArb, ({ enc, decls, seed }) => {
        const input: RoundInput = { round: 2, declarations: decls, states: initialStates(enc), surprise: null, baseInitiative: {}, carryIn: [] };
        const once = () => P.planRound(enc, input, P.rollInitiative(enc, input, new RandomDice(seed), opts), opts);
        expect(once()).toEqual(once());
      }),
      { numRuns: 100 },
    );
  });
});

/* ============================================================ planning order */

describe('planning: order and identity (what a faster planner must keep)', () => {
  const party = ['a', 'b', 'c', 'd'].map((id) => pc(id));
  const foes = ['w', 'x', 'y', 'z'].map((id) => foe(id));
  const enc = encounter(...party, ...foes);
  const entriesOf = (s: Schedule) => s.steps.map((step) => step.entries.map((e) => `${e.combatant}:${e.kind}`));

  it('the entries of one step follow the encounter, whatever order the declarations were made in', () => {
    const forward = enc.combatants.map((c) => d(c.id, 'melee', { target: c.side === 'party' ? 'w' : 'a' }));
    const inOrder = plan(enc, { party: 5, foes: 2 }, forward);
    const reversed = plan(enc, { party: 5, foes: 2 }, [...forward].reverse());
    expect(entriesOf(inOrder)).toEqual([
      ['a:action', 'b:action', 'c:action', 'd:action'],
      ['w:action', 'x:action', 'y:action', 'z:action'],
    ]);
    // Declarations arrive in any order at the table (players answer when they will): the plan is the same.
    expect(entriesOf(reversed)).toEqual(entriesOf(inOrder));
  });

  it('casting ids are numbered in the order of the encounter', () => {
    const caster = (id: string) => d(id, 'spell', { spell: 'Bolt', castingTime: 2 });
    const s = plan(enc, { party: 5, foes: 2 }, [caster('c'), caster('a'), d('w', 'melee', { target: 'a' })]);
    expect(s.castings.map((c) => [c.id, c.caster])).toEqual([
      ['addict-1-a-1', 'a'],
      ['addict-1-c-2', 'c'],
    ]);
  });

  it('a casting that goes off in a segment where nothing else happens gets a step of its own', () => {
    const carried: Casting = {
      id: 'old',
      caster: 'a',
      spell: 'Bolt',
      device: false,
      castingTime: 12,
      beganRound: 0,
      beginStep: -1,
      completeStep: null,
      lossFrom: 0,
      preventFrom: 0,
      expends: true,
      remaining: 4,
    };
    const s = plan(enc, { party: 5, foes: 2 }, [d('w', 'melee', { target: 'b' })], { carryIn: [carried] });
    expect(s.steps.map((step) => step.segment)).toEqual([4, 5]);
    expect(s.steps[0].entries).toEqual([{ combatant: 'a', kind: 'cast-complete', action: 'spell', casting: 'old', reason: 'addictCarried' }]);
    expect(s.castings).toEqual([{ ...carried, beginStep: -1, completeStep: 0, remaining: 0 }]);
  });

  it('endOfRound returns new states, leaving those it was given as they were (many combatants)', () => {
    const many = encounter(...Array.from({ length: 30 }, (_, i) => pc(`p${i}`)));
    const after = initialStates(many);
    after.p3 = { ...after.p3, hp: -2, condition: 'dying' };
    const copy = structuredClone(after);
    const res = P.endOfRound(many, { round: 1, before: after, after, hits: [] }, new ScriptedDice([]), opts);
    expect(res.states).not.toBe(after);
    expect(after).toEqual(copy);
    expect(Object.keys(res.states)).toEqual(Object.keys(after));
    expect(res.states.p3.hp).toBe(-3);
    expect(res.states.p4).toBe(after.p4);
  });
});

/* ============================================================== performance */

describe('performance', () => {
  it('plans a round of 10,000 combatants (its speed: npm run bench, plan.*)', () => {
    const combatants: Combatant[] = [];
    const decls: Record<string, Declaration> = {};
    const kinds: ActionKind[] = ['melee', 'missile', 'spell', 'charge', 'set-vs-charge', 'parley'];
    for (let i = 0; i < 10000; i++) {
      const side = i % 2 ? 'party' : 'foes';
      const id = `c${i}`;
      combatants.push({ id, name: id, side, hp: 8, routines: 1 + (i % 3), movement: 120, weapon: { speed: 1 + (i % 10), length: 1 + (i % 8) } });
      const action = kinds[i % kinds.length];
      const decl: Declaration = { combatant: id, action, target: `c${i + 1 < 10000 ? i + 1 : 0}`, hesitation: i % 3 };
      if (action === 'spell') decl.castingTime = 1 + (i % 12);
      if (action === 'charge') decl.distance = i % 90;
      decls[id] = decl;
    }
    const enc: Encounter = { sides: [{ id: 'party', name: 'party' }, { id: 'foes', name: 'foes' }], combatants };
    const input: RoundInput = { round: 1, declarations: decls, states: initialStates(enc), surprise: null, baseInitiative: {}, carryIn: [] };
    const s = P.planRound(enc, input, initiative({ party: 3, foes: 3 }), opts);
    expect(s.steps.length).toBeGreaterThan(10);
  });
});
