/**
 * high-low's declaration choices at the table (seed 001): a player declares a
 * "Go First" activity, a [delaying] activity, an innate ability or minor
 * actions for their own character; the Dexterity Reaction Adjustment applies
 * "in the right circumstances", which the GM judges, so only the GM may set it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, type World, idle } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import type { TenSegmentsCombat } from '../../src/documents/combat';

describe.each([13, 14] as const)('high-low declarations through the documents, generation %i', (generation) => {
  let w: World;
  let combat: TenSegmentsCombat;

  beforeEach(async () => {
    w = await makeWorld(generation, 'high-low');
    combat = w.combat;
    w.foundry.dice.push(5, 5); // surprise: nobody
    await combat.startCombat();
    await idle(w);
  });

  it('a player\'s "Go First" melee is taken with the fast actions (step 3: "those that \'Go First\'")', async () => {
    const { ids } = w;
    const asked = await w.foundry.asUser(w.foundry.users.player2, () =>
      requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1, goFirst: true, minorActions: 1 }),
    );
    expect(asked).toEqual({ ok: true });
    expect(combat.flowState!.declarations[ids.brand]).toMatchObject({ goFirst: true, minorActions: 1 });
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    w.foundry.dice.push(2, 6); // the party LOW, the orcs HIGH
    await combat.rollInitiative();
    const steps = combat.flowState!.schedule!.steps;
    const brand = steps.findIndex((s) => s.entries.some((e) => e.combatant === ids.brand && e.kind === 'action'));
    const orc = steps.findIndex((s) => s.entries.some((e) => e.combatant === ids.orc1 && e.kind === 'action'));
    expect(steps[brand].phase).toBe('fast');
    expect(brand).toBeLessThan(orc); // LOW, yet before the HIGH orc
  });

  it('the Dexterity Reaction Adjustment is the GM\'s to grant: a player\'s is refused and changes nothing', async () => {
    const { ids } = w;
    const before = JSON.stringify(combat.flowState!.declarations);
    const asked = await w.foundry.asUser(w.foundry.users.player2, () =>
      requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1, override: { dexterityReaction: true } }),
    );
    expect(asked).toMatchObject({ ok: false, key: 'OverrideGMOnly' });
    expect(JSON.stringify(combat.flowState!.declarations)).toBe(before);
    expect(await requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1, override: { dexterityReaction: true } })).toEqual({ ok: true });
    expect(combat.flowState!.declarations[ids.brand].dexterityReaction).toBe(true);
  });

  it('a choice the procedure refuses, or out of range, is refused in words and changes nothing', async () => {
    const { ids } = w;
    const before = JSON.stringify(combat.flowState!.declarations);
    const p2 = w.foundry.users.player2;
    // "Innate abilities must be used 1st": a charge is a fast action, not an innate ability.
    const innate = await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'charge', weapon: w.sword.id, target: ids.orc1, innate: true }));
    expect(innate).toMatchObject({ ok: false, key: 'HighLowInnateNotAllowed' });
    const many = await w.foundry.asUser(p2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1, minorActions: 11 }));
    expect(many).toMatchObject({ ok: false });
    expect((many as { message?: string }).message).toContain('minorActions');
    expect(JSON.stringify(combat.flowState!.declarations)).toBe(before);
  });
});
