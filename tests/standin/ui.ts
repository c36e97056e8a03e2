/**
 * The UI pieces the system touches: notifications (recorded), a minimal
 * ApplicationV2 whose render prepares its context (and, for a Handlebars
 * application, each part's context and HTML) and is counted — with a DOM
 * (the preview page) also its element and its click actions, as core's —, the
 * CombatTracker (ui.combat) with core's parts and part context, and context
 * menu entries in the shape of the running generation.
 */
import Handlebars from 'handlebars';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolvePath(dirname(fileURLToPath(import.meta.url)), '../..');
/* eslint-disable @typescript-eslint/no-explicit-any */
import { DOCUMENT_OWNERSHIP_LEVELS } from './constants';
import { currentEndpoint, deprecate, recordRender, state, type Endpoint } from './state';
import { deepClone, escapeHTML, getProperty, mergeObject, randomID } from './utils';
import { FormDataExtended, parseHTML, renderedForm } from './html';
import { systemPackage } from './package';
import type {
  MenuEntryV13,
  MenuEntryV14,
  TemplatePart,
  TrackerCombatContextV13,
  TrackerCombatContextV14,
  TrackerParts,
  TrackerPartContextV13,
  TrackerPartContextV14,
  TrackerRenderOptions,
  TrackerTurnContext,
} from './shapes';

export type { MenuEntryV13, MenuEntryV14 } from './shapes';

const i18n = () => (globalThis as any).game?.i18n;

/** ui.notifications of one client: what it showed, recorded in `shown`. */
export class Notifications {
  readonly shown: { type: 'info' | 'warn' | 'error'; message: string }[] = [];
  notify(message: unknown, type: 'info' | 'warn' | 'error' | 'success' = 'info', { localize = false, format }: { localize?: boolean; format?: Record<string, unknown> } = {}) {
    let text = message instanceof Error ? message.message : String(message);
    if (localize) text = format ? i18n().format(text, format) : i18n().localize(text);
    this.shown.push({ type: type === 'success' ? 'info' : type, message: text });
    return { id: this.shown.length, message: text, type };
  }
  info(message: unknown, options?: any) {
    return this.notify(message, 'info', options);
  }
  success(message: unknown, options?: any) {
    return this.notify(message, 'success', options);
  }
  warn(message: unknown, options?: any) {
    return this.notify(message, 'warn', options);
  }
  error(message: unknown, options?: any) {
    return this.notify(message, 'error', options);
  }
}

/** A tab group as a class declares it in TABS (what the stand-in reads of it; contracts.ts holds it to the typings). */
export interface TabsConfig {
  tabs: { id: string; icon?: string | null; label?: string | null; cssClass?: string }[];
  initial?: string | null;
  labelPrefix?: string | null;
}

/** Core's `tab` action (v13 ApplicationV2 #onClickTab): the link's tab of its group, unless already active. */
function onClickTab(this: ApplicationV2, event: Event, target: HTMLElement): void {
  const tab = target.dataset.tab;
  if (!tab || target.classList?.contains('active')) return;
  this.changeTab(tab, target.dataset.group as string, { event, navElement: target.closest?.('.tabs') as HTMLElement });
}

const instancesByClient = new WeakMap<Endpoint, Map<string, ApplicationV2>>();
/**
 * `foundry.applications.instances` (v13 and v14: "a registry of currently rendered ApplicationV2 instances",
 * by id): each client's own; an application is in it from its first render until it closes.
 */
export function applicationInstances(endpoint: Endpoint = currentEndpoint()): Map<string, ApplicationV2> {
  let map = instancesByClient.get(endpoint);
  if (!map) instancesByClient.set(endpoint, (map = new Map()));
  return map;
}

/** Core's `close` action (v13/v14 ApplicationV2 #onClose): the frame's close control closes the application. */
function onClickClose(this: ApplicationV2, event: Event): Promise<ApplicationV2> {
  event.preventDefault?.();
  return this.close();
}

