/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * A token's position written without a movement (issue 26, item 5): a
 * modified client sends a plain database update of the token's x, y or
 * elevation with no `_movement` (the stand-in's raw path). Core's server
 * accepts it from the owner of the token's actor (CONFORMANCE.md A12) and no
 * `moveToken` fires anywhere; `updateToken` fires on every client. The active
 * GM's client judges it all the same: a straight move from where its client
 * last saw the token to where the write put it, measured and held to the
 * round as a movement is (movement.test.ts), with the same question beyond
 * the allowance and the same single `moved` entry.
 *
 * Seed 002 III.D: "All characters may move their standard rate and still use
 * their full attack routine ... Faster movement than that sacrifices any
 * combat" (12" = six squares, 30 ft); III.F "Moving more than 5' while
 * remaining within melee range of an opponent allows an Attack Of
 * Opportunity".
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cardKind, cardText, g, makeWorld, type World } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { movementIdle } from '../../src/documents/token-moved';
import { moveDialogs } from '../../src/apps/move-dialog';

const token = (w: World, id: string) => (w.combat.combatants.get(id) as any).token;
const moves = (w: World) => (w.combat.flowState as any)?.moves ?? [];
const movedEntries = (w: World) => w.combat.entries.filter(([, e]) => (e as any).t === 'moved');
const opportunityCards = (w: World) => (g.game.messages.contents as any[]).filter((m) => cardKind(m) === 'opportunity');

/** Every move judged, every request answered, every client caught up (the GM's client: `gm`, the first GM by default). */
async function settled(w: World, gm: any = w.foundry.users.gm): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await w.foundry.settle();
    await w.foundry.client(gm).run(() => movementIdle());
    await w.foundry.client(gm).run(() => whenIdle());
    await w.foundry.settle();
  }
}

/** A modified client of `user` writes the token's fields straight to the server: a plain update, no movement, no option. */
async function rawWrite(w: World, user: any, id: string, fields: Record<string, unknown>, gm?: any): Promise<void> {
  await w.foundry.raw(user).modify('update', 'Token', [{ _id: token(w, id).id, ...fields }], {}, w.scene.uuid);
  await settled(w, gm);
}

/**
 * d12-ascending, nobody surprised (d12 12 and 12); Brand (player 2's) declares his long sword at Orc 1, the orcs at
 * Brand; the party rolls 3, the orcs 8: the party's count is being played.
 */
async function d12Round(w: World): Promise<void> {
  w.foundry.dice.push(12, 12);
  await w.combat.startCombat();
  await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
  for (const orc of [w.ids.orc1, w.ids.orc2]) await requestDeclaration(w.combat, orc, { action: 'melee', target: w.ids.brand });
  w.foundry.dice.push(3, 8);
  await w.combat.rollInitiative();
  await settled(w);
  expect(w.combat.flowState).toMatchObject({ stage: 'resolve', round: 1 });
}

