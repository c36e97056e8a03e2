/**
 * Requests arriving at the same moment. The system socket delivers requests
 * to the active GM's client as they come, and each handler awaits database writes, so two
 * requests for one combat interleave unless they are queued: a player's
 * declaration must never be overwritten by another's, nor by the GM pressing
 * a tracker button, and a combat busy with one request must not hold up
 * another combat's.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, g, type World } from './world';
import { requestCombatAction, requestDeclaration, type QueryAnswer } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import type { TenSegmentsCombat } from '../../src/documents/combat';
import { CHANNEL, gmSideLoaded, whenIdle } from '../../src/documents/requests';

/** A declaration without the sheet numbers frozen with it (issue 27): what was declared. */
const withoutSheet = (d: any) => {
  const { sheet: _sheet, ...rest } = d ?? {};
  return rest;
};

const CLOSED = 'Declarations are closed: the round is already under way.';

function loadFragments(w: World): void {
}

describe.each([13, 14] as const)('requests at the same moment, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
    loadFragments(w);
  });

  /** Start with nobody surprised (party 4, orcs 5). */
  async function start(combat: TenSegmentsCombat = w.combat): Promise<void> {
    w.foundry.dice.push(4, 5);
    await combat.startCombat();
    expect(combat.flowState!.stage).toBe('declare');
  }

  const halvaineCasts = () =>
    w.foundry.asUser(w.foundry.users.player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
  const brandFights = () =>
    w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));

  describe('two players declaring at once', () => {
    it('both keep their declarations', async () => {
      await start();
      const answers = await Promise.all([halvaineCasts(), brandFights()]);
      expect(answers).toEqual([{ ok: true }, { ok: true }]);
      const declared = w.combat.flowState!.declarations;
      expect(declared[w.ids.halvaine]).toMatchObject({ action: 'spell', spell: 'Sleep' });
      expect(declared[w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc1, weapon: { name: 'Long sword' } });
      // One write each, none lost: the log holds both, after the start.
      expect(w.foundry.writes.count('Combat', 'update')).toBe(3);
      expect(w.combat.entries.map(([, e]) => e.t)).toEqual(['start', 'declare', 'declare']);
      expect(w.foundry.errors).toEqual([]);
    });

    it('both keep them with the GM declaring for both orcs at the same moment', async () => {
      await start();
      const gm = (id: string, target: string) => requestDeclaration(w.combat, id, { action: 'melee', target });
      const answers = await Promise.all([halvaineCasts(), gm(w.ids.orc1, w.ids.halvaine), brandFights(), gm(w.ids.orc2, w.ids.brand)]);
      expect(answers.every((a) => a.ok)).toBe(true);
      // The players' in the log, the GM's for the orcs held on the GM's client until initiative.
      expect(Object.keys(w.combat.flowState!.declarations).sort()).toEqual([w.ids.halvaine, w.ids.brand].sort());
      expect(Object.keys(w.combat.gmDeclarations).sort()).toEqual(Object.values(w.ids).sort());
      expect(w.foundry.errors).toEqual([]);
    });

    it('before the combat starts both wait on their combatants, and both survive the start', async () => {
      const answers = await Promise.all([halvaineCasts(), brandFights()]);
      expect(answers).toEqual([{ ok: true }, { ok: true }]);
      await start();
      const declared = w.combat.flowState!.declarations;
      expect(declared[w.ids.halvaine]).toMatchObject({ action: 'spell', spell: 'Sleep' });
      expect(declared[w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc1 });
      expect(w.foundry.errors).toEqual([]);
    });

    it('before the start, a changed mind replaces the whole declaration: nothing of the spell is left', async () => {
      const answers = await w.foundry.asUser(w.foundry.users.player, () =>
        Promise.all([
          requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id, note: 'Sleep on the orcs' }),
          requestDeclaration(w.combat, w.ids.halvaine, { action: 'flee' }),
        ]),
      );
      expect(answers).toEqual([{ ok: true }, { ok: true }]);
      // The request waits on the combatant as it was sent.
      expect((w.combat.combatants.get(w.ids.halvaine) as any).system.declaration).toEqual({ action: 'flee' });
      await start();
      expect(withoutSheet(w.combat.flowState!.declarations[w.ids.halvaine])).toEqual({ combatant: w.ids.halvaine, action: 'flee' });
      expect(w.foundry.errors).toEqual([]);
      expect(w.foundry.deprecations).toEqual([]);
    });

    it('one player changing their mind twice at once: both answered, the later one stands', async () => {
      await start();
      const answers = await w.foundry.asUser(w.foundry.users.player, () =>
        Promise.all([
          requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }),
          requestDeclaration(w.combat, w.ids.halvaine, { action: 'flee' }),
        ]),
      );
      expect(answers).toEqual([{ ok: true }, { ok: true }]);
      expect(w.combat.flowState!.declarations[w.ids.halvaine]).toMatchObject({ action: 'flee' });
      // The change of mind replaced the first entry (issue 27), which keeps the first request's key: a retry of either is known.
      expect(w.combat.entries.map(([, e]) => e.t)).toEqual(['start', 'declare']);
      expect((w.combat.entries[1][1] as any).qs).toHaveLength(1);
    });
  });

  describe('a declaration racing the GM', () => {
    /** Applied (and then part of the round's plan) or refused as too late: never accepted and lost. */
    function expectAppliedOrRefused(answer: QueryAnswer): void {
      const state = w.combat.flowState!;
      const planned = state.schedule?.steps.some((s) => s.entries.some((e) => e.combatant === w.ids.brand)) ?? false;
      if (answer.ok) {
        expect(state.declarations[w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc1 });
        expect(planned).toBe(true);
      } else {
        expect(answer).toMatchObject({ key: 'NotDeclaring', message: CLOSED });
        expect(state.declarations[w.ids.brand]).toBeUndefined();
        expect(planned).toBe(false);
      }
    }

    async function orcsDeclared(): Promise<void> {
      await start();
      expect((await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.halvaine })).ok).toBe(true);
      w.foundry.dice.push(5, 4);
    }

    it('declaration first, the tracker\'s "roll initiative" second', async () => {
      await orcsDeclared();
      const [answer] = await Promise.all([brandFights(), w.combat.rollInitiative()]);
      expect(w.combat.flowState!.stage).toBe('resolve');
      expectAppliedOrRefused(answer);
      expect(w.foundry.errors).toEqual([]);
    });

    it('"roll initiative" first, the declaration second', async () => {
      await orcsDeclared();
      const [, answer] = await Promise.all([w.combat.rollInitiative(), brandFights()]);
      expect(w.combat.flowState!.stage).toBe('resolve');
      expectAppliedOrRefused(answer);
      expect(w.foundry.errors).toEqual([]);
    });

    it('the GM rolling initiative through the request path: the same', async () => {
      await orcsDeclared();
      const [gm, answer] = await Promise.all([requestCombatAction(w.combat, 'rollInitiative'), brandFights()]);
      expect(gm).toEqual({ ok: true });
      expectAppliedOrRefused(answer);
    });

    it('a declaration racing Next in the round is refused, and the step still moves', async () => {
      await orcsDeclared();
      await w.combat.rollInitiative();
      const step = w.combat.flowState!.step;
      const [, answer] = await Promise.all([w.combat.nextTurn(), brandFights()]);
      expect(w.combat.flowState!.step).toBe(step + 1);
      expectAppliedOrRefused(answer);
      expect(answer.ok).toBe(false);
    });

    it('a declaration racing Previous back into the declarations is applied on top of it', async () => {
      await orcsDeclared();
      await w.combat.rollInitiative();
      const [, answer] = await Promise.all([w.combat.previousTurn(), brandFights()]);
      const state = w.combat.flowState!;
      expect(state.stage).toBe('declare');
      if (answer.ok) expect(state.declarations[w.ids.brand]).toMatchObject({ action: 'melee' });
      else expect(answer).toMatchObject({ key: 'NotDeclaring', message: CLOSED });
      expect(w.foundry.errors).toEqual([]);
    });
  });

  describe('two attacks at once on one target', () => {
    it('both blows count: the orc loses the sum of both damage rolls', async () => {
      await start();
      const [dagger] = await w.actors.halvaine.createEmbeddedDocuments('Item', [
        { name: 'Dagger', type: 'weapon', system: { damage: { small: '1d4', large: '1d3' }, speed: 2, length: 1, space: 1, kind: 'melee', equipped: true } },
      ]);
      // Both declare a blow at Orc 1 with the weapon they will strike with, and the party acts first (segment 4).
      const halvaineStabs = await w.foundry.asUser(w.foundry.users.player, () =>
        requestDeclaration(w.combat, w.ids.halvaine, { action: 'melee', weapon: dagger.id, target: w.ids.orc1 }),
      );
      expect(halvaineStabs).toEqual({ ok: true });
      expect(await brandFights()).toEqual({ ok: true });
      w.foundry.dice.push(5, 4);
      await w.combat.rollInitiative();
      expect(w.combat.currentActorIds().sort()).toEqual([w.ids.halvaine, w.ids.brand].sort());
      w.foundry.dice.push(17, 2, 17, 3); // each hits (13 needed against AC 6); 2 and 3 damage
      const [a, b] = (await Promise.all([
        w.foundry.asUser(w.foundry.users.player, () => requestAttack(w.combat, { attackerId: w.ids.halvaine, targetId: w.ids.orc1, weaponId: dagger.id })),
        w.foundry.asUser(w.foundry.users.player2, () => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id })),
      ])) as any[];
      await w.foundry.settle();
      expect([a.hit, b.hit]).toEqual([true, true]);
      expect(a.damage + b.damage).toBe(5);
      expect(w.actors.orc1.system.hp.value).toBe(1);
      expect(g.game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'attack')).toHaveLength(2);
      expect(w.foundry.errors).toEqual([]);
    });
  });

  describe("requests arriving while the GM's side of requests is still loading", () => {
    /** What a client hears on the system socket. */
    function listen(user: any): any[] {
      const heard: any[] = [];
      w.foundry.client(user).run(() => g.game.socket.on(CHANNEL, (data: any) => heard.push(data)));
      return heard;
    }

    it('are handled in the order they arrived, a retry among them answered once', async () => {
      const gm = w.foundry.client(w.foundry.users.gm);
      expect(await gm.run(() => gmSideLoaded())).toBe(false);
      const player = w.foundry.users.player;
      const heard = listen(player);
      const send = (id: string, kind: string, body: object) => w.foundry.raw(player).emit(CHANNEL, { k: 'req', id, kind, body });
      const halvaine = { combatId: w.combat.id, combatantId: w.ids.halvaine };
      // Sent back to back: all four reach the GM's client before its chunk of handlers has arrived.
      send('first', 'declare', { ...halvaine, declaration: { action: 'spell', spell: w.spell.id } });
      send('second', 'withdraw', halvaine);
      send('third', 'declare', { ...halvaine, declaration: { action: 'flee' } });
      send('first', 'declare', { ...halvaine, declaration: { action: 'spell', spell: w.spell.id } });
      await w.foundry.settle();
      await gm.run(() => whenIdle());
      await w.foundry.settle();
      expect(await gm.run(() => gmSideLoaded())).toBe(true);
      // In order: the spell, withdrawn, then flee; the retry of the first changed nothing.
      expect((w.combat.combatants.get(w.ids.halvaine) as any).system.declaration).toEqual({ action: 'flee' });
      // Each answered (the retry with the first's answer, as soon as the first is done).
      const answers = heard.filter((m) => m.k === 'ans' && m.to === player.id);
      expect(answers.map((m) => m.id).sort()).toEqual(['first', 'first', 'second', 'third']);
      expect(answers.every((m) => m.answer.ok === true)).toBe(true);
      await start();
      expect(withoutSheet(w.combat.flowState!.declarations[w.ids.halvaine])).toEqual({ combatant: w.ids.halvaine, action: 'flee' });
      expect(w.foundry.errors).toEqual([]);
    });

    it("the active GM's own request waits with them; the player's later change of mind stands", async () => {
      const gm = w.foundry.client(w.foundry.users.gm);
      expect(await gm.run(() => gmSideLoaded())).toBe(false);
      const asPlayer = (declaration: object) => w.foundry.asUser(w.foundry.users.player, () => requestDeclaration(w.combat, w.ids.halvaine, declaration as never));
      const answers = await Promise.all([
        requestDeclaration(w.combat, w.ids.halvaine, { action: 'flee' }),
        asPlayer({ action: 'spell', spell: w.spell.id }),
        asPlayer({ action: 'spell', spell: w.spell.id, note: 'the later one' }),
      ]);
      expect(answers).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
      expect((w.combat.combatants.get(w.ids.halvaine) as any).system.declaration).toEqual({ action: 'spell', spell: w.spell.id, note: 'the later one' });
      expect(w.foundry.errors).toEqual([]);
    });
  });

  describe('two combats', () => {
    it("a combat busy with a long request does not hold up another combat's declarations", async () => {
      await start();
      // A second encounter on the same scene: Brand against Orc 2.
      const tokens = w.scene.tokens.contents.filter((t: any) => ['Brand', 'Orc 2'].includes(t.name));
      const other = (await g.Combat.create({ scene: w.scene.id })) as TenSegmentsCombat;
      const [brandThere, orcThere] = (await other.createEmbeddedDocuments(
        'Combatant',
        tokens.map((t: any) => ({ tokenId: t.id, sceneId: w.scene.id, actorId: t.actorId })) as never,
      )) as any[];
      await w.foundry.settle();
      await start(other);

      // The first combat's queue is held (the GM's client is in the middle of a long transition).
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const busy = w.combat.exclusive(() => held);
      let firstAnswered = false;
      const first = halvaineCasts().then((a) => {
        firstAnswered = true;
        return a;
      });

      const answer = await w.foundry.asUser(w.foundry.users.player2, () =>
        requestDeclaration(other, brandThere.id, { action: 'melee', weapon: w.sword.id, target: orcThere.id }),
      );
      expect(answer).toEqual({ ok: true });
      expect(other.flowState!.declarations[brandThere.id]).toMatchObject({ action: 'melee' });
      // The first combat's request is still waiting its turn, and nothing of it is written yet.
      expect(firstAnswered).toBe(false);
      expect(w.combat.flowState!.declarations[w.ids.halvaine]).toBeUndefined();

      release();
      await busy;
      expect(await first).toEqual({ ok: true });
      expect(w.combat.flowState!.declarations[w.ids.halvaine]).toMatchObject({ action: 'spell', spell: 'Sleep' });
      expect(w.foundry.errors).toEqual([]);
    });
  });
});
