/**
 * The item sheets (src/apps/sheets/item-sheet.ts and its body): each type
 * shows the fields combat reads, labelled in words, with what the models
 * compute beside them; an edit submitted through core's document-sheet path
 * (the stand-in's submitSheet) updates the item; a bad value is refused with
 * the data model's localized message and nothing is written.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from '../foundry/world';
import { TenSegmentsItemSheet } from '../../src/apps/sheets/item-sheet';

/** The sheet of an item, rendered (as core: one instance, `render({force: true})`). */
async function sheetOf(item: any): Promise<any> {
  const sheet = new TenSegmentsItemSheet({ document: item } as never) as any;
  await sheet.render({ force: true });
  return sheet;
}

const html = (sheet: any): string => Object.values(sheet.partHTML as Record<string, string>).join('\n');
/** The text a reader sees (tags dropped, spaces folded). */
const text = (sheet: any): string =>
  html(sheet)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
/** The form controls' names, in order. */
const names = (sheet: any): string[] => [...html(sheet).matchAll(/<(?:input|select|textarea|prose-mirror)\b[^>]*\bname="([^"]+)"/g)].map((m) => m[1]!);
/** An input's value attribute. */
const valueOf = (sheet: any, name: string): string | undefined => new RegExp(`name="${name.replace(/\./g, '\\.')}"[^>]*\\bvalue="([^"]*)"`).exec(html(sheet))?.[1];
const isChecked = (sheet: any, name: string): boolean => new RegExp(`<input[^>]*name="${name.replace(/\./g, '\\.')}"[^>]*\\bchecked\\b`).test(html(sheet));
const selected = (sheet: any, name: string): string | undefined =>
  new RegExp(`<select[^>]*name="${name.replace(/\./g, '\\.')}"[^>]*>([\\s\\S]*?)</select>`).exec(html(sheet))?.[1]?.match(/<option value="([^"]*)" selected>/)?.[1];

const errors = (w: World) => w.foundry.notifications.filter((n: any) => n.type === 'error').map((n: any) => n.message);

