/**
 * The actor and item sheets in the preview page in headless Chromium
 * (?sheet=…, preview/main.ts; the documents: preview/world.ts
 * buildSheetDocs; tests/browser/harness.ts): each registered sheet renders
 * its document, the combat block shows what a GM needs (weapon speed and
 * length, Dexterity's surprise and reaction adjustments, spells' casting
 * times, a monster's parsed routines, surprise ranges and what its hit dice
 * imply), an edit typed into the page goes through the form's own change and
 * submit events into the stand-in's submit path (validate, update, render
 * again), a bad value shows the error and writes nothing, tabs switch, a
 * player sees the sheet as their ownership allows, and both themes read
 * (different colours, text contrasting with what is behind it). No check
 * waits on time: each waits for the page to be idle or for the document to
 * hold a value. Screenshots: build/screenshots/sheet-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPreview, SCREENSHOTS, type Preview, type PreviewPage } from './harness';

const LONG = 180_000; // a hang guard, not a timed assertion
const SHEET = '#preview-sheet > .application';
const KEYS = ['fighter', 'magic-user', 'ogre', 'weapon', 'spell', 'armor', 'gear'] as const;
type Key = (typeof KEYS)[number];

/** The page's API as the checks read it (window.tenPreview). */
type Api = { sheetDocs: Record<Key, { id: string; name: string; system: Record<string, any> }> };

let preview: Preview;
let p: PreviewPage;
beforeAll(async () => {
  preview = await openPreview();
  p = await preview.page('?sheet=fighter', { width: 1400, height: 1300 });
}, LONG);
afterAll(async () => {
  await preview?.close();
}, LONG);

