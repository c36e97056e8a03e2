/**
 * Scenario files: a whole encounter written down so it can be played by the
 * engine without Foundry (the `npm run sim` CLI, end-to-end tests).
 *
 * Pure: no Node API, no Foundry global. The CLI parses YAML or JSON into a
 * plain object; `validateScenario` checks it field by field and turns it into
 * everything `runCombat` needs. Every problem is collected (not just the first)
 * as a Problem whose `path` names the offending field, e.g.
 * `combatants[2].hp` or `declarations.1[0].castingTime`.
 *
 * Shape (see README.md, Scenario runner for the full description and an example):
 *
 *   title?: string                 shown above the timeline
 *   description?: string
 *   procedure: segment-d6 | high-low | d12-ascending | individual-speed | addict
 *   options?: { <option>: value }  checked with resolveOptions
 *   rounds?: N                     else the highest round any entry names (at least 1)
 *   sides: [{ id, name?, alerted?, surprised? }]
 *   combatants: [{ id, name?, side, hp, ...Combatant stats }]
 *   declarations?:
 *     surprise: [...]              round 0 (surprise segments / surprise round)
 *     1: [{ combatant, action, ... }]   or a map { <combatant id>: { action, ... } }
 *     3: ...                       round 2 has no entry: "same as last round"
 *   dice?: [{ purpose, side?, combatant?, round?, result }]
 *   damage?: [DamageEvent]
 *   joins?: [{ round, step, combatant: {...}, declaration?: {...} }]
 *   morale?: [{ round, combatant, trigger?, opposed? }]
 *   cancel?: [{ round, combatant } | { round, casting }]
 */
import type { Dice, DiePurpose, DieRequest } from './dice';
import { isPossibleTotal } from './dice';
import type { Combatant, Declaration, Problem, ProcedureId, Side } from './model';
import { ACTION_KINDS, PROCEDURE_IDS, RulesError, isProcedureId } from './model';
import type { Encounter, LateJoinResult, Procedure, ProcedureOptions, Schedule } from './procedure';
import { resolveOptions } from './procedure';
import type { CombatLog, CombatScript, DamageEvent } from './resolve';
import { runCombat } from './resolve';

/** A printable form of any value from a scenario file, even one whose toString throws. */
function show(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}

/* -------------------------------------------------------------------- types */

export type ProcedureTable = Partial<Record<ProcedureId, Procedure<ProcedureOptions>>>;

/** Something the GM should know that is not an error; key is a full localization key. */
export interface ScenarioNote {
  key: string;
  data?: Record<string, string | number>;
  path?: string;
}

export const DIE_PURPOSES: readonly DiePurpose[] = ['surprise', 'initiative', 'morale', 'attack', 'damage', 'other'];

/** A scripted roll, remembering where it was written (for error paths). */
export interface ScriptedDie {
  index: number;
  purpose: DiePurpose;
  side?: string;
  combatant?: string;
  round?: number;
  result: number;
}

export interface ScenarioJoin {
  round: number;
  step: number;
  combatant: Combatant;
  declaration?: Declaration;
}

export interface ScenarioMorale {
  round: number;
  combatant: string;
  trigger: string;
  opposed?: number;
}

/** A caster elects not to complete a casting: by caster (any casting of theirs that round) or by casting id. */
export interface ScenarioCancel {
  round: number;
  combatant?: string;
  casting?: string;
}

export interface ValidScenario {
  title?: string;
  description?: string;
  procedure: Procedure<ProcedureOptions>;
  /** The procedure the file names (differs from procedure.id after an override). */
  originalProcedure: ProcedureId;
  options: ProcedureOptions;
  encounter: Encounter;
  rounds: number;
  /** Explicit declarations by round (0 = surprise). */
  declarations: Map<number, Record<string, Declaration>>;
  dice: ScriptedDie[];
  damage: DamageEvent[];
  joins: ScenarioJoin[];
  morale: ScenarioMorale[];
  cancels: ScenarioCancel[];
  notes: ScenarioNote[];
}

export type ValidationResult =
  | { ok: true; scenario: ValidScenario }
  | { ok: false; problems: Problem[]; notes: ScenarioNote[] };

export interface ValidateOverrides {
  /** Run the same encounter under another procedure (--procedure). */
  procedure?: string;
  /** Play this many rounds instead (--rounds). */
  rounds?: number;
}

/** Largest number of rounds a scenario may ask for. */
export const MAX_ROUNDS = 1000;

/* ------------------------------------------------------------ field schemas */

type Spec =
  | { t: 'string'; required?: boolean }
  | { t: 'number'; int?: boolean; min?: number; max?: number; required?: boolean }
  | { t: 'boolean'; required?: boolean }
  | { t: 'strings'; required?: boolean }
  | { t: 'enum'; values: readonly string[]; required?: boolean }
  | { t: 'hitDice'; required?: boolean }
  | { t: 'weapon'; required?: boolean };

