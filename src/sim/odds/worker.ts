/**
 * One worker thread of the odds runner (built into build/odds-worker.mjs).
 * It is given every setup once (workerData), then plays the batches the main
 * thread hands it, one at a time, and posts each batch's Tally. Between two
 * trials it looks at the shared stop flag (Ctrl-C): once set, the batch ends
 * where it is and what was played is posted.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { tallyTrials } from '../../rules/odds/trial';
import type { OddsSetup, Tally } from '../../rules/odds/types';
import { PROCEDURES } from '../../rules/procedures/all';

/** What the main thread gives every worker once. */
export interface WorkerInit {
  setups: OddsSetup[];
  seed: number;
  /** Int32Array over it: [0] non-zero once the run is stopped. */
  stop: SharedArrayBuffer;
}

/** A batch to play: trials from..to-1 of setups[setup]. */
export interface BatchOrder {
  batch: number;
  setup: number;
  from: number;
  to: number;
}

/** What a worker posts back for a batch. */
export type BatchDone = { batch: number; played: number; tally: Tally } | { batch: number; error: string; procedure: string };

/** Play one batch (also what a test can call without a thread). */
export function playBatch(init: WorkerInit, order: BatchOrder, stop: () => boolean): { played: number; tally: Tally } {
  const setup = init.setups[order.setup];
  return tallyTrials(setup, PROCEDURES[setup.procedure], init.seed, order.from, order.to, stop);
}

if (parentPort) {
  const port = parentPort;
  const init = workerData as WorkerInit;
  const flag = new Int32Array(init.stop);
  const stop = (): boolean => Atomics.load(flag, 0) !== 0;
  port.on('message', (order: BatchOrder) => {
    let done: BatchDone;
    try {
      done = { batch: order.batch, ...playBatch(init, order, stop) };
    } catch (e) {
      done = { batch: order.batch, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e), procedure: init.setups[order.setup]?.procedure ?? '?' };
    }
    port.postMessage(done);
  });
}
