/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 27, Why 6: one answer per request. A player's request to a busy GM
 * was refused as "timed out" and carried out afterwards. Now a slow request
 * is never given up on: the player is told once that it is still waiting, it
 * is sent again with its id (the GM, still working on it, does not start it
 * twice), and the player gets the GM's real answer; if the GM drops before
 * answering, the next GM answers; with no GM left, it waits for one.
 * segment-d6 (seed 001): Brand's natural 20 hits Orc 1 (6 hp) for the
 * sword's 5. Time is vitest's fake clock only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { brandVersusOrcs, g, makeWorld, type World } from './world';
import { requestAttack } from '../../src/documents/attack';
import { HANDLERS } from '../../src/documents/handlers';

const STILL_WAITING = "The GM's client has not answered your request yet. It is still waiting, not lost: you will see the GM's answer when it comes, with no need to ask again.";
const WAITING_FOR_GM = 'No GM is connected any more. Your request waits and goes to the next GM who connects; you will see the answer then.';
const SECOND = 1000;

const attackCards = (game: any) => game.messages.contents.filter((m: any) => m.flags['ten-segments']?.kind === 'attack');

describe.each([13, 14] as const)('one answer per request, generation %i', (generation) => {
  let w: World;
  const realAttack = HANDLERS.attack;

  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
    // Nobody surprised; Brand's sword at Orc 1, Orc 1 at Brand; the party in segment 1.
    await brandVersusOrcs(w, [4, 5], { orcs: [w.ids.orc1], initiative: [6, 1] });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });

  afterEach(() => {
    HANDLERS.attack = realAttack;
    vi.useRealTimers();
  });

  /** With the network held: deliver what waits and let it run, until nothing moves. */
  async function pump(): Promise<void> {
    for (let quiet = 0; quiet < 3; ) {
      if (w.foundry.network.pending.length > 0) {
        quiet = 0;
        await w.foundry.network.deliver();
      } else {
        quiet++;
      }
      await w.foundry.settle();
    }
  }

  /** Fake time passes, `seconds` in steps of 5 s, the network pumped after each. */
  async function wait(seconds: number): Promise<void> {
    for (let s = 0; s < seconds; s += 5) {
      await vi.advanceTimersByTimeAsync(5 * SECOND);
      await pump();
    }
  }

  /** Player 2's attack with Brand's sword on Orc 1; `answer` is set when it resolves. */
  function attack(): { asked: Promise<unknown>; answer: () => any } {
    let answer: any;
    w.foundry.dice.push(20, 5);
    const asked = w.foundry.asUser(w.foundry.users.player2, () => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id })).then((a) => (answer = a));
    return { asked, answer: () => answer };
  }

  /** The attack handler of the GM clients `slow` names waits until `go` is called; each run counted by user name. */
  function busy(slow: (userId: string) => boolean): { runs: Record<string, number>; go: () => void } {
    const runs: Record<string, number> = {};
    let go!: () => void;
    const gate = new Promise<void>((r) => (go = r));
    HANDLERS.attack = async (body, sender, q) => {
      const user = g.game.user;
      runs[user.name] = (runs[user.name] ?? 0) + 1;
      if (slow(user.id)) await gate;
      return realAttack(body, sender, q);
    };
    return { runs, go };
  }

  const told = (user: any, message: string) => w.foundry.client(user).notifications.filter((n: any) => n.message === message);

  it('a busy GM: the player is told once it is still waiting, then gets the hit; never a timeout, the blow struck once', async () => {
    const { player2: p2, gm } = w.foundry.users;
    const { runs, go } = busy(() => true);
    w.foundry.network.hold();
    const { asked, answer } = attack();
    await pump();
    expect(runs).toEqual({ [gm.name]: 1 });
    // The GM works on it for two minutes; the player's client sends it again meanwhile, and the GM does not start it again.
    await wait(120);
    expect(answer()).toBeUndefined();
    expect(told(p2, STILL_WAITING)).toEqual([{ type: 'info', message: STILL_WAITING }]);
    const sent = w.foundry.network.log.filter((m: any) => m.from === p2.id && m.type === 'socket' && (typeof m.data === 'string' ? JSON.parse(m.data) : m.data)?.k === 'req');
    expect(sent.length).toBeGreaterThan(1);
    expect(runs).toEqual({ [gm.name]: 1 });
    go();
    await pump();
    w.foundry.network.release();
    await w.foundry.settle();
    await asked;
    expect(answer()).toMatchObject({ ok: true, hit: true, natural: 20, damage: 5 });
    expect(w.actors.orc1.system.hp.value).toBe(1);
    expect(attackCards(g.game)).toHaveLength(1);
    expect(w.combat.entries.filter(([, e]: any) => e.t === 'attack' && e.c === w.ids.brand)).toHaveLength(1);
    expect(runs).toEqual({ [gm.name]: 1 });
    expect(w.foundry.client(p2).notifications.filter((n: any) => n.type !== 'info')).toEqual([]);
    expect(w.foundry.errors).toEqual([]);
  });

  it('the GM drops before answering: the request goes to the next GM, whose answer the player gets', async () => {
    const { player2: p2, gm } = w.foundry.users;
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await w.foundry.settle();
    const { runs } = busy((id) => id === gm.id);
    w.foundry.network.hold();
    const { asked, answer } = attack();
    await pump();
    expect(runs).toEqual({ [gm.name]: 1 });
    await wait(60);
    expect(answer()).toBeUndefined();
    expect(told(p2, STILL_WAITING)).toHaveLength(1);
    // The GM goes, its work unfinished: the assistant becomes the active GM and gets the request.
    w.foundry.disconnect(gm);
    await pump();
    await asked;
    expect(answer()).toMatchObject({ ok: true, hit: true, natural: 20, damage: 5 });
    expect(runs).toEqual({ [gm.name]: 1, Assistant: 1 });
    const game2 = w.foundry.client(gm2).game;
    expect(game2.actors.get(w.actors.orc1.id).system.hp.value).toBe(1);
    expect(attackCards(game2)).toHaveLength(1);
    expect(w.foundry.client(p2).notifications.filter((n: any) => n.type !== 'info')).toEqual([]);
    expect(told(p2, WAITING_FOR_GM)).toEqual([]);
  });

  it('no GM left: the request waits (the player told once) and is answered when a GM connects', async () => {
    const { player2: p2, gm } = w.foundry.users;
    w.foundry.network.hold();
    const { asked, answer } = attack();
    for (let i = 0; i < 100 && !w.foundry.network.pending.some((m: any) => m.type === 'socket'); i++) await new Promise((r) => setImmediate(r));
    // The request does not reach the GM, who goes.
    w.foundry.network.drop((m: any) => m.type === 'socket');
    w.foundry.network.release();
    w.foundry.disconnect(gm);
    await w.foundry.settle();
    await vi.advanceTimersByTimeAsync(10 * 60 * SECOND);
    await w.foundry.settle();
    expect(answer()).toBeUndefined();
    expect(told(p2, WAITING_FOR_GM)).toEqual([{ type: 'info', message: WAITING_FOR_GM }]);
    expect(w.foundry.server.source(w.actors.orc1.uuid).system.hp.value).toBe(6);
    // The GM comes back: the request goes to them and is carried out.
    w.foundry.connect(gm);
    await w.foundry.settle();
    await asked;
    expect(answer()).toMatchObject({ ok: true, hit: true, natural: 20, damage: 5 });
    const gameGM = w.foundry.client(gm).game;
    expect(gameGM.actors.get(w.actors.orc1.id).system.hp.value).toBe(1);
    expect(attackCards(gameGM)).toHaveLength(1);
    expect(told(p2, WAITING_FOR_GM)).toHaveLength(1);
    expect(w.foundry.client(p2).notifications.filter((n: any) => n.type !== 'info')).toEqual([]);
  });
});