const str: Spec = { t: 'string' };
const req: Spec = { t: 'string', required: true };
const bool: Spec = { t: 'boolean' };
const int = (min?: number, max?: number, required = false): Spec => ({ t: 'number', int: true, min, max, required });
const num = (min?: number, max?: number): Spec => ({ t: 'number', min, max });

const WEAPON_FIELDS: Record<string, Spec> = {
  name: str,
  speed: int(-20, 30),
  length: num(0, 100),
  space: num(0, 100),
  missile: bool,
  rate: num(0.01, 20),
};

export const COMBATANT_FIELDS: Record<string, Spec> = {
  id: req,
  name: str,
  side: req,
  kind: { t: 'enum', values: ['character', 'monster'] },
  hp: int(-1000, 100000, true),
  maxHp: int(1, 100000),
  routines: int(0, 20),
  surpriseAdjustment: int(-10, 10),
  initiativeAdjustment: int(-10, 10),
  missileBonus: int(-10, 10),
  surprisedOn: int(0, 12),
  surprisesOn: int(0, 12),
  surprisesOthersAdjust: int(-12, 12),
  surprisedAdjust: int(-12, 12),
  neverSurprised: bool,
  className: str,
  level: int(0, 40),
  hitDice: { t: 'hitDice' },
  agilityModifier: int(-10, 10),
  insightModifier: int(-10, 10),
  strength: int(1, 100),
  stress: int(0, 100000),
  maxStress: int(0, 100000),
  woundPoints: int(-1000, 100000),
  maxWoundPoints: int(1, 100000),
  morale: int(-100, 100),
  movement: num(0, 10000),
  chargeMovement: num(0, 10000),
  weapon: { t: 'weapon' },
  spells: { t: 'strings' },
  initiativeGroup: str,
};

export const DECLARATION_FIELDS: Record<string, Spec> = {
  combatant: str,
  action: { t: 'enum', values: ACTION_KINDS, required: true },
  target: str,
  weapon: { t: 'weapon' },
  spell: str,
  castingTime: int(1, 100),
  speed: num(-100, 100),
  routines: int(0, 20),
  hesitation: int(0, 10),
  distance: num(0, 10000),
  readied: bool,
  delayed: bool,
  note: str,
};

const SIDE_FIELDS: Record<string, Spec> = { id: req, name: str, alerted: bool, surprised: bool };

const DAMAGE_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  target: req,
  amount: int(0, 100000, true),
  by: str,
  routine: int(1, 20),
  spell: bool,
  critical: bool,
  step: int(0, 1000000),
  segment: int(1, 100),
  count: num(-1000, 1000),
};

const DIE_FIELDS: Record<string, Spec> = {
  purpose: { t: 'enum', values: DIE_PURPOSES, required: true },
  side: str,
  combatant: str,
  round: int(0, MAX_ROUNDS),
  result: int(undefined, undefined, true),
};

const MORALE_FIELDS: Record<string, Spec> = {
  round: int(0, MAX_ROUNDS, true),
  combatant: req,
  trigger: str,
  opposed: num(-1000, 1000),
};

const CANCEL_FIELDS: Record<string, Spec> = { round: int(0, MAX_ROUNDS, true), combatant: str, casting: str };

const JOIN_FIELDS = ['round', 'step', 'combatant', 'declaration'];

const TOP_FIELDS = [
  'title',
  'description',
  'procedure',
  'options',
  'rounds',
  'sides',
  'combatants',
  'declarations',
  'dice',
  'damage',
  'joins',
  'morale',
  'cancel',
];

/**
 * The largest result a scripted die can show where a seed text fixes the die
 * (000: d6 surprise and initiative; 001: d6 group initiative; 002: d12
 * surprise and initiative; 003: d12 base initiative, 3d6 morale; 004: d6).
 * Other rolls are checked when the engine asks for them.
 */
export const KNOWN_DICE: Record<ProcedureId, Partial<Record<DiePurpose, { count: number; faces: number }>>> = {
  'segment-d6': { surprise: { count: 1, faces: 6 }, initiative: { count: 1, faces: 6 } },
  'high-low': { initiative: { count: 1, faces: 6 } },
  'd12-ascending': { surprise: { count: 1, faces: 12 }, initiative: { count: 1, faces: 12 } },
  'individual-speed': { initiative: { count: 1, faces: 12 }, morale: { count: 3, faces: 6 } },
  addict: { surprise: { count: 1, faces: 6 }, initiative: { count: 1, faces: 6 } },
};

