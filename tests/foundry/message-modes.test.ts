/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Chat cards in message modes (v13 `core.rollMode` and roll modes, v14
 * `core.messageMode` and message modes). A card of a player's request (an
 * attack, and the interruption it causes) is shown in the mode that player
 * chose in their chat log: gm and blind whispered to the GMs (blind: the
 * player does not see it), self whispered to that player. The cards of the
 * GM's own controls (end of round, an interruption from a sheet) follow the
 * active GM's own mode. A request carrying a mode of another generation, or
 * none that exists, is refused in words and nothing is written.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { CHANNEL } from '../../src/documents/requests';
import type { TenSegmentsCombat } from '../../src/documents/combat';

type ModeName = 'public' | 'gm' | 'blind' | 'self';

/** Each generation's names for the four modes. */
const MODES: Record<13 | 14, Record<ModeName, string>> = {
  13: { public: 'publicroll', gm: 'gmroll', blind: 'blindroll', self: 'selfroll' },
  14: { public: 'public', gm: 'gm', blind: 'blind', self: 'self' },
};

function cards(kind: string): any[] {
  return g.game.messages.contents.filter((m: any) => m.flags?.['ten-segments']?.kind === kind);
}

/** Who a card is whispered to, and whether blind. */
const shownAs = (m: any) => ({ whisper: [...m.whisper].sort(), blind: !!m.blind });

/** Wait for the GM's queues, then for what the writes set off. */
async function inAllClients(w: World): Promise<void> {
  await w.foundry.client(w.foundry.users.gm).run(() => whenIdle());
  await w.foundry.settle();
}

async function nextUntil(combat: TenSegmentsCombat, done: () => boolean, max = 40): Promise<void> {
  for (let i = 0; i < max && !done(); i++) await combat.nextTurn();
  expect(done()).toBe(true);
}

