/**
 * foundry.data.fields and foundry.abstract.DataModel / TypeDataModel, after the
 * v13 contracts in fvtt-types (common/data/fields.d.mts, abstract/data.d.mts):
 * clean (cast, then type-specific cleaning such as NumberField clamping), then
 * validate (an invalid value is a DataModelValidationError, nothing changes).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { currentEndpoint, deprecate, ownerOf, recordError, state } from './state';
import {
  DataFieldOperator,
  ForcedDeletion,
  ForcedReplacement,
  deepClone,
  diffObject,
  expandObject,
  getType,
  isDeletionKey,
  isEmpty,
  isOperator,
  mergeObject,
  objectsEqual,
} from './utils';

/* ------------------------------------------------------------- failures */

export class ValidationFailure {
  message?: string;
  /** Core's DataModelValidationFailure#invalidValue: the value a field refused (its leaf failure only). */
  invalidValue?: unknown;
  fields: Record<string, ValidationFailure> = {};
  elements: { id: string | number; failure: ValidationFailure }[] = [];
  constructor(message?: string, invalidValue?: unknown) {
    this.message = message;
    this.invalidValue = invalidValue;
  }
  /** Core's isEmpty(): no sub-failures (fields or elements); the stand-in's `isEmpty` getter also counts the message. */
  get hasNoSubFailures(): boolean {
    return isEmpty(this.fields) && !this.elements.length;
  }
  get isEmpty(): boolean {
    return !this.message && isEmpty(this.fields) && !this.elements.length;
  }
  lines(path = ''): string[] {
    const out: string[] = [];
    if (this.message) out.push(`${path || '(root)'}: ${this.message}`);
    for (const [k, f] of Object.entries(this.fields)) out.push(...f.lines(path ? `${path}.${k}` : k));
    for (const { id, failure } of this.elements) out.push(...failure.lines(`${path}.${id}`));
    return out;
  }
}

export class DataModelValidationError extends Error {
  constructor(
    readonly failure: ValidationFailure,
    label = 'DataModel',
  ) {
    super(`${label} validation errors:\n  ${failure.lines().join('\n  ')}`);
    this.name = 'DataModelValidationError';
  }
  /** Core's getFailure(path?): the root failure, or the one at a dotted path (through fields, else elements by id). */
  getFailure(path?: string): ValidationFailure | undefined {
    if (!path) return this.failure;
    let failure: ValidationFailure | undefined = this.failure;
    for (const p of path.split('.')) {
      if (!failure) return undefined;
      if (!isEmpty(failure.fields)) failure = failure.fields[p];
      else if (failure.elements.length) failure = failure.elements.find((e) => String(e.id) === p)?.failure;
    }
    return failure;
  }
  /** Core's getAllFailures(): each leaf failure by its dotted path; undefined when the root has no sub-failures. */
  getAllFailures(): Record<string, ValidationFailure> | undefined {
    if (this.failure.hasNoSubFailures) return undefined;
    const out: Record<string, ValidationFailure> = {};
    const walk = (f: ValidationFailure, path: string): void => {
      if (f.hasNoSubFailures) {
        out[path] = f;
        return;
      }
      for (const [k, sub] of Object.entries(f.fields)) walk(sub, path ? `${path}.${k}` : k);
      for (const { id, failure } of f.elements) walk(failure, path ? `${path}.${id}` : String(id));
    };
    walk(this.failure, '');
    return out;
  }
}

const fail = (message: string, invalidValue?: unknown) => new ValidationFailure(message, invalidValue);
const isPlain = (v: unknown) => getType(v) === 'Object' && !isOperator(v);
const isSpecial = (k: string, v: unknown) => isDeletionKey(k) || isOperator(v);

/* ------------------------------------------------------------- DataField */

export interface CleanOptions {
  partial?: boolean;
  source?: any;
  /** Document sub-type, for TypeDataField during partial updates. */
  type?: string;
  /** The current source value at this path (partial updates): new entries of a TypedObjectField are cleaned in full. */
  current?: any;
}

