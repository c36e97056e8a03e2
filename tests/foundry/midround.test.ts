/**
 * Mid-round actions through the documents (src/documents/midround.ts): a
 * player, for a combatant they own, announces a delay (high-low), releases a
 * held action (segment-d6) or gives up a casting; the GM breaks a casting
 * (and may do the players'). Each goes the request path every player request
 * goes (the system socket to the active GM), is checked there (who asks, the
 * engine) and written as one entry of the combat's log; a refusal, a forged
 * sender and a player acting for another's combatant change nothing.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { requestMidRound } from '../../src/documents/midround';
import { CHANNEL } from '../../src/documents/requests';
import { undoFromCard } from '../../src/documents/damage';
import { currentEntries, type FlowState } from '../../src/rules/flow';

/** Everything a refusal must leave as it was. */
function snapshot(w: World): string {
  const combat = w.combat as any;
  return JSON.stringify({
    log: combat.system.log,
    round: combat.round,
    turn: combat.turn,
    actors: g.game.actors.contents.map((a: any) => a.toObject()),
    combatants: combat.combatants.contents.map((c: any) => c.toObject()),
    messages: g.game.messages.size,
  });
}

const flow = (w: World): FlowState => w.combat.flowState as FlowState;
const players = (w: World) => ({ p1: w.foundry.users.player, p2: w.foundry.users.player2 });

/** A request as a modified client sends it, straight on the socket; the answer addressed to that user. */
async function forge(w: World, user: any, body: unknown, id: string): Promise<any> {
  const heard: any[] = [];
  w.foundry.client(user).run(() => g.game.socket.on(CHANNEL, (data: any, sender: string) => heard.push({ data, sender })));
  w.foundry.raw(user).emit(CHANNEL, { k: 'req', id, kind: 'midround', body });
  await w.foundry.settle();
  await w.foundry.client(w.foundry.users.gm).run(() => whenIdle());
  await w.foundry.settle();
  const reply = heard.filter((h) => h.data?.k === 'ans' && h.data.id === id).at(-1);
  expect(reply?.sender).toBe(w.foundry.users.gm.id);
  return reply?.data.answer;
}

