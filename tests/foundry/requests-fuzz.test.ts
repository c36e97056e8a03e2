/**
 * Ten thousand fuzzed declaration requests (issue #3): malformed shapes,
 * wrong types, unknown ids, other users' combatants, actions the procedure
 * does not have, spells not memorized, weapons not carried, huge, negative
 * and NaN numbers, prototype-polluting keys, forged senders; in each of the
 * five procedures and both generations (1,000 per procedure and generation).
 *
 * Each request is either accepted or refused with a reason in the user's
 * language (a known key, no raw key, no "undefined"), nothing throws, a
 * refusal changes nothing (not one write, the flow as it was), an accepted
 * one is one write and came from the GM or the combatant's owner. What was
 * accepted must also play: declarations made before the start survive it,
 * and the round runs with whatever was accepted.
 *
 * One world per procedure and generation; requests run in batches of 50
 * (fast-check `asyncProperty` over arrays, no shrinking: the world goes on).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, g, type World } from './world';
import { QUERY_DECLARE, requestDeclaration, type QueryAnswer } from '../../src/documents/queries';
import { ACTION_KINDS, PROCEDURE_IDS, type ProcedureId } from '../../src/rules/model';
import type { TenSegmentsCombat } from '../../src/documents/combat';

/** Requests per procedure and generation, in each of the three stages below. */
const BEFORE_START = 100;
const DECLARING = 700;
const IN_ROUND = 200;
const BATCH = 50;

function loadFragments(w: World): void {
}

/** How a request reaches the GM. */
type Path =
  | { kind: 'client' } // requestDeclaration on the user's client (a GM handles it locally, a player sends a query)
  | { kind: 'query' } // the user sends a query with a payload of their own making (v13: no sender attached)
  | { kind: 'handler'; sender: string | null }; // the GM's handler called with Foundry's v14 sender (or none), raw values (NaN…)

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
}

async function fixture(generation: 13 | 14, procedure: ProcedureId): Promise<Fixture> {
  const w = await makeWorld(generation, procedure);
  loadFragments(w);
  const other = w.foundry.users.add({ name: 'Corin' });
  const [fireball, rope, dagger] = await w.actors.halvaine.createEmbeddedDocuments('Item', [
    { name: 'Fireball', type: 'spell', system: { level: 3, castingTime: { value: 3, unit: 'segments' }, castingTN: 14, memorized: 0, expended: 0 } },
    { name: 'Rope', type: 'gear', system: { weight: 5, quantity: 1 } },
    { name: 'Dagger', type: 'weapon', system: { damage: { small: '1d4', large: '1d3' }, speed: 2, length: 1, space: 1, kind: 'melee', equipped: true } },
  ]);
  return {
    w,
    combat: w.combat,
    users: { gm: w.foundry.users.gm, player: w.foundry.users.player, player2: w.foundry.users.player2, other },
    items: { sleep: w.spell.id, fireball: fireball.id, sword: w.sword.id, rope: rope.id, dagger: dagger.id },
  };
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

function arbitraries(f: Fixture) {
  const { ids } = f.w;
  const combatantIds = Object.values(ids);
  const itemIds = Object.values(f.items);
  const userIds = Object.values(f.users).map((u) => u.id as string);
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
  const declaration = fc
    .record(
      {
        action,
        target: id,
        weapon: itemId,
        spell: itemId,
        spellName: fc.oneof(text(), fc.integer()),
        castingTime: number,
        speed: number,
        routines: number,
        hesitation: number,
        distance: number,
        readied: flag,
        delayed: flag,
        note: fc.oneof({ weight: 5, arbitrary: text(40) }, { weight: 1, arbitrary: fc.constant('x'.repeat(501)) }, { weight: 1, arbitrary: fc.integer() }),
      },
      { requiredKeys: [] },
    )
    .chain((d) => fc.oneof({ weight: 4, arbitrary: fc.constant(d) }, { weight: 1, arbitrary: polluting.map((p) => ({ ...p, ...d })) }));
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
        castingTime: fc.integer({ min: 1, max: 10 }),
        routines: fc.integer({ min: 1, max: 3 }),
        distance: fc.integer({ min: 0, max: 60 }),
        hesitation: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: ['action'] },
    );
  };
  const combatId = fc.oneof({ weight: 9, arbitrary: fc.constant(f.combat.id as string) }, { weight: 1, arbitrary: id });
  const userId = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...userIds) }, { weight: 1, arbitrary: id });
  const wellShaped = fc.record({
    combatId,
    combatantId: id,
    declaration: fc.oneof({ weight: 3, arbitrary: declaration }, { weight: 2, arbitrary: fc.constantFrom(...combatantIds).chain(sensible) }),
    userId,
  });
  const payload = fc.oneof(
    { weight: 8, arbitrary: wellShaped },
    { weight: 1, arbitrary: fc.anything() },
    { weight: 1, arbitrary: fc.oneof(wellShaped.map((p) => ({ ...p, declaration: [p.declaration] })), polluting, wellShaped.chain((p) => polluting.map((q) => ({ ...q, ...p })))) },
  );
  const path: fc.Arbitrary<Path> = fc.oneof(
    { weight: 5, arbitrary: fc.constant({ kind: 'client' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'query' as const }) },
    { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...userIds), fc.constant(null)).map((sender) => ({ kind: 'handler' as const, sender })) },
  );
  const chaotic = fc.record({ user: fc.constantFrom(...userIds), path, payload });
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
      path: fc.constant({ kind: 'client' as const }),
      payload: fc.record({
        combatId: fc.constant(f.combat.id as string),
        combatantId: fc.constant(combatantId),
        declaration: fc.oneof({ weight: 3, arbitrary: sensible(combatantId) }, { weight: 2, arbitrary: declaration }),
        userId: fc.constant(''), // the client puts its own id in
      }),
    }),
  );
  return fc.oneof({ weight: 1, arbitrary: allowed }, { weight: 1, arbitrary: chaotic });
}

