/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The contract of the Ten Segments Combat document: sides from token
 * dispositions, late joiners and removals, Previous, Next round in one write,
 * the mirrored round/turn, declarations made before the start, one write per
 * transition at 200 combatants, core's hooks and update options, the world
 * clock.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, g, type World } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import type { TenSegmentsCombat } from '../../src/documents/combat';

const FRAGMENT = 'lang/en.json';

function flowOf(combat: TenSegmentsCombat) {
  return combat.flowState!;
}

function stepOf(combat: TenSegmentsCombat) {
  const s = flowOf(combat);
  return s.schedule!.steps[s.step];
}

async function nextUntil(combat: TenSegmentsCombat, done: () => boolean, max = 40): Promise<void> {
  for (let i = 0; i < max && !done(); i++) await combat.nextTurn();
  expect(done()).toBe(true);
}

const groupOf = (combat: TenSegmentsCombat, id: string) => (combat.combatants.get(id) as any)._source.group as string;
const hp = (actor: any) => actor.system.hp.value;

function cards(kind: string): any[] {
  return g.game.messages.contents.filter((m: any) => m.flags?.['ten-segments']?.kind === kind);
}

async function declare(w: World, id: string, declaration: any): Promise<void> {
  expect(await requestDeclaration(w.combat, id, declaration)).toEqual({ ok: true });
}

async function attack(w: World, attacker: string, target: string, dice: number[], weaponId?: string): Promise<void> {
  w.foundry.dice.push(...dice);
  const result = await requestAttack(w.combat, { attackerId: attacker, targetId: target, ...(weaponId ? { weaponId } : {}) });
  expect(result).toMatchObject({ ok: true });
  await w.foundry.settle();
}

/** Every call of the named hooks, with its arguments copied as they were when it fired. */
function record(names: string[]): { name: string; round: number; data: any; options: any }[] {
  const calls: { name: string; round: number; data: any; options: any }[] = [];
  for (const name of names) {
    g.Hooks.on(name, (combat: any, data: any, options: any) =>
      calls.push({ name, round: combat.round, data: data && { round: data.round, turn: data.turn }, options: options && JSON.parse(JSON.stringify(options)) }),
    );
  }
  return calls;
}

