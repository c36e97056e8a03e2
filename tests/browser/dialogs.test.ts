/**
 * The preview presses every button (issue 29, deliver 5), in headless
 * Chromium (tests/browser/harness.ts): a GM control that asks through
 * Foundry's DialogV2 shows its window and goes on when it is answered; the
 * system's dialogs close with their frame's × and with Escape; the chat
 * follows the newest card; the surprise and declaration dialogs at their
 * default widths, in the light and the dark theme, have no field narrower
 * than its content (measured: a control's width against the width its text
 * needs; a label's lines against one line). Every check waits for the page
 * to be idle and reads the DOM; no time is measured.
 * Screenshots: build/screenshots/dialogs-*.png.
 */
import { sharedPreview } from './shared-preview';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, type PreviewPage, textOf } from './harness';

const LONG = 240_000; // a hang guard, not a timed assertion

type Api = {
  world: { combat: { id: string; flowState: { stage: string; round: number; encounter: { distance?: number } } }; ids: { halvaine: string; brand: string; monsters: string[] } };
  declareAll(): Promise<void>;
  run(fn: (api: Api) => Promise<unknown>): Promise<unknown>;
  setTheme(theme: 'light' | 'dark'): void;
};
const api = (p: PreviewPage) => ({
  evaluate: <T>(fn: (a: Api) => T | Promise<T>) => p.page.evaluate(`(${fn.toString()})(globalThis.tenPreview)`) as Promise<T>,
});

const preview = sharedPreview(LONG);

const DIALOG = '#preview-windows dialog.application.dialog:visible';

describe('a GM control that asks through DialogV2', () => {
  it('addict\'s Encounter distance: the window opens with its field; answered, the distance is recorded and the window is gone', async () => {
    const p = await preview.page('?procedure=addict');
    await p.click('#combat button.ts-control[data-action="encounterDistance"]');
    const dialog = p.page.locator(DIALOG);
    await expect(dialog.count()).resolves.toBe(1);
    expect(await dialog.getAttribute('open')).not.toBeNull();
    expect(await textOf(p, `${DIALOG} .window-title`)).toBe('Encounter distance');
    await expect(dialog.locator('input[name="feet"]').count()).resolves.toBe(1);
    expect(await dialog.locator('.form-footer button').allTextContents()).toEqual([expect.stringContaining('Confirm')]);
    await p.screenshot('dialogs-distance');
    await dialog.locator('input[name="feet"]').fill('60');
    await p.click(`${DIALOG} button[data-action="ok"]`);
    await expect(p.page.locator(DIALOG).count()).resolves.toBe(0);
    expect(await api(p).evaluate((a) => a.world.combat.flowState.encounter.distance)).toBe(60);
    expect(p.errors).toEqual([]);
    await p.page.close();
  }, LONG);

  it('closed with its × or Escape, the control asks nothing more and the page goes on', async () => {
    const p = await preview.page('?procedure=addict');
    for (const how of ['×', 'Escape'] as const) {
      await p.click('#combat button.ts-control[data-action="encounterDistance"]');
      await expect(p.page.locator(DIALOG).count()).resolves.toBe(1);
      if (how === '×') await p.click(`${DIALOG} .window-header [data-action="close"]`);
      else {
        await p.page.locator(`${DIALOG} input[name="feet"]`).press('Escape');
        await p.idle();
      }
      await expect(p.page.locator(DIALOG).count()).resolves.toBe(0);
    }
    expect(await api(p).evaluate((a) => a.world.combat.flowState.encounter.distance ?? null)).toBeNull();
    // The page answers again: a third opening shows the window.
    await p.click('#combat button.ts-control[data-action="encounterDistance"]');
    await expect(p.page.locator(DIALOG).count()).resolves.toBe(1);
    expect(p.errors).toEqual([]);
    await p.page.close();
  }, LONG);
});

