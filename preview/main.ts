/**
 * The preview page (npm run preview): the stand-in of Foundry booted in a
 * browser, the system installed on every client, a fixture world with a
 * combat under way, and the real tracker (ui.combat), its popped-out copy
 * and the chat cards, drawn from the real templates and CSS.
 *
 * Query: ?procedure=<id> (default segment-d6), ?n=<combatants> (default 4:
 * the fixture party and two orcs; more adds monsters), ?viewer=gm|player|player2,
 * ?theme=dark|light, ?steps=<n> (Next pressed n times at load),
 * ?map=1 (the viewed scene drawn beside the tracker in place of the popped-out
 * tracker: its grid and every token as a box to scale with its name and side,
 * drawn again on every token created, updated or deleted; preview/map.ts; the
 * world's scene then has the party, the orcs and a 2×2 ogre placed,
 * preview/world.ts MAP); with ?scenario=charge (and ?procedure=addict) the
 * combat starts with two charges under way (preview/world.ts chargeScenario):
 * each Next plays a segment and the chargers' tokens move their share,
 * ?sheet=fighter|magic-user|ogre|weapon|spell|armor|gear (that document's
 * registered sheet in place of the popped-out tracker; preview/world.ts
 * buildSheetDocs: the documents). A sheet is the real one (`doc.sheet` on the
 * shown client, its templates and CSS): its form's change and submit go
 * through the stand-in's submit path (ApplicationV2 _onSubmitForm → core's
 * document-sheet handler → validate → update), its buttons through the
 * stand-in's action dispatch; the shown client's notifications since the
 * last action are drawn in #preview-notifications.
 * The GM's "Odds of this fight" (the tracker's control) opens its dialog in
 * #preview-windows at its own width; its trials are played by a real Worker,
 * the module scripts/preview.mjs builds from src/odds-worker.ts and serves
 * where the dialog asks for it (systems/ten-segments/odds-worker.js).
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
import { DialogV2 } from '../tests/standin/dialog';
import { files } from './shims/fs';
import { initSystem, readySystem } from '../src/system';
import { buildSheetDocs, buildWorld, chargeScenario, declareAll, SHEETS, type PreviewWorld, type SheetDocs, type SheetKey } from './world';
import type { ProcedureId } from '../src/rules/model';
import { setClock, startDeclaringInTurn } from '../src/documents/declaring-in-turn';
import { onDeclaringChanged } from '../src/apps/declaration-dialog';
import { drawMap, mapTokens, type MapToken } from './map';

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
  /** The sheet shown (?sheet=…; null: the popped-out tracker). */
  sheet: SheetKey | null;
  /** The sheets' documents (on the GM's client). */
  sheetDocs: SheetDocs;
  /** Show a sheet (null: none): the document's registered sheet on the shown client, rendered. */
  showSheet(key: SheetKey | null): Promise<void>;
  /** The addict clock every client reads (declaring-in-turn.ts setClock): a fixed time in ms; null: the real one. */
  setClock(ms: number | null): Promise<void>;
  /** The GM: begin declaring in turn (addict; declaring-in-turn.ts), with the roster's die set to `roll`. */
  callInTurn(roll?: number): Promise<void>;
  /** An attack through game.tenSegments (the GM's client), the dice set first; the answer. */
  attack(attackerId: string, targetId: string, dice?: number[]): Promise<unknown>;
  /** Whether the map is shown (?map=1). */
  map: boolean;
  /** The viewed scene's tokens on the GM's client (what the map draws): id, name, top-left x/y in scene pixels, width/height in squares. */
  tokens(): MapToken[];
  /** Run anything on the GM's client, then draw (busy meanwhile). */
  run(fn: (api: PreviewApi) => Promise<unknown>): Promise<unknown>;
  /** Everyone declares as the fixture sets up (what Next does at the end of declarations, without rolling initiative). */
  declareAll(): Promise<void>;
}

/* ------------------------------------------------ one client at a time */