/* ---------------------------------------------------------------- helpers */

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Edit distance, for "did you mean" on misspelt fields (short strings only). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[n];
}

function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  // Close enough to be a slip, and not a wholesale replacement of a very short word.
  return bestD <= Math.max(1, Math.floor(word.length / 3)) && bestD < word.length ? best : undefined;
}

class Collector {
  readonly problems: Problem[] = [];
  add(key: string, path: string, data?: Record<string, string | number>): void {
    const p: Problem = { key, path };
    if (data) p.data = data;
    this.problems.push(p);
  }
  unknownField(field: string, path: string, allowed: readonly string[]): void {
    const s = suggest(field, allowed);
    if (s) this.add('UnknownFieldDidYouMean', join(path, field), { field, suggestion: s });
    else this.add('UnknownField', join(path, field), { field, allowed: allowed.join(', ') });
  }
}

/** Check a value against a spec; returns the cleaned value or undefined (problem recorded). */
function checkValue(value: unknown, spec: Spec, path: string, field: string, out: Collector): unknown {
  switch (spec.t) {
    case 'string':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value !== 'string') return out.add('ExpectedText', path, { field }), undefined;
      if (spec.required && value.trim() === '') return out.add('EmptyText', path, { field }), undefined;
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') return out.add('ExpectedBoolean', path, { field }), undefined;
      return value;
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return out.add('ExpectedNumber', path, { field, value: show(value) }), undefined;
      }
      if (spec.int && !Number.isInteger(value)) return out.add('ExpectedInteger', path, { field, value }), undefined;
      if (spec.min !== undefined && value < spec.min) return out.add('NumberTooSmall', path, { field, value, min: spec.min }), undefined;
      if (spec.max !== undefined && value > spec.max) return out.add('NumberTooLarge', path, { field, value, max: spec.max }), undefined;
      return value;
    }
    case 'strings':
      if (!Array.isArray(value)) return out.add('ExpectedList', path, { field }), undefined;
      {
        const list: string[] = [];
        value.forEach((v, i) => {
          const s = checkValue(v, { t: 'string', required: true }, join(path, i), field, out);
          if (typeof s === 'string') list.push(s);
        });
        return list.length === value.length ? list : undefined;
      }
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) {
        const s = typeof value === 'string' ? suggest(value, spec.values) : undefined;
        if (s) out.add('UnknownValueDidYouMean', path, { field, value: show(value), suggestion: s });
        else out.add('UnknownValue', path, { field, value: show(value), allowed: spec.values.join(', ') });
        return undefined;
      }
      return value;
    case 'hitDice': {
      const s = typeof value === 'number' ? String(value) : value;
      if (typeof s !== 'string' || !/^\s*\d+(\/\d+)?\s*([+-]\s*\d+)?\s*$/.test(s)) {
        return out.add('HitDiceInvalid', path, { field, value: show(value) }), undefined;
      }
      return s.replace(/\s+/g, '');
    }
    case 'weapon':
      return checkObject(value, WEAPON_FIELDS, path, out);
  }
}

/** Check an object's fields against specs: unknown fields, required fields, types. */
function checkObject(value: unknown, fields: Record<string, Spec>, path: string, out: Collector): Record<string, unknown> | undefined {
  if (!isRecord(value)) {
    out.add('ExpectedObject', path, { field: path });
    return undefined;
  }
  const result: Record<string, unknown> = {};
  let ok = true;
  const allowed = Object.keys(fields);
  for (const [key, v] of Object.entries(value)) {
    const spec = fields[key];
    if (!spec) {
      out.unknownField(key, path, allowed);
      ok = false;
      continue;
    }
    if (v === null || v === undefined) {
      if (spec.required) {
        out.add('FieldMissing', join(path, key), { field: key });
        ok = false;
      }
      continue;
    }
    const checked = checkValue(v, spec, join(path, key), key, out);
    if (checked === undefined) ok = false;
    else result[key] = checked;
  }
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.required && !(key in value)) {
      out.add('FieldMissing', join(path, key), { field: key });
      ok = false;
    }
  }
  return ok ? result : undefined;
}

function listAt(raw: Record<string, unknown>, key: string, out: Collector): unknown[] {
  const v = raw[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    out.add('ExpectedList', key, { field: key });
    return [];
  }
  return v;
}

/** Round keys of `declarations`: "surprise" or 0 for round 0, then 1, 2, … */
function roundOfKey(key: string): number | null {
  if (key === 'surprise') return 0;
  if (!/^\d+$/.test(key)) return null;
  const n = Number(key);
  return n <= MAX_ROUNDS ? n : null;
}

/* --------------------------------------------------------------- validator */

/**
 * Validate a parsed scenario. Nothing is run: the result is either a ready
 * scenario or every problem found, each naming its field.
 */
