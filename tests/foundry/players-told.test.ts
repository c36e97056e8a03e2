/**
 * Players are told (issue 29): on a player's client her combatants' rows
 * acting in the step being played are drawn as acting (the notice "Brand
 * acts now — Segment 4: attacks in melee." is tests/foundry/token-status
 * .test.ts's), once a step; a casting lost
 * to a blow rolled GM-only is told to the caster's owners as well as the
 * GMs, without the blow's dice.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, idle, makeWorld } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { trackerContext } from '../../src/apps/tracker/tracker-view';


describe.each([13, 14] as const)('players are told when they act, generation %i', (generation) => {
  it('the tracker draws the rows acting now as acting, on every client', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await foundry.asUser(foundry.users.player2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    foundry.dice.push(5, 4);
    await combat.rollInitiative();
    await idle(w);
    const rows = await foundry.client(foundry.users.player2).run(async () => {
      const tracker = new g.CONFIG.ui.combat();
      await tracker.render({ combat: g.game.combats.get(w.combat.id) });
      return tracker.partContexts.tracker.ts.sides.flatMap((s: any) => s.rows).map((r: any) => [r.name, r.css.split(' ').includes('acting'), r.css.split(' ').includes('owned')]);
    });
    expect(rows).toEqual(expect.arrayContaining([['Brand', true, true], ['Orc 1', false, false], ['Halvaine', false, false]]));
    void trackerContext;
  });

  it('a casting lost to a monster\'s GM-only blow is told to the caster\'s player too, without the dice', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { player, player2 } = foundry.users;
    await g.game.settings.set('ten-segments', 'monsterRollsPrivate', true);
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    foundry.dice.push(5, 4); // Halvaine begins Sleep in segment 4 (it goes off in 6); the orc strikes in 5
    await combat.rollInitiative();
    await combat.nextTurn();
    await idle(w);
    foundry.dice.push(20, 3);
    expect(await requestAttack(combat, { attackerId: ids.orc1, targetId: ids.halvaine, routine: 0 })).toMatchObject({ ok: true });
    await idle(w);
    expect(combat.flowState!.interruptions).toEqual([expect.objectContaining({ caster: ids.halvaine, outcome: 'interrupted' })]);
    const attackCard = g.game.messages.contents.find((m: any) => m.flags?.['ten-segments']?.kind === 'attack');
    const card = g.game.messages.contents.find((m: any) => m.flags?.['ten-segments']?.kind === 'interruption');
    // The blow itself stays the GM's; the lost spell is told to Halvaine's player, not to Brand's.
    expect(attackCard.whisper).not.toContain(player.id);
    expect(card.whisper).toEqual(expect.arrayContaining([player.id]));
    expect(card.whisper).not.toContain(player2.id);
    expect(card.blind).toBeFalsy();
    expect(card.rolls ?? []).toEqual([]);
  });
});
