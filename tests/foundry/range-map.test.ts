/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterEach, describe, expect, it } from 'vitest';
import { g, idle, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { CHANNEL } from '../../src/documents/requests';
import { closeDeclarationDialogs, prepareDeclarationContext } from '../../src/apps/declaration-dialog';
import { whenChargesMoved } from '../../src/documents/charge-moves';

// Seed 001, "Measuring Distance": "center-to-center". Ranges and their modifiers are rulings (src/rules/range.ts):
// short 0, medium −2, long −5, past long refused. README, Charges and ranges on the map.
const D = { EQUIDISTANT: 0, ALTERNATING_1: 4 };
const SHORT_BOW = { name: 'Short bow', type: 'weapon', system: { damage: { small: '1d6', large: '1d6' }, speed: 7, kind: 'missile', rate: 1, range: { short: 50, medium: 100, long: 150 }, equipped: true } };
const MAGIC_MISSILE = { name: 'Magic Missile', type: 'spell', system: { level: 1, castingTime: { value: 1, unit: 'segments' }, castingTN: 12, memorized: 1, expended: 0, range: '60 ft + 10 ft/level' } };
const token = (w: World, id: string) => (w.combat.combatants.get(id) as any).token;
const flow = (w: World) => w.combat.flowState!;

async function declare(w: World, id: string, d: any): Promise<void> {
  expect(await requestDeclaration(w.combat, id, d)).toEqual({ ok: true });
}

/** addict with no surprise, Brand (a short bow) firing at Orc 1, the orcs in segment 6; at Brand's step. */
async function atBrandsShot(w: World, bow: any): Promise<void> {
  w.foundry.dice.push(4, 4);
  await w.combat.startCombat();
  await declare(w, w.ids.brand, { action: 'missile', target: w.ids.orc1, weapon: bow.id });
  await declare(w, w.ids.orc2, { action: 'melee', target: w.ids.halvaine });
  w.foundry.dice.push(6, 1); // the party in segment 1
  await w.combat.rollInitiative();
  await idle(w);
  expect(w.combat.currentActorIds()).toContain(w.ids.brand);
}

describe.each([13, 14] as const)('ranges on the map, generation %i', (generation) => {
  afterEach(async () => {
    await closeDeclarationDialogs();
  });

  it('the GM\'s client measures a missile attack centre to centre: past long range refused, medium −2 to hit', async () => {
    const w = await makeWorld(generation, 'addict');
    const [bow] = await w.actors.brand.createEmbeddedDocuments('Item', [SHORT_BOW]);
    await atBrandsShot(w, bow);
    // Orc 1 in column 40: 39 squares, 195 ft > 150 ft.
    await token(w, w.ids.orc1).update({ x: 4000 });
    const far = await requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: bow.id });
    expect(far).toMatchObject({ ok: false, key: 'AttackOutOfRange' });
    expect(flow(w).attacks ?? []).toHaveLength(0);
    // Column 17 (80 ft, medium): AAC0 19 against AC 6 needs 13; a 14 less 2 for the range misses.
    await token(w, w.ids.orc1).update({ x: 1700 });
    w.foundry.dice.push(14);
    const medium: any = await requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: bow.id });
    expect(medium).toMatchObject({ ok: true, natural: 14, needed: 13, hit: false });
    expect(w.foundry.errors).toEqual([]);
  });

  it('with the procedure\'s option "Missile range modifiers" off, a shot at medium range has no −2: the same 14 hits', async () => {
    const w = await makeWorld(generation, 'addict');
    await g.game.settings.set('ten-segments', 'procedureOptions', { addict: { rangeModifiers: false } });
    const [bow] = await w.actors.brand.createEmbeddedDocuments('Item', [SHORT_BOW]);
    await atBrandsShot(w, bow);
    expect(flow(w).options.rangeModifiers).toBe(false);
    await token(w, w.ids.orc1).update({ x: 1700 }); // 80 ft: medium
    w.foundry.dice.push(14);
    const medium: any = await requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: bow.id });
    expect(medium).toMatchObject({ ok: true, natural: 14, needed: 13, hit: true });
    expect(w.foundry.errors).toEqual([]);
  });

  it('a player cannot send a distance: the request\'s shape has no such field', async () => {
    const w = await makeWorld(generation, 'addict');
    const [bow] = await w.actors.brand.createEmbeddedDocuments('Item', [SHORT_BOW]);
    await atBrandsShot(w, bow);
    const p2 = w.foundry.users.player2;
    const heard: any[] = [];
    w.foundry.client(p2).run(() => g.game.socket.on(CHANNEL, (data: any) => heard.push(data)));
    w.foundry.raw(p2).emit(CHANNEL, { k: 'req', id: 'forged-distance', kind: 'attack', body: { combatId: w.combat.id, attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: bow.id, distance: 0 } });
    await w.foundry.settle();
    await idle(w);
    expect(heard.filter((h) => h.k === 'ans' && h.id === 'forged-distance').at(-1)?.answer).toMatchObject({ ok: false, key: 'RequestUnknownField' });
  });

  it.each([
    ['equidistant', D.EQUIDISTANT, 100],
    ['5/10/5', D.ALTERNATING_1, 145],
  ])('the declaration dialog shows the distance to each target and, for the chosen one, the bands and spell ranges (%s)', async (_name, rule, feet) => {
    const w = await makeWorld(generation, 'addict');
    await g.game.settings.set('core', 'gridDiagonals', rule);
    await w.actors.halvaine.createEmbeddedDocuments('Item', [SHORT_BOW, MAGIC_MISSILE]);
    // Halvaine (level 1) at column 0, row 0; Orc 1 at column 20, row 18: 20 squares, 18 of them diagonal.
    await token(w, w.ids.orc1).update({ x: 2000, y: 1800 });
    w.foundry.dice.push(4, 4);
    await w.combat.startCombat();
    await idle(w);
    const context = await w.foundry.asUser(w.foundry.users.player, () =>
      prepareDeclarationContext(w.combat, w.ids.halvaine, 'declare', { target: w.ids.orc1 }),
    );
    const orc = context.targets.find((t) => t.id === w.ids.orc1)!;
    expect(orc.feet).toBe(feet);
    expect(orc.label).toBe(`Orc 1 (${feet} ft)`);
    const brand = context.targets.find((t) => t.id === w.ids.brand)!;
    expect(brand.label).toBe('Brand (5 ft)');
    const lines = Object.fromEntries(context.ranges.map((r) => [r.kind, r]));
    // Short bow: 100 ft is medium; 145 ft long. Magic Missile at level 1: 70 ft, out of range either way.
    expect(lines.missile.text).toBe(`Short bow: ${feet} ft, ${feet <= 100 ? 'medium' : 'long'} range.`);
    expect(lines.missile.out).toBe(false);
    expect(lines.spell).toEqual({ kind: 'spell', text: `Magic Missile: ${feet} ft, out of range (70 ft).`, out: true });
    expect(lines.charge.text).toMatch(/^Charge: \d+ ft to close to the target\.$/);
    // Nearer: in range.
    await token(w, w.ids.orc1).update({ x: 1200, y: 0 });
    const near = await w.foundry.asUser(w.foundry.users.player, () => prepareDeclarationContext(w.combat, w.ids.halvaine, 'declare', { target: w.ids.orc1 }));
    expect(near.ranges.find((r) => r.kind === 'spell')).toEqual({ kind: 'spell', text: 'Magic Missile: 60 ft, within its range (70 ft).', out: false });
    expect(near.ranges.find((r) => r.kind === 'missile')!.text).toBe('Short bow: 60 ft, medium range.');
  });

  it('a spell that goes off at a target beyond its range warns the GM; within it, nothing', async () => {
    const w = await makeWorld(generation, 'addict');
    const [mm] = await w.actors.halvaine.createEmbeddedDocuments('Item', [MAGIC_MISSILE]);
    await token(w, w.ids.orc1).update({ x: 1500 }); // 75 ft centre to centre; Magic Missile reaches 70 ft at level 1
    w.foundry.dice.push(4, 4);
    await w.combat.startCombat();
    await declare(w, w.ids.halvaine, { action: 'spell', spell: mm.id, target: w.ids.orc1 });
    await declare(w, w.ids.orc2, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    const warned = () => w.foundry.notifications.filter((n: any) => n.type === 'warn' && /beyond its range/.test(n.message));
    for (let guard = 0; guard < 10 && flow(w).stage === 'resolve' && warned().length === 0; guard++) {
      await w.combat.nextTurn();
      await idle(w);
      await whenChargesMoved();
    }
    expect(warned()).toHaveLength(1);
    expect(warned()[0].message).toBe("Halvaine's Magic Missile goes off at Orc 1, 75 ft away: beyond its range (70 ft).");
  });
});
