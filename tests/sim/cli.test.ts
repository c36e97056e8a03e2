/**
 * `npm run sim` as a GM runs it: a subprocess (the built runner,
 * build/sim.mjs), its exit codes, its JSON, its seed and --procedure, and
 * what a broken file prints.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCEDURE_IDS } from '../../src/rules/model';
import { parseFlags, parseScenarioText, pathSegments } from '../../src/sim/cli';
import { loadStrings as loadStringsAt, Strings } from '../../src/sim/strings';

const ROOT = resolve(__dirname, '..', '..');
const SIM = join(ROOT, 'build', 'sim.mjs');
const loadStrings = (root = ROOT) => loadStringsAt(root);
const TIMEOUT = 60_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function sim(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [SIM, ...args], { cwd: ROOT, env: { ...process.env, INIT_CWD: ROOT }, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'tenseg-sim-'));
function file(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

describe('npm run sim (subprocess)', () => {
  it(
    'with no file it plays the bundled example: a timeline with rounds, exit 0',
    async () => {
      const r = await sim(['--seed', '5']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      // The example is seed 000's: the party acts in segment 4, Halvaine's spell is interrupted, an orc dies.
      expect(r.stdout).toMatch(/Round 1/);
      expect(r.stdout).toMatch(/Round 2/);
      expect(r.stdout).toMatch(/Sleep is interrupted/);
      expect(r.stdout).toMatch(/Orc \d is dead/);
      expect(r.stdout).not.toMatch(/TENSEG\.Sim\./); // every Sim key has its string
    },
    TIMEOUT,
  );

  it(
    '--json prints one JSON document of the same timeline; --seed N repeats it exactly',
    async () => {
      const [a, b, text] = await Promise.all([
        sim(['--json', '--seed', '77', '--procedure', 'high-low']),
        sim(['--seed', '77', '--json', '--procedure', 'high-low']),
        sim(['--seed', '77', '--procedure', 'high-low']),
      ]);
      expect(a.code).toBe(0);
      const json = JSON.parse(a.stdout);
      expect(json).toMatchObject({ ok: true, version: 1, procedure: 'high-low', originalProcedure: 'segment-d6', seed: 77 });
      expect(json.timeline.length).toBe(2);
      expect(b.stdout).toBe(a.stdout);
      // "the same as JSON": the text output is exactly the JSON's lines.
      expect(text.stdout).toBe(json.lines.join('\n') + '\n');
    },
    TIMEOUT,
  );

  it(
    'without --seed it picks a seed and prints it, so the run can be repeated',
    async () => {
      const first = await sim(['--json']);
      const seed = JSON.parse(first.stdout).seed as number;
      const again = await sim(['--json', '--seed', String(seed)]);
      expect(JSON.parse(again.stdout).dice).toEqual(JSON.parse(first.stdout).dice);
    },
    TIMEOUT,
  );

  it(
    '--procedure runs the example under each of the five procedures',
    async () => {
      const runs = await Promise.all(PROCEDURE_IDS.map((id) => sim(['--json', '--seed', '3', '--procedure', id])));
      runs.forEach((r, i) => {
        expect(r.code, `${PROCEDURE_IDS[i]}: ${r.stderr}`).toBe(0);
        const json = JSON.parse(r.stdout);
        expect(json.procedure).toBe(PROCEDURE_IDS[i]);
        expect(json.timeline.filter((x: { kind: string }) => x.kind === 'round').length).toBe(2);
        // Scripted dice belong to segment-d6: dropped (with a note) everywhere else.
        const dropped = json.notes.some((n: { key: string }) => n.key === 'TENSEG.Sim.Note.DiceDropped');
        expect(dropped).toBe(PROCEDURE_IDS[i] !== 'segment-d6');
      });
    },
    TIMEOUT,
  );

  it(
    'a broken scenario: every problem with file, line and field, exit 2, no stack trace, nothing played',
    async () => {
      const p = file(
        'broken.yaml',
        [
          'procedure: segment-d6',
          'sides:',
          '  - { id: a, name: A }',
          '  - { id: b, name: B }',
          'combatants:',
          '  - { id: x, side: a, hp: 5 }',
          '  - { id: y, side: b, hp: ten }',
          'declarations:',
          '  1:',
          '    - { combatant: x, action: melee, castingTme: 2 }',
        ].join('\n'),
      );
      const r = await sim([p]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${p}:7:`);
      expect(r.stderr).toContain('combatants[1].hp');
      expect(r.stderr).toContain(`${p}:10:`);
      expect(r.stderr).toContain('declarations.1[0].castingTme');
      expect(r.stderr).toContain('castingTime'); // did you mean
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack
      expect(r.stderr).not.toMatch(/Round 1/);
      const j = await sim([p, '--json']);
      expect(j.code).toBe(2);
      const json = JSON.parse(j.stdout);
      expect(json.ok).toBe(false);
      expect(json.problems.map((x: { path: string; line: number }) => [x.path, x.line])).toEqual([
        ['combatants[1].hp', 7],
        ['declarations.1[0].castingTme', 10],
      ]);
    },
    TIMEOUT,
  );

  it(
    'a YAML syntax error names its line; a missing file and a JSON file are handled',
    async () => {
      const bad = file('syntax.yaml', 'procedure: addict\nsides: [a\ncombatants: []\n');
      const json = file('good.json', JSON.stringify({ procedure: 'addict', sides: [{ id: 'a' }, { id: 'b' }], combatants: [{ id: 'x', side: 'a', hp: 3 }, { id: 'y', side: 'b', hp: 3 }] }));
      const [s, m, j] = await Promise.all([sim([bad]), sim([join(tmp, 'nope.yaml')]), sim([json, '--seed', '1'])]);
      expect(s.code).toBe(2);
      expect(s.stderr).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
      expect(m.code).toBe(2);
      expect(m.stderr).toContain('ENOENT');
      expect(j.code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'unknown flags and bad flag values: exit 2 with the usage; --help exits 0',
    async () => {
      const [u, n, p, h] = await Promise.all([sim(['--frobnicate']), sim(['--rounds', 'many']), sim(['--procedure', 'chess']), sim(['--help'])]);
      expect(u.code).toBe(2);
      expect(u.stderr).toContain('--frobnicate');
      expect(u.stderr).toContain('Usage');
      expect(n.code).toBe(2);
      expect(n.stderr).toContain('--rounds');
      expect(p.code).toBe(2);
      expect(p.stderr).toContain('chess');
      expect(h.code).toBe(0);
      expect(h.stdout).toContain('--procedure');
    },
    TIMEOUT,
  );

  it(
    '--rounds N plays N rounds, repeating the last declarations',
    async () => {
      const r = await sim(['--json', '--seed', '2', '--rounds', '4']);
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(json.timeline.filter((x: { kind: string }) => x.kind === 'round').map((x: { round: number }) => x.round)).toEqual([1, 2, 3, 4]);
    },
    TIMEOUT,
  );
});

describe('sim pieces', () => {
  it('flags: values inline or separate, repeated files refused', () => {
    expect(parseFlags(['a.yaml', '--seed=4', '--rounds', '2']).flags).toMatchObject({ file: 'a.yaml', seed: 4, rounds: 2 });
    expect(parseFlags(['a.yaml', 'b.yaml']).problems[0].key).toBe('TooManyFiles');
    expect(parseFlags(['--seed']).problems[0].key).toBe('FlagNeedsValue');
    expect(parseFlags(['--seed', '--json']).problems[0].key).toBe('FlagNeedsValue');
  });

  it('paths map to YAML lines, also through map-form declarations keyed by round numbers', () => {
    const text = 'procedure: x\ndeclarations:\n  1:\n    bob: { action: melee }\n    ann:\n      action: spell\n';
    const located = parseScenarioText(text);
    expect(pathSegments('declarations.1[0].castingTime')).toEqual(['declarations', '1', 0, 'castingTime']);
    expect(located.locate('declarations.1.ann.action')?.line).toBe(6);
    expect(located.locate('declarations.1.bob.action')?.line).toBe(4);
    // A missing field is placed at its parent.
    expect(located.locate('declarations.1.ann.castingTime')?.line).toBe(5);
  });

  it('strings come from lang/en.json and placeholders are filled', () => {
    const t = new Strings(loadStrings(ROOT));
    expect(t.format('TENSEG.Sim.Round', { round: 3 })).toBe('Round 3');
    expect(t.format('TENSEG.Error.UnknownProcedure', { id: 'x' })).toContain('"x"'); // from lang/en.json
    expect(t.format('TENSEG.Nope', { a: 1 })).toBe('TENSEG.Nope {"a":1}');
  });
});
