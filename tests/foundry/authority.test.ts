/**
 * The GM's authority, tried as a hostile player would (issue 7): one test per
 * hole found, each refused (or put back) with a reason and nothing changed.
 * Every user is a client of its own (tests/standin); a "modified client" is
 * the stand-in's raw path, straight to the server, skipping the system's
 * client code.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { g, makeWorld, type World } from './world';
import { requestCombatAction, requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { CHANNEL } from '../../src/documents/requests';
import { REQUEST_SLOW } from '../../src/documents/requests-client';
import { boundsProblem, requestProblem } from '../../src/documents/request-schema';
import type { TenSegmentsCombat } from '../../src/documents/combat';
import { resolveHealthFromCard } from '../../src/documents/health-card';

/** What a client hears on the system socket. */
function listen(w: World, user: any): { data: any; sender: string }[] {
  const heard: { data: any; sender: string }[] = [];
  w.foundry.client(user).run(() => g.game.socket.on(CHANNEL, (data: any, sender: string) => heard.push({ data, sender })));
  return heard;
}

/** A request as a modified client sends it; the answer addressed to that user. */
async function forge(w: World, user: any, kind: string, body: unknown, id = 'forged1'): Promise<any> {
  const heard = listen(w, user);
  w.foundry.raw(user).emit(CHANNEL, { k: 'req', id, kind, body });
  await w.foundry.settle();
  await inAllClients(w);
  const replies = heard.filter((h) => h.data?.k === 'ans' && h.data.id === id);
  expect(replies.length).toBeGreaterThan(0);
  expect(replies.every((r) => r.data.to === user.id && r.sender === w.foundry.users.gm.id)).toBe(true);
  return replies[replies.length - 1].data.answer;
}

/** Wait for the GM's queues, then for what the writes set off. */
async function inAllClients(w: World): Promise<void> {
  await w.foundry.client(w.foundry.users.gm).run(() => whenIdle());
  await w.foundry.settle();
}

function snapshot(w: World): string {
  return JSON.stringify({
    log: (w.combat.toObject() as any).system.log,
    round: w.combat.round,
    turn: w.combat.turn,
    actors: g.game.actors.contents.map((a: any) => a.toObject()),
    messages: g.game.messages.size,
  });
}

/** A message's payload as it travels. */
function payload(m: any): any {
  return typeof m?.data === 'string' ? JSON.parse(m.data) : m?.data;
}

const players = (w: World) => ({ p1: w.foundry.users.player, p2: w.foundry.users.player2, gm: w.foundry.users.gm });

