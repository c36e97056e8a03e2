/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Undo walk: for every procedure and both generations, a combat of seven
 * (three player characters, one a caster with a spell taking three segments;
 * four GM orcs) is declared and its initiative rolled, then played forward
 * with 10 Nexts (across an end of round, the next round's declarations and
 * initiative), with a hit on the caster mid-casting (an hp update on her
 * actor) and a player's changed declaration on the way. After every
 * transition (every log entry) a point is recorded: the flow state, core's
 * round and turn, the stored log, every actor's and combatant's source, the
 * GM's held declarations, the world clock. Previous then walks all the way
 * back and must find, at every point, exactly what was recorded there; a
 * second forward pass with the same dice must find the states of the first.
 * Each transition is one Combat write, and a small one (< 2,000 bytes).
 * previousRound / nextRound pairs must be exact round trips too.
 *
 * The GM's held declarations are asserted in tests of their own, so that a
 * difference there does not hide what the rest of the walk shows.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../standin/global';
import { installFoundry, type FoundryHandle } from '../standin';
import { initSystem } from '../../src/system';
import type { TenSegmentsCombat } from '../../src/documents/combat';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { PROCEDURE_IDS, type ProcedureId } from '../../src/rules/model';
import type { FlowState } from '../../src/rules/flow';

const g = globalThis as any;

/* ------------------------------------------------------------------ world */

interface Table {
  foundry: FoundryHandle;
  combat: TenSegmentsCombat;
  actors: Record<'halvaine' | 'brand' | 'corwin' | 'orc1' | 'orc2' | 'orc3' | 'orc4', any>;
  ids: Record<'halvaine' | 'brand' | 'corwin' | 'orc1' | 'orc2' | 'orc3' | 'orc4', string>;
  spell: any;
  sword: any;
  axe: any;
  /** Document ids to names, for readable failure messages. */
  names: Record<string, string>;
}

const OPTIONS: Record<ProcedureId, Record<string, unknown>> = {
  'segment-d6': { deathRule: 'minus-ten', bleedPerRound: 1 },
  'high-low': { deathAt: -10, bleedPerRound: 1 },
  'd12-ascending': { deathAt: -10, bleedPerRound: 1 },
  'individual-speed': {},
  addict: { moraleDie: '2d6' },
};

/** Dice for the start (surprise, or base initiative): nobody surprised. */
const START_DICE: Record<ProcedureId, number[]> = {
  'segment-d6': [4, 5],
  'high-low': [4, 5],
  'd12-ascending': [9, 10],
  'individual-speed': [7, 3, 5, 4],
  addict: [4, 5],
};

