/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Previous takes a retracted attack's card out of the chat, as it already does
 * for an initiative undone (issue 28, deliver 5): the blow is no more, so its
 * card goes with it; an attack still in the log keeps its card. Struck again,
 * the attack shows one card, not one per try.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, type World, idle, cardKind, cardsSeenBy } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';

describe.each([13, 14] as const)('Previous and the attack cards, generation %i', (generation) => {
  let w: World;
  const attackCards = () => (globalThis as any).game.messages.contents.filter((m: any) => cardKind(m) === 'attack');
  const brandStrikes = async (dice: number[]) => {
    w.foundry.dice.push(...dice);
    const a = await w.foundry.asUser(w.foundry.users.player2, () => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
    await idle(w);
    return a;
  };

  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
    w.foundry.dice.push(4, 5); // nobody surprised
    await w.combat.startCombat();
    await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    w.foundry.dice.push(6, 1); // the party acts in segment 1
    await w.combat.rollInitiative();
    await idle(w);
  });

  it('Previous after a blow deletes its card on every client; the blow struck again shows one card', async () => {
    expect(await brandStrikes([18, 3])).toMatchObject({ ok: true, hit: true, damage: 3 });
    expect(attackCards()).toHaveLength(1);
    expect(w.actors.orc1.system.hp.value).toBe(3);

    await w.combat.previousTurn();
    await idle(w);
    expect(w.actors.orc1.system.hp.value).toBe(6);
    expect(attackCards()).toHaveLength(0);
    for (const user of [w.foundry.users.gm, w.foundry.users.player, w.foundry.users.player2]) expect(cardsSeenBy(w, user, 'attack')).toEqual([]);

    expect(await brandStrikes([2])).toMatchObject({ ok: true, hit: false });
    expect(attackCards()).toHaveLength(1);
    expect(cardsSeenBy(w, w.foundry.users.player, 'attack')).toHaveLength(1);
  });

  it('Previous that takes back only a later step keeps the card of a blow still in the log', async () => {
    expect(await brandStrikes([18, 3])).toMatchObject({ ok: true, hit: true });
    await w.combat.nextTurn();
    await idle(w);
    await w.combat.previousTurn();
    await idle(w);
    expect(w.actors.orc1.system.hp.value).toBe(3);
    expect(attackCards()).toHaveLength(1);
  });

  it('Previous round takes back every blow of the round with its cards', async () => {
    expect(await brandStrikes([18, 3])).toMatchObject({ ok: true, hit: true });
    for (let i = 0; i < 20 && w.combat.flowState!.stage !== 'end-of-round'; i++) await w.combat.nextTurn();
    await idle(w);
    await w.combat.previousRound();
    await idle(w);
    expect(w.combat.flowState!.stage).toBe('declare');
    expect(attackCards()).toHaveLength(0);
  });
});