/** Applications of a client other than the base one: drawn when the page shows that client. */
const deferred = new Set<ApplicationV2>();
/** Each drawn window's application (a form's submit goes to its handler). */
const appOf = new WeakMap<Element, ApplicationV2>();
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
    if (el) {
      appOf.set(el, app);
      if (!tracker) el.dataset.previewViewer = viewerOfClient(app.client);
    }
    // A window at its position's width, as core sizes it (the stand-in does not); one without keeps the page's sizes.
    const width = (app.options as any).position?.width;
    if (el && !tracker && typeof width === 'number') {
      el.style.width = `${width}px`;
      el.dataset.previewSized = '';
    }
    if (el && !tracker && !el.isConnected) document.getElementById('preview-windows')?.append(el);
    // A DialogV2 shown: whatever opened it now waits for the user's answer (the page stops waiting for it: dialogShown).
    if (app instanceof DialogV2 && !shownDialogs.has(app)) {
      shownDialogs.add(app);
      lastDialog = app;
      dialogsShown++;
      for (const wake of dialogWaiters.splice(0)) wake();
    }
    showWindows();
    return app;
  });
} as typeof realRender;

/** The viewer key of a client. */
function viewerOfClient(client: unknown): ViewerKey {
  return VIEWERS.find((k) => foundry && (client as { id?: string } | null)?.id === userOf(k).id) ?? 'gm';
}

/** Only the shown client's windows are visible. */
function showWindows(): void {
  for (const el of Array.from(document.getElementById('preview-windows')?.children ?? []) as HTMLElement[]) el.hidden = (el.dataset.previewViewer ?? 'gm') !== viewer;
}

/*
 * What an application's action or form handler started (the stand-in does not
 * return it): the page waits for it before drawing. Core's click dispatch is
 * the stand-in's; this only keeps the promise.
 */
let inFlight: Promise<unknown> | null = null;

/*
 * A GM control that asks something (a DialogV2: the casting broken, the dice
 * typed, the distance…) waits for the answer: the page must not wait for it,
 * or the dialog could never be pressed. The work that opened a dialog is
 * parked on it; once that dialog is gone (pressed or closed) the next action
 * waits for the parked work too, up to its end or the next dialog it opens.
 */
const shownDialogs = new WeakSet<ApplicationV2>();
let dialogsShown = 0;
let lastDialog: ApplicationV2 | null = null;
const dialogWaiters: (() => void)[] = [];
const parked = new Map<ApplicationV2, Promise<unknown>>();
/** Resolves once a DialogV2 has been shown after `mark` (dialogsShown when the action began). */
function dialogShownSince(mark: number): Promise<void> {
  return dialogsShown > mark ? Promise.resolve() : new Promise((wake) => dialogWaiters.push(wake));
}
/** Wait for an action's work, and for the work parked on dialogs now closed, until it ends or asks through a new dialog. */
async function finish(work: Promise<unknown> | null, mark: number): Promise<void> {
  const pending = work ? [work] : [];
  for (const [dialog, w] of parked) {
    if (dialog.rendered) continue;
    parked.delete(dialog);
    pending.push(w);
  }
  if (!pending.length) return;
  const all = Promise.all(pending);
  const asked = await Promise.race([all.then(() => false), dialogShownSince(mark).then(() => true)]);
  if (asked && lastDialog?.rendered) parked.set(lastDialog, all);
}
const proto = ApplicationV2.prototype as any;
const realClick = proto.onClickAction;
proto.onClickAction = function (this: any, event: Event) {
  const target = (event.target as Element | null)?.closest?.('[data-action]') as HTMLElement | null;
  const handler = target ? this.options.actions?.[target.dataset.action as string] : undefined;
  if (!handler) return realClick.call(this, event);
  const fn = typeof handler === 'object' ? handler.handler : handler;
  const buttons = typeof handler === 'object' ? (handler.buttons ?? [0]) : [0];
  if (!buttons.includes((event as MouseEvent).button ?? 0) || !this.element?.contains(target)) return;
  try {
    inFlight = Promise.resolve(fn?.call(this, event, target)).catch((err: unknown) => console.error(err));
  } catch (err) {
    console.error(err);
  }
};

/*
 * A sheet's form sent (its change with submitOnChange, or its submit): the
 * stand-in's own listeners call _onSubmitForm (core's path); the page runs it
 * as the shown client and is busy until it has settled and drawn.
 */
