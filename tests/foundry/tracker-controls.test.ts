/**
 * The tracker's controls (src/apps/tracker/controls.ts): which buttons a GM
 * and a player get at each moment of the round under several procedures,
 * greyed with the engine's reason in words; what a click does (the
 * TRACKER_ACTIONS function called as the tracker calls it, `this` the
 * tracker, the clicked element naming its combatant); initiative dice
 * entered by hand, used exactly, a bad one refused in words with nothing
 * changed; the call for declarations opening the dialogs on the players'
 * clients (a forged call from a player ignored); monsters' attack cards
 * whispered to the GMs by default.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { afterEach, describe, expect, it } from 'vitest';
import { g, makeWorld, type World, idle, brandVersusOrcs } from './world';
import { requestDeclaration, requestCombatAction, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { CHANNEL } from '../../src/documents/requests';
import { attackFor, combatControls, combatantMenu, rowControls, TRACKER_ACTIONS, type ControlsInput, type ControlView } from '../../src/apps/tracker/controls';
import { declarationOpener } from '../../src/apps/tracker/actions';
import { initiativeDice, submitManualDice } from '../../src/apps/tracker/manual-dice';
import { forms } from '../../src/apps/tracker/gm-prompts';
import { turnCall } from '../../src/documents/declaring-in-turn';
import { prepareDeclarationContext } from '../../src/apps/declaration-dialog';
import { GM_VIEW, timeline } from '../../src/rules/timeline';
import type { FlowState } from '../../src/rules/flow';

const flow = (w: World): FlowState => w.combat.flowState as FlowState;

/** What the tracker of `user` would show: the header's buttons, and a row's. */
async function controlsOf(w: World, user: any): Promise<{ header: ControlView[]; row: (id: string) => ControlView[]; input: ControlsInput }> {
  return w.foundry.client(user).run(() => {
    const combat = g.game.combats.get(w.combat.id);
    const state = combat.flowState as FlowState | null;
    const gm = !!g.game.user.isGM;
    const mine = combat.combatants.filter((c: any) => c.isOwner);
    const owned = new Set<string>(mine.map((c: any) => c.id));
    const sides = [...new Set<string>(mine.map((c: any) => c._source.group))];
    const view = state ? timeline(state, gm ? GM_VIEW : { gm: false, sides, hidden: [] }) : ({ combatants: [] } as any);
    const input: ControlsInput = { view, state, gm, owned, started: !!state };
    // addict's call, as the tracker reads it (turn-clock.ts).
    const call = turnCall(combat);
    if (call) input.turnCall = { round: call.round, called: call.called, running: call.called !== null && call.answeredSeconds === null, paused: call.pausedAt !== null };
    if (gm) input.npcs = combat.combatants.filter((c: any) => !c.hasPlayerOwner).map((c: any) => c.id);
    const header = combatControls(input);
    const rows = new Map<string, ControlView[]>(combat.combatants.map((c: any) => [c.id, rowControls(input, c.id)]));
    return { header, row: (id: string) => rows.get(id) ?? [], input };
  });
}

const actions = (list: ControlView[]) => list.map((c) => c.action);
const find = (list: ControlView[], action: string) => list.find((c) => c.action === action);

/** A click on a control, as the tracker's ApplicationV2 `actions` call it: on `user`'s client, for a row's combatant (and its data attributes). */
async function click(w: World, user: any, action: string, combatantId?: string, data: Record<string, string> = {}): Promise<void> {
  await w.foundry.client(user).run(async () => {
    const combat = g.game.combats.get(w.combat.id);
    const row = { dataset: { combatantId } };
    const target = { dataset: { ...data }, closest: (sel: string) => (sel === '[data-combatant-id]' && combatantId ? row : null) };
    await TRACKER_ACTIONS[action].call({ viewed: combat }, {} as PointerEvent, target as unknown as HTMLElement);
  });
  await idle(w);
}

/** Everything a refusal must leave as it was. */
function snapshot(w: World): string {
  const combat = w.combat as any;
  return JSON.stringify({ log: combat.system.log, round: combat.round, turn: combat.turn, messages: g.game.messages.size });
}

