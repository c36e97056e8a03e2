/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Tokens moved during a round (issue 13, Deliver 2 and 3), end to end on the
 * stand-in's token movement: a player drags (TokenDocument#move on the
 * player's client), core fires `moveToken` on every client, and only the
 * active GM's client measures the move and gives the engine the `moved`
 * input; a move beyond the allowance asks the GM; a provoking move posts the
 * GM an attack-of-opportunity (or free attack) card whose button is the
 * ordinary attack request.
 *
 * Seed 002 III.D: "All characters may move their standard rate and still use
 * their full attack routine ... Faster movement than that sacrifices any
 * combat" (12" = six squares, 30 ft); III.F "Moving more than 5' while
 * remaining within melee range of an opponent allows an Attack Of
 * Opportunity ... Generally only one AoO per round per character". Seed 001:
 * "a free attack will be granted ... (ex. Flee Melee)".
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cardKind, cardText, g, idle, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { movementIdle } from '../../src/documents/token-moved';
import { attackFromCard, wireOpportunityCard } from '../../src/documents/opportunity-card';
import { moveDialogs } from '../../src/apps/move-dialog';

const token = (w: World, id: string) => (w.combat.combatants.get(id) as any).token;
const moves = (w: World) => (w.combat.flowState as any)?.moves ?? [];
const movedEntries = (w: World) => w.combat.entries.filter(([, e]) => (e as any).t === 'moved');
const opportunityCards = (w: World) => (g.game.messages.contents as any[]).filter((m) => cardKind(m) === 'opportunity');

/** Every move judged, every request answered, every client caught up. */
async function settled(w: World): Promise<void> {
  await w.foundry.settle();
  await w.foundry.client(w.foundry.users.gm).run(() => movementIdle());
  await idle(w);
  await w.foundry.client(w.foundry.users.gm).run(() => movementIdle());
  await idle(w);
}

/** A user drags a token to a square (its top-left corner's column and row). */
async function drag(w: World, user: any, id: string, col: number, row: number): Promise<void> {
  await w.foundry.asUser(user, () => token(w, id).move({ x: col * 100, y: row * 100 }, { method: 'dragging' }));
  await settled(w);
}

/** The combat's updates were all written by the GM (a player's client never writes a move into the combat). */
function combatWrittenByGMOnly(w: World): void {
  const writes = w.foundry.writes.all().filter((r) => r.documentName === 'Combat');
  expect(writes.length).toBeGreaterThan(0);
  expect(writes.every((r) => r.userId === w.foundry.users.gm.id)).toBe(true);
}

