/**
 * "Odds of this fight" (issue 14, Deliver 6): the GM's dialog that plays the
 * combat on the tracker thousands of times under each of the five
 * procedures (the combat's own first) and shows what changes: a progress
 * bar ("N of M trials") with Cancel while it plays, then the chart
 * (rules/odds/chart.ts, inline SVG) and a table of the headline figures.
 *
 * The trials are played off the page, in a Worker (src/odds-worker.ts,
 * built to dist/odds-worker.js beside the entry): the dialog posts one job
 * and merges the batch tallies it posts back (whole numbers, so any split
 * adds up to the same figures: the same seed gives the command line's
 * numbers for the same setup). Cancel terminates the worker; the trials
 * played so far are shown, marked as stopped early. Where no Worker exists
 * (Node: the stand-in), a runner is injected (`oddsRunners.inject`); the
 * rest of the path is the same.
 *
 * The dialog reads nothing of the page beyond its own element (a v14
 * application may be detached into a window of its own): the Worker and the
 * animation frame are its element's window's.
 *
 * A chunk of its own, loaded with import() by the tracker's control (GM
 * only): neither it nor the odds engine is part of start-up.
 */
import { SYSTEM_ID } from '../settings';
import { RulesError, type Problem } from '../rules/model';
import { DEFAULT_TRIALS, type Localize, type OddsReport, type OddsSetup, type Tally } from '../rules/odds/types';
import { mergeTally, newTally } from '../rules/odds/tally';
import { oddsReport } from '../rules/odds/report';
import { oddsChart } from '../rules/odds/chart';
import { oddsSetupsFor } from '../documents/odds-setup';
import { localizeProblem } from '../documents/problems';
import type { OddsJob, OddsReply } from '../odds-worker';

/** Trials per procedure the GM may ask for. */
export const MIN_TRIALS = 100;
export const MAX_TRIALS = 100_000;
/** The seed a run starts from unless the GM gives another (the command line's default too: same seed, same figures). */
export const DEFAULT_SEED = 1;
/** Trials per tally the worker posts. */
const BATCH = 250;

/** A run under way: Cancel stops it. */
export interface OddsRun {
  cancel(): void;
}
/** Plays a job, calling `on` with each reply (batches, then done, problems or error). */
export type OddsRunner = (job: OddsJob, on: (reply: OddsReply) => void) => OddsRun;

/** The runner the dialog uses where its window has no Worker (tests inject one); null: none. */
export const oddsRunners: { inject: OddsRunner | null } = { inject: null };

/** Where the worker is: beside the entry, one folder above the dialog's chunk (dist/chunks/odds-dialog.js → dist/odds-worker.js). */
export function oddsWorkerUrl(): string {
  const here = import.meta.url;
  const relative = '../odds-worker.js';
  if (/\/chunks\/[^/]+\.js(\?.*)?$/.test(here)) return new URL(relative, here).href;
  return `systems/${SYSTEM_ID}/odds-worker.js`;
}

/** A runner playing in a Worker of `scope` (the dialog's window): one worker per run, terminated at the end or on Cancel. */
export function workerRunner(WorkerClass: typeof Worker, url: string = oddsWorkerUrl()): OddsRunner {
  return (job, on) => {
    const worker = new WorkerClass(url, { type: 'module' });
    let over = false;
    const end = () => {
      over = true;
      worker.terminate();
    };
    worker.onmessage = (event: MessageEvent<OddsReply>) => {
      if (over) return;
      const reply = event.data;
      if (reply.t !== 'batch') end();
      on(reply);
    };
    worker.onerror = (event: ErrorEvent) => {
      if (over) return;
      end();
      on({ t: 'error', message: event.message || 'worker' });
    };
    worker.postMessage(job);
    return { cancel: end };
  };
}

type Phase = 'idle' | 'running' | 'done' | 'stopped' | 'failed';

