/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 27, Why 2: health is the GM's during a combat. Halvaine's player
 * (player 1) heals her from 4 to 500 hp on her own sheet mid-round: the
 * fight keeps 4, the active GM writes 4 back onto the actor (so her sheet
 * and token bar show the fight's value) and whispers the GMs a card with
 * Accept and Put back. Accept makes it the GM's own change (the fight takes
 * 500, as it takes a GM's edit); Put back leaves the fight's value. A
 * player cannot press them (no buttons; a forged request refused in words),
 * and a card a player forged with the same flags shows a GM no buttons.
 * A value no model accepts (1e308, "abc", null) written raw by a modified
 * client is repaired in the stored document by the active GM, so the
 * server and the clients agree and the actor survives a reload.
 * segment-d6 (seed 001); Stress and Wound Points under individual-speed.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cardsSeenBy, cardText, g, idle, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { CHANNEL } from '../../src/documents/requests';
import { resolveHealthFromCard, wireHealthCard } from '../../src/documents/health-card';

const healthCards = (game: any) => game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'health');

/** The card as a client draws it: stubs of its two buttons, which the wiring removes or listens on. */
function drawn(): { buttons: any[]; html: HTMLElement } {
  const stub = (action: string) => ({ dataset: { action }, removed: false, listeners: [] as (() => void)[], remove() { this.removed = true; }, addEventListener(_e: string, fn: () => void) { this.listeners.push(fn); } });
  const buttons = [stub('tenseg-health-accept'), stub('tenseg-health-putback')];
  return { buttons, html: { querySelectorAll: () => buttons } as unknown as HTMLElement };
}

/** What a client hears on the system socket. */
function listen(w: World, user: any): { data: any; sender: string }[] {
  const heard: { data: any; sender: string }[] = [];
  w.foundry.client(user).run(() => g.game.socket.on(CHANNEL, (data: any, sender: string) => heard.push({ data, sender })));
  return heard;
}

