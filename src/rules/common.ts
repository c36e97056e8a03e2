/**
 * Pieces several procedures share: starting state, hit-point damage, the d6
 * surprise count, and a builder that turns timed entries into ordered steps.
 */
import type { Dice } from './dice';
import type { Combatant, CombatantState, Condition, Declaration, Problem, ProcedureId } from './model';
import { SEGMENTS_PER_ROUND } from './model';
import type { Casting, DamageResult, Encounter, Schedule, Step, StepEntry, SurpriseResult } from './procedure';

export function initialState(c: Combatant): CombatantState {
  const state: CombatantState = { hp: c.hp, condition: 'ok', expended: [] };
  if (c.stress !== undefined) state.stress = c.stress;
  if (c.woundPoints !== undefined) state.woundPoints = c.woundPoints;
  if (c.hp <= 0) state.condition = 'dead';
  return state;
}

/**
 * A copy of a combatant's state with its own `expended`, built field by field
 * in one order so every copy has the same shape (fast to copy again).
 */
export function copyState(s: CombatantState): CombatantState {
  const c: CombatantState = { hp: s.hp, condition: s.condition, expended: s.expended.slice() };
  if (s.stress !== undefined) c.stress = s.stress;
  if (s.woundPoints !== undefined) c.woundPoints = s.woundPoints;
  if (s.delayed !== undefined) c.delayed = s.delayed;
  if (s.routed !== undefined) c.routed = s.routed;
  return c;
}

/**
 * A shallow copy of a record, key by key: the same as `{ ...record }` for
 * plain data, but several times faster once the record is large enough for V8
 * to keep it as a hash table (about 16 keys), where a spread is slow.
 */
/**
 * A round's schedule from its steps and castings: the castings that do not go
 * off this round (no completion step) carry into the next.
 */
export function makeSchedule(procedure: ProcedureId, round: number, steps: Step[], castings: Casting[], initiative?: Schedule['initiative']): Schedule {
  const schedule: Schedule = { procedure, round, steps, castings, carryOut: castings.filter((c) => c.completeStep === null) };
  if (initiative) schedule.initiative = initiative;
  return schedule;
}

export function copyRecord<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record)) out[key] = record[key];
  return out;
}

export function initialStates(encounter: Encounter): Record<string, CombatantState> {
  const out: Record<string, CombatantState> = {};
  for (const c of encounter.combatants) out[c.id] = initialState(c);
  return out;
}

/**
 * Hit-point damage with two thresholds: at or below `incapacitatedAt` the
 * combatant cannot act; at or below `deathAt` it is dead.
 */
export function hpDamage(
  state: CombatantState,
  amount: number,
  thresholds: { incapacitatedAt: number; deathAt: number },
): DamageResult {
  const hp = state.hp - amount;
  let condition: Condition = state.condition;
  if (condition !== 'dead' && condition !== 'fled') {
    if (hp <= thresholds.deathAt) condition = 'dead';
    else if (hp <= thresholds.incapacitatedAt) condition = 'dying';
  }
  return { state: { ...state, hp, condition }, wounds: amount };
}

export function isActive(state: CombatantState | undefined): boolean {
  return !!state && state.condition === 'ok';
}

/* ------------------------------------------------------------- d6 surprise */

/**
 * The d6 surprise of seeds 000 and 004: a side is surprised for as many
 * segments as its die shows when the die is within the surprise range (1-2,
 * widened by an opponent that "surprises on 1-3").
 */
export function rollD6SideSurprise(encounter: Encounter, dice: Dice, round = 0): Record<string, number> {
  const rolls: Record<string, number> = {};
  const members = new Map<string, { count: number; neverSurprised: number }>();
  for (const c of encounter.combatants) {
    const m = members.get(c.side) ?? { count: 0, neverSurprised: 0 };
    m.count += 1;
    if (c.neverSurprised) m.neverSurprised += 1;
    members.set(c.side, m);
  }
  for (const side of encounter.sides) {
    const m = members.get(side.id);
    if (side.alerted || !m || m.count === m.neverSurprised) continue;
    rolls[side.id] = dice.roll({ purpose: 'surprise', count: 1, faces: 6, side: side.id, round });
  }
  return rolls;
}

/**
 * The surprise range each side is subject to: its own (the widest of its
 * members' surprisedOn, at least `base`), widened by the best surpriser among
 * its opponents. One pass over the combatants, whatever the number of sides.
 */
