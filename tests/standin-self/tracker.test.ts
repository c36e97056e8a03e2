/**
 * The stand-in's CombatTracker held to core's (issue 25, v13 build 13.350;
 * the v13/v14 typings and API pages): its combatant context menu is built
 * once, at the first render, from `_getEntryContextOptions()` and bound to
 * the `.combatant` rows; a menu entry's icon is drawn as each generation
 * inserts it (v13: HTML, so a bare class string shows as text; v14: a class
 * name); `_onRender` needs the `.combat-tracker` element, and a render during
 * a turn change without one throws.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';
import { parseHTML } from '../standin/html';

const g = globalThis as any;
const T = 'systems/ten-segments/tests/standin-self/templates';

describe.each([13, 14] as const)('the combat tracker as core builds it, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let combat: any;

  beforeEach(async () => {
    foundry = installFoundry({ generation });
    const actors = await g.Actor.create([
      { name: 'Orc', type: 'base' },
      { name: 'Goblin', type: 'base' },
    ]);
    const scene = await g.Scene.create({ name: 'Keep', active: true });
    const tokens = await scene.createEmbeddedDocuments('Token', [
      { name: 'Orc', actorId: actors[0].id, actorLink: true, x: 0, y: 0 },
      { name: 'Goblin', actorId: actors[1].id, actorLink: true, x: 100, y: 0 },
    ]);
    combat = await g.Combat.create({ scene: scene.id, active: true });
    await combat.createEmbeddedDocuments(
      'Combatant',
      tokens.map((t: any, i: number) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId, initiative: [18, 5][i] })),
    );
  });

  /** An entry in the running generation's shape, its icon as given. */
  const entry = (label: string, icon: string, onRun: (target: any) => void = () => undefined) =>
    generation === 13 ? { name: label, icon, condition: () => true, callback: (li: any) => onRun(li) } : { label, icon, visible: () => true, onClick: (_e: any, li: any) => onRun(li) };

  it('builds the combatant menu once, at the first render, from _getEntryContextOptions, bound to `.combatant`', async () => {
    const Core = g.foundry.applications.sidebar.tabs.CombatTracker;
    const calls: (string | null)[] = [];
    class Counting extends Core {
      _getEntryContextOptions() {
        calls.push(this.viewed?.id ?? null);
        return [...super._getEntryContextOptions(), entry('Ours', generation === 13 ? '<i class="fa-solid fa-flask"></i>' : 'fa-solid fa-flask')];
      }
    }
    const tracker = new Counting();
    expect(tracker.contextMenus).toEqual([]);
    await tracker.render({ combat: null });
    expect(calls).toEqual([null]); // at the first render, with what was viewed then
    const [menu] = tracker.contextMenus;
    expect(tracker.contextMenus).toHaveLength(1);
    expect(menu.selector).toBe('.combatant');

    // Later renders, a combat viewed, a turn change: the same menu, the handler never called again.
    await tracker.render({ combat });
    await combat.startCombat();
    await tracker.renderSettled();
    expect(calls).toEqual([null]);
    expect(tracker.contextMenus).toEqual([menu]);

    // The right-click target is the `.combatant` row (its closest match of the selector).
    const rows = parseHTML(tracker.partHTML.tracker);
    const name = rows.find((n) => n.classes().includes('name'))!;
    const target = menu.targetOf(name);
    expect(target.dataset.combatantId).toBe(combat.turns[0].id);
    expect(menu.visibleLabels(target)).toEqual(['Ours']);
    expect(menu.targetOf(rows.find((n) => n.classes().includes('combat-tracker')))).toBeNull();

    // A closed tracker's next render is a first render again: a new menu.
    await tracker.close();
    expect(tracker.contextMenus).toEqual([]);
    await tracker.render({ combat });
    expect(calls).toEqual([null, combat.id]);
    expect(tracker.contextMenus).toHaveLength(1);
    expect(foundry.errors).toEqual([]);
  });

  it('core\'s tracker with no entries of its own makes no menu; _onFirstRender runs before _onRender, once', async () => {
    const Core = g.foundry.applications.sidebar.tabs.CombatTracker;
    const order: string[] = [];
    class Ordered extends Core {
      async _onFirstRender(context: any, options: any) {
        order.push(`first ${options.isFirstRender}`);
        await super._onFirstRender(context, options);
      }
      async _onRender(context: any, options: any) {
        order.push(`render ${options.isFirstRender}`);
        await super._onRender(context, options);
      }
    }
    const tracker = new Ordered();
    await tracker.render({ combat });
    await tracker.render();
    expect(order).toEqual(['first true', 'render true', 'render false']);
    expect(tracker.contextMenus).toEqual([]); // "null if no menu items were defined"
  });

  it(generation === 13 ? 'v13 inserts an entry\'s icon as HTML: a bare class string shows as text' : 'v14 takes an entry\'s icon as a class name (a full element also read)', async () => {
    const menu = foundry.contextMenu([entry('COMBAT.Html', '<i class="fa-solid fa-scroll"></i>'), entry('COMBAT.Bare', 'fa-solid fa-scroll')]);
    const shown = menu.shown({ dataset: {} });
    expect(shown[0]).toEqual({ label: 'COMBAT.Html', icon: 'fa-solid fa-scroll', text: 'COMBAT.Html' });
    if (generation === 13) expect(shown[1]).toEqual({ label: 'COMBAT.Bare', icon: null, text: 'fa-solid fa-scroll COMBAT.Bare' });
    else expect(shown[1]).toEqual({ label: 'COMBAT.Bare', icon: 'fa-solid fa-scroll', text: 'COMBAT.Bare' });
  });

  it('_onRender needs the .combat-tracker element: without it a render during a turn change fails', async () => {
    const Core = g.foundry.applications.sidebar.tabs.CombatTracker;
    class WithoutList extends Core {
      static PARTS = { ...Core.PARTS, tracker: { template: `${T}/tracker-without-list.hbs` } };
    }
    // Core's own template has it: a turn change renders cleanly.
    await g.ui.combat.render({ combat });
    await combat.startCombat();
    await g.ui.combat.renderSettled();
    expect(foundry.errors).toEqual([]);

    const tracker = new WithoutList();
    await expect(tracker.render({ combat })).rejects.toThrow(/no \.combat-tracker element/);
    const renders = tracker.renderCount;
    await combat.nextTurn(); // the combat re-renders the tracker viewing it; core logs the failure
    await tracker.renderSettled();
    await foundry.settle();
    expect(tracker.renderCount).toBe(renders + 1);
    expect(foundry.errors.map((e: any) => `${e.location}: ${e.error.message}`)).toEqual([expect.stringMatching(/^WithoutList#render: .*no \.combat-tracker element/)]);
  });
});