const groupNamed = (w: World, name: string): string => (w.combat as any).groups.find((gr: any) => gr.name === name).id;

describe.each([13, 14] as const)('the tracker\'s controls, generation %i', (generation) => {
  const realOpen = declarationOpener.open;
  const realAsk = forms.ask;
  afterEach(() => {
    declarationOpener.open = realOpen;
    forms.ask = realAsk;
  });

  it('segment-d6: before the start the GM rolls surprise, a player has nothing; while declaring the GM calls, rolls or enters initiative, a player declares for their own', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm, player, player2 } = w.foundry.users;
    expect(actions((await controlsOf(w, gm)).header)).toEqual(['rollSurprise']);
    expect((await controlsOf(w, player)).header).toEqual([]);
    expect(find((await controlsOf(w, gm)).header, 'rollSurprise')!.label).toBe('Roll surprise and start');

    w.foundry.dice.push(4, 5); // surprise: nobody
    await w.combat.startCombat();
    await idle(w);
    const gmSees = await controlsOf(w, gm);
    expect(actions(gmSees.header)).toEqual(['previousStep', 'callDeclarations', 'declareGroup', 'rollInitiative', 'manualInitiative', 'moraleCheck']);
    expect(gmSees.header.every((c) => !c.disabled)).toBe(true);
    expect(actions(gmSees.row(w.ids.orc1))).toEqual(['declare', 'moraleOne']);
    // Segment-d6 has no delay to announce nor anything to release while declaring.
    const p1 = await controlsOf(w, player);
    expect(actions(p1.header)).toEqual(['declareMine']);
    expect(p1.row(w.ids.halvaine).map((c) => [c.action, c.label, c.data])).toEqual([['declare', 'Declare', { 'combatant-id': w.ids.halvaine }]]);
    expect(p1.row(w.ids.brand)).toEqual([]); // not theirs
    expect(p1.row(w.ids.orc1)).toEqual([]);

    // Once declared: "Change the declaration"; player 2 still has his own to make.
    await w.foundry.asUser(player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await idle(w);
    expect(find((await controlsOf(w, player)).row(w.ids.halvaine), 'declare')!.label).toBe('Change the declaration');
    expect(actions((await controlsOf(w, player)).header)).toEqual([]);
    expect(actions((await controlsOf(w, player2)).header)).toEqual(['declareMine']);
  });

  it('segment-d6 while resolving: Next, End the round, a casting to give up (player) or break (GM); a free attack needs a targeted token, refused in words', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm, player } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await w.foundry.asUser(player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.halvaine });
    await idle(w);
    w.foundry.dice.push(6, 1); // the party acts in segment 1
    await click(w, gm, 'rollInitiative');
    expect(flow(w).stage).toBe('resolve');
    const gmSees = await controlsOf(w, gm);
    expect(actions(gmSees.header)).toEqual(['previousStep', 'nextStep', 'endRound', 'moraleCheck']);
    expect(find(gmSees.header, 'endRound')!.label).toBe('End the round');
    expect(actions(gmSees.row(w.ids.halvaine))).toEqual(['cancelCasting', 'breakCasting', 'attack', 'freeAttack', 'moraleOne']);
    // Her attack is greyed with the engine's reason: she casts, she does not attack in this step.
    expect(find(gmSees.row(w.ids.halvaine), 'attack')).toMatchObject({ disabled: true, reason: expect.any(String) });
    // An attack tried before its step is refused as a GM says it: when it comes (the orcs act in the party's die, 6).
    const early = attackFor(flow(w), w.ids.orc1)!.problem!;
    expect(early).toEqual({ key: 'AttackNotYourStepSegment', data: { name: 'Orc 1', segment: 6 } });
    expect(w.foundry.client(gm).game.i18n.format(`TENSEG.Error.${early.key}`, early.data as never)).toBe("Not Orc 1's turn: Orc 1 attacks in segment 6.");
    expect(actions((await controlsOf(w, player)).row(w.ids.halvaine))).toEqual(['cancelCasting', 'attack']);

    // A free attack with no token targeted: refused in words, nothing written.
    const before = snapshot(w);
    await click(w, gm, 'freeAttack', w.ids.orc1);
    expect(w.foundry.notifications.at(-1)).toEqual({ type: 'error', message: 'Target the token to attack first.' });
    expect(snapshot(w)).toBe(before);

    // The GM breaks Halvaine's casting: she failed a saving throw (the button's data-why).
    await click(w, gm, 'breakCasting', w.ids.halvaine, { why: 'save' });
    expect(flow(w).interruptions).toEqual([expect.objectContaining({ caster: w.ids.halvaine, broken: 'save' })]);
    // Nothing left to give up or break: the buttons go.
    expect(actions((await controlsOf(w, player)).row(w.ids.halvaine))).toEqual(['attack']);

    // Next step, then the round ends: the header reads "Next round".
    const step = flow(w).step;
    await click(w, gm, 'nextStep');
    expect(flow(w).step).toBe(step + 1);
    await click(w, gm, 'endRound');
    expect(flow(w)).toMatchObject({ stage: 'declare', round: 2 });
  });

  it('segment-d6: a held action — Release on its row opens the dialog in release mode; once released, the button is greyed with the reason in words', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await w.foundry.asUser(player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'wait' }));
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.halvaine });
    w.foundry.dice.push(5, 4); // the party acts in segment 4, the orcs in 5
    await w.combat.rollInitiative();
    await w.combat.nextTurn(); // segment 5: the orcs
    await idle(w);
    const release = find((await controlsOf(w, player)).row(w.ids.halvaine), 'release')!;
    expect(release).toMatchObject({ label: 'Release the held action', data: { 'combatant-id': w.ids.halvaine } });
    expect(release.disabled).toBeUndefined();
    const opened: [string, string][] = [];
    declarationOpener.open = async (_combat, combatantId, options) => {
      opened.push([combatantId, options.mode]);
    };
    await click(w, player, 'release', w.ids.halvaine);
    expect(opened).toEqual([[w.ids.halvaine, 'release']]);
    // What the dialog sends: the hold released as the start of Sleep.
    expect(await w.foundry.asUser(player, () => g.game.tenSegments.release(w.ids.halvaine, { action: 'spell', spell: w.spell.id }))).toEqual({ ok: true });
    await idle(w);
    expect(find((await controlsOf(w, player)).row(w.ids.halvaine), 'release')).toMatchObject({ disabled: true, reason: w.foundry.client(player).game.i18n.format('TENSEG.Error.ReleaseUsed', { name: 'Halvaine' }) });
    // Brand holds nothing: no Release on his row.
    expect(find((await controlsOf(w, w.foundry.users.player2)).row(w.ids.brand), 'release')).toBeUndefined();
  });

  it('the GM\'s morale check for the monsters: one check each, called by the GM, written in the log', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    expect(find((await controlsOf(w, gm)).header, 'moraleCheck')).toMatchObject({ label: 'Morale check for the monsters' });
    w.foundry.dice.push(5, 6, 5, 6);
    await click(w, gm, 'moraleCheck');
    const morale = Object.values((w.combat as any).system.log).filter((e: any) => e.t === 'morale') as any[];
    expect(morale.map((e) => e.requests)).toEqual([[{ combatant: w.ids.orc1, trigger: 'called by the GM' }], [{ combatant: w.ids.orc2, trigger: 'called by the GM' }]]);
  });

  it('a player gives up her spell from her row; the casting is cancelled', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await w.foundry.asUser(player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await idle(w);
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    await click(w, player, 'cancelCasting', w.ids.halvaine);
    const casting = flow(w).schedule!.castings.find((c) => c.caster === w.ids.halvaine)!;
    expect(flow(w).status[casting.id]).toBe('cancelled');
  });

  it('high-low: a player announces a delay from his row; then the button is greyed with the engine\'s reason, in words', async () => {
    const w = await makeWorld(generation, 'high-low');
    const { player2 } = w.foundry.users;
    await brandVersusOrcs(w, [5, 5], { orcs: [w.ids.orc1], initiative: [6, 2] }); // the party HIGH
    const before = find((await controlsOf(w, player2)).row(w.ids.brand), 'delay')!;
    expect(before).toMatchObject({ label: 'Announce a delay' });
    expect(before.disabled).toBeUndefined();
    await click(w, player2, 'delay', w.ids.brand);
    expect(flow(w).states[w.ids.brand].delayed).toBe(true);
    const after = find((await controlsOf(w, player2)).row(w.ids.brand), 'delay')!;
    expect(after.disabled).toBe(true);
    expect(after.reason).toBe(w.foundry.client(player2).game.i18n.format('TENSEG.Error.DelayAnnounced', { name: 'Brand' }));
    expect(after.reason).toMatch(/Brand/);
  });

  it('initiative dice entered by hand are used exactly; a die the side cannot roll, or one nobody rolls, is refused in words and nothing changes', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player2 } = w.foundry.users;
    await brandVersusOrcs(w, [4, 5], { orcs: [w.ids.orc1] });
    const friendly = groupNamed(w, 'Friendly');
    const hostile = groupNamed(w, 'Hostile');
    // The dialog asks for each side's d6, as the engine would roll them.
    expect(initiativeDice(w.combat).map((d) => [d.name, d.count, d.faces])).toEqual([
      ['Friendly', 1, 6],
      ['Hostile', 1, 6],
    ]);

    const before = snapshot(w);
    w.foundry.dice.requireScripted = true; // nothing may be rolled by Foundry
    expect(await submitManualDice(w.combat, { [friendly]: 7, [hostile]: 2 })).toMatchObject({ key: 'InitiativeDieImpossible' });
    expect(w.foundry.notifications.at(-1)).toEqual({ type: 'error', message: 'Friendly: 7 cannot be rolled on 1d6.' });
    expect(await submitManualDice(w.combat, { [friendly]: 3, [hostile]: 2, [w.ids.brand]: 4 })).toMatchObject({ key: 'InitiativeDieUnused' });
    expect(w.foundry.notifications.at(-1)!.message).toBe('No initiative die is rolled for Brand this round: leave it out.');
    // Through the request path (another GM's button): the schema refuses a die that is no whole number, or a key that is no id.
    expect(await requestCombatAction(w.combat, 'rollInitiative', { dice: { [friendly]: 2.5 } })).toMatchObject({ ok: false, key: 'RequestFieldInvalid' });
    expect(await requestCombatAction(w.combat, 'rollInitiative', { dice: { 'not an id': 2 } })).toMatchObject({ ok: false, key: 'RequestFieldInvalid' });
    await idle(w);
    expect(snapshot(w)).toBe(before);

    expect(await submitManualDice(w.combat, { [friendly]: 3, [hostile]: 5 })).toBeNull();
    await idle(w);
    w.foundry.dice.requireScripted = false;
    expect(flow(w).initiative!.sides).toEqual({ [friendly]: 3, [hostile]: 5 });
    const entry = Object.values((w.combat as any).system.log).at(-1) as any;
    expect(entry).toMatchObject({ t: 'begin', r: [3, 5] });
    // Each party acts in the segment of the other's die: the party in 5, the orcs in 3.
    expect(flow(w).schedule!.steps.map((s) => [s.segment, s.entries.map((e) => e.combatant)])).toEqual([
      [3, [w.ids.orc1]],
      [5, [w.ids.brand]],
    ]);
    // The initiative card tells the dice as entered.
    const card = g.game.messages.contents.filter((m: any) => m.flags?.['ten-segments']?.kind === 'initiative').at(-1);
    expect(String(card.content)).toMatch(/Friendly rolled 3/);
  });

  it('d12-ascending, each character rolling its own: the dialog asks for each character\'s d12 and the monsters\' side\'s, used exactly', async () => {
    const w = await makeWorld(generation, 'd12-ascending', { initiativeMode: 'individual' });
    const { player, player2 } = w.foundry.users;
    w.foundry.dice.push(6, 6); // surprise: nobody
    await w.combat.startCombat();
    await w.foundry.asUser(player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await w.foundry.asUser(player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    await idle(w);
    expect(flow(w)).toMatchObject({ stage: 'declare', round: 1 });
    const hostile = groupNamed(w, 'Hostile');
    const dice = initiativeDice(w.combat);
    expect(dice.map((d) => [d.id, d.name, d.faces])).toEqual([
      [hostile, 'Hostile', 12],
      [w.ids.halvaine, 'Halvaine', 12],
      [w.ids.brand, 'Brand', 12],
    ]);
    w.foundry.dice.requireScripted = true;
    expect(await submitManualDice(w.combat, { [w.ids.brand]: 2, [hostile]: 11, [w.ids.halvaine]: 7 })).toBeNull();
    await idle(w);
    w.foundry.dice.requireScripted = false;
    const entry = Object.values((w.combat as any).system.log).at(-1) as any;
    expect(entry).toMatchObject({ t: 'begin', r: [11, 7, 2] });
    expect(flow(w).initiative!.sides[hostile]).toBe(11);
    expect(flow(w).initiative!.individuals).toMatchObject({ [w.ids.halvaine]: 7, [w.ids.brand]: 2 });
  });

  it('call for declarations: the GM\'s call opens the dialog on each player\'s client for their combatants still to declare; a forged call from a player is ignored', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm, player, player2 } = w.foundry.users;
    await brandVersusOrcs(w, [4, 5]);
    const opened: { user: string; combatant: string; mode: string }[] = [];
    declarationOpener.open = async (_combat, combatantId, options) => {
      opened.push({ user: g.game.user.id, combatant: combatantId, mode: options.mode });
    };

    // A player's client sends a call of its own, straight on the socket: nobody opens anything.
    w.foundry.raw(player2).emit(CHANNEL, { k: 'call', combat: w.combat.id });
    await idle(w);
    expect(opened).toEqual([]);

    await click(w, gm, 'callDeclarations');
    // Halvaine is still to declare (player 1); Brand has declared, so player 2 gets nothing; the GM's client opens nothing.
    expect(opened).toEqual([{ user: player.id, combatant: w.ids.halvaine, mode: 'declare' }]);
    expect(w.foundry.notifications.at(-1)).toEqual({ type: 'info', message: 'The players are asked to declare.' });
  });

  it('the row\'s Declare and Release open the declaration dialog in their mode; the context menu offers the same transitions', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm, player } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await idle(w);
    const opened: [string, string][] = [];
    declarationOpener.open = async (_combat, combatantId, options) => {
      opened.push([combatantId, options.mode]);
    };
    await click(w, player, 'declare', w.ids.halvaine);
    await click(w, gm, 'release', w.ids.brand);
    expect(opened).toEqual([
      [w.ids.halvaine, 'declare'],
      [w.ids.brand, 'release'],
    ]);
    const labels = await w.foundry.client(player).run(() => combatantMenu().filter((e) => e.visible(g.game.combats.get(w.combat.id), w.ids.halvaine)).map((e) => e.label));
    expect(labels).toEqual(['Declare']);
    const gmLabels = await w.foundry.client(gm).run(() => combatantMenu().filter((e) => e.visible(g.game.combats.get(w.combat.id), w.ids.orc1)).map((e) => e.label));
    expect(gmLabels).toEqual(['Declare', 'Declare for all like this one', 'Morale check', 'Apply damage or healing…']);
  });

  it('the GM applies damage from a combatant\'s context menu (a small form): the orc falls on the timeline; healing is capped at its maximum; a player has no such entry', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { gm, player } = w.foundry.users;
    const menuOf = (user: any, id: string) => w.foundry.client(user).run(() => combatantMenu().filter((e) => e.visible(g.game.combats.get(w.combat.id), id)));
    expect((await menuOf(gm, w.ids.orc1)).map((e) => e.label)).not.toContain('Apply damage or healing…'); // not before the start
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await idle(w);
    expect((await menuOf(player, w.ids.halvaine)).map((e) => e.label)).not.toContain('Apply damage or healing…');
    const api = g.foundry.applications.api;
    const typed: string[] = [];
    const asked: string[] = [];
    api.DialogV2 = { prompt: async (config: any) => (asked.push(config.window.title), { amount: typed.shift() }) };
    try {
      const run = async (id: string, amount: string) => {
        typed.push(amount);
        await w.foundry.client(gm).run(async () => (await menuOf(gm, id)).find((e) => e.label === 'Apply damage or healing…')!.run(g.game.combats.get(w.combat.id), id));
        await idle(w);
      };
      await run(w.ids.brand, '5');
      expect(w.actors.brand.system.hp.value).toBe(7);
      expect(flow(w).states[w.ids.brand].hp).toBe(7);
      await run(w.ids.brand, '-9');
      expect(w.actors.brand.system.hp.value).toBe(12);
      await run(w.ids.orc1, '8');
      expect(asked[0]).toBe('Apply damage or healing…');
      expect(w.actors.orc1.system.hp.value).toBe(-2);
      expect(flow(w).states[w.ids.orc1].condition).not.toBe('ok');
      const view = timeline(flow(w), GM_VIEW);
      expect(view.combatants.find((c) => c.id === w.ids.orc1)!.condition).toBe(flow(w).states[w.ids.orc1].condition);
      // A fraction is refused in words, nothing changed.
      await run(w.ids.orc2, '1.5');
      expect(w.foundry.notifications.at(-1)).toEqual({ type: 'error', message: 'Damage is a whole number.' });
      expect(w.actors.orc2.system.hp.value).toBe(6);
    } finally {
      delete api.DialogV2;
    }
  });

  it('monsters\' rolls GM-only by default: an orc\'s attack asked for in public is whispered to the GMs; with the setting off it is public', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const { player2 } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await w.foundry.asUser(player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    await requestDeclaration(w.combat, w.ids.orc2, { action: 'melee', target: w.ids.brand });
    w.foundry.dice.push(1, 6); // the orcs act in segment 1
    await w.combat.rollInitiative();
    await idle(w);
    expect(w.combat.currentActorIds()).toContain(w.ids.orc1);
    const gmIds = g.game.users.filter((u: any) => u.isGM).map((u: any) => u.id).sort();
    const attacks = () => g.game.messages.contents.filter((m: any) => m.flags?.['ten-segments']?.kind === 'attack');
    const seen = () => w.foundry.client(player2).game.messages.contents.filter((m: any) => m.flags?.['ten-segments']?.kind === 'attack' && (m.whisper.length === 0 || m.whisper.includes(player2.id)));

    w.foundry.dice.push(3, 2);
    expect(await requestAttack(w.combat, { attackerId: w.ids.orc1, targetId: w.ids.brand })).toMatchObject({ ok: true });
    await idle(w);
    expect([...attacks()[0].whisper].sort()).toEqual(gmIds);
    expect(seen()).toEqual([]);

    await g.game.settings.set('ten-segments', 'monsterRollsPrivate', false);
    w.foundry.dice.push(3, 2);
    expect(await requestAttack(w.combat, { attackerId: w.ids.orc2, targetId: w.ids.brand })).toMatchObject({ ok: true });
    await idle(w);
    expect(attacks()[1].whisper).toEqual([]);
    expect(seen()).toHaveLength(1);
  });

  it('addict phases 1 and 3: the GM records each side\'s reaction (a secret one the players never see) and the encounter distance from the header; other procedures have neither', async () => {
    const w = await makeWorld(generation, 'addict');
    const { gm, player } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await idle(w);
    const header = actions((await controlsOf(w, gm)).header);
    expect(header).toEqual(expect.arrayContaining(['recordReactions', 'encounterDistance']));
    expect(actions((await controlsOf(w, player)).header)).not.toContain('encounterDistance');
    const hostile = groupNamed(w, 'Hostile');
    const friendly = groupNamed(w, 'Friendly');
    forms.ask = async () => ({ [`result.${hostile}`]: 'Hostile, attacks', [`roll.${hostile}`]: '3', [`secret.${hostile}`]: 'on', [`result.${friendly}`]: '' });
    await click(w, gm, 'recordReactions');
    expect(flow(w).encounter.reactions).toEqual({ [hostile]: { result: 'Hostile, attacks', roll: 3, secret: true } });
    // Secret: the GM's view tells it, a player's does not.
    expect(timeline(flow(w), GM_VIEW).encounter?.reactions).toEqual([{ side: hostile, result: 'Hostile, attacks', roll: 3, secret: true }]);
    expect(timeline(flow(w), { gm: false, sides: [friendly] }).encounter?.reactions).toBeUndefined();
    forms.ask = async () => ({ feet: '60' });
    await click(w, gm, 'encounterDistance');
    expect(flow(w).encounter.distance).toBe(60);
    // A distance the engine refuses: told in words, nothing changed.
    const before = snapshot(w);
    forms.ask = async () => ({ feet: '-5' });
    await click(w, gm, 'encounterDistance');
    expect(w.foundry.notifications.at(-1)?.type).toBe('error');
    expect(snapshot(w)).toBe(before);

    const d6 = await makeWorld(generation, 'segment-d6');
    d6.foundry.dice.push(4, 5);
    await d6.combat.startCombat();
    await idle(d6);
    expect(actions((await controlsOf(d6, d6.foundry.users.gm)).header)).not.toEqual(expect.arrayContaining(['recordReactions']));
    expect(actions((await controlsOf(d6, d6.foundry.users.gm)).header)).not.toContain('encounterDistance');
  });

  it('d12-ascending II.C ("may decide on his initiative result what spell to cast, if any"): the dialog offers the spell left unnamed; at her turn the player chooses it from her row, and the button goes', async () => {
    const w = await makeWorld(generation, 'd12-ascending');
    const { gm, player } = w.foundry.users;
    w.foundry.dice.push(12, 12); // surprise: nobody
    await w.combat.startCombat();
    await idle(w);
    const context = await w.foundry.client(player).run(() => prepareDeclarationContext(g.game.combats.get(w.combat.id), w.ids.halvaine, 'declare'));
    expect(context.spells.map((x: { id: string; label: string }) => [x.id, x.label])).toEqual([
      [w.spell.id, expect.stringContaining('Sleep')],
      ['', 'Decide at the initiative result (which spell, if any)'],
    ]);
    await w.foundry.asUser(player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell' }));
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    await idle(w);
    w.foundry.dice.push(1, 10); // the party first
    await click(w, gm, 'rollInitiative');
    expect(flow(w).stage).toBe('resolve');
    let row = find((await controlsOf(w, player)).row(w.ids.halvaine), 'chooseSpell');
    for (let i = 0; i < 12 && row?.disabled; i++) {
      expect(row.reason).toEqual(expect.any(String));
      await click(w, gm, 'nextStep');
      row = find((await controlsOf(w, player)).row(w.ids.halvaine), 'chooseSpell');
    }
    expect(row).toMatchObject({ action: 'chooseSpell', label: 'Choose the spell' });
    expect(row!.disabled).toBeUndefined();
    forms.ask = async () => ({ spell: w.spell.id });
    await click(w, player, 'chooseSpell', w.ids.halvaine);
    const begun = timeline(flow(w), GM_VIEW).steps.flatMap((st) => st.entries).find((e) => e.combatant === w.ids.halvaine && e.kind === 'cast-begin');
    expect(begun).toMatchObject({ spell: 'Sleep', castingTime: 2 });
    // Chosen: nothing left to choose, the button goes.
    expect(find((await controlsOf(w, player)).row(w.ids.halvaine), 'chooseSpell')).toBeUndefined();
  });

  it('addict, declaring in turn: the GM can stop calling (the call state goes, everyone declares from their rows); a player has no such button', async () => {
    const w = await makeWorld(generation, 'addict');
    const { gm, player } = w.foundry.users;
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await idle(w);
    forms.ask = async () => ({});
    await click(w, gm, 'startDeclaringInTurn');
    expect((w.combat as any).flags['ten-segments'].declaring.called).not.toBeNull();
    expect(actions((await controlsOf(w, gm)).header)).toEqual(expect.arrayContaining(['callNext', 'pauseClock', 'stopDeclaringInTurn']));
    expect(actions((await controlsOf(w, player)).header)).not.toContain('stopDeclaringInTurn');
    await click(w, gm, 'stopDeclaringInTurn');
    expect((w.combat as any).flags['ten-segments']?.declaring ?? null).toBeNull();
    const header = actions((await controlsOf(w, gm)).header);
    expect(header).toContain('startDeclaringInTurn');
    expect(header).not.toContain('stopDeclaringInTurn');
    expect(actions((await controlsOf(w, player)).row(w.ids.halvaine))).toEqual(['declare']);
  });
});
