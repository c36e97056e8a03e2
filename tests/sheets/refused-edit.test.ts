/**
 * Issue 29, "sheets take the next edit": a value the data model refuses,
 * typed in a sheet as a user would (the stand-in's submitSheet: the whole
 * form through core's _onSubmitForm), is told in a GM's words (the field's
 * label, the model's reason, the value kept; no document id, no path),
 * nothing is written, the field shows the stored value again, and the next
 * valid edit saves. Before, the refused value stayed typed in its field and
 * every later change submitted it again with the rest of the form, so every
 * later update was refused as a whole.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../foundry/world';
import { renderedForm } from '../standin/html';
import { TenSegmentsItemSheet } from '../../src/apps/sheets/item-sheet';

const errors = (w: World): string[] => w.foundry.notifications.filter((n: any) => n.type === 'error').map((n: any) => n.message);
/** What a form control holds now (what the user sees in the field). */
const shownIn = (sheet: any, name: string): string | undefined => renderedForm(sheet).elements.find((e: any) => e.name === name)?.attrs.value;

async function itemSheet(item: any): Promise<any> {
  const sheet = new TenSegmentsItemSheet({ document: item } as never) as any;
  await sheet.render({ force: true });
  return sheet;
}

describe.each([13, 14] as const)('a refused edit on a sheet, generation %i', (generation) => {
  it('AC 15 on a character: refused in words, the field back to 5; then Level 3 → 4 saves', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const brand = w.actors.brand;
    await brand.update({ 'system.details.level': 3 });
    const sheet = brand.sheet;
    await sheet.render({ force: true });
    const writes = w.foundry.writes.count('Actor', 'update');

    await w.foundry.submitSheet(sheet, { 'system.ac': '15' });
    expect(errors(w)).toEqual(['Armor Class stays 5: 15 must be a whole number from -10 to 10.']);
    expect(errors(w)[0]).not.toContain(brand.id);
    expect(errors(w)[0]).not.toContain('system.');
    expect(brand.system.ac).toBe(5);
    expect(w.foundry.writes.count('Actor', 'update')).toBe(writes);
    expect(shownIn(sheet, 'system.ac')).toBe('5');

    await w.foundry.submitSheet(sheet, { 'system.details.level': '4' });
    expect(brand.system.details.level).toBe(4);
    expect(brand.system.ac).toBe(5);
    expect(errors(w)).toHaveLength(1);
    expect(shownIn(sheet, 'system.details.level')).toBe('4');
  });

  it('a monster: hit dice "x" refused, then its morale saves; a blank name refused in words', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const orc = w.actors.orc1;
    const sheet = orc.sheet;
    await sheet.render({ force: true });
    await w.foundry.submitSheet(sheet, { 'system.hitDice': 'x' });
    expect(errors(w).at(-1)).toBe('Hit Dice stays 1: "x" is not hit dice (write e.g. 4, 4+4 or 1/2).');
    expect(shownIn(sheet, 'system.hitDice')).toBe('1');
    await w.foundry.submitSheet(sheet, { 'system.morale': '9' });
    expect(orc.system).toMatchObject({ hitDice: '1', morale: 9 });
    await w.foundry.submitSheet(sheet, { name: '' });
    expect(errors(w).at(-1)).toBe('Name stays Orc 1: it may not be empty.');
    await w.foundry.submitSheet(sheet, { 'system.morale': '10' });
    expect(orc).toMatchObject({ name: 'Orc 1', system: { morale: 10 } });
    expect(errors(w)).toHaveLength(2);
  });

  it('in German: the label and the reason in German', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    w.foundry.loadLang('lang/de.json');
    const brand = w.actors.brand;
    await brand.sheet.render({ force: true });
    await w.foundry.submitSheet(brand.sheet, { 'system.ac': '15' });
    expect(errors(w)).toEqual(['Rüstungsklasse bleibt 5: 15 muss eine ganze Zahl von -10 bis 10 sein.']);
    await w.foundry.submitSheet(brand.sheet, { 'system.hp.max': '14' });
    expect(brand.system.hp.max).toBe(14);
  });

  it('item sheets: speed 99 refused, then the weight saves; more copies expended than memorized refused before anything is sent, then memorized 3 saves', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sword = await itemSheet(w.sword);
    await w.foundry.submitSheet(sword, { 'system.speed': '99' });
    expect(errors(w).at(-1)).toBe('Speed factor stays 5: 99 must be a whole number from 0 to 20.');
    expect(shownIn(sword, 'system.speed')).toBe('5');
    await w.foundry.submitSheet(sword, { 'system.weight': '4' });
    expect(w.sword.system).toMatchObject({ speed: 5, weight: 4 });

    const spell = await itemSheet(w.spell);
    const writes = w.foundry.writes.count('Item', 'update');
    await w.foundry.submitSheet(spell, { 'system.expended': '2' });
    expect(errors(w).at(-1)).toBe('Not saved: 2 copies expended but only 1 memorized.');
    expect(w.foundry.writes.count('Item', 'update')).toBe(writes);
    expect(shownIn(spell, 'system.expended')).toBe('0');
    await w.foundry.submitSheet(spell, { 'system.memorized': '3' });
    expect(w.spell.system).toMatchObject({ memorized: 3, expended: 0 });
    expect(errors(w)).toHaveLength(2);
  });
});

