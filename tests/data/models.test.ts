/**
 * The system's DataModels against the Foundry stand-in (tests/standin):
 * defaults, refusal of values off the rules' scales, migration of old shapes,
 * the Combat's stored flow, labels for every field, and the system.json
 * fragment matching the registered types.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { logFromSchema1 } from '../../src/data/combat-log-v1';
import { replay } from '../../src/rules/flow';
import '../standin/global';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';
import * as data from '../../src/data/index';
import { toEngineCombatant } from '../../src/data/engine-view';
import type { CharacterSystem, MonsterSystem } from '../../src/data/shapes';

const g = globalThis as any;
const LANG_PATH = 'lang/en.json';
const lang: Record<string, string> = JSON.parse(readFileSync(LANG_PATH, 'utf8'));
const manifest = JSON.parse(readFileSync('system.json', 'utf8'));

describe.each([13, 14] as const)('data models, generation %i', (generation) => {
  let foundry: FoundryHandle;

  beforeEach(() => {
    foundry = installFoundry({ generation, lang: LANG_PATH });
    foundry.everyClient(data.registerDataModels);
  });

  const make = (cls: any, source: any = {}) => new cls(source);
  const refuses = (cls: any, source: any) => expect(() => make(cls, source)).toThrow(/validation errors/);

  describe('registration', () => {
    it('registerDataModels puts every model in CONFIG under its type (Combat types as "base")', () => {
      expect(g.CONFIG.Actor.dataModels.character).toBe(data.CharacterData);
      expect(g.CONFIG.Actor.dataModels.monster).toBe(data.MonsterData);
      expect(g.CONFIG.Item.dataModels).toMatchObject({ weapon: data.WeaponData, spell: data.SpellData, armor: data.ArmorData, gear: data.GearData });
      expect(g.CONFIG.Combat.dataModels.base).toBe(data.CombatData);
      expect(g.CONFIG.Combatant.dataModels.base).toBe(data.CombatantData);
      expect(g.CONFIG.CombatantGroup.dataModels.base).toBe(data.CombatantGroupData);
    });

    it('the system.json fragment declares exactly the registered Actor and Item types (core-typed documents: none), and its htmlFields are HTML fields', () => {
      // Combat, Combatant and CombatantGroup keep core's "base" type: Foundry refuses a core type under documentTypes (issue 24).
      expect(Object.keys(manifest.documentTypes).sort()).toEqual(['Actor', 'Item']);
      for (const [doc, types] of Object.entries({ Actor: data.DATA_MODELS.Actor, Item: data.DATA_MODELS.Item })) {
        expect(Object.keys(manifest.documentTypes[doc]).sort()).toEqual(Object.keys(types).sort());
        for (const [type, model] of Object.entries(types) as [string, any][]) {
          for (const path of manifest.documentTypes[doc][type].htmlFields ?? []) {
            const field = path.split('.').reduce((f: any, k: string) => f?.fields?.[k], model.schema);
            expect(field?.constructor.name, `${doc}.${type}: ${path}`).toBe('HTMLField');
          }
        }
      }
    });

    it('the token attribute suggestions exist on both actor types', () => {
      for (const model of [data.CharacterData, data.MonsterData] as any[]) {
        for (const path of [manifest.primaryTokenAttribute, manifest.secondaryTokenAttribute].filter(Boolean)) {
          const field = path.split('.').reduce((f: any, k: string) => f?.fields?.[k], model.schema);
          expect(field?.fields?.value, path).toBeDefined();
          expect(field?.fields?.max, path).toBeDefined();
        }
      }
    });
  });

  describe('labels', () => {
    function leafPaths(schema: any, prefix = ''): string[] {
      const out: string[] = [];
      for (const [name, field] of Object.entries(schema.fields) as [string, any][]) {
        const path = prefix ? `${prefix}.${name}` : name;
        out.push(path);
        if (field.fields) out.push(...leafPaths(field, path));
      }
      return out;
    }

    it('every field of every model has a label under one of its localization prefixes', () => {
      for (const types of Object.values(data.DATA_MODELS)) {
        for (const model of Object.values(types) as any[]) {
          for (const path of leafPaths(model.schema)) {
            const found = model.LOCALIZATION_PREFIXES.some((p: string) => `${p}.FIELDS.${path}.label` in lang);
            expect(found, `${model.name}: ${path}`).toBe(true);
          }
        }
      }
    });

    it('every choice of a select is a label key in the fragment', () => {
      const choices = [
        data.CharacterData.defineSchema().attack.fields.mode,
        data.WeaponData.defineSchema().kind,
        data.SpellData.defineSchema().castingTime.fields.unit,
        data.ArmorData.defineSchema().bulk,
        data.WeaponData.defineSchema().critical,
        (data.WeaponData.defineSchema().damageTypes as any).element,
      ] as any[];
      for (const field of choices) for (const key of Object.values(field.choices) as string[]) expect(lang[key], key).toBeTypeOf('string');
    });

    it('type labels exist for every actor and item type', () => {
      for (const doc of ['Actor', 'Item'] as const) {
        for (const type of Object.keys(data.DATA_MODELS[doc])) expect(lang[`TYPES.${doc}.${type}`]).toBeTypeOf('string');
      }
    });
  });

  describe('character', () => {
    it('defaults: abilities 10, AC 10 (worst), level 1, 12" = 120 ft movement, one routine', () => {
      const c = make(data.CharacterData);
      expect(c.abilities).toEqual({ str: 10, int: 10, wis: 10, dex: 10, con: 10, cha: 10 });
      expect(c.ac).toBe(10);
      expect(c.details.level).toBe(1);
      expect(c.movement).toEqual({ base: 120, charge: 0 });
      expect(c.combat.routines).toBe(1);
      expect(c.attack).toEqual({ mode: 'aac0', aac0: '20', table: '' });
      expect(c.surprise.neverSurprised).toBe(false);
    });

    it('refuses AC off the -10..10 scale (seed 001) instead of clamping it', () => {
      refuses(data.CharacterData, { ac: 11 });
      refuses(data.CharacterData, { ac: -11 });
      expect(make(data.CharacterData, { ac: -10 }).ac).toBe(-10);
    });

    it('refuses a negative level, an ability of 0, a bad AAC0 and zero routines', () => {
      refuses(data.CharacterData, { details: { level: -1 } });
      refuses(data.CharacterData, { abilities: { str: 0 } });
      refuses(data.CharacterData, { attack: { aac0: '19*' } });
      refuses(data.CharacterData, { combat: { routines: 0 } });
      refuses(data.CharacterData, { attack: { mode: 'thac0' } });
    });

    it('the refusal message is the localized problem', () => {
      expect(() => make(data.CharacterData, { ac: 11 })).toThrow(/11 must be a whole number from -10 to 10/);
      expect(() => make(data.CharacterData, { attack: { aac0: 'x' } })).toThrow(/"x" is not an AAC0/);
    });

    it('current hit points are a running tally: overshooting the scale is clamped, not refused', () => {
      expect(make(data.CharacterData, { hp: { value: -500, max: 8 } }).hp.value).toBe(-100);
    });

    it('an update with AC 11 fails with an error notification and changes nothing', async () => {
      const actor = await g.Actor.create({ name: 'Halvaine', type: 'character', system: { ac: 4 } });
      await actor.update({ 'system.ac': 11 });
      expect(actor.system.ac).toBe(4);
      expect(foundry.notifications.at(-1)?.type).toBe('error');
      expect(foundry.writes.count('Actor', 'update')).toBe(0);
      await actor.update({ 'system.ac': 3 });
      expect(actor.system.ac).toBe(3);
    });
  });

  describe('monster', () => {
    it('defaults: 1 HD, AAC0 20, no attacks, no morale given', () => {
      const m = make(data.MonsterData);
      expect(m.hitDice).toBe('1');
      expect(m.aac0).toBe('20');
      expect(m.attacks).toBe('');
      expect(m.morale).toBe(0);
      expect(m.routines).toBe(1);
    });

    it('accepts enhanced hit dice ("4+4 HD", seed 001) and refuses unreadable ones', () => {
      expect(make(data.MonsterData, { hitDice: '4+4' }).hitDice).toBe('4+4');
      expect(make(data.MonsterData, { hitDice: '½' }).hitDice).toBe('½');
      refuses(data.MonsterData, { hitDice: 'lots' });
      refuses(data.MonsterData, { hitDice: '4+' });
    });

    it('keeps the attack text and offers the parsed routines ("MELEE: 2 claws (1d8/1d8) and bite (2d6)")', () => {
      const m = make(data.MonsterData, { attacks: 'MELEE: 2 claws (1d8/1d8) and bite (2d6)' });
      expect(m.parsedAttacks.ok && m.parsedAttacks.value[0].attackCount).toBe(3);
      refuses(data.MonsterData, { attacks: '2 claws and a bite' });
    });

    it('migrates old shapes: numeric hit dice and AAC0 become text, movement in inches becomes feet', () => {
      const m = make(data.MonsterData, { hitDice: 4, aac0: 15, movement: 9 });
      expect(m.hitDice).toBe('4');
      expect(m.aac0).toBe('15');
      expect(m.movement).toEqual({ base: 90, charge: 0 });
      expect(make(data.MonsterData, { hitDice: 0.5 }).hitDice).toBe('½');
      expect(make(data.CharacterData, { ac: '5', hp: { value: '7', max: '9' } })).toMatchObject({ ac: 5, hp: { value: 7, max: 9 } });
    });

    it('stored monster data reads straight into the engine', () => {
      const m = make(data.MonsterData, { hitDice: '4+4', hp: { value: 30, max: 30 }, routines: 2, surprise: { surprisesOn: 3 } });
      const r = toEngineCombatant({ id: 'a', name: 'Ogre', type: 'monster', system: m.toObject() as MonsterSystem }, { id: 'c', side: 'm' });
      expect(r.ok && r.value).toMatchObject({ hitDice: '4+4', hp: 30, routines: 2, surprisesOn: 3, movement: 120 });
    });

    it('a stored character reads straight into the engine', () => {
      const c = make(data.CharacterData, { hp: { value: 6, max: 6 }, combat: { reactionAdjustment: 2 } });
      const r = toEngineCombatant({ id: 'a', name: 'F', type: 'character', system: c.toObject() as CharacterSystem }, { id: 'c', side: 'p' });
      expect(r.ok && r.value).toMatchObject({ hp: 6, surpriseAdjustment: 2, level: 1, movement: 120 });
    });
  });

  describe('items', () => {
    it('weapon defaults and refusals (damage text, speed factor, rate of fire)', () => {
      const w = make(data.WeaponData);
      expect(w).toMatchObject({ kind: 'melee', speed: 0, rate: 1, equipped: false, damage: { small: '1d6', large: '1d6' } });
      refuses(data.WeaponData, { damage: { small: 'ouch' } });
      refuses(data.WeaponData, { speed: -1 });
      refuses(data.WeaponData, { kind: 'thrown' });
      refuses(data.WeaponData, { range: { short: 70, medium: 50, long: 210 } });
      expect(make(data.WeaponData, { range: { short: 70, medium: 140, long: 210 } }).range.long).toBe(210);
    });

    it('spell: "1 round" is 10 segments (README ruling); more than 100 segments or more expended than memorized is refused', () => {
      expect(make(data.SpellData, { castingTime: { value: 1, unit: 'rounds' } }).castingSegments).toBe(10);
      expect(make(data.SpellData, { castingTime: { value: 3 } }).castingSegments).toBe(3);
      refuses(data.SpellData, { castingTime: { value: 11, unit: 'rounds' } });
      refuses(data.SpellData, { castingTime: { value: 0 } });
      refuses(data.SpellData, { memorized: 1, expended: 2 });
      expect(make(data.SpellData, { memorized: 2, expended: 1 }).remaining).toBe(1);
    });

    it('weapon, individual-speed (seed 003): a critical multiplier "of x2 ... x3 ... x4" (x2 by default) and damage types, each once', () => {
      expect(make(data.WeaponData)).toMatchObject({ critical: 2, damageTypes: [] });
      expect(make(data.WeaponData, { critical: 4, damageTypes: ['piercing', 'blunt'] })).toMatchObject({ critical: 4, damageTypes: ['piercing', 'blunt'] });
      refuses(data.WeaponData, { critical: 5 });
      refuses(data.WeaponData, { critical: 1 });
      refuses(data.WeaponData, { damageTypes: ['laser'] });
      refuses(data.WeaponData, { damageTypes: ['blunt', 'blunt'] });
    });

    it('armour, individual-speed: "most pieces of armour grant a bonus to Defense and/or Armour when worn"; actors hold their own bonuses and an attack bonus', () => {
      expect(make(data.ArmorData)).toMatchObject({ defense: 0, armour: 0 });
      expect(make(data.ArmorData, { defense: 2, armour: 3 })).toMatchObject({ defense: 2, armour: 3 });
      refuses(data.ArmorData, { armour: -1 });
      for (const cls of [data.CharacterData, data.MonsterData]) {
        expect(make(cls).individual).toMatchObject({ defense: 0, armour: 0, attackBonus: 0 });
        refuses(cls, { individual: { armour: -2 } });
        refuses(cls, { individual: { attackBonus: 99 } });
      }
    });

    it('armor and gear', () => {
      expect(make(data.ArmorData)).toMatchObject({ ac: 10, bulk: 'none', movement: 0 });
      refuses(data.ArmorData, { ac: 12 });
      refuses(data.ArmorData, { bulk: 'huge' });
      expect(make(data.GearData)).toMatchObject({ weight: 0, quantity: 1 });
      refuses(data.GearData, { quantity: -1 });
    });
  });

  describe('combat, combatant and group', () => {
    const start = {
      t: 'start',
      v: 2,
      s: { procedure: 'high-low', options: {}, encounter: { sides: [], combatants: [] }, surprise: { rolls: {}, surprised: {}, unit: 'round' }, baseInitiative: {}, round: 1 },
    };

    it('a combat starts with an empty log, of the schema this build writes', () => {
      const c = make(data.CombatData);
      expect(c.version).toBe(2);
      expect(c.log).toEqual({});
    });

    it('stores its log as keyed entries: the start, then each transition with its dice', () => {
      const c = make(data.CombatData, { log: { e00000: start, e00001: { t: 'next', r: [4, 2] } } });
      expect(Object.keys(c.log)).toEqual(['e00000', 'e00001']);
      expect(c.log.e00001).toEqual({ t: 'next', r: [4, 2] });
    });

    it('refuses an entry it does not know, dice that are not whole numbers, and keys that are not log keys', () => {
      refuses(data.CombatData, { log: { e00000: { t: 'teleport' } } });
      refuses(data.CombatData, { log: { e00000: { t: 'next', r: ['six'] } } });
      // A key that is not an entry key is dropped, as core drops what a field's validateKey refuses.
      expect(Object.keys(make(data.CombatData, { log: { e00000: start, hack: { t: 'next' } } }).log)).toEqual(['e00000']);
    });

    it('reads a combat stored by schema 1 as not started (schema 1) until the world migration rewrites it as its log', () => {
      const flow = JSON.stringify({
        procedure: 'high-low',
        options: {},
        encounter: { sides: [], combatants: [] },
        stage: 'declare',
        round: 2,
        step: 0,
        surprise: { rolls: {}, surprised: {}, unit: 'round' },
        baseInitiative: {},
        declarations: {},
        initiative: null,
        schedule: null,
        progress: { states: {}, status: {} },
        roundStart: {},
        outcomes: [],
        hits: [],
        interruptions: [],
        carry: [],
        owed: {},
        cancelled: [],
        moraleRequests: [],
        end: null,
      });
      const history = ['[{"path":["round"],"value":1}]'];
      const c = make(data.CombatData, { flow, history });
      expect(c.version).toBe(1);
      expect(c.log).toEqual({});
      // What the migration writes (src/data/combat-log-v1.ts, loaded with it): the oldest state kept, then each transition.
      const log = logFromSchema1(flow, history);
      expect(Object.values(log).map((e: any) => e.t)).toEqual(['snapshot', 'patch']);
      expect((log.e00000 as any).s.round).toBe(1);
      expect(replay(log).state?.round).toBe(2);
    });

    it('combatant: no declaration until one is made; a declaration must name a known action', () => {
      const c = make(data.CombatantData);
      expect(c).toMatchObject({ declaration: null, initiativeGroup: '' });
      expect(make(data.CombatantData, { declaration: { combatant: 'x', action: 'melee' } }).declaration.action).toBe('melee');
      refuses(data.CombatantData, { declaration: { action: 'dance' } });
    });

    it('combatant group: the side it stands for, alerted or surprised by the GM', () => {
      const gr = make(data.CombatantGroupData);
      expect(gr).toMatchObject({ side: '', alerted: false, surprised: false });
      expect(make(data.CombatantGroupData, { alerted: true }).alerted).toBe(true);
    });
  });

  describe('documents of every type', () => {
    it('are created and updated with no error or deprecation logged', async () => {
      const actors = await Promise.all([
        g.Actor.create({ name: 'Halvaine', type: 'character' }),
        g.Actor.create({ name: 'Ogre', type: 'monster', system: { hitDice: '4+4', attacks: 'MELEE: club (2d6)' } }),
      ]);
      for (const type of Object.keys(data.DATA_MODELS.Item)) await actors[0].createEmbeddedDocuments('Item', [{ name: type, type }]);
      await actors[1].update({ 'system.hp.value': 20, 'system.morale': 9 });
      expect(actors[1].system.morale).toBe(9);
      expect(actors[0].items.size).toBe(4);
      expect(foundry.errors).toEqual([]);
      expect(foundry.deprecations).toEqual([]);
    });
  });
});
