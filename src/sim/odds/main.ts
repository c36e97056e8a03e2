/**
 * The odds runner as a program (build/odds.mjs): the command line read
 * (cli.ts), the trials played by worker threads (build/odds-worker.mjs,
 * worker.ts), the report printed (text.ts) or as JSON, the chart written.
 *
 * Each procedure's trials are cut into batches handed out from one queue;
 * a worker plays a batch and posts its Tally, and the tallies are added up
 * in batch order, so a seed gives the same figures (byte for byte) whatever
 * the number of workers.
 *
 * Ctrl-C stops the run: the workers stop between two trials (a shared flag),
 * post what they played, and the report of those trials is printed (marked
 * incomplete) with the chart if asked; exit code 130. A second Ctrl-C quits
 * at once. Exit codes otherwise: 0 played, 1 the engine or the chart file
 * failed, 2 bad flags or a broken scenario (nothing played). The chart is
 * only an .svg file, never the scenario, and a file already there only with
 * --force (cli.ts, chartRefusal: asked before the run and again at the write).
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { oddsChart } from '../../rules/odds/chart';
import { oddsReport } from '../../rules/odds/report';
import { mergeTally, newTally } from '../../rules/odds/tally';
import type { Localize, Tally } from '../../rules/odds/types';
import { PROCEDURES } from '../../rules/procedures/all';
import { quoted } from '../cli';
import { show } from '../scenario';
import { chartRefusal, oddsStrings, prepareOdds, type OddsPlan } from './cli';
import { oddsText, progressLine, stoppedLine, throughputLine, wrapWords } from './text';
import type { BatchDone, BatchOrder, WorkerInit } from './worker';

/** Trials per batch: small enough to spread over the workers and stop quickly, large enough that posting costs nothing. */
export const BATCH = 250;
/** Exit code after Ctrl-C (128 + SIGINT). */
const INTERRUPTED = 130;

const t = oddsStrings();
const say: Localize = (key, data) => t.format(key, data);

interface Played {
  /** Per batch: what its worker posted (undefined: not played). */
  results: ({ played: number; tally: Tally } | undefined)[];
  played: number;
  stopped: boolean;
  fault?: { procedure: string; message: string };
  seconds: number;
}

/** Progress on stderr: rewritten in place on a terminal; one line at a time (at most once a second) when TENSEG_ODDS_PROGRESS=1; else nothing. */
function progressWriter(total: number): { update(done: number): void; clear(): void } {
  const tty = process.stderr.isTTY === true;
  const lines = !tty && process.env.TENSEG_ODDS_PROGRESS === '1';
  let last = -Infinity;
  let shown = false;
  return {
    update(done) {
      if (!tty && !lines) return;
      const now = performance.now();
      if (now - last < (tty ? 100 : 1000)) return;
      last = now;
      shown = true;
      process.stderr.write(tty ? `\r${progressLine(say, done, total)}\x1b[K` : `${progressLine(say, done, total)}\n`);
    },
    clear() {
      if (tty && shown) process.stderr.write('\r\x1b[K');
    },
  };
}

function play(plan: OddsPlan): Promise<Played> {
  const trials = plan.flags.trials;
  const orders: BatchOrder[] = [];
  plan.setups.forEach((_, setup) => {
    for (let from = 0; from < trials; from += BATCH) orders.push({ batch: orders.length, setup, from, to: Math.min(trials, from + BATCH) });
  });
  const total = trials * plan.setups.length;
  const stopBuffer = new SharedArrayBuffer(4);
  const stopFlag = new Int32Array(stopBuffer);
  const init: WorkerInit = { setups: plan.setups, seed: plan.seed, stop: stopBuffer };
  const out: Played = { results: new Array(orders.length).fill(undefined), played: 0, stopped: false, seconds: 0 };
  const progress = progressWriter(total);
  const start = performance.now();

  return new Promise((done) => {
    let next = 0;
    let finished = false;
    const workers: Worker[] = [];
    const stop = (): void => {
      Atomics.store(stopFlag, 0, 1);
    };
    const finish = (): void => {
      if (finished) return;
      finished = true;
      out.seconds = (performance.now() - start) / 1000;
      process.removeListener('SIGINT', onSigint);
      progress.clear();
      for (const w of workers) void w.terminate();
      done(out);
    };
    const onSigint = (): void => {
      if (out.stopped) {
        progress.clear();
        process.exit(INTERRUPTED);
      }
      out.stopped = true;
      stop();
      if (process.stderr.isTTY) process.stderr.write(`\r${t.format('TENSEG.Odds.Cli.Stopping')}\x1b[K\n`);
      if (working.size === 0) finish();
    };
    process.on('SIGINT', onSigint);

    /** The workers playing a batch now. */
    const working = new Set<Worker>();
    const hand = (w: Worker): void => {
      if (out.stopped || out.fault || next >= orders.length) {
        if (working.size === 0) finish();
        return;
      }
      working.add(w);
      w.postMessage(orders[next++]);
    };
    /** A worker that failed or went away: its batch will never come. */
    const lost = (w: Worker, message: string): void => {
      if (finished) return;
      w.removeAllListeners('message');
      working.delete(w);
      out.fault ??= { procedure: '?', message };
      stop();
      if (working.size === 0) finish();
    };
    const count = Math.max(1, Math.min(plan.workers, orders.length));
    const url = new URL('./odds-worker.mjs', import.meta.url);
    for (let i = 0; i < count; i++) {
      const w = new Worker(url, { workerData: init });
      workers.push(w);
      w.on('message', (m: BatchDone) => {
        working.delete(w);
        if ('error' in m) {
          out.fault ??= { procedure: m.procedure, message: m.error };
          stop();
        } else {
          out.results[m.batch] = { played: m.played, tally: m.tally };
          out.played += m.played;
          progress.update(out.played);
        }
        hand(w);
      });
      w.on('error', (e: unknown) => lost(w, e instanceof Error ? `${e.name}: ${e.message}` : show(e)));
      w.on('exit', (code) => lost(w, `exit ${code}`));
    }
    for (const w of workers) hand(w);
  });
}

