/**
 * Procedure `d12-ascending` (seed 002, "Combat Procedure").
 *
 * I   Check for surprise: d12 per side, 1-4 surprises, range adjusted by the
 *     surprise table; surprise lasts one round (our round 0).
 * II  Determine initiative: d12 per side modified by dexterity, lowest acts
 *     first, ties simultaneous; spells begin on the initiative result and go
 *     off after their casting time; charging: the longer weapon first;
 *     optional tie-breaks (G).
 * III Additional combat rules: readied missiles fire before initiative, all
 *     attacks on the combatant's turn, attacks of opportunity, movement.
 * Then the tables: attacks per round by level, surprise modifiers.
 *
 * Pure rules code: no Foundry, no DOM, no Roll. Choices where the text is
 * silent are marked RULING and listed in README.md, Rules notes.
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, Declaration, Problem, WeaponStats } from '../model';
import type {
  Casting,
  DamageResult,
  Encounter,
  EndEvent,
  EndOfRoundInput,
  EndOfRoundResult,
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
import { commonDeclarationProblem, copyRecord, hpDamage, NEVER, makeSchedule } from '../common';

/* ================================================================ options */

export type D12InitiativeMode = 'group' | 'group-adjusted' | 'individual';

export interface D12AscendingOptions extends ProcedureOptions {
  /**
   * II.A/B: 'group' = one d12 per side, unmodified; 'group-adjusted' = one d12
   * per side, each combatant's dexterity adjustment applied to it ("modify by
   * dexterity", the default); 'individual' = characters roll their own d12
   * (and their own surprise), monsters still by side.
   */
  initiativeMode: D12InitiativeMode;
  /** II.G "Ties between melee weapons may be decided by comparing WSF". */
  tieWeaponSpeed: boolean;
  /** II.G "Ties involving multiple weapon attacks ... go to whoever has more attacks". */
  tieMoreAttacks: boolean;
  /** II.G "Ties between spell completion and a melee strike go to whichever is lower". */
  tieSpellVsMelee: boolean;
  /** II.G "Ties between missile fire and spell completion go to the missile if ...". */
  tieMissileVsSpell: boolean;
  /** RULING (text silent): hit points at or below which a combatant is dead; at or below 0 it cannot act. */
  deathAt: number;
  /** RULING (text silent): with deathAt below 0, hit points a dying combatant loses at the end of each round (0 = none). */
  bleedPerRound: number;
}

export const D12_DEFAULTS: Readonly<D12AscendingOptions> = Object.freeze({
  initiativeMode: 'group-adjusted',
  tieWeaponSpeed: false,
  tieMoreAttacks: false,
  tieSpellVsMelee: false,
  tieMissileVsSpell: false,
  deathAt: 0,
  bleedPerRound: 0,
});

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'initiativeMode', type: 'choice', choices: ['group', 'group-adjusted', 'individual'] },
  { key: 'tieWeaponSpeed', type: 'boolean' },
  { key: 'tieMoreAttacks', type: 'boolean' },
  { key: 'tieSpellVsMelee', type: 'boolean' },
  { key: 'tieMissileVsSpell', type: 'boolean' },
  { key: 'deathAt', type: 'number', min: -10, max: 0 },
  { key: 'bleedPerRound', type: 'number', min: 0, max: 10 },
];

/* ============================================================ phases, keys */

/** Phase ids in round order (TENSEG.Phase.<id>). */
export const PHASE_READIED = 'd12-readied'; // III.A readied missiles, before initiative
export const PHASE_SURPRISE = 'd12-surprise'; // I.D surprise round, highest surprise die first
export const PHASE_INITIATIVE = 'd12-initiative'; // II.A counts, lowest first
export const PHASE_WITHDRAWAL = 'd12-withdrawal'; // disengaging / fleeing: no initiative advantage
export const PHASE_FULL_ROUND = 'd12-full-round'; // II.C spells needing a full round, last
const PHASES = [PHASE_READIED, PHASE_SURPRISE, PHASE_INITIATIVE, PHASE_WITHDRAWAL, PHASE_FULL_ROUND] as const;
type PhaseId = (typeof PHASES)[number];
const RANK: Record<PhaseId, number> = {
  [PHASE_READIED]: 0,
  [PHASE_SURPRISE]: 1,
  [PHASE_INITIATIVE]: 1,
  [PHASE_WITHDRAWAL]: 2,
  [PHASE_FULL_ROUND]: 3,
};

/** Reasons shown on entries (TENSEG.Reason.<key>). */
export const REASONS = {
  readied: 'd12Readied',
  longerWeapon: 'd12LongerWeapon',
  armedVsUnarmed: 'd12ArmedVsUnarmed',
  chargeTooFar: 'd12ChargeTooFar',
  fullRound: 'd12FullRound',
  withdrawal: 'd12Withdrawal',
  tieMoreAttacks: 'd12TieMoreAttacks',
  tieSpeed: 'd12TieSpeed',
  tieMissileVsSpell: 'd12TieMissileVsSpell',
  aooMissile: 'd12AooMissile',
  aooCasting: 'd12AooCasting',
  aooMoving: 'd12AooMoving',
  aooFleeing: 'd12AooFleeing',
} as const;

const ACTIONS: readonly ActionKind[] = [
  'melee',
  'missile',
  'spell',
  'device',
  'turn-undead',
  'charge',
  'move',
  'flee',
  'parley',
  'full-defense',
  'other',
  'none',
];

const DIE = 12;
/** Rounds are ten segments; a casting time of 10 or more "needs a full round". */
const FULL_ROUND = 10;

/* ===================================================== helpers: combatants */

const finite = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);

function isCharacter(c: Combatant): boolean {
  return c.kind === 'character';
}

function canActState(state: CombatantState | undefined): boolean {
  return !!state && state.condition === 'ok';
}

function weaponOf(c: Combatant, d: Declaration): WeaponStats | undefined {
  return d.weapon ?? c.weapon;
}

/**
 * II.E "Weapons always win initiative vs. unarmed unless special abilities
 * apply [e.g. monks are never 'unarmed']". RULING: only a character with no
 * weapon is unarmed; monsters fight with natural weapons (length 1, the
 * model's convention) and monks are never unarmed.
 */
export function isUnarmed(c: Combatant, d: Declaration): boolean {
  if (weaponOf(c, d)) return false;
  if (c.className?.trim().toLowerCase() === 'monk') return false;
  return isCharacter(c);
}

/** Weapon length for II.E: unarmed 0, natural attacks or unknown length 1. */
export function reachOf(c: Combatant, d: Declaration): number {
  if (isUnarmed(c, d)) return 0;
  return finite(weaponOf(c, d)?.length, 1);
}

/* ================================================ I  Check for surprise */

