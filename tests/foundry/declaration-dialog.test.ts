/**
 * The declaration dialog (issue 10, Deliver 2) against the stand-in: the
 * context a user sees (only the legal actions, the weapon's speed factor and
 * length, the spell's casting time and copies), a submit the GM accepts and
 * one refused (the answer in words, nothing changed, the dialog still open),
 * and addict's declaring in turn (seed 004 phase 6): the GM's call, the
 * called player's dialog opening by itself, the clock measured by the active
 * GM's client ("For every full 6 seconds of real-life delay, the DM notes that
 * the character will delay 1 segment"), the GM's pause, a player unable to
 * forge the call. Time is injected (setClock): no test reads the wall clock.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, g, type World, idle } from './world';
import { whenIdle } from '../../src/documents/queries';
import { closeDeclarationDialogs, openDeclarationDialog, openDialogFor, prepareDeclarationContext, type DeclarationContext } from '../../src/apps/declaration-dialog';
import { callNext, pauseClock, setClock, startDeclaringInTurn, turnCall } from '../../src/documents/declaring-in-turn';

/** The dialog's template, compiled with Handlebars' built-ins only (the helpers the brief allows). */
const template = Handlebars.compile(readFileSync(new URL('../../templates/dialogs/declaration.hbs', import.meta.url), 'utf8'), { strict: false });

const shown = (dialog: unknown): DeclarationContext => (dialog as { lastContext: DeclarationContext }).lastContext;

const ctx = (w: World, id: string, user: unknown = w.foundry.users.gm): Promise<DeclarationContext> =>
  w.foundry.asUser(user, () => prepareDeclarationContext(w.combat, id, 'declare'));

