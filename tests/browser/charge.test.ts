/**
 * The charge scenario on the preview's map (?map=1&procedure=addict&scenario=charge; preview/world.ts
 * chargeScenario) in headless Chromium: Brand (1×1) charges Orc 1 across the map and the ogre (2×2) charges
 * Halvaine; the round is stepped segment by segment with the page's Next, and after each segment the tokens are
 * read (window.tenPreview.tokens()) and the drawn boxes measured. Seed 004 fn 19: "the charger moves 1/10th of their
 * charge MV every segment, and the charger must end the segment at a distance equal to or less than their weapon
 * length in order to attack"; 240 ft a round charging (120 ft doubled indoors, fn 9): 24 ft a segment, each token on
 * the last square within its share, on the square beside its target in the segment it arrives (segment 3 for both).
 * The tracker's timeline says how far each has come ("Brand closing 24 of 55 ft") and where it arrives.
 * No check waits on time: each waits for the drawn box to be where the documents say. Screenshots:
 * build/screenshots/charge-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPreview, type Preview, type PreviewPage } from './harness';
import type { MapToken } from '../../preview/map';

const LONG = 180_000; // a hang guard, not a timed assertion

type Token = MapToken;
type Api = { tokens(): Token[]; world: { combat: { flowState: { stage: string; step: number; round: number; schedule: { steps: { segment: number }[] } } } } };

describe('the charge scenario on the preview map, in Chromium', () => {
  let preview: Preview;
  let p: PreviewPage;
  beforeAll(async () => {
    preview = await openPreview();
    p = await preview.page('?map=1&procedure=addict&scenario=charge');
  }, LONG);
  afterAll(async () => {
    await preview?.close();
  }, LONG);

  /** The tokens by name, in squares; the segment being played. */
  const read = () =>
    p.page.evaluate(() => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview;
      const state = api.world.combat.flowState;
      const squares = Object.fromEntries(api.tokens().map((t) => [t.name, [t.x / 100, t.y / 100]]));
      const steps = state.schedule?.steps ?? [];
      return { stage: state.stage, segment: steps[state.step]?.segment ?? null, following: steps[state.step + 1]?.segment ?? null, squares };
    });
  /** Wait until the drawn boxes of the named tokens are at these squares. */
  const drawnAt = (want: Record<string, [number, number]>) =>
    p.page.waitForFunction((w) => {
      const board = document.querySelector('#preview-map svg.preview-map-board');
      if (!board) return false;
      return Object.entries(w).every(([name, [c, r]]) => {
        const rect = board.querySelector(`g.preview-map-token[data-name="${name}"] rect`);
        return rect?.getAttribute('x') === String(c * 100) && rect?.getAttribute('y') === String(r * 100);
      });
    }, want);

  // Brand: column 3 → the square beside Orc 1 (column 15): 4 squares (20 ft of 24), 9 (45 of 48), beside it (14).
  // The ogre (2×2, columns 12–13, rows 6–7) acts from segment 2: 24 ft (4 squares west), then beside Halvaine (column 3).
  const expected: { segment: number; Brand: [number, number]; Ogre: [number, number] }[] = [
    { segment: 1, Brand: [7, 4], Ogre: [12, 6] },
    { segment: 2, Brand: [12, 4], Ogre: [8, 6] },
    { segment: 3, Brand: [14, 4], Ogre: [3, 6] },
  ];

  it('starts planned: the chargers at their start, the map drawn', async () => {
    expect(p.errors).toEqual([]);
    const at = await read();
    expect(at.stage).toBe('resolve');
    expect(at.squares['Orc 1']).toEqual([15, 4]);
    expect(at.squares.Halvaine).toEqual([2, 5]);
  }, LONG);

  it('each segment moves each charger its share; both land beside their targets in segment 3', async () => {
    for (const [k, want] of expected.entries()) {
      if (k > 0) await p.click('#preview-next');
      // A segment may have several steps (Sleep goes off before the charges land in segment 3: D before E): to its last.
      for (let guard = 0; guard < 5 && (await read()).following === want.segment; guard++) await p.click('#preview-next');
      await drawnAt({ Brand: want.Brand, Ogre: want.Ogre });
      const at = await read();
      expect(at.segment).toBe(want.segment);
      expect(at.squares.Brand).toEqual(want.Brand);
      expect(at.squares.Ogre).toEqual(want.Ogre);
      if (want.segment === 1) {
        // The tracker's step for segment 1 (played) says how far Brand has come (charges.ts chargeViews, TENSEG.Charge.Closing).
        const lines = await p.page.locator('#combat .ts-column[data-segment="1"] .ts-event.charge').allTextContents();
        expect(lines.map((l) => l.trim())).toEqual(['Brand closing 24 of 55 ft']);
        await expect(p.page.locator('#combat .ts-column[data-segment="1"] .ts-event.charge.closing i.fa-person-running').count()).resolves.toBe(1);
      }
      await p.screenshot(`charge-segment-${want.segment}`);
    }
    // The targets did not move; the ogre's footprint (columns 3–4, rows 6–7) touches Halvaine's square (2, 5) at a corner.
    const end = await read();
    expect(end.squares['Orc 1']).toEqual([15, 4]);
    expect(end.squares.Halvaine).toEqual([2, 5]);
    // The tracker says the charges arrive: each closing line in its segment, the arrival in the step the charges land.
    const charges = (n: number) => p.page.locator(`#combat .ts-column[data-segment="${n}"] .ts-event.charge`).allTextContents();
    expect((await charges(2)).map((l) => l.trim())).toEqual(['Brand closing 48 of 55 ft', 'Ogre closing 24 of 45 ft']);
    expect((await charges(3)).map((l) => l.trim())).toEqual([
      'Brand closing 51.5 of 55 ft',
      'Ogre closing 44 of 45 ft',
      'Brand arrives within weapon length (51.5 of 55 ft)',
      'Ogre arrives within weapon length (44 of 45 ft)',
    ]);
    await p.page.locator('#combat .ts-event.charge.arrives').last().scrollIntoViewIfNeeded();
    await p.screenshot('charge-tracker-arrives');
    expect(await p.page.textContent('#preview-sidebar-combat')).toContain('Brand');
    expect(p.errors).toEqual([]);
  }, LONG);
});

