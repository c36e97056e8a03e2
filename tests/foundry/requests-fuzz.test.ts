/**
 * Ten thousand fuzzed declaration requests (issue #3): malformed shapes,
 * wrong types, unknown ids, other users' combatants, actions the procedure
 * does not have, spells not memorized, weapons not carried, numbers of the
 * old request shape (now unknown fields), GM-only overrides from players,
 * huge, negative and NaN numbers, prototype-polluting keys, a `userId` in
 * the body; in each of the five procedures and both generations (1,000 per
 * procedure and generation).
 *
 * Requests go the ways a client can send them: `requestDeclaration` on the
 * user's own client (the active GM handles its own at once, with raw values;
 * a player's goes on the system socket), and a modified player client
 * emitting a request message of its own making on the socket, whose answer
 * comes back addressed to it. The sender is always the user whose client
 * sent it: Foundry's server says so, never the payload.
 *
 * Each request is either accepted or refused with a reason in the user's
 * language (a known key, no raw key, no "undefined"), nothing throws, a
 * refusal changes nothing (not one write, the log, the GM's held plans and
 * the combatants as they were), an accepted one came from the GM or the
 * combatant's owner, was written by the active GM only, and is recorded
 * where it belongs (the log; the GM's held plans; before the start, the
 * request waiting on its combatant). What was accepted must also play:
 * declarations made before the start survive it, and the round runs with
 * whatever was accepted.
 *
 * One world per procedure and generation; requests run in batches of 50
 * (fast-check `asyncProperty` over arrays, no shrinking: the world goes on).
 * No wall time: the clients' request timers run on vitest's fake clock,
 * which never moves, and a raw request's answer is awaited by settling the
 * stand-in's network.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeWorld, g, type World } from './world';
import { requestDeclaration, type QueryAnswer } from '../../src/documents/queries';
import { CHANNEL } from '../../src/documents/requests';
import { ACTION_KINDS, PROCEDURE_IDS, type ProcedureId } from '../../src/rules/model';
import type { TenSegmentsCombat } from '../../src/documents/combat';

/** Requests per procedure and generation, in each of the three stages below. */
const BEFORE_START = 100;
const DECLARING = 700;
const IN_ROUND = 200;
const BATCH = 50;

/** How a request reaches the active GM. */
type Path =
  | { kind: 'client' } // requestDeclaration on the user's own client
  | { kind: 'raw'; envelope: Record<string, unknown> }; // a modified player client: a request message of its own making (extra envelope fields)

interface Fuzzed {
  user: string;
  path: Path;
  payload: unknown;
}

interface Fixture {
  w: World;
  combat: TenSegmentsCombat;
  users: Record<'gm' | 'player' | 'player2' | 'other', any>;
  items: { sleep: string; fireball: string; sword: string; rope: string; dagger: string };
  /** Answers each player's client heard on the system socket, by request id. */
  heard: Map<string, { to: unknown; answer: unknown; sender: string }>;
}

async function fixture(generation: 13 | 14, procedure: ProcedureId): Promise<Fixture> {
  const w = await makeWorld(generation, procedure);
  const other = w.foundry.users.add({ name: 'Corin' });
  const [fireball, rope, dagger] = await w.actors.halvaine.createEmbeddedDocuments('Item', [
    { name: 'Fireball', type: 'spell', system: { level: 3, castingTime: { value: 3, unit: 'segments' }, castingTN: 14, memorized: 0, expended: 0 } },
    { name: 'Rope', type: 'gear', system: { weight: 5, quantity: 1 } },
    { name: 'Dagger', type: 'weapon', system: { damage: { small: '1d4', large: '1d3' }, speed: 2, length: 1, space: 1, kind: 'melee', equipped: true } },
  ]);
  const users = { gm: w.foundry.users.gm, player: w.foundry.users.player, player2: w.foundry.users.player2, other };
  const heard = new Map<string, { to: unknown; answer: unknown; sender: string }>();
  for (const user of [users.player, users.player2, other]) {
    await w.foundry.client(user).run(() =>
      g.game.socket.on(CHANNEL, (data: any, sender: string) => {
        if (data?.k === 'ans' && data.to === user.id) heard.set(`${user.id}|${data.id}`, { to: data.to, answer: data.answer, sender });
      }),
    );
  }
  await w.foundry.settle();
  return { w, combat: w.combat, users, heard, items: { sleep: w.spell.id, fireball: fireball.id, sword: w.sword.id, rope: rope.id, dagger: dagger.id } };
}

