/**
 * The scenario format's stats for rolled play (issue 14, `npm run odds`):
 * each field accepted and refused with its key and path; the stats kept out
 * of the Combatant the runner plays; oddsSetup's shape (declarations that
 * repeat, the surprise's own set, a fighter per combatant); and the bundled
 * scenarios of src/sim/scenarios/odds, one per GM question, under every
 * procedure.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { PROCEDURE_IDS, type Problem } from '../../src/rules/model';
import { parseAttackRoutines } from '../../src/rules/attack-routines';
import { damageFormula } from '../../src/rules/dice';
import { DEFAULT_MAX_ROUNDS } from '../../src/rules/odds/types';
import { oddsDeclarations, oddsIgnored, oddsIgnoredNote, oddsSetup, validateScenario, type ValidScenario } from '../../src/sim/scenario';

const ROOT = resolve(__dirname, '..', '..');
const ODDS = join(ROOT, 'src', 'sim', 'scenarios', 'odds');
const en: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'lang', 'en.json'), 'utf8'));
const de: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'lang', 'de.json'), 'utf8'));

type Raw = Record<string, unknown>;

/** Two fighters, no stats for rolled play: what each test adds them to. */
function base(): Raw {
  return {
    procedure: 'segment-d6',
    sides: [{ id: 'a' }, { id: 'b' }],
    combatants: [
      { id: 'x', side: 'a', hp: 8, weapon: { name: 'sword', speed: 5 } },
      { id: 'y', side: 'b', hp: 6, spells: ['Sleep'] },
    ],
    declarations: { 1: { x: { action: 'melee', target: 'y' }, y: { action: 'spell', spell: 'Sleep', castingTime: 1 } } },
  };
}

/** base() with fields merged into combatant x. */
function withX(fields: Raw, weapon: Raw = {}): Raw {
  const raw = base();
  const list = raw.combatants as Raw[];
  list[0] = { ...list[0], ...fields, weapon: { ...(list[0].weapon as Raw), ...weapon } };
  return raw;
}

function valid(raw: unknown, procedure?: string): ValidScenario {
  const r = validateScenario(raw, PROCEDURES, procedure ? { procedure } : {});
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.scenario;
}

