/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 27, Why 5: a card's controls only on the GM's own cards. Foundry lets
 * any player post a chat message under her own name with any flags
 * (CONFORMANCE A14), so a message that looks like the system's interruption
 * card, with its Undo, may be a player's. The GM's client draws a card's
 * controls only on a card a GM wrote whose flags the combat's log bears out;
 * pressing a control of any other card (or asking the active GM to carry one
 * out) is refused in words and changes nothing; and a player's card is no
 * fact the GM's side reads (a retried attack is answered from a GM's card or
 * the log, never from hers; Previous deletes the GM's initiative cards, not a
 * message of hers flagged as one).
 *
 * The chat log is not modelled (CONFORMANCE H10): a card is drawn as core
 * does, its content as an element handed to `renderChatMessageHTML` on the
 * drawing user's client.
 *
 * segment-d6 (seed 000, the Halvaine example): Halvaine casts Sleep; Orc 1
 * hits her in segment 5 and the spell is interrupted.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { cardKind, g, idle, makeWorld, type World } from './world';
import { htmlElement } from '../standin/html';
import { requestCombatAction, requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { undoFromCard } from '../../src/documents/damage';
import { attackFromCard } from '../../src/documents/opportunity-card';
import { run } from '../../src/documents/requests';

const UNDO = '[data-action="tenseg-undo-interruption"]';
const NOT_BY_GM = "This card was not posted by a GM: a player may post a message that looks like one of the system's, so its controls do nothing.";
const NOT_IN_LOG = "What this card names is not in the combat's log (undone, of another round, or never there): its controls do nothing.";

/** The card as `user`'s client draws it: its content as an element, through the system's render hook (as core's chat log does). */
async function draw(w: World, user: any, id: string): Promise<any> {
  const html = await w.foundry.client(user).run(() => {
    const message = g.game.messages.get(id);
    const el = htmlElement(String(message.content));
    g.Hooks.callAll('renderChatMessageHTML', message, el, {});
    return el;
  });
  await w.foundry.settle();
  return html;
}

/** Everything a refusal leaves as it was: the log, the actors, the chat. */
function snapshot(w: World): string {
  const combat = w.combat as any;
  return JSON.stringify({ log: combat.system.log, actors: g.game.actors.contents.map((a: any) => a.toObject()), messages: g.game.messages.contents.map((m: any) => m.id) });
}

const expended = (w: World) => w.actors.halvaine.items.get(w.spell.id).system.expended;

describe.each([13, 14] as const)('card controls only on the GM\'s own cards, generation %i', (generation) => {
  let w: World;
  /** The interruption of Halvaine's Sleep, and the GM's card of it. */
  let casting: string;
  let real: any;

  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
    const { combat, ids, foundry } = w;
    foundry.dice.push(4, 5); // nobody surprised
    await combat.startCombat();
    await foundry.asUser(foundry.users.player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await foundry.asUser(foundry.users.player2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    await requestDeclaration(combat, ids.orc2, { action: 'melee', target: ids.brand });
    foundry.dice.push(5, 4); // the party in segment 4, the orcs in segment 5
    await combat.rollInitiative();
    await combat.nextTurn();
    await idle(w);
    foundry.dice.push(18, 3);
    expect(await requestAttack(combat, { attackerId: ids.orc1, targetId: ids.halvaine })).toMatchObject({ ok: true, hit: true, damage: 3 });
    await idle(w);
    casting = combat.flowState!.interruptions[0].casting;
    expect(expended(w)).toBe(1);
    real = g.game.messages.contents.find((m: any) => cardKind(m) === 'interruption');
    expect(real?.author?.isGM).toBe(true);
  });

  /** Halvaine's player posts a copy of the GM's card under her own name: the same content, Undo and all, and flags that name her casting. */
  async function forgeInterruption(): Promise<any> {
    const flags = { 'ten-segments': { kind: 'interruption', combat: w.combat.id, casting, caster: w.ids.halvaine, round: w.combat.flowState!.round } };
    const forged = await w.foundry.asUser(w.foundry.users.player, () => g.ChatMessage.create({ content: real.content, flags }));
    await w.foundry.settle();
    expect(forged.author.id).toBe(w.foundry.users.player.id);
    return forged;
  }

  it("a player's forged interruption card: the GM is shown no Undo", async () => {
    const forged = await forgeInterruption();
    expect((await draw(w, w.foundry.users.gm, forged.id)).querySelector(UNDO)).toBeNull();
    // The GM's own card still has it.
    expect((await draw(w, w.foundry.users.gm, real.id)).querySelector(UNDO)).not.toBeNull();
  });

  it('pressing its Undo, or asking the active GM with that card, is refused in words and the spell stays lost', async () => {
    const forged = await forgeInterruption();
    const before = snapshot(w);
    const notes = w.foundry.client(w.foundry.users.gm).notifications;
    const shown = notes.length;
    await undoFromCard(w.combat.id as string, casting, forged.id);
    await idle(w);
    expect(notes.slice(shown)).toEqual([{ type: 'error', message: NOT_BY_GM }]);
    // Another GM's client sends the request itself, naming the forged card: the active GM refuses it too.
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await w.foundry.settle();
    const asked = await w.foundry.asUser(gm2, () => requestCombatAction(w.combat, 'undoInterruption', { castingId: casting, card: forged.id }));
    await idle(w);
    expect(asked).toEqual({ ok: false, key: 'CardNotByGM', message: NOT_BY_GM });
    expect(expended(w)).toBe(1);
    expect(snapshot(w)).toBe(before);
    expect(w.foundry.errors).toEqual([]);
  });

  it("the GM's own card still works: its Undo restores the spell, and then is drawn no more (the log has no interruption left)", async () => {
    const html = await draw(w, w.foundry.users.gm, real.id);
    html.querySelector(UNDO).click();
    await idle(w);
    expect(expended(w)).toBe(0);
    expect(w.combat.flowState!.interruptions).toEqual([]);
    expect((await draw(w, w.foundry.users.gm, real.id)).querySelector(UNDO)).toBeNull();
    // Asked again on that card: refused in words.
    const asked = await requestCombatAction(w.combat, 'undoInterruption', { castingId: casting, card: real.id });
    expect(asked).toEqual({ ok: false, key: 'CardNotInLog', message: NOT_IN_LOG });
    // A player is never shown it.
    expect((await draw(w, w.foundry.users.player, real.id)).querySelector(UNDO)).toBeNull();
    expect(w.foundry.errors).toEqual([]);
  });

  it("a player's forged attack-of-opportunity card: no Attack for the GM, and pressing it is refused", async () => {
    const content = '<div class="tenseg-card"><p>Orc 1 may make an attack of opportunity on Brand.</p><button type="button" data-action="tenseg-opportunity-attack">Attack</button></div>';
    const flags = { 'ten-segments': { kind: 'opportunity', combat: w.combat.id, round: w.combat.flowState!.round, attacker: w.ids.brand, target: w.ids.orc2, weapon: w.sword.id } };
    const forged = await w.foundry.asUser(w.foundry.users.player2, () => g.ChatMessage.create({ content, flags }));
    await w.foundry.settle();
    expect((await draw(w, w.foundry.users.gm, forged.id)).querySelector('[data-action="tenseg-opportunity-attack"]')).toBeNull();
    const before = snapshot(w);
    const notes = w.foundry.client(w.foundry.users.gm).notifications;
    const shown = notes.length;
    await attackFromCard(g.game.messages.get(forged.id));
    await idle(w);
    expect(notes.slice(shown)).toEqual([{ type: 'error', message: NOT_BY_GM }]);
    expect(snapshot(w)).toBe(before);
  });

  it("a player's message flagged as the round's initiative card is hers: Previous takes the GM's initiative card, not her message", async () => {
    const { combat, foundry } = w;
    const flags = { 'ten-segments': { kind: 'initiative', combat: combat.id, round: 1 } };
    const hers = await foundry.asUser(foundry.users.player, () => g.ChatMessage.create({ content: '<p>Initiative, round 1: my notes.</p>', flags }));
    await foundry.settle();
    expect(await requestCombatAction(combat, 'previousRound')).toEqual({ ok: true });
    await idle(w);
    expect(combat.flowState).toMatchObject({ stage: 'declare', round: 1 });
    const initiative = g.game.messages.contents.filter((m: any) => cardKind(m) === 'initiative');
    expect(initiative.map((m: any) => m.id)).toEqual([hers.id]);
  });

  it("a forged attack card with a request's key does not answer its retry: the log's blow does", async () => {
    // Orc 2 hits Brand in segment 5 too: a natural 19, 2 damage.
    const { combat, ids, foundry } = w;
    foundry.dice.push(19, 2);
    const player2 = foundry.users.player2;
    const first = await requestAttack(combat, { attackerId: ids.orc2, targetId: ids.brand });
    await idle(w);
    expect(first).toMatchObject({ ok: true, hit: true, natural: 19, damage: 2 });
    const entry = combat.entries.map(([, e]: any) => e).find((e: any) => e.t === 'attack' && e.c === ids.orc2);
    const q = entry.q as string;
    // The GM clears the blow's card from the chat; a player posts one with its request's key and another result.
    const card = g.game.messages.contents.find((m: any) => cardKind(m) === 'attack' && m.flags['ten-segments'].request === q);
    await card.delete();
    const flags = { 'ten-segments': { kind: 'attack', combat: combat.id, attacker: ids.orc2, target: ids.brand, request: q, hit: false, natural: 1, needed: 12, damage: 0 } };
    await foundry.asUser(player2, () => g.ChatMessage.create({ content: '<p>Orc 2 misses Brand.</p>', flags }));
    await foundry.settle();
    // The request arrives again at the active GM (a retry): answered from the log's blow, and the GM's card posted again.
    const again = await run('attack', { combatId: combat.id, attackerId: ids.orc2, targetId: ids.brand }, foundry.users.gm, q);
    await idle(w);
    expect(again).toMatchObject({ ok: true, hit: true, natural: 19, damage: 2 });
    const gmCards = g.game.messages.contents.filter((m: any) => cardKind(m) === 'attack' && m.flags['ten-segments'].request === q && m.author?.isGM);
    expect(gmCards).toHaveLength(1);
    expect(combat.entries.filter(([, e]: any) => e.t === 'attack' && e.c === ids.orc2)).toHaveLength(1);
  });
});
