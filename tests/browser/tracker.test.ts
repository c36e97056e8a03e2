/**
 * What a GM (and a player) must see in our tracker, in the preview page in
 * headless Chromium (tests/browser/harness.ts): the current segment and who
 * acts in it, the interrupted spell and its card's Undo, the surprised side
 * (started from the surprise dialog), addict's running clock in the called
 * player's dialog (the clock injected: setClock, never waited on), the
 * monsters' declarations kept from the players, a player declaring through
 * the dialog, and the layout: ten segments side by side in the popped-out
 * copy, a compact column in the 300 px sidebar. Every check waits for the
 * page to be idle (body[data-preview-state="idle"]) and reads the DOM.
 * Screenshots: build/screenshots/tracker-*.png.
 */
import { sharedPreview } from './shared-preview';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PreviewPage, textOf } from './harness';

const LONG = 180_000; // a hang guard, not a timed assertion

type Api = {
  world: { combat: { id: string }; ids: { halvaine: string; brand: string; monsters: string[] }; spell: { id: string } };
  run(fn: (api: Api) => Promise<unknown>): Promise<unknown>;
  setClock(ms: number | null): Promise<void>;
  callInTurn(roll?: number): Promise<void>;
  showViewer(v: string): Promise<void>;
};

const preview = sharedPreview(LONG);

const ids = (p: PreviewPage) => p.page.evaluate(() => (globalThis as unknown as { tenPreview: Api }).tenPreview.world.ids);
const viewer = async (p: PreviewPage, key: 'gm' | 'player' | 'player2') => {
  await p.page.selectOption('#preview-viewer', key);
  await p.idle();
};

