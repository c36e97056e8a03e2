/**
 * Document sheets as core has them (v13/v14): registration in
 * CONFIG[doc].sheetClasses with core's v1 defaults under "core", the
 * document's sheet, DocumentSheetV2's options, permissions, title, id and
 * context, the submit path (FormDataExtended cast, validate with clean, update;
 * an error a notification and nothing written), tabs, drag and drop, the
 * handle's sheet helpers, Handlebars helpers and the prototype token.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;
const T = 'systems/ten-segments/tests/standin-self/templates';

function registerModels() {
  const { fields } = g.foundry.data;
  class CharacterData extends g.foundry.abstract.TypeDataModel {
    static defineSchema() {
      return {
        hp: new fields.SchemaField({
          value: new fields.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 10 }),
          max: new fields.NumberField({ required: true, nullable: false, integer: true, min: 1, initial: 10 }),
        }),
        ac: new fields.NumberField({ required: true, nullable: false, integer: true, initial: 9 }),
        inspired: new fields.BooleanField({ initial: false }),
        side: new fields.StringField({ required: true, choices: ['party', 'monsters'], initial: 'party' }),
        rank: new fields.NumberField({ required: true, nullable: false, integer: true, initial: 1 }),
        biography: new fields.StringField({ required: true, blank: true, initial: '' }),
        mood: new fields.StringField({ required: true, choices: ['calm', 'angry'], initial: 'calm' }),
        locked: new fields.StringField({ required: true, blank: true, initial: '' }),
      };
    }
  }
  g.CONFIG.Actor.dataModels.character = CharacterData;
  g.CONFIG.Actor.dataModels.monster = CharacterData;
  class WeaponData extends g.foundry.abstract.TypeDataModel {
    static defineSchema() {
      return { equipped: new fields.BooleanField({ initial: false }) };
    }
  }
  g.CONFIG.Item.dataModels.weapon = WeaponData;
  g.CONFIG.Item.dataModels.gear = WeaponData;
}

/** A test actor sheet: header (form controls), tab navigation (core's template), two tabs. */
function makeSheetClass() {
  const { HandlebarsApplicationMixin } = g.foundry.applications.api;
  const { ActorSheetV2 } = g.foundry.applications.sheets;
  return class TestActorSheet extends HandlebarsApplicationMixin(ActorSheetV2) {
    static DEFAULT_OPTIONS = {
      classes: ['ten-segments', 'test-sheet'],
      form: { submitOnChange: true },
      actions: {
        equip(this: any, _event: any, target: any) {
          const id = target.closest('[data-item-id]').dataset.itemId;
          const item = this.actor.items.get(id);
          return item.update({ 'system.equipped': !item.system.equipped });
        },
      },
    };
    static PARTS = {
      header: { template: `${T}/test-actor-header.hbs` },
      tabs: { template: 'templates/generic/tab-navigation.hbs' },
      gear: { template: `${T}/test-actor-tab.hbs` },
      notes: { template: `${T}/test-actor-tab.hbs` },
    };
    static TABS = { primary: { tabs: [{ id: 'gear' }, { id: 'notes', icon: 'fa-solid fa-book' }], initial: 'gear', labelPrefix: 'TEST.Tab' } };
    async _preparePartContext(partId: string, context: any, options: any) {
      context = await super._preparePartContext(partId, context, options);
      if (partId === 'gear' || partId === 'notes') {
        context.tab = context.tabs[partId];
        context.items = [...this.actor.items.values()].map((i: any) => ({ id: i.id, name: i.name }));
      }
      return context;
    }
  };
}

