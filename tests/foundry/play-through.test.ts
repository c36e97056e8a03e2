/**
 * A whole combat under each of the five procedures, run from the tracker and
 * the dialogs alone (issue 10's "Done when"): a GM and two players press only
 * the buttons their trackers render (the tracker's own `actions`, called as
 * core calls them: `this` the tracker, the clicked button's data), submit the
 * surprise dialog and the declaration dialogs (the functions their buttons
 * call) — no macro, no request made by hand. Surprise (both sides alerted, or
 * rolled where the procedure has no alert) → declarations (the players in
 * their dialogs, opened by the GM's call; under addict in turn, with the
 * running clock; the GM for the orcs from their rows) → initiative → the
 * steps, with attacks from the rows → the end of the round → the next round…
 * until both orcs are down. Along the way the trackers show the current step,
 * who acts, the called player's clock and the fallen; at the end the GM ends
 * the combat from the footer.
 *
 * Dice: the attacks' d20 and damage scripted just before each Attack click
 * (the party hits hard, the orcs miss); everything else seeded.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterEach, describe, expect, it } from 'vitest';
import { g, makeWorld, idle } from './world';
import { draw, press, startWithSidesAlerted, submitDeclaration, undeclared, flow, refusals, text } from './tracker-driver';
import { closeDeclarationDialogs } from '../../src/apps/declaration-dialog';
import { setClock } from '../../src/documents/declaring-in-turn';
import { forms } from '../../src/apps/tracker/gm-prompts';
import type { FlowState } from '../../src/rules/flow';
import type { ProcedureId } from '../../src/rules/model';

const PROCEDURES: ProcedureId[] = ['segment-d6', 'high-low', 'd12-ascending', 'individual-speed', 'addict'];

describe.each([13, 14] as const)('a whole combat from the tracker and the dialogs, generation %i', (generation) => {
  const realAsk = forms.ask;
  afterEach(async () => {
    setClock();
    forms.ask = realAsk;
    await closeDeclarationDialogs();
  });

  it.each(PROCEDURES)('%s: surprise, declarations, initiative, attacks, rounds until the orcs are down', async (procedure) => {
    const w = await makeWorld(generation, procedure);
    const { gm, player, player2 } = w.foundry.users;
    const { ids } = w;
    // Halvaine fights with a dagger this time (Brand has his long sword).
    const [dagger] = await w.actors.halvaine.createEmbeddedDocuments('Item', [
      { name: 'Dagger', type: 'weapon', system: { damage: { small: '1d4', large: '1d3' }, speed: 2, length: 1, space: 1, kind: 'melee', equipped: true } },
    ]);
    await w.foundry.settle();
    let ms = 1_000_000;
    setClock(() => ms);

    /* ---------------- before the combat: the GM's one way in */
    const before = await draw(w, gm);
    expect(before.buttons.map((b) => b.action)).toContain('rollSurprise');
    expect(before.buttons.map((b) => b.action)).not.toContain('startCombat');
    expect((await draw(w, player)).buttons.filter((b) => b.action === 'rollSurprise')).toEqual([]);
    await startWithSidesAlerted(w, gm, procedure);
    expect(flow(w)).not.toBeNull();
    expect(refusals(w)).toEqual([]);

    const fallen = new Set<string>();
    const attacked = new Map<string, number>();
    const orcsDown = () => [ids.orc1, ids.orc2].every((id) => !!(w.combat.combatants.get(id) as any)?.isDefeated || ['dead', 'dying', 'incapacitated', 'unconscious'].includes(flow(w).states[id]?.condition as string));
    let rounds = 0;
    while (!orcsDown() && rounds < 6) {
      rounds++;
      /* ---------------- declarations */
      expect(flow(w).stage).toBe('declare');
      const declaring = await draw(w, gm);
      expect(text(declaring.html)).toContain(declaring.ts.title);
      // Nobody aims at a dead orc (rules revision 5: a declaration at a fallen target is refused): each turns to the other.
      const alive = (id: string) => flow(w).states[id]?.condition !== 'dead';
      const party: [any, string, Record<string, unknown>][] = [
        [player, ids.halvaine, { action: 'melee', weapon: dagger.id, target: alive(ids.orc2) ? ids.orc2 : ids.orc1 }],
        [player2, ids.brand, { action: 'melee', weapon: w.sword.id, target: alive(ids.orc1) ? ids.orc1 : ids.orc2 }],
      ];
      const able = (id: string) => (w.combat.flowState as FlowState).states[id] !== undefined && !['dead', 'dying', 'incapacitated', 'unconscious'].includes(flow(w).states[id].condition as string);
      if (procedure === 'addict') {
        // Declaring in turn: the GM starts it and orders the roster (Brand, then Halvaine), a die picks who is first; the called
        // player's dialog opens by itself, with the clock.
        let asked = '';
        forms.ask = async (title) => {
          asked = title;
          return { [`order.${ids.brand}`]: '1', [`order.${ids.halvaine}`]: '2' };
        };
        await press(w, gm, 'startDeclaringInTurn');
        expect((w.combat as any).flags['ten-segments'].declaring.roster).toEqual([ids.brand, ids.halvaine]);
        expect(asked).toBe('Who declares, in what order');
        for (let k = 0; k < 2; k++) {
          const call = (w.combat as any).flags['ten-segments'].declaring;
          expect(call.called).not.toBeNull();
          const [who, id, values] = party.find(([, cid]) => cid === call.called)!;
          ms += 7_000; // seven seconds of hesitation: one segment of delay
          const shown = await draw(w, gm);
          expect(shown.ts.clock).toMatchObject({ combatantId: id, text: '0:07', segments: 1, running: true });
          expect(text(shown.html)).toContain(`Called: ${w.combat.combatants.get(id)!.name}`);
          expect(shown.buttons.find((b) => b.action === 'pauseClock')).toMatchObject({ disabled: false, label: 'Pause the clock (a question to the GM)' });
          // A question to the GM: paused, half a minute does not count; then the clock runs again.
          await press(w, gm, 'pauseClock');
          ms += 30_000;
          const paused = await draw(w, gm);
          expect(paused.ts.clock).toMatchObject({ text: '0:07', running: false, status: 'paused' });
          expect(paused.buttons.find((b) => b.action === 'pauseClock')).toMatchObject({ label: 'Let the clock run again', data: { paused: 'false' } });
          await press(w, gm, 'pauseClock');
          expect((await draw(w, gm)).ts.clock).toMatchObject({ text: '0:07', running: true });
          await submitDeclaration(w, who, id, values);
          expect((await draw(w, gm)).ts.clock).toMatchObject({ running: false, text: '0:07' });
          await press(w, gm, 'callNext');
        }
        expect((w.combat as any).flags['ten-segments'].declaring.called).toBeNull();
      } else {
        // The GM's call opens each player's dialog on their client.
        await press(w, gm, 'callDeclarations');
        for (const [who, id, values] of party) {
          if (!able(id) || !(await undeclared(w, who, id))) continue; // a declaration carried into this round stands
          await submitDeclaration(w, who, id, values);
        }
      }
      // The GM declares for the orcs still standing, from their rows.
      for (const [orc, target] of [[ids.orc1, ids.brand], [ids.orc2, ids.halvaine]]) {
        if (!able(orc) || !(await undeclared(w, gm, orc))) continue;
        await press(w, gm, 'declare', orc);
        await submitDeclaration(w, gm, orc, { action: 'melee', target });
      }
      // A player sees his side declared and no orc's plan.
      const p2view = await draw(w, player2);
      expect(p2view.ts.sides.flatMap((s) => s.rows).filter((r) => r.name.startsWith('Orc')).every((r) => !r.declaration || !/melee|attack/i.test(r.declaration.text))).toBe(true);

      /* ---------------- initiative */
      await press(w, gm, 'rollInitiative');
      expect(flow(w).stage).toBe('resolve');
      expect(refusals(w)).toEqual([]);
      // addict: the seven seconds each took to answer (the pause not counted) are one segment of delay.
      if (procedure === 'addict') for (const id of [ids.halvaine, ids.brand]) expect(flow(w).declarations[id]).toMatchObject({ hesitationSeconds: 7 });

      /* ---------------- the steps */
      for (let guard = 0; flow(w).stage === 'resolve' && guard < 60; guard++) {
        const gmView = await draw(w, gm);
        const current = gmView.ts.columns.flatMap((c) => c.steps).find((s) => s.current);
        expect(current, 'a current step').toBeDefined();
        expect(gmView.ts.currentLabel).toBe(current!.label);
        expect(text(gmView.html)).toContain(current!.label);
        // Who acts now: every enabled Attack on a row is one of this step's entries.
        for (const [who, id] of [[player, ids.halvaine], [player2, ids.brand], [gm, ids.orc1], [gm, ids.orc2]] as [any, string][]) {
          const view = await draw(w, who);
          const attack = view.buttons.find((b) => b.action === 'attack' && b.combatantId === id);
          if (!attack || attack.disabled) continue;
          expect(current!.entries.map((e) => e.combatantId)).toContain(id);
          const hitter = id === ids.halvaine || id === ids.brand;
          const die = hitter ? [20, id === ids.brand ? 8 : 4] : [1];
          w.foundry.dice.push(...die);
          const cards = g.game.messages.size;
          await press(w, who, 'attack', id);
          expect(g.game.messages.size).toBeGreaterThan(cards); // the attack's card
          attacked.set(id, (attacked.get(id) ?? 0) + 1);
          expect(refusals(w)).toEqual([]);
          expect(w.foundry.dice.remaining).toEqual([]);
        }
        const after = await draw(w, gm);
        for (const e of after.ts.columns.flatMap((c) => c.steps).flatMap((s) => s.events)) if (/fallen/.test(e.css)) fallen.add(e.text);
        await press(w, gm, 'nextStep');
      }
      expect(flow(w).stage).toBe('end-of-round');
      const end = await draw(w, gm);
      expect(end.buttons.find((b) => b.action === 'endRound')?.label).toBe('Next round');
      if (orcsDown()) break;
      await press(w, gm, 'endRound');
      expect(flow(w).round).toBeGreaterThan(0);
    }
    expect(orcsDown()).toBe(true);
    // Both of the party struck from their own rows; an orc swung (and missed) from the GM's.
    expect(attacked.get(ids.brand)).toBeGreaterThan(0);
    expect(attacked.get(ids.halvaine)).toBeGreaterThan(0);
    // The fallen on the timeline, on the GM's tracker and on a player's.
    expect([...fallen].join(' | ')).toMatch(/Orc 1/);
    expect([...fallen].join(' | ')).toMatch(/Orc 2/);
    const last = await draw(w, player);
    for (const name of ['Orc 1', 'Orc 2']) {
      const row = last.ts.sides.flatMap((s) => s.rows).find((r) => r.name === name || r.name.startsWith(name));
      expect(row?.health[0]?.text, name).not.toBe('fighting');
    }
    // The party still standing.
    expect(flow(w).states[ids.brand].condition).toBe('ok');
    // The GM ends the combat from the footer.
    await press(w, gm, 'endCombat');
    expect(g.game.combats.get(w.combat.id)).toBeUndefined();
    expect(rounds).toBeLessThanOrEqual(3);
  });
});
