/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Combatants in the tracker but not in the fight. Only the active GM's client
 * brings a new combatant into the flow, so one a player adds while no GM is
 * connected waits; it joins when a GM becomes the active GM (at ready, or
 * taking over from one who left), as the procedure rules at that point: a
 * late joiner of the round being played. One whose joining Previous took back
 * joins again at the start of a round. Under v14 `Combatant#roundJoined` says
 * in which round it came: one that came in a round later than the combat is
 * in now waits for that round; v13 does not know, so it joins at once.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { g, makeWorld, type World } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { readySystem } from '../../src/system';
import { SCHEMA_VERSION } from '../../src/documents/schema-version';
import type { TenSegmentsCombat } from '../../src/documents/combat';

/** Wait for every client's queues and what the writes set off. */
async function settled(w: World): Promise<void> {
  await w.foundry.settle();
  for (const c of w.foundry.clients()) await c.run(() => whenIdle());
  await w.foundry.settle();
}

const inFlow = (combat: TenSegmentsCombat, id: string) => !!combat.flowState?.encounter.combatants.some((c) => c.id === id);

describe.each([13, 14] as const)('combatants no GM brought in, generation %i', (generation) => {
  let w: World;
  /** Corwin, player 1's second character, with a token on the map (friendly) but not in the combat. */
  let corwin: { actor: any; token: any };

  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
    // At ready the system does what src/index.ts has it do; this world is already at the current data version.
    w.foundry.everyClient(() => void g.Hooks.once('ready', () => readySystem()));
    await g.game.settings.set('ten-segments', 'schemaVersion', SCHEMA_VERSION);
    const { OWNER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    const [actor] = await g.Actor.create([
      { name: 'Corwin', type: 'character', ownership: { [w.foundry.users.player.id]: OWNER }, system: { hp: { value: 9, max: 9 }, ac: 6, attack: { mode: 'aac0', aac0: '19' } } },
    ]);
    const [token] = await w.scene.createEmbeddedDocuments('Token', [{ name: 'Corwin', actorId: actor.id, actorLink: true, x: 200, y: 0, disposition: 1 }]);
    corwin = { actor, token };
    w.foundry.dice.push(4, 5); // surprise: nobody
    await w.combat.startCombat();
    await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    w.foundry.dice.push(6, 1); // the party acts in segment 1
    await w.combat.rollInitiative();
    await settled(w);
    expect(w.combat.flowState).toMatchObject({ stage: 'resolve', round: 1 });
  });

  /** Player 1 adds Corwin's token to the combat, from their own client. */
  const addCorwin = () =>
    w.foundry.asUser(w.foundry.users.player, async () => {
      const [c] = await g.game.combats.get(w.combat.id).createEmbeddedDocuments('Combatant', [{ tokenId: corwin.token.id, sceneId: w.scene.id, actorId: corwin.actor.id }]);
      return c.id as string;
    });

  it('one a player adds while no GM is connected joins when the GM comes back: a late joiner of this round, on its side, and the GM is told', async () => {
    const { gm, player } = w.foundry.users;
    w.foundry.disconnect(gm);
    const id = await addCorwin();
    await settled(w);
    const seen = () => w.foundry.client(player).game.combats.get(w.combat.id) as TenSegmentsCombat;
    expect(seen().combatants.has(id)).toBe(true);
    expect(inFlow(seen(), id)).toBe(false); // nobody could bring it in
    if (generation >= 14) expect((seen().combatants.get(id) as any).roundJoined).toBe(1);
    else expect((seen().combatants.get(id) as any).roundJoined).toBeUndefined();

    w.foundry.connect(gm);
    await settled(w);
    const combat = w.foundry.client(gm).game.combats.get(w.combat.id) as TenSegmentsCombat;
    const state = combat.flowState!;
    expect(inFlow(combat, id)).toBe(true);
    expect(state).toMatchObject({ stage: 'resolve', round: 1 });
    expect(state.joins).toEqual([{ combatant: id, step: state.step }]); // a late joiner of this round
    const friendly = (combat.combatants.get(w.ids.halvaine) as any)._source.group;
    expect((combat.combatants.get(id) as any)._source.group).toBe(friendly);
    expect(state.encounter.combatants.find((c) => c.id === id)?.side).toBe(friendly);
    expect(w.foundry.client(gm).notifications).toContainEqual({
      type: 'info',
      message: 'Corwin was in the combat tracker but not in the fight: it joins now, in round 1.',
    });
    // What the player's client shows is the same.
    expect(inFlow(seen(), id)).toBe(true);
    expect(w.foundry.errors).toEqual([]);
  });

  it('one that left and is added again while no GM is connected takes up its old place when the GM comes back, not a new late joiner', async () => {
    const { gm, player2: p2 } = w.foundry.users;
    const brand = w.combat.combatants.get(w.ids.brand) as any;
    const source = { tokenId: brand.tokenId, sceneId: brand.sceneId, actorId: brand.actorId };
    await w.foundry.asUser(p2, () => g.game.combats.get(w.combat.id).combatants.get(w.ids.brand).delete());
    await settled(w);
    expect(inFlow(w.combat, w.ids.brand)).toBe(false); // it left (the GM was there)
    w.foundry.disconnect(gm);
    const [back] = await w.foundry.asUser(p2, () => g.game.combats.get(w.combat.id).createEmbeddedDocuments('Combatant', [source]));
    await settled(w);
    w.foundry.connect(gm);
    await settled(w);
    const state = (w.foundry.client(gm).game.combats.get(w.combat.id) as TenSegmentsCombat).flowState!;
    expect(state.encounter.combatants.some((c) => c.id === back.id)).toBe(true);
    expect(state.takenOver?.[w.ids.brand]).toBe(back.id);
    expect(state.joins).toEqual([]); // no late joiner: Brand again
    expect(w.foundry.errors).toEqual([]);
  });

  it('taking over: a combatant the leaving GM never brought in joins when the next GM becomes the active GM', async () => {
    const { gm, player } = w.foundry.users;
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await settled(w);
    // The active GM's client never hears of the new combatant (its copy of the message is lost).
    w.foundry.network.hold();
    let id: string | null = null;
    const adding = addCorwin().then((x) => (id = x));
    for (let i = 0; i < 500 && id === null; i++) {
      w.foundry.network.drop((m: any) => m.to === gm.id);
      if (w.foundry.network.pending.length > 0) await w.foundry.network.deliver(1);
      else await new Promise((r) => setImmediate(r));
    }
    await adding;
    w.foundry.network.release();
    await settled(w);
    const seen = () => w.foundry.client(gm2).game.combats.get(w.combat.id) as TenSegmentsCombat;
    expect(seen().combatants.has(id!)).toBe(true);
    expect(inFlow(seen(), id!)).toBe(false); // the assistant is not the active GM: it leaves it to the GM
    w.foundry.disconnect(gm);
    await settled(w);
    expect(inFlow(seen(), id!)).toBe(true);
    expect(seen().flowState!.joins.map((j) => j.combatant)).toEqual([id]);
    expect(w.foundry.client(gm2).notifications.map((n: any) => n.message)).toContain('Corwin was in the combat tracker but not in the fight: it joins now, in round 1.');
    // The player's screen agrees.
    expect(inFlow(w.foundry.client(player).game.combats.get(w.combat.id), id!)).toBe(true);
    expect(w.foundry.errors).toEqual([]);
  });

  it('one whose joining Previous took back: v14 waits for the round it came in (roundJoined), v13 joins when a GM next takes over; both are in by then', async () => {
    const { gm } = w.foundry.users;
    const { combat } = w;
    await combat.nextRound(); // round 2's declarations
    w.foundry.dice.push(6, 1);
    await combat.rollInitiative();
    await settled(w);
    expect(combat.flowState).toMatchObject({ stage: 'resolve', round: 2 });
    const id = await addCorwin(); // the active GM brings it in at once: a late joiner of round 2
    await settled(w);
    expect(inFlow(combat, id)).toBe(true);
    expect(combat.flowState!.joins.map((j) => j.combatant)).toEqual([id]);
    if (generation >= 14) expect((combat.combatants.get(id) as any).roundJoined).toBe(2);

    // Previous round twice: back to round 1's declarations, the joining undone with it.
    await combat.previousRound();
    await combat.previousRound();
    await settled(w);
    expect(combat.flowState).toMatchObject({ stage: 'declare', round: 1 });
    expect(inFlow(combat, id)).toBe(false);
    expect(combat.combatants.has(id)).toBe(true);

    // The GM reloads (a GM becomes the active GM).
    w.foundry.reload(gm);
    await settled(w);
    const again = w.foundry.client(gm).game.combats.get(combat.id) as TenSegmentsCombat;
    expect(again.flowState).toMatchObject({ stage: 'declare', round: 1 });
    // v14 knows it came in round 2: not in round 1. v13 cannot tell: it joins now, planned with the others.
    expect(inFlow(again, id)).toBe(generation === 13);

    // Round 2 begins: under v14 it joins now, with round 2's declarations (planned, no late joiner).
    await again.nextRound();
    await settled(w);
    expect(again.flowState).toMatchObject({ stage: 'declare', round: 2 });
    expect(inFlow(again, id)).toBe(true);
    expect(again.flowState!.joins).toEqual([]);
    const joinsNow = w.foundry.client(gm).notifications.filter((n: any) => n.message.startsWith('Corwin was in the combat tracker'));
    expect(joinsNow.map((n: any) => n.message)).toEqual([`Corwin was in the combat tracker but not in the fight: it joins now, in round ${generation >= 14 ? 2 : 1}.`]);
    expect(w.foundry.errors).toEqual([]);
  });

  it('one whose joining Previous took back joins again when the next round begins, without a change of GM', async () => {
    const { combat } = w;
    const id = await addCorwin(); // a late joiner of round 1
    await settled(w);
    expect(inFlow(combat, id)).toBe(true);
    await combat.previousTurn(); // takes back its joining
    await settled(w);
    expect(inFlow(combat, id)).toBe(false);
    await combat.previousTurn(); // still back: Previous is not undone by a joining
    await settled(w);
    expect(inFlow(combat, id)).toBe(false);
    await combat.nextRound(); // round 2's declarations
    await settled(w);
    expect(combat.flowState).toMatchObject({ stage: 'declare', round: 2 });
    expect(inFlow(combat, id)).toBe(true);
    expect(w.foundry.errors).toEqual([]);
  });
});