/* "A 1-4 on a d12 otherwise normally indicates surprise." */
export const BASE_SURPRISE_RANGE = 4;

interface SideSurpriseData {
  /** Best "surprises others" adjustment among the side's members. */
  others: number;
  /** Best (lowest) "is surprised" adjustment among the side's members. */
  own: number;
  members: Combatant[];
}

function sideData(encounter: Encounter): Map<string, SideSurpriseData> {
  const out = new Map<string, SideSurpriseData>();
  for (const s of encounter.sides) out.set(s.id, { others: -Infinity, own: Infinity, members: [] });
  for (const c of encounter.combatants) {
    const d = out.get(c.side);
    if (!d) continue;
    d.members.push(c);
    const adj = surpriseAdjustments(c);
    d.others = Math.max(d.others, adj.others);
    d.own = Math.min(d.own, adj.own);
  }
  return out;
}

/**
 * The best "surprises others" adjustment among every side but one, computed
 * from the top two sides (no scan over all sides per side).
 */
function opposingBest(data: Map<string, SideSurpriseData>): (sideId: string) => number {
  let first: { side: string; v: number } | null = null;
  let second = -Infinity;
  for (const [side, d] of data) {
    if (d.members.length === 0) continue;
    if (!first || d.others > first.v) {
      if (first) second = Math.max(second, first.v);
      first = { side, v: d.others };
    } else second = Math.max(second, d.others);
  }
  return (sideId) => {
    const v = first && first.side !== sideId ? first.v : second;
    return Number.isFinite(v) ? v : 0;
  };
}

const clampRange = (r: number) => Math.max(0, Math.min(DIE, r));

/**
 * The surprise range a side (or one of its members rolling individually) is
 * subject to: 1-4, plus the opposing sides' best "surprises" adjustment
 * ("an elf on point makes the standard enemy surprise range 1-8"), plus the
 * side's best "is surprised" adjustment ("Adjustments are applied to the
 * normal surprise range, not the die roll").
 */
export function surpriseRangeFor(encounter: Encounter, sideId: string, individual?: Combatant): number {
  const data = sideData(encounter);
  const d = data.get(sideId);
  const own = individual ? surpriseAdjustments(individual).own : d && Number.isFinite(d.own) ? d.own : 0;
  return clampRange(BASE_SURPRISE_RANGE + opposingBest(data)(sideId) + own);
}

function rollSurprise(encounter: Encounter, dice: Dice, options: D12AscendingOptions): SurpriseResult {
  const data = sideData(encounter);
  const best = opposingBest(data);
  const individual = options.initiativeMode === 'individual';
  const rolls: Record<string, number> = {};
  const surprised: Record<string, number> = {};
  for (const side of encounter.sides) {
    const d = data.get(side.id);
    if (!d || d.members.length === 0) continue;
    const enemy = best(side.id);
    const sideRange = clampRange(BASE_SURPRISE_RANGE + enemy + (Number.isFinite(d.own) ? d.own : 0));
    // I.A "The DM may dictate that surprise exists": no roll. RULING: if the GM
    // marks a side both surprised and alerted, surprised wins.
    if (side.surprised) {
      for (const c of d.members) surprised[c.id] = c.neverSurprised ? 0 : 1;
      continue;
    }
    // An alerted side noticed the others first: it is not surprised, rolls nothing.
    if (side.alerted) {
      for (const c of d.members) surprised[c.id] = 0;
      continue;
    }
    // "Using this option PC's would get to make individual surprise ... rolls
    // while opponents will generally be rolled for as a group."
    const groupMembers = individual ? d.members.filter((c) => !isCharacter(c)) : d.members;
    if (groupMembers.length > 0) {
      const roll = dice.roll({ purpose: 'surprise', count: 1, faces: DIE, side: side.id, round: 0 });
      rolls[side.id] = roll;
      for (const c of groupMembers) surprised[c.id] = !c.neverSurprised && roll <= sideRange ? 1 : 0;
    }
    if (individual) {
      for (const c of d.members) {
        if (!isCharacter(c)) continue;
        const roll = dice.roll({ purpose: 'surprise', count: 1, faces: DIE, combatant: c.id, round: 0 });
        rolls[c.id] = roll;
        const range = clampRange(BASE_SURPRISE_RANGE + enemy + surpriseAdjustments(c).own);
        surprised[c.id] = !c.neverSurprised && roll <= range ? 1 : 0;
      }
    }
  }
  // I.C "If neither side is surprised or both sides are surprised then proceed
  // to step II": a surprise round only when some are surprised and others are not.
  let some = false;
  let all = true;
  for (const c of encounter.combatants) {
    // Combatants of unknown sides are never surprised (runCombat rejects them anyway).
    if (surprised[c.id] === undefined) surprised[c.id] = 0;
    if (c.hp <= 0) continue;
    if (surprised[c.id]) some = true;
    else all = false;
  }
  // Every key of `surprised` is a combatant's id.
  if (!some || all) for (const c of encounter.combatants) surprised[c.id] = 0;
  return { rolls, surprised, unit: 'round' };
}

/**
 * I.D "Surprise lasts 1 round. If not surprised you act as in a normal round.
 * If needed, resolve actions in order of highest surprise die roll first."
 * RULING: the surprise round is planned like a normal round in which each
 * unsurprised combatant's place is 13 − its surprise die (alerted sides, which
 * did not roll, first; unsurprised members of a side the GM ruled surprised
 * last); steps show no count. Dexterity does not change this order.
 */
function planSurprise(
  encounter: Encounter,
  surprise: SurpriseResult,
  declarations: Record<string, Declaration>,
  options: D12AscendingOptions,
): Schedule | null {
  if (!someoneSurprised(encounter, surprise)) return null;
  const sideById = new Map(encounter.sides.map((s) => [s.id, s]));
  /** Unsurprised and alive (hp above 0): 13 − its surprise die. */
  const placeOf = (c: Combatant): number | undefined => {
    if ((surprise.surprised[c.id] ?? 0) > 0 || c.hp <= 0) return undefined;
    const side = sideById.get(c.side);
    let die = surprise.rolls[c.id] ?? surprise.rolls[c.side];
    if (die === undefined) die = side?.alerted && !side.surprised ? DIE + 1 : 0;
    return DIE + 1 - die;
  };
  return plan(encounter, {
    round: 0,
    combatRound: 1,
    declarations,
    placeOf,
    carryIn: [],
    phase: PHASE_SURPRISE,
    showCounts: false,
    options,
  });
}

/* ============================================== II  Determine initiative */

/**
 * II.A "Roll a d12 for the party; modify by dexterity; DM rolls for
 * opponents." One d12 per side with a member able to act; in 'individual'
 * mode each character rolls its own (II.B) and only sides with monsters roll.
 */