describe('ranges in the declaration dialog, in Chromium', () => {
  let preview: Preview;
  let p: PreviewPage;
  beforeAll(async () => {
    preview = await openPreview();
    p = await preview.page('?map=1&procedure=addict');
  }, LONG);
  afterAll(async () => {
    await preview?.close();
  }, LONG);

  it('the GM\'s dialog for Brand shows each target\'s distance; choosing Orc 1 draws the charge\'s gap to it', async () => {
    const brand = await p.page.evaluate(() => (globalThis as unknown as { tenPreview: { world: { ids: { brand: string } } } }).tenPreview.world.ids.brand);
    await p.click(`#combat li.combatant.ts-row[data-combatant-id="${brand}"] button.ts-control[data-action="declare"]`);
    const dialog = p.page.locator('#preview-windows .tenseg-declaration:visible');
    await expect(dialog.count()).resolves.toBe(1);
    // Brand (column 3, row 4) to Orc 1 (column 9, row 3): six squares centre to centre, one of them diagonal: 30 ft.
    const options = await dialog.locator('select[name="target"] option').allTextContents();
    expect(options).toContain('Orc 1 (30 ft)');
    expect(options).toContain('Halvaine (5 ft)');
    await dialog.locator('select[name="target"]').selectOption({ label: 'Orc 1 (30 ft)' });
    // The nearest square beside Orc 1 is column 8, row 4: five squares, 25 ft to close.
    await p.page.waitForSelector('#preview-windows .tenseg-declaration:visible [data-range="charge"]');
    expect((await dialog.locator('[data-range="charge"]').textContent())?.trim()).toBe('Charge: 25 ft to close to the target.');
    expect(await dialog.locator('select[name="target"]').inputValue()).not.toBe('');
    await p.screenshot('charge-dialog-ranges');
    expect(p.errors).toEqual([]);
  }, LONG);
});