describe('our tracker in Chromium, segment-d6', () => {
  let p: PreviewPage;
  beforeAll(async () => {
    p = await preview.page('?steps=1'); // everyone has declared: surprise segment 1 is played
  }, LONG);

  it('the current segment is highlighted, in the header and the timeline, and lists who acts in it', async () => {
    expect(await textOf(p, '#combat .ts-current-label')).toBe('Surprise segment 1');
    const current = p.page.locator('#combat .ts-step.current');
    await expect(current.count()).resolves.toBe(1);
    expect(await current.getAttribute('aria-current')).toBe('step');
    // Who acts: Halvaine begins casting Sleep, Brand attacks Orc 1 (the orcs are surprised: not in it).
    const entries = current.locator('li.ts-entry');
    expect(await entries.evaluateAll((els) => els.map((e) => `${e.className} ${e.querySelector('.ts-entry-name')?.textContent}`))).toEqual([
      'ts-entry kind-cast-begin outcome-begins Halvaine',
      'ts-entry kind-action outcome-acts Brand',
    ]);
    expect(await textOf(p, '#combat .ts-step.current li.kind-cast-begin')).toContain('Sleep');
    expect(await textOf(p, '#combat .ts-step.current li.kind-action')).toContain('→ Orc 1');
    // The next step is the current one after the tracker's own Next.
    await p.click('#combat button.ts-control[data-action="nextStep"]');
    expect(await textOf(p, '#combat .ts-current-label')).toBe('Surprise segment 2 · step 1 of 2'); // surprise segment 2 has two steps: the header says which (issue 28)
    expect(await p.page.locator('#combat .ts-step.current li.ts-entry .ts-entry-name').allTextContents()).toEqual(['Brand']);
    await p.click('#combat button.ts-control[data-action="previousStep"]');
    expect(await textOf(p, '#combat .ts-current-label')).toBe('Surprise segment 1');
    expect(p.errors).toEqual([]);
  }, LONG);

  it('the surprised side: its tag and its members\' badges, the surprise die shown', async () => {
    const side = p.page.locator('#combat .ts-side.surprised');
    await expect(side.count()).resolves.toBe(1);
    expect(await textOf(p, '#combat .ts-side.surprised .ts-side-name')).toBe('Hostile');
    expect(await textOf(p, '#combat .ts-side.surprised .ts-tag.surprised')).toBe('2 still surprised');
    // Each orc's own row (issue 29: the two, tokens of one orc actor, also shown as one row "Orc ×2" that opens to them).
    expect(await p.page.locator('#combat .ts-side.surprised li.combatant.ts-row.surprised:not(.ts-group)').count()).toBe(2);
    expect(await p.page.locator('#combat .ts-side:not(.surprised) .ts-tag.surprised').count()).toBe(0);
    expect(await textOf(p, '#combat .ts-side.surprised .ts-die')).toContain('2');
  }, LONG);

  it('a caster hit while casting: the tracker shows the interrupted spell, the chat its card with the GM\'s Undo, which restores it', async () => {
    const { halvaine } = await ids(p);
    // The GM's damage: Halvaine takes 3 while Sleep is being cast.
    await p.page.evaluate(async (id) => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview;
      await api.run(async () => {
        const c = (api.world.combat as unknown as { combatants: { get(id: string): { actor: { update(d: object): Promise<unknown> } } } }).combatants.get(id);
        await c.actor.update({ 'system.hp.value': 9 });
      });
    }, halvaine);
    expect(await textOf(p, '#combat .ts-step.current .ts-event.interruption')).toBe("Halvaine's Sleep is interrupted");
    expect(await textOf(p, '#combat .ts-step.current .ts-event.damage')).toBe('Halvaine takes 3');
    expect(await textOf(p, '#combat-popout .ts-event.interruption')).toBe("Halvaine's Sleep is interrupted");
    // The card is posted by the GM's damage hook after the write: drawn when it arrives (a DOM state, not a time).
    await p.page.waitForSelector('#chat-log [data-card-kind="interruption"]');
    const card = p.page.locator('#chat-log [data-card-kind="interruption"]');
    await expect(card.count()).resolves.toBe(1);
    expect(await card.textContent()).toContain('Halvaine was hit while casting Sleep: the spell is lost.');
    const undo = card.locator('button[data-action="tenseg-undo-interruption"]');
    await expect(undo.count()).resolves.toBe(1);
    await p.screenshot('tracker-interrupted-gm');
    // A player's chat has the card without the GM's Undo; their tracker shows the interruption too.
    await viewer(p, 'player');
    await expect(p.page.locator('#chat-log [data-card-kind="interruption"] button[data-action="tenseg-undo-interruption"]').count()).resolves.toBe(0);
    expect(await textOf(p, '#combat .ts-event.interruption')).toBe("Halvaine's Sleep is interrupted");
    await viewer(p, 'gm');
    // The GM's Undo: the spell is being cast again, the interruption gone from the tracker.
    await p.click('#chat-log [data-card-kind="interruption"] button[data-action="tenseg-undo-interruption"]');
    expect(await p.page.locator('#combat .ts-event.interruption').count()).toBe(0);
    expect(await textOf(p, '#combat .ts-step.current li.kind-cast-begin')).toContain('Sleep');
    expect(p.errors).toEqual([]);
  }, LONG);

  it('the popped-out copy (≥ 640 px) shows the ten segments side by side; the 300 px sidebar stacks them', async () => {
    // Round 1 (segments 1–10): out of the surprise, declared, initiative rolled.
    for (let i = 0; i < 8 && !(await textOf(p, '#preview-status')).startsWith('round 1 · resolve'); i++) await p.click('#preview-next');
    expect(await textOf(p, '#preview-status')).toMatch(/^round 1 · resolve/);
    const layout = (root: string) =>
      p.page.locator(`${root} .ts-column[data-segment]`).evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { segment: (e as HTMLElement).dataset.segment, top: Math.round(r.top), left: Math.round(r.left) };
        }),
      );
    const wide = await layout('#combat-popout');
    expect(wide.map((c) => c.segment)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(await p.page.locator('#combat-popout').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(640);
    expect(new Set(wide.map((c) => c.top)).size).toBe(1); // one row
    for (let i = 1; i < wide.length; i++) expect(wide[i].left).toBeGreaterThan(wide[i - 1].left);
    // All ten within the window, none scrolled out of sight.
    const box = await p.page.locator('#combat-popout .ts-timeline').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { left: Math.floor(r.left), right: Math.ceil(r.right), scroll: el.scrollWidth - el.clientWidth };
    });
    expect(box.scroll).toBeLessThanOrEqual(1);
    expect(wide[0].left).toBeGreaterThanOrEqual(box.left);
    const narrow = await layout('#combat');
    expect(narrow).toHaveLength(10);
    expect(new Set(narrow.map((c) => c.left)).size).toBe(1); // one column: compact
    expect(await p.page.locator('#combat').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(300);
    expect(await p.page.locator('#combat-popout .ts-column.current .ts-step.current').count()).toBe(1);
    await p.screenshot('tracker-round1-dark');
    await p.page.locator('#combat-popout').screenshot({ path: `${(await import('./harness')).SCREENSHOTS}/tracker-popout-dark.png` });
    await p.page.locator('#combat').screenshot({ path: `${(await import('./harness')).SCREENSHOTS}/tracker-sidebar-dark.png` });
    await p.page.selectOption('#preview-theme', 'light');
    await p.page.locator('#combat-popout').screenshot({ path: `${(await import('./harness')).SCREENSHOTS}/tracker-popout-light.png` });
    await p.page.locator('#combat').screenshot({ path: `${(await import('./harness')).SCREENSHOTS}/tracker-sidebar-light.png` });
    await p.page.selectOption('#preview-theme', 'dark');
    expect(p.errors).toEqual([]);
  }, LONG);
});