/* --------------------------------------------------------------- the run */

const OWNER = 3;

/** Who the GM takes the request to be from (the oracle), or null when it must be refused for that alone. */
function senderFor(f: Fixture, r: Fuzzed): any | null {
  const claimed = (r.payload as any)?.userId;
  const byId = (id: unknown) => (typeof id === 'string' ? g.game.users.get(id) ?? null : null);
  const user = byId(r.user);
  if (r.path.kind === 'client') return user; // the client puts its own id in
  if (r.path.kind === 'handler' && r.path.sender !== null) return claimed === r.path.sender ? byId(claimed) : null;
  const named = byId(claimed);
  return named && !named.isGM ? named : null; // no sender from Foundry: a GM is never believed
}

async function send(f: Fixture, r: Fuzzed): Promise<QueryAnswer> {
  const user = g.game.users.get(r.user);
  const p = r.payload as any;
  if (r.path.kind === 'client') {
    const combat = typeof p?.combatId === 'string' && g.game.combats.get(p.combatId) ? g.game.combats.get(p.combatId) : { id: p?.combatId };
    return f.w.foundry.asUser(user, () => requestDeclaration(combat, p?.combatantId, p?.declaration));
  }
  if (r.path.kind === 'query') {
    return f.w.foundry.asUser(user, () => f.users.gm.query(QUERY_DECLARE, p, { timeout: 5000 }));
  }
  const sender = r.path.sender === null ? undefined : g.game.users.get(r.path.sender);
  return f.w.foundry.asUser(f.users.gm, () => g.CONFIG.queries[QUERY_DECLARE](p, sender ? { timeout: 5000, user: sender } : { timeout: 5000 }));
}

interface Tally {
  accepted: number;
  refused: Map<string, number>;
  /** Combatant id → action of the last declaration accepted before the start. */
  waiting: Map<string, string>;
}

/** One request, checked: nothing thrown, a localized refusal that changed nothing, or one write from someone allowed. */
async function check(f: Fixture, r: Fuzzed, tally: Tally): Promise<void> {
  const { foundry } = f.w;
  const combat = f.combat as any;
  const before = JSON.stringify({ log: combat.system.log, held: combat.held });
  const writes = foundry.writes.count();
  const named = typeof (r.payload as any)?.combatantId === 'string' ? combat.combatants.get((r.payload as any).combatantId) : null;
  // The GM's plan for a combatant no player owns is held on the GM's client: no write. Before the
  // start, a declaration replacing one already waiting on its combatant clears it first: two writes.
  const held = !!named && !named.hasPlayerOwner;
  const expectedWrites = held ? 0 : !combat.flowState && named?.system.declaration ? 2 : 1;
  let answer: QueryAnswer;
  try {
    answer = await send(f, r);
  } catch (err) {
    throw new Error(`threw ${(err as Error)?.message ?? err} for ${JSON.stringify(r)}`);
  }
  const where = () => JSON.stringify({ request: r, answer }).slice(0, 2000);
  if (typeof answer !== 'object' || answer === null || typeof answer.ok !== 'boolean') throw new Error(`no answer: ${where()}`);
  if (!answer.ok) {
    const { key, message } = answer;
    if (typeof key !== 'string' || !g.game.i18n.has(`TENSEG.Error.${key}`)) throw new Error(`unlocalized key: ${where()}`);
    if (typeof message !== 'string' || message.trim() === '' || message.includes('TENSEG.') || message.includes('undefined')) throw new Error(`bad message: ${where()}`);
    if (foundry.writes.count() !== writes || JSON.stringify({ log: combat.system.log, held: combat.held }) !== before) {
      throw new Error(`a refusal changed the world: ${where()}`);
    }
    tally.refused.set(key, (tally.refused.get(key) ?? 0) + 1);
    return;
  }
  // Accepted: one write, from someone allowed, recorded where it belongs.
  if (foundry.writes.count() !== writes + expectedWrites) throw new Error(`accepted with ${foundry.writes.count() - writes} writes: ${where()}`);
  const p = r.payload as any;
  const combatant = combat.combatants.get(p.combatantId);
  const sender = senderFor(f, r);
  if (!combatant || !sender || !(sender.isGM || combatant.actor.testUserPermission(sender, OWNER))) {
    throw new Error(`accepted from someone not allowed: ${where()}`);
  }
  const recorded = held ? combat.held[p.combatantId] : combat.flowState ? combat.flowState.declarations[p.combatantId] : combatant.system.declaration;
  if (!recorded || recorded.action !== p.declaration.action) throw new Error(`accepted but not recorded: ${where()}`);
  if (!combat.flowState) tally.waiting.set(p.combatantId, p.declaration.action);
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
      expect(tally.refused.get('NotYourCombatant')).toBeGreaterThan(0);
      expect(tally.refused.get('MalformedRequest')).toBeGreaterThan(0);
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
