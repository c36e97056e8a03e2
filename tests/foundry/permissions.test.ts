/**
 * The permission matrix of issue #3, enforced on the GM's side: GM, owner
 * (the player who owns the combatant's actor), another player (no
 * permission) and an observer (OBSERVER on the actor) × declare, change step
 * (next / previous step, next round), roll initiative, apply damage (an
 * attack) and undo an interruption.
 *
 * Each cell either shows the effect a user would see, or the refusal with its
 * localized reason and no change at all: the combat's log and the GM's held declarations, the
 * actors with their items, the combatants, the chat log, and not one write.
 * A player's cell tries both ways in: the button the player would press
 * (tracker, chat card, sheet) and the request sent to the active GM (on the
 * system socket), which is where the refusal is decided. A refusal shown as
 * a notification is shown on the acting user's own client.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, g, type World } from './world';
import { requestCombatAction, requestDeclaration, type StepAction } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { undoFromCard } from '../../src/documents/damage';
import { currentEntries } from '../../src/rules/flow';

/** lang/en.json and the fragments not yet merged into it. */
function loadFragments(w: World): void {
}

type Role = 'gm' | 'owner' | 'other' | 'observer';
const ROLES: Role[] = ['gm', 'owner', 'other', 'observer'];

const MSG = {
  notYours: 'You do not control Halvaine.',
  onlyGMAdvances: 'Only the GM moves the combat from step to step.',
  onlyGM: 'Only the GM can do that.',
};

interface Table extends World {
  users: Record<Role, any>;
  dagger: any;
}

async function table(generation: 13 | 14): Promise<Table> {
  const w = await makeWorld(generation, 'segment-d6');
  loadFragments(w);
  const { foundry } = w;
  const corin = foundry.users.add({ name: 'Corin' });
  const [dagger] = await w.actors.halvaine.createEmbeddedDocuments('Item', [
    { name: 'Dagger', type: 'weapon', system: { damage: { small: '1d4', large: '1d3' }, speed: 2, length: 1, space: 1, kind: 'melee', equipped: true } },
  ]);
  foundry.writes.clear();
  return { ...w, dagger, users: { gm: foundry.users.gm, owner: foundry.users.player, other: corin, observer: foundry.users.player2 } };
}

/** Everything a refusal must leave as it was. */
function snapshot(w: Table): string {
  const combat = w.combat as any;
  return JSON.stringify({
    log: combat.system.log,
    held: combat.held,
    round: combat.round,
    turn: combat.turn,
    combatants: combat.combatants.contents.map((c: any) => c.toObject()),
    actors: g.game.actors.contents.map((a: any) => a.toObject()),
    messages: g.game.messages.contents.map((m: any) => m.id),
  });
}

/** Start, with nobody surprised (party 4, orcs 5). */
async function start(w: Table): Promise<void> {
  w.foundry.dice.push(4, 5);
  await w.combat.startCombat();
}

/** Declarations of the Halvaine example (seed 000): she casts Sleep (or, given, does something else), everyone else fights. */
async function declareAll(w: Table, halvaine: Record<string, unknown> = { action: 'spell', spell: w.spell.id }): Promise<void> {
  const { combat, ids } = w;
  expect(await requestDeclaration(combat, ids.halvaine, halvaine as never)).toEqual({ ok: true });
  expect(await requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 })).toEqual({ ok: true });
  expect(await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine })).toEqual({ ok: true });
  expect(await requestDeclaration(combat, ids.orc2, { action: 'melee', target: ids.brand })).toEqual({ ok: true });
}

/** Initiative party 5, orcs 4: the party acts in segment 4, the orcs in segment 5. */
async function rollInitiative(w: Table): Promise<void> {
  w.foundry.dice.push(5, 4);
  await w.combat.rollInitiative();
  expect(w.combat.flowState!.stage).toBe('resolve');
}

const segment = (w: Table) => {
  const s = w.combat.flowState!;
  return s.stage === 'resolve' ? s.schedule!.steps[s.step].segment : null;
};

