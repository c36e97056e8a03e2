/**
 * Combat as core plays it: turns from setupTurns, navigation with core's
 * update options and hooks, turn events for the active GM only, permission
 * rules for players, initiative rolls, groups, tokens on a square grid.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry, type FoundryHandle } from '../standin';

const g = globalThis as any;

describe.each([13, 14] as const)('combat, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let scene: any;
  let combat: any;
  let actors: any[];

  beforeEach(async () => {
    foundry = installFoundry({ generation });
    g.CONFIG.time.roundTime = 60;
    const { OWNER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
    actors = await g.Actor.create([
      { name: 'Halvaine', type: 'base', ownership: { [foundry.users.player.id]: OWNER } },
      { name: 'Orc', type: 'base' },
      { name: 'Goblin', type: 'base' },
    ]);
    scene = await g.Scene.create({ name: 'Keep', active: true });
    const tokens = await scene.createEmbeddedDocuments('Token', [
      { name: 'Halvaine', actorId: actors[0].id, actorLink: true, x: 0, y: 0, disposition: 1 },
      { name: 'Orc', actorId: actors[1].id, actorLink: true, x: 300, y: 100 },
      { name: 'Goblin', actorId: actors[2].id, actorLink: true, x: 100, y: 400 },
    ]);
    combat = await g.Combat.create({ scene: scene.id, active: true });
    await combat.createEmbeddedDocuments(
      'Combatant',
      tokens.map((t: any, i: number) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId, initiative: [12, 18, 5][i] })),
    );
    foundry.writes.clear();
  });

  it('sorts turns by initiative, highest first, and names combatants from their tokens', () => {
    expect(combat.turns.map((c: any) => c.name)).toEqual(['Orc', 'Halvaine', 'Goblin']);
    expect(combat.started).toBe(false);
    expect(combat.combatant).toBeNull();
    expect(g.game.combat).toBe(combat);
  });

  it('startCombat goes to round 1, turn 0, firing combatStart before the update', async () => {
    const seen: any[] = [];
    g.Hooks.on('combatStart', (c: any, data: any) => seen.push(['combatStart', c.round, { ...data }]));
    g.Hooks.on('updateCombat', (c: any, changed: any) => seen.push(['updateCombat', c.round, changed.turn]));
    await combat.startCombat();
    expect(seen).toEqual([
      ['combatStart', 0, { round: 1, turn: 0 }],
      ['updateCombat', 1, 0],
    ]);
    expect(combat.combatant.name).toBe('Orc');
  });

  it('nextTurn passes {direction, worldTime: {delta}} to the combatTurn hook and the update', async () => {
    await combat.startCombat();
    let hookOptions: any;
    let updateOptions: any;
    g.Hooks.on('combatTurn', (_c: any, data: any, opts: any) => (hookOptions = { data: { ...data }, opts: structuredClone(opts) }));
    g.Hooks.on('updateCombat', (_c: any, _ch: any, opts: any) => (updateOptions = opts));
    await combat.nextTurn();
    expect(hookOptions).toEqual({ data: { round: 1, turn: 1 }, opts: { direction: 1, worldTime: { delta: 0 } } });
    expect(updateOptions).toMatchObject({ direction: 1, worldTime: { delta: 0 } });
    expect(combat.combatant.name).toBe('Halvaine');
  });

  it('nextRound advances the world time by CONFIG.time.roundTime and fires combatRound', async () => {
    await combat.startCombat();
    let opts: any;
    g.Hooks.on('combatRound', (_c: any, _d: any, o: any) => (opts = structuredClone(o)));
    const before = g.game.time.worldTime;
    await combat.nextRound();
    expect(opts).toEqual({ direction: 1, worldTime: { delta: 60 } });
    expect(g.game.time.worldTime - before).toBe(60);
    expect([combat.round, combat.turn]).toEqual([2, 0]);
    await combat.previousRound();
    expect([combat.round, combat.turn]).toEqual([1, 2]);
  });

  it('the last nextTurn of a round goes to the next round; previousTurn goes back', async () => {
    await combat.startCombat();
    await combat.nextTurn();
    await combat.nextTurn();
    await combat.nextTurn();
    expect([combat.round, combat.turn]).toEqual([2, 0]);
    await combat.previousTurn();
    expect([combat.round, combat.turn]).toEqual([1, 2]);
  });

  it('skipDefeated (core setting) skips defeated combatants', async () => {
    await g.game.settings.set('core', 'combatTrackerConfig', { ...g.game.settings.get('core', 'combatTrackerConfig'), skipDefeated: true });
    const halvaine = combat.combatants.find((c: any) => c.name === 'Halvaine');
    await halvaine.update({ defeated: true });
    await combat.startCombat();
    await combat.nextTurn();
    expect(combat.combatant.name).toBe('Goblin');
  });

  it('turn events run for the active GM, in core order, even when a player advances the turn', async () => {
    const calls: string[] = [];
    class TracedCombat extends g.Combat {
      async _onStartRound(ctx: any) {
        calls.push(`startRound ${ctx.round} as ${g.game.user.name}`);
      }
      async _onEndRound(ctx: any) {
        calls.push(`endRound ${ctx.round}`);
      }
      async _onStartTurn(c: any, ctx: any) {
        calls.push(`startTurn ${c.name} r${ctx.round}t${ctx.turn}`);
      }
      async _onEndTurn(c: any, ctx: any) {
        calls.push(`endTurn ${c.name} r${ctx.round}t${ctx.turn}`);
      }
    }
    g.CONFIG.Combat.documentClass = TracedCombat;
    const traced = await g.Combat.create({ scene: scene.id });
    await traced.createEmbeddedDocuments('Combatant', combat.combatants.map((c: any) => ({ tokenId: c.tokenId, sceneId: scene.id, actorId: c.actorId, initiative: c.initiative })));
    await traced.startCombat();
    await traced.nextTurn();
    // v13 core also ends "round 0" when the combat starts (client/documents/combat.mjs #triggerTurnEvents)
    expect(calls).toEqual(['endRound 0', 'startRound 1 as Gamemaster', 'startTurn Orc r1t0', 'endTurn Orc r1t0', 'startTurn Halvaine r1t1']);
    calls.length = 0;
    // Halvaine's player ends the turn: the events still run on the GM's client, when it receives the change
    await foundry.asUser(foundry.users.player, () => traced.nextTurn());
    await foundry.settle();
    expect(calls).toEqual(['endTurn Halvaine r1t1', 'startTurn Goblin r1t2']);
    calls.length = 0;
    await traced.nextTurn();
    expect(calls).toEqual(['endTurn Goblin r1t2', 'endRound 1', 'startRound 2 as Gamemaster', 'startTurn Orc r2t0']);
  });

  it('without an active GM no turn events run', async () => {
    let started = 0;
    class C extends g.Combat {
      async _onStartTurn() {
        started++;
      }
    }
    foundry.everyClient(() => {
      g.CONFIG.Combat.documentClass = C;
    });
    const c = await g.Combat.create({});
    await c.createEmbeddedDocuments('Combatant', [{ actorId: actors[1].id, initiative: 3 }]);
    foundry.users.setActive(foundry.users.gm, false);
    // Core lets a player start the round (BaseCombat: round and turn); no client runs the events
    await foundry.asUser(foundry.users.player, () => c.startCombat());
    await foundry.settle();
    expect(started).toBe(0);
  });

  it('a player may change turn and round but nothing else of the combat', async () => {
    await combat.startCombat();
    await foundry.asUser(foundry.users.player, () => combat.nextTurn());
    expect(combat.turn).toBe(1);
    await expect(foundry.asUser(foundry.users.player, () => combat.update({ active: false }))).rejects.toThrow(/lacks permission to update Combat/);
    expect(combat.active).toBe(true);
  });

  it('a player may set the initiative of an owned combatant only', async () => {
    const mine = combat.combatants.find((c: any) => c.name === 'Halvaine');
    const orc = combat.combatants.find((c: any) => c.name === 'Orc');
    await foundry.asUser(foundry.users.player, () => mine.update({ initiative: 20 }));
    expect(combat.turns[0]).toBe(mine);
    await expect(foundry.asUser(foundry.users.player, () => orc.update({ initiative: 1 }))).rejects.toThrow(/lacks permission/);
    await expect(foundry.asUser(foundry.users.player, () => mine.update({ hidden: true }))).rejects.toThrow(/lacks permission/);
    expect(orc.initiative).toBe(18);
  });

  it('rollInitiative rolls the configured formula with scripted dice, posts one message write, keeps turn events off', async () => {
    g.CONFIG.Combat.initiative.formula = '1d6';
    await combat.resetAll();
    foundry.writes.clear();
    foundry.dice.push(2, 6, 4);
    const ids = combat.turns.map((c: any) => c.id);
    await combat.rollInitiative(ids);
    expect(ids.map((id: string) => combat.combatants.get(id).initiative)).toEqual([2, 6, 4]);
    expect(foundry.writes.all().map((w) => [w.documentName, w.action, w.count])).toEqual([
      ['Combatant', 'update', 3],
      ['ChatMessage', 'create', 3],
    ]);
    const msg = g.game.messages.contents[0];
    expect(msg.rolls[0].total).toBe(2);
    expect(msg.getFlag('core', 'initiativeRoll')).toBe(true);
  });

  it('resetAll clears every initiative', async () => {
    await combat.resetAll();
    expect(combat.combatants.every((c: any) => c.initiative === null)).toBe(true);
  });

  it('combatant groups list their members', async () => {
    const [party, monsters] = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Party' }, { name: 'Monsters' }]);
    const updates = combat.combatants.map((c: any) => ({ _id: c.id, group: c.name === 'Halvaine' ? party.id : monsters.id }));
    await combat.updateEmbeddedDocuments('Combatant', updates);
    expect([...party.members].map((c: any) => c.name)).toEqual(['Halvaine']);
    expect([...monsters.members].map((c: any) => c.name).sort()).toEqual(['Goblin', 'Orc']);
    expect(combat.combatants.find((c: any) => c.name === 'Orc').group).toBe(monsters);
  });

  it('a group is defeated or hidden when all its members are (or it has none), and has no combat of its own', async () => {
    const [party, empty] = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Party' }, { name: 'Empty' }]);
    const orc = combat.combatants.find((c: any) => c.name === 'Orc');
    const goblin = combat.combatants.find((c: any) => c.name === 'Goblin');
    await combat.updateEmbeddedDocuments('Combatant', [orc, goblin].map((c: any) => ({ _id: c.id, group: party.id })));
    expect([party.defeated, party.hidden]).toEqual([false, false]);
    await combat.updateEmbeddedDocuments('Combatant', [{ _id: orc.id, defeated: true, hidden: true }]);
    expect([party.defeated, party.hidden]).toEqual([false, false]);
    await combat.updateEmbeddedDocuments('Combatant', [{ _id: goblin.id, defeated: true, hidden: true }]);
    expect([party.defeated, party.hidden]).toEqual([true, true]);
    expect([empty.defeated, empty.hidden]).toEqual([true, true]);
    expect(party.combat).toBeUndefined();
  });

  it('combatants and groups carry the server’s _stats, as core’s schemas have them', async () => {
    const [group] = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: 'Party' }]);
    const orc = combat.combatants.find((c: any) => c.name === 'Orc');
    await orc.update({ initiative: 20 });
    expect(orc._source._stats).toMatchObject({ lastModifiedBy: foundry.users.gm.id });
    expect(typeof orc._source._stats.modifiedTime).toBe('number');
    expect(group._source._stats).toMatchObject({ lastModifiedBy: foundry.users.gm.id });
  });

  it('the tracker prepares core’s parts: the switcher and controls in header and footer, the turns in the tracker', async () => {
    const Tracker = g.foundry.applications.sidebar.tabs.CombatTracker;
    expect(Object.keys(Tracker.PARTS)).toEqual(['header', 'tracker', 'footer']);
    await combat.startCombat();
    await g.ui.combat.render({ combat });
    const { header, tracker, footer } = g.ui.combat.partContexts;
    expect(header).toMatchObject({ combat, hasCombat: true, currentIndex: 1, displayCycle: false, linked: true, combats: [{ id: combat.id, label: 1, active: true }] });
    expect(footer.combat).toBe(combat);
    expect(header.turns).toBeUndefined();
    expect('labels' in header).toBe(generation === 13);
    expect(tracker.turns.map((t: any) => [t.name, t.initiative, t.active])).toEqual([
      ['Orc', '18', true],
      ['Halvaine', '12', false],
      ['Goblin', '5', false],
    ]);
    expect(tracker.hasDecimals).toBe(false);
    expect(tracker.combat).toBeUndefined();
    expect(tracker.turns[0]).toMatchObject({ css: 'active', canPing: false, effects: { icons: [], tooltip: '' } });
    expect(foundry.errors).toEqual([]);
  });

  it('with no encounter viewed the tracker has no turns', async () => {
    await g.ui.combat.render({ combat: null });
    expect(g.ui.combat.partContexts.header).toMatchObject({ combat: null, hasCombat: false });
    expect(g.ui.combat.partContexts.tracker.turns).toBeUndefined();
  });

  it('updating the viewed combat renders the combat tracker', async () => {
    const before = foundry.renders.count('combat');
    await combat.startCombat();
    expect(foundry.renders.count('combat')).toBeGreaterThan(before);
  });

  it('tokens sit on a square grid: centres and distances in feet (5 ft squares)', () => {
    const [a, b, c] = scene.tokens.contents;
    expect(a.getCenterPoint()).toMatchObject({ x: 50, y: 50 });
    expect(scene.grid).toMatchObject({ size: 100, distance: 5, units: 'ft' });
    // (0,0) to (3,1): 3 squares with one diagonal, equidistant diagonals by default
    expect(scene.grid.measurePath([a.center, b.center]).distance).toBe(15);
    expect(scene.grid.measurePath([a.center, c.center]).distance).toBe(20);
    expect(b.actor).toBe(actors[1]);
    expect(b.combatant?.name).toBe('Orc');
  });

  it('the 5/10/5 diagonal rule counts every second diagonal double', async () => {
    await g.game.settings.set('core', 'gridDiagonals', g.CONST.GRID_DIAGONALS.ALTERNATING_1);
    const path = [
      { x: 50, y: 50 },
      { x: 350, y: 350 },
    ];
    expect(scene.grid.measurePath(path).distance).toBe(20);
  });

  it('an unlinked token has a synthetic actor whose updates stay on the token', async () => {
    const [t] = await scene.createEmbeddedDocuments('Token', [{ name: 'Orc 2', actorId: actors[1].id, actorLink: false }]);
    const synthetic = t.actor;
    expect(synthetic).not.toBe(actors[1]);
    expect(synthetic.isToken).toBe(true);
    await synthetic.update({ name: 'Wounded orc' });
    expect(t.actor.name).toBe('Wounded orc');
    expect(actors[1].name).toBe('Orc');
    expect(t.delta.name ?? t._source.delta.name).toBe('Wounded orc');
  });

  it('v14 records the round a combatant joined (1 before the start, the round at creation after; a raw value kept); v13 has no such field', async () => {
    const [first] = combat.combatants.contents;
    await combat.startCombat();
    await combat.nextRound();
    expect(combat.round).toBe(2);
    const [late] = await combat.createEmbeddedDocuments('Combatant', [{ actorId: actors[1].id, roundJoined: 9 }]);
    const [forged] = await foundry.raw(foundry.users.gm).modify('create', 'Combatant', [{ actorId: actors[2].id, roundJoined: 7 }], {}, combat.uuid);
    const stored = (id: string) => foundry.server.source(`${combat.uuid}.Combatant.${id}`);
    if (generation >= 14) {
      expect([first.roundJoined, late.roundJoined, combat.combatants.get(forged._id).roundJoined]).toEqual([1, 2, 7]);
      expect(stored(late.id).roundJoined).toBe(2);
    } else {
      expect([first.roundJoined, late.roundJoined, combat.combatants.get(forged._id).roundJoined]).toEqual([undefined, undefined, undefined]);
      expect(stored(late.id)).not.toHaveProperty('roundJoined');
      expect(stored(forged._id)).not.toHaveProperty('roundJoined');
    }
  });
});
