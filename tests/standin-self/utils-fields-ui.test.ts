/** foundry.utils, data fields, context menus and applications: the contracts the system relies on. */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe('foundry.utils', () => {
  beforeEach(() => installFoundry({ generation: 13 }));
  const u = () => g.foundry.utils;

  it('mergeObject merges recursively, expands dotted keys, respects insertKeys/insertValues/overwrite', () => {
    expect(u().mergeObject({ a: { b: 1, c: 2 } }, { 'a.b': 5, d: 1 })).toEqual({ a: { b: 5, c: 2 }, d: 1 });
    expect(u().mergeObject({ a: 1 }, { b: 2 }, { insertKeys: false })).toEqual({ a: 1 });
    expect(u().mergeObject({ a: { x: 1 } }, { a: { y: 2 } }, { insertValues: false })).toEqual({ a: { x: 1 } });
    expect(u().mergeObject({ a: 1 }, { a: 2 }, { overwrite: false })).toEqual({ a: 1 });
    const original = { a: { b: 1 } };
    const merged = u().mergeObject(original, { a: { b: 2 } }, { inplace: false });
    expect(original.a.b).toBe(1);
    expect(merged.a.b).toBe(2);
  });

  it('mergeObject performs "-=" deletions and "==" replacements only with performDeletions', () => {
    expect(u().mergeObject({ a: { b: 1, c: 2 } }, { a: { '-=b': null } })).toEqual({ a: { b: 1, c: 2, '-=b': null } });
    expect(u().mergeObject({ a: { b: 1, c: 2 } }, { a: { '-=b': null } }, { performDeletions: true })).toEqual({ a: { c: 2 } });
    expect(u().mergeObject({ a: { b: 1, c: 2 } }, { '==a': { z: 1 } }, { performDeletions: true })).toEqual({ a: { z: 1 } });
  });

  it('expandObject, flattenObject, getProperty, setProperty, diffObject', () => {
    expect(u().expandObject({ 'a.b': 1, 'a.c': [1, 2] })).toEqual({ a: { b: 1, c: [1, 2] } });
    expect(u().flattenObject({ a: { b: 1, c: { d: 2 } }, e: [] })).toEqual({ 'a.b': 1, 'a.c.d': 2, e: [] });
    expect(u().getProperty({ a: { b: 3 } }, 'a.b')).toBe(3);
    expect(u().getProperty({ a: 1 }, 'a.b.c')).toBeUndefined();
    const o: any = {};
    expect(u().setProperty(o, 'x.y', 1)).toBe(true);
    expect(o).toEqual({ x: { y: 1 } });
    expect(u().diffObject({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 2, d: 4 }, e: 5 })).toEqual({ b: { d: 4 }, e: 5 });
  });

  it('deepClone copies plain data and keeps class instances; randomID gives 16 characters', () => {
    const roll = new g.Roll('1d6');
    const c = u().deepClone({ a: [{ b: 1 }], roll });
    expect(c.roll).toBe(roll);
    expect(u().randomID()).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});

describe('data fields', () => {
  beforeEach(() => installFoundry({ generation: 13 }));


  const model = (): any => {
    const { fields } = g.foundry.data;
    return class Timeline extends g.foundry.abstract.DataModel {
      static defineSchema() {
        return {
          segment: new fields.NumberField({ required: true, nullable: false, integer: true, min: 1, max: 10, initial: 1 }),
          label: new fields.StringField({ required: true, blank: false, initial: 'round' }),
          phases: new fields.ArrayField(new fields.StringField({ blank: false }), { min: 1, initial: () => ['surprise'] }),
          seen: new fields.SetField(new fields.StringField()),
          open: new fields.BooleanField(),
          note: new fields.HTMLField(),
          extra: new fields.ObjectField(),
        };
      }
    };
  };

  it('construction cleans and fills initial values; a Set field initializes to a Set', () => {
    const T = model();
    const t = new T({ segment: '3', seen: ['a'] });
    expect(t.segment).toBe(3);
    expect(t.label).toBe('round');
    expect(t.phases).toEqual(['surprise']);
    expect(t.seen).toBeInstanceOf(Set);
    expect(t.toObject().seen).toEqual(['a']);
    expect(t.open).toBe(false);
  });

  it('invalid construction data throws a validation error naming the field', () => {
    const T = model();
    expect(() => new T({ label: 7, phases: [] })).toThrow(/phases: cannot have fewer than 1 elements/);
    expect(() => new T({ segment: 'soon' })).toThrow(/segment: must be a finite number/);
  });

  it('updateSource returns the diff and changes nothing when invalid', () => {
    const T = model();
    const t = new T({});
    expect(t.updateSource({ segment: 4, label: 'round' })).toEqual({ segment: 4 });
    expect(() => t.updateSource({ segment: 5, phases: [] })).toThrow(/phases/);
    expect(t.segment).toBe(4);
    // core cleaning: a blank string for a non-blank field falls back to the initial value
    expect(t.updateSource({ label: '' })).toEqual({});
    expect(t.updateSource({ open: 'true' })).toEqual({ open: true });
  });

  it('EmbeddedDataField holds a nested model; TypedObjectField validates each entry', () => {
    const { fields } = g.foundry.data;
    const T = model();
    class Holder extends g.foundry.abstract.DataModel {
      static defineSchema() {
        return { timeline: new fields.EmbeddedDataField(T), bySide: new fields.TypedObjectField(new fields.NumberField({ nullable: false, integer: true })) };
      }
    }
    const h = new (Holder as any)({ timeline: { segment: 2 }, bySide: { party: 3 } });
    expect(h.timeline).toBeInstanceOf(T);
    expect(h.timeline.parent).toBe(h);
    expect(() => h.updateSource({ bySide: { monsters: 'x' } })).toThrow(/bySide.monsters/);
    h.updateSource({ bySide: { monsters: 5 } });
    expect(h.bySide).toEqual({ party: 3, monsters: 5 });
  });
});

describe.each([13, 14] as const)('context menus and applications, generation %i', (generation) => {
  let foundry: FoundryHandle;
  beforeEach(() => {
    foundry = installFoundry({ generation });
  });

  it(`reads entries in the ${generation === 13 ? '{name, condition, callback}' : '{label, visible, onClick}'} shape`, async () => {
    const clicked: any[] = [];
    const target = { dataset: { combatantId: 'abc' } };
    const entries =
      generation === 13
        ? [
            { name: 'TENSEG.Menu.Delay', icon: '<i class="fa-solid fa-hourglass"></i>', condition: (li: any) => !!li.dataset.combatantId, callback: (li: any) => clicked.push(li) },
            { name: 'TENSEG.Menu.Hidden', callback: () => undefined, condition: false },
          ]
        : [
            { label: 'TENSEG.Menu.Delay', icon: 'fa-solid fa-hourglass', visible: (li: any) => !!li.dataset.combatantId, onClick: (_e: any, li: any) => clicked.push(li) },
            { label: 'TENSEG.Menu.Hidden', onClick: () => undefined, visible: false },
          ];
    const menu = foundry.contextMenu(entries);
    expect(menu.visibleLabels(target)).toEqual(['TENSEG.Menu.Delay']);
    await menu.click('TENSEG.Menu.Delay', target);
    expect(clicked).toEqual([target]);
    expect(foundry.deprecations).toEqual([]);
  });

  it(generation === 13 ? 'v13 cannot read v14 entries' : 'v14 reads v13 entries with deprecation warnings', async () => {
    if (generation === 13) {
      const menu = foundry.contextMenu([{ label: 'X', onClick: () => undefined }]);
      expect(() => menu.visibleLabels({})).toThrow(/name and a callback/);
    } else {
      let hit = 0;
      const menu = foundry.contextMenu([{ name: 'X', callback: () => hit++ }]);
      await menu.click('X', {});
      expect(hit).toBe(1);
      expect(foundry.deprecations.length).toBeGreaterThan(0);
    }
  });

  it('ApplicationV2 render prepares its context and is counted', async () => {
    const { ApplicationV2, HandlebarsApplicationMixin } = g.foundry.applications.api;
    class Timeline extends HandlebarsApplicationMixin(ApplicationV2) {
      static DEFAULT_OPTIONS = { id: 'tenseg-timeline', window: { title: 'TENSEG.Timeline' } };
      async _prepareContext() {
        return { segments: 10 };
      }
    }
    const app = new Timeline();
    await app.render({ force: true });
    expect(app.lastContext).toEqual({ segments: 10 });
    expect(foundry.renders.count('tenseg-timeline')).toBe(1);
  });

  it('a Handlebars application renders each part\'s template into partHTML; a missing template is an error', async () => {
    const { ApplicationV2, HandlebarsApplicationMixin } = g.foundry.applications.api;
    class Options extends HandlebarsApplicationMixin(ApplicationV2) {
      static DEFAULT_OPTIONS = { id: 'tenseg-core-tracker-copy' };
      static PARTS = { footer: { template: 'templates/sidebar/tabs/combat/footer.hbs' } };
      async _prepareContext() {
        return { hasCombat: true };
      }
    }
    const app = new Options();
    await app.render({ force: true });
    expect(app.partHTML.footer).toContain('data-action="nextTurn"');
    expect(app.element).toBeNull(); // no DOM in Node
    class Missing extends HandlebarsApplicationMixin(ApplicationV2) {
      static PARTS = { body: { template: 'systems/ten-segments/templates/no-such.hbs' } };
    }
    await expect(new Missing().render({ force: true })).rejects.toThrow(/does not exist/);
  });

  it('an application renders one at a time, in the order asked (core: a semaphore of one); each call is counted at once', async () => {
    const { ApplicationV2 } = g.foundry.applications.api;
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    class Slow extends ApplicationV2 {
      static DEFAULT_OPTIONS = { id: 'tenseg-slow' };
      async _prepareContext(options: { n: number }) {
        order.push(`start ${options.n}`);
        if (options.n === 1) await gate;
        order.push(`end ${options.n}`);
        return { n: options.n };
      }
    }
    const app = new Slow();
    const first = app.render({ n: 1 });
    const second = app.render({ n: 2 });
    expect(foundry.renders.count('tenseg-slow')).toBe(2);
    await Promise.resolve();
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    expect(app.lastContext).toEqual({ n: 2 });
  });

  it('boot fires init, setup and ready, then builds ui.combat from CONFIG.ui.combat', async () => {
    const order: string[] = [];
    class TensegTracker extends g.foundry.applications.sidebar.tabs.CombatTracker {}
    g.Hooks.once('init', () => {
      order.push('init');
      g.CONFIG.ui.combat = TensegTracker;
    });
    g.Hooks.once('setup', () => order.push('setup'));
    g.Hooks.once('ready', () => order.push(`ready ${g.game.ready}`));
    await foundry.boot();
    expect(order).toEqual(['init', 'setup', 'ready true']);
    expect(g.ui.combat).toBeInstanceOf(TensegTracker);
  });
});
