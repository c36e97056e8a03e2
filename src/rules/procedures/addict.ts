/**
 * Procedure `addict` (seed 004_50ca767315dcbede.txt): the eleven-phase
 * "A.D.D.I.C.T." combat procedure with letter-coded actions ("coded by letter
 * as they appear on DMG 61").
 *
 * The sections below follow the seed text:
 *   Action list
 *   Phase 1  Reaction check            (the GM's: listed, nothing scheduled)
 *   Phase 2  Surprise check            rollSurprise
 *   Phase 3  Distance check            (the GM's)
 *   Phase 4  Opening morale check      openingMorale
 *   Phase 5  Surprise resolution       planSurprise
 *   Phase 6  Action declarations       validateDeclaration, hesitation
 *   Phase 7  Initiative check          rollInitiative
 *   Phase 8  Action resolution         planRound (preparing actions,
 *            simultaneous resolution, resolving ties: speed factor, D vs D,
 *            E vs D, G vs D, multiple attack routines), chargeArrivalSegment
 *   Phase 9  Bleeding                  applyDamage, canAct, endOfRound
 *   Phase 10 Recap, Phase 11 Reset or recovery (the GM's)
 * then what the text does not cover (late joiners). Every choice made where
 * the text is silent is in docs/rules-notes/addict.md.
 *
 * Time model (phase 8). Each side acts in the segment shown by the highest
 * die of the opposing sides (seed 000's rule, which footnote 18 relies on:
 * "rolling a 5 means that any spell taking 1-4 segments to cast could be
 * completed before the spellcaster was attacked"). Spells and devices begin
 * in segment 1 and go off at begin + casting time. Time keys are
 *   [segment, group, rank, letter, sub]
 * segment 1..10; group 0 for every action, r-1 for attack routine r >= 2
 * (after everything else in the segment); rank = the side's place by its
 * initiative die, highest first (the winner resolves first, tied sides share
 * a rank); letter = the action letter's place in the action list; sub = the
 * tie rules inside a letter (speed factor, weapon length, a set weapon before
 * the charge it meets). Equal keys are one simultaneous step.
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, Declaration, Problem, WeaponStats } from '../model';
import { ACTION_KINDS, RulesError, SEGMENTS_PER_ROUND } from '../model';
import type {
  Casting,
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
import {
  commonDeclarationProblem,
  compareKeys,
  d6SurpriseSegments,
  hpDamage,
  isActive,
  NEVER,
  rollD6SideSurprise,
  ScheduleBuilder,
} from '../common';

/* ============================================================ action list */

/** An action letter ("coded by letter as they appear on DMG 61"); letters resolve in sort order. */
export type ActionLetter = string;
export type LetterTable = Readonly<Partial<Record<ActionKind, ActionLetter>>>;

/**
 * README ruling: A parley, B wait / prepare, C flee, D missiles · turn undead
 * · cast spell · use device, E charge / close, F set weapon against charge,
 * G melee, H other. A GM may relabel it: makeAddictProcedure(table).
 */
export const DEFAULT_LETTERS: LetterTable = Object.freeze({
  parley: 'A',
  wait: 'B',
  flee: 'C',
  missile: 'D',
  'turn-undead': 'D',
  spell: 'D',
  device: 'D',
  charge: 'E',
  'set-vs-charge': 'F',
  melee: 'G',
  other: 'H',
  move: 'H',
  consumable: 'H',
  throw: 'H',
});

/** A problem with a letter table (unknown action kind or an empty letter), or null. */
export function letterTableProblem(table: LetterTable): Problem | null {
  for (const [kind, letter] of Object.entries(table)) {
    if (!(ACTION_KINDS as readonly string[]).includes(kind) || kind === 'none') {
      return { key: 'AddictLetterTableInvalid', data: { action: kind } };
    }
    if (typeof letter !== 'string' || letter.trim() === '') {
      return { key: 'AddictLetterTableInvalid', data: { action: kind } };
    }
  }
  return null;
}

/* ================================================================ options */

export interface AddictOptions extends ProcedureOptions {
  /**
   * Footnote 9: a charge "increases MV by 100% (indoors) or 33.33%
   * (outdoors)". Used when a combatant has no chargeMovement of its own.
   */
  chargeOutdoors: boolean;
  /** README ruling: when both sides are surprised, the lesser count is subtracted from the greater. */
  mutualSurprise: boolean;
  /** Phase 4 gives no mechanic: 'd100' (1e percentage morale, pass on roll <= score) or '2d6' (pass on roll <= score). */
  moraleDie: 'd100' | '2d6';
}

const DEFAULTS: AddictOptions = {
  chargeOutdoors: false,
  mutualSurprise: true,
  moraleDie: 'd100',
};

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'chargeOutdoors', type: 'boolean' },
  { key: 'mutualSurprise', type: 'boolean' },
  { key: 'moraleDie', type: 'choice', choices: ['d100', '2d6'] },
];

/** Morale score assumed for a combatant without one (the middle of the die's range). */
const DEFAULT_MORALE = { d100: 50, '2d6': 7 } as const;

/* ================================================================= phases */

