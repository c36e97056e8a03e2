/**
 * game.settings, game.i18n, Hooks, User#query and the generation switch, as
 * the system's Foundry layer will use them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe.each([13, 14] as const)('game, generation %i', (generation) => {
  let foundry: FoundryHandle;
  beforeEach(() => {
    foundry = installFoundry({ generation, lang: { TENSEG: { Phase: { surprise: 'Surprise' }, Error: { BadOption: 'Option {option} is not valid' } } } });
  });

  it('reports its generation where code looks for it', () => {
    expect(g.game.release.generation).toBe(generation);
    expect(foundry.generation).toBe(generation);
  });

  describe('settings', () => {
    beforeEach(() => {
      foundry.everyClient(() => {
        g.game.settings.register('ten-segments', 'procedure', { scope: 'world', config: true, type: String, default: 'segment-d6', choices: { 'segment-d6': 'A', 'high-low': 'B' } });
        g.game.settings.register('ten-segments', 'showTimeline', { scope: 'client', config: true, type: Boolean, default: true });
        g.game.settings.register('ten-segments', 'segments', { scope: 'world', type: Number, default: 10, range: { min: 1, max: 20, step: 1 } });
      });
    });

    it('get returns the default, set stores, the setting config is kept', async () => {
      expect(g.game.settings.get('ten-segments', 'procedure')).toBe('segment-d6');
      await g.game.settings.set('ten-segments', 'procedure', 'high-low');
      expect(g.game.settings.get('ten-segments', 'procedure')).toBe('high-low');
      expect(g.game.settings.settings.get('ten-segments.procedure')).toMatchObject({ scope: 'world', config: true });
    });

    it('an unregistered setting throws', () => {
      expect(() => g.game.settings.get('ten-segments', 'nope')).toThrow(/not a registered game setting/);
    });

    it('values are checked against type, choices and range; a refused value changes nothing', async () => {
      await expect(g.game.settings.set('ten-segments', 'procedure', 'chaos')).rejects.toThrow(/not a valid choice/);
      await expect(g.game.settings.set('ten-segments', 'showTimeline', 'yes')).rejects.toThrow(/boolean/);
      await expect(g.game.settings.set('ten-segments', 'segments', 30)).rejects.toThrow(/between/);
      expect(g.game.settings.get('ten-segments', 'procedure')).toBe('segment-d6');
      expect(foundry.writes.count('Setting')).toBe(0);
    });

    it('only a GM may set a world setting; a client setting belongs to each user', async () => {
      await expect(foundry.asUser(foundry.users.player, () => g.game.settings.set('ten-segments', 'procedure', 'high-low'))).rejects.toThrow(/lacks permission/);
      expect(g.game.settings.get('ten-segments', 'procedure')).toBe('segment-d6');
      await foundry.asUser(foundry.users.player, () => g.game.settings.set('ten-segments', 'showTimeline', false));
      expect(await foundry.asUser(foundry.users.player, () => g.game.settings.get('ten-segments', 'showTimeline'))).toBe(false);
      expect(g.game.settings.get('ten-segments', 'showTimeline')).toBe(true);
      await g.game.settings.set('ten-segments', 'procedure', 'high-low');
      expect(await foundry.asUser(foundry.users.player, () => g.game.settings.get('ten-segments', 'procedure'))).toBe('high-low');
      expect(foundry.writes.count('Setting')).toBe(1);
    });

    it('onChange fires with the new value when it changes, not when it stays', async () => {
      const seen: unknown[] = [];
      g.game.settings.register('ten-segments', 'watched', { scope: 'world', type: Number, default: 1, onChange: (v: unknown) => seen.push(v) });
      await g.game.settings.set('ten-segments', 'watched', 2);
      await g.game.settings.set('ten-segments', 'watched', 2);
      expect(seen).toEqual([2]);
    });

    it('a DataField type cleans and validates', async () => {
      const { fields } = g.foundry.data;
      g.game.settings.register('ten-segments', 'options', {
        scope: 'world',
        type: new fields.SchemaField({ surpriseDie: new fields.NumberField({ integer: true, min: 4, max: 12, nullable: false, initial: 6 }) }),
        default: { surpriseDie: 6 },
      });
      await expect(g.game.settings.set('ten-segments', 'options', { surpriseDie: 'x' })).rejects.toThrow(/surpriseDie/);
      await g.game.settings.set('ten-segments', 'options', { surpriseDie: 20 });
      expect(g.game.settings.get('ten-segments', 'options')).toEqual({ surpriseDie: 12 });
    });

    it(`the roll/message mode setting is core.${generation === 13 ? 'rollMode' : 'messageMode'}`, () => {
      if (generation === 13) {
        expect(g.game.settings.get('core', 'rollMode')).toBe('publicroll');
        expect(() => g.game.settings.get('core', 'messageMode')).toThrow();
      } else {
        expect(g.game.settings.get('core', 'messageMode')).toBe('public');
        expect(() => g.game.settings.get('core', 'rollMode')).toThrow();
      }
    });
  });

  describe('i18n', () => {
    it('localize finds a key, a missing key returns the key', () => {
      expect(g.game.i18n.localize('TENSEG.Phase.surprise')).toBe('Surprise');
      expect(g.game.i18n.localize('TENSEG.Phase.nothing')).toBe('TENSEG.Phase.nothing');
      expect(g.game.i18n.has('TENSEG.Phase.surprise')).toBe(true);
    });
    it('format fills placeholders', () => {
      expect(g.game.i18n.format('TENSEG.Error.BadOption', { option: 'castingTime' })).toBe('Option castingTime is not valid');
    });
    it('notifications with localize are recorded localized', () => {
      g.ui.notifications.warn('TENSEG.Phase.surprise', { localize: true });
      expect(foundry.notifications.at(-1)).toEqual({ type: 'warn', message: 'Surprise' });
    });
  });

  describe('Hooks', () => {
    it('on returns an id usable with off; once runs once', () => {
      const seen: string[] = [];
      const id = g.Hooks.on('tensegTest', () => seen.push('on'));
      g.Hooks.once('tensegTest', () => seen.push('once'));
      expect(typeof id).toBe('number');
      g.Hooks.callAll('tensegTest');
      g.Hooks.off('tensegTest', id);
      g.Hooks.callAll('tensegTest');
      expect(seen).toEqual(['on', 'once']);
    });
    it('call stops at the first false and returns false', () => {
      const seen: number[] = [];
      g.Hooks.on('tensegPre', () => seen.push(1));
      g.Hooks.on('tensegPre', () => false);
      g.Hooks.on('tensegPre', () => seen.push(3));
      expect(g.Hooks.call('tensegPre')).toBe(false);
      expect(seen).toEqual([1]);
    });
  });

  describe('queries', () => {
    it('run the registered handler on the queried user’s client, with JSON data', async () => {
      foundry.everyClient(() => {
        g.CONFIG.queries['ten-segments.applyDamage'] = async (data: any, context: any) => ({ by: g.game.user.name, isGM: g.game.user.isGM, data, context });
      });
      const gm = g.game.users.activeGM;
      const result: any = await foundry.asUser(foundry.users.player, () => gm.query('ten-segments.applyDamage', { amount: 3, when: new Date(0) }, { timeout: 1000 }));
      // The handler gets (data, {timeout}): never the sender
      expect(result).toEqual({ by: 'Gamemaster', isGM: true, data: { amount: 3, when: '1970-01-01T00:00:00.000Z' }, context: { timeout: 1000 } });
      expect(g.game.user).toBe(foundry.users.gm);
    });
    it('an unregistered query or an inactive user is refused', async () => {
      await expect(foundry.users.gm.query('ten-segments.nope', {})).rejects.toThrow(/not registered/);
      g.CONFIG.queries['ten-segments.ping'] = () => 'pong';
      foundry.users.setActive(foundry.users.player2, false);
      await expect(foundry.users.player2.query('ten-segments.ping', {})).rejects.toThrow(/not active/);
    });
    it('a handler error comes back as an Error; a slow handler times out', async () => {
      g.CONFIG.queries['ten-segments.fail'] = () => {
        throw new Error('no such combatant');
      };
      g.CONFIG.queries['ten-segments.slow'] = () => new Promise((r) => setTimeout(() => r('late'), 200));
      await expect(foundry.users.gm.query('ten-segments.fail', {})).rejects.toThrow('no such combatant');
      await expect(foundry.users.gm.query('ten-segments.slow', {}, { timeout: 20 })).rejects.toThrow(/timed out/);
    });
    it('the handler’s documents changes are made as the queried GM', async () => {
      foundry.everyClient(() => {
        g.CONFIG.queries['ten-segments.create'] = async (data: any) => (await g.Actor.create({ name: data.name, type: 'base' })).id;
      });
      const id: any = await foundry.asUser(foundry.users.player, () => foundry.users.gm.query('ten-segments.create', { name: 'Orc' }));
      expect(g.game.actors.get(id).name).toBe('Orc');
      expect(foundry.writes.all().at(-1)?.userId).toBe(foundry.users.gm.id);
    });
  });

  it('reset gives a fresh world', async () => {
    await g.Actor.create({ name: 'X', type: 'base' });
    g.Hooks.on('createActor', () => undefined);
    foundry.reset();
    expect(g.game.actors.size).toBe(0);
    expect(g.Hooks.events.createActor ?? []).toHaveLength(0);
    expect(foundry.writes.count()).toBe(0);
    expect(g.game.users.size).toBe(3);
  });

  it('renders.onRender reports each render request of an application', async () => {
    const seen: string[] = [];
    const stop = foundry.renders.onRender((r) => seen.push(r.app));
    await g.ui.combat.render();
    stop();
    await g.ui.combat.render();
    expect(seen).toEqual(['combat']);
    expect(foundry.renders.count('combat')).toBe(2);
  });
});

describe('generation switch', () => {
  it('a system class defined once keeps working when the generation changes', async () => {
    installFoundry({ generation: 13 });
    class TensegActor extends g.Actor {
      get tensegLabel() {
        return `${this.name} (${g.game.release.generation})`;
      }
    }
    for (const generation of [13, 14] as const) {
      installFoundry({ generation });
      g.CONFIG.Actor.documentClass = TensegActor;
      const actor = await g.Actor.create({ name: 'Orc', type: 'base' });
      expect(actor).toBeInstanceOf(TensegActor);
      expect(actor.tensegLabel).toBe(`Orc (${generation})`);
      expect(typeof g._del).toBe(generation === 14 ? 'object' : 'undefined');
    }
  });
});


describe.each([13, 14] as const)('game.keybindings, generation %i', (generation) => {
  let foundry: FoundryHandle;
  beforeEach(() => {
    foundry = installFoundry({ generation });
  });

  it('takes actions until the init hook is over, with core\'s defaults; refuses a bad one; then refuses any', async () => {
    const { SHIFT } = g.foundry.helpers.interaction.KeyboardManager.MODIFIER_KEYS;
    expect(SHIFT).toBe('Shift');
    const pressed: string[] = [];
    foundry.everyClient(() => {
      g.game.keybindings.register('ten-segments', 'go', { name: 'Go', editable: [{ key: 'KeyG', modifiers: [SHIFT] }], restricted: true, onDown: () => (pressed.push(g.game.user.name), true) });
      g.game.keybindings.register('ten-segments', 'look', { name: 'Look', onDown: () => (pressed.push(`look:${g.game.user.name}`), false) });
    });
    expect(g.game.keybindings.actions.get('ten-segments.go')).toMatchObject({ namespace: 'ten-segments', name: 'Go', repeat: false, uneditable: [], editable: [{ key: 'KeyG', modifiers: ['Shift'] }], reservedModifiers: [], order: 0 });
    expect(() => g.game.keybindings.register('ten-segments', 'bad', { name: 'Bad', editable: [{ key: 'KeyB', modifiers: ['Hyper'] }] })).toThrow(/not a modifier key/);
    expect(() => g.game.keybindings.register('', 'bad', { name: 'Bad' })).toThrow(/namespace and action/);
    expect(() => g.game.keybindings.register('ten-segments', 'bad', {})).toThrow(/needs a name/);
    // A restricted action runs for a GM only; a handler that returns false does not consume the press.
    expect(await foundry.pressKey(foundry.users.player, 'ten-segments.go')).toBe(false);
    expect(await foundry.pressKey(foundry.users.gm, 'ten-segments.go')).toBe(true);
    expect(await foundry.pressKey(foundry.users.player, 'ten-segments.look')).toBe(false);
    expect(pressed).toEqual(['Gamemaster', 'look:Player 1']);
    await expect(foundry.pressKey(foundry.users.gm, 'ten-segments.nothing')).rejects.toThrow(/not a registered keybinding action/);
    await foundry.boot();
    expect(() => g.game.keybindings.register('ten-segments', 'late', { name: 'Late' })).toThrow('You cannot register a Keybinding after the init hook');
  });
});