export class DataField {
  [key: string]: any;
  static recursive = false;
  static get _defaults(): Record<string, any> {
    return {
      required: false,
      nullable: false,
      initial: undefined,
      readonly: false,
      gmOnly: false,
      label: '',
      hint: '',
      validationError: 'is not a valid value',
    };
  }
  constructor(options: Record<string, any> = {}, context: { name?: string; parent?: DataField } = {}) {
    this.options = options;
    // Only the field's known options become properties; others (validate, validateKey…) stay in this.options
    const defaults = (this.constructor as typeof DataField)._defaults;
    for (const k of Object.keys(defaults)) this[k] = k in options ? options[k] : defaults[k];
    this.name = context.name;
    this.parent = context.parent;
  }
  get fieldPath(): string {
    return [this.parent?.fieldPath, this.name].filter(Boolean).join('.');
  }
  getInitialValue(data?: unknown): any {
    return typeof this.initial === 'function' ? this.initial(data) : deepClone(this.initial);
  }
  clean(value: any, options: CleanOptions = {}): any {
    if (isOperator(value)) return value;
    if (value === null) {
      if (this.nullable) return null;
      value = undefined;
    }
    if (value === undefined) return this.getInitialValue(options.source);
    return this._cleanType(this._cast(value), options);
  }
  protected _cast(value: any): any {
    return value;
  }
  protected _cleanType(value: any, _options: CleanOptions): any {
    return value;
  }
  validate(value: any, options: { partial?: boolean } = {}): ValidationFailure | undefined {
    if (isOperator(value)) return undefined;
    if (value === undefined) return this.required ? fail('may not be undefined', value) : undefined;
    if (value === null) return this.nullable ? undefined : fail('may not be null', value);
    try {
      const r = this._validateType(value, options);
      if (r instanceof ValidationFailure) {
        if (r.isEmpty) return undefined;
        if (r.hasNoSubFailures) r.invalidValue ??= value;
        return r;
      }
      if (r === false) return fail(this.validationError, value);
      const custom = this.options.validate?.call(this, value, options);
      if (custom === false) return fail(this.validationError, value);
      if (custom instanceof ValidationFailure && !custom.isEmpty) return custom;
    } catch (err) {
      return fail((err as Error).message, value);
    }
    return undefined;
  }
  protected _validateType(_value: any, _options: { partial?: boolean }): any {
    return true;
  }
  initialize(value: any, _model?: any, _options?: any): any {
    return value;
  }
  toObject(value: any): any {
    return deepClone(value);
  }
}

/* ---------------------------------------------------------- SchemaField */

export class SchemaField extends DataField {
  static override recursive = true;
  static override get _defaults(): Record<string, any> {
    return {
      ...super._defaults,
      required: true,
      nullable: false,
      initial(this: SchemaField) {
        return this.clean({});
      },
    };
  }
  fields: Record<string, DataField>;
  constructor(fields: Record<string, DataField>, options: Record<string, any> = {}, context = {}) {
    super(options, context);
    this.fields = {};
    for (const [name, field] of Object.entries(fields)) {
      // Core's SchemaField#_initialize (v13 common/data/fields.mjs), word for word.
      if (name === '_source') throw new Error('"_source" is not a valid name for a field of a SchemaField.');
      if (!(field instanceof DataField)) throw new Error(`The "${name}" field is not an instance of the DataField class.`);
      if (field.parent !== undefined && field.parent !== this) throw new Error(`The "${name}" field already belongs to some other parent.`);
      field.name = name;
      field.parent = this;
      this.fields[name] = field;
    }
  }
  override getInitialValue(data?: unknown): any {
    return typeof this.initial === 'function' ? this.initial.call(this, data) : deepClone(this.initial);
  }
  has(name: string): boolean {
    return name in this.fields;
  }
  get(name: string): DataField | undefined {
    return this.fields[name];
  }
  protected override _cast(value: any): any {
    return isPlain(value) ? value : {};
  }
  protected override _cleanType(data: any, options: CleanOptions): any {
    const source = options.source ?? data;
    for (const [name, field] of Object.entries(this.fields)) {
      if (options.partial && !(name in data)) continue;
      data[name] = field.clean(data[name], { ...options, source, current: options.current?.[name] });
    }
    // Core (v13 SchemaField#_cleanType) keeps a deletion key `-=name` of one of its fields and drops every other
    // unknown key; `==name` is not modelled (dropped, the stricter).
    for (const k of Object.keys(data)) if (!(k in this.fields) && !(k.startsWith('-=') && k.slice(2) in this.fields)) delete data[k];
    return data;
  }
  protected override _validateType(data: any, options: { partial?: boolean }): any {
    if (!isPlain(data)) return fail('must be an object');
    const failure = new ValidationFailure();
    for (const [name, field] of Object.entries(this.fields)) {
      if (options.partial && !(name in data)) continue;
      const f = field.validate(data[name], options);
      if (f) failure.fields[name] = f;
    }
    return failure;
  }
  override initialize(value: any, model?: any, options?: any): any {
    if (!value) return value;
    const data: any = {};
    for (const [name, field] of Object.entries(this.fields)) {
      if (name in value) data[name] = field.initialize(value[name], model, options);
    }
    return data;
  }
  override toObject(value: any): any {
    if (value == null) return value;
    const out: any = {};
    for (const [name, field] of Object.entries(this.fields)) if (name in value) out[name] = field.toObject(value[name]);
    return out;
  }
}