/** Orc 1 hits Halvaine in segment 5 (18 to hit, 3 damage): Sleep is interrupted. Returns the casting id. */
async function interruptSleep(w: Table): Promise<string> {
  await w.combat.nextTurn();
  expect(segment(w)).toBe(5);
  w.foundry.dice.push(18, 3);
  const hit = await requestAttack(w.combat, { attackerId: w.ids.orc1, targetId: w.ids.halvaine });
  expect(hit).toMatchObject({ ok: true, hit: true, damage: 3 });
  await w.foundry.settle();
  const [interruption] = w.combat.flowState!.interruptions;
  expect(interruption).toMatchObject({ caster: w.ids.halvaine, outcome: 'interrupted', expended: true });
  expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(1);
  return interruption.casting;
}

/**
 * A refused attempt: the answer (when there is one) or the notification
 * carries the reason, and nothing changed.
 */
async function expectRefused(w: Table, user: any, attempt: () => Promise<unknown>, message: string): Promise<void> {
  const before = snapshot(w);
  const writes = w.foundry.writes.count();
  const notifications = w.foundry.client(user).notifications;
  const shown = notifications.length;
  const result: any = await w.foundry.asUser(user, attempt);
  await w.foundry.settle();
  if (result && typeof result === 'object' && 'ok' in result) {
    expect(result).toMatchObject({ ok: false, message });
  } else {
    expect(notifications.slice(shown)).toEqual([{ type: 'error', message }]);
  }
  expect(snapshot(w)).toBe(before);
  expect(w.foundry.writes.count()).toBe(writes);
}

