/**
 * high-low: HIGH and LOW group initiative in a fixed phase order
 * (seed 001_aab75c09f093bb2c.txt; choices where it is silent are in
 * docs/rules-notes/high-low.md).
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
import { commonDeclarationProblem, compareKeys, hpDamage, initialState, NEVER, ScheduleBuilder } from '../common';

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
  const active = new Set<string>();
  for (const c of encounter.combatants) if (ableThisRound(c, input)) active.add(c.side);
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

/** Keys are [phase, a, b, c, lostTie, weaponSpeed]; equal keys are one simultaneous step. */
const KEY_LENGTH = 6;
const SPEED_AT = 5;

function key(...parts: number[]): number[] {
  const k = parts.slice(0, KEY_LENGTH);
  while (k.length < KEY_LENGTH) k.push(0);
  return k;
}

type PendingCasting = Parameters<ScheduleBuilder['addCasting']>[0];

interface Item {
  key: number[];
  phase: HighLowPhase;
  entry: StepEntry;
  side: string;
  /** Melee weapon speed, used only when the tie bucket holds more than one side. */
  speed?: number;
}

interface Plan {
  items: Item[];
  castings: PendingCasting[];
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

function makeEntry(c: Combatant, decl: Declaration, kind: StepEntry['kind'], reason: string, routine?: number): StepEntry {
  const e: StepEntry = { combatant: c.id, kind, action: decl.action };
  if (routine !== undefined) e.routine = routine;
  if (decl.target !== undefined) e.target = decl.target;
  e.reason = reason;
  return e;
}

/* ============================== "3. ... Fast Action ... Parley, Flee, Charge" */

/** "in the order as presented": A parley, B flee, C charge; HIGH before LOW within each. */
const FAST_RANK: Partial<Record<ActionKind, number>> = { parley: 1, flee: 2, charge: 3 };

function planFast(c: Combatant, decl: Declaration, ctx: PlanContext, out: Plan): void {
  const group = fastGroupOf(c, decl, ctx.labels);
  const routine = decl.action === 'charge' ? 1 : undefined;
  out.items.push({
    key: key(RANK.fast, FAST_RANK[decl.action] ?? 4, GROUP_RANK[group]),
    phase: 'fast',
    entry: makeEntry(c, decl, 'action', 'highLowFast', routine),
    side: c.side,
  });
}

/* ============================== "4. ... multi-attack ability (and is in melee)" */

function planMultiAttackFirst(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext, out: Plan): void {
  const group = groupOf(c, decl, state, ctx.labels);
  const g = ctx.options.multiAttackByGroup ? GROUP_RANK[group] : 0;
  out.items.push({
    key: key(RANK['multi-attack'], g, 0, 0, lostTie(state)),
    phase: 'multi-attack',
    entry: makeEntry(c, decl, 'action', 'highLowMultiAttackFirst', 1),
    side: c.side,
    speed: speedOf(c, decl, ctx.options),
  });
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
  const item: Item = {
    key: key(RANK[group], typeRank(type, ctx.options), 0, 0, lostTie(state)),
    phase: group,
    entry: makeEntry(c, decl, 'action', reason, attack ? 1 : undefined),
    side: c.side,
  };
  if (type === 'melee') item.speed = speedOf(c, decl, ctx.options);
  out.items.push(item);
}

/* ============================== "6. ... any remaining attacks due to the multi-attack ability" */

function planRemainingRoutines(c: Combatant, decl: Declaration, state: CombatantState, routines: number, ctx: PlanContext, out: Plan): void {
  const group = groupOf(c, decl, state, ctx.labels);
  const g = ctx.options.multiAttackByGroup ? GROUP_RANK[group] : 0;
  const type = actionType(decl.action);
  for (let r = 2; r <= routines; r++) {
    const item: Item = {
      key: key(RANK['remaining-attacks'], r, g, typeRank(type, ctx.options), lostTie(state)),
      phase: 'remaining-attacks',
      entry: makeEntry(c, decl, 'routine', 'highLowRemainingRoutine', r),
      side: c.side,
    };
    if (type === 'melee') item.speed = speedOf(c, decl, ctx.options);
    out.items.push(item);
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
function spellKey(time: number, group: Group): number[] {
  return key(RANK.spells, time, GROUP_RANK[group]);
}

function planCasting(c: Combatant, decl: Declaration, state: CombatantState, ctx: PlanContext, out: Plan): void {
  const device = decl.action === 'device';
  const time = decl.castingTime as number; // validated: integer 1..100
  const id = `${c.id}@${ctx.round}`; // "Only one spell can be cast per round"
  const begin = key(RANK.activation);
  out.items.push({ key: begin, phase: 'activation', entry: { ...makeEntry(c, decl, 'cast-begin', 'highLowActivation'), casting: id }, side: c.side });
  let complete: number[] | null = null;
  if (time <= SEGMENTS_PER_ROUND) {
    complete = spellKey(time, groupOf(c, decl, state, ctx.labels));
    out.items.push({
      key: complete,
      phase: 'spells',
      entry: { ...makeEntry(c, decl, 'cast-complete', device ? 'highLowDevice' : 'highLowSpellInitiative'), casting: id },
      side: c.side,
    });
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
  let complete: number[] | null = null;
  if (remaining <= SEGMENTS_PER_ROUND) {
    complete = spellKey(remaining, groupOf(c, undefined, state, ctx.labels));
    out.items.push({
      key: complete,
      phase: 'spells',
      entry: {
        combatant: c.id,
        kind: 'cast-complete',
        action: casting.device ? 'device' : 'spell',
        casting: casting.id,
        reason: 'highLowCarriedCasting',
      },
      side: c.side,
    });
  }
  // Registered with addCasting, not addCarry: addCarry makes every carried
  // casting breakable (lossFrom 0), but a device is never lost to damage.
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

/** Melee weapon speed decides ties only where a tie bucket holds more than one side. */
function settleWeaponSpeedTies(items: Item[], options: HighLowOptions): void {
  if (!options.weaponSpeedTies) return;
  const buckets = new Map<string, { side: string; many: boolean }>();
  for (const it of items) {
    if (it.speed === undefined) continue;
    const b = it.key.slice(0, SPEED_AT).join(',');
    const seen = buckets.get(b);
    if (!seen) buckets.set(b, { side: it.side, many: false });
    else if (seen.side !== it.side) seen.many = true;
  }
  for (const it of items) {
    if (it.speed === undefined) continue;
    if (buckets.get(it.key.slice(0, SPEED_AT).join(','))?.many) {
      it.key[SPEED_AT] = it.speed;
      if (it.entry.reason === 'highLowHighGroup' || it.entry.reason === 'highLowLowGroup') {
        it.entry.reason = 'highLowWeaponSpeed';
      }
    }
  }
}

/**
 * Every entry of the round with its time key: one pass over the combatants,
 * one pass to settle weapon-speed ties; the builder sorts once.
 */
function planItems(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: HighLowOptions): Plan {
  const ctx: PlanContext = { round: input.round, labels: initiative.labels ?? {}, options };
  const out: Plan = { items: [], castings: [] };
  const carried = new Map<string, RoundInput['carryIn']>();
  for (const casting of input.carryIn ?? []) carried.set(casting.caster, [...(carried.get(casting.caster) ?? []), casting]);
  for (const c of encounter.combatants) {
    if (!ableThisRound(c, input)) continue; // dead, dying, fled, or surprised in round 1
    const state = stateOf(c, input.states);
    const carry = carried.get(c.id);
    if (carry) {
      // A casting under way is the caster's major action: a new declaration waits.
      for (const casting of carry) planCarried(c, casting, state, ctx, out);
      continue;
    }
    const decl = input.declarations[c.id];
    if (!decl || validateDeclaration(decl, c, options)) continue;
    planDeclared(c, decl, state, ctx, out);
  }
  settleWeaponSpeedTies(out.items, options);
  return out;
}

function buildSchedule(round: number, items: Item[], castings: PendingCasting[], initiative?: InitiativeResult): Schedule {
  const b = new ScheduleBuilder('high-low', round);
  for (const it of items) b.add(it.key, { phase: it.phase }, it.entry);
  for (const c of castings) b.addCasting(c);
  return b.build(initiative);
}

function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: HighLowOptions): Schedule {
  const plan = planItems(encounter, input, initiative, options);
  return buildSchedule(input.round, plan.items, plan.castings, initiative);
}

/* ============================== "8. ... the End the Round sequence" */

/*
 * The delayed condition lasts "for the rest of the round". The text has no
 * dying rule: with deathAt below 0 a combatant at 0 or less is dying and,
 * if bleedPerRound > 0, loses that many hit points here.
 */
function endOfRound(_encounter: Encounter, input: EndOfRoundInput, _dice: Dice, options: HighLowOptions): EndOfRoundResult {
  const states: Record<string, CombatantState> = {};
  const events: EndEvent[] = [];
  const bleed = whole(options.bleedPerRound, 0);
  for (const [id, s] of Object.entries(input.after)) {
    const { delayed: _cleared, ...rest } = s;
    const next: CombatantState = { ...rest, expended: [...s.expended] };
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

/* ============================== "Complex Activity. [go last] ... takes the entire round" */

function planComplex(c: Combatant, decl: Declaration, out: Plan): void {
  // "Those with the delayed condition can complete a complex action normally."
  out.items.push({ key: key(RANK['go-last']), phase: 'go-last', entry: makeEntry(c, decl, 'action', 'highLowGoLast'), side: c.side });
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
  const old = planItems(encounter, input, initiative, options);
  const keys = uniqueSortedKeys(old.items);
  if (keys.length !== schedule.steps.length || keys.some((k, i) => phaseOfKey(k) !== schedule.steps[i].phase)) {
    return { ok: false, problem: { key: 'HighLowDelayScheduleChanged', data: { name: c.name } } };
  }
  const K: number[] | null = currentStep >= 0 ? keys[currentStep] : null;
  const isPlayed = (k: number[]) => K !== null && compareKeys(k, K) <= 0;
  const delayedState: CombatantState = { ...now, expended: [...now.expended], delayed: true };
  const replanned = planItems(encounter, { ...input, states: { ...input.states, [c.id]: delayedState } }, initiative, options);

  const items: Item[] = [];
  const played = new Set<string>();
  for (const it of old.items) {
    if (it.entry.combatant !== c.id) items.push(it);
    else if (isPlayed(it.key)) {
      items.push(it);
      played.add(identity(it.entry));
    }
  }
  const duringLow = next.phase === 'low';
  for (const it of replanned.items) {
    if (it.entry.combatant !== c.id || isPlayed(it.key) || played.has(identity(it.entry))) continue;
    // "announce a delay during LOW initiative, you lose your major action".
    if (duringLow && it.entry.kind === 'action' && (it.phase === 'low' || it.phase === 'go-last')) continue;
    items.push(it.phase === 'spells' ? it : { ...it, entry: { ...it.entry, reason: 'highLowDelayedCondition' } });
  }
  const completing = new Set<string>();
  for (const it of items) if (it.entry.kind === 'cast-complete' && it.entry.casting) completing.add(it.entry.casting);
  const castings = [
    ...old.castings.filter((x) => x.caster !== c.id),
    ...replanned.castings.filter((x) => x.caster === c.id),
  ].filter((x) => x.complete === null || completing.has(x.id));
  return {
    ok: true,
    schedule: buildSchedule(schedule.round, items, castings, schedule.initiative),
    states: { ...states, [c.id]: delayedState },
  };
}

function uniqueSortedKeys(items: Item[]): number[][] {
  const byId = new Map<string, number[]>();
  for (const it of items) byId.set(it.key.join(','), it.key);
  return [...byId.values()].sort(compareKeys);
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
  const plan: Plan = { items: [], castings: [] };
  planDeclared(newcomer, decl, initialState(newcomer), ctx, plan);
  plan.items.sort((a, b) => compareKeys(a.key, b.key));
  const steps: Step[] = input.schedule.steps.map((s) => ({ ...s, entries: [...s.entries] }));
  let castings = input.schedule.castings.map((x) => ({ ...x }));
  for (const it of plan.items) {
    const rank = RANK[it.phase];
    let pos = steps.findIndex((s) => phaseRank(s.phase) > rank);
    if (pos < 0) pos = steps.length;
    if (pos <= input.currentStep) continue; // that phase is over
    steps.splice(pos, 0, { phase: it.phase, entries: [{ ...it.entry, reason: 'highLowLateJoin' }] });
    castings = castings.map((x) => shiftCasting(x, pos));
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
