/**
 * The stand-in enforces what Foundry enforces for documents: dotted-key
 * updates merge, only changed keys reach the update hooks, the deletion
 * operator of the generation, hook order and cancellation, permission refusal
 * without change, invalid data refused without change, one write per batch.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

/** A small system data model for "character" actors. */
function registerCharacterModel() {
  const { fields } = g.foundry.data;
  class CharacterData extends g.foundry.abstract.TypeDataModel {
    static defineSchema() {
      return {
        hp: new fields.SchemaField({
          value: new fields.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 10 }),
          max: new fields.NumberField({ required: true, nullable: false, integer: true, min: 1, initial: 10 }),
        }),
        side: new fields.StringField({ required: true, choices: ['party', 'monsters'], initial: 'party' }),
        notes: new fields.TypedObjectField(new fields.StringField()),
      };
    }
    static migrateData(source: any) {
      if (typeof source.hitPoints === 'number') source.hp = { value: source.hitPoints, max: source.hitPoints };
      return source;
    }
    prepareDerivedData() {
      this.hp.bloodied = this.hp.value <= this.hp.max / 2;
    }
  }
  g.CONFIG.Actor.dataModels.character = CharacterData;
  class WeaponData extends g.foundry.abstract.TypeDataModel {
    static defineSchema() {
      return { speed: new fields.NumberField({ required: true, nullable: false, integer: true, initial: 5 }) };
    }
  }
  g.CONFIG.Item.dataModels.weapon = WeaponData;
}

