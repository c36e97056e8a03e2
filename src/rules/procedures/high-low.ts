/**
 * high-low: HIGH and LOW group initiative in a fixed phase order
 * (seed 001_aab75c09f093bb2c.txt; choices where it is silent are in
 * README.md, Rules notes).
 *
 * The sections below follow the order of the seed text: the round and its
 * segments, surprise, the eight steps of a combat round (declare, group
 * initiative, fast actions, multi-attack, HIGH and LOW, remaining attacks,
 * spells with concentration and invocations, end of the round), then
 * complex activities, delay and the delayed condition, and free and
 * immediate attacks; last, where the text is silent, hit points and late
 * joiners.
 *
 * Pure rules: no Foundry global, no DOM, no Roll. Dice come in through Dice.
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, Declaration, Problem } from '../model';
import { SEGMENTS_PER_ROUND } from '../model';
import type {
  DamageResult,
  EndEvent,
  EndOfRoundInput,
  EndOfRoundResult,
  Encounter,
  InitiativeResult,
  LateJoinInput,
  LateJoinResult,
  OptionSpec,
  Procedure,
  ProcedureOptions,
  RoundInput,
  Schedule,
  Step,
  StepEntry,
  SurpriseResult,
} from '../procedure';
import { commonDeclarationProblem, compareKeys, hpDamage, initialState, NEVER, makeSchedule } from '../common';

/* ================================================================ options */

export interface HighLowOptions extends ProcedureOptions {
  /** Faces of the surprise die each side rolls ("The GM will check for Surprise"; text silent: d6). */
  surpriseDie: number;
  /** A side is surprised on 1..surprisedOn of its surprise die (widened by a member's or an opponent's range). */
  surprisedOn: number;
  /** "Each group will roll a d6." */
  initiativeDie: number;
  /** Order of the D2/D3 action types inside a group phase (text names only D1 innate and D4 other). */
  groupOrder: 'missile-first' | 'melee-first';
  /** Melee ties between sides acting in the same group phase go to the lower weapon speed. */
  weaponSpeedTies: boolean;
  /** Weapon speed of natural attacks (no weapon speed given) for those ties. */
  naturalWeaponSpeed: number;
  /** Multi-attack routines are taken HIGH group before LOW group (text gives no order). */
  multiAttackByGroup: boolean;
  /** Hit points at or below which a combatant is dead (0, or e.g. -10 with dying in between). */
  deathAt: number;
  /** Hit points a dying combatant loses at the end of each round (0 = none). */
  bleedPerRound: number;
}

export const highLowDefaults: Readonly<HighLowOptions> = Object.freeze({
  surpriseDie: 6,
  surprisedOn: 2,
  initiativeDie: 6,
  groupOrder: 'missile-first',
  weaponSpeedTies: true,
  naturalWeaponSpeed: 1,
  multiAttackByGroup: true,
  deathAt: 0,
  bleedPerRound: 0,
});

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'surpriseDie', type: 'number', min: 2, max: 20 },
  { key: 'surprisedOn', type: 'number', min: 0, max: 20 },
  { key: 'initiativeDie', type: 'number', min: 2, max: 20 },
  { key: 'groupOrder', type: 'choice', choices: ['missile-first', 'melee-first'] },
  { key: 'weaponSpeedTies', type: 'boolean' },
  { key: 'naturalWeaponSpeed', type: 'number', min: 0, max: 20 },
  { key: 'multiAttackByGroup', type: 'boolean' },
  { key: 'deathAt', type: 'number', min: -20, max: 0 },
  { key: 'bleedPerRound', type: 'number', min: 0, max: 10 },
];

/** An integer option, never below `min` (options arrive as any finite number). */
function whole(value: number, min: number): number {
  return Number.isFinite(value) ? Math.max(min, Math.floor(value)) : min;
}

/* ============================================ "A round ... 10 segments" */

/**
 * The phases of a round, in order. `activation`: spells and devices begin
 * ("activation always begins on the 1st segment"); then the text's steps 3–8.
 */
export const HIGH_LOW_PHASES = [
  'activation',
  'fast',
  'multi-attack',
  'high',
  'low',
  'remaining-attacks',
  'spells',
  'go-last',
  'end-of-round',
] as const;
export type HighLowPhase = (typeof HIGH_LOW_PHASES)[number];
const RANK = Object.fromEntries(HIGH_LOW_PHASES.map((p, i) => [p, i])) as Record<HighLowPhase, number>;

function phaseRank(phase: string): number {
  return (RANK as Record<string, number>)[phase] ?? HIGH_LOW_PHASES.length;
}

const ACTIONS: readonly ActionKind[] = [
  'parley',
  'flee',
  'charge',
  'melee',
  'missile',
  'throw',
  'turn-undead',
  'consumable',
  'move',
  'other',
  'spell',
  'device',
  'delay',
  'complex',
  'none',
];

export type Group = 'high' | 'low';
const GROUP_RANK: Record<Group, number> = { high: 0, low: 1 };

/* ======================================== "The GM will check for Surprise" */

/*
 * The text says no more. Ruling: each side rolls a d6 (option) once at the
 * start of combat and is surprised on 1-2, widened like the other d6
 * procedures by a member's `surprisedOn` or an opponent's `surprisesOn`.
 * Surprise is counted in rounds: surprised combatants lose round 1.
 */