describe.each([13, 14] as const)('permission matrix, generation %i', (generation) => {
  let w: Table;
  beforeEach(async () => {
    w = await table(generation);
  });

  it('the roles are what the matrix says: owner OWNER, observer OBSERVER, the other player nothing', () => {
    const { OWNER, OBSERVER, NONE } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    const actor = w.actors.halvaine;
    expect(actor.getUserLevel(w.users.owner)).toBe(OWNER);
    expect(actor.getUserLevel(w.users.observer)).toBe(OBSERVER);
    expect(actor.getUserLevel(w.users.other)).toBe(NONE);
    expect(w.users.gm.isGM).toBe(true);
  });

  /* ------------------------------------------------------------ declare */

  describe('declare for Halvaine', () => {
    const declare = (t: Table) => requestDeclaration(t.combat, t.ids.halvaine, { action: 'spell', spell: t.spell.id });

    it.each(['gm', 'owner'] as const)('%s: the declaration is recorded, in one Combat write', async (role) => {
      await start(w);
      w.foundry.writes.clear();
      const answer = await w.foundry.asUser(w.users[role], () => declare(w));
      expect(answer).toEqual({ ok: true });
      expect(w.combat.flowState!.declarations[w.ids.halvaine]).toMatchObject({ action: 'spell', spell: 'Sleep', castingTime: 2 });
      expect(w.foundry.writes.count()).toBe(1);
      expect(w.foundry.writes.count('Combat', 'update')).toBe(1);
      expect(w.foundry.errors).toEqual([]);
    });

    it.each(['other', 'observer'] as const)('%s: refused, "You do not control Halvaine", nothing changes', async (role) => {
      await start(w);
      await expectRefused(w, w.users[role], () => declare(w), MSG.notYours);
      expect(w.combat.flowState!.declarations[w.ids.halvaine]).toBeUndefined();
      expect(w.foundry.errors).toEqual([]);
    });

    it.each(['other', 'observer'] as const)('%s: refused before the combat starts too, and nothing waits on the combatant', async (role) => {
      await expectRefused(w, w.users[role], () => declare(w), MSG.notYours);
      expect((w.combat.combatants.get(w.ids.halvaine) as any).system.declaration ?? null).toBeNull();
    });
  });

  /* -------------------------------------------------------- change step */

  describe('change step', () => {
    const steps: { action: StepAction; button: (t: Table) => Promise<unknown> }[] = [
      { action: 'nextTurn', button: (t) => t.combat.nextTurn() },
      { action: 'previousTurn', button: (t) => t.combat.previousTurn() },
      { action: 'nextRound', button: (t) => t.combat.nextRound() },
    ];

    /** In segment 4 of round 1, with segment 5 still to come and a step to go back to. */
    async function midRound(t: Table): Promise<void> {
      await start(t);
      await declareAll(t);
      await rollInitiative(t);
      expect(segment(t)).toBe(4);
    }

    it.each(steps.map((s) => s.action))('gm: %s moves the combat, one Combat write', async (action) => {
      await midRound(w);
      w.foundry.writes.clear();
      const answer = await requestCombatAction(w.combat, action);
      expect(answer).toEqual({ ok: true });
      const state = w.combat.flowState!;
      if (action === 'nextTurn') expect(segment(w)).toBe(5);
      if (action === 'previousTurn') expect(state.stage).toBe('declare');
      if (action === 'nextRound') expect([state.round, state.stage]).toEqual([2, 'declare']);
      expect(w.foundry.writes.count('Combat', 'update')).toBe(1);
      expect(w.foundry.errors).toEqual([]);
    });

    for (const role of ['owner', 'other', 'observer'] as const) {
      it.each(steps)(`${role}: $action is refused at the tracker and by the GM, nothing changes`, async ({ action, button }) => {
        await midRound(w);
        await expectRefused(w, w.users[role], () => button(w), MSG.onlyGMAdvances);
        await expectRefused(w, w.users[role], () => requestCombatAction(w.combat, action), MSG.onlyGMAdvances);
        expect(segment(w)).toBe(4);
        expect(w.foundry.errors).toEqual([]);
      });
    }
  });

  /* ---------------------------------------------------- roll initiative */

  describe('roll initiative', () => {
    it('gm: initiative is rolled for the sides and the round begins', async () => {
      await start(w);
      await declareAll(w);
      w.foundry.writes.clear();
      w.foundry.dice.push(5, 4);
      expect(await requestCombatAction(w.combat, 'rollInitiative')).toEqual({ ok: true });
      expect(w.combat.flowState!.stage).toBe('resolve');
      expect(segment(w)).toBe(4);
      expect(w.foundry.writes.count('Combat', 'update')).toBe(1);
      expect(w.foundry.errors).toEqual([]);
    });

    it.each(['owner', 'other', 'observer'] as const)('%s: refused at the tracker (all, NPCs, own combatant) and by the GM', async (role) => {
      await start(w);
      await declareAll(w);
      const user = w.users[role];
      await expectRefused(w, user, () => (w.combat as any).rollInitiative([w.ids.halvaine]), MSG.onlyGM);
      await expectRefused(w, user, () => w.combat.rollAll(), MSG.onlyGM);
      await expectRefused(w, user, () => w.combat.rollNPC(), MSG.onlyGM);
      await expectRefused(w, user, () => requestCombatAction(w.combat, 'rollInitiative'), MSG.onlyGM);
      expect(w.combat.flowState!.stage).toBe('declare');
      expect(w.foundry.errors).toEqual([]);
    });
  });

  /* ------------------------------------------------- apply damage (attack) */

  describe('apply damage: Halvaine stabs Orc 1 with her dagger', () => {
    const stab = (t: Table) => requestAttack(t.combat, { attackerId: t.ids.halvaine, targetId: t.ids.orc1, weaponId: t.dagger.id });
    /** She declared the blow, and it is the party's step (segment 4): the attack is hers to make now. */
    const stabbing = (t: Table) => declareAll(t, { action: 'melee', weapon: t.dagger.id, target: t.ids.orc1 });

    it.each(['gm', 'owner'] as const)('%s: the attack is rolled, carded and the damage applied to the orc', async (role) => {
      await start(w);
      await stabbing(w);
      await rollInitiative(w);
      w.foundry.dice.push(17, 3); // AAC0 19 against AC 6 needs 13: hit, 3 damage
      const messages = g.game.messages.size;
      const answer = await w.foundry.asUser(w.users[role], () => stab(w));
      await w.foundry.settle();
      expect(answer).toEqual({ ok: true, hit: true, natural: 17, needed: 13, damage: 3 });
      expect(w.actors.orc1.system.hp.value).toBe(3);
      expect(g.game.messages.size).toBe(messages + 1);
      expect(g.game.messages.contents.at(-1).flags['ten-segments']).toMatchObject({ kind: 'attack', attacker: w.ids.halvaine, target: w.ids.orc1 });
      expect(w.foundry.errors).toEqual([]);
    });

    it.each(['other', 'observer'] as const)('%s: refused, no roll, no card, the orc untouched', async (role) => {
      await start(w);
      await stabbing(w);
      await rollInitiative(w);
      w.foundry.dice.push(17, 3);
      await expectRefused(w, w.users[role], () => stab(w), MSG.notYours);
      expect(w.foundry.dice.remaining).toEqual([17, 3]);
      expect(w.actors.orc1.system.hp.value).toBe(6);
      expect(w.foundry.errors).toEqual([]);
    });

    it.each(['owner', 'other', 'observer'] as const)('%s: cannot write the damage directly either: Foundry refuses the update of the orc', async (role) => {
      await start(w);
      const before = snapshot(w);
      w.foundry.writes.clear();
      await expect(w.foundry.asUser(w.users[role], () => w.actors.orc1.update({ 'system.hp.value': 0 }))).rejects.toThrow();
      expect(snapshot(w)).toBe(before);
      expect(w.foundry.writes.count()).toBe(0);
    });

    it('owner: attacking with Orc 1 (not hers) is refused: "You do not control Orc 1."', async () => {
      await start(w);
      await expectRefused(w, w.users.owner, () => requestAttack(w.combat, { attackerId: w.ids.orc1, targetId: w.ids.brand }), 'You do not control Orc 1.');
    });
  });

  describe('the GM checks an attack request before rolling anything', () => {
    const cases: [string, (t: Table) => Record<string, unknown>, string][] = [
      ["a weapon she does not carry (Brand's sword)", (t) => ({ weaponId: t.sword.id }), 'DeclarationWeaponMissing'],
      ['an item that is not a weapon (her spell)', (t) => ({ weaponId: t.spell.id }), 'DeclarationWeaponMissing'],
      ['a target not in this combat', () => ({ targetId: 'nosuchcombatant0' }), 'UnknownCombatant'],
      ['a combat that does not exist', () => ({ combatId: 'nosuchcombat0000' }), 'UnknownCombat'],
      ['a routine she does not have', () => ({ weaponId: undefined, routine: 3 }), 'NoSuchAttack'],
      ['a negative routine', () => ({ weaponId: undefined, routine: -1 }), 'RequestFieldInvalid'],
      ['a fractional attack index', () => ({ weaponId: undefined, attack: 0.5 }), 'RequestFieldInvalid'],
      ['a "large" (the damage column is the target\'s size now)', () => ({ large: true }), 'RequestUnknownField'],
      ['a "userId" (the sender is the server\'s word)', (t) => ({ userId: t.users.gm.id }), 'RequestUnknownField'],
    ];
    it.each(cases)('%s: refused with its reason, no roll, nothing changes', async (_label, change, key) => {
      await start(w);
      w.foundry.dice.push(17, 3);
      const { combatId, ...request } = { combatId: w.combat.id, attackerId: w.ids.halvaine, targetId: w.ids.orc1, weaponId: w.dagger.id, ...change(w) } as any;
      const combat = { id: combatId } as any;
      const before = snapshot(w);
      const writes = w.foundry.writes.count();
      const answer: any = await w.foundry.asUser(w.users.owner, () => requestAttack(combat, request));
      expect(answer).toMatchObject({ ok: false, key });
      expect(g.game.i18n.has(`TENSEG.Error.${key}`)).toBe(true);
      expect(answer.message).not.toMatch(/TENSEG\.|undefined/);
      expect(snapshot(w)).toBe(before);
      expect(w.foundry.writes.count()).toBe(writes);
      expect(w.foundry.dice.remaining).toEqual([17, 3]);
    });
  });

  /* --------------------------------------------- undo an interruption */

  describe('undo an interruption', () => {
    it('gm: from the card, Sleep is back in memory and goes off in segment 6', async () => {
      await start(w);
      await declareAll(w);
      await rollInitiative(w);
      const casting = await interruptSleep(w);
      expect(await requestCombatAction(w.combat, 'undoInterruption', { castingId: casting })).toEqual({ ok: true });
      expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(0);
      await w.combat.nextTurn();
      const s = w.combat.flowState!;
      expect(currentEntries(s).find((o) => o.entry.combatant === w.ids.halvaine)?.outcome).toBe('goes-off');
      expect(w.foundry.errors).toEqual([]);
    });

    it('gm: the chat card button does the same', async () => {
      await start(w);
      await declareAll(w);
      await rollInitiative(w);
      const casting = await interruptSleep(w);
      await undoFromCard(w.combat.id as string, casting);
      expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(0);
      expect(w.foundry.errors).toEqual([]);
    });

    it.each(['owner', 'other', 'observer'] as const)('%s: refused from the card and by the GM; the spell stays lost', async (role) => {
      await start(w);
      await declareAll(w);
      await rollInitiative(w);
      const casting = await interruptSleep(w);
      const user = w.users[role];
      await expectRefused(w, user, () => undoFromCard(w.combat.id as string, casting), MSG.onlyGM);
      await expectRefused(w, user, () => requestCombatAction(w.combat, 'undoInterruption', { castingId: casting }), MSG.onlyGM);
      expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(1);
      expect(w.foundry.errors).toEqual([]);
    });
  });

  /* ------------------------------------------------------- who is asking */

  describe('who is asking', () => {
    /** What a user's client hears on the system socket: the messages and the id of the user the server names as their sender. */
    async function listen(user: any): Promise<{ data: any; sender: string }[]> {
      const heard: { data: any; sender: string }[] = [];
      await w.foundry.client(user).run(() => g.game.socket.on('system.ten-segments', (data: any, sender: string) => heard.push({ data, sender })));
      return heard;
    }

    it('the sender is whom the server names: a forged request naming the GM is refused, and the answer goes to its sender only', async () => {
      await start(w);
      const heard = await listen(w.users.owner);
      const before = snapshot(w);
      const writes = w.foundry.writes.count();
      const body = { combatId: w.combat.id, combatantId: w.ids.orc1, declaration: { action: 'flee' } };
      // A modified client of Halvaine's owner: a `userId` is no field of a request; without it, the sender is still the owner.
      w.foundry.raw(w.users.owner).emit('system.ten-segments', { k: 'req', id: 'abc', kind: 'declare', body: { ...body, userId: w.users.gm.id } });
      w.foundry.raw(w.users.owner).emit('system.ten-segments', { k: 'req', id: 'abd', kind: 'declare', body });
      await w.foundry.settle();
      const answers = heard.filter((h) => h.data.k === 'ans');
      expect(answers).toEqual([
        { sender: w.users.gm.id, data: { k: 'ans', to: w.users.owner.id, id: 'abc', answer: expect.objectContaining({ ok: false, key: 'RequestUnknownField' }) } },
        { sender: w.users.gm.id, data: { k: 'ans', to: w.users.owner.id, id: 'abd', answer: { ok: false, key: 'NotYourCombatant', message: 'You do not control Orc 1.' } } },
      ]);
      expect(snapshot(w)).toBe(before);
      expect(w.foundry.writes.count()).toBe(writes);
      expect(w.foundry.errors).toEqual([]);
    });

    it("a player's request for another player's combatant is refused; that player's own is accepted", async () => {
      await start(w);
      const request = { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 } as const;
      // Halvaine's owner tries Brand's declaration.
      await expectRefused(w, w.users.owner, () => requestDeclaration(w.combat, w.ids.brand, request), 'You do not control Brand.');
      // Brand's owner makes it.
      expect(await w.foundry.asUser(w.users.observer, () => requestDeclaration(w.combat, w.ids.brand, request))).toEqual({ ok: true });
      expect(w.combat.flowState!.declarations[w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc1 });
    });

    it('with no GM connected, a player is told so and nothing changes', async () => {
      await start(w);
      w.foundry.users.setActive(w.users.gm, false);
      await expectRefused(w, w.users.owner, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'flee' }), 'No GM is connected to accept your declaration.');
      await expectRefused(
        w,
        w.users.owner,
        () => requestAttack(w.combat, { attackerId: w.ids.halvaine, targetId: w.ids.orc1, weaponId: w.dagger.id }),
        'No GM is connected to carry out your request.',
      );
    });

    it("a request that fails on the GM's client comes back as a reason, not an exception", async () => {
      await start(w);
      // The GM's client fails while carrying it out.
      (w.combat as any).recordDeclaration = async () => {
        throw new Error('the GM reloaded');
      };
      await expectRefused(w, w.users.owner, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'flee' }), "The GM's client did not answer your request (Error).");
    });

    it('a request the GM handles on their own client is never refused as unverified', async () => {
      await start(w);
      expect(await requestDeclaration(w.combat, w.ids.orc1, { action: 'flee' })).toEqual({ ok: true });
      // Recorded (held on the GM's client until initiative: the orc is the GM's).
      expect(w.combat.gmDeclarations[w.ids.orc1]).toMatchObject({ action: 'flee' });
    });
  });
});