export const ADDICT_PHASES = [
  'addict-reaction', // 1 Reaction check (GM)
  'addict-surprise', // 2 Surprise check
  'addict-distance', // 3 Distance check (GM)
  'addict-opening-morale', // 4 Opening morale check
  'addict-surprise-resolution', // 5 Surprise resolution (steps of round 0)
  'addict-declarations', // 6 Action declarations
  'addict-initiative', // 7 Initiative check
  'addict-resolution', // 8 Action resolution (steps of rounds 1, 2, …)
  'addict-bleeding', // 9 Bleeding (endOfRound)
  'addict-recap', // 10 Recap (GM)
  'addict-recovery', // 11 Reset or recovery (GM)
] as const;

const PHASE_SURPRISE = 'addict-surprise-resolution';
const PHASE_RESOLUTION = 'addict-resolution';

/** Hit points: 0 or below cannot act (unconscious), -10 dead (phase 9: "Anyone who hits -10 dies"). */
const THRESHOLDS = { incapacitatedAt: 0, deathAt: -10 };

/* =================================================== phase 1: reaction check */
// "If the DM has notes indicating how the encountered party will react…":
// the GM's. Listed in `phases` for the tracker; nothing is scheduled.

/* =================================================== phase 2: surprise check */

/**
 * "One player rolls for their party's surprise, and the DM rolls for the
 * other parties": a d6 per side as in seed 000 (1-2 surprised for that many
 * segments; "prior detection negates" = Side.alerted makes no roll). A
 * reaction adjustment changes a combatant's count only where its side is
 * surprised (ruling). When every combatant is surprised, the smallest count
 * is subtracted from all (ruling: "the lesser count is subtracted from the
 * greater"), so the less-surprised side acts in the difference.
 */
function rollSurprise(encounter: Encounter, dice: Dice, options: AddictOptions): SurpriseResult {
  const rolls = rollD6SideSurprise(encounter, dice, 0);
  const surprised = d6SurpriseSegments(encounter, rolls);
  if (options.mutualSurprise) {
    let least = Infinity;
    for (const c of encounter.combatants) if (c.hp > 0) least = Math.min(least, surprised[c.id] ?? 0);
    if (least > 0 && Number.isFinite(least)) {
      for (const id of Object.keys(surprised)) surprised[id] = Math.max(0, surprised[id] - least);
    }
  }
  return { rolls, surprised, unit: 'segments' };
}

/* =================================================== phase 3: distance check */
// "Roll encounter distance": the GM's (it feeds Declaration.distance of charges).

/* ============================================== phase 4: opening morale check */

/**
 * "certain reaction rolls may provoke a morale check right off the bat", and
 * "overwhelming fear": the GM names who checks. The seed gives no mechanic:
 * a roll of the option's die at or under the combatant's morale score passes
 * (d100: a percentage, 1e style; 2d6: a 2-12 score). `opposed`, if given, is
 * subtracted from the score (how overwhelming the foe is). A failure routs.
 */
function moraleChecks(
  encounter: Encounter,
  requests: readonly { combatant: string; trigger: string; opposed?: number }[],
  states: Record<string, CombatantState>,
  dice: Dice,
  options: AddictOptions,
  round: number,
): EndOfRoundResult {
  const out: Record<string, CombatantState> = { ...states };
  const events: EndEvent[] = [];
  if (requests.length === 0) return { states: out, events };
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const die = options.moraleDie === '2d6' ? { count: 2, faces: 6 } : { count: 1, faces: 100 };
  for (const request of requests) {
    const c = byId.get(request.combatant);
    const state = out[request.combatant];
    if (!c || !state || state.condition === 'dead' || state.condition === 'fled') continue;
    const score = typeof c.morale === 'number' && Number.isFinite(c.morale) ? c.morale : DEFAULT_MORALE[options.moraleDie];
    const opposed = typeof request.opposed === 'number' && Number.isFinite(request.opposed) ? request.opposed : 0;
    const target = score - opposed;
    const roll = dice.roll({ purpose: 'morale', ...die, combatant: c.id, side: c.side, round });
    const passed = roll <= target;
    if (!passed) out[c.id] = { ...state, routed: true };
    events.push({ kind: 'morale', combatant: c.id, trigger: request.trigger, roll, total: roll, target, passed });
  }
  return { states: out, events };
}

/* ============================================= phase 5: surprise resolution */

/**
 * "Perform phases 6 and 8 in order for the surprising party, one surprise
 * segment at a time until each segment has been resolved." A combatant
 * surprised for s segments acts in surprise segments s+1 … n, repeating its
 * declaration each segment (all its attack routines each segment, as 1e
 * surprise allows). Footnote 8: "It is possible to complete a spell and begin
 * casting another during surprise if there are remaining surprise segments":
 * a spell that goes off within the surprise is begun again in that segment if
 * the caster has another copy memorized (a device: again). A casting still
 * running at the end of the surprise carries into round 1. No side has
 * initiative in the surprise: acting sides share one rank (the tie rules).
 */