describe.each([13, 14] as const)('health is the GM\'s during a combat, generation %i', (generation) => {
  let w: World;
  const halvaineOn = (user: any) => w.foundry.client(user).game.actors.get(w.actors.halvaine.id);
  const fightHp = () => w.combat.flowState!.states[w.ids.halvaine].hp;

  describe('segment-d6: hit points', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'segment-d6');
      const { combat, foundry, ids } = w;
      foundry.dice.push(4, 5);
      await combat.startCombat();
      await foundry.asUser(foundry.users.player2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
      await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
      await idle(w);
      foundry.dice.push(6, 1);
      await combat.rollInitiative();
      await idle(w);
      // The GM takes Halvaine down to 4 (a GM's edit: 8 damage, in the fight).
      await w.actors.halvaine.update({ 'system.hp.value': 4 });
      await idle(w);
      expect(fightHp()).toBe(4);
    });

    /** Player 1 heals Halvaine to `hp` on her own sheet. */
    async function playerSets(hp: number): Promise<void> {
      await w.foundry.asUser(w.foundry.users.player, () => g.game.actors.get(w.actors.halvaine.id).update({ 'system.hp.value': hp }));
      await idle(w);
    }

    it('a player\'s 4 → 500 is not taken: the fight keeps 4, every client\'s actor shows 4, the GMs get a card, the player is told', async () => {
      await playerSets(500);
      expect(fightHp()).toBe(4);
      for (const user of [w.foundry.users.gm, w.foundry.users.player, w.foundry.users.player2]) expect(halvaineOn(user).system.hp.value).toBe(4);
      expect(w.foundry.server.sources('Actor').find((a: any) => a._id === w.actors.halvaine.id).system.hp.value).toBe(4);
      const [card] = healthCards(g.game);
      expect(cardText(card)).toContain("Player 1 set Halvaine's hit points to 500 (the fight has 4).");
      expect(card.author.isGM).toBe(true);
      expect(card.whisper.length).toBeGreaterThan(0);
      expect(card.whisper.every((id: string) => g.game.users.get(id).isGM)).toBe(true);
      expect(cardsSeenBy(w, w.foundry.users.player, 'health')).toEqual([]);
      expect(cardsSeenBy(w, w.foundry.users.gm, 'health')).toHaveLength(1);
      // The buttons, drawn for a GM: Accept and Put back, each listened to.
      const forGM = drawn();
      wireHealthCard(card, forGM.html);
      expect(forGM.buttons.map((b) => [b.removed, b.listeners.length])).toEqual([[false, 1], [false, 1]]);
      // Drawn for a player: none.
      const forPlayer = drawn();
      await w.foundry.client(w.foundry.users.player).run(() => wireHealthCard(card, forPlayer.html));
      expect(forPlayer.buttons.every((b) => b.removed && b.listeners.length === 0)).toBe(true);
      // The player is told, on her own client.
      expect(w.foundry.client(w.foundry.users.player).notifications.at(-1)).toMatchObject({ type: 'warn', message: expect.stringContaining('the GM has been asked') });
      expect(w.foundry.errors).toEqual([]);
    });

    it('Accept: the active GM applies 500 as its own change, the fight takes it, the card says so', async () => {
      await playerSets(500);
      const [card] = healthCards(g.game);
      const forGM = drawn();
      wireHealthCard(card, forGM.html);
      forGM.buttons[0].listeners[0]();
      await idle(w);
      expect(fightHp()).toBe(500);
      expect(halvaineOn(w.foundry.users.player).system.hp.value).toBe(500);
      const after = healthCards(g.game)[0];
      expect(cardText(after)).toContain('Accepted by Gamemaster');
      const again = drawn();
      wireHealthCard(after, again.html);
      expect(again.buttons.every((b) => b.removed)).toBe(true);
      // A second press: refused in words, nothing more.
      await resolveHealthFromCard(after, true);
      await idle(w);
      expect(w.foundry.notifications.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('already been accepted') });
      expect(w.foundry.errors).toEqual([]);
    });

    it('Put back: the fight and the actor keep 4, the card says so', async () => {
      await playerSets(500);
      const [card] = healthCards(g.game);
      await resolveHealthFromCard(card, false);
      await idle(w);
      expect(fightHp()).toBe(4);
      expect(halvaineOn(w.foundry.users.gm).system.hp.value).toBe(4);
      expect(cardText(healthCards(g.game)[0])).toContain('Put back by Gamemaster');
    });

    it('a second change while the card is open brings that card up to date (one card)', async () => {
      await playerSets(500);
      await playerSets(50);
      expect(healthCards(g.game)).toHaveLength(1);
      expect(cardText(healthCards(g.game)[0])).toContain('to 50 (the fight has 4)');
      expect(fightHp()).toBe(4);
    });

    it('a player pressing Accept, or forging its request, is refused in words; nothing changes', async () => {
      await playerSets(500);
      const [card] = healthCards(g.game);
      const p1 = w.foundry.users.player;
      // Pressing (the card's code run on her client).
      const theirs = w.foundry.client(p1).game.messages.get(card.id) ?? card;
      await w.foundry.asUser(p1, () => resolveHealthFromCard(theirs, true));
      expect(w.foundry.client(p1).notifications.at(-1)).toMatchObject({ type: 'error', message: 'Only the GM can do that.' });
      // Forging the request to the active GM.
      const heard = listen(w, p1);
      w.foundry.raw(p1).emit(CHANNEL, { k: 'req', id: 'forged1', kind: 'health', body: { messageId: card.id, accept: true } });
      await idle(w);
      const reply = heard.find((h) => h.data?.k === 'ans' && h.data.id === 'forged1');
      expect(reply?.data.answer).toMatchObject({ ok: false, key: 'OnlyGM', message: 'Only the GM can do that.' });
      expect(fightHp()).toBe(4);
      expect(halvaineOn(w.foundry.users.gm).system.hp.value).toBe(4);
      expect(healthCards(g.game)[0].flags['ten-segments'].resolved).toBeUndefined();
    });

    it('a card a player forged with the same flags shows a GM no buttons, and a GM\'s press on it is refused', async () => {
      const p1 = w.foundry.users.player;
      const flags = { 'ten-segments': { kind: 'health', combat: w.combat.id, target: w.ids.halvaine, actor: w.actors.halvaine.uuid, by: p1.id, asked: { hp: 500 }, fight: { hp: 4 } } };
      await w.foundry.asUser(p1, () => g.ChatMessage.create({ content: '<button data-action="tenseg-health-accept">Accept</button>', flags }));
      await idle(w);
      const [forged] = healthCards(g.game);
      expect(forged.author.isGM).toBe(false);
      const forGM = drawn();
      wireHealthCard(forged, forGM.html);
      expect(forGM.buttons.every((b) => b.removed && b.listeners.length === 0)).toBe(true);
      await resolveHealthFromCard(forged, true);
      await idle(w);
      expect(w.foundry.notifications.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('not posted by a GM') });
      expect(fightHp()).toBe(4);
      expect(halvaineOn(w.foundry.users.gm).system.hp.value).toBe(4);
    });

    it('a GM\'s own edit is taken as today: 4 → 500 is healing in the fight, no card', async () => {
      await w.actors.halvaine.update({ 'system.hp.value': 500 });
      await idle(w);
      expect(fightHp()).toBe(500);
      expect(healthCards(g.game)).toHaveLength(0);
    });

    it.each([['1e308', 1e308], ['"abc"', 'abc'], ['null', null]])('a raw %s is repaired to the fight\'s 4 in the stored document, with a notice; the actor survives a reload', async (_label, value) => {
      w.foundry.raw(w.foundry.users.player).modify('update', 'Actor', [{ _id: w.actors.halvaine.id, 'system.hp.value': value }]);
      await idle(w);
      const stored = () => w.foundry.server.sources('Actor').find((a: any) => a._id === w.actors.halvaine.id);
      expect(stored().system.hp.value).toBe(4);
      expect(fightHp()).toBe(4);
      expect(halvaineOn(w.foundry.users.gm).system.hp.value).toBe(4);
      expect(w.foundry.notifications.at(-1)).toMatchObject({ type: 'warn', message: expect.stringContaining('Halvaine was stored with a value no sheet can hold') });
      // No card: nothing to accept.
      expect(healthCards(g.game)).toHaveLength(0);
      for (const user of [w.foundry.users.player, w.foundry.users.gm]) {
        await w.foundry.reload(user);
        await w.foundry.settle();
        expect(halvaineOn(user)?.system.hp.value).toBe(4);
      }
    });
  });

  describe('individual-speed: Stress and Wound Points', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'individual-speed');
      const { actors, combat, foundry, ids } = w;
      await actors.brand.update({ 'system.individual.stress.value': 6, 'system.individual.stress.max': 6, 'system.individual.wounds.value': 12, 'system.individual.wounds.max': 12 });
      foundry.dice.push(12, 1, 12, 12);
      await combat.startCombat();
      await requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 });
      await combat.rollInitiative();
      await idle(w);
    });

    it("Brand's player changing his Stress or Wound Points is not taken; Accept and Put back work on them as on hit points", async () => {
      const fight = () => w.combat.flowState!.states[w.ids.brand];
      const p2 = w.foundry.users.player2;
      const brandOn = (user: any) => w.foundry.client(user).game.actors.get(w.actors.brand.id).system.individual;
      // Stress 6 → 3 on his own sheet: held; accepted, a hit of 3 as a GM's edit would be.
      await w.foundry.asUser(p2, () => g.game.actors.get(w.actors.brand.id).update({ 'system.individual.stress.value': 3 }));
      await idle(w);
      expect(fight()).toMatchObject({ stress: 6, woundPoints: 12 });
      expect(brandOn(p2)).toMatchObject({ stress: { value: 6 }, wounds: { value: 12 } });
      const [card] = healthCards(g.game);
      expect(cardText(card)).toContain("Player 2 set Brand's Stress to 3 (the fight has 6).");
      await resolveHealthFromCard(card, true);
      await idle(w);
      expect(fight()).toMatchObject({ stress: 3, woundPoints: 12 });
      expect(brandOn(p2)).toMatchObject({ stress: { value: 3 }, wounds: { value: 12 } });
      // Wound Points 12 → 50: held; put back, the fight's 12 stays.
      await w.foundry.asUser(p2, () => g.game.actors.get(w.actors.brand.id).update({ 'system.individual.wounds.value': 50 }));
      await idle(w);
      expect(fight()).toMatchObject({ stress: 3, woundPoints: 12 });
      expect(brandOn(p2)).toMatchObject({ stress: { value: 3 }, wounds: { value: 12 } });
      const second = healthCards(g.game)[1];
      expect(cardText(second)).toContain("Player 2 set Brand's Wound Points to 50 (the fight has 12).");
      await resolveHealthFromCard(second, false);
      await idle(w);
      expect(fight()).toMatchObject({ stress: 3, woundPoints: 12 });
      expect(brandOn(w.foundry.users.gm)).toMatchObject({ stress: { value: 3 }, wounds: { value: 12 } });
      expect(w.foundry.errors).toEqual([]);
    });
  });

  describe('outside a fight', () => {
    it.each([['1e308', 1e308], ['"abc"', 'abc'], ['null', null]])('a raw %s is repaired to the last valid value (12), and the actor survives a reload', async (_label, value) => {
      w = await makeWorld(generation, 'segment-d6');
      w.foundry.raw(w.foundry.users.player).modify('update', 'Actor', [{ _id: w.actors.halvaine.id, 'system.hp.value': value }]);
      await idle(w);
      expect(w.foundry.server.sources('Actor').find((a: any) => a._id === w.actors.halvaine.id).system.hp.value).toBe(12);
      await w.foundry.reload(w.foundry.users.player);
      await w.foundry.settle();
      expect(halvaineOn(w.foundry.users.player)?.system.hp.value).toBe(12);
    });

    it('a player\'s own edit outside a fight is hers, as today', async () => {
      w = await makeWorld(generation, 'segment-d6');
      await w.foundry.asUser(w.foundry.users.player, () => g.game.actors.get(w.actors.halvaine.id).update({ 'system.hp.value': 500 }));
      await idle(w);
      expect(halvaineOn(w.foundry.users.gm).system.hp.value).toBe(500);
      expect(healthCards(g.game)).toHaveLength(0);
    });
  });
});