function rollSurprise(encounter: Encounter, dice: Dice, options: HighLowOptions): SurpriseResult {
  const faces = whole(options.surpriseDie, 2);
  const base = whole(options.surprisedOn, 0);
  const agg = new Map<string, { allNever: boolean; own: number; surprises: number }>();
  for (const c of encounter.combatants) {
    const a = agg.get(c.side) ?? { allNever: true, own: 0, surprises: 0 };
    a.allNever = a.allNever && c.neverSurprised === true;
    a.own = Math.max(a.own, finiteOr(c.surprisedOn, 0));
    a.surprises = Math.max(a.surprises, finiteOr(c.surprisesOn, 0));
    agg.set(c.side, a);
  }
  // Best and second-best surpriser by side, so each side finds its best opponent in O(1).
  let best = { side: '', value: 0 };
  let second = 0;
  for (const [side, a] of agg) {
    if (a.surprises > best.value) {
      second = best.value;
      best = { side, value: a.surprises };
    } else if (a.surprises > second) second = a.surprises;
  }
  const rolls: Record<string, number> = {};
  const sideSurprised = new Map<string, boolean>();
  for (const side of encounter.sides) {
    const a = agg.get(side.id);
    if (!a) continue;
    if (side.surprised) {
      sideSurprised.set(side.id, true); // the GM rules this side surprised: no roll
      continue;
    }
    if (side.alerted || a.allNever) continue;
    const opposing = best.side === side.id ? second : best.value;
    const range = Math.min(faces, Math.max(base, a.own, opposing));
    if (range <= 0) continue;
    const roll = dice.roll({ purpose: 'surprise', count: 1, faces, side: side.id, round: 0 });
    rolls[side.id] = roll;
    sideSurprised.set(side.id, roll <= range);
  }
  const surprised: Record<string, number> = {};
  for (const c of encounter.combatants) surprised[c.id] = sideSurprised.get(c.side) && !c.neverSurprised ? 1 : 0;
  return { rolls, surprised, unit: 'round' };
}

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Surprised combatants lose the whole of round 1. */
function surprisedThisRound(input: Pick<RoundInput, 'round' | 'surprise'>, id: string): boolean {
  return input.round === 1 && (input.surprise?.surprised[id] ?? 0) > 0;
}

function stateOf(c: Combatant, states: Record<string, CombatantState>): CombatantState {
  return states[c.id] ?? initialState(c);
}

function canAct(state: CombatantState): boolean {
  return state.condition === 'ok';
}

/** Able to act this round at all: alive and well, and not losing round 1 to surprise. */
function ableThisRound(c: Combatant, input: Pick<RoundInput, 'round' | 'surprise' | 'states'>): boolean {
  return canAct(stateOf(c, input.states)) && !surprisedThisRound(input, c.id);
}

/* ============================================ "1. All individuals Declare Actions" */

function validateDeclaration(decl: Declaration, combatant: Combatant, _options: HighLowOptions): Problem | null {
  const name = combatant.name;
  if (!decl || typeof decl !== 'object') return { key: 'DeclarationWrongCombatant', data: { name } };
  const common = commonDeclarationProblem(decl, combatant, ACTIONS);
  if (common) return common;
  // "Declaring a Delay": a flag on any declaration.
  if (decl.delayed !== undefined && typeof decl.delayed !== 'boolean') return { key: 'HighLowDelayedNotBoolean', data: { name } };
  if (decl.routines !== undefined) {
    if (!Number.isInteger(decl.routines) || decl.routines < 1) {
      return { key: 'HighLowRoutinesInvalid', data: { name, routines: String(decl.routines) } };
    }
    // Multi-attack: only attack routines (melee, or missiles) can be more than one.
    if (decl.routines > 1 && decl.action !== 'melee' && decl.action !== 'missile') {
      return { key: 'HighLowRoutinesNotAttack', data: { name, action: decl.action } };
    }
  }
  if (decl.weapon !== undefined) {
    if (typeof decl.weapon !== 'object' || decl.weapon === null) return { key: 'HighLowWeaponSpeedInvalid', data: { name } };
    const speed = decl.weapon.speed;
    if (speed !== undefined && (typeof speed !== 'number' || !Number.isFinite(speed) || speed < 0)) {
      return { key: 'HighLowWeaponSpeedInvalid', data: { name } };
    }
  }
  return null;
}

/* ============================================ "2. Group Initiative ... Each group will roll a d6" */

/*
 * "The group with the highest roll acts first during HIGH group initiative
 * ... If TIED, both groups act during HIGH." With more than two sides, every
 * side tied for the highest die is HIGH and every other side is LOW. Only
 * sides with someone able to act this round roll. The Dexterity Reaction
 * Adjustment "in the right circumstances" is left to the GM.
 */
function rollInitiative(encounter: Encounter, input: RoundInput, dice: Dice, options: HighLowOptions): InitiativeResult {
  const faces = whole(options.initiativeDie, 2);
  // The sides with someone able to act: the scan stops once every side has been found.
  const rolling = new Set<string>();
  for (const side of encounter.sides) rolling.add(side.id);
  const active = new Set<string>();
  for (const c of encounter.combatants) {
    if (active.size === rolling.size) break;
    if (rolling.has(c.side) && !active.has(c.side) && ableThisRound(c, input)) active.add(c.side);
  }
  const sides: Record<string, number> = {};
  let top = -Infinity;
  for (const side of encounter.sides) {
    if (!active.has(side.id)) continue;
    const roll = dice.roll({ purpose: 'initiative', count: 1, faces, side: side.id, round: input.round });
    sides[side.id] = roll;
    top = Math.max(top, roll);
  }
  const labels: Record<string, string> = {};
  const high: string[] = [];
  for (const side of encounter.sides) {
    const isHigh = sides[side.id] !== undefined && sides[side.id] === top;
    labels[side.id] = isHigh ? 'high' : 'low';
    if (isHigh) high.push(side.id);
  }
  return { round: input.round, sides, individuals: {}, winner: high.length === 1 ? high[0] : null, labels };
}

