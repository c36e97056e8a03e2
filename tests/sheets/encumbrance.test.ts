/**
 * The character sheet's encumbrance block (src/apps/sheets/actor-sheet-body.ts
 * encumbranceView, templates/actor/combat-character.hbs), rendered by the
 * stand-in in both generations: the weight carried (the items and the sheet's
 * other load), the band of seed 002's table ("Movement During the Round":
 * up to 35# light 12” (6sq), 35–70# heavy 9” (4sq), 70–105# very heavy 6”
 * (3sq), over 105# encumbered 3” (2sq); halflings 9”/6”/3”/-), the rate in
 * inches and squares, the feet per round the world's procedure reads
 * (d12-ascending: squares × 5 ft; others: inches × 10 ft), and whether the
 * procedure applies it (its option `encumbrance`: default on for
 * d12-ascending only).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld } from '../foundry/world';

/** The block's text as a reader sees it. */
const blockText = (html: string) => {
  const block = html.slice(html.indexOf('<fieldset class="ts-block ts-encumbrance"'));
  return block
    .slice(0, block.indexOf('</fieldset>'))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
};

/** Brand with rope (5 lb × 2) and a backpack of 15 lb, and `other` pounds noted on the sheet. */
async function loaded(w: any, other: number, system: Record<string, unknown> = {}) {
  const brand = w.actors.brand;
  await brand.createEmbeddedDocuments('Item', [
    { name: 'Rope', type: 'gear', system: { quantity: 2, weight: 5 } },
    { name: 'Backpack', type: 'gear', system: { quantity: 1, weight: 15 } },
  ]);
  await brand.update({ 'system.encumbrance.carried': other, ...system });
  await brand.sheet.render({ force: true });
  return brand.sheet;
}

describe.each([13, 14] as const)('the encumbrance block, generation %i', (generation) => {
  it('segment-d6: 25 lb of items and 15 lb noted are 40 lb, heavy, 9″ (4 squares), read as 90 ft; the procedure does not apply it', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sheet = await loaded(w, 15);
    const html: string = sheet.partHTML.combat;
    expect(html).toContain('name="system.encumbrance.carried" value="15"');
    expect(sheet.partContexts.combat.ts.encumbrance).toMatchObject({ items: 25, other: 15, carried: 40, band: 'heavy', inches: 9, squares: 4, feet: 90, applies: false });
    const text = blockText(html);
    expect(text).toContain('Items carried: 25 lb');
    expect(text).toContain('Carried in all: 40 lb');
    expect(text).toContain('Load Heavy (35–70 lb)');
    expect(text).toContain('Rate 9″ (4 squares)');
    expect(text).toContain('On the map 90 ft per round (9″ × 10 ft)');
    expect(text).toContain('does not apply encumbrance to movement');
    // The other load moved here from the abilities tab: one field of that name in the form.
    expect(sheet.partHTML.abilities).not.toContain('system.encumbrance.carried');
  });

  it('d12-ascending: the same load reads as 4 squares × 5 ft = 20 ft, and the procedure applies it by default', async () => {
    const w = await makeWorld(generation, 'd12-ascending', {});
    const sheet = await loaded(w, 15);
    expect(sheet.partContexts.combat.ts.encumbrance).toMatchObject({ carried: 40, band: 'heavy', inches: 9, squares: 4, feet: 20, applies: true });
    const text = blockText(sheet.partHTML.combat);
    expect(text).toContain('On the map 20 ft per round (4 squares × 5 ft)');
    expect(text).toContain('d12 ascending (lowest acts first) moves this character at this rate.');
  });

  it("d12-ascending with the procedure's option `encumbrance` off: shown, not applied", async () => {
    const w = await makeWorld(generation, 'd12-ascending', { encumbrance: false });
    const sheet = await loaded(w, 0);
    expect(sheet.partContexts.combat.ts.encumbrance).toMatchObject({ carried: 25, band: 'light', inches: 12, squares: 6, feet: 30, applies: false });
    expect(blockText(sheet.partHTML.combat)).toContain('does not apply encumbrance to movement');
  });

  it('segment-d6 with the option on applies it; over 105 lb is encumbered, 3″ (2 squares), 30 ft', async () => {
    const w = await makeWorld(generation, 'segment-d6', { encumbrance: true });
    const sheet = await loaded(w, 90);
    expect(sheet.partContexts.combat.ts.encumbrance).toMatchObject({ carried: 115, band: 'encumbered', inches: 3, squares: 2, feet: 30, applies: true });
    expect(blockText(sheet.partHTML.combat)).toContain('Load Encumbered (over 105 lb)');
    expect(sheet.partHTML.combat).toContain('data-band="encumbered"');
  });

  it("a small character reads the halfling column (40 lb: 6″, 3 squares); the character's own rate caps the table's (plate's 60 ft: 6″)", async () => {
    const w = await makeWorld(generation, 'd12-ascending');
    const small = await loaded(w, 15, { 'system.size': 'small' });
    expect(small.partContexts.combat.ts.encumbrance).toMatchObject({ carried: 40, band: 'heavy', inches: 6, squares: 3, feet: 15 });
    await w.actors.brand.update({ 'system.size': 'medium', 'system.encumbrance.carried': 0 });
    await w.actors.brand.createEmbeddedDocuments('Item', [{ name: 'Plate mail', type: 'armor', system: { ac: 3, bonus: 0, bulk: 'bulky', movement: 60, weight: 10, equipped: true } }]);
    await w.actors.brand.sheet.render({ force: true });
    // 25 + 10 lb: light (12″), capped by the plate's 6″.
    expect(w.actors.brand.sheet.partContexts.combat.ts.encumbrance).toMatchObject({ carried: 35, band: 'light', inches: 6, squares: 3, feet: 15 });
  });

  it('the other load typed into the sheet goes through the form and the block follows', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const sheet = await loaded(w, 0);
    await w.foundry.submitSheet(sheet, { 'system.encumbrance.carried': '60' });
    expect(w.actors.brand.system.encumbrance.carried).toBe(60);
    expect(blockText(sheet.partHTML.combat)).toContain('Load Very heavy (70–105 lb)');
    expect(g.game.settings.get('ten-segments', 'procedure')).toBe('segment-d6');
  });
});