describe.each([13, 14] as const)('documents, generation %i', (generation) => {
  let foundry: FoundryHandle;
  beforeEach(() => {
    foundry = installFoundry({ generation });
    foundry.everyClient(registerCharacterModel);
  });

  const makeActor = (extra: any = {}) => g.Actor.create({ name: 'Halvaine', type: 'character', ...extra });

  it('creates a document with schema defaults and system data from its type model', async () => {
    const actor = await makeActor();
    expect(actor.id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(g.game.actors.get(actor.id)).toBe(actor);
    expect(actor.system.hp).toMatchObject({ value: 10, max: 10 });
    expect(actor.system.side).toBe('party');
    expect(foundry.writes.count('Actor', 'create')).toBe(1);
  });

  it('runs migrateData on creation data', async () => {
    const actor = await makeActor({ system: { hitPoints: 7 } });
    expect(actor.system.hp).toMatchObject({ value: 7, max: 7 });
  });

  it('an unknown type is refused: an error notification, nothing created', async () => {
    const created = await g.Actor.create({ name: 'X', type: 'dragon' });
    expect(created).toBeUndefined();
    expect(g.game.actors.size).toBe(0);
    expect(foundry.notifications.at(-1)).toMatchObject({ type: 'error' });
    expect(foundry.writes.count()).toBe(0);
  });

  it('a dotted-key update merges into nested data without touching siblings', async () => {
    const actor = await makeActor();
    await actor.update({ 'system.hp.value': 4 });
    expect(actor.system.hp.value).toBe(4);
    expect(actor.system.hp.max).toBe(10);
    expect(actor._source.system.hp).toEqual({ value: 4, max: 10 });
  });

  it('derived data is recomputed and never stored', async () => {
    const actor = await makeActor();
    expect(actor.system.hp.bloodied).toBe(false);
    await actor.update({ 'system.hp.value': 5 });
    expect(actor.system.hp.bloodied).toBe(true);
    expect(actor._source.system.hp).not.toHaveProperty('bloodied');
  });

  it('the update hook receives only the changed keys; the pre-update hook the requested change', async () => {
    const actor = await makeActor();
    const seen: any = {};
    g.Hooks.on('preUpdateActor', (_doc: any, changes: any) => (seen.pre = structuredClone(changes)));
    g.Hooks.on('updateActor', (_doc: any, changed: any) => (seen.post = changed));
    await actor.update({ name: 'Halvaine', 'system.hp.value': 3, 'system.hp.max': 10 });
    expect(seen.pre.system.hp).toEqual({ value: 3, max: 10 });
    expect(seen.post.system).toEqual({ hp: { value: 3 } });
    expect(seen.post).not.toHaveProperty('name');
    expect(seen.post._id).toBe(actor.id);
  });

  it('an update that changes nothing writes nothing and fires no update hook', async () => {
    const actor = await makeActor();
    let fired = 0;
    g.Hooks.on('updateActor', () => fired++);
    const result = await actor.update({ 'system.hp.value': 10 });
    expect(result).toBeUndefined();
    expect(fired).toBe(0);
    expect(foundry.writes.count('Actor', 'update')).toBe(0);
  });

  it('invalid values fail the update with an error and nothing changes', async () => {
    const actor = await makeActor();
    await actor.update({ 'system.side': 'dragons' });
    expect(actor.system.side).toBe('party');
    expect(foundry.notifications.at(-1)?.type).toBe('error');
    expect(foundry.notifications.at(-1)?.message).toContain('system.side');
    expect(foundry.writes.count('Actor', 'update')).toBe(0);
  });

  it('NumberField cleaning clamps to min and rounds integers, as core does', async () => {
    const actor = await makeActor();
    await actor.update({ 'system.hp.value': -3 });
    expect(actor.system.hp.value).toBe(0);
    await actor.update({ 'system.hp.value': 2.6 });
    expect(actor.system.hp.value).toBe(3);
  });

  it('a non-numeric value for a number field is refused', async () => {
    const actor = await makeActor();
    await actor.update({ 'system.hp.max': 'lots' });
    expect(actor.system.hp.max).toBe(10);
    expect(foundry.notifications.at(-1)?.message).toContain('system.hp.max');
  });

  it(`deletes a key with the generation's deletion operator`, async () => {
    const actor = await makeActor({ system: { notes: { a: 'first', b: 'second' } } });
    let changed: any;
    g.Hooks.on('updateActor', (_d: any, c: any) => (changed = c));
    if (generation === 13) {
      expect(g._del).toBeUndefined();
      await actor.update({ 'system.notes.-=a': null });
      expect(changed.system.notes).toEqual({ '-=a': null });
    } else {
      expect(g._del).toBeInstanceOf(g.foundry.data.operators.ForcedDeletion);
      await actor.update({ 'system.notes.a': g._del });
      expect(changed.system.notes.a).toBeInstanceOf(g.foundry.data.operators.ForcedDeletion);
    }
    expect(actor.system.notes).toEqual({ b: 'second' });
    expect(foundry.deprecations).toEqual([]);
  });

  if (generation === 14) {
    it('v14 still reads the legacy "-=" key, with a deprecation warning', async () => {
      const actor = await makeActor({ system: { notes: { a: 'first' } } });
      await actor.update({ 'system.notes.-=a': null });
      expect(actor.system.notes).toEqual({});
      expect(foundry.deprecations.length).toBe(1);
    });
  } else {
    it('v13 refuses a "-=" key whose value is not null: an error notification, nothing changes', async () => {
      const actor = await makeActor({ system: { notes: { a: 'first' } } });
      expect(await actor.update({ 'system.notes.-=a': true })).toBeUndefined();
      expect(foundry.notifications.at(-1)?.message).toMatch(/-= deletion syntax/);
      expect(actor.system.notes).toEqual({ a: 'first' });
    });
  }

  it('flags: setFlag merges, unsetFlag deletes, an unknown scope throws', async () => {
    const actor = await makeActor();
    await actor.setFlag('ten-segments', 'surprise', 2);
    await actor.setFlag('ten-segments', 'side', 'party');
    expect(actor.getFlag('ten-segments', 'surprise')).toBe(2);
    await actor.unsetFlag('ten-segments', 'surprise');
    expect(actor.flags['ten-segments']).toEqual({ side: 'party' });
    expect(() => actor.getFlag('some-module', 'x')).toThrow(/not valid/);
  });

  it('fires callbacks and hooks in core order, with options and userId passed through', async () => {
    const order: string[] = [];
    class Tracked extends g.Actor {
      async _preCreate(...args: any[]) {
        order.push('_preCreate');
        return super._preCreate(...args);
      }
      _onCreate(...args: any[]) {
        order.push('_onCreate');
        super._onCreate(...args);
      }
      async _preUpdate(...args: any[]) {
        order.push('_preUpdate');
        return super._preUpdate(...args);
      }
      _onUpdate(...args: any[]) {
        order.push('_onUpdate');
        super._onUpdate(...args);
      }
      async _preDelete(...args: any[]) {
        order.push('_preDelete');
        return super._preDelete(...args);
      }
      _onDelete(...args: any[]) {
        order.push('_onDelete');
        super._onDelete(...args);
      }
    }
    g.CONFIG.Actor.documentClass = Tracked;
    const options: any[] = [];
    for (const h of ['preCreateActor', 'createActor', 'preUpdateActor', 'updateActor', 'preDeleteActor', 'deleteActor']) {
      g.Hooks.on(h, (...args: any[]) => {
        order.push(h);
        options.push({ hook: h, opts: args.at(-2), userId: args.at(-1) });
      });
    }
    const actor = await makeActor();
    expect(actor).toBeInstanceOf(Tracked);
    await actor.update({ 'system.hp.value': 1 }, { tensegReason: 'hit' });
    await actor.delete();
    expect(order).toEqual(['_preCreate', 'preCreateActor', '_onCreate', 'createActor', '_preUpdate', 'preUpdateActor', '_onUpdate', 'updateActor', '_preDelete', 'preDeleteActor', '_onDelete', 'deleteActor']);
    const upd = options.filter((o) => o.hook.endsWith('UpdateActor'));
    expect(upd.every((o) => o.opts.tensegReason === 'hit' && o.userId === foundry.users.gm.id)).toBe(true);
  });

  it('a pre hook returning false cancels with no write and no post hook', async () => {
    const actor = await makeActor();
    let posted = false;
    g.Hooks.on('preUpdateActor', () => false);
    g.Hooks.on('updateActor', () => (posted = true));
    const result = await actor.update({ 'system.hp.value': 2 });
    expect(result).toBeUndefined();
    expect(actor.system.hp.value).toBe(10);
    expect(posted).toBe(false);
    expect(foundry.writes.count('Actor', 'update')).toBe(0);
  });

  it('a _preCreate returning false cancels the creation', async () => {
    class Refuser extends g.Actor {
      async _preCreate() {
        return false;
      }
    }
    g.CONFIG.Actor.documentClass = Refuser;
    expect(await makeActor()).toBeUndefined();
    expect(g.game.actors.size).toBe(0);
    expect(foundry.writes.count()).toBe(0);
  });

  it('a hook callback that throws is caught and recorded; the others still run', async () => {
    let ran = false;
    g.Hooks.on('createActor', () => {
      throw new Error('boom');
    });
    g.Hooks.on('createActor', () => (ran = true));
    await makeActor();
    expect(ran).toBe(true);
    expect(foundry.errors.map((e) => e.error.message)).toContain('boom');
  });

  it('a player without permission gets an error and nothing changes', async () => {
    const actor = await makeActor();
    const preHook: string[] = [];
    foundry.everyClient(() => g.Hooks.on('preUpdateActor', () => preHook.push(g.game.user.name)));
    await expect(foundry.asUser(foundry.users.player, () => actor.update({ 'system.hp.value': 1 }))).rejects.toThrow(/lacks permission to update Actor/);
    expect(actor.system.hp.value).toBe(10);
    expect(preHook).toEqual(['Player 1']); // pre-update runs on the player's client (only) before the server refuses
    expect(foundry.writes.count('Actor', 'update')).toBe(0);
  });

  it('ownership decides: an owner player may update, isOwner and testUserPermission follow the levels', async () => {
    const { OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    const actor = await makeActor({ ownership: { default: OBSERVER, [foundry.users.player.id]: OWNER } });
    expect(actor.testUserPermission(foundry.users.player2, 'OBSERVER')).toBe(true);
    expect(actor.testUserPermission(foundry.users.player2, 'OWNER')).toBe(false);
    expect(await foundry.asUser(foundry.users.player, () => actor.isOwner)).toBe(true);
    expect(await foundry.asUser(foundry.users.player2, () => actor.isOwner)).toBe(false);
    await foundry.asUser(foundry.users.player, () => actor.update({ 'system.hp.value': 6 }));
    expect(actor.system.hp.value).toBe(6);
    expect(foundry.writes.all().at(-1)).toMatchObject({ documentName: 'Actor', action: 'update', userId: foundry.users.player.id });
    // Actor delete is core's default "ASSISTANT": a role, tested by the role only (v13), so not even the owner may
    await expect(foundry.asUser(foundry.users.player2, () => actor.delete())).rejects.toThrow(/lacks permission to delete/);
    await expect(foundry.asUser(foundry.users.player, () => actor.delete())).rejects.toThrow(/lacks permission to delete/);
    await actor.delete();
    expect(g.game.actors.has(actor.id)).toBe(false);
  });

  it('a player may not create world actors (ACTOR_CREATE is an assistant permission)', async () => {
    await expect(foundry.asUser(foundry.users.player, () => makeActor())).rejects.toThrow(/lacks permission to create Actor/);
    expect(g.game.actors.size).toBe(0);
  });

  it('embedded items: create, update, delete through the parent, one write per batch', async () => {
    const actor = await makeActor();
    const [a, b] = await actor.createEmbeddedDocuments('Item', [
      { name: 'Sword', type: 'weapon' },
      { name: 'Bow', type: 'weapon' },
    ]);
    expect(actor.items.size).toBe(2);
    expect(a.parent).toBe(actor);
    expect(actor.getEmbeddedDocument('Item', a.id)).toBe(a);
    expect(a.uuid).toBe(`Actor.${actor.id}.Item.${a.id}`);
    await actor.updateEmbeddedDocuments('Item', [
      { _id: a.id, 'system.speed': 3 },
      { _id: b.id, 'system.speed': 8 },
    ]);
    expect(actor.items.get(a.id).system.speed).toBe(3);
    expect(actor.items.map((i: any) => i.system.speed).sort()).toEqual([3, 8]);
    await actor.deleteEmbeddedDocuments('Item', [a.id]);
    expect(actor.items.size).toBe(1);
    expect(foundry.writes.all().map((w) => [w.documentName, w.action, w.count])).toEqual([
      ['Actor', 'create', 1],
      ['Item', 'create', 2],
      ['Item', 'update', 2],
      ['Item', 'delete', 1],
    ]);
    expect(actor.toObject().items).toHaveLength(1);
  });

  it('updateDocuments batches several documents into one write', async () => {
    const [x, y] = await g.Actor.create([
      { name: 'X', type: 'character' },
      { name: 'Y', type: 'character' },
    ]);
    foundry.writes.clear();
    await g.Actor.updateDocuments([
      { _id: x.id, 'system.hp.value': 1 },
      { _id: y.id, 'system.hp.value': 2 },
    ]);
    expect(foundry.writes.count()).toBe(1);
    expect(foundry.writes.all()[0]).toMatchObject({ documentName: 'Actor', action: 'update', count: 2 });
  });

  it('an embedded item update re-prepares the parent actor', async () => {
    class Counting extends g.Actor {
      prepareDerivedData() {
        this.totalSpeed = this.items.reduce((t: number, i: any) => t + i.system.speed, 0);
      }
    }
    g.CONFIG.Actor.documentClass = Counting;
    const actor = await makeActor();
    const [item] = await actor.createEmbeddedDocuments('Item', [{ name: 'Sword', type: 'weapon' }]);
    expect(actor.totalSpeed).toBe(5);
    await item.update({ 'system.speed': 2 });
    expect(actor.totalSpeed).toBe(2);
  });

  it('options must survive the socket: non-serializable options are refused', async () => {
    const actor = await makeActor();
    const circular: any = {};
    circular.self = circular;
    await expect(actor.update({ name: 'Y' }, { circular })).rejects.toThrow(/JSON-serializable/);
  });
});