/* ---------------------------------------------------------- planning kit */

/*
 * Time keys are [phase, a, b, c, lostTie, weaponSpeed], compared part by
 * part; equal keys are one simultaneous step. A key is handled as its id:
 * a small integer, five bits a part, when every part is a whole number
 * 0..31 (as nearly all are), so ids compare as the keys do; otherwise the
 * parts as text. Equal keys have equal ids.
 */
type KeyId = number | string;
const KEY_LENGTH = 6;
const PART_BITS = 5;
const PART_LIMIT = 1 << PART_BITS;

function packs(part: number): boolean {
  return part >= 0 && part < PART_LIMIT && (part | 0) === part;
}

/** `id` followed by one more part. */
function pack(id: number, part: number): number {
  return (id << PART_BITS) | part;
}

/** The id of a key; the weapon speed stays 0 until settleWeaponSpeedTies sets one. */
function key(phase: number, a = 0, b = 0, c = 0, lost = 0, speed = 0): KeyId {
  if (packs(phase) && packs(a) && packs(b) && packs(c) && packs(lost) && packs(speed)) {
    return pack(pack(pack(pack(pack(phase, a), b), c), lost), speed);
  }
  return [phase, a, b, c, lost, speed].join(',');
}

/** The id of a key with its weapon speed set. */
function withSpeed(id: KeyId, speed: number): KeyId {
  const [phase, a, b, c, lost] = keyParts(id);
  return key(phase, a, b, c, lost, speed);
}

/** The parts of a key from its id. */
function keyParts(id: KeyId): number[] {
  if (typeof id === 'string') return id.split(',').map(Number);
  const parts: number[] = [];
  for (let i = KEY_LENGTH - 1; i >= 0; i--) parts.push((id >> (i * PART_BITS)) & (PART_LIMIT - 1));
  return parts;
}

/** When damage can break a casting: from the start of the round, or never (a device). */
type Breakable = 'start' | 'never';

/** A casting as planned, its times as keys; buildSchedule turns them into step indices. */
interface PendingCasting {
  id: string;
  caster: string;
  spell: string;
  device: boolean;
  castingTime: number;
  beganRound: number;
  begin: KeyId | null;
  complete: KeyId | null;
  lossFrom: Breakable;
  preventFrom: Breakable;
  expends: boolean;
  remaining: number;
}

/** The entries of one time key: one step. */
interface Slot {
  id: KeyId;
  phase: HighLowPhase;
  entries: StepEntry[];
  /** Per entry, the melee weapon speed (undefined for others), used only if the slot is a tie of many sides. */
  speeds: (number | undefined)[];
  /** The side of the first melee entry, and whether a melee entry of another side followed. */
  meleeSide: string | undefined;
  meleeOfManySides: boolean;
  /** The slot's step, once the schedule is built. */
  index: number;
}

function newSlot(id: KeyId, phase: HighLowPhase): Slot {
  return { id, phase, entries: [], speeds: [], meleeSide: undefined, meleeOfManySides: false, index: -1 };
}

/**
 * The round's entries collected by time key as they are planned, one slot a
 * step (in order of first use), and its castings.
 */
class Plan {
  slots: Slot[] = [];
  readonly castings: PendingCasting[] = [];
  readonly byId = new Map<KeyId, Slot>();

  /** An entry at its time key. */
  add(at: KeyId, phase: HighLowPhase, entry: StepEntry): void {
    const slot = this.slotAt(at, phase);
    slot.entries.push(entry);
    slot.speeds.push(undefined);
  }

  /** A melee entry: its weapon speed may decide a tie with other sides (settleWeaponSpeedTies). */
  addMelee(at: KeyId, phase: HighLowPhase, entry: StepEntry, side: string, speed: number): void {
    const slot = this.slotAt(at, phase);
    slot.entries.push(entry);
    slot.speeds.push(speed);
    if (slot.meleeSide === undefined) slot.meleeSide = side;
    else if (side !== slot.meleeSide) slot.meleeOfManySides = true;
  }

  /** The slot of a time key, created if new. */
  slotAt(at: KeyId, phase: HighLowPhase): Slot {
    let slot = this.byId.get(at);
    if (!slot) {
      slot = newSlot(at, phase);
      this.byId.set(at, slot);
      this.slots.push(slot);
    }
    return slot;
  }
}

interface PlanContext {
  round: number;
  labels: Record<string, string>;
  options: HighLowOptions;
}

/** The group initiative a combatant acts in (delay and the delayed condition make it LOW). */
export function groupOf(c: Combatant, decl: Declaration | undefined, state: CombatantState | undefined, labels: Record<string, string>): Group {
  if (state?.delayed) return 'low'; // Delayed Condition: "always has LOW initiative"
  if (decl && (decl.delayed === true || decl.action === 'delay')) return 'low'; // Declaring a Delay: "you act on LOW"
  return labels[c.side] === 'high' ? 'high' : 'low';
}

