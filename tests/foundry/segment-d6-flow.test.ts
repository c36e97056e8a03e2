/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, g, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { undoFromCard } from '../../src/documents/damage';
import { currentEntries } from '../../src/rules/flow';

describe.each([13, 14] as const)('segment-d6 through the documents, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
  });

  it('the Halvaine example at the table: sides from dispositions, declarations through the GM, a hit in segment 5 spoils the spell, undo from the card', async () => {
    const { combat, foundry, ids } = w;
    // Sides are CombatantGroups formed from token disposition.
    expect(combat.groups.size).toBe(2);
    const sideOf = (id: string) => combat.groups.get((combat.combatants.get(id) as any)._source.group)?.name;
    expect(sideOf(ids.halvaine)).toBe('Friendly');
    expect(sideOf(ids.orc1)).toBe('Hostile');

    // Surprise: party rolls 4, orcs 5: nobody surprised.
    foundry.dice.push(4, 5);
    await combat.startCombat();
    expect(combat.flowState?.stage).toBe('declare');
    expect(combat.flowState?.round).toBe(1);

    // Player 1 declares Halvaine's spell through the GM; a spell she does not have is refused.
    const refused = await foundry.asUser(foundry.users.player, () =>
      requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: 'no-such-item' }),
    );
    expect(refused).toMatchObject({ ok: false, key: 'DeclarationSpellMissing' });
    const ok = await foundry.asUser(foundry.users.player, () =>
      requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }),
    );
    expect(ok).toEqual({ ok: true });
    // Player 1 cannot declare for Brand (player 2's).
    const notHers = await foundry.asUser(foundry.users.player, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id }));
    expect(notHers).toMatchObject({ ok: false, key: 'NotYourCombatant' });
    await foundry.asUser(foundry.users.player2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    await requestDeclaration(combat, ids.orc2, { action: 'melee', target: ids.brand });
    // The players' declarations are in the log for every client; the GM's plans for the orcs stay on the GM's client until initiative.
    expect(Object.keys(combat.flowState!.declarations).sort()).toEqual([ids.halvaine, ids.brand].sort());
    expect(Object.keys(combat.held).sort()).toEqual([ids.orc1, ids.orc2].sort());
    expect(Object.keys(combat.gmDeclarations).sort()).toEqual(Object.values(ids).sort());

    // Initiative: party 5, orcs 4 → the party acts in segment 4, the orcs in 5.
    foundry.dice.push(5, 4);
    await combat.rollInitiative();
    const state = combat.flowState!;
    expect(state.stage).toBe('resolve');
    expect(Object.keys(state.declarations).sort()).toEqual(Object.values(ids).sort());
    expect(combat.held).toEqual({});
    expect(state.schedule!.steps[state.step].segment).toBe(4);
    expect(combat.combatant?.id).toBe(ids.halvaine); // core's current combatant: first actor of the step

    await combat.nextTurn(); // segment 5: the orcs
    expect(combat.flowState!.schedule!.steps[combat.flowState!.step].segment).toBe(5);

    // Orc 1 hits Halvaine in its step: natural 18 against AC 5 with AAC0 19 needs 14; damage 3.
    foundry.dice.push(18, 3);
    const attack = await requestAttack(combat, { attackerId: ids.orc1, targetId: ids.halvaine });
    expect(attack).toMatchObject({ ok: true, hit: true, damage: 3 });
    await foundry.settle();
    expect(w.actors.halvaine.system.hp.value).toBe(9);
    const interrupted = combat.flowState!.interruptions;
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]).toMatchObject({ caster: ids.halvaine, spell: 'Sleep', outcome: 'interrupted', expended: true });
    expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(1);
    const card = g.game.messages.contents.find((m: any) => m.flags?.['ten-segments']?.kind === 'interruption');
    expect(card.content).toContain('Halvaine was hit while casting Sleep');

    // The GM undoes it from the card: the spell is back in memory and goes off in segment 6.
    await undoFromCard(combat.id as string, interrupted[0].casting);
    expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(0);
    await combat.nextTurn();
    const six = combat.flowState!;
    expect(six.schedule!.steps[six.step].segment).toBe(6);
    expect(currentEntries(six).find((o) => o.entry.combatant === ids.halvaine)?.outcome).toBe('goes-off');
    // Cast: now it is expended for real.
    expect(w.actors.halvaine.items.get(w.spell.id).system.expended).toBe(1);
    expect(foundry.errors).toEqual([]);
  });

  it('Previous restores the exact earlier state, and each transition is one Combat write', async () => {
    const { combat, foundry, ids } = w;
    foundry.dice.push(4, 5);
    await combat.startCombat();
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    await requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 });
    foundry.dice.push(2, 6);
    await combat.rollInitiative();
    const before = structuredClone(combat.flowState);
    const log = structuredClone((combat.system as any).log);
    foundry.writes.clear();
    await combat.nextTurn();
    expect(foundry.writes.count('Combat', 'update')).toBe(1);
    expect(foundry.writes.count()).toBe(1);
    await combat.previousTurn();
    expect(combat.flowState).toEqual(before);
    expect((combat.system as any).log).toEqual(log);
  });

  it('players cannot move the combat from step to step', async () => {
    const { combat, foundry } = w;
    foundry.dice.push(4, 5);
    await combat.startCombat();
    const log = structuredClone((combat.system as any).log);
    await foundry.asUser(foundry.users.player, () => combat.nextTurn());
    expect((combat.system as any).log).toEqual(log);
    expect(foundry.client(foundry.users.player).notifications.at(-1)).toMatchObject({ type: 'error', message: 'Only the GM moves the combat from step to step.' });
  });
});
