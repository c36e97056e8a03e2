/**
 * The preview page (npm run preview): the stand-in of Foundry booted in a
 * browser, the system installed on every client, a fixture world with a
 * combat under way, and the real tracker (ui.combat), its popped-out copy
 * and the chat cards, drawn from the real templates and CSS.
 *
 * Query: ?procedure=<id> (default segment-d6), ?n=<combatants> (default 4:
 * the fixture party and two orcs; more adds monsters), ?viewer=gm|player|player2,
 * ?theme=dark|light, ?steps=<n> (Next pressed n times at load).
 *
 * One client's code at a time: a browser has no async context (the stand-in's
 * AsyncLocalStorage is shimmed, preview/shims/async_hooks.ts), so everything
 * runs on the GM's client, and the applications of another client are drawn
 * when the page shows that client (showViewer), with that client as the
 * stand-in's base client while it renders.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import './install';
import { installFoundry, type FoundryHandle } from '../tests/standin';
import { baseEndpoint, type Endpoint } from '../tests/standin/state';
import { ApplicationV2, templates } from '../tests/standin/ui';
import { files } from './shims/fs';
import { initSystem, readySystem } from '../src/system';
import { buildWorld, declareAll, type PreviewWorld } from './world';
import type { ProcedureId } from '../src/rules/model';

const g = globalThis as any;
const query = new URLSearchParams(location.search);
const VIEWERS = ['gm', 'player', 'player2'] as const;
type ViewerKey = (typeof VIEWERS)[number];

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** What the checks and the benchmark read (window.tenPreview). */
interface PreviewApi {
  ready: Promise<void>;
  foundry: FoundryHandle;
  world: PreviewWorld;
  viewer: ViewerKey;
  next(): Promise<void>;
  previous(): Promise<void>;
  showViewer(viewer: ViewerKey): Promise<void>;
  setTheme(theme: 'light' | 'dark'): void;
  /** Median and samples of `samples` renders of the shown tracker, each after one step: render, then style and layout (ms, performance.now). */
  measureStepRender(samples: number): Promise<{ median: number; samples: number[] }>;
  errors: string[];
}

/* ------------------------------------------------ one client at a time */

/** Applications of a client other than the base one: drawn when the page shows that client. */
const deferred = new Set<ApplicationV2>();
const realRender = ApplicationV2.prototype.render;
ApplicationV2.prototype.render = function (this: ApplicationV2, options?: any, legacy?: any) {
  if (this.client !== baseEndpoint.resolve()) {
    deferred.add(this);
    return Promise.resolve(this);
  }
  return realRender.call(this, options, legacy).then((app) => {
    // Any other window the system opens (a dialog, a form): shown in #preview-windows, as Foundry shows it over the board.
    const el = app.element;
    const tracker = el?.classList.contains('sidebar-tab') || el?.classList.contains('sidebar-popout');
    if (el && !tracker && !el.isConnected) document.getElementById('preview-windows')?.append(el);
    return app;
  });
} as typeof realRender;

let foundry: FoundryHandle;
let world: PreviewWorld;
let viewer: ViewerKey = (VIEWERS as readonly string[]).includes(query.get('viewer') ?? '') ? (query.get('viewer') as ViewerKey) : 'gm';

function userOf(key: ViewerKey): any {
  return foundry.users[key];
}
function clientOf(key: ViewerKey): any {
  return foundry.client(userOf(key));
}

/** Run fn with `key`'s client as the base client, then give the GM's back. */
async function asBase<T>(key: ViewerKey, fn: () => Promise<T>): Promise<T> {
  foundry.setUser(userOf(key));
  try {
    return await fn();
  } finally {
    foundry.setUser(foundry.users.gm);
  }
}

/** Wait for every client to have handled every write; then two more turns for the renders started by hooks. */
async function settle(): Promise<void> {
  await foundry.settle();
  for (let i = 0; i < 2; i++) await new Promise((r) => setTimeout(r, 0));
  await foundry.settle();
}