/** Fast actions "are unaffected by the delayed condition and use group initiative". */
function fastGroupOf(c: Combatant, decl: Declaration, labels: Record<string, string>): Group {
  if (decl.delayed === true) return 'low';
  return labels[c.side] === 'high' ? 'high' : 'low';
}

/** "All group initiative action ties are lost unless the opponent has the delayed condition." */
function lostTie(state: CombatantState | undefined): number {
  return state?.delayed ? 1 : 0;
}

type ActionType = 'innate' | 'missile' | 'melee' | 'other';

function actionType(action: ActionKind): ActionType {
  switch (action) {
    case 'turn-undead':
      return 'innate';
    case 'missile':
    case 'throw':
      return 'missile';
    case 'melee':
      return 'melee';
    default:
      return 'other';
  }
}

/** D1 innate abilities first, D4 other last; missiles and melee between, in the order of the option. */
function typeRank(t: ActionType, options: HighLowOptions): number {
  const missileFirst = options.groupOrder !== 'melee-first';
  switch (t) {
    case 'innate':
      return 1;
    case 'missile':
      return missileFirst ? 2 : 3;
    case 'melee':
      return missileFirst ? 3 : 2;
    default:
      return 4;
  }
}

function routinesOf(c: Combatant, decl: Declaration): number {
  const n = decl.routines ?? c.routines ?? 1;
  return Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1;
}

function speedOf(c: Combatant, decl: Declaration, options: HighLowOptions): number {
  const w = decl.weapon ?? c.weapon;
  const s = w?.speed;
  return typeof s === 'number' && Number.isFinite(s) && s >= 0 ? s : finiteOr(options.naturalWeaponSpeed, 0);
}

function makeEntry(c: Combatant, decl: Declaration, kind: StepEntry['kind'], reason: string, routine?: number, casting?: string): StepEntry {
  const e: StepEntry = { combatant: c.id, kind, action: decl.action };
  if (routine !== undefined) e.routine = routine;
  if (decl.target !== undefined) e.target = decl.target;
  e.reason = reason;
  if (casting !== undefined) e.casting = casting;
  return e;
}

/* ============================== "3. ... Fast Action ... Parley, Flee, Charge" */

/** "in the order as presented": A parley, B flee, C charge; HIGH before LOW within each. */
const FAST_RANK: Partial<Record<ActionKind, number>> = { parley: 1, flee: 2, charge: 3 };

function planFast(c: Combatant, decl: Declaration, ctx: PlanContext, out: Plan): void {
  const group = fastGroupOf(c, decl, ctx.labels);
  const routine = decl.action === 'charge' ? 1 : undefined;
  out.add(key(RANK.fast, FAST_RANK[decl.action] ?? 4, GROUP_RANK[group]), 'fast', makeEntry(c, decl, 'action', 'highLowFast', routine));
}

/* ============================== "4. ... multi-attack ability (and is in melee)" */

function planMultiAttackFirst(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext, out: Plan): void {
  const group = groupOf(c, decl, state, ctx.labels);
  const g = ctx.options.multiAttackByGroup ? GROUP_RANK[group] : 0;
  out.addMelee(
    key(RANK['multi-attack'], g, 0, 0, lostTie(state)),
    'multi-attack',
    makeEntry(c, decl, 'action', 'highLowMultiAttackFirst', 1),
    c.side,
    speedOf(c, decl, ctx.options),
  );
}

/* ============================== "5. ... HIGH group initiative ... LOW group" */

/*
 * Within a group, "action order by type determines who acts first": D1
 * innate abilities, then missiles and melee (option groupOrder), then D4
 * other. Ties of the same type: the delayed condition loses; melee between
 * different sides goes by weapon speed (lower first); still equal,
 * simultaneous.
 */
function planGroupAction(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext, out: Plan): void {
  const group = groupOf(c, decl, state, ctx.labels);
  const type = actionType(decl.action);
  const reason = state.delayed
    ? 'highLowDelayedCondition'
    : decl.delayed === true || decl.action === 'delay'
      ? 'highLowDeclaredDelay'
      : group === 'high'
        ? 'highLowHighGroup'
        : 'highLowLowGroup';
  const attack = decl.action === 'melee' || decl.action === 'missile';
  const at = key(RANK[group], typeRank(type, ctx.options), 0, 0, lostTie(state));
  const entry = makeEntry(c, decl, 'action', reason, attack ? 1 : undefined);
  if (type === 'melee') out.addMelee(at, group, entry, c.side, speedOf(c, decl, ctx.options));
  else out.add(at, group, entry);
}

/* ============================== "6. ... any remaining attacks due to the multi-attack ability" */

function planRemainingRoutines(c: Combatant, decl: Declaration, state: CombatantState, routines: number, ctx: PlanContext, out: Plan): void {
  if (routines < 2) return;
  const group = groupOf(c, decl, state, ctx.labels);
  const g = ctx.options.multiAttackByGroup ? GROUP_RANK[group] : 0;
  const type = actionType(decl.action);
  for (let r = 2; r <= routines; r++) {
    const at = key(RANK['remaining-attacks'], r, g, typeRank(type, ctx.options), lostTie(state));
    const entry = makeEntry(c, decl, 'routine', 'highLowRemainingRoutine', r);
    if (type === 'melee') out.addMelee(at, 'remaining-attacks', entry, c.side, speedOf(c, decl, ctx.options));
    else out.add(at, 'remaining-attacks', entry);
  }
}

