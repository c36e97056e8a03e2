/**
 * The tracker's combatant context menu in a world loaded with no encounter,
 * as core builds it (issue 25): once, at the tracker's first render, from
 * `_getEntryContextOptions()` (stand-in: CombatTracker#_onFirstRender). The
 * system's entries are there from that render on, and each finds its combat
 * and combatant when it is tested or clicked: the combat viewed at that
 * moment and the row's `data-combatant-id`. So a combat created after the
 * load, then a second one viewed, get the entries acting on them. Each
 * entry's icon is in the shape its generation draws (v13 HTML, v14 a class
 * name). And the tracker keeps core's `.combat-tracker` element with no side
 * drawn (core's _onRender reads it on a turn change).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { afterEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';
import { parseHTML } from '../standin/html';
import { initSystem, readySystem } from '../../src/system';
import { SCHEMA_VERSION } from '../../src/documents/schema-version';
import { declarationOpener } from '../../src/apps/tracker/actions';
import { characterData, monsterData } from './fixtures';
import { g, idle, makeWorld, type World } from './world';

interface Loaded {
  foundry: FoundryHandle;
  scene: any;
  /** Token ids by actor key. */
  tokens: { halvaine: any; brand: any; orc1: any; orc2: any };
}

/** The test world's party and orcs on the map, no encounter; every client loaded (ready: the system renders its tracker). */
async function loadWithoutCombat(generation: 13 | 14): Promise<Loaded> {
  const foundry = installFoundry({ generation, lang: 'lang/en.json', systemId: 'ten-segments' });
  foundry.everyClient(initSystem);
  // At ready the system does what src/index.ts has it do (its tracker's first render, with nothing to view).
  foundry.everyClient(() => void g.Hooks.once('ready', () => readySystem()));
  await g.game.settings.set('ten-segments', 'procedure', 'segment-d6');
  await g.game.settings.set('ten-segments', 'schemaVersion', SCHEMA_VERSION);
  const { OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
  const p1 = foundry.users.player.id;
  const p2 = foundry.users.player2.id;
  const [halvaine, brand, orc1, orc2] = await g.Actor.create([
    characterData('Halvaine', p1, p2, { OWNER, OBSERVER }),
    characterData('Brand', p2, p1, { OWNER, OBSERVER }),
    monsterData('Orc 1'),
    monsterData('Orc 2'),
  ]);
  const scene = await g.Scene.create({ name: 'Keep', active: true });
  const [t1, t2, t3, t4] = await scene.createEmbeddedDocuments('Token', [
    { name: 'Halvaine', actorId: halvaine.id, actorLink: true, x: 0, y: 0, disposition: 1 },
    { name: 'Brand', actorId: brand.id, actorLink: true, x: 100, y: 0, disposition: 1 },
    { name: 'Orc 1', actorId: orc1.id, actorLink: true, x: 300, y: 0, disposition: -1 },
    { name: 'Orc 2', actorId: orc2.id, actorLink: true, x: 300, y: 100, disposition: -1 },
  ]);
  await foundry.boot();
  await foundry.settle();
  for (const client of foundry.clients()) await client.run(() => g.ui.combat.renderSettled());
  return { foundry, scene, tokens: { halvaine: t1, brand: t2, orc1: t3, orc2: t4 } };
}

/** The GM makes an encounter of these tokens (the system sorts them into sides); started after `surprise` dice when given. */
async function encounter(l: Loaded, tokens: any[], surprise?: number[]): Promise<{ combat: any; ids: Record<string, string> }> {
  const combat = await g.Combat.create({ scene: l.scene.id });
  const created = await combat.createEmbeddedDocuments(
    'Combatant',
    tokens.map((t) => ({ tokenId: t.id, sceneId: l.scene.id, actorId: t.actorId })),
  );
  await idle(l);
  if (surprise) {
    l.foundry.dice.push(...surprise);
    await combat.startCombat();
    await idle(l);
  }
  return { combat, ids: Object.fromEntries(created.map((c: any) => [c.name, c.id])) };
}

/** A user's tracker viewing this combat (ui.combat, rendered again with it, as the encounter switcher does). */
async function view(l: Loaded, user: any, combatId: string): Promise<void> {
  await l.foundry.client(user).run(async () => {
    await g.ui.combat.render({ combat: g.game.combats.get(combatId) });
  });
}

/**
 * The combatant menu of a user's tracker (ui.combat unless given), opened on a
 * row's name: the target core hands the entries is the `.combatant` row.
 */
function menuOn(l: { foundry: FoundryHandle }, user: any, combatantId: string, tracker?: any) {
  return l.foundry.client(user).run(() => {
    const app = tracker ?? g.ui.combat;
    const menus = app.contextMenus.filter((m: any) => m.selector === '.combatant');
    expect(menus, 'one combatant menu, built at the first render').toHaveLength(1);
    const [menu] = menus;
    const row = parseHTML(app.partHTML.tracker).find((n) => n.classes().includes('ts-row') && n.dataset.combatantId === combatantId);
    expect(row, `the row of ${combatantId}`).toBeDefined();
    const target = menu.targetOf(row!.querySelector('.ts-name'));
    expect(target).toBe(row);
    return {
      menu,
      labels: () => l.foundry.client(user).run(() => menu.visibleLabels(target)),
      shown: () => l.foundry.client(user).run(() => menu.shown(target)),
      click: (label: string) => l.foundry.client(user).run(() => menu.click(label, target)),
    };
  });
}

/** The test world (its encounter started: declaring) and a GM's tracker first drawn viewing it. */
async function trackerFirstDrawnWithEncounter(generation: 13 | 14): Promise<{ w: World; tracker: any }> {
  const w = await makeWorld(generation, 'segment-d6');
  w.foundry.dice.push(4, 5); // surprise: nobody
  await w.combat.startCombat();
  await idle(w);
  const tracker = await w.foundry.client(w.foundry.users.gm).run(async () => {
    const app = new g.CONFIG.ui.combat();
    await app.render({ combat: g.game.combats.get(w.combat.id) });
    return app;
  });
  return { w, tracker };
}

describe.each([13, 14] as const)('the tracker\'s combatant menu in a world loaded with no encounter, generation %i', (generation) => {
  const realOpen = declarationOpener.open;
  afterEach(() => {
    declarationOpener.open = realOpen;
  });

  it('the entries are there once an encounter is viewed and act on it; a second encounter viewed, on that one', async () => {
    const l = await loadWithoutCombat(generation);
    const { gm, player } = l.foundry.users;
    for (const client of l.foundry.clients()) {
      expect(await client.run(() => [g.ui.combat.rendered, g.ui.combat.viewed])).toEqual([true, null]);
    }
    const opened: [string, string, string][] = [];
    declarationOpener.open = async (combat, combatantId, options) => {
      opened.push([combat.id as string, combatantId, options.mode]);
    };

    const first = await encounter(l, [l.tokens.halvaine, l.tokens.brand, l.tokens.orc1, l.tokens.orc2], [4, 5]);
    await view(l, gm, first.combat.id);
    await view(l, player, first.combat.id);
    const gmOrc = await menuOn(l, gm, first.ids['Orc 1']);
    expect(await gmOrc.labels()).toEqual(['Declare', 'Declare for all like this one', 'Morale check', 'Apply damage or healing…']);
    await gmOrc.click('Declare');
    const playerHalvaine = await menuOn(l, player, first.ids.Halvaine);
    expect(await playerHalvaine.labels()).toEqual(['Declare']);
    expect(await (await menuOn(l, player, first.ids['Orc 1'])).labels()).toEqual([]);
    await playerHalvaine.click('Declare');
    expect(opened).toEqual([
      [first.combat.id, first.ids['Orc 1'], 'declare'],
      [first.combat.id, first.ids.Halvaine, 'declare'],
    ]);

    // A second encounter, not started: viewed, its rows offer nothing to declare (the first one is declaring).
    const second = await encounter(l, [l.tokens.brand, l.tokens.orc2]);
    await view(l, gm, second.combat.id);
    const gmOrc2 = await menuOn(l, gm, second.ids['Orc 2']);
    expect(gmOrc2.menu).toBe(gmOrc.menu); // built once
    expect(await gmOrc2.labels()).toEqual([]);
    // Started: the entries act on it.
    l.foundry.dice.push(4, 5);
    await second.combat.startCombat();
    await idle(l);
    await view(l, gm, second.combat.id);
    expect(await gmOrc2.labels()).toEqual(['Declare', 'Declare for all like this one', 'Morale check', 'Apply damage or healing…']);
    opened.length = 0;
    await gmOrc2.click('Declare');
    expect(opened).toEqual([[second.combat.id, second.ids['Orc 2'], 'declare']]);
    // And back to the first.
    await view(l, gm, first.combat.id);
    opened.length = 0;
    await (await menuOn(l, gm, first.ids.Brand)).click('Declare');
    expect(opened).toEqual([[first.combat.id, first.ids.Brand, 'declare']]);
    expect(l.foundry.errors).toEqual([]);
    expect(l.foundry.deprecations).toEqual([]);
  });

  it('a tracker first drawn viewing an encounter: its entries follow the encounter viewed next', async () => {
    const { w, tracker } = await trackerFirstDrawnWithEncounter(generation);
    const { gm } = w.foundry.users;
    const opened: [string, string][] = [];
    declarationOpener.open = async (combat, combatantId) => {
      opened.push([combat.id as string, combatantId]);
    };
    const second = await g.Combat.create({ scene: w.scene.id });
    const [brand] = await second.createEmbeddedDocuments('Combatant', [{ tokenId: w.scene.tokens.find((t: any) => t.name === 'Brand').id, sceneId: w.scene.id, actorId: w.actors.brand.id }]);
    await idle(w);
    await tracker.render({ combat: second });
    const row = await menuOn(w, gm, brand.id, tracker);
    expect(await row.labels()).toEqual([]); // not started: nothing to declare (the first encounter is declaring)
    w.foundry.dice.push(4, 5);
    await second.startCombat();
    await idle(w);
    await tracker.render({ combat: second });
    expect(await row.labels()).toEqual(['Declare', 'Morale check', 'Apply damage or healing…']);
    await row.click('Declare');
    expect(opened).toEqual([[second.id, brand.id]]);
    expect(w.foundry.errors).toEqual([]);
  });

  it(generation === 13 ? 'v13: each entry\'s icon is an HTML icon element, not a class string shown as text' : 'v14: each entry\'s icon is a class name', async () => {
    const { w, tracker } = await trackerFirstDrawnWithEncounter(generation);
    const orc = await menuOn(w, w.foundry.users.gm, w.ids.orc1, tracker);
    const shown = await orc.shown();
    expect(shown.map((s: any) => s.label)).toEqual(['Declare', 'Declare for all like this one', 'Morale check', 'Apply damage or healing…']);
    for (const s of shown) {
      expect(s.icon).toMatch(/^fa-solid fa-[\w-]+$/);
      expect(s.text).toBe(s.label); // no class names shown as words
    }
    for (const entry of orc.menu.menuItems) {
      if (generation === 13) expect(entry.icon).toMatch(/^<i class="fa-solid fa-[\w-]+"><\/i>$/);
      else expect(entry.icon).toMatch(/^fa-solid fa-[\w-]+$/);
    }
  });

  it('a turn change with no side drawn does not fail: the tracker keeps core\'s .combat-tracker element', async () => {
    const l = await loadWithoutCombat(generation);
    const { gm } = l.foundry.users;
    // Nothing viewed at the load: rendered with no encounter.
    expect(parseHTML(await l.foundry.client(gm).run(() => g.ui.combat.partHTML.tracker)).some((n) => n.classes().includes('combat-tracker'))).toBe(true);
    // An encounter with nobody in it yet: no side to draw.
    const combat = await g.Combat.create({ scene: l.scene.id });
    await view(l, gm, combat.id);
    expect(await l.foundry.client(gm).run(() => g.ui.combat.partContexts.tracker.ts.sides)).toEqual([]);
    const renders = l.foundry.renders.count('combat');
    await combat.update({ round: 1, turn: null });
    await idle(l);
    await l.foundry.client(gm).run(() => g.ui.combat.renderSettled());
    expect(l.foundry.renders.count('combat')).toBeGreaterThan(renders);
    expect(combat.round).toBe(1);
    expect(l.foundry.errors).toEqual([]);
  });
});