const realSubmit = proto._onSubmitForm;
proto._onSubmitForm = function (this: any, formConfig: unknown, event: Event) {
  if (!this.element?.classList.contains('sheet')) return realSubmit.call(this, formConfig, event);
  let run: Promise<unknown> = Promise.resolve();
  void busy(() =>
    asShownViewer(() => {
      run = realSubmit.call(this, formConfig, event);
      inFlight = run.catch((err: unknown) => console.error(err));
    }),
  );
  return run;
};

let foundry: FoundryHandle;
let world: PreviewWorld;
let sheetDocs: SheetDocs;
let sheetKey: SheetKey | null = (SHEETS as readonly string[]).includes(query.get('sheet') ?? '') ? (query.get('sheet') as SheetKey) : null;
/** The sheet application drawn in #preview-sheet (closed when another is shown). */
let shownSheet: any = null;
/** How many notifications the shown client had when the last action began: the ones after it are drawn. */
let notesMark = 0;
const showMap = query.get('map') === '1';
const scenario = query.get('scenario');
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

/** The chat log of the shown client: every message it may see, newest last, each passed to the system's renderChatMessageHTML hook as core does (the card's Undo wired, or removed for a player). */
function drawChat(): void {
  const c = clientOf(viewer);
  const user = c.user;
  const log = $('chat-log');
  const items: HTMLElement[] = [];
  for (const m of c.game.messages.contents as any[]) {
    const whisper: string[] = m.whisper ?? [];
    const mine = m.author?.id === user.id;
    if (whisper.length && !whisper.includes(user.id) && !mine && !user.isGM) continue;
    const hidden = m.blind && !user.isGM;
    const kind = m.flags?.['ten-segments']?.kind ?? '';
    const li = document.createElement('li');
    li.className = 'chat-message message';
    li.dataset.messageId = m.id;
    li.dataset.cardKind = kind;
    li.innerHTML =
      `<header class="message-header"><span class="message-sender">${m.speaker?.alias ?? m.author?.name ?? ''}</span>` +
      (whisper.length ? `<span class="whisper-to">(whisper)</span>` : '') +
      `</header>` +
      (m.flavor ? `<span class="flavor-text">${m.flavor}</span>` : '') +
      `<div class="message-content">${hidden ? '???' : (m.content ?? '')}</div>`;
    foundry.setUser(userOf(viewer));
    try {
      g.Hooks.callAll('renderChatMessageHTML', m, li, {});
    } finally {
      foundry.setUser(foundry.users.gm);
    }
    items.push(li);
  }
  const had = log.children.length;
  log.replaceChildren(...items);
  // Core's chat log follows the newest message (ChatLog#scrollBottom when one is posted): the scrolling box is #chat.
  const box = $('chat');
  if (items.length !== had || box.dataset.previewScrolled === undefined) {
    box.scrollTop = box.scrollHeight;
    box.dataset.previewScrolled = '';
  }
}

/** Draw the shown client's screens: its tracker in the sidebar, the popped-out copy, the chat. */
async function draw(): Promise<void> {
  const c = clientOf(viewer);
  const tracker = c.ui.combat;
  await asBase(viewer, async () => {
    await realRender.call(tracker, { combat: c.game.combats.get(world.combat.id), force: true });
    const popout = await tracker.renderPopout();
    mount($('preview-popout'), popout.element);
    for (const app of [tracker, popout]) if (app.element) appOf.set(app.element, app);
    // What the system's updateCombat hook does on this client after an import() (addict: the called player's dialog
    // opens by itself): in a browser that continuation ran as the GM's client, so the page does it as this client.
    if (viewer !== 'gm') await onDeclaringChanged(c.game.combats.get(world.combat.id));
    // The shown client's other windows (a dialog opened by a call, re-rendered by its hooks) drawn now, as that client.
    for (const app of [...deferred]) {
      if (app.client !== baseEndpoint.resolve()) continue;
      deferred.delete(app);
      if (app === tracker || (app as any).isPopout) continue;
      await realRender.call(app, { force: true }).then((a) => {
        const el = a.element;
        if (!el) return;
        appOf.set(el, a);
        el.dataset.previewViewer = viewer;
        if (!el.isConnected) $('preview-windows').append(el);
      });
    }
  });
  showWindows();
  mount($('preview-sidebar-combat'), tracker.element);
  drawMapView();
  await drawSheet();
  drawNotifications();
  drawChat();
  $('preview-status').textContent = statusText();
}

