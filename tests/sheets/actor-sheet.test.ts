/**
 * The actor sheets rendered by the stand-in as core renders them (issue 11):
 * what a GM sees in the combat block (weapon speed and length, spells'
 * casting times, Dexterity's surprise adjustments, a monster's hit dice and
 * parsed attack routines), an edit submitted through core's path, a bad value
 * refused in words with nothing written, an item dropped, equip / memorize /
 * expend, a player who may only look, and the individual-speed block under
 * that procedure only.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld } from '../foundry/world';
import { LONG_SWORD } from '../foundry/fixtures';
import { TenSegmentsCharacterSheet, TenSegmentsMonsterSheet } from '../../src/apps/sheets/actor-sheet';

const errors = (foundry: any) => foundry.notifications.filter((n: any) => n.type === 'error').map((n: any) => n.message);

describe.each([13, 14] as const)('actor sheets, generation %i', (generation) => {
  it('are the defaults for characters and monsters, in place of core\'s v1 sheet', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { brand, orc1 } = w.actors;
    expect(brand.sheet).toBeInstanceOf(TenSegmentsCharacterSheet);
    expect(orc1.sheet).toBeInstanceOf(TenSegmentsMonsterSheet);
    expect(Object.keys(g.CONFIG.Actor.sheetClasses.character)).toEqual(['ten-segments.TenSegmentsCharacterSheet']);
    expect(Object.keys(g.CONFIG.Item.sheetClasses.weapon)).toEqual(['ten-segments.TenSegmentsItemSheet']);
    expect(brand.sheet.options.classes).toEqual(expect.arrayContaining(['ten-segments', 'sheet', 'actor', 'character']));
    expect(brand.sheet.options.form).toMatchObject({ submitOnChange: true, closeOnSubmit: false });
  });

  it('a character: the combat block first, with what a GM needs — hit points, AC, AAC0 table, Dexterity, weapons with speed and length', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sheet = w.actors.brand.sheet;
    await sheet.render({ force: true });
    expect(Object.keys(sheet.partHTML)).toEqual(['header', 'tabs', 'combat', 'items', 'abilities', 'biography']);
    expect(sheet.partContexts.combat.tab).toMatchObject({ id: 'combat', active: true });
    expect(sheet.partHTML.tabs).toContain('Combat');
    const combat: string = sheet.partHTML.combat;
    expect(combat).toContain('name="system.hp.value" value="12"');
    expect(combat).toContain('name="system.ac" value="5"');
    expect(combat).toContain('To hit with AAC0 19');
    // AAC0 19: AC 0 needs 19, AC 5 needs 14.
    expect(sheet.partContexts.combat.ts.aac0.rows).toContainEqual({ ac: 5, needed: 14 });
    expect(combat).toContain('Own surprise range adjustment');
    expect(combat).toContain('Enemy surprise range adjustment');
    expect(combat).toContain('name="system.combat.reactionAdjustment"');
    // The long sword: speed 5, 3.5 ft long, 3 ft of space, 1d8 / 1d12, with its roll buttons.
    expect(combat).toMatch(/Long sword<\/td><td class="ts-speed">5<\/td><td class="ts-length">3.5 ft<\/td><td class="ts-space">3 ft<\/td>\s*<td class="ts-damage">1d8 \/ 1d12<\/td>/);
    expect(combat).toContain(`data-action="rollAttack" data-item-id="${w.sword.id}"`);
    expect(combat).toContain(`data-action="rollDamage" data-item-id="${w.sword.id}"`);
    expect(combat).not.toContain('system.individual.stress');
    expect(sheet.partHTML.biography).toContain('<prose-mirror name="system.biography"');
  });

  it("a magic-user's spells by level with their casting time and how many are left", async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sheet = w.actors.halvaine.sheet;
    await sheet.render({ force: true });
    expect(sheet.partHTML.combat).toMatch(/Sleep<\/td><td class="ts-casting">2 segments<\/td>/);
    expect(sheet.partHTML.combat).toContain('1 left (1 memorized, 0 expended)');
    expect(sheet.partHTML.items).toContain('Level 1');
  });

  it('a monster: hit dice "4+1" and what they imply, attack routines as written parsed beneath, morale, number appearing', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const orc = w.actors.orc1;
    const sheet = orc.sheet;
    await sheet.render({ force: true });
    expect(Object.keys(sheet.partHTML)).toEqual(['header', 'tabs', 'combat', 'items', 'notes']);
    await w.foundry.submitSheet(sheet, {
      'system.hitDice': '4+1',
      'system.attacks': 'MELEE: 2 claws (1d8/1d8) and bite (2d6)',
      'system.numberAppearing': '2d4',
    });
    expect(errors(w.foundry)).toEqual([]);
    expect(orc.system).toMatchObject({ hitDice: '4+1', attacks: 'MELEE: 2 claws (1d8/1d8) and bite (2d6)', numberAppearing: '2d4' });
    const combat: string = sheet.partHTML.combat;
    expect(combat).toContain('<dt>Attacks as</dt><dd class="ts-attack-row">4+</dd>');
    expect(combat).toContain('<dt>Saves as</dt><dd class="ts-save-as">5</dd>');
    expect(combat).toContain('<dd class="ts-morale-bonus">+1</dd>');
    expect(combat).toContain('4d8+4 (8–36)');
    expect(combat).toContain('3 attacks');
    expect(combat).toContain('2 × claws <span class="ts-damage">(1d8/1d8)</span>');
    expect(combat).toContain('1 × bite <span class="ts-damage">(2d6)</span>');
    expect(combat).toContain('data-action="rollAttack" data-routine="0"');
    expect(combat).toContain('data-action="rollMorale"');
    expect(combat).toContain('name="system.numberAppearing" value="2d4"');
    expect(combat).toContain('name="system.surprise.surprisesOn"');
  });

  it('an edit through the form updates the actor', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const brand = w.actors.brand;
    await brand.sheet.render({ force: true });
    await w.foundry.submitSheet(brand.sheet, { 'system.ac': '3', 'system.surprise.surprisesOthersAdjust': '2', 'system.surprise.neverSurprised': true, 'system.size': 'large' });
    expect(errors(w.foundry)).toEqual([]);
    expect(brand.system).toMatchObject({ ac: 3, size: 'large', surprise: { surprisesOthersAdjust: 2, neverSurprised: true }, hp: { value: 12, max: 12 } });
    expect(brand.sheet.partHTML.combat).toContain('name="system.ac" value="3"');
  });

  it('issue 28: "Turns undead" on the character and the monster sheet, unticked by default, set by the GM through the form', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { brand, orc1 } = w.actors;
    await brand.sheet.render({ force: true });
    await orc1.sheet.render({ force: true });
    expect(brand.sheet.partHTML.combat).toMatch(/<input type="checkbox" name="system\.details\.turnsUndead"\s*>\s*<span>Turns undead<\/span>/);
    expect(orc1.sheet.partHTML.combat).toMatch(/<input type="checkbox" name="system\.turnsUndead"\s*>\s*<span>Turns undead<\/span>/);
    await w.foundry.submitSheet(brand.sheet, { 'system.details.className': 'Paladin', 'system.details.turnsUndead': true });
    expect(errors(w.foundry)).toEqual([]);
    expect(brand.system.details).toMatchObject({ className: 'Paladin', turnsUndead: true });
    expect(brand.sheet.partHTML.combat).toMatch(/name="system\.details\.turnsUndead" checked/);
  });

  it('a bad value (AC 15, hit dice "x", number appearing "lots") is refused in words and nothing is written', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { brand, orc1 } = w.actors;
    await brand.sheet.render({ force: true });
    await orc1.sheet.render({ force: true });
    const writes = w.foundry.writes.count('Actor', 'update');
    await w.foundry.submitSheet(brand.sheet, { 'system.ac': '15' });
    expect(errors(w.foundry).at(-1)).toContain('15 must be a whole number from -10 to 10.');
    expect(brand.system.ac).toBe(5);
    await w.foundry.submitSheet(orc1.sheet, { 'system.hitDice': 'x' });
    expect(errors(w.foundry).at(-1)).toContain('"x" is not hit dice (write e.g. 4, 4+4 or 1/2).');
    await w.foundry.submitSheet(orc1.sheet, { 'system.numberAppearing': 'lots' });
    expect(errors(w.foundry).at(-1)).toContain('"lots" is not a number appearing');
    expect(orc1.system).toMatchObject({ hitDice: '1', numberAppearing: '' });
    expect(w.foundry.writes.count('Actor', 'update')).toBe(writes);
  });

  it('dropping a weapon on a monster adds it to its weapons', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const orc = w.actors.orc1;
    const spear = await g.Item.create({ ...LONG_SWORD, name: 'Spear', system: { ...LONG_SWORD.system, speed: 6, length: 8, equipped: false } });
    await orc.sheet.render({ force: true });
    await w.foundry.dropOnSheet(orc.sheet, spear.toDragData());
    const carried = orc.items.find((i: any) => i.name === 'Spear');
    expect(carried).toBeTruthy();
    expect(orc.sheet.partHTML.combat).toMatch(/Spear<\/td><td class="ts-speed">6<\/td><td class="ts-length">8 ft<\/td>/);
    expect(orc.sheet.partHTML.items).toContain(`data-item-id="${carried.id}"`);
  });

  it('equip toggles a weapon; create and delete from the lists', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const brand = w.actors.brand;
    const sheet = brand.sheet;
    await sheet.render({ force: true });
    await w.foundry.clickSheetAction(sheet, 'itemEquip', { itemId: w.sword.id });
    expect(brand.items.get(w.sword.id).system.equipped).toBe(false);
    expect(sheet.partHTML.items).toContain('aria-label="Equip"');
    await w.foundry.clickSheetAction(sheet, 'itemEquip', { itemId: w.sword.id });
    expect(brand.items.get(w.sword.id).system.equipped).toBe(true);
    await w.foundry.clickSheetAction(sheet, 'itemCreate', { type: 'gear' });
    const rope = brand.items.find((i: any) => i.type === 'gear');
    expect(rope?.name).toBe('New gear');
    await w.foundry.clickSheetAction(sheet, 'itemDelete', { itemId: rope.id });
    expect(brand.items.find((i: any) => i.type === 'gear')).toBeUndefined();
  });

  it('memorize, expend and restore a spell through the item; expending more than memorized is refused in words', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const halvaine = w.actors.halvaine;
    const sheet = halvaine.sheet;
    await sheet.render({ force: true });
    const id = w.spell.id;
    await w.foundry.clickSheetAction(sheet, 'spellExpend', { itemId: id });
    expect(halvaine.items.get(id).system).toMatchObject({ memorized: 1, expended: 1 });
    expect(sheet.partHTML.combat).toContain('0 left (1 memorized, 1 expended)');
    await w.foundry.clickSheetAction(sheet, 'spellExpend', { itemId: id });
    expect(errors(w.foundry).at(-1)).toBeTruthy();
    expect(errors(w.foundry).at(-1)).not.toMatch(/^TENSEG\./);
    expect(halvaine.items.get(id).system.expended).toBe(1);
    await w.foundry.clickSheetAction(sheet, 'spellMemorize', { itemId: id });
    await w.foundry.clickSheetAction(sheet, 'spellRestore', { itemId: id });
    expect(halvaine.items.get(id).system).toMatchObject({ memorized: 2, expended: 0 });
    expect(sheet.partHTML.combat).toContain('2 left (2 memorized, 0 expended)');
  });

  it("the roll buttons reach the rolls (src/apps/sheets/rolls.ts) with the weapon's item or the routine's index", async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { brand, orc1 } = w.actors;
    await brand.sheet.render({ force: true });
    await orc1.sheet.render({ force: true });
    // No token targeted: the attack is told so, in words, for the weapon and for the orc's routine.
    await w.foundry.clickSheetAction(brand.sheet, 'rollAttack', { itemId: w.sword.id });
    expect(errors(w.foundry).at(-1)).toBe('Target the token to attack first.');
    await w.foundry.clickSheetAction(orc1.sheet, 'rollDamage', { routine: '0' });
    expect(errors(w.foundry).at(-1)).toBe('Target the token to attack first.');
    await w.combat.delete();
    await w.foundry.clickSheetAction(orc1.sheet, 'rollMorale');
    expect(errors(w.foundry).at(-1)).toBe('Orc 1 is in no combat: morale is checked in a combat (add the token to one).');
  });

  it('a player who does not own the actor sees it but cannot edit it', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const player = w.foundry.users.player;
    const theirs = w.foundry.client(player).game.actors.get(w.actors.brand.id);
    await w.foundry.asUser(player, async () => {
      const sheet = theirs.sheet;
      expect(sheet.isEditable).toBe(false);
      await sheet.render({ force: true });
      expect(sheet.partHTML.combat).toContain('Long sword');
      expect(sheet.partHTML.combat).toMatch(/name="system.ac" value="5"\s+disabled/);
      expect(sheet.partHTML.items).not.toContain('data-action="itemCreate"');
      expect(sheet.partHTML.biography).not.toContain('<prose-mirror');
      await expect(w.foundry.submitSheet(sheet, { 'system.ac': '3' })).rejects.toThrow(/disabled/);
      await sheet.submit({ updateData: { 'system.ac': 3 } });
      await w.foundry.clickSheetAction(sheet, 'itemEquip', { itemId: w.sword.id });
    });
    expect(w.actors.brand.system.ac).toBe(5);
    expect(w.actors.brand.items.get(w.sword.id).system.equipped).toBe(true);
  });

  it('the individual-speed block (Stress, Wound Points, Defense, Armour, Agility, Insight, attack bonus) appears under that procedure only', async () => {
    const w = await makeWorld(generation, 'individual-speed');
    const { brand, orc1 } = w.actors;
    await brand.sheet.render({ force: true });
    const combat: string = brand.sheet.partHTML.combat;
    for (const name of ['stress.value', 'stress.max', 'wounds.value', 'wounds.max', 'defense', 'armour', 'agility', 'insight', 'attackBonus']) {
      expect(combat).toContain(`name="system.individual.${name}"`);
    }
    expect(combat).not.toContain('name="system.hp.value"');
    await w.foundry.submitSheet(brand.sheet, { 'system.individual.agility': '2', 'system.individual.stress.max': '14' });
    expect(brand.system.individual).toMatchObject({ agility: 2, stress: { max: 14 } });
    await orc1.sheet.render({ force: true });
    expect(orc1.sheet.partHTML.combat).toContain('name="system.individual.strength"');
  });
});
