/**
 * Foundry-layer benchmark: database writes, combat-tracker renders and bytes
 * broadcast per transition, counted against the in-repo stand-in
 * (tests/standin), for 20 and 200 combatants under each of the five
 * procedures, in round 1 and in round 10. Prints figures beside the target
 * and the peers' figures; never asserts.
 *
 *   npx tsx scripts/bench-foundry.ts          (or from scripts/bench.ts: await benchFoundry())
 *
 * A "write" is one create/update/delete operation that reaches the database
 * (`writes.count`: a batch of N documents is one write); a "render" is one
 * render of the combat tracker (`renders.count('combat')`, ui.combat).
 * Measured per transition, on the GM's client:
 *   declare     one declaration recorded (mean and most over every combatant)
 *   initiative  rollInitiative: the round planned, resolution begins
 *   step        nextTurn from one resolution step to the next (mean and most)
 *   end         nextTurn after the last step: the end-of-round steps
 *   new round   nextTurn from the end of the round into the next round's declarations
 *   nextRound   nextRound from the first step of a round to the next round's declarations
 * Nobody is hurt in rounds 1 and 2. In round 3 a tenth of the combatants are
 * hit one at a time (a second table): each hit (the actor update and what the
 * GM's client does about it), then the end of that round and the next round,
 * where end-of-round effects reach actors. Any count above one is explained
 * in a note line, document by document. Rounds 4 to 9 go by with nextRound;
 * round 10 is measured like round 1 (its declarations: twenty combatants
 * declare again).
 *
 * Bytes: what the server broadcasts to every other client for the
 * transition's writes (the stand-in's `writes.bytes`: created sources,
 * changes, deleted ids, as JSON), every document kind summed, chat messages
 * included and also counted apart. The fighters are player characters (their
 * declarations enter the combat's log at once); the orcs are the GM's, whose
 * declarations stay on the GM's client until initiative (seed 004).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { figure, mark, say } from './bench-figures';

/* eslint-disable @typescript-eslint/no-explicit-any */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = [20, 200] as const;
const GENERATIONS = [13, 14] as const;

interface Count {
  writes: number;
  renders: number;
  /** Bytes broadcast to the other clients, every document kind. */
  bytes: number;
  /** Of which chat messages. */
  chat: number;
  /** Of which the Combat's own writes. */
  combat: number;
  /** "Combat update", "ChatMessage create ×2"… for the notes. */
  detail: string;
}

interface Row {
  procedure: string;
  n: number;
  declare: Count[];
  initiative: Count | null;
  steps: Count[];
  end: Count | null;
  newRound: Count | null;
  nextRound: Count | null;
  /** Round 3, with casualties: combatants hit, writes and renders per hit, then the end of that round and the next round. */
  hurt: number;
  hits: Count[];
  endHurt: Count | null;
  newRoundHurt: Count | null;
  /** A client that joins after round 10 replays the whole log: milliseconds (median of 5), and the log's size in bytes. */
  replayMs?: number;
  logBytes?: number;
  /**
   * Round 11, its first step: a player drags their fighter one square along its row (issue 13: the active GM's client
   * measures it and records one `moved` entry). Not under high-low, where moving before its action asks the GM.
   */
  moved?: Count | null;
  /** Round 10, measured like round 1. */
  late: { declare: Count[]; initiative: Count | null; steps: Count[]; end: Count | null; newRound: Count | null };
  problem?: string;
}

type Foundry = any;
/** queries.ts whenIdle: resolves once every combat's queue (declarations, hits, transitions) is empty. */
let whenIdle: () => Promise<void> = async () => undefined;
/** token-moved.ts movementIdle on the GM's client: resolves once the moves it is judging are recorded. */
let movesIdle: (foundry: Foundry) => Promise<void> = async () => undefined;