describe.each([13, 14] as const)('declaration dialog, generation %i', (generation) => {
  let w: World;
  let time: number;

  beforeEach(() => {
    time = 1_000_000;
    setClock(() => time);
  });
  afterEach(async () => {
    setClock();
    await closeDeclarationDialogs();
  });

  describe('segment-d6', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'segment-d6');
      w.foundry.dice.push(5, 5); // surprise: nobody
      await w.combat.startCombat();
      await idle(w);
    });

    it('offers only the legal actions, the equipped weapon with speed factor and length, the spell with casting time and copies', async () => {
      const brand = await ctx(w, w.ids.brand, w.foundry.users.player2);
      const actions = brand.actions.map((a) => a.value);
      expect(actions).toContain('melee');
      expect(actions).toContain('wait'); // seed 000: "hold"
      expect(actions).not.toContain('full-defense'); // not in segment-d6's list
      expect(actions).not.toContain('delay'); // high-low's
      expect(actions).not.toContain('spell'); // Brand has no spell in memory
      expect(brand.actions.find((a) => a.value === 'melee')?.label).toBe('Melee attack');
      expect(brand.weapons).toEqual([expect.objectContaining({ id: w.sword.id, name: 'Long sword', speed: 5, length: 3.5, label: 'Long sword — speed factor 5, length 3.5 ft' })]);
      expect(brand.extras).toBeNull(); // high-low's extras only there
      expect(brand.current).toBe('Not declared yet');
      const halvaine = await ctx(w, w.ids.halvaine, w.foundry.users.player);
      expect(halvaine.actions.map((a) => a.value)).toContain('spell');
      expect(halvaine.spells).toEqual([
        expect.objectContaining({ name: 'Sleep', castingTime: 2, memorized: 1, expended: 0, available: true, label: 'Sleep — casting time 2 segments, memorized 1, expended 0' }),
      ]);
      // The targets: everyone else in the combat; the user's targeted token preselected.
      const targeted = await w.foundry.asUser(w.foundry.users.player2, () => {
        const orc = w.combat.combatants.get(w.ids.orc2)!;
        g.game.user.targets = new Set([{ id: orc.tokenId, document: { id: orc.tokenId } }]);
        try {
          return prepareDeclarationContext(w.combat, w.ids.brand, 'declare');
        } finally {
          delete g.game.user.targets;
        }
      });
      expect(targeted.targets.map((t) => t.name)).toEqual(['Halvaine', 'Orc 1', 'Orc 2']);
      expect(targeted.targets.find((t) => t.selected)?.id).toBe(w.ids.orc2);
    });

    it('a player opens the dialog for their own combatant only; the GM for any', async () => {
      expect(await w.foundry.asUser(w.foundry.users.player2, () => openDeclarationDialog(w.combat, w.ids.halvaine, { mode: 'declare' }))).toBeNull();
      expect(await w.foundry.asUser(w.foundry.users.player2, () => openDeclarationDialog(w.combat, w.ids.brand, { mode: 'declare' }))).not.toBeNull();
      expect(await openDeclarationDialog(w.combat, w.ids.orc1, { mode: 'declare' })).not.toBeNull();
    });

    it('a submit the GM accepts: the answer in words, the declaration recorded and shown', async () => {
      const p2 = w.foundry.users.player2;
      const dialog = (await w.foundry.asUser(p2, () => openDeclarationDialog(w.combat, w.ids.brand, { mode: 'declare' })))!;
      const answer = await w.foundry.asUser(p2, () => dialog.send({ action: 'melee', weapon: w.sword.id, target: w.ids.orc1, spell: w.spell.id }));
      await idle(w);
      expect(answer).toEqual({ ok: true });
      expect(w.combat.flowState!.declarations[w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc1, weapon: { name: 'Long sword', speed: 5 } });
      expect(w.combat.flowState!.declarations[w.ids.brand].spell).toBeUndefined(); // a melee attack sends no spell
      const seen = shown(dialog);
      expect(seen.answer).toEqual({ ok: true, text: 'Brand: declared — Melee attack.' });
      expect(seen.current).toBe('Brand now: Melee attack · Long sword → Orc 1');
    });
  });

  describe('addict', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'addict');
      w.foundry.dice.push(5, 5); // surprise: nobody
      await w.combat.startCombat();
      await idle(w);
    });

    it('a refused submit: the reason in words, nothing changed, the dialog open with the choices kept', async () => {
      const p2 = w.foundry.users.player2;
      const dialog = (await w.foundry.asUser(p2, () => openDeclarationDialog(w.combat, w.ids.brand, { mode: 'declare' })))!;
      expect(await w.foundry.asUser(p2, () => dialog.send({ action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }))).toEqual({ ok: true });
      await idle(w);
      const before = JSON.stringify(w.combat.flowState!.declarations);
      // Seed 004 phase 6: "Once an action is declared, it cannot be changed". The engine's list says so too.
      expect((shown(dialog)).nothing).toContain('Brand can declare nothing now');
      const answer = await w.foundry.asUser(p2, () => dialog.send({ action: 'flee', target: w.ids.orc2 }));
      await idle(w);
      expect(answer).toMatchObject({ ok: false, key: 'DeclarationFinal' });
      expect(JSON.stringify(w.combat.flowState!.declarations)).toBe(before);
      const seen = shown(dialog);
      expect(seen.answer?.ok).toBe(false);
      expect(seen.answer?.text).toMatch(/^Refused: .*Brand/);
      expect(seen.answer?.text).not.toContain('TENSEG.');
      expect(dialog.rendered).toBe(true);
      expect(dialog.values).toMatchObject({ action: 'flee', target: w.ids.orc2 });
    });

    it('declaring in turn: a die picks who declares first, the called player\'s dialog opens with the clock; 13 s (injected) → 2 segments of delay', async () => {
      const { ids, foundry } = w;
      foundry.dice.push(2); // 1d2 on the roster [Halvaine, Brand]: Brand declares first
      expect(await startDeclaringInTurn(w.combat, [ids.halvaine, ids.brand])).toEqual({ ok: true });
      await foundry.settle();
      await idle(w);
      const call = turnCall(w.combat)!;
      expect(call).toMatchObject({ roster: [ids.halvaine, ids.brand], roll: 2, order: [ids.brand, ids.halvaine], called: ids.brand, calledAt: time });
      // The called player's dialog opened by itself, with the clock running; the other player's did not.
      const dialog = await foundry.asUser(foundry.users.player2, () => openDialogFor(w.combat, ids.brand));
      expect(dialog?.rendered).toBe(true);
      expect(await foundry.asUser(foundry.users.player, () => openDialogFor(w.combat, ids.halvaine))).toBeUndefined();
      time += 13_000;
      // Shown on both: the GM's view of the same call and the player's.
      const gmView = await ctx(w, ids.brand);
      const playerView = await ctx(w, ids.brand, foundry.users.player2);
      for (const view of [gmView, playerView]) expect(view.clock).toMatchObject({ running: true, paused: false, seconds: 13, segments: 2, text: '0:13', delay: 'Delay so far: 2 segments' });
      expect(gmView.clock?.roll).toBe('Die for who declares first: 2 of 2 (Brand)');
      // The running clock as the page shows it.
      const html = template(playerView);
      expect(html).toMatch(/<section class="tenseg-clock is-running"[^>]*data-clock data-running="true"[^>]*data-segments="2"/);
      expect(html).toMatch(/<time class="tenseg-clock-time" data-clock-time>0:13<\/time>/);
      expect(html).toContain('Long sword — speed factor 5, length 3.5 ft');
      expect(html).not.toContain('value="full-defense"');
      // The answer stops the clock; the active GM records the seconds it measured.
      expect(await foundry.asUser(foundry.users.player2, () => dialog!.send({ action: 'melee', weapon: w.sword.id, target: ids.orc1 }))).toEqual({ ok: true });
      await idle(w);
      expect(w.combat.flowState!.declarations[ids.brand]).toMatchObject({ action: 'melee', hesitationSeconds: 13 });
      expect(turnCall(w.combat)).toMatchObject({ called: ids.brand, answeredSeconds: 13, answers: [{ combatant: ids.brand, seconds: 13, segments: 2 }] });
      time += 60_000;
      expect((await ctx(w, ids.brand)).clock).toMatchObject({ running: false, seconds: 13, segments: 2, label: 'Declared: the clock has stopped' });
      // The engine delays Brand 2 segments (README, addict: floor(s / 6)): the orcs' die 3 → Brand acts in segment 5, not 3.
      await w.combat.recordDeclaration(ids.orc1, { combatant: ids.orc1, action: 'melee', target: ids.brand }, { hold: true });
      foundry.dice.push(4, 3);
      await w.combat.rollInitiative();
      await idle(w);
      const steps = w.combat.flowState!.schedule!.steps;
      const brandStep = steps.find((s) => s.entries.some((e) => e.combatant === ids.brand && e.kind === 'action'));
      expect(brandStep?.segment).toBe(5);
    });

    it('the GM\'s pause: asking the GM does not count (footnote 10); the next one called, 4 s + 30 s paused + 3 s → 7 s, 1 segment', async () => {
      const { ids, foundry } = w;
      foundry.dice.push(1); // Halvaine first
      await startDeclaringInTurn(w.combat, [ids.halvaine, ids.brand]);
      await idle(w);
      expect(turnCall(w.combat)?.called).toBe(ids.halvaine);
      await callNext(w.combat); // Halvaine says nothing: Brand is called, his clock starts now
      await idle(w);
      expect(turnCall(w.combat)).toMatchObject({ called: ids.brand, calledAt: time, index: 1 });
      time += 4_000;
      await pauseClock(w.combat, true);
      await idle(w);
      time += 30_000;
      expect((await ctx(w, ids.brand, foundry.users.player2)).clock).toMatchObject({ paused: true, running: false, seconds: 4, label: 'Clock paused by the GM' });
      await pauseClock(w.combat, false);
      time += 3_000;
      await foundry.asUser(foundry.users.player2, async () => {
        const d = (await openDeclarationDialog(w.combat, ids.brand, { mode: 'declare' }))!;
        expect(await d.send({ action: 'flee' })).toEqual({ ok: true });
      });
      await idle(w);
      expect(w.combat.flowState!.declarations[ids.brand]).toMatchObject({ action: 'flee', hesitationSeconds: 7 });
      expect(turnCall(w.combat)?.answers).toEqual([{ combatant: ids.brand, seconds: 7, segments: 1 }]);
      // After the last on the roster, nobody is called.
      await callNext(w.combat);
      await idle(w);
      expect(turnCall(w.combat)?.called).toBeNull();
    });

    it('a player cannot write the call, nor call, nor pause; a declaration by someone not called is not timed', async () => {
      const { ids, foundry } = w;
      foundry.dice.push(1);
      await startDeclaringInTurn(w.combat, [ids.halvaine, ids.brand]);
      await idle(w);
      const before = JSON.stringify(turnCall(w.combat));
      const p2 = foundry.users.player2;
      await expect(foundry.asUser(p2, () => (w.combat as any).setFlag('ten-segments', 'declaring', { ...turnCall(w.combat)!, called: ids.brand, calledAt: time + 60_000 }))).rejects.toThrow();
      await expect(foundry.asUser(p2, () => w.combat.update({ 'flags.ten-segments.declaring.calledAt': time + 60_000 } as never))).rejects.toThrow();
      expect(await foundry.asUser(p2, () => callNext(w.combat))).toMatchObject({ ok: false, problem: { key: 'DeclaringInTurnGMOnly' } });
      expect(await foundry.asUser(p2, () => pauseClock(w.combat, true))).toMatchObject({ ok: false, problem: { key: 'DeclaringInTurnGMOnly' } });
      await idle(w);
      expect(JSON.stringify(turnCall(w.combat))).toBe(before);
      // Brand, not called, declares out of turn: no delay is timed for him (Halvaine's clock runs on).
      time += 20_000;
      await foundry.asUser(p2, async () => {
        const d = (await openDeclarationDialog(w.combat, ids.brand, { mode: 'declare' }))!;
        expect(await d.send({ action: 'flee' })).toEqual({ ok: true });
      });
      await idle(w);
      expect(w.combat.flowState!.declarations[ids.brand].hesitationSeconds).toBeUndefined();
      expect(turnCall(w.combat)).toMatchObject({ called: ids.halvaine, answeredSeconds: null });
    });

    it('only under addict: another procedure refuses the call in words', async () => {
      const other = await makeWorld(generation, 'segment-d6');
      other.foundry.dice.push(5, 5);
      await other.combat.startCombat();
      expect(await startDeclaringInTurn(other.combat)).toMatchObject({ ok: false, problem: { key: 'DeclaringInTurnAddictOnly' } });
      expect(turnCall(other.combat)).toBeNull();
    });
  });
});
