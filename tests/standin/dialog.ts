/**
 * foundry.applications.api.DialogV2 as v13 and v14 have it (sources in
 * CONFORMANCE.md, section "DialogV2"): a framed `<dialog>` application whose
 * content and buttons are one form; a button's press resolves the dialog
 * with its callback's result (or its action when the callback gives null or
 * undefined), calls `submit`, and closes it; the static helpers `wait`,
 * `prompt`, `confirm` and `input` return a promise of that result, which a
 * dismissal (the frame's ×, Escape, `close()`) resolves to null, or rejects
 * when `rejectClose` is true (the default is false since v13).
 *
 * In a DOM (the preview) it renders the form into its window and answers
 * clicks and Escape as core does. In Node it renders the same markup, read
 * with the stand-in's parser: `press(action, values)` is a user filling the
 * named fields and pressing the button, `dismiss()` a user closing it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { ApplicationV2 } from './ui';
import { FormDataExtended, StubElement, StubForm } from './html';
import { escapeHTML, mergeObject, randomID } from './utils';
import { state } from './state';

/** One button of a dialog (v13 DialogV2Button; v14 adds `disabled`). */
export interface DialogButton {
  action: string;
  label: string;
  icon?: string;
  class?: string;
  style?: Record<string, string>;
  type?: string;
  default?: boolean;
  disabled?: boolean;
  callback?: (event: any, button: any, dialog: DialogV2) => unknown;
}

const i18n = () => (globalThis as any).game?.i18n;
const localize = (label: string) => i18n()?.localize(label) ?? label;

export class DialogV2 extends ApplicationV2 {
  /** Core's (v13/v14 DialogV2.DEFAULT_OPTIONS; the v14 typings quote it). */
  static override DEFAULT_OPTIONS: Record<string, any> = {
    id: 'dialog-{id}',
    classes: ['dialog'],
    tag: 'dialog',
    form: { closeOnSubmit: true },
    window: { frame: true, positioned: true, minimizable: false },
  };

  /** The rendered form's markup (Node and DOM alike): what `press` reads in Node. */
  html = '';

  constructor(options: any = {}) {
    // Core's _initializeApplicationOptions: at least one button, kept by action, each an action of the application.
    const buttons: DialogButton[] | undefined = options.buttons;
    if (!Array.isArray(buttons) || buttons.length === 0) throw new Error('You must define at least one entry in options.buttons');
    super({ ...options, buttons: [], content: undefined, submit: undefined });
    this.options.buttons = Object.fromEntries(buttons.map((b) => [b.action, b]));
    this.options.actions = { ...this.options.actions };
    for (const b of buttons) this.options.actions[b.action] = (this.constructor as typeof DialogV2)._onClickButton;
    this.options.content = options.content ?? '';
    this.options.submit = options.submit;
    // Core fills `{id}` in the id with a random one.
    if (typeof this.options.id === 'string') this.options.id = this.options.id.replace('{id}', randomID(16));
  }

  /** Core's _renderButtons: one `<button>` per entry, its label localized; the default one autofocused. */
  _renderButtons(): string {
    return Object.values(this.options.buttons as Record<string, DialogButton>)
      .map((b) => {
        const style = Object.entries(b.style ?? {})
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ');
        // v14's DialogV2Button has `disabled` (API14 interfaces/foundry.DialogV2Button); v13's has none.
        const disabled = state.generation >= 14 && b.disabled ? ' disabled' : '';
        return (
          `<button type="${escapeHTML(b.type ?? 'submit')}" class="${escapeHTML(b.class ?? '')}" data-action="${escapeHTML(b.action)}"` +
          `${style ? ` style="${escapeHTML(style)}"` : ''}${b.default ? ' autofocus' : ''}${disabled}>` +
          `${b.icon ? `<i class="${escapeHTML(b.icon)}"></i>` : ''}<span>${escapeHTML(localize(b.label))}</span></button>`
        );
      })
      .join('');
  }

