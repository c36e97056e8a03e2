/**
 * Token status icons and the "your turn" notice (src/documents/token-status.ts)
 * on every client of a world with a GM and two players: the icons are what a
 * Token draws (its actor's `temporaryEffects`) and follow the combat's log on
 * each client without a write; the notice goes once a step to the owner of a
 * combatant acting in it, never to the GM, never of a hidden combatant.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import type { FlowState } from '../../src/rules/flow';

/** The status ids an actor's tokens show on a user's client. */
async function icons(w: World, user: any, actor: any): Promise<string[]> {
  return w.foundry.client(user).run(() => g.game.actors.get(actor.id).temporaryEffects.map((e: any) => e.id));
}

/** Every client's icons of an actor: gm, player 1, player 2. */
async function everywhere(w: World, actor: any): Promise<string[][]> {
  const { gm, player, player2 } = w.foundry.users;
  return Promise.all([gm, player, player2].map((u) => icons(w, u, actor)));
}

const infos = (w: World, user: any) => w.foundry.client(user).notifications.filter((n) => n.type === 'info').map((n) => n.message);

describe.each([13, 14] as const)('token statuses and the "your turn" notice, generation %i', (generation) => {
  it('registers the statuses with core icons, not offered in the token HUD', async () => {
    await makeWorld(generation, 'segment-d6');
    const ours = g.CONFIG.statusEffects.filter((e: any) => e.id.startsWith('ten-segments.'));
    expect(ours.map((e: any) => [e.id, g.game.i18n.localize(e.name), e.img, e.hud])).toEqual([
      ['ten-segments.surprised', 'Surprised', 'icons/svg/daze.svg', false],
      ['ten-segments.casting', 'Casting', 'icons/svg/book.svg', false],
      ['ten-segments.delayed', 'Delayed', 'icons/svg/clockwork.svg', false],
      ['ten-segments.holding', 'Holding an action', 'icons/svg/target.svg', false],
      ['ten-segments.bleeding', 'Bleeding', 'icons/svg/blood.svg', false],
      ['ten-segments.routed', 'Routed', 'icons/svg/terror.svg', false],
    ]);
  });

  it('surprised in the surprise segment, then gone; casting from its beginning until it goes off; on every client, redrawn, nothing written; Previous and a deleted combat take them back', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids, actors } = w;
    const { player, player2 } = foundry.users;
    foundry.dice.push(5, 1); // the party 5, the orcs 1: one surprise segment
    await combat.startCombat();
    await foundry.settle();
    expect(await everywhere(w, actors.orc1)).toEqual([['ten-segments.surprised'], ['ten-segments.surprised'], ['ten-segments.surprised']]);
    expect(await everywhere(w, actors.brand)).toEqual([[], [], []]);

    // The GM hides the second orc: the players' maps show nothing of it, the GM's still does.
    await combat.combatants.get(ids.orc2)!.update({ hidden: true });
    await foundry.settle();
    expect(await everywhere(w, actors.orc2)).toEqual([['ten-segments.surprised'], [], []]);

    await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id, target: ids.orc1 }));
    await foundry.settle();
    const redraws: unknown[] = [];
    await foundry.client(player2).run(() => {
      g.game.actors.get(actors.orc1.id).getActiveTokens = () => [{ renderFlags: { set: (flags: unknown) => redraws.push(flags) } }];
    });
    foundry.writes.clear();
    await combat.rollInitiative(); // the surprise segment: she begins Sleep (2 segments)
    await foundry.settle();
    expect(await everywhere(w, actors.halvaine)).toEqual([['ten-segments.casting'], ['ten-segments.casting'], ['ten-segments.casting']]);
    expect((await everywhere(w, actors.orc1))[2]).toEqual(['ten-segments.surprised']);
    expect(redraws).toEqual([]); // the orc's icons did not change: its token is not redrawn

    await combat.nextTurn(); // the surprise is over
    await foundry.settle();
    expect(await everywhere(w, actors.orc1)).toEqual([[], [], []]);
    expect(redraws).toEqual([{ redrawEffects: true }]);
    expect((await everywhere(w, actors.halvaine))[1]).toEqual(['ten-segments.casting']); // carried out of the surprise
    await combat.nextTurn(); // round 1's declarations
    await foundry.settle();
    expect((await everywhere(w, actors.halvaine))[2]).toEqual(['ten-segments.casting']); // carried into round 1
    // Only the log and the chat cards (surprise, initiative, the recap): no status is stored.
    expect(foundry.writes.all().filter((r: any) => r.documentName !== 'Combat' && r.documentName !== 'ChatMessage')).toEqual([]);

    foundry.dice.push(5, 4);
    await combat.rollInitiative();
    await foundry.settle();
    const state = () => combat.flowState as FlowState;
    const off = state().schedule!.steps.findIndex((s) => s.entries.some((e) => e.combatant === ids.halvaine && e.kind === 'cast-complete'));
    expect(off).toBeGreaterThanOrEqual(0);
    while (state().step < off) await combat.nextTurn();
    await foundry.settle();
    expect(await everywhere(w, actors.halvaine)).toEqual([[], [], []]); // gone off
    await combat.previousTurn();
    await foundry.settle();
    expect(await everywhere(w, actors.halvaine)).toEqual([['ten-segments.casting'], ['ten-segments.casting'], ['ten-segments.casting']]);

    await combat.delete();
    await foundry.settle();
    expect(await everywhere(w, actors.halvaine)).toEqual([[], [], []]);
    expect(foundry.errors).toEqual([]);
  });

  it('"your turn": each player is told of their own combatant acting in the step, once; the GM of nothing', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids, actors } = w;
    const { gm, player, player2 } = foundry.users;
    foundry.dice.push(5, 5); // nobody surprised
    await combat.startCombat();
    await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id, target: ids.orc1 }));
    await foundry.asUser(player2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    await requestDeclaration(combat, ids.orc2, { action: 'melee', target: ids.halvaine });
    await foundry.settle();
    foundry.dice.push(5, 4); // the party acts in segment 4, the orcs in 5
    await combat.rollInitiative();
    await foundry.settle();
    const current = (combat.flowState as FlowState).schedule!.steps[(combat.flowState as FlowState).step];
    expect(current.entries.map((e) => e.combatant).sort()).toEqual([ids.halvaine, ids.brand].sort());
    expect(infos(w, player)).toEqual(['Halvaine acts now — Segment 4: begins casting Sleep.']);
    expect(infos(w, player2)).toEqual(['Brand acts now — Segment 4: attacks in melee.']);
    expect(infos(w, gm)).toEqual([]);

    // The same step again: a hit recorded (a new log entry, the step unchanged) and the trackers drawn anew tell nothing.
    await actors.orc1.update({ 'system.hp.value': 2 });
    await foundry.settle();
    for (const u of [gm, player, player2]) await foundry.client(u).run(() => g.ui.combat.render());
    await foundry.settle();
    expect((combat.flowState as FlowState).hits).toHaveLength(1);
    expect(infos(w, player)).toHaveLength(1);
    expect(infos(w, player2)).toHaveLength(1);

    // The orcs' step: the GM's monsters, nobody is told.
    await combat.nextTurn();
    await foundry.settle();
    expect([infos(w, gm), infos(w, player).length, infos(w, player2).length]).toEqual([[], 1, 1]);
    expect(foundry.errors).toEqual([]);
  });

  it('a held action released in a later step: its owner is told then, once', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { player2 } = foundry.users;
    foundry.dice.push(5, 5);
    await combat.startCombat();
    await foundry.asUser(player2, () => requestDeclaration(combat, ids.brand, { action: 'wait' }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    foundry.dice.push(5, 4); // the party in segment 4, the orcs in 5
    await combat.rollInitiative();
    await foundry.settle();
    expect(infos(w, player2)).toEqual(['Brand acts now — Segment 4: waits.']);
    expect(await everywhere(w, w.actors.brand)).toEqual([['ten-segments.holding'], ['ten-segments.holding'], ['ten-segments.holding']]);
    await combat.nextTurn(); // the orcs' segment
    await foundry.settle();
    expect(infos(w, player2)).toHaveLength(1);
    expect(await foundry.asUser(player2, () => g.game.tenSegments.release(ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }))).toEqual({ ok: true });
    await foundry.settle();
    expect(infos(w, player2)).toEqual(['Brand acts now — Segment 4: waits.', 'Brand acts now — Segment 5: attacks in melee.']);
    expect(await everywhere(w, w.actors.brand)).toEqual([[], [], []]);
    await w.actors.orc1.update({ 'system.hp.value': 2 });
    await foundry.settle();
    expect(infos(w, player2)).toHaveLength(2);
    expect(foundry.errors).toEqual([]);
  });

  it('German: the notice in the players\' language', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    w.foundry.loadLang('lang/de.json');
    const { combat, foundry, ids } = w;
    foundry.dice.push(5, 5);
    await combat.startCombat();
    await foundry.asUser(foundry.users.player2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    foundry.dice.push(5, 4);
    await combat.rollInitiative();
    await foundry.settle();
    expect(infos(w, foundry.users.player2)).toEqual(['Brand ist jetzt dran — Segment 4: greift im Nahkampf an.']);
    expect(infos(w, foundry.users.player)).toEqual([]);
  });

  it('a new character\'s token is linked and friendly, a monster\'s unlinked and hostile, so each joins its side; what the creation data sets stands', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { FRIENDLY, HOSTILE, NEUTRAL } = g.CONST.TOKEN_DISPOSITIONS;
    expect(w.actors.halvaine.prototypeToken).toMatchObject({ actorLink: true, disposition: FRIENDLY });
    expect(w.actors.orc1.prototypeToken).toMatchObject({ actorLink: false, disposition: HOSTILE });
    const [hireling, ogre] = await g.Actor.create([
      { name: 'Hireling', type: 'character', prototypeToken: { disposition: NEUTRAL } },
      { name: 'Ogre', type: 'monster', system: { hitDice: '4+1', hp: { value: 19, max: 19 } }, prototypeToken: { actorLink: true } },
    ]);
    expect(hireling.prototypeToken).toMatchObject({ actorLink: true, disposition: NEUTRAL });
    expect(ogre.prototypeToken).toMatchObject({ actorLink: true, disposition: HOSTILE });
    // Every client sees the same prototype (the creating client set it before the write).
    expect(w.foundry.client(w.foundry.users.player).game.actors.get(ogre.id).prototypeToken).toMatchObject({ actorLink: true, disposition: HOSTILE });
  });
});