export function validateScenario(raw: unknown, procedures: ProcedureTable, overrides: ValidateOverrides = {}): ValidationResult {
  const out = new Collector();
  const notes: ScenarioNote[] = [];
  if (!isRecord(raw)) {
    out.add('ScenarioNotObject', '');
    return { ok: false, problems: out.problems, notes };
  }
  for (const key of Object.keys(raw)) if (!TOP_FIELDS.includes(key)) out.unknownField(key, '', TOP_FIELDS);

  const title = raw.title === undefined ? undefined : checkValue(raw.title, str, 'title', 'title', out);
  const description = raw.description === undefined ? undefined : checkValue(raw.description, str, 'description', 'description', out);

  /* procedure (and override) */
  let originalId: ProcedureId | null = null;
  if (raw.procedure === undefined || raw.procedure === null) out.add('FieldMissing', 'procedure', { field: 'procedure' });
  else if (!isProcedureId(raw.procedure)) {
    const s = typeof raw.procedure === 'string' ? suggest(raw.procedure, PROCEDURE_IDS) : undefined;
    out.add(s ? 'UnknownProcedureDidYouMean' : 'UnknownProcedure', 'procedure', {
      id: show(raw.procedure),
      ...(s ? { suggestion: s } : { allowed: PROCEDURE_IDS.join(', ') }),
    });
  } else originalId = raw.procedure;

  let procedureId: ProcedureId | null = originalId;
  if (overrides.procedure !== undefined) {
    if (!isProcedureId(overrides.procedure)) {
      out.add('UnknownProcedure', '--procedure', { id: overrides.procedure, allowed: PROCEDURE_IDS.join(', ') });
      procedureId = null;
    } else procedureId = overrides.procedure;
  }
  const original = originalId ? procedures[originalId] : undefined;
  const procedure = procedureId ? procedures[procedureId] : undefined;
  if (originalId && !original) out.add('ProcedureUnavailable', 'procedure', { id: originalId });
  if (procedureId && procedureId !== originalId && !procedure) out.add('ProcedureUnavailable', '--procedure', { id: procedureId });
  const switched = procedureId !== null && originalId !== null && procedureId !== originalId;

  /* options */
  let options: ProcedureOptions = procedure ? { ...procedure.defaults } : {};
  if (raw.options !== undefined && raw.options !== null) {
    if (!isRecord(raw.options)) out.add('ExpectedObject', 'options', { field: 'options' });
    else if (original) {
      const given = raw.options as Record<string, unknown>;
      const bad = Object.entries(given).filter(([, v]) => !['boolean', 'number', 'string'].includes(typeof v));
      for (const [k] of bad) out.add('BadOption', join('options', k), { option: k, procedure: original.id, value: show(given[k]) });
      const clean = Object.fromEntries(Object.entries(given).filter(([, v]) => ['boolean', 'number', 'string'].includes(typeof v)));
      const r = resolveOptions(original, clean as ProcedureOptions);
      for (const p of r.problems) out.problems.push({ ...p, path: join('options', String(p.data?.option ?? '')) });
      if (!switched) options = r.options;
      else if (Object.keys(given).length > 0) {
        notes.push({
          key: 'TENSEG.Sim.Note.OptionsDropped',
          data: { options: Object.keys(given).join(', '), from: originalId as string, to: procedureId as string },
        });
      }
    }
  }

  /* sides */
  const sides: Side[] = [];
  const sideIds = new Set<string>();
  listAt(raw, 'sides', out).forEach((s, i) => {
    const path = `sides[${i}]`;
    const o = checkObject(s, SIDE_FIELDS, path, out);
    const id = isRecord(s) && typeof s.id === 'string' ? s.id : undefined;
    if (id !== undefined) {
      if (sideIds.has(id)) out.add('DuplicateId', join(path, 'id'), { id });
      sideIds.add(id);
    }
    if (!o) return;
    const side: Side = { id: o.id as string, name: (o.name as string | undefined) ?? (o.id as string) };
    if (o.alerted !== undefined) side.alerted = o.alerted as boolean;
    if (o.surprised !== undefined) side.surprised = o.surprised as boolean;
    sides.push(side);
  });
  if (raw.sides === undefined) out.add('FieldMissing', 'sides', { field: 'sides' });
  else if (Array.isArray(raw.sides) && raw.sides.length < 2) out.add('TooFewSides', 'sides', { count: raw.sides.length });

  /* combatants (and joiners, which share the id space) */
  const ids = new Map<string, { path: string; joinRound?: number }>();
  const checkCombatant = (value: unknown, path: string, joinRound?: number): Combatant | undefined => {
    const o = checkObject(value, COMBATANT_FIELDS, path, out);
    const id = isRecord(value) && typeof value.id === 'string' ? value.id : undefined;
    if (id !== undefined) {
      if (ids.has(id)) out.add('DuplicateId', join(path, 'id'), { id });
      else ids.set(id, { path, joinRound });
    }
    if (isRecord(value) && typeof value.side === 'string' && !sideIds.has(value.side)) {
      out.add('UnknownSide', join(path, 'side'), { name: show(value.name ?? value.id ?? ''), side: value.side });
      return undefined;
    }
    if (!o) return undefined;
    const c = { ...o, name: (o.name as string | undefined) ?? (o.id as string) } as unknown as Combatant;
    return c;
  };
  const combatants: Combatant[] = [];
  listAt(raw, 'combatants', out).forEach((c, i) => {
    const checked = checkCombatant(c, `combatants[${i}]`);
    if (checked) combatants.push(checked);
  });
  if (raw.combatants === undefined) out.add('FieldMissing', 'combatants', { field: 'combatants' });
  else if (Array.isArray(raw.combatants) && raw.combatants.length === 0) out.add('NoCombatants', 'combatants');

  // Joiners are read now so that declarations and damage may name them.
  const joinsRaw = listAt(raw, 'joins', out);
  const joinerCombatants: (Combatant | undefined)[] = joinsRaw.map((j, i) => {
    const path = `joins[${i}]`;
    if (!isRecord(j)) return undefined;
    const round = typeof j.round === 'number' && Number.isInteger(j.round) ? j.round : undefined;
    return j.combatant === undefined ? undefined : checkCombatant(j.combatant, join(path, 'combatant'), round);
  });
  const byId = new Map<string, Combatant>();
  for (const c of combatants) byId.set(c.id, c);
  for (const c of joinerCombatants) if (c) byId.set(c.id, c);

  const knownCombatant = (id: unknown, path: string): boolean => {
    if (typeof id !== 'string') return false;
    if (ids.has(id)) return true;
    const s = suggest(id, [...ids.keys()]);
    out.add(s ? 'UnknownCombatantDidYouMean' : 'UnknownCombatant', path, s ? { id, suggestion: s } : { id });
    return false;
  };
  const knownSide = (id: unknown, path: string): boolean => {
    if (typeof id !== 'string') return false;
    if (sideIds.has(id)) return true;
    out.add('UnknownSideId', path, { side: id });
    return false;
  };

  /* rounds */
  let explicitRounds: number | undefined;
  if (raw.rounds !== undefined && raw.rounds !== null) {
    const r = checkValue(raw.rounds, int(1, MAX_ROUNDS), 'rounds', 'rounds', out);
    if (typeof r === 'number') explicitRounds = r;
  }
  let impliedRounds = 1;
  const roundRef = (round: unknown, path: string): void => {
    if (typeof round !== 'number' || !Number.isInteger(round)) return;
    impliedRounds = Math.max(impliedRounds, round);
    if (explicitRounds !== undefined && round > explicitRounds) {
      out.add('RoundBeyondEnd', path, { round, rounds: explicitRounds });
    }
  };

  /* declarations */
  const declarations = new Map<number, Record<string, Declaration>>();
  const toCheck: { decl: Declaration; path: string }[] = [];
  const checkDeclaration = (value: unknown, path: string, impliedCombatant: string | undefined, round: number | null): Declaration | undefined => {
    const o = checkObject(value, DECLARATION_FIELDS, path, out);
    if (!isRecord(value)) return undefined;
    let id = impliedCombatant;
    if (value.combatant !== undefined) {
      if (impliedCombatant !== undefined && value.combatant !== impliedCombatant) {
        out.add('DeclarationCombatantMismatch', join(path, 'combatant'), { key: impliedCombatant, combatant: show(value.combatant) });
        return undefined;
      }
      id = typeof value.combatant === 'string' ? value.combatant : undefined;
    }
    if (id === undefined) {
      if (value.combatant === undefined) out.add('FieldMissing', join(path, 'combatant'), { field: 'combatant' });
      return undefined;
    }
    const idPath = impliedCombatant !== undefined ? path : join(path, 'combatant');
    if (!knownCombatant(id, idPath)) return undefined;
    const joined = ids.get(id)?.joinRound;
    if (round !== null && joined !== undefined && round <= joined) {
      out.add('DeclarationBeforeJoin', idPath, { id, round, joinRound: joined });
      return undefined;
    }
    if (value.target !== undefined && typeof value.target === 'string') knownCombatant(value.target, join(path, 'target'));
    if (!o) return undefined;
    const decl = { ...o, combatant: id } as unknown as Declaration;
    toCheck.push({ decl, path });
    return decl;
  };

  if (raw.declarations !== undefined && raw.declarations !== null) {
    if (!isRecord(raw.declarations)) out.add('ExpectedObject', 'declarations', { field: 'declarations' });
    else {
      for (const [key, entry] of Object.entries(raw.declarations)) {
        const path = join('declarations', key);
        const round = roundOfKey(key);
        if (round === null) {
          out.add('BadRoundKey', path, { key });
          continue;
        }
        if (declarations.has(round)) {
          out.add('DuplicateRound', path, { round });
          continue;
        }
        roundRef(round, path);
        const set: Record<string, Declaration> = {};
        const put = (d: Declaration | undefined, p: string) => {
          if (!d) return;
          if (set[d.combatant]) out.add('DuplicateDeclaration', p, { id: d.combatant, round });
          else set[d.combatant] = d;
        };
        if (entry === null || entry === undefined) {
          // An explicit empty entry: nobody declares anything this round.
        } else if (Array.isArray(entry)) {
          entry.forEach((d, i) => put(checkDeclaration(d, join(path, i), undefined, round), join(path, i)));
        } else if (isRecord(entry)) {
          for (const [cid, d] of Object.entries(entry)) put(checkDeclaration(d, join(path, cid), cid, round), join(path, cid));
        } else {
          out.add('ExpectedList', path, { field: key });
        }
        declarations.set(round, set);
      }
    }
  }

  /* joins */
  const joins: ScenarioJoin[] = [];
  joinsRaw.forEach((j, i) => {
    const path = `joins[${i}]`;
    if (!isRecord(j)) {
      out.add('ExpectedObject', path, { field: path });
      return;
    }
    for (const key of Object.keys(j)) if (!JOIN_FIELDS.includes(key)) out.unknownField(key, path, JOIN_FIELDS);
    let round: unknown;
    if (j.round === undefined || j.round === null) out.add('FieldMissing', join(path, 'round'), { field: 'round' });
    else round = checkValue(j.round, int(1, MAX_ROUNDS, true), join(path, 'round'), 'round', out);
    const step = j.step === undefined ? 0 : checkValue(j.step, int(0, 1000000), join(path, 'step'), 'step', out);
    if (j.combatant === undefined) out.add('FieldMissing', join(path, 'combatant'), { field: 'combatant' });
    roundRef(round, join(path, 'round'));
    const c = joinerCombatants[i];
    let declaration: Declaration | undefined;
    if (j.declaration !== undefined && j.declaration !== null) {
      const cid = c?.id ?? (isRecord(j.combatant) && typeof j.combatant.id === 'string' ? j.combatant.id : undefined);
      declaration = checkDeclaration(j.declaration, join(path, 'declaration'), cid, null);
    }
    if (c && typeof round === 'number' && typeof step === 'number') {
      const entry: ScenarioJoin = { round, step, combatant: c };
      if (declaration) entry.declaration = declaration;
      joins.push(entry);
    }
  });

  /* dice */
  const dice: ScriptedDie[] = [];
  listAt(raw, 'dice', out).forEach((d, i) => {
    const path = `dice[${i}]`;
    const o = checkObject(d, DIE_FIELDS, path, out);
    if (!isRecord(d)) return;
    if (d.side !== undefined) knownSide(d.side, join(path, 'side'));
    if (d.combatant !== undefined) knownCombatant(d.combatant, join(path, 'combatant'));
    roundRef(d.round, join(path, 'round'));
    if (!o) return;
    const die: ScriptedDie = { index: i, purpose: o.purpose as DiePurpose, result: o.result as number };
    if (o.side !== undefined) die.side = o.side as string;
    if (o.combatant !== undefined) die.combatant = o.combatant as string;
    if (o.round !== undefined) die.round = o.round as number;
    const known = originalId ? KNOWN_DICE[originalId][die.purpose] : undefined;
    if (die.result < 1 || (known && !isPossibleTotal({ purpose: die.purpose, ...known }, die.result))) {
      const shape = known ?? { count: 1, faces: 0 };
      out.add('ScriptedDieImpossible', join(path, 'result'), {
        result: die.result,
        purpose: die.purpose,
        dice: known ? `${shape.count}d${shape.faces}` : '?',
      });
      return;
    }
    dice.push(die);
  });
  if (switched && dice.length > 0) {
    notes.push({ key: 'TENSEG.Sim.Note.DiceDropped', data: { count: dice.length, from: originalId as string, to: procedureId as string } });
    dice.length = 0;
  }

  /* damage */
  const damage: DamageEvent[] = [];
  listAt(raw, 'damage', out).forEach((d, i) => {
    const path = `damage[${i}]`;
    const o = checkObject(d, DAMAGE_FIELDS, path, out);
    if (!isRecord(d)) return;
    if (d.target !== undefined) knownCombatant(d.target, join(path, 'target'));
    if (d.by !== undefined) knownCombatant(d.by, join(path, 'by'));
    roundRef(d.round, join(path, 'round'));
    if (!o) return;
    const placements = ['by', 'step', 'segment', 'count'].filter((k) => o[k] !== undefined);
    if (placements.length === 0) {
      out.add('DamageNoPlacement', path, {});
      return;
    }
    if (placements.length > 1) {
      out.add('DamagePlacementConflict', path, { fields: placements.join(', ') });
      return;
    }
    if ((o.spell !== undefined || o.routine !== undefined) && o.by === undefined) {
      out.add('DamageNeedsBy', path, { field: o.spell !== undefined ? 'spell' : 'routine' });
      return;
    }
    if (o.spell === true && o.routine !== undefined) {
      out.add('DamageSpellRoutine', path, {});
      return;
    }
    damage.push(o as unknown as DamageEvent);
  });

  /* morale */
  const morale: ScenarioMorale[] = [];
  listAt(raw, 'morale', out).forEach((m, i) => {
    const path = `morale[${i}]`;
    const o = checkObject(m, MORALE_FIELDS, path, out);
    if (!isRecord(m)) return;
    if (m.combatant !== undefined) knownCombatant(m.combatant, join(path, 'combatant'));
    roundRef(m.round, join(path, 'round'));
    if (!o) return;
    const req: ScenarioMorale = { round: o.round as number, combatant: o.combatant as string, trigger: (o.trigger as string | undefined) ?? 'gm' };
    if (o.opposed !== undefined) req.opposed = o.opposed as number;
    morale.push(req);
  });

  /* cancel */
  const cancels: ScenarioCancel[] = [];
  listAt(raw, 'cancel', out).forEach((c, i) => {
    const path = `cancel[${i}]`;
    const o = checkObject(c, CANCEL_FIELDS, path, out);
    if (!isRecord(c)) return;
    if (c.combatant !== undefined) knownCombatant(c.combatant, join(path, 'combatant'));
    roundRef(c.round, join(path, 'round'));
    if (!o) return;
    if ((o.combatant === undefined) === (o.casting === undefined)) {
      out.add('CancelNeedsOne', path, {});
      return;
    }
    cancels.push(o as unknown as ScenarioCancel);
  });

  /* legality of each declaration under the procedure that will run */
  if (procedure) {
    for (const { decl, path } of toCheck) {
      const c = byId.get(decl.combatant);
      if (!c) continue;
      let problem: Problem | null;
      try {
        problem = procedure.validateDeclaration(decl, c, options);
      } catch (e) {
        problem = { key: 'DeclarationCheckFailed', data: { name: c.name, message: e instanceof Error ? e.message : show(e) } };
      }
      if (problem) out.problems.push({ ...problem, path: problem.path ? join(path, problem.path) : path });
    }
  }

  if (out.problems.length > 0 || !procedure || !originalId) return { ok: false, problems: out.problems, notes };

  const rounds = overrides.rounds ?? explicitRounds ?? impliedRounds;
  if (switched) notes.unshift({ key: 'TENSEG.Sim.Note.ProcedureSwitched', data: { from: originalId, to: procedure.id } });
  const scenario: ValidScenario = {
    procedure,
    originalProcedure: originalId,
    options,
    encounter: { sides, combatants },
    rounds,
    declarations,
    dice,
    damage,
    joins,
    morale,
    cancels,
    notes,
  };
  if (typeof title === 'string') scenario.title = title;
  if (typeof description === 'string') scenario.description = description;
  return { ok: true, scenario };
}