/* ------------------------------------------------------------ primitives */

export class BooleanField extends DataField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, required: true, nullable: false, initial: false };
  }
  protected override _cast(value: any): any {
    if (typeof value === 'string') return value === 'true';
    if (typeof value === 'object') return false;
    return Boolean(value);
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (typeof value !== 'boolean') throw new Error('must be a boolean');
  }
}

const choiceKeys = (choices: any): unknown[] | undefined => {
  if (choices === undefined) return undefined;
  const c = typeof choices === 'function' ? choices() : choices;
  return Array.isArray(c) ? c : Object.keys(c);
};

export class NumberField extends DataField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, initial: null, nullable: true, min: undefined, max: undefined, step: undefined, integer: false, positive: false, choices: undefined };
  }
  constructor(options: Record<string, any> = {}, context = {}) {
    super(options, context);
    if (options.choices !== undefined && options.nullable === undefined) this.nullable = false;
  }
  protected override _cast(value: any): any {
    return Number(value);
  }
  protected override _cleanType(value: number): number {
    if (typeof value !== 'number') return value;
    if (this.integer) value = Math.round(value);
    if (this.min !== undefined) value = Math.max(value, this.min);
    if (this.max !== undefined) value = Math.min(value, this.max);
    if (this.step) value = (this.min ?? 0) + Math.round((value - (this.min ?? 0)) / this.step) * this.step;
    return value;
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (typeof value !== 'number') throw new Error('must be a number');
    if (!Number.isFinite(value)) throw new Error('must be a finite number');
    if (this.integer && !Number.isInteger(value)) throw new Error('must be an integer');
    if (this.min !== undefined && value < this.min) throw new Error(`must be greater than or equal to ${this.min}`);
    if (this.max !== undefined && value > this.max) throw new Error(`must be less than or equal to ${this.max}`);
    if (this.positive && value <= 0) throw new Error('must be a positive number');
    const choices = choiceKeys(this.choices);
    if (choices && !choices.map(Number).includes(value)) throw new Error(`${value} is not a valid choice`);
  }
}

export class StringField extends DataField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, blank: true, trim: true, nullable: false, initial: undefined, choices: undefined, textSearch: false };
  }
  constructor(options: Record<string, any> = {}, context = {}) {
    super(options, context);
    if (options.choices !== undefined) {
      if (options.blank === undefined) this.blank = false;
      if (options.nullable === undefined) this.nullable = false;
    }
  }
  override clean(value: any, options: CleanOptions = {}): any {
    if (typeof value === 'string' && this.trim) value = value.trim();
    if (value === '') {
      if (this.blank) return value;
      value = undefined;
    }
    return super.clean(value, options);
  }
  override getInitialValue(data?: unknown): any {
    const initial = super.getInitialValue(data);
    if (initial !== undefined) return initial;
    if (this.blank) return '';
    return this.nullable ? null : undefined;
  }
  protected override _cast(value: any): any {
    return String(value);
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (typeof value !== 'string') throw new Error('must be a string');
    if (value === '') {
      if (!this.blank) throw new Error('may not be a blank string');
      return;
    }
    const choices = choiceKeys(this.choices);
    if (choices && !choices.includes(value)) throw new Error(`${value} is not a valid choice`);
  }
}

export class HTMLField extends StringField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, required: true, blank: true };
  }
}

export class FilePathField extends StringField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, categories: [], blank: false, nullable: true, initial: null };
  }
}

export class ColorField extends StringField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, nullable: true, initial: null, blank: false };
  }
  protected override _validateType(value: any, _options: any = {}): any {
    super._validateType(value);
    if (!/^#[0-9A-Fa-f]{6}$/.test(value)) throw new Error('must be a valid color string');
  }
}

export class DocumentIdField extends StringField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, required: true, blank: false, nullable: true, initial: null, readonly: true, validationError: 'is not a valid Document ID string' };
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (typeof value !== 'string' || !/^[a-zA-Z0-9]{16}$/.test(value)) throw new Error(this.validationError);
  }
}

