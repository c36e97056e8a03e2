/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * "Odds of this fight" in Foundry (issue 14, Deliver 6): the tracker's
 * control (the GM only, greyed with one side); the combat as the odds engine
 * plays it (odds-setup.ts: AC, AAC0, damage, routines and positions read
 * from actors, items and tokens; the round's declarations, the GM's held
 * plans among them; the RULING for a combatant without one); the dialog with
 * an injected runner (the Worker's own handler, played in-process in
 * batches): progress, Cancel keeping the trials played and marking them
 * stopped, the chart and the table, refused to a player; and the worker's
 * handler called directly (same seed, same figures, however batched).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { g, makeWorld, brandVersusOrcs, idle, type World } from './world';
import { draw, press } from './tracker-driver';
import { oddsControl } from '../../src/apps/tracker/controls';
import { oddsSetupFor, oddsSetupsFor, oddsProcedures } from '../../src/documents/odds-setup';
import { OddsDialog, oddsDialogFor, oddsRunners, openOddsDialog, type OddsRunner } from '../../src/apps/odds-dialog';
import { playOdds, type OddsJob, type OddsReply } from '../../src/odds-worker';
import { getProcedure } from '../../src/rules/registry';
import { resolveOptions } from '../../src/rules/procedure';
import { PROCEDURE_IDS } from '../../src/rules/model';
import { playTrial } from '../../src/rules/odds/trial';
import { mergeTally, newTally, runTrials } from '../../src/rules/odds/tally';
import type { OddsSetup, Tally } from '../../src/rules/odds/types';

/** The worker's handler played in this process, in batches, yielding between them (what a Worker does off the page). */
function inProcess(seen: OddsReply[] = []): OddsRunner {
  return (job, on) => {
    let stopped = false;
    void playOdds(job, (reply) => {
      seen.push(reply);
      on(reply);
    }, { stop: () => stopped, pause: () => new Promise((resolve) => setTimeout(resolve, 0)) });
    return { cancel: () => (stopped = true) };
  };
}

/** A runner the test drives: it keeps the job and the reply function, and counts cancels. */
function manual() {
  const run = { job: null as OddsJob | null, on: null as ((r: OddsReply) => void) | null, cancelled: 0 };
  const runner: OddsRunner = (job, on) => {
    run.job = job;
    run.on = on;
    return { cancel: () => run.cancelled++ };
  };
  return { run, runner };
}

/** The tally of `trials` of one setup played in one go from `seed` (what the command line computes for it). */
function direct(setup: OddsSetup, seed: number, trials: number): Tally {
  const tally = newTally(setup.procedure);
  const procedure = getProcedure(setup.procedure);
  runTrials((dice) => playTrial(setup, procedure, dice), setup.procedure, seed, 0, trials, tally);
  return tally;
}

const html = (d: OddsDialog) => String((d as any).partHTML.body ?? '');