/* ------------------------------------------------------------------ dice */

/**
 * Scripted dice for a scenario: each request takes the first unused entry that
 * matches (as ScriptedDice does); rolls the script does not cover fall back to
 * `fallback` (the seeded RandomDice). An impossible scripted result is a
 * RulesError naming the scenario field.
 */
export class ScenarioDice implements Dice {
  private readonly pending: ScriptedDie[];
  readonly log: { request: DieRequest; result: number; scripted: boolean; index?: number }[] = [];
  constructor(
    script: readonly ScriptedDie[],
    private readonly fallback: Dice,
    private readonly keepLog = true,
  ) {
    this.pending = [...script];
  }
  roll(request: DieRequest): number {
    const i = this.pending.findIndex(
      (s) =>
        s.purpose === request.purpose &&
        (s.side === undefined || s.side === request.side) &&
        (s.combatant === undefined || s.combatant === request.combatant) &&
        (s.round === undefined || s.round === request.round),
    );
    if (i >= 0) {
      const [entry] = this.pending.splice(i, 1);
      if (!isPossibleTotal(request, entry.result)) {
        throw new RulesError({
          key: 'ScriptedDieImpossible',
          path: `dice[${entry.index}].result`,
          data: { result: entry.result, purpose: entry.purpose, dice: `${request.count}d${request.faces}` },
        });
      }
      if (this.keepLog) this.log.push({ request, result: entry.result, scripted: true, index: entry.index });
      return entry.result;
    }
    const result = this.fallback.roll(request);
    if (this.keepLog) this.log.push({ request, result, scripted: false });
    return result;
  }
  unused(): readonly ScriptedDie[] {
    return this.pending;
  }
}