describe.each([13, 14] as const)('mid-round actions through the documents, generation %i', (generation) => {
  it('high-low: Brand\'s player announces a delay at his HIGH turn ("you lose all actions until LOW initiative"); another player cannot, nor a forged request', async () => {
    const w = await makeWorld(generation, 'high-low');
    const { combat, foundry, ids } = w;
    const { p1, p2 } = players(w);
    foundry.dice.push(5, 5);
    await combat.startCombat();
    await foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    foundry.dice.push(6, 2); // the party HIGH
    await combat.rollInitiative();
    expect(combat.combatant?.id).toBe(ids.brand);

    // Halvaine's player may not delay Brand; a forged body naming a user is an unknown field; nothing changes.
    const before = snapshot(w);
    const other = await foundry.asUser(p1, () => g.game.tenSegments.delay(ids.brand));
    expect(other).toMatchObject({ ok: false, key: 'NotYourCombatant', message: 'You do not control Brand.' });
    expect(await forge(w, p1, { combatId: combat.id, action: 'delay', combatantId: ids.brand }, 'forged1')).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    expect(await forge(w, p1, { combatId: combat.id, action: 'delay', combatantId: ids.brand, userId: p2.id }, 'forged2')).toMatchObject({ ok: false, key: 'RequestUnknownField' });
    expect(await forge(w, p1, { combatId: combat.id, action: 'shout', combatantId: ids.halvaine }, 'forged3')).toMatchObject({ ok: false, key: 'RequestFieldInvalid' });
    expect(snapshot(w)).toBe(before);

    expect(await foundry.asUser(p2, () => g.game.tenSegments.delay(ids.brand))).toEqual({ ok: true });
    await foundry.settle();
    const state = flow(w);
    expect(state.states[ids.brand].delayed).toBe(true);
    expect(state.midRound).toEqual([{ t: 'delay', c: ids.brand, step: state.step }]);
    const last = Object.values((combat as any).system.log).at(-1) as any;
    expect(last).toMatchObject({ t: 'delay', c: ids.brand });
    expect(last.q).toMatch(new RegExp(`^${p2.id}:`));
    // His turn comes again in LOW, after the orc's (the delayed condition loses ties).
    expect(state.schedule!.steps.filter((s) => s.phase === 'low').map((s) => s.entries.map((e) => e.combatant))).toEqual([[ids.orc1], [ids.brand]]);
    // Twice is refused in words.
    expect(await foundry.asUser(p2, () => g.game.tenSegments.delay(ids.brand))).toMatchObject({ ok: false, key: 'DelayAnnounced' });
    expect(foundry.errors).toEqual([]);
  });

  it('segment-d6: Halvaine holds, then her player releases the hold as the start of Sleep ("waiting to act until these later segments"); the casting time comes from the item', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { p1, p2 } = players(w);
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'wait' }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    foundry.dice.push(5, 4); // the party acts in segment 4, the orcs in 5
    await combat.rollInitiative();
    // Brand's player may not release Halvaine's hold.
    const before = snapshot(w);
    const other = await foundry.asUser(p2, () => g.game.tenSegments.release(ids.halvaine, { action: 'spell', spell: w.spell.id }));
    expect(other).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    expect(await forge(w, p2, { combatId: combat.id, action: 'release', combatantId: ids.halvaine, declaration: { action: 'spell', spell: w.spell.id } }, 'forged4')).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    // Numbers are the GM's: a player's override is refused.
    const overridden = await foundry.asUser(p1, () => requestMidRound(combat, 'release', { combatantId: ids.halvaine, declaration: { action: 'spell', spell: w.spell.id, override: { castingTime: 1 } } }));
    expect(overridden).toMatchObject({ ok: false, key: 'OverrideGMOnly' });
    expect(snapshot(w)).toBe(before);

    await combat.nextTurn(); // segment 5: the orcs
    expect(await foundry.asUser(p1, () => g.game.tenSegments.release(ids.halvaine, { action: 'spell', spell: w.spell.id }))).toEqual({ ok: true });
    await foundry.settle();
    const state = flow(w);
    const begun = currentEntries(state).find((o) => o.entry.combatant === ids.halvaine);
    expect(begun).toMatchObject({ entry: { kind: 'cast-begin', reason: 'SegmentD6Released' }, outcome: 'begins' });
    // Sleep's casting time (2 segments) from the item: it would go off in segment 7.
    expect(state.schedule!.steps.at(-1)).toMatchObject({ segment: 7, entries: [expect.objectContaining({ kind: 'cast-complete' })] });
    expect(await foundry.asUser(p1, () => g.game.tenSegments.release(ids.halvaine, { action: 'spell', spell: w.spell.id }))).toMatchObject({ ok: false, key: 'ReleaseUsed' });
    expect(foundry.errors).toEqual([]);
  });

  it('a caster\'s owner gives up the spell ("may elect not to cast the spell"): kept in memory; another player cannot', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { p1, p2 } = players(w);
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    foundry.dice.push(5, 4);
    await combat.rollInitiative();
    const before = snapshot(w);
    expect(await foundry.asUser(p2, () => g.game.tenSegments.cancelCasting(ids.halvaine))).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    const casting = flow(w).schedule!.castings[0].id;
    // By casting id too: the casting's caster is whom the right is checked against.
    expect(await forge(w, p2, { combatId: combat.id, action: 'cancel', castingId: casting }, 'forged5')).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    expect(snapshot(w)).toBe(before);
    expect(await foundry.asUser(p1, () => g.game.tenSegments.cancelCasting(ids.halvaine))).toEqual({ ok: true });
    await foundry.settle();
    expect(flow(w).status[casting]).toBe('cancelled');
    expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(0);
    expect(await foundry.asUser(p1, () => g.game.tenSegments.cancelCasting(ids.halvaine))).toMatchObject({ ok: false, key: 'NoCasting' });
  });

  it('the GM breaks a casting a failed save broke (seed 001 "caster fails a save"): lost and expended, a card with the undo; a player may not', async () => {
    const w = await makeWorld(generation, 'high-low');
    const { combat, foundry, ids } = w;
    const { p1 } = players(w);
    foundry.dice.push(5, 5);
    await combat.startCombat();
    await foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    foundry.dice.push(6, 2);
    await combat.rollInitiative();
    const before = snapshot(w);
    expect(await foundry.asUser(p1, () => g.game.tenSegments.breakCasting(ids.halvaine, { why: 'save' }))).toMatchObject({ ok: false, key: 'OnlyGM' });
    expect(await forge(w, p1, { combatId: combat.id, action: 'break', combatantId: ids.halvaine, why: 'save' }, 'forged6')).toMatchObject({ ok: false, key: 'OnlyGM' });
    expect(snapshot(w)).toBe(before);
    expect(await g.game.tenSegments.breakCasting(ids.halvaine, { why: 'save' })).toEqual({ ok: true });
    await foundry.settle();
    const [broken] = flow(w).interruptions;
    expect(broken).toMatchObject({ caster: ids.halvaine, spell: 'Sleep', outcome: 'interrupted', expended: true, broken: 'save' });
    expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(1);
    const card = g.game.messages.contents.find((m: any) => m.flags?.['ten-segments']?.kind === 'interruption');
    expect(card).toBeTruthy();
    await undoFromCard(combat.id as string, broken.casting);
    await foundry.settle();
    expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(0);
    expect(flow(w).status[broken.casting]).toBe('pending');
  });

  it('an out-of-turn attack is accepted at its moment only: segment-d6\'s "fleeing attack" when the orc flees, not before', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { p2 } = players(w);
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'other' }));
    await requestDeclaration(combat, ids.orc1, { action: 'flee' });
    foundry.dice.push(5, 4); // the party in segment 4, the orcs (fleeing) in 5
    await combat.rollInitiative();
    const early = await foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    expect(early).toMatchObject({ ok: false, key: 'AttackNotYourStep' });
    await combat.nextTurn();
    foundry.dice.push(18, 3);
    const fleeing = await foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    expect(fleeing).toMatchObject({ ok: true, hit: true, damage: 3 });
    await foundry.settle();
    expect(flow(w).attacks).toEqual([expect.objectContaining({ c: ids.brand, target: ids.orc1, as: 'fleeing-attack' })]);
    expect(w.actors.orc1.system.hp.value).toBe(3);
  });
});
