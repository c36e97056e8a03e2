/**
 * The preview's map (?map=1, preview/map.ts) in headless Chromium
 * (tests/browser/harness.ts): the viewed scene drawn beside the tracker, its
 * grid at the scene's grid size, every token a box at its x/y covering its
 * width × height squares (the orcs 1×1, the ogre 2×2) with its name and
 * side, a token moved on the GM's client drawn again where it now is, and
 * one created and deleted appearing and going.
 * The boxes are measured on screen (getBoundingClientRect), so "to scale"
 * means what the eye sees: a square's width in pixels × the token's squares.
 * No check waits on time: each waits for the page to be idle or for the
 * drawn box to have moved. Screenshots: build/screenshots/map-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPreview, type Preview, type PreviewPage } from './harness';
import type { MapToken } from '../../preview/map';

const LONG = 180_000; // a hang guard, not a timed assertion

type Token = MapToken;
type Api = { tokens(): Token[]; map: boolean; run(fn: (api: unknown) => Promise<unknown>): Promise<unknown>; foundry: { client(u: unknown): { game: { scenes: { viewed: { tokens: { get(id: string): { update(d: object): Promise<unknown> } } } } } }; users: { gm: unknown } } };

describe('the preview map in Chromium', () => {
  let preview: Preview;
  let p: PreviewPage;
  beforeAll(async () => {
    preview = await openPreview();
    p = await preview.page('?map=1');
  }, LONG);
  afterAll(async () => {
    await preview?.close();
  }, LONG);

  const tokens = () => p.page.evaluate(() => (globalThis as unknown as { tenPreview: Api }).tenPreview.tokens());
  /** Each drawn box on screen, in squares from the board's top-left (a square's pixels measured from the board). */
  const drawn = () =>
    p.page.evaluate(() => {
      const board = document.querySelector('#preview-map svg.preview-map-board') as SVGSVGElement;
      const r = board.getBoundingClientRect();
      const size = Number(board.dataset.gridSize);
      const view = board.viewBox.baseVal;
      const square = (r.width / view.width) * size; // screen pixels per square
      return {
        square,
        columns: view.width / size,
        rows: view.height / size,
        boxes: [...board.querySelectorAll<SVGGElement>('g.preview-map-token')].map((g) => {
          const b = g.querySelector('rect.preview-map-box')!.getBoundingClientRect();
          return {
            id: g.dataset.tokenId!,
            name: g.querySelector('text')!.textContent,
            side: [...g.classList].find((c) => c !== 'preview-map-token'),
            column: (b.left - r.left) / square,
            row: (b.top - r.top) / square,
            width: b.width / square,
            height: b.height / square,
          };
        }),
      };
    });
  /** Where a token should be drawn, in squares (x/y are scene pixels at 100 px a square). */
  const expected = (t: Token) => ({ id: t.id, name: t.name, column: t.x / 100, row: t.y / 100, width: t.width, height: t.height });
  const close = (a: number, b: number) => Math.abs(a - b) < 0.06;

  it('draws the viewed scene beside the tracker: its 16 × 10 grid and every token where the scene has it, 1×1 and 2×2 to scale, named, by side', async () => {
    expect(p.errors).toEqual([]);
    const list = await tokens();
    expect(list.map((t) => t.name)).toEqual(['Halvaine', 'Brand', 'Orc 1', 'Orc 2', 'Ogre']);
    expect(list.find((t) => t.name === 'Ogre')).toMatchObject({ width: 2, height: 2 });
    expect(list.find((t) => t.name === 'Orc 1')).toMatchObject({ width: 1, height: 1 });
    const d = await drawn();
    expect({ columns: d.columns, rows: d.rows }).toEqual({ columns: 16, rows: 10 });
    expect(d.square).toBeGreaterThan(20); // readable
    expect(d.boxes.map((b) => b.id).sort()).toEqual(list.map((t) => t.id).sort());
    for (const t of list) {
      const box = d.boxes.find((b) => b.id === t.id)!;
      const want = expected(t);
      expect(box.name).toBe(t.name);
      for (const k of ['column', 'row', 'width', 'height'] as const) expect(close(box[k], want[k]), `${t.name} ${k}: drawn ${box[k]}, scene ${want[k]}`).toBe(true);
    }
    expect(d.boxes.filter((b) => b.side === 'friendly').map((b) => b.name)).toEqual(['Halvaine', 'Brand']);
    expect(d.boxes.filter((b) => b.side === 'hostile').map((b) => b.name)).toEqual(['Orc 1', 'Orc 2', 'Ogre']);
    // Beside the tracker: the sidebar's tracker on the left, the map to its right, the popped-out copy not shown.
    const sidebar = await p.page.locator('#preview-sidebar-combat').boundingBox();
    const map = await p.page.locator('#preview-map').boundingBox();
    expect(map!.x).toBeGreaterThanOrEqual(sidebar!.x + sidebar!.width);
    expect(await p.page.locator('#preview-popout').isHidden()).toBe(true);
    expect(await p.page.textContent('#preview-sidebar-combat')).toContain('Ogre');
    await p.screenshot('map-start');
  }, LONG);

  it('a token moved (updateToken on the GM\'s client) is drawn again where it now is; the 2×2 ogre keeps its size', async () => {
    const before = await tokens();
    const ogre = before.find((t) => t.name === 'Ogre')!;
    const orc = before.find((t) => t.name === 'Orc 1')!;
    // Moved outside the page's own actions (no busy/draw): only the token hooks can redraw.
    await p.page.evaluate(
      async ([ogreId, orcId]) => {
        const api = (globalThis as unknown as { tenPreview: Api }).tenPreview;
        const scene = api.foundry.client(api.foundry.users.gm).game.scenes.viewed;
        await scene.tokens.get(ogreId).update({ x: 600, y: 700 });
        await scene.tokens.get(orcId).update({ x: 800, y: 500 });
      },
      [ogre.id, orc.id] as const,
    );
    await p.page.waitForFunction(
      ([ogreId, orcId]) => {
        const rect = (id: string) => document.querySelector(`#preview-map g[data-token-id="${id}"] rect`);
        return rect(ogreId)?.getAttribute('x') === '600' && rect(orcId)?.getAttribute('y') === '500';
      },
      [ogre.id, orc.id] as const,
    );
    const after = await tokens();
    expect(after.find((t) => t.id === ogre.id)).toMatchObject({ x: 600, y: 700, width: 2, height: 2 });
    const d = await drawn();
    for (const t of after) {
      const box = d.boxes.find((b) => b.id === t.id)!;
      const want = expected(t);
      for (const k of ['column', 'row', 'width', 'height'] as const) expect(close(box[k], want[k]), `${t.name} ${k}: drawn ${box[k]}, scene ${want[k]}`).toBe(true);
    }
    expect(p.errors).toEqual([]);
    await p.screenshot('map-moved');
  }, LONG);

  it('a token created and deleted (createToken, deleteToken) appears and goes; the light theme reads', async () => {
    const id = await p.page.evaluate(async () => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview as any;
      const scene = api.foundry.client(api.foundry.users.gm).game.scenes.viewed;
      const [t] = await scene.createEmbeddedDocuments('Token', [{ name: 'Guard', x: 0, y: 900, width: 3, height: 1, disposition: 0 }]);
      return t.id as string;
    });
    await p.page.waitForSelector(`#preview-map g[data-token-id="${id}"]`);
    const box = (await drawn()).boxes.find((b) => b.id === id)!;
    expect(box).toMatchObject({ name: 'Guard', side: 'neutral' });
    for (const [k, v] of [['column', 0], ['row', 9], ['width', 3], ['height', 1]] as const) expect(close(box[k], v), `${k}: ${box[k]}`).toBe(true);
    await p.page.selectOption('#preview-theme', 'light');
    await p.screenshot('map-light');
    await p.page.evaluate(async (tokenId) => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview as any;
      await api.foundry.client(api.foundry.users.gm).game.scenes.viewed.deleteEmbeddedDocuments('Token', [tokenId]);
    }, id);
    await p.page.waitForSelector(`#preview-map g[data-token-id="${id}"]`, { state: 'detached' });
    expect((await tokens()).map((t) => t.name)).not.toContain('Guard');
    await p.page.selectOption('#preview-theme', 'dark');
    expect(p.errors).toEqual([]);
  }, LONG);

  it('the page\'s Next still draws the map (the tracker and the map from the same documents)', async () => {
    await p.click('#preview-next');
    expect(await p.page.locator('#preview-map g.preview-map-token').count()).toBe(5);
    expect(p.errors).toEqual([]);
  }, LONG);
});
