/**
 * Hostile scenario files: each is refused as a problem with the file (exit 2,
 * the file, the line where known, the field; no stack trace), before any
 * work it would cause; damage that never lands is a note, not a silence; no
 * message quotes more than a short excerpt of what the file holds.
 *
 * Most files are run in process (simulate); the named pipe is run through the
 * built runner (build/sim.mjs), as a GM runs it, so that a runner that waited
 * on it would be killed and the test fail instead of hanging the suite.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCEDURES } from '../../src/rules/procedures/all';
import type { Procedure, ProcedureOptions } from '../../src/rules/procedure';
import { MAX_ALIAS_VALUES, MAX_FILE_BYTES, simulate } from '../../src/sim/cli';
import { excerpt, MAX_COMBATANTS, MAX_ROUNDS, show, type ProcedureTable } from '../../src/sim/scenario';

const ROOT = resolve(__dirname, '..', '..');
const SIM = join(ROOT, 'build', 'sim.mjs');
const TIMEOUT = 60_000;

const tmp = mkdtempSync(join(tmpdir(), 'tenseg-hostile-'));
function file(name: string, text: string | Buffer): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

interface Problem {
  key: string;
  path: string | null;
  line: number | null;
  column: number | null;
  data: Record<string, string | number>;
  text: string;
}

/** The runner in process: exit code, text output, and the JSON of the same run. */
function run(args: string[], table: ProcedureTable = PROCEDURES) {
  const r = simulate(args, table, { cwd: ROOT, root: ROOT, defaultSeed: () => 1 });
  const j = simulate([...args, '--json'], table, { cwd: ROOT, root: ROOT, defaultSeed: () => 1 });
  const json = JSON.parse(j.stdout) as { ok: boolean; problems: Problem[]; notes?: { key: string; path?: string; text: string; data: Record<string, unknown> }[] };
  expect(j.code).toBe(r.code);
  return { ...r, json };
}

