/**
 * Roll: NdM dice, numeric constants, + and - and @data paths (v13 Roll
 * behaviour for these: a missing @path stays unresolved and evaluating it
 * throws). Die results come from the test's scripted queue, else from a
 * seeded generator; a scripted result a die cannot show is an error.
 * Also the roll-mode (v13) / message-mode (v14) handling of chat messages.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { CONST, MESSAGE_MODES } from './constants';
import { getDocumentClass } from './documents';
import { configRef } from './fields';
import { deprecate, mulberry32, state } from './state';
import { getProperty, mergeObject } from './utils';
import type { MessageMode, RollMode, ToMessageOptionsV13, ToMessageOptionsV14 } from './shapes';

/* --------------------------------------------------------------- results */

export const diceSource = {
  queue: [] as number[],
  /** When true, a die with no scripted result left is an error instead of a seeded roll. */
  requireScripted: false,
  random: mulberry32(42),
  /** Every die result produced, in order. */
  log: [] as { faces: number; result: number; scripted: boolean }[],
  reset(seed = 42): void {
    this.queue = [];
    this.requireScripted = false;
    this.random = mulberry32(seed);
    this.log = [];
  },
  next(faces: number): number {
    if (this.queue.length) {
      const r = this.queue.shift() as number;
      if (!Number.isInteger(r) || r < 1 || r > faces) throw new Error(`Scripted die result ${r} is impossible on a d${faces}`);
      this.log.push({ faces, result: r, scripted: true });
      return r;
    }
    if (this.requireScripted) throw new Error(`No scripted result left for a d${faces}`);
    const r = Math.ceil((1 - this.random()) * faces);
    this.log.push({ faces, result: r, scripted: false });
    return r;
  },
};

/* ----------------------------------------------------------------- terms */

export class Die {
  results: { result: number; active: boolean }[] = [];
  _evaluated = false;
  constructor(
    public number: number,
    public faces: number,
  ) {}
  get formula(): string {
    return `${this.number}d${this.faces}`;
  }
  get expression(): string {
    return this.formula;
  }
  get total(): number | undefined {
    return this._evaluated ? this.results.reduce((t, r) => t + (r.active ? r.result : 0), 0) : undefined;
  }
  get values(): number[] {
    return this.results.filter((r) => r.active).map((r) => r.result);
  }
  get isDeterministic(): boolean {
    return false;
  }
  evaluate(): this {
    for (let i = 0; i < this.number; i++) this.results.push({ result: diceSource.next(this.faces), active: true });
    this._evaluated = true;
    return this;
  }
  toJSON(): any {
    return { class: 'Die', number: this.number, faces: this.faces, results: this.results, evaluated: this._evaluated };
  }
}

export class NumericTerm {
  _evaluated = false;
  constructor(public number: number) {}
  get formula(): string {
    return String(this.number);
  }
  get total(): number {
    return this.number;
  }
  get isDeterministic(): boolean {
    return true;
  }
  evaluate(): this {
    this._evaluated = true;
    return this;
  }
  toJSON(): any {
    return { class: 'NumericTerm', number: this.number, evaluated: this._evaluated };
  }
}

export class OperatorTerm {
  constructor(public operator: '+' | '-') {}
  get formula(): string {
    return ` ${this.operator} `;
  }
  get isDeterministic(): boolean {
    return true;
  }
  evaluate(): this {
    return this;
  }
  toJSON(): any {
    return { class: 'OperatorTerm', operator: this.operator };
  }
}

export class StringTerm {
  constructor(public term: string) {}
  get formula(): string {
    return this.term;
  }
  get isDeterministic(): boolean {
    return false;
  }
  evaluate(): never {
    throw new Error(`Unresolved StringTerm ${this.term} requested for evaluation`);
  }
  toJSON(): any {
    return { class: 'StringTerm', term: this.term };
  }
}

type Term = Die | NumericTerm | OperatorTerm | StringTerm;

/* ------------------------------------------------------------------- Roll */

