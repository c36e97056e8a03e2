/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 28, deliver 3, "morale answers at once", as the GM sees it: the
 * tracker's morale button (header, for the monsters) and a row's flag make the
 * check when pressed; the active GM posts its card at once with the dice as a
 * real Roll (Dice So Nice shows the card's rolls), the combatant and the result
 * in words; the row shows the result (routed, or morale held); the end of the
 * round's recap tells each check once.
 *
 * Seeds: 002 (d12-ascending) "the DM can still make such a check in any way he
 * sees fit" (the moraleMethod option, d100 by default); segment-d6 has no
 * morale rule (RULING, src/rules/morale-methods.ts: 2d6 at or under the
 * score, at once); 003 (individual-speed) Step 4 "at the end of each round":
 * a call waits for the end of the round, and its card comes then.
 */
import { describe, expect, it } from 'vitest';
import { makeWorld, type World, idle, cardKind, cardsSeenBy, g } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { draw, press } from './tracker-driver';

const moraleCards = () => g.game.messages.contents.filter((m: any) => cardKind(m) === 'morale');
async function rowBadges(w: World, id: string): Promise<string[]> {
  const drawn = await draw(w, w.foundry.users.gm);
  const row = drawn.ts.sides.flatMap((s: any) => s.rows).find((r: any) => String(r.ids).split(' ').includes(id));
  return (row?.badges ?? []).map((b: any) => b.text);
}
async function toEndOfRound(w: World): Promise<void> {
  for (let i = 0; i < 30 && w.combat.flowState!.stage !== 'end-of-round'; i++) await w.combat.nextTurn();
  await idle(w);
  expect(w.combat.flowState!.stage).toBe('end-of-round');
}
const endOfRound = (w: World) => cardsSeenBy(w, w.foundry.users.gm, 'end-of-round', 'end-of-round-gm');

describe.each([13, 14] as const)('morale answers at once, generation %i', (generation) => {
  it('segment-d6: the row\'s flag rolls 2d6 at once; the card with its Roll, "breaks and flees"; the row shows Routed; the recap tells it once', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await requestDeclaration(w.combat, w.ids.orc2, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    w.foundry.dice.push(4, 5); // 9 on 2d6, over Orc 2's morale 8
    await press(w, gm, 'moraleOne', w.ids.orc2);
    expect(moraleCards()).toHaveLength(1);
    const [card] = moraleCards();
    expect(cardsSeenBy(w, gm, 'morale')).toEqual(['Morale check Orc 2 rolls 9 on 2d6 against morale 8: breaks and flees (routed).']);
    expect(card.rolls).toHaveLength(1);
    expect(card.rolls[0].total).toBe(9);
    expect(card.rolls[0].formula).toBe('2d6');
    expect(w.combat.flowState!.states[w.ids.orc2].routed).toBe(true);
    expect(await rowBadges(w, w.ids.orc2)).toContain('Routed');
    await toEndOfRound(w);
    const [recap] = endOfRound(w);
    expect(recap.match(/Orc 2's morale broke: rolled 9, needing 8 or less\./g)).toHaveLength(1);
    expect(moraleCards()).toHaveLength(1);
  });

  it('d12-ascending: the header\'s button checks each monster at once (d100 at or under morale 8); two cards, one held, one broken; each told once at the end of the round', async () => {
    const w = await makeWorld(generation, 'd12-ascending');
    const { gm } = w.foundry.users;
    w.foundry.dice.push(12, 12);
    await w.combat.startCombat();
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(3, 2);
    await w.combat.rollInitiative();
    await idle(w);
    w.foundry.dice.push(92, 5);
    await press(w, gm, 'moraleCheck');
    expect(cardsSeenBy(w, gm, 'morale')).toEqual([
      'Morale check Orc 1 rolls 92 on d100 against morale 8: breaks and flees (routed).',
      'Morale check Orc 2 rolls 5 on d100 against morale 8: holds.',
    ]);
    expect(moraleCards().map((m: any) => m.rolls.map((r: any) => r.total))).toEqual([[92], [5]]);
    expect(await rowBadges(w, w.ids.orc1)).toContain('Routed');
    expect(await rowBadges(w, w.ids.orc2)).toContain('Morale held');
    await toEndOfRound(w);
    const [recap] = endOfRound(w);
    expect(recap.match(/morale/g)).toHaveLength(2);
    expect(recap).toContain("Orc 1's morale broke: rolled 92, needing 8 or less.");
    expect(recap).toContain("Orc 2's morale held: rolled 5, needing 8 or less.");
    // Round 2 tells neither again.
    await w.combat.nextTurn();
    w.foundry.dice.push(3, 2);
    await w.combat.rollInitiative();
    await idle(w);
    await toEndOfRound(w);
    expect(endOfRound(w)[1]).not.toContain('morale');
    expect(moraleCards()).toHaveLength(2);
  });

  it('addict, phase 4 ("a morale check should be made right off the bat"): the opening check\'s card as a called check\'s, with its Roll, once', async () => {
    const w = await makeWorld(generation, 'addict', { moraleDie: '2d6' });
    const { gm } = w.foundry.users;
    w.foundry.dice.push(4, 2); // surprise: the orcs surprised for two segments
    await w.combat.startCombat();
    expect(w.combat.flowState!).toMatchObject({ stage: 'declare', round: 0, opening: null });
    w.foundry.dice.push(6, 5, 1, 2); // Orc 1: 11 on 2d6 over its morale 8; Orc 2: 3
    await press(w, gm, 'moraleCheck');
    expect(w.combat.flowState!.opening).toHaveLength(2);
    expect(cardsSeenBy(w, gm, 'morale')).toEqual([
      'Opening morale Orc 1 rolls 11 on 2d6 against morale 8: breaks and flees (routed).',
      'Opening morale Orc 2 rolls 3 on 2d6 against morale 8: holds.',
    ]);
    expect(moraleCards().map((m: any) => m.rolls.map((r: any) => [r.formula, r.total]))).toEqual([[['2d6', 11]], [['2d6', 3]]]);
    expect(moraleCards().map((m: any) => m.flags['ten-segments'].round)).toEqual([0, 0]);
    expect(w.combat.flowState!.states[w.ids.orc1].routed).toBe(true);
    // Once: the surprise segments and round 1 post no second card of it.
    await w.combat.rollInitiative();
    await idle(w);
    for (let i = 0; i < 30 && w.combat.flowState!.round === 0; i++) await w.combat.nextTurn();
    await idle(w);
    expect(moraleCards()).toHaveLength(2);
    expect(g.game.messages.contents.filter((m: any) => cardKind(m) === 'opening-morale')).toHaveLength(0);
  });

  it('d12-ascending (002, "Effects of Failed Morale": "Surrender: You don\'t even see the point in running"): the row\'s menu asks for a check that surrenders if it breaks; the card says it, the row shows Surrendered and its attack struck', async () => {
    const w = await makeWorld(generation, 'd12-ascending');
    const { gm } = w.foundry.users;
    w.foundry.dice.push(12, 12);
    await w.combat.startCombat();
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(3, 2);
    await w.combat.rollInitiative();
    await idle(w);
    const label = 'Morale check: surrenders if it breaks';
    const drawn = await draw(w, gm);
    const menu = w.foundry.contextMenu(drawn.app._getEntryContextOptions());
    const row = { dataset: { combatantId: w.ids.orc1 }, closest: () => null };
    expect(menu.visibleLabels(row)).toContain(label);
    w.foundry.dice.push(92);
    await menu.click(label, row);
    await idle(w);
    expect(cardsSeenBy(w, gm, 'morale')).toEqual(['Morale check Orc 1 rolls 92 on d100 against morale 8: breaks and surrenders.']);
    expect(moraleCards()[0].rolls.map((r: any) => r.total)).toEqual([92]);
    expect(w.combat.flowState!.states[w.ids.orc1]).toMatchObject({ surrendered: true });
    expect(w.combat.flowState!.states[w.ids.orc1].routed).toBeUndefined();
    expect(await rowBadges(w, w.ids.orc1)).toContain('Surrendered');
    const orc1 = (await draw(w, gm)).ts.sides.flatMap((x: any) => x.rows).find((r: any) => String(r.ids).split(' ').includes(w.ids.orc1));
    expect(orc1.declaration).toMatchObject({ text: 'attacks in melee', struck: 'surrendered' });
    await toEndOfRound(w);
    expect(endOfRound(w)[0]).toContain("Orc 1's morale broke: rolled 92, needing 8 or less; it surrenders.");
  });

  it('segment-d6 (no surrender in its text): the menu does not offer it; asked all the same, refused in words', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    const drawn = await draw(w, w.foundry.users.gm);
    const menu = w.foundry.contextMenu(drawn.app._getEntryContextOptions());
    const row = { dataset: { combatantId: w.ids.orc1 }, closest: () => null };
    expect(menu.visibleLabels(row)).toContain('Morale check');
    expect(menu.visibleLabels(row)).not.toContain('Morale check: surrenders if it breaks');
    expect(await w.combat.requestMorale({ combatant: w.ids.orc1, trigger: 'gm', surrender: true })).toMatchObject({ key: 'MoraleSurrenderNotInRules' });
    expect(moraleCards()).toHaveLength(0);
  });

  it('a dead orc\'s morale: refused in words, no card', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    await w.actors.orc1.update({ 'system.hp.value': -5 });
    await idle(w);
    expect(await w.combat.requestMorale({ combatant: w.ids.orc1, trigger: 'gm' })).toMatchObject({ key: 'MoraleNotInFight' });
    expect(moraleCards()).toHaveLength(0);
  });

  it('individual-speed ("at the end of each round"): the call shows on the row as waiting; its card comes with the end of the round, with its 3d6', async () => {
    const w = await makeWorld(generation, 'individual-speed', { automaticMorale: false });
    const { gm } = w.foundry.users;
    w.foundry.dice.push(5, 6, 7, 8); // base initiative
    await w.combat.startCombat();
    await requestDeclaration(w.combat, w.ids.orc2, { action: 'melee', target: w.ids.brand });
    await w.combat.rollInitiative();
    await idle(w);
    await press(w, gm, 'moraleOne', w.ids.orc2);
    expect(moraleCards()).toHaveLength(0);
    expect(await rowBadges(w, w.ids.orc2)).toContain('Morale check at the end of the round');
    w.foundry.dice.push(1, 1, 1);
    await toEndOfRound(w);
    expect(moraleCards()).toHaveLength(1);
    expect(moraleCards()[0].rolls.map((r: any) => [r.formula, r.total])).toEqual([['3d6', 3]]);
    expect(cardsSeenBy(w, gm, 'morale')[0]).toMatch(/^Morale check Orc 2 rolls 3 on 3d6, \d+ in all, against \d+: breaks and flees \(routed\)\.$/);
  });
});