async function makeTable(generation: 13 | 14, procedure: ProcedureId): Promise<Table> {
  const foundry = installFoundry({ generation, lang: 'lang/en.json', systemId: 'ten-segments' });
  foundry.everyClient(initSystem);
  await g.game.settings.set('ten-segments', 'procedure', procedure);
  await g.game.settings.set('ten-segments', 'procedureOptions', { [procedure]: OPTIONS[procedure] });
  const { OWNER, OBSERVER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
  const p1 = foundry.users.player.id;
  const p2 = foundry.users.player2.id;
  const individual = procedure === 'individual-speed';
  const sw = (stress: number, wounds: number) =>
    individual ? { individual: { stress: { value: stress, max: stress }, wounds: { value: wounds, max: wounds }, strength: 6 } } : {};
  const character = (name: string, owner: string, extra: any = {}) => ({
    name,
    type: 'character',
    ownership: { [owner]: OWNER, [owner === p1 ? p2 : p1]: OBSERVER },
    system: { hp: { value: 12, max: 12 }, ac: 5, attack: { mode: 'aac0', aac0: '19' }, ...sw(5, 10), ...extra },
  });
  const monster = (name: string) => ({
    name,
    type: 'monster',
    system: { hitDice: '1', hp: { value: 6, max: 6 }, ac: 6, aac0: '19', attacks: 'axe 1d8', morale: 8, ...sw(3, 6) },
  });
  const [halvaine, brand, corwin, orc1, orc2, orc3, orc4] = await g.Actor.create([
    character('Halvaine', p1),
    character('Brand', p2),
    character('Corwin', p1),
    monster('Orc 1'),
    monster('Orc 2'),
    monster('Orc 3'),
    monster('Orc 4'),
  ]);
  const [spell] = await halvaine.createEmbeddedDocuments('Item', [
    { name: 'Phantasmal Force', type: 'spell', system: { level: 2, castingTime: { value: 3, unit: 'segments' }, castingTN: 13, memorized: 3, expended: 0 } },
  ]);
  const weapon = { type: 'weapon', system: { damage: { small: '1d8', large: '1d12' }, speed: 5, length: 3.5, space: 3, kind: 'melee', equipped: true } };
  const [sword] = await brand.createEmbeddedDocuments('Item', [{ name: 'Long sword', ...weapon }]);
  const [axe] = await corwin.createEmbeddedDocuments('Item', [{ name: 'Battle axe', ...weapon, system: { ...weapon.system, speed: 7, length: 4 } }]);
  const scene = await g.Scene.create({ name: 'Keep', active: true });
  const placed = [
    [halvaine, 0, 0, 1],
    [brand, 200, 0, 1],
    [corwin, 200, 200, 1],
    [orc1, 400, 0, -1],
    [orc2, 400, 200, -1],
    [orc3, 600, 0, -1],
    [orc4, 600, 200, -1],
  ] as const;
  const tokens = await scene.createEmbeddedDocuments(
    'Token',
    placed.map(([a, x, y, disposition]) => ({ name: a.name, actorId: a.id, actorLink: true, x, y, disposition })),
  );
  const combat = (await g.Combat.create({ scene: scene.id, active: true })) as TenSegmentsCombat;
  const created = (await combat.createEmbeddedDocuments(
    'Combatant',
    tokens.map((t: any) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })) as never,
  )) as any[];
  await foundry.settle();
  const keys = ['halvaine', 'brand', 'corwin', 'orc1', 'orc2', 'orc3', 'orc4'] as const;
  const ids = Object.fromEntries(keys.map((k, i) => [k, created[i].id])) as Table['ids'];
  if (individual) {
    // "the Referee may elect to have some monsters share a single Initiative roll".
    await combat.updateEmbeddedDocuments('Combatant', [ids.orc1, ids.orc2, ids.orc3, ids.orc4].map((_id) => ({ _id, 'system.initiativeGroup': 'orcs' })) as never);
  }
  foundry.writes.clear();
  const actors = { halvaine, brand, corwin, orc1, orc2, orc3, orc4 };
  const names: Record<string, string> = {};
  for (const k of keys) {
    names[ids[k]] = `${actors[k].name} (combatant)`;
    names[actors[k].id] = `${actors[k].name} (actor)`;
  }
  return { foundry, combat, actors, ids, spell, sword, axe, names };
}

/* ---------------------------------------------------------------- records */

interface Point {
  /** What led here. */
  label: string;
  flow: FlowState | null;
  round: number;
  turn: number | null;
  log: unknown;
  actors: Record<string, unknown>;
  combatants: Record<string, unknown>;
  held: unknown;
  worldTime: number;
}

function record(t: Table, label: string): Point {
  const { combat } = t;
  return structuredClone({
    label,
    flow: combat.flowState,
    round: combat.round,
    turn: combat.turn ?? null,
    // Each request has its own id (the mark `q` of its entry): the second pass asks again, so only the transitions compare.
    log: Object.fromEntries(Object.entries((combat.toObject() as any).system.log).map(([k, e]: [string, any]) => [k, (({ q: _q, ...rest }) => rest)(e)])),
    actors: Object.fromEntries(g.game.actors.contents.map((a: any) => [a.id, a.toObject()])),
    combatants: Object.fromEntries(combat.combatants.contents.map((c: any) => [c.id, c.toObject()])),
    held: combat.held,
    worldTime: g.game.time.worldTime,
  });
}

