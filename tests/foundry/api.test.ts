/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { makeWorld, g } from './world';

// game.tenSegments: what a macro uses until the dialogs arrive; the same path as the dialogs.
describe.each([13, 14] as const)('game.tenSegments, generation %i', (generation) => {
  it('a player declares for their own combatant, and a refusal is shown to them in words', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    await w.combat.update({ active: true });
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    const ok = await w.foundry.asUser(w.foundry.users.player2, () => g.game.tenSegments.declare(w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    expect(ok).toEqual({ ok: true });
    expect(w.combat.flowState!.declarations[w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc1 });
    const refused = await w.foundry.asUser(w.foundry.users.player2, () => g.game.tenSegments.declare(w.ids.halvaine, { action: 'melee' }));
    expect(refused).toMatchObject({ ok: false, message: 'You do not control Halvaine.' });
    expect(w.foundry.client(w.foundry.users.player2).notifications.at(-1)).toMatchObject({ type: 'error', message: 'You do not control Halvaine.' });
    expect(w.foundry.notifications).toEqual([]);
    expect(w.combat.flowState!.declarations[w.ids.halvaine]).toBeUndefined();
  });

  it('a player cannot move the combat on; the GM can', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await g.game.tenSegments.declare(w.ids.orc1, { action: 'melee', target: w.ids.brand });
    const refused = await w.foundry.asUser(w.foundry.users.player, () => g.game.tenSegments.next());
    expect(refused.ok).toBe(false);
    expect(w.foundry.client(w.foundry.users.player).notifications.at(-1)).toMatchObject({ type: 'error' });
    expect(w.combat.flowState!.stage).toBe('declare');
    w.foundry.dice.push(2, 6);
    expect(await g.game.tenSegments.next()).toEqual({ ok: true });
    expect(w.combat.flowState!.stage).toBe('resolve');
  });
});