function planSurprise(
  encounter: Encounter,
  surprise: SurpriseResult,
  declarations: Record<string, Declaration>,
  options: AddictOptions,
  letters: Letters,
): Schedule | null {
  let n = 0;
  for (const c of encounter.combatants) if (c.hp > 0) n = Math.max(n, surprise.surprised[c.id] ?? 0);
  if (n <= 0) return null;
  const plan = new Plan(PHASE_SURPRISE, n, 0, letters);
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  for (const [id, decl] of Object.entries(declarations)) {
    const c = byId.get(id);
    if (!c || c.hp <= 0 || !decl || addictDeclarationProblem(decl, c, options, letters) !== null) continue;
    const s = surprise.surprised[id] ?? 0;
    if (s >= n) continue;
    const h = hesitationOf(decl);
    const first = s + 1 + h;
    plan.place(c, decl, options, {
      first,
      ready: first,
      rank: 0,
      tied: true,
      furtherAt: null,
      repeat: true,
      reason: h > 0 ? 'addictHesitation' : undefined,
    });
  }
  return plan.build(new ScheduleBuilder('addict', 0));
}

/* ============================================== phase 6: action declarations */

/** "For every full 6 seconds of real-life delay, the DM notes that the character will delay 1 segment." */
function hesitationOf(decl: Declaration): number {
  const h = decl.hesitation;
  return typeof h === 'number' && Number.isInteger(h) && h > 0 ? h : 0;
}

function isWeaponBad(w: WeaponStats | undefined): boolean {
  if (w === undefined) return false;
  if (typeof w !== 'object' || w === null) return true;
  for (const v of [w.speed, w.length]) if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) return true;
  return false;
}

/** Charge movement per round in feet: the combatant's own, else MV +100% indoors / +33.33% outdoors (footnote 9). */
export function chargeMovementOf(c: Combatant, options: Pick<AddictOptions, 'chargeOutdoors'>): number | undefined {
  if (typeof c.chargeMovement === 'number' && Number.isFinite(c.chargeMovement)) return c.chargeMovement;
  if (typeof c.movement === 'number' && Number.isFinite(c.movement)) return c.movement * (options.chargeOutdoors ? 4 / 3 : 2);
  return undefined;
}

function addictDeclarationProblem(decl: Declaration, c: Combatant, options: AddictOptions, letters: Letters): Problem | null {
  if (!decl || typeof decl !== 'object') return { key: 'DeclarationWrongCombatant', data: { name: c.name } };
  const common = commonDeclarationProblem(decl, c, letters.actions);
  if (common) return common;
  const name = c.name;
  if (decl.hesitation !== undefined && !Number.isInteger(decl.hesitation)) {
    return { key: 'AddictHesitationNotWhole', data: { name, hesitation: String(decl.hesitation) } };
  }
  if (decl.routines !== undefined && (!Number.isInteger(decl.routines) || decl.routines < 1)) {
    return { key: 'AddictRoutinesInvalid', data: { name, routines: String(decl.routines) } };
  }
  if (isWeaponBad(decl.weapon)) return { key: 'AddictWeaponInvalid', data: { name } };
  if (decl.action === 'charge') {
    if (decl.distance === undefined) return { key: 'AddictChargeNoDistance', data: { name } };
    const mv = chargeMovementOf(c, options);
    if (mv === undefined || mv <= 0) return { key: 'AddictChargeNoMovement', data: { name } };
  }
  return null;
}

/* ================================================== phase 7: initiative check */

/**
 * "One player rolls for their party's initiative and the DM rolls for the
 * other parties … the party rolling higher wins initiative. On ties, no side
 * wins." A d6 for every side with a member able to act.
 */
function rollInitiative(encounter: Encounter, input: RoundInput, dice: Dice): InitiativeResult {
  const living = new Set<string>();
  for (const c of encounter.combatants) if (isActive(input.states[c.id])) living.add(c.side);
  const sides: Record<string, number> = {};
  for (const side of encounter.sides) {
    if (!living.has(side.id)) continue;
    sides[side.id] = dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: side.id, round: input.round });
  }
  let winner: string | null = null;
  let best = -Infinity;
  let count = 0;
  for (const [id, die] of Object.entries(sides)) {
    if (die > best) {
      best = die;
      winner = id;
      count = 1;
    } else if (die === best) count++;
  }
  if (count !== 1 || Object.keys(sides).length < 2) winner = null;
  return { round: input.round, sides, individuals: {}, winner };
}

/* =================================================== phase 8: action resolution */

/**
 * Footnote 19: "the charger moves 1/10th of their charge MV every segment, and
 * the charger must end the segment at a distance equal to or less than their
 * weapon length in order to attack." The segment in which a charge that
 * starts moving in `startSegment` attacks; a charger already within reach
 * attacks in its first segment. `distance` is the gap to close, in feet.
 * Returns NEVER when it cannot arrive (no movement).
 */
export function chargeArrivalSegment(distance: number, chargeMovement: number, weaponLength: number, startSegment = 1): number {
  const gap = Math.max(0, distance) - Math.max(0, weaponLength);
  if (!Number.isFinite(gap)) return NEVER;
  if (gap <= 0) return startSegment;
  if (!(chargeMovement > 0) || !Number.isFinite(chargeMovement)) return NEVER;
  const perSegment = chargeMovement / SEGMENTS_PER_ROUND;
  const segments = Math.max(1, Math.ceil(gap / perSegment - 1e-9));
  return startSegment + segments - 1;
}

/** The action list as ranks, built once per procedure from its letter table. */
interface Letters {
  table: LetterTable;
  actions: readonly ActionKind[];
  rank(kind: ActionKind): number | undefined;
  sameLetter(a: ActionKind, b: ActionKind): boolean;
}