describe.each([13, 14] as const)('document sheets, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let Sheet: any;
  beforeEach(() => {
    foundry = installFoundry({ generation });
    Sheet = makeSheetClass();
    foundry.everyClient(() => {
      registerModels();
      const { DocumentSheetConfig } = g.foundry.applications.apps;
      DocumentSheetConfig.unregisterSheet(g.Actor, 'core', g.foundry.appv1.sheets.ActorSheet);
      DocumentSheetConfig.registerSheet(g.Actor, 'ten-segments', Sheet, { types: ['character'], makeDefault: true, label: 'Test sheet' });
    });
  });
  const makeActor = (extra: any = {}) => g.Actor.create({ name: 'Halvaine', type: 'character', ...extra });

  describe('registration and document.sheet', () => {
    it("pre-registers core's v1 sheets under \"core\" for every sub-type, which a system can unregister", () => {
      const items = g.CONFIG.Item.sheetClasses;
      expect(Object.keys(items.weapon)).toEqual(['core.ItemSheet']);
      expect(items.weapon['core.ItemSheet']).toMatchObject({ cls: g.foundry.appv1.sheets.ItemSheet, default: true });
      expect(Object.keys(g.CONFIG.Actor.sheetClasses.character)).toEqual(['ten-segments.TestActorSheet']);
      expect(g.CONFIG.Actor.sheetClasses.monster).toEqual({});
    });

    it('records registration as core: id scope.ClassName, label localized, only the given types; makeDefault clears other defaults', () => {
      const entry = g.CONFIG.Actor.sheetClasses.character['ten-segments.TestActorSheet'];
      expect(entry).toMatchObject({ id: 'ten-segments.TestActorSheet', cls: Sheet, default: true, label: 'Test sheet', canBeDefault: true, canConfigure: true });
      class Other extends Sheet {}
      g.foundry.documents.collections.Actors.registerSheet('ten-segments', Other, { types: ['character'], makeDefault: true });
      expect(g.CONFIG.Actor.sheetClasses.character['ten-segments.TestActorSheet'].default).toBe(false);
      expect(g.CONFIG.Actor.sheetClasses.character['ten-segments.Other']).toMatchObject({ default: true, label: 'ten-segments.Other' });
    });

    it('refuses a sub-type the system does not have', () => {
      expect(() => g.foundry.documents.collections.Items.registerSheet('ten-segments', Sheet, { types: ['wand'] })).toThrow(/no sub-type wand/);
    });

    it('document.sheet is one instance of the default class, built with {document}; none registered: BaseSheet; v1 default: refuses to render', async () => {
      const actor = await makeActor();
      expect(actor.sheet).toBeInstanceOf(Sheet);
      expect(actor.sheet).toBe(actor.sheet);
      expect(actor.sheet.document).toBe(actor);
      const monster = await g.Actor.create({ name: 'Orc', type: 'monster' });
      expect(monster.sheet).toBeInstanceOf(g.foundry.applications.sheets.BaseSheet);
      await monster.sheet.render({ force: true });
      expect(monster.sheet.partHTML.sheet).toContain('name="name"');
      const sword = await g.Item.create({ name: 'Sword', type: 'weapon' });
      expect(sword.sheet).toBeInstanceOf(g.foundry.appv1.sheets.ItemSheet);
      await expect(sword.sheet.render(true)).rejects.toThrow(/v1 sheets/);
    });
  });

  describe('DocumentSheetV2', () => {
    it("has core's options, id, title and the ActorSheetV2 width", async () => {
      const actor = await makeActor();
      const sheet = actor.sheet;
      expect(sheet.options.tag).toBe('form');
      expect(sheet.options.classes).toEqual(['sheet', 'ten-segments', 'test-sheet']);
      expect(sheet.options.viewPermission).toBe(g.CONST.DOCUMENT_OWNERSHIP_LEVELS.LIMITED);
      expect(sheet.options.editPermission).toBe(g.CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER);
      expect(sheet.options.form).toMatchObject({ submitOnChange: true, closeOnSubmit: false });
      expect(typeof sheet.options.form.handler).toBe('function');
      expect(Object.keys(sheet.options.actions)).toEqual(expect.arrayContaining(['tab', 'configureSheet', 'copyUuid', 'editImage', 'equip']));
      expect(sheet.options.position.width).toBe(600);
      expect(sheet.id).toBe(`TestActorSheet-Actor-${actor.id}`);
      expect(sheet.title).toBe('DOCUMENT.Actor: Halvaine');
      expect(sheet.actor).toBe(actor);
      expect(() => new Sheet({})).toThrow(/must be provided a Document/);
    });

    it("prepares core's context keys; editable follows ownership", async () => {
      const actor = await makeActor({ ownership: { default: 2 } });
      await actor.sheet.render({ force: true });
      const ctx = actor.sheet.partContexts.header;
      expect(ctx.document).toBe(actor);
      expect(ctx.source).toBe(actor._source);
      expect(ctx.fields).toBe(actor.schema.fields);
      expect(ctx.editable).toBe(true);
      expect(ctx.user).toBe(g.game.user);
      expect(ctx.rootId).toBe(actor.sheet.id);
      const theirs = foundry.client(foundry.users.player).game.actors.get(actor.id);
      await foundry.asUser(foundry.users.player, async () => {
        expect(theirs.sheet.isVisible).toBe(true);
        expect(theirs.sheet.isEditable).toBe(false);
        await theirs.sheet.render({ force: true });
        expect(theirs.sheet.partContexts.header.editable).toBe(false);
      });
    });

    it('refuses to render for a user who cannot view the document (a warning, nothing rendered)', async () => {
      const actor = await makeActor();
      const theirs = foundry.client(foundry.users.player).game.actors.get(actor.id);
      await foundry.asUser(foundry.users.player, () => theirs.sheet.render({ force: true }));
      expect(theirs.sheet.rendered).toBe(false);
      expect(theirs.sheet.partHTML).toEqual({});
      expect(foundry.client(foundry.users.player).notifications.at(-1)?.type).toBe('warn');
    });
  });

  describe('submit', () => {
    it('submitSheet casts as FormDataExtended and updates through validate; the whole form is submitted', async () => {
      const actor = await makeActor();
      await actor.sheet.render({ force: true });
      await foundry.submitSheet(actor.sheet, { 'system.hp.value': '7', 'system.inspired': true, 'system.side': 'monsters', 'system.rank': '2', 'system.biography': 'Born <b>late</b>' });
      expect(foundry.notifications.filter((n) => n.type === 'error')).toEqual([]);
      expect(actor.system).toMatchObject({ hp: { value: 7, max: 10 }, inspired: true, side: 'monsters', rank: 2, biography: 'Born <b>late</b>' });
      expect(foundry.writes.count('Actor', 'update')).toBe(1);
    });

    it('core cleans before it validates: an empty number is null (non-nullable: the initial), below min clamps', async () => {
      const actor = await makeActor();
      await actor.sheet.render({ force: true });
      await foundry.submitSheet(actor.sheet, { 'system.hp.value': '4' });
      await foundry.submitSheet(actor.sheet, { 'system.hp.max': '-3' });
      expect(actor.system.hp).toMatchObject({ value: 4, max: 1 });
      const form = new g.foundry.applications.ux.FormDataExtended(null);
      expect(form.object).toEqual({});
    });

    it('a value the model refuses is an error notification, nothing written', async () => {
      const actor = await makeActor();
      await actor.sheet.render({ force: true });
      await foundry.submitSheet(actor.sheet, { 'system.mood': 'sleepy' });
      expect(foundry.notifications.at(-1)).toMatchObject({ type: 'error' });
      expect(foundry.notifications.at(-1)!.message).toMatch(/mood/);
      expect(actor.system.mood).toBe('calm');
      expect(foundry.writes.count('Actor', 'update')).toBe(0);
      expect(actor.sheet.rendered).toBe(true);
    });

    it('a refused value stays typed in the form until a render: the next submission sends it again and is refused as a whole (core re-renders nothing on an error)', async () => {
      const actor = await makeActor();
      const sheet = actor.sheet;
      await sheet.render({ force: true });
      await foundry.submitSheet(sheet, { 'system.mood': 'sleepy' });
      await foundry.submitSheet(sheet, { 'system.hp.value': '7' });
      expect(foundry.notifications.filter((n) => n.type === 'error')).toHaveLength(2);
      expect(foundry.notifications.at(-1)!.message).toMatch(/mood/);
      expect(actor.system.hp.value).toBe(10);
      expect(foundry.writes.count('Actor', 'update')).toBe(0);
      // A render replaces the parts: the form holds the stored values again, and the next edit saves.
      await sheet.render();
      await foundry.submitSheet(sheet, { 'system.hp.value': '7' });
      expect(actor.system).toMatchObject({ hp: { value: 7 }, mood: 'calm' });
    });

    it('the error of a refused submission names each failing path with the value it refused (getAllFailures, getFailure)', async () => {
      const actor = await makeActor();
      let caught: any;
      try {
        actor.validate({ changes: { system: { mood: 'sleepy', hp: { max: null } } }, clean: false });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(g.foundry.data.validation.DataModelValidationError);
      const all = caught.getAllFailures();
      expect(Object.keys(all).sort()).toEqual(['system.hp.max', 'system.mood']);
      expect(all['system.mood']).toMatchObject({ invalidValue: 'sleepy' });
      expect(all['system.hp.max']).toMatchObject({ invalidValue: null, message: 'may not be null' });
      expect(caught.getFailure('system.mood')).toBe(all['system.mood']);
      expect(caught.getFailure('system.nothing')).toBeUndefined();
    });

    it('a name the rendered sheet has no control for, a disabled control, an option a select lacks, an unrendered sheet: errors', async () => {
      const actor = await makeActor();
      await expect(foundry.submitSheet(actor.sheet, { name: 'X' })).rejects.toThrow(/not rendered/);
      await actor.sheet.render({ force: true });
      await expect(foundry.submitSheet(actor.sheet, { 'system.ac': '3' })).rejects.toThrow(/no form control named "system.ac"/);
      await expect(foundry.submitSheet(actor.sheet, { 'system.locked': 'y' })).rejects.toThrow(/disabled/);
      await expect(foundry.submitSheet(actor.sheet, { 'system.side': 'elves' })).rejects.toThrow(/no option "elves"/);
      expect(foundry.writes.count('Actor', 'update')).toBe(0);
    });

    it('a non-owner submitting writes nothing (core returns when not editable)', async () => {
      const actor = await makeActor({ ownership: { default: 2 } });
      const theirs = foundry.client(foundry.users.player).game.actors.get(actor.id);
      await foundry.asUser(foundry.users.player, async () => {
        await theirs.sheet.render({ force: true });
        await foundry.submitSheet(theirs.sheet, { name: 'Mine' });
      });
      expect(foundry.writes.count('Actor', 'update')).toBe(0);
    });

    it('submit({updateData}) merges extra data; _prepareSubmitData validates with clean (strings cast)', async () => {
      const actor = await makeActor();
      await actor.sheet.render({ force: true });
      await actor.sheet.submit({ updateData: { 'system.ac': 4 } });
      expect(actor.system.ac).toBe(4);
      const data = actor.sheet._prepareSubmitData({}, null, { object: { 'system.hp.value': '6' } });
      expect(data.system.hp.value).toBe(6);
      expect(() => actor.sheet._prepareSubmitData({}, null, { object: { 'system.side': 'elves' } })).toThrow();
    });
  });

  describe('tabs', () => {
    it('prepares the one group as context.tabs (initial active, labelPrefix labels); the core nav template renders it', async () => {
      const actor = await makeActor();
      const sheet = actor.sheet;
      await sheet.render({ force: true });
      expect(sheet.tabGroups).toEqual({ primary: 'gear' });
      expect(sheet.partContexts.tabs.tabs).toEqual({
        gear: { group: 'primary', id: 'gear', active: true, cssClass: 'active', label: 'TEST.Tab.gear' },
        notes: { group: 'primary', id: 'notes', active: false, cssClass: '', icon: 'fa-solid fa-book', label: 'TEST.Tab.notes' },
      });
      expect(sheet.partHTML.tabs).toMatch(/<nav class="tabs"/);
      expect(sheet.partHTML.tabs).toMatch(/<a class="active" data-action="tab" data-group="primary" data-tab="gear">/);
      expect(sheet.partHTML.gear).toMatch(/class="tab active" data-group="primary" data-tab="gear"/);
      expect(sheet._getTabsConfig('primary')).toBe(Sheet.TABS.primary);
      expect(sheet._getTabsConfig('other')).toBeNull();
    });

    it('the tab action changes the tab; changeTab needs a rendered tab link; the render option tab picks one', async () => {
      const actor = await makeActor();
      const sheet = actor.sheet;
      await sheet.render({ force: true });
      await foundry.clickSheetAction(sheet, 'tab', { tab: 'notes', group: 'primary' });
      expect(sheet.tabGroups.primary).toBe('notes');
      expect(() => sheet.changeTab('nowhere', 'primary')).toThrow(/No matching tab element/);
      expect(() => sheet.changeTab('notes', '')).toThrow(/both the tab and tab group/);
      await sheet.render({ tab: 'gear' });
      expect(sheet.partContexts.gear.tab.active).toBe(true);
      await sheet.render({ tab: { primary: 'notes' } });
      expect(sheet.partContexts.notes.tab.active).toBe(true);
    });
  });

  describe('actions', () => {
    it('clickSheetAction runs the handler with this = the sheet and a target inside its item row', async () => {
      const actor = await makeActor();
      const [sword] = await actor.createEmbeddedDocuments('Item', [{ name: 'Sword', type: 'weapon' }]);
      await actor.sheet.render({ force: true });
      await foundry.clickSheetAction(actor.sheet, 'equip', { kind: 'toggle' });
      expect(actor.items.get(sword.id).system.equipped).toBe(true);
      await expect(foundry.clickSheetAction(actor.sheet, 'equip', { kind: 'other' })).rejects.toThrow(/no \[data-action="equip"\]/);
      await expect(foundry.clickSheetAction(actor.sheet, 'fly')).rejects.toThrow(/no \[data-action="fly"\]/);
    });

    it('an action the sheet shows but has no handler for goes to _onClickAction', async () => {
      const actor = await makeActor();
      await actor.sheet.render({ force: true });
      const seen: string[] = [];
      actor.sheet._onClickAction = (_e: any, target: any) => seen.push(target.dataset.action);
      await foundry.clickSheetAction(actor.sheet, 'rest');
      expect(seen).toEqual(['rest']);
    });
  });

  describe('drag and drop', () => {
    it('toDragData is {type, uuid}; fromDropData resolves it (and data of a new document); another class refuses it', async () => {
      const sword = await g.Item.create({ name: 'Sword', type: 'weapon' });
      expect(sword.toDragData()).toEqual({ type: 'Item', uuid: `Item.${sword.id}` });
      expect(await g.Item.implementation.fromDropData(sword.toDragData())).toBe(sword);
      const loose = await g.Item.fromDropData({ type: 'Item', data: { name: 'Rope', type: 'gear' } });
      expect(loose.name).toBe('Rope');
      expect(loose.id).toBeNull();
      await expect(g.Actor.fromDropData(sword.toDragData())).rejects.toThrow(/Invalid Document type/);
      await expect(g.Item.fromDropData({ type: 'Item' })).rejects.toThrow(/Failed to resolve/);
    });

    it('dropping a world item creates a copy on the actor, keeping its id', async () => {
      const actor = await makeActor();
      const sword = await g.Item.create({ name: 'Sword', type: 'weapon', system: { equipped: true } });
      await actor.sheet.render({ force: true });
      const created = await foundry.dropOnSheet(actor.sheet, sword.toDragData());
      expect((created as any).parent).toBe(actor);
      expect(actor.items.get(sword.id)).toMatchObject({ name: 'Sword', system: { equipped: true } });
      expect(actor.sheet.partHTML.gear).toContain(`data-item-id="${sword.id}"`);
      await foundry.dropOnSheet(actor.sheet, sword.toDragData());
      expect(actor.items.size).toBe(2);
      expect([...actor.items.values()].filter((i: any) => i.id === sword.id)).toHaveLength(1);
    });

    it("dropping the actor's own item sorts it before the row it lands on", async () => {
      const actor = await makeActor();
      const [a, b] = await actor.createEmbeddedDocuments('Item', [
        { name: 'A', type: 'weapon', sort: 100000 },
        { name: 'B', type: 'weapon', sort: 200000 },
      ]);
      await actor.sheet.render({ force: true });
      await foundry.dropOnSheet(actor.sheet, b.toDragData(), { onItemId: a.id });
      expect(actor.items.get(b.id).sort).toBeLessThan(actor.items.get(a.id).sort);
      expect(foundry.writes.count('Item', 'create')).toBe(1);
    });

    it('a subclass may override _onDropItem; a user who does not own the actor drops nothing; bad JSON does nothing', async () => {
      const actor = await makeActor({ ownership: { default: 2 } });
      const sword = await g.Item.create({ name: 'Sword', type: 'weapon', ownership: { default: 2 } });
      const theirs = foundry.client(foundry.users.player).game.actors.get(actor.id);
      await foundry.asUser(foundry.users.player, async () => {
        await theirs.sheet.render({ force: true });
        expect(await foundry.dropOnSheet(theirs.sheet, sword.toDragData())).toBeNull();
      });
      expect(foundry.writes.count('Item', 'create')).toBe(1);
      const refused: string[] = [];
      actor.sheet._onDropItem = async (_e: any, item: any) => void refused.push(item.name);
      await actor.sheet.render({ force: true });
      await foundry.dropOnSheet(actor.sheet, sword.toDragData());
      expect(refused).toEqual(['Sword']);
      expect(actor.items.size).toBe(0);
      expect(await foundry.dropOnSheet(actor.sheet, 'not json {')).toBeUndefined();
    });
  });

  describe('Handlebars helpers', () => {
    const render = (data: any) => g.foundry.applications.handlebars.renderTemplate(`${T}/helpers.hbs`, data);
    it('selectOptions (record, array, objects; selected, localize, blank, valueAttr/labelAttr, sort), numberFormat, checked, disabled', async () => {
      foundry.loadLang({ TEST: { Fire: 'Fire', Ice: 'Ice' } });
      const html = await render({
        choices: { fire: 'TEST.Fire', ice: 'TEST.Ice' },
        sel: 'ice',
        blank: '',
        list: ['zero', 'one', 'two'],
        objs: [
          { key: 'z', name: 'Zed' },
          { key: 'a', name: 'Ay' },
        ],
        selObj: 'z',
        n: 2,
        dps: 0,
        sign: true,
        on: true,
        off: false,
      });
      expect(html).toContain('<select name="a"><option value=""></option><option value="fire">Fire</option><option value="ice" selected>Ice</option></select>');
      expect(html).toContain('<select name="b"><option value="0">zero</option><option value="1">one</option><option value="2" selected>two</option></select>');
      expect(html).toContain('<select name="c"><option value="a">Ay</option><option value="z" selected>Zed</option></select>');
      expect(html).toContain('<span class="n">+2</span>');
      expect(html).toContain('<input type="checkbox" checked><input >');
      const neg = await render({ choices: {}, list: [], objs: [], n: '-1.256', dps: 2, sign: true, on: false, off: true });
      expect(neg).toContain('<span class="n">-1.26</span>');
      expect(neg).toContain('<input type="checkbox" ><input disabled>');
    });

    it('an unknown helper still fails the render', async () => {
      await expect(g.foundry.applications.handlebars.renderTemplate(`${T}/unknown-helper.hbs`, {})).rejects.toThrow(/Missing helper: "?numberFormatt/);
    });
  });

  describe('prototype token', () => {
    it("a new actor's prototype token: bar1 the system's primary attribute, the actor's name and image, core's size and display", async () => {
      const actor = await makeActor({ img: 'icons/hero.webp' });
      expect(actor.prototypeToken).toMatchObject({ name: 'Halvaine', actorLink: false, disposition: -1, bar1: { attribute: 'hp' }, bar2: { attribute: null }, width: 1, height: 1, displayBars: 0, texture: { src: 'icons/hero.webp' }, sight: { enabled: false } });
      const explicit = await makeActor({ prototypeToken: { bar1: { attribute: 'ac' }, name: 'Hal' } });
      expect(explicit.prototypeToken.bar1.attribute).toBe('ac');
      expect(explicit.prototypeToken.name).toBe('Hal');
      expect(foundry.server.source(explicit.uuid).prototypeToken.bar1.attribute).toBe('ac');
    });

    it("the world's core.defaultToken gives bars (and other keys) before the system's attribute", async () => {
      await g.game.settings.set('core', 'defaultToken', { bar1: { attribute: 'ac' }, displayBars: 40 });
      const actor = await makeActor();
      expect(actor.prototypeToken).toMatchObject({ bar1: { attribute: 'ac' }, displayBars: 40 });
    });

    it('getTrackedAttributes reads the data models (value+max a bar, numbers values), or CONFIG.Actor.trackableAttributes when set', () => {
      const fromSchema = g.TokenDocument.getTrackedAttributes('character');
      expect(fromSchema.bar).toEqual([['hp']]);
      expect(fromSchema.value).toEqual(expect.arrayContaining([['ac'], ['rank']]));
      expect(fromSchema.value).not.toContainEqual(['hp', 'value']);
      g.CONFIG.Actor.trackableAttributes = { character: { bar: ['hp'], value: ['ac'] }, monster: { bar: ['morale'], value: [] } };
      expect(g.TokenDocument.getTrackedAttributes('character')).toEqual({ bar: [['hp']], value: [['ac']] });
      expect(g.TokenDocument.getTrackedAttributes()).toEqual({ bar: [['hp'], ['morale']], value: [['ac']] });
      expect(g.TokenDocument.getTrackedAttributes({ hp: { value: 3, max: 5 }, speed: 9 })).toEqual({ bar: [['hp']], value: [['speed']] });
    });
  });
});
