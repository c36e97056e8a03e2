/**
 * The scenario validator (src/sim/scenario): every kind of error names its
 * field, a broken scenario runs nothing, and played through the flow it
 * gives "same as last round", joins, cancels and scripted dice as documented.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { Procedure, ProcedureOptions, Schedule, SurpriseResult } from '../../src/rules/procedure';
import { RandomDice, SequenceDice } from '../../src/rules/dice';
import type { Problem } from '../../src/rules/model';
import { RoundBuilder } from '../../src/rules/round';
import { noSurprise } from '../../src/rules/round/surprise';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { ScenarioDice, declarationsFor, editDistance, runScenario, scriptOf, validateScenario, type ProcedureTable } from '../../src/sim/scenario';
import { buildTimeline } from '../../src/sim/text';
import { loadStrings, Strings } from '../../src/sim/strings';

/* A stand-in procedure: everyone acts in one step, in declaration order. It
 * forbids 'flee' so the validator's use of validateDeclaration shows. */
function stubProcedure(): Procedure<ProcedureOptions> {
  const p: Procedure<ProcedureOptions> = {
    id: 'segment-d6',
    defaults: { bold: false },
    optionSpecs: [{ key: 'bold', type: 'boolean' }],
    phases: ['stub'],
    timing: 'segments',
    actions: ['melee', 'missile', 'spell'],
    validateDeclaration: (d, c) => (d.action === 'flee' ? { key: 'StubNoFlee', data: { name: c.name } } : null),
    rollSurprise: (e): SurpriseResult => noSurprise(e, 'segments'),
    planSurprise: () => null,
    rollCombatInitiative: () => ({}),
    rollInitiative: (_e, input, dice) => ({
      round: input.round,
      sides: { a: dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: 'a', round: input.round }) },
      individuals: {},
      winner: null,
    }),
    planRound: (e, input): Schedule => {
      const b = new RoundBuilder('segment-d6', input.round);
      for (const c of e.combatants) {
        const d = input.declarations[c.id];
        if (!d) continue;
        if (d.action === 'spell') {
          const id = `${c.id}@${input.round}`;
          b.add(1, { phase: 'stub', segment: 1 }, { combatant: c.id, kind: 'cast-begin', action: 'spell', casting: id });
          b.add(3, { phase: 'stub', segment: 3 }, { combatant: c.id, kind: 'cast-complete', action: 'spell', casting: id });
          b.cast({
            id,
            caster: c.id,
            spell: d.spell ?? '',
            device: false,
            castingTime: 2,
            beganRound: input.round,
            begin: 1,
            complete: 3,
            lossFrom: 1,
            preventFrom: 1,
            expends: true,
            remaining: 0,
          });
        } else b.add(2, { phase: 'stub', segment: 2 }, { combatant: c.id, kind: 'action', action: d.action, target: d.target });
      }
      return b.build();
    },
    applyDamage: (_c, s, amount) => ({ state: { ...s, hp: s.hp - amount, condition: s.hp - amount <= 0 ? 'dead' : s.condition }, wounds: amount }),
    canAct: (s) => s.condition === 'ok',
    endOfRound: (_e, input) => ({ states: input.after, events: [] }),
    lateJoin: (_e, _n, input) => ({ schedule: input.schedule }),
  };
  return p;
}

const stubTable = (p = stubProcedure()): ProcedureTable => ({ 'segment-d6': p });

/** A small valid scenario (as parsed from YAML) to break one field at a time. */
function base(): Record<string, unknown> {
  return {
    procedure: 'segment-d6',
    sides: [
      { id: 'a', name: 'Aye' },
      { id: 'b', name: 'Bee' },
    ],
    combatants: [
      { id: 'x', name: 'Ex', side: 'a', hp: 8, spells: ['Sleep'] },
      { id: 'y', name: 'Why', side: 'b', hp: 5 },
    ],
    declarations: {
      '1': [
        { combatant: 'x', action: 'melee', target: 'y' },
        { combatant: 'y', action: 'melee', target: 'x' },
      ],
    },
  };
}

function problemsOf(raw: unknown, table: ProcedureTable = stubTable()): Problem[] {
  const r = validateScenario(raw, table);
  if (r.ok) throw new Error('expected problems, the scenario validated');
  return r.problems;
}

function pathsOf(raw: unknown, table?: ProcedureTable): string[] {
  return problemsOf(raw, table).map((p) => p.path ?? '');
}

describe('validateScenario: a valid scenario', () => {
  it('builds the encounter, options over the defaults, and the round count from the declarations', () => {
    const raw = base();
    raw.options = { bold: true };
    (raw.declarations as Record<string, unknown>)['3'] = [{ combatant: 'x', action: 'missile', target: 'y' }];
    const r = validateScenario(raw, stubTable());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.encounter.combatants.map((c) => c.id)).toEqual(['x', 'y']);
    expect(r.scenario.options).toEqual({ bold: true });
    expect(r.scenario.rounds).toBe(3); // implied by the highest declared round
  });

  it('takes a name from the id when none is given', () => {
    const raw = base();
    (raw.combatants as Record<string, unknown>[])[1] = { id: 'y', side: 'b', hp: 5 };
    const r = validateScenario(raw, stubTable());
    expect(r.ok && r.scenario.encounter.combatants[1].name).toBe('y');
  });
});