function makeLetters(table: LetterTable): Letters {
  const order = [...new Set(Object.values(table) as string[])].sort();
  const ranks = new Map<ActionKind, number>();
  for (const [kind, letter] of Object.entries(table)) ranks.set(kind as ActionKind, order.indexOf(letter as string));
  const actions = [...ranks.keys(), 'none' as ActionKind];
  return {
    table,
    actions,
    rank: (kind) => ranks.get(kind),
    sameLetter: (a, b) => ranks.get(a) !== undefined && ranks.get(a) === ranks.get(b),
  };
}

type Key = [segment: number, group: number, rank: number, letter: number, sub: number];

/** Where and how a combatant's declaration is placed. */
interface Placement {
  /** Segment of its action (side segment + hesitation, or surprise segment). */
  first: number;
  /**
   * Segment from which what starts with the round is ready: a spell or device
   * begins then (footnote 18), a weapon set against a charge is braced.
   */
  ready: number;
  rank: number;
  /** Its side's die is tied with another side's: the tie rules order inside a letter. */
  tied: boolean;
  /** Segment of further attack routines ("after the other side's segment"); null in the surprise. */
  furtherAt: number | null;
  /** Surprise: the declaration is repeated in every segment from `first` to the last. */
  repeat: boolean;
  reason?: string;
}

interface PlannedEntry {
  segment: number;
  key: Key;
  entry: StepEntry;
  /** Melee under the tie rules: the sub-key is worked out from speed factors once all are known. */
  speed?: { own?: number; target?: string; combatant: string };
}

interface PlannedCasting {
  id: string;
  caster: string;
  spell: string;
  device: boolean;
  castingTime: number;
  beganRound: number;
  beginSegment: number | null;
  completeSegment: number | null;
  expends: boolean;
  remaining: number;
  action: ActionKind;
  target?: string;
  reason?: string;
}

interface PlannedCharge {
  charger: string;
  target?: string;
  segment: number;
  key: Key;
}

interface PendingSet {
  combatant: Combatant;
  decl: Declaration;
  place: Placement;
}

/**
 * The entries of one round (or of the surprise) at time keys. Castings join
 * the first step of their segment: "Any time an attack, spell, or whatever
 * goes off at the same time as another action, all actions fully resolve",
 * and damage in the segment a spell goes off does not stop it (ruling).
 */
class Plan {
  private readonly entries: PlannedEntry[] = [];
  private readonly castings: PlannedCasting[] = [];
  private readonly carries: Casting[] = [];
  private readonly charges: PlannedCharge[] = [];
  private readonly sets: PendingSet[] = [];
  private castingCount = 0;

  constructor(
    private readonly phase: string,
    /** Last segment of this schedule: 10, or the number of surprise segments. */
    private readonly last: number,
    private readonly round: number,
    private readonly letters: Letters,
  ) {}

  private add(segment: number, key: Key, entry: StepEntry, speed?: PlannedEntry['speed']): void {
    if (segment < 1 || segment > this.last) return; // delayed past the end of the round: it does not happen
    const planned: PlannedEntry = { segment, key, entry };
    if (speed) planned.speed = speed;
    this.entries.push(planned);
  }

  /** A casting carried in from the previous round (or from the surprise). */
  carryIn(c: Casting): number {
    if (c.remaining <= this.last) {
      this.castings.push({
        id: c.id,
        caster: c.caster,
        spell: c.spell,
        device: c.device,
        castingTime: c.castingTime,
        beganRound: c.beganRound,
        beginSegment: null,
        completeSegment: Math.max(1, c.remaining),
        expends: c.expends,
        remaining: 0,
        action: c.device ? 'device' : 'spell',
        reason: 'addictCarried',
      });
      return Math.max(1, c.remaining);
    }
    // Still running at the end of this round too ("1 round" castings begun late, or longer).
    this.carries.push({ ...c, remaining: c.remaining - this.last });
    return NEVER;
  }

