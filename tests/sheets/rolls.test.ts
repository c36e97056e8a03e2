/**
 * The actor sheet's roll buttons (src/apps/sheets/rolls.ts), called as the
 * actor sheet's body calls them, with the sheet (its `actor` / `document`)
 * on the client of the user who clicks: an attack in a combat goes the
 * tracker's way (the GM's checks: refused in words when the combatant does
 * not act now, the tracker's card when it does), outside a combat a plain
 * roll card; damage and morale; no target, two targets, a fallen attacker.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld, idle, brandVersusOrcs, cardText, cardKind, type World } from '../foundry/world';
import { rollAttack, rollDamage, rollMorale, type RollWhat } from '../../src/apps/sheets/rolls';
import { parseAac0 } from '../../src/rules/armor-class';
import { neededToHit } from '../../src/rules/attack-table';

/** Everything a refusal must leave as it was. */
function snapshot(w: World): string {
  const combat = w.combat as any;
  return JSON.stringify({ log: combat?.system?.log ?? null, messages: g.game.messages.size, actors: g.game.actors.contents.map((a: any) => a.toObject()) });
}

const tokenOf = (w: World, combatantId: string): string => w.combat.combatants.get(combatantId)!.tokenId as string;

type Button = (sheet: any, what?: RollWhat) => Promise<void>;

/** A button of `actorId`'s sheet pressed on `user`'s client, with those tokens targeted. */
async function press(w: World, user: any, button: Button, actorId: string, tokens: string[], what?: RollWhat): Promise<void> {
  await w.foundry.client(user).run(async () => {
    const actor = g.game.actors.get(actorId);
    g.game.user.targets = new Set(tokens.map((id) => ({ id, document: { id } })));
    try {
      await button({ actor, document: actor }, what);
    } finally {
      delete g.game.user.targets;
    }
  });
  await idle(w);
}

/** The last error a user was shown (on their own client). */
const lastError = (w: World, user: any) => w.foundry.client(user).notifications.filter((n: any) => n.type === 'error').at(-1)?.message;
const cardsOf = (kind: string) => g.game.messages.contents.filter((m: any) => cardKind(m) === kind);

