/**
 * The scene's "Outdoors" checkbox (src/apps/scene-config.ts, a chunk loaded
 * by the system's `renderSceneConfig` hook) in core's Scene configuration as
 * the stand-in renders it (tests/standin/scene-config.ts), in both
 * generations: it appears at the end of the grid tab, checked as the scene's
 * flag is, and core's submit path saves `flags['ten-segments'].outdoors`
 * (checked true, unchecked false), leaving the other fields as they were.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { g, makeWorld } from '../foundry/world';

/** Render the scene's config; the hook's chunk is imported on the first render: waited for (the import, then one turn). */
async function renderConfig(scene: any): Promise<any> {
  const app = new g.foundry.applications.sheets.SceneConfig({ document: scene });
  await app.render({ force: true });
  await import('../../src/apps/scene-config');
  await new Promise((r) => setTimeout(r, 0));
  return app;
}

describe.each([13, 14] as const)('the scene config\'s Outdoors checkbox, generation %i', (generation) => {
  it('appears once at the end of the grid tab, unchecked for an indoor scene, with its label and hint', async () => {
    const w = await makeWorld(generation, 'addict');
    const app = await renderConfig(w.scene);
    const grid: string = app.partHTML.grid;
    expect(grid).toMatch(/<div class="form-group ten-segments-outdoors"><label for="[^"]+">Outdoors \(charges move \+⅓, not doubled\)<\/label><div class="form-fields"><input type="checkbox" id="[^"]+" name="flags.ten-segments.outdoors"><\/div><p class="hint">[^<]*footnote 9[^<]*<\/p><\/div>\s*<\/div>\s*$/);
    expect(grid.match(/name="flags\.ten-segments\.outdoors"/g)).toHaveLength(1);
    expect(app.partHTML.basics).not.toContain('outdoors');
    expect(Object.keys(app.partContexts.tabs.tabs)).toEqual(generation === 13 ? ['basics', 'grid', 'lighting', 'ambience'] : ['basics', 'grid', 'levels', 'visibility', 'environment', 'misc']);
  });

  it('saves the flag through core\'s submit path: checked → outdoors, unchecked → indoors; checked again when drawn for an outdoor scene', async () => {
    const w = await makeWorld(generation, 'addict');
    const scene = w.scene;
    let app = await renderConfig(scene);
    await w.foundry.submitSheet(app, { 'flags.ten-segments.outdoors': true });
    expect(scene.getFlag('ten-segments', 'outdoors')).toBe(true);
    expect(scene.name).toBe('Keep');
    expect(scene.grid.size).toBe(100);
    app = await renderConfig(scene);
    expect(app.partHTML.grid).toContain('name="flags.ten-segments.outdoors" checked>');
    await w.foundry.submitSheet(app, { 'flags.ten-segments.outdoors': false });
    expect(scene.getFlag('ten-segments', 'outdoors')).toBe(false);
    // Every client holds the flag (the update broadcast).
    expect(w.foundry.client(w.foundry.users.player).game.scenes.get(scene.id).getFlag('ten-segments', 'outdoors')).toBe(false);
  });
});