export class Roll {
  data: Record<string, unknown>;
  options: Record<string, unknown>;
  terms: Term[];
  _evaluated = false;
  _total: number | undefined = undefined;
  _formula: string;

  constructor(formula: string, data: Record<string, unknown> = {}, options: Record<string, unknown> = {}) {
    this.data = data;
    this.options = options;
    this.terms = Roll.parse(formula, data);
    this._formula = Roll.getFormula(this.terms);
  }

  static create(formula: string, data: Record<string, unknown> = {}, options: Record<string, unknown> = {}): Roll {
    const cls = configRef.CONFIG?.Dice?.rolls?.[0] ?? this;
    return new cls(formula, data, options);
  }

  /** Replace @path references from data; a missing one stays as is unless `missing` is given. */
  static replaceFormulaData(formula: string, data: Record<string, unknown>, { missing, warn = false }: { missing?: string; warn?: boolean } = {}): string {
    return formula.replace(/@([a-z.0-9_-]+)/gi, (match, path) => {
      const value = getProperty(data, path);
      if (value === undefined || value === null) {
        if (warn) (globalThis as any).ui?.notifications?.warn(`The attribute ${path} was not present in the provided roll data.`);
        return missing !== undefined ? String(missing) : match;
      }
      return String(value).trim();
    });
  }

  static parse(formula: string, data: Record<string, unknown> = {}): Term[] {
    const replaced = this.replaceFormulaData(String(formula ?? ''), data).trim();
    if (!replaced) return [];
    const tokens = replaced.split(/\s*([+-])\s*/).filter((t) => t !== '');
    const terms: Term[] = [];
    for (const tok of tokens) {
      if (tok === '+' || tok === '-') {
        const last = terms[terms.length - 1];
        if (last instanceof OperatorTerm) last.operator = last.operator === tok ? '+' : '-';
        else if (!last && tok === '+') continue;
        else terms.push(new OperatorTerm(tok));
        continue;
      }
      const die = /^(\d*)[dD](\d+)$/.exec(tok);
      if (die) terms.push(new Die(die[1] === '' ? 1 : Number(die[1]), Number(die[2])));
      else if (/^\d+(\.\d+)?$/.test(tok)) terms.push(new NumericTerm(Number(tok)));
      else terms.push(new StringTerm(tok));
    }
    return terms;
  }

  static getFormula(terms: Term[]): string {
    return terms.map((t) => t.formula).join('').trim();
  }

  get formula(): string {
    return Roll.getFormula(this.terms);
  }
  get total(): number | undefined {
    return this._total;
  }
  get result(): string {
    return this.terms.map((t) => (t instanceof OperatorTerm ? t.formula : String((t as any).total ?? t.formula))).join('').trim();
  }
  get dice(): Die[] {
    return this.terms.filter((t): t is Die => t instanceof Die);
  }
  get isDeterministic(): boolean {
    return this.terms.every((t) => t.isDeterministic);
  }

  async evaluate(_options: Record<string, unknown> = {}): Promise<this> {
    return this.evaluateSync({ strict: false });
  }
  evaluateSync({ strict = true }: { strict?: boolean } = {}): this {
    if (this._evaluated) throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
    if (strict && !this.isDeterministic) throw new Error(`The ${this.constructor.name} is not deterministic and cannot be evaluated synchronously`);
    let total = 0;
    let sign = 1;
    for (const t of this.terms) {
      t.evaluate();
      if (t instanceof OperatorTerm) sign = t.operator === '-' ? -1 : 1;
      else {
        total += sign * ((t as Die | NumericTerm).total as number);
        sign = 1;
      }
    }
    this._total = total;
    this._evaluated = true;
    return this;
  }