describe.each([13, 14] as const)('the actor sheet\'s roll buttons, generation %i', (generation) => {
  it('an attack in a combat when the combatant does not act now: refused in words, nothing changes', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player2 } = w.foundry.users;
    // The orcs act in segment 1, the party in 6: Brand does not act now.
    await brandVersusOrcs(w, [4, 5], { orcs: [w.ids.orc1], initiative: [1, 6] });
    expect((w.combat as any).currentActorIds()).not.toContain(w.ids.brand);
    const before = snapshot(w);
    await press(w, player2, rollAttack, w.actors.brand.id, [tokenOf(w, w.ids.orc1)], { itemId: w.sword.id });
    // The engine's refusal in a GM's words, as the tracker's row Attack shows it: when his attack comes.
    expect(lastError(w, player2)).toBe("Not Brand's turn: Brand attacks in segment 6.");
    expect(snapshot(w)).toBe(before);
  });

  it('an attack in a combat when the combatant acts: the tracker\'s attack, its card and its log entry', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player2 } = w.foundry.users;
    await brandVersusOrcs(w, [4, 5], { initiative: [6, 1] }); // the party acts in segment 1
    expect((w.combat as any).currentActorIds()).toContain(w.ids.brand);
    w.foundry.dice.push(20, 5);
    await press(w, player2, rollAttack, w.actors.brand.id, [tokenOf(w, w.ids.orc1)], { itemId: w.sword.id });
    const [card] = cardsOf('attack');
    expect(card).toBeDefined();
    expect(cardText(card)).toMatch(/^Brand attacks Orc 1 \(Long sword\) d20: 20/);
    expect(card.flags['ten-segments']).toMatchObject({ attacker: w.ids.brand, target: w.ids.orc1, hit: true, damage: 5 });
    const entries = Object.values((w.combat as any).system.log) as any[];
    expect(entries.some((e) => e.t === 'attack' && e.c === w.ids.brand && e.target === w.ids.orc1)).toBe(true);
    expect(g.game.actors.get(w.actors.orc1.id).system.hp.value).toBe(1);
  });

  it('no target, two targets: told in words, nothing rolled or written', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player2 } = w.foundry.users;
    await brandVersusOrcs(w, [4, 5], { initiative: [6, 1] });
    const before = snapshot(w);
    await press(w, player2, rollAttack, w.actors.brand.id, [], { itemId: w.sword.id });
    expect(lastError(w, player2)).toBe('Target the token to attack first.');
    await press(w, player2, rollDamage, w.actors.brand.id, [tokenOf(w, w.ids.orc1), tokenOf(w, w.ids.orc2)], { itemId: w.sword.id });
    expect(lastError(w, player2)).toBe('Target only one token.');
    expect(snapshot(w)).toBe(before);
  });

  it('outside a combat: a plain attack roll card with the number needed against the target\'s AC; a fallen attacker is told so', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player2 } = w.foundry.users;
    const orcToken = tokenOf(w, w.ids.orc1);
    await w.combat.delete();
    await idle(w);
    w.foundry.dice.push(12);
    await press(w, player2, rollAttack, w.actors.brand.id, [orcToken], { itemId: w.sword.id });
    const [card] = cardsOf('sheet-attack');
    const aac0 = parseAac0(w.actors.brand.system.attack.aac0);
    if (!aac0.ok) throw new Error('fixture');
    const needed = neededToHit(aac0.value, 6); // the orc's AC 6
    expect(cardText(card)).toContain(`Brand attacks Orc 1 (Long sword) Against AC 6. d20: 12, total 12, needs ${needed}`);
    expect(cardText(card)).toContain(12 >= needed ? 'Hit.' : 'Miss.');
    expect(card.flags['ten-segments']).toMatchObject({ natural: 12, needed });
    // Nothing is written outside a combat: the orc is as it was.
    expect(g.game.actors.get(w.actors.orc1.id).system.hp.value).toBe(6);

    await g.game.actors.get(w.actors.brand.id).update({ 'system.hp.value': 0 });
    await idle(w);
    const before = snapshot(w);
    await press(w, player2, rollAttack, w.actors.brand.id, [orcToken], { itemId: w.sword.id });
    expect(lastError(w, player2)).toBe('Brand is down and cannot act.');
    expect(snapshot(w)).toBe(before);
  });

  it('damage: the weapon\'s column for the target\'s size, as a card; nothing is written', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player2 } = w.foundry.users;
    await g.game.actors.get(w.actors.orc2.id).update({ 'system.size': 'large' });
    await idle(w);
    w.foundry.dice.push(5, 11);
    await press(w, player2, rollDamage, w.actors.brand.id, [tokenOf(w, w.ids.orc1)], { itemId: w.sword.id });
    await press(w, player2, rollDamage, w.actors.brand.id, [tokenOf(w, w.ids.orc2)], { itemId: w.sword.id });
    const [small, large] = cardsOf('sheet-damage');
    expect(cardText(small)).toBe('Brand: damage against Orc 1 (Long sword) Against a small or medium target. Long sword: 1d8 makes 5 Total: 5');
    expect(cardText(large)).toBe('Brand: damage against Orc 2 (Long sword) Against a large target (the large column). Long sword: 1d12 makes 11 Total: 11');
    expect(g.game.actors.get(w.actors.orc1.id).system.hp.value).toBe(6);
    // A monster's routine: "axe 1d8".
    w.foundry.dice.push(3);
    await press(w, w.foundry.users.gm, rollDamage, w.actors.orc1.id, [tokenOf(w, w.ids.brand)], { routine: 0 });
    expect(cardText(cardsOf('sheet-damage')[2])).toContain('axe: 1d8 makes 3');
  });

  it('morale: the monster\'s check as the tracker\'s row asks it, written in the log; a character, or a monster in no combat, is told why not', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await idle(w);
    w.foundry.dice.push(5, 6);
    await press(w, gm, rollMorale, w.actors.orc1.id, []);
    const morale = Object.values((w.combat as any).system.log).filter((e: any) => e.t === 'morale') as any[];
    expect(morale.map((e) => e.requests)).toEqual([[{ combatant: w.ids.orc1, trigger: 'called by the GM' }]]);

    await press(w, gm, rollMorale, w.actors.brand.id, []);
    expect(lastError(w, gm)).toBe('Only monsters check morale.');
    await w.combat.delete();
    await idle(w);
    await press(w, gm, rollMorale, w.actors.orc1.id, []);
    expect(lastError(w, gm)).toBe('Orc 1 is in no combat: morale is checked in a combat (add the token to one).');
  });
});
