/**
 * Core's SceneConfig (v13 and v14: HandlebarsApplicationMixin of
 * DocumentSheetV2, foundry.applications.sheets.SceneConfig), as far as a
 * system's `renderSceneConfig` hook needs it: core's options (classes
 * `scene-config`, form closeOnSubmit), the `sheet` tab group with the
 * generation's tab ids (v13: basics, grid, lighting, ambience; v14: basics,
 * grid, levels, visibility, environment, misc), of which the stand-in renders
 * the `tabs`, `basics` and `grid` parts (tests/standin/core-templates/scene/
 * config/: core's tab roots `<div class="tab" data-group="sheet"
 * data-tab="…">`, a few of core's fields), each tab part with its `tab` in
 * its context as core's _preparePartContext gives it. No footer: a test
 * submits through the handle's submitSheet (core's submit path).
 *
 * After each render the render hooks are called as core's _doEvent calls
 * them: `render<ClassName>` for each class of the chain from the sheet's
 * class to ApplicationV2, with (application, element, context, options). In a
 * DOM the element is the sheet's; in Node it is the rendered parts
 * (PartsElement): querySelector over their HTML, and insertAdjacentHTML
 * ('beforeend') on a part's root element, which writes into that part's HTML
 * (what the form then submits). Anything else is an error, never a silent
 * success.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { state } from './state';
import { ApplicationV2, HandlebarsApplicationMixin } from './ui';
import { DocumentSheetV2 } from './sheets';
import { parseHTML, type StubElement } from './html';

const g = () => globalThis as any;

const TAB_IDS = { 13: ['basics', 'grid', 'lighting', 'ambience'], 14: ['basics', 'grid', 'levels', 'visibility', 'environment', 'misc'] } as const;

/** A rendered element of a part in Node: what a hook may read, and adding at the end of a part's root. */
class PartNode {
  constructor(
    private readonly app: any,
    private readonly partId: string,
    private readonly node: StubElement,
    private readonly root: boolean,
  ) {}
  get dataset(): Record<string, string> {
    return this.node.dataset;
  }
  getAttribute(name: string): string | null {
    return this.node.getAttribute(name);
  }
  matches(selector: string): boolean {
    return this.node.matches(selector);
  }
  querySelector(selector: string): PartNode | null {
    const found = this.node.querySelector(selector);
    return found ? new PartNode(this.app, this.partId, found, false) : null;
  }
  insertAdjacentHTML(position: string, html: string): void {
    if (!this.root || position !== 'beforeend') throw new Error(`The stand-in's SceneConfig in Node adds markup only at the end of a part's root element (insertAdjacentHTML('beforeend')), not ${position} of <${this.node.tag}>`);
    const markup: string = this.app.partHTML[this.partId];
    const end = markup.lastIndexOf('</');
    this.app.partHTML[this.partId] = markup.slice(0, end) + html + markup.slice(end);
  }
}

/** The sheet's rendered parts in Node, read as one element. */
class PartsElement {
  constructor(private readonly app: any) {}
  querySelector(selector: string): PartNode | null {
    for (const [partId, markup] of Object.entries(this.app.partHTML as Record<string, string>)) {
      const nodes = parseHTML(markup);
      const root = nodes.find((n) => n.parent?.tag === '#root' || !n.parent);
      const found = nodes.find((n) => n.matches(selector));
      if (found) return new PartNode(this.app, partId, found, found === root);
    }
    return null;
  }
  insertAdjacentHTML(): void {
    throw new Error("The stand-in's SceneConfig in Node adds markup only to a part's root element");
  }
}

export class SceneConfig extends HandlebarsApplicationMixin(DocumentSheetV2) {
  static override DEFAULT_OPTIONS: Record<string, any> = {
    classes: ['scene-config'],
    window: { contentClasses: ['standard-form'], icon: 'fa-solid fa-map' },
    position: { width: 560 },
    form: { closeOnSubmit: true },
  };
  static override PARTS = {
    tabs: { template: 'templates/generic/tab-navigation.hbs' },
    basics: { template: 'templates/scene/config/basics.hbs' },
    grid: { template: 'templates/scene/config/grid.hbs' },
  };
  static override TABS: Record<string, any> = { sheet: { tabs: [], initial: 'basics', labelPrefix: 'SCENE.TABS.SHEET' } };
  /** The running generation's tabs (the class is shared by both generations' installs). */
  override _getTabsConfig(group: string): any {
    const config = super._getTabsConfig(group);
    return group === 'sheet' && config ? { ...config, tabs: TAB_IDS[state.generation as 13 | 14].map((id) => ({ id })) } : config;
  }
  get scene(): any {
    return this.document;
  }
  override async _preparePartContext(partId: string, context: any, options: any): Promise<any> {
    const prepared = await super._preparePartContext(partId, context, options);
    if (prepared.tabs && partId in prepared.tabs) prepared.tab = prepared.tabs[partId];
    return prepared;
  }
  override async _onRender(context: any, options: any): Promise<void> {
    await super._onRender(context, options);
    const element = this.element ?? new PartsElement(this);
    const names: string[] = [];
    for (let cls: any = this.constructor; cls && cls !== Object; cls = Object.getPrototypeOf(cls)) {
      names.push(cls.name);
      if (cls === ApplicationV2) break;
    }
    for (const name of names) g().Hooks.callAll(`render${name}`, this, element, context, options);
  }
}