  toJSON(): any {
    return { class: this.constructor.name, options: this.options, formula: this._formula, terms: this.terms.map((t) => t.toJSON()), total: this._total, evaluated: this._evaluated };
  }
  static fromData(data: any): Roll {
    const cls = configRef.CONFIG?.Dice?.rolls?.find((r: any) => r.name === data.class) ?? Roll;
    const roll: Roll = new cls(data.formula, {}, data.options ?? {});
    roll.terms = (data.terms ?? []).map((t: any) => {
      if (t.class === 'Die') return Object.assign(new Die(t.number, t.faces), { results: t.results, _evaluated: t.evaluated });
      if (t.class === 'NumericTerm') return Object.assign(new NumericTerm(t.number), { _evaluated: t.evaluated });
      if (t.class === 'OperatorTerm') return new OperatorTerm(t.operator);
      return new StringTerm(t.term);
    });
    roll._total = data.total;
    roll._evaluated = !!data.evaluated;
    return roll;
  }
  static fromJSON(json: string): Roll {
    return this.fromData(JSON.parse(json));
  }

  /**
   * Post to chat (evaluating first if needed). v13: {rollMode, create};
   * v14: {messageMode, create}, where rollMode is deprecated and mapped.
   */
  async toMessage(messageData: any = {}, { rollMode, messageMode, create = true }: ToMessageOptionsV13 & ToMessageOptionsV14 = {}): Promise<any> {
    let mode: RollMode | MessageMode;
    if (state.generation >= 14) {
      if (rollMode) {
        deprecate('The rollMode option of Roll#toMessage is deprecated in favor of messageMode');
        messageMode ??= legacyToMessageMode(rollMode);
      }
      mode = messageMode || currentMode();
    } else mode = (rollMode === 'roll' ? undefined : rollMode) || currentMode();
    if (!this._evaluated) await this.evaluate();
    const data = mergeObject({ author: state.user?.id, content: String(this.total), sound: configRef.CONFIG.sounds.dice }, messageData, { inplace: false });
    data.rolls = [this];
    const cls = getDocumentClass('ChatMessage');
    applyMode(data, mode);
    const msg = new cls(data);
    if (create) return cls.create(msg.toObject());
    return msg.toObject();
  }
}

/* ------------------------------------------------- roll / message modes */

const LEGACY: Record<RollMode, MessageMode> = { publicroll: 'public', gmroll: 'gm', blindroll: 'blind', selfroll: 'self' };

/** The user's current mode: the core.rollMode (v13) or core.messageMode (v14) setting. */
export const currentMode = (): any => (globalThis as any).game.settings.get('core', state.generation >= 14 ? 'messageMode' : 'rollMode');

/** v14: the message mode a deprecated roll mode stands for; "roll" is the user's current mode. */
export const legacyToMessageMode = (rollMode: RollMode | 'roll'): MessageMode => (rollMode === 'roll' ? currentMode() : ((LEGACY[rollMode] ?? rollMode) as MessageMode));

/** Whisper and blind flags for a mode of the running generation; an unknown mode is an error. */
export function applyMode(chatData: any, mode: RollMode | MessageMode): any {
  const v14 = state.generation >= 14;
  const known: readonly string[] = v14 ? MESSAGE_MODES : Object.values(CONST.DICE_ROLL_MODES);
  if (!known.includes(mode)) throw new Error(`"${mode}" is not a valid ${v14 ? 'message' : 'roll'} mode`);
  // v14: a handler a package set on the mode replaces core's whisper and blindness handling (14.366 typings, CONFIG.ChatMessage.Modes).
  const handler = v14 ? configRef.CONFIG?.ChatMessage?.modes?.[mode]?.handler : undefined;
  if (typeof handler === 'function') {
    handler(chatData);
    return chatData;
  }
  const gm = v14 ? LEGACY.gmroll : CONST.DICE_ROLL_MODES.PRIVATE;
  const blind = v14 ? LEGACY.blindroll : CONST.DICE_ROLL_MODES.BLIND;
  const self = v14 ? LEGACY.selfroll : CONST.DICE_ROLL_MODES.SELF;
  const ChatMessage = getDocumentClass('ChatMessage');
  if (mode === gm || mode === blind) chatData.whisper = ChatMessage.getWhisperRecipients('GM').map((u: any) => u.id);
  else if (mode === self) chatData.whisper = [state.user?.id];
  else chatData.whisper = [];
  chatData.blind = mode === blind;
  return chatData;
}
