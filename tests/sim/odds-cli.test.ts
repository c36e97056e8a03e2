/**
 * `npm run odds` as a GM runs it (issue 14): a subprocess (the built runner,
 * build/odds.mjs with its worker build/odds-worker.mjs), its table, its
 * JSON, its chart, its refusals and exit codes, the same figures whatever
 * the workers, and Ctrl-C. Small trial counts: the figures are the engine's
 * (tests/rules/odds-*.test.ts check them); here only the command line.
 * Nothing here depends on how long anything takes.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCEDURE_IDS } from '../../src/rules/model';
import type { OddsReport, ProcedureOdds, Share } from '../../src/rules/odds/types';
import { MAX_TRIALS, parseOddsFlags } from '../../src/sim/odds/cli';
import { quoted } from '../../src/sim/cli';
import { compactDist, comparisonLines, fit, percent, WIDTH, wrapWords } from '../../src/sim/odds/text';
import { loadStrings, Strings } from '../../src/sim/strings';

const ROOT = resolve(__dirname, '..', '..');
const ODDS = join(ROOT, 'build', 'odds.mjs');
const EXAMPLE = join('src', 'sim', 'scenarios', 'example.yaml');
const TIMEOUT = 120_000;
const t = new Strings(loadStrings(ROOT));
const say = (key: string, data?: Record<string, string | number>) => t.format(key, data);
/** A refusal's words as the runner says them (a path in the data cut as its messages cut it). */
const sayQuoted = (key: string, data: Record<string, string | number>) => t.format(key, quoted(data));
/** A template's text up to its first placeholder (to find a localized line whatever its numbers). */
const lead = (key: string) => t.format(key).split('{')[0];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function odds(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [ODDS, ...args], { cwd: ROOT, env: { ...process.env, INIT_CWD: ROOT, ...env }, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'tenseg-odds-'));