/* ============================== "7. ... resolve all 'spells' ... Spell Initiative Chart" */

/*
 * Incantations and invocations "always begin on the 1st segment" and go off
 * in the spells phase (ruling "Spell initiative"): shortest casting time
 * first, equal time HIGH before LOW (the delayed count as LOW but do not lose
 * ties), still equal simultaneous. "1 round" (10) completes in this round's
 * spells phase; longer castings carry on, and a carried casting goes off in
 * the spells phase of the round its remaining time runs out, ordered as if
 * its casting time were the remaining segments. Concentration: any damage
 * before it goes off loses an incantation "as if cast"; a device is not
 * lost to damage.
 */
function spellKey(time: number, group: Group): KeyId {
  return key(RANK.spells, time, GROUP_RANK[group]);
}

function planCasting(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext, out: Plan): void {
  const device = decl.action === 'device';
  const time = decl.castingTime as number; // validated: integer 1..100
  const id = `${c.id}@${ctx.round}`; // "Only one spell can be cast per round"
  const begin = key(RANK.activation);
  out.add(begin, 'activation', makeEntry(c, decl, 'cast-begin', 'highLowActivation', undefined, id));
  let complete: KeyId | null = null;
  if (time <= SEGMENTS_PER_ROUND) {
    complete = spellKey(time, groupOf(c, decl, state, ctx.labels));
    out.add(complete, 'spells', makeEntry(c, decl, 'cast-complete', device ? 'highLowDevice' : 'highLowSpellInitiative', undefined, id));
  }
  out.castings.push({
    id,
    caster: c.id,
    spell: decl.spell ?? decl.action,
    device,
    castingTime: time,
    beganRound: ctx.round,
    begin,
    complete,
    lossFrom: device ? 'never' : 'start',
    preventFrom: device ? 'never' : 'start',
    expends: !device,
    remaining: complete ? 0 : time - SEGMENTS_PER_ROUND,
  });
}

/** A casting carried in from an earlier round: it takes the caster's whole round. */
function planCarried(c: Combatant, casting: RoundInput['carryIn'][number], state: CombatantState, ctx: PlanContext, out: Plan): void {
  const remaining = Math.max(1, Math.ceil(finiteOr(casting.remaining, 1)));
  let complete: KeyId | null = null;
  if (remaining <= SEGMENTS_PER_ROUND) {
    complete = spellKey(remaining, groupOf(c, undefined, state, ctx.labels));
    const entry: StepEntry = {
      combatant: c.id,
      kind: 'cast-complete',
      action: casting.device ? 'device' : 'spell',
      casting: casting.id,
      reason: 'highLowCarriedCasting',
    };
    out.add(complete, 'spells', entry);
  }
  // Planned like any casting, not as a plain carry (ScheduleBuilder.addCarry
  // makes every carried casting breakable): a device is never lost to damage.
  out.castings.push({
    id: casting.id,
    caster: casting.caster,
    spell: casting.spell,
    device: casting.device,
    castingTime: casting.castingTime,
    beganRound: casting.beganRound,
    begin: null,
    complete,
    lossFrom: casting.device ? 'never' : 'start',
    preventFrom: casting.device ? 'never' : 'start',
    expends: casting.expends,
    remaining: complete ? 0 : remaining - SEGMENTS_PER_ROUND,
  });
}

/* ---------------------------------------------- the round assembled: steps 3-7 */

function planDeclared(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext, out: Plan): void {
  switch (decl.action) {
    case 'parley':
    case 'flee':
    case 'charge':
      planFast(c, decl, ctx, out);
      return;
    case 'melee': {
      const n = routinesOf(c, decl);
      if (n >= 2) {
        planMultiAttackFirst(c, decl, state, ctx, out);
        planRemainingRoutines(c, decl, state, n, ctx, out);
      } else planGroupAction(c, decl, state, ctx, out);
      return;
    }
    case 'missile': {
      // Missiles are not "in melee": the first routine keeps its group turn.
      planGroupAction(c, decl, state, ctx, out);
      planRemainingRoutines(c, decl, state, routinesOf(c, decl), ctx, out);
      return;
    }
    case 'spell':
    case 'device':
      planCasting(c, decl, state, ctx, out);
      return;
    case 'complex':
      planComplex(c, decl, out);
      return;
    case 'none':
      return;
    default:
      // turn-undead (D1), throw (with missiles), consumable, move, other, delay (D4).
      planGroupAction(c, decl, state, ctx, out);
  }
}

/**
 * Every entry of the round at its time key, in one pass over the combatants,
 * then one pass over the few slots to settle weapon-speed ties.
 */
function planSettled(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: HighLowOptions): Plan {
  const ctx: PlanContext = { round: input.round, labels: initiative.labels ?? {}, options };
  const out = new Plan();
  const carried = carriedByCaster(input.carryIn);
  for (const c of encounter.combatants) {
    const state = stateOf(c, input.states);
    if (!canAct(state) || surprisedThisRound(input, c.id)) continue; // dead, dying, fled, or surprised in round 1
    const carry = carried?.get(c.id);
    if (carry) {
      // A casting under way is the caster's major action: a new declaration waits.
      for (const casting of carry) planCarried(c, casting, state, ctx, out);
      continue;
    }
    const decl = input.declarations[c.id];
    if (!decl || validateDeclaration(decl, c, options)) continue;
    planDeclared(c, decl, state, ctx, out);
  }
  settleWeaponSpeedTies(out, options);
  return out;
}