describe.each([13, 14] as const)('chat cards in message modes, generation %i', (generation) => {
  let w: World;
  let combat: TenSegmentsCombat;
  const modes = MODES[generation];
  const setting = generation === 14 ? 'messageMode' : 'rollMode';

  /** A user picks a mode in their chat log (a client setting of their own). */
  const choose = (user: any, mode: ModeName) => w.foundry.client(user).run(() => g.game.settings.set('core', setting, modes[mode]));

  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6', { deathRule: 'minus-ten', bleedPerRound: 1 });
    combat = w.combat;
    w.foundry.dice.push(4, 5); // surprise: nobody
    await combat.startCombat();
    await inAllClients(w);
  });

  /** Brand (player 2) declares a sword blow on Orc 1 and the party acts first. */
  async function brandReady(): Promise<void> {
    const p2 = w.foundry.users.player2;
    await w.foundry.asUser(p2, () => requestDeclaration(combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    w.foundry.dice.push(6, 1); // the party acts in segment 1
    await combat.rollInitiative();
    await inAllClients(w);
    expect(combat.currentActorIds()).toContain(w.ids.brand);
  }

  const gmIds = () => g.game.users.filter((u: any) => u.isGM).map((u: any) => u.id).sort();

  it.each([
    ['gm', 'whispered to the GMs', () => ({ whisper: gmIds(), blind: false })],
    ['blind', 'whispered to the GMs, blind to the player', () => ({ whisper: gmIds(), blind: true })],
    ['self', 'whispered to that player alone', () => ({ whisper: [w.foundry.users.player2.id], blind: false })],
    ['public', 'shown to everyone', () => ({ whisper: [], blind: false })],
  ] as const)('a player attacking in their %s mode: the card is %s, whatever the GM\'s own mode', async (mode, _what, expected) => {
    const { gm, player2: p2 } = w.foundry.users;
    await choose(gm, mode === 'public' ? 'gm' : 'public');
    await choose(p2, mode);
    await brandReady();
    w.foundry.dice.push(20, 5);
    const a = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
    expect(a).toMatchObject({ ok: true, hit: true, damage: 5 });
    await inAllClients(w);
    const [card] = cards('attack');
    expect(shownAs(card)).toEqual(expected());
    expect(card.author?.id ?? card.author).toBe(gm.id); // written by the active GM's client
    expect(w.foundry.errors).toEqual([]);
    expect(w.foundry.deprecations).toEqual([]);
  });

  it('an attack request without a mode (a macro, an older client) gets a public card, not the GM\'s mode', async () => {
    const { gm, player2: p2 } = w.foundry.users;
    await choose(gm, 'blind');
    await brandReady();
    w.foundry.dice.push(20, 5);
    w.foundry.raw(p2).emit(CHANNEL, { k: 'req', id: 'nomode1', kind: 'attack', body: { combatId: combat.id, attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id } });
    await inAllClients(w);
    const [card] = cards('attack');
    expect(shownAs(card)).toEqual({ whisper: [], blind: false });
    expect(w.actors.orc1.system.hp.value).toBe(1);
  });

  it('a forged mode (another generation\'s name, or none at all) is refused in words; no blow, no card, nothing written', async () => {
    const p2 = w.foundry.users.player2;
    await brandReady();
    const heard: any[] = [];
    w.foundry.client(p2).run(() => g.game.socket.on(CHANNEL, (data: any) => heard.push(data)));
    const other = generation === 14 ? 'gmroll' : 'gm';
    w.foundry.writes.clear();
    const messages = g.game.messages.size;
    for (const [id, mode] of [['forged1', other], ['forged2', 'everyone-but-the-gm'], ['forged3', 7]] as const) {
      w.foundry.raw(p2).emit(CHANNEL, { k: 'req', id, kind: 'attack', body: { combatId: combat.id, attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id, mode } });
    }
    await inAllClients(w);
    const list = Object.values(modes).join(', ');
    const answers = heard.filter((d) => d.k === 'ans').map((d) => d.answer);
    expect(answers).toHaveLength(3);
    for (const answer of answers) {
      expect(answer).toEqual({
        ok: false,
        key: 'RequestModeInvalid',
        message: `The request's field mode is not a chat message mode of this Foundry version (${list}) and was refused.`,
      });
    }
    expect(w.foundry.writes.count()).toBe(0);
    expect(g.game.messages.size).toBe(messages);
    expect(w.actors.orc1.system.hp.value).toBe(6);
    // The player's own client sends the mode they chose, which is one of this generation's.
    await choose(p2, 'gm');
    w.foundry.dice.push(20, 5);
    const a = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
    expect(a).toMatchObject({ ok: true });
  });

  it('the GM\'s own controls follow the active GM\'s mode: a sheet\'s interruption and the end of round in gm mode are whispered to the GMs', async () => {
    const { gm, player, player2 } = w.foundry.users;
    await choose(gm, 'gm');
    await choose(player, 'public');
    await choose(player2, 'blind'); // a player's mode does not touch the GM's cards
    await w.foundry.asUser(player, () => requestDeclaration(combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await requestDeclaration(combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(5, 4); // the party acts in segment 4, the orcs in 5
    await combat.rollInitiative();
    await nextUntil(combat, () => combat.currentActorIds().includes(w.ids.orc1));
    // The GM takes 2 hp from Halvaine on her sheet while she casts: the spell is lost.
    await w.actors.halvaine.update({ 'system.hp.value': 10 });
    await inAllClients(w);
    const [interrupted] = cards('interruption');
    expect(interrupted).toBeTruthy();
    // Halvaine's player is told her spell is lost too (issue 29), whatever the GM's mode: the card has no dice.
    expect(shownAs(interrupted)).toEqual({ whisper: [...gmIds(), player.id].sort(), blind: false });
    // An orc down at -2 bleeds at the end of the round.
    await w.actors.orc2.update({ 'system.hp.value': -2 });
    await inAllClients(w);
    await nextUntil(combat, () => combat.flowState!.stage === 'end-of-round');
    await inAllClients(w);
    const [end] = cards('end-of-round');
    expect(end).toBeTruthy();
    expect(shownAs(end)).toEqual({ whisper: gmIds(), blind: false });
    // Back to public: the next round's card is for everyone.
    await choose(gm, 'public');
    await nextUntil(combat, () => combat.flowState!.stage === 'declare');
    w.foundry.dice.push(5, 4);
    await combat.rollInitiative();
    await nextUntil(combat, () => combat.flowState!.stage === 'end-of-round');
    await inAllClients(w);
    expect(cards('end-of-round').map(shownAs)).toEqual([
      { whisper: gmIds(), blind: false },
      { whisper: [], blind: false },
    ]);
    expect(w.foundry.errors).toEqual([]);
  });

  it.runIf(generation === 14)('v14 (no ChatMessage.applyMode): a handler a package set in CONFIG.ChatMessage.modes shows the card', async () => {
    const { gm, player2: p2 } = w.foundry.users;
    await choose(p2, 'gm');
    await brandReady();
    const handled: string[] = [];
    w.foundry.client(gm).run(() => {
      for (const [name, mode] of Object.entries(g.CONFIG.ChatMessage.modes) as [string, any][]) {
        mode.handler = (data: any) => {
          handled.push(name);
          data.whisper = name === 'public' ? [] : [gm.id];
          data.blind = name === 'blind';
        };
      }
    });
    w.foundry.dice.push(20, 5);
    const a = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
    expect(a).toMatchObject({ ok: true });
    await inAllClients(w);
    expect(handled).toEqual(['gm']);
    expect(shownAs(cards('attack')[0])).toEqual({ whisper: [gm.id], blind: false });
  });

  it('a casting a player\'s blind attack interrupts: the attack card blind, the interruption whispered to the GMs and the caster\'s player (issue 29)', async () => {
    const { gm, player, player2: p2 } = w.foundry.users;
    const { OWNER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    await w.actors.orc1.update({ [`ownership.${p2.id}`]: OWNER }); // player 2 plays Orc 1 (charmed)
    await choose(gm, 'public');
    await choose(p2, 'blind');
    await w.foundry.asUser(player, () => requestDeclaration(combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await w.foundry.asUser(p2, () => requestDeclaration(combat, w.ids.orc1, { action: 'melee', target: w.ids.halvaine }));
    w.foundry.dice.push(5, 4); // the party acts in segment 4, the orcs in 5
    await combat.rollInitiative();
    await nextUntil(combat, () => combat.currentActorIds().includes(w.ids.orc1));
    w.foundry.dice.push(17, 3);
    const a = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: w.ids.orc1, targetId: w.ids.halvaine }));
    expect(a).toMatchObject({ ok: true, hit: true, damage: 3 });
    await inAllClients(w);
    expect(combat.flowState!.interruptions).toEqual([expect.objectContaining({ caster: w.ids.halvaine, outcome: 'interrupted' })]);
    const blind = { whisper: gmIds(), blind: true };
    expect(shownAs(cards('attack')[0])).toEqual(blind);
    // The caster's owner (player 1) is told her spell is lost; the blind roller (player 2) still sees neither card.
    expect(shownAs(cards('interruption')[0])).toEqual({ whisper: [...gmIds(), player.id].sort(), blind: false });
    expect(w.foundry.errors).toEqual([]);
  });
});