/** Stores an id. Without idOnly, initializes to a getter resolving the document from its world collection. */
export class ForeignDocumentField extends DocumentIdField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, nullable: true, readonly: false, idOnly: false };
  }
  constructor(
    readonly documentName: string,
    options: Record<string, any> = {},
    context = {},
  ) {
    super(options, context);
  }
  protected override _cast(value: any): any {
    return typeof value === 'string' ? value : (value?.id ?? value?._id ?? String(value));
  }
  override initialize(value: any, model?: any): any {
    if (this.idOnly || value == null) return value;
    return () => worldOf(model).get(this.documentName)?.get(value) ?? null;
  }
}

export class JSONField extends StringField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, blank: false, trim: false, validationError: 'is not a valid JSON string' };
  }
  override clean(value: any, options: CleanOptions = {}): any {
    if (value !== undefined && value !== null && typeof value !== 'string') value = JSON.stringify(value);
    return super.clean(value, options);
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (typeof value !== 'string') throw new Error('must be a serialized JSON string');
    JSON.parse(value);
  }
}

export class AnyField extends DataField {}

/* --------------------------------------------------------- object-likes */

export class ObjectField extends DataField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, required: true, nullable: false, initial: () => ({}) };
  }
  protected override _cast(value: any): any {
    return typeof value?.toObject === 'function' ? value.toObject() : value;
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (!isPlain(value)) throw new Error('must be an object');
  }
  override initialize(value: any): any {
    return deepClone(value);
  }
}

export class TypedObjectField extends ObjectField {
  static override recursive = true;
  constructor(
    readonly element: DataField,
    options: Record<string, any> = {},
    context = {},
  ) {
    super(options, context);
    element.parent = this;
  }
  protected override _cleanType(data: any, options: CleanOptions): any {
    for (const [k, v] of Object.entries(data)) {
      if (isSpecial(k, v)) continue;
      if (this.options.validateKey?.(k) === false) delete data[k];
      else {
        const current = options.current?.[k];
        data[k] = this.element.clean(v, { ...options, current, partial: !!options.partial && current !== undefined });
      }
    }
    return data;
  }
  protected override _validateType(data: any, options: { partial?: boolean }): any {
    if (!isPlain(data)) throw new Error('must be an object');
    const failure = new ValidationFailure();
    for (const [k, v] of Object.entries(data)) {
      if (isSpecial(k, v)) continue;
      const f = this.element.validate(v, options);
      if (f) failure.fields[k] = f;
    }
    return failure;
  }
  override initialize(value: any, model?: any, options?: any): any {
    const out: any = {};
    for (const [k, v] of Object.entries(value ?? {})) out[k] = this.element.initialize(v, model, options);
    return out;
  }
  override toObject(value: any): any {
    const out: any = {};
    for (const [k, v] of Object.entries(value ?? {})) out[k] = this.element.toObject(v);
    return out;
  }
}

export class ArrayField extends DataField {
  static override recursive = true;
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, required: true, nullable: false, initial: () => [], min: 0, max: Infinity };
  }
  constructor(
    readonly element: DataField,
    options: Record<string, any> = {},
    context = {},
  ) {
    super(options, context);
    if (!(element instanceof DataField)) throw new Error(`${this.constructor.name} must have a DataField as its contained element`);
    element.parent = this;
    if (this.max < this.min) throw new Error('ArrayField max must be greater than or equal to min');
  }
  protected override _cast(value: any): any {
    const t = getType(value);
    if (t === 'Set') return Array.from(value);
    if (t === 'Object' && !isOperator(value)) {
      const arr: any[] = [];
      for (const [k, v] of Object.entries(value)) {
        const i = Number(k);
        if (Number.isInteger(i) && i >= 0) arr[i] = v;
      }
      return arr;
    }
    return Array.isArray(value) ? value : [value];
  }
  protected override _cleanType(value: any[], options: CleanOptions): any[] {
    return value.map((v) => this.element.clean(v, { ...options, partial: false, current: undefined }));
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (!Array.isArray(value)) throw new Error('must be an Array');
    if (value.length < this.min) throw new Error(`cannot have fewer than ${this.min} elements`);
    if (value.length > this.max) throw new Error(`cannot have more than ${this.max} elements`);
    const failure = new ValidationFailure();
    value.forEach((v, i) => {
      const f = this.element.validate(v, {});
      if (f) failure.elements.push({ id: i, failure: f });
    });
    return failure;
  }
  override initialize(value: any, model?: any, options?: any): any {
    return value?.map((v: any) => this.element.initialize(v, model, options));
  }
  override toObject(value: any): any {
    return value == null ? value : Array.from(value, (v) => this.element.toObject(v));
  }
}

