/**
 * Issue 28, deliver 1, in Chromium: a combatant that can no longer act has its
 * declaration struck through on its tracker row, and its entries to come in the
 * timeline, with the reason in words ("dead"). Screenshot:
 * build/screenshots/tracker-struck-gm.png.
 */
import { sharedPreview } from './shared-preview';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PreviewPage } from './harness';

const LONG = 180_000; // a hang guard, not a timed assertion

type Api = {
  world: { combat: { id: string }; ids: { halvaine: string; brand: string; monsters: string[] } };
  run(fn: (api: Api) => Promise<unknown>): Promise<unknown>;
};

const preview = sharedPreview(LONG);

describe('a struck declaration in Chromium, segment-d6', () => {
  let p: PreviewPage;
  beforeAll(async () => {
    p = await preview.page('?steps=1');
  }, LONG);

  it('an orc killed before its blow: its row\'s declaration struck through with "dead", its attack to come too', async () => {
    const ids = await p.page.evaluate(() => (globalThis as unknown as { tenPreview: Api }).tenPreview.world.ids);
    const orc = ids.monsters[0];
    await p.page.evaluate(async (id) => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview;
      await api.run(async () => {
        const c = (api.world.combat as unknown as { combatants: { get(id: string): { actor: { update(d: object): Promise<unknown> } } } }).combatants.get(id);
        await c.actor.update({ 'system.hp.value': -20 });
      });
    }, orc);
    await p.idle();
    const row = p.page.locator(`#combat li.combatant.ts-row[data-combatant-id="${orc}"]`);
    await expect(row.count()).resolves.toBe(1);
    const struck = row.locator('.ts-declaration.struck');
    await expect(struck.count()).resolves.toBe(1);
    expect(await struck.locator('.ts-struck-reason').textContent()).toBe('dead');
    // Drawn struck through, the reason in the error colour.
    expect(await struck.locator('s').evaluate((e) => getComputedStyle(e).textDecorationLine)).toBe('line-through');
    const entries = p.page.locator(`#combat .ts-step.next li.ts-entry.struck[data-combatant-id="${orc}"] .ts-struck-reason`);
    if ((await entries.count()) > 0) expect(await entries.first().textContent()).toBe('dead');
    await p.screenshot('tracker-struck-gm');
  }, LONG);
});
