/**
 * The combat tracker (src/apps/tracker/combat-tracker.ts) on the GM's and the
 * players' clients of the test world: what each prepares for its parts (the
 * stand-in's partContexts) and the HTML our templates make of it (compiled
 * here with the handlebars package, as core would render them): the current
 * step, who acts, an interrupted spell, the surprised side; a player sees no
 * monster's declaration, no exact health of the orcs, no hidden combatant;
 * the context menu's entries in each generation's shape.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it, vi } from 'vitest';
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { g, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { TenSegmentsCombatTracker } from '../../src/apps/tracker/combat-tracker';
import type { TrackerContext } from '../../src/apps/tracker/tracker-view';

const menuRuns: string[] = [];
vi.mock('../../src/apps/tracker/controls', async (original) => {
  const real = await original<typeof import('../../src/apps/tracker/controls')>();
  return {
    ...real,
    // One entry of ours, to see it reach core's menu in the generation's shape with the row's combatant.
    combatantMenu: () => [{ label: 'Test entry', icon: 'fa-solid fa-flask', visible: (_combat: unknown, id: string) => id !== '', run: (_combat: unknown, id: string) => void menuRuns.push(id) }],
    rowControls: (_input: unknown, id: string) => [{ action: 'declare', icon: 'fa-solid fa-scroll', label: 'Declare', data: { 'combatant-id': id } }],
  };
});

/** Our templates, compiled as core compiles a part's template (only built-in helpers and localize). */
const hbs = Handlebars.create();
hbs.registerHelper('localize', (key: string) => g.game.i18n.localize(key));
const part = (name: string) => hbs.compile(readFileSync(`templates/tracker/${name}.hbs`, 'utf8'), { strict: false, knownHelpers: { localize: true }, knownHelpersOnly: true });
const TEMPLATES = { header: part('header'), tracker: part('tracker'), footer: part('footer') };

interface Drawn {
  ts: TrackerContext;
  parts: Record<string, any>;
  html: string;
  tracker: any;
}

/** The tracker drawn on a user's client, viewing the world's combat. */
async function draw(w: World, user: any): Promise<Drawn> {
  return w.foundry.client(user).run(async () => {
    const tracker = new g.CONFIG.ui.combat();
    await tracker.render({ combat: g.game.combats.get(w.combat.id) });
    const parts = tracker.partContexts;
    const html = (['header', 'tracker', 'footer'] as const).map((p) => TEMPLATES[p](parts[p])).join('\n');
    return { ts: parts.tracker.ts, parts, html, tracker };
  });
}

const rowOf = (d: Drawn, name: string) => d.ts.sides.flatMap((s) => s.rows).find((r) => r.name === name);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