/* ------------------------------------------------------------ arbitraries */

const text = (max = 20) => fc.string({ maxLength: max }).filter((s) => !s.includes('undefined') && !s.includes('TENSEG'));

const number = fc.oneof(
  fc.integer({ min: -5, max: 12 }),
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 1e-320),
  fc.constantFrom('3', ' 2 ', '', 'abc', '1e400', '-1', '0x10', 'NaN'),
  fc.constantFrom(null, undefined, true, {}, [1], { valueOf: 3 }),
);

const flag = fc.oneof(fc.boolean(), fc.constantFrom('true', 'on', '1', 'false', '', 'yes'), number);

/** Keys an attacker would use to reach Object.prototype, as own keys (JSON-parsed). */
const POLLUTING = ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"prototype":{"polluted":"yes"}}', '{"__proto__":{"action":"melee"}}'];
const polluting = fc.constantFrom(...POLLUTING).map((s) => JSON.parse(s) as Record<string, unknown>);

/** The numbers only the GM may set, in range (mostly legal somewhere). */
const sensibleOverride = fc.record(
  {
    castingTime: fc.integer({ min: 1, max: 10 }),
    speed: fc.integer({ min: -3, max: 3 }),
    routines: fc.integer({ min: 1, max: 3 }),
    hesitation: fc.integer({ min: 0, max: 3 }),
    distance: fc.integer({ min: 0, max: 60 }),
    weaponSpeed: fc.integer({ min: 1, max: 10 }),
    length: fc.constantFrom(1, 3.5, 6),
    space: fc.constantFrom(1, 3, 4),
  },
  { requiredKeys: [] },
);

/** Any override: out of range, of the wrong type, with keys it does not have, or not an object at all. */
const override = fc.oneof(
  { weight: 3, arbitrary: sensibleOverride },
  {
    weight: 3,
    arbitrary: fc.record(
      { castingTime: number, speed: number, routines: number, hesitation: number, distance: number, weaponSpeed: number, length: number, space: number },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.oneof(number, text(), fc.constant([]), sensibleOverride.map((o) => ({ ...o, damage: 99 }))) },
  // A form's empty field: not given.
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, '') },
);