export function surpriseRanges(encounter: Encounter, base = 2): Map<string, number> {
  const own = new Map<string, number>();
  const imposed = new Map<string, number>(); // best surprisesOn of each side's members
  for (const c of encounter.combatants) {
    own.set(c.side, Math.max(own.get(c.side) ?? base, c.surprisedOn ?? 0));
    imposed.set(c.side, Math.max(imposed.get(c.side) ?? 0, c.surprisesOn ?? 0));
  }
  // Best and second best imposers, so each side can exclude itself.
  let best: [string | null, number] = [null, 0];
  let second = 0;
  for (const [side, v] of imposed) {
    if (v > best[1]) {
      second = best[1];
      best = [side, v];
    } else if (v > second) second = v;
  }
  const out = new Map<string, number>();
  for (const side of encounter.sides) {
    const fromOpponents = best[0] === side.id ? second : best[1];
    out.set(side.id, Math.max(own.get(side.id) ?? base, fromOpponents));
  }
  return out;
}

export function surpriseRange(encounter: Encounter, sideId: string, base = 2): number {
  return surpriseRanges(encounter, base).get(sideId) ?? base;
}

/**
 * Per-combatant surprise segments from side rolls: a bonus removes segments,
 * a penalty adds them, but only for a side that is surprised (ruling: dexterity
 * cannot create surprise).
 */
export function d6SurpriseSegments(encounter: Encounter, rolls: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  const ranges = surpriseRanges(encounter);
  for (const c of encounter.combatants) {
    const roll = rolls[c.side];
    const range = ranges.get(c.side) ?? 2;
    const side = roll !== undefined && roll <= range ? roll : 0;
    out[c.id] = c.neverSurprised || side === 0 ? 0 : Math.max(0, side - (c.surpriseAdjustment ?? 0));
  }
  return out;
}

export function noSurprise(encounter: Encounter, unit: SurpriseResult['unit']): SurpriseResult {
  const surprised: Record<string, number> = {};
  for (const c of encounter.combatants) surprised[c.id] = 0;
  return { rolls: {}, surprised, unit };
}

/* --------------------------------------------------------- schedule builder */

/** A step index no round reaches: "never" for lossFrom / preventFrom (JSON-safe, unlike Infinity). */
export const NEVER = Number.MAX_SAFE_INTEGER;

/** Lexicographic sort key: e.g. [phaseRank, segment, order]. Equal keys are simultaneous. */
export type TimeKey = readonly number[];

export function compareKeys(a: TimeKey, b: TimeKey): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export interface PendingCasting {
  id: string;
  caster: string;
  spell: string;
  device: boolean;
  castingTime: number;
  beganRound: number;
  begin: TimeKey | null;
  complete: TimeKey | null;
  lossFrom: TimeKey | 'start' | 'never';
  preventFrom: TimeKey | 'start' | 'never';
  expends: boolean;
  remaining: number;
}

/**
 * Collects entries at time keys, then builds steps: entries with equal keys
 * share one step; steps are sorted by key. Castings name keys and get step
 * indices when built.
 */
interface Slot {
  id: number | string;
  key: TimeKey;
  phase: string;
  segment?: number;
  count?: number;
  entries: StepEntry[];
}

const KEY_BITS = 2048; // small whole-number keys pack into one number

/** A compact id for a time key: a number for up to three small whole numbers, else a string. */
function keyId(key: TimeKey): number | string {
  if (key.length <= 3) {
    let id = key.length;
    for (let i = 0; i < key.length; i++) {
      const v = key[i];
      if (!Number.isInteger(v) || v < -1024 || v >= 1024) return key.join(',');
      id = id * KEY_BITS + (v + 1024);
    }
    return id;
  }
  return key.join(',');
}

function sortSlots(slots: Slot[]): void {
  if (slots.length > 16) {
    slots.sort((a, b) => compareKeys(a.key, b.key));
    return;
  }
  for (let i = 1; i < slots.length; i++) {
    const s = slots[i];
    let j = i - 1;
    while (j >= 0 && compareKeys(slots[j].key, s.key) > 0) {
      slots[j + 1] = slots[j];
      j--;
    }
    slots[j + 1] = s;
  }
}

export class ScheduleBuilder {
  private readonly slots = new Map<number | string, Slot>();
  private last: Slot | null = null;
  private readonly castings: PendingCasting[] = [];
  private readonly carry: Casting[] = [];

  constructor(private readonly procedure: ProcedureId, private readonly round: number) {}