describe.each([13, 14] as const)('a token\'s position written without a movement, generation %i', (generation) => {
  let w: World;

  beforeEach(async () => {
    // Brand stands at (1,0); the orcs at (3,0) and (3,1), two columns away: no melee range touched going south.
    w = await makeWorld(generation, 'd12-ascending');
  });

  it('(the premise, true before this work too) the plain write is what it claims: no movement, no moveToken on any client, the write accepted', async () => {
    await d12Round(w);
    const fired: string[] = [];
    for (const c of w.foundry.clients()) c.run(() => g.Hooks.on('moveToken', () => void fired.push(c.user.name)));
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 100, y: 1900 });
    expect(fired).toEqual([]);
    expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 1900 });
  });

  it('95 ft written mid-round: beyond the allowance the GM is asked, nothing recorded until the answer; Allow records it once', async () => {
    await d12Round(w);
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 100, y: 1900 });
    // Nineteen squares straight south: 95 ft, beyond the standard rate (30 ft). Nothing recorded yet.
    expect(moves(w)).toEqual([]);
    expect(movedEntries(w)).toHaveLength(0);
    const [dialog] = moveDialogs();
    expect(dialog.question.name).toBe('Brand');
    expect(dialog.question.reason).toContain('95 ft');
    expect(dialog.question.reason).toContain('30 ft');
    // The writer's client is asked nothing.
    expect(await w.foundry.client(w.foundry.users.player2).run(() => moveDialogs())).toEqual([]);
    await dialog.rule('allow');
    await settled(w);
    expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 95, ruling: 'allow' })]);
    expect(movedEntries(w)).toHaveLength(1);
    expect(moveDialogs()).toEqual([]);
    expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 1900 });
    expect(w.foundry.errors).toEqual([]);
  });

  it('a player\'s teleport through move() (core\'s displace or blink action) is measured as the straight move it is; a GM\'s costs nothing', async () => {
    await d12Round(w);
    // Her own client's move(), as any macro could call it: 95 ft south in one "displace".
    await w.foundry.asUser(w.foundry.users.player2, () => g.game.scenes.get(w.scene.id).tokens.get(token(w, w.ids.brand).id).move({ x: 100, y: 1900, action: 'displace' }));
    await settled(w);
    const [dialog] = moveDialogs();
    expect(dialog.question.reason).toContain('95 ft');
    await dialog.rule('undo');
    await settled(w);
    expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 0 });
    // The GM's own displace (putting a token where the table says it is) is no move of the combatant's.
    await token(w, w.ids.brand).move({ x: 100, y: 1900, action: 'displace' });
    await settled(w);
    expect(moveDialogs()).toEqual([]);
    expect(moves(w)).toEqual([]);
  });

  it('Undo the move puts the token back where the write moved it from, on every client, and records nothing', async () => {
    await d12Round(w);
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 100, y: 1900 });
    await moveDialogs()[0].rule('undo');
    await settled(w);
    expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 0 });
    const seen = await w.foundry.client(w.foundry.users.player2).run(() => g.game.scenes.get(w.scene.id).tokens.get(token(w, w.ids.brand).id));
    expect(seen).toMatchObject({ x: 100, y: 0 });
    // The move back is the system's own: not judged again, no second question, nothing recorded.
    expect(moves(w)).toEqual([]);
    expect(movedEntries(w)).toHaveLength(0);
    expect(moveDialogs()).toEqual([]);
  });

  it('a write within the allowance is recorded as a movement, with its feet, nothing asked; the next is measured from there', async () => {
    await d12Round(w);
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 100, y: 400 });
    // Four squares south: 20 ft of 30.
    expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 20, allowance: 30, provoked: [] })]);
    expect(movedEntries(w)).toHaveLength(1);
    expect(moveDialogs()).toEqual([]);
    // One square more (from where the first write put it, not from where the round began): 5 ft, 25 in all.
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { y: 500 });
    expect(moves(w).map((m: any) => m.feet)).toEqual([20, 5]);
    expect(moveDialogs()).toEqual([]);
    // The combat was written by the GM's client only.
    const combatWrites = w.foundry.writes.all().filter((r) => r.documentName === 'Combat');
    expect(combatWrites.every((r) => r.userId === w.foundry.users.gm.id)).toBe(true);
  });

  it('a write passing an opponent\'s melee range provokes as a movement does', async () => {
    // Orc 2 far away; Brand at (0,1). The write puts him at (6,1): a straight line past Orc 1 at (3,0), 15 ft within its range.
    await token(w, w.ids.orc2).update({ x: 900, y: 900 });
    await token(w, w.ids.brand).update({ x: 0, y: 100 });
    await settled(w);
    await d12Round(w);
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 600 });
    expect(moves(w)).toEqual([
      expect.objectContaining({ c: w.ids.brand, feet: 30, reach: [{ c: w.ids.orc1, feet: 15, startIn: false, endIn: false }], provoked: [{ by: w.ids.orc1, grant: 'opportunity', reason: 'd12AooMoving' }] }),
    ]);
    const [card] = opportunityCards(w);
    expect(cardText(card)).toContain('Orc 1 may make an attack of opportunity on Brand.');
  });

  it('an elevation written alone is judged: its feet counted, beyond the allowance asked, Undo brings the token down again', async () => {
    await d12Round(w);
    // 20 ft up in place: within 30, recorded.
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { elevation: 20 });
    expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 20, allowance: 30 })]);
    expect(moveDialogs()).toEqual([]);
    // 20 ft more: 40 in all, beyond 30: asked; Undo puts it back at 20 ft, where this write found it.
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { elevation: 40 });
    expect(moves(w)).toHaveLength(1);
    const [dialog] = moveDialogs();
    expect(dialog.question.reason).toContain('40 ft');
    await dialog.rule('undo');
    await settled(w);
    expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 0, elevation: 20 });
    expect(moves(w)).toHaveLength(1);
    expect(moveDialogs()).toEqual([]);
    expect(w.foundry.errors).toEqual([]);
  });

  it('a write outside the round (before the start, in the declarations) records nothing; the round\'s first write is measured from where it left the token', async () => {
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 100, y: 1000 });
    w.foundry.dice.push(12, 12);
    await w.combat.startCombat();
    await settled(w);
    const before = w.combat.entries.length;
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 100, y: 1900 });
    expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 1900 });
    expect(w.combat.entries.length).toBe(before);
    expect(moveDialogs()).toEqual([]);
    await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    for (const orc of [w.ids.orc1, w.ids.orc2]) await requestDeclaration(w.combat, orc, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(3, 8);
    await w.combat.rollInitiative();
    await settled(w);
    expect(movedEntries(w)).toHaveLength(0);
    // In the round: two squares north of where the declarations' write left him, 10 ft (not 85 from where he began).
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { y: 1700 });
    expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 10 })]);
    expect(moveDialogs()).toEqual([]);
  });

  it('a write of other fields, or of the position it already has, records nothing; the next move is measured from the same place', async () => {
    await d12Round(w);
    const before = w.combat.entries.length;
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { name: 'Brand the Bold' });
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { x: 100, y: 0, elevation: 0 });
    expect(token(w, w.ids.brand).name).toBe('Brand the Bold');
    expect(w.combat.entries.length).toBe(before);
    expect(moveDialogs()).toEqual([]);
    await rawWrite(w, w.foundry.users.player2, w.ids.brand, { y: 200 });
    expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 10 })]);
  });

  it('(true before this work too) a token in no running combat: its write records nothing and asks nothing', async () => {
    await d12Round(w);
    const { OWNER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    const [actor] = await g.Actor.create([{ name: 'Corwin', type: 'character', ownership: { [w.foundry.users.player2.id]: OWNER }, system: { hp: { value: 9, max: 9 }, ac: 6, attack: { mode: 'aac0', aac0: '19' } } }]);
    const [corwin] = await w.scene.createEmbeddedDocuments('Token', [{ name: 'Corwin', actorId: actor.id, actorLink: true, x: 0, y: 500, disposition: 1 }]);
    await settled(w);
    const before = w.combat.entries.length;
    await w.foundry.raw(w.foundry.users.player2).modify('update', 'Token', [{ _id: corwin.id, y: 2400 }], {}, w.scene.uuid);
    await settled(w);
    expect(w.scene.tokens.get(corwin.id)).toMatchObject({ y: 2400 });
    expect(w.combat.entries.length).toBe(before);
    expect(moveDialogs()).toEqual([]);
  });

  it('a GM who takes over after the first GM disconnects judges the next plain write from the position its own client saw', async () => {
    // The second GM connects once the tokens are on the map (its client records their positions at ready).
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await w.foundry.settle();
    await d12Round(w);
    w.foundry.disconnect(w.foundry.users.gm);
    await w.foundry.settle();
    const combat2 = () => w.foundry.client(gm2).game.combats.get(w.combat.id);
    const moves2 = () => combat2().flowState?.moves ?? [];
    await w.foundry.raw(w.foundry.users.player2).modify('update', 'Token', [{ _id: token(w, w.ids.brand).id, y: 1900 }], {}, w.scene.uuid);
    await settled(w, gm2);
    expect(moves2()).toEqual([]);
    const [dialog] = await w.foundry.client(gm2).run(() => moveDialogs());
    expect(dialog.question.reason).toContain('95 ft');
    await w.foundry.asUser(gm2, () => dialog.rule('allow'));
    await settled(w, gm2);
    expect(moves2()).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 95, ruling: 'allow' })]);
    const written = w.foundry.writes.all().filter((r) => r.documentName === 'Combat' && r.userId === gm2.id);
    expect(written.length).toBeGreaterThan(0);
    // The next write is measured from where that one put the token: two squares back north, 10 ft, 105 this round: asked again.
    await w.foundry.raw(w.foundry.users.player2).modify('update', 'Token', [{ _id: token(w, w.ids.brand).id, y: 1700 }], {}, w.scene.uuid);
    await settled(w, gm2);
    const [again] = await w.foundry.client(gm2).run(() => moveDialogs());
    expect(again.question.reason).toContain('105 ft');
    await w.foundry.asUser(gm2, () => again.rule('allow'));
    await settled(w, gm2);
    expect(moves2().map((m: any) => m.feet)).toEqual([95, 10]);
  });

  it('the system\'s option on a plain write is believed from the active GM\'s own client only: from a player\'s it proves nothing', async () => {
    await d12Round(w);
    // The GM's client, with the option of a move taken back: not judged.
    await w.foundry.raw(w.foundry.users.gm).modify('update', 'Token', [{ _id: token(w, w.ids.brand).id, y: 1000 }], { tenSegments: { undo: true } }, w.scene.uuid);
    await settled(w);
    expect(moves(w)).toEqual([]);
    expect(moveDialogs()).toEqual([]);
    // Player 2's client claims the same for 50 ft more: judged all the same (beyond 30: asked).
    await w.foundry.raw(w.foundry.users.player2).modify('update', 'Token', [{ _id: token(w, w.ids.brand).id, y: 2000 }], { tenSegments: { undo: true } }, w.scene.uuid);
    await settled(w);
    const [dialog] = moveDialogs();
    expect(dialog.question.reason).toContain('50 ft');
  });

  it('(a guard, true before this work too) a movement (TokenDocument#move) is judged once, by moveToken, not a second time as a plain write', async () => {
    await d12Round(w);
    await w.foundry.asUser(w.foundry.users.player2, () => token(w, w.ids.brand).move({ x: 100, y: 400 }, { method: 'dragging' }));
    await settled(w);
    expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 20 })]);
    expect(movedEntries(w)).toHaveLength(1);
  });
});