describe('validateScenario: each kind of error names its field', () => {
  it('an unknown procedure id names `procedure`, with a suggestion for a slip', () => {
    const raw = base();
    raw.procedure = 'segment-d7';
    const [p] = problemsOf(raw);
    expect(p).toMatchObject({ key: 'UnknownProcedureDidYouMean', path: 'procedure', data: { id: 'segment-d7', suggestion: 'segment-d6' } });
    raw.procedure = 'chess';
    expect(problemsOf(raw)[0]).toMatchObject({ key: 'UnknownProcedure', path: 'procedure' });
  });

  it('a missing procedure, sides or combatants is reported at that field', () => {
    for (const field of ['procedure', 'sides', 'combatants']) {
      const raw = base();
      delete raw[field];
      expect(problemsOf(raw)).toContainEqual(expect.objectContaining({ key: 'FieldMissing', path: field }));
    }
  });

  it('a misspelt field is caught, at any depth, with "did you mean"', () => {
    const raw = base();
    raw.declaration = {};
    (raw.combatants as Record<string, unknown>[])[0].hitpoints = 3;
    (raw.combatants as Record<string, unknown>[])[1].weapon = { sped: 3 };
    const problems = problemsOf(raw);
    expect(problems).toContainEqual(expect.objectContaining({ key: 'UnknownFieldDidYouMean', path: 'declaration', data: { field: 'declaration', suggestion: 'declarations' } }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'UnknownField', path: 'combatants[0].hitpoints' }));
    expect(problems).toContainEqual(expect.objectContaining({ path: 'combatants[1].weapon.sped', data: { field: 'sped', suggestion: 'speed' } }));
  });

  it('bad numbers name the field: not a number, not whole, out of range', () => {
    const raw = base();
    const cs = raw.combatants as Record<string, unknown>[];
    cs[0].hp = 'lots';
    cs[1].hp = 4.5;
    cs[1].surprisedOn = 20;
    cs[1].routines = -1;
    const problems = problemsOf(raw);
    expect(problems).toContainEqual(expect.objectContaining({ key: 'ExpectedNumber', path: 'combatants[0].hp' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'ExpectedInteger', path: 'combatants[1].hp' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'NumberTooLarge', path: 'combatants[1].surprisedOn' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'NumberTooSmall', path: 'combatants[1].routines' }));
  });

  it('a casting time of 0 names the declaration field', () => {
    const raw = base();
    (raw.declarations as Record<string, unknown>)['1'] = [{ combatant: 'x', action: 'spell', spell: 'Sleep', castingTime: 0 }];
    expect(pathsOf(raw)).toEqual(['declarations.1[0].castingTime']);
  });

  it('unknown sides and combatants in combatants, declarations, damage, dice, morale and cancel', () => {
    const raw = base();
    (raw.combatants as Record<string, unknown>[])[1].side = 'c';
    raw.declarations = { '1': { ghost: { action: 'melee' }, x: { action: 'melee', target: 'nobody' } } };
    raw.damage = [{ round: 1, by: 'zed', target: 'x', amount: 1 }];
    raw.dice = [{ purpose: 'initiative', side: 'q', result: 3 }];
    raw.morale = [{ round: 1, combatant: 'wolf' }];
    raw.cancel = [{ round: 1, combatant: 'mage' }];
    const paths = pathsOf(raw);
    expect(paths).toEqual(
      expect.arrayContaining([
        'combatants[1].side',
        'declarations.1.ghost',
        'declarations.1.x.target',
        'damage[0].by',
        'dice[0].side',
        'morale[0].combatant',
        'cancel[0].combatant',
      ]),
    );
  });

  it('an unknown action names the action field; duplicate ids name the second one', () => {
    const raw = base();
    (raw.declarations as Record<string, unknown>)['1'] = [{ combatant: 'x', action: 'dance' }];
    (raw.combatants as Record<string, unknown>[]).push({ id: 'x', side: 'a', hp: 3 });
    const problems = problemsOf(raw);
    expect(problems).toContainEqual(expect.objectContaining({ key: 'UnknownValue', path: 'declarations.1[0].action' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'DuplicateId', path: 'combatants[2].id', data: { id: 'x' } }));
  });

  it('declarations the procedure forbids come back with the procedure\'s key at the declaration', () => {
    const raw = base();
    (raw.declarations as Record<string, unknown>)['2'] = { y: { action: 'flee' } };
    expect(problemsOf(raw)).toEqual([expect.objectContaining({ key: 'StubNoFlee', path: 'declarations.2.y', data: { name: 'Why' } })]);
  });

  it('a real procedure\'s rule: individual-speed needs a spell speed (seed 003 "cast a spell (+ spell speed)")', () => {
    const raw = base();
    raw.procedure = 'individual-speed';
    (raw.declarations as Record<string, unknown>)['1'] = [{ combatant: 'x', action: 'spell', spell: 'Sleep', castingTime: 1 }];
    const problems = problemsOf(raw, PROCEDURES);
    expect(problems).toEqual([expect.objectContaining({ path: 'declarations.1[0]' })]);
    expect(problems[0].key).not.toBe('UnknownField');
  });

  it('issue 28: `turnsUndead` and `devices` say who turns and carries a device; a declaration without them is refused at it, a bad value named', () => {
    const raw = base();
    raw.procedure = 'segment-d6';
    (raw.combatants as Record<string, unknown>[])[0] = { id: 'x', name: 'Ex', side: 'a', hp: 8, turnsUndead: true, devices: ['Wand of frost'] };
    (raw.combatants as Record<string, unknown>[])[1] = { id: 'y', name: 'Why', side: 'b', hp: 5, turnsUndead: false, devices: [] };
    (raw.declarations as Record<string, unknown>)['1'] = [
      { combatant: 'x', action: 'turn-undead' },
      { combatant: 'y', action: 'melee', target: 'x' },
    ];
    (raw.declarations as Record<string, unknown>)['2'] = [
      { combatant: 'x', action: 'device', spell: 'Wand of frost', castingTime: 1 },
      { combatant: 'y', action: 'turn-undead' },
    ];
    (raw.declarations as Record<string, unknown>)['3'] = [{ combatant: 'y', action: 'device', spell: 'Wand of frost', castingTime: 1 }];
    expect(problemsOf(raw, PROCEDURES)).toEqual([
      expect.objectContaining({ key: 'DeclarationCannotTurn', path: 'declarations.2[1]', data: { name: 'Why' } }),
      expect.objectContaining({ key: 'DeclarationNoDevice', path: 'declarations.3[0]', data: { name: 'Why' } }),
    ]);
    (raw.combatants as Record<string, unknown>[])[1] = { id: 'y', name: 'Why', side: 'b', hp: 5, turnsUndead: 'yes', devices: 'wand' };
    delete (raw.declarations as Record<string, unknown>)['2'];
    delete (raw.declarations as Record<string, unknown>)['3'];
    expect(problemsOf(raw, PROCEDURES).map((p) => [p.key, p.path])).toEqual([
      ['ExpectedBoolean', 'combatants[1].turnsUndead'],
      ['ExpectedList', 'combatants[1].devices'],
    ]);
  });

  it('options are checked with resolveOptions and named under options', () => {
    const raw = base();
    raw.options = { bold: 3, daring: true };
    const problems = problemsOf(raw);
    expect(problems).toContainEqual(expect.objectContaining({ key: 'BadOption', path: 'options.bold' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'UnknownOption', path: 'options.daring' }));
  });

  it('impossible scripted dice: a d6 procedure cannot roll 7, nothing rolls 0', () => {
    const raw = base();
    raw.dice = [
      { purpose: 'initiative', side: 'a', round: 1, result: 7 },
      { purpose: 'other', result: 0 },
      { purpose: 'initiative', side: 'b', round: 1, result: 6 },
    ];
    const problems = problemsOf(raw);
    expect(problems.map((p) => [p.key, p.path])).toEqual([
      ['ScriptedDieImpossible', 'dice[0].result'],
      ['ScriptedDieImpossible', 'dice[1].result'],
    ]);
  });

  it('rounds: a round key that is not a round, and entries past an explicit last round', () => {
    const raw = base();
    raw.rounds = 1;
    (raw.declarations as Record<string, unknown>).first = [];
    (raw.declarations as Record<string, unknown>)['2'] = [];
    raw.damage = [{ round: 5, target: 'x', amount: 1, segment: 2 }];
    const problems = problemsOf(raw);
    expect(problems).toContainEqual(expect.objectContaining({ key: 'BadRoundKey', path: 'declarations.first' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'RoundBeyondEnd', path: 'declarations.2' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'RoundBeyondEnd', path: 'damage[0].round' }));
  });

  it('damage must say when it lands, once; a spell or routine needs its dealer', () => {
    const raw = base();
    raw.damage = [
      { round: 1, target: 'x', amount: 2 },
      { round: 1, target: 'x', amount: 2, by: 'y', segment: 3 },
      { round: 1, target: 'x', amount: 2, spell: true, segment: 3 },
      { round: 1, target: 'x', amount: -2, by: 'y' },
    ];
    expect(problemsOf(raw).map((p) => [p.key, p.path])).toEqual([
      ['DamageNoPlacement', 'damage[0]'],
      ['DamagePlacementConflict', 'damage[1]'],
      ['DamageNeedsBy', 'damage[2]'],
      ['NumberTooSmall', 'damage[3].amount'],
    ]);
  });

  it('individual-speed entries: a damage type, Heal checks and Combat Injuries name their field when wrong', () => {
    const raw = base();
    raw.procedure = 'individual-speed';
    raw.damage = [{ round: 1, target: 'x', amount: 2, by: 'y', critical: true, type: 'laser' }];
    raw.heal = [
      { round: 1, combatant: 'x', total: 15, step: 1, count: 4 },
      { round: 1, combatant: 'zed', total: 15 },
      { round: 1, combatant: 'x' },
    ];
    raw.injuries = [
      { round: 1, combatant: 'x', type: 'blunt' },
      { round: 1, combatant: 'x', type: 'blunt', row: 3, side: 'left' },
    ];
    raw.combatants = [{ id: 'x', side: 'a', hp: 8, weapon: { name: 'mace', critical: 5, damageTypes: ['blunt', 'blunt'] } }, { id: 'y', side: 'b', hp: 5, armour: -1 }];
    expect(problemsOf(raw, PROCEDURES).map((p) => [p.key, p.path])).toEqual([
      ['NumberTooLarge', 'combatants[0].weapon.critical'],
      ['DuplicateValue', 'combatants[0].weapon.damageTypes[1]'],
      ['NumberTooSmall', 'combatants[1].armour'],
      ['UnknownValue', 'damage[0].type'],
      ['DamagePlacementConflict', 'heal[0]'],
      ['UnknownCombatant', 'heal[1].combatant'],
      ['FieldMissing', 'heal[2].total'],
      ['InjuryNeedsRowOrText', 'injuries[0]'],
      ['UnknownValue', 'injuries[1].side'],
    ]);
  });

  it('a scripted attack\'s critical hit carries its damage type into the flow, which makes the Combat Injury check (seed 003)', () => {
    const raw = base();
    raw.procedure = 'individual-speed';
    raw.dice = [
      { purpose: 'initiative', combatant: 'x', result: 1 },
      { purpose: 'initiative', combatant: 'y', result: 5 },
      { purpose: 'injury', combatant: 'y', round: 1, result: 90 },
    ];
    raw.attacks = [{ round: 1, attacker: 'x', target: 'y', step: 0, damage: 4, critical: true, type: 'blunt' }];
    const v = validateScenario(raw, PROCEDURES);
    if (!v.ok) throw new Error(JSON.stringify(v.problems));
    expect(v.scenario.attacks).toEqual([expect.objectContaining({ critical: true, type: 'blunt' })]);
    const run = runScenario(v.scenario, new RandomDice(1));
    if (!run.ok) throw new Error(JSON.stringify(run.problems));
    expect(run.log.rounds[0].states.y).toMatchObject({ hp: 1, wounds: [{ amount: 4, type: 'blunt' }] });
    expect(run.log.rounds[0].view.steps[0].damage).toEqual([expect.objectContaining({ target: 'y', type: 'blunt', critical: true, injury: { roll: 90, wounds: 4 } })]);
  });

  it('a Heal check the flow refuses stops the run at its entry, with the flow\'s reason', () => {
    const raw = base();
    raw.procedure = 'individual-speed';
    (raw.declarations as Record<string, unknown>)['1'] = [];
    raw.heal = [{ round: 1, combatant: 'y', total: 15 }];
    const v = validateScenario(raw, PROCEDURES);
    if (!v.ok) throw new Error(JSON.stringify(v.problems));
    const run = runScenario(v.scenario, new RandomDice(1));
    expect(run.ok).toBe(false);
    if (!run.ok) expect(run.problems).toEqual([{ key: 'HealNotNeeded', data: { name: 'Why' }, path: 'heal[0]' }]);
  });

  it('a late joiner cannot declare in regular declarations before it has joined', () => {
    const raw = base();
    raw.joins = [{ round: 2, step: 0, combatant: { id: 'z', side: 'b', hp: 4 }, declaration: { action: 'melee', target: 'x' } }];
    (raw.declarations as Record<string, unknown>)['2'] = [{ combatant: 'z', action: 'melee' }];
    (raw.declarations as Record<string, unknown>)['3'] = [{ combatant: 'z', action: 'melee' }];
    expect(problemsOf(raw)).toEqual([expect.objectContaining({ key: 'DeclarationBeforeJoin', path: 'declarations.2[0].combatant' })]);
  });

  it('fewer than two sides, no combatants, not a mapping at all', () => {
    const raw = base();
    raw.sides = [{ id: 'a' }];
    raw.combatants = [];
    const problems = problemsOf(raw);
    expect(problems).toContainEqual(expect.objectContaining({ key: 'TooFewSides', path: 'sides' }));
    expect(problems).toContainEqual(expect.objectContaining({ key: 'NoCombatants', path: 'combatants' }));
    expect(problemsOf([1, 2])).toEqual([expect.objectContaining({ key: 'ScenarioNotObject' })]);
    expect(problemsOf(null)).toEqual([expect.objectContaining({ key: 'ScenarioNotObject' })]);
  });

  it('collects every problem, not just the first', () => {
    const raw = base();
    (raw.combatants as Record<string, unknown>[])[0].hp = -0.5;
    (raw.combatants as Record<string, unknown>[])[1].nmae = 'Why';
    raw.dice = [{ purpose: 'luck', result: 2 }];
    expect(problemsOf(raw).length).toBe(3);
  });

  it('never throws on arbitrary input, anywhere in the tree: it answers with problems that have paths', () => {
    const table = stubTable();
    fc.assert(
      fc.property(fc.anything(), fc.constantFrom('procedure', 'sides', 'combatants', 'declarations', 'dice', 'damage', 'joins', 'morale', 'cancel', 'choose', 'options', 'rounds'), (junk, field) => {
        const raw = base();
        raw[field] = junk;
        const r = validateScenario(raw, table);
        if (!r.ok) for (const p of r.problems) expect(typeof p.key).toBe('string');
        expect(() => validateScenario(junk, table)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

describe('nothing runs on a broken scenario', () => {
  it('validation alone calls none of the procedure\'s rolls or plans', () => {
    const p = stubProcedure();
    const spies = [vi.spyOn(p, 'rollSurprise'), vi.spyOn(p, 'rollInitiative'), vi.spyOn(p, 'planRound')];
    const raw = base();
    (raw.combatants as Record<string, unknown>[])[0].hp = 'x';
    expect(validateScenario(raw, stubTable(p)).ok).toBe(false);
    expect(validateScenario(base(), stubTable(p)).ok).toBe(true);
    for (const s of spies) expect(s).not.toHaveBeenCalled();
  });
});

describe('the script a scenario builds', () => {
  /** Who acts in each round of a played scenario, and how. */
  const actsByRound = (raw: Record<string, unknown>) => {
    const r = validateScenario(raw, stubTable());
    if (!r.ok) throw new Error('invalid');
    const run = runScenario(r.scenario, new RandomDice(1));
    if (!run.ok) throw new Error('did not run');
    return run.log.rounds.map((round) => round.steps.flatMap((st) => st.entries.filter((e) => e.outcome === 'acts').map((e) => `${e.entry.combatant}:${e.entry.action}`)));
  };

  it('a round without an entry repeats the previous round ("same as last round"); an entry replaces it', () => {
    const raw = base();
    (raw.declarations as Record<string, unknown>)['3'] = [{ combatant: 'x', action: 'missile', target: 'y' }];
    raw.rounds = 4;
    expect(actsByRound(raw)).toEqual([['x:melee', 'y:melee'], ['x:melee', 'y:melee'], ['x:missile'], ['x:missile']]);
    const r = validateScenario(raw, stubTable());
    if (!r.ok) throw new Error('invalid');
    // The file gives a round's whole set, or null for "same as last round"; round 0 without an entry: what round 1 declares.
    expect(declarationsFor(r.scenario, 2)).toBeNull();
    expect(Object.keys(declarationsFor(r.scenario, 3) ?? {})).toEqual(['x']);
    expect(declarationsFor(r.scenario, 0)?.x.action).toBe('melee');
  });

  it('a joiner\'s declaration carries into the next round when that round has no entry', () => {
    const raw = base();
    raw.rounds = 3;
    raw.joins = [{ round: 1, step: 0, combatant: { id: 'z', side: 'b', hp: 4 }, declaration: { action: 'melee', target: 'x' } }];
    expect(actsByRound(raw)).toEqual([
      ['x:melee', 'y:melee', 'z:melee'],
      ['x:melee', 'y:melee', 'z:melee'],
      ['x:melee', 'y:melee', 'z:melee'],
    ]);
  });

  it('cancel by caster: the caster\'s casting that round is cancelled whatever its engine id', () => {
    const raw = base();
    (raw.declarations as Record<string, unknown>)['1'] = { x: { action: 'spell', spell: 'Sleep', castingTime: 2 } };
    raw.cancel = [{ round: 1, combatant: 'x' }];
    const r = validateScenario(raw, stubTable());
    if (!r.ok) throw new Error('invalid');
    const run = runScenario(r.scenario, new RandomDice(1));
    if (!run.ok) throw new Error('did not run');
    const outcomes = run.log.rounds[0].steps.flatMap((s) => s.entries.map((e) => e.outcome));
    expect(outcomes).toEqual(['cancelled', 'cancelled']);
    expect(scriptOf(r.scenario).cancelled).toEqual([{ round: 1, combatant: 'x' }]); // the file's cancel, by caster
  });

  it('scripted dice answer first, the seeded fallback after; an impossible roll is a problem at dice[i]', () => {
    const dice = new ScenarioDice([{ index: 4, purpose: 'initiative', side: 'a', result: 9 }], new SequenceDice([2]));
    expect(() => dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: 'a' })).toThrow(
      expect.objectContaining({ problem: expect.objectContaining({ key: 'ScriptedDieImpossible', path: 'dice[4].result' }) }),
    );
    const ok = new ScenarioDice([{ index: 0, purpose: 'initiative', side: 'b', result: 5 }], new SequenceDice([2]));
    expect(ok.roll({ purpose: 'initiative', count: 1, faces: 6, side: 'a' })).toBe(2);
    expect(ok.roll({ purpose: 'initiative', count: 1, faces: 6, side: 'b' })).toBe(5);
    expect(ok.unused()).toEqual([]);
  });

  it('runScenario turns an impossible scripted roll into a problem instead of a crash', () => {
    // The stub asks for a d6 for side a. A result the static table misses (here forced to 8
    // after validation) is caught when the engine asks for the roll.
    const raw = base();
    raw.dice = [{ purpose: 'initiative', side: 'a', round: 1, result: 6 }];
    const r = validateScenario(raw, stubTable());
    if (!r.ok) throw new Error('invalid');
    r.scenario.dice[0].result = 8; // as if the static check had not known the die
    const run = runScenario(r.scenario, new RandomDice(1));
    expect(run).toMatchObject({ ok: false, problems: [{ key: 'ScriptedDieImpossible', path: 'dice[0].result' }] });
  });

  it('the same seed gives the same combat', () => {
    const raw = base();
    raw.rounds = 3;
    const r = validateScenario(raw, PROCEDURES);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const a = runScenario(r.scenario, new RandomDice(42));
    const b = runScenario(r.scenario, new RandomDice(42));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.dice.log).toEqual(b.dice.log);
  });
});

describe('--procedure (override)', () => {
  it('drops the original options and scripted dice with notes, and validates declarations under the new procedure', () => {
    const raw = base();
    raw.options = { missileInitiative: false };
    raw.dice = [{ purpose: 'initiative', side: 'a', round: 1, result: 4 }];
    const r = validateScenario(raw, PROCEDURES, { procedure: 'addict' });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.scenario.procedure.id).toBe('addict');
    expect(r.scenario.options).toEqual(PROCEDURES.addict.defaults);
    expect(r.scenario.dice).toEqual([]);
    expect(r.scenario.notes.map((n) => n.key)).toEqual([
      'TENSEG.Sim.Note.ProcedureSwitched',
      'TENSEG.Sim.Note.OptionsDropped',
      'TENSEG.Sim.Note.DiceDropped',
    ]);
  });

  it('Heal checks and injuries go only to a procedure with Wound Point rules: dropped with a note under another', () => {
    const raw = base();
    raw.procedure = 'individual-speed';
    raw.heal = [{ round: 1, combatant: 'x', total: 15 }];
    raw.injuries = [{ round: 1, combatant: 'x', text: 'Sprained wrist' }];
    const r = validateScenario(raw, PROCEDURES, { procedure: 'addict' });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.scenario.wounds).toEqual([]);
    expect(r.scenario.notes).toContainEqual(expect.objectContaining({ key: 'TENSEG.Sim.Note.WoundsDropped', data: { count: 2, from: 'individual-speed', to: 'addict' } }));
    const kept = validateScenario(raw, PROCEDURES);
    expect(kept.ok && kept.scenario.wounds.map((w) => w.input)).toEqual([
      { t: 'heal', c: 'x', total: 15 },
      { t: 'injury', c: 'x', text: 'Sprained wrist' },
    ]);
  });

  it('an unknown override names --procedure', () => {
    const r = validateScenario(base(), PROCEDURES, { procedure: 'chess' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems).toEqual([expect.objectContaining({ key: 'UnknownProcedure', path: '--procedure' })]);
  });
});

describe('helpers', () => {
  it('edit distance', () => {
    expect(editDistance('weapn', 'weapon')).toBe(1);
    expect(editDistance('hp', 'hp')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('addict phases 1, 3 and 11 and hesitation in seconds (README "The scenario file")', () => {
  /** The base scenario under addict, charges possible. */
  function addict(): Record<string, unknown> {
    const raw = base();
    raw.procedure = 'addict';
    (raw.combatants as Record<string, unknown>[])[0].movement = 120;
    return raw;
  }

  it('reactions, distance, staunch and hesitationSeconds are read into the script; a charge without a distance closes the encounter distance', () => {
    const raw = addict();
    raw.reactions = [{ side: 'b', result: 'Hostile', roll: 7, secret: true }];
    raw.distance = 40;
    raw.staunch = [{ round: 2, combatant: 'y' }];
    raw.declarations = { '1': { x: { action: 'charge', target: 'y', hesitationSeconds: 13.5 }, y: { action: 'melee', target: 'x' } } };
    const r = validateScenario(raw, PROCEDURES);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.scenario.rounds).toBe(2); // the staunch names round 2
    const script = scriptOf(r.scenario);
    expect(script).toMatchObject({ reactions: [{ side: 'b', result: 'Hostile', roll: 7, secret: true }], distance: 40, staunch: [{ round: 2, combatant: 'y' }] });
    expect(r.scenario.declarations.get(1)?.x).toMatchObject({ hesitationSeconds: 13.5 });
    // Without the distance, the same charge is refused at its declaration.
    delete raw.distance;
    expect(problemsOf(raw, PROCEDURES)).toEqual([expect.objectContaining({ key: 'AddictChargeNoDistance', path: 'declarations.1.x' })]);
  });

  it('each bad entry names its field', () => {
    const raw = addict();
    raw.reactions = [{ side: 'c', result: 'Hostile' }, { side: 'b', result: '' }, { side: 'a', result: 'x'.repeat(201) }, { side: 'b', result: 'Calm' }, { side: 'b', result: 'Again' }, { side: 'a', result: 'Ok', rol: 3 }];
    raw.distance = -5;
    raw.staunch = [{ round: 1, combatant: 'zed' }, { combatant: 'x' }];
    (raw.declarations as Record<string, Record<string, unknown>[]>)['1'][0].hesitationSeconds = -6;
    const problems = problemsOf(raw, PROCEDURES).map((p) => `${p.path} ${p.key}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'reactions[0].side UnknownSideId',
        'reactions[1].result EmptyText',
        'reactions[2].result ReactionResultInvalid',
        'reactions[4].side DuplicateReaction',
        'reactions[5].rol UnknownFieldDidYouMean',
        'distance NumberTooSmall',
        'staunch[0].combatant UnknownCombatant',
        'staunch[1].round FieldMissing',
        'declarations.1[0].hesitationSeconds NumberTooSmall',
      ]),
    );
  });

  it('written for a procedure without those phases they are problems; under --procedure they are dropped with a note', () => {
    const raw = base();
    raw.reactions = [{ side: 'b', result: 'Hostile' }];
    raw.distance = 40;
    raw.staunch = [{ round: 1, combatant: 'y' }];
    expect(problemsOf(raw, PROCEDURES).map((p) => `${p.path} ${p.key}`)).toEqual(['reactions PhaseNotInProcedure', 'distance PhaseNotInProcedure', 'staunch PhaseNotInProcedure']);
    const moved = addict();
    moved.reactions = [{ side: 'b', result: 'Hostile' }];
    moved.distance = 40;
    const r = validateScenario(moved, PROCEDURES, { procedure: 'high-low' });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.scenario.reactions).toEqual([]);
    expect(r.scenario.distance).toBeUndefined();
    expect(r.scenario.notes.filter((n) => n.key === 'TENSEG.Sim.Note.PhaseDropped').map((n) => n.data?.field)).toEqual(['reactions', 'distance']);
  });
});

describe('d12-ascending in a scenario: a spell chosen at the caster\'s turn (`choose`), the GM\'s morale checks', () => {
  /** Wren declares a spell without naming it; the orc strikes at 5, she acts at 3. */
  const d12 = (): Record<string, unknown> => ({
    procedure: 'd12-ascending',
    sides: [{ id: 'party' }, { id: 'orcs' }],
    combatants: [
      { id: 'wren', name: 'Wren', side: 'party', kind: 'character', hp: 12, spells: ['Sleep', 'Fireball'] },
      { id: 'orc', name: 'Orc', side: 'orcs', kind: 'monster', hp: 8, morale: 40 },
    ],
    declarations: { '1': { wren: { action: 'spell' }, orc: { action: 'melee', target: 'wren' } } },
    dice: [
      { purpose: 'surprise', side: 'party', result: 12 },
      { purpose: 'surprise', side: 'orcs', result: 12 },
      { purpose: 'initiative', side: 'party', round: 1, result: 3 },
      { purpose: 'initiative', side: 'orcs', round: 1, result: 5 },
      { purpose: 'morale', combatant: 'orc', result: 90 },
    ],
  });
  const run = (raw: Record<string, unknown>) => {
    const r = validateScenario(raw, PROCEDURES);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const played = runScenario(r.scenario, new RandomDice(1));
    if (!played.ok) return { problems: played.problems };
    const timeline = buildTimeline(r.scenario, played.log, played.dice, 1, 'test.yaml', new Strings(loadStrings('.')));
    return { log: played.log, text: timeline.lines.join('\n'), timeline };
  };
  const shape = (log: NonNullable<ReturnType<typeof run>['log']>) =>
    log.rounds[0].steps.map((st) => [st.count, st.entries.map((e) => `${e.entry.combatant}:${e.entry.kind}:${e.outcome}`)]);

  it('II.C "A spellcaster may decide on his initiative result what spell to cast": the choice is given at her turn and goes off at 3 + casting time', () => {
    const raw = d12();
    raw.choose = [{ round: 1, combatant: 'wren', spell: 'Sleep', castingTime: 1 }];
    const { log, text } = run(raw);
    // --json: a turn passed without a choice is marked so.
    expect(run(d12()).timeline?.timeline.find((x) => x.round === 1)?.steps[0].entries[0]).toMatchObject({ combatant: 'wren', kind: 'cast-begin', choosing: true });
    expect(log && shape(log)).toEqual([
      [3, ['wren:cast-begin:begins']],
      [4, ['wren:cast-complete:goes-off']],
      [5, ['orc:action:acts']],
    ]);
    expect(log?.entries).toContainEqual({ t: 'choose', c: 'wren', spell: 'Sleep', castingTime: 1 });
    expect(log?.states.wren.expended).toEqual(['Sleep']);
    expect(text).toContain('Wren begins casting Sleep (casting time 1).');
  });

  it('"if any": none chosen, or no choice written: the text says so', () => {
    const none = d12();
    none.choose = [{ round: 1, combatant: 'wren', none: true }];
    expect(run(none).text).toContain('Wren chooses to cast no spell.');
    expect(run(d12()).text).toContain('Wren chose no spell when their turn came.');
  });

  it('a caster struck before her turn cannot choose: noted as refused, the play goes on', () => {
    const raw = d12();
    (raw.dice as unknown[]).splice(2, 2, { purpose: 'initiative', side: 'party', round: 1, result: 6 }, { purpose: 'initiative', side: 'orcs', round: 1, result: 2 });
    raw.damage = [{ round: 1, by: 'orc', target: 'wren', amount: 2 }];
    raw.choose = [{ round: 1, combatant: 'wren', spell: 'Sleep', castingTime: 1 }];
    expect(run(raw).log?.refused).toEqual([{ round: 1, combatant: 'wren', problem: { key: 'ChooseSpellPrevented', data: { name: 'Wren' } } }]);
  });

  it('errors name their field', () => {
    const raw = d12();
    raw.choose = [
      { round: 1, combatant: 'wren' },
      { round: 1, combatant: 'wren', none: true, castingTime: 2 },
      { round: 1, combatant: 'wren', spell: 'Sleep' },
      { round: 1, combatant: 'wern', spell: 'Sleep', castingTime: 1 },
      { round: 1, combatant: 'wren', spell: 'Sleep', castingTime: 0 },
    ];
    expect(problemsOf(raw, PROCEDURES).map((p) => [p.key, p.path])).toEqual([
      ['ChooseNeedsOne', 'choose[0]'],
      ['ChooseNoneWithTime', 'choose[1].castingTime'],
      ['FieldMissing', 'choose[2].castingTime'],
      ['UnknownCombatant', 'choose[3].combatant'],
      ['NumberTooSmall', 'choose[4].castingTime'],
    ]);
  });

  it('a choice for a caster who had nothing to choose that round stops the play at choose[i]', () => {
    const raw = d12();
    raw.declarations = { '1': { wren: { action: 'spell', spell: 'Sleep', castingTime: 1 }, orc: { action: 'melee', target: 'wren' } } };
    raw.choose = [{ round: 1, combatant: 'wren', spell: 'Fireball', castingTime: 3 }];
    expect(run(raw).problems).toEqual([{ key: 'ChooseSpellNeverDue', path: 'choose[0]', data: { name: 'Wren', round: 1 } }]);
  });

  it('morale: "the DM can still make such a check in any way he sees fit" (method, score, the GM\'s own result); "Player characters never check morale"', () => {
    const raw = d12();
    raw.morale = [{ round: 1, combatant: 'orc', trigger: 'leader-died' }];
    const d100 = run(raw);
    expect(d100.log?.rounds[0].end?.events).toEqual([{ kind: 'morale', combatant: 'orc', trigger: 'leader-died', roll: 90, total: 90, target: 40, passed: false, method: 'd100' }]);
    expect(d100.text).toContain('Orc checks morale (leader-died): rolls 90 on d100 against 40 or less: breaks.');
    raw.morale = [{ round: 1, combatant: 'orc', method: 'gm', passed: true }];
    expect(run(raw).text).toContain('Orc checks morale (called for by the GM): the GM rules it holds.');
    raw.morale = [
      { round: 1, combatant: 'wren' },
      { round: 1, combatant: 'orc', method: 'gm' },
      { round: 1, combatant: 'orc', method: '3d6' },
    ];
    expect(problemsOf(raw, PROCEDURES).map((p) => [p.key, p.path])).toEqual([
      ['UnknownValueDidYouMean', 'morale[2].method'],
      ['D12MoraleCharacter', 'morale[0]'],
      ['MoraleResultMissing', 'morale[1]'],
    ]);
  });
});