describe('declarations in Chromium, segment-d6', () => {
  let p: PreviewPage;
  beforeAll(async () => {
    p = await preview.page('');
  }, LONG);

  it('a player does not see the monsters\' declarations the GM holds until initiative', async () => {
    const { monsters } = await ids(p);
    await p.page.evaluate(async (orcs) => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview;
      await api.run(async () => {
        const g = globalThis as unknown as { game: { tenSegments: { declare(id: string, d: object): Promise<unknown> } } };
        for (const id of orcs) await g.game.tenSegments.declare(id, { action: 'melee' });
      });
    }, monsters);
    // The GM: each orc's plan, held.
    for (const id of monsters) {
      const row = `#combat li.combatant.ts-row[data-combatant-id~="${id}"]`;
      expect(await textOf(p, `${row} .ts-declaration.action-melee.held`)).toMatch(/melee/i);
    }
    await viewer(p, 'player');
    for (const id of monsters) {
      // The row that shows it: its own, or its identical orcs' one row (issue 29: tokens of one orc actor), not a member's under it.
      const row = p.page.locator(`#combat li.combatant.ts-row:not(.ts-member)[data-combatant-ids~="${id}"]`);
      await expect(row.count()).resolves.toBe(1);
      expect(await row.locator('.ts-declaration.action-melee, .ts-declaration.held').count()).toBe(0);
      const words = ((await row.textContent()) ?? '').replace(/\s+/g, ' ');
      expect(words).not.toMatch(/melee/i);
    }
    expect((await textOf(p, '#combat')).match(/melee/i)).toBeNull();
    await p.screenshot('tracker-declare-player');
    await viewer(p, 'gm');
    expect(p.errors).toEqual([]);
  }, LONG);

  it('a player declares through the dialog: the GM\'s answer in words, and both trackers show the declaration', async () => {
    const { halvaine } = await ids(p);
    await viewer(p, 'player');
    const row = `#combat li.combatant.ts-row[data-combatant-id="${halvaine}"]`;
    expect(await textOf(p, `${row} .ts-declaration`)).toBe('not declared yet');
    await p.click(`${row} button.ts-control[data-action="declare"]`);
    const dialog = p.page.locator('#preview-windows .tenseg-declaration:visible');
    await expect(dialog.count()).resolves.toBe(1);
    await dialog.locator('select[name="action"]').selectOption('spell');
    await p.screenshot('dialog-declaration-player');
    await p.click('#preview-windows .tenseg-declaration:visible button[type="submit"]');
    expect(await textOf(p, '#preview-windows .tenseg-declaration:visible [data-answer]')).toBe('Halvaine: declared — Cast a spell.');
    expect(await p.page.getAttribute('#preview-windows .tenseg-declaration:visible [data-answer]', 'data-answer')).toBe('accepted');
    expect(await textOf(p, `${row} .ts-declaration.action-spell`)).toBe('casts a spell Sleep (2 segments)');
    await viewer(p, 'gm');
    expect(await textOf(p, `${row} .ts-declaration.action-spell`)).toBe('casts a spell Sleep (2 segments)');
    // The player's dialog is not on the GM's screen.
    expect(await p.page.locator('#preview-windows .tenseg-declaration:visible').count()).toBe(0);
    expect(p.errors).toEqual([]);
  }, LONG);
});

describe('the surprise dialog in Chromium, segment-d6', () => {
  it('before the start, the GM\'s Roll surprise opens the dialog; sent, the combat starts with the surprised side marked', async () => {
    const p = await preview.page('?start=dialog');
    expect(await p.page.locator('#combat .ts-step').count()).toBe(0);
    // The tracker's own "roll surprise" action (its button where the tracker draws one before the start; else the page's, which runs the same action).
    const own = p.page.locator('#combat button.ts-control[data-action="rollSurprise"]');
    await p.click((await own.count()) > 0 ? '#combat button.ts-control[data-action="rollSurprise"]' : '#preview-surprise');
    const dialog = p.page.locator('#preview-windows .surprise-dialog:visible');
    await expect(dialog.count()).resolves.toBe(1);
    expect(await dialog.locator('fieldset.surprise-side').count()).toBe(2);
    await p.screenshot('dialog-surprise');
    await dialog.screenshot({ path: `${(await import('./harness')).SCREENSHOTS}/dialog-surprise-only.png` });
    // The dice the table rolls: the party 4, the orcs 2.
    await p.page.evaluate(() => (globalThis as unknown as { tenPreview: Api & { foundry: { dice: { push(...n: number[]): void } } } }).tenPreview.foundry.dice.push(4, 2));
    await p.click('#preview-windows .surprise-dialog:visible button[type="submit"]');
    expect(await textOf(p, '#preview-status')).toBe('surprise · declare');
    expect(await textOf(p, '#combat .ts-side.surprised .ts-side-name')).toBe('Hostile');
    expect(await textOf(p, '#combat .ts-side.surprised .ts-tag.surprised')).toBe('2 still surprised');
    expect(await p.page.locator('#chat-log [data-card-kind="surprise"]').count()).toBe(1);
    expect(p.errors).toEqual([]);
    await p.page.close();
  }, LONG);
});