function rollInitiative(encounter: Encounter, input: RoundInput, dice: Dice, options: D12AscendingOptions): InitiativeResult {
  const individual = options.initiativeMode === 'individual';
  const needsSideRoll = new Set<string>();
  const rollers: Combatant[] = [];
  for (const c of encounter.combatants) {
    if (!canActState(input.states[c.id])) continue;
    if (individual && isCharacter(c)) rollers.push(c);
    else needsSideRoll.add(c.side);
  }
  const sides: Record<string, number> = {};
  const individuals: Record<string, number> = {};
  const rawBest = new Map<string, number>();
  for (const side of encounter.sides) {
    if (!needsSideRoll.has(side.id)) continue;
    const roll = dice.roll({ purpose: 'initiative', count: 1, faces: DIE, side: side.id, round: input.round });
    sides[side.id] = roll;
    rawBest.set(side.id, roll);
  }
  for (const c of rollers) {
    const roll = dice.roll({ purpose: 'initiative', count: 1, faces: DIE, combatant: c.id, round: input.round });
    individuals[c.id] = roll - finite(c.initiativeAdjustment);
    rawBest.set(c.side, Math.min(rawBest.get(c.side) ?? Infinity, roll));
  }
  // "Sides act in order of lowest to highest result indicated by the die they
  // rolled for themselves": the winner is the lowest die; a tie has no winner.
  let winner: string | null = null;
  let low = Infinity;
  for (const [side, v] of rawBest) {
    if (v < low) {
      low = v;
      winner = side;
    } else if (v === low) winner = null;
  }
  return { round: input.round, sides, individuals, winner };
}

/**
 * A combatant's initiative result (its count): the side's die, minus its
 * dexterity adjustment in the adjusted modes ("by adjusting the die roll
 * individually you might act simultaneous with, or prior to the enemy"), or
 * its own modified roll. RULING: with no result at all (inconsistent input) it
 * acts on the slowest die, 12.
 */
export function initiativeCount(c: Combatant, initiative: InitiativeResult, options: D12AscendingOptions): number {
  const own = initiative.individuals[c.id];
  if (own !== undefined) return own;
  return sideCount(c, initiative, options);
}

/** The count from the side's die alone (no individual roll). */
function sideCount(c: Combatant, initiative: InitiativeResult, options: D12AscendingOptions): number {
  const side = initiative.sides[c.side] ?? DIE;
  return options.initiativeMode === 'group' ? side : side - finite(c.initiativeAdjustment);
}

/** No enumerable key at all (stops at the first). */
function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}

/** Is anyone marked surprised (so a surprise round took place)? */
function surpriseRoundHappened(surprise: SurpriseResult | null): boolean {
  if (!surprise) return false;
  for (const id in surprise.surprised) if (surprise.surprised[id] > 0) return true;
  return false;
}

/** The same, asking the encounter's combatants first: no scan of the whole record when one of them is. */
function someoneSurprised(encounter: Encounter, surprise: SurpriseResult): boolean {
  for (const c of encounter.combatants) if (surprise.surprised[c.id] > 0) return true;
  return surpriseRoundHappened(surprise);
}

function planRound(
  encounter: Encounter,
  input: RoundInput,
  initiative: InitiativeResult,
  options: D12AscendingOptions,
): Schedule {
  // No individual rolls (the group modes): no per-combatant search of an empty
  // record, which is slow across thousands of distinct ids.
  const individualRolls = options.initiativeMode === 'individual' || !isEmpty(initiative.individuals);
  const count = individualRolls ? (c: Combatant) => initiativeCount(c, initiative, options) : (c: Combatant) => sideCount(c, initiative, options);
  // RULING: rounds of the combat are counted from the surprise round when
  // there was one (it is the combat's first round) for the 3/2 alternation.
  const combatRound = input.round + (surpriseRoundHappened(input.surprise) ? 1 : 0);
  return plan(
    encounter,
    {
      round: input.round,
      combatRound,
      declarations: input.declarations,
      placeOf: (c) => (canActState(input.states[c.id]) ? count(c) : undefined),
      carryIn: input.carryIn,
      phase: PHASE_INITIATIVE,
      showCounts: true,
      options,
    },
    initiative,
  );
}

/* -------------------------------------------------------------- planning */

interface PlanInput {
  round: number;
  combatRound: number;
  declarations: Record<string, Declaration>;
  /** A combatant's place (initiative count) in the ordered phase; undefined when it cannot act. */
  placeOf: (c: Combatant) => number | undefined;
  carryIn: Casting[];
  phase: typeof PHASE_SURPRISE | typeof PHASE_INITIATIVE;
  showCounts: boolean;
  options: D12AscendingOptions;
}

type TieClass = 'melee' | 'missile' | 'spell' | 'other';

/** One step in the making: the items that share one moment of the round. */
interface Slot {
  phase: PhaseId;
  /** The count shown on the step (the first item's). */
  count: number | undefined;
  entries: StepEntry[];
  /** Position among the ordered phase's slots, before first strikes (II.E compares these). */
  order: number;
  /** II.E: the slot just before this one, for first strikes pulled ahead of it. */
  before: Slot | null;
  /** Step index in the schedule, once built. */
  index: number;
}

/**
 * One thing a combatant does at one moment; all its entries share a step.
 * Every Item has the same fields (one object shape: planning 10,000
 * combatants stays fast).
 */
interface Item {
  c: Combatant;
  d: Declaration;
  phase: PhaseId;
  count: number;
  entries: StepEntry[];
  tie: TieClass;
  attacks: number;
  wsf: number | undefined;
  castingTime: number | undefined;
  beganAt: number | undefined;
  /** The count shown on its step (a first strike shows the count it was pulled ahead of). */
  countShown: number;
  /** Why it is where it is (tie-break or first strike), given to entries without a reason. */
  reason: string | undefined;
  slot: Slot | null;
}

interface PendingCast {
  id: string;
  c: Combatant;
  spell: string;
  device: boolean;
  castingTime: number;
  begin: Item;
  complete: Item | null;
  remaining: number;
}

/** Attack routines for melee and charges: declaration, then the table, then the combatant. */
export function routinesFor(c: Combatant, d: Declaration, combatRound: number): number {
  const declared = d.routines;
  if (declared !== undefined && Number.isInteger(declared) && declared >= 1) return declared;
  if (d.action === 'missile') return 1;
  const table = attacksPerRound(c.className, c.level, combatRound);
  if (table !== undefined) return table;
  const own = c.routines;
  return own !== undefined && Number.isInteger(own) && own >= 1 ? own : 1;
}