/* ------------------------------------------------------------- drawing */

function mount(slot: HTMLElement, el: HTMLElement | null): void {
  if (!el) return;
  if (el.parentElement !== slot) {
    slot.replaceChildren(el);
  }
}

/** The chat log of the shown client: every message it may see, newest last. */
function drawChat(): void {
  const c = clientOf(viewer);
  const user = c.user;
  const log = $('chat-log');
  const items: string[] = [];
  for (const m of c.game.messages.contents as any[]) {
    const whisper: string[] = m.whisper ?? [];
    const mine = m.author?.id === user.id;
    if (whisper.length && !whisper.includes(user.id) && !mine && !user.isGM) continue;
    const hidden = m.blind && !user.isGM;
    const kind = m.flags?.['ten-segments']?.kind ?? '';
    items.push(
      `<li class="chat-message message" data-message-id="${m.id}" data-card-kind="${kind}">` +
        `<header class="message-header"><span class="message-sender">${m.speaker?.alias ?? m.author?.name ?? ''}</span>` +
        (whisper.length ? `<span class="whisper-to">(whisper)</span>` : '') +
        `</header>` +
        (m.flavor ? `<span class="flavor-text">${m.flavor}</span>` : '') +
        `<div class="message-content">${hidden ? '???' : (m.content ?? '')}</div></li>`,
    );
  }
  log.innerHTML = items.join('');
  log.scrollTop = log.scrollHeight;
}

/** Draw the shown client's screens: its tracker in the sidebar, the popped-out copy, the chat. */
async function draw(): Promise<void> {
  const c = clientOf(viewer);
  const tracker = c.ui.combat;
  await asBase(viewer, async () => {
    await realRender.call(tracker, { combat: c.game.combats.get(world.combat.id), force: true });
    const popout = await tracker.renderPopout();
    mount($('preview-popout'), popout.element);
    for (const app of [...deferred]) {
      if (app.client === baseEndpoint.resolve()) deferred.delete(app);
    }
  });
  mount($('preview-sidebar-combat'), tracker.element);
  drawChat();
  $('preview-status').textContent = statusText();
}

/** The flow's position in words (the page's own line, beside what the tracker shows). */
function statusText(): string {
  const state = world.combat.flowState as any;
  if (!state) return 'no combat';
  const step = state.schedule?.steps?.[state.step];
  const where = state.round === 0 ? 'surprise' : `round ${state.round}`;
  const at = step ? ` · step ${state.step + 1}/${state.schedule.steps.length}${step.segment !== undefined ? ` · segment ${step.segment}` : ''}` : '';
  return `${where} · ${state.stage}${at}`;
}

/** Mark the page busy while fn runs, idle after it has drawn (the checks wait for idle). */
async function busy(fn: () => Promise<void>): Promise<void> {
  document.body.dataset.previewState = 'busy';
  try {
    await fn();
    await settle();
    await draw();
  } catch (err) {
    console.error(err);
    throw err;
  } finally {
    document.body.dataset.previewState = 'idle';
  }
}

/** Next: the GM's next step; at the end of a round's declarations, everyone declares as set up and initiative is rolled. */
async function next(): Promise<void> {
  const state = world.combat.flowState as any;
  if (state?.stage === 'declare') {
    await declareAll(world);
    await world.combat.rollInitiative();
    return;
  }
  await g.game.tenSegments.next();
}

function setTheme(theme: 'light' | 'dark'): void {
  document.body.classList.toggle('theme-dark', theme === 'dark');
  document.body.classList.toggle('theme-light', theme === 'light');
  ($('preview-theme') as HTMLSelectElement).value = theme;
}

/* ---------------------------------------------------------------- boot */

async function fetchText(path: string): Promise<string> {
  const res = await fetch(path);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.text();
}