function problems(raw: unknown): Problem[] {
  const r = validateScenario(raw, PROCEDURES);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

/** The one problem a file gives: its key and path (and every key is in both languages). */
function only(raw: unknown): { key: string; path?: string; data?: Problem['data'] } {
  const list = problems(raw);
  expect(list).toHaveLength(1);
  const [p] = list;
  expect(en[`TENSEG.Error.${p.key}`], p.key).toBeTruthy();
  expect(de[`TENSEG.Error.${p.key}`], p.key).toBeTruthy();
  return { key: p.key, path: p.path, data: p.data };
}

describe('stats for rolled play on a combatant', () => {
  it('accepts ac, aac0 (text or number), size, attacks, position and the weapon damage, into fighters', () => {
    const s = valid(withX({ ac: -2, aac0: 17, size: 'large', attacks: 'MELEE: 2 claws (1d4/1d4) and bite (1d8)', position: { x: 2, y: -1.5 } }, { damage: '1d8', damageLarge: '1d12' }));
    expect(s.fighters.x).toEqual({
      ac: -2,
      aac0: '17',
      size: 'large',
      attacks: 'MELEE: 2 claws (1d4/1d4) and bite (1d8)',
      position: { x: 2, y: -1.5 },
      damage: '1d8',
      damageLarge: '1d12',
    });
    expect(s.fighters.y).toEqual({});
    expect(valid(withX({ aac0: '20*' })).fighters.x.aac0).toBe('20*');
    expect(valid(withX({}, { damage: '2-8', damageLarge: ' 3 ' })).fighters.x).toEqual({ damage: '2-8', damageLarge: '3' });
  });

  it('keeps them out of the Combatant and its weapon: the runner plays the same encounter as without them', () => {
    const plain = valid(base());
    const rich = valid(withX({ ac: 3, aac0: '19', size: 'small', attacks: 'bite (1d6)', position: { x: 0, y: 0 } }, { damage: '1d6', damageLarge: '1d8' }));
    expect(rich.encounter).toEqual(plain.encounter);
    const x = rich.encounter.combatants[0] as unknown as Raw;
    for (const k of ['ac', 'aac0', 'size', 'attacks', 'position']) expect(x, k).not.toHaveProperty(k);
    expect(x.weapon).toEqual({ name: 'sword', speed: 5 });
  });

  it('a joiner brings its stats too', () => {
    const raw = base();
    raw.joins = [{ round: 1, combatant: { id: 'z', side: 'b', hp: 4, ac: 6, weapon: { damage: '1d6' } } }];
    const s = valid(raw);
    expect(s.fighters.z).toEqual({ ac: 6, damage: '1d6' });
    expect(s.joins[0].combatant).not.toHaveProperty('ac');
    expect(s.joins[0].combatant).not.toHaveProperty('weapon'); // a weapon written only for its damage is none to the runner
  });

  it.each([
    [{ ac: 11 }, 'NumberTooLarge', 'combatants[0].ac'],
    [{ ac: -11 }, 'NumberTooSmall', 'combatants[0].ac'],
    [{ ac: 2.5 }, 'ExpectedInteger', 'combatants[0].ac'],
    [{ aac0: '17*' }, 'Aac0Invalid', 'combatants[0].aac0'],
    [{ aac0: 0 }, 'Aac0Invalid', 'combatants[0].aac0'],
    [{ aac0: true }, 'ExpectedText', 'combatants[0].aac0'],
    [{ size: 'huge' }, 'UnknownValue', 'combatants[0].size'],
    [{ size: 'lage' }, 'UnknownValueDidYouMean', 'combatants[0].size'],
    [{ attacks: 'claws (1d4' }, 'AttackRoutineUnparseable', 'combatants[0].attacks'],
    [{ attacks: '2 claws (1d4/1d4/1d4)' }, 'AttackRoutineCountMismatch', 'combatants[0].attacks'],
    [{ position: { x: 1 } }, 'FieldMissing', 'combatants[0].position.y'],
    [{ position: { x: 1, y: 'two' } }, 'ExpectedNumber', 'combatants[0].position.y'],
    [{ position: { x: 1, y: 2, z: 3 } }, 'UnknownField', 'combatants[0].position.z'],
    [{ position: [1, 2] }, 'ExpectedObject', 'combatants[0].position'],
    [{ positon: { x: 1, y: 2 } }, 'UnknownFieldDidYouMean', 'combatants[0].positon'],
  ])('refuses %j: %s at %s', (fields, key, path) => {
    expect(only(withX(fields))).toMatchObject({ key, path });
  });

  it.each([
    [{ damage: 'd' }, 'ScenarioOddsDamageInvalid', 'combatants[0].weapon.damage'],
    [{ damageLarge: '8-2' }, 'ScenarioOddsDamageInvalid', 'combatants[0].weapon.damageLarge'],
    [{ damage: 8 }, null, null],
    [{ damage: ['1d6'] }, 'ExpectedText', 'combatants[0].weapon.damage'],
    [{ damge: '1d6' }, 'UnknownFieldDidYouMean', 'combatants[0].weapon.damge'],
  ])('weapon %j: %s at %s', (weapon, key, path) => {
    if (key === null) {
      expect(valid(withX({}, weapon)).fighters.x.damage).toBe('8');
      return;
    }
    const p = only(withX({}, weapon));
    expect(p).toMatchObject({ key, path });
    if (key === 'UnknownFieldDidYouMean') expect(p.data?.suggestion).toBe('damage');
  });

  it('a misspelt field names the stats among the known ones', () => {
    expect(only(withX({ aaco: 17 })).data).toMatchObject({ suggestion: 'aac0' });
    const p = only(withX({ armourClass: 3 }));
    expect(p.key).toBe('UnknownField');
    expect(String(p.data?.allowed)).toContain('position');
  });

  it('damage on a declared weapon is not a field (the fighter has one damage)', () => {
    const raw = base();
    raw.declarations = { 1: { x: { action: 'melee', target: 'y', weapon: { name: 'axe', damage: '1d8' } } } };
    expect(only(raw)).toMatchObject({ key: 'UnknownField', path: 'declarations.1.x.weapon.damage' });
  });
});

describe('spells: what a spell does when it goes off', () => {
  it('accepts damage, targets and disables by spell name; a bare name only counts as gone off', () => {
    const raw = base();
    (raw.combatants as Raw[])[1].spells = ['Sleep', 'Magic Missile', 'Light'];
    raw.spells = { Sleep: { disables: '2d4' }, 'Magic Missile': { damage: '1d4+1', targets: 2 }, Light: null };
    expect(valid(raw).spells).toEqual({ Sleep: { disables: '2d4' }, 'Magic Missile': { damage: '1d4+1', targets: 2 }, Light: {} });
    expect(valid(base()).spells).toEqual({});
  });

  it('a spell a choice names is known too', () => {
    const raw = base();
    raw.procedure = 'd12-ascending';
    raw.choose = [{ round: 1, combatant: 'y', spell: 'Web', castingTime: 2 }];
    raw.spells = { Web: { disables: '1' } };
    expect(valid(raw).spells).toEqual({ Web: { disables: '1' } });
  });

  it.each([
    [{ Sleep: { targets: 0 } }, 'NumberTooSmall', 'spells.Sleep.targets'],
    [{ Sleep: { targets: 51 } }, 'NumberTooLarge', 'spells.Sleep.targets'],
    [{ Sleep: { damage: 'lots' } }, 'ScenarioOddsDamageInvalid', 'spells.Sleep.damage'],
    [{ Sleep: { disables: '2d' } }, 'ScenarioOddsDamageInvalid', 'spells.Sleep.disables'],
    [{ Sleep: { range: 3 } }, 'UnknownField', 'spells.Sleep.range'],
    [{ Sleep: 'asleep' }, 'ExpectedObject', 'spells.Sleep'],
    [{ sleep: { disables: '2d4' } }, 'ScenarioOddsSpellUnknownDidYouMean', 'spells.sleep'],
    [{ Fireball: { damage: '5d6' } }, 'ScenarioOddsSpellUnknown', 'spells.Fireball'],
    [['Sleep'], 'ExpectedObject', 'spells'],
  ])('refuses %j: %s at %s', (spells, key, path) => {
    const raw = base();
    raw.spells = spells;
    expect(only(raw)).toMatchObject({ key, path });
  });

  it('the suggestion is the spell nearest the slip', () => {
    const raw = base();
    raw.spells = { sleep: {} };
    expect(only(raw).data).toEqual({ spell: 'sleep', suggestion: 'Sleep' });
  });
});

describe('oddsSetup: a validated scenario as the odds runner plays it', () => {
  const rich = (): Raw => {
    const raw = withX({ ac: 4, aac0: 19 }, { damage: '1d8' });
    raw.title = 'T';
    raw.spells = { Sleep: { disables: '2d4' } };
    return raw;
  };

  it('gives the procedure, options, encounter, fighters for every combatant, spells, the round cap and the title', () => {
    const s = valid(rich());
    const setup = oddsSetup(s);
    expect(setup.procedure).toBe('segment-d6');
    expect(setup.options).toEqual(s.options);
    expect(setup.encounter).toEqual(s.encounter);
    expect(setup.fighters).toEqual({ x: { ac: 4, aac0: '19', damage: '1d8' }, y: {} });
    expect(setup.spells).toEqual({ Sleep: { disables: '2d4' } });
    expect(setup.maxRounds).toBe(DEFAULT_MAX_ROUNDS);
    expect(setup.title).toBe('T');
    expect(setup).not.toHaveProperty('surpriseDeclarations');
    expect(setup).not.toHaveProperty('reactions');
    expect(setup).not.toHaveProperty('distance');
    expect(oddsSetup(s, 25).maxRounds).toBe(25);
    expect(JSON.parse(JSON.stringify(setup))).toEqual(setup); // plain JSON: posted to workers
  });

  it('is a copy: playing it cannot touch the scenario', () => {
    const s = valid(rich());
    const setup = oddsSetup(s);
    setup.encounter.combatants[0].hp = -5;
    setup.declarations[0].x.target = 'x';
    setup.fighters.x.ac = 9;
    setup.spells.Sleep.disables = '9';
    expect(s.encounter.combatants[0].hp).toBe(8);
    expect(s.declarations.get(1)?.x.target).toBe('y');
    expect(s.fighters.x.ac).toBe(4);
    expect(s.spells.Sleep.disables).toBe('2d4');
  });

  it('a round without an entry repeats the one before; the last set repeats after (by the setup rule)', () => {
    const raw = base();
    raw.declarations = {
      1: { x: { action: 'melee', target: 'y' } },
      3: { x: { action: 'flee' } },
    };
    const d = oddsSetup(valid(raw)).declarations;
    expect(d).toHaveLength(3);
    expect(d[0]).toEqual({ x: { combatant: 'x', action: 'melee', target: 'y' } });
    expect(d[1]).toEqual(d[0]);
    expect(d[2]).toEqual({ x: { combatant: 'x', action: 'flee' } });
  });

  it('an explicit empty round declares nothing from then on', () => {
    const raw = base();
    raw.declarations = { 1: { x: { action: 'melee', target: 'y' } }, 2: null };
    expect(oddsDeclarations(valid(raw))).toEqual([{ x: { combatant: 'x', action: 'melee', target: 'y' } }, {}]);
  });

  it('an explicit round 0 is the surprise set; round 1 without one takes it', () => {
    const raw = base();
    raw.declarations = { surprise: { x: { action: 'melee', target: 'y' } } };
    const setup = oddsSetup(valid(raw));
    expect(setup.surpriseDeclarations).toEqual({ x: { combatant: 'x', action: 'melee', target: 'y' } });
    expect(setup.declarations).toEqual([setup.surpriseDeclarations]);
    raw.declarations = { 0: { y: { action: 'spell', spell: 'Sleep', castingTime: 1 } }, 1: { x: { action: 'melee', target: 'y' } } };
    const two = oddsSetup(valid(raw));
    expect(Object.keys(two.surpriseDeclarations ?? {})).toEqual(['y']);
    expect(Object.keys(two.declarations[0])).toEqual(['x']);
  });

  it('no declarations at all: one empty set', () => {
    const raw = base();
    delete raw.declarations;
    expect(oddsSetup(valid(raw)).declarations).toEqual([{}]);
  });

  it('carries addict\'s reactions and distance', () => {
    const raw = base();
    raw.procedure = 'addict';
    raw.reactions = [{ side: 'b', result: 'hostile', roll: 4 }];
    raw.distance = 60;
    const setup = oddsSetup(valid(raw));
    expect(setup.reactions).toEqual([{ side: 'b', result: 'hostile', roll: 4 }]);
    expect(setup.distance).toBe(60);
  });

  it('names the sections it does not play, in the file format\'s order, and the note that says so', () => {
    expect(oddsIgnored(valid(base()))).toEqual([]);
    expect(oddsIgnoredNote(valid(base()))).toBeNull();
    const raw = base();
    raw.damage = [{ round: 1, by: 'x', target: 'y', amount: 3 }];
    raw.dice = [{ purpose: 'initiative', side: 'a', round: 1, result: 4 }];
    raw.joins = [{ round: 1, combatant: { id: 'z', side: 'b', hp: 3 } }];
    const s = valid(raw);
    expect(oddsIgnored(s)).toEqual(['dice', 'damage', 'joins']);
    const note = oddsIgnoredNote(s);
    expect(note).toEqual({ key: 'TENSEG.Sim.Note.OddsIgnored', data: { sections: 'dice, damage, joins' } });
    for (const lang of [en, de]) expect(lang['TENSEG.Sim.Note.OddsIgnored']).toContain('{sections}');
  });
});

describe('the bundled odds scenarios (src/sim/scenarios/odds)', () => {
  const files = readdirSync(ODDS).filter((f) => f.endsWith('.yaml')).sort();
  const read = (f: string) => readFileSync(join(ODDS, f), 'utf8');

  it('one per GM question, and nothing but scenarios', () => {
    expect(files).toEqual(expect.arrayContaining(['ambush.yaml', 'first-strike.yaml', 'ogre.yaml', 'sleep-vs-orcs.yaml']));
    expect(readdirSync(ODDS).filter((f) => !f.endsWith('.yaml'))).toEqual([]);
  });

  it.each(files)('%s: its header states the question and how to run it', (f) => {
    const header = read(f).split('\n').filter((l) => l.startsWith('#')).join('\n');
    expect(header).toMatch(/question/i);
    expect(header).toContain(`npm run odds -- src/sim/scenarios/odds/${f}`);
  });

  describe.each(files)('%s', (f) => {
    const raw = parse(read(f)) as unknown;
    it.each(PROCEDURE_IDS)('validates and builds an OddsSetup under %s', (procedure) => {
      const s = valid(raw, procedure);
      const setup = oddsSetup(s);
      expect(setup.procedure).toBe(procedure);
      expect(oddsIgnored(s)).toEqual([]);
      expect(setup.declarations.length).toBeGreaterThan(0);
      for (const c of setup.encounter.combatants) {
        const stats = setup.fighters[c.id];
        // Every fighter rolls its own damage and hits by its own numbers.
        expect(stats.aac0, c.id).toBeDefined();
        expect(stats.ac, c.id).toBeDefined();
        expect(stats.position, c.id).toBeDefined();
        expect(stats.damage !== undefined || stats.attacks !== undefined, c.id).toBe(true);
        if (stats.damage) expect(damageFormula(stats.damage)).not.toBeNull();
        if (stats.attacks) expect(parseAttackRoutines(stats.attacks).ok).toBe(true);
        // individual-speed's fields, so the scenario means something there too.
        for (const k of ['woundPoints', 'defenseBonus', 'armour', 'attackBonus', 'agilityModifier'] as const) expect(c[k], `${c.id}.${k}`).toBeDefined();
        // Everyone declares something in every round.
        for (const set of setup.declarations) expect(set[c.id], c.id).toBeDefined();
      }
    });
  });

  it('sleep-vs-orcs: a magic-user with Sleep (disables 2d4), fighters, four orcs with AC, AAC0 and damage', () => {
    const setup = oddsSetup(valid(parse(read('sleep-vs-orcs.yaml'))));
    expect(setup.spells).toEqual({ Sleep: { disables: '2d4' } });
    expect(setup.declarations[0].mirela).toMatchObject({ action: 'spell', spell: 'Sleep' });
    const orcs = setup.encounter.combatants.filter((c) => c.side === 'orcs');
    expect(orcs).toHaveLength(4);
    for (const o of orcs) expect(setup.fighters[o.id]).toMatchObject({ ac: 6, aac0: '19', damage: '1d6' });
  });

  it('first-strike: a fast dagger against a slow two-handed sword', () => {
    const setup = oddsSetup(valid(parse(read('first-strike.yaml'))));
    const [t, g] = setup.encounter.combatants;
    expect(t.weapon?.speed).toBeLessThan(g.weapon?.speed ?? 0);
    expect(setup.fighters[t.id].damage).toBe('1d4');
    expect(setup.fighters[g.id].damage).toBe('1d10');
  });

  it('ambush: the bandits are alerted and have their own surprise declarations', () => {
    const setup = oddsSetup(valid(parse(read('ambush.yaml'))));
    expect(setup.encounter.sides.find((s) => s.id === 'bandits')?.alerted).toBe(true);
    expect(setup.encounter.sides.find((s) => s.id === 'caravan')?.alerted).toBeUndefined();
    expect(setup.surpriseDeclarations?.archer1).toMatchObject({ action: 'missile' });
  });

  it('ogre: a large monster whose damage is its stat block\'s attack routine', () => {
    const setup = oddsSetup(valid(parse(read('ogre.yaml'))));
    expect(setup.fighters.ogre).toMatchObject({ size: 'large', aac0: '15', attacks: 'MELEE: great club (1d10)' });
    expect(setup.fighters.ogre.damage).toBeUndefined();
    expect(setup.encounter.combatants.filter((c) => c.side === 'fighters').map((c) => c.level)).toEqual([1, 1, 1]);
  });
});