  /** Place one combatant's declaration. */
  place(c: Combatant, decl: Declaration, options: AddictOptions, p: Placement): void {
    const action = decl.action;
    const letter = this.letters.rank(action);
    if (letter === undefined || action === 'none') return;
    const base: StepEntry = { combatant: c.id, kind: 'action', action };
    if (decl.target !== undefined) base.target = decl.target;
    const withReason = (e: StepEntry, reason?: string): StepEntry => (reason ? { ...e, reason } : e);
    const weapon = weaponOf(decl, c);

    switch (action) {
      case 'spell':
      case 'device':
        this.placeCasting(c, decl, p);
        return;
      case 'melee':
      case 'missile': {
        const routines = routinesOf(decl, c);
        const segments = p.repeat ? range(p.first, this.last) : [p.first];
        for (const seg of segments) {
          this.attack(seg, 0, p, letter, withReason(base, p.reason), action, weapon, c.id, decl.target);
          const further = p.furtherAt === null ? seg : Math.max(seg, p.furtherAt);
          for (let r = 2; r <= routines; r++) {
            const e: StepEntry = { ...base, kind: 'routine', routine: r, reason: 'addictFurtherRoutine' };
            this.attack(further, r - 1, p, letter, e, action, weapon, c.id, decl.target);
          }
        }
        return;
      }
      case 'charge': {
        // Footnote 17: "Speed factor is ignored during a charge; only weapon length is considered."
        const mv = chargeMovementOf(c, options) ?? 0;
        const length = weapon.length ?? 1;
        const arrival = chargeArrivalSegment(decl.distance ?? 0, mv, length, p.first);
        if (arrival > this.last) return; // still closing when the round ends: the GM moves it
        const key: Key = [arrival, 0, p.rank, letter, p.tied ? -length : 0];
        this.add(arrival, key, { ...base, reason: 'addictChargeArrives' });
        this.charges.push({ charger: c.id, target: decl.target, segment: arrival, key });
        if (p.repeat) {
          // In the surprise, once in melee the charger fights on in the segments left.
          const melee = this.letters.rank('melee') ?? letter;
          const routines = routinesOf(decl, c);
          for (const seg of range(arrival + 1, this.last)) {
            const e: StepEntry = { ...base, action: 'melee', reason: 'addictAfterCharge' };
            this.attack(seg, 0, p, melee, e, 'melee', weapon, c.id, decl.target);
            for (let r = 2; r <= routines; r++) {
              const f: StepEntry = { ...base, action: 'melee', kind: 'routine', routine: r, reason: 'addictFurtherRoutine' };
              this.attack(seg, r - 1, p, melee, f, 'melee', weapon, c.id, decl.target);
            }
          }
        }
        return;
      }
      case 'set-vs-charge':
        // Placed once every charge is known: it strikes first at the arrival of the charge it meets.
        this.sets.push({ combatant: c, decl, place: p });
        return;
      default: {
        // A parley, B wait / prepare ("becomes prepared at the time it would normally resolve"),
        // C flee, D missiles and turning, H other: in the side's segment, in letter order.
        const segments = p.repeat ? range(p.first, this.last) : [p.first];
        for (const seg of segments) this.add(seg, [seg, 0, p.rank, letter, 0], withReason(base, p.reason));
      }
    }
  }

  private attack(
    seg: number,
    group: number,
    p: Placement,
    letter: number,
    entry: StepEntry,
    action: ActionKind,
    weapon: WeaponStats,
    combatant: string,
    target: string | undefined,
  ): void {
    const key: Key = [seg, group, p.rank, letter, 0];
    // Speed factor applies to melee on tied initiative; missiles of one letter are simultaneous.
    if (p.tied && action === 'melee') {
      const speed: PlannedEntry['speed'] = { combatant };
      if (weapon.speed !== undefined) speed.own = weapon.speed;
      if (target !== undefined) speed.target = target;
      this.add(seg, key, entry.reason ? entry : { ...entry, reason: 'addictSpeedFactor' }, speed);
    } else this.add(seg, key, entry);
  }

  private placeCasting(c: Combatant, decl: Declaration, p: Placement): void {
    const time = decl.castingTime ?? 1;
    const device = decl.action === 'device';
    const spell = decl.spell ?? decl.action;
    // Footnote 8 (surprise only): another copy may be begun when one goes off.
    let copies = 1;
    if (p.repeat) {
      if (device) copies = Infinity;
      else if (decl.spell !== undefined && Array.isArray(c.spells)) copies = Math.max(1, c.spells.filter((s) => s === decl.spell).length);
    }
    let begin = p.ready;
    while (copies-- > 0 && begin <= this.last) {
      const id = `addict-${this.round}-${c.id}-${++this.castingCount}`;
      const off = begin + time;
      const planned: PlannedCasting = {
        id,
        caster: c.id,
        spell,
        device,
        castingTime: time,
        beganRound: this.round,
        beginSegment: begin,
        completeSegment: off <= this.last ? off : null,
        expends: !device,
        remaining: off <= this.last ? 0 : off - this.last,
        action: decl.action,
      };
      if (decl.target !== undefined) planned.target = decl.target;
      if (p.reason) planned.reason = p.reason;
      this.castings.push(planned);
      if (off > this.last) break;
      begin = off;
    }
  }

  /** Footnote 17 and "F vs E": a set weapon strikes first at the arrival of the charge it meets. */
  private placeSets(): void {
    if (this.sets.length === 0) return;
    const byCharger = new Map<string, PlannedCharge>();
    const earliestAt = new Map<string, PlannedCharge>();
    for (const ch of this.charges) {
      byCharger.set(ch.charger, ch);
      if (ch.target === undefined) continue;
      const known = earliestAt.get(ch.target);
      if (!known || compareKeys(ch.key, known.key) < 0) earliestAt.set(ch.target, ch);
    }
    const letterF = this.letters.rank('set-vs-charge') ?? 0;
    for (const { combatant, decl, place } of this.sets) {
      const base: StepEntry = { combatant: combatant.id, kind: 'action', action: 'set-vs-charge' };
      // The charge it names, else the earliest charge at it.
      const named = decl.target !== undefined ? byCharger.get(decl.target) : undefined;
      const met = named ?? earliestAt.get(combatant.id);
      if (met && met.segment >= place.ready) {
        const key: Key = [met.key[0], met.key[1], met.key[2], met.key[3], met.key[4] - 0.5];
        this.add(met.segment, key, { ...base, target: met.charger, reason: 'addictSetAgainstCharge' });
      } else {
        const entry: StepEntry = { ...base, reason: 'addictSetNoCharge' };
        if (decl.target !== undefined) entry.target = decl.target;
        this.add(place.first, [place.first, 0, place.rank, letterF, 0], entry);
      }
    }
  }