function arbitraries(f: Fixture) {
  const { ids } = f.w;
  const combatantIds = Object.values(ids);
  const itemIds = Object.values(f.items);
  const userIds = Object.values(f.users).map((u) => u.id as string);
  const playerIds = [f.users.player.id, f.users.player2.id, f.users.other.id] as string[];
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...combatantIds) },
    { weight: 2, arbitrary: fc.constantFrom(...itemIds, 'nosuchid00000000', '', f.combat.id as string) },
    { weight: 1, arbitrary: fc.oneof(text(), fc.integer(), fc.constant(null), fc.constant({})) },
  );
  const itemId = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...itemIds) }, { weight: 2, arbitrary: id });
  const action = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ACTION_KINDS) },
    { weight: 1, arbitrary: fc.constantFrom('constructor', '__proto__', 'toString', 'Melee', ' melee', '') },
    { weight: 1, arbitrary: fc.oneof(text(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.constant(['melee'])) },
  );
  /** The numbers the old request carried at its top level: unknown fields now. */
  const legacy = fc.record({ castingTime: number, speed: number, routines: number, hesitation: number, distance: number, combatant: id }, { requiredKeys: [] }).filter((o) => Object.keys(o).length > 0);
  const declaration = fc
    .record(
      {
        action,
        target: id,
        weapon: itemId,
        spell: itemId,
        spellName: fc.oneof(text(), fc.integer()),
        readied: flag,
        delayed: flag,
        note: fc.oneof({ weight: 5, arbitrary: text(40) }, { weight: 1, arbitrary: fc.constant('x'.repeat(501)) }, { weight: 1, arbitrary: fc.integer() }),
        override,
      },
      { requiredKeys: [] },
    )
    .chain((d) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(d) },
        { weight: 1, arbitrary: legacy.map((l) => ({ ...l, ...d })) },
        { weight: 1, arbitrary: polluting.map((p) => ({ ...p, ...d })) },
      ),
    );
  /** Declarations the combatant's owner could sensibly send: their own items, mostly legal somewhere. */
  const carried: Record<string, { weapons: string[]; spells: string[] }> = {
    [ids.halvaine]: { weapons: [f.items.dagger], spells: [f.items.sleep, f.items.fireball] },
    [ids.brand]: { weapons: [f.items.sword], spells: [] },
  };
  const sensible = (combatantId: string) => {
    const own = carried[combatantId] ?? { weapons: [], spells: [] };
    return fc.record(
      {
        action: fc.constantFrom(...ACTION_KINDS),
        target: fc.constantFrom(...combatantIds.filter((c) => c !== combatantId)),
        weapon: own.weapons.length > 0 ? fc.constantFrom(...own.weapons) : fc.constant(undefined),
        spell: own.spells.length > 0 ? fc.constantFrom(...own.spells) : fc.constant(undefined),
        spellName: fc.constantFrom('Wand of frost', 'Scroll'),
        override: fc.oneof({ weight: 3, arbitrary: sensibleOverride }, { weight: 1, arbitrary: fc.constantFrom(null, '') }),
      },
      { requiredKeys: ['action'] },
    );
  };
  const combatId = fc.oneof({ weight: 9, arbitrary: fc.constant(f.combat.id as string) }, { weight: 1, arbitrary: id });
  const wellShaped = fc
    .record({
      combatId,
      combatantId: id,
      declaration: fc.oneof({ weight: 3, arbitrary: declaration }, { weight: 2, arbitrary: fc.constantFrom(...combatantIds).chain(sensible) }),
    })
    // A sender's name in the body: the server names the sender, a request has no such field.
    .chain((p) => fc.oneof({ weight: 9, arbitrary: fc.constant(p as Record<string, unknown>) }, { weight: 1, arbitrary: fc.constantFrom(...userIds).map((userId) => ({ ...p, userId })) }));
  const payload = fc.oneof(
    { weight: 8, arbitrary: wellShaped },
    { weight: 1, arbitrary: fc.anything() },
    { weight: 1, arbitrary: fc.oneof(wellShaped.map((p) => ({ ...p, declaration: [p.declaration] })), polluting, wellShaped.chain((p) => polluting.map((q) => ({ ...q, ...p })))) },
  );
  /** Extra fields of a forged envelope (mostly none): a wrong kind, an unknown field. */
  const envelope = fc.oneof(
    { weight: 8, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constantFrom({ kind: 'declares' }, { kind: 'attack' }, { kind: 'combat' }, { userId: 'x' }, { sender: 'gm' }) },
  );
  const chaotic = fc.oneof(
    { weight: 5, arbitrary: fc.record({ user: fc.constantFrom(...userIds), path: fc.constant<Path>({ kind: 'client' }), payload }) },
    { weight: 3, arbitrary: fc.record({ user: fc.constantFrom(...playerIds), path: envelope.map((e): Path => ({ kind: 'raw', envelope: e })), payload }) },
  );
  /** The GM or the combatant's owner, from their own client, about a combatant of this combat: the engine has the last word. */
  const owners: Record<string, string[]> = {
    [ids.halvaine]: [f.users.gm.id, f.users.player.id],
    [ids.brand]: [f.users.gm.id, f.users.player2.id],
    [ids.orc1]: [f.users.gm.id],
    [ids.orc2]: [f.users.gm.id],
  };
  const allowed = fc.constantFrom(...combatantIds).chain((combatantId) =>
    fc.record({
      user: fc.constantFrom(...owners[combatantId]),
      path: fc.constant<Path>({ kind: 'client' }),
      payload: fc.record({
        combatId: fc.constant(f.combat.id as string),
        combatantId: fc.constant(combatantId),
        declaration: fc.oneof({ weight: 3, arbitrary: sensible(combatantId) }, { weight: 2, arbitrary: declaration }),
      }),
    }),
  );
  return fc.oneof({ weight: 1, arbitrary: allowed }, { weight: 1, arbitrary: chaotic });
}

/* --------------------------------------------------------------- the run */

const OWNER = 3;
let sent = 0;

