/**
 * The combat tracker's timeline shows where each charger stands (charges.ts's
 * chargeViews, issue 13): "Brand closing 24 of 95 ft" in the steps it closes,
 * the step it arrives, the last step when it falls short — on the GM's client,
 * drawn from our template as core would. Seed 004 fn 19: "the charger moves
 * 1/10th of their charge MV every segment, and … must end the segment at a
 * distance equal to or less than their weapon length in order to attack";
 * fn 9: charge MV is MV +100% indoors (Brand: 240 ft a round, 24 ft a segment).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { g, makeWorld, type World } from './world';
import { requestDeclaration } from '../../src/documents/queries';
import { whenChargesMoved } from '../../src/documents/charge-moves';
import type { TrackerContext } from '../../src/apps/tracker/tracker-view';
import { chargeAcross, chargeTooFar, flow, settle, token } from './charge-helpers';

const hbs = Handlebars.create();
hbs.registerHelper('localize', (key: string) => g.game.i18n.localize(key));
const TRACKER = hbs.compile(readFileSync('templates/tracker/tracker.hbs', 'utf8'), { strict: false, knownHelpers: { localize: true }, knownHelpersOnly: true });
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ').trim();

/** The tracker drawn on a user's client: its context and, per step (by segment), the text of its event lines as the template writes them. */
async function draw(w: World, user: any): Promise<{ ts: TrackerContext; html: string; lines: Record<number, string[]> }> {
  return w.foundry.client(user).run(async () => {
    const tracker = new g.CONFIG.ui.combat();
    await tracker.render({ combat: g.game.combats.get(w.combat.id) });
    const ctx = tracker.partContexts.tracker;
    const html = TRACKER(ctx);
    const lines: Record<number, string[]> = {};
    for (const col of ctx.ts.columns as TrackerContext['columns']) {
      for (const s of col.steps) {
        const block = html.split(`data-step="${s.index}"`)[1]?.split('data-step=')[0] ?? '';
        const events = [...block.matchAll(/<li class="ts-event charge [^"]*"><i class="([^"]+)"><\/i>([^<]*)<\/li>/g)].map((m) => `${m[1]}|${text(m[2])}`);
        if (events.length > 0) lines[Number(col.segment)] = [...(lines[Number(col.segment)] ?? []), ...events];
      }
    }
    return { ts: ctx.ts, html, lines };
  });
}
const RUN = 'fa-solid fa-person-running';

describe.each([13, 14] as const)('charge lines on the tracker, generation %i', (generation) => {
  it('addict: the GM sees Brand closing 24, 48, 72 of 95 ft in segments 1–3 and arriving in 4; after segment 1 the line stands in the step played, for player 1 too', async () => {
    const w = await makeWorld(generation, 'addict');
    await chargeAcross(w); // Brand in column 1, Orc 1 in column 21: 95 ft to close; Halvaine's casting gives steps in segments 1–3
    // The round planned, nothing played: the GM sees each step's line ahead.
    const ahead = await draw(w, w.foundry.users.gm);
    expect(ahead.lines).toEqual({
      1: [`${RUN}|Brand closing 24 of 95 ft`],
      2: [`${RUN}|Brand closing 48 of 95 ft`],
      3: [`${RUN}|Brand closing 72 of 95 ft`],
      4: [`${RUN}|Brand arrives within weapon length (91.5 of 95 ft)`],
    });
    expect(ahead.html).toContain('class="ts-event charge closing"');
    expect(ahead.html).toContain('class="ts-event charge arrives"');
    // After the first segment: the line stands in the step played, for the GM and for player 1 (not Brand's owner) alike.
    await w.combat.nextTurn();
    await settle(w);
    expect(flow(w).schedule!.steps[flow(w).step].segment).toBe(2);
    for (const user of [w.foundry.users.gm, w.foundry.users.player]) {
      const d = await draw(w, user);
      expect(d.lines[1]).toEqual([`${RUN}|Brand closing 24 of 95 ft`]);
    }
    expect(w.foundry.errors).toEqual([]);
  });

  it('addict: a charge too long for the round: the GM sees it fall short in segment 10, 25 ft left', async () => {
    const w = await makeWorld(generation, 'addict');
    await chargeTooFar(w); // Orc 1 265 ft away by 5/10/5
    const gm = await draw(w, w.foundry.users.gm);
    expect(gm.lines[10]).toEqual([`${RUN}|Brand falls short: 25 ft left`]);
    expect(gm.html).toContain('class="ts-event charge falls-short"');
    expect(w.foundry.errors).toEqual([]);
  });
});
