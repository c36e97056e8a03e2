/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 29, deliver 1 (the tracker's side): "The tracker collapses identical
 * monsters with the same state into one row that opens to its members,
 * declared or not". Identical: tokens of one actor (a GM dragging one orc
 * several times: unlinked tokens), or actors imported from one compendium
 * stat block (`_stats.compendiumSource`). The collapsed row keeps its first
 * member's controls; its disclosure opens it to each member's own row with
 * that member's controls, and the tracker remembers it open across renders.
 */
import { describe, expect, it } from 'vitest';
import { g, idle, makeWorld, type World } from './world';
import { monsterData } from './fixtures';
import { buttonsOf, text } from './tracker-driver';
import { requestDeclaration } from '../../src/documents/queries';

/** The world's party and orcs, and three more tokens of Orc 1's actor (unlinked), two gnolls from one stat block. */
async function table(generation: 13 | 14): Promise<World & { more: string[]; gnolls: string[] }> {
  const w = await makeWorld(generation, 'segment-d6');
  const source = 'Compendium.world.monsters.Actor.gnoll0000000000';
  const [gnollA, gnollB] = await g.Actor.create([
    { ...monsterData('Gnoll'), _stats: { compendiumSource: source } },
    { ...monsterData('Gnoll'), _stats: { compendiumSource: source } },
  ]);
  const tokens = await w.scene.createEmbeddedDocuments('Token', [
    ...[3, 4, 5].map((n) => ({ name: `Orc ${n}`, actorId: w.actors.orc1.id, actorLink: false, x: 400, y: 100 * n, disposition: -1 })),
    { name: 'Gnoll 1', actorId: gnollA.id, actorLink: true, x: 500, y: 0, disposition: -1 },
    { name: 'Gnoll 2', actorId: gnollB.id, actorLink: true, x: 500, y: 100, disposition: -1 },
  ]);
  const created = (await w.combat.createEmbeddedDocuments('Combatant', tokens.map((t: any) => ({ tokenId: t.id, sceneId: w.scene.id, actorId: t.actorId })) as never)) as any[];
  await w.foundry.settle();
  w.foundry.dice.push(4, 5); // surprise: nobody
  await w.combat.startCombat();
  await idle(w);
  return { ...w, more: created.slice(0, 3).map((c) => c.id), gnolls: created.slice(3).map((c) => c.id) };
}

/** The GM's tracker, kept (its opened rows are its own), and its rendered rows part. */
async function tracker(w: World) {
  return w.foundry.client(w.foundry.users.gm).run(async () => {
    const app = new g.CONFIG.ui.combat();
    await app.render({ combat: g.game.combats.get(w.combat.id) });
    return app;
  });
}
const html = (app: any): string => app.partHTML.tracker;
/** The collapsed rows' <li>s (class ts-group) and the members' lists that follow them. */
const groups = (h: string) => [...h.matchAll(/<li class="[^"]*ts-group[^"]*"[^>]*data-combatant-ids="([^"]+)"/g)].map((m) => m[1]);
const membersList = (h: string, key: string) => {
  const start = h.indexOf(`<li class="ts-members" data-group-key="${key}"`);
  expect(start, `members of ${key}`).toBeGreaterThanOrEqual(0);
  return h.slice(start, h.indexOf('</ol></li>', start) + 10);
};

describe.each([13, 14] as const)('identical monsters in one row, generation %i', (generation) => {
  it('four tokens of one orc actor, undeclared, are one row "Orc ×4"; the gnolls of one stat block another; opened, each member\'s own row with its own Declare; a member declared leaves the row', async () => {
    const w = await table(generation);
    const { gm } = w.foundry.users;
    const orcs = [w.ids.orc1, ...w.more];
    const app = await tracker(w);
    let h = html(app);
    expect(groups(h)).toEqual([orcs.join(' '), w.gnolls.join(' ')]);
    const ts = app.partContexts.tracker.ts;
    const orcRow = ts.sides.flatMap((s: any) => s.rows).find((r: any) => r.ids === orcs.join(' '));
    expect([orcRow.name, orcRow.count, orcRow.declaration.text]).toEqual(['Orc', 4, 'not declared yet']);
    expect(text(h)).toContain('Orc ×4');
    // Closed: the members' list is hidden; the row's own controls are its first member's (as the "×N" row had).
    expect(membersList(h, orcRow.key)).toMatch(/^<li class="ts-members" data-group-key="[^"]+" hidden>/);
    const rowButtons = buttonsOf(h.slice(h.indexOf(`data-combatant-ids="${orcs.join(' ')}"`) - 200, h.indexOf(`<li class="ts-members" data-group-key="${orcRow.key}"`)));
    expect(rowButtons.filter((b) => b.action === 'declare').map((b) => b.combatantId)).toEqual([w.ids.orc1]);
    expect(rowButtons.some((b) => b.action === 'toggleGroup' && b.data.groupKey === orcRow.key && b.label === 'Show each of the 4')).toBe(true);

    // The disclosure, as core calls a tracker action: opened, and it stays open when the tracker is drawn again.
    await w.foundry.client(gm).run(async () => {
      const handler = app.options.actions.toggleGroup;
      await (typeof handler === 'function' ? handler : handler.handler).call(app, { preventDefault() {} }, { dataset: { groupKey: orcRow.key } });
    });
    await w.foundry.client(gm).run(() => app.render({ combat: g.game.combats.get(w.combat.id) }));
    h = html(app);
    const list = membersList(h, orcRow.key);
    expect(list).toMatch(/^<li class="ts-members" data-group-key="[^"]+">/);
    expect(text(list)).toMatch(/Orc 1 .*Orc 3 .*Orc 4 .*Orc 5 /);
    expect(buttonsOf(list).filter((b) => b.action === 'declare').map((b) => b.combatantId)).toEqual(orcs);
    expect(h).toContain('aria-label="Show the 4 as one row again"');

    // Orc 3 declared: its state differs, so it has its own row; the other three stay one row, still open.
    await requestDeclaration(w.combat, w.more[0], { action: 'melee', target: w.ids.brand });
    await idle(w);
    await w.foundry.client(gm).run(() => app.render({ combat: g.game.combats.get(w.combat.id) }));
    h = html(app);
    const rest = [w.ids.orc1, w.more[1], w.more[2]].join(' ');
    expect(groups(h)).toEqual([rest, w.gnolls.join(' ')]);
    const restRow = app.partContexts.tracker.ts.sides.flatMap((s: any) => s.rows).find((r: any) => r.ids === rest);
    expect(restRow.open).toBe(true);
    expect(h).toMatch(new RegExp(`<li class="[^"]*ts-row[^"]*"[^>]*data-combatant-id="${w.more[0]}" data-combatant-ids="${w.more[0]}"`));
  });
});