/** The viewed scene on the GM's client (every client holds the same documents once settled). */
function viewedScene(): any {
  return foundry ? clientOf('gm').game.scenes.viewed : null;
}

/** The map (?map=1) in #preview-map, in place of the popped-out tracker. */
function drawMapView(): void {
  const slot = $('preview-map');
  slot.hidden = !showMap;
  document.body.dataset.map = showMap ? '1' : '';
  if (!showMap) return;
  drawMap(slot, viewedScene());
}

/** The document of the shown sheet on the shown client. */
function sheetDocument(key: SheetKey): any {
  const doc = sheetDocs[key];
  const game = clientOf(viewer).game;
  return (doc.documentName === 'Actor' ? game.actors : game.items).get(doc.id);
}

/** The shown sheet (?sheet=…) in #preview-sheet, rendered on the shown client when it is not yet; a client that may not see the document is told so. */
async function drawSheet(): Promise<void> {
  const slot = $('preview-sheet');
  document.body.dataset.sheet = sheetKey ?? '';
  slot.hidden = !sheetKey;
  $('preview-popout').hidden = !!sheetKey || showMap;
  if (!sheetKey) {
    if (shownSheet) await shownSheet.close();
    shownSheet = null;
    slot.replaceChildren();
    return;
  }
  const doc = sheetDocument(sheetKey);
  const sheet = doc.sheet;
  if (shownSheet && shownSheet !== sheet) await shownSheet.close();
  shownSheet = sheet;
  await asBase(viewer, async () => {
    if (!sheet.isVisible) {
      const p = document.createElement('p');
      p.className = 'preview-refused';
      p.textContent = `${userOf(viewer).name} may not see ${doc.name}.`;
      slot.replaceChildren(p);
      return;
    }
    if (!sheet.rendered || sheet.element?.parentElement !== slot) {
      // The sheet's own render (DocumentSheetV2's: registered in document.apps, so an update renders it again).
      await sheet.render({ force: true });
      appOf.set(sheet.element, sheet);
      sheet.element.dataset.previewViewer = viewer;
      mount(slot, sheet.element);
    }
    // Core's frame shows the sheet's title (the stand-in's frame takes options.window.title only).
    const title = sheet.element.querySelector(':scope > .window-header > .window-title');
    if (title) title.textContent = sheet.title;
  });
}

/** The shown client's notifications since the last action began (core shows them over the board). */
function drawNotifications(): void {
  const shown: { type: string; message: string }[] = clientOf(viewer).notifications;
  $('preview-notifications').replaceChildren(
    ...shown.slice(notesMark).map((n) => {
      const li = document.createElement('li');
      li.className = `notification ${n.type}`;
      li.textContent = n.message;
      return li;
    }),
  );
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
  if (foundry) notesMark = clientOf(viewer).notifications.length;
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
  // A card posted by work the page does not wait for (a hook's request after a write): the chat drawn again when it arrives.
  g.Hooks.on('createChatMessage', () => queueMicrotask(() => drawChat()));
  // The map follows the tokens: drawn again on the GM's client's every token created, moved or removed.
  if (showMap) for (const hook of ['createToken', 'updateToken', 'deleteToken']) g.Hooks.on(hook, () => queueMicrotask(() => drawMapView()));
  const procedure = (query.get('procedure') ?? 'segment-d6') as ProcedureId;
  const n = Math.max(4, Number(query.get('n') ?? 4) || 4);
  // ?scenario=charge (with ?map=1&procedure=addict): chargers crossing the map, started and planned (preview/world.ts).
  const charge = showMap && scenario === 'charge';
  world = await buildWorld(foundry, procedure, n, { start: query.get('start') !== 'dialog' && !charge, map: showMap });
  if (charge) await chargeScenario(foundry, world);
  sheetDocs = await buildSheetDocs(foundry);
  await settle();
  const steps = Number(query.get('steps') ?? 0) || 0;
  for (let i = 0; i < steps; i++) {
    await next();
    await settle();
  }
  notesMark = clientOf(viewer).notifications.length;
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
      notesMark = clientOf(key).notifications.length;
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
  get sheet() {
    return sheetKey;
  },
  get sheetDocs() {
    return sheetDocs;
  },
  showSheet: (key) =>
    busy(async () => {
      sheetKey = key;
      ($('preview-sheet-select') as HTMLSelectElement).value = key ?? '';
      const url = new URL(location.href);
      if (key) url.searchParams.set('sheet', key);
      else url.searchParams.delete('sheet');
      history.replaceState(null, '', url);
    }),
  setClock: (ms) =>
    busy(async () => {
      setClock(ms === null ? undefined : () => ms);
      // The open dialogs show the clock as it now reads: drawn again (their ticker follows the same clock).
      for (const el of Array.from($('preview-windows').children)) {
        const app = appOf.get(el);
        if (app) deferred.add(app);
      }
    }),
  callInTurn: (roll) =>
    busy(async () => {
      if (roll !== undefined) foundry.dice.push(roll);
      await startDeclaringInTurn(world.combat);
    }),
  async attack(attackerId, targetId, dice = []) {
    let answer: unknown;
    await busy(async () => {
      if (dice.length) foundry.dice.push(...dice);
      answer = await g.game.tenSegments.attack(attackerId, targetId);
    });
    return answer;
  },
  map: showMap,
  tokens: () => mapTokens(viewedScene()),
  declareAll: () => busy(() => declareAll(world)),
  async run(fn) {
    let out: unknown;
    await busy(async () => {
      out = await fn(api);
    });
    return out;
  },
};
g.tenPreview = api;