function attackEntries(c: Combatant, d: Declaration, action: ActionKind, n: number, reason?: string): StepEntry[] {
  const out = new Array<StepEntry>(n); // exact size: one small array per item
  for (let r = 1; r <= n; r++) {
    const kind = r === 1 ? 'action' : 'routine';
    // The target in the literal itself, when there is one: each entry is allocated whole.
    const e: StepEntry =
      d.target === undefined ? { combatant: c.id, kind, action, routine: r } : { combatant: c.id, kind, action, routine: r, target: d.target };
    if (reason) e.reason = reason;
    out[r - 1] = e;
  }
  return out;
}

function entry(c: Combatant, d: Declaration, kind: StepEntry['kind'], extra: { action?: ActionKind; casting?: string; reason?: string } = {}): StepEntry {
  const e: StepEntry = { combatant: c.id, kind, action: extra.action ?? d.action };
  if (extra.casting !== undefined) e.casting = extra.casting;
  if (extra.reason !== undefined) e.reason = extra.reason;
  if (d.target !== undefined) e.target = d.target;
  return e;
}

function castingId(c: Combatant, d: Declaration, round: number): string {
  return `${c.id}:${round}:${d.spell ?? d.action}`;
}

/**
 * Castings (II.C, II.D, "Casting in Combat"): a spell begins on the caster's
 * initiative result and goes off at result + casting time. "Spells needing a
 * full round to cast are resolved last in the round": a casting time of 10 or
 * more goes off in the full-round phase. RULING: a casting time over 10 takes
 * whole rounds (15 → 2 rounds) and goes off last in its final round.
 * "Any damage that a spellcaster takes prior to completing his spell in a
 * round, whether or not he is actually in the process of casting" prevents it
 * (spell kept); damage "while actually casting" loses and expends it.
 * RULING: devices are not spellcasting: damage never stops them.
 */
function castItems(c: Combatant, d: Declaration, place: number, round: number, phase: PhaseId, out: Item[]): PendingCast {
  const t = d.castingTime ?? 1;
  const id = castingId(c, d, round);
  const begin = makeItem(c, d, phase, place, [entry(c, d, 'cast-begin', { casting: id })], 'other', 0);
  out.push(begin);
  let complete: Item | null = null;
  let remaining = 0;
  if (t < FULL_ROUND) {
    complete = makeItem(c, d, phase, place + t, [entry(c, d, 'cast-complete', { casting: id })], 'spell', 0);
    complete.castingTime = t;
    complete.beganAt = place;
  } else if (t <= FULL_ROUND) {
    complete = fullRoundItem(c, d, id);
  } else {
    remaining = FULL_ROUND * (Math.ceil(t / FULL_ROUND) - 1);
  }
  if (complete) out.push(complete);
  return { id, c, spell: d.spell ?? d.action, device: d.action === 'device', castingTime: t, begin, complete, remaining };
}

function makeItem(c: Combatant, d: Declaration, phase: PhaseId, count: number, entries: StepEntry[], tie: TieClass, attacks: number): Item {
  return {
    c,
    d,
    phase,
    count,
    entries,
    tie,
    attacks,
    wsf: undefined,
    castingTime: undefined,
    beganAt: undefined,
    countShown: count,
    reason: undefined,
    slot: null,
  };
}

function fullRoundItem(c: Combatant, d: Declaration, id: string): Item {
  return makeItem(c, d, PHASE_FULL_ROUND, 0, [entry(c, d, 'cast-complete', { casting: id, reason: REASONS.fullRound })], 'other', 0);
}

/** Appends the items one declaration produces (none for 'none') to `out`. */
function itemsFor(c: Combatant, d: Declaration, place: number, p: PlanInput, casts: PendingCast[], out: Item[]): void {
  switch (d.action) {
    case 'none':
      return;
    case 'missile': {
      const routines = routinesFor(c, d, p.combatRound);
      const rate = Math.max(1, Math.floor(finite(weaponOf(c, d)?.rate, 1)));
      // III.A "A character beginning a round with missile weapon ready and
      // target in sight fires before initiative is rolled".
      if (d.readied) out.push(makeItem(c, d, PHASE_READIED, place, attackEntries(c, d, 'missile', routines, REASONS.readied), 'missile', routines * rate));
      else out.push(makeItem(c, d, p.phase, place, attackEntries(c, d, 'missile', routines), 'missile', routines * rate));
      return;
    }
    case 'melee':
    case 'charge': {
      // III.D "Faster movement than that sacrifices any combat or casting."
      const movement = c.movement;
      if (d.action === 'charge' && d.distance !== undefined && movement !== undefined && Number.isFinite(movement) && d.distance > movement) {
        out.push(makeItem(c, d, p.phase, place, [entry(c, d, 'action', { action: 'move', reason: REASONS.chargeTooFar })], 'other', 0));
        return;
      }
      // III.B "ALL a characters attacks resolve on their turn": every routine in one step.
      const routines = routinesFor(c, d, p.combatRound);
      const w = weaponOf(c, d)?.speed;
      const item = makeItem(c, d, p.phase, place, attackEntries(c, d, d.action, routines), 'melee', routines);
      if (w !== undefined && Number.isFinite(w)) item.wsf = w;
      out.push(item);
      return;
    }
    case 'spell':
    case 'device':
      casts.push(castItems(c, d, place, p.round, p.phase, out));
      return;
    case 'flee':
      // "Disengaging forces ... sacrifice any and ALL initiative advantage for the round."
      out.push(makeItem(c, d, PHASE_WITHDRAWAL, place, [entry(c, d, 'action', { reason: REASONS.withdrawal })], 'other', 0));
      return;
    default:
      out.push(makeItem(c, d, p.phase, place, [entry(c, d, 'action')], 'other', 0));
  }
}

function tieBreaksOn(o: D12AscendingOptions): boolean {
  return o.tieMoreAttacks || o.tieWeaponSpeed || o.tieSpellVsMelee || o.tieMissileVsSpell;
}

const isWeaponAttack = (it: Item) => it.tie === 'melee' || it.tie === 'missile';

/**
 * Distinct keys of a grouping, lowest first. There are usually a handful
 * (the counts of a round): an insertion sort then beats the library sort's
 * set-up; many keys go to the library sort (N log N).
 */
function ascendingKeys<T>(groups: Map<number, T>): number[] {
  const keys: number[] = [];
  for (const k of groups.keys()) keys.push(k);
  if (keys.length > 16) return keys.sort((x, y) => x - y);
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i;
    for (; j > 0 && keys[j - 1] > k; j--) keys[j] = keys[j - 1];
    keys[j] = k;
  }
  return keys;
}

function pushTo(groups: Map<number, Item[]>, key: number, it: Item): void {
  const list = groups.get(key);
  if (list) list.push(it);
  else groups.set(key, [it]);
}

