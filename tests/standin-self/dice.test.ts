/** Roll with scripted results, and chat messages in the generation's roll/message mode. */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe.each([13, 14] as const)('Roll, generation %i', (generation) => {
  let foundry: FoundryHandle;
  beforeEach(() => {
    foundry = installFoundry({ generation });
  });

  it('takes die results from the scripted queue, in order', async () => {
    foundry.dice.push(3, 5, 6);
    const roll = await new g.Roll('2d6 + 1d8 - 2').evaluate();
    expect(roll.total).toBe(3 + 5 + 6 - 2);
    expect(roll.dice.map((d: any) => d.results.map((r: any) => r.result))).toEqual([[3, 5], [6]]);
    expect(roll.formula).toBe('2d6 + 1d8 - 2');
    expect(foundry.dice.remaining).toEqual([]);
  });

  it('is undefined before evaluation and cannot be evaluated twice', async () => {
    const roll = new g.Roll('d6');
    expect(roll.total).toBeUndefined();
    expect(roll.formula).toBe('1d6');
    await roll.evaluate();
    await expect(roll.evaluate()).rejects.toThrow(/already been evaluated/);
  });

  it('rejects a scripted result the die cannot show', async () => {
    foundry.dice.push(7);
    await expect(new g.Roll('1d6').evaluate()).rejects.toThrow(/impossible on a d6/);
  });

  it('falls back to the seeded generator, or refuses when scripting is required', async () => {
    const roll = await new g.Roll('3d6').evaluate();
    expect(roll.total).toBeGreaterThanOrEqual(3);
    expect(roll.total).toBeLessThanOrEqual(18);
    foundry.dice.requireScripted = true;
    await expect(new g.Roll('1d6').evaluate()).rejects.toThrow(/No scripted result/);
  });

  it('replaces @data paths; a missing path cannot be evaluated', async () => {
    foundry.dice.push(4);
    const roll = await new g.Roll('1d12 + @abilities.dex.mod', { abilities: { dex: { mod: -1 } } }).evaluate();
    expect(roll.total).toBe(3);
    await expect(new g.Roll('1d12 + @nothing', {}).evaluate()).rejects.toThrow(/Unresolved StringTerm @nothing/);
  });

  it('toMessage creates a chat message carrying the roll', async () => {
    foundry.dice.push(2);
    const msg = await new g.Roll('1d6').toMessage({ flavor: 'Surprise', flags: { 'ten-segments': { side: 'party' } } });
    expect(msg.rolls[0].total).toBe(2);
    expect(msg.content).toBe('2');
    expect(msg.author).toBe(foundry.users.gm);
    expect(msg.getFlag('ten-segments', 'side')).toBe('party');
    expect(foundry.writes.count('ChatMessage', 'create')).toBe(1);
  });

  it('a GM-only roll is whispered to the GMs, using the generation’s mode names', async () => {
    const gmMode = generation === 13 ? 'gmroll' : 'gm';
    const key = generation === 13 ? 'rollMode' : 'messageMode';
    const msg = await new g.Roll('1d6').toMessage({}, { [key]: gmMode });
    expect(msg.whisper).toEqual([foundry.users.gm.id]);
    const other = generation === 13 ? 'gm' : 'gmroll';
    await expect(new g.Roll('1d6').toMessage({}, { [key]: other })).rejects.toThrow(/not a valid/);
  });

  it('a roll message can be updated, and its rolls stay Roll instances', async () => {
    foundry.dice.push(4);
    const msg = await new g.Roll('1d6').toMessage({ flavor: 'Hit' });
    await msg.update({ flavor: 'Miss' });
    expect(msg.flavor).toBe('Miss');
    expect(msg.rolls[0]).toBeInstanceOf(g.Roll);
    expect(msg.rolls[0].total).toBe(4);
    expect(foundry.errors).toEqual([]);
  });

  it('"roll" as the roll mode is the user’s current mode, in toMessage and as a creation option', async () => {
    const key = generation === 13 ? 'rollMode' : 'messageMode';
    await g.game.settings.set('core', key, generation === 13 ? 'selfroll' : 'self');
    const rolled = await new g.Roll('1d6').toMessage({}, { rollMode: 'roll' });
    expect(rolled.whisper).toEqual([foundry.users.gm.id]);
    const created = await g.ChatMessage.create({ content: 'x' }, { rollMode: 'roll' });
    expect(created.whisper).toEqual([foundry.users.gm.id]);
  });

  it(`${generation === 13 ? 'ChatMessage.applyRollMode exists and no applyMode' : 'neither applyMode nor applyRollMode; CONFIG.ChatMessage.modes with labels and icons, no handler'} (Conformance: v14 message modes)`, () => {
    if (generation === 13) {
      expect(typeof g.ChatMessage.applyRollMode).toBe('function');
      expect(g.ChatMessage.applyMode).toBeUndefined();
      expect(g.ChatMessage.applyRollMode({}, 'blindroll')).toMatchObject({ blind: true, whisper: [foundry.users.gm.id] });
    } else {
      expect(g.ChatMessage.applyMode).toBeUndefined();
      expect(g.ChatMessage.applyRollMode).toBeUndefined();
      expect(g.ChatMessage.prototype.applyMode).toBeUndefined();
      expect(g.CONFIG.ChatMessage.modes.gm).toEqual({ label: 'CHAT.MODES.gm', icon: 'fa-solid fa-user-secret' });
      expect(Object.keys(g.CONFIG.ChatMessage.modes)).toEqual(['public', 'gm', 'blind', 'self']);
    }
  });

  it.runIf(generation === 14)('C5: a handler set on a v14 mode replaces core\'s whisper rules for a message in that mode', async () => {
    const seen: string[] = [];
    g.CONFIG.ChatMessage.modes.gm.handler = (data: any) => {
      seen.push('gm');
      data.whisper = [foundry.users.player.id];
    };
    const rolled = await new g.Roll('1d6').toMessage({}, { messageMode: 'gm' });
    expect(seen).toEqual(['gm']);
    expect(rolled.whisper).toEqual([foundry.users.player.id]);
    const plain = await new g.Roll('1d6').toMessage({}, { messageMode: 'blind' });
    expect(plain).toMatchObject({ blind: true, whisper: [foundry.users.gm.id] });
  });

  it('a player may post only as themselves', async () => {
    const asPlayer = (data: any) => foundry.asUser(foundry.users.player, () => g.ChatMessage.create(data));
    const mine = await asPlayer({ content: 'hello' });
    expect(mine.author.id).toBe(foundry.users.player.id);
    await expect(asPlayer({ content: 'forged', author: foundry.users.gm.id })).rejects.toThrow(/lacks permission to create ChatMessage/);
  });
});