describe.each([13, 14] as const)('the item sheets, generation %i', (generation) => {
  it('a weapon: damage by size, speed, length, space, kind, missile fire, critical multiplier and damage types, equipped, weight, description', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sheet = await sheetOf(w.sword);
    expect(sheet.options.classes).toEqual(expect.arrayContaining(['ten-segments', 'sheet', 'item', 'weapon']));
    expect(names(sheet)).toEqual([
      'name',
      'system.damage.small',
      'system.damage.large',
      'system.speed',
      'system.length',
      'system.space',
      'system.kind',
      'system.equipped',
      'system.rate',
      'system.missileBonus',
      'system.range.short',
      'system.range.medium',
      'system.range.long',
      'system.critical',
      ...['blunt', 'piercing', 'slashing', 'chopping', 'fire', 'cold', 'electric', 'sonic', 'acid', 'holy', 'unholy'].map((t) => `damageType.${t}`),
      'system.weight',
      'system.cost',
      'system.description',
    ]);
    expect(valueOf(sheet, 'name')).toBe('Long sword');
    expect([valueOf(sheet, 'system.damage.small'), valueOf(sheet, 'system.damage.large')]).toEqual(['1d8', '1d12']);
    expect([valueOf(sheet, 'system.speed'), valueOf(sheet, 'system.length'), valueOf(sheet, 'system.space')]).toEqual(['5', '3.5', '3']);
    expect(selected(sheet, 'system.kind')).toBe('melee');
    expect(selected(sheet, 'system.critical')).toBe('2');
    expect(isChecked(sheet, 'system.equipped')).toBe(true);
    const shown = text(sheet);
    for (const label of ['Damage (small-medium)', 'Damage (large)', 'Speed factor', 'Length (ft)', 'Space required (ft)', 'Melee or missile', 'Rate of fire', 'Critical multiplier', 'Damage types', 'Slashing', 'Equipped', 'Weight (lb)']) {
      expect(shown).toContain(label);
    }
    // Under segment-d6 the critical multiplier and damage types are kept but not read: the sheet says so.
    expect(shown).toContain('This world plays another procedure: the value is kept but not read.');
    expect(sheet.partContexts.details.editable).toBe(true);
  });

  it('a weapon edited: the form\'s values update the item (numbers, a choice, the damage types each once)', async () => {
    const w = await makeWorld(generation, 'individual-speed');
    const sheet = await sheetOf(w.sword);
    expect(text(sheet)).not.toContain('kept but not read');
    await w.foundry.submitSheet(sheet, { 'system.speed': '7', 'system.critical': '3', 'damageType.piercing': true, 'damageType.slashing': true, 'system.damage.large': '2d6' });
    const sword = g.game.actors.get(w.actors.brand.id).items.get(w.sword.id);
    expect(sword.system.speed).toBe(7);
    expect(sword.system.critical).toBe(3);
    expect(sword.system.damageTypes).toEqual(['piercing', 'slashing']);
    expect(sword.system.damage.large).toBe('2d6');
    expect(errors(w)).toEqual([]);
    // Drawn again, the sheet shows the new values.
    await sheet.render({ force: true });
    expect(valueOf(sheet, 'system.speed')).toBe('7');
    expect(isChecked(sheet, 'damageType.slashing')).toBe(true);
    expect(isChecked(sheet, 'damageType.blunt')).toBe(false);
  });

  it('bad values: speed 99, damage "abc", more copies expended than memorized: the model\'s message in words, nothing written', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sword = await sheetOf(w.sword);
    const before = JSON.stringify([w.sword.toObject(), w.spell.toObject()]);
    await w.foundry.submitSheet(sword, { 'system.speed': '99' });
    expect(errors(w).at(-1)).toContain('99 must be a whole number from 0 to 20.');
    await w.foundry.submitSheet(sword, { 'system.damage.small': 'abc' });
    expect(errors(w).at(-1)).toContain('"abc" is not damage (write e.g. 1d8, 2d4+1 or 2-8).');
    const spell = await sheetOf(w.spell);
    await w.foundry.submitSheet(spell, { 'system.expended': '2' });
    expect(errors(w).at(-1)).toContain('2 copies expended but only 1 memorized.');
    expect(JSON.stringify([w.sword.toObject(), w.spell.toObject()])).toBe(before);
  });

  it('a spell: level, casting time and its total in segments, casting TN, range, duration, area, save, memorized and expended with the copies left', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sheet = await sheetOf(w.spell);
    expect(names(sheet)).toEqual([
      'name',
      ...['magic-user', 'cleric', 'druid', 'illusionist'].map((c) => `spellClass.${c}`),
      'system.level',
      'system.castingTime.value',
      'system.castingTime.unit',
      'system.castingTN',
      'system.range',
      'system.duration',
      'system.area',
      'system.save',
      'system.memorized',
      'system.expended',
      'system.description',
    ]);
    expect(text(sheet)).toContain('Casting time in segments 2 segments');
    expect(text(sheet)).toContain('Copies left 1');
    await w.foundry.submitSheet(sheet, { 'system.castingTime.value': '1', 'system.castingTime.unit': 'rounds', 'system.area': '30-ft radius', 'system.save': 'none', 'system.memorized': '3', 'system.expended': '1', 'spellClass.illusionist': true, 'spellClass.magic-user': true, 'spellClass.cleric': false });
    const spell = g.game.actors.get(w.actors.halvaine.id).items.get(w.spell.id);
    expect(spell.system).toMatchObject({ castingTime: { value: 1, unit: 'rounds' }, area: '30-ft radius', save: 'none', memorized: 3, expended: 1, classes: ['magic-user', 'illusionist'] });
    await sheet.render({ force: true });
    expect(text(sheet)).toContain('Casting time in segments 10 segments');
    expect(text(sheet)).toContain('Copies left 2');
  });

  it('armour and gear: AC, bonus, Defense, Armour, bulk, movement, equipped, weight; quantity, weight and magic device', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const [mail, rope] = await w.actors.brand.createEmbeddedDocuments('Item', [
      { name: 'Chain mail', type: 'armor', system: { ac: 5, bulk: 'fairly', movement: 90, weight: 30 } },
      { name: 'Rope', type: 'gear', system: { quantity: 2, weight: 10 } },
    ]);
    const armour = await sheetOf(mail);
    expect(armour.options.classes).toContain('armor');
    expect(names(armour)).toEqual(['name', 'system.ac', 'system.bonus', 'system.defense', 'system.armour', 'system.equipped', 'system.bulk', 'system.movement', 'system.weight', 'system.cost', 'system.description']);
    expect([valueOf(armour, 'system.ac'), selected(armour, 'system.bulk'), valueOf(armour, 'system.movement')]).toEqual(['5', 'fairly', '90']);
    expect(text(armour)).toContain('Armor Class');
    await w.foundry.submitSheet(armour, { 'system.equipped': true, 'system.bonus': '1' });
    expect(mail.system).toMatchObject({ equipped: true, bonus: 1 });
    const gear = await sheetOf(rope);
    expect(names(gear)).toEqual(['name', 'system.quantity', 'system.weight', 'system.cost', 'system.device', 'system.description']);
    await w.foundry.submitSheet(gear, { 'system.quantity': '5' });
    expect(rope.system.quantity).toBe(5);
    // Issue 28: the GM marks a wand, rod or staff as a magic device (its carrier may declare "Use a magic device").
    expect(rope.system.device).toBe(false);
    await w.foundry.submitSheet(gear, { 'system.device': true });
    expect(rope.system.device).toBe(true);
    await w.foundry.submitSheet(gear, { 'system.quantity': '-1' });
    expect(errors(w).at(-1)).toContain('-1 must be a whole number from 0 to 100000.');
    expect(rope.system.quantity).toBe(5);
  });
});