/**
 * II.G optional tie-breaks among the items at one count. Sub-keys, lowest
 * first, equal = simultaneous (II.F "Ties are just that"). RULING: a
 * tie-break only ever makes the loser of a pair it names act later; anything
 * it does not name shares the first step of the count.
 *  a. more attacks: weapon attacks (melee, charge, missile) with more attacks first;
 *  b. speed: melee by WSF (tieWeaponSpeed), spell completion vs melee by
 *     casting time vs WSF (tieSpellVsMelee);
 *  c. missile vs spell completion: the spell goes after the missile when its
 *     casting time is higher than the caster's initiative result.
 * Returns the count's items as simultaneous groups in order (each group
 * keeps the items' order) and sets each item's tie-break reason. Only the
 * distinct sub-keys are sorted, never the items.
 */
function tieBreak(group: Item[], o: D12AscendingOptions): Item[][] {
  let maxA = 1;
  if (o.tieMoreAttacks) for (const it of group) if (isWeaponAttack(it)) maxA = Math.max(maxA, it.attacks);
  const byA = new Map<number, Item[]>();
  for (const it of group) {
    const a = o.tieMoreAttacks ? -(isWeaponAttack(it) ? it.attacks : maxA) : 0;
    if (o.tieMoreAttacks && a > -maxA) it.reason = REASONS.tieMoreAttacks;
    pushTo(byA, a, it);
  }
  const out: Item[][] = [];
  for (const a of ascendingKeys(byA)) {
    const sub = byA.get(a) as Item[];
    const hasSpell = sub.some((it) => it.tie === 'spell');
    const hasMelee = sub.some((it) => it.tie === 'melee' && it.wsf !== undefined);
    const meleeCompared = o.tieWeaponSpeed || (o.tieSpellVsMelee && hasSpell);
    const spellCompared = o.tieSpellVsMelee && hasMelee;
    const value = (it: Item): number | undefined =>
      it.tie === 'melee' && meleeCompared ? it.wsf : it.tie === 'spell' && spellCompared ? it.castingTime : undefined;
    let min = Infinity;
    for (const it of sub) {
      const v = value(it);
      if (v !== undefined) min = Math.min(min, v);
    }
    if (!Number.isFinite(min)) min = 0;
    const byB = new Map<number, Item[]>();
    for (const it of sub) {
      const b = value(it) ?? min;
      if (b > min && it.reason === undefined) it.reason = REASONS.tieSpeed;
      pushTo(byB, b, it);
    }
    for (const b of ascendingKeys(byB)) {
      const same = byB.get(b) as Item[];
      if (!o.tieMissileVsSpell || !same.some((it) => it.tie === 'missile')) {
        out.push(same);
        continue;
      }
      const first: Item[] = [];
      const after: Item[] = [];
      for (const it of same) {
        if (it.tie === 'spell' && (it.castingTime ?? 0) > (it.beganAt ?? 0)) {
          after.push(it);
          if (it.reason === undefined) it.reason = REASONS.tieMissileVsSpell;
        } else first.push(it);
      }
      if (first.length > 0) out.push(first);
      if (after.length > 0) out.push(after);
    }
  }
  return out;
}

function newSlot(phase: PhaseId, order = 0): Slot {
  return { phase, count: undefined, entries: [], order, before: null, index: -1 };
}

/**
 * II.E "When entering/charging into melee range of any opponent the longer
 * weapon strikes first, regardless of initiative. Weapons always win
 * initiative vs. unarmed." RULING: this applies to a pair that fights each
 * other: a charge (or melee) at a target whose own melee or charge is aimed
 * at the attacker or at no one. The winner's whole turn moves to a step just
 * before the loser's turn when it was not already earlier; a pull is computed
 * from the initiative order, never from another pull.
 */
function applyFirstStrikes(items: Item[], phase: PhaseId, declarations: Record<string, Declaration>): void {
  // Often no two fight each other: the declarations tell, before attacks are mapped by combatant.
  if (!items.some((it) => it.tie === 'melee' && it.phase === phase && mayBePair(it, declarations))) return;
  const attackOf = new Map<string, Item>();
  for (const it of items) if (it.tie === 'melee' && it.phase === phase) attackOf.set(it.c.id, it);
  // Pulls are collected first and applied after: they compare initiative slots only.
  const pulls = new Map<Item, { to: Slot; reason: string; count: number }>();
  const pull = (winner: Item, loser: Item, reason: string) => {
    const to = loser.slot as Slot;
    if ((winner.slot as Slot).order < to.order) return;
    const prev = pulls.get(winner);
    if (!prev || to.order < prev.to.order) pulls.set(winner, { to, reason, count: loser.count });
  };
  for (const x of attackOf.values()) {
    const targetId = x.d.target;
    if (targetId === undefined || targetId === x.c.id) continue;
    const y = attackOf.get(targetId);
    if (!y || (y.d.target !== undefined && y.d.target !== x.c.id)) continue;
    const charge = x.d.action === 'charge' || y.d.action === 'charge';
    const rx = reachOf(x.c, x.d);
    const ry = reachOf(y.c, y.d);
    const ux = rx === 0;
    const uy = ry === 0;
    if (ux !== uy) {
      if (uy) pull(x, y, REASONS.armedVsUnarmed);
      else pull(y, x, REASONS.armedVsUnarmed);
    } else if (charge && rx !== ry) {
      if (rx > ry) pull(x, y, REASONS.longerWeapon);
      else pull(y, x, REASONS.longerWeapon);
    }
  }
  for (const [it, p] of pulls) {
    it.slot = p.to.before ??= newSlot(it.phase);
    it.countShown = p.count;
    it.reason = p.reason;
  }
}

/**
 * A quick test from the declarations alone (no lookup of items): can this
 * attack be one of a II.E pair? Its target must itself be declared to melee
 * or charge, at this attacker or at no one.
 */
function mayBePair(x: Item, declarations: Record<string, Declaration>): boolean {
  const targetId = x.d.target;
  if (targetId === undefined || targetId === x.c.id) return false;
  const y = declarations[targetId];
  return !!y && (y.action === 'melee' || y.action === 'charge') && (y.target === undefined || y.target === x.c.id);
}

/**
 * Puts every item in a slot and returns the slots in round order: readied
 * missiles; the ordered phase by count, inside a count by the II.G
 * sub-keys, each first strike just before the slot it was pulled ahead of;
 * withdrawal; full-round. Items at the same place share a slot
 * (simultaneous). Sorts only the distinct counts and sub-keys, never the items.
 */
