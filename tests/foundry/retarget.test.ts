/**
 * Issue 28 through the documents: an attacker whose target fell waits for its
 * owner's choice (src/rules/flow/retarget.ts, rules revision 5) — the
 * `retarget` mid-round request, asked of the active GM: the owner may choose,
 * another player may not, a fallen target is refused in words, and once chosen
 * the attack goes on at the new target.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, type World } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { requestMidRound } from '../../src/documents/midround';
import type { TenSegmentsCombat } from '../../src/documents/combat';
import { g } from './world';
import { forms } from '../../src/apps/tracker/gm-prompts';
import { rowControls, TRACKER_ACTIONS, type ControlsInput } from '../../src/apps/tracker/controls';
import { GM_VIEW, timeline } from '../../src/rules/timeline';
import type { FlowState } from '../../src/rules/flow';

/** The actions on a row of `user`'s tracker. */
async function rowActions(w: World, user: any, id: string): Promise<string[]> {
  return w.foundry.client(user).run(() => {
    const combat = g.game.combats.get(w.combat.id);
    const state = combat.flowState as FlowState;
    const gm = !!g.game.user.isGM;
    const mine = combat.combatants.filter((c: any) => c.isOwner);
    const sides = [...new Set<string>(mine.map((c: any) => c._source.group))];
    const view = timeline(state, gm ? GM_VIEW : { gm: false, sides, hidden: [] });
    const input: ControlsInput = { view, state, gm, owned: new Set<string>(mine.map((c: any) => c.id)), started: true };
    return rowControls(input, id).map((c) => c.action);
  });
}

async function inAllClients(w: World): Promise<void> {
  await w.foundry.client(w.foundry.users.gm).run(() => whenIdle());
  await w.foundry.settle();
}

describe.each([13, 14] as const)('a fallen target replaced through the documents, generation %i', (generation) => {
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

  it('Orc 1 falls before Brand\'s blow: his attack waits; his player turns him to Orc 2 (another player cannot), then he strikes', async () => {
    const p1 = w.foundry.users.player;
    const p2 = w.foundry.users.player2;
    await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    w.foundry.dice.push(6, 1); // initiative: the party acts in segment 1
    await combat.rollInitiative();
    await inAllClients(w);
    expect(combat.currentActorIds()).toContain(ids.brand);
    // Orc 1 is felled (the GM's damage) before Brand strikes.
    await w.actors.orc1.update({ 'system.hp.value': -20 });
    await inAllClients(w);
    expect(combat.flowState!.states[ids.orc1].condition).toBe('dead');
    const dead = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc1, weaponId: w.sword.id }));
    expect(dead).toMatchObject({ ok: false, key: 'AttackTargetFallenDead' });
    const waits = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc2, weaponId: w.sword.id }));
    expect(waits).toMatchObject({ ok: false, key: 'AttackWaitsForChoice' });
    // Not his combatant: player 1 cannot choose for Brand; nothing changes.
    const other = await w.foundry.asUser(p1, () => requestMidRound(combat, 'retarget', { combatantId: ids.brand, targetId: ids.orc2 }));
    expect(other).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    // The fallen orc, or two choices at once: refused in words.
    expect(await w.foundry.asUser(p2, () => requestMidRound(combat, 'retarget', { combatantId: ids.brand, targetId: ids.orc1 }))).toMatchObject({ ok: false, key: 'RetargetTargetInvalid' });
    expect(await w.foundry.asUser(p2, () => requestMidRound(combat, 'retarget', { combatantId: ids.brand, targetId: ids.orc2, none: true }))).toMatchObject({ ok: false, key: 'RetargetNeedsOne' });
    expect(combat.flowState!.retargets).toBeUndefined();
    const chosen = await w.foundry.asUser(p2, () => requestMidRound(combat, 'retarget', { combatantId: ids.brand, targetId: ids.orc2 }));
    expect(chosen).toMatchObject({ ok: true });
    await inAllClients(w);
    expect(combat.flowState!.retargets).toEqual([expect.objectContaining({ c: ids.brand, choice: 'target', target: ids.orc2 })]);
    expect(await rowActions(w, p2, ids.brand)).not.toContain('retarget');
    w.foundry.dice.push(20, 5);
    const a = await w.foundry.asUser(p2, () => requestAttack(combat, { attackerId: ids.brand, targetId: ids.orc2, weaponId: w.sword.id }));
    expect(a).toMatchObject({ ok: true, hit: true });
  });
});

describe.each([13, 14] as const)('the tracker row\'s choice, generation %i', (generation) => {
  it('Brand\'s row offers "Choose a new target" while his attack waits; his player picks Orc 2 from it', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const combat = w.combat;
    const ids = w.ids;
    const p2 = w.foundry.users.player2;
    w.foundry.dice.push(4, 5);
    await combat.startCombat();
    await inAllClients(w);
    await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    w.foundry.dice.push(6, 1);
    await combat.rollInitiative();
    await inAllClients(w);
    expect(await rowActions(w, p2, ids.brand)).not.toContain('retarget');
    await w.actors.orc1.update({ 'system.hp.value': -20 });
    await inAllClients(w);
    expect(await rowActions(w, p2, ids.brand)).toContain('retarget');
    let offered = '';
    forms.ask = async (_title: string, content: string) => {
      offered = content;
      return { choice: `target:${ids.orc2}` };
    };
    await w.foundry.client(p2).run(async () => {
      const viewed = g.game.combats.get(combat.id);
      const row = { dataset: { combatantId: ids.brand } };
      const target = { dataset: {}, closest: (sel: string) => (sel === '[data-combatant-id]' ? row : null) };
      await TRACKER_ACTIONS.retarget.call({ viewed }, {} as PointerEvent, target as unknown as HTMLElement);
    });
    await inAllClients(w);
    // The standing orc is offered, the dead one not; hold and nothing too.
    expect(offered).toContain(`target:${ids.orc2}`);
    expect(offered).not.toContain(`target:${ids.orc1}`);
    expect(offered).toContain('value="hold"');
    expect(combat.flowState!.retargets).toEqual([expect.objectContaining({ c: ids.brand, choice: 'target', target: ids.orc2 })]);
  });
});