addEventListener('error', (e) => api.errors.push(String(e.message)));
addEventListener('unhandledrejection', (e) => api.errors.push(String(e.reason?.stack ?? e.reason)));

setTheme(query.get('theme') === 'light' ? 'light' : 'dark');
document.body.dataset.viewer = viewer;
document.body.dataset.previewState = 'busy';
($('preview-viewer') as HTMLSelectElement).value = viewer;
($('preview-sheet-select') as HTMLSelectElement).value = sheetKey ?? '';
/*
 * A click on an action of an application (the tracker's own buttons, a
 * dialog's), or a dialog's form sent: busy until what it started has
 * settled and the page has drawn again. On a player's screen it runs as that
 * player: the network is held while the player's client works, up to its
 * first message (a request to the GM) or its end; then the GM's client is
 * the base again, and the messages go (one client's work at a time).
 */
async function asShownViewer(start: () => void): Promise<void> {
  const mark = dialogsShown;
  if (viewer === 'gm') {
    start();
    const work = inFlight;
    inFlight = null;
    await settle();
    await finish(work, mark);
    return;
  }
  const user = userOf(viewer);
  foundry.network.hold();
  foundry.setUser(user);
  let work: Promise<unknown> | null = null;
  try {
    start();
    work = inFlight;
    inFlight = null;
    let done = false;
    void work?.finally(() => (done = true));
    if (!work) done = true;
    // Turns of the event loop (never a time): until the player's work has ended or waits on the network.
    for (let i = 0; i < 1000 && !done && dialogsShown === mark && !foundry.network.pending.some((m: any) => m.from === user.id); i++) await new Promise((r) => setTimeout(r, 0));
  } finally {
    foundry.setUser(foundry.users.gm);
    foundry.network.release();
  }
  await settle();
  await finish(work, mark);
}