export class SetField extends ArrayField {
  protected override _validateType(value: any, _options: any = {}): any {
    const f = super._validateType(value);
    if (new Set(value.map((v: unknown) => JSON.stringify(v))).size !== value.length) throw new Error('may not contain duplicate elements');
    return f;
  }
  override initialize(value: any, model?: any, options?: any): any {
    return value == null ? value : new Set(super.initialize(value, model, options));
  }
}

export class EmbeddedDataField extends SchemaField {
  constructor(
    readonly model: typeof DataModel,
    options: Record<string, any> = {},
    context = {},
  ) {
    super({}, options, context);
    this.fields = model.schema.fields; // the model's own fields, not re-parented
  }
  protected override _cast(value: any): any {
    return typeof value?.toObject === 'function' ? value.toObject() : super._cast(value);
  }
  protected override _validateType(data: any, options: { partial?: boolean }): any {
    const f = super._validateType(data, options);
    if (f instanceof ValidationFailure && f.isEmpty && !options.partial) {
      try {
        this.model.validateJoint(data);
      } catch (err) {
        return fail((err as Error).message);
      }
    }
    return f;
  }
  /** Core's: the model is built on the parent's source object itself (no copy), which it then owns and seals. */
  override initialize(value: any, model?: any): any {
    if (!value) return value;
    return new this.model(value, { parent: model });
  }
  override toObject(value: any): any {
    return value?.toObject ? value.toObject(false) : deepClone(value);
  }
}

/* ------------------------------------------------------ document fields */

export class DocumentOwnershipField extends ObjectField {
  static override get _defaults(): Record<string, any> {
    return { ...super._defaults, initial: () => ({ default: 0 }), validationError: 'is not a mapping of user IDs and document permission levels' };
  }
  protected override _validateType(value: any, _options: any = {}): any {
    super._validateType(value);
    for (const [k, v] of Object.entries(value)) {
      if (isSpecial(k, v)) continue;
      if (![-1, 0, 1, 2, 3].includes(v as number)) throw new Error(this.validationError);
    }
  }
}

export class DocumentStatsField extends SchemaField {
  constructor(options = {}, context = {}) {
    super(
      {
        coreVersion: new StringField({ required: true, blank: false, nullable: true, initial: () => String(state.generation) }),
        systemId: new StringField({ required: true, blank: false, nullable: true, initial: null }),
        createdTime: new NumberField(),
        modifiedTime: new NumberField(),
        lastModifiedBy: new StringField({ nullable: true, blank: false, initial: null }),
        // Where a copy came from: a compendium entry's uuid, or a world document's (core's, since v12).
        compendiumSource: new StringField({ nullable: true, blank: false, initial: null }),
        duplicateSource: new StringField({ nullable: true, blank: false, initial: null }),
      },
      options,
      context,
    );
  }
}

/** A document's `type`: one of the document class's TYPES. */
export class DocumentTypeField extends StringField {
  constructor(
    readonly documentClass: any,
    options: Record<string, any> = {},
    context = {},
  ) {
    super({ required: true, nullable: false, blank: false, ...options }, context);
  }
  protected override _validateType(value: any, _options: any = {}): any {
    if (typeof value !== 'string' || !this.documentClass.TYPES.includes(value)) {
      throw new Error(`"${value}" is not a valid type for the ${this.documentClass.documentName} Document class`);
    }
  }
}

/** `system`: the TypeDataModel registered in CONFIG[documentName].dataModels[type], else a plain object. */
export class TypeDataField extends ObjectField {
  static override recursive = true;
  constructor(
    readonly documentClass: any,
    options: Record<string, any> = {},
    context = {},
  ) {
    super(options, context);
  }
  getModelForType(type: string | undefined): typeof DataModel | undefined {
    if (!type) return undefined;
    return configRef.CONFIG?.[this.documentClass.documentName]?.dataModels?.[type];
  }
  override getInitialValue(data?: any): any {
    const model = this.getModelForType(data?.type);
    return model ? model.schema.getInitialValue(data) : {};
  }
  protected override _cleanType(value: any, options: CleanOptions): any {
    const model = this.getModelForType(options.type ?? options.source?.type);
    if (!model) return value;
    return model.schema.clean(value, { ...options, source: value });
  }
  protected override _validateType(value: any, options: { partial?: boolean; type?: string } & any): any {
    if (!isPlain(value)) throw new Error('must be an object');
    const model = this.getModelForType(options.type);
    if (!model) return;
    const f = model.schema.validate(value, { ...options, partial: options.partial });
    if (f) return f;
    if (!options.partial) model.validateJoint(value);
  }
  override initialize(value: any, document?: any): any {
    const type = document?._source?.type;
    const model = type ? ownerOf(document).CONFIG?.[this.documentClass.documentName]?.dataModels?.[type] : undefined;
    if (!model) return deepClone(value);
    // Core's: the system model is built on the document's `_source.system` itself (no copy), which it seals.
    return new model(value, { parent: document });
  }
  override toObject(value: any): any {
    return value?.toObject ? value.toObject(false) : deepClone(value);
  }
}