/** Castings carried into the round, by caster; null when there are none. */
function carriedByCaster(carryIn: RoundInput['carryIn'] | undefined): Map<string, RoundInput['carryIn']> | null {
  if (!carryIn || carryIn.length === 0) return null;
  const carried = new Map<string, RoundInput['carryIn']>();
  for (const casting of carryIn) {
    const list = carried.get(casting.caster);
    if (list) list.push(casting);
    else carried.set(casting.caster, [casting]);
  }
  return carried;
}

/**
 * Melee weapon speed decides ties only where a tie bucket holds more than one
 * side. Before this, a slot is a tie bucket (weapon speeds are all still 0):
 * such a slot is split by weapon speed, the speed written into each key.
 */
function settleWeaponSpeedTies(plan: Plan, options: HighLowOptions): void {
  if (!options.weaponSpeedTies) return;
  const slots = plan.slots;
  plan.slots = [];
  for (const slot of slots) {
    if (!slot.meleeOfManySides) {
      plan.slots.push(slot);
      continue;
    }
    plan.byId.delete(slot.id);
    const bySpeed = new Map<number, Slot>();
    for (let i = 0; i < slot.entries.length; i++) {
      const entry = slot.entries[i];
      const speed = slot.speeds[i];
      if (speed !== undefined && (entry.reason === 'highLowHighGroup' || entry.reason === 'highLowLowGroup')) {
        entry.reason = 'highLowWeaponSpeed';
      }
      const at = speed ?? 0; // others in a tie bucket keep speed 0
      let part = bySpeed.get(at);
      if (!part) {
        part = plan.slotAt(withSpeed(slot.id, at), slot.phase);
        bySpeed.set(at, part);
      }
      part.entries.push(entry);
      part.speeds.push(speed);
    }
  }
}

function compareSlots(a: Slot, b: Slot): number {
  return typeof a.id === 'number' && typeof b.id === 'number' ? a.id - b.id : compareKeys(keyParts(a.id), keyParts(b.id));
}

/**
 * The schedule, as ScheduleBuilder would build it: one step a slot, its
 * entries in the order planned; steps in key order (the plan's slots are
 * sorted in place). Only the few distinct keys are sorted, not the entries.
 */
function buildSchedule(round: number, plan: Plan, initiative?: InitiativeResult): Schedule {
  const steps: Step[] = [];
  for (const slot of plan.slots.sort(compareSlots)) {
    slot.index = steps.length;
    steps.push({ phase: slot.phase, entries: slot.entries });
  }
  const stepAt = (at: KeyId): number => {
    const slot = plan.byId.get(at);
    if (!slot) throw new Error(`casting refers to a time with no step: ${keyParts(at).join(',')}`);
    return slot.index;
  };
  const breakableFrom = (from: Breakable): number => (from === 'start' ? 0 : NEVER);
  const castings: Schedule['castings'] = plan.castings.map((c) => ({
    id: c.id,
    caster: c.caster,
    spell: c.spell,
    device: c.device,
    castingTime: c.castingTime,
    beganRound: c.beganRound,
    beginStep: c.begin === null ? -1 : stepAt(c.begin),
    completeStep: c.complete === null ? null : stepAt(c.complete),
    lossFrom: breakableFrom(c.lossFrom),
    preventFrom: breakableFrom(c.preventFrom),
    expends: c.expends,
    remaining: c.remaining,
  }));
  return makeSchedule('high-low', round, steps, castings, initiative);
}

function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: HighLowOptions): Schedule {
  return buildSchedule(input.round, planSettled(encounter, input, initiative, options), initiative);
}

/* ============================== "8. ... the End the Round sequence" */

/*
 * The delayed condition lasts "for the rest of the round". The text has no
 * dying rule: with deathAt below 0 a combatant at 0 or less is dying and,
 * if bleedPerRound > 0, loses that many hit points here.
 */
function endOfRound(_encounter: Encounter, input: EndOfRoundInput, _dice: Dice, options: HighLowOptions): EndOfRoundResult {
  const events: EndEvent[] = [];
  const bleed = whole(options.bleedPerRound, 0);
  const ids = Object.keys(input.after);
  // Most rounds nobody is delayed or bleeding: the states pass through unchanged (never mutated).
  if (!ids.some((id) => 'delayed' in input.after[id] || (bleed > 0 && input.after[id].condition === 'dying'))) {
    return { states: input.after, events };
  }
  const states: Record<string, CombatantState> = {};
  for (const id of ids) {
    const s = input.after[id];
    const next = withoutDelayedCondition(s);
    if (bleed > 0 && next.condition === 'dying') {
      next.hp -= bleed;
      events.push({ kind: 'bleed', combatant: id, amount: bleed });
      if (next.hp <= options.deathAt) {
        next.condition = 'dead';
        events.push({ kind: 'death', combatant: id });
      }
    }
    states[id] = next;
  }
  return { states, events };
}

/** A copy of a state (its own `expended`) without the delayed condition. */
function withoutDelayedCondition(s: CombatantState): CombatantState {
  if (!('delayed' in s)) return { ...s, expended: [...s.expended] };
  const { delayed: _cleared, ...rest } = s;
  return { ...rest, expended: [...s.expended] };
}

