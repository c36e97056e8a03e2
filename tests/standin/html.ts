/**
 * Rendered HTML read in Node (no DOM): a small parser of the markup the
 * stand-in's templates render (elements, attributes, nesting; comments and
 * text skipped), elements that answer `dataset`, `classList`, `closest`,
 * `querySelector(All)`, `matches` for simple selectors (tag, `.class`,
 * `#id`, `[attr]`, `[attr="v"]`, compounds and comma lists; no combinators),
 * `remove`, `addEventListener` and `click` (click listeners only, no bubbling),
 * and core's FormDataExtended over a rendered form's controls, as a browser
 * would submit them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW = new Set(['script', 'style', 'textarea']);
/** Elements whose start tag closes an open one of the same kind (HTML's implied end tags, the ones templates rely on). */
const SELF_CLOSING_SIBLINGS = new Set(['option', 'li', 'p', 'tr', 'td', 'th']);

const camel = (s: string) => s.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#39);/gi, (_m, e: string) => {
    const l = e.toLowerCase();
    if (l.startsWith('#x')) return String.fromCodePoint(parseInt(l.slice(2), 16));
    if (l.startsWith('#')) return String.fromCodePoint(parseInt(l.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[l] ?? '';
  });

/** One element of rendered markup. */
export class StubElement {
  readonly children: StubElement[] = [];
  text = '';
  constructor(
    readonly tagName: string,
    readonly attrs: Record<string, string>,
    public parent: StubElement | null,
  ) {}
  get tag(): string {
    return this.tagName.toLowerCase();
  }
  classes(): string[] {
    return (this.attrs.class ?? '').split(/\s+/).filter(Boolean);
  }
  get classList() {
    const el = this;
    return { contains: (c: string) => el.classes().includes(c), toggle: () => false, add() {}, remove() {} };
  }
  get className(): string {
    return this.attrs.class ?? '';
  }
  get id(): string {
    return this.attrs.id ?? '';
  }
  /** data-* attributes, camelCased, as HTMLElement#dataset. */
  get dataset(): Record<string, string> {
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.attrs)) if (k.startsWith('data-')) data[camel(k.slice(5))] = v;
    return data;
  }
  getAttribute(name: string): string | null {
    return this.attrs[name.toLowerCase()] ?? null;
  }
  hasAttribute(name: string): boolean {
    return name.toLowerCase() in this.attrs;
  }
  get name(): string {
    return this.attrs.name ?? '';
  }
  get type(): string {
    return this.tag === 'input' ? (this.attrs.type ?? 'text').toLowerCase() : this.tag === 'select' ? ('multiple' in this.attrs ? 'select-multiple' : 'select-one') : this.tag;
  }
  get disabled(): boolean {
    return 'disabled' in this.attrs;
  }
  get checked(): boolean {
    return 'checked' in this.attrs;
  }
  get value(): string {
    if (this.tag === 'textarea') return this.text;
    if (this.tag === 'select') {
      const opts = this.descendants().filter((o) => o.tag === 'option');
      const sel = opts.find((o) => 'selected' in o.attrs) ?? opts[0];
      return sel ? sel.optionValue : '';
    }
    if (this.tag === 'input' && (this.type === 'checkbox' || this.type === 'radio')) return this.attrs.value ?? 'on';
    return this.attrs.value ?? '';
  }
  get optionValue(): string {
    return this.attrs.value ?? this.text.trim();
  }
  descendants(): StubElement[] {
    return this.children.flatMap((c) => [c, ...c.descendants()]);
  }
  matches(selector: string): boolean {
    return selector.split(',').some((s) => matchesCompound(this, s.trim()));
  }
  closest(selector: string): StubElement | null {
    for (let el: StubElement | null = this; el; el = el.parent) if (el.tag !== '#root' && el.matches(selector)) return el;
    return null;
  }
  querySelectorAll(selector: string): StubElement[] {
    return this.descendants().filter((d) => d.matches(selector));
  }
  querySelector(selector: string): StubElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
  /** The listeners added (Element#addEventListener), by event type. */
  readonly listeners: Record<string, ((event: unknown) => unknown)[]> = {};
  addEventListener(type: string, listener: (event: unknown) => unknown): void {
    (this.listeners[type] ??= []).push(listener);
  }
  /** Element#remove: taken out of its parent (a removed element is no longer found by its ancestors' selectors). */
  remove(): void {
    if (!this.parent) return;
    const i = this.parent.children.indexOf(this);
    if (i >= 0) this.parent.children.splice(i, 1);
    this.parent = null;
  }
  /** HTMLElement#click: its click listeners, in the order added (no bubbling modelled). */
  click(): void {
    for (const listener of this.listeners.click ?? []) listener({ type: 'click', target: this, currentTarget: this });
  }
}