/** The world collections of the endpoint running the code (a client's own copies, or the server's store). */
export const worldCollections = {
  get(name: string): any {
    return currentEndpoint().collections.get(name);
  },
};

/** The world collections a document lives in: those of its own client (or of the server). */
export function worldOf(doc: any): { get(name: string): any } {
  return ownerOf(doc).collections;
}

/** CONFIG of the endpoint running the code; the system id is the world's. */
export const configRef: { readonly CONFIG: any; systemId: string } = {
  get CONFIG(): any {
    return currentEndpoint().CONFIG;
  },
  systemId: 'ten-segments',
};

/* ------------------------------------------------------------- DataModel */

const schemas = new WeakMap<object, SchemaField>();

/** Turn v14 legacy special keys into operators (with a deprecation warning), recursively. */
export function normalizeSpecialKeys(changes: any): any {
  if (state.generation < 14 || !isPlain(changes)) return changes;
  for (const k of Object.keys(changes)) {
    const v = changes[k];
    if (isDeletionKey(k)) {
      deprecate(`The special "${k.slice(0, 2)}" update key is deprecated in favor of ${k[0] === '-' ? 'ForcedDeletion (_del)' : 'ForcedReplacement (_replace)'}`);
      delete changes[k];
      changes[k.slice(2)] = k[0] === '-' ? new ForcedDeletion() : new ForcedReplacement(v);
    } else if (isPlain(v)) normalizeSpecialKeys(v);
  }
  return changes;
}

export class DataModel {
  [key: string]: any;
  declare readonly _source: any;
  declare parent: any;

  static defineSchema(): Record<string, DataField> {
    throw new Error(`The ${this.name} subclass of DataModel must define its Document schema`);
  }
  static get schema(): SchemaField {
    let s = schemas.get(this);
    if (!s) {
      const defined = this.defineSchema();
      for (const [name, owner] of reservedFieldNames(this)) {
        if (Object.hasOwn(defined, name)) throw new Error(reservedFieldError(this.name, name, owner));
      }
      s = new SchemaField(defined);
      schemas.set(this, s);
    }
    return s;
  }
  static LOCALIZATION_PREFIXES: string[] = [];
  static migrateData(source: any): any {
    return source;
  }
  /**
   * migrateData, then the models of the schema's TypeDataField (by source.type) and EmbeddedDataFields, all
   * on the given object. Core's v13 migrateDataSafe calls `this.migrateData(source)` and returns `source`:
   * what migrateData returns is not used, a migration must change the object it is given.
   */
  static migrateDataSafe(source: any): any {
    try {
      this.migrateData(source);
    } catch (err) {
      recordError(`${this.name}.migrateData`, err);
    }
    for (const [name, field] of Object.entries(this.schema.fields)) {
      if (!isPlain(source?.[name])) continue;
      if (field instanceof TypeDataField) field.getModelForType(source.type)?.migrateDataSafe(source[name]);
      else if (field instanceof EmbeddedDataField) field.model.migrateDataSafe(source[name]);
    }
    return source;
  }
  static shimData(data: any): any {
    return data;
  }
  static cleanData(source: any = {}, options: CleanOptions = {}): any {
    return this.schema.clean(source, options);
  }
  /** Joint validation of a complete source; throw to reject. */
  static validateJoint(_data: any): void {}
  static fromSource(source: any, options: any = {}): any {
    return new this(source, options);
  }

