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
 * the text is silent is in README.md, Rules notes.
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
import type { ActionKind, Combatant, CombatantState, Declaration, Problem, ProcedureId, WeaponStats } from '../model';
import { ACTION_KINDS, RulesError, SEGMENTS_PER_ROUND } from '../model';
import type {
  Casting,
  DamageResult,
  EndEvent,
  EndOfRoundInput,
  EndOfRoundResult,
  Encounter,
  EntryKind,
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
import { commonDeclarationProblem, d6SurpriseSegments, hpDamage, isActive, NEVER, rollD6SideSurprise, copyRecord, makeSchedule } from '../common';

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
  const out = copyRecord(states);
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
  const plan = new Plan(PHASE_SURPRISE, n, 0, letters, 1); // one rank: nobody has initiative
  const ids = Object.keys(declarations);
  const declarers = declarersOf(ids, encounter);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const decl = declarations[id];
    const c = declarers[i];
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
  return plan.build('addict');
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
  return (w.speed !== undefined && !isWeaponNumber(w.speed)) || (w.length !== undefined && !isWeaponNumber(w.length));
}

/** A speed factor or weapon length that can be used: a finite number, 0 or more. */
function isWeaponNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
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
  // Sides with nobody able to act yet; the scan stops once every side has someone.
  const idle = new Set<string>();
  for (const side of encounter.sides) idle.add(side.id);
  for (const c of encounter.combatants) {
    if (idle.size === 0) break;
    if (idle.has(c.side) && isActive(input.states[c.id])) idle.delete(c.side);
  }
  const sides: Record<string, number> = {};
  for (const side of encounter.sides) {
    if (idle.has(side.id)) continue;
    sides[side.id] = dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: side.id, round: input.round });
  }
  let winner: string | null = null;
  let best = -Infinity;
  let count = 0;
  let rolled = 0;
  for (const id in sides) {
    const die = sides[id];
    rolled++;
    if (die > best) {
      best = die;
      winner = id;
      count = 1;
    } else if (die === best) count++;
  }
  if (count !== 1 || rolled < 2) winner = null;
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
  /** How many distinct letters there are: every rank is below it. */
  count: number;
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
    count: order.length,
    rank: (kind) => ranks.get(kind),
    sameLetter: (a, b) => ranks.get(a) !== undefined && ranks.get(a) === ranks.get(b),
  };
}

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

/** The first four parts of a time key [segment, group, rank, letter, sub]. */
interface BlockKey {
  segment: number;
  group: number;
  rank: number;
  letter: number;
}

/**
 * The entries at one [segment, group, rank, letter] of the time key. The last
 * part of the key, `sub`, is per entry: entries with equal subs share a step.
 */
interface Block extends BlockKey {
  /** The entries in the order placed, and the sub of each. */
  entries: StepEntry[];
  subs: number[];
  /**
   * Melee under the tie rules: entries (by index) whose sub is worked out
   * from the speed factors of the block once all are known, with their own
   * weapon's speed factor if it has one.
   */
  bySpeed: { index: number; speed: number | undefined }[];
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

interface PlannedCharge extends BlockKey {
  charger: string;
  target?: string;
  sub: number;
}

interface PendingSet {
  combatant: Combatant;
  decl: Declaration;
  place: Placement;
}

/** Time-key order of two blocks: segment, group, rank, letter. */
function compareBlocks(a: BlockKey, b: BlockKey): number {
  return a.segment - b.segment || a.group - b.group || a.rank - b.rank || a.letter - b.letter;
}

/**
 * The entries of one round (or of the surprise) at time keys. Castings join
 * the first step of their segment: "Any time an attack, spell, or whatever
 * goes off at the same time as another action, all actions fully resolve",
 * and damage in the segment a spell goes off does not stop it (ruling).
 */
class Plan {
  private readonly blocks: Block[] = [];
  /** Blocks by segment, then by lane (group, rank and letter as one number, see `lane`). */
  private readonly blocksAt = new Map<number, Map<number, Block>>();
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
    /** Ranks run from 0 to ranks - 1. */
    private readonly ranks: number,
  ) {}

  /** Group, rank and letter as one number, distinct for distinct triples (rank < ranks, letter < letters.count). */
  private lane(group: number, rank: number, letter: number): number {
    return (group * this.ranks + rank) * this.letters.count + letter;
  }