describe.each([13, 14] as const)('core round and turn, generation %i', (generation) => {
  // Foundry's server runs core's rule (any player may write round and turn); the
  // system's _canChangeTurn runs on honest clients only. Whatever a player's
  // client writes, the active GM puts round and turn back where the flow says,
  // and says so.
  it.each(['honest', 'modified'] as const)("a player's %s client cannot move the combat's round and turn past the GM: it is put back, with a notice", async (how) => {
    const w = await table(generation);
    await start(w);
    await declareAll(w);
    await rollInitiative(w);
    const before = snapshot(w);
    const owner = w.users.owner;
    if (how === 'honest') await w.foundry.asUser(owner, () => w.combat.update({ round: 5, turn: 1 } as never)).catch(() => undefined);
    else await w.foundry.raw(owner).modify('update', 'Combat', [{ _id: w.combat.id, round: 5, turn: 1 }]);
    await w.foundry.settle();
    expect(snapshot(w)).toBe(before);
    expect(segment(w)).toBe(4);
    expect(w.foundry.notifications.at(-1)).toEqual({ type: 'error', message: 'Player 1 changed the round or turn outside the procedure; it was put back.' });
    // Every client sees the combat where the flow is.
    for (const client of w.foundry.clients()) {
      const copy = client.game.combats.get(w.combat.id);
      expect([copy.round, copy.turn]).toEqual([w.combat.round, w.combat.turn]);
    }
    expect(w.foundry.errors).toEqual([]);
  });

  // Issue 25: the server writes the turn a Combatant create, update or delete carries as `combatTurn` (core sends it
  // with many of its own combatant writes), and clients take it without an updateCombat hook. The active GM puts it
  // back after any combatant write too, whoever made it; a player is named to the GM, a GM is not.
  it.each(['update', 'create', 'delete'] as const)("a player's combatant %s carrying combatTurn: the server moves the turn, the active GM puts it back, with a notice", async (action) => {
    const w = await table(generation);
    await start(w);
    await declareAll(w);
    await rollInitiative(w);
    const owner = w.users.owner;
    const turn = w.combat.turn;
    const forged = turn === 0 ? 2 : 0;
    const raw = w.foundry.raw(owner);
    if (action === 'update') await raw.modify('update', 'Combatant', [{ _id: w.ids.halvaine, flags: { x: { y: 1 } } }], { combatTurn: forged }, w.combat.uuid);
    if (action === 'create') {
      // Her second character (a combatant of Halvaine again would be removed as her duplicate).
      const [corwin] = await g.Actor.create([{ name: 'Corwin', type: 'character', ownership: { [owner.id]: g.CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER } }]);
      await raw.modify('create', 'Combatant', [{ actorId: corwin.id, name: 'Corwin' }], { combatTurn: forged }, w.combat.uuid);
    }
    if (action === 'delete') {
      // A combatant of her own to delete (a GM adds her second character, Corwin), then her delete carrying the turn.
      const [corwin] = await g.Actor.create([{ name: 'Corwin', type: 'character', ownership: { [owner.id]: g.CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER } }]);
      const [extra] = (await w.combat.createEmbeddedDocuments('Combatant', [{ actorId: corwin.id, name: 'Corwin' }] as never)) as any[];
      await w.foundry.settle();
      await raw.modify('delete', 'Combatant', [(extra as any).id], { combatTurn: forged }, w.combat.uuid);
    }
    await w.foundry.settle();
    expect(w.combat.turn).toBe(w.combat.turnDataFor(w.combat.flowState!).turn);
    expect(w.foundry.server.source(w.combat.uuid as string).turn).toBe(w.combat.turn);
    for (const client of w.foundry.clients()) expect(client.game.combats.get(w.combat.id).turn, client.user.name).toBe(w.combat.turn);
    expect(w.foundry.notifications.at(-1)).toEqual({ type: 'error', message: 'Player 1 changed the round or turn outside the procedure; it was put back.' });
    expect(w.foundry.errors).toEqual([]);
  });

  it('a second GM moving the turn (a Combat update or a combatant write with combatTurn) is put back too, without a notice', async () => {
    const w = await table(generation);
    await start(w);
    await declareAll(w);
    await rollInitiative(w);
    const assistant = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    const turn = w.combat.turn;
    const shown = w.foundry.notifications.length;
    await w.foundry.raw(assistant).modify('update', 'Combat', [{ _id: w.combat.id, turn: turn === 0 ? 1 : 0 }]);
    await w.foundry.settle();
    expect(w.combat.turn).toBe(turn);
    await w.foundry.raw(assistant).modify('update', 'Combatant', [{ _id: w.ids.orc1, flags: { x: { y: 2 } } }], { combatTurn: turn === 0 ? 1 : 0 }, w.combat.uuid);
    await w.foundry.settle();
    expect(w.combat.turn).toBe(turn);
    expect(w.foundry.server.source(w.combat.uuid as string).turn).toBe(turn);
    expect(w.foundry.notifications.length).toBe(shown);
  });

  it("a group's initiative (a GM's, through core's UI or a macro) never reorders the flow's schedule or the turn", async () => {
    const w = await table(generation);
    await start(w);
    await declareAll(w);
    await rollInitiative(w);
    const before = { schedule: JSON.stringify(w.combat.flowState!.schedule), turns: w.combat.turns.map((c: any) => c.id), turn: w.combat.turn };
    const orcs = w.combat.combatants.get(w.ids.orc1)!._source.group;
    await w.combat.groups.get(orcs as string)!.update({ initiative: 99 });
    await w.foundry.settle();
    // Core's rule: the group's initiative is each member's.
    expect(w.combat.combatants.get(w.ids.orc1)!.initiative).toBe(99);
    expect(JSON.stringify(w.combat.flowState!.schedule)).toBe(before.schedule);
    expect(w.combat.turns.map((c: any) => c.id)).toEqual(before.turns);
    expect(w.combat.turn).toBe(before.turn);
    expect(w.foundry.errors).toEqual([]);
  });
});