/** Markup as one element holding it (a rendered chat message's content, as core's `renderChatMessageHTML` hook gets it). */
export function htmlElement(html: string): StubElement {
  const root = new StubElement('div', {}, null);
  for (const el of parseHTML(html)) {
    if (el.parent?.tag !== '#root') continue;
    el.parent = root;
    root.children.push(el);
  }
  return root;
}

function matchesCompound(el: StubElement, selector: string): boolean {
  if (!selector) return false;
  if (/[\s>+~]/.test(selector.replace(/\[[^\]]*\]/g, ''))) throw new Error(`The stand-in's selectors take no combinators: "${selector}"`);
  const re = /([a-zA-Z][\w-]*)|\.([\w-]+)|#([\w-]+)|\[([\w-]+)(?:([~^$*|]?=)"?([^"\]]*)"?)?\]|(\*)/g;
  let rest = selector;
  for (const m of selector.matchAll(re)) {
    rest = rest.replace(m[0], '');
    if (m[1] && el.tag !== m[1].toLowerCase()) return false;
    if (m[2] && !el.classes().includes(m[2])) return false;
    if (m[3] && el.id !== m[3]) return false;
    if (m[4]) {
      const v = el.attrs[m[4].toLowerCase()];
      if (v === undefined) return false;
      if (m[5] === '=' && v !== m[6]) return false;
      if (m[5] === '~=' && !v.split(/\s+/).includes(m[6])) return false;
      if (m[5] === '^=' && !v.startsWith(m[6])) return false;
      if (m[5] === '*=' && !v.includes(m[6])) return false;
    }
  }
  if (rest.trim()) throw new Error(`The stand-in cannot read the selector "${selector}"`);
  return true;
}

/** Parse rendered markup: every element in document order (each with its parent and children). */
export function parseHTML(html: string): StubElement[] {
  const root = new StubElement('#root', {}, null);
  const all: StubElement[] = [];
  const stack: StubElement[] = [root];
  const tagRe = /<!--[\s\S]*?-->|<!\w[^>]*>|<\/([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = tagRe.exec(html))) {
    const top = stack[stack.length - 1];
    top.text += decode(html.slice(last, m.index));
    last = tagRe.lastIndex;
    if (m[1]) {
      const name = m[1].toLowerCase();
      const i = stack.map((e) => e.tag).lastIndexOf(name);
      if (i > 0) stack.length = i;
      continue;
    }
    if (!m[2]) continue;
    const name = m[2].toLowerCase();
    const attrs: Record<string, string> = {};
    for (const a of (m[3] ?? '').matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) attrs[a[1].toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? '');
    if (SELF_CLOSING_SIBLINGS.has(name) && stack[stack.length - 1].tag === name) stack.pop();
    const parent = stack[stack.length - 1];
    const el = new StubElement(name, attrs, parent);
    parent.children.push(el);
    all.push(el);
    if (RAW.has(name)) {
      const end = html.toLowerCase().indexOf(`</${name}`, last);
      const stop = end < 0 ? html.length : end;
      el.text = decode(html.slice(last, stop));
      const close = end < 0 ? html.length : html.indexOf('>', end) + 1;
      tagRe.lastIndex = close;
      last = close;
      continue;
    }
    if (!VOID.has(name) && !m[4]) stack.push(el);
  }
  return all;
}

/** The controls a form submits (FormData's: named input, select, textarea; core's form elements such as prose-mirror), enabled ones only. */
const CONTROL_TAGS = new Set(['input', 'select', 'textarea', 'prose-mirror', 'string-tags', 'multi-select', 'color-picker', 'file-picker', 'range-picker', 'document-tags']);