describe('npm run odds (subprocess)', () => {
  it(
    'prints a block per procedure and the comparison table for the bundled example, exit 0',
    async () => {
      const r = await odds([EXAMPLE, '--trials', '300', '--seed', '7']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(''); // no progress when stderr is not a terminal
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe(say('TENSEG.Odds.Cli.Title', { title: "Halvaine's party and the orcs" }));
      expect(lines[1]).toBe(say('TENSEG.Odds.Cli.Header', { seed: 7, trials: 300, rounds: 10 }));
      for (const id of PROCEDURE_IDS) {
        expect(r.stdout).toContain(say('TENSEG.Odds.Cli.Procedure', { name: say(`TENSEG.Procedure.${id}.Name`), id, trials: 300 }));
      }
      expect(r.stdout).toContain(lead('TENSEG.Odds.Cli.Wins'));
      expect(r.stdout).toContain(lead('TENSEG.Odds.Cli.Rounds'));
      expect(r.stdout).toContain('Halvaine the Arcane, Sleep');
      // The comparison: a header with the five procedures (long ids over two lines), a row per figure.
      const compare = lines.indexOf(say('TENSEG.Odds.Cli.Compare'));
      expect(compare).toBeGreaterThan(0);
      expect(lines.slice(compare + 1, compare + 3).join(' ')).toMatch(/segment-\s.*d12-\s.*individual-/);
      expect(lines.find((l) => l.startsWith(say('TENSEG.Odds.Cli.Row.Win', { name: 'Party' })))?.match(/%/g)).toHaveLength(5);
      expect(lines.at(-2)).toMatch(new RegExp(`^${lead('TENSEG.Odds.Cli.Throughput')}1500 `));
      expect(r.stdout).not.toMatch(/TENSEG\./); // every key has its string
      const wide = lines.filter((l) => [...l].length > WIDTH);
      expect(wide).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    '--json prints the OddsReport alone: its shape, the seed, complete',
    async () => {
      const r = await odds([EXAMPLE, '--trials', '300', '--seed', '7', '--json', '--rounds', '6']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const report = JSON.parse(r.stdout) as OddsReport;
      expect(report).toMatchObject({ title: "Halvaine's party and the orcs", seed: 7, trials: 300, maxRounds: 6, complete: true });
      expect(report.procedures.map((p) => p.procedure)).toEqual([...PROCEDURE_IDS]);
      for (const p of report.procedures) {
        expect(p.trials).toBe(300);
        expect(p.sides.map((s) => s.id)).toEqual(['party', 'orcs']);
        const total = p.sides.reduce((a, s) => a + s.win, 0) + p.undecided + p.noneStanding;
        expect(total).toBeCloseTo(1, 9);
        expect(p.rounds.max).toBeLessThanOrEqual(6);
        expect(p.firstAction.map((c) => c.combatant)).toContain('halvaine');
        expect(p.castings.map((c) => [c.caster, c.spell])).toContainEqual(['halvaine', 'Sleep']);
      }
    },
    TIMEOUT,
  );

  it(
    'the same seed gives the same JSON, byte for byte, with 1 worker or 3; --procedures gives a full run\'s figures for those',
    async () => {
      const args = [EXAMPLE, '--trials', '600', '--seed', '4242', '--json'];
      const [one, three, some] = await Promise.all([
        odds([...args, '--workers', '1']),
        odds([...args, '--workers', '3']),
        odds([...args, '--workers', '2', '--procedures', 'addict,high-low,addict']),
      ]);
      expect(one.code, one.stderr).toBe(0);
      expect(three.code, three.stderr).toBe(0);
      expect(three.stdout).toBe(one.stdout);
      const full = JSON.parse(one.stdout) as OddsReport;
      const subset = JSON.parse(some.stdout) as OddsReport;
      // In the order given, each once.
      expect(subset.procedures.map((p) => p.procedure)).toEqual(['addict', 'high-low']);
      const byId = (r: OddsReport, id: string) => r.procedures.find((p) => p.procedure === id) as ProcedureOdds;
      expect(subset.procedures[0]).toEqual(byId(full, 'addict'));
      expect(subset.procedures[1]).toEqual(byId(full, 'high-low'));
    },
    TIMEOUT,
  );

  it(
    'without --seed it picks one and prints it, so the run can be repeated',
    async () => {
      const first = await odds([EXAMPLE, '--trials', '250', '--procedures', 'segment-d6', '--json']);
      const seed = (JSON.parse(first.stdout) as OddsReport).seed;
      expect(Number.isInteger(seed)).toBe(true);
      const [again, text] = await Promise.all([
        odds([EXAMPLE, '--trials', '250', '--procedures', 'segment-d6', '--json', '--seed', String(seed)]),
        odds([EXAMPLE, '--trials', '250', '--procedures', 'segment-d6']),
      ]);
      expect(again.stdout).toBe(first.stdout);
      expect(text.stdout.split('\n')[1]).toMatch(new RegExp(`^${lead('TENSEG.Odds.Cli.Header')}\\d+ `));
      expect(text.stdout).toContain('--seed ');
    },
    TIMEOUT,
  );

  it(
    '--chart FILE writes an SVG and says where (stdout with the text, stderr with --json)',
    async () => {
      const svg = join(tmp, 'odds.svg');
      const svg2 = join(tmp, 'odds-json.svg');
      const [text, json] = await Promise.all([
        odds([EXAMPLE, '--trials', '250', '--seed', '1', '--chart', svg]),
        odds([EXAMPLE, '--trials', '250', '--seed', '1', '--json', `--chart=${svg2}`]),
      ]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(say('TENSEG.Odds.Cli.ChartWritten', { path: svg }));
      const doc = readFileSync(svg, 'utf8');
      expect(doc).toMatch(/^(<\?xml[^>]*>\s*)?<svg[\s>]/);
      expect(doc.trimEnd().endsWith('</svg>')).toBe(true);
      expect(json.code, json.stderr).toBe(0);
      expect(() => JSON.parse(json.stdout)).not.toThrow();
      expect(json.stderr).toContain(say('TENSEG.Odds.Cli.ChartWritten', { path: svg2 }));
      expect(readFileSync(svg2, 'utf8')).toBe(doc); // the same report, the same chart
    },
    TIMEOUT,
  );

  it(
    'bad flags, an unknown procedure, a missing chart folder, a broken file: localized words, exit 2, nothing played',
    async () => {
      const broken = join(tmp, 'broken.yaml');
      writeFileSync(broken, 'procedure: segment-d6\nsides:\n  - { id: a }\n  - { id: b }\ncombatants:\n  - { id: x, side: a, hp: ten }\n');
      const nowhere = join(tmp, 'no-such-folder', 'odds.svg');
      const runs = await Promise.all([
        odds(['--frobnicate']),
        odds(['--trials', '0']),
        odds(['--trials', 'many']),
        odds(['--procedures', 'high-lo']),
        odds(['--procedures', 'chess']),
        odds(['--workers', '0']),
        odds(['--seed']),
        odds([EXAMPLE, '--trials', '250', '--chart', nowhere]),
        odds([broken, '--trials', '250']),
        odds([broken, '--json']),
      ]);
      const [flag, zero, many, near, chess, workers, seed, chart, file, fileJson] = runs;
      for (const r of runs) expect(r.code, r.stderr).toBe(2);
      for (const r of runs.slice(0, -1)) expect(r.stdout).toBe('');
      expect(flag.stderr).toContain(say('TENSEG.Odds.Cli.UnknownFlag', { flag: '--frobnicate' }));
      expect(flag.stderr).toContain(lead('TENSEG.Odds.Cli.Usage'));
      expect(zero.stderr).toContain(say('TENSEG.Error.FlagBadNumber', { flag: '--trials', value: '0', min: 1, max: MAX_TRIALS }));
      expect(many.stderr).toContain('"many"');
      expect(near.stderr).toContain(say('TENSEG.Error.UnknownProcedureDidYouMean', { id: 'high-lo', suggestion: 'high-low' }));
      expect(chess.stderr).toContain(say('TENSEG.Error.UnknownProcedure', { id: 'chess' }));
      expect(workers.stderr).toContain('--workers');
      expect(seed.stderr).toContain(say('TENSEG.Error.FlagNeedsValue', { flag: '--seed' }));
      expect(chart.stderr).toContain(lead('TENSEG.Odds.Cli.ChartFolderMissing'));
      expect(existsSync(nowhere)).toBe(false);
      expect(file.stderr).toContain(`${broken}:6:`);
      expect(file.stderr).toContain('combatants[0].hp');
      expect(file.stderr).not.toMatch(/\n\s+at /); // no stack
      expect(file.stderr).not.toContain(lead('TENSEG.Odds.Cli.Throughput'));
      const j = JSON.parse(fileJson.stdout);
      expect(j.ok).toBe(false);
      // The same problem under five procedures is said once.
      expect(j.problems.map((p: { path: string }) => p.path)).toEqual(['combatants[0].hp']);
    },
    TIMEOUT,
  );

  /** Every file under a folder with its bytes (links as where they lead): what a refusal must leave as it was. */
  function snapshot(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) Object.assign(out, snapshot(p));
      else out[relative(tmp, p)] = existsSync(p) ? readFileSync(p).toString('base64') : '(dangling link)';
    }
    return out;
  }

  it(
    '--chart is refused in words, exit 2, nothing played and no file touched: not .svg, the scenario itself (by any path, a link, with --force), a file already there without --force, a link to a file not .svg',
    async () => {
      const dir = join(tmp, 'refusals');
      mkdirSync(dir);
      // The case: the scenario named as the chart. And a scenario named .svg, so only the same-file check stands in the way.
      const yaml = join(dir, 'fight.yaml');
      const svgScenario = join(dir, 'fight.svg');
      copyFileSync(join(ROOT, EXAMPLE), yaml);
      copyFileSync(join(ROOT, EXAMPLE), svgScenario);
      const kept = join(dir, 'kept.svg');
      writeFileSync(kept, '<svg>an earlier chart the GM keeps</svg>\n');
      const notes = join(dir, 'notes.txt');
      writeFileSync(notes, 'my notes\n');
      symlinkSync(svgScenario, join(dir, 'link-to-scenario.svg'));
      symlinkSync(notes, join(dir, 'link-to-notes.svg'));
      linkSync(yaml, join(dir, 'hard-link-to-scenario.svg'));
      symlinkSync(join(dir, 'nowhere.txt'), join(dir, 'link-to-nowhere.svg'));
      const before = snapshot(tmp);
      const rel = relative(ROOT, svgScenario);
      const base = ['--trials', '250', '--seed', '1', '--procedures', 'segment-d6'];
      const runs = await Promise.all([
        odds([yaml, ...base, '--chart', yaml]),
        odds([yaml, ...base, '--chart', yaml, '--force']),
        odds([yaml, ...base, '--chart', join(dir, 'odds.txt')]),
        odds([yaml, ...base, '--chart', join(dir, 'odds.svg.yaml')]),
        odds([svgScenario, ...base, '--chart', svgScenario, '--force']),
        odds([rel, ...base, '--chart', join(dir, '.', '..', 'refusals', 'fight.svg'), '--force']),
        odds([svgScenario, ...base, '--chart', join(dir, 'link-to-scenario.svg'), '--force']),
        odds([yaml, ...base, '--chart', kept]),
        odds([yaml, ...base, '--chart', join(dir, 'link-to-notes.svg'), '--force']),
        odds([yaml, ...base, '--chart', join(dir, 'hard-link-to-scenario.svg'), '--force']),
        odds([yaml, ...base, '--chart', join(dir, 'link-to-nowhere.svg'), '--force']),
        odds([yaml, ...base, '--json', '--chart', kept]),
      ]);
      const [itself, itselfForced, txt, yamlEnd, svgItself, svgRelative, svgLink, exists, linkNotes, hardLink, linkNowhere, existsJson] = runs;
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).not.toContain(lead('TENSEG.Odds.Cli.ChartWritten'));
        expect(r.stdout).not.toContain(lead('TENSEG.Odds.Cli.Throughput'));
      }
      for (const r of runs.slice(0, -1)) expect(r.stdout).toBe('');
      expect(itself.stderr).toContain(sayQuoted('TENSEG.Odds.Cli.ChartNotSvg', { path: yaml }));
      expect(itselfForced.stderr).toContain(sayQuoted('TENSEG.Odds.Cli.ChartNotSvg', { path: yaml }));
      expect(txt.stderr).toContain(sayQuoted('TENSEG.Odds.Cli.ChartNotSvg', { path: join(dir, 'odds.txt') }));
      expect(yamlEnd.stderr).toContain(lead('TENSEG.Odds.Cli.ChartNotSvg'));
      for (const r of [svgItself, svgRelative, svgLink]) expect(r.stderr).toContain(lead('TENSEG.Odds.Cli.ChartIsInput'));
      expect(svgItself.stderr).toContain(sayQuoted('TENSEG.Odds.Cli.ChartIsInput', { path: svgScenario, file: svgScenario }));
      expect(exists.stderr).toContain(sayQuoted('TENSEG.Odds.Cli.ChartExists', { path: kept }));
      expect(linkNotes.stderr).toContain(lead('TENSEG.Odds.Cli.ChartLeadsElsewhere'));
      expect(hardLink.stderr).toContain(sayQuoted('TENSEG.Odds.Cli.ChartIsInput', { path: join(dir, 'hard-link-to-scenario.svg'), file: yaml }));
      expect(linkNowhere.stderr).toContain(lead('TENSEG.Odds.Cli.ChartLeadsElsewhere'));
      expect(JSON.parse(existsJson.stdout).problems[0].key).toBe('TENSEG.Odds.Cli.ChartExists');
      // Nothing written, nothing made: every byte as it was.
      expect(snapshot(tmp)).toEqual(before);
      expect(existsSync(join(dir, 'odds.txt'))).toBe(false);
      expect(existsSync(join(dir, 'nowhere.txt'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    '--chart over a file already there: --force overwrites it with the chart',
    async () => {
      const dir = join(tmp, 'forced');
      mkdirSync(dir);
      const kept = join(dir, 'kept.svg');
      writeFileSync(kept, '<svg>an earlier chart</svg>\n');
      const r = await odds([EXAMPLE, '--trials', '250', '--seed', '1', '--procedures', 'segment-d6', '--chart', kept, '--force']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(say('TENSEG.Odds.Cli.ChartWritten', { path: kept }));
      const doc = readFileSync(kept, 'utf8');
      expect(doc).not.toContain('an earlier chart');
      expect(doc.trimEnd().endsWith('</svg>')).toBe(true);
    },
    TIMEOUT,
  );

  it(
    `more trials than ${MAX_TRIALS.toLocaleString('en')} (about a minute a procedure on 2 cores) are refused in words naming the most, exit 2, nothing played`,
    async () => {
      const over = String(MAX_TRIALS + 1);
      const tenTimes = (MAX_TRIALS * 10).toLocaleString('en').replace(/,/g, '_');
      const [r, big] = await Promise.all([odds([EXAMPLE, '--trials', over]), odds([EXAMPLE, '--trials', tenTimes, '--json'])]);
      for (const x of [r, big]) {
        expect(x.code, x.stderr).toBe(2);
        expect(x.stderr).not.toContain(lead('TENSEG.Odds.Cli.Progress'));
      }
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(sayQuoted('TENSEG.Odds.Cli.TooManyTrials', { value: over, max: MAX_TRIALS }));
      expect(r.stderr).toContain(String(MAX_TRIALS));
      expect(JSON.parse(big.stdout).problems[0].text).toBe(sayQuoted('TENSEG.Odds.Cli.TooManyTrials', { value: tenTimes, max: MAX_TRIALS }));
      // The most is taken; one more is not.
      expect(parseOddsFlags(['--trials', String(MAX_TRIALS)])).toMatchObject({ flags: { trials: MAX_TRIALS }, problems: [] });
      expect(parseOddsFlags(['--trials', over]).problems.map((p) => p.key)).toEqual(['TENSEG.Odds.Cli.TooManyTrials']);
      expect(MAX_TRIALS).toBeLessThanOrEqual(2_000_000);
    },
    TIMEOUT,
  );

  it(
    '--help prints the usage, exit 0',
    async () => {
      const r = await odds(['--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(say('TENSEG.Odds.Cli.Usage', { ids: PROCEDURE_IDS.join(', '), trials: 10000, max: MAX_TRIALS, rounds: 10 }) + '\n');
      expect(r.stdout).toContain('--workers');
    },
    TIMEOUT,
  );

  /** Start a run too long to finish, wait for its first progress line, then Ctrl-C it. */
  function interrupted(extra: string[]): Promise<Run> {
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, [ODDS, EXAMPLE, '--trials', String(MAX_TRIALS), '--seed', '3', '--workers', '2', ...extra], {
        cwd: ROOT,
        env: { ...process.env, INIT_CWD: ROOT, TENSEG_ODDS_PROGRESS: '1' },
      });
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
      child.stderr.on('data', (d: Buffer) => {
        stderr += String(d);
        if (!sent && stderr.includes(lead('TENSEG.Odds.Cli.Progress'))) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.on('error', fail);
      child.on('close', (code, signal) => done({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
    });
  }

  it(
    'Ctrl-C stops the run: the odds of the trials played, marked incomplete, the chart, exit 130',
    async () => {
      const svg = join(tmp, 'stopped.svg');
      const [text, json] = await Promise.all([interrupted(['--chart', svg]), interrupted(['--json'])]);
      expect(text.code, text.stderr).toBe(130);
      expect(text.stdout).toContain(say('TENSEG.Odds.Cli.Title', { title: "Halvaine's party and the orcs" }));
      const stopped = text.stdout.split('\n').find((l) => l.startsWith(lead('TENSEG.Odds.Cli.Stopped')));
      expect(stopped).toBeDefined();
      const played = Number(/(\d+)/.exec(stopped!.slice(lead('TENSEG.Odds.Cli.Stopped').length))![1]);
      expect(played).toBeGreaterThan(0);
      expect(played).toBeLessThan(5 * MAX_TRIALS);
      expect(text.stdout).toContain(say('TENSEG.Odds.Cli.ChartWritten', { path: svg }));
      expect(readFileSync(svg, 'utf8')).toContain('</svg>');

      expect(json.code, json.stderr).toBe(130);
      const report = JSON.parse(json.stdout) as OddsReport;
      expect(report.complete).toBe(false);
      expect(report.trials).toBe(MAX_TRIALS);
      const sum = report.procedures.reduce((a, p) => a + p.trials, 0);
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThan(5 * MAX_TRIALS);
      expect(json.stderr).toContain(lead('TENSEG.Odds.Cli.Stopped'));
    },
    TIMEOUT,
  );
});

describe('odds pieces', () => {
  it('flags: defaults, values inline or separate, procedures in the order given', () => {
    expect(parseOddsFlags([]).flags).toMatchObject({ trials: 10_000, procedures: [], json: false });
    expect(parseOddsFlags(['a.yaml', '--trials=1_000', '--procedures', 'addict, segment-d6', '--rounds', '3', '--workers', '4', '--chart', 'x.svg']).flags).toMatchObject({
      file: 'a.yaml',
      trials: 1000,
      procedures: ['addict', 'segment-d6'],
      rounds: 3,
      workers: 4,
      chart: 'x.svg',
    });
    expect(parseOddsFlags(['--procedures', ',']).problems[0].key).toBe('TENSEG.Error.FlagNeedsValue');
    expect(parseOddsFlags(['--chart', '--json']).problems[0].key).toBe('TENSEG.Error.FlagNeedsValue');
    expect(parseOddsFlags(['a', 'b']).problems[0].key).toBe('TENSEG.Error.TooManyFiles');
  });

  it('a distribution in a line: most frequent first, cut with an ellipsis where the room ends', () => {
    const dist: Share[] = [1, 2, 3, 4, 5, 6].map((value) => ({ value, chance: [0.05, 0.3, 0.41, 0.2, 0.035, 0.005][value - 1] }));
    expect(compactDist(say, 'segment', dist, 100)).toBe('segment 3: 41 %, 2: 30 %, 4: 20 %, 1: 5 %, 5: 4 %, 6: 1 %');
    expect(compactDist(say, 'segment', dist, 30)).toBe('segment 3: 41 %, 2: 30 % …');
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(wrapWords('one two three four', 9)).toEqual(['one two', '  three', '  four']);
    // Not nil but under the last digit, not certain but over it: said so.
    expect([0, 0.0004, 0.0005, 0.9994, 0.9996, 1].map((c) => percent(say, c))).toEqual(['0.0 %', '< 0.1 %', '0.1 %', '99.9 %', '> 99.9 %', '100.0 %']);
  });

  it('the comparison: a row per figure, a column per procedure, a dash where a procedure has no figure', () => {
    const side = (id: string, win: number) => ({ id, name: id.toUpperCase(), win, first: 0.5, surprised: 0, surprise: [], firstAction: { dist: [], mean: null, never: 1 } });
    const proc = (procedure: ProcedureOdds['procedure'], casting: boolean): ProcedureOdds => ({
      procedure,
      trials: 10,
      sides: [side('a', 0.6), side('b', 0.4)],
      undecided: 0,
      noneStanding: 0,
      firstTogether: 0,
      surpriseUnit: 'segments',
      rounds: { mean: 2.25, sd: 1, min: 1, median: 2, p90: 4, max: 5 },
      castings: casting ? [{ caster: 'm', name: 'Mage', spell: 'Sleep', off: 0.25, interrupted: 0.5, prevented: 0, notCast: 0.25 }] : [],
      firstActionUnit: 'segment',
      firstAction: [],
    });
    const lines = comparisonLines({ seed: 1, trials: 10, maxRounds: 10, complete: true, procedures: [proc('segment-d6', true), proc('addict', false)] }, say);
    expect(lines[0]).toBe(say('TENSEG.Odds.Cli.Compare'));
    const row = (label: string) => lines.find((l) => l.startsWith(label))!.slice(label.length).trim().split(/\s{2,}/);
    expect(row(say('TENSEG.Odds.Cli.Row.Win', { name: 'A' }))).toEqual(['60.0 %', '60.0 %']);
    expect(row(say('TENSEG.Odds.Cli.Row.RoundsMean'))).toEqual(['2.3', '2.3']);
    expect(row(say('TENSEG.Odds.Cli.Row.CastingOff', { name: 'Mage', spell: 'Sleep' }))).toEqual(['25.0 %', say('TENSEG.Odds.Cli.NoFigure')]);
  });
});