/** The built runner in a subprocess, killed if it has not answered in time (a hang fails the test; the time is not checked). */
function sim(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [SIM, ...args], { cwd: ROOT, env: { ...process.env, INIT_CWD: ROOT }, timeout: 30_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** A file problem as the text output shows it: no stack trace, no raw control character, the summary last. */
function expectFileProblem(r: { code: number; stdout: string; stderr: string }, p: string) {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  expect(r.stderr).toContain(`${p}: `);
  expect(r.stderr).toMatch(/nothing was run\.\n$/);
}

const SIDES = 'sides: [{ id: a, name: A }, { id: b, name: B }]';
const PAIR = ['combatants:', '  - { id: x, side: a, hp: 20 }', '  - { id: y, side: b, hp: 20 }'];

/** A procedure table whose segment-d6 counts its surprise rolls and round plans: refused files cause neither. */
function counting(): { table: ProcedureTable; calls: () => number } {
  let calls = 0;
  const real = PROCEDURES['segment-d6'];
  const p = Object.create(real) as Procedure<ProcedureOptions>;
  p.rollSurprise = (...a) => (calls++, real.rollSurprise(...a));
  p.planRound = (...a) => (calls++, real.planRound(...a));
  return { table: { ...PROCEDURES, 'segment-d6': p }, calls: () => calls };
}

describe('1. YAML aliases', () => {
  it('an alias bomb (billion laughs) is a file problem at the alias that breaks the limit, not an engine failure', () => {
    const levels = 'abcdefghi';
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < levels.length; i++) lines.push(`${levels[i]}: &${levels[i]} [${Array(9).fill(`*${levels[i - 1]}`).join(',')}]`);
    const p = file('bomb.yaml', lines.join('\n') + '\n');
    const { table, calls } = counting();
    const r = run([p], table);
    expectFileProblem(r, p);
    // a: 10 values, b: 91, c: 820, d: 7381, e: 66430; 9 aliases of d and one of e add 66430 + 66430 > 100000.
    expect(r.json.problems).toEqual([expect.objectContaining({ key: 'YamlAliasBomb', path: 'f[0]', line: 6, column: 8, data: { alias: 'e', max: MAX_ALIAS_VALUES } })]);
    expect(r.stderr).toContain(`${p}:6:8: f[0]: `);
    expect(calls()).toBe(0);
  });

  it('an alias to no anchor, and an alias inside its own anchor, are file problems with their line', () => {
    const unknown = file('unknown-alias.yaml', `procedure: segment-d6\n${SIDES}\n${PAIR.join('\n')}\ntitle: *nowhere\n`);
    const loop = file('loop-alias.yaml', `procedure: segment-d6\n${SIDES}\ncombatants: &c\n  - { id: x, side: a, hp: 20, spells: *c }\n`);
    const u = run([unknown]);
    expectFileProblem(u, unknown);
    expect(u.json.problems).toEqual([expect.objectContaining({ key: 'YamlAliasUnknown', path: 'title', line: 6, data: { alias: 'nowhere' } })]);
    const l = run([loop]);
    expectFileProblem(l, loop);
    expect(l.json.problems).toEqual([expect.objectContaining({ key: 'YamlAliasLoop', path: 'combatants[0].spells', line: 4 })]);
  });

  it('anchors and aliases used as a GM would (a shared weapon) still play', () => {
    const p = file('anchors.yaml', ['procedure: segment-d6', SIDES, 'combatants:', '  - { id: x, side: a, hp: 20, weapon: &sword { name: sword, speed: 5 } }', '  - { id: y, side: b, hp: 20, weapon: *sword }'].join('\n'));
    expect(run([p]).code).toBe(0);
  });
});

describe('2. only a regular file of at most 1 MiB is read', () => {
  it('a directory is refused, naming what it is', () => {
    const dir = join(tmp, 'a-directory.yaml');
    mkdirSync(dir);
    const r = run([dir]);
    expectFileProblem(r, dir);
    expect(r.json.problems).toEqual([expect.objectContaining({ key: 'FileNotRegular', line: null, path: null })]);
    expect(r.stderr).toContain('This is a directory, not a regular file');
  });

  it.skipIf(!existsSync('/dev/null'))('a device (/dev/null) is refused', () => {
    const r = run(['/dev/null']);
    expectFileProblem(r, '/dev/null');
    expect(r.stderr).toContain('character device');
  });

  it(
    'a named pipe (FIFO) is refused at once instead of waiting for a writer',
    async (ctx) => {
      const fifo = join(tmp, 'pipe.yaml');
      try {
        execFileSync('mkfifo', [fifo]);
      } catch (e) {
        ctx.skip(`mkfifo is not available here (${(e as Error).message}): no named pipe to test with`);
        return;
      }
      const r = await sim([fifo]);
      expect(r.code).toBe(2); // null: the runner hung on the pipe and was killed
      expect(r.stderr).toContain(`${fifo}: This is a named pipe (FIFO), not a regular file`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    TIMEOUT,
  );

  it('a file over 1 MiB is refused before it is read, saying the cap; one of the cap is read', () => {
    const head = `procedure: segment-d6\n${SIDES}\n${PAIR.join('\n')}\n`;
    const over = file('over.yaml', head + '#'.repeat(MAX_FILE_BYTES - head.length) + '\n');
    const r = run([over]);
    expectFileProblem(r, over);
    expect(r.json.problems).toEqual([expect.objectContaining({ key: 'FileTooLarge', data: { size: MAX_FILE_BYTES + 1, max: MAX_FILE_BYTES, mib: 1 } })]);
    expect(r.stderr).toContain('at most 1 MiB (1048576 bytes)');
    const at = file('at-cap.yaml', head + '#'.repeat(MAX_FILE_BYTES - head.length - 1) + '\n');
    expect(readFileSync(at).length).toBe(MAX_FILE_BYTES);
    expect(run([at]).code).toBe(0);
  });
});

describe('3. caps on combatants and rounds', () => {
  const many = (n: number, rounds: number) =>
    ['procedure: segment-d6', `rounds: ${rounds}`, SIDES, 'combatants:', ...Array.from({ length: n }, (_, i) => `  - { id: c${i}, side: ${i % 2 ? 'b' : 'a'}, hp: 5 }`)].join('\n') + '\n';

  it(`more than ${MAX_COMBATANTS} combatants, more than ${MAX_ROUNDS} rounds: refused before anything is played, naming cap and field`, () => {
    const p = file('caps.yaml', many(MAX_COMBATANTS + 1, MAX_ROUNDS + 1));
    const { table, calls } = counting();
    const r = run([p], table);
    expectFileProblem(r, p);
    expect(r.json.problems.map((x) => [x.key, x.path, x.line])).toEqual([
      ['TooManyCombatants', 'combatants', 4],
      ['NumberTooLarge', 'rounds', 2],
    ]);
    expect(r.stderr).toContain(`${p}:4:1: combatants: The scenario has 201 combatants (201 listed, 0 joining); it may have at most 200.`);
    expect(r.stderr).toContain(`${p}:2:1: rounds: "rounds" is 101; it must be at most 100.`);
    expect(calls()).toBe(0);
  });

  it('joiners count towards the cap; a round key past the cap names it; --rounds is capped too', () => {
    const joins = ['joins:', ...Array.from({ length: 2 }, (_, i) => `  - { round: 1, combatant: { id: j${i}, side: a, hp: 3 } }`)];
    const p = file('joiners.yaml', many(MAX_COMBATANTS - 1, 1) + joins.join('\n') + '\n');
    const r = run([p]);
    expect(r.json.problems).toEqual([expect.objectContaining({ key: 'TooManyCombatants', path: 'joins', data: { count: 201, combatants: 199, joiners: 2, max: 200 } })]);
    const key = file('round-key.yaml', `procedure: segment-d6\n${SIDES}\n${PAIR.join('\n')}\ndeclarations:\n  101: []\n`);
    expect(run([key]).json.problems).toEqual([expect.objectContaining({ key: 'RoundKeyTooLarge', path: 'declarations.101', line: 7, data: { key: '101', max: 100 } })]);
    expect(run([key, '--rounds', '101']).json.problems).toEqual([expect.objectContaining({ key: 'FlagBadNumber', path: '--rounds' })]);
  });

  it('exactly the caps still play', () => {
    const p = file('at-caps.yaml', many(MAX_COMBATANTS, 1));
    expect(run([p]).code).toBe(0);
    const q = file('at-rounds.yaml', many(2, MAX_ROUNDS));
    expect(run([q]).code).toBe(0);
  });

  it(
    'the tester\'s file (10,000 combatants, 1,000 rounds) through the built runner: both caps, exit 2',
    async () => {
      const p = file('huge.yaml', many(10_000, 1000));
      const r = await sim([p]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('combatants: The scenario has 10000 combatants');
      expect(r.stderr).toContain('rounds: "rounds" is 1000; it must be at most 100.');
    },
    TIMEOUT,
  );
});

describe('4. a late joiner past the end of its round', () => {
  // individual-speed.yaml: round 1 has 7 steps (casting, counts 2, 6, 7, 9, 10, 13); the ghoul joins at step 7, after the last.
  const bundled = readFileSync(join(ROOT, 'src', 'sim', 'scenarios', 'individual-speed.yaml'), 'utf8');
  const withStep = (step: number) => file(`join-${step}.yaml`, bundled.replace(/step: 7 /, `step: ${step} `));

  it('step 999999 is a file problem at joins[0].step, found when the round is planned', () => {
    const p = withStep(999999);
    const r = run([p, '--seed', '3']);
    expectFileProblem(r, p);
    expect(r.json.problems).toEqual([
      expect.objectContaining({ key: 'JoinStepBeyondRound', path: 'joins[0].step', line: 45, data: { step: 999999, round: 1, steps: 7, name: 'Ghoul' } }),
    ]);
    expect(r.stderr).toContain(`${p}:45:5: joins[0].step: Step 999999 is past the end of round 1`);
  });

  it('one past the end (step 8) is refused; the end itself (step 7, after the last step) plays', () => {
    expect(run([withStep(8), '--seed', '3']).json.problems).toEqual([expect.objectContaining({ key: 'JoinStepBeyondRound', data: expect.objectContaining({ step: 8, steps: 7 }) })]);
    expect(run([withStep(7), '--seed', '3']).code).toBe(0);
  });
});

describe('5. control characters', () => {
  it('in the procedure, ids and names: refused naming the field, the character escaped, never raw', () => {
    const p = file(
      'control.yaml',
      [
        'procedure: "segment-d6\\0"',
        'sides: [{ id: "a\\x01", name: A }, { id: b, name: "B\\x7f" }]',
        'combatants:',
        '  - { id: "x\\u0085", side: b, hp: 20 }',
        '  - { id: y, name: "Why\\e[31m", side: b, hp: 20 }',
      ].join('\n'),
    );
    const r = run([p]);
    expectFileProblem(r, p);
    const control = r.json.problems.filter((x) => x.key === 'ControlCharacter');
    expect(control.map((x) => [x.path, x.line, x.data.char])).toEqual([
      ['procedure', 1, '\\u0000'],
      ['sides[0].id', 2, '\\u0001'],
      ['sides[1].name', 2, '\\u007f'],
      ['combatants[0].id', 4, '\\u0085'],
      ['combatants[1].name', 5, '\\u001b'],
    ]);
    expect(r.stderr).toContain(`${p}:1:1: procedure: "procedure" contains the control character \\u0000 (character 11 of "segment-d6\\u0000")`);
    expect(r.stderr).not.toContain('Did you mean');
    // The JSON holds the escapes as text, never the characters themselves.
    const texts = (v: unknown): string[] => (typeof v === 'string' ? [v] : typeof v === 'object' && v !== null ? Object.values(v).flatMap(texts) : []);
    expect(texts(r.json).filter((t) => /[\u0000-\u001f\u007f-\u009f]/.test(t))).toEqual([]);
  });

  it('free text (a description, a note) may hold line breaks and tabs, not other controls', () => {
    const ok = file('description.yaml', `procedure: segment-d6\ndescription: "Two lines,\\n\\tthe second indented"\n${SIDES}\n${PAIR.join('\n')}\n`);
    expect(run([ok]).code).toBe(0);
    const bad = file('description-nul.yaml', `procedure: segment-d6\ndescription: "a\\0b"\n${SIDES}\n${PAIR.join('\n')}\n`);
    expect(run([bad]).json.problems).toEqual([expect.objectContaining({ key: 'ControlCharacter', path: 'description', line: 2 })]);
  });
});

describe('6. damage whose moment never comes is a note', () => {
  const scenario = [
    'procedure: segment-d6',
    'sides: [{ id: a, alerted: true }, { id: b, alerted: true }]',
    'combatants: [{ id: x, side: a, hp: 30 }, { id: y, side: b, hp: 30 }]',
    'declarations:',
    '  1: { x: { action: melee, target: y }, y: { action: melee, target: x } }',
    'joins:',
    '  - { round: 2, combatant: { id: z, side: b, hp: 5 }, declaration: { action: melee, target: x } }',
    'damage:',
    '  - { round: 1, segment: 50, target: y, amount: 1 }',
    '  - { round: 0, segment: 1, target: y, amount: 2 }',
    '  - { round: 1, segment: 1, target: z, amount: 3 }',
    '  - { round: 2, by: x, target: y, amount: 4 }',
  ].join('\n');

  it('no such moment, no surprise, a target not yet in the fight, a round not played: each a note in the text and the JSON, exit 0', () => {
    const p = file('damage.yaml', scenario);
    const r = run([p, '--seed', '1']);
    expect(r.code).toBe(0);
    expect(r.json.notes?.map((n) => [n.key, n.path])).toEqual([
      ['TENSEG.Sim.Note.DamageNoMoment', 'damage[0]'],
      ['TENSEG.Sim.Note.DamageSurpriseNotPlayed', 'damage[1]'],
      ['TENSEG.Sim.Note.DamageTargetAbsent', 'damage[2]'],
    ]);
    expect(r.stdout).toContain('Note: damage[2] (3 to z in round 1) was not applied: z was not in the fight at that moment.');
    expect(r.stdout).toContain('Note: damage[1] (2 to y) is for the surprise (round 0), which this combat did not have: it was not applied.');
    // damage[3] landed: no note.
    const short = run([p, '--seed', '1', '--rounds', '1']);
    expect(short.code).toBe(0);
    expect(short.json.notes?.find((n) => n.path === 'damage[3]')).toMatchObject({ key: 'TENSEG.Sim.Note.DamageRoundNotPlayed', data: { round: 2, played: 1 } });
    expect(short.stdout).toContain('Note: damage[3] (4 to y) is for round 2, which was not played (1 round was): it was not applied.');
  });
});

describe('7. no refusal echoes a huge input back', () => {
  it('long values, keys and ids are quoted as excerpts of at most 60 characters, in the text and the JSON', () => {
    const long = (c: string, n: number) => c.repeat(n);
    const p = file(
      'long.json',
      JSON.stringify({
        procedure: long('p', 100_000),
        sides: [{ id: 'a' }, { id: 'b' }],
        [long('k', 50_000)]: 1,
        combatants: [{ id: long('i', 9_000), side: long('s', 9_000), hp: long('h', 9_000) }],
        declarations: { [long('r', 3_000)]: [] },
      }),
    );
    const r = run([p]);
    expectFileProblem(r, p);
    expect(r.json.problems.map((x) => x.key)).toEqual(['UnknownField', 'UnknownProcedure', 'ExpectedNumber', 'UnknownSide', 'BadRoundKey']);
    for (const line of r.stderr.split('\n')) expect(line.length).toBeLessThan(600);
    expect(r.stderr).not.toMatch(/([pkishr])\1{60}/);
    expect(JSON.stringify(r.json)).not.toMatch(/([pkishr])\1{60}/);
    expect(r.stderr).toContain(`"${long('p', 60)}…"`);
  });

  it('excerpt and show: cut with an ellipsis, controls escaped, a value shared many times over read only as far as quoted', () => {
    expect(excerpt('a'.repeat(61))).toBe('a'.repeat(60) + '…');
    expect(excerpt('a'.repeat(60))).toBe('a'.repeat(60));
    expect(excerpt('nul\u0000 esc\u001b del\u007f c1\u009f')).toBe('nul\\u0000 esc\\u001b del\\u007f c1\\u009f');
    let bomb: unknown = ['lol'];
    for (let i = 0; i < 40; i++) bomb = [bomb, bomb, bomb, bomb, bomb, bomb, bomb, bomb, bomb, bomb];
    expect(show(bomb).length).toBeLessThanOrEqual(61);
    expect(show(bomb)).toMatch(/^\[\[\[.*…$/);
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(show(loop)).toBe('{"a":1,"self":…}');
    expect(show({ hp: 4.5 })).toBe('{"hp":4.5}');
  });
});