/* ============================== "Complex Activity. [go last] ... takes the entire round" */

function planComplex(c: Combatant, decl: Declaration, out: Plan): void {
  // "Those with the delayed condition can complete a complex action normally."
  out.add(key(RANK['go-last']), 'go-last', makeEntry(c, decl, 'action', 'highLowGoLast'));
}

/* ============================== "Delay. [delay] ... announce your intent to delay" */

export type DelayResult =
  | { ok: true; schedule: Schedule; states: Record<string, CombatantState> }
  | { ok: false; problem: Problem };

function identity(e: StepEntry): string {
  return `${e.kind}/${e.routine ?? 0}/${e.casting ?? ''}`;
}

/**
 * A combatant announces a delay during group actions: steps 0..currentStep
 * have been played (-1: none) and the next step is in the HIGH or LOW phase.
 * "If you are in HIGH initiative, you lose all actions until LOW initiative
 * ... You also gain the delayed condition for the rest of the round. If you
 * announce a delay during LOW initiative, you lose your major action that
 * round." Its unplayed entries are placed again as a delayed individual
 * (LOW, losing ties; spells count it LOW); everyone else keeps their place
 * and the played steps keep their indices, so play goes on at
 * currentStep + 1. `schedule` must be the one planRound made from `input`
 * and `initiative`; `states` are the states now. Pure.
 */
export function announceDelay(
  encounter: Encounter,
  input: RoundInput,
  initiative: InitiativeResult,
  schedule: Schedule,
  combatantId: string,
  currentStep: number,
  states: Record<string, CombatantState>,
  options: HighLowOptions = highLowDefaults,
): DelayResult {
  const c = encounter.combatants.find((x) => x.id === combatantId);
  if (!c) return { ok: false, problem: { key: 'UnknownCombatant', data: { id: combatantId } } };
  const now = states[c.id] ?? stateOf(c, input.states);
  if (!canAct(now) || surprisedThisRound(input, c.id)) return { ok: false, problem: { key: 'HighLowDelayCannotAct', data: { name: c.name } } };
  const next = Number.isInteger(currentStep) && currentStep >= -1 ? schedule.steps[currentStep + 1] : undefined;
  if (!next || (next.phase !== 'high' && next.phase !== 'low')) {
    return { ok: false, problem: { key: 'HighLowDelayOutsideGroupPhase', data: { name: c.name } } };
  }
  const old = planSettled(encounter, input, initiative, options);
  const keys = old.slots.map((slot) => keyParts(slot.id)).sort(compareKeys);
  if (keys.length !== schedule.steps.length || keys.some((k, i) => phaseOfKey(k) !== schedule.steps[i].phase)) {
    return { ok: false, problem: { key: 'HighLowDelayScheduleChanged', data: { name: c.name } } };
  }
  const K: number[] | null = currentStep >= 0 ? keys[currentStep] : null;
  const isPlayed = (slot: Slot) => K !== null && compareKeys(keyParts(slot.id), K) <= 0;
  const delayedState: CombatantState = { ...now, expended: [...now.expended], delayed: true };
  const replanned = planSettled(encounter, { ...input, states: { ...input.states, [c.id]: delayedState } }, initiative, options);

  // Everyone else keeps their entries, and so does the delayer for the steps played;
  // within a step, these come before the delayer's new entries, as planned.
  const kept = new Plan();
  const played = new Set<string>();
  const completing = new Set<string>();
  const keep = (slot: Slot, entry: StepEntry) => {
    kept.add(slot.id, slot.phase, entry);
    if (entry.kind === 'cast-complete' && entry.casting) completing.add(entry.casting);
  };
  for (const slot of old.slots) {
    const done = isPlayed(slot);
    for (const entry of slot.entries) {
      if (entry.combatant !== c.id) keep(slot, entry);
      else if (done) {
        keep(slot, entry);
        played.add(identity(entry));
      }
    }
  }
  const duringLow = next.phase === 'low';
  for (const slot of replanned.slots) {
    if (isPlayed(slot)) continue;
    for (const entry of slot.entries) {
      if (entry.combatant !== c.id || played.has(identity(entry))) continue;
      // "announce a delay during LOW initiative, you lose your major action".
      if (duringLow && entry.kind === 'action' && (slot.phase === 'low' || slot.phase === 'go-last')) continue;
      keep(slot, slot.phase === 'spells' ? entry : { ...entry, reason: 'highLowDelayedCondition' });
    }
  }
  for (const x of old.castings) if (x.caster !== c.id && (x.complete === null || completing.has(x.id))) kept.castings.push(x);
  for (const x of replanned.castings) if (x.caster === c.id && (x.complete === null || completing.has(x.id))) kept.castings.push(x);
  return {
    ok: true,
    schedule: buildSchedule(schedule.round, kept, schedule.initiative),
    states: { ...states, [c.id]: delayedState },
  };
}

function phaseOfKey(k: number[]): string {
  return HIGH_LOW_PHASES[k[0]] ?? '';
}

/* ============================== "Free Attack. [immediate]" and "Immediate Attack" */

export interface FreeAttackTaken {
  attacker: string;
  target: string;
  /** Step index of the round (a step stands for the segment of the trigger). */
  step: number;
}