  /** The content as markup: a string as given (core cleans it with cleanHTML: not modelled), an element's outer HTML. */
  #contentHTML(): string {
    const c = this.options.content;
    if (!c) return '';
    return typeof c === 'string' ? c : String(c.outerHTML ?? '');
  }

  /** Core's _renderHTML: a `<form class="dialog-form standard-form">` holding the content and a footer of buttons. */
  override async _renderHTML(_context: any, _options: any): Promise<any> {
    const content = this.#contentHTML();
    this.html = `${content ? `<div class="dialog-content standard-form">${content}</div>` : ''}<footer class="form-footer">${this._renderButtons()}</footer>`;
    if (typeof document === 'undefined') return this.html;
    const form = document.createElement('form');
    form.className = 'dialog-form standard-form';
    form.autocomplete = 'off';
    form.innerHTML = this.html;
    // Core: a submission (Enter in a field) submits with its submitter, or the default button.
    form.addEventListener('submit', (event: SubmitEvent) => {
      event.preventDefault();
      void this._onSubmit((event.submitter as HTMLButtonElement | null) ?? this.#defaultButton(form), event);
    });
    return form;
  }

  /** The button marked default, else the first. */
  #defaultButton(root: { querySelector(s: string): any }): any {
    const action = Object.values(this.options.buttons as Record<string, DialogButton>).find((b) => b.default)?.action;
    return (action ? root.querySelector(`button[data-action="${action}"]`) : null) ?? root.querySelector('button');
  }

  /** Core's _replaceHTML: the form replaces the window's content. */
  override _replaceHTML(result: any, content: HTMLElement, _options: any): void {
    if (result && typeof result !== 'string') content.replaceChildren(result);
  }

  /** Core's frame listeners: the dialog answers its keys (Escape closes it: _onKeyDown). */
  protected override ensureFrame(): HTMLElement | null {
    const had = this.element;
    const el = super.ensureFrame();
    if (el && !had) el.addEventListener('keydown', (event: KeyboardEvent) => this._onKeyDown(event));
    return el;
  }

  /** Core's _onFirstRender: the `<dialog>` shown, as a modal when `modal` (a modal needs the element in the page). */
  override async _onFirstRender(context: any, options: any): Promise<void> {
    await super._onFirstRender(context, options);
    const el = this.element as HTMLDialogElement | null;
    if (!el || typeof el.show !== 'function') return;
    if (this.options.modal && el.isConnected) el.showModal();
    else el.show();
  }

  /** Core's _onKeyDown: Escape closes the dialog, and goes no further (core's own dismiss key does not see it). */
  _onKeyDown(event: KeyboardEvent): void {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    void this.close();
  }

  /** Core's button action: the press submits the dialog with that button. */
  static _onClickButton(this: DialogV2, event: any, target: any): Promise<unknown> {
    event?.preventDefault?.();
    return this._onSubmit(target, event);
  }

  /**
   * Core's _onSubmit: the button's callback (event, button, dialog); its result, or the button's action when it
   * gives null or undefined, to `submit`; then closed (closeOnSubmit).
   */
  async _onSubmit(target: any, event: any): Promise<this> {
    event?.preventDefault?.();
    const button: DialogButton | undefined = this.options.buttons[target?.dataset?.action];
    const result = (await button?.callback?.(event, target, this)) ?? button?.action;
    await this.options.submit?.(result, this);
    return this.options.form?.closeOnSubmit ? this.close({ submitted: true }) : this;
  }

  /**
   * The stand-in's user (Node or DOM): fill the named fields with `values`, then press the button of `action`,
   * as a click on it. Resolves when the dialog has handled it. A button not drawn, or disabled, cannot be pressed.
   */
  async press(action: string, values: Record<string, string | boolean> = {}): Promise<void> {
    if (!this.rendered) throw new Error('The dialog is not open');
    const el = this.element;
    if (el) {
      for (const [name, v] of Object.entries(values)) {
        const field = el.querySelector(`[name="${name}"]`) as HTMLInputElement | null;
        if (!field) throw new Error(`The dialog has no field named ${name}`);
        if (field.type === 'checkbox') field.checked = !!v;
        else field.value = String(v);
      }
      const button = el.querySelector(`button[data-action="${action}"]`) as HTMLButtonElement | null;
      if (!button || button.disabled) throw new Error(`The dialog has no button ${action} to press`);
      await (this.constructor as typeof DialogV2)._onClickButton.call(this, new MouseEvent('click'), button);
      return;
    }
    const form = new StubForm(this.html);
    for (const [name, v] of Object.entries(values)) {
      const field = form.descendants().find((e) => e.name === name);
      if (!field) throw new Error(`The dialog has no field named ${name}`);
      setStubValue(field, v);
    }
    const button = form.descendants().find((e) => e.tag === 'button' && e.dataset.action === action);
    if (!button || button.disabled) throw new Error(`The dialog has no button ${action} to press`);
    Object.defineProperty(button, 'form', { value: form });
    await (this.constructor as typeof DialogV2)._onClickButton.call(this, { type: 'click', target: button, preventDefault() {} }, button);
  }

  /** The buttons a user sees: action, label (localized), disabled. */
  buttonsShown(): { action: string; label: string; disabled: boolean }[] {
    const form = new StubForm(this.html);
    return form
      .descendants()
      .filter((e) => e.tag === 'button')
      .map((b) => ({ action: b.dataset.action, label: b.descendants().find((s) => s.tag === 'span')?.text.trim() ?? '', disabled: b.disabled }));
  }

  /* ------------------------------------------------------------ factories */

  /**
   * Core's wait: a dialog rendered (v14: with `renderOptions`), resolved by its submission; dismissed, the `close`
   * callback runs and the promise resolves to null, or rejects when `rejectClose` (default false, v13 and v14).
   */
  static wait({ rejectClose = false, close, render, renderOptions, ...options }: any = {}): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const originalSubmit = options.submit;
      options.submit = async (result: unknown, dialog: DialogV2) => {
        await originalSubmit?.(result, dialog);
        resolve(result);
      };
      const dialog = new this(options);
      dialog.addEventListener(
        'close',
        (event: Event) => {
          if (close instanceof Function) close(event, dialog);
          if (rejectClose) reject(new Error('Dialog was dismissed without pressing a button.'));
          else resolve(null);
        },
        { once: true },
      );
      if (render instanceof Function) dialog.addEventListener('render', (event: Event) => render(event, dialog));
      const extra = state.generation >= 14 && renderOptions ? renderOptions : {};
      dialog.render({ ...extra, force: true }).catch(reject);
    });
  }

  /** Core's prompt: one `ok` button (Confirm, default), options merged from `ok`, before any others given. */
  static prompt({ ok = {}, ...options }: any = {}): Promise<unknown> {
    options.buttons = [...(options.buttons ?? [])];
    options.buttons.unshift(mergeObject({ action: 'ok', label: 'Confirm', icon: 'fa-solid fa-check', default: true }, ok, { inplace: false }));
    return this.wait(options);
  }

  /** Core's confirm: `yes` (true) and `no` (false, default) before any others given. */
  static confirm({ yes = {}, no = {}, ...options }: any = {}): Promise<unknown> {
    options.buttons = [...(options.buttons ?? [])];
    options.buttons.unshift(
      mergeObject({ action: 'yes', label: 'Yes', icon: 'fa-solid fa-check', callback: () => true }, yes, { inplace: false }),
      mergeObject({ action: 'no', label: 'No', icon: 'fa-solid fa-xmark', default: true, callback: () => false }, no, { inplace: false }),
    );
    return this.wait(options);
  }

  /** Core's input: a prompt whose `ok` gives the form's data (FormDataExtended#object), unless `ok` brings its own callback. */
  static input({ ok, ...options }: any = {}): Promise<unknown> {
    return this.prompt({ ...options, ok: { callback: (_event: any, button: any) => new FormDataExtended(button.form).object, ...ok } });
  }
}

/** A field of a Node-rendered form set as a user would type or tick it. */
function setStubValue(field: StubElement, v: string | boolean): void {
  if (field.tag === 'input' && (field.type === 'checkbox' || field.type === 'radio')) {
    if (v) field.attrs.checked = '';
    else delete field.attrs.checked;
    return;
  }
  if (field.tag === 'select') {
    for (const o of field.descendants().filter((e) => e.tag === 'option')) {
      if (o.optionValue === String(v)) o.attrs.selected = '';
      else delete o.attrs.selected;
    }
    return;
  }
  if (field.tag === 'textarea') {
    field.text = String(v);
    return;
  }
  field.attrs.value = String(v);
}
