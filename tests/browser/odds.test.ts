/**
 * "Odds of this fight" (issue 14) in the preview page in headless Chromium
 * (tests/browser/harness.ts): the GM's control in the tracker's header opens
 * the dialog (src/apps/odds-dialog.ts), whose trials a REAL Web Worker plays
 * (src/odds-worker.ts, bundled by scripts/preview.mjs and served where the
 * dialog asks for it: systems/ten-segments/odds-worker.js). The check waits
 * for the bar to advance, then for the chart (inline SVG: every side's name in
 * its legend, all five procedures) and the table; a second run of 100,000
 * trials a procedure is stopped with Cancel and shows the trials played,
 * marked as stopped early. A player has no such control.
 * No check waits on time: each waits for a DOM state (a hang guard only).
 * Screenshots: build/screenshots/odds-*.png.
 */
import { sharedPreview } from './shared-preview';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, type PreviewPage, textOf } from './harness';

const LONG = 300_000; // a hang guard, not a timed assertion
const PROCEDURES = ['segment-d6', 'high-low', 'd12-ascending', 'individual-speed', 'addict'] as const;
const en = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;

const DIALOG = '#preview-windows .application.odds-dialog';
const ODDS_BUTTON = '#combat button.ts-control.ts-odds[data-action="oddsOfFight"]';

const preview = sharedPreview(LONG);

/** The bar's value and max, and the phase the body is in. */
const progress = (p: PreviewPage) =>
  p.page.evaluate((dialog) => {
    const bar = document.querySelector<HTMLProgressElement>(`${dialog} progress[data-odds-progress]`);
    const body = document.querySelector<HTMLElement>(`${dialog} .odds-body`);
    return { value: bar?.value ?? null, max: bar?.max ?? null, phase: body?.dataset.phase ?? null, count: document.querySelector(`${dialog} [data-odds-count]`)?.textContent ?? null };
  }, DIALOG);
/** The words of the chart's SVG, each <text> once. */
const chartTexts = (p: PreviewPage) => p.page.locator(`${DIALOG} figure.odds-chart svg text`).allTextContents();
const shot = (p: PreviewPage, name: string) => p.page.locator(DIALOG).screenshot({ path: `${SCREENSHOTS}/${name}.png` });
/** The whole dialog, chart and all: the viewport made tall for the shot (the page's stack of windows scrolls at 900 px), then as it was. */
const wholeShot = async (p: PreviewPage, name: string) => {
  const size = p.page.viewportSize()!;
  await p.page.setViewportSize({ width: size.width, height: 2400 });
  await shot(p, name);
  await p.page.setViewportSize(size);
};
/** "12,345" → 12345 (en's grouping). */
const whole = (s: string) => Number(s.replace(/[^\d]/g, ''));