describe('addict in Chromium: declaring in turn', () => {
  it('the called player\'s dialog shows the running clock (the injected clock: 13 s, 2 segments); the answer stops it', async () => {
    const p = await preview.page('?procedure=addict');
    const { halvaine } = await ids(p);
    const T0 = 1_000_000;
    await p.page.evaluate(async (t0) => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview;
      await api.setClock(t0);
      await api.callInTurn(1); // the die picks the roster's first: Halvaine
    }, T0);
    await p.page.evaluate((t) => (globalThis as unknown as { tenPreview: Api }).tenPreview.setClock(t), T0 + 13_000);
    // The GM's screen: no dialog of the player's.
    expect(await p.page.locator('#preview-windows .tenseg-declaration:visible').count()).toBe(0);
    await viewer(p, 'player');
    const dialog = p.page.locator(`#preview-windows .tenseg-declaration:visible:has([data-combatant-id="${halvaine}"])`);
    await expect(dialog.count()).resolves.toBe(1);
    const clock = dialog.locator('section.tenseg-clock[data-clock]');
    expect(await clock.locator('time.tenseg-clock-time').textContent()).toBe('0:13');
    expect(await clock.getAttribute('data-segments')).toBe('2');
    expect(await clock.getAttribute('data-running')).toBe('true');
    await p.screenshot('dialog-declaration-addict-clock');
    await dialog.screenshot({ path: `${(await import('./harness')).SCREENSHOTS}/dialog-declaration-addict-only.png` });
    // The answer: the clock stops at 13 s, two segments of delay recorded.
    await dialog.locator('select[name="action"]').selectOption('spell');
    await p.click(`#preview-windows .tenseg-declaration:visible button[type="submit"]`);
    expect(await dialog.locator('[data-answer]').getAttribute('data-answer')).toBe('accepted');
    await p.page.evaluate((t) => (globalThis as unknown as { tenPreview: Api }).tenPreview.setClock(t), T0 + 40_000);
    await viewer(p, 'player');
    const stopped = p.page.locator(`#preview-windows .tenseg-declaration:visible section.tenseg-clock`);
    if ((await stopped.count()) > 0) expect(await stopped.locator('time').textContent()).toBe('0:13');
    const answers = await p.page.evaluate(() => {
      const api = (globalThis as unknown as { tenPreview: Api }).tenPreview;
      return ((api.world.combat as unknown as { flags: Record<string, { declaring?: { answers: unknown[] } }> }).flags['ten-segments'].declaring?.answers ?? []) as { seconds: number; segments: number }[];
    });
    expect(answers.map((a) => [a.seconds, a.segments])).toEqual([[13, 2]]);
    expect(p.errors).toEqual([]);
    await p.page.close();
  }, LONG);
});

describe('every procedure plays in the preview', () => {
  it.each(['segment-d6', 'high-low', 'd12-ascending', 'individual-speed', 'addict'])('%s: from the declarations to the end of the round with the tracker\'s Next, a step highlighted each time', async (procedure) => {
    const p = await preview.page(`?procedure=${procedure}`);
    await p.click('#preview-next'); // declared, initiative rolled
    let steps = 0;
    for (let i = 0; i < 20 && (await textOf(p, '#preview-status')).includes('resolve'); i++) {
      expect(await p.page.locator('#combat .ts-step.current').count()).toBe(1);
      expect(await p.page.locator('#combat .ts-step.current li.ts-entry').count()).toBeGreaterThan(0);
      await p.click('#combat button.ts-control[data-action="nextStep"]');
      steps++;
    }
    expect(steps).toBeGreaterThan(1);
    expect(await textOf(p, '#preview-status')).toMatch(/end-of-round$/);
    expect(p.errors).toEqual([]);
    await p.page.close();
  }, LONG);
});