  add(key: TimeKey, where: { phase: string; segment?: number; count?: number }, entry: StepEntry): void {
    const last = this.last;
    if (last && (last.key === key || compareKeys(last.key, key) === 0) && last.key.length === key.length) {
      last.entries.push(entry);
      return;
    }
    const id = keyId(key);
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { id, key, phase: where.phase, entries: [] };
      if (where.segment !== undefined) slot.segment = where.segment;
      if (where.count !== undefined) slot.count = where.count;
      this.slots.set(id, slot);
    }
    slot.entries.push(entry);
    this.last = slot;
  }

  addCasting(c: PendingCasting): void {
    this.castings.push(c);
  }

  /** A casting that began earlier and does not finish this round either. */
  addCarry(c: Casting): void {
    this.carry.push(c);
  }

  build(initiative?: Schedule['initiative']): Schedule {
    const slots = [...this.slots.values()];
    sortSlots(slots);
    const steps: Step[] = new Array(slots.length);
    const position = new Map<number | string, number>();
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      const step: Step = { phase: s.phase, entries: s.entries };
      if (s.segment !== undefined) step.segment = s.segment;
      if (s.count !== undefined) step.count = s.count;
      steps[i] = step;
      position.set(s.id, i);
    }
    const indexOf = (key: TimeKey | null): number | null => {
      if (key === null) return null;
      const i = position.get(keyId(key));
      if (i === undefined) throw new Error(`casting refers to a time with no step: ${key.join(',')}`);
      return i;
    };
    const firstAtOrAfter = (key: TimeKey | 'start' | 'never'): number => {
      if (key === 'start') return 0;
      if (key === 'never') return NEVER;
      let lo = 0;
      let hi = slots.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareKeys(slots[mid].key, key) < 0) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const castings: Casting[] = this.castings.map((c) => ({
      id: c.id,
      caster: c.caster,
      spell: c.spell,
      device: c.device,
      castingTime: c.castingTime,
      beganRound: c.beganRound,
      beginStep: c.begin === null ? -1 : (indexOf(c.begin) as number),
      completeStep: indexOf(c.complete),
      lossFrom: firstAtOrAfter(c.lossFrom),
      preventFrom: firstAtOrAfter(c.preventFrom),
      expends: c.expends,
      remaining: c.remaining,
    }));
    for (const c of this.carry) {
      const vulnerable = c.device ? NEVER : 0;
      castings.push({ ...c, beginStep: -1, completeStep: null, lossFrom: vulnerable, preventFrom: vulnerable });
    }
    return makeSchedule(this.procedure, this.round, steps, castings, initiative);
  }
}

/** Segment in which a casting begun in segment `start` goes off (ruling: S + casting time). */
export function goesOffAt(start: number, castingTime: number): { round: number; segment: number } {
  const absolute = start + castingTime;
  const extra = Math.floor((absolute - 1) / SEGMENTS_PER_ROUND);
  return { round: extra, segment: absolute - extra * SEGMENTS_PER_ROUND };
}

/* ------------------------------------------------------------- validation */

/** Checks every procedure shares: a known combatant, a casting time for spells, sane numbers. */
const allowedSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function badNumber(v: unknown, signed: boolean): boolean {
  return v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || (!signed && v < 0));
}

export function commonDeclarationProblem(decl: Declaration, combatant: Combatant, allowed: readonly string[]): Problem | null {
  if (decl.combatant !== combatant.id) return { key: 'DeclarationWrongCombatant', data: { name: combatant.name } };
  let set = allowedSets.get(allowed);
  if (!set) {
    set = new Set(allowed);
    allowedSets.set(allowed, set);
  }
  if (!set.has(decl.action)) return { key: 'ActionNotInProcedure', data: { action: decl.action } };
  if (decl.action === 'spell' || decl.action === 'device') {
    if (decl.castingTime === undefined || !Number.isInteger(decl.castingTime) || decl.castingTime < 1 || decl.castingTime > 100) {
      return { key: 'CastingTimeInvalid', data: { name: combatant.name } };
    }
  }
  if (decl.action === 'spell' && decl.spell && combatant.spells && !combatant.spells.includes(decl.spell)) {
    return { key: 'SpellNotMemorized', data: { name: combatant.name, spell: decl.spell } };
  }
  // routines, hesitation and distance cannot be negative; speed (a modifier) can.
  const field = badNumber(decl.routines, false)
    ? 'routines'
    : badNumber(decl.hesitation, false)
      ? 'hesitation'
      : badNumber(decl.distance, false)
        ? 'distance'
        : badNumber(decl.speed, true)
          ? 'speed'
          : null;
  return field ? { key: 'NumberInvalid', data: { name: combatant.name, field } } : null;
}
