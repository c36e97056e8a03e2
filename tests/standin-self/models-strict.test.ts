/**
 * Foundry's own rules for data models (issue 25, read in v13 build 13.350's
 * common/abstract/data.mjs and type-data.mjs), held by the stand-in in both
 * generations:
 *  1. a model's `_source` is sealed (no key added or removed); nested plain
 *     objects are not, unless they are themselves a model's source (an
 *     EmbeddedDataField's model, a document's `system` model);
 *  2. construction data is owned: `new Model(data)` migrates and cleans the
 *     caller's object and keeps it as `_source` (no copy);
 *  3. `updateSource(changes)` expands and cleans the caller's `changes` in place;
 *  4. fields named `schema`, `invalid`, `validationFailures`, `parent` (and
 *     `modelProvider` on a TypeDataModel) are an error when the schema is defined.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry } from '../standin';

const g = globalThis as any;

function timelineModel(): any {
  const { fields } = g.foundry.data;
  return class Timeline extends g.foundry.abstract.DataModel {
    static defineSchema() {
      return {
        segment: new fields.NumberField({ required: true, nullable: false, integer: true, min: 1, max: 10, initial: 1 }),
        label: new fields.StringField({ required: true, blank: false, initial: 'round' }),
        inner: new fields.SchemaField({ x: new fields.NumberField({ initial: 0 }) }),
        extra: new fields.ObjectField(),
        note: new fields.StringField({ required: false }),
      };
    }
  };
}

function registerCharacterModel(): void {
  const { fields } = g.foundry.data;
  class CharacterData extends g.foundry.abstract.TypeDataModel {
    static defineSchema() {
      return {
        hp: new fields.SchemaField({
          value: new fields.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 10 }),
          max: new fields.NumberField({ required: true, nullable: false, integer: true, min: 1, initial: 10 }),
        }),
      };
    }
  }
  g.CONFIG.Actor.dataModels.character = CharacterData;
}

describe.each([13, 14] as const)('data models held to core rules, generation %i', (generation) => {
  beforeEach(() => {
    const foundry = installFoundry({ generation });
    foundry.everyClient(registerCharacterModel);
  });

  describe('1. a model\'s _source is sealed', () => {
    it('no key may be added to or removed from _source; its values may change', () => {
      const T = timelineModel();
      const t = new T({});
      expect(Object.isSealed(t._source)).toBe(true);
      expect(() => {
        t._source.added = 1;
      }).toThrow(TypeError);
      expect(() => {
        delete t._source.label;
      }).toThrow(TypeError);
      expect('added' in t._source).toBe(false);
      expect(t._source.label).toBe('round');
      t._source.segment = 2; // an existing key may be written
      expect(t._source.segment).toBe(2);
    });

    it('a nested plain object is not sealed; the source of an embedded model is, and is the parent source\'s object', () => {
      const { fields } = g.foundry.data;
      const T = timelineModel();
      class Holder extends g.foundry.abstract.DataModel {
        static defineSchema() {
          return { timeline: new fields.EmbeddedDataField(T), plain: new fields.SchemaField({ a: new fields.NumberField() }) };
        }
      }
      const h = new (Holder as any)({ timeline: { segment: 3 } });
      expect(Object.isSealed(h._source.plain)).toBe(false);
      h._source.plain.b = 1; // not sealed: allowed, as in core
      expect(h.timeline._source).toBe(h._source.timeline);
      expect(Object.isSealed(h._source.timeline)).toBe(true);
      expect(() => {
        h._source.timeline.added = 1;
      }).toThrow(TypeError);
    });

    it('a document\'s _source and its system model\'s source (the same object as _source.system) are sealed', async () => {
      const actor = await g.Actor.create({ name: 'Halvaine', type: 'character' });
      expect(Object.isSealed(actor._source)).toBe(true);
      expect(actor.system._source).toBe(actor._source.system);
      expect(Object.isSealed(actor._source.system)).toBe(true);
      expect(() => {
        actor._source.extra = 1;
      }).toThrow(TypeError);
      expect(() => {
        actor._source.system.mana = 3;
      }).toThrow(TypeError);
      // updates still apply, and the system model's source stays the document's
      await actor.update({ 'system.hp.value': 4 });
      expect(actor.system.hp.value).toBe(4);
      expect(actor.system._source).toBe(actor._source.system);
      expect(Object.isSealed(actor._source)).toBe(true);
    });
  });

  describe('2. construction data is owned by the model', () => {
    it('new Model(data) cleans the caller\'s object and keeps it as _source', () => {
      const T = timelineModel();
      const data: any = { segment: '3', stray: true };
      const t = new T(data);
      expect(t._source).toBe(data);
      expect(data.segment).toBe(3); // cast in place
      expect(data.label).toBe('round'); // initial filled in place
      expect('stray' in data).toBe(false); // unknown key dropped in place
      expect(Object.isSealed(data)).toBe(true);
    });

    it('migrateData works on the caller\'s object; what it returns is not the source (core ignores it)', () => {
      const { fields } = g.foundry.data;
      class Migrating extends g.foundry.abstract.DataModel {
        static defineSchema() {
          return { value: new fields.NumberField({ initial: 0 }) };
        }
        static migrateData(source: any) {
          if ('old' in source) source.value = source.old;
          return { value: 99 }; // a new object: core does not use it
        }
      }
      const data: any = { old: 5 };
      const m = new (Migrating as any)(data);
      expect(m._source).toBe(data);
      expect(m.value).toBe(5);
    });

    it('a document keeps its construction data as _source, its system part as the system model\'s source', () => {
      const data: any = { name: 'Orc', type: 'character', system: { hp: { value: '3' } } };
      const system = data.system;
      const actor = new g.CONFIG.Actor.documentClass(data);
      expect(actor._source).toBe(data);
      expect(actor._source.system).toBe(system);
      expect(actor.system._source).toBe(system);
      expect(system.hp).toEqual({ value: 3, max: 10 });
    });

    it('a model built from a model copies it (toObject), and data of another type than an object is an error', () => {
      const T = timelineModel();
      const a = new T({ segment: 2 });
      const b = new T(a);
      expect(b._source).not.toBe(a._source);
      expect(b.segment).toBe(2);
      expect(() => new T([1, 2])).toThrow(/incorrectly constructed with a Array instead of an object/);
    });
  });

  describe('3. updateSource cleans the caller\'s changes in place', () => {
    it('dotted keys are expanded, values cast and unknown keys dropped in the caller\'s object', () => {
      const T = timelineModel();
      const t = new T({});
      const changes: any = { segment: '4', 'inner.x': '5', stray: 1 };
      const diff = t.updateSource(changes);
      expect(changes).toEqual({ segment: 4, inner: { x: 5 } });
      expect(diff).toEqual({ segment: 4, inner: { x: 5 } });
      expect(t.segment).toBe(4);
    });

    it('also on a dry run, and on a document', async () => {
      const T = timelineModel();
      const t = new T({});
      const changes: any = { segment: '6' };
      t.updateSource(changes, { dryRun: true });
      expect(changes).toEqual({ segment: 6 });
      expect(t.segment).toBe(1);
      const actor = await g.Actor.create({ name: 'Halvaine', type: 'character' });
      const docChanges: any = { 'system.hp.value': '7', nonsense: true };
      actor.updateSource(docChanges);
      expect(docChanges).toEqual({ system: { hp: { value: 7 } } });
      expect(actor.system.hp.value).toBe(7);
    });

    it('a deletion of a field stays in the cleaned changes, one of an unknown key does not; the deleted field\'s key stays in the sealed source', () => {
      const T = timelineModel();
      const t = new T({ note: 'x' });
      const changes: any = generation === 13 ? { '-=note': null, '-=nope': null } : { note: g._del, nope: g._del };
      t.updateSource(changes);
      if (generation === 13) expect(Object.keys(changes)).toEqual(['-=note']);
      else expect(Object.keys(changes)).toEqual(['note']);
      expect(t._source.note).toBeUndefined();
      expect('note' in t._source).toBe(true); // core's commit assigns the field; a sealed source keeps its keys
      expect(Object.isSealed(t._source)).toBe(true);
    });

    it('the source object is updated in place: _source and the system model\'s source keep their identity', async () => {
      const T = timelineModel();
      const t = new T({});
      const source = t._source;
      const inner = t._source.inner;
      t.updateSource({ inner: { x: 2 }, label: 'segment' });
      expect(t._source).toBe(source);
      expect(t._source.inner).toBe(inner);
      expect(inner.x).toBe(2);
      const actor = await g.Actor.create({ name: 'Halvaine', type: 'character' });
      const system = actor._source.system;
      actor.updateSource({ 'system.hp.max': 12 });
      expect(actor._source.system).toBe(system);
      expect(actor.system._source).toBe(system);
      expect(actor.system.hp.max).toBe(12);
    });
  });

  describe('4. reserved field names', () => {
    const defineWith = (base: any, name: string): any => {
      const { fields } = g.foundry.data;
      return class Reserving extends base {
        static defineSchema() {
          return { ok: new fields.NumberField(), [name]: new fields.StringField() };
        }
      };
    };

    it.each(['schema', 'invalid', 'validationFailures', 'parent'])('a DataModel may not define a field "%s"', (name) => {
      const M = defineWith(g.foundry.abstract.DataModel, name);
      expect(() => M.schema).toThrow(new RegExp(`"${name}".*reserved`));
      expect(() => new M({})).toThrow(new RegExp(`"${name}".*reserved`));
    });

    it.each(['schema', 'invalid', 'validationFailures', 'parent', 'modelProvider'])('a TypeDataModel may not define a field "%s"', (name) => {
      const M = defineWith(g.foundry.abstract.TypeDataModel, name);
      expect(() => M.schema).toThrow(new RegExp(`"${name}".*reserved`));
    });

    it('no schema may have a field named "_source" (core\'s SchemaField, word for word)', () => {
      const { fields } = g.foundry.data;
      expect(() => new fields.SchemaField({ _source: new fields.StringField() })).toThrow('"_source" is not a valid name for a field of a SchemaField.');
    });

    it('modelProvider is a valid field name of a plain DataModel', () => {
      const M = defineWith(g.foundry.abstract.DataModel, 'modelProvider');
      const m = new M({ modelProvider: 'me' });
      expect(m.modelProvider).toBe('me');
    });
  });
});