describe.each([13, 14] as const)('the GM\'s authority, generation %i', (generation) => {
  let w: World;
  let combat: TenSegmentsCombat;
  let ids: World['ids'];

  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
    combat = w.combat;
    ids = w.ids;
    w.foundry.dice.push(4, 5); // surprise: nobody
    await combat.startCombat();
    await inAllClients(w);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('forged sender: the sender is the server\'s; a payload naming another user is an unknown field, and player 1 cannot act for Brand', async () => {
    const { p1, p2 } = players(w);
    const before = snapshot(w);
    const named = await forge(w, p1, 'declare', { combatId: combat.id, combatantId: ids.brand, declaration: { action: 'melee', target: ids.halvaine }, userId: p2.id });
    expect(named).toMatchObject({ ok: false, key: 'RequestUnknownField' });
    const plain = await forge(w, p1, 'declare', { combatId: combat.id, combatantId: ids.brand, declaration: { action: 'melee', target: ids.halvaine } }, 'forged2');
    expect(plain).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    const attack = await forge(w, p1, 'attack', { combatId: combat.id, attackerId: ids.brand, targetId: ids.halvaine, weaponId: w.sword.id }, 'forged3');
    expect(attack).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    expect(snapshot(w)).toBe(before);
  });

  it('an answer is taken only by the user it is for, and only from a GM', async () => {
    const { p1, p2 } = players(w);
    // Player 2 pretends to answer player 1's open request: player 1 keeps waiting for the GM's.
    w.foundry.network.hold();
    const asked = w.foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    // The request leaves once the client side of requests is loaded (a chunk, at a client's first request).
    const request = () => w.foundry.network.pending.find((m: any) => m.type === 'socket' && payload(m)?.k === 'req');
    // A hang guard, not a timing: the chunk loads as fast as the machine lets it.
    await vi.waitFor(() => expect(request()).toBeTruthy(), { timeout: 120_000, interval: 1 });
    const pending = request();
    expect(pending).toBeTruthy();
    const id = payload(pending).id;
    expect(typeof id).toBe('string');
    w.foundry.raw(p2).emit(CHANNEL, { k: 'ans', to: p1.id, id, answer: { ok: false, key: 'OnlyGM', message: 'spoofed' } });
    w.foundry.network.release();
    expect(await asked).toEqual({ ok: true });
    await inAllClients(w);
    expect(combat.flowState!.declarations[ids.halvaine]?.spell).toBe('Sleep');
  });

  it('attacks are held to the schedule: ten in the declarations are refused, the orc untouched, no card', async () => {
    const { p2 } = players(w);
    const before = snapshot(w);
    for (let i = 0; i < 10; i++) {
      const a = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
      expect(a).toMatchObject({ ok: false, key: 'AttackOutsideRound' });
    }
    expect(w.actors.orc1.system.hp.value).toBe(6);
    expect(snapshot(w)).toBe(before);
  });

  it('the damage column follows the target\'s size, not the request: a large orc takes the sword\'s 1d12', async () => {
    const { p2 } = players(w);
    await w.actors.orc1.update({ 'system.size': 'large', 'system.hp.value': 20, 'system.hp.max': 20 });
    // A request choosing the column is refused before any work.
    expect(await forge(w, p2, 'attack', { combatId: combat.id, attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id, large: false })).toMatchObject({
      ok: false,
      key: 'RequestUnknownField',
    });
    await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    w.foundry.dice.push(6, 1); // initiative: the party acts in segment 1
    await combat.rollInitiative();
    await inAllClients(w);
    expect(combat.currentActorIds()).toContain(ids.brand);
    w.foundry.dice.push(20, 11); // a d8 cannot show 11: only the large column's d12 can
    const a = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    expect(a).toMatchObject({ ok: true, hit: true, damage: 11 });
    await inAllClients(w);
    expect(w.actors.orc1.system.hp.value).toBe(9);
    // One routine: a second blow in the same step is refused.
    const again = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    expect(again).toMatchObject({ ok: false, key: 'NoAttackLeft' });
  });

  it('a dead attacker cannot strike, and neither can one whose step it is not', async () => {
    const { p1, p2 } = players(w);
    await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    w.foundry.dice.push(1, 6); // the orcs act in segment 1, the party in 6
    await combat.rollInitiative();
    await inAllClients(w);
    const early = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    expect(early).toMatchObject({ ok: false, key: 'AttackNotYourStep' });
    await w.actors.brand.update({ 'system.hp.value': -20 });
    await inAllClients(w);
    while (!combat.currentActorIds().includes(ids.brand) && combat.flowState!.stage === 'resolve') await combat.nextTurn();
    const dead = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    expect(dead).toMatchObject({ ok: false });
    expect(['AttackerCannotAct', 'ActRefusedDead', 'AttackOutsideRound', 'AttackNotYourStep']).toContain((dead as any).key);
    expect(w.actors.orc1.system.hp.value).toBe(6);
    void p1;
  });

  it('a declaration\'s numbers are the documents\': numbers in a request are unknown fields, an override is the GM\'s, a charge\'s distance is the map\'s', async () => {
    const { p1, p2 } = players(w);
    const before = snapshot(w);
    for (const extra of [{ castingTime: 1 }, { routines: 9 }, { distance: 0 }, { speed: -50 }]) {
      const r = await w.foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id, ...extra } as any));
      expect(r).toMatchObject({ ok: false, key: 'RequestUnknownField' });
    }
    const override = await w.foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id, override: { castingTime: 1 } }));
    expect(override).toMatchObject({ ok: false, key: 'OverrideGMOnly' });
    expect(snapshot(w)).toBe(before);
    // The spell's own casting time (2 segments), whatever was asked.
    expect(await w.foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }))).toEqual({ ok: true });
    expect(combat.flowState!.declarations[ids.halvaine].castingTime).toBe(2);
    // Brand charges Orc 1: 200 px apart on a 100 px, 5 ft grid; the gap comes from the tokens.
    expect(await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'charge', weapon: w.sword.id, target: ids.orc1 }))).toEqual({ ok: true });
    expect(combat.flowState!.declarations[ids.brand].distance).toBeGreaterThan(0);
    // The GM may rule otherwise.
    expect(await requestDeclaration(combat, ids.brand, { action: 'charge', weapon: w.sword.id, target: ids.orc1, override: { distance: 30 } })).toEqual({ ok: true });
    expect(combat.flowState!.declarations[ids.brand].distance).toBe(30);
  });

  it('other clients\' update options are not believed: forged health options (even the sync mark) on one\'s own actor are a player\'s change, held for the GM', async () => {
    const { p1 } = players(w);
    w.foundry.raw(p1).modify('update', 'Actor', [{ _id: w.actors.halvaine.id, 'system.hp.value': 11 }], { tensegHealthBefore: 500, tensegAttacker: ids.orc1, tensegSync: true });
    await inAllClients(w);
    // Health is the GM's during a combat (issue 27): the fight's 12 is written back, the GMs asked.
    expect(w.actors.halvaine.system.hp.value).toBe(12);
    const state = combat.flowState!;
    expect(state.states[ids.halvaine].hp).toBe(12);
    expect(state.states[ids.halvaine].condition).not.toBe('dead');
    expect(state.hits).toEqual([]);
    expect(g.game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'health')).toHaveLength(1);
  });

  it('damage a player deals through their own sheet is held for the GM; accepted, it reaches the flow on the GM\'s client', async () => {
    const { p1 } = players(w);
    await w.foundry.asUser(p1, () => g.game.actors.get(w.actors.halvaine.id).update({ 'system.hp.value': 8 }));
    await inAllClients(w);
    expect(combat.flowState!.states[ids.halvaine].hp).toBe(12);
    const [card] = g.game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'health');
    await resolveHealthFromCard(card, true);
    await inAllClients(w);
    expect(combat.flowState!.states[ids.halvaine].hp).toBe(8);
  });

  it('a round or turn written by a player (core lets them) is put back by the active GM, with a notice', async () => {
    const { p1 } = players(w);
    const round = combat.round;
    const turn = combat.turn;
    w.foundry.raw(p1).modify('update', 'Combat', [{ _id: combat.id, round: 7, turn: 2 }]);
    await inAllClients(w);
    expect(combat.round).toBe(round);
    expect(combat.turn).toBe(turn);
    expect(w.foundry.notifications.some((n: any) => n.message.includes('put back'))).toBe(true);
  });

  it('bounds: a deeply nested note, 200,000 extra keys and a 5 MB action are refused before any work, without echo', async () => {
    const { p1 } = players(w);
    const before = snapshot(w);
    // As deep as JSON can carry here (5,000 levels do not even leave the sender); the check itself is iterative (below).
    let deep: any = 'x';
    for (let i = 0; i < 1000; i++) deep = { n: deep };
    const a = await forge(w, p1, 'declare', { combatId: combat.id, combatantId: ids.halvaine, declaration: { action: 'melee', note: deep } }, 'deep');
    expect(a).toMatchObject({ ok: false, key: 'RequestTooDeep' });
    const many: Record<string, number> = {};
    for (let i = 0; i < 200_000; i++) many[`k${i}`] = i;
    const b = await forge(w, p1, 'declare', { combatId: combat.id, combatantId: ids.halvaine, declaration: { action: 'melee', ...many } }, 'wide');
    expect(b).toMatchObject({ ok: false, key: 'RequestTooLarge' });
    const huge = 'a'.repeat(5 * 1024 * 1024);
    const c = await forge(w, p1, 'declare', { combatId: combat.id, combatantId: ids.halvaine, declaration: { action: huge } }, 'huge');
    expect(c).toMatchObject({ ok: false, key: 'RequestTooLarge' });
    for (const answer of [a, b, c]) expect(JSON.stringify(answer).length).toBeLessThan(400);
    expect(snapshot(w)).toBe(before);
    expect(w.foundry.errors).toEqual([]);
  });

  it('a retry with the same id gets the first answer and lands no second blow', async () => {
    const { p2 } = players(w);
    await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    w.foundry.dice.push(6, 1);
    await combat.rollInitiative();
    await inAllClients(w);
    w.foundry.dice.push(20, 5);
    const body = { combatId: combat.id, attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id };
    const first = await forge(w, p2, 'attack', body, 'blow1');
    const second = await forge(w, p2, 'attack', body, 'blow1');
    expect(first).toMatchObject({ ok: true, damage: 5 });
    expect(second).toEqual(first);
    expect(w.actors.orc1.system.hp.value).toBe(1);
    expect(g.game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'attack')).toHaveLength(1);
  });

  it('a request whose answer is lost is sent again with its id when it is slow; it is done once', async () => {
    const { p2 } = players(w);
    await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    w.foundry.dice.push(6, 1);
    await combat.rollInitiative();
    await inAllClients(w);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    w.foundry.dice.push(20, 5);
    w.foundry.network.hold();
    const asked = w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    // Deliver everything but the GM's answer, which is lost on the way back.
    let lost = 0;
    for (let i = 0; i < 500 && lost === 0; i++) {
      const next: any = w.foundry.network.pending[0];
      if (!next) await new Promise((r) => setImmediate(r));
      else if (payload(next)?.k === 'ans') lost = w.foundry.network.drop(next.id).length;
      else await w.foundry.network.deliver(1);
    }
    expect(lost).toBeTruthy();
    w.foundry.network.release();
    await w.foundry.settle();
    expect(w.actors.orc1.system.hp.value).toBe(1);
    // No answer: the client asks again with the same id, and gets the first answer.
    await vi.advanceTimersByTimeAsync(REQUEST_SLOW + 1);
    await w.foundry.settle();
    expect(await asked).toMatchObject({ ok: true, damage: 5 });
    expect(w.actors.orc1.system.hp.value).toBe(1);
    expect(g.game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'attack')).toHaveLength(1);
  });

  it('a combatant removed and added again keeps its surprise; a declaration stored on a new combatant is checked like a request', async () => {
    const { p2 } = players(w);
    const brand = combat.combatants.get(ids.brand)!;
    const source = { tokenId: (brand as any).tokenId, sceneId: (brand as any).sceneId, actorId: (brand as any).actorId };
    const surprise = combat.flowState!.surprise.surprised[ids.brand];
    await w.foundry.asUser(p2, () => g.game.combats.get(combat.id).combatants.get(ids.brand).delete());
    await inAllClients(w);
    const [back] = await w.foundry.asUser(p2, () =>
      g.game.combats.get(combat.id).createEmbeddedDocuments('Combatant', [{ ...source, system: { declaration: { action: 'melee', weapon: { speed: -50, length: 99 } } } }]),
    );
    await inAllClients(w);
    const state = combat.flowState!;
    expect(state.encounter.combatants.some((c: any) => c.id === back.id)).toBe(true);
    expect(state.takenOver?.[ids.brand]).toBe(back.id);
    expect(state.surprise.surprised[back.id] ?? 0).toBe(surprise ?? 0);
    expect(state.declarations[back.id]).toBeUndefined();
    expect(w.foundry.notifications.some((n: any) => n.message.includes('Brand'))).toBe(true);
  });

  it('two GMs: the second GM\'s controls go through the active GM\'s queue; declarations from everyone at once are all kept', async () => {
    const { p1, p2 } = players(w);
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await w.foundry.settle();
    const combat2 = () => w.foundry.client(gm2).game.combats.get(combat.id);
    const results = await Promise.all([
      w.foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id })),
      w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 })),
      w.foundry.asUser(gm2, () => requestDeclaration(combat2(), ids.orc1, { action: 'melee', target: ids.halvaine })),
      requestDeclaration(combat, ids.orc2, { action: 'melee', target: ids.brand }),
    ]);
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }, { ok: true }]);
    await inAllClients(w);
    expect(Object.keys(combat.gmDeclarations).sort()).toEqual(Object.values(ids).sort());
    w.foundry.dice.push(5, 4);
    await w.foundry.asUser(gm2, () => combat2().rollInitiative());
    await inAllClients(w);
    expect(combat.flowState!.stage).toBe('resolve');
    expect(Object.keys(combat.flowState!.declarations).sort()).toEqual(Object.values(ids).sort());
    // Only the active GM wrote the combat.
    expect(w.foundry.writes.all().filter((x: any) => x.documentName === 'Combat').every((x: any) => x.userId === w.foundry.users.gm.id)).toBe(true);
  });

  it('an entry written on a log its writer had not fully seen is re-based on top by the active GM; nothing is lost', async () => {
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await w.foundry.settle();
    const entries = combat.entries;
    const [lastKey] = entries[entries.length - 1];
    await w.foundry.asUser(players(w).p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await inAllClients(w);
    // The assistant writes a declaration as the next entry of the log as it was before Halvaine's.
    const { chainKey } = await import('../../src/rules/flow');
    const stale = { t: 'declare', d: { combatant: ids.orc1, action: 'melee', target: ids.halvaine } };
    const key = chainKey(entries.length, lastKey, stale as any);
    w.foundry.raw(gm2).modify('update', 'Combat', [{ _id: combat.id, [`system.log.${key}`]: stale }]);
    await inAllClients(w);
    const state = combat.flowState!;
    expect(state.declarations[ids.halvaine]?.spell).toBe('Sleep');
    expect(state.declarations[ids.orc1]?.action).toBe('melee');
    const { outOfPlace } = await import('../../src/rules/flow');
    expect(outOfPlace(combat.entries)).toBe(-1);
  });

  it('the active GM leaving mid-combat: open requests go to the next GM, who answers them; the combat goes on', async () => {
    const { p1, gm } = players(w);
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await w.foundry.settle();
    w.foundry.network.hold();
    const asked = w.foundry.asUser(p1, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await Promise.resolve();
    w.foundry.network.drop((m: any) => payload(m)?.k === 'req');
    w.foundry.network.release();
    w.foundry.disconnect(gm);
    await w.foundry.settle();
    expect(await asked).toEqual({ ok: true });
    const c2 = w.foundry.client(gm2).game.combats.get(combat.id);
    expect(c2.flowState.declarations[ids.halvaine]?.spell).toBe('Sleep');
    w.foundry.dice.push(5, 4);
    await w.foundry.asUser(gm2, () => c2.rollInitiative());
    await w.foundry.settle();
    expect(c2.flowState.stage).toBe('resolve');
    const next = await w.foundry.asUser(gm2, () => requestCombatAction(c2, 'nextTurn'));
    expect(next).toEqual({ ok: true });
  });
});

