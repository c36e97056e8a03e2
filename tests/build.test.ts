import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import JSZip from 'jszip';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROCEDURE_IDS } from '../src/rules/model';

/** Relative module specifiers of a built module: `import … from "./x.js"` / `import "./x.js"` / `export … from`, and `import("./x.js")`. */
function importsOf(js: string): { static: string[]; dynamic: string[] } {
  const dynamic = [...js.matchAll(/import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)].map((m) => m[1]);
  const all = [...js.matchAll(/(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return { static: [...new Set(all)], dynamic: [...new Set(dynamic)] };
}

// `npm run build` fills dist/ with exactly what Foundry loads and writes a release zip (the global setup ran it).
function files(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, base) : [p.slice(base.length + 1)];
  });
}

// The CLI ships no type declarations: load it by name so it is typed as we use it.
const CLI = '@foundryvtt/foundryvtt-cli';
type ExtractPack = (src: string, dest: string, options: { yaml: boolean; log: boolean }) => Promise<void>;

describe('the installable build', () => {
  let extractPack: ExtractPack;
  // dist/ and release/ are built once per test run, by the global setup (tests/global-setup.ts).
  beforeAll(async () => {
    ({ extractPack } = (await import(CLI)) as { extractPack: ExtractPack });
  });

  it('dist holds the manifest, the entry module and its chunks, the styles, templates, languages and compiled packs — nothing else', () => {
    const manifest = JSON.parse(readFileSync('dist/system.json', 'utf8'));
    const all = files('dist');
    const top = new Set(all.map((f) => f.split('/')[0]));
    expect([...top].sort()).toEqual(['chunks', 'lang', 'odds-worker.js', 'packs', 'styles', 'system.json', 'templates', 'ten-segments.js']);
    expect(manifest.esmodules).toEqual(['ten-segments.js']);
    // The entry, the code every client needs, the migration, the GM's side of requests, the options form, the round's display,
    // the declaration dialog (opened when the GM calls for declarations), and one chunk per procedure.
    expect(all.filter((f) => f.endsWith('.js')).sort()).toEqual(
      [
        'ten-segments.js',
        'chunks/core.js',
        'chunks/migration.js',
        'chunks/handlers.js',
        'chunks/procedure-options.js',
        'chunks/round-display.js',
        'chunks/timeline.js',
        'chunks/tracker-view.js',
        // What the tracker's controls do (actions), and the dialogs and small forms they open.
        'chunks/actions.js',
        'chunks/declaration-dialog.js',
        'chunks/surprise-dialog.js',
        'chunks/manual-dice.js',
        'chunks/gm-prompts.js',
        // addict's declaring in turn, shared by the dialog and the handlers; the encounter as the engine reads it, shared by the handlers and the dialogs.
        'chunks/declaring-in-turn.js',
        'chunks/engine-encounter.js',
        // The actors' and items' data as the engine reads them, shared by the GM's chunk, the dialogs and the GM's small forms.
        'chunks/engine-view.js',
        // What the tracker reads of addict's call and clock (drawn under addict only).
        'chunks/turn-clock.js',
        // The API's bodies (game.tenSegments: only the names at init), and what a client sends of attacks and mid-round actions
        // (shared by the API, the tracker's actions and the dialogs); the writer's and the cards' Foundry differences (compat-writes).
        'chunks/api-calls.js',
        'chunks/attack.js',
        'chunks/midround.js',
        'chunks/compat-writes.js',
        // The flow's index (what the GM's chunk and the migration read of the flow beyond the replay: a combat's start, the
        // log's keys and recording dice), the options' resolution (the GM's chunk, the dialogs)
        // and the flow's limits (the GM's chunk and addict): start-up imports the flow's modules the replay needs by name.
        'chunks/flow.js',
        'chunks/procedure.js',
        // The morale methods (d12-ascending's option, the request schema): apart from procedure.js, so d12-ascending's chunk
        // does not load the procedure kit's option checks for one list.
        'chunks/morale-methods.js',
        'chunks/limits.js',
        // What only a GM runs of combatants: a side created on first need, a combatant placed in it and brought into the flow.
        'chunks/combatant-join.js',
        // The "undo" of an interruption card (loaded at the first press).
        'chunks/undo-card.js',
        // The card a player's change of a combatant's health brings the GMs (posted by the GM's chunk, its buttons wired when drawn).
        'chunks/health-card.js',
        // What only some procedures have, shared by their chunks: the d6 surprise (segment-d6, high-low, addict), a held action released
        // or a delay announced (segment-d6, addict, high-low; the declaration dialog asks it too). One chunk (vite.config.ts SHARED):
        // the same three procedures use both, so each pays one chunk's overhead, not two.
        'chunks/surprise-held.js',
        // (addict's charge timing, footnotes 9 and 19, is in addict's chunk alone: a charge's progress, charges.ts, reads it
        // through the loaded procedure, Procedure.chargeTiming, so no chunk is shared for it.)
        // The engine's parts loaded when a combat first needs them (rules/parts.ts): the `moved` input's checks and a charge's
        // progress; what the movement rules of d12-ascending, high-low and individual-speed share (movement.ts) with seed 002's
        // encumbrance table (those procedures, the charges and the actor sheet): one chunk (vite.config.ts SHARED), as the same
        // three procedures use both and each would pay a second chunk's overhead.
        'chunks/moved.js',
        'chunks/charges.js',
        'chunks/movement.js',
        // A new actor's prototype token by type (loaded when an actor is created).
        'chunks/actor-defaults.js',
        // The actor sheets' body (context, buttons, drops): loaded when a sheet is first drawn; start-up has the shells only.
        'chunks/actor-sheet-body.js',
        // A sheet's refusal of a value in a GM's words (issue 29), loaded with a sheet's first draw.
        'chunks/refusal.js',
        // Who a group declaration is for and each member's nearest foe (issue 29): the tracker's actions and the GM's chunk.
        'chunks/group.js',
        // Counted words by the client's plural rules (issue 29): the tracker view, the dialogs, the sheets and the GM's cards.
        'chunks/plural.js',
        // The item sheets' body, and the sheets' roll buttons (attack, damage, morale: loaded at the first click), with the stored
        // actor data they share with the GM's chunk (stored).
        'chunks/item-sheet-body.js',
        'chunks/rolls.js',
        'chunks/stored.js',
        // The AAC0's attack table, shared by the rolls' stored actor data and the actor sheet's body (not start-up).
        'chunks/attack-table.js',
        // Ready encounters: the placing (loaded when a GM drops an encounter on the map or presses "Place on scene") and the
        // encounter sheet's body (loaded when it is first drawn); start-up has the data model, the sheet's shell and the drop hook.
        'chunks/encounter-place.js',
        'chunks/encounter-sheet-body.js',
        // A client's side of its requests to another client's GM (sending, retries, answers), loaded at its first such request.
        'chunks/requests-client.js',
        // What a combat control does on this client (refused, sent to the active GM, or run by the writer), loaded at the first control.
        'chunks/combat-command.js',
        // The scene's Outdoors checkbox in core's Scene configuration, loaded at its first render.
        'chunks/scene-config.js',
        // A token moved during a round (the judging is the GM's chunk): the GM's question on a move beyond the allowance (when first
        // asked) and the attack-of-opportunity card's button (when such a card is first drawn).
        'chunks/move-dialog.js',
        'chunks/opportunity-card.js',
        // The active GM's moves of chargers' tokens and spell-range warnings as a round is stepped (loaded at the first round
        // with a charge or a targeted spell); the map's measures (grid) and the scene's options it shares with the GM's chunk
        // and the declaration dialog.
        'chunks/charge-moves.js',
        // A spell's range as the packs write it (the declaration dialog and the GM's step warnings).
        'chunks/spell-range.js',
        'chunks/grid.js',
        'chunks/scene-options.js',
        // The GM's "Odds of this fight" (issue 14): the dialog with the odds engine's tally, report and chart (loaded at the
        // tracker control's click), and the Web Worker that plays the trials (built on its own by esbuild, beside the entry).
        'chunks/odds-dialog.js',
        'odds-worker.js',
        ...PROCEDURE_IDS.map((id) => `chunks/${id}.js`),
      ].sort(),
    );
    for (const lang of manifest.languages) expect(existsSync(join('dist', lang.path))).toBe(true);
    expect(all.filter((f) => f.startsWith('lang/')).sort()).toEqual(manifest.languages.map((l: { path: string }) => l.path).sort());
    for (const style of manifest.styles) expect(existsSync(join('dist', style))).toBe(true);
    expect(all.filter((f) => f.startsWith('templates/')).length).toBe(files('templates').length);
  });

  it('the modules are minified ES modules whose every import, static or dynamic, is a file in dist', () => {
    const scripts = files('dist').filter((f) => f.endsWith('.js'));
    for (const f of scripts) {
      const js = readFileSync(join('dist', f), 'utf8');
      expect(js.split('\n').length, f).toBeLessThan(10);
      for (const spec of [...importsOf(js).static, ...importsOf(js).dynamic]) {
        expect(existsSync(join('dist', dirname(f), spec)), `${f} imports ${spec}`).toBe(true);
      }
    }
  });

  it('a client loads at start-up the code that registers the system at init, and no procedure, request handler or options form: each is loaded on demand', () => {
    const loaded = new Set<string>();
    const visit = (f: string) => {
      if (loaded.has(f)) return;
      loaded.add(f);
      for (const spec of importsOf(readFileSync(join('dist', f), 'utf8')).static) visit(join(dirname(f), spec));
    };
    visit('ten-segments.js');
    expect([...loaded].sort()).toEqual(['chunks/core.js', 'ten-segments.js']);
    const core = readFileSync('dist/chunks/core.js', 'utf8');
    expect(core).toMatch(/Hooks\.once\("init"/);
    // Each procedure chunk, the migration, the GM's side of requests, the options form and the round's display (token icons, the
    // "your turn" notice) are reached only by import(); the timeline view they share (the cards in handlers, the icons) is a
    // chunk of its own that they import.
    const dynamic = importsOf(core).dynamic.sort();
    expect(readFileSync('dist/chunks/timeline.js', 'utf8')).toContain('stillSurprised');
    for (const f of ['handlers', 'round-display']) expect(importsOf(readFileSync(`dist/chunks/${f}.js`, 'utf8')).static).toContain('./timeline.js');
    expect(core).not.toContain('stillSurprised');
    // The tracker is registered at init; what draws it (the timeline view, tracker-view) is loaded when it is first drawn, and
    // what its controls do (actions: requests, and the dialogs they open) at the first click, the GM's small forms when first opened;
    // the declaration dialog also when a player is called to declare in turn (addict).
    expect(dynamic).toEqual(['./migration.js', './handlers.js', './procedure-options.js', './round-display.js', './timeline.js', './tracker-view.js', './turn-clock.js', './gm-prompts.js', './actions.js', './declaration-dialog.js', './api-calls.js', './actor-defaults.js', './actor-sheet-body.js', './refusal.js', './item-sheet-body.js', './encounter-place.js', './encounter-sheet-body.js', './combatant-join.js', './undo-card.js', './health-card.js', './requests-client.js', './combat-command.js', './scene-config.js', './opportunity-card.js', './charge-moves.js', './moved.js', './charges.js', ...PROCEDURE_IDS.map((id) => `./${id}.js`)].sort());
    expect(readFileSync('dist/chunks/tracker-view.js', 'utf8')).toContain('ts-row');
    expect(core).not.toContain('ts-row');
    // The request schema and the handlers are in the GM's chunk, not in core.
    expect(readFileSync('dist/chunks/handlers.js', 'utf8')).toContain('RequestTooDeep');
    expect(core).not.toContain('RequestTooDeep');
    // The Combat's writing (transactions, the start, Previous, re-basing, a round or turn put back) is in the GM's chunk too, and so is
    // the serving of a request (its handler run, the answer kept for retries): core keeps the replay and sends requests.
    for (const written of ['RebaseDropped', 'TurnReverted', 'InitiativeDieImpossible', 'Ten Segments | request']) {
      expect(readFileSync('dist/chunks/handlers.js', 'utf8')).toContain(written);
      expect(core).not.toContain(written);
    }
    // The message modes of chat cards are not in core (compat-writes, imported by the cards, the migration and attacks).
    expect(readFileSync('dist/chunks/compat-writes.js', 'utf8')).toContain('applyRollMode');
    expect(core).not.toContain('applyRollMode');
    // The actor sheets are registered at init as shells; what they draw and do (the combat block, the buttons) is loaded with the first sheet.
    expect(readFileSync('dist/chunks/actor-sheet-body.js', 'utf8')).toContain('CannotHold');
    expect(core).not.toContain('CannotHold');
    // The API's bodies are a chunk loaded at the first call (core has only the names).
    expect(readFileSync('dist/chunks/api-calls.js', 'utf8')).toContain('UnknownCombat');
    // Placing an encounter (free squares, the import of a compendium's monsters) is a chunk; core has the drop hook only.
    expect(readFileSync('dist/chunks/encounter-place.js', 'utf8')).toContain('TENSEG.Encounter.NoRoom');
    expect(core).not.toContain('TENSEG.Encounter.NoRoom');
    expect(core).toContain('dropCanvasData');
    // A request's retries and the word that it is still waiting are in the client side's chunk; core sends nothing itself.
    expect(readFileSync('dist/chunks/requests-client.js', 'utf8')).toContain('RequestStillWaiting');
    expect(core).not.toContain('RequestStillWaiting');
  });

  it('the odds: the dialog is a chunk the tracker\'s actions load by import(), the worker a module of its own with the engine and every procedure in it', () => {
    const core = readFileSync('dist/chunks/core.js', 'utf8');
    const actions = readFileSync('dist/chunks/actions.js', 'utf8');
    expect(importsOf(actions).dynamic).toContain('./odds-dialog.js');
    expect(importsOf(core).dynamic).not.toContain('./odds-dialog.js');
    expect(importsOf(core).static).not.toContain('./odds-dialog.js');
    const dialog = readFileSync('dist/chunks/odds-dialog.js', 'utf8');
    expect(dialog).toContain('TENSEG.Odds.Dialog');
    expect(dialog).toContain('odds-worker.js');
    expect(core).not.toContain('TENSEG.Odds.Dialog');
    // Nothing at start-up reaches the worker; it imports nothing (one file: Foundry serves it as it is).
    expect(core).not.toContain('odds-worker');
    const worker = readFileSync('dist/odds-worker.js', 'utf8');
    expect(importsOf(worker).static).toEqual([]);
    expect(importsOf(worker).dynamic).toEqual([]);
    expect(worker).toContain('WorkerGlobalScope');
    // All five procedures are in it (their ids are the registry's keys).
    for (const id of PROCEDURE_IDS) expect(worker, id).toContain(`"${id}"`);
  });

  it('every pack compiles with every source document in it', async () => {
    const manifest = JSON.parse(readFileSync('system.json', 'utf8'));
    for (const pack of manifest.packs) {
      // Read a copy: opening a LevelDB writes to its folder.
      const copy = mkdtempSync(join(tmpdir(), 'pack-db-'));
      cpSync(join('dist', pack.path), copy, { recursive: true });
      const out = mkdtempSync(join(tmpdir(), 'pack-'));
      await extractPack(copy, out, { yaml: true, log: false });
      // Sources sit in folders (recursive); every one (documents and `_folder.yml`) is one primary entry.
      const sources = files(join('packs', '_source', pack.name)).filter((f) => f.endsWith('.yml'));
      expect(files(out).filter((f) => f.endsWith('.yml')).length).toBe(sources.length);
    }
  });

  it('the release zip holds the same files as dist, ready to unzip into Data/systems/ten-segments', async () => {
    const zip = await JSZip.loadAsync(readFileSync('release/ten-segments.zip'));
    const inZip = Object.keys(zip.files).filter((f) => !zip.files[f].dir).sort();
    const inDist = files('dist').filter((f) => !f.endsWith('LOCK')).sort();
    expect(inZip).toEqual(inDist);
    expect(JSON.parse(readFileSync('release/system.json', 'utf8')).id).toBe('ten-segments');
  });
});