/** First path where two JSON-like values differ, with both values (for the failure message). */
function firstDiff(a: unknown, b: unknown, path = ''): string | null {
  if (Object.is(a, b)) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${path || '(root)'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
  for (const k of [...keys].sort()) {
    const inA = Object.prototype.hasOwnProperty.call(a, k);
    const inB = Object.prototype.hasOwnProperty.call(b, k);
    if (inA !== inB) return `${path}.${k}: ${inA ? JSON.stringify((a as any)[k]) : '(absent)'} vs ${inB ? JSON.stringify((b as any)[k]) : '(absent)'}`;
    const d = firstDiff((a as any)[k], (b as any)[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

/** What Previous must restore, and the GM's held declarations (kept on the GM's client, apart). */
const FLOW_FIELDS = ['flow', 'round', 'turn', 'log', 'actors', 'combatants', 'worldTime'] as const;
type Field = (typeof FLOW_FIELDS)[number] | 'held';

/** Ids in a message shown as names. */
function named(t: Table, text: string): string {
  return text.replace(/[A-Za-z0-9]{16}/g, (id) => (t.names[id] ? `${id}=${t.names[id]}` : id));
}

/** These fields of `now` deep-equal (toStrictEqual) to `then`; soft, so every differing point of a walk is reported. */
function expectSame(t: Table, now: Point, then: Point, where: string, fields: readonly Field[] = FLOW_FIELDS): void {
  for (const f of fields) {
    const d = firstDiff(now[f], then[f]);
    expect.soft(now[f], named(t, `${where} (recorded after "${then.label}"): ${f} differs${d ? ` first at ${d} (now vs recorded)` : ''}`)).toStrictEqual(then[f]);
  }
}

/* ------------------------------------------------------------------ play */

async function declare(t: Table, id: string, declaration: any, user?: any): Promise<void> {
  const answer = user ? await t.foundry.asUser(user, () => requestDeclaration(t.combat, id, declaration)) : await requestDeclaration(t.combat, id, declaration);
  expect(answer, `declaration for ${id}`).toEqual({ ok: true });
}

/** The caster's casting is under way in the current step: begun in an earlier step, not gone off, breakable. */
function midCasting(state: FlowState | null, caster: string): boolean {
  if (!state || state.stage !== 'resolve' || !state.schedule) return false;
  return state.schedule.castings.some(
    (c) =>
      c.caster === caster &&
      state.status[c.id] === 'pending' &&
      state.step > c.beginStep &&
      state.step >= c.lossFrom &&
      (c.completeStep === null || state.step < c.completeStep),
  );
}

interface Walk {
  points: Point[];
  /** Bytes of the Combat write of each transition, by label. */
  writes: { label: string; bytes: number }[];
}

/**
 * From the round-1 state just after initiative: `steps` Nexts; the caster
 * takes a hit (an hp update on her actor, Stress under individual-speed) the
 * first time she is mid-casting; when the next round's declarations open the
 * GM plans the orcs' new moves at once (held on the GM's client: part of that
 * point, as they are no log entry), then Brand's player changes his target (a
 * log entry). A point is recorded after each transition (each log entry).
 */
async function walkForward(t: Table, procedure: ProcedureId, steps: number, dice: number[][], log: (s: string) => void): Promise<Walk & { hit: boolean; changed: boolean }> {
  const { combat, foundry, ids, actors } = t;
  const points: Point[] = [record(t, 'initiative')];
  const writes: Walk['writes'] = [];
  let hit = false;
  let changed = false;
  let roundDice = 0;
  const transition = async (label: string, run: () => Promise<unknown>) => {
    foundry.writes.clear();
    await run();
    await whenIdle(combat.id as string);
    await foundry.settle();
    const combatWrites = foundry.writes.all().filter((w) => w.documentName === 'Combat');
    expect(combatWrites.map((w) => w.action), `${procedure} ${label}: one Combat update`).toEqual(['update']);
    writes.push({ label, bytes: combatWrites[0]?.bytes ?? 0 });
    points.push(record(t, label));
  };
  for (let i = 1; i <= steps; i++) {
    if (combat.flowState!.stage === 'declare') foundry.dice.push(...(dice[roundDice++] ?? []));
    await transition(`next ${i}`, async () => {
      await combat.nextTurn();
      const s = combat.flowState!;
      if (!changed && s.stage === 'declare' && s.round > s.firstRound) {
        // The GM's new plans for two orcs: held on the GM's client, no Combat write.
        await declare(t, ids.orc1, { action: 'melee', target: ids.corwin });
        await declare(t, ids.orc3, { action: 'melee', target: ids.halvaine });
        expect(Object.keys(combat.held).sort()).toEqual([ids.orc1, ids.orc3].sort());
      }
    });
    const s = combat.flowState!;
    const step = s.schedule?.steps[s.step];
    log(`${procedure} next ${i}: round ${s.round} ${s.stage} step ${s.step}/${s.schedule?.steps.length ?? '-'} ${step ? JSON.stringify({ segment: step.segment, count: step.count, phase: step.phase, who: step.entries.map((e) => `${e.combatant}:${e.kind}`) }) : ''}`);
    if (!hit && midCasting(s, ids.halvaine)) {
      const before = s.interruptions.length;
      await transition(`hit on the caster after next ${i}`, () =>
        procedure === 'individual-speed'
          ? actors.halvaine.update({ 'system.individual.stress.value': actors.halvaine.system.individual.stress.value - 3 })
          : actors.halvaine.update({ 'system.hp.value': actors.halvaine.system.hp.value - 3 }),
      );
      expect(combat.flowState!.interruptions.length, `${procedure}: the hit after next ${i} interrupts the casting`).toBe(before + 1);
      expect(combat.flowState!.interruptions.at(-1)).toMatchObject({ caster: ids.halvaine, outcome: 'interrupted', expended: true });
      hit = true;
    }
    if (!changed && s.stage === 'declare' && s.round > s.firstRound) {
      // Brand's player changes his mind: a log entry.
      await transition(`Brand's new target after next ${i}`, () => declare(t, ids.brand, { action: 'melee', weapon: t.sword.id, target: ids.orc4 }, foundry.users.player2));
      expect(combat.flowState!.declarations[ids.brand]).toMatchObject({ target: ids.orc4 });
      changed = true;
    }
  }
  return { points, writes, hit, changed };
}

async function setUp(t: Table, procedure: ProcedureId): Promise<void> {
  const { combat, foundry, ids } = t;
  foundry.dice.push(...START_DICE[procedure]);
  await combat.startCombat();
  expect(combat.flowState).toMatchObject({ stage: 'declare', round: 1 });
  await declare(t, ids.halvaine, { action: 'spell', spell: t.spell.id }, foundry.users.player);
  await declare(t, ids.brand, { action: 'melee', weapon: t.sword.id, target: ids.orc1 }, foundry.users.player2);
  await declare(t, ids.corwin, { action: 'melee', weapon: t.axe.id, target: ids.orc2 }, foundry.users.player);
  await declare(t, ids.orc1, { action: 'melee', target: ids.halvaine });
  await declare(t, ids.orc2, { action: 'melee', target: ids.corwin });
  await declare(t, ids.orc3, { action: 'melee', target: ids.brand });
  await declare(t, ids.orc4, { action: 'melee', target: ids.halvaine });
  expect(Object.keys(combat.held).sort()).toEqual([ids.orc1, ids.orc2, ids.orc3, ids.orc4].sort());
}

/**
 * Initiative dice per round, pushed when the round begins (party first); the
 * rest (end of round) comes from the seeded generator. individual-speed
 * rolls its initiative once, at the start.
 */
const ROUND_DICE: Record<ProcedureId, number[][]> = {
  'segment-d6': [[3, 2], [4, 2], [5, 5]],
  'high-low': [[2, 5], [3, 4], [4, 4]],
  'd12-ascending': [[3, 1], [2, 4], [5, 5]],
  'individual-speed': [[], [], []],
  addict: [[3, 2], [4, 2], [5, 5]],
};

const STEPS = 10;
const SEED = 1234;
const verbose = !!process.env.UNDO_WALK_VERBOSE;
/** Largest Combat write of a step (Next, the hit, the declaration change) and of a whole nextRound, by procedure. */
const largest: Record<string, { step: number; previous: number; nextRound: number }> = {};

/** One press of a button: exactly one Combat update (its bytes returned), then everything settled. */
async function press(t: Table, what: string, run: () => Promise<unknown>): Promise<number> {
  t.foundry.writes.clear();
  await run();
  await whenIdle(t.combat.id as string);
  await t.foundry.settle();
  const combatWrites = t.foundry.writes.all().filter((w) => w.documentName === 'Combat');
  expect(combatWrites.map((w) => w.action), `${what}: one Combat update`).toEqual(['update']);
  return combatWrites[0]?.bytes ?? 0;
}

describe.each([13, 14] as const)('undo walk, generation %i', (generation) => {
  beforeEach(() => {
    // Core stamps every write with the time (_stats.modifiedTime): frozen, so sources compare whole.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => {
    if (verbose) console.log(`largest Combat writes in bytes, generation ${generation}: ${JSON.stringify(largest)}`);
  });

  describe.each(PROCEDURE_IDS.map((p) => [p]))('%s', (procedure) => {
    const say = (s: string) => verbose && console.log(s);
    let t: Table | undefined;
    /** First pass, the way back (back[i]: after Previous to point i), second pass. */
    let walk: { first: Walk; back: Point[]; second: Walk } | undefined;

    it('10 Nexts across an end of round, a hit mid-casting, a changed declaration, back with Previous, forward again: one small Combat write each, no errors', async () => {
      t = await makeTable(generation, procedure);
      const { combat, foundry } = t;
      await setUp(t, procedure);
      foundry.dice.push(...ROUND_DICE[procedure][0]);
      await combat.rollInitiative();
      expect(combat.flowState!.stage).toBe('resolve');
      expect(combat.held).toEqual({});
      foundry.dice.seed(SEED);
      const diceBefore = foundry.dice.log.length;
      const first = await walkForward(t, procedure, STEPS, ROUND_DICE[procedure].slice(1), say);
      const firstDice = foundry.dice.log.slice(diceBefore);
      expect(foundry.dice.remaining, 'every scripted die was used').toEqual([]);
      expect(first.hit, `${procedure}: the caster was hit mid-casting`).toBe(true);
      expect(first.changed, `${procedure}: the next round's declarations were reached`).toBe(true);
      // The walk crossed an end of round, the next round's declarations and its initiative.
      const stages = first.points.map((p) => `${p.flow!.round}:${p.flow!.stage}`);
      expect(stages).toContain('1:end-of-round');
      expect(stages).toContain('2:declare');
      expect(stages).toContain('2:resolve');
      for (const w of first.writes) expect(w.bytes, `${procedure} ${w.label}: bytes of the Combat write`).toBeLessThan(2000);
      say(`${procedure} v${generation} writes: ${first.writes.map((w) => `${w.label}=${w.bytes}`).join(', ')}`);
      expect(foundry.errors).toEqual([]);

      // Back, one Previous per transition made (the points are 0..n).
      const n = first.points.length - 1;
      const back: Point[] = [];
      let previousBytes = 0;
      for (let i = n - 1; i >= 0; i--) {
        previousBytes = Math.max(previousBytes, await press(t, `${procedure} Previous back to point ${i}`, () => combat.previousTurn()));
        back[i] = record(t, `Previous #${n - i}`);
      }
      expect(foundry.dice.log.length, 'Previous rolls no dice').toBe(diceBefore + firstDice.length);
      expect(combat.flowState).toMatchObject({ round: 1, stage: 'resolve', step: 0 });

      // Forward again with the same dice.
      foundry.dice.seed(SEED);
      const diceBack = foundry.dice.log.length;
      const second = await walkForward(t, procedure, STEPS, ROUND_DICE[procedure].slice(1), say);
      expect(foundry.dice.log.slice(diceBack), 'the second pass rolled the same dice').toEqual(firstDice);
      expect(second.points.map((p) => p.label)).toEqual(first.points.map((p) => p.label));
      for (const w of second.writes) expect(w.bytes, `${procedure} second pass ${w.label}: bytes of the Combat write`).toBeLessThan(2000);
      expect(foundry.errors).toEqual([]);
      expect(foundry.deprecations).toEqual([]);
      walk = { first, back, second };
      largest[procedure] = { ...largest[procedure], step: Math.max(largest[procedure]?.step ?? 0, ...first.writes.map((w) => w.bytes), ...second.writes.map((w) => w.bytes)), previous: Math.max(largest[procedure]?.previous ?? 0, previousBytes) };
    });

    it('at every point on the way back, Previous restores the flow, core round and turn, the log, actors, combatants and the clock exactly', () => {
      if (!t || !walk) throw new Error('the walk did not complete');
      const { first, back } = walk;
      for (let i = back.length - 1; i >= 0; i--) expectSame(t, back[i], first.points[i], `${procedure} v${generation}: ${back[i].label}, back to point ${i}`);
    });

    it("at every point on the way back, the GM's held declarations are those recorded there", () => {
      if (!t || !walk) throw new Error('the walk did not complete');
      const { first, back } = walk;
      for (let i = back.length - 1; i >= 0; i--) expectSame(t, back[i], first.points[i], `${procedure} v${generation}: ${back[i].label}, back to point ${i}`, ['held']);
    });

    it('forward again with the same dice, every point equals the first pass', () => {
      if (!t || !walk) throw new Error('the walk did not complete');
      const { first, second } = walk;
      for (let i = 0; i < first.points.length; i++) expectSame(t, second.points[i], first.points[i], `${procedure} v${generation}: second pass, point ${i}`);
    });

    it("forward again, the GM's held declarations at every point equal the first pass", () => {
      if (!t || !walk) throw new Error('the walk did not complete');
      const { first, second } = walk;
      for (let i = 0; i < first.points.length; i++) expectSame(t, second.points[i], first.points[i], `${procedure} v${generation}: second pass, point ${i}`, ['held']);
    });

    /** A combat declared for round 1 (the orcs' plans held by the GM), and nextRound with fixed dice. */
    async function declaredTable(): Promise<{ t: Table; declared: Point; nextRound: (label: string) => Promise<Point> }> {
      const t = await makeTable(generation, procedure);
      await setUp(t, procedure);
      const declared = record(t, 'round 1 declared, the orcs held');
      const nextRound = async (label: string) => {
        t.foundry.dice.seed(SEED);
        t.foundry.dice.push(...ROUND_DICE[procedure][0]);
        const bytes = await press(t, `${procedure} ${label}`, () => t.combat.nextRound());
        largest[procedure] = { ...largest[procedure], nextRound: Math.max(largest[procedure]?.nextRound ?? 0, bytes) };
        return record(t, label);
      };
      return { t, declared, nextRound };
    }

    it('nextRound then previousRound, and previousRound then nextRound, are exact round trips', async () => {
      const { t, declared, nextRound } = await declaredTable();
      const round2 = await nextRound('nextRound');
      expect(round2.flow).toMatchObject({ stage: 'declare', round: 2 });
      expect(round2.held).toEqual({});
      await press(t, `${procedure} previousRound`, () => t.combat.previousRound());
      expectSame(t, record(t, 'previousRound'), declared, `${procedure} v${generation}: nextRound then previousRound`, [...FLOW_FIELDS, 'held']);
      expectSame(t, await nextRound('nextRound again'), round2, `${procedure} v${generation}: previousRound then nextRound`, [...FLOW_FIELDS, 'held']);
      expect(t.foundry.errors).toEqual([]);
      expect(t.foundry.deprecations).toEqual([]);
    });

    it("previousRound from the next round's declarations, with the GM's plans for it held, gives back round 1's plans; nextRound then plays round 1 as before", async () => {
      const { t, declared, nextRound } = await declaredTable();
      const { ids, foundry } = t;
      const round2 = await nextRound('nextRound');
      // Round 2's declarations: the GM plans two orcs' moves (held), Brand's player changes his target (logged).
      await declare(t, ids.orc1, { action: 'melee', target: ids.corwin });
      await declare(t, ids.orc3, { action: 'melee', target: ids.halvaine });
      await declare(t, ids.brand, { action: 'melee', weapon: t.sword.id, target: ids.orc4 }, foundry.users.player2);
      await press(t, `${procedure} previousRound with round-2 plans held`, () => t.combat.previousRound());
      expectSame(t, record(t, 'previousRound'), declared, `${procedure} v${generation}: previousRound from round 2's declarations`, [...FLOW_FIELDS, 'held']);
      expectSame(t, await nextRound('nextRound after it'), round2, `${procedure} v${generation}: nextRound after that previousRound`, [...FLOW_FIELDS, 'held']);
      expect(foundry.errors).toEqual([]);
    });
  });
});
