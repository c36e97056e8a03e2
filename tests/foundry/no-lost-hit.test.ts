/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 27, Why 3: no hit is lost when the active GM drops. The GM's client
 * writes a blow to the combat log, then the damage to the target's actor; if
 * it stops between the two, the next GM to become active finishes what the
 * log says (the actor's health, the blow's card), and the player's request,
 * sent again to that GM, is answered with the blow it made (not refused as
 * "no attack left"). segment-d6 (seed 001): Brand's natural 20 hits Orc 1
 * (6 hp) for the sword's 5.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { brandVersusOrcs, g, makeWorld, type World } from './world';
import { requestAttack } from '../../src/documents/attack';

const attackCards = (game: any) => game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'attack');

describe.each([13, 14] as const)('no hit lost when the GM drops, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
    // Nobody surprised; Brand's sword at Orc 1, Orc 1 at Brand; the party in segment 1.
    await brandVersusOrcs(w, [4, 5], { orcs: [w.ids.orc1], initiative: [6, 1] });
  });

  /**
   * Player 2's attack; the network delivers until the active GM's client has
   * the blow in the log and its write of the orc's actor is on its way to the
   * server; then that GM goes (the write is lost with it).
   */
  async function gmDropsMidBlow(): Promise<{ asked: Promise<unknown>; gm2: any }> {
    const { foundry } = w;
    const gm = foundry.users.gm;
    const gm2 = foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await foundry.settle();
    foundry.dice.push(20, 5);
    foundry.network.hold();
    const asked = foundry.asUser(foundry.users.player2, () => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
    let caught = false;
    for (let i = 0; i < 2000 && !caught; i++) {
      const next = foundry.network.pending[0];
      if (!next) await new Promise((r) => setImmediate(r));
      else if (next.from === gm.id && next.type === 'modifyDocument' && next.action === 'update' && next.documentName === 'Actor') caught = true;
      else await foundry.network.deliver(1);
    }
    expect(caught).toBe(true);
    // The blow is in the log the server holds.
    expect(w.combat.flowState!.states[w.ids.orc1].hp).toBe(1);
    foundry.disconnect(gm);
    foundry.network.release();
    await foundry.settle();
    return { asked, gm2 };
  }

  it("the next GM writes the orc's health as the log has it; the player's retry gets the blow's answer", async () => {
    const { asked, gm2 } = await gmDropsMidBlow();
    const game2 = w.foundry.client(gm2).game;
    const orc = game2.combats.get(w.combat.id).combatants.get(w.ids.orc1);
    expect(orc.actor.system.hp.value).toBe(1);
    expect(await asked).toMatchObject({ ok: true, hit: true, natural: 20, damage: 5 });
    // Counted once: the flow holds one blow of Brand's and the orc at 1 hp, not healed back to 6.
    const flow = game2.combats.get(w.combat.id).flowState;
    expect(flow.states[w.ids.orc1].hp).toBe(1);
    expect(game2.combats.get(w.combat.id).entries.filter(([, e]: any) => e.t === 'attack' && e.c === w.ids.brand)).toHaveLength(1);
  });

  it("the blow's card is posted once, by a GM, whoever finished it", async () => {
    const { asked, gm2 } = await gmDropsMidBlow();
    await asked;
    const cards = attackCards(w.foundry.client(gm2).game);
    expect(cards).toHaveLength(1);
    expect(cards[0].author?.isGM).toBe(true);
    // Brand's player sees it.
    expect(attackCards(w.foundry.client(w.foundry.users.player2).game)).toHaveLength(1);
  });

  it('the player asks again after the new GM finished: the same answer, nothing dealt twice', async () => {
    const { asked, gm2 } = await gmDropsMidBlow();
    const first = await asked;
    w.foundry.dice.push(20, 8);
    const again = await w.foundry.asUser(w.foundry.users.player2, () => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
    await w.foundry.settle();
    expect(first).toMatchObject({ ok: true, damage: 5 });
    expect(again).not.toMatchObject({ ok: true });
    const orc = w.foundry.client(gm2).game.combats.get(w.combat.id).combatants.get(w.ids.orc1);
    expect(orc.actor.system.hp.value).toBe(1);
  });
});