async function send(f: Fixture, r: Fuzzed): Promise<QueryAnswer> {
  const { foundry } = f.w;
  const user = g.game.users.get(r.user);
  const p = r.payload as any;
  if (r.path.kind === 'client') {
    const combat = typeof p?.combatId === 'string' && g.game.combats.get(p.combatId) ? g.game.combats.get(p.combatId) : { id: p?.combatId };
    return foundry.asUser(user, () => requestDeclaration(combat, p?.combatantId, p?.declaration));
  }
  // A modified client: its own message on the socket; the answer comes back addressed to it.
  const id = `fuzz${++sent}`;
  foundry.raw(user).emit(CHANNEL, { k: 'req', id, kind: 'declare', body: p, ...r.path.envelope });
  const key = `${user.id}|${id}`;
  for (let i = 0; i < 20 && !f.heard.has(key); i++) await foundry.settle();
  const heard = f.heard.get(key);
  if (!heard) throw new Error('no answer on the socket');
  if (heard.sender !== f.users.gm.id) throw new Error(`answered by ${heard.sender}, not the active GM`);
  return heard.answer as QueryAnswer;
}

interface Tally {
  accepted: number;
  refused: Map<string, number>;
  /** Combatant id → action of the last declaration accepted before the start. */
  waiting: Map<string, string>;
}

/** Everything a refusal must leave as it was. */
function world(combat: any): string {
  return JSON.stringify({ log: combat.system.log, held: combat.held, waiting: combat.combatants.contents.map((c: any) => [c.id, c.system.declaration]) });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One request, checked: nothing thrown, a localized refusal that changed nothing, or an accepted one from someone allowed, recorded where it belongs. */
async function check(f: Fixture, r: Fuzzed, tally: Tally): Promise<void> {
  const { foundry } = f.w;
  const combat = f.combat as any;
  const before = world(combat);
  const writes = foundry.writes.all().length;
  const p = r.payload as any;
  const named = typeof p?.combatantId === 'string' ? combat.combatants.get(p.combatantId) : null;
  const started = !!combat.flowState;
  const logged = started && named ? JSON.stringify(combat.flowState.declarations[named.id] ?? null) : null;
  const stored = named?.system.declaration ?? null;
  // The latest declaration wins: a plan the GM held for this combatant goes when another declaration is kept (one Setting write).
  const heldBefore = !!named && named.id in combat.held;
  let answer: QueryAnswer;
  try {
    answer = await send(f, r);
  } catch (err) {
    throw new Error(`threw ${(err as Error)?.message ?? err} for ${JSON.stringify(r)}`);
  }
  const where = () => JSON.stringify({ request: r, answer }).slice(0, 2000);
  if (typeof answer !== 'object' || answer === null || typeof answer.ok !== 'boolean') throw new Error(`no answer: ${where()}`);
  const made = foundry.writes.all().slice(writes);
  if (!answer.ok) {
    const { key, message } = answer;
    if (typeof key !== 'string' || !g.game.i18n.has(`TENSEG.Error.${key}`)) throw new Error(`unlocalized key: ${where()}`);
    if (typeof message !== 'string' || message.trim() === '' || message.includes('TENSEG.') || message.includes('undefined')) throw new Error(`bad message: ${where()}`);
    if (made.length > 0 || world(combat) !== before) throw new Error(`a refusal changed the world: ${where()}`);
    tally.refused.set(key, (tally.refused.get(key) ?? 0) + 1);
    return;
  }
  // Accepted: from someone allowed, without a GM's numbers unless from the GM, written by the active GM only.
  const sender = g.game.users.get(r.user);
  const declaration = p.declaration;
  if (!named || !(sender.isGM || named.actor.testUserPermission(sender, OWNER))) throw new Error(`accepted from someone not allowed: ${where()}`);
  if (!sender.isGM && isObject(declaration.override)) throw new Error(`a player's override was accepted: ${where()}`);
  if (made.some((m) => m.userId !== f.users.gm.id)) throw new Error(`written by someone other than the active GM: ${where()}`);
  // Recorded where it belongs, in as many writes as that takes.
  const held = sender.isGM && (!named.hasPlayerOwner || (!started && isObject(declaration.override)));
  const kinds = made.map((m) => `${m.documentName}.${m.action}`);
  if (held) {
    if (combat.held[named.id]?.action !== declaration.action) throw new Error(`accepted but not held: ${where()}`);
    const settings = kinds.filter((k) => k === 'Setting.create' || k === 'Setting.update');
    const cleared = kinds.filter((k) => k === 'Combatant.update');
    if (settings.length !== 1 || cleared.length !== (stored && !started ? 1 : 0) || kinds.length !== settings.length + cleared.length) throw new Error(`held with writes ${kinds}: ${where()}`);
  } else if (!started) {
    if (named.system.declaration?.action !== declaration.action) throw new Error(`accepted but not waiting on its combatant: ${where()}`);
    const expected = [...Array(stored ? 2 : 1).fill('Combatant.update'), ...(heldBefore ? ['Setting.update'] : [])];
    if (JSON.stringify(kinds) !== JSON.stringify(expected)) throw new Error(`waiting with writes ${kinds}: ${where()}`);
  } else {
    const now = combat.flowState.declarations[named.id];
    if (now?.action !== declaration.action) throw new Error(`accepted but not in the log: ${where()}`);
    const dropped = heldBefore ? ['Setting.update'] : [];
    const expected = JSON.stringify(now) === logged ? [dropped, ['Combat.update', ...dropped]] : [['Combat.update', ...dropped]];
    if (!expected.some((e) => JSON.stringify(e) === JSON.stringify(kinds))) throw new Error(`logged with writes ${kinds}: ${where()}`);
  }
  if (!started) tally.waiting.set(named.id, declaration.action);
  tally.accepted += 1;
}

async function run(f: Fixture, count: number, seed: number, tally: Tally): Promise<void> {
  const request = arbitraries(f);
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      for (const r of batch) await check(f, r as Fuzzed, tally);
    }),
    { numRuns: count / BATCH, seed, endOnFailure: true },
  );
}

