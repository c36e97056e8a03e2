/**
 * The browser checks' harness: the preview page (npm run preview) served on a
 * free port and driven in headless Chromium (Debian's `chromium`, through
 * playwright-core with its executablePath; no browser is downloaded). The
 * benchmark (scripts/bench.ts) uses it too.
 *
 *   const preview = await openPreview();            // built, served, launched
 *   const page = await preview.page('?steps=3');    // loaded, idle, no console errors yet
 *   await preview.close();
 *
 * A missing Chromium is a failure that says how to install it, never a skip.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildPreview, startPreviewServer } from '../../scripts/preview.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the checks put their screenshots (git-ignored, under build/). */
export const SCREENSHOTS = join(ROOT, 'build/screenshots');
/** The text of the first element matching `selector`, its whitespace collapsed. */
export async function textOf(p: PreviewPage, selector: string): Promise<string> {
  return ((await p.page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
}

/** The browser: TENSEG_CHROMIUM, else Debian's package. */
export const CHROMIUM = process.env.TENSEG_CHROMIUM ?? '/usr/bin/chromium';

export interface PreviewPage {
  page: Page;
  /** Console errors and page errors since the page was opened. */
  errors: string[];
  /** Click a toolbar button (or anything) and wait until the page is idle again. */
  click(selector: string): Promise<void>;
  /** Wait until the page has drawn after its last action. */
  idle(): Promise<void>;
  screenshot(name: string): Promise<string>;
}

export interface Preview {
  url: string;
  browser: Browser;
  page(query?: string, viewport?: { width: number; height: number }): Promise<PreviewPage>;
  close(): Promise<void>;
}

let built: Promise<unknown> | null = null;

export async function openPreview({ executablePath = CHROMIUM }: { executablePath?: string } = {}): Promise<Preview> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser checks need Chromium at ${executablePath} and found none. Install Debian's package as root: ` +
        '`apt-get install -y chromium` (or point TENSEG_CHROMIUM at a Chromium binary). No browser is downloaded.',
    );
  }
  built ??= buildPreview();
  await built;
  const server: { url: string; close(): Promise<void> } = await startPreviewServer({ port: 0 });
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  return {
    url: server.url,
    browser,
    async page(query = '', viewport = { width: 1400, height: 900 }) {
      const page = await browser.newPage({ viewport });
      // No Playwright timeout (its default is 30 s an action): on a busy machine a slow page is not a failure; vitest's testTimeout guards a hang.
      page.setDefaultTimeout(0);
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      // An error the page does not catch (its start-up module throwing, say) ends any wait for it at once, in words.
      let crashed: (error: Error) => void = () => undefined;
      const crash = new Promise<never>((_resolve, reject) => (crashed = reject));
      crash.catch(() => undefined);
      page.on('pageerror', (e) => {
        errors.push(e.stack ?? e.message);
        crashed(new Error(`The preview page threw: ${e.stack ?? e.message}`));
      });
      const idle = async () => {
        await Promise.race([page.waitForSelector('body[data-preview-state="idle"], body[data-preview-state="failed"]', { state: 'attached', timeout: 0 }), crash]);
        const failed = await page.evaluate(() => document.body.dataset.previewState === 'failed');
        if (failed) throw new Error(`The preview failed to start: ${await page.textContent('#preview-status')}\n${errors.join('\n')}`);
      };
      await page.goto(server.url + query);
      await idle();
      return {
        page,
        errors,
        idle,
        async click(selector) {
          // The page marks itself busy synchronously in the click's handler: idle after it is the drawn result.
          await page.click(selector);
          await idle();
        },
        async screenshot(name) {
          mkdirSync(SCREENSHOTS, { recursive: true });
          const path = join(SCREENSHOTS, `${name}.png`);
          await page.screenshot({ path, fullPage: false });
          return path;
        },
      };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