/* ------------------------------------------------------------------ script */

/**
 * Declarations for a round: the round's own entry, or else "same as last
 * round" (the previous round's declarations, plus the declarations late
 * joiners came in with). Round 0 without an entry uses round 1's entry, so
 * the side that surprises does what it would have done anyway.
 */
export function declarationsFor(scenario: ValidScenario, round: number): Record<string, Declaration> {
  const explicit = scenario.declarations;
  if (round === 0) return { ...(explicit.get(0) ?? explicit.get(1) ?? {}) };
  let start = round;
  while (start > 0 && !explicit.has(start)) start--;
  let set: Record<string, Declaration> = { ...(explicit.get(start) ?? {}) };
  for (let r = start; r < round; r++) {
    for (const j of scenario.joins) if (j.round === r && j.declaration) set = { ...set, [j.combatant.id]: j.declaration };
  }
  return set;
}

/**
 * A procedure that also records, after each schedule is planned, the castings
 * of combatants whose scenario cancels them that round (so a scenario can name
 * the caster instead of the engine's casting id).
 */
function withCancels(
  procedure: Procedure<ProcedureOptions>,
  cancels: readonly ScenarioCancel[],
  sink: { round: number; casting: string }[],
): Procedure<ProcedureOptions> {
  const byCaster = cancels.filter((c) => c.combatant !== undefined);
  if (byCaster.length === 0) return procedure;
  const note = (schedule: Schedule | null): void => {
    if (!schedule) return;
    for (const c of byCaster) {
      if (c.round !== schedule.round) continue;
      for (const casting of schedule.castings) {
        if (casting.caster !== c.combatant) continue;
        if (!sink.some((s) => s.round === c.round && s.casting === casting.id)) sink.push({ round: c.round, casting: casting.id });
      }
    }
  };
  const wrapped: Procedure<ProcedureOptions> = Object.create(procedure);
  wrapped.planSurprise = (...args) => {
    const s = procedure.planSurprise(...args);
    note(s);
    return s;
  };
  wrapped.planRound = (...args) => {
    const s = procedure.planRound(...args);
    note(s);
    return s;
  };
  wrapped.lateJoin = (...args): LateJoinResult => {
    const r = procedure.lateJoin(...args);
    note(r.schedule);
    return r;
  };
  return wrapped;
}

