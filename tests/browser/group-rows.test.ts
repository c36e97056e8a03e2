/**
 * Issue 29, deliver 1, in Chromium at 200 combatants (?n=200: the party and
 * 198 unlinked tokens of one orc actor, as a GM drags one orc several times):
 * the orcs are one row ("Orc ×198") that opens to its members; with them
 * open, the tracker's header and its Next stay in view while the list
 * scrolls to its bottom, and in the wide popped-out tracker each side's box
 * is as tall as its own rows (the Friendly box not stretched to the orcs').
 * Measured with getBoundingClientRect, no wall time. Screenshots:
 * build/screenshots/tracker-200-{dark,light}(-bottom).png.
 */
import { sharedPreview } from './shared-preview';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PreviewPage } from './harness';

const LONG = 300_000; // a hang guard, not a timed assertion

const preview = sharedPreview(LONG);

/** Every collapsed row of a tracker opened (each a click on its disclosure, the page idle after it). */
async function openAll(p: PreviewPage, tracker: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const closed = p.page.locator(`${tracker} button[data-action="toggleGroup"][aria-expanded="false"]`);
    if ((await closed.count()) === 0) return;
    await p.click(`${tracker} button[data-action="toggleGroup"][aria-expanded="false"]`);
  }
}

/** Whether the element lies inside the viewport and inside the visible box of its scrolling ancestor. */
async function inView(p: PreviewPage, selector: string, scroller: string): Promise<{ inside: boolean; top: number; bottom: number; scrolled: number }> {
  return p.page.evaluate(
    ([sel, box]) => {
      const el = document.querySelector(sel) as HTMLElement;
      const sc = document.querySelector(box) as HTMLElement;
      const r = el.getBoundingClientRect();
      const s = sc.getBoundingClientRect();
      const inside = r.top >= Math.max(0, s.top) - 1 && r.bottom <= Math.min(window.innerHeight, s.bottom) + 1 && r.height > 0;
      return { inside, top: r.top, bottom: r.bottom, scrolled: sc.scrollTop };
    },
    [selector, scroller] as const,
  );
}

describe.each(['dark', 'light'] as const)('200 combatants in Chromium, the %s theme', (theme) => {
  let p: PreviewPage;
  beforeAll(async () => {
    p = await preview.page(`?n=200&steps=1&theme=${theme}`);
  }, LONG);

  it('the orcs one row that opens; the header\'s Next in view with the list scrolled to the bottom; the Friendly box as tall as its own rows', async () => {
    // The 198 orcs, undeclared, are one row (the GM's sidebar and the popped-out copy alike).
    for (const tracker of ['#combat', '#combat-popout']) {
      const group = p.page.locator(`${tracker} li.ts-row.ts-group`);
      await expect(group.count()).resolves.toBe(1);
      expect((await group.textContent())?.replace(/\s+/g, ' ')).toContain('Orc ×198');
    }
    await p.screenshot(`tracker-200-${theme}`);
    // Opened (the sidebar's and the popout's), each orc its own row under it, with its own controls.
    await openAll(p, '#combat');
    await openAll(p, '#combat-popout');
    await expect(p.page.locator('#combat .ts-members:not([hidden]) li.ts-row.ts-member').count()).resolves.toBe(198);
    await expect(p.page.locator('#combat .ts-members:not([hidden]) li.ts-row.ts-member:has(.ts-row-controls button.ts-control)').count()).resolves.toBe(198);

    // The sidebar (300 px) and the popped-out tracker scrolled to the bottom of their rows: Next stays in view.
    for (const [tracker, scroller] of [['#combat', '#sidebar'], ['#combat-popout', '#preview-popout']] as const) {
      await p.page.evaluate((box) => {
        const sc = document.querySelector(box) as HTMLElement;
        sc.scrollTop = sc.scrollHeight;
      }, scroller);
      const next = await inView(p, `${tracker} button.ts-control[data-action="nextStep"]`, scroller);
      expect(next.scrolled, `${scroller} scrolled`).toBeGreaterThan(1000);
      expect(next.inside, `${tracker}'s Next (top ${next.top}, bottom ${next.bottom}) in view`).toBe(true);
    }
    await p.screenshot(`tracker-200-${theme}-bottom`);

    // The wide tracker: the sides side by side, the Friendly box (two rows) shorter than the Hostile one (199).
    const heights = await p.page.evaluate(() =>
      [...document.querySelectorAll('#combat-popout .ts-side')].map((s) => ({ name: s.querySelector('.ts-side-name')?.textContent ?? '', top: s.getBoundingClientRect().top, height: s.getBoundingClientRect().height })),
    );
    const friendly = heights.find((s) => s.name === 'Friendly');
    const foes = heights.find((s) => s.name === 'Hostile');
    expect(friendly && foes, JSON.stringify(heights)).toBeTruthy();
    expect(Math.abs(friendly!.top - foes!.top), 'side by side').toBeLessThan(2);
    expect(friendly!.height, JSON.stringify(heights)).toBeLessThan(foes!.height / 4);
    expect(p.errors).toEqual([]);
  }, LONG);
});