function orderItems(items: Item[], p: PlanInput): Slot[] {
  const fixed = new Map<PhaseId, Slot>();
  const byCount = new Map<number, Item[]>();
  for (const it of items) {
    if (it.phase === p.phase) {
      pushTo(byCount, it.count, it);
      continue;
    }
    let slot = fixed.get(it.phase);
    if (!slot) fixed.set(it.phase, (slot = newSlot(it.phase)));
    it.slot = slot;
  }

  // The ordered phase: counts lowest first, then the II.G sub-keys.
  const slots: Slot[] = [];
  const tieBreaks = tieBreaksOn(p.options);
  for (const count of ascendingKeys(byCount)) {
    const group = byCount.get(count) as Item[];
    for (const same of tieBreaks ? tieBreak(group, p.options) : [group]) {
      const slot = newSlot(p.phase, slots.length);
      slots.push(slot);
      for (const it of same) it.slot = slot;
    }
  }
  applyFirstStrikes(items, p.phase, p.declarations);

  const inOrder: Slot[] = [];
  const readied = fixed.get(PHASE_READIED);
  if (readied) inOrder.push(readied);
  for (const slot of slots) {
    if (slot.before) inOrder.push(slot.before);
    inOrder.push(slot);
  }
  for (const phase of [PHASE_WITHDRAWAL, PHASE_FULL_ROUND] as const) {
    const slot = fixed.get(phase);
    if (slot) inOrder.push(slot);
  }
  return inOrder;
}

function plan(encounter: Encounter, p: PlanInput, initiative?: InitiativeResult): Schedule {
  const casts: PendingCast[] = [];
  const items: Item[] = [];
  for (const c of encounter.combatants) {
    const d = p.declarations[c.id];
    if (!d) continue;
    const place = p.placeOf(c);
    if (place !== undefined) itemsFor(c, d, place, p, casts, items);
  }

  // Carried castings: "resolved last in the round" when they finish now.
  const carried: { casting: Casting; item: Item }[] = [];
  const carryOn: Casting[] = [];
  const byId = p.carryIn.length > 0 ? new Map(encounter.combatants.map((c) => [c.id, c])) : new Map<string, Combatant>();
  for (const cast of p.carryIn) {
    if (cast.remaining <= FULL_ROUND) {
      const c = byId.get(cast.caster);
      const d: Declaration = { combatant: cast.caster, action: cast.device ? 'device' : 'spell', spell: cast.spell, castingTime: cast.castingTime };
      const stub: Combatant = c ?? { id: cast.caster, name: cast.caster, side: '', hp: 0 };
      const item = fullRoundItem(stub, d, cast.id);
      items.push(item);
      carried.push({ casting: cast, item });
    } else {
      // Still running at the end of this round: damage at any step stops a spell, never a device.
      const vulnerable = cast.device ? NEVER : 0;
      carryOn.push({ ...cast, remaining: cast.remaining - FULL_ROUND, beginStep: -1, completeStep: null, lossFrom: vulnerable, preventFrom: vulnerable });
    }
  }

  // Steps: each slot's entries, in the order of the items (combatants), then the slots in round order.
  const inOrder = orderItems(items, p);
  for (const it of items) {
    const slot = it.slot as Slot;
    if (slot.entries.length === 0 && p.showCounts && it.phase === p.phase) slot.count = it.countShown;
    const reason = it.reason;
    for (const e of it.entries) {
      if (reason && !e.reason) e.reason = reason;
      slot.entries.push(e);
    }
  }
  const steps: Step[] = [];
  for (const slot of inOrder) {
    if (slot.entries.length === 0) continue; // every item was pulled ahead of it
    slot.index = steps.length;
    const step: Step = { phase: slot.phase, entries: slot.entries };
    if (slot.count !== undefined) step.count = slot.count;
    steps.push(step);
  }

  const castings: Casting[] = [];
  for (const cast of casts) {
    const spell = !cast.device;
    const beginStep = (cast.begin.slot as Slot).index;
    castings.push({
      id: cast.id,
      caster: cast.c.id,
      spell: cast.spell,
      device: cast.device,
      castingTime: cast.castingTime,
      beganRound: p.round,
      beginStep,
      completeStep: cast.complete ? (cast.complete.slot as Slot).index : null,
      lossFrom: spell ? beginStep : NEVER,
      preventFrom: spell ? 0 : NEVER,
      expends: spell,
      remaining: cast.remaining,
    });
  }
  for (const { casting, item } of carried) {
    castings.push({
      id: casting.id,
      caster: casting.caster,
      spell: casting.spell,
      device: casting.device,
      castingTime: casting.castingTime,
      beganRound: casting.beganRound,
      beginStep: -1,
      completeStep: (item.slot as Slot).index,
      lossFrom: casting.device ? NEVER : 0,
      preventFrom: casting.device ? NEVER : 0,
      expends: casting.expends,
      remaining: 0,
    });
  }
  for (const c of carryOn) castings.push(c);
  return makeSchedule('d12-ascending', p.round, steps, castings, initiative);
}

/* ================================================= III  Additional rules */

/** What a combatant is about to do, for the attack-of-opportunity helper. */
export interface AooQuery {
  action: ActionKind;
  /** III.C: adjacent opponents attacking this combatant with melee weapons. */
  adjacentMeleeAttackers?: number;
  /** An opponent is within melee range. */
  inMeleeRange?: boolean;
  /** Feet moved this round while within an opponent's melee range. */
  movedFeet?: number;
  /** The move is a 5' step: the only movement of the round, before other actions. */
  fiveFootStep?: boolean;
  /** Most the combatant may move this round (over-encumbrance, full-round casting…). */
  movementLimitFeet?: number;
  /** "Flee in panic" (not an orderly disengage). */
  panic?: boolean;
}

/**
 * "The 5' Step": 5 feet before other actions, as the only movement, unless the
 * combatant may only move 5 feet or less anyway.
 */
export function canFiveFootStep(q: { movedFeet?: number; otherMovement?: boolean; beforeActions?: boolean; movementLimitFeet?: number }): boolean {
  const moved = finite(q.movedFeet);
  if (moved > 5 || q.otherMovement) return false;
  if (q.beforeActions === false) return false;
  if (q.movementLimitFeet !== undefined && q.movementLimitFeet <= 5) return false;
  return true;
}

/**
 * Reasons (TENSEG.Reason keys) why an intended action can draw an attack of
 * opportunity; empty when none. The GM announces them (the text: "the DM
 * should announce that the characters intended actions can or will have such
 * consequences") and decides; generally one AoO per round per character.
 *  III.C missile fire while adjacent opponents attack you in melee;
 *  III.C casting while in melee range;
 *  III.F moving more than 5' while remaining within melee range (a legal 5' step never does);
 *  "Flee in panic ... Opponents may take an AoO at your back".
 */