describe.each([13, 14] as const)('fuzzed declaration requests, generation %i', (generation) => {
  // The clients' request timers (a retry after REQUEST_SLOW) on a clock that never moves: no request is ever sent twice for being slow.
  beforeAll(() => {
    vi.useFakeTimers();
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  describe.each(PROCEDURE_IDS.map((p, i) => [p, i] as const))('%s', (procedure, index) => {
    let f: Fixture;
    const tally: Tally = { accepted: 0, refused: new Map(), waiting: new Map() };
    const seed = generation * 100 + index;
    beforeAll(async () => {
      f = await fixture(generation, procedure);
    });

    it(`${BEFORE_START} requests before the start: accepted or refused with a reason; what was accepted survives the start`, async () => {
      await run(f, BEFORE_START, seed, tally);
      const shown = f.w.foundry.notifications.length;
      await f.combat.startCombat();
      const state = f.combat.flowState!;
      expect(state.stage).toBe('declare');
      for (const [id, action] of tally.waiting) expect(f.combat.gmDeclarations[id]?.action, `${id} declared ${action}`).toBe(action);
      expect(f.w.foundry.notifications.slice(shown)).toEqual([]);
      expect(f.w.foundry.errors).toEqual([]);
    });

    it(`${DECLARING} requests while declaring: accepted or refused with a reason, nothing thrown, a refusal changes nothing`, async () => {
      await run(f, DECLARING, seed + 1, tally);
      expect(tally.accepted).toBeGreaterThan(0);
      for (const key of ['NotYourCombatant', 'OverrideGMOnly', 'RequestUnknownField', 'RequestFieldInvalid']) expect(tally.refused.get(key), key).toBeGreaterThan(0);
      expect(({} as any).polluted).toBeUndefined();
      expect(f.w.foundry.errors).toEqual([]);
    });

    it(`what was accepted plays: initiative and a whole round run; ${IN_ROUND} more requests in the round are refused`, async () => {
      const shown = f.w.foundry.notifications.length;
      await f.combat.rollInitiative();
      expect(f.combat.flowState!.stage).not.toBe('declare');
      expect(f.w.foundry.notifications.slice(shown)).toEqual([]);
      const accepted = tally.accepted;
      await run(f, IN_ROUND, seed + 2, tally);
      expect(tally.accepted).toBe(accepted);
      expect(tally.refused.get('NotDeclaring')).toBeGreaterThan(0);
      const round = f.combat.flowState!.round;
      await f.combat.nextRound();
      expect(f.combat.flowState!.round).toBe(round + 1);
      expect(f.w.foundry.notifications.slice(shown)).toEqual([]);
      expect(f.w.foundry.errors).toEqual([]);
      expect(({} as any).polluted).toBeUndefined();
    });
  });
});