/**
 * May `attacker` take a free attack on `target` now? Not while it cannot act
 * or is surprised; "Only one free attack may be taken per segment by any
 * creature"; the one drawing it is subject to "one free attack ... per
 * opponent per round". `taken` lists this round's free attacks so far.
 */
export function freeAttackProblem(
  attacker: Combatant,
  target: Combatant,
  step: number,
  state: CombatantState,
  surprised: boolean,
  taken: readonly FreeAttackTaken[],
): Problem | null {
  const data = { name: attacker.name, target: target.name };
  if (!canAct(state)) return { key: 'HighLowFreeAttackCannotAct', data };
  if (surprised) return { key: 'HighLowFreeAttackSurprised', data };
  if (taken.some((t) => t.attacker === attacker.id && t.step === step)) return { key: 'HighLowFreeAttackOnePerSegment', data };
  if (taken.some((t) => t.attacker === attacker.id && t.target === target.id)) return { key: 'HighLowFreeAttackOnePerOpponent', data };
  return null;
}

/**
 * "Creatures using an immediate attack must have an available major action";
 * the surprised cannot. `majorActionUsed`: it has already taken its major action.
 */
export function immediateAttackProblem(attacker: Combatant, state: CombatantState, surprised: boolean, majorActionUsed: boolean): Problem | null {
  const data = { name: attacker.name };
  if (!canAct(state)) return { key: 'HighLowFreeAttackCannotAct', data };
  if (surprised) return { key: 'HighLowFreeAttackSurprised', data };
  if (majorActionUsed) return { key: 'HighLowImmediateAttackNoMajorAction', data };
  return null;
}

/**
 * "a free attack taken will break concentration (e.g. spell casting)": the
 * attacker's castings still under way at `step` (not yet gone off), which
 * the table then marks lost.
 */
export function castingsBrokenByFreeAttack(schedule: Schedule, attacker: string, step: number): string[] {
  return schedule.castings
    .filter((x) => x.caster === attacker && !x.device && (x.completeStep === null || step < x.completeStep))
    .map((x) => x.id);
}

/* ============================== Hit points (text silent) */

function applyDamage(_c: Combatant, state: CombatantState, amount: number, options: HighLowOptions): DamageResult {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return { state, wounds: 0 };
  const deathAt = Math.min(0, finiteOr(options.deathAt, 0));
  return hpDamage(state, amount, { incapacitatedAt: 0, deathAt });
}

/* ============================== Late joiners (text silent) */

/*
 * A combatant joining mid-round acts in its side's group (a side that did not
 * roll is LOW), at the end of each phase it would act in, if that phase is
 * still to come; a phase already played is missed. Spells, devices and
 * complex activities need the whole round (activation "begins on the 1st
 * segment"): the newcomer starts them next round.
 */
function lateJoin(_encounter: Encounter, newcomer: Combatant, input: LateJoinInput, _dice: Dice, options: HighLowOptions): LateJoinResult {
  const decl = input.declaration;
  if (!decl || validateDeclaration(decl, newcomer, options)) return { schedule: input.schedule };
  if (decl.action === 'spell' || decl.action === 'device' || decl.action === 'complex' || decl.action === 'none') {
    return { schedule: input.schedule };
  }
  const ctx: PlanContext = { round: input.round, labels: input.schedule.initiative?.labels ?? {}, options };
  const plan = new Plan();
  planDeclared(newcomer, decl, initialState(newcomer), ctx, plan);
  const steps: Step[] = input.schedule.steps.map((s) => ({ ...s, entries: [...s.entries] }));
  let castings = input.schedule.castings.map((x) => ({ ...x }));
  for (const slot of [...plan.slots].sort(compareSlots)) {
    for (const entry of slot.entries) {
      const rank = RANK[slot.phase];
      let pos = steps.findIndex((s) => phaseRank(s.phase) > rank);
      if (pos < 0) pos = steps.length;
      if (pos <= input.currentStep) continue; // that phase is over
      steps.splice(pos, 0, { phase: slot.phase, entries: [{ ...entry, reason: 'highLowLateJoin' }] });
      castings = castings.map((x) => shiftCasting(x, pos));
    }
  }
  const schedule: Schedule = { ...input.schedule, steps, castings, carryOut: castings.filter((x) => x.completeStep === null) };
  return { schedule };
}

function shiftCasting(x: Schedule['castings'][number], pos: number): Schedule['castings'][number] {
  const at = (i: number) => (i >= pos && i !== NEVER ? i + 1 : i);
  return {
    ...x,
    beginStep: x.beginStep < 0 ? x.beginStep : at(x.beginStep),
    completeStep: x.completeStep === null ? null : at(x.completeStep),
    lossFrom: x.lossFrom === 0 ? 0 : at(x.lossFrom),
    preventFrom: x.preventFrom === 0 ? 0 : at(x.preventFrom),
  };
}

/* ================================================================ procedure */

export const highLowProcedure: Procedure<HighLowOptions> = {
  id: 'high-low',
  defaults: highLowDefaults,
  optionSpecs: OPTION_SPECS,
  phases: HIGH_LOW_PHASES,
  timing: 'phases',
  actions: ACTIONS,
  validateDeclaration,
  rollSurprise,
  // Surprise is a lost round 1, not a separate surprise round.
  planSurprise: () => null,
  rollCombatInitiative: () => ({}),
  rollInitiative,
  planRound,
  applyDamage,
  canAct,
  endOfRound,
  lateJoin,
};
