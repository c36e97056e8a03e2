/**
 * One preview for a test file: built, served and launched before its tests,
 * closed after them (harness.ts openPreview). `page(query)` opens a page on
 * it. Kept apart from harness.ts, which the benchmark uses outside vitest.
 */
import { afterAll, beforeAll } from 'vitest';
import { openPreview, type Preview } from './harness';

export function sharedPreview(hangGuard: number): Pick<Preview, 'page'> {
  let preview: Preview | undefined;
  beforeAll(async () => {
    preview = await openPreview();
  }, hangGuard);
  afterAll(async () => {
    await preview?.close();
  }, hangGuard);
  return {
    page: (query, viewport) => {
      if (!preview) throw new Error('the preview is opened before the tests (beforeAll)');
      return preview.page(query, viewport);
    },
  };
}