async function boot(): Promise<void> {
  const [en, core, manifest] = await Promise.all([fetchText('/lang/en.json'), fetchText('/preview/core-lang.json'), fetchText('/system.json')]);
  files.set('/system.json', manifest);
  templates.loader = async (repoPath) => {
    const res = await fetch(`/${repoPath}`);
    return res.ok ? res.text() : null;
  };
  foundry = installFoundry({ generation: 13, lang: [JSON.parse(en), JSON.parse(core)], systemId: 'ten-segments', seed: 10 });
  foundry.everyClient(initSystem);
  foundry.everyClient(() => void g.Hooks.once('ready', () => readySystem()));
  await foundry.boot();
  const procedure = (query.get('procedure') ?? 'segment-d6') as ProcedureId;
  const n = Math.max(4, Number(query.get('n') ?? 4) || 4);
  world = await buildWorld(foundry, procedure, n);
  await settle();
  const steps = Number(query.get('steps') ?? 0) || 0;
  for (let i = 0; i < steps; i++) {
    await next();
    await settle();
  }
  await draw();
}

const api: PreviewApi = {
  ready: Promise.resolve(),
  get foundry() {
    return foundry;
  },
  get world() {
    return world;
  },
  get viewer() {
    return viewer;
  },
  next: () => busy(next),
  previous: () => busy(async () => void (await g.game.tenSegments.previous())),
  showViewer: (key) =>
    busy(async () => {
      viewer = key;
      ($('preview-viewer') as HTMLSelectElement).value = key;
      document.body.dataset.viewer = key;
    }),
  setTheme,
  async measureStepRender(samples) {
    const out: number[] = [];
    const tracker = clientOf(viewer).ui.combat;
    for (let i = 0; i < samples; i++) {
      const state = world.combat.flowState as any;
      const last = state?.schedule && state.step >= state.schedule.steps.length - 1;
      await (last ? g.game.tenSegments.previous() : next());
      await settle();
      const t0 = performance.now();
      await asBase(viewer, () => realRender.call(tracker, { force: true }));
      // Style and layout of the new rows are part of the cost: read a size, which forces both.
      void tracker.element?.offsetHeight;
      out.push(performance.now() - t0);
    }
    await draw();
    const sorted = [...out].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)], samples: out };
  },
  errors: [],
};
g.tenPreview = api;

addEventListener('error', (e) => api.errors.push(String(e.message)));
addEventListener('unhandledrejection', (e) => api.errors.push(String(e.reason?.stack ?? e.reason)));

setTheme(query.get('theme') === 'light' ? 'light' : 'dark');
document.body.dataset.viewer = viewer;
document.body.dataset.previewState = 'busy';
($('preview-viewer') as HTMLSelectElement).value = viewer;
// A click on an action of an application (the tracker's own buttons): busy until the action's writes have settled and the page has drawn again.
for (const slot of ['preview-sidebar-combat', 'preview-popout']) {
  $(slot).addEventListener(
    'click',
    (e) => {
      if (!(e.target as Element).closest?.('[data-action]')) return;
      document.body.dataset.previewState = 'busy';
      setTimeout(() => void busy(async () => undefined), 0);
    },
    { capture: true },
  );
}
$('preview-next').addEventListener('click', () => void api.next());
$('preview-previous').addEventListener('click', () => void api.previous());
$('preview-viewer').addEventListener('change', (e) => void api.showViewer((e.target as HTMLSelectElement).value as ViewerKey));
$('preview-theme').addEventListener('change', (e) => setTheme((e.target as HTMLSelectElement).value as 'light' | 'dark'));
api.ready = boot().then(
  () => {
    document.body.dataset.previewState = 'idle';
  },
  (err) => {
    console.error(err);
    document.body.dataset.previewState = 'failed';
    $('preview-status').textContent = `failed: ${err?.message ?? err}`;
  },
);

export type { Endpoint };