  /**
   * Footnote 16: "Attacks without speed factor … always resolve on tie
   * rounds": a natural attack shares the step of its target's own melee in
   * the same tied block (so both resolve), else the step of the fastest
   * weapon there. Otherwise the lower speed factor first, equal ones together.
   */
  private settleSpeeds(): void {
    const blockOf = (e: PlannedEntry) => `${e.key[0]},${e.key[1]},${e.key[2]},${e.key[3]}`;
    const speeds = new Map<string, Map<string, number>>();
    const fastest = new Map<string, number>();
    for (const e of this.entries) {
      if (!e.speed || e.speed.own === undefined) continue;
      const block = blockOf(e);
      let m = speeds.get(block);
      if (!m) speeds.set(block, (m = new Map()));
      if (!m.has(e.speed.combatant)) m.set(e.speed.combatant, e.speed.own);
      fastest.set(block, Math.min(fastest.get(block) ?? Infinity, e.speed.own));
    }
    for (const e of this.entries) {
      if (!e.speed) continue;
      const block = blockOf(e);
      const own = e.speed.own;
      const sub =
        own ??
        (e.speed.target !== undefined ? speeds.get(block)?.get(e.speed.target) : undefined) ??
        fastest.get(block) ??
        0;
      e.key[4] = sub;
    }
  }

  build(builder: ScheduleBuilder, initiative?: InitiativeResult): Schedule {
    this.placeSets();
    this.settleSpeeds();
    const at = (segment: number) => ({ phase: this.phase, segment });
    const firstKey = new Map<number, Key>();
    for (const e of this.entries) {
      const known = firstKey.get(e.segment);
      if (!known || compareKeys(e.key, known) < 0) firstKey.set(e.segment, e.key);
    }
    const castKey = (segment: number): Key => firstKey.get(segment) ?? [segment, -1, 0, 0, 0];
    for (const e of this.entries) builder.add(e.key, at(e.segment), e.entry);
    for (const c of this.castings) {
      const entry = (kind: 'cast-begin' | 'cast-complete'): StepEntry => {
        const e: StepEntry = { combatant: c.caster, kind, action: c.action, casting: c.id };
        if (c.target !== undefined) e.target = c.target;
        if (c.reason) e.reason = c.reason;
        return e;
      };
      const begin = c.beginSegment === null ? null : castKey(c.beginSegment);
      const complete = c.completeSegment === null ? null : castKey(c.completeSegment);
      if (begin && c.beginSegment !== null) builder.add(begin, at(c.beginSegment), entry('cast-begin'));
      if (complete && c.completeSegment !== null) builder.add(complete, at(c.completeSegment), entry('cast-complete'));
      // "any damage taken on a round causes the spell to be lost, even if the start of casting was
      // delayed"; footnote 20: "device usage can still happen normally assuming the wielder is still alive".
      builder.addCasting({
        id: c.id,
        caster: c.caster,
        spell: c.spell,
        device: c.device,
        castingTime: c.castingTime,
        beganRound: c.beganRound,
        begin,
        complete,
        lossFrom: c.device ? 'never' : 'start',
        preventFrom: c.device ? 'never' : 'start',
        expends: c.expends,
        remaining: c.remaining,
      });
    }
    // Carried through this whole round: added as castings (not addCarry) so a device keeps "never".
    for (const c of this.carries) {
      builder.addCasting({
        id: c.id,
        caster: c.caster,
        spell: c.spell,
        device: c.device,
        castingTime: c.castingTime,
        beganRound: c.beganRound,
        begin: null,
        complete: null,
        lossFrom: c.device ? 'never' : 'start',
        preventFrom: c.device ? 'never' : 'start',
        expends: c.expends,
        remaining: c.remaining,
      });
    }
    return builder.build(initiative);
  }
}

/** The weapon in use, with a speed factor only if it is a number and a length in feet (1 if none). */
function weaponOf(decl: Declaration, c: Combatant): WeaponStats {
  const w = decl.weapon ?? c.weapon;
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  const out: WeaponStats = { length: w && ok(w.length) ? w.length : 1 };
  if (w && ok(w.speed)) out.speed = w.speed;
  return out;
}

function routinesOf(decl: Declaration, c: Combatant): number {
  const r = decl.routines ?? c.routines ?? 1;
  return Number.isFinite(r) ? Math.max(1, Math.floor(r)) : 1;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = Math.max(1, from); i <= to; i++) out.push(i);
  return out;
}

/**
 * Each side's segment, rank and tie from the dice: a side acts in the segment
 * of the highest opposing die; further routines wait for the latest opposing
 * segment. Top-two scans keep this linear in the number of sides.
 */
interface SideTiming {
  segment: number;
  rank: number;
  tied: boolean;
  otherSegment: number;
}

