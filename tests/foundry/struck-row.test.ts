/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 28, deliver 1, in the tracker: "A combatant who cannot act has its
 * declaration struck with the reason ('routed', 'dead') in the timeline and
 * the tracker". The engine decides (src/rules/flow/acting.ts, rules revision
 * 5); the tracker draws the row's declaration and the combatant's entries of
 * steps to come struck through, with the reason in words (TENSEG.CannotAct.*).
 *
 * Seeds: 000 "a goblin killed in the first segment of the round will be dead
 * (and thus unable to attack) by the time the fifth segment of the round
 * arrives"; 002, Withdrawal Tactics, "Flee in panic" (a routed combatant may
 * only flee: the RULING of acting.ts).
 */
import { describe, expect, it } from 'vitest';
import { makeWorld, idle, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { draw, press, text } from './tracker-driver';

/** The row of a combatant in the rendered HTML (its <li> … </li>). */
function rowHtml(html: string, id: string): string {
  const start = html.search(new RegExp(`<li class="[^"]*ts-row[^"]*"[^>]*data-combatant-id="${id}"`));
  expect(start, `row of ${id}`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</li>', start) + 5);
}
/** The timeline's entries of a combatant (each <li class="ts-entry …">). */
function entriesHtml(html: string, id: string): string[] {
  return [...html.matchAll(new RegExp(`<li class="ts-entry[^"]*" data-combatant-id="${id}">.*?</li>`, 'gs'))].map((m) => m[0]);
}

async function fight(generation: 13 | 14): Promise<World> {
  const w = await makeWorld(generation, 'segment-d6');
  w.foundry.dice.push(4, 5); // surprise: nobody
  await w.combat.startCombat();
  await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
  await requestDeclaration(w.combat, w.ids.orc2, { action: 'melee', target: w.ids.brand });
  await requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc2 });
  w.foundry.dice.push(6, 1); // initiative: the party acts in segment 1, the orcs in segment 6
  await w.combat.rollInitiative();
  await idle(w);
  return w;
}

describe.each([13, 14] as const)('a struck declaration in the tracker, generation %i', (generation) => {
  it('the GM\'s tracker: a routed orc\'s attack struck through with "routed: may only flee", a dead orc\'s with "dead"; their entries to come too', async () => {
    const w = await fight(generation);
    const { gm } = w.foundry.users;
    const before = await draw(w, gm);
    expect(rowHtml(before.html, w.ids.orc2)).not.toContain('<s>');
    w.foundry.dice.push(4, 5); // 9 on 2d6, over Orc 2's morale 8: routed
    await press(w, gm, 'moraleOne', w.ids.orc2);
    await w.actors.orc1.update({ 'system.hp.value': -20 });
    await idle(w);
    expect(w.combat.flowState!.states[w.ids.orc1].condition).toBe('dead');
    const { html } = await draw(w, gm);
    const orc2 = rowHtml(html, w.ids.orc2);
    expect(orc2).toContain('ts-declaration action-melee struck');
    expect(text(orc2)).toContain("attacks in melee routed: may only flee");
    expect(orc2).toMatch(/<s>attacks in melee<\/s>/);
    const orc1 = rowHtml(html, w.ids.orc1);
    expect(orc1).toMatch(/<s>attacks in melee<\/s> <span class="ts-struck-reason">dead<\/span>/);
    // Brand still acts: nothing struck on his row.
    expect(rowHtml(html, w.ids.brand)).not.toContain('struck');
    // Segment 6: each orc's attack to come, struck with its reason.
    const [e1] = entriesHtml(html, w.ids.orc1);
    const [e2] = entriesHtml(html, w.ids.orc2);
    expect(e1).toContain('ts-entry kind-action struck');
    expect(text(e1)).toContain('attacks in melee → Brand');
    expect(e1).toMatch(/<span class="ts-struck-reason">dead<\/span>/);
    expect(e2).toMatch(/<span class="ts-struck-reason">routed: may only flee<\/span>/);
  });

  it('a player\'s tracker: the dead orc\'s hidden declaration struck with "dead"; the routed orc\'s is not guessed at (it may be flight)', async () => {
    const w = await fight(generation);
    const { gm, player } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await press(w, gm, 'moraleOne', w.ids.orc2);
    await w.actors.orc1.update({ 'system.hp.value': -20 });
    await idle(w);
    const { html } = await draw(w, player);
    expect(rowHtml(html, w.ids.orc1)).toMatch(/<s>declared<\/s> <span class="ts-struck-reason">dead<\/span>/);
    const orc2 = rowHtml(html, w.ids.orc2);
    expect(orc2).not.toContain('<s>');
    expect(text(orc2)).toContain('Routed');
  });

  it('a routed orc that declares flight: its flight stands, not struck', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await requestDeclaration(w.combat, w.ids.orc2, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    w.foundry.dice.push(4, 5);
    await press(w, gm, 'moraleOne', w.ids.orc2);
    for (let i = 0; i < 30 && w.combat.flowState!.stage !== 'end-of-round'; i++) await w.combat.nextTurn();
    await w.combat.nextTurn(); // round 2's declarations
    await idle(w);
    expect(w.combat.flowState!).toMatchObject({ round: 2, stage: 'declare' });
    expect(await requestDeclaration(w.combat, w.ids.orc2, { action: "flee" })).toMatchObject({ ok: true });
    await idle(w);
    const orc2 = rowHtml((await draw(w, gm)).html, w.ids.orc2);
    expect(orc2).toContain('ts-declaration action-flee');
    expect(orc2).not.toContain('struck');
  });
});