/** The CombatScript for runCombat, and the procedure to run it with. */
export function buildScript(scenario: ValidScenario): { procedure: Procedure<ProcedureOptions>; script: CombatScript } {
  const cancelled: { round: number; casting: string }[] = scenario.cancels
    .filter((c) => c.casting !== undefined)
    .map((c) => ({ round: c.round, casting: c.casting as string }));
  const procedure = withCancels(scenario.procedure, scenario.cancels, cancelled);
  const script: CombatScript = {
    rounds: scenario.rounds,
    declarations: (round) => declarationsFor(scenario, round),
    damage: scenario.damage,
    moraleRequests: scenario.morale.map((m) => ({ ...m })),
    joins: scenario.joins.map((j) => ({ ...j, combatant: { ...j.combatant } })),
    cancelled,
  };
  return { procedure, script };
}

export type RunResult =
  | { ok: true; log: CombatLog; dice: ScenarioDice }
  | { ok: false; problems: Problem[]; internal?: boolean };

/**
 * Play a validated scenario. A RulesError (an impossible scripted die, a
 * declaration the engine refuses) comes back as a problem; any other error is
 * an engine fault, reported as `internal` with its message.
 */
export function runScenario(scenario: ValidScenario, fallback: Dice): RunResult {
  const dice = new ScenarioDice(scenario.dice, fallback);
  const { procedure, script } = buildScript(scenario);
  try {
    const encounter: Encounter = { sides: scenario.encounter.sides, combatants: [...scenario.encounter.combatants] };
    const log = runCombat(procedure, encounter, scenario.options, dice, script);
    return { ok: true, log, dice };
  } catch (e) {
    if (e instanceof RulesError) return { ok: false, problems: [e.problem] };
    const message = e instanceof Error ? `${e.name}: ${e.message}` : show(e);
    return { ok: false, internal: true, problems: [{ key: 'EngineFault', data: { message, procedure: scenario.procedure.id } }] };
  }
}