function sideTimings(initiative: InitiativeResult): (side: string) => SideTiming {
  const dice = Object.entries(initiative.sides).filter(([, d]) => typeof d === 'number' && Number.isFinite(d));
  const top = (values: number[]) => {
    let first = -Infinity;
    let count = 0;
    let second = -Infinity;
    for (const v of values) {
      if (v > first) {
        second = first;
        first = v;
        count = 1;
      } else if (v === first) count++;
      else if (v > second) second = v;
    }
    return { first, count, second };
  };
  const maxOther = (t: ReturnType<typeof top>, own: number | undefined) =>
    own === t.first && t.count === 1 ? t.second : t.first;
  const dieTop = top(dice.map(([, d]) => d));
  const segOf = new Map<string, number>();
  for (const [side, die] of dice) {
    const other = maxOther(dieTop, die);
    segOf.set(side, Number.isFinite(other) ? other : 1);
  }
  const segTop = top([...segOf.values()]);
  const distinct = [...new Set(dice.map(([, d]) => d))].sort((a, b) => b - a);
  const rankOf = new Map(distinct.map((d, i) => [d, i]));
  const sharing = new Map<number, number>();
  for (const [, d] of dice) sharing.set(d, (sharing.get(d) ?? 0) + 1);
  const dieOf = new Map(dice);
  const cache = new Map<string, SideTiming>();
  return (side: string) => {
    let t = cache.get(side);
    if (t) return t;
    const die = dieOf.get(side);
    const own = segOf.get(side);
    const segment = own ?? (Number.isFinite(dieTop.first) ? dieTop.first : 1);
    const other = own === undefined ? segTop.first : maxOther(segTop, own);
    t = {
      segment,
      rank: die === undefined ? distinct.length : (rankOf.get(die) as number),
      tied: die !== undefined && (sharing.get(die) ?? 0) > 1,
      otherSegment: Number.isFinite(other) ? Math.max(other, segment) : segment,
    };
    cache.set(side, t);
    return t;
  };
}

/**
 * "If one side won initiative, resolve all of their actions in the order
 * appearing in the action list … After that, the losing side's actions are
 * resolved in the same order. On tied initiative, reference the tie rules."
 */
function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: AddictOptions, letters: Letters): Schedule {
  const plan = new Plan(PHASE_RESOLUTION, SEGMENTS_PER_ROUND, input.round, letters);
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const able = (id: string) => isActive(input.states[id]);
  const timing = sideTimings(initiative);

  // Castings carried in go off at segment `remaining`; the caster is busy until then.
  const busy = new Map<string, number>();
  for (const c of input.carryIn ?? []) {
    if (!able(c.caster) || !(c.remaining >= 0)) continue;
    const until = plan.carryIn(c);
    busy.set(c.caster, Math.max(busy.get(c.caster) ?? 0, until));
  }

  for (const [id, decl] of Object.entries(input.declarations)) {
    const c = byId.get(id);
    if (!c || !able(id) || addictDeclarationProblem(decl, c, options, letters) !== null) continue;
    const t = timing(c.side);
    const h = hesitationOf(decl);
    const free = busy.get(id) ?? 0;
    const first = Math.max(t.segment + h, free);
    // Spells and devices begin in segment 1 (footnote 18), later by hesitation (footnote 11).
    const ready = Math.max(1 + h, free);
    const reason = free > t.segment + h ? 'addictBusyCasting' : h > 0 ? 'addictHesitation' : undefined;
    plan.place(c, decl, options, {
      first,
      ready,
      rank: t.rank,
      tied: t.tied,
      furtherAt: Math.max(first, t.otherSegment),
      repeat: false,
      reason,
    });
  }
  return plan.build(new ScheduleBuilder('addict', input.round), initiative);
}

/* ============================================================ phase 9: bleeding */

function applyDamage(_c: Combatant, state: CombatantState, amount: number): DamageResult {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount === 0) return { state: { ...state }, wounds: 0 };
  if (amount < 0) {
    // Healing: hit points come back; a combatant brought above 0 wakes.
    const hp = state.hp - amount;
    const condition = state.condition === 'dying' && hp > 0 ? 'ok' : state.condition;
    return { state: { ...state, hp, condition }, wounds: 0 };
  }
  return hpDamage(state, amount, THRESHOLDS);
}

/**
 * "Any combatants who had negative hit points at the start of the round lose
 * 1 hit point. Anyone who hits -10 dies." Then any morale checks the GM calls.
 */
function endOfRound(encounter: Encounter, input: EndOfRoundInput, dice: Dice, options: AddictOptions): EndOfRoundResult {
  const states: Record<string, CombatantState> = { ...input.after };
  const events: EndEvent[] = [];
  for (const [id, now] of Object.entries(input.after)) {
    const before = input.before[id];
    if (!before || !(before.hp < 0) || !(now.hp < 0)) continue; // a combatant healed to 0 or more stops bleeding
    if (now.condition === 'dead' || now.condition === 'fled') continue;
    const hp = now.hp - 1;
    const dead = hp <= THRESHOLDS.deathAt;
    states[id] = { ...now, hp, condition: dead ? 'dead' : now.condition };
    events.push({ kind: 'bleed', combatant: id, amount: 1 });
    if (dead) events.push({ kind: 'death', combatant: id });
  }
  const morale = moraleChecks(encounter, input.moraleRequests ?? [], states, dice, options, input.round);
  return { states: morale.states, events: [...events, ...morale.events] };
}

/* ======================================= phases 10 and 11: recap, recovery */
// "The DM provides a narrative summary"; "one turn passes while the survivors
// recover": the GM's. Listed in `phases`; nothing is scheduled.