describe('the odds of this fight in Chromium, segment-d6', () => {
  let p: PreviewPage;
  /** The paths of the Workers the page started. */
  const workers: string[] = [];
  beforeAll(async () => {
    p = await preview.page('');
  }, LONG);

  it('the GM\'s control opens the dialog; a real Worker plays the trials: the bar advances, then the chart with every side and all five procedures, and the table', async () => {
    const sides = await p.page.locator('#combat .ts-side .ts-side-name').allTextContents();
    expect(sides.length).toBe(2);
    const button = p.page.locator(ODDS_BUTTON);
    await expect(button.count()).resolves.toBe(1);
    expect(await button.isDisabled()).toBe(false);
    expect(await button.getAttribute('aria-label')).toBe(en['TENSEG.Tracker.Odds']);
    // A real Worker, started from the module the preview serves where the dialog asks for it.
    p.page.on('worker', (w) => workers.push(new URL(w.url()).pathname));
    await p.click(ODDS_BUTTON);
    const dialog = p.page.locator(DIALOG);
    await expect(dialog.count()).resolves.toBe(1);
    expect(await dialog.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(880);
    // The bar advances: some batches of the worker merged (the first of 250 trials), not yet all of them.
    await p.page.waitForFunction(
      (d) => {
        const bar = document.querySelector<HTMLProgressElement>(`${d} progress[data-odds-progress]`);
        return !!bar && bar.value > 0;
      },
      DIALOG,
      { timeout: LONG, polling: 'raf' },
    );
    const seen = await progress(p);
    expect(workers).toEqual(['/systems/ten-segments/odds-worker.js']);
    expect(seen.max).toBe(5 * 10_000);
    expect(seen.value).toBeGreaterThan(0);
    if (seen.phase === 'running') {
      // Caught under way: the Cancel button, the fields locked, the count in words.
      await shot(p, 'odds-running');
      await p.screenshot('odds-running-page');
      expect(seen.count).toMatch(/^[\d,]+ of 50,000 trials$/);
    }
    // Played out: the chart and the table.
    await p.page.waitForSelector(`${DIALOG} .odds-body[data-phase="done"] figure.odds-chart svg`, { timeout: LONG });
    await p.idle();
    const done = await progress(p);
    expect(done).toMatchObject({ value: 50_000, max: 50_000, phase: 'done', count: '50,000 of 50,000 trials' });
    expect(await p.page.locator(`${DIALOG} button[data-action="runAgain"]`).count()).toBe(1);
    expect(await p.page.locator(`${DIALOG} button[data-action="cancel"]`).count()).toBe(0);
    expect(await p.page.locator(`${DIALOG} .odds-stopped`).count()).toBe(0);
    expect(await p.page.locator(`${DIALOG} .odds-message`).count()).toBe(0);
    const words = await chartTexts(p);
    // Every side's name in the legend (the win panel's and the first-action panel's).
    for (const side of sides) expect(words.filter((w) => w === side).length, side).toBeGreaterThanOrEqual(2);
    for (const id of PROCEDURES) expect(words, id).toContain(en[`TENSEG.Odds.Report.Procedure.${id}`]);
    expect(words).toContain(en['TENSEG.Odds.Chart.WinHeading']);
    expect(words.some((w) => w.includes('10000 trials per procedure') || w.includes('10,000 trials per procedure'))).toBe(true);
    // The SVG is drawn inside the dialog, at the dialog's width (no overflow to scroll).
    const fit = await p.page.evaluate((d) => {
      const fig = document.querySelector(`${d} figure.odds-chart`) as HTMLElement;
      const svg = fig.querySelector('svg')!.getBoundingClientRect();
      const win = document.querySelector(d)!.getBoundingClientRect();
      return { svgLeft: svg.left, svgRight: svg.right, winLeft: win.left, winRight: win.right, scroll: fig.scrollWidth - fig.clientWidth, height: svg.height };
    }, DIALOG);
    expect(fit.scroll).toBeLessThanOrEqual(1);
    expect(fit.svgLeft).toBeGreaterThanOrEqual(fit.winLeft);
    expect(fit.svgRight).toBeLessThanOrEqual(fit.winRight);
    expect(fit.height).toBeGreaterThan(200);
    // The table: a row per procedure, 10,000 trials each, a column per side's win.
    const head = await p.page.locator(`${DIALOG} table.odds-table thead th`).allTextContents();
    for (const side of sides) expect(head).toContain(en['TENSEG.Odds.Dialog.Wins'].replace('{side}', side));
    const rows = await p.page.locator(`${DIALOG} table.odds-table tbody tr`).evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent?.trim() ?? '')));
    expect(rows.map((r) => r[0])).toEqual(PROCEDURES.map((id) => en[`TENSEG.Procedure.${id}.Name`]));
    for (const r of rows) expect(r[1]).toBe('10,000');
    await shot(p, 'odds-done');
    await wholeShot(p, 'odds-done-whole');
    await p.screenshot('odds-done-page');
    await p.page.selectOption('#preview-theme', 'light');
    await wholeShot(p, 'odds-done-light');
    await p.page.selectOption('#preview-theme', 'dark');
    expect(p.errors).toEqual([]);
  }, LONG);

  it('run again with 100,000 trials a procedure, stopped with Cancel: the figures of the trials played, marked as stopped early', async () => {
    await p.page.fill(`${DIALOG} input[name="trials"]`, '100000');
    await p.click(`${DIALOG} button[data-action="runAgain"]`);
    await p.page.waitForSelector(`${DIALOG} .odds-body[data-phase="running"] button[data-action="cancel"]`, { timeout: LONG });
    expect(await p.page.locator(`${DIALOG} input[name="trials"]`).isDisabled()).toBe(true);
    // Under way: a few batches in, far from the 500,000.
    await p.page.waitForFunction(
      (d) => {
        const bar = document.querySelector<HTMLProgressElement>(`${d} progress[data-odds-progress]`);
        return !!bar && bar.value >= 1000;
      },
      DIALOG,
      { timeout: LONG, polling: 'raf' },
    );
    const under = await progress(p);
    expect(under.max).toBe(500_000);
    expect(under.phase).toBe('running');
    expect(under.value).toBeLessThan(500_000);
    await shot(p, 'odds-running-large');
    expect(workers).toEqual(['/systems/ten-segments/odds-worker.js', '/systems/ten-segments/odds-worker.js']);
    await p.click(`${DIALOG} button[data-action="cancel"]`);
    await p.page.waitForSelector(`${DIALOG} .odds-body[data-phase="stopped"]`, { timeout: LONG });
    expect(await textOf(p, `${DIALOG} .odds-stopped`)).toBe(en['TENSEG.Odds.Dialog.Stopped']);
    const stopped = await progress(p);
    expect(stopped.value).toBeGreaterThanOrEqual(under.value!);
    expect(stopped.value).toBeLessThan(500_000);
    expect(stopped.count).toBe(`${stopped.value!.toLocaleString('en')} of 500,000 trials`);
    // The table's trials are those played: they add up to the bar's count, each row fewer than asked.
    const rows = await p.page.locator(`${DIALOG} table.odds-table tbody tr`).evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent?.trim() ?? '')));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.reduce((sum, r) => sum + whole(r[1]), 0)).toBe(stopped.value);
    for (const r of rows) expect(whole(r[1])).toBeLessThanOrEqual(100_000);
    expect(rows.some((r) => whole(r[1]) < 100_000)).toBe(true);
    // The chart says so too, with the figures of the trials played.
    const words = await chartTexts(p);
    expect(words.some((w) => w.startsWith('Stopped early: the figures are of the'))).toBe(true);
    for (const r of rows) expect(words).toContain(en['TENSEG.Odds.Chart.Trials'].replace('{trials}', String(whole(r[1]))));
    // The worker is stopped: nothing moves any more, and Run again is offered.
    expect(await p.page.locator(`${DIALOG} button[data-action="runAgain"]`).count()).toBe(1);
    expect(await p.page.locator(`${DIALOG} button[data-action="cancel"]`).count()).toBe(0);
    await wholeShot(p, 'odds-stopped');
    await p.screenshot('odds-stopped-page');
    expect(p.errors).toEqual([]);
  }, LONG);

  it('a player has no odds control in the tracker', async () => {
    await p.page.selectOption('#preview-viewer', 'player');
    await p.idle();
    expect(await p.page.locator('#combat .ts-side').count()).toBeGreaterThan(0);
    expect(await p.page.locator('#combat [data-action="oddsOfFight"]').count()).toBe(0);
    expect(await p.page.locator('#combat .ts-odds').count()).toBe(0);
    // Nor does the GM's dialog show on the player's screen.
    expect(await p.page.locator(`${DIALOG}:visible`).count()).toBe(0);
    await p.screenshot('odds-player-tracker');
    await p.page.selectOption('#preview-viewer', 'gm');
    await p.idle();
    expect(await p.page.locator(ODDS_BUTTON).count()).toBe(1);
    expect(p.errors).toEqual([]);
  }, LONG);
});
