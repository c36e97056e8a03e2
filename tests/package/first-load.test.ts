/**
 * Issue 24: the built system loaded the way Foundry loads it, from `dist/`
 * alone — nothing of `src/` is imported here. The stand-in reads and
 * validates `dist/system.json` (a reserved sub-type would empty
 * `documentTypes`, as Foundry's fallback does, and the world would then
 * refuse every actor and item), loads `dist/ten-segments.js` on every
 * client, fires init, setup and ready, and indexes `dist/packs` through the
 * official packs CLI. Then a GM does what a new world sees first: one
 * document of every declared actor and item type, every sheet opened, a
 * weapon dragged from a pack onto a character, a monster and a ready
 * encounter imported from the packs, the encounter and the character on a
 * scene, a combat, and a round played from the tracker's buttons and the
 * dialogs they open (found as Foundry lists them, in
 * `foundry.applications.instances`). Nothing is logged: no error, no
 * warning, no notification of either, no deprecation, nothing on the
 * console.
 *
 * `dist/` is built once per test run, by the global setup.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../standin/global';
import { dropOnCanvas, installFoundry, type FoundryHandle } from '../standin';
import { loadBuiltSystem, loadSystemModule } from '../standin/built-system';
import { readSystemPackage, type SystemPackage } from '../standin/package';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buttonsOf, text, type Button } from '../foundry/tracker-html';

const g = globalThis as any;
let system: SystemPackage;
const logged: string[] = [];

beforeAll(async () => {
  system = await loadBuiltSystem('dist');
  for (const level of ['warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(`console.${level}: ${args.map(String).join(' ')}`));
  }
});
afterAll(() => vi.restoreAllMocks());

/** Everything Foundry would have logged or shown as a problem, on every client. */
function problems(foundry: FoundryHandle): string[] {
  return [
    ...foundry.packageWarnings.map((w) => `package: ${w}`),
    ...foundry.errors.map((e) => `error on ${e.userId} at ${e.location}: ${e.error?.message}`),
    ...foundry.deprecations.map((d) => `deprecation: ${d}`),
    ...foundry.clients().flatMap((c) => c.notifications.filter((n) => n.type !== 'info').map((n) => `${n.type} to ${c.user.name}: ${n.message}`)),
    ...logged,
  ];
}

/** The GM's tracker, drawn as the sidebar draws it. */
async function drawTracker(combat: any): Promise<{ html: string; buttons: Button[]; app: any }> {
  const app = new g.CONFIG.ui.combat();
  await app.render({ combat: g.game.combats.get(combat.id) });
  const html = ['header', 'tracker', 'footer'].map((p) => app.partHTML[p]).join('\n');
  return { html, buttons: buttonsOf(html), app };
}

/** Press a button the GM's tracker shows, enabled, as core calls its action. */
async function press(foundry: FoundryHandle, combat: any, action: string, combatantId?: string): Promise<void> {
  const { buttons, app } = await drawTracker(combat);
  const button = buttons.find((b) => b.action === action && (combatantId === undefined || b.combatantId === combatantId));
  expect(button, `${action} ${combatantId ?? ''} on the tracker`).toBeDefined();
  expect(button!.disabled, `${action} enabled: ${button!.label}`).toBe(false);
  const row = { dataset: { combatantId } };
  const target = { dataset: { ...button!.data }, closest: (sel: string) => (sel === '[data-combatant-id]' && combatantId ? row : null) };
  const handler = app.options.actions[action];
  await (typeof handler === 'function' ? handler : handler.handler).call(app, { preventDefault() {} }, target);
  await foundry.settle();
}

/** The open application whose id starts so (foundry.applications.instances, the GM's client). */
function openApp(prefix: string): any {
  const app = [...g.foundry.applications.instances.values()].find((a: any) => a.id.startsWith(prefix));
  expect(app, `an open application ${prefix}…`).toBeDefined();
  return app;
}