  /**
   * Core's: the model owns `data`: it is migrated and cleaned in place and kept as `_source` (no copy), which
   * is then sealed (Object.seal: no key may be added or removed; nested objects are not sealed unless they are
   * another model's source, as `system` and an EmbeddedDataField's value are).
   */
  constructor(data: any = {}, { parent = null, strict = true, ...options }: any = {}) {
    Object.defineProperty(this, 'parent', { value: parent, writable: true, enumerable: false, configurable: true });
    Object.defineProperty(this, '_source', {
      value: this._initializeSource(data, { strict, ...options }),
      writable: false,
      enumerable: false,
      configurable: true,
    });
    Object.seal(this._source);
    this._initialize(options);
  }

  get schema(): SchemaField {
    return (this.constructor as typeof DataModel).schema;
  }

  /** Label used in validation errors. */
  protected _validationLabel(): string {
    return this.constructor.name;
  }

  /** Core's v13 order: a model is copied (toObject), plain data is used as given; migrate, check the type, clean. */
  protected _initializeSource(data: any, options: any = {}): any {
    const cls = this.constructor as typeof DataModel;
    if (data instanceof DataModel) data = data.toObject();
    cls.migrateDataSafe(data);
    const dt = getType(data);
    if (dt !== 'Object') throw new Error(`${this.constructor.name} was incorrectly constructed with a ${dt} instead of an object.`);
    const source = cls.cleanData(data, { type: data.type });
    if (options.strict !== false) {
      const f = this.schema.validate(source, { type: source?.type } as any);
      if (f) throw new DataModelValidationError(f, this._labelFor(source));
      try {
        cls.validateJoint(source);
      } catch (err) {
        throw new DataModelValidationError(fail((err as Error).message), this._labelFor(source));
      }
    }
    return source;
  }

  protected _labelFor(source: any): string {
    const name = (this.constructor as any).documentName ?? this.constructor.name;
    return source?._id ? `${name} [${source._id}]` : name;
  }

  protected _initialize(_options: any = {}): void {
    for (const [name, field] of Object.entries(this.schema.fields)) {
      const value = field.initialize(this._source[name], this, _options);
      if (typeof value === 'function' && !(field instanceof TypeDataField)) {
        Object.defineProperty(this, name, { get: value, set() {}, configurable: true, enumerable: true });
      } else if (name === '_id') {
        Object.defineProperty(this, name, { value, writable: false, configurable: true, enumerable: true });
      } else {
        // Core assigns (`this[name] = …`, strict mode): a field named like a getter of DataModel itself (`schema`…) throws, as there.
        const base = Object.getOwnPropertyDescriptor(DataModel.prototype, name);
        if (base?.get && !base.set) throw new TypeError(`Cannot set property ${name} of #<${this.constructor.name}> which has only a getter`);
        Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: true });
      }
    }
  }

  reset(): void {
    this._initialize();
  }

  /**
   * Core's validate: the source, or `changes` (partial). `clean`: the changes are cleaned in place first
   * (cast, e.g. "7" → 7), as core's. `fallback` is not modelled: an invalid value always throws (the stricter).
   */
  validate({ changes, partial, clean = false }: { changes?: any; partial?: boolean; clean?: boolean; fallback?: boolean; strict?: boolean } = {}): void {
    if (changes && clean) {
      const type = changes.type ?? this._source.type;
      const cleaned = this.schema.clean(changes, { partial: true, source: this._source, current: this._source, type });
      if (cleaned !== changes) {
        for (const k of Object.keys(changes)) delete changes[k];
        Object.assign(changes, cleaned);
      }
    }
    const data = changes ?? this._source;
    const f = this.schema.validate(data, { partial: partial ?? !!changes, type: data?.type ?? this._source.type } as any);
    if (f) throw new DataModelValidationError(f, this._labelFor(this._source));
  }

  /**
   * Apply changes to the source: expand, clean (partial), validate, diff,
   * merge with deletions, validate the result. Returns the diff; with
   * dryRun nothing changes. Throws DataModelValidationError.
   */
  updateSource(changes: any = {}, options: { dryRun?: boolean } = {}): any {
    const cls = this.constructor as typeof DataModel;
    // Core mutates the caller's changes: dotted keys expanded in the object itself, then cleaned in place.
    if (Object.keys(changes).some((k) => k.includes('.'))) {
      const expanded = expandObject(changes);
      for (const k of Object.keys(changes)) delete changes[k];
      Object.assign(changes, expanded);
    }
    normalizeSpecialKeys(changes);
    const type = changes.type ?? this._source.type;
    // Core ignores what cleanData returns here: the changes object is the one cleaned.
    cls.cleanData(changes, { partial: true, source: this._source, current: this._source, type });
    const cleaned = changes;
    const label = this._labelFor(this._source);
    const f = this.schema.validate(cleaned, { partial: true, type } as any);
    if (f) throw new DataModelValidationError(f, label);
    const diff = diffObject(this._source, cleaned, { deletionKeys: true });
    dropEqualArrays(this._source, diff);
    const next = mergeObject(deepClone(this._source), diff, { performDeletions: true, inplace: true });
    const full = this.schema.validate(next, { type } as any);
    if (full) throw new DataModelValidationError(full, label);
    try {
      cls.validateJoint(next);
    } catch (err) {
      throw new DataModelValidationError(fail((err as Error).message), label);
    }
    if (!options.dryRun) {
      commitSchema(this.schema.fields, this._source, next, diff);
      this._initialize();
    }
    return diff;
  }

  toObject(source = true): any {
    if (source) return deepClone(this._source);
    return this.schema.toObject(this);
  }
  toJSON(): any {
    return this.toObject();
  }
  clone(data: any = {}, context: any = {}): any {
    const cls = this.constructor as any;
    return new cls(mergeObject(this.toObject(), data, { insertKeys: true, inplace: true }), { parent: this.parent, ...context });
  }
}