const text = async (selector: string) => ((await p.page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
const show = async (key: Key | '') => {
  await p.page.selectOption('#preview-sheet-select', key);
  await p.idle();
};
const viewer = async (key: 'gm' | 'player' | 'player2') => {
  await p.page.selectOption('#preview-viewer', key);
  await p.idle();
};
const theme = async (t: 'dark' | 'light') => p.page.selectOption('#preview-theme', t);
/** A value of the shown sheet's document on the GM's client (the stand-in's world). */
const docValue = (key: Key, path: string) =>
  p.page.evaluate(
    ([k, path]) => path.split('.').reduce<any>((o, part) => o?.[part], (globalThis as unknown as { tenPreview: Api }).tenPreview.sheetDocs[k as Key]),
    [key, path] as const,
  );
const input = (name: string) => p.page.locator(`${SHEET} [name="${name}"]`);
const shot = async (name: string) => {
  await p.screenshot(name);
  await p.page.locator(SHEET).screenshot({ path: `${SCREENSHOTS}/${name}-window.png` });
};

/** Nothing in the sheet wider than the window: its content, every table and every field within the sheet's width. */
const overflow = () =>
  p.page.evaluate((sel) => {
    const app = document.querySelector(sel) as HTMLElement;
    const right = app.getBoundingClientRect().right;
    const out: string[] = [];
    for (const el of app.querySelectorAll<HTMLElement>('.window-content, table, input, select, button, label, legend, dd')) {
      if (!el.getClientRects().length) continue; // in a hidden tab
      if (el.getBoundingClientRect().right > right + 0.5) out.push(`${el.tagName}.${el.className} ${el.getAttribute('name') ?? el.textContent?.trim().slice(0, 30)}`);
      if (el.tagName === 'TABLE' && el.scrollWidth > (el.parentElement as HTMLElement).clientWidth + 0.5) out.push(`table ${el.className} wider than its block`);
    }
    return out;
  }, SHEET);

describe('the sheets in Chromium', () => {
  it('each registered sheet renders its document, inside its window, without console errors', async () => {
    const expected: Record<Key, { classes: string[]; title: string; parts: string[] }> = {
      fighter: { classes: ['ten-segments', 'sheet', 'actor', 'character'], title: 'Actor: Aldric', parts: ['header', 'tabs', 'combat', 'items', 'abilities', 'biography'] },
      'magic-user': { classes: ['ten-segments', 'sheet', 'actor', 'character'], title: 'Actor: Mirela', parts: ['header', 'tabs', 'combat', 'items', 'abilities', 'biography'] },
      ogre: { classes: ['ten-segments', 'sheet', 'actor', 'monster'], title: 'Actor: Ogre', parts: ['header', 'tabs', 'combat', 'items', 'notes'] },
      weapon: { classes: ['ten-segments', 'sheet', 'item', 'weapon'], title: 'Item: Halberd', parts: ['header', 'details', 'description'] },
      spell: { classes: ['ten-segments', 'sheet', 'item', 'spell'], title: 'Item: Fireball', parts: ['header', 'details', 'description'] },
      armor: { classes: ['ten-segments', 'sheet', 'item', 'armor'], title: 'Item: Plate mail', parts: ['header', 'details', 'description'] },
      gear: { classes: ['ten-segments', 'sheet', 'item', 'gear'], title: 'Item: Lantern, hooded', parts: ['header', 'details', 'description'] },
    };
    for (const key of KEYS) {
      await show(key);
      const app = p.page.locator(SHEET);
      await expect(app.count()).resolves.toBe(1);
      expect(await app.evaluate((el) => el.tagName)).toBe('FORM');
      expect(await app.evaluate((el) => [...el.classList])).toEqual(expect.arrayContaining(['application', ...expected[key].classes]));
      expect(await text(`${SHEET} > .window-header .window-title`)).toBe(expected[key].title);
      expect(await app.locator(':scope > .window-content > [data-application-part]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.applicationPart))).toEqual(expected[key].parts);
      // The popped-out tracker gives the sheet its place.
      expect(await p.page.locator('#preview-popout').isHidden()).toBe(true);
      expect(await overflow()).toEqual([]);
      await shot(`sheet-${key}-dark`);
    }
    expect(p.errors).toEqual([]);
  }, LONG);

  it("the fighter's combat block: hit points, AC, AAC0 and its table, Dexterity's surprise, reaction and missile adjustments, weapons with speed and length", async () => {
    await show('fighter');
    expect(await p.page.locator(`${SHEET} .tab[data-tab="combat"]`).isVisible()).toBe(true);
    expect(await input('system.hp.value').inputValue()).toBe('9');
    expect(await input('system.hp.max').inputValue()).toBe('12');
    expect(await input('system.ac').inputValue()).toBe('4');
    expect(await input('system.attack.aac0').inputValue()).toBe('19');
    expect(await text(`${SHEET} .ts-needed caption`)).toBe('To hit with AAC0 19');
    expect(await text(`${SHEET} .ts-dex legend`)).toContain('16');
    for (const [name, value] of [
      ['system.surprise.surprisedAdjust', '-1'],
      ['system.surprise.surprisesOthersAdjust', '1'],
      ['system.combat.reactionAdjustment', '1'],
      ['system.combat.missileBonus', '1'],
      ['system.combat.dexAcBonus', '2'],
    ]) {
      expect(await input(name).inputValue()).toBe(value);
      expect(await input(name).isVisible()).toBe(true);
    }
    expect(await text(`${SHEET} .ts-dex`)).toContain('Reaction / surprise adjustment');
    const rows = await p.page.locator(`${SHEET} .ts-combat .ts-weapons tbody tr`).evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent?.trim()).concat(tr.classList.contains('ts-equipped') ? 'equipped' : '')),
    );
    expect(rows).toEqual([
      ['Long sword', '5', '3.5 ft', '3 ft', '1d8 / 1d12', 'Melee', 'equipped'],
      ['Short bow', '7', '—', '1 ft', '1d6 / 1d6', 'Missile', ''],
    ]);
    // Hit points beside AC on one line (the block compact at 600 px).
    const [hp, ac] = await Promise.all(['.ts-hp', `label:has(> [name="system.ac"])`].map((s) => p.page.locator(`${SHEET} ${s}`).boundingBox()));
    expect(Math.abs(hp!.y - ac!.y)).toBeLessThan(4);
    expect(await p.page.locator(SHEET).evaluate((el) => Math.round(el.getBoundingClientRect().width))).toBe(600);
  }, LONG);

  it("the magic-user's spells by level, with their casting times in segments and what is memorized and expended", async () => {
    await show('magic-user');
    const level = (n: number) =>
      p.page.locator(`${SHEET} .ts-combat .ts-spells[data-spell-level="${n}"] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent?.trim())));
    expect(await level(1)).toEqual([
      ['Magic missile', '1 segment', '1 left (1 memorized, 0 expended)'],
      ['Shield', '1 segment', '0 left (0 memorized, 0 expended)'],
      ['Sleep', '1 segment', '1 left (2 memorized, 1 expended)'],
    ]);
    expect(await level(2)).toEqual([
      ['Mirror image', '2 segments', '0 left (0 memorized, 0 expended)'],
      ['Web', '2 segments', '1 left (1 memorized, 0 expended)'],
    ]);
    // The two levels' tables line up (fixed columns).
    const x = await p.page.locator(`${SHEET} .ts-combat .ts-spells th:nth-child(2)`).evaluateAll((ths) => ths.map((th) => Math.round(th.getBoundingClientRect().left)));
    expect(new Set(x).size).toBe(1);
    await shot('sheet-magic-user-dark');
  }, LONG);

  it('the ogre: HD "4+1" and what it implies, its routines as written parsed beneath, surprise ranges, morale, number appearing', async () => {
    await show('ogre');
    expect(await input('system.hitDice').inputValue()).toBe('4+1');
    expect(await text(`${SHEET} .ts-attack-row`)).toBe('4+');
    expect(await text(`${SHEET} .ts-save-as`)).toBe('5');
    expect(await text(`${SHEET} .ts-morale-bonus`)).toBe('+1');
    expect(await text(`${SHEET} .ts-hp-formula`)).toBe('4d8+4 (8–36)');
    expect(await input('system.attacks').inputValue()).toBe('MELEE: club (1d10); MISSILE: hurled rock (1d8)');
    const routines = await p.page.locator(`${SHEET} .ts-routine`).evaluateAll((lis) =>
      lis.map((li) => ({ mode: li.querySelector('.ts-routine-mode')?.textContent, attacks: [...li.querySelectorAll('.ts-attack')].map((a) => a.textContent?.replace(/\s+/g, ' ').trim()), buttons: li.querySelectorAll('button[data-action]').length })),
    );
    expect(routines).toEqual([
      { mode: 'Melee', attacks: ['1 × club (1d10)'], buttons: 2 },
      { mode: 'Missile', attacks: ['1 × hurled rock (1d8)'], buttons: 2 },
    ]);
    // A routine's roll buttons on its own line, at the right.
    const [line, button] = await Promise.all([p.page.locator(`${SHEET} .ts-routine-mode`).first().boundingBox(), p.page.locator(`${SHEET} .ts-routine button`).first().boundingBox()]);
    expect(Math.abs(line!.y - button!.y)).toBeLessThan(12);
    expect(await input('system.surprise.surprisesOn').inputValue()).toBe('3');
    expect(await input('system.surprise.surprisedOn').inputValue()).toBe('2');
    expect(await input('system.morale').inputValue()).toBe('10');
    expect(await input('system.numberAppearing').inputValue()).toBe('2d6');
    await shot('sheet-ogre-dark');
  }, LONG);

  it("typing into a field and leaving it (its change event) updates the document through the stand-in's submit path, and the sheet renders again with it", async () => {
    await show('fighter');
    // The AC input before: marked, to tell the render after it.
    await input('system.ac').evaluate((el) => ((el as HTMLInputElement).dataset.previewOld = '1'));
    await input('system.ac').fill('3');
    await p.page.keyboard.press('Tab'); // focus leaves: the browser's change event, submitOnChange
    await p.page.waitForFunction(() => (globalThis as unknown as { tenPreview: Api }).tenPreview.sheetDocs.fighter.system.ac === 3, undefined, { timeout: 0 });
    await p.idle();
    expect(await docValue('fighter', 'system.ac')).toBe(3);
    expect(await input('system.ac').inputValue()).toBe('3');
    expect(await input('system.ac').getAttribute('data-preview-old')).toBeNull(); // a new element: rendered again
    // Enter in a field commits it as well.
    await input('system.hp.value').fill('7');
    await input('system.hp.value').press('Enter');
    await p.page.waitForFunction(() => (globalThis as unknown as { tenPreview: Api }).tenPreview.sheetDocs.fighter.system.hp.value === 7, undefined, { timeout: 0 });
    await p.idle();
    expect(await input('system.hp.value').inputValue()).toBe('7');
    // The form's own submit event (requestSubmit: what a submit button would send) goes the same way.
    await input('system.combat.missileBonus').evaluate((el) => {
      (el as HTMLInputElement).value = '2';
      (el as HTMLInputElement).form!.requestSubmit();
    });
    await p.page.waitForFunction(() => (globalThis as unknown as { tenPreview: Api }).tenPreview.sheetDocs.fighter.system.combat.missileBonus === 2, undefined, { timeout: 0 });
    await p.idle();
    expect(await input('system.combat.missileBonus').inputValue()).toBe('2');
    expect(await p.page.locator('#preview-notifications .notification.error').count()).toBe(0);
    expect(p.errors).toEqual([]);
    await shot('sheet-fighter-edited-dark');
  }, LONG);

  it('a bad value shows the error notification in words and leaves the document unchanged', async () => {
    await show('fighter');
    await input('system.ac').fill('99');
    await input('system.ac').press('Enter');
    await p.page.waitForSelector('#preview-notifications .notification.error', { timeout: 0 });
    await p.idle();
    // In a GM's words (the field's label, the model's reason, the value kept; no document id), and the field back to the stored value at once (issue 29).
    expect(await text('#preview-notifications .notification.error')).toBe('Armor Class stays 3: 99 must be a whole number from -10 to 10.');
    expect(await docValue('fighter', 'system.ac')).toBe(3);
    expect(await input('system.ac').inputValue()).toBe('3');
    await shot('sheet-fighter-error-dark');
    // The next edit saves (before issue 29 the form sent the refused 99 again with it, and the whole update was refused).
    const level = (await docValue('fighter', 'system.details.level')) as number;
    await input('system.details.level').fill(String(level + 1));
    await input('system.details.level').press('Enter');
    await p.page.waitForFunction((l) => (globalThis as unknown as { tenPreview: Api }).tenPreview.sheetDocs.fighter.system.details.level === l, level + 1, { timeout: 0 });
    await p.idle();
    expect(await input('system.details.level').inputValue()).toBe(String(level + 1));
    expect(await docValue('fighter', 'system.ac')).toBe(3);
    expect(await p.page.locator('#preview-notifications .notification.error').count()).toBe(0);
    await shot('sheet-fighter-next-edit-dark');
    await input('system.details.level').fill(String(level));
    await input('system.details.level').press('Enter');
    await p.page.waitForFunction((l) => (globalThis as unknown as { tenPreview: Api }).tenPreview.sheetDocs.fighter.system.details.level === l, level, { timeout: 0 });
    await p.idle();
    // A bad AAC0 (text): refused in words too, the field back to 19 at once; the AC stays as it was.
    await input('system.attack.aac0').fill('nineteen');
    await p.page.keyboard.press('Tab');
    await p.page.waitForFunction(() => document.querySelector('#preview-notifications .notification.error')?.textContent?.includes('nineteen'), undefined, { timeout: 0 });
    await p.idle();
    expect(await text('#preview-notifications .notification.error')).toContain('"nineteen" is not an AAC0');
    expect(await docValue('fighter', 'system.attack.aac0')).toBe('19');
    expect(await docValue('fighter', 'system.ac')).toBe(3);
    expect(await input('system.attack.aac0').inputValue()).toBe('19');
  }, LONG);

  it('the tabs switch: items lists the armour and gear, abilities the scores; back to combat', async () => {
    await show('fighter');
    const tab = (id: string) => p.page.locator(`${SHEET} .tab[data-tab="${id}"]`);
    await p.click(`${SHEET} nav.tabs a[data-tab="items"]`);
    expect(await tab('items').isVisible()).toBe(true);
    expect(await tab('combat').isVisible()).toBe(false);
    expect(await p.page.getAttribute(`${SHEET} nav.tabs a[data-tab="items"]`, 'class')).toContain('active');
    expect(await text(`${SHEET} .tab[data-tab="items"] .ts-armor`)).toContain('Chain mail');
    expect(await text(`${SHEET} .tab[data-tab="items"] .ts-gear`)).toContain('Rope, 50 ft');
    expect(await overflow()).toEqual([]);
    await shot('sheet-fighter-items-dark');
    await p.click(`${SHEET} nav.tabs a[data-tab="abilities"]`);
    expect(await tab('abilities').isVisible()).toBe(true);
    expect(await input('system.abilities.dex').inputValue()).toBe('16');
    await p.click(`${SHEET} nav.tabs a[data-tab="combat"]`);
    expect(await tab('combat').isVisible()).toBe(true);
    expect(await tab('abilities').isVisible()).toBe(false);
    expect(p.errors).toEqual([]);
  }, LONG);

  it("the viewer switch: the sheet on a player's client, editable for its owner, read-only for an observer; a monster's refused", async () => {
    await show('fighter');
    await viewer('player2'); // Aldric's owner
    expect(await input('system.ac').isDisabled()).toBe(false);
    expect(await input('system.ac').inputValue()).toBe('3');
    // The owner's edit, on their client, reaches the world (the GM's client holds it) and their sheet shows it.
    await input('system.ac').fill('2');
    await input('system.ac').press('Enter');
    await p.page.waitForFunction(() => (globalThis as unknown as { tenPreview: Api }).tenPreview.sheetDocs.fighter.system.ac === 2, undefined, { timeout: 0 });
    await p.idle();
    expect(await input('system.ac').inputValue()).toBe('2');
    await viewer('player'); // an observer
    expect(await input('system.ac').isDisabled()).toBe(true);
    await shot('sheet-fighter-observer-dark');
    await show('ogre');
    expect(await p.page.locator(SHEET).count()).toBe(0);
    expect(await text('#preview-sheet .preview-refused')).toBe('Player 1 may not see Ogre.');
    await viewer('gm');
    await show('fighter');
    expect(await input('system.ac').isDisabled()).toBe(false);
    expect(await input('system.ac').inputValue()).toBe('2');
    expect(p.errors).toEqual([]);
  }, LONG);

  it('light and dark themes: the colours differ, and the text of every kind reads against what is behind it', async () => {
    await show('fighter');
    /** Colours of the window and its text, and the lowest contrast ratio (WCAG) of any visible text against its nearest opaque background. */
    const look = () =>
      p.page.evaluate((sel) => {
        const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
        const lum = ([r, g, b]: number[]) => {
          const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        const background = (el: Element | null): string => {
          for (; el; el = el.parentElement) {
            const c = getComputedStyle(el).backgroundColor;
            const a = rgb(c)[3];
            if (c !== 'transparent' && (a === undefined || a > 0.5)) return c;
          }
          return getComputedStyle(document.body).backgroundColor;
        };
        const app = document.querySelector(sel) as HTMLElement;
        let lowest = { ratio: Infinity, what: '' };
        for (const el of app.querySelectorAll<HTMLElement>('.window-title, input, select, legend, h3, th, td, dt, dd, .ts-field > span, nav.tabs > a, .ts-kind, .ts-derived, caption')) {
          if (!el.getClientRects().length || !el.textContent?.trim() && !(el as HTMLInputElement).value) continue;
          const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(background(el)))];
          const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
          if (ratio < lowest.ratio) lowest = { ratio, what: `${el.tagName}.${el.className} ${(el.textContent || (el as HTMLInputElement).value).trim().slice(0, 20)}` };
        }
        const input = app.querySelector('input[type="number"]') as HTMLElement;
        return {
          window: getComputedStyle(app).backgroundColor,
          text: getComputedStyle(app).color,
          input: getComputedStyle(input).backgroundColor,
          label: getComputedStyle(app.querySelector('.ts-field > span, .form-group > label') as Element).color,
          lowest,
        };
      }, SHEET);
    await theme('dark');
    const dark = await look();
    await shot('sheet-fighter-dark');
    await theme('light');
    const light = await look();
    await shot('sheet-fighter-light');
    for (const k of ['window', 'text', 'input', 'label'] as const) expect(light[k], k).not.toBe(dark[k]);
    // WCAG's 4.5:1 for text (the hints and labels included).
    expect(dark.lowest.ratio, dark.lowest.what).toBeGreaterThanOrEqual(4.5);
    expect(light.lowest.ratio, light.lowest.what).toBeGreaterThanOrEqual(4.5);
    for (const key of ['ogre', 'weapon', 'spell'] as const) {
      await show(key);
      expect((await look()).lowest.ratio, key).toBeGreaterThanOrEqual(4.5);
      await shot(`sheet-${key}-light`);
    }
    await theme('dark');
    expect(p.errors).toEqual([]);
  }, LONG);
});