describe.each([13, 14] as const)('the built system in a new world, generation %i', (generation) => {
  afterEach(() => {
    logged.length = 0;
  });

  it('reads its manifest, loads, makes and opens every type, imports from its packs and plays a round from the tracker, logging nothing', async () => {
    const foundry = installFoundry({ generation, system });
    const manifest = system.manifest;
    expect(foundry.packageWarnings).toEqual([]);
    await loadSystemModule(foundry, system, (url) => import(/* @vite-ignore */ url));
    await foundry.boot();
    await foundry.settle();

    /* ---------------- the system took over, on every client */
    for (const client of foundry.clients()) {
      const { CONFIG } = client;
      expect(CONFIG.Combat.documentClass, client.user.name).not.toBe(g.foundry.documents.Combat);
      expect(CONFIG.Combatant.documentClass).not.toBe(g.foundry.documents.Combatant);
      expect(CONFIG.CombatantGroup.documentClass).not.toBe(g.foundry.documents.CombatantGroup);
      expect(CONFIG.ui.combat).not.toBe(g.foundry.applications.sidebar.tabs.CombatTracker);
      expect(client.game.settings.get('ten-segments', 'procedure')).toBe('segment-d6');
      expect(client.game.i18n.localize('TENSEG.Setting.Options.Name')).not.toBe('TENSEG.Setting.Options.Name');
      // The core-typed documents' models, through CONFIG alone.
      for (const doc of ['Combat', 'Combatant', 'CombatantGroup']) expect(CONFIG[doc].dataModels.base, doc).toBeDefined();
    }
    expect(g.game.system).toMatchObject({ id: manifest.id, title: manifest.title, version: manifest.version });

    /* ---------------- one document of every declared type, every sheet opened */
    const made: Record<string, any> = {};
    for (const documentName of ['Actor', 'Item'] as const) {
      const types = Object.keys(manifest.documentTypes[documentName]);
      expect(types.length).toBeGreaterThan(0);
      expect(g.game.documentTypes[documentName]).toEqual(expect.arrayContaining(types));
      for (const type of types) {
        const doc = await g[documentName].create({ name: `New ${type}`, type });
        expect(doc?.type, `${documentName} ${type} created`).toBe(type);
        const sheet = doc.sheet;
        const registered = Object.values(g.CONFIG[documentName].sheetClasses[type]).find((s: any) => s.default) as any;
        expect(registered.id.startsWith(`${manifest.id}.`), `${documentName} ${type}'s default sheet is the system's`).toBe(true);
        expect(sheet).toBeInstanceOf(registered.cls);
        await sheet.render({ force: true });
        expect(sheet.rendered).toBe(true);
        const html = Object.values(sheet.partHTML as Record<string, string>).join('\n');
        expect(html).toContain(`value="New ${type}"`);
        made[type] = doc;
      }
    }

    /* ---------------- the packs, indexed from dist/packs */
    for (const pack of manifest.packs) {
      const collection = g.game.packs.get(`${manifest.id}.${pack.name}`);
      expect(collection, pack.name).toBeDefined();
      const documents = system.packs!.get(pack.name)!.filter((d) => !String(d._key).startsWith('!folders!'));
      expect(collection.index.size, pack.name).toBe(documents.length);
      expect(collection.index.size, pack.name).toBeGreaterThan(0);
    }
    const entry = (pack: string, name: string) => {
      const collection = g.game.packs.get(`${manifest.id}.${pack}`);
      const found = collection.index.find((e: any) => e.name === name);
      expect(found, `${name} in ${pack}`).toBeDefined();
      return { collection, id: found._id as string, uuid: found.uuid as string };
    };

    /* ---------------- a fighter: hit points on his sheet, a long sword dragged from the weapons pack and equipped */
    const fighter = made.character;
    await foundry.submitSheet(fighter.sheet, { name: 'Brand', 'system.hp.value': '12', 'system.hp.max': '12', 'system.ac': '4' });
    await foundry.dropOnSheet(fighter.sheet, { type: 'Item', uuid: entry('weapons', 'Long sword').uuid });
    const sword = fighter.items.find((i: any) => i.name === 'Long sword');
    expect(sword?.type).toBe('weapon');
    await foundry.clickSheetAction(fighter.sheet, 'itemEquip', { itemId: sword.id });
    expect(sword.system.equipped).toBe(true);

    /* ---------------- a monster and a ready encounter imported from the packs */
    const orc = entry('monsters', 'Orc');
    const imported = await g.game.actors.importFromCompendium(orc.collection, orc.id);
    expect(imported).toMatchObject({ name: 'Orc', type: 'monster' });
    await imported.sheet.render({ force: true });
    const patrol = entry('encounters', 'Orc patrol');
    const encounter = await g.game.actors.importFromCompendium(patrol.collection, patrol.id);
    expect(encounter).toMatchObject({ name: 'Orc patrol', type: 'encounter' });
    await encounter.sheet.render({ force: true });

    /* ---------------- on a scene, in a combat */
    const scene = await g.Scene.create({ name: 'Keep', width: 3000, height: 2000, active: true });
    foundry.view(scene);
    const combat = await g.Combat.create({ scene: scene.id, active: true });
    const brandToken = await dropOnCanvas({ type: 'Actor', uuid: fighter.uuid, x: 550, y: 550 });
    await combat.createEmbeddedDocuments('Combatant', [{ tokenId: brandToken.id, sceneId: scene.id, actorId: fighter.id }]);
    await dropOnCanvas({ type: 'Actor', uuid: encounter.uuid, x: 850, y: 550 });
    await foundry.settle();
    expect(combat.combatants.size).toBe(1 + 7);
    expect(combat.groups.size).toBe(2);
    expect(problems(foundry)).toEqual([]);

    /* ---------------- a round from the tracker */
    await press(foundry, combat, 'rollSurprise');
    const surprise = openApp('ten-segments-surprise-');
    for (const side of surprise.settings.keys()) await foundry.clickSheetAction(surprise, 'stance', { side, stance: 'alerted' });
    await foundry.submitSheet(surprise, {});
    await surprise.close();
    await foundry.settle();
    expect(combat.flowState?.stage).toBe('declare');
    const brand = combat.combatants.find((c: any) => c.actorId === fighter.id);
    const orcs = combat.combatants.filter((c: any) => c.id !== brand.id);
    const declared: [any, Record<string, unknown>][] = [[brand, { action: 'melee', weapon: sword.id, target: orcs[0].id }], ...orcs.map((o: any) => [o, { action: 'melee', target: brand.id }] as [any, Record<string, unknown>])];
    for (const [combatant, values] of declared) {
      await press(foundry, combat, 'declare', combatant.id);
      const dialog = openApp('tenseg-declaration-');
      await foundry.submitSheet(dialog, values);
      expect(dialog.answer, combatant.name).toMatchObject({ ok: true });
      await dialog.close();
      await foundry.settle();
    }
    // Every row declared (the GM's plans for his own stay private until initiative).
    expect(text((await drawTracker(combat)).html)).not.toContain('not declared yet');
    await press(foundry, combat, 'rollInitiative');
    expect(combat.flowState.stage).toBe('resolve');
    let attacks = 0;
    for (let guard = 0; combat.flowState.stage === 'resolve' && guard < 40; guard++) {
      const { buttons } = await drawTracker(combat);
      // Each attacker once: the patrol's identical orcs in one row (issue 29) show its first member's Attack on that row and on the member's own.
      for (const id of new Set(buttons.filter((b) => b.action === 'attack' && !b.disabled).map((b) => b.combatantId))) {
        await press(foundry, combat, 'attack', id);
        attacks++;
      }
      await press(foundry, combat, 'nextStep');
    }
    expect(combat.flowState.stage).toBe('end-of-round');
    expect(attacks).toBeGreaterThan(0);
    expect(text((await drawTracker(combat)).html)).toContain('Round 1');
    await press(foundry, combat, 'endRound');
    expect(combat.flowState).toMatchObject({ round: 2, stage: 'declare' });
    expect(g.game.messages.size).toBeGreaterThan(0);
    expect(problems(foundry)).toEqual([]);
  });

  it('a manifest declaring a core type under documentTypes (the mistake of issue 24) loses every actor and item type, loudly', async () => {
    const manifest = structuredClone(system.manifest);
    manifest.documentTypes.Combat = { base: {} };
    const dir = mkdtempSync(join(tmpdir(), 'ten-segments-broken-'));
    try {
      writeFileSync(join(dir, 'system.json'), JSON.stringify(manifest));
      // As Foundry reads it: documentTypes falls back to empty, with the setup screen's warning.
      const read = readSystemPackage(dir);
      expect(read.warnings).toEqual([expect.stringContaining('"base" is a reserved core type for the Combat document')]);
      expect(read.types).toEqual({});
      const foundry = installFoundry({ generation, system: { ...read, root: system.root, packs: system.packs } });
      await loadSystemModule(foundry, system, (url) => import(/* @vite-ignore */ url));
      await foundry.boot();
      await foundry.settle();
      expect(foundry.packageWarnings).toHaveLength(1);
      // Refused on the client, as an invalid document is: an error notification, nothing created.
      expect(await g.Actor.create({ name: 'Brand', type: 'character' })).toBeUndefined();
      expect(await g.Item.create({ name: 'Long sword', type: 'weapon' })).toBeUndefined();
      expect(foundry.notifications.map((n) => n.message)).toEqual([expect.stringContaining('"character" is not a valid type'), expect.stringContaining('"weapon" is not a valid type')]);
      expect(foundry.writes.count('Actor') + foundry.writes.count('Item')).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
