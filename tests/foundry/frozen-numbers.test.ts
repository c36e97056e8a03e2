/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 27, Why 1: what a blow reads of a sheet is frozen when its combatant
 * declares. A player who sets her AAC0 to 1 and her sword's damage to
 * 1d8+99 on her own sheet after declaring strikes this round with the numbers
 * she declared with; a target who lowers her AC after declaring is struck
 * against the AC she declared with; the next round's declaration takes the
 * edited sheet. segment-d6 (seed 001): AAC0 19 against the orc's AC 6 needs
 * 13; the orc's AAC0 19 against Brand's AC 5 needs 14.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { brandVersusOrcs, g, idle, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';

describe.each([13, 14] as const)('numbers frozen at the declaration, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
  });

  /** Start (nobody surprised), Brand's sword at Orc 1 (player 2), Orc 1 at Brand (the GM). */
  async function declared(): Promise<void> {
    await brandVersusOrcs(w, [4, 5], { orcs: [w.ids.orc1] });
  }

  /** Player 2 edits Brand's sheet as her own client lets her. */
  const asBrandsPlayer = <T>(fn: () => Promise<T>) => w.foundry.asUser(w.foundry.users.player2, fn);

  const brandStrikes = async (dice: number[]) => {
    w.foundry.dice.push(...dice);
    const answer = await asBrandsPlayer(() => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc1, weaponId: w.sword.id }));
    await idle(w);
    return answer;
  };

  it('an AAC0 of 1 written after declaring: a natural 12 still misses the orc (it needs 13)', async () => {
    await declared();
    await asBrandsPlayer(() => w.actors.brand.update({ 'system.attack.aac0': '1' }));
    w.foundry.dice.push(6, 1); // initiative: the party in segment 1
    await w.combat.rollInitiative();
    await idle(w);
    const answer = await brandStrikes([12]);
    expect(answer).toMatchObject({ ok: true, hit: false, natural: 12, needed: 13 });
    expect(w.actors.orc1.system.hp.value).toBe(6);
  });

  it('a sword of 1d8+99 written after declaring: the hit does the 1d8 it was declared with', async () => {
    await declared();
    await asBrandsPlayer(() => w.sword.update({ 'system.damage.small': '1d8+99' }));
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    const answer = await brandStrikes([20, 5]);
    expect(answer).toMatchObject({ ok: true, hit: true, damage: 5 });
    expect(w.actors.orc1.system.hp.value).toBe(1);
  });

  it('an AC of -10 written after declaring: the orc strikes against the AC 5 Brand declared with', async () => {
    await declared();
    await asBrandsPlayer(() => w.actors.brand.update({ 'system.ac': -10 }));
    w.foundry.dice.push(1, 6); // the orcs in segment 1
    await w.combat.rollInitiative();
    await idle(w);
    w.foundry.dice.push(14, 3);
    const answer = await requestAttack(w.combat, { attackerId: w.ids.orc1, targetId: w.ids.brand, routine: 0, attack: 0 });
    await idle(w);
    expect(answer).toMatchObject({ ok: true, hit: true, natural: 14, needed: 14, damage: 3 });
    expect(w.actors.brand.system.hp.value).toBe(9);
  });

  it('the next declaration takes the edited sheet: in round 2 the natural 12 hits with AAC0 1', async () => {
    await declared();
    await asBrandsPlayer(() => w.actors.brand.update({ 'system.attack.aac0': '1' }));
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    expect(await brandStrikes([12])).toMatchObject({ hit: false });
    await w.combat.nextRound(); // round 2's declarations
    await idle(w);
    expect(w.combat.flowState!.stage).toBe('declare');
    await asBrandsPlayer(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    const answer = await brandStrikes([12, 4]);
    expect(answer).toMatchObject({ ok: true, hit: true, natural: 12, damage: 4 });
    expect(w.actors.orc1.system.hp.value).toBe(2);
  });

  it('every client replays the same frozen numbers (the declaration entry carries them)', async () => {
    await declared();
    const gmSees = w.combat.flowState!.declarations[w.ids.brand]?.sheet;
    expect(gmSees).toMatchObject({ aac0: '19', ac: 5, weapons: { [w.sword.id]: { damage: { small: '1d8', large: '1d12' } } } });
    const playerSees = await w.foundry.client(w.foundry.users.player).run(() => g.game.combats.get(w.combat.id).flowState.declarations[w.ids.brand]?.sheet);
    expect(playerSees).toEqual(gmSees);
  });
});