/**
 * Core's `_updateCommit`: the changed fields are written into the source objects in place, recursing through
 * schemas (a SchemaField, an EmbeddedDataField's model, the `system` model of the type); any other field's new
 * value is assigned. A removed field is set to undefined (its key stays, as core's commit assigns). Writing a
 * field whose key a sealed source lacks throws, as in core.
 */
function commitSchema(fields: Record<string, DataField>, source: any, next: any, diff: any): void {
  for (const key of Object.keys(diff)) {
    const special = isDeletionKey(key);
    const name = special ? key.slice(2) : key;
    const field = fields[name];
    if (!field) continue;
    const value = next?.[name];
    const change = diff[key];
    let inner: Record<string, DataField> | undefined;
    if (field instanceof SchemaField) inner = field.fields;
    else if (field instanceof TypeDataField && next?.type === source.type) inner = field.getModelForType(next?.type)?.schema.fields;
    if (inner && !special && isPlain(change) && isPlain(source[name]) && isPlain(value)) commitSchema(inner, source[name], value, change);
    else source[name] = value;
  }
}

/** Core's reserved names: DataModel's own members, and TypeDataModel's `modelProvider`. */
function reservedFieldNames(cls: typeof DataModel): [string, string][] {
  const names: [string, string][] = ['schema', 'invalid', 'validationFailures', 'parent'].map((n) => [n, 'DataModel']);
  if (cls.prototype instanceof TypeDataModel) names.push(['modelProvider', 'TypeDataModel']);
  return names;
}

/** The wording is the stand-in's: issue 25 established that core refuses these names when the schema is defined, not its message (unconfirmed). */
function reservedFieldError(model: string, name: string, owner: string): string {
  return `The ${model} data model may not define a field named "${name}": the name is reserved by ${owner}`;
}

function dropEqualArrays(source: any, diff: any): void {
  for (const [k, v] of Object.entries(diff)) {
    if (Array.isArray(v) && objectsEqual(source?.[k], v)) delete diff[k];
    else if (isPlain(v) && isPlain(source?.[k])) {
      dropEqualArrays(source[k], v);
      if (isEmpty(v)) delete diff[k];
    }
  }
}

/** System data of a Document sub-type. */
export class TypeDataModel extends DataModel {
  prepareBaseData(): void {}
  prepareDerivedData(): void {}
  async _preCreate(_data: any, _options: any, _user: any): Promise<boolean | void> {}
  _onCreate(_data: any, _options: any, _userId: string): void {}
  async _preUpdate(_changes: any, _options: any, _user: any): Promise<boolean | void> {}
  _onUpdate(_changed: any, _options: any, _userId: string): void {}
  async _preDelete(_options: any, _user: any): Promise<boolean | void> {}
  _onDelete(_options: any, _userId: string): void {}
}

export const fields = {
  AnyField,
  ArrayField,
  BooleanField,
  ColorField,
  DataField,
  DocumentIdField,
  DocumentOwnershipField,
  DocumentStatsField,
  EmbeddedDataField,
  FilePathField,
  ForeignDocumentField,
  HTMLField,
  JSONField,
  NumberField,
  ObjectField,
  SchemaField,
  SetField,
  StringField,
  TypedObjectField,
  TypeDataField,
  DocumentTypeField,
};

export { DataFieldOperator };