describe.each([13, 14] as const)('the odds of this fight, generation %i', (generation) => {
  let w: World;
  afterEach(async () => {
    oddsRunners.inject = null;
    for (const c of g.game?.combats ?? []) await oddsDialogFor(c)?.close();
  });

  it('the tracker offers the GM "Odds of this fight", not a player; greyed with the reason while one side has combatants', async () => {
    w = await makeWorld(generation, 'segment-d6');
    const { gm, player } = w.foundry.users;
    const odds = (await draw(w, gm)).buttons.find((b) => b.action === 'oddsOfFight');
    expect(odds).toMatchObject({ disabled: false, label: 'Odds of this fight' });
    expect((await draw(w, player)).buttons.some((b) => b.action === 'oddsOfFight')).toBe(false);
    // The orcs leave: one side.
    await w.combat.deleteEmbeddedDocuments('Combatant', [w.ids.orc1, w.ids.orc2]);
    await idle(w);
    const drawn = await draw(w, gm);
    expect(drawn.buttons.find((b) => b.action === 'oddsOfFight')).toMatchObject({ disabled: true });
    expect(drawn.html).toContain('data-tooltip="The odds need two sides with combatants."');
    expect(oddsControl(1)).toMatchObject({ disabled: true, reason: 'The odds need two sides with combatants.' });
  });

  it('the setup: AC, AAC0, size, damage of the declared (else the equipped) weapon, routines, positions; the round\'s declarations with the GM\'s held plans; the nearest foe for the undeclared', async () => {
    w = await makeWorld(generation, 'segment-d6');
    const [dagger] = await w.actors.brand.createEmbeddedDocuments('Item', [{ name: 'Dagger', type: 'weapon', system: { damage: { small: '1d4', large: '1d3' }, kind: 'melee', equipped: false } }]);
    await w.actors.orc2.update({ 'system.size': 'large', 'system.attacks': '2 claws (1d4/1d4) and bite (1d8)' });
    // Before the start: nobody has declared; each attacks the nearest foe with its weapon in hand.
    let setups = await oddsSetupsFor(w.combat);
    expect(setups.map((s) => s.procedure)).toEqual(oddsProcedures('segment-d6'));
    expect(setups.map((s) => s.procedure)).toEqual(PROCEDURE_IDS.includes('segment-d6') ? ['segment-d6', ...PROCEDURE_IDS.filter((p) => p !== 'segment-d6')] : []);
    let s = setups[0];
    expect(s.fighters[w.ids.brand]).toEqual({ ac: 5, aac0: '19', size: 'medium', damage: '1d8', damageLarge: '1d12', position: { x: 1, y: 0 } });
    expect(s.fighters[w.ids.orc1]).toEqual({ ac: 6, aac0: '19', size: 'medium', attacks: 'axe 1d8', position: { x: 3, y: 0 } });
    expect(s.fighters[w.ids.orc2]).toMatchObject({ size: 'large', attacks: '2 claws (1d4/1d4) and bite (1d8)', position: { x: 3, y: 1 } });
    expect(s.fighters[w.ids.halvaine]).toMatchObject({ ac: 5, aac0: '19', position: { x: 0, y: 0 } });
    expect(s.fighters[w.ids.halvaine].damage).toBeUndefined();
    // RULING: Halvaine (0,0) has orc 1 (3,0) nearer than orc 2 (3,1); the orcs go for Brand (1,0), nearer than Halvaine.
    expect(s.declarations).toHaveLength(1);
    expect(s.declarations[0][w.ids.halvaine]).toEqual({ combatant: w.ids.halvaine, action: 'melee', target: w.ids.orc1 });
    expect(s.declarations[0][w.ids.orc2]).toEqual({ combatant: w.ids.orc2, action: 'melee', target: w.ids.brand });
    expect(s.declarations[0][w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc1, weapon: { name: 'Long sword' } });
    expect(s.spells).toEqual({});
    expect(s.maxRounds).toBe(10);
    expect(s.encounter.combatants.map((c) => c.id).sort()).toEqual(Object.values(w.ids).sort());

    // Started: Brand declares his dagger at orc 2 (the log), orc 1 goes for Halvaine (the GM's plan, held back until initiative).
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await idle(w);
    const { requestDeclaration } = await import('../../src/documents/queries');
    await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: dagger.id, target: w.ids.orc2 }));
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.halvaine });
    await idle(w);
    expect(w.combat.flowState!.declarations[w.ids.orc1]).toBeUndefined(); // held: not in the log
    s = oddsSetupFor(w.combat, 'segment-d6');
    expect(s.declarations[0][w.ids.brand]).toMatchObject({ action: 'melee', target: w.ids.orc2, weapon: { name: 'Dagger' } });
    expect(s.fighters[w.ids.brand]).toMatchObject({ damage: '1d4', damageLarge: '1d3' });
    expect(s.declarations[0][w.ids.orc1]).toMatchObject({ action: 'melee', target: w.ids.halvaine });
    // The combat's options for its own procedure; each other procedure's defaults.
    expect(s.options).toEqual(w.combat.flowState!.options);
    setups = await oddsSetupsFor(w.combat);
    for (const other of setups.slice(1)) expect(other.options).toEqual(resolveOptions(getProcedure(other.procedure)).options);
  });

  it('the control opens the dialog and plays every procedure with the worker\'s code: progress batch by batch, then the chart and the table; the same figures as one run from the seed', async () => {
    w = await makeWorld(generation, 'segment-d6');
    await brandVersusOrcs(w, [4, 5], { orcs: [] });
    const seen: OddsReply[] = [];
    const progress: number[] = [];
    const base = inProcess(seen);
    let dialog: OddsDialog | null = null;
    oddsRunners.inject = (job, on) => base({ ...job, trials: 300 }, (r) => {
      on(r);
      if (r.t === 'batch') progress.push(dialog!.played);
    });
    // Pressed on the GM's tracker: the dialog opens and starts at once (10,000 a procedure by default; the job here asks 300).
    await press(w, w.foundry.users.gm, 'oddsOfFight');
    dialog = oddsDialogFor(w.combat)!;
    expect(dialog).toBeInstanceOf(OddsDialog);
    expect(dialog.trials).toBe(10_000);
    await dialog.run(300, 7);
    expect(dialog.phase).toBe('running');
    expect(dialog.lastContext).toMatchObject({ running: true, played: 0, total: 1500, count: '0 of 1,500 trials' });
    expect(html(dialog)).toContain('<progress data-odds-progress value="0" max="1500">');
    expect(html(dialog)).toContain('data-action="cancel"');
    await dialog.finished;
    expect(dialog.phase).toBe('done');
    // Two batches a procedure (250, then 50): the count follows them.
    expect(progress.slice(0, 4)).toEqual([250, 300, 550, 600]);
    expect(progress.at(-1)).toBe(1500);
    expect(dialog.report).toMatchObject({ complete: true, seed: 7, trials: 300 });
    expect(dialog.report!.procedures.map((p) => p.procedure)).toEqual(oddsProcedures('segment-d6'));
    const c = dialog.lastContext!;
    expect(c).toMatchObject({ running: false, stopped: false, count: '1,500 of 1,500 trials' });
    expect(c.table!.head.slice(0, 2)).toEqual(['Procedure', 'Trials']);
    expect(c.table!.head).toContain('Undecided');
    expect(c.table!.rows.map((r) => r.procedure)).toEqual(oddsProcedures('segment-d6').map((p) => g.game.i18n.localize(`TENSEG.Procedure.${p}.Name`)));
    expect(c.table!.rows.every((r) => r.trials === '300')).toBe(true);
    const body = html(dialog);
    expect(body).toContain('<figure class="odds-chart"><svg');
    expect(body).not.toContain('<?xml');
    expect(body).toContain('<table class="odds-table">');
    expect(body).toContain('data-action="runAgain"');
    expect(body).not.toContain('Stopped early');
    // The same seed gives the figures of each procedure played in one go (the command line's).
    for (const [i, setup] of dialog.setups.entries()) expect(dialog.tallies[i]).toEqual(direct(setup, 7, 300));
  });

  it('Cancel stops the runner and keeps the trials played, marked as stopped early; Run again starts afresh', async () => {
    w = await makeWorld(generation, 'segment-d6');
    const { run, runner } = manual();
    oddsRunners.inject = runner;
    const dialog = (await openOddsDialog(w.combat))!;
    await dialog.render();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(run.job).toMatchObject({ t: 'run', trials: 10_000, seed: 1 });
    expect(run.job!.setups).toHaveLength(5);
    // One batch of the first procedure arrives.
    const first = run.job!.setups[0];
    const batch = direct(first, 1, 120);
    run.on!({ t: 'batch', index: 0, tally: batch });
    expect(dialog.played).toBe(120);
    expect(dialog.countText()).toBe('120 of 50,000 trials');
    await OddsDialog.onCancel.call(dialog);
    expect(run.cancelled).toBe(1);
    expect(dialog.phase).toBe('stopped');
    expect(dialog.report).toMatchObject({ complete: false });
    expect(dialog.report!.procedures.map((p) => [p.procedure, p.trials])).toEqual([[first.procedure, 120]]);
    expect(dialog.lastContext).toMatchObject({ stopped: true, played: 120, count: '120 of 50,000 trials' });
    const body = html(dialog);
    expect(body).toContain('Stopped early: the figures are those of the trials played so far.');
    expect(body).toContain('<svg');
    expect(body).toContain('<table class="odds-table">');
    // A late reply of the stopped run counts for nothing.
    run.on!({ t: 'batch', index: 0, tally: batch });
    expect(dialog.played).toBe(120);
    // Run again (trials clamped to 100..100,000): a new job.
    await dialog.run(50, 3);
    expect(dialog.trials).toBe(100);
    expect(run.job).toMatchObject({ trials: 100, seed: 3 });
    expect(dialog.phase).toBe('running');
    expect(dialog.played).toBe(0);
    await dialog.close();
    expect(run.cancelled).toBe(2);
  });

  it('a player cannot open it: refused in words; a worker\'s error is shown in words', async () => {
    w = await makeWorld(generation, 'segment-d6');
    const { player } = w.foundry.users;
    const opened = await w.foundry.client(player).run(() => openOddsDialog(g.game.combats.get(w.combat.id)));
    expect(opened).toBeNull();
    expect(w.foundry.client(player).notifications.at(-1)).toEqual({ type: 'error', message: 'Only the GM can play out the odds of a fight.' });
    // Made directly, it is not drawn for a player either (core's _canRender refusal: a warning in the same words).
    await w.foundry.client(player).run(async () => {
      const d = new OddsDialog(g.game.combats.get(w.combat.id));
      await d.render({ force: true });
      expect(d.lastContext).toBeNull();
    });
    expect(w.foundry.client(player).notifications.at(-1)).toMatchObject({ message: 'Only the GM can play out the odds of a fight.' });
    // No Worker in this process and none injected: said in words.
    const dialog = (await openOddsDialog(w.combat))!;
    await dialog.finished;
    expect(dialog.phase).toBe('failed');
    expect(dialog.message).toBe('This browser cannot play the trials in the background (no Web Worker).');
    expect(html(dialog)).toContain('no Web Worker');
    const { run, runner } = manual();
    oddsRunners.inject = runner;
    await dialog.run(100, 1);
    run.on!({ t: 'error', message: 'boom' });
    await dialog.finished;
    expect(dialog.message).toBe('The trials could not be played: boom');
  });

  it('the worker\'s handler: a tally per batch, then done; merged, the figures of one run; stopped, no done; a bad job refused', async () => {
    w = await makeWorld(generation, 'high-low');
    const setups = await oddsSetupsFor(w.combat);
    expect(setups[0].procedure).toBe('high-low');
    const replies: OddsReply[] = [];
    await playOdds({ t: 'run', setups: setups.slice(0, 2), trials: 25, seed: 11, batch: 10 }, (r) => replies.push(r));
    expect(replies.map((r) => (r.t === 'batch' ? `${r.index}:${r.tally.trials}` : r.t))).toEqual(['0:10', '0:10', '0:5', '1:10', '1:10', '1:5', 'done']);
    for (const i of [0, 1]) {
      const merged = newTally(setups[i].procedure);
      for (const r of replies) if (r.t === 'batch' && r.index === i) mergeTally(merged, r.tally);
      expect(merged).toEqual(direct(setups[i], 11, 25));
    }
    const stopped: OddsReply[] = [];
    let n = 0;
    await playOdds({ t: 'run', setups, trials: 25, seed: 11, batch: 10 }, (r) => stopped.push(r), { stop: () => n++ > 12 });
    expect(stopped.some((r) => r.t === 'done')).toBe(false);
    const bad: OddsReply[] = [];
    await playOdds({ t: 'go' }, (r) => bad.push(r));
    expect(bad).toEqual([{ t: 'error', message: 'not an odds job' }]);
  });
});