async function main(): Promise<number> {
  const prepared = prepareOdds(process.argv.slice(2), PROCEDURES);
  if (!prepared.ok) {
    if (prepared.outcome.stdout) process.stdout.write(prepared.outcome.stdout);
    if (prepared.outcome.stderr) process.stderr.write(prepared.outcome.stderr);
    return prepared.outcome.code;
  }
  const plan = prepared.plan;
  const json = plan.flags.json;
  const run = await play(plan);
  if (run.fault) {
    process.stderr.write(t.format('TENSEG.Error.EngineFault', quoted({ procedure: run.fault.procedure, message: run.fault.message })) + '\n');
    return 1;
  }

  // Every batch's tally, added up in batch order (the same sums and the same key order whatever the split).
  const tallies = plan.setups.map((s) => newTally(s.procedure));
  const perSetup = Math.ceil(plan.flags.trials / BATCH);
  run.results.forEach((r, batch) => {
    if (r) mergeTally(tallies[Math.floor(batch / perSetup)], r.tally);
  });
  const complete = !run.stopped || run.played === plan.flags.trials * plan.setups.length;
  const report = oddsReport(
    plan.setups,
    tallies,
    { seed: plan.seed, trials: plan.flags.trials, maxRounds: plan.maxRounds, complete, ...(plan.title !== undefined ? { title: plan.title } : {}) },
  );

  const lines: string[] = [];
  const aside: string[] = [];
  if (json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else {
    lines.push(...oddsText(report, say, plan.shown));
    if (plan.notes.length > 0) lines.splice(2, 0, ...plan.notes.flatMap((n) => wrapWords(n)));
    lines.push('');
  }
  const said = json ? aside : lines;
  if (!complete) said.push(stoppedLine(say, run.played, plan.flags.trials * plan.setups.length));
  let code = complete ? 0 : INTERRUPTED;
  if (plan.chartPath) {
    // Asked again as it is written (the run took a while): still not the scenario, still not a file there unless --force;
    // without --force the file is only created, never opened over one that appeared meanwhile.
    const refusal = chartRefusal(plan.chartPath, plan.flags.chart ?? plan.chartPath, plan.inputs, plan.flags.force);
    try {
      if (refusal) {
        aside.push(t.format(refusal.key, quoted(refusal.data ?? {})));
        if (code === 0) code = 1;
      } else {
        writeFileSync(plan.chartPath, oddsChart(report, say), { flag: plan.flags.force ? 'w' : 'wx' });
        said.push(t.format('TENSEG.Odds.Cli.ChartWritten', { path: plan.chartPath }));
      }
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
      aside.push(t.format('TENSEG.Odds.Cli.ChartUnwritable', quoted({ path: plan.chartPath, reason })));
      if (code === 0) code = 1;
    }
  }
  // The throughput ends the text; the JSON is the report alone.
  if (!json) lines.push(throughputLine(say, run.played, run.seconds, Math.min(plan.workers, Math.ceil(plan.flags.trials / BATCH) * plan.setups.length)));
  if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
  if (aside.length > 0) process.stderr.write(aside.join('\n') + '\n');
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const message = e instanceof Error ? `${e.name}: ${e.message}` : show(e);
    process.stderr.write(t.format('TENSEG.Error.EngineFault', quoted({ procedure: '?', message })) + '\n');
    process.exitCode = 1;
  },
);
