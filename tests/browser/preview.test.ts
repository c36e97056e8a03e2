/**
 * The preview page in headless Chromium (npm run preview; tests/browser/harness.ts):
 * it loads without console errors, the combat renders in the sidebar and the
 * popped-out copy, Next and Previous move the round's step, the chat shows
 * the initiative card, the dark and light themes give different colours.
 * Screenshots: build/screenshots/preview-*.png. No check waits on time: each
 * waits for the page to be idle (body[data-preview-state="idle"]).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPreview, type Preview, type PreviewPage } from './harness';

const LONG = 180_000; // a hang guard, not a timed assertion

describe('without Chromium', () => {
  it('the browser checks fail, saying how to install it (never a silent skip)', async () => {
    await expect(openPreview({ executablePath: '/nonexistent/chromium' })).rejects.toThrow(/apt-get install -y chromium/);
  });
});

describe('the preview page in Chromium', () => {
  let preview: Preview;
  let p: PreviewPage;
  beforeAll(async () => {
    preview = await openPreview();
    p = await preview.page();
  }, LONG);
  afterAll(async () => {
    await preview?.close();
  }, LONG);

  const status = () => p.page.textContent('#preview-status');
  const trackerText = () => p.page.textContent('#preview-sidebar-combat');

  it('loads without console errors, the tracker in the 300 px sidebar and its popped-out copy both showing the combat', async () => {
    expect(p.errors).toEqual([]);
    const sidebar = p.page.locator('#preview-sidebar-combat > section#combat.application');
    await expect(sidebar.count()).resolves.toBe(1);
    expect(await sidebar.evaluate((el) => Math.round(el.getBoundingClientRect().width))).toBeLessThanOrEqual(300);
    for (const name of ['Halvaine', 'Brand', 'Orc 1', 'Orc 2']) expect(await trackerText()).toContain(name);
    // Every part from the same render (renders one at a time: no header left from the render before the combat existed).
    expect(await p.page.textContent('#combat > [data-application-part="header"] .ts-title')).toBe('Surprise segments');
    const popout = p.page.locator('#preview-popout > #combat-popout.application.sidebar-popout');
    expect(await popout.textContent()).toContain('Halvaine');
    expect(await popout.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(600);
    // Every part of core's structure: one element per part, marked.
    expect(await p.page.locator('#combat > [data-application-part]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.applicationPart))).toEqual(['header', 'tracker', 'footer']);
    expect(await status()).toBe('surprise · declare');
    expect(await p.page.locator('#chat-log [data-card-kind="surprise"]').textContent()).toContain('Hostile rolled 2: surprised, segments lost: 2.');
    await p.screenshot('preview-start-dark');
  }, LONG);

  it('the stand-in in a DOM: an application\'s element is core\'s frame, its parts marked, its actions called as core calls them', async () => {
    const seen = await p.page.evaluate(async () => {
      const g = globalThis as unknown as { foundry: { applications: { api: { ApplicationV2: new (o?: unknown) => unknown; HandlebarsApplicationMixin: <T>(b: T) => T } } } };
      const { ApplicationV2, HandlebarsApplicationMixin } = g.foundry.applications.api;
      const calls: string[] = [];
      const Base = HandlebarsApplicationMixin(ApplicationV2) as unknown as new (o?: unknown) => { render(o: unknown): Promise<unknown>; element: HTMLElement };
      class Probe extends Base {
        static DEFAULT_OPTIONS = {
          id: 'tenseg-probe',
          classes: ['probe'],
          window: { title: 'COMBAT.SidebarTitle' },
          actions: {
            nextTurn(this: unknown, event: Event, target: HTMLElement) {
              calls.push(`next ${this === app} ${event.type} ${target.dataset.action}`);
            },
            previousTurn: { handler: () => calls.push('previous'), buttons: [2] },
          },
        };
        static PARTS = { footer: { template: 'templates/sidebar/tabs/combat/footer.hbs' } };
        async _prepareContext() {
          return { hasCombat: true };
        }
      }
      const app = new Probe();
      await app.render({ force: true });
      const el = app.element;
      (el.querySelector('[data-action="nextTurn"] i') as HTMLElement).click(); // a click on the icon inside the button
      (el.querySelector('[data-action="previousTurn"]') as HTMLElement).click(); // main button: previousTurn accepts only the right one
      const out = {
        tag: el.tagName,
        id: el.id,
        classes: [...el.classList],
        title: el.querySelector(':scope > header.window-header > h1.window-title')?.textContent,
        parts: [...el.querySelectorAll(':scope > section.window-content > [data-application-part]')].map((e) => (e as HTMLElement).dataset.applicationPart),
        calls,
      };
      const shown = el.parentElement === document.getElementById('preview-windows');
      await (app as unknown as { close(): Promise<unknown> }).close();
      return { ...out, shownInWindows: shown, removedOnClose: !el.isConnected && app.element === null };
    });
    expect(seen).toEqual({
      tag: 'DIV',
      id: 'tenseg-probe',
      classes: ['application', 'probe'],
      title: 'Combat Tracker',
      parts: ['footer'],
      calls: ['next true click nextTurn'],
      shownInWindows: true,
      removedOnClose: true,
    });
  }, LONG);

  it('Next advances the step and the segment shown; Previous goes back', async () => {
    await p.click('#preview-next'); // everyone declares: the surprise segments begin
    await p.click('#preview-next');
    const second = await status();
    expect(second).toMatch(/^surprise · resolve · step 2\/3 · segment \d+$/);
    await p.click('#preview-next');
    const third = await status();
    expect(third).toMatch(/^surprise · resolve · step 3\/3 · segment 2$/);
    expect(third).not.toBe(second);
    await p.click('#preview-previous');
    expect(await status()).toBe(second);
    await p.click('#preview-next');
    expect(await status()).toBe(third);
    expect(p.errors).toEqual([]);
  }, LONG);

  it('the tracker\'s own buttons run their ApplicationV2 actions: its next and previous step move the step and the segment highlighted', async () => {
    const before = await status();
    const current = () => p.page.textContent('#combat .ts-step.current');
    const shown = await current();
    await p.click('#combat button.ts-control[data-action="previousStep"]');
    const back = await status();
    expect(back).not.toBe(before);
    expect(await current()).not.toBe(shown);
    await p.click('#combat-popout button.ts-control[data-action="nextStep"]');
    expect(await status()).toBe(before);
    expect(await current()).toBe(shown);
    expect(p.errors).toEqual([]);
  }, LONG);

  it('after the surprise, the chat shows the initiative card of round 1', async () => {
    await p.click('#preview-next'); // the end of the surprise segments
    expect(await status()).toBe('surprise · end-of-round');
    await p.click('#preview-next'); // round 1's declarations
    expect(await status()).toBe('round 1 · declare');
    await p.click('#preview-next'); // everyone declares, initiative is rolled
    expect(await status()).toMatch(/^round 1 · resolve/);
    const card = p.page.locator('#chat-log [data-card-kind="initiative"]');
    expect(await card.count()).toBe(1);
    expect(await card.textContent()).toContain('Initiative, round 1');
    expect(p.errors).toEqual([]);
    await p.screenshot('preview-round1-dark');
  }, LONG);

  it('the light and dark themes give the page and the tracker different colours', async () => {
    const colours = () =>
      p.page.evaluate(() => {
        const body = getComputedStyle(document.body);
        const tracker = getComputedStyle(document.querySelector('#combat') as Element);
        return { background: body.backgroundColor, text: body.color, tracker: tracker.color };
      });
    const dark = await colours();
    await p.page.selectOption('#preview-theme', 'light');
    expect(await p.page.evaluate(() => document.body.className)).toContain('theme-light');
    const light = await colours();
    expect(light.background).not.toBe(dark.background);
    expect(light.text).not.toBe(dark.text);
    expect(light.tracker).not.toBe(dark.tracker);
    await p.screenshot('preview-round1-light');
    await p.page.selectOption('#preview-theme', 'dark');
  }, LONG);

  it('the viewer switch shows a player\'s screen: their client\'s tracker and chat', async () => {
    await p.page.selectOption('#preview-viewer', 'player');
    await p.idle();
    expect(await p.page.evaluate(() => document.body.dataset.viewer)).toBe('player');
    expect(await trackerText()).toContain('Halvaine');
    expect(await p.page.locator('#chat-log [data-card-kind="initiative"]').count()).toBe(1);
    expect(p.errors).toEqual([]);
    await p.screenshot('preview-round1-player');
    await p.page.selectOption('#preview-viewer', 'gm');
    await p.idle();
  }, LONG);
});
