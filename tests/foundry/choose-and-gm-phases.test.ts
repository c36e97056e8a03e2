/**
 * More of issue 9's actions at the table, through the request path every
 * player request goes (src/documents/midround.ts): a d12-ascending caster
 * chooses the spell at her turn (II.C), the GM records addict's reaction,
 * distance and staunching (phases 1, 3, 11), and a second GM calls a
 * d12-ascending morale check with a method of their choosing. Each refusal
 * (another player's combatant, a player asking for the GM's control) is in
 * words and changes nothing.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld, type World, idle } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestMidRound } from '../../src/documents/midround';
import type { FlowState } from '../../src/rules/flow';

const flow = (w: World): FlowState => w.combat.flowState as FlowState;

function snapshot(w: World): string {
  const combat = w.combat as any;
  return JSON.stringify({ log: combat.system.log, round: combat.round, turn: combat.turn, actors: g.game.actors.contents.map((a: any) => a.toObject()) });
}

const groupOf = (w: World, id: string) => (w.combat.combatants.get(id) as any)._source.group as string;

describe.each([13, 14] as const)('spells chosen at the caster\'s turn and the GM\'s phases, generation %i', (generation) => {
  it('d12-ascending II.C: Halvaine declares a spell without naming it and her player names it at her turn, in the item\'s casting time', async () => {
    const w = await makeWorld(generation, 'd12-ascending', { initiativeMode: 'group' });
    const { combat, foundry, ids } = w;
    const { player: p1, player2: p2 } = foundry.users;
    foundry.dice.push(12, 12); // nobody surprised
    await combat.startCombat();
    expect(await foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell' }))).toEqual({ ok: true });
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    foundry.dice.push(3, 5); // the party acts at 3, the orcs at 5
    await combat.rollInitiative();
    expect(flow(w).schedule!.castings[0]).toMatchObject({ caster: ids.halvaine, choosing: true });
    expect(combat.combatant?.id).toBe(ids.halvaine);

    // Brand's player cannot choose for her; nothing changes.
    const before = snapshot(w);
    const other = await foundry.asUser(p2, () => g.game.tenSegments.chooseSpell(ids.halvaine, w.spell.id));
    expect(other).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    const both = await foundry.asUser(p1, () => requestMidRound(combat, 'choose', { combatantId: ids.halvaine, spell: w.spell.id, none: true }));
    expect(both).toMatchObject({ ok: false, key: 'ChooseNeedsOne' });
    expect(snapshot(w)).toBe(before);

    expect(await foundry.asUser(p1, () => g.game.tenSegments.chooseSpell(ids.halvaine, w.spell.id))).toEqual({ ok: true });
    await idle(w);
    // "Caster is then casting for the duration of the listed casting time": Sleep's 2 segments, from 3.
    const casting = flow(w).schedule!.castings[0];
    expect(casting).toMatchObject({ caster: ids.halvaine, spell: 'Sleep', castingTime: 2 });
    expect(flow(w).schedule!.steps[casting.completeStep!].count).toBe(5);
    expect(Object.values((combat as any).system.log).at(-1)).toMatchObject({ t: 'choose', c: ids.halvaine, spell: 'Sleep', castingTime: 2 });
  });

  it('addict phases 1, 3 and 11: the GM records a side\'s reaction and the encounter distance, and staunches; a player may not', async () => {
    const w = await makeWorld(generation, 'addict');
    const { combat, foundry, ids } = w;
    const p1 = foundry.users.player;
    foundry.dice.push(5, 5); // nobody surprised
    await combat.startCombat();
    const orcs = groupOf(w, ids.orc1);

    const before = snapshot(w);
    expect(await foundry.asUser(p1, () => g.game.tenSegments.reaction(orcs, 'Friendly'))).toMatchObject({ ok: false, key: 'OnlyGM' });
    expect(await foundry.asUser(p1, () => g.game.tenSegments.encounterDistance(10))).toMatchObject({ ok: false, key: 'OnlyGM' });
    expect(await foundry.asUser(p1, () => g.game.tenSegments.staunch(ids.orc1))).toMatchObject({ ok: false, key: 'OnlyGM' });
    expect(snapshot(w)).toBe(before);

    expect(await g.game.tenSegments.reaction(orcs, 'Hostile: attack on sight', { roll: 23, secret: true })).toEqual({ ok: true });
    expect(await g.game.tenSegments.encounterDistance(60)).toEqual({ ok: true });
    await idle(w);
    expect(flow(w).encounter).toMatchObject({ distance: 60, reactions: { [orcs]: { result: 'Hostile: attack on sight', roll: 23, secret: true } } });
    // Staunching reaches the engine, which says why not: before the end of a round, and nobody bleeds.
    const recorded = snapshot(w);
    expect(await g.game.tenSegments.staunch(ids.orc1)).toMatchObject({ ok: false, key: 'StaunchNotNow' });
    expect(snapshot(w)).toBe(recorded);
  });

  it('d12-ascending: a second GM calls a morale check ruled by hand ("the DM can still make such a check in any way he sees fit")', async () => {
    const w = await makeWorld(generation, 'd12-ascending');
    const { combat, foundry, ids } = w;
    foundry.dice.push(12, 12);
    await combat.startCombat();
    const gm2 = foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await foundry.settle();
    const combat2 = () => foundry.client(gm2).game.combats.get(combat.id);
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    foundry.dice.push(4, 6);
    await combat.rollInitiative();
    const asked = await foundry.asUser(gm2, () => combat2().requestMorale({ combatant: ids.orc1, trigger: 'fear', method: 'gm', passed: false }));
    expect(asked).toBeNull();
    await idle(w);
    // Made at once (issue 28): the orc is routed now, the check kept with the round.
    expect(flow(w).morale).toEqual([expect.objectContaining({ combatant: ids.orc1, method: 'gm', passed: false })]);
    expect(flow(w).states[ids.orc1].routed).toBe(true);
  });

  it('individual-speed: the GM enters a Heal check\'s total and a Combat Injury ("the Referee then rolls on the Combat Injury table"); a player may not', async () => {
    const w = await makeWorld(generation, 'individual-speed');
    const { combat, foundry, ids } = w;
    foundry.dice.push(5, 5, 5, 5);
    await combat.startCombat();
    expect(foundry.dice.remaining).toEqual([]);
    const before = snapshot(w);
    expect(await foundry.asUser(foundry.users.player, () => g.game.tenSegments.healCheck(ids.orc1, 20))).toMatchObject({ ok: false, key: 'OnlyGM' });
    expect(await foundry.asUser(foundry.users.player, () => g.game.tenSegments.injury(ids.orc1, { damageType: 'blunt', row: 7 }))).toMatchObject({ ok: false, key: 'OnlyGM' });
    // The orc is unhurt: nothing to stabilize, the engine says so.
    expect(await g.game.tenSegments.healCheck(ids.orc1, 20)).toMatchObject({ ok: false, key: 'HealNotNeeded' });
    expect(snapshot(w)).toBe(before);
    // Row 7 of the blunt table: Broken Collarbone.
    foundry.dice.push(3, 3, 3);
    expect(await g.game.tenSegments.injury(ids.orc1, { damageType: 'blunt', row: 7 })).toEqual({ ok: true });
    await idle(w);
    expect(Object.values((combat as any).system.log).at(-1)).toMatchObject({ t: 'injury', c: ids.orc1, type: 'blunt', row: 7 });
    expect(JSON.stringify(flow(w).states[ids.orc1])).toContain('"row":7');
  });

  it('d12-ascending II.D: hurt before she chooses, Halvaine casts nothing this round, and the card says so without naming a spell', async () => {
    const w = await makeWorld(generation, 'd12-ascending', { initiativeMode: 'group' });
    w.foundry.loadLang('lang/en.json');
    const { combat, foundry, ids } = w;
    foundry.dice.push(12, 12);
    await combat.startCombat();
    await foundry.asUser(foundry.users.player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell' }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    foundry.dice.push(5, 3); // the orcs strike first, at 3
    await combat.rollInitiative();
    expect(combat.combatant?.id).toBe(ids.orc1);
    await w.actors.halvaine.update({ 'system.hp.value': w.actors.halvaine.system.hp.value - 2 });
    await idle(w);
    expect(flow(w).interruptions).toEqual([expect.objectContaining({ caster: ids.halvaine, outcome: 'prevented' })]);
    const card = g.game.messages.contents.filter((m: any) => m.flags?.['ten-segments']?.kind === 'interruption').at(-1);
    expect(card.content).toContain('Halvaine was hurt before choosing a spell and cannot cast this round.');
  });
});