describe('the system\'s dialogs close with their × and with Escape', () => {
  const opened: Record<string, { query: string; open: (p: PreviewPage) => Promise<void>; selector: string }> = {
    surprise: {
      query: '?start=dialog',
      open: (p) => p.click('#preview-surprise'),
      selector: '#preview-windows .surprise-dialog:visible',
    },
    declaration: {
      query: '',
      open: async (p) => {
        const { monsters } = await api(p).evaluate((a) => a.world.ids);
        await p.click(`#combat li.combatant.ts-row[data-combatant-id="${monsters[0]}"] button.ts-control[data-action="declare"]`);
      },
      selector: '#preview-windows .tenseg-declaration:visible',
    },
    odds: {
      query: '',
      open: (p) => p.click('#combat button.ts-control[data-action="oddsOfFight"]'),
      selector: '#preview-windows .odds-dialog:visible',
    },
  };
  for (const [name, { query, open, selector }] of Object.entries(opened)) {
    it(`the ${name} dialog`, async () => {
      const p = await preview.page(query);
      await open(p);
      await expect(p.page.locator(selector).count()).resolves.toBe(1);
      await p.click(`${selector} > .window-header [data-action="close"]`);
      await expect(p.page.locator(selector).count()).resolves.toBe(0);
      await open(p);
      await expect(p.page.locator(selector).count()).resolves.toBe(1);
      await p.page.locator(`${selector} .window-title`).click();
      await p.page.keyboard.press('Escape');
      await p.idle();
      await expect(p.page.locator(selector).count()).resolves.toBe(0);
      // The tracker stays (Escape closes windows, not the page's own panels).
      await expect(p.page.locator('#combat').count()).resolves.toBe(1);
      expect(p.errors).toEqual([]);
      await p.page.close();
    }, LONG);
  }
});

describe('the chat follows the newest card', () => {
  it('a card posted while the log overflows: the log is scrolled to its end and the card is in view', async () => {
    const p = await preview.page('', { width: 1400, height: 600 });
    const post = (n: number) =>
      p.page.evaluate(
        (i) => (globalThis as unknown as { tenPreview: Api }).tenPreview.run(() => (globalThis as unknown as { ChatMessage: { create(d: object): Promise<unknown> } }).ChatMessage.create({ content: `<p>Card ${i}</p>` })),
        n,
      );
    // Cards until the log is taller than its box.
    for (let i = 0; i < 30 && !(await p.page.evaluate(() => document.getElementById('chat')!.scrollHeight > document.getElementById('chat')!.clientHeight + 50)); i++) await post(i);
    // The reader scrolls to the top; a new card arrives.
    await p.page.evaluate(() => void (document.getElementById('chat')!.scrollTop = 0));
    const before = await p.page.locator('#chat-log > li').count();
    await post(99);
    await p.idle();
    expect(await p.page.locator('#chat-log > li').count()).toBeGreaterThan(before);
    const box = await p.page.evaluate(() => {
      const chat = document.getElementById('chat')!;
      const last = chat.querySelector('#chat-log > li:last-child')!.getBoundingClientRect();
      const frame = chat.getBoundingClientRect();
      return { overflow: chat.scrollHeight - chat.clientHeight, scrolled: chat.scrollTop, lastBottom: last.bottom, frameBottom: frame.bottom };
    });
    expect(box.overflow).toBeGreaterThan(0);
    expect(box.scrolled).toBeGreaterThanOrEqual(box.overflow - 1);
    expect(box.lastBottom).toBeLessThanOrEqual(box.frameBottom + 1);
    await p.screenshot('dialogs-chat-follows');
    expect(p.errors).toEqual([]);
    await p.page.close();
  }, LONG);
});

/**
 * Fields narrower than their content, in a window: a text or number field or a select narrower than the text it
 * holds (its scrollWidth past its clientWidth, or a select's option text wider than its box), and a label or hint
 * of a few words broken over more lines than its words (one word a line). Returns what is squeezed, in words.
 */