/**
 * d12-ascending, nobody surprised (d12 12 and 12); Brand declares his long sword at Orc 1 (player 2), the orcs
 * at Brand; the party rolls 3, the orcs 8: the party's count (step 0) is being played.
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

describe.each([13, 14] as const)('tokens moved during a round, generation %i', (generation) => {
  let w: World;

  describe('d12-ascending: the standard rate (30 ft) and the GM\'s rulings', () => {
    // Each size on each diagonal rule: Brand stands at (0,3), clear of the orcs at (3,0) and (3,1).
    describe.each([
      [1, 0, 'equal diagonals', 15],
      [1, 4, '5/10/5', 20],
      [2, 0, 'equal diagonals', 15],
      [2, 4, '5/10/5', 20],
    ])('a token %i square(s) wide, gridDiagonals %i (%s)', (size, rule, _name, diagonalFeet) => {
      beforeEach(async () => {
        w = await makeWorld(generation, 'd12-ascending');
        await g.game.settings.set('core', 'gridDiagonals', rule);
        await token(w, w.ids.brand).update({ x: 0, y: 300, width: size, height: size });
        await settled(w);
      });

      it('a player\'s move within the allowance is recorded by the GM\'s client, with no question', async () => {
        await d12Round(w);
        w.foundry.writes.clear();
        // Three squares diagonally: 15 ft (equal) or 20 ft (5/10/5), within 30.
        await drag(w, w.foundry.users.player2, w.ids.brand, 3, 6);
        expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: diagonalFeet, allowance: 30, provoked: [] })]);
        expect(moveDialogs()).toEqual([]);
        expect(movedEntries(w)).toHaveLength(1);
        combatWrittenByGMOnly(w);
        // Two squares more straight on: 10 ft, 25 or 30 in all, still within.
        await drag(w, w.foundry.users.player2, w.ids.brand, 3, 8);
        expect(moves(w).map((m: any) => m.feet)).toEqual([diagonalFeet, 10]);
        expect(moveDialogs()).toEqual([]);
        expect(w.foundry.errors).toEqual([]);
      });

      it('beyond it the GM is asked; Allow records the move as it is', async () => {
        await d12Round(w);
        // Seven squares straight down: 35 ft, beyond 30.
        await drag(w, w.foundry.users.player2, w.ids.brand, 0, 10);
        expect(moves(w)).toEqual([]);
        const [dialog] = moveDialogs();
        expect(dialog.question.name).toBe('Brand');
        expect(dialog.question.reason).toContain('35 ft');
        expect(dialog.question.reason).toContain('30 ft');
        expect(dialog.question.why).toContain('standard rate');
        // The player is asked nothing.
        expect(await w.foundry.client(w.foundry.users.player2).run(() => moveDialogs())).toEqual([]);
        await dialog.rule('allow');
        await settled(w);
        expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 35, ruling: 'allow' })]);
        expect(moveDialogs()).toEqual([]);
        expect(token(w, w.ids.brand)).toMatchObject({ x: 0, y: 1000 });
      });

      it('Allow and forfeit the action records it and Brand\'s attack is refused', async () => {
        await d12Round(w);
        await drag(w, w.foundry.users.player2, w.ids.brand, 0, 10);
        await moveDialogs()[0].rule('forfeit');
        await settled(w);
        expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 35, ruling: 'forfeit' })]);
        const answer = await w.foundry.asUser(w.foundry.users.player2, () => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
        expect(answer).toMatchObject({ ok: false, key: 'ActionForfeited' });
      });

      it('Undo the move puts the token back where the move began and records nothing', async () => {
        await d12Round(w);
        await drag(w, w.foundry.users.player2, w.ids.brand, 0, 10);
        await moveDialogs()[0].rule('undo');
        await settled(w);
        expect(token(w, w.ids.brand)).toMatchObject({ x: 0, y: 300 });
        // The move back is the system's own: not judged again, no second question.
        expect(moves(w)).toEqual([]);
        expect(movedEntries(w)).toHaveLength(0);
        expect(moveDialogs()).toEqual([]);
        // Every client sees the token back.
        const seen = await w.foundry.client(w.foundry.users.player2).run(() => g.game.scenes.get(w.scene.id).tokens.get(token(w, w.ids.brand).id));
        expect(seen).toMatchObject({ x: 0, y: 300 });
      });
    });

    beforeEach(async () => {
      w = await makeWorld(generation, 'd12-ascending');
    });

    it('a move outside the round being played (declarations) records nothing and asks nothing', async () => {
      w.foundry.dice.push(12, 12);
      await w.combat.startCombat();
      await settled(w);
      const before = w.combat.entries.length;
      await drag(w, w.foundry.users.player2, w.ids.brand, 1, 9);
      expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 900 });
      expect(w.combat.entries.length).toBe(before);
      expect(moveDialogs()).toEqual([]);
    });

    it('a move of the system\'s own (option tenSegments, from the GM\'s client) is not judged; the same option from a player\'s client is', async () => {
      await d12Round(w);
      await token(w, w.ids.brand).move({ x: 100, y: 1000 }, { tenSegments: { charge: true } });
      await settled(w);
      expect(moves(w)).toEqual([]);
      expect(moveDialogs()).toEqual([]);
      // A player's client claims the same: the GM's client judges it all the same (45 ft straight back up: beyond 30).
      await w.foundry.asUser(w.foundry.users.player2, () => token(w, w.ids.brand).move({ x: 100, y: 100 }, { tenSegments: { charge: true } }));
      await settled(w);
      expect(moveDialogs()).toHaveLength(1);
    });

    it('a move that climbs counts the feet climbed; Undo the move brings the token back down where it began', async () => {
      await d12Round(w);
      // Five squares south (25 ft) and 20 ft up: 45 ft, beyond 30.
      await w.foundry.asUser(w.foundry.users.player2, () => token(w, w.ids.brand).move({ x: 100, y: 500, elevation: 20 }, { method: 'dragging' }));
      await settled(w);
      const [dialog] = moveDialogs();
      expect(dialog.question.reason).toContain('45 ft');
      await dialog.rule('undo');
      await settled(w);
      expect(token(w, w.ids.brand)).toMatchObject({ x: 100, y: 0, elevation: 0 });
      expect(moves(w)).toEqual([]);
      expect(moveDialogs()).toEqual([]);
    });

    it('moving past an opponent offers the GM an attack of opportunity; its Attack is accepted once, a second refused', async () => {
      // Orc 2 far away; Brand goes east along row 1 from (0,1) to (6,1), past Orc 1 at (3,0): 15 ft within its range.
      await token(w, w.ids.orc2).update({ x: 900, y: 900 });
      await token(w, w.ids.brand).update({ x: 0, y: 100 });
      await settled(w);
      await d12Round(w);
      await drag(w, w.foundry.users.player2, w.ids.brand, 6, 1);
      expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.brand, feet: 30, reach: [{ c: w.ids.orc1, feet: 15, startIn: false, endIn: false }], provoked: [{ by: w.ids.orc1, grant: 'opportunity', reason: 'd12AooMoving' }] })]);
      const [card] = opportunityCards(w);
      expect(cardText(card)).toContain('Orc 1 may make an attack of opportunity on Brand.');
      expect(cardText(card)).toContain('Moving more than 5 feet within melee range');
      // Whispered to the GMs: no player sees it.
      expect(card.whisper.length).toBeGreaterThan(0);
      expect(card.whisper.every((id: string) => g.game.users.get(id).isGM)).toBe(true);
      // The button: the ordinary attack request (Orc 1's axe, its first routine); natural 5 misses AC 5.
      w.foundry.dice.push(5);
      await attackFromCard(card);
      await settled(w);
      expect((w.combat.flowState as any).attacks).toEqual([expect.objectContaining({ c: w.ids.orc1, target: w.ids.brand })]);
      expect((g.game.messages.contents as any[]).filter((m) => cardKind(m) === 'attack')).toHaveLength(1);
      // The card as drawn: its button for a GM, removed for anyone else.
      const drawn = () => {
        const button = { removed: false, listeners: 0, remove() { this.removed = true; }, addEventListener() { this.listeners++; } };
        return { button, html: { querySelector: () => button } as unknown as HTMLElement };
      };
      const forGM = drawn();
      wireOpportunityCard(card, forGM.html);
      expect(forGM.button).toMatchObject({ removed: false, listeners: 1 });
      const forPlayer = drawn();
      await w.foundry.client(w.foundry.users.player2).run(() => wireOpportunityCard(card, forPlayer.html));
      expect(forPlayer.button).toMatchObject({ removed: true, listeners: 0 });
      // "Generally only one AoO per round": a second press is refused in words.
      await attackFromCard(card);
      await settled(w);
      expect(w.foundry.notifications.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('attack of opportunity') });
      expect((g.game.messages.contents as any[]).filter((m) => cardKind(m) === 'attack')).toHaveLength(1);
    });
  });

  describe('high-low: a flight out of melee', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'high-low');
    });

    it('the fleeing orc leaving Brand\'s melee range offers Brand a free attack', async () => {
      // Orc 1 beside Brand (1,0) at (2,0); Orc 2 far away.
      await token(w, w.ids.orc1).update({ x: 200, y: 0 });
      await token(w, w.ids.orc2).update({ x: 900, y: 900 });
      await settled(w);
      w.foundry.dice.push(5, 5); // nobody surprised
      await w.combat.startCombat();
      await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
      await requestDeclaration(w.combat, w.ids.orc1, { action: 'flee' });
      await requestDeclaration(w.combat, w.ids.orc2, { action: 'melee', target: w.ids.brand });
      w.foundry.dice.push(6, 2); // the party HIGH
      await w.combat.rollInitiative();
      await settled(w);
      expect(w.combat.flowState).toMatchObject({ stage: 'resolve' });
      // The GM moves the orc away east: it began within Brand's range and ends outside it.
      await drag(w, w.foundry.users.gm, w.ids.orc1, 6, 0);
      expect(moves(w)).toEqual([expect.objectContaining({ c: w.ids.orc1, provoked: [{ by: w.ids.brand, grant: 'free-attack', reason: 'highLowFleeFreeAttack' }] })]);
      const [card] = opportunityCards(w);
      expect(cardText(card)).toContain('Brand may make a free attack on Orc 1.');
      expect(cardText(card)).toContain('Long sword');
    });
  });
});