describe('the refusal names every field a sheet submits by its label', () => {
  it('in English and German: no control of a character, monster, weapon, spell, armour or gear sheet is named by its path', async () => {
    const { labelOf } = await import('../../src/apps/sheets/refusal');
    const w = await makeWorld(13, 'segment-d6');
    const [mail, rope] = await w.actors.brand.createEmbeddedDocuments('Item', [
      { name: 'Chain mail', type: 'armor', system: { ac: 5 } },
      { name: 'Rope', type: 'gear', system: {} },
    ]);
    const sheets: any[] = [w.actors.brand.sheet, w.actors.orc1.sheet];
    for (const s of sheets) await s.render({ force: true });
    for (const item of [w.sword, w.spell, mail, rope]) sheets.push(await itemSheet(item));
    const unlabelled = (): string[] =>
      sheets.flatMap((sheet) =>
        renderedForm(sheet)
          .elements.map((e: any) => e.name as string)
          // The damage types' and spell classes' checkboxes are gathered into one list before validation.
          .filter((name) => name === 'name' || name.startsWith('system.'))
          .filter((name) => labelOf(sheet.document, name) === name)
          .map((name) => `${sheet.document.type}: ${name}`),
      );
    expect(unlabelled()).toEqual([]);
    w.foundry.loadLang('lang/de.json');
    expect(unlabelled()).toEqual([]);
  });
});

describe('a refusal of the model as a whole, and of an array entry', () => {
  it('path `system` (the values together, as a generation may report it) reads "Not saved: …"; an encounter member\'s count is named "Count"', async () => {
    const { refusedFields } = await import('../../src/apps/sheets/refusal');
    const w = await makeWorld(14, 'segment-d6');
    let renders = 0;
    const sheetOf = (document: any) => ({ document, render: async () => void renders++ });
    const together = refusedFields(sheetOf(w.spell), { getAllFailures: () => ({ system: { message: '2 copies expended but only 1 memorized.', invalidValue: { expended: 2 } } }) });
    expect((together as Error).message).toBe('Not saved: 2 copies expended but only 1 memorized.');
    const { g } = await import('../foundry/world');
    const ambush = await g.Actor.create({ name: 'Ambush', type: 'encounter', system: { members: [{ uuid: w.actors.orc1.uuid, count: 2 }] } });
    const count = refusedFields(sheetOf(ambush), { getAllFailures: () => ({ 'system.members.0.count': { message: '0 must be a whole number from 1 to 100.', invalidValue: 0 } }) });
    expect((count as Error).message).toBe('Count stays 2: 0 must be a whole number from 1 to 100.');
    expect(renders).toBe(2);
    // Anything else than a validation error of the document's fields goes on as it came, the sheet not drawn again.
    const other = new Error('offline');
    expect(refusedFields(sheetOf(w.spell), other)).toBe(other);
    expect(renders).toBe(2);
  });
});
