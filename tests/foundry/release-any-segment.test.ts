/**
 * A held action released in any segment, through the documents and the
 * tracker (flow/held.ts `stop`, `holdSteps`). Seed 000: combatants "might
 * 'hold' (choose to delay) their actions, waiting to act until these later
 * segments". The GM stops at a segment where nothing is scheduled from the
 * tracker's header (GM only: a player's forged request is refused and
 * changes nothing); a player's hold declared "release at segment 9" makes
 * that step.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, idle, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestMidRound } from '../../src/documents/midround';
import { combatControls, TRACKER_ACTIONS, type ControlsInput } from '../../src/apps/tracker/controls';
import { prepareDeclarationContext } from '../../src/apps/declaration-dialog';
import { GM_VIEW, timeline } from '../../src/rules/timeline';
import type { FlowState } from '../../src/rules/flow';

const flow = (w: World): FlowState => w.combat.flowState as FlowState;
const segments = (w: World) => flow(w).schedule!.steps.map((s) => s.segment);

/** The tracker header's controls on `user`'s client. */
async function header(w: World, user: any) {
  return w.foundry.client(user).run(() => {
    const combat = g.game.combats.get(w.combat.id);
    const state = combat.flowState as FlowState;
    const gm = !!g.game.user.isGM;
    const owned = new Set<string>(combat.combatants.filter((c: any) => c.isOwner).map((c: any) => c.id));
    const input: ControlsInput = { view: timeline(state, GM_VIEW), state, gm, owned, started: true };
    return combatControls(input);
  });
}

async function click(w: World, user: any, action: string, data: Record<string, string>): Promise<void> {
  await w.foundry.client(user).run(async () => {
    const combat = g.game.combats.get(w.combat.id);
    await TRACKER_ACTIONS[action].call({ viewed: combat }, {} as PointerEvent, { dataset: data, closest: () => null } as unknown as HTMLElement);
  });
  await idle(w);
}

describe.each([13, 14] as const)('a held action released in any segment, generation %i', (generation) => {
  it('segment-d6: the GM stops at segment 6, then 7, from the header while Halvaine holds; a player cannot', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { gm, player } = foundry.users;
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'wait' }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    foundry.dice.push(5, 4); // the party acts in segment 4, the orcs in 5
    await combat.rollInitiative();
    await idle(w);
    // Segment 4: the next step is the orcs' 5, no empty segment between.
    expect((await header(w, gm)).map((c) => c.action)).not.toContain('stopAtSegment');
    await combat.nextTurn();
    await idle(w);
    const stop = (await header(w, gm)).find((c) => c.action === 'stopAtSegment');
    expect(stop).toMatchObject({ label: 'Stop at segment 6, where nothing else is scheduled, for a held or prepared action', data: { segment: '6' } });
    expect((await header(w, player)).map((c) => c.action)).not.toContain('stopAtSegment');

    // A player's forged stop is the GM's to make: refused in words, nothing written.
    const log = JSON.stringify((combat as any).system.log);
    const forged = await foundry.asUser(player, () => requestMidRound(combat, 'stop', { segment: 6 }));
    expect(forged).toMatchObject({ ok: false, key: 'OnlyGM' });
    expect(JSON.stringify((combat as any).system.log)).toBe(log);

    await click(w, gm, 'stopAtSegment', { segment: '6' });
    expect(segments(w)).toEqual([4, 5, 6]);
    await combat.nextTurn();
    await idle(w);
    // Pressed again after Next: the one after.
    expect((await header(w, gm)).find((c) => c.action === 'stopAtSegment')?.data).toEqual({ segment: '7' });
    await click(w, gm, 'stopAtSegment', { segment: '7' });
    await combat.nextTurn();
    await idle(w);
    expect(flow(w).schedule!.steps[flow(w).step].segment).toBe(7);
    expect(await foundry.asUser(player, () => g.game.tenSegments.release(ids.halvaine, { action: 'spell', spell: w.spell.id }))).toEqual({ ok: true });
    await idle(w);
    // Sleep (2 segments) begun in 7 goes off in 9; once released, no more stops are offered.
    expect(segments(w)).toEqual([4, 5, 6, 7, 9]);
    expect((await header(w, gm)).map((c) => c.action)).not.toContain('stopAtSegment');
    expect(foundry.errors).toEqual([]);
  });

  it('segment-d6: the declaration dialog offers "Hold until segment" for a hold; declared at 9, the round has a step there', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { player } = foundry.users;
    foundry.dice.push(4, 5);
    await combat.startCombat();
    const context = await foundry.client(player).run(() => prepareDeclarationContext(g.game.combats.get(combat.id), ids.halvaine, 'declare', { action: 'wait', releaseAt: '9' }));
    expect(context.releaseAt?.segments.map((s) => s.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(context.releaseAt?.value).toBe(9);
    expect(context.labels.releaseAt).toBe('Hold until segment');
    const bad = await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'wait', releaseAt: 11 } as any));
    expect(bad).toMatchObject({ ok: false });
    expect(await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'wait', releaseAt: 9 }))).toMatchObject({ ok: true });
    foundry.dice.push(5, 4);
    await combat.rollInitiative();
    await idle(w);
    expect(segments(w)).toEqual([4, 9]);
    expect(flow(w).schedule!.steps[1].entries).toEqual([expect.objectContaining({ combatant: ids.halvaine, reason: 'ReleaseAt' })]);
  });

  it('high-low holds nothing: the dialog has no "Hold until segment"', async () => {
    const w = await makeWorld(generation, 'high-low');
    const { combat, foundry, ids } = w;
    foundry.dice.push(5, 5);
    await combat.startCombat();
    const context = await foundry.client(foundry.users.player).run(() => prepareDeclarationContext(g.game.combats.get(combat.id), ids.halvaine, 'declare'));
    expect(context.releaseAt).toBeNull();
  });
});