describe.each([13, 14] as const)('the Combat document, generation %i', (generation) => {
  let w: World;

  describe('segment-d6', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'segment-d6');
      w.foundry.loadLang(FRAGMENT);
    });

    it('sides come from token dispositions; the GM (only) moves a combatant to another side, before and during the combat', async () => {
      const { combat, foundry, ids, scene } = w;
      const friendly = combat.groups.get(groupOf(combat, ids.halvaine))!;
      const hostile = combat.groups.get(groupOf(combat, ids.orc1))!;
      expect([friendly.name, hostile.name]).toEqual(['Friendly', 'Hostile']);
      expect([...(friendly as any).members].map((c: any) => c.id).sort()).toEqual([ids.halvaine, ids.brand].sort());
      expect([...(hostile as any).members].map((c: any) => c.id).sort()).toEqual([ids.orc1, ids.orc2].sort());

      // A neutral token joins: a Neutral side is made for it.
      const [merchant] = await g.Actor.create([{ name: 'Merchant', type: 'monster', system: { hitDice: '1', hp: { value: 4, max: 4 } } }]);
      const [token] = await scene.createEmbeddedDocuments('Token', [{ name: 'Merchant', actorId: merchant.id, actorLink: true, x: 500, y: 0, disposition: 0 }]);
      const [m] = (await combat.createEmbeddedDocuments('Combatant', [{ tokenId: token.id, sceneId: scene.id, actorId: merchant.id }] as never)) as any[];
      await whenIdle(combat.id as string);
      const neutral = combat.groups.get(groupOf(combat, m.id as string))!;
      expect(neutral.name).toBe('Neutral');
      expect(combat.groups.size).toBe(3);

      // A player cannot move anyone; the GM moves the merchant to the party before the start.
      expect(await foundry.asUser(foundry.users.player, () => combat.moveToSide(m.id as string, friendly.id as string))).toMatchObject({ key: 'OnlyGM' });
      expect(groupOf(combat, m.id as string)).toBe(neutral.id);
      expect(await combat.moveToSide(m.id as string, friendly.id as string)).toBeNull();
      expect(groupOf(combat, m.id as string)).toBe(friendly.id);

      foundry.dice.push(4, 5); // surprise: nobody (the empty Neutral side rolls nothing)
      await combat.startCombat();
      const side = (id: string) => flowOf(combat).encounter.combatants.find((c: any) => c.id === id)!.side;
      expect(side(m.id as string)).toBe(friendly.id);

      // During the combat: Orc 2 turns coat and joins the (empty) Neutral side: one Combatant and one Combat write.
      foundry.writes.clear();
      expect(await combat.moveToSide(ids.orc2, neutral.id as string)).toBeNull();
      expect(side(ids.orc2)).toBe(neutral.id);
      expect(foundry.writes.count('Combat', 'update')).toBe(1);
      expect(foundry.writes.count('Combatant', 'update')).toBe(1);
      // Three sides (ruling): each acts in the segment of the highest opposing die. Party 2, Hostile 3, Neutral 6.
      await declare(w, ids.orc2, { action: 'melee', target: ids.orc1 });
      await declare(w, ids.orc1, { action: 'melee', target: ids.orc2 });
      await declare(w, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 });
      foundry.dice.push(2, 3, 6);
      await combat.rollInitiative();
      expect(stepOf(combat).segment).toBe(3);
      expect(combat.combatant?.id).toBe(ids.orc2);
      expect(foundry.errors).toEqual([]);
    });

    it('round and turn are mirrored: combat.combatant is the first actor of the current step, nobody while declaring', async () => {
      const { combat, foundry, ids } = w;
      foundry.dice.push(4, 5);
      await combat.startCombat();
      expect(combat.round).toBe(1);
      expect(combat.combatant ?? null).toBeNull();
      for (const id of Object.values(ids)) await declare(w, id, { action: 'melee', target: id === ids.orc1 || id === ids.orc2 ? ids.brand : ids.orc1 });
      const changes = record(['combatTurnChange']);
      // Party 2, orcs 5: the orcs act in segment 2, the party in 5 (alphabetical order would put Brand first).
      foundry.dice.push(2, 5);
      await combat.rollInitiative();
      expect(stepOf(combat).segment).toBe(2);
      expect(combat.turns.map((c: any) => c.name)).toEqual(['Orc 1', 'Orc 2', 'Brand', 'Halvaine']);
      expect(combat.combatant?.id).toBe(ids.orc1);
      expect(combat.turns[combat.turn as number].id).toBe(ids.orc1);
      // Core saw its current combatant change (turn events run on it).
      expect((combat as any).current.combatantId).toBe(ids.orc1);
      expect(changes.length).toBeGreaterThan(0);
      await combat.nextTurn();
      expect(combat.currentActorIds()).toEqual([ids.halvaine, ids.brand]);
      expect(combat.combatant?.id).toBe(ids.halvaine);
      expect((combat as any).current.combatantId).toBe(ids.halvaine);
      await combat.nextTurn();
      expect(flowOf(combat).stage).toBe('end-of-round');
      expect(combat.combatant ?? null).toBeNull();
      expect(foundry.errors).toEqual([]);
    });

    it('declarations made before startCombat survive it', async () => {
      const { combat, foundry, ids } = w;
      const answer = await foundry.asUser(foundry.users.player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
      expect(answer).toEqual({ ok: true });
      await declare(w, ids.orc1, { action: 'melee', target: ids.halvaine });
      expect(combat.flowState).toBeNull();
      foundry.dice.push(4, 5);
      await combat.startCombat();
      // The player's declaration enters the log with the start; the GM's plan for the orc stays on the GM's client.
      expect(flowOf(combat).declarations).toEqual({ [ids.halvaine]: expect.objectContaining({ action: 'spell', spell: 'Sleep', castingTime: 2 }) });
      expect(combat.gmDeclarations).toEqual({
        [ids.halvaine]: expect.objectContaining({ action: 'spell', spell: 'Sleep', castingTime: 2 }),
        [ids.orc1]: expect.objectContaining({ action: 'melee', target: ids.halvaine }),
      });
      foundry.dice.push(5, 4);
      await combat.rollInitiative();
      expect(Object.keys(flowOf(combat).declarations).sort()).toEqual([ids.halvaine, ids.orc1].sort());
      expect(combat.currentActorIds()).toEqual([ids.halvaine]);
      expect(foundry.errors).toEqual([]);
    });

    it('a combatant removed mid-combat stops acting, in this round and the next', async () => {
      const { combat, foundry, ids } = w;
      foundry.dice.push(4, 5);
      await combat.startCombat();
      for (const id of Object.values(ids)) await declare(w, id, { action: 'melee', target: id === ids.orc1 || id === ids.orc2 ? ids.brand : ids.orc1 });
      foundry.dice.push(5, 2); // party in 2, orcs in 5
      await combat.rollInitiative();
      expect(stepOf(combat).segment).toBe(2);
      await combat.deleteEmbeddedDocuments('Combatant', [ids.orc2]);
      await whenIdle(combat.id as string);
      expect(flowOf(combat).encounter.combatants.map((c: any) => c.id)).not.toContain(ids.orc2);
      expect(combat.turns.map((c: any) => c.id)).not.toContain(ids.orc2);
      await combat.nextTurn();
      expect(stepOf(combat).segment).toBe(5);
      expect(combat.currentActorIds()).toEqual([ids.orc1]);
      await nextUntil(combat, () => flowOf(combat).stage === 'declare');
      expect(Object.keys(flowOf(combat).declarations)).not.toContain(ids.orc2);
      foundry.dice.push(3, 3);
      await combat.rollInitiative();
      expect(flowOf(combat).schedule!.steps.flatMap((s: any) => s.entries.map((e: any) => e.combatant))).not.toContain(ids.orc2);
      expect(combat.currentActorIds()).toEqual([ids.halvaine, ids.brand, ids.orc1]);
      expect(foundry.errors).toEqual([]);
    });

    it('Next round plays out the rest of a round in one Combat write, with its spells, its deaths and its card', async () => {
      const { combat, foundry, ids } = w;
      foundry.dice.push(4, 5);
      await combat.startCombat();
      await declare(w, ids.halvaine, { action: 'spell', spell: w.spell.id });
      await declare(w, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc2 });
      await declare(w, ids.orc1, { action: 'melee', target: ids.brand });
      foundry.dice.push(5, 4); // party in 4, orcs in 5; Sleep goes off in 6
      await combat.rollInitiative();
      await attack(w, ids.brand, ids.orc2, [18, 8], w.sword.id); // Orc 2 at -2: dead (the default: dead at 0)
      expect(combat.combatants.get(ids.orc2)!.defeated).toBe(true);
      const hooks = record(['combatRound', 'combatTurn']);
      const clock = g.game.time.worldTime;
      foundry.writes.clear();
      await combat.nextRound();
      expect(flowOf(combat)).toMatchObject({ stage: 'declare', round: 2 });
      expect(combat.round).toBe(2);
      expect(foundry.writes.count('Combat', 'update')).toBe(1);
      expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(1); // the spell went off on the way
      const ends = cards('end-of-round');
      expect(ends).toHaveLength(1);
      expect(ends[0].content).toContain('Orc 2 was killed.');
      expect(hooks).toEqual([{ name: 'combatRound', round: 1, data: { round: 2, turn: null }, options: { direction: 1, worldTime: { delta: 60 } } }]);
      expect(g.game.time.worldTime - clock).toBe(60);
      // From the declarations: initiative, every step and the end of round 2, still one write.
      foundry.writes.clear();
      foundry.dice.push(3, 3);
      await combat.nextRound();
      expect(flowOf(combat)).toMatchObject({ stage: 'declare', round: 3 });
      expect(foundry.writes.count('Combat', 'update')).toBe(1);
      expect(foundry.errors).toEqual([]);
    });

    it('core hooks and update options: combatStart, then combatTurn / combatRound before each write with {direction, worldTime: {delta}}; the clock follows the rounds', async () => {
      const { combat, foundry, ids } = w;
      const calls = record(['combatStart', 'combatTurn', 'combatRound']);
      const updates: any[] = [];
      g.Hooks.on('updateCombat', (_c: any, changed: any, options: any) => {
        if ('round' in changed || 'turn' in changed) updates.push({ direction: options.direction, worldTime: options.worldTime });
      });
      const clock: number[] = [];
      g.Hooks.on('updateWorldTime', (_t: number, delta: number) => clock.push(delta));
      // The party is surprised for 2 segments.
      foundry.dice.push(2, 5);
      await combat.startCombat();
      expect(calls).toEqual([{ name: 'combatStart', round: 0, data: { round: 1, turn: null }, options: undefined }]);
      await declare(w, ids.orc1, { action: 'melee', target: ids.brand });
      calls.length = 0;
      await combat.rollInitiative(); // surprise segment 1
      await combat.nextTurn(); // surprise segment 2
      expect(calls.map((c) => [c.name, c.options])).toEqual([
        ['combatTurn', { direction: 1, worldTime: { delta: 0 } }],
        ['combatTurn', { direction: 1, worldTime: { delta: 0 } }],
      ]);
      await nextUntil(combat, () => flowOf(combat).stage === 'declare');
      // The two surprise segments took 12 seconds (round 0 and round 1 both show as core's round 1).
      expect(g.game.time.worldTime).toBe(12);
      foundry.dice.push(5, 4);
      await combat.rollInitiative();
      await nextUntil(combat, () => flowOf(combat).stage === 'end-of-round');
      calls.length = 0;
      // Core's turn events (where v14 expires effects) run for the system's round change, as the GM.
      const events: any[] = [];
      (combat as any)._onEndRound = async (context: any) => events.push(['end', context.round, g.game.user.id]);
      (combat as any)._onStartRound = async (context: any) => events.push(['start', context.round, g.game.user.id]);
      await combat.nextTurn(); // round 2 begins
      expect(calls).toEqual([{ name: 'combatRound', round: 1, data: { round: 2, turn: null }, options: { direction: 1, worldTime: { delta: 60 } } }]);
      expect(events).toEqual([
        ['end', 1, foundry.users.gm.id],
        ['start', 2, foundry.users.gm.id],
      ]);
      expect(g.game.time.worldTime).toBe(72);
      expect(updates.at(-1)).toEqual({ direction: 1, worldTime: { delta: 60 } });
      calls.length = 0;
      await combat.previousTurn(); // back to the end of round 1
      expect(calls).toEqual([{ name: 'combatRound', round: 2, data: { round: 1, turn: null }, options: { direction: -1, worldTime: { delta: -60 } } }]);
      expect(g.game.time.worldTime).toBe(12);
      expect(clock).toEqual([12, 60, -60]);
      expect(foundry.deprecations).toEqual([]);
      expect(foundry.errors).toEqual([]);
    });
  });

  describe('high-low', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'high-low', { deathAt: -10, bleedPerRound: 1 });
      w.foundry.loadLang(FRAGMENT);
    });

    it('Previous restores the exact earlier state, actor effects included: bleeding, a spell cast, a hit', async () => {
      const { combat, foundry, ids, actors } = w;
      foundry.dice.push(4, 5); // nobody surprised
      await combat.startCombat();
      await declare(w, ids.halvaine, { action: 'spell', spell: w.spell.id });
      await declare(w, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc2 });
      await declare(w, ids.orc1, { action: 'melee', target: ids.brand });
      const declared = structuredClone(combat.flowState);
      const held = structuredClone(combat.held);
      foundry.dice.push(5, 2); // party HIGH
      await combat.rollInitiative();
      await nextUntil(combat, () => stepOf(combat).phase === 'high');
      await attack(w, ids.brand, ids.orc2, [15, 8], w.sword.id);
      expect(hp(actors.orc2)).toBe(-2);
      await nextUntil(combat, () => stepOf(combat).phase === 'spells');
      expect(actors.halvaine.items.get(w.spell.id).system.expended).toBe(1);
      await actors.orc1.update({ 'system.hp.value': -1 }); // the GM marks Orc 1 dying too
      await whenIdle(combat.id as string);
      const beforeEnd = { state: structuredClone(combat.flowState), log: structuredClone((combat.system as any).log) };
      foundry.writes.clear();
      await combat.nextTurn();
      expect(flowOf(combat).stage).toBe('end-of-round');
      expect([hp(actors.orc1), hp(actors.orc2)]).toEqual([-2, -3]); // both bled
      expect(foundry.writes.all().filter((r: any) => r.documentName === 'Actor')).toEqual([expect.objectContaining({ action: 'update', count: 2 })]); // one batch
      const hooks = record(['combatTurn', 'combatRound']);
      foundry.writes.clear();
      await combat.previousTurn();
      expect(combat.flowState).toEqual(beforeEnd.state);
      expect((combat.system as any).log).toEqual(beforeEnd.log);
      expect([hp(actors.orc1), hp(actors.orc2)]).toEqual([-1, -2]); // the bleeding undone on the actors
      expect(foundry.writes.count('Combat', 'update')).toBe(1);
      expect(foundry.writes.count('Actor', 'update')).toBe(1);
      expect(hooks.map((h) => [h.name, h.options.direction])).toEqual([['combatTurn', -1]]);
      // Back to the declarations: the spell is memorized again and the hit is undone.
      await combat.previousRound();
      expect(combat.flowState).toEqual(declared);
      expect(combat.held).toEqual(held); // the orc's plan is the GM's own again
      expect(actors.halvaine.items.get(w.spell.id).system.expended).toBe(0);
      expect(hp(actors.orc2)).toBe(6);
      expect(combat.combatants.get(ids.orc2)!.defeated).toBe(false);
      expect(foundry.errors).toEqual([]);
    });
  });

  describe('individual-speed', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'individual-speed');
      w.foundry.loadLang(FRAGMENT);
    });

    it('late joiners: one whose count has passed acts next round at -12 as well (the Ghoul); one whose count is to come acts this round', async () => {
      const { combat, foundry, ids } = w;
      // Base initiative: Halvaine 5, Brand 3, Orc 1 4, Orc 2 6.
      foundry.dice.push(5, 3, 4, 6);
      await combat.startCombat();
      await declare(w, ids.halvaine, { action: 'other' });
      await declare(w, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }); // 3 + 5
      await declare(w, ids.orc1, { action: 'melee', target: ids.brand });
      await declare(w, ids.orc2, { action: 'melee', target: ids.halvaine });
      await combat.rollInitiative();
      const counts = () => flowOf(combat).schedule!.steps.map((s: any) => s.count);
      expect(counts()).toEqual([4, 5, 6, 8]);
      await nextUntil(combat, () => stepOf(combat).count === 6);
      // A ghoul and a wight wander in during count 6, each declaring an attack on Brand.
      const [ghoulActor, wightActor] = await g.Actor.create([
        { name: 'Ghoul', type: 'monster', system: { hitDice: '2', hp: { value: 12, max: 12 }, attacks: 'claw 1d3' } },
        { name: 'Wight', type: 'monster', system: { hitDice: '3', hp: { value: 15, max: 15 }, attacks: 'touch 1d4' } },
      ]);
      const onBrand = { declaration: { action: 'melee', target: ids.brand } };
      foundry.dice.push(3, 9); // base initiative: ghoul 3 (count 3, passed), wight 9 (count 9, to come)
      const [ghoul, wight] = (await combat.createEmbeddedDocuments('Combatant', [
        { actorId: ghoulActor.id, name: 'Ghoul', system: onBrand },
        { actorId: wightActor.id, name: 'Wight', system: onBrand },
      ] as never)) as any[];
      await whenIdle(combat.id as string);
      const gid = ghoul.id as string;
      const wid = wight.id as string;
      expect(groupOf(combat, gid)).toBe(groupOf(combat, ids.orc1)); // no token: the hostile side
      expect(flowOf(combat).baseInitiative).toMatchObject({ [gid]: 3, [wid]: 9 });
      // "that creature acts during the next round with an addition -12 modifier": 3 - 12.
      expect(flowOf(combat).owed).toEqual({ [gid]: -9 });
      expect(counts()).toEqual([4, 5, 6, 8, 9]);
      expect(stepOf(combat).count).toBe(6); // the GM is still where they were
      expect(combat.combatant?.id).toBe(ids.orc2);
      await combat.nextTurn();
      await combat.nextTurn();
      expect(stepOf(combat).count).toBe(9);
      expect(combat.combatant?.id).toBe(wid);
      await nextUntil(combat, () => flowOf(combat).stage === 'declare');
      // Round 2: "in addition to declaring their action for that round": at -9 and at 3.
      await combat.rollInitiative();
      expect(counts()).toEqual([-9, 3, 4, 5, 6, 8, 9]);
      expect(stepOf(combat).entries).toEqual([expect.objectContaining({ combatant: gid, kind: 'late-join' })]);
      expect(combat.combatant?.id).toBe(gid);
      await combat.nextTurn();
      expect(combat.combatant?.id).toBe(gid);
      expect(foundry.errors).toEqual([]);
    });

    it('two unlinked tokens of one actor are two combatants: a hit on one is a hit on that one only', async () => {
      const { combat, foundry, scene } = w;
      const [gob] = await g.Actor.create([{ name: 'Goblin', type: 'monster', system: { hitDice: '1', hp: { value: 5, max: 5 }, attacks: 'spear 1d6' } }]);
      const tokens = await scene.createEmbeddedDocuments('Token', [
        { name: 'Goblin A', actorId: gob.id, actorLink: false, x: 600, y: 0, disposition: -1 },
        { name: 'Goblin B', actorId: gob.id, actorLink: false, x: 700, y: 0, disposition: -1 },
      ]);
      const [a, b] = (await combat.createEmbeddedDocuments('Combatant', tokens.map((t: any) => ({ tokenId: t.id, sceneId: scene.id, actorId: gob.id })) as never)) as any[];
      foundry.dice.push(5, 3, 4, 6, 7, 8);
      await combat.startCombat();
      await a.actor!.update({ 'system.hp.value': 1 } as never);
      await whenIdle(combat.id as string);
      expect(a.actor!.system.hp.value).toBe(1);
      expect(b.actor!.system.hp.value).toBe(5);
      expect(flowOf(combat).states[a.id as string].hp).toBe(1);
      expect(flowOf(combat).states[b.id as string].hp).toBe(5);
      expect(foundry.errors).toEqual([]);
    });
  });

  it('a combat of 200 combatants: one Combat write per transition', async () => {
    w = await makeWorld(generation, 'segment-d6');
    const { foundry, scene } = w;
    const actors = await g.Actor.create(
      Array.from({ length: 200 }, (_, i) => ({ name: `Soldier ${i}`, type: 'monster', system: { hitDice: '1', hp: { value: 8, max: 8 }, attacks: 'sword 1d8' } })),
    );
    const tokens = await scene.createEmbeddedDocuments(
      'Token',
      actors.map((a: any, i: number) => ({ name: a.name, actorId: a.id, actorLink: true, x: (i % 20) * 100, y: 200 + Math.floor(i / 20) * 100, disposition: i % 2 ? 1 : -1 })),
    );
    const combat = (await g.Combat.create({ scene: scene.id })) as TenSegmentsCombat;
    await combat.createEmbeddedDocuments(
      'Combatant',
      tokens.map((t: any) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId, system: { declaration: { action: 'melee' } } })) as never,
    );
    await whenIdle();
    expect(combat.groups.size).toBe(2);
    foundry.dice.push(4, 5);
    await combat.startCombat();
    expect(Object.keys(flowOf(combat).declarations)).toHaveLength(200);
    const perTransition: number[] = [];
    const cardsPosted: number[] = [];
    const step = async (run: () => Promise<unknown>) => {
      foundry.writes.clear();
      await run();
      expect(foundry.writes.count('Combat')).toBe(1);
      // Besides the chat cards (initiative, the end of the round's recap), one write.
      cardsPosted.push(foundry.writes.count('ChatMessage'));
      perTransition.push(foundry.writes.count() - foundry.writes.count('ChatMessage'));
    };
    foundry.dice.push(3, 6);
    await step(() => combat.rollInitiative());
    expect(combat.currentActorIds()).toHaveLength(100);
    await step(() => combat.nextTurn());
    await step(() => combat.nextTurn()); // end of round
    await step(() => combat.nextTurn()); // round 2 declarations
    foundry.dice.push(2, 2);
    await step(() => combat.nextRound());
    await step(() => combat.previousTurn());
    expect(perTransition).toEqual([1, 1, 1, 1, 1, 1]);
    expect(cardsPosted).toEqual([1, 0, 1, 0, 2, 0]);
    expect(foundry.errors).toEqual([]);
  });
});

describe.each([13, 14] as const)('sides as CombatantGroups, generation %i', (generation) => {
  it('each side knows its fighters and gives the engine its view', async () => {
    const { makeWorld: make } = await import('./world');
    const w = await make(generation, 'segment-d6');
    const groups = w.combat.groups.contents as any[];
    expect(groups.map((g) => g.constructor.name)).toEqual(['TenSegmentsCombatantGroup', 'TenSegmentsCombatantGroup']);
    const friendly = groups.find((g) => g.side.name === 'Friendly');
    expect(friendly.fighters.map((c: any) => c.name).sort()).toEqual(['Brand', 'Halvaine']);
    expect(friendly.side).toEqual({ id: friendly.id, name: 'Friendly' });
  });
});