describe.each([13, 14] as const)('the combat tracker, generation %i', (generation) => {
  it('is CONFIG.ui.combat, with our parts and core actions beside ours; before the start it shows the sides as they stand', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    expect(g.CONFIG.ui.combat).toBe(TenSegmentsCombatTracker);
    expect(Object.values(TenSegmentsCombatTracker.PARTS as Record<string, { template: string }>).map((p) => p.template)).toEqual([
      'systems/ten-segments/templates/tracker/header.hbs',
      'systems/ten-segments/templates/tracker/tracker.hbs',
      'systems/ten-segments/templates/tracker/footer.hbs',
    ]);
    const gm = await draw(w, w.foundry.users.gm);
    expect(gm.tracker.options.actions).toHaveProperty('nextStep');
    expect(gm.tracker.options.classes).toContain('ten-segments');
    expect(gm.ts.started).toBe(false);
    expect(gm.ts.sides.map((s) => [s.name, s.rows.map((r) => r.name)])).toEqual([
      ['Friendly', ['Halvaine', 'Brand']],
      ['Hostile', ['Orc 1', 'Orc 2']],
    ]);
    expect(text(gm.html)).toContain('Before the combat');
    expect(text(gm.html)).toContain('The combat has not started');
    expect(gm.html).toContain(`data-combatant-id="${w.ids.orc1}"`);
    // One way to start, for the GM only: "Roll surprise and start" (the surprise dialog); core's Begin is not offered (End once started).
    expect(gm.html).not.toContain('data-action="startCombat"');
    expect(gm.html).toMatch(/<button[^>]*data-action="rollSurprise"[^>]*aria-label="Roll surprise and start"/);
    const theirs = (await draw(w, w.foundry.users.player)).html;
    expect(theirs).not.toContain('class="combat-control"');
    expect(theirs).not.toContain('data-action="rollSurprise"');
    // Every part gets it (header, tracker, footer).
    expect(gm.parts.header.ts.title).toBe('Before the combat');
  });

  it('the surprise segment: the current step, who begins casting, the surprised side; a hidden orc is not on a player\'s tracker at all', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { gm, player, player2 } = foundry.users;
    foundry.dice.push(5, 1); // the party 5, the orcs 1: one surprise segment for the orcs
    await combat.startCombat();
    await combat.combatants.get(ids.orc2)!.update({ hidden: true });
    await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id, target: ids.orc1 }));
    await foundry.settle();

    // Declarations: the player sees Halvaine's spell and Brand not declared yet.
    const declaring = await draw(w, player);
    expect(declaring.ts.title).toBe('Surprise segments');
    expect(rowOf(declaring, 'Halvaine')!.declaration).toMatchObject({ icon: 'fa-solid fa-wand-sparkles', text: 'casts a spell', detail: 'Sleep (2 segments)' });
    expect(rowOf(declaring, 'Brand')!.declaration?.text).toBe('not declared yet');
    expect(declaring.html).toContain('ts-declaration pending');

    await combat.rollInitiative();
    await foundry.settle();
    const mine = await draw(w, gm);
    expect(mine.ts.currentLabel).toBe('Surprise segment 1');
    const current = mine.ts.columns.flatMap((c) => c.steps).filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0].entries.map((e) => [e.name, e.text])).toEqual([['Halvaine', 'begins casting Sleep']]);
    expect(mine.html).toMatch(/class="ts-step current surprise"[^>]*aria-current="step"/);
    const hostile = mine.ts.sides.find((s) => s.name === 'Hostile')!;
    expect(hostile.tags.map((t) => t.text)).toContain('2 still surprised');
    expect(hostile.css).toContain('surprised');
    expect(hostile.dice).toEqual([{ label: 'Surprise', value: '1' }]);
    expect(rowOf(mine, 'Orc 2')).toBeDefined(); // the GM sees the hidden orc

    for (const user of [player, player2]) {
      const theirs = await draw(w, user);
      expect(theirs.ts.sides.find((s) => s.name === 'Hostile')!.tags.map((t) => t.text)).toContain('1 still surprised');
      expect(rowOf(theirs, 'Orc 2')).toBeUndefined();
      expect(theirs.html).not.toContain('Orc 2');
      expect(theirs.html).not.toContain(ids.orc2);
      expect(text(theirs.html)).toContain('Halvaine begins casting Sleep'); // the step played is everyone's
      expect(theirs.html).toMatch(new RegExp(`class="combatant ts-row surprised[^"]*" data-action="activateCombatant" data-combatant-id="${ids.orc1}"`));
    }
  });

  it('a hit spoils the spell in segment 5: the GM sees the interruption and the damage; player 2 sees them too, but no orc\'s declaration or exact health', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { combat, foundry, ids } = w;
    const { gm, player, player2 } = foundry.users;
    foundry.dice.push(4, 5); // nobody surprised
    await combat.startCombat();
    await foundry.asUser(player, () => requestDeclaration(combat, ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await foundry.asUser(player2, () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: w.sword.id, target: ids.orc1 }));
    await requestDeclaration(combat, ids.orc1, { action: 'melee', target: ids.halvaine });
    await requestDeclaration(combat, ids.orc2, { action: 'melee', target: ids.brand });
    await foundry.settle();

    // The GM's plans for the orcs are on the GM's tracker only, before initiative.
    const planned = await draw(w, gm);
    // Marked held, with the target the GM chose (README: "the GM's held plans, shown to the GM marked held").
    expect(rowOf(planned, 'Orc 1')!.declaration).toMatchObject({ text: 'held plan: attacks in melee', detail: '→ Halvaine', css: 'ts-declaration action-melee held' });
    expect(text(planned.html)).toContain('held plan: attacks in melee → Halvaine');
    const waiting = await draw(w, player2);
    expect(rowOf(waiting, 'Orc 1')!.declaration?.text).toBe('not declared yet');
    expect(waiting.html).not.toContain('held plan');
    expect(text(waiting.html)).not.toContain('→ Halvaine');

    foundry.dice.push(5, 4); // the party 5, the orcs 4: the party in segment 4, the orcs in 5
    await combat.rollInitiative();
    await combat.nextTurn(); // segment 5
    foundry.dice.push(18, 3);
    expect(await requestAttack(combat, { attackerId: ids.orc1, targetId: ids.halvaine })).toMatchObject({ ok: true, hit: true, damage: 3 });
    await foundry.settle();

    const mine = await draw(w, gm);
    expect(mine.ts.title).toBe('Round 1');
    expect(mine.ts.currentLabel).toBe('Segment 5');
    expect(mine.ts.columns.map((c) => c.label)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `Segment ${n}`));
    expect(mine.ts.columns.map((c) => c.css)).toEqual(['ts-column empty', 'ts-column empty', 'ts-column empty', 'ts-column', 'ts-column current', 'ts-column', 'ts-column empty', 'ts-column empty', 'ts-column empty', 'ts-column empty']);
    const five = mine.ts.columns[4].steps[0];
    expect(five.entries.map((e) => [e.name, e.text, e.detail])).toEqual([
      ['Orc 1', 'attacks in melee', '→ Halvaine'],
      ['Orc 2', 'attacks in melee', '→ Brand'],
    ]);
    expect(five.events.map((e) => e.text)).toEqual(["Halvaine's Sleep is interrupted", 'Halvaine takes 3 from Orc 1']);
    // Segment 6: where Sleep would have gone off, still to come.
    expect(mine.ts.columns[5].steps[0].css).toBe('ts-step next');
    const four = mine.ts.columns[3].steps[0];
    expect(four.entries.map((e) => [e.name, e.text, e.detail])).toEqual([
      ['Halvaine', 'begins casting Sleep', '2 segments'],
      ['Brand', 'attacks in melee', 'Long sword → Orc 1'],
    ]);
    expect(mine.ts.sides.map((s) => [s.name, s.dice, s.tags.map((t) => t.text)])).toEqual([
      ['Friendly', [{ label: 'Surprise', value: '4' }, { label: 'Initiative', value: '5' }], ['won initiative']],
      ['Hostile', [{ label: 'Surprise', value: '5' }, { label: 'Initiative', value: '4' }], []],
    ]);
    expect(mine.ts.initiative).toBe('Friendly won the initiative');
    expect(rowOf(mine, 'Halvaine')!.health).toEqual([{ exact: true, text: '9/12', pct: 75, css: 'ts-health exact high' }]);
    expect(rowOf(mine, 'Orc 1')!.health[0]).toMatchObject({ exact: true, text: '6/6' });
    expect(rowOf(mine, 'Orc 1')!.declaration?.detail).toBe('');
    const html = text(mine.html);
    expect(html).toContain("Halvaine's Sleep is interrupted");
    expect(mine.html).toContain('class="ts-entry kind-action outcome-acts"');
    expect(mine.html).toContain('class="ts-step current"');
    expect(mine.html).toContain('data-action="nextStep"');
    // Row buttons as the brief draws them.
    expect(mine.html).toContain(`<button type="button" class="ts-control" data-action="declare" data-tooltip="Declare" aria-label="Declare"  data-combatant-id="${ids.brand}" ><i class="fa-solid fa-scroll"></i></button>`);

    const theirs = await draw(w, player2);
    expect(theirs.ts.columns[4].steps[0].events.map((e) => e.text)).toEqual(["Halvaine's Sleep is interrupted", 'Halvaine takes 3 from Orc 1']);
    expect(rowOf(theirs, 'Orc 1')!.health).toEqual([{ exact: false, text: 'fighting', css: 'ts-health word ok' }]);
    expect(rowOf(theirs, 'Orc 1')!.declaration?.text).toBe('declared'); // that it declared, not what
    expect(rowOf(theirs, 'Brand')!.declaration).toMatchObject({ text: 'attacks in melee', detail: 'Long sword' });
    expect(rowOf(theirs, 'Halvaine')!.health[0].text).toBe('9/12'); // their own side: exact
    expect(theirs.html).not.toContain('6/6');
    expect(theirs.html).not.toContain('data-action="nextStep"');
    expect(theirs.html).not.toContain('endCombat');
    expect(mine.html).toContain('class="combat-control" data-action="endCombat"');
  });

  it('context menu: our entries in the shape of the generation, run with the row\'s combatant', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { tracker } = await draw(w, w.foundry.users.gm);
    const entries = tracker._getEntryContextOptions();
    const ours = entries.find((e: any) => (e.label ?? e.name) === 'Test entry');
    if (generation >= 14) {
      expect(Object.keys(ours).sort()).toEqual(['icon', 'label', 'onClick', 'visible']);
      expect(ours.icon).toBe('fa-solid fa-flask'); // v14: a class name
    } else {
      expect(Object.keys(ours).sort()).toEqual(['callback', 'condition', 'icon', 'name']);
      expect(ours.icon).toBe('<i class="fa-solid fa-flask"></i>'); // v13: inserted as HTML
    }
    const menu = w.foundry.contextMenu(entries);
    const row = { dataset: { combatantId: w.ids.orc1 }, closest: () => null };
    expect(menu.visibleLabels(row)).toContain('Test entry');
    menuRuns.length = 0;
    await menu.click('Test entry', row);
    expect(menuRuns).toEqual([w.ids.orc1]);
    expect(w.foundry.deprecations).toEqual([]);
  });
});