async function squeezed(p: PreviewPage, selector: string): Promise<string[]> {
  return p.page.evaluate((sel) => {
    const root = document.querySelector(sel) as HTMLElement;
    const out: string[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()}${(el as HTMLInputElement).name ? `[name=${(el as HTMLInputElement).name}]` : ''}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`;
    const canvas = document.createElement('canvas').getContext('2d')!;
    const textWidth = (el: Element, text: string) => {
      const cs = getComputedStyle(el);
      canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      return canvas.measureText(text).width;
    };
    for (const el of Array.from(root.querySelectorAll('input[type="number"], input[type="text"], input:not([type]), select')) as HTMLInputElement[]) {
      if (!el.offsetParent) continue;
      const cs = getComputedStyle(el);
      const inner = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      // A number field holds at least "-10" and its spinner; a select its longest option and its arrow; a text field 8 characters.
      const need =
        el.tagName === 'SELECT'
          ? Math.max(...Array.from((el as unknown as HTMLSelectElement).options).map((o) => textWidth(el, o.text))) + 16
          : el.type === 'number'
            ? textWidth(el, `-${'0'.repeat(Math.max(2, String(el.value).length))}`) + 14
            : textWidth(el, '0'.repeat(8));
      if (inner + 0.5 < need) out.push(`${name(el)} is ${Math.round(inner)} px wide, needs ${Math.round(need)}`);
    }
    for (const el of Array.from(root.querySelectorAll('label, .hint, legend, button, .ts-field > span, p')) as HTMLElement[]) {
      if (!el.offsetParent) continue;
      const words = (el.textContent ?? '').trim().split(/\s+/).filter(Boolean);
      if (words.length < 2) continue;
      const lh = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.35;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
      const height = el.getBoundingClientRect().height;
      // One word a line: as many lines as words, for a text of a few words.
      if (words.length <= 8 && lines >= words.length && height > lh * 1.6) out.push(`${name(el)} "${words.join(' ')}" wraps one word a line`);
      // A short text (up to 4 words) over more than two lines.
      else if (words.length <= 4 && height > lh * 2.6) out.push(`${name(el)} "${words.join(' ')}" runs over ${Math.round(height / lh)} lines`);
    }
    return out;
  }, selector);
}

describe('the surprise and declaration dialogs laid out without squeezed fields', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`the surprise dialog at its default width, ${theme}`, async () => {
      const p = await preview.page(`?start=dialog&theme=${theme}`);
      await p.click('#preview-surprise');
      const sel = '#preview-windows .surprise-dialog:not([hidden])';
      await expect(p.page.locator(sel).count()).resolves.toBe(1);
      expect(await p.page.evaluate((s) => document.querySelector(s)!.getBoundingClientRect().width, sel)).toBe(520);
      await p.page.locator(sel).screenshot({ path: `${SCREENSHOTS}/dialogs-surprise-${theme}.png` });
      expect(await squeezed(p, sel)).toEqual([]);
      expect(p.errors).toEqual([]);
      await p.page.close();
    }, LONG);

    it(`the declaration dialog at its default width, ${theme}`, async () => {
      const p = await preview.page(`?theme=${theme}`);
      const { monsters } = await api(p).evaluate((a) => a.world.ids);
      await p.click(`#combat li.combatant.ts-row[data-combatant-id="${monsters[0]}"] button.ts-control[data-action="declare"]`);
      const sel = '#preview-windows .tenseg-declaration:not([hidden])';
      await expect(p.page.locator(sel).count()).resolves.toBe(1);
      expect(await p.page.evaluate((s) => document.querySelector(s)!.getBoundingClientRect().width, sel)).toBe(420);
      await p.page.locator(sel).screenshot({ path: `${SCREENSHOTS}/dialogs-declaration-${theme}.png` });
      expect(await squeezed(p, sel)).toEqual([]);
      expect(p.errors).toEqual([]);
      await p.page.close();
    }, LONG);
  }
});