function detailOf(foundry: Foundry): string {
  const tally = new Map<string, number>();
  for (const w of foundry.writes.all()) {
    const key = `${w.documentName} ${w.action}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  return [...tally].map(([k, v]) => (v > 1 ? `${k} ×${v}` : k)).join(', ');
}

/** Writes and renders of `work`, including what the GM does about it afterwards (hooks start that without awaiting it). */
async function counted(foundry: Foundry, work: () => Promise<unknown>): Promise<Count> {
  const idle = async () => {
    await foundry.settle();
    await movesIdle(foundry);
    await whenIdle();
    await foundry.settle();
  };
  await idle();
  foundry.writes.clear();
  foundry.renders.clear();
  await work();
  await idle();
  return {
    writes: foundry.writes.count(),
    renders: foundry.renders.count('combat'),
    bytes: foundry.writes.bytes(),
    chat: foundry.writes.bytes('ChatMessage'),
    combat: foundry.writes.bytes('Combat'),
    detail: detailOf(foundry),
  };
}

/** A party of fighters with long swords facing as many orcs, each pair in adjacent squares. */
async function buildWorld(foundry: Foundry, procedure: string, n: number): Promise<{ combat: any; foes: Map<string, string> }> {
  const g = globalThis as any;
  await g.game.settings.set('ten-segments', 'procedure', procedure);
  const half = n / 2;
  const { OWNER } = g.CONST.DOCUMENT_OWNERSHIP_LEVELS;
  const fighters = Array.from({ length: half }, (_, i) => ({
    name: `Fighter ${i + 1}`,
    type: 'character',
    ownership: { default: 0, [foundry.users.player.id]: OWNER },
    system: { hp: { value: 12, max: 12 }, ac: 5, attack: { mode: 'aac0', aac0: '19' }, details: { className: 'Fighter', level: 1 } },
    items: [
      { name: 'Long sword', type: 'weapon', system: { damage: { small: '1d8', large: '1d12' }, speed: 5, length: 3.5, space: 3, kind: 'melee', equipped: true } },
    ],
  }));
  const orcs = Array.from({ length: half }, (_, i) => ({
    name: `Orc ${i + 1}`,
    type: 'monster',
    system: { hitDice: '1', hp: { value: 6, max: 6 }, ac: 6, aac0: '19', attacks: 'axe 1d8', morale: 8 },
  }));
  const actors = await g.Actor.create([...fighters, ...orcs]);
  const scene = await g.Scene.create({ name: 'Field', active: true, width: Math.max(4000, half * 100 + 200), height: 3000 });
  const tokens = await scene.createEmbeddedDocuments(
    'Token',
    actors.map((a: any, i: number) => ({
      name: a.name,
      actorId: a.id,
      actorLink: true,
      x: (i % half) * 100,
      y: i < half ? 0 : 100,
      disposition: i < half ? 1 : -1,
    })),
  );
  const combat = await g.Combat.create({ scene: scene.id, active: true });
  const combatants = await combat.createEmbeddedDocuments(
    'Combatant',
    tokens.map((t: any) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId })),
  );
  await foundry.settle();
  // Each fighter fights the orc across from it, and that orc fights back.
  const foes = new Map<string, string>();
  for (let i = 0; i < half; i++) {
    foes.set(combatants[i].id, combatants[half + i].id);
    foes.set(combatants[half + i].id, combatants[i].id);
  }
  return { combat, foes };
}

async function declareAll(foundry: Foundry, combat: any, foes: Map<string, string>, requestDeclaration: any, who?: any[]): Promise<{ counts: Count[]; problem?: string }> {
  const counts: Count[] = [];
  for (const c of who ?? combat.combatants) {
    const weapon = c.actor?.items.find((i: any) => i.type === 'weapon');
    let answer: any;
    const count = await counted(foundry, async () => {
      answer = await requestDeclaration(combat, c.id, { action: 'melee', target: foes.get(c.id), ...(weapon ? { weapon: weapon.id } : {}) });
    });
    if (!answer?.ok) return { counts, problem: `declaration refused: ${answer?.message ?? answer?.key}` };
    counts.push(count);
  }
  return { counts };
}

function emptyRow(procedure: string, n: number): Row {
  return {
    procedure,
    n,
    declare: [],
    initiative: null,
    steps: [],
    end: null,
    newRound: null,
    nextRound: null,
    hurt: 0,
    hits: [],
    endHurt: null,
    newRoundHurt: null,
    late: { declare: [], initiative: null, steps: [], end: null, newRound: null },
  };
}

async function benchOne(generation: 13 | 14, procedure: string, n: number, modules: any): Promise<Row> {
  const { installFoundry, initSystem, requestDeclaration } = modules;
  const foundry = installFoundry({ generation, lang: resolve(ROOT, 'lang/en.json'), systemId: 'ten-segments', seed: 7 });
  await foundry.everyClient(initSystem);
  const row: Row = emptyRow(procedure, n);
  const { combat, foes } = await buildWorld(foundry, procedure, n);
  const stage = () => combat.flowState?.stage;
  const round = () => combat.flowState?.round;

  await counted(foundry, () => combat.startCombat());
  if (!combat.flowState) return { ...row, problem: `startCombat refused: ${foundry.notifications.at(-1)?.message ?? '?'}` };

  const declared = await declareAll(foundry, combat, foes, requestDeclaration);
  row.declare = declared.counts;
  if (declared.problem) return { ...row, problem: declared.problem };
  // A surprise segment (round 0), if the dice gave one, is played through first.
  if (round() === 0) {
    await combat.rollInitiative();
    for (let guard = 0; !(stage() === 'declare' && round() >= 1) && guard < 10_000; guard++) await combat.nextTurn();
  }
  const redeclare = async () => {
    if (Object.keys(combat.flowState.declarations).length >= combat.combatants.size) return undefined;
    return (await declareAll(foundry, combat, foes, requestDeclaration)).problem;
  };
  let problem = await redeclare();
  if (problem) return { ...row, problem };

  // Round 1: initiative, every step, the end of the round, into round 2's declarations.
  row.initiative = await counted(foundry, () => combat.rollInitiative());
  if (stage() !== 'resolve') return { ...row, problem: `rollInitiative left the combat in ${stage()}` };
  const walk = async (into: { steps: Count[]; end: Count | null; newRound: Count | null }): Promise<string | undefined> => {
    const startRound = round();
    for (let guard = 0; guard < 100_000; guard++) {
      const before = stage();
      const count = await counted(foundry, () => combat.nextTurn());
      const after = stage();
      if (before === 'resolve' && after === 'resolve') into.steps.push(count);
      else if (before === 'resolve' && after === 'end-of-round') into.end = count;
      else if (after === 'declare' && round() > startRound) {
        into.newRound = count;
        return undefined;
      } else return `nextTurn went from ${before} to ${after}`;
    }
    return 'the round did not end';
  };
  problem = await walk(row);
  if (problem) return { ...row, problem };

  // Round 2: declarations kept ("same as last round"), initiative, then nextRound straight to round 3.
  problem = await redeclare();
  if (problem) return { ...row, problem };
  await combat.rollInitiative();
  const roundTwo = round();
  row.nextRound = await counted(foundry, () => combat.nextRound());
  if (!(stage() === 'declare' && round() === roundTwo + 1)) return { ...row, problem: `nextRound left the combat in ${stage()} of round ${round()}` };

  // Round 3 with casualties: a tenth of the combatants hit one at a time (fighters to -3 hp, orcs to 0), then to round 4.
  problem = await redeclare();
  if (problem) return { ...row, problem };
  await combat.rollInitiative();
  const half = n / 2;
  const all = combat.combatants.contents;
  const hurt = [...all.slice(0, Math.max(1, n / 20)), ...all.slice(half, half + Math.max(1, n / 20))];
  row.hurt = hurt.length;
  for (const c of hurt) {
    const hp = c.actor.type === 'character' ? -3 : 0;
    row.hits.push(await counted(foundry, () => c.actor.update({ 'system.hp.value': hp })));
  }
  const casualties = { steps: [] as Count[], end: null as Count | null, newRound: null as Count | null };
  problem = await walk(casualties);
  if (problem) return { ...row, problem };
  row.endHurt = casualties.end;
  row.newRoundHurt = casualties.newRound;

  // Rounds 4 to 9 with the same declarations; round 10 measured like round 1.
  for (let guard = 0; round() < 10 && guard < 20; guard++) await combat.nextRound();
  await counted(foundry, async () => undefined);
  if (!(stage() === 'declare' && round() === 10)) return { ...row, problem: `could not reach round 10 (${stage()} of round ${round()})` };
  const standing = (c: any) => combat.flowState.states[c.id]?.condition === 'ok' && combat.flowState.states[foes.get(c.id) as string]?.condition === 'ok';
  const again = combat.combatants.contents.filter(standing);
  const sample = [...again.filter((c: any) => c.actor.type === 'character').slice(0, 10), ...again.filter((c: any) => c.actor.type !== 'character').slice(0, 10)];
  const redeclared = await declareAll(foundry, combat, foes, requestDeclaration, sample);
  row.late.declare = redeclared.counts;
  if (redeclared.problem) return { ...row, problem: `round 10: ${redeclared.problem}` };
  row.late.initiative = await counted(foundry, () => combat.rollInitiative());
  if (stage() !== 'resolve') return { ...row, problem: `round 10: rollInitiative left the combat in ${stage()}` };
  problem = await walk(row.late);
  if (problem) return { ...row, problem: `round 10: ${problem}` };

  // A client arriving now replays the whole log once.
  const entries = combat.entries;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    new modules.FlowLog().read(entries);
    times.push(performance.now() - t0);
  }
  row.replayMs = times.sort((a, b) => a - b)[2];
  row.logBytes = JSON.stringify(combat.system.log).length;

  // Last, so that no figure above counts what a move leaves behind (core clears a token's movement history when its
  // combatant's turn starts: one more token write in a later step): round 11 begun, a player's fighter dragged one square.
  if (procedure !== 'high-low') {
    // Round 10's declarations carry on; the fighter dragged is one still standing.
    await combat.rollInitiative();
    if (stage() !== 'resolve') return { ...row, problem: `round 11: rollInitiative left the combat in ${stage()}` };
    const token = sample.find((c: any) => c.actor.type === 'character').token;
    const moves = combat.flowState.moves?.length ?? 0;
    row.moved = await counted(foundry, () => foundry.asUser(foundry.users.player, () => token.move({ x: token.x + 100, y: token.y }, { method: 'dragging' })));
    if ((combat.flowState.moves?.length ?? 0) !== moves + 1) return { ...row, problem: 'the move was not recorded' };
  }

  const errors = foundry.errors.map((e: any) => `${e.location}: ${e.error.message}`);
  if (errors.length > 0) row.problem = `errors: ${errors.slice(0, 2).join('; ')}`;
  return row;
}

/* ------------------------------------------------------------- printing */

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
const cell = (c: Count | null) => (c ? `${c.writes}/${c.renders}` : '–');
function spread(cs: Count[]): string {
  if (cs.length === 0) return '–';
  const w = cs.map((c) => c.writes);
  const r = cs.map((c) => c.renders);
  return `${fmt(mean(w))}/${fmt(mean(r))} ≤${Math.max(...w)}/${Math.max(...r)}`;
}

/** Why a document was written, by what was measured and the write. */
const WHY: Record<string, string> = {
  'Combat update': 'the combat flow itself',
  'ChatMessage create': 'the end-of-round card, a chat message of its own, posted only when something happened',
  'Combatant update': 'combatants marked defeated, one batch',
  'Item update': 'spells expended copied onto items',
  Setting: 'the world clock (core.time)',
};
const WHY_HIT: Record<string, string> = {
  'Actor update': 'the damage itself',
  'Combat update': 'the GM records the hit in the flow',
};
const WHY_END: Record<string, string> = {
  'Actor update': 'end-of-round effects copied onto actors by sync.ts applySync, one update per actor rather than one batch',
};

interface Note {
  procedure: string;
  what: string;
  n: number;
  count: Count;
}

/** Every measured transition (and hit) whose writes or renders exceed one. */
function notes(row: Row): Note[] {
  const out: Note[] = [];
  const note = (what: string, c: Count | null) => {
    if (c && (c.writes > 1 || c.renders > 1)) out.push({ procedure: row.procedure, what, n: row.n, count: c });
  };
  const worst = (cs: Count[]) => cs.reduce<Count | null>((m, c) => (!m || c.writes + c.renders > m.writes + m.renders ? c : m), null);
  note('declare (most)', worst(row.declare));
  note('initiative', row.initiative);
  note('step (most)', worst(row.steps));
  note('end of round', row.end);
  note('new round', row.newRound);
  note('nextRound', row.nextRound);
  note('hit', worst(row.hits));
  note('end of a round with casualties', row.endHurt);
  note('new round after casualties', row.newRoundHurt);
  note('declare in round 10 (most)', worst(row.late.declare));
  note('initiative in round 10', row.late.initiative);
  note('step in round 10 (most)', worst(row.late.steps));
  note('end of round 10', row.late.end);
  note('new round 11', row.late.newRound);
  return out;
}

/** One line per procedure and measure, both sizes together; each document written, with why. */
function noteLines(all: Note[]): string[] {
  const groups = new Map<string, Note[]>();
  for (const n of all) {
    const key = `${n.procedure}|${n.what}`;
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  return [...groups.values()].map((ns) => {
    const { procedure, what, count } = ns[ns.length - 1];
    const sizes = ns.map((n) => `N=${n.n}: ${n.count.writes} writes, ${n.count.renders} renders`).join('; ');
    const kinds = count.detail.split(', ').map((d) => {
      const base = d.replace(/ ×\d+$/, '');
      const why = (what === 'hit' ? WHY_HIT[base] : what.startsWith('end') ? WHY_END[base] : undefined) ?? WHY[base] ?? '';
      return why ? `${d} (${why})` : d;
    });
    return `${procedure} ${what} — ${sizes} — ${kinds.join(', ')}`;
  });
}

function printTable(rows: Row[], log: (s: string) => void): void {
  const head = ['procedure', 'N', 'declare', 'initiative', 'step', 'steps', 'end', 'new round', 'nextRound'];
  const body = rows.map((r) => [r.procedure, String(r.n), spread(r.declare), cell(r.initiative), spread(r.steps), String(r.steps.length), cell(r.end), cell(r.newRound), cell(r.nextRound)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cols: string[]) => `    ${cols.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`;
  log(line(head));
  for (const b of body) log(line(b));
}

function printCasualties(rows: Row[], log: (s: string) => void): void {
  const head = ['procedure', 'N', 'hurt', 'hit', 'end', 'new round'];
  const body = rows.map((r) => [r.procedure, String(r.n), String(r.hurt), spread(r.hits), cell(r.endHurt), cell(r.newRoundHurt)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cols: string[]) => `    ${cols.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`;
  log(line(head));
  for (const b of body) log(line(b));
}

/* ------------------------------------------------------------- bytes */

const TRANSITIONS = ['declare', 'initiative', 'step', 'endOfRound', 'newRound'] as const;
type Transition = (typeof TRANSITIONS)[number];
/** Bytes targets at N = 200 (chat cards aside: none of these posts one). */
const BYTES_TARGET: Partial<Record<Transition, number>> = { declare: 1024, step: 1024, newRound: 1024, initiative: 25 * 1024 };

/** The counts of one transition in round 1 or round 10. */
function countsOf(row: Row, round: 1 | 10, t: Transition): Count[] {
  const r = round === 1 ? { declare: row.declare, initiative: row.initiative, steps: row.steps, end: row.end, newRound: row.newRound } : row.late;
  const one = (c: Count | null) => (c ? [c] : []);
  switch (t) {
    case 'declare':
      return r.declare;
    case 'initiative':
      return one(r.initiative);
    case 'step':
      return r.steps;
    case 'endOfRound':
      return one(r.end);
    case 'newRound':
      return one(r.newRound);
  }
}

const most = (cs: Count[], key: 'bytes' | 'chat' = 'bytes') => (cs.length ? Math.max(...cs.map((c) => c[key])) : NaN);
const bytesCell = (cs: Count[]) => {
  if (cs.length === 0) return '–';
  const chat = most(cs, 'chat');
  const text = cs.length === 1 ? String(cs[0].bytes) : `${Math.round(mean(cs.map((c) => c.bytes)))} ≤${most(cs)}`;
  return chat > 0 ? `${text} (chat ${chat})` : text;
};

function printBytes(rows: Row[], log: (s: string) => void): void {
  const head = ['procedure', 'N', 'round', ...TRANSITIONS];
  const body = rows.flatMap((r) => ([1, 10] as const).map((round) => [r.procedure, String(r.n), String(round), ...TRANSITIONS.map((t) => bytesCell(countsOf(r, round, t)))]));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cols: string[]) => `    ${cols.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`;
  log(line(head));
  for (const b of body) log(line(b));
}

/** payload.<transition>.n<N>.round<R>: the most any procedure (either generation) broadcast; per procedure too. */
function recordBytes(rows: Row[], log: (s: string) => void): void {
  const verdicts: string[] = [];
  for (const n of SIZES) {
    for (const round of [1, 10] as const) {
      for (const t of TRANSITIONS) {
        let worst = NaN;
        let chat = 0;
        for (const procedure of new Set(rows.map((r) => r.procedure))) {
          const cs = rows.filter((r) => r.procedure === procedure && r.n === n).flatMap((r) => countsOf(r, round, t));
          if (cs.length === 0) continue;
          figure(`payload.${t}.n${n}.round${round}.${procedure}`, most(cs), 'bytes');
          worst = Number.isNaN(worst) ? most(cs) : Math.max(worst, most(cs));
          chat = Math.max(chat, most(cs, 'chat'));
        }
        if (Number.isNaN(worst)) continue;
        const all = rows.filter((r) => r.n === n).flatMap((r) => countsOf(r, round, t));
        figure(`writes.${t}.n${n}.round${round}`, Math.max(...all.map((c) => c.writes)), 'writes', { max: 1 });
        figure(`renders.${t}.n${n}.round${round}`, Math.max(...all.map((c) => c.renders)), 'renders', { max: 1 });
        const target = n === 200 && BYTES_TARGET[t] !== undefined ? { max: BYTES_TARGET[t] as number } : null;
        const f = figure(`payload.${t}.n${n}.round${round}`, worst, 'bytes', target);
        figure(`payload.${t}.n${n}.round${round}.chat`, chat, 'bytes');
        if (target) verdicts.push(`${t} round ${round}: ${worst} ${mark(f)}`);
      }
    }
  }
  log(`    at N = 200, the most any procedure broadcast against its target: ${verdicts.join('; ')}`);
}

/** Run the Foundry-layer benchmark and print its table. */
export async function benchFoundry(log: (s: string) => void = say): Promise<void> {
  // The stand-in puts Foundry's globals in place before the system's classes (which extend them) load.
  const standin = await import('../tests/standin/index');
  await import('../tests/standin/global');
  const { initSystem } = await import('../src/system');
  const queries = await import('../src/documents/queries');
  const { requestDeclaration } = queries;
  whenIdle = () => queries.whenIdle();
  const { movementIdle } = await import('../src/documents/token-moved');
  movesIdle = async (foundry) => {
    if (foundry.users?.gm) await foundry.client(foundry.users.gm).run(() => movementIdle());
  };
  const { PROCEDURE_IDS } = await import('../src/rules/model');
  const { FlowLog } = await import('../src/rules/flow');
  const modules = { installFoundry: standin.installFoundry, initSystem, requestDeclaration, FlowLog };

  log('(d) Foundry layer: database writes / combat-tracker renders per transition, against tests/standin');
  log('    target: 1 batched write and 1 render per transition, whatever N');
  const peers = (n: number) => `OSE ${3 + 2 * n}, ACKS up to ${2 * n}, Fantastic Depths ≈ ${2 * n} + 1 per weapon`;
  log(`    peers at a new round (writes): N=20: ${peers(20)}; N=200: ${peers(200)}`);
  log('    cells: writes/renders; declare and step: mean/mean ≤ most/most; steps: resolution steps in round 1');

  const byGeneration = new Map<number, Row[]>();
  for (const generation of GENERATIONS) {
    const rows: Row[] = [];
    for (const procedure of PROCEDURE_IDS) {
      for (const n of SIZES) {
        try {
          rows.push(await benchOne(generation, procedure, n, modules));
        } catch (err) {
          rows.push({ ...emptyRow(procedure, n), problem: `threw: ${(err as Error).message}` });
        }
      }
    }
    byGeneration.set(generation, rows);
  }
  const [v13, v14] = GENERATIONS.map((gen) => byGeneration.get(gen)!);
  const same = JSON.stringify(v13.map(summaryOf)) === JSON.stringify(v14.map(summaryOf));
  log(`    generation 14${same ? ' (generation 13: the same figures)' : ''}`);
  printTable(v14, log);
  if (!same) {
    log('    generation 13');
    printTable(v13, log);
  }
  log('    round 3 with casualties: a tenth of the combatants hit one at a time (fighters to -3 hp, orcs to 0); hit = the actor update and what the GM does about it');
  printCasualties(v14, log);
  if (!same) {
    log('    generation 13');
    printCasualties(v13, log);
  }
  log('    bytes broadcast to the other clients per transition (mean ≤ most where there are several; chat cards counted, and shown apart)');
  log(`    targets at N = 200: declare, step and new round ≤ 1,024 bytes, initiative ≤ ${(25 * 1024).toLocaleString('en')}, the same in round 10 as in round 1`);
  printBytes(v14, log);
  if (!same) {
    log('    generation 13');
    printBytes(v13, log);
  }
  recordBytes([...v13, ...v14], log);
  for (const n of SIZES) {
    const moved = [...v13, ...v14].filter((r) => r.n === n && r.moved).map((r) => r.moved as Count);
    if (moved.length === 0) continue;
    figure(`payload.moved.n${n}.round11`, Math.max(...moved.map((c) => c.bytes)), 'bytes');
    figure(`payload.moved.n${n}.round11.combat`, Math.max(...moved.map((c) => c.combat)), 'bytes');
    figure(`writes.moved.n${n}.round11`, Math.max(...moved.map((c) => c.writes)), 'writes');
    log(
      `    a token moved one square in round 11 (N=${n}; not high-low, where it asks the GM): ${Math.max(...moved.map((c) => c.writes))} writes (the token's, the combat's), at most ${Math.max(...moved.map((c) => c.bytes)).toLocaleString('en')} bytes, of which the combat's entry ${Math.max(...moved.map((c) => c.combat)).toLocaleString('en')}`,
    );
  }
  log('    a client that opens the world after round 10 replays the whole log once (then each new entry replays only itself):');
  for (const r of v14) {
    if (r.replayMs === undefined) continue;
    figure(`replay.${r.procedure}.n${r.n}.round10.ms`, r.replayMs, 'ms');
    figure(`log.${r.procedure}.n${r.n}.round10.bytes`, r.logBytes ?? NaN, 'bytes');
    log(`      ${r.procedure.padEnd(17)} N=${String(r.n).padEnd(4)} ${r.replayMs.toFixed(1).padStart(7)} ms, log ${(r.logBytes ?? 0).toLocaleString('en')} bytes`);
  }
  const rows = same ? v14 : [...v14, ...v13];
  const lines = [...noteLines(rows.flatMap(notes)), ...rows.filter((r) => r.problem).map((r) => `${r.procedure} N=${r.n}: not measured to the end: ${r.problem}`)];
  for (const l of lines) log(`    note: ${l}`);
  if (lines.length === 0) log('    note: every transition measured is one write and one render');
  log('');
}

function summaryOf(r: Row): unknown {
  const pick = (c: Count | null) => (c ? [c.writes, c.renders, c.bytes, c.detail] : null);
  const late = r.late;
  return [
    r.procedure,
    r.n,
    r.declare.map(pick),
    pick(r.initiative),
    r.steps.map(pick),
    pick(r.end),
    pick(r.newRound),
    pick(r.nextRound),
    r.hits.map(pick),
    pick(r.endHurt),
    pick(r.newRoundHurt),
    late.declare.map(pick),
    pick(late.initiative),
    late.steps.map(pick),
    pick(late.end),
    pick(late.newRound),
    r.problem ?? null,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await benchFoundry();
}
