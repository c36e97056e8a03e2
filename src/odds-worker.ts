/**
 * The odds' browser Worker (issue 14, Deliver 6): built on its own by
 * scripts/build.mjs into dist/odds-worker.js (esbuild, ESM, the engine and
 * all five procedures bundled), never part of start-up. The odds dialog
 * (src/apps/odds-dialog.ts) starts it with `new Worker(url, {type: 'module'})`,
 * posts one OddsJob, and merges the batch tallies it posts back; Cancel
 * terminates it.
 *
 * The work itself is `playOdds` (a job in, replies out), so Node tests call
 * it directly and an in-process runner plays the same code.
 */
import './rules/procedures/all';
import { getProcedure } from './rules/registry';
import { RulesError, type Problem } from './rules/model';
import { setupProblems, tallyTrials } from './rules/odds/trial';
import type { OddsSetup, Tally } from './rules/odds/types';

/** What the dialog posts: the setups (one per procedure) and how many trials of each, from which seed, in batches of how many. */
export interface OddsJob {
  t: 'run';
  setups: OddsSetup[];
  trials: number;
  seed: number;
  /** Trials per posted tally (default 250). */
  batch?: number;
}

/** What the worker posts back: a batch's tally for setup `index`, the end, or why it could not play. */
export type OddsReply = { t: 'batch'; index: number; tally: Tally } | { t: 'done' } | { t: 'problems'; problems: Problem[] } | { t: 'error'; message: string };

export const DEFAULT_BATCH = 250;

/** How playOdds hands control back between batches (the in-process runner yields to the page; a Worker needs not). */
export interface PlayControl {
  /** True once the run is to stop (read between batches and between trials). */
  stop?: () => boolean;
  /** Awaited after each batch. */
  pause?: () => Promise<void>;
}

function isJob(data: unknown): data is OddsJob {
  const d = data as Partial<OddsJob> | null;
  return !!d && d.t === 'run' && Array.isArray(d.setups) && Number.isInteger(d.trials) && (d.trials as number) >= 0 && Number.isFinite(d.seed);
}

/**
 * Play a job: each setup's trials in order, a tally posted per batch (its
 * trials only, for the dialog to merge), then `done`. A setup the engine
 * cannot play is refused before any trial (`problems`, the dialog puts them
 * in words); an error thrown while playing is posted as `error`.
 */
export async function playOdds(data: unknown, post: (reply: OddsReply) => void, control: PlayControl = {}): Promise<void> {
  if (!isJob(data)) {
    post({ t: 'error', message: 'not an odds job' });
    return;
  }
  const problems = data.setups.flatMap((s) => setupProblems(s));
  if (problems.length > 0) {
    post({ t: 'problems', problems });
    return;
  }
  const batch = Math.max(1, Math.floor(data.batch ?? DEFAULT_BATCH));
  const stop = control.stop ?? (() => false);
  try {
    for (const [index, setup] of data.setups.entries()) {
      const procedure = getProcedure(setup.procedure);
      for (let from = 0; from < data.trials; from += batch) {
        if (stop()) return;
        const { tally } = tallyTrials(setup, procedure, data.seed, from, Math.min(data.trials, from + batch), stop);
        post({ t: 'batch', index, tally });
        await control.pause?.();
      }
    }
  } catch (err) {
    if (err instanceof RulesError) post({ t: 'problems', problems: [err.problem] });
    else post({ t: 'error', message: err instanceof Error ? err.message : String(err) });
    return;
  }
  if (!stop()) post({ t: 'done' });
}

/** In a Worker: answer the dialog's job. (Imported in Node, as the tests do, nothing is installed.) */
const scope = globalThis as unknown as { WorkerGlobalScope?: unknown; onmessage: unknown; postMessage(data: unknown): void };
if (typeof scope.WorkerGlobalScope === 'function' && scope instanceof (scope.WorkerGlobalScope as new () => object)) {
  scope.onmessage = (event: MessageEvent) => void playOdds(event.data, (reply) => scope.postMessage(reply));
}