/** ApplicationV2 subset: options merged from DEFAULT_OPTIONS up the class chain; render runs _prepareContext and is counted. */
export class ApplicationV2 {
  /** Core's (v13 ApplicationV2.DEFAULT_OPTIONS.actions): the `tab` action of a tab navigation link, the `close` action of the frame's close control. */
  static DEFAULT_OPTIONS: Record<string, any> = { actions: { tab: onClickTab, close: onClickClose } };
  /**
   * Core's ApplicationV2 is an event emitter (EventEmitterMixin, v13/v14): it dispatches `render` after each
   * render and `close` when it closes (DialogV2.wait listens to both). The stand-in keeps the listeners here.
   */
  #listeners = new Map<string, { fn: (event: any) => unknown; once: boolean }[]>();
  addEventListener(type: string, fn: (event: any) => unknown, { once = false }: { once?: boolean } = {}): void {
    const list = this.#listeners.get(type) ?? [];
    list.push({ fn, once });
    this.#listeners.set(type, list);
  }
  removeEventListener(type: string, fn: (event: any) => unknown): void {
    this.#listeners.set(
      type,
      (this.#listeners.get(type) ?? []).filter((l) => l.fn !== fn),
    );
  }
  dispatchEvent(event: { type: string }): boolean {
    const list = this.#listeners.get(event.type) ?? [];
    this.#listeners.set(
      event.type,
      list.filter((l) => !l.once),
    );
    for (const l of list) l.fn.call(this, event);
    return true;
  }
  /** Core's tab groups (v13): group → {tabs: [{id, icon?, label?, cssClass?}], initial?, labelPrefix?}. */
  static TABS: Record<string, TabsConfig> = {};
  /** The active tab of each group (core: tabGroups). */
  tabGroups: Record<string, string | null> = {};
  options: any;
  rendered = false;
  renderCount = 0;
  lastContext: any = undefined;
  /** The client this application runs on (its renders are recorded there). */
  declare readonly client: Endpoint;
  constructor(options: any = {}) {
    Object.defineProperty(this, 'client', { value: currentEndpoint(), enumerable: false });
    const chain: any[] = [];
    for (let c: any = this.constructor; c && c !== Object; c = Object.getPrototypeOf(c)) chain.unshift(c);
    const defaults = chain.reduce((acc, c) => (Object.hasOwn(c, 'DEFAULT_OPTIONS') ? mergeObject(acc, deepClone(c.DEFAULT_OPTIONS)) : acc), {});
    this.options = mergeObject(defaults, options, { inplace: false });
    // Core concatenates the `classes` arrays up the class chain and the options' own (ApplicationV2#_initializeApplicationOptions).
    this.options.classes = [...new Set([...chain.flatMap((c) => (Object.hasOwn(c, 'DEFAULT_OPTIONS') ? (c.DEFAULT_OPTIONS.classes ?? []) : [])), ...(options.classes ?? [])])];
    this.options.id ??= `app-${randomID(8)}`;
  }
  get id(): string {
    return this.options.id;
  }
  /**
   * The application's HTML element once rendered in a DOM (core's frame: a
   * `tag` element with the app's id and the `application` class, the
   * options' classes, and each part a child with data-application-part);
   * null without a DOM (Node) or before the first render.
   */
  #element: HTMLElement | null = null;
  get element(): HTMLElement | null {
    return this.#element;
  }
  /** The element the parts go into: the element itself without a frame, its `.window-content` with one. */
  protected contentElement(): HTMLElement | null {
    const el = this.#element;
    if (!el) return null;
    return this.options.window?.frame === false ? el : (el.querySelector(':scope > .window-content') as HTMLElement | null);
  }
  /** Core's frame (ApplicationV2#_renderFrame), built once: the click listener dispatches `[data-action]` to options.actions as core does. */
  protected ensureFrame(): HTMLElement | null {
    if (this.#element || typeof document === 'undefined') return this.#element;
    const el: HTMLElement = document.createElement(String(this.options.tag ?? 'div'));
    el.id = this.id;
    el.classList.add('application', ...(this.options.classes ?? []));
    if (this.options.window?.frame !== false) {
      const header = document.createElement('header');
      header.className = 'window-header';
      const title = document.createElement('h1');
      title.className = 'window-title';
      const raw = this.options.window?.title ?? '';
      title.textContent = raw ? (i18n()?.localize(raw) ?? raw) : '';
      // Core's frame (v13/v14 ApplicationV2#_renderFrame): the header ends with the close control (data-action="close").
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'header-control icon fa-solid fa-xmark';
      close.dataset.action = 'close';
      const closeLabel = i18n()?.localize('APPLICATION.TOOLS.Close') ?? 'Close';
      close.dataset.tooltip = closeLabel;
      close.setAttribute('aria-label', closeLabel);
      header.append(title, close);
      const content = document.createElement(this.options.window?.contentTag ?? 'section');
      content.className = 'window-content';
      el.append(header, content);
    }
    el.addEventListener('click', (event: Event) => this.onClickAction(event));
    // Core's form handling (v13 ApplicationV2#_renderFrame): a `form` element with options.form submits through _onSubmitForm, and changes through _onChangeForm.
    if (el instanceof HTMLFormElement && this.options.form) {
      el.addEventListener('submit', (event) => void this._onSubmitForm(this.options.form, event));
      el.addEventListener('change', (event) => this._onChangeForm(this.options.form, event));
    }
    this.#element = el;
    return el;
  }
  /**
   * Core's click dispatch (ApplicationV2 #onClick / #onClickAction, v13): the
   * closest `[data-action]` to the click; options.actions[name] (a function,
   * or {handler, buttons}) called with the application as `this` and
   * (event, target) when the mouse button is one it accepts (default: the
   * main button); an action with no handler goes to _onClickAction.
   */
  private onClickAction(event: Event): void {
    const target = (event.target as Element | null)?.closest?.('[data-action]') as HTMLElement | null;
    if (!target || !this.#element?.contains(target)) return;
    const name = target.dataset.action as string;
    let handler = this.options.actions?.[name];
    if (!handler) {
      this._onClickAction(event, target);
      return;
    }
    let buttons = [0];
    if (typeof handler === 'object') {
      buttons = handler.buttons ?? [0];
      handler = handler.handler;
    }
    if (buttons.includes((event as MouseEvent).button ?? 0)) {
      const result = handler?.call(this, event, target);
      if (result instanceof Promise) result.catch((err: unknown) => console.error(err));
    }
  }
  /**
   * Core's _onSubmitForm (v13 ApplicationV2): the form's data (FormDataExtended) to the handler; an error
   * becomes `ui.notifications.error` and the application stays open; closeOnSubmit closes it after.
   */
  async _onSubmitForm(formConfig: any, event: any): Promise<void> {
    event.preventDefault?.();
    const form = event.currentTarget;
    const { handler, closeOnSubmit } = formConfig ?? {};
    const formData = new FormDataExtended(form);
    if (handler instanceof Function) {
      try {
        await handler.call(this, event, form, formData);
      } catch (err) {
        (globalThis as any).ui.notifications.error(err, { console: true });
        return;
      }
    }
    if (closeOnSubmit) await this.close({ submitted: true });
  }
  /** Core's _onChangeForm: submits on change when `submitOnChange`, while rendered. */
  _onChangeForm(formConfig: any, event: any): void {
    if (formConfig?.submitOnChange && this.rendered) void this._onSubmitForm(formConfig, event);
  }
  /** Core's submit (v13 ApplicationV2#submit): the handler with the form's data and `options` (e.g. {updateData}); errors reach the caller. */
  async submit(options: any = {}): Promise<void> {
    const formConfig = this.options.form;
    if (!formConfig?.handler) throw new Error(`The ${this.constructor.name} DOM element is not a form or has no form handler`);
    const form = this.#element ?? renderedForm(this);
    const event = { type: 'submit', currentTarget: form, target: form, preventDefault() {} };
    await formConfig.handler.call(this, event, form, new FormDataExtended(form), options);
    if (formConfig.closeOnSubmit) await this.close({ submitted: true });
  }
  /** Core's fallback for an action with no handler in options.actions: nothing. */
  _onClickAction(_event: Event, _target: HTMLElement): void {}
  /** Each call counts at once in handle.renders under this app's id; then, after the renders asked before it, the context is prepared and the HTML rendered. */
  /** Renders one at a time, in the order asked, as core's (ApplicationV2 renders through a Semaphore of one). */
  #renders: Promise<unknown> = Promise.resolve();
  render(options: any = {}, _legacy?: any): Promise<this> {
    if (typeof options === 'boolean') options = { force: options, ...(_legacy ?? {}) };
    this.renderCount++;
    recordRender(this.id, options, this.client);
    const run = this.#renders.then(() => this.renderNow(options));
    this.#renders = run.catch(() => undefined);
    return run;
  }
  /** Resolves once the renders asked so far have finished (the stand-in's: what a user sees has settled). */
  renderSettled(): Promise<unknown> {
    return this.#renders;
  }
  private async renderNow(given: any): Promise<this> {
    // Core populates `isFirstRender` (v13/v14 RenderOptions: "Is this render the first one for the application?"): not rendered yet, or closed since.
    const options = { ...given, isFirstRender: !this.rendered };
    // Core (v13 ApplicationV2#render): a _canRender that throws refuses the render with a warning; false refuses it silently.
    try {
      if (this._canRender(options) === false) return this;
    } catch (err) {
      (globalThis as any).ui?.notifications?.warn((err as Error).message);
      return this;
    }
    // The render option `tab`: a tab id (the first group) or {group: tab}, set before the context is prepared.
    if (options.tab) {
      const first = Object.keys((this.constructor as typeof ApplicationV2).TABS)[0];
      if (typeof options.tab !== 'string') Object.assign(this.tabGroups, options.tab);
      else if (first) this.tabGroups[first] = options.tab;
    }
    // Core's registry of rendered applications (foundry.applications.instances), the running client's.
    applicationInstances(this.client).set(this.id, this);
    this.lastContext = await this._prepareContext(options);
    const result = await this._renderHTML(this.lastContext, options);
    const frame = this.ensureFrame();
    if (frame) this._replaceHTML(result, this.contentElement() ?? frame, options);
    this.rendered = true;
    // Core (v13 ApplicationV2#render): _onFirstRender after the first render's HTML is in place, then _onRender (every render).
    if (options.isFirstRender) await this._onFirstRender(this.lastContext, options);
    await this._onRender(this.lastContext, options);
    this.dispatchEvent(makeEvent('render'));
    return this;
  }
  /** Core's render check: return false (or throw) to refuse a render. */
  _canRender(_options: any): boolean | void {}
  /** Core's: `tabs` of the one tab group when the class declares exactly one. */
  async _prepareContext(_options: any): Promise<any> {
    const groups = Object.keys((this.constructor as typeof ApplicationV2).TABS ?? {});
    return groups.length === 1 ? { tabs: this._prepareTabs(groups[0]) } : {};
  }
  /** Core's (v13): the group's config, or null. */
  _getTabsConfig(group: string): (typeof ApplicationV2.TABS)[string] | null {
    return (this.constructor as typeof ApplicationV2).TABS[group] ?? null;
  }
  /** Core's (v13): each tab of the group {id, group, active, cssClass, icon, label}; the group's tab defaults to `initial`. */
  _prepareTabs(group: string): Record<string, any> {
    const { tabs, labelPrefix, initial = null } = this._getTabsConfig(group) ?? { tabs: [] as any[] };
    this.tabGroups[group] ??= initial;
    const prepared: Record<string, any> = {};
    for (const { id, cssClass, ...config } of tabs) {
      const active = this.tabGroups[group] === id;
      const tab: any = { group, id, active, cssClass: [cssClass, active ? 'active' : null].filter(Boolean).join(' '), ...config };
      if (labelPrefix) tab.label ??= `${labelPrefix}.${id}`;
      prepared[id] = tab;
    }
    return prepared;
  }
  /**
   * Core's changeTab (v13): both ids required; no change when already active (unless force); the tab's
   * navigation element must exist (with a DOM: in the element; in Node: in the rendered parts' HTML),
   * else an error. With a DOM the nav links and the `.tab[data-group]` sections toggle `active`. No render.
   */
  changeTab(tab: string, group: string, { force = false }: { event?: Event; navElement?: HTMLElement; force?: boolean; updatePosition?: boolean } = {}): void {
    if (!tab || !group) throw new Error('You must pass both the tab and tab group identifier');
    if (this.tabGroups[group] === tab && !force) return;
    const el = this.#element;
    if (el) {
      const link = el.querySelector(`.tabs > [data-group="${group}"][data-tab="${tab}"]`);
      if (!link) throw new Error(`No matching tab element found for group "${group}" and tab "${tab}"`);
      for (const t of el.querySelectorAll(`.tabs > [data-group="${group}"]`)) t.classList.toggle('active', (t as HTMLElement).dataset.tab === tab);
      for (const t of el.querySelectorAll(`.tab[data-group="${group}"]`)) t.classList.toggle('active', (t as HTMLElement).dataset.tab === tab);
    } else {
      const html = Object.values((this as any).partHTML ?? {}).join('');
      const found = parseHTML(html).find((n) => n.attrs['data-group'] === group && n.attrs['data-tab'] === tab && n.parent?.classes().includes('tabs'));
      if (!found) throw new Error(`No matching tab element found for group "${group}" and tab "${tab}"`);
    }
    this.tabGroups[group] = tab;
  }
  /** Core renders the HTML here; a plain ApplicationV2 renders none (HandlebarsApplicationMixin renders its parts). */
  async _renderHTML(_context: any, _options: any): Promise<unknown> {
    return undefined;
  }
  /** Core puts the rendered HTML into the element here (in a DOM only). */
  _replaceHTML(_result: unknown, _content: HTMLElement, _options: any): void {}
  /** Core's hook after the first render only (again after a close): where core's applications build their context menus. */
  async _onFirstRender(_context: any, _options: any): Promise<void> {}
  /** Core's hook after each render (the element is in place when there is a DOM). */
  async _onRender(_context: any, _options: any): Promise<void> {}
  /** The context menus `_createContextMenu` made since the application was (re)opened (the stand-in's, for tests to open them). */
  readonly contextMenus: ContextMenu[] = [];
  /**
   * Core's _createContextMenu (v13/v14 ApplicationV2): the handler is called
   * **once, now**, with the application as `this`; its entries are the menu's
   * for as long as it lives (nothing calls the handler again on later
   * renders). "Returns a created ContextMenu or null if no menu items were
   * defined": the stand-in returns null for an empty list too (stricter,
   * unconfirmed). The `get…ContextOptions` hooks it fires are not modelled.
   */
  _createContextMenu(handler: () => any[], selector: string, { container, hookName: _hookName, parentClassHooks: _parentClassHooks, ...options }: Record<string, any> = {}): ContextMenu | null {
    const items = handler.call(this);
    if (!Array.isArray(items) || items.length === 0) return null;
    const menu = new ContextMenu(container ?? this.element, selector, items, { jQuery: false, ...options });
    this.contextMenus.push(menu);
    return menu;
  }
  /** Closed: not rendered; with a DOM its element is removed (core removes it; a later render builds a new one). */
  async close(_options: any = {}): Promise<this> {
    const was = this.rendered;
    this.rendered = false;
    // Its menus were bound to the element core removes; the next (first) render builds new ones.
    this.contextMenus.length = 0;
    if (applicationInstances(this.client).get(this.id) === this) applicationInstances(this.client).delete(this.id);
    this.#element?.remove();
    this.#element = null;
    // Core dispatches `close` once the application has closed (a closed one closing again: nothing).
    if (was) this.dispatchEvent(makeEvent('close'));
    return this;
  }
}

/** An Event where the runtime has one (browsers, Node 18+), else its shape. */
function makeEvent(type: string): { type: string } {
  return typeof Event === 'function' ? new Event(type) : { type };
}

export function HandlebarsApplicationMixin<T extends new (...args: any[]) => ApplicationV2>(Base: T) {
  return class HandlebarsApplication extends Base {
    static PARTS: Record<string, TemplatePart> = {};
    /** Each part's context of the last render, as core prepares it before rendering the part's template. */
    partContexts: Record<string, any> = {};
    /** Each part's HTML of the last render: its template rendered with its context (in Node too). */
    partHTML: Record<string, string> = {};
    async _preparePartContext(_partId: string, context: any, _options: any): Promise<any> {
      return context;
    }
    /**
     * Every part gets its own copy of the application's context (core may
     * share one object: the copy is the stricter choice), then its template
     * is rendered (renderTemplate: a missing template or helper is an error).
     * In a DOM each part must render exactly one element, as core requires.
     */
    override async _renderHTML(context: any, options: any): Promise<Record<string, any>> {
      const parts: Record<string, TemplatePart> = (this.constructor as any).PARTS ?? {};
      const prepared: Record<string, any> = {};
      const html: Record<string, string> = {};
      for (const [partId, part] of Object.entries(parts)) {
        prepared[partId] = await this._preparePartContext(partId, { ...context }, options);
        html[partId] = await templates.renderTemplate(part.template, prepared[partId]);
      }
      this.partContexts = prepared;
      this.partHTML = html;
      return html;
    }
    /** Core's _replaceHTML: each part's one root element, marked data-application-part, replaces the part rendered before. */
    override _replaceHTML(result: Record<string, string>, content: HTMLElement, _options: any): void {
      for (const [partId, markup] of Object.entries(result)) {
        const holder = document.createElement('template');
        holder.innerHTML = markup.trim();
        // As core (v13 HandlebarsApplicationMixin#_renderHTML): exactly one element child, text and comments aside.
        if (holder.content.children.length !== 1) throw new Error(`Template part "${partId}" must render a single HTML element.`);
        const el = holder.content.children[0] as HTMLElement;
        el.dataset.applicationPart = partId;
        const prior = content.querySelector(`:scope > [data-application-part="${partId}"]`);
        if (prior) prior.replaceWith(el);
        else content.append(el);
      }
    }
  };
}

/** The image core shows for a combatant without one (CONST.DEFAULT_TOKEN). */
const DEFAULT_TOKEN = 'icons/svg/mystery-man.svg';

/**
 * ui.combat: counts renders under "combat"; viewing a Combat registers it in
 * combat.apps so updates re-render it. Core's parts (header, tracker,
 * footer) and their context (v13 combat-tracker.mjs: _preparePartContext,
 * _prepareCombatContext, _prepareTrackerContext, _prepareTurnContext), in
 * the keys of the running generation; no canvas (canPing false) and no
 * ActiveEffects (no effect icons).
 */
export class CombatTracker extends HandlebarsApplicationMixin(ApplicationV2) {
  /** Core's combat controls (v13 CombatTracker DEFAULT_OPTIONS.actions → #onCombatControl: the viewed combat's method of the action's name). */
  static override DEFAULT_OPTIONS: Record<string, any> = {
    id: 'combat',
    tag: 'section',
    classes: ['tab', 'sidebar-tab'],
    window: { frame: false },
    actions: Object.fromEntries(
      ['startCombat', 'endCombat', 'nextRound', 'nextTurn', 'previousRound', 'previousTurn', 'rollAll', 'rollNPC', 'resetAll'].map((name) => [
        name,
        function (this: CombatTracker, event: Event) {
          event.preventDefault?.();
          return this.viewed?.[name]?.();
        },
      ]),
    ),
  };
  /** The popped-out copy (AbstractSidebarTab#renderPopout, v13), once opened. */
  popout: CombatTracker | null = null;
  /** A popped-out copy: its own id, the `sidebar-popout` class, in a frame. */
  get isPopout(): boolean {
    return (this.options.classes ?? []).includes('sidebar-popout');
  }
  /** Open (or render again) the popped-out copy of this tab, viewing the same combat. */
  async renderPopout(): Promise<CombatTracker> {
    const Tab = this.constructor as new (options: any) => CombatTracker;
    this.popout ??= new Tab({ id: `${this.id}-popout`, classes: ['sidebar-popout'], window: { frame: true, positioned: true, minimizable: true, title: 'COMBAT.SidebarTitle' } });
    this.popout.viewed = this.viewed;
    await this.popout.render({ force: true });
    return this.popout;
  }
  static override PARTS: TrackerParts = {
    header: { template: 'templates/sidebar/tabs/combat/header.hbs' },
    tracker: { template: 'templates/sidebar/tabs/combat/tracker.hbs', scrollable: [''] },
    footer: { template: 'templates/sidebar/tabs/combat/footer.hbs' },
  };
  #viewed: any = null;
  get viewed(): any {
    return this.#viewed;
  }
  set viewed(combat: any) {
    if (this.#viewed) delete this.#viewed.apps[this.id];
    this.#viewed = combat ?? null;
    if (combat) combat.apps[this.id] = this;
  }
  /** The encounters of the viewed scene, or of none (game.combats.combats of this tracker's client). */
  get combats(): any[] {
    return this.client.collections.get('Combat')?.combats ?? [];
  }
  override async render(options: any = {}, legacy?: any): Promise<this> {
    if (typeof options === 'object' && options && 'combat' in options) {
      this.viewed = (options as TrackerRenderOptions).combat;
      if (this.popout) this.popout.viewed = this.viewed;
    }
    return super.render(options, legacy);
  }

  override async _preparePartContext(partId: string, context: any, options: any): Promise<any> {
    context = await super._preparePartContext(partId, context, options);
    if (partId === 'header' || partId === 'footer') await this._prepareCombatContext(context, options);
    else if (partId === 'tracker') await this._prepareTrackerContext(context, options);
    return context;
  }

  /** The encounter switcher and the controls (header and footer parts). */
  async _prepareCombatContext(context: TrackerPartContextV13 | TrackerPartContextV14, _options: any): Promise<void> {
    const { game, CONFIG } = this.client;
    const combat = this.viewed;
    const combats = this.combats;
    const currentIdx = combats.indexOf(combat);
    const isPlayerTurn = !!combat?.combatant?.players?.includes(game.user);
    const turn = combat?.turn;
    const midRound = !!turn && turn >= 1 && turn <= combat.turns.length - 2;
    const canControl = midRound ? combat.canUserModify(game.user, 'update', { turn: 0 }) : !!combat?.canUserModify(game.user, 'update', { round: 0 });
    const shared: TrackerCombatContextV14 = {
      combat,
      hasCombat: combat !== null,
      previousId: combats[currentIdx - 1]?.id,
      nextId: combats[currentIdx + 1]?.id,
      combats: combats.map(({ id }: any, i: number) => ({ id, label: i + 1, active: i === currentIdx })),
      control: isPlayerTurn && canControl,
      css: combats.length > 8 ? 'cycle' : combats.length ? 'tabbed' : '',
      currentIndex: currentIdx + 1,
      displayCycle: combats.length > 8,
      initiativeIcon: CONFIG.Combat.initiativeIcon,
      linked: combat?.scene !== null,
    };
    Object.assign(context, shared);
    if (state.generation < 14) {
      const labels: TrackerCombatContextV13['labels'] = { scope: game.i18n.localize(`COMBAT.${combat?.scene ? 'Linked' : 'Unlinked'}`) };
      Object.assign(context, { labels });
    }
  }

  /** The turns (tracker part), when an encounter is viewed; initiatives to one precision. */
  async _prepareTrackerContext(context: TrackerPartContextV13 | TrackerPartContextV14, _options: any): Promise<void> {
    const combat = this.viewed;
    if (!combat) return;
    let hasDecimals = false;
    const turns: TrackerTurnContext[] = (context.turns = []);
    for (const [i, combatant] of combat.turns.entries()) {
      if (!combatant.visible) continue;
      const turn = await this._prepareTurnContext(combat, combatant, i);
      if (turn.hasDecimals) hasDecimals = true;
      turns.push(turn);
    }
    const precision = this.client.CONFIG.Combat.initiative.decimals;
    for (const t of turns) if (typeof t.initiative === 'number' && Number.isFinite(t.initiative)) t.initiative = t.initiative.toFixed(hasDecimals ? precision : 0);
    context.hasDecimals = hasDecimals;
  }

  /** One combatant's row. The resource is the number at the tracked path of core.combatTrackerConfig, for an observer. */
  async _prepareTurnContext(combat: any, combatant: any, index: number): Promise<TrackerTurnContext> {
    const { id, name, isOwner, isDefeated, hidden, initiative, permission } = combatant;
    const path = combat.settings?.resource;
    const tracked = path && permission >= DOCUMENT_OWNERSHIP_LEVELS.OBSERVER ? getProperty(combatant.actor?.system ?? {}, path) : null;
    const active = index === combat.turn;
    const effects: { name: string; img: string }[] = [];
    return {
      hasDecimals: Number.isFinite(initiative) && !Number.isInteger(initiative),
      hidden,
      id,
      isDefeated,
      initiative,
      isOwner,
      name,
      resource: typeof tracked === 'number' ? tracked : null,
      active,
      canPing: false,
      img: await this._getCombatantThumbnail(combatant),
      css: [active ? 'active' : null, hidden ? 'hide' : null, isDefeated ? 'defeated' : null].filter(Boolean).join(' '),
      effects: { icons: effects, tooltip: this._formatEffectsTooltip(effects) },
    };
  }

  /**
   * Core's (v13 combat-tracker.mjs; v14 typings: "binds the available
   * context menus"): the combatant context menu is built **once**, at the
   * first render, from `_getEntryContextOptions()`, bound to the `.combatant`
   * rows; nothing rebuilds it on later renders (a change of viewed combat
   * included). The GM's encounter menu (`_getCombatContextOptions` on
   * `.encounter-context-menu`) is not modelled.
   */
  override async _onFirstRender(context: any, options: any): Promise<void> {
    await super._onFirstRender(context, options);
    this._createContextMenu(this._getEntryContextOptions, '.combatant', { fixed: true });
  }

  /** Core's combatant entries (update, clear initiative, reroll, clear movement history, remove) are not modelled: none. */
  _getEntryContextOptions(): any[] {
    return [];
  }

  /**
   * Core's _onRender (v13 build 13.350, issue 25; v14 typings: "scrolls the
   * active combatant into view when a turn change moved it out of the visible
   * area") looks up the `.combat-tracker` element (core's list of turns) in
   * the rendered tracker: when there is none, a render during a turn change
   * throws. The stand-in throws on **every** render without one (stricter:
   * which renders core reads it on is unconfirmed).
   */
  override async _onRender(context: any, options: any): Promise<void> {
    await super._onRender(context, options);
    if (!this.#hasTurnList()) {
      throw new TypeError(`${this.constructor.name}#_onRender: the rendered tracker has no .combat-tracker element (core reads it on a turn change and fails on null)`);
    }
  }

  /** Is there a `.combat-tracker` element in what was rendered (the element with a DOM; the parts' HTML in Node)? */
  #hasTurnList(): boolean {
    const el = this.element;
    if (el) return el.querySelector('.combat-tracker') !== null;
    return parseHTML(Object.values(this.partHTML).join('\n')).some((n) => n.classes().includes('combat-tracker'));
  }

  async _getCombatantThumbnail(combatant: any): Promise<string> {
    return combatant.img || DEFAULT_TOKEN;
  }

  /** The outer HTML of a list of the effects; the empty string for none. */
  _formatEffectsTooltip(effects: { name: string; img: string }[]): string {
    if (!effects.length) return '';
    const items = effects.map((e) => `<li><img src="${escapeHTML(e.img)}" alt="${escapeHTML(e.name)}"><span>${escapeHTML(e.name)}</span></li>`);
    return `<ul class="effects-tooltip plain">${items.join('')}</ul>`;
  }
}

/* --------------------------------------------------------- context menus */

/**
 * ContextMenu (foundry.applications.ux.ContextMenu) without the DOM: entries
 * are read in the running generation's shape, and drawn (`shown`) as each
 * generation inserts their icon. v13 entries are
 * {name, icon, condition, callback(target)}; v14 entries are
 * {label, icon, visible, onClick(event, target)}, where v14 still reads the
 * v13 keys with a deprecation warning (until v16).
 */
export class ContextMenu {
  constructor(
    readonly container: unknown,
    readonly selector: string,
    readonly menuItems: any[],
    readonly options: any = {},
  ) {}

  /** The entry's label key, click handler and visibility test, per generation. */
  static read(entry: Partial<MenuEntryV13 & MenuEntryV14>): { label: string; visible: (t: any) => boolean; click: (event: any, target: any) => unknown } {
    const asTest = (v: unknown) => (t: any) => (typeof v === 'function' ? !!v(t) : v !== false);
    const callback = entry.callback;
    if (state.generation < 14) {
      if (typeof entry.name !== 'string' || typeof callback !== 'function') {
        throw new Error('A v13 ContextMenuEntry needs a string name and a callback(target) function');
      }
      return { label: entry.name, visible: asTest(entry.condition), click: (_e, t) => callback(t) };
    }
    let label = entry.label;
    let visible: MenuEntryV14['visible'] | null = entry.visible;
    let click = entry.onClick;
    if (label === undefined && typeof entry.name === 'string') {
      deprecate('ContextMenuEntry#name is deprecated in favor of ContextMenuEntry#label');
      label = entry.name;
    }
    if (visible === undefined && entry.condition !== undefined) {
      deprecate('ContextMenuEntry#condition is deprecated in favor of ContextMenuEntry#visible');
      visible = entry.condition;
    }
    if (click === undefined && typeof callback === 'function') {
      deprecate('ContextMenuEntry#callback is deprecated in favor of ContextMenuEntry#onClick(event, target)');
      click = (e: any, t: any) => callback(t, e);
    }
    if (typeof label !== 'string') throw new Error('A v14 ContextMenuEntry needs a string label');
    return { label, visible: asTest(visible), click: click ?? (() => undefined) };
  }

  /**
   * The element a right-click on `element` opens this menu for, as core's
   * ContextMenu finds it: the closest match of its selector (the target its
   * entries' conditions and callbacks receive); null: no menu opens.
   */
  targetOf(element: any): any {
    if (!this.selector) throw new Error('This context menu has no selector');
    return element?.closest?.(this.selector) ?? null;
  }

  /**
   * The visible entries for a target as the menu draws them: the label (localized,
   * as core localizes it), the classes of the icon element drawn (null: none) and
   * the text a user reads on the entry. v13 inserts `icon` as HTML
   * (ContextMenuEntry: "A string containing an HTML icon element"), so a bare
   * class string is no element and shows as text before the label. v14 takes a
   * class name ("A string containing a className. A full HTML element may also be
   * provided."): a string that starts with `<` is read as HTML, any other is the
   * icon's classes (how v14 tells them apart is unconfirmed).
   */
  shown(target: any): { label: string; icon: string | null; text: string }[] {
    const localize = (key: string) => i18n()?.localize(key) ?? key;
    return this.menuItems
      .filter((e) => ContextMenu.read(e).visible(target))
      .map((e) => {
        const label = localize(ContextMenu.read(e).label);
        const raw = typeof e.icon === 'string' ? e.icon : '';
        const html = state.generation >= 14 && raw.trim() && !raw.trim().startsWith('<') ? `<i class="${escapeHTML(raw.trim())}"></i>` : raw;
        const element = parseHTML(html)[0] ?? null;
        const iconText = html
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim();
        return { label, icon: element ? element.className : null, text: [iconText, label].filter(Boolean).join(' ') };
      });
  }

  /** Labels of the entries shown for a target element. */
  visibleLabels(target: any): string[] {
    return this.menuItems.map((e) => ContextMenu.read(e)).filter((r) => r.visible(target)).map((r) => r.label);
  }

  /** Click the visible entry with this label for a target element. */
  async click(label: string, target: any, event: any = { type: 'click', target }): Promise<unknown> {
    const entry = this.menuItems.map((e) => ContextMenu.read(e)).find((r) => r.label === label && r.visible(target));
    if (!entry) throw new Error(`No visible context menu entry "${label}"`);
    return entry.click(event, target);
  }
}

/**
 * Handlebars templates. loadTemplates records paths; renderTemplate renders the
 * system's real template file (`systems/<id>/<path>` is read from the repo)
 * with the real handlebars package and the core helpers the system uses
 * (`localize` with hash data formats, as core; `eq`, `ne`, `and`, `or`, `not`,
 * `concat`). A missing template or an unknown helper is an error, as in core.
 */
const handlebars = Handlebars.create();
handlebars.registerHelper('localize', (key: string, options: { hash?: Record<string, unknown> }) => {
  const i18n = (globalThis as any).game?.i18n;
  const hash = options?.hash ?? {};
  return Object.keys(hash).length > 0 ? i18n.format(key, hash) : i18n.localize(key);
});
handlebars.registerHelper('eq', (a: unknown, b: unknown) => a === b);
handlebars.registerHelper('ne', (a: unknown, b: unknown) => a !== b);
handlebars.registerHelper('and', (...args: unknown[]) => args.slice(0, -1).every(Boolean));
handlebars.registerHelper('or', (...args: unknown[]) => args.slice(0, -1).some(Boolean));
handlebars.registerHelper('not', (a: unknown) => !a);
handlebars.registerHelper('concat', (...args: unknown[]) => args.slice(0, -1).join(''));
// Core's HandlebarsHelpers (v13 client/applications/handlebars.mjs) that sheets use.
handlebars.registerHelper('checked', (value: unknown) => new Handlebars.SafeString(value ? 'checked' : ''));
handlebars.registerHelper('disabled', (value: unknown) => new Handlebars.SafeString(value ? 'disabled' : ''));
/** numberFormat: `decimals` (default 0), `sign` (a "+" before zero and positives); a string or null is parsed (NaN shows "NaN", as core). */
handlebars.registerHelper('numberFormat', (value: unknown, options: { hash?: { decimals?: number; sign?: boolean } }) => {
  const dps = options?.hash?.decimals ?? 0;
  const sign = options?.hash?.sign ?? false;
  const n = typeof value === 'string' || value === null || value === undefined ? parseFloat(value as string) : Number(value);
  return new Handlebars.SafeString(sign && n >= 0 ? `+${n.toFixed(dps)}` : n.toFixed(dps));
});
/**
 * selectOptions (core v13: prepared as createSelectInput prepares them): choices an array (strings: value the
 * index; objects: read by valueAttr/labelAttr, default value/label) or a record (key → label, or key → object
 * with the key as value unless valueAttr; `inverted` swaps key and label); `selected` one value or an array,
 * compared as strings; `blank` a first empty option; `localize` the labels; `sort` by label. nameAttr is v12's
 * valueAttr (deprecated).
 */
handlebars.registerHelper('selectOptions', (choices: any, options: { hash?: Record<string, any> }) => {
  const { localize = false, selected, blank, sort = false, nameAttr, labelAttr, inverted = false } = options?.hash ?? {};
  let valueAttr = options?.hash?.valueAttr;
  if (nameAttr && !valueAttr) {
    deprecate('The nameAttr option of the selectOptions helper is deprecated in favor of valueAttr');
    valueAttr = nameAttr;
  }
  const chosen = (selected === undefined || selected === null ? [] : Array.isArray(selected) ? selected : [selected]).map(String);
  const prepared: { value: unknown; label: unknown; disabled?: boolean }[] = [];
  const fromObject = (o: any, value?: unknown) => ({ value: value ?? o[valueAttr ?? 'value'], label: o[labelAttr ?? 'label'], disabled: !!o.disabled });
  if (Array.isArray(choices)) {
    for (const [i, c] of choices.entries()) prepared.push(typeof c === 'object' && c !== null ? fromObject(c) : { value: i, label: c });
  } else if (choices && typeof choices === 'object') {
    for (const entry of Object.entries(choices)) {
      const [k, v] = inverted ? [entry[1], entry[0]] : entry;
      if (typeof v === 'object' && v !== null) prepared.push(fromObject(v, valueAttr ? (v as any)[valueAttr] : k));
      else prepared.push({ value: k, label: v });
    }
  } else throw new Error('selectOptions needs a record or an array of choices');
  const text = (label: unknown) => {
    const s = String(label ?? '');
    return localize ? (i18n()?.localize(s) ?? s) : s;
  };
  if (sort) prepared.sort((a, b) => text(a.label).localeCompare(text(b.label)));
  const html: string[] = [];
  if (blank !== undefined && blank !== null && blank !== false) html.push(`<option value=""${chosen.includes('') ? ' selected' : ''}>${escapeHTML(text(blank))}</option>`);
  for (const o of prepared) {
    const value = String(o.value ?? '');
    html.push(`<option value="${escapeHTML(value)}"${chosen.includes(value) ? ' selected' : ''}${o.disabled ? ' disabled' : ''}>${escapeHTML(text(o.label))}</option>`);
  }
  return new Handlebars.SafeString(html.join(''));
});
const compiled = new Map<string, Handlebars.TemplateDelegate>();

/** Reads a template file by its path in the repository (Node: the file system). */
export type TemplateLoader = (repoPath: string) => Promise<string | null>;
const fsLoader: TemplateLoader = async (repoPath) => {
  const file = resolvePath(REPO_ROOT, repoPath);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
};

/**
 * Where a template path resolves: a system's `systems/<id>/<path>` to the
 * installed system folder's `<path>` (the repository's by default); core's own `templates/…` (the combat tracker's
 * parts) to the stand-in's small copies in `tests/standin/core-templates/`.
 */
function repoPathOf(path: string): string {
  const system = /^systems\/[^/]+\/(.+)$/.exec(path);
  if (system) {
    // The installed system's folder (package.ts): the repository, or a built dist/ (then an absolute path).
    const root = systemPackage().root;
    return root === REPO_ROOT ? system[1] : resolvePath(root, system[1]);
  }
  if (/^templates\//.test(path)) return `tests/standin/core-templates/${path.slice('templates/'.length)}`;
  throw new Error(`Template ${path} is neither a system template nor one of core's`);
}

export const templates = {
  /** How template files are read: the file system in Node; the preview page sets a fetch. Compiled templates are kept. */
  loader: fsLoader,
  /** Forget the compiled templates (after a change of loader or of a file). */
  clearCache(): void {
    compiled.clear();
  },
  loaded: [] as string[],
  rendered: [] as { path: string; data: unknown }[],
  async loadTemplates(paths: string[] | Record<string, string>): Promise<void> {
    templates.loaded.push(...(Array.isArray(paths) ? paths : Object.values(paths)));
  },
  async renderTemplate(path: string, data: Record<string, unknown> = {}): Promise<string> {
    const repoPath = repoPathOf(path);
    let template = compiled.get(repoPath);
    if (!template) {
      const source = await templates.loader(repoPath);
      if (source === null) throw new Error(`Template file ${path} does not exist or could not be found`);
      template = handlebars.compile(source, { strict: false, knownHelpersOnly: false });
      compiled.set(repoPath, template);
    }
    templates.rendered.push({ path, data });
    return template(data, { allowProtoPropertiesByDefault: false });
  },
};