/* ============================================================== late joiners */

/**
 * The text has no late joiners. A newcomer with a declaration acts with its
 * side, as if it had declared in phase 6: its action lands in its side's
 * segment (+ hesitation) if that moment is still to come, in the step where
 * its side already acts with the same letter, else in a new step at the end of
 * that segment. Spells and devices begin in segment 1, so a caster who joins
 * mid-round begins next round; so does a newcomer whose side has no die.
 */
function lateJoin(
  encounter: Encounter,
  newcomer: Combatant,
  input: LateJoinInput,
  options: AddictOptions,
  letters: Letters,
): LateJoinResult {
  const schedule = input.schedule;
  const decl = input.declaration;
  const initiative = schedule.initiative;
  if (!decl || !initiative || schedule.round < 1 || initiative.sides[newcomer.side] === undefined) return { schedule };
  if (decl.action === 'spell' || decl.action === 'device' || decl.action === 'set-vs-charge') return { schedule };
  if (addictDeclarationProblem(decl, newcomer, options, letters) !== null) return { schedule };
  // Plan the newcomer alone against the round's dice, then graft its entries in.
  const solo = planRound(
    { sides: encounter.sides, combatants: [newcomer] },
    {
      round: schedule.round,
      declarations: { [newcomer.id]: decl },
      states: { [newcomer.id]: { hp: newcomer.hp, condition: 'ok', expended: [] } },
      surprise: null,
      baseInitiative: input.baseInitiative,
      carryIn: [],
    },
    initiative,
    options,
    letters,
  );
  const sideOf = new Map(encounter.combatants.map((c) => [c.id, c.side]));
  const original: Step[] = schedule.steps.map((s) => ({ ...s, entries: [...s.entries] }));
  const steps = [...original];
  let changed = false;
  for (const step of solo.steps) {
    const segment = step.segment ?? 0;
    for (const entry of step.entries) {
      const match = steps.findIndex(
        (s) =>
          s.segment === segment &&
          s.entries.some(
            (e) => e.kind === entry.kind && sideOf.get(e.combatant) === newcomer.side && letters.sameLetter(e.action, entry.action),
          ),
      );
      if (match >= 0 && match <= input.currentStep) continue; // its side has already acted: that moment has passed
      if (match >= 0) {
        steps[match].entries.push(entry);
        changed = true;
        continue;
      }
      let at = steps.findIndex((s) => (s.segment ?? 0) > segment);
      if (at < 0) at = steps.length;
      if (at <= input.currentStep) continue; // that moment has passed
      steps.splice(at, 0, { phase: PHASE_RESOLUTION, segment, entries: [entry] });
      changed = true;
    }
  }
  if (!changed) return { schedule };
  // Step indices of castings follow their steps to their new places.
  const moved = new Map(steps.map((s, i) => [s, i]));
  const shift = (k: number) => {
    if (k < 0 || k >= NEVER) return k;
    if (k >= original.length) return steps.length;
    return moved.get(original[k]) as number;
  };
  const castings = schedule.castings.map((c) => ({
    ...c,
    beginStep: shift(c.beginStep),
    completeStep: c.completeStep === null ? null : shift(c.completeStep),
    lossFrom: shift(c.lossFrom),
    preventFrom: shift(c.preventFrom),
  }));
  const carryIds = new Set(schedule.carryOut.map((c) => c.id));
  return { schedule: { ...schedule, steps, castings, carryOut: castings.filter((c) => carryIds.has(c.id)) } };
}

/* ============================================================== the procedure */

/** The procedure built from an action-letter table (the README default, or a GM's relabelling). */
export function makeAddictProcedure(table: LetterTable = DEFAULT_LETTERS): Procedure<AddictOptions> {
  const problem = letterTableProblem(table);
  if (problem) throw new RulesError(problem);
  const letters = makeLetters(table);
  return {
    id: 'addict',
    defaults: Object.freeze({ ...DEFAULTS }),
    optionSpecs: OPTION_SPECS,
    phases: ADDICT_PHASES,
    timing: 'segments',
    actions: letters.actions,
    validateDeclaration: (decl, combatant, options) => addictDeclarationProblem(decl, combatant, options, letters),
    rollSurprise: (encounter, dice, options) => rollSurprise(encounter, dice, options),
    planSurprise: (encounter, surprise, declarations, options) => planSurprise(encounter, surprise, declarations, options, letters),
    rollCombatInitiative: () => ({}),
    rollInitiative: (encounter, input, dice) => rollInitiative(encounter, input, dice),
    planRound: (encounter, input, initiative, options) => planRound(encounter, input, initiative, options, letters),
    applyDamage: (combatant, state, amount) => applyDamage(combatant, state, amount),
    canAct: (state) => isActive(state),
    endOfRound: (encounter, input, dice, options) => endOfRound(encounter, input, dice, options),
    openingMorale: (encounter, requests, states, dice, options) => moraleChecks(encounter, requests, states, dice, options, 0),
    lateJoin: (encounter, newcomer, input, _dice, options) => lateJoin(encounter, newcomer, input, options, letters),
  };
}

export const addictProcedure: Procedure<AddictOptions> = makeAddictProcedure(DEFAULT_LETTERS);