/** One row of the figures: a procedure, its trials, each side's chance to win, undecided, each casting's chance to go off. */
interface TableRow {
  procedure: string;
  trials: string;
  cells: string[];
}

export interface OddsContext {
  phase: Phase;
  running: boolean;
  trials: number;
  seed: number;
  min: number;
  max: number;
  played: number;
  total: number;
  count: string;
  stopped: boolean;
  message: string;
  chart: string;
  table: { head: string[]; rows: TableRow[] } | null;
}

const i18n = () => game.i18n!;
const t = (key: string): string => i18n().localize(`TENSEG.Odds.Dialog.${key}`);
const tf = (key: string, data: Record<string, string | number>): string =>
  i18n().format(`TENSEG.Odds.Dialog.${key}`, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])));

/** The chart's localizer: a full key and its data, through game.i18n. */
export const oddsLocalize: Localize = (key, data) =>
  data ? i18n().format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) : i18n().localize(key);

const clampTrials = (n: number): number => (Number.isFinite(n) ? Math.min(MAX_TRIALS, Math.max(MIN_TRIALS, Math.round(n))) : DEFAULT_TRIALS);

/** The dialogs open on this client, by combat (one each). */
const open = new Map<string, OddsDialog>();

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

export class OddsDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  static override DEFAULT_OPTIONS = {
    classes: ['ten-segments', 'odds-dialog'],
    window: { title: 'TENSEG.Odds.Dialog.Title', icon: 'fa-solid fa-chart-column', resizable: true },
    position: { width: 900, height: 'auto' as const },
    actions: { cancel: OddsDialog.onCancel, runAgain: OddsDialog.onRunAgain },
  };

  static override PARTS = {
    body: { template: `systems/${SYSTEM_ID}/templates/dialogs/odds.hbs` },
  };

  readonly combat: Combat.Implementation;
  trials = DEFAULT_TRIALS;
  seed = DEFAULT_SEED;
  phase: Phase = 'idle';
  played = 0;
  total = 0;
  message = '';
  setups: OddsSetup[] = [];
  tallies: Tally[] = [];
  report: OddsReport | null = null;
  chart = '';
  /** The context of the last render (tests). */
  lastContext: OddsContext | null = null;
  /** Settles when the run under way ends (played out, stopped or failed). */
  finished: Promise<void> = Promise.resolve();

  #run: OddsRun | null = null;
  /** Each run's number: replies of an older run are not counted. */
  #generation = 0;
  #settle: (() => void) | null = null;
  #progressPending = false;

  constructor(combat: Combat.Implementation, options: Record<string, unknown> = {}) {
    super({ id: `ten-segments-odds-${combat.id}`, ...options });
    this.combat = combat;
  }

  /** Only a GM plays the odds (a player's client would read the monsters' sheets). */
  protected override _canRender(options: never): false | void {
    if (!game.user?.isGM) throw new Error(t('GMOnly'));
    return super._canRender?.(options) as false | void;
  }

  override async _prepareContext(options: foundry.applications.api.ApplicationV2.RenderOptions) {
    const context = await super._prepareContext(options);
    const ours: OddsContext = {
      phase: this.phase,
      running: this.phase === 'running',
      trials: this.trials,
      seed: this.seed,
      min: MIN_TRIALS,
      max: MAX_TRIALS,
      played: this.played,
      total: this.total,
      count: this.countText(),
      stopped: this.phase === 'stopped',
      message: this.message,
      chart: this.chart,
      table: this.report ? this.table(this.report) : null,
    };
    this.lastContext = ours;
    return Object.assign(context, ours);
  }

  countText(): string {
    return tf('Progress', { played: this.played.toLocaleString(i18n().lang), total: this.total.toLocaleString(i18n().lang) });
  }

  /** The headline figures, a row per procedure. */
  table(report: OddsReport): { head: string[]; rows: TableRow[] } {
    const lang = i18n().lang;
    const pct = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
    const first = report.procedures[0];
    const sides = first?.sides ?? [];
    const castings = first?.castings ?? [];
    const head = [
      t('Procedure'),
      t('Trials'),
      ...sides.map((s) => tf('Wins', { side: s.name })),
      t('Undecided'),
      ...castings.map((c) => tf('GoesOff', { spell: c.spell, caster: c.name })),
    ];
    const rows = report.procedures.map((p) => ({
      procedure: i18n().localize(`TENSEG.Procedure.${p.procedure}.Name`),
      trials: p.trials.toLocaleString(lang),
      cells: [
        ...sides.map((s) => pct.format(p.sides.find((x) => x.id === s.id)?.win ?? 0)),
        pct.format(p.undecided),
        ...castings.map((c) => pct.format(p.castings.find((x) => x.caster === c.caster && x.spell === c.spell)?.off ?? 0)),
      ],
    }));
    return { head, rows };
  }

  /** The window the dialog is drawn in (a v14 detached window is another): its Worker and animation frames. */
  #window(): (Window & typeof globalThis) | null {
    const view = (this.element as HTMLElement | null)?.ownerDocument?.defaultView;
    return (view as (Window & typeof globalThis) | null | undefined) ?? null;
  }

  /** The runner: the injected one, else a Worker of the dialog's window (or of this context), else none. */
  #runner(): OddsRunner | null {
    if (oddsRunners.inject) return oddsRunners.inject;
    const WorkerClass = this.#window()?.Worker ?? (globalThis as { Worker?: typeof Worker }).Worker;
    return typeof WorkerClass === 'function' ? workerRunner(WorkerClass) : null;
  }

  /** Play the combat afresh with `trials` per procedure from `seed` (a run under way is stopped first). */
  async run(trials: number = this.trials, seed: number = this.seed): Promise<void> {
    this.#stop();
    const generation = ++this.#generation;
    this.trials = clampTrials(trials);
    this.seed = Number.isFinite(seed) ? Math.trunc(seed) : DEFAULT_SEED;
    this.report = null;
    this.chart = '';
    this.message = '';
    this.played = 0;
    this.finished = new Promise<void>((resolve) => (this.#settle = resolve));
    const setups = await this.#setups();
    if (generation !== this.#generation) return;
    if (!setups) return;
    const runner = this.#runner();
    if (!runner) return this.#fail([t('NoWorker')]);
    this.setups = setups;
    this.tallies = setups.map((s) => newTally(s.procedure));
    this.total = this.trials * setups.length;
    this.phase = 'running';
    await this.render({ force: true });
    if (generation !== this.#generation) return;
    const job: OddsJob = { t: 'run', setups, trials: this.trials, seed: this.seed, batch: BATCH };
    this.#run = runner(job, (reply) => this.#onReply(generation, reply));
  }

  /** The setups, or null with the reasons shown (a combat the engine cannot read, a stat it cannot read). */
  async #setups(): Promise<OddsSetup[] | null> {
    let setups: OddsSetup[];
    try {
      setups = await oddsSetupsFor(this.combat);
    } catch (err) {
      if (!(err instanceof RulesError)) throw err;
      await this.#fail([localizeProblem(err.problem)]);
      return null;
    }
    // What the engine cannot read of the stats is refused by the worker before any trial (a `problems` reply).
    return setups;
  }

  #onReply(generation: number, reply: OddsReply): void {
    if (generation !== this.#generation || this.phase !== 'running') return;
    if (reply.t === 'batch') {
      const into = this.tallies[reply.index];
      if (!into) return;
      mergeTally(into, reply.tally);
      this.played += reply.tally.trials;
      this.#progress();
    } else if (reply.t === 'done') void this.#finish(true);
    else if (reply.t === 'problems') void this.#fail(reply.problems.map((p: Problem) => localizeProblem(p)));
    else void this.#fail([tf('Failed', { message: reply.message })]);
  }

  /** The bar and its count follow the batches, at most once an animation frame (or ten times a second), without drawing the rest again. */
  #progress(): void {
    if (this.#progressPending) return;
    const root = this.element as HTMLElement | null;
    if (!root?.querySelector) return;
    this.#progressPending = true;
    const view = this.#window();
    const draw = () => {
      this.#progressPending = false;
      const bar = root.querySelector<HTMLProgressElement>('progress[data-odds-progress]');
      if (bar) {
        bar.max = this.total;
        bar.value = this.played;
      }
      const count = root.querySelector('[data-odds-count]');
      if (count) count.textContent = this.countText();
    };
    if (view?.requestAnimationFrame) view.requestAnimationFrame(draw);
    else setTimeout(draw, 100);
  }

  /** The figures of the trials played: the chart and the table. */
  async #finish(complete: boolean): Promise<void> {
    this.#run = null;
    const played = this.tallies.map((tally, i) => ({ tally, setup: this.setups[i] })).filter((x) => x.tally.trials > 0);
    if (played.length > 0) {
      this.report = oddsReport(
        played.map((x) => x.setup),
        played.map((x) => x.tally),
        { seed: this.seed, trials: this.trials, maxRounds: this.setups[0].maxRounds, complete },
      );
      // Inline: the standalone document's XML declaration is not part of HTML.
      this.chart = oddsChart(this.report, oddsLocalize).replace(/^\s*<\?xml[^>]*\?>\s*/, '');
    }
    this.phase = complete ? 'done' : 'stopped';
    await this.#redraw();
  }

  async #fail(messages: string[]): Promise<void> {
    this.#stop();
    this.phase = 'failed';
    this.message = messages.join(' ');
    await this.#redraw();
  }

  async #redraw(): Promise<void> {
    await this.render({ force: true });
    const settle = this.#settle;
    this.#settle = null;
    settle?.();
  }

  #stop(): void {
    const run = this.#run;
    this.#run = null;
    run?.cancel();
  }

  /** Cancel: the worker is stopped; the trials played so far are shown, marked as stopped early. */
  async cancel(): Promise<void> {
    if (this.phase !== 'running') return;
    this.#generation++;
    this.#stop();
    await this.#finish(false);
  }

  override async close(options?: Parameters<foundry.applications.api.ApplicationV2['close']>[0]) {
    this.#generation++;
    this.#stop();
    if (this.phase === 'running') this.phase = 'stopped';
    const settle = this.#settle;
    this.#settle = null;
    settle?.();
    open.delete(this.combat.id as string);
    return super.close(options);
  }

  static async onCancel(this: OddsDialog): Promise<void> {
    await this.cancel();
  }

  /** Run again, with the trials and the seed in the fields. */
  static async onRunAgain(this: OddsDialog): Promise<void> {
    const root = this.element as HTMLElement | null;
    const read = (name: string, fallback: number): number => {
      const input = root?.querySelector<HTMLInputElement>(`input[name="${name}"]`);
      return input && input.value !== '' ? Number(input.value) : fallback;
    };
    await this.run(read('trials', this.trials), read('seed', this.seed));
  }
}

/** The dialog open for a combat on this client, if any (tests; a GM sees it as a window). */
export function oddsDialogFor(combat: Combat.Implementation): OddsDialog | null {
  return open.get(combat.id as string) ?? null;
}

/** The tracker's control: open (or bring forward) the combat's odds and start playing. A player is refused in words. */
export async function openOddsDialog(combat: Combat.Implementation | null): Promise<OddsDialog | null> {
  if (!game.user?.isGM) {
    ui.notifications?.error(t('GMOnly'));
    return null;
  }
  if (!combat) return null;
  const have = open.get(combat.id as string);
  if (have) {
    await have.render({ force: true });
    return have;
  }
  const dialog = new OddsDialog(combat);
  open.set(combat.id as string, dialog);
  await dialog.render({ force: true });
  void dialog.run();
  return dialog;
}