for (const slot of ['preview-sidebar-combat', 'preview-popout', 'preview-windows', 'preview-sheet']) {
  $(slot).addEventListener(
    'click',
    (e) => {
      if (!(e.target as Element).closest?.('[data-action]')) return;
      e.stopPropagation();
      if (document.body.dataset.previewState === 'busy') return;
      const target = e.target as HTMLElement;
      const app = [...(function* () {
        for (let el: Element | null = target; el; el = el.parentElement) yield el;
      })()].map((el) => appOf.get(el)).find(Boolean) as any;
      // A dialog's button submits its form by default: core's button action prevents that (DialogV2._onClickButton).
      if (app instanceof DialogV2) e.preventDefault();
      document.body.dataset.previewState = 'busy';
      const again = new MouseEvent('click', { bubbles: false, button: (e as MouseEvent).button });
      Object.defineProperty(again, 'target', { value: target });
      void busy(() => asShownViewer(() => app?.onClickAction(again)));
    },
    { capture: true },
  );
}
// A button of a chat card (the interruption's Undo): the page waits for what it started, then draws.
$('chat-log').addEventListener(
  'click',
  (e) => {
    if (!(e.target as Element).closest?.('button[data-action]')) return;
    document.body.dataset.previewState = 'busy';
    setTimeout(() => void busy(async () => undefined), 0);
  },
  { capture: true },
);
// A dialog's form: its handler with the form's values (core's FormDataExtended object), never the browser's submission.
$('preview-windows').addEventListener(
  'submit',
  (e) => {
    e.preventDefault();
    e.stopPropagation();
    const form = e.target as HTMLFormElement;
    // A DialogV2's form sent from the keyboard (Enter in a field): core submits it with the default button.
    const dialog = appOf.get(form.closest('dialog.application') ?? form);
    if (dialog instanceof DialogV2) {
      const submitter = (e as SubmitEvent).submitter ?? form.querySelector('button[autofocus]') ?? form.querySelector('button');
      document.body.dataset.previewState = 'busy';
      void busy(() =>
        asShownViewer(() => {
          inFlight = dialog._onSubmit(submitter, e).catch((err: unknown) => console.error(err));
        }),
      );
      return;
    }
    const app = appOf.get(form) as any;
    const handler = app?.options?.form?.handler;
    if (!handler) return;
    const object: Record<string, unknown> = {};
    for (const el of Array.from(form.elements) as HTMLInputElement[]) {
      if (!el.name) continue;
      if (el.type === 'checkbox') object[el.name] = el.checked;
      else if (el.type === 'number') object[el.name] = el.value === '' ? null : Number(el.value);
      else object[el.name] = el.value;
    }
    document.body.dataset.previewState = 'busy';
    void busy(() =>
      asShownViewer(() => {
        inFlight = Promise.resolve(handler.call(app, e, form, { object })).catch((err: unknown) => console.error(err));
      }),
    );
  },
  { capture: true },
);
/*
 * Escape. In a DialogV2 its own key handler closes it (core's _onKeyDown, which stops the key there): the page only
 * waits for what the dialog's answer lets go on. Elsewhere it is core's dismiss key (core.dismiss,
 * ClientKeybindings._onDismiss): every open window closes — here the shown client's windows over the page; the
 * popped-out tracker and the sheet are the page's own fixtures and stay.
 */
document.addEventListener(
  'keydown',
  (e) => {
    if (e.key !== 'Escape' || document.body.dataset.previewState === 'busy') return;
    const inDialog = appOf.get((e.target as Element | null)?.closest?.('dialog.application') as Element);
    if (!(inDialog instanceof DialogV2)) return;
    document.body.dataset.previewState = 'busy';
    setTimeout(() => void busy(() => finish(null, dialogsShown)), 0);
  },
  { capture: true },
);
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented || document.body.dataset.previewState === 'busy') return;
  const open = (Array.from($('preview-windows').children) as HTMLElement[]).filter((el) => !el.hidden).map((el) => appOf.get(el)).filter((app): app is ApplicationV2 => !!app?.rendered);
  if (!open.length) return;
  e.preventDefault();
  document.body.dataset.previewState = 'busy';
  void busy(() =>
    asShownViewer(() => {
      inFlight = Promise.all(open.map((app) => app.close()));
    }),
  );
});
$('preview-next').addEventListener('click', () => void api.next());
// Before the start (?start=dialog): the tracker's own "roll surprise" action (the surprise dialog), for as long as the tracker draws no button for it.
$('preview-surprise').hidden = query.get('start') !== 'dialog';
$('preview-surprise').addEventListener('click', () => {
  document.body.dataset.previewState = 'busy';
  void busy(() =>
    asShownViewer(() => {
      const tracker = clientOf(viewer).ui.combat;
      inFlight = Promise.resolve(tracker.options.actions.rollSurprise.call(tracker, new MouseEvent('click'), $('preview-surprise'))).catch((err: unknown) => console.error(err));
    }),
  );
});
$('preview-previous').addEventListener('click', () => void api.previous());
$('preview-sheet-select').addEventListener('change', (e) => void api.showSheet(((e.target as HTMLSelectElement).value || null) as SheetKey | null));
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