describe('the request schema', () => {
  it('walks a 100,000-deep payload without recursion and refuses it', () => {
    let deep: any = 'x';
    for (let i = 0; i < 100_000; i++) deep = { n: deep };
    expect(boundsProblem(deep)).toMatchObject({ key: 'RequestTooDeep' });
    expect(requestProblem('declare', { combatId: 'a', combatantId: 'b', declaration: { action: 'melee', note: deep } })).toMatchObject({ key: 'RequestTooDeep' });
  });

  it('names an unknown key by at most 40 characters, control characters escaped', () => {
    const key = `\u0000${'k'.repeat(1000)}`;
    const problem = requestProblem('withdraw', { combatId: 'a', combatantId: 'b', [key]: 1 }) as any;
    expect(problem.key).toBe('RequestUnknownField');
    expect(problem.data.field.length).toBeLessThan(60);
    expect(problem.data.field.startsWith('\\u0000')).toBe(true);
  });
});

describe('addict: a declaration is final until cancelled (seed 004: "Once an action is declared, it cannot be changed, but it can be canceled")', () => {
  it('melee, then flee, is refused; nothing changes', async () => {
    const w = await makeWorld(13, 'addict');
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await inAllClients(w);
    const p2 = w.foundry.users.player2;
    expect(await w.foundry.asUser(p2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }))).toEqual({ ok: true });
    const changed = await w.foundry.asUser(p2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'flee' }));
    expect(changed).toMatchObject({ ok: false, key: 'DeclarationFinal' });
    expect(w.combat.flowState!.declarations[w.ids.brand].action).toBe('melee');
  });
});