  /** The block at [segment, group, rank, letter], made on first use. */
  private block(segment: number, group: number, rank: number, letter: number): Block {
    let lanes = this.blocksAt.get(segment);
    if (!lanes) this.blocksAt.set(segment, (lanes = new Map()));
    const lane = this.lane(group, rank, letter);
    let block = lanes.get(lane);
    if (!block) {
      block = { segment, group, rank, letter, entries: [], subs: [], bySpeed: [] };
      lanes.set(lane, block);
      this.blocks.push(block);
    }
    return block;
  }

  /** An entry at [segment, group, rank, letter, sub]; `bySpeed`: its sub waits for settleSpeeds (with its own `speed`). */
  private add(
    segment: number,
    group: number,
    rank: number,
    letter: number,
    sub: number,
    entry: StepEntry,
    bySpeed = false,
    speed?: number,
  ): void {
    if (segment < 1 || segment > this.last) return; // delayed past the end of the round: it does not happen
    const block = this.block(segment, group, rank, letter);
    if (bySpeed) block.bySpeed.push({ index: block.entries.length, speed });
    block.entries.push(entry);
    block.subs.push(sub);
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
    const id = c.id;
    const target = decl.target;
    // In the surprise the declaration repeats in every segment up to the last; otherwise it is placed once.
    const from = p.repeat ? Math.max(1, p.first) : p.first;
    const until = p.repeat ? this.last : p.first;

    switch (action) {
      case 'spell':
      case 'device':
        this.placeCasting(c, decl, p);
        return;
      case 'melee':
      case 'missile': {
        const routines = routinesOf(decl, c);
        const speed = weaponSpeedOf(decl, c);
        // Speed factor applies to melee on tied initiative; missiles of one letter are simultaneous.
        const bySpeed = p.tied && action === 'melee';
        const reason = p.reason || (bySpeed ? 'addictSpeedFactor' : undefined);
        for (let seg = from; seg <= until; seg++) {
          this.add(seg, 0, p.rank, letter, 0, stepEntry(id, 'action', action, target, reason), bySpeed, speed);
          const further = p.furtherAt === null ? seg : Math.max(seg, p.furtherAt);
          for (let r = 2; r <= routines; r++) {
            const e = stepEntry(id, 'routine', action, target, 'addictFurtherRoutine', r);
            this.add(further, r - 1, p.rank, letter, 0, e, bySpeed, speed);
          }
        }
        return;
      }
      case 'charge': {
        // Footnote 17: "Speed factor is ignored during a charge; only weapon length is considered."
        const mv = chargeMovementOf(c, options) ?? 0;
        const length = weaponLengthOf(decl, c);
        const arrival = chargeArrivalSegment(decl.distance ?? 0, mv, length, p.first);
        if (arrival > this.last) return; // still closing when the round ends: the GM moves it
        const sub = p.tied ? -length : 0;
        this.add(arrival, 0, p.rank, letter, sub, stepEntry(id, 'action', action, target, 'addictChargeArrives'));
        this.charges.push({ charger: id, target, segment: arrival, group: 0, rank: p.rank, letter, sub });
        if (p.repeat) {
          // In the surprise, once in melee the charger fights on in the segments left.
          const melee = this.letters.rank('melee') ?? letter;
          const routines = routinesOf(decl, c);
          const speed = weaponSpeedOf(decl, c);
          for (let seg = Math.max(1, arrival + 1); seg <= this.last; seg++) {
            this.add(seg, 0, p.rank, melee, 0, stepEntry(id, 'action', 'melee', target, 'addictAfterCharge'), p.tied, speed);
            for (let r = 2; r <= routines; r++) {
              const e = stepEntry(id, 'routine', 'melee', target, 'addictFurtherRoutine', r);
              this.add(seg, r - 1, p.rank, melee, 0, e, p.tied, speed);
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
        for (let seg = from; seg <= until; seg++) this.add(seg, 0, p.rank, letter, 0, stepEntry(id, 'action', action, target, p.reason));
      }
    }
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
      if (!known || (compareBlocks(ch, known) || ch.sub - known.sub) < 0) earliestAt.set(ch.target, ch);
    }
    const letterF = this.letters.rank('set-vs-charge') ?? 0;
    for (const { combatant, decl, place } of this.sets) {
      const base: StepEntry = { combatant: combatant.id, kind: 'action', action: 'set-vs-charge' };
      // The charge it names, else the earliest charge at it.
      const named = decl.target !== undefined ? byCharger.get(decl.target) : undefined;
      const met = named ?? earliestAt.get(combatant.id);
      if (met && met.segment >= place.ready) {
        const entry: StepEntry = { ...base, target: met.charger, reason: 'addictSetAgainstCharge' };
        this.add(met.segment, met.group, met.rank, met.letter, met.sub - 0.5, entry);
      } else {
        const entry: StepEntry = { ...base, reason: 'addictSetNoCharge' };
        if (decl.target !== undefined) entry.target = decl.target;
        this.add(place.first, 0, place.rank, letterF, 0, entry);
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
    for (const block of this.blocks) {
      if (block.bySpeed.length === 0) continue;
      const speeds = new Map<string, number>();
      let fastest = Infinity;
      for (const { index, speed } of block.bySpeed) {
        if (speed === undefined) continue;
        const combatant = block.entries[index].combatant;
        if (!speeds.has(combatant)) speeds.set(combatant, speed);
        fastest = Math.min(fastest, speed);
      }
      for (const { index, speed } of block.bySpeed) {
        const target = block.entries[index].target;
        block.subs[index] = speed ?? (target !== undefined ? speeds.get(target) : undefined) ?? (speeds.size > 0 ? fastest : 0);
      }
    }
  }

  /**
   * The schedule: blocks in time-key order, each split into one step per sub
   * (lowest first, entries in the order placed). Equal keys are one step.
   */
  build(procedure: ProcedureId, initiative?: InitiativeResult): Schedule {
    this.placeSets();
    this.settleSpeeds();
    // A segment where a casting begins or goes off but nothing else happens gets a step of its own.
    for (const c of this.castings) {
      if (c.beginSegment !== null && !this.blocksAt.has(c.beginSegment)) this.block(c.beginSegment, -1, 0, 0);
      if (c.completeSegment !== null && !this.blocksAt.has(c.completeSegment)) this.block(c.completeSegment, -1, 0, 0);
    }
    const steps: Step[] = [];
    const firstStepAt = new Map<number, number>();
    let segment: number | undefined;
    for (const block of sortFew(this.blocks, compareBlocks)) {
      if (block.segment !== segment) firstStepAt.set((segment = block.segment), steps.length);
      for (const entries of stepsOf(block)) steps.push({ phase: this.phase, entries, segment });
    }
    // Castings join the first step of their segment.
    const stepAt = (segment: number | null) => (segment === null ? null : (firstStepAt.get(segment) as number));
    const castings: Casting[] = [];
    for (const c of this.castings) {
      const begin = stepAt(c.beginSegment);
      const complete = stepAt(c.completeSegment);
      if (begin !== null) steps[begin].entries.push(castEntry(c, 'cast-begin'));
      if (complete !== null) steps[complete].entries.push(castEntry(c, 'cast-complete'));
      castings.push(castingOf(c, begin ?? -1, complete));
    }
    // Carried through this whole round.
    for (const c of this.carries) castings.push(castingOf(c, -1, null));
    return makeSchedule(procedure, this.round, steps, castings, initiative);
  }
}

/**
 * Sorts in place, stably. The lists sorted here (sides, blocks, speed
 * factors) are short: for them an insertion sort is quicker than
 * Array.prototype.sort, whose set-up costs more than the sorting.
 */
function sortFew<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > 64) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    let j = i;
    for (; j > 0 && compare(items[j - 1], item) > 0; j--) items[j] = items[j - 1];
    items[j] = item;
  }
  return items;
}

const descending = (a: number, b: number) => b - a;
const ascending = (a: number, b: number) => a - b;

/** A block's steps: one per distinct sub, lowest first; an empty block (castings only) is one empty step. */
function stepsOf(block: Block): StepEntry[][] {
  const { entries, subs } = block;
  if (subs.every((sub) => sub === subs[0])) return [entries];
  const bySub = new Map<number, StepEntry[]>();
  subs.forEach((sub, i) => {
    const same = bySub.get(sub);
    if (same) same.push(entries[i]);
    else bySub.set(sub, [entries[i]]);
  });
  return sortFew([...bySub.keys()], ascending).map((sub) => bySub.get(sub) as StepEntry[]);
}

function castEntry(c: PlannedCasting, kind: 'cast-begin' | 'cast-complete'): StepEntry {
  const e: StepEntry = { combatant: c.caster, kind, action: c.action, casting: c.id };
  if (c.target !== undefined) e.target = c.target;
  if (c.reason) e.reason = c.reason;
  return e;
}

/**
 * A casting of the schedule, at its steps. "any damage taken on a round
 * causes the spell to be lost, even if the start of casting was delayed";
 * footnote 20: "device usage can still happen normally assuming the wielder
 * is still alive".
 */
function castingOf(c: PlannedCasting | Casting, beginStep: number, completeStep: number | null): Casting {
  const vulnerable = c.device ? NEVER : 0;
  return {
    id: c.id,
    caster: c.caster,
    spell: c.spell,
    device: c.device,
    castingTime: c.castingTime,
    beganRound: c.beganRound,
    beginStep,
    completeStep,
    lossFrom: vulnerable,
    preventFrom: vulnerable,
    expends: c.expends,
    remaining: c.remaining,
  };
}

/** A step entry, its fields always in this order. */
function stepEntry(
  combatant: string,
  kind: EntryKind,
  action: ActionKind,
  target: string | undefined,
  reason: string | undefined,
  routine?: number,
): StepEntry {
  const e: StepEntry = { combatant, kind, action };
  if (target !== undefined) e.target = target;
  if (routine !== undefined) e.routine = routine;
  if (reason) e.reason = reason;
  return e;
}

/** The weapon in use: the declaration's, else the combatant's. */
function weaponIn(decl: Declaration, c: Combatant): WeaponStats | undefined {
  return decl.weapon ?? c.weapon;
}

/** The weapon's speed factor, only if it is a number. */
function weaponSpeedOf(decl: Declaration, c: Combatant): number | undefined {
  const w = weaponIn(decl, c);
  return w && isWeaponNumber(w.speed) ? w.speed : undefined;
}

/** The weapon's length in feet (1 if none). */
function weaponLengthOf(decl: Declaration, c: Combatant): number {
  const w = weaponIn(decl, c);
  return w && isWeaponNumber(w.length) ? w.length : 1;
}

function routinesOf(decl: Declaration, c: Combatant): number {
  const r = decl.routines ?? c.routines ?? 1;
  return Number.isFinite(r) ? Math.max(1, Math.floor(r)) : 1;
}

/**
 * Each side's segment, rank and tie from the dice: a side acts in the segment
 * of the highest opposing die; further routines wait for the latest opposing
 * segment. Top-two scans find each side's highest opposing die without
 * comparing every pair of sides.
 */
interface SideTiming {
  segment: number;
  rank: number;
  tied: boolean;
  otherSegment: number;
  /** The placement of a member who neither hesitates nor is busy casting: shared by all of them. */
  plain: Placement;
}

interface SideTimings {
  /** Ranks run from 0 (highest die) to ranks - 1 (a side without a die). */
  ranks: number;
  of(side: string): SideTiming;
}

function sideTimings(initiative: InitiativeResult): SideTimings {
  const sides: string[] = [];
  const dice: number[] = [];
  for (const side of Object.keys(initiative.sides)) {
    const die = initiative.sides[side];
    if (typeof die !== 'number' || !Number.isFinite(die)) continue;
    sides.push(side);
    dice.push(die);
  }
  const dieTop = topTwo(dice);
  const segments = dice.map((die) => {
    const other = highestOther(dieTop, die);
    return Number.isFinite(other) ? other : 1;
  });
  const segmentTop = topTwo(segments);
  // A die's rank is its place among the distinct dice, highest first; sides with equal dice are tied.
  const places = new Map<number, { rank: number; sides: number }>();
  for (const die of sortFew([...dice], descending)) {
    const place = places.get(die);
    if (place) place.sides++;
    else places.set(die, { rank: places.size, sides: 1 });
  }

  const timing = (segment: number, other: number, rank: number, tied: boolean): SideTiming => {
    const otherSegment = Number.isFinite(other) ? Math.max(other, segment) : segment;
    const plain = placementOf({ segment, rank, tied, otherSegment }, 0, 0);
    return { segment, rank, tied, otherSegment, plain };
  };
  const bySide = new Map<string, SideTiming>();
  sides.forEach((side, i) => {
    const place = places.get(dice[i]) as { rank: number; sides: number };
    bySide.set(side, timing(segments[i], highestOther(segmentTop, segments[i]), place.rank, place.sides > 1));
  });
  // A side without a die acts in the segment of the highest die, after every side with one.
  const noDie = timing(Number.isFinite(dieTop.first) ? dieTop.first : 1, segmentTop.first, places.size, false);
  return { ranks: places.size + 1, of: (side) => bySide.get(side) ?? noDie };
}

/** The highest value, how many hold it, and the next highest. */
interface TopTwo {
  first: number;
  count: number;
  second: number;
}

function topTwo(values: readonly number[]): TopTwo {
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
}

/** The highest of the values other than one holder's own. */
function highestOther(t: TopTwo, own: number): number {
  return own === t.first && t.count === 1 ? t.second : t.first;
}

/** Where a member of a side acts, after `hesitation` segments and once free of a casting at segment `free`. */
function placementOf(t: Omit<SideTiming, 'plain'>, hesitation: number, free: number): Placement {
  const first = Math.max(t.segment + hesitation, free);
  // Spells and devices begin in segment 1 (footnote 18), later by hesitation (footnote 11).
  const ready = Math.max(1 + hesitation, free);
  const reason = free > t.segment + hesitation ? 'addictBusyCasting' : hesitation > 0 ? 'addictHesitation' : undefined;
  return { first, ready, rank: t.rank, tied: t.tied, furtherAt: Math.max(first, t.otherSegment), repeat: false, reason };
}

/**
 * The combatant of each declaration, by position in `ids` (the last of a
 * repeated id; undefined for an unknown one). Declarations usually come one
 * per combatant in the combatants' order: then the list is the combatants.
 */
function declarersOf(ids: readonly string[], encounter: Encounter): readonly (Combatant | undefined)[] {
  const all = encounter.combatants;
  if (ids.length === all.length && ids.every((id, i) => all[i].id === id)) return all;
  const byId = new Map<string, Combatant>();
  for (const c of all) byId.set(c.id, c);
  return ids.map((id) => byId.get(id));
}

/**
 * "If one side won initiative, resolve all of their actions in the order
 * appearing in the action list … After that, the losing side's actions are
 * resolved in the same order. On tied initiative, reference the tie rules."
 */
function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: AddictOptions, letters: Letters): Schedule {
  const timings = sideTimings(initiative);
  const plan = new Plan(PHASE_RESOLUTION, SEGMENTS_PER_ROUND, input.round, letters, timings.ranks);
  const states = input.states;

  // Castings carried in go off at segment `remaining`; the caster is busy until then.
  const busy = new Map<string, number>();
  for (const c of input.carryIn ?? []) {
    if (!isActive(states[c.caster]) || !(c.remaining >= 0)) continue;
    const until = plan.carryIn(c);
    busy.set(c.caster, Math.max(busy.get(c.caster) ?? 0, until));
  }

  const declarations = input.declarations;
  const ids = Object.keys(declarations);
  const declarers = declarersOf(ids, encounter);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const decl = declarations[id];
    const c = declarers[i];
    if (!c || !isActive(states[id]) || addictDeclarationProblem(decl, c, options, letters) !== null) continue;
    const t = timings.of(c.side);
    const h = hesitationOf(decl);
    const free = busy.get(id) ?? 0;
    plan.place(c, decl, options, h === 0 && free === 0 ? t.plain : placementOf(t, h, free));
  }
  return plan.build('addict', initiative);
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
  // The states pass through unchanged unless someone bleeds: copied on the first change.
  let states = input.after;
  const events: EndEvent[] = [];
  for (const id of Object.keys(input.after)) {
    const now = input.after[id];
    const before = input.before[id];
    if (!before || !(before.hp < 0) || !(now.hp < 0)) continue; // a combatant healed to 0 or more stops bleeding
    if (now.condition === 'dead' || now.condition === 'fled') continue;
    const hp = now.hp - 1;
    const dead = hp <= THRESHOLDS.deathAt;
    if (states === input.after) states = copyRecord(input.after);
    states[id] = { ...now, hp, condition: dead ? 'dead' : now.condition };
    events.push({ kind: 'bleed', combatant: id, amount: 1 });
    if (dead) events.push({ kind: 'death', combatant: id });
  }
  const requests = input.moraleRequests ?? [];
  if (requests.length === 0) return { states, events };
  const morale = moraleChecks(encounter, requests, states, dice, options, input.round);
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