/** A form rendered in Node: the parts' markup read as one form (the application's element, as core's `<form>` holds the parts). */
export class StubForm extends StubElement {
  constructor(html: string) {
    super('form', {}, null);
    for (const el of parseHTML(html)) if (!el.parent || el.parent.tag === '#root') {
      el.parent = this;
      this.children.push(el);
    }
  }
  /** The named form controls, as form.elements (buttons aside). */
  get elements(): StubElement[] {
    return this.descendants().filter((e) => CONTROL_TAGS.has(e.tag) && e.name && !(e.tag === 'input' && ['button', 'submit', 'reset', 'image'].includes(e.type)));
  }
}

/** Each application's form in Node, with the render it was built from (its parts object and their markup). */
const nodeForms = new WeakMap<object, { parts: Record<string, string>; html: string; form: StubForm }>();

/**
 * The form of an application rendered in Node, from its parts' HTML. As a
 * browser's form, it is one element until the application renders again:
 * what the user typed stays in it (a refused value included) until a render
 * replaces the parts (core's HandlebarsApplicationMixin#_replaceHTML).
 */
export function renderedForm(app: any): StubForm {
  const parts = app.partHTML as Record<string, string> | undefined;
  if (!parts || !Object.keys(parts).length) throw new Error(`${app.constructor?.name ?? 'The application'} has no rendered HTML: render it first`);
  const html = Object.values(parts).join('\n');
  const known = nodeForms.get(app);
  if (known && known.parts === parts && known.html === html) return known.form;
  const form = new StubForm(html);
  nodeForms.set(app, { parts, html, form });
  return form;
}

/** FormDataExtended's cast by data-dtype (v13): Number ('' → null), Boolean, JSON, String. */
function castDtype(value: string, dtype: string | undefined): unknown {
  switch (dtype) {
    case 'Number':
      return value === '' ? null : Number(value);
    case 'Boolean':
      return value === 'true';
    case 'JSON':
      return JSON.parse(value);
    default:
      return value;
  }
}

/** One control's submitted value, cast as core's FormDataExtended does (v13 #getFieldValue): undefined when it submits nothing. */
export function controlValue(field: any): unknown {
  const tag = String(field.tagName ?? field.tag).toLowerCase();
  const type = String(field.type ?? '').toLowerCase();
  const dtype = field.dataset?.dtype as string | undefined;
  if (tag === 'input' && type === 'checkbox') return dtype && field.checked ? castDtype(field.value, dtype) : !!field.checked;
  if (tag === 'input' && type === 'radio') return field.checked ? castDtype(field.value, dtype) : undefined;
  if (tag === 'input' && (type === 'number' || type === 'range')) return field.value === '' ? null : Number(field.value);
  if (tag === 'select' && type === 'select-multiple') {
    const opts = field instanceof StubElement ? field.descendants().filter((o) => o.tag === 'option' && 'selected' in o.attrs).map((o) => o.optionValue) : [...field.selectedOptions].map((o: any) => o.value);
    return opts.map((v: string) => castDtype(v, dtype));
  }
  const value = field.value ?? field.getAttribute?.('value') ?? '';
  return castDtype(String(value), dtype);
}

/**
 * core's FormDataExtended (foundry.applications.ux.FormDataExtended): `object` holds each enabled named
 * control's value by its name (dotted names kept flat), cast by the control's type.
 */
export class FormDataExtended {
  readonly object: Record<string, unknown> = {};
  readonly form: any;
  constructor(form: any, { disabled = false }: { disabled?: boolean } = {}) {
    this.form = form;
    if (!form) return;
    const controls: any[] =
      form instanceof StubForm
        ? form.elements
        : [...(form.elements ?? []), ...(form.querySelectorAll?.('prose-mirror[name]') ?? [])].filter((e: any) => e.name && !['button', 'submit', 'reset', 'image'].includes(String(e.type).toLowerCase()));
    for (const field of controls) {
      if (field.disabled && !disabled) continue;
      const value = controlValue(field);
      if (value === undefined) {
        if (!(field.name in this.object)) this.object[field.name] = null;
        continue;
      }
      this.object[field.name] = value;
    }
  }
}

/** A kebab-case data attribute name of a dataset key (`itemId` → `data-item-id`). */
export const dataAttr = (key: string) => `data-${kebab(key)}`;
