/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The Foundry attack path under individual-speed (seed 003, Combat Stats;
 * Critical Hits and Injuries): the GM's client rolls a d20 plus the
 * attacker's attack bonus against the target's Defense ("10 plus its Agility
 * modifier plus its Defense bonus", its worn armour's included, +4 while it
 * takes the Full-Defense action); a natural 20 is a critical hit whose damage
 * the weapon's multiplier multiplies and which goes past Stress; the target's
 * Armour comes off each hit; the engine makes the Combat Injury check.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, g, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';

const text = (message: any): string =>
  String(message.content)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const attackCards = () => g.game.messages.contents.filter((m: any) => m.flags?.['ten-segments']?.kind === 'attack');

describe.each([13, 14] as const)('individual-speed attacks through the documents, generation %i', (generation) => {
  let w: World;
  let mail: any;

  beforeEach(async () => {
    w = await makeWorld(generation, 'individual-speed');
    const { actors, sword } = w;
    // Brand: attack bonus +1; his long sword x3, slashing or piercing.
    await actors.brand.update({ 'system.individual.attackBonus': 1, 'system.individual.stress.value': 6, 'system.individual.stress.max': 6, 'system.individual.wounds.value': 12, 'system.individual.wounds.max': 12 });
    await sword.update({ 'system.critical': 3, 'system.damageTypes': ['slashing', 'piercing'] });
    // Orc 1: Agility +1, Defense bonus 1 of its own, mail worn (Defense +1, Armour 2): Defense 13, Armour 2.
    for (const orc of [actors.orc1, actors.orc2]) {
      await orc.update({ 'system.individual.agility': 1, 'system.individual.defense': 1, 'system.individual.stress.value': 5, 'system.individual.stress.max': 5, 'system.individual.wounds.value': 20, 'system.individual.wounds.max': 20, 'system.individual.strength': 20 });
    }
    [mail] = await actors.orc1.createEmbeddedDocuments('Item', [{ name: 'Mail', type: 'armor', system: { ac: 5, defense: 1, armour: 2, equipped: true } }]);
    await actors.orc2.createEmbeddedDocuments('Item', [{ name: 'Mail', type: 'armor', system: { ac: 5, defense: 1, armour: 2, equipped: true } }]);
    w.foundry.writes.clear();
  });

  /** Base initiative (d12s: Halvaine, Brand, the orcs), Brand's sword at the orcs, the orcs' actions; to Brand's count. */
  async function toBrandsBlow(orc2: any = { action: 'melee', target: w.ids.brand }): Promise<void> {
    const { combat, foundry, ids } = w;
    foundry.dice.push(12, 1, 12, 12);
    await combat.startCombat();
    await requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 });
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.brand });
    await requestDeclaration(combat, ids.orc2, orc2);
    await combat.rollInitiative();
    // Brand: 1 + sword speed 5 = 6, before everyone.
    expect(combat.flowState!.schedule!.steps[0].count).toBe(6);
    expect(combat.currentActorIds()).toEqual([ids.brand]);
  }

  const attack = async (target: string, dice: number[], extra: Record<string, unknown> = {}) => {
    w.foundry.dice.push(...dice);
    const answer = await requestAttack(w.combat, { attackerId: w.ids.brand, targetId: target, weaponId: w.sword.id, ...extra });
    await w.foundry.settle();
    return answer;
  };

  it('"any attack must equal or exceed a creature\'s Defense score to hit it": 12 + 1 hits Defense 13; "Armour reduces the damage taken from each hit"', async () => {
    await toBrandsBlow();
    const answer = await attack(w.ids.orc1, [12, 7]);
    expect(answer).toEqual({ ok: true, hit: true, natural: 12, needed: 13, damage: 5 });
    // 7 less Armour 2: 5, to Stress first.
    expect(w.actors.orc1.system.individual).toMatchObject({ stress: { value: 0 }, wounds: { value: 20 } });
    expect(text(attackCards().at(-1))).toContain('Armour 2: 7 less 2 is 5.');
  });

  it('one short of Defense misses', async () => {
    await toBrandsBlow();
    expect(await attack(w.ids.orc1, [11])).toEqual({ ok: true, hit: false, natural: 11, needed: 13, damage: 0 });
  });

  it('Armour never takes a hit below 0 (ruling): 1 against Armour 2 is a hit for 0, and no damage lands', async () => {
    await toBrandsBlow();
    expect(await attack(w.ids.orc1, [13, 1])).toEqual({ ok: true, hit: true, natural: 13, needed: 13, damage: 0 });
    expect(w.combat.flowState!.hits).toEqual([]);
    expect(w.actors.orc1.system.individual.stress.value).toBe(5);
  });

  it('Armour of only the armour worn: unequipped mail gives no Armour nor Defense', async () => {
    await mail.update({ 'system.equipped': false });
    await toBrandsBlow();
    // Defense 10 + 1 + 1 = 12: 11 + 1 hits; 2 damage, no Armour.
    expect(await attack(w.ids.orc1, [11, 2])).toEqual({ ok: true, hit: true, natural: 11, needed: 12, damage: 2 });
  });

  it('"when using the Full-Defense action, a character adds +4 to their Defense score": the attack reads it', async () => {
    await toBrandsBlow({ action: 'full-defense' });
    // The orc's full defense comes at its count (12 + 1 - 1 = 12), after Brand's blow: its +4 counts for the whole round.
    expect(await attack(w.ids.orc2, [15])).toEqual({ ok: true, hit: false, natural: 15, needed: 17, damage: 0 });
  });

  it('a natural 20 is a critical hit (ruling): x3, "dealt to the opponent\'s Wound Points even if the struck opponent has Stress remaining", then the Combat Injury check', async () => {
    await toBrandsBlow();
    // d20 20; damage 5 x3 = 15, less Armour 2 = 13; the d% 10 is not above 13: injured; piercing (the player\'s choice) has an empty table.
    const answer = await attack(w.ids.orc1, [20, 5, 10], { damageType: 'piercing' });
    expect(answer).toEqual({ ok: true, hit: true, natural: 20, needed: 13, damage: 13, critical: true });
    expect(w.actors.orc1.system.individual).toMatchObject({ stress: { value: 5 }, wounds: { value: 7 } });
    const state = w.combat.flowState!;
    expect(state.hits.at(-1)).toMatchObject({ target: w.ids.orc1, amount: 13, critical: true, type: 'piercing', injury: { roll: 10, wounds: 13, injury: { round: 1, type: 'piercing' } } });
    expect(state.states[w.ids.orc1].injuries).toEqual([{ round: 1, type: 'piercing' }]);
    const card = text(attackCards().at(-1));
    expect(card).toContain('Critical hit: 5 × 3 makes 15, straight to Wound Points.');
    expect(card).toContain('Damage type: Piercing.');
    expect(card).toContain('Combat Injury check: d% 10 against 13 Wound Points: A Piercing Combat Injury: its table is empty in the text, so the GM picks it.');
  });

  it('the damage type must be one the weapon deals: refused before any die is rolled', async () => {
    await toBrandsBlow();
    const before = w.foundry.writes.count();
    const answer = await attack(w.ids.orc1, [], { damageType: 'fire' });
    expect(answer).toMatchObject({ ok: false, key: 'DamageTypeNotOfWeapon', message: "Brand's weapon does not deal fire damage (it deals: slashing, piercing)." });
    expect(w.foundry.writes.count()).toBe(before);
  });

  it('without a choice, the weapon\'s first damage type: slashing', async () => {
    await toBrandsBlow();
    await attack(w.ids.orc1, [20, 1, 100]);
    expect(w.combat.flowState!.hits.at(-1)).toMatchObject({ type: 'slashing', critical: true, injury: { roll: 100, wounds: 1 } });
  });
});
