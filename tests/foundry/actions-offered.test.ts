/**
 * Issue 28 (Deliver 4): "actions offered only where the actor has them (turning undead for a class that turns, a
 * device for one carrying one)". Against the stand-in, in both generations: the declaration dialog offers an orc
 * neither "Turn undead" nor "Use a magic device"; a character turns where its sheet says it does (the GM ticks
 * "Turns undead") and uses a device where it carries gear marked as one; a player's forged request for what its
 * character lacks is refused by the active GM in words, and nothing changes — before the combat starts (the
 * declaration waiting on the combatant) and during it (the engine's own check). Seed 004's action list names both
 * actions ("D missiles · turn undead · cast spell · use device"); its note 20 gives a device a wielder.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, idle, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { closeDeclarationDialogs, prepareDeclarationContext, type DeclarationContext } from '../../src/apps/declaration-dialog';
import type { ProcedureId } from '../../src/rules/model';

const offered = async (w: World, id: string, user: unknown = w.foundry.users.gm): Promise<string[]> =>
  ((await w.foundry.asUser(user, () => prepareDeclarationContext(w.combat, id, 'declare'))) as DeclarationContext).actions.map((a) => a.value);

/** Brand becomes a paladin who turns (the GM ticks it on his sheet); Halvaine carries a wand marked as a magic device. */
async function equip(w: World): Promise<void> {
  await w.actors.brand.update({ 'system.details.className': 'Paladin', 'system.details.turnsUndead': true });
  await w.actors.halvaine.createEmbeddedDocuments('Item', [{ name: 'Wand of frost', type: 'gear', system: { weight: 1, quantity: 1, device: true } }]);
  await w.foundry.settle();
}

describe.each([13, 14] as const)('actions offered only where the actor has them, generation %i', (generation) => {
  let w: World;
  afterEach(async () => {
    await closeDeclarationDialogs();
  });

  it.each(['segment-d6', 'high-low', 'd12-ascending', 'addict'] as ProcedureId[])('%s: an orc is offered neither turning nor a device; the paladin turns, the magic-user with a wand uses it', async (procedure) => {
    w = await makeWorld(generation, procedure);
    await equip(w);
    // Before the combat starts (the world's procedure) and once it runs (the combat's engine).
    for (const phase of ['before', 'running']) {
      if (phase === 'running') {
        w.foundry.dice.push(5, 5);
        await w.combat.startCombat();
        await idle(w);
      }
      const orc = await offered(w, w.ids.orc1);
      expect(orc, phase).toContain('melee');
      expect(orc, phase).not.toContain('turn-undead');
      expect(orc, phase).not.toContain('device');
      const brand = await offered(w, w.ids.brand, w.foundry.users.player2);
      expect(brand, phase).toContain('turn-undead');
      expect(brand, phase).not.toContain('device');
      const halvaine = await offered(w, w.ids.halvaine, w.foundry.users.player);
      expect(halvaine, phase).toContain('device');
      expect(halvaine, phase).not.toContain('turn-undead');
    }
  });

  it('a player\'s forged request for turning by a fighter, and the GM\'s for an orc, are refused in words; nothing changes', async () => {
    w = await makeWorld(generation, 'segment-d6');
    const { foundry, ids } = w;
    // Before the start: the declaration would wait on the combatant; it is not kept.
    const early = await foundry.asUser(foundry.users.player2, () => requestDeclaration(w.combat, ids.brand, { action: 'turn-undead' }));
    await idle(w);
    expect(early).toEqual({ ok: false, key: 'DeclarationCannotTurn', message: 'Brand cannot turn undead: its sheet does not say it turns (a class that turns, such as a cleric or paladin, does).' });
    expect((w.combat.combatants.get(ids.brand)!.system as any).declaration ?? null).toBeNull();
    foundry.dice.push(5, 5);
    await w.combat.startCombat();
    await idle(w);
    const before = JSON.stringify(w.combat.flowState!.declarations);
    foundry.writes.clear();
    const forged = await foundry.asUser(foundry.users.player2, () => requestDeclaration(w.combat, ids.brand, { action: 'turn-undead' }));
    const orc = await requestDeclaration(w.combat, ids.orc1, { action: 'turn-undead' });
    await idle(w);
    expect(forged).toMatchObject({ ok: false, key: 'DeclarationCannotTurn', message: expect.stringContaining('Brand cannot turn undead') });
    // A device's time is the GM's (override.castingTime): the GM's own request for an orc's device meets the device check.
    expect(orc).toEqual({ ok: false, key: 'DeclarationCannotTurn', message: 'Orc 1 cannot turn undead: its sheet does not say it turns (a class that turns, such as a cleric or paladin, does).' });
    const orcDevice = await requestDeclaration(w.combat, ids.orc1, { action: 'device', spellName: 'Wand of frost', override: { castingTime: 1 } } as any);
    await idle(w);
    expect(orcDevice).toEqual({ ok: false, key: 'DeclarationNoDevice', message: 'Orc 1 carries no magic device to use.' });
    expect(JSON.stringify(w.combat.flowState!.declarations)).toBe(before);
    expect(foundry.writes.all().filter((x) => x.documentName === 'Combat' || x.documentName === 'Combatant')).toEqual([]);
  });
});