export function attackOfOpportunityReasons(q: AooQuery): string[] {
  const out: string[] = [];
  if (q.action === 'missile' && finite(q.adjacentMeleeAttackers) > 0) out.push(REASONS.aooMissile);
  if (q.action === 'spell' && q.inMeleeRange) out.push(REASONS.aooCasting);
  const panic = q.action === 'flee' && !!q.panic;
  if (panic && q.inMeleeRange) out.push(REASONS.aooFleeing);
  const moved = finite(q.movedFeet);
  if (!panic && q.inMeleeRange && moved > 0) {
    const legalStep = !!q.fiveFootStep && canFiveFootStep({ movedFeet: moved, movementLimitFeet: q.movementLimitFeet });
    // More than 5': AoO. 5' or less that is not a legal 5' step "might draw consequences".
    if (!legalStep) out.push(REASONS.aooMoving);
  }
  return out;
}

export function drawsAttackOfOpportunity(q: AooQuery): boolean {
  return attackOfOpportunityReasons(q).length > 0;
}

/* ============== tables: "MULTIPLE ATTACKS PER ROUND BY LEVEL", "SURPRISE" */

/* "MULTIPLE ATTACKS PER ROUND BY LEVEL" */
export type AttackRate = '1/1' | '3/2' | '2/1';

/** Rows by lowest level, as in the seed table. */
export const ATTACKS_PER_ROUND_TABLE: Readonly<Record<string, readonly { minLevel: number; rate: AttackRate }[]>> = {
  fighter: [
    { minLevel: 1, rate: '1/1' },
    { minLevel: 7, rate: '3/2' },
    { minLevel: 13, rate: '2/1' },
  ],
  paladin: [
    { minLevel: 1, rate: '1/1' },
    { minLevel: 8, rate: '3/2' },
    { minLevel: 14, rate: '2/1' },
  ],
  ranger: [
    { minLevel: 1, rate: '1/1' },
    { minLevel: 8, rate: '3/2' },
    { minLevel: 15, rate: '2/1' },
  ],
  monk: [
    { minLevel: 1, rate: '1/1' },
    { minLevel: 6, rate: '3/2' },
    { minLevel: 12, rate: '2/1' },
  ],
};

/** The table's rate for a class and level, or undefined when the class is not in the table. */
export function attackRate(className: string | undefined, level: number | undefined): AttackRate | undefined {
  if (!className || level === undefined || !Number.isInteger(level) || level < 1) return undefined;
  const rows = ATTACKS_PER_ROUND_TABLE[className.trim().toLowerCase()];
  if (!rows) return undefined;
  let rate: AttackRate | undefined;
  for (const row of rows) if (level >= row.minLevel) rate = row.rate;
  return rate;
}

/**
 * Attack routines in a given round of the combat (1 = its first round).
 * README ruling: 3/2 is one routine in odd rounds, two in even rounds.
 * Undefined when the class is not in the table.
 */
export function attacksPerRound(className: string | undefined, level: number | undefined, round: number): number | undefined {
  const rate = attackRate(className, level);
  if (rate === undefined) return undefined;
  if (rate === '1/1') return 1;
  if (rate === '2/1') return 2;
  const n = Number.isInteger(round) && round >= 1 ? round : 1;
  return n % 2 === 0 ? 2 : 1;
}

/* "SURPRISE ... Standard modifiers" (classes the engine can recognise). */
/**
 * Class-based surprise adjustments in pips of the d12 range: "Ranger surprises
 * +2", "Ranger is surprised -2", "Monk lvl 5-8 is surprised -1, 9-12 -2, 13
 * -3". "On point" (elf/halfling +4) and the monster rows depend on the
 * situation or the monster's old rules: the GM enters them on the combatant.
 * An explicit surprisesOthersAdjust / surprisedAdjust replaces these.
 */
export function surpriseAdjustments(c: Combatant): { others: number; own: number } {
  const cls = c.className?.trim().toLowerCase();
  const level = c.level ?? 0;
  let others = 0;
  let own = 0;
  if (cls === 'ranger') {
    others = 2;
    own = -2;
  } else if (cls === 'monk') {
    own = level >= 13 ? -3 : level >= 9 ? -2 : level >= 5 ? -1 : 0;
  }
  const num = (v: number | undefined, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  return { others: num(c.surprisesOthersAdjust, others), own: num(c.surprisedAdjust, own) };
}

/* ============================================ damage, death, end of round */

function applyDamage(_c: Combatant, state: CombatantState, amount: number, options: D12AscendingOptions): DamageResult {
  const n = Number.isFinite(amount) && amount > 0 ? amount : 0;
  const deathAt = Math.min(0, finite(options.deathAt, 0));
  return hpDamage(state, n, { incapacitatedAt: 0, deathAt });
}

/**
 * RULING: no bleeding (the text has none) and no engine morale ("no formal
 * method is given herein for checking morale"): the round ends with a death
 * event for each combatant killed in it.
 */
function endOfRound(_encounter: Encounter, input: EndOfRoundInput, options: D12AscendingOptions): EndOfRoundResult {
  // The text has no dying rule; a table that plays "dead at -10" may bleed the dying (bleedPerRound).
  const bleed = Math.min(0, finite(options.deathAt, 0)) < 0 ? Math.max(0, Math.trunc(finite(options.bleedPerRound, 0))) : 0;
  const deathAt = Math.min(0, finite(options.deathAt, 0));
  const events: EndEvent[] = [];
  let states = input.after; // passed through unchanged (never mutated) unless someone bleeds
  for (const id of Object.keys(input.after)) {
    const s = input.after[id];
    if (bleed > 0 && s.condition === 'dying') {
      const hp = s.hp - bleed;
      if (states === input.after) states = copyRecord(input.after);
      states[id] = { ...s, expended: s.expended.slice(), hp, condition: hp <= deathAt ? 'dead' : 'dying' };
      events.push({ kind: 'bleed', combatant: id, amount: bleed });
      if (hp <= deathAt) events.push({ kind: 'death', combatant: id });
    } else if (s.condition === 'dead' && input.before[id]?.condition !== 'dead') {
      events.push({ kind: 'death', combatant: id });
    }
  }
  return { states, events };
}

/* ============================================================ validation */

function validateDeclaration(decl: Declaration, c: Combatant, _options: D12AscendingOptions): Problem | null {
  const common = commonDeclarationProblem(decl, c, ACTIONS);
  if (common) return common;
  if (decl.readied && decl.action !== 'missile') return { key: 'D12ReadiedNotMissile', data: { name: c.name, action: decl.action } };
  if ((decl.action === 'melee' || decl.action === 'missile' || decl.action === 'charge') && decl.routines !== undefined) {
    if (!Number.isInteger(decl.routines) || decl.routines < 1) return { key: 'D12RoutinesInvalid', data: { name: c.name, routines: String(decl.routines) } };
  }
  const weapon = decl.weapon;
  if (weapon) {
    for (const field of ['speed', 'length', 'rate'] as const) {
      const v = weapon[field];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (field === 'rate' && (!Number.isInteger(v) || v < 1))) {
        return { key: 'D12WeaponInvalid', data: { name: c.name, field } };
      }
    }
  }
  if (c.className && ATTACKS_PER_ROUND_TABLE[c.className.trim().toLowerCase()] && (c.level === undefined || !Number.isInteger(c.level) || c.level < 1)) {
    return { key: 'D12LevelInvalid', data: { name: c.name, className: c.className } };
  }
  if (c.initiativeAdjustment !== undefined && !Number.isFinite(c.initiativeAdjustment)) {
    return { key: 'NumberInvalid', data: { name: c.name, field: 'initiativeAdjustment' } };
  }
  if (decl.target !== undefined && decl.target === c.id) return { key: 'D12TargetSelf', data: { name: c.name } };
  return null;
}

/* ============================================================= late join */

function stepRank(step: Step): number {
  return RANK[step.phase as PhaseId] ?? 0;
}

function stepCompare(step: Step, rank: number, count: number | undefined): number {
  const r = stepRank(step) - rank;
  if (r !== 0) return r;
  if (count === undefined || step.count === undefined) return 0;
  return step.count - count;
}

/**
 * RULING (text silent): a combatant joining mid-round acts on its side's
 * initiative result this round (a character in 'individual' mode rolls its
 * own d12) if that count has not passed yet, joining the first step of that
 * count; otherwise, or when its side has no result, it waits for the next
 * round. No tie-breaks or first strikes are applied to it.
 */
function lateJoin(encounter: Encounter, newcomer: Combatant, input: LateJoinInput, dice: Dice, options: D12AscendingOptions): LateJoinResult {
  const schedule = input.schedule;
  const decl = input.declaration;
  if (!decl || decl.action === 'none' || schedule.round === 0 || !schedule.initiative) return { schedule };
  const ini = schedule.initiative;
  let count: number | undefined;
  if (options.initiativeMode === 'individual' && isCharacter(newcomer)) {
    count = dice.roll({ purpose: 'initiative', count: 1, faces: DIE, combatant: newcomer.id, round: schedule.round }) - finite(newcomer.initiativeAdjustment);
  } else if (ini.sides[newcomer.side] !== undefined) {
    count = initiativeCount(newcomer, { ...ini, individuals: {} }, options);
  }
  if (count === undefined) return { schedule };

  const p: PlanInput = {
    round: schedule.round,
    combatRound: schedule.round,
    declarations: { [newcomer.id]: { ...decl, readied: false } },
    placeOf: () => count,
    carryIn: [],
    phase: PHASE_INITIATIVE,
    showCounts: true,
    options,
  };
  const casts: PendingCast[] = [];
  const items: Item[] = [];
  itemsFor(newcomer, { ...decl, readied: false }, count, p, casts, items);
  if (items.length === 0) return { schedule };

  const current = input.currentStep >= 0 && input.currentStep < schedule.steps.length ? schedule.steps[input.currentStep] : undefined;
  const first = items[0];
  const firstCount = first.phase === PHASE_INITIATIVE ? first.count : undefined;
  if (current && stepCompare(current, RANK[first.phase], firstCount) > 0) return { schedule };

  const steps: Step[] = schedule.steps.map((s) => ({ ...s, entries: [...s.entries] }));
  let castings: Casting[] = schedule.castings.map((c) => ({ ...c }));
  const placeItem = (it: Item, from: number): number => {
    const rank = RANK[it.phase];
    const cnt = it.phase === PHASE_INITIATIVE ? it.count : undefined;
    let i = from;
    while (i < steps.length && stepCompare(steps[i], rank, cnt) < 0) i++;
    if (i < steps.length && stepCompare(steps[i], rank, cnt) === 0) {
      steps[i].entries.push(...it.entries);
      return i;
    }
    const step: Step = { phase: it.phase, entries: [...it.entries] };
    if (cnt !== undefined) step.count = cnt;
    steps.splice(i, 0, step);
    castings = castings.map((c) => shiftCasting(c, i));
    return i;
  };
  // Items come in time order (a casting's begin before its completion), so
  // each is placed after the previous one and never shifts an earlier one.
  const at = new Map<Item, number>();
  let from = Math.max(0, input.currentStep + 1);
  for (const it of items) {
    const i = placeItem(it, from);
    at.set(it, i);
    from = i + 1;
  }
  for (const cast of casts) {
    const b = at.get(cast.begin) as number;
    const spell = !cast.device;
    castings.push({
      id: cast.id,
      caster: newcomer.id,
      spell: cast.spell,
      device: cast.device,
      castingTime: cast.castingTime,
      beganRound: schedule.round,
      beginStep: b,
      completeStep: cast.complete ? (at.get(cast.complete) as number) : null,
      lossFrom: spell ? b : Infinity,
      preventFrom: spell ? 0 : Infinity,
      expends: spell,
      remaining: cast.remaining,
    });
  }
  return { schedule: { ...schedule, steps, castings, carryOut: castings.filter((c) => c.completeStep === null) } };
}

/** Shift a casting's step indices for a step inserted at index `at`. */
function shiftCasting(c: Casting, at: number): Casting {
  const s = (v: number) => (Number.isFinite(v) && v >= at ? v + 1 : v);
  const out = { ...c };
  const lossWasBegin = c.lossFrom === c.beginStep && c.beginStep >= 0;
  if (c.beginStep >= 0) out.beginStep = s(c.beginStep);
  if (c.completeStep !== null) out.completeStep = s(c.completeStep);
  // "start of round" (0) stays 0; a loss window that opens with the casting moves with it.
  if (lossWasBegin) out.lossFrom = out.beginStep;
  else if (c.lossFrom > 0) out.lossFrom = s(c.lossFrom);
  if (c.preventFrom > 0) out.preventFrom = s(c.preventFrom);
  return out;
}

/* ============================================================= procedure */

export const d12AscendingProcedure: Procedure<D12AscendingOptions> = {
  id: 'd12-ascending',
  defaults: D12_DEFAULTS,
  optionSpecs: OPTION_SPECS,
  phases: PHASES,
  timing: 'counts',
  actions: ACTIONS,
  validateDeclaration,
  rollSurprise,
  planSurprise,
  rollCombatInitiative: () => ({}),
  rollInitiative,
  planRound,
  applyDamage,
  canAct: canActState,
  endOfRound: (encounter, input, _dice, options) => endOfRound(encounter, input, options),
  lateJoin,
};

