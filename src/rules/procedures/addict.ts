/**
 * Procedure `addict` (seed 004_50ca767315dcbede.txt): the eleven-phase
 * "A.D.D.I.C.T." combat procedure with letter-coded actions ("coded by letter
 * as they appear on DMG 61").
 *
 * The sections below follow the seed text:
 *   Action list
 *   Phase 1  Reaction check            gmPhases.reaction: the GM records each side's result
 *   Phase 2  Surprise check            rollSurprise
 *   Phase 3  Distance check            gmPhases.distance, encounterDistanceOf
 *   Phase 4  Opening morale check      openingMorale
 *   Phase 5  Surprise resolution       planSurprise
 *   Phase 6  Action declarations       validateDeclaration, hesitationOf
 *   Phase 7  Initiative check          rollInitiative
 *   Phase 8  Action resolution         planRound (preparing actions,
 *            simultaneous resolution, resolving ties: speed factor, D vs D,
 *            E vs D, G vs D, multiple attack routines), chargeArrivalSegment
 *   Phase 9  Bleeding                  applyDamage, canAct, endOfRound
 *   Phase 10 Recap                     the round's summary: src/rules/recap.ts
 *   Phase 11 Reset or recovery         gmPhases.staunch
 * then what the text does not cover (late joiners). Every choice made where
 * the text is silent is in README.md, Rules notes; the flow's inputs for the
 * phases the GM records are in src/rules/flow/gm-phases.ts.
 *
 * Time model (phase 8). Each side acts in the segment shown by the highest
 * die of the opposing sides (seed 000's rule, which footnote 18 relies on:
 * "rolling a 5 means that any spell taking 1-4 segments to cast could be
 * completed before the spellcaster was attacked"). Spells and devices begin
 * in segment 1 and go off at begin + casting time. Time keys (round kit) are
 *   [segment, group, rank, letter, sub]
 * segment 1..10; group −1 for the castings (footnote tie rules: at the top of
 * the segment, footnote 18), 0 for every action, r-1 for attack routine r >= 2
 * (after everything else in the segment); rank = the side's place by its
 * initiative die, highest first (the winner resolves first, tied sides share
 * a rank); letter = the action letter's place in the action list; sub = the
 * tie rules inside a letter (speed factor, weapon length, a set weapon before
 * the charge it meets). Equal keys are one simultaneous step.
 *
 * The tie rules' headings (Speed factor; D vs D; E vs D; G vs D) have empty
 * bodies in the text: each is decided from its footnotes (13, 16-20), as the
 * option `tieRules` says; README, addict, "Tie rules", gives each order.
 */
import type { Dice } from '../dice';
import type { ActionKind, Combatant, CombatantState, Condition, Declaration, Problem } from '../model';
import { ACTION_KINDS, RulesError, SEGMENTS_PER_ROUND } from '../model';
import type { Casting, DamageResult, EndOfRoundInput, EndOfRoundResult, Encounter, EntryKind, InitiativeResult } from '../procedure';
import type { LateJoinInput, LateJoinResult, MidRoundQuery, OptionSpec, Procedure, ProcedureOptions, ReleasePlan, RoundInput, Schedule, StepEntry, SurpriseResult } from '../procedure';
import { badRoutines, badWeaponField, commonDeclarationProblem, conditionByHp, hpDamage, initialState, isActive, keyAt, NEVER, pack } from '../round';
import { rollSideDice, RoundBuilder, RoundEnd, sideTimings, splice, winnerOf } from '../round';
import type { Key, Placed, SideTiming } from '../round';
import { applyGmPhase } from '../flow/gm-phases';
import { holdSteps, release, stop } from '../flow/held';
import { d6SurpriseSegments, rollD6SideSurprise } from '../round/surprise';
import { addictChargeStart, CHARGE_FALLS_SHORT, chargeFirstSegment, chargeMovementOf, encounterDistanceOf, hesitationOf } from './addict-charge';
export { addictChargeStart, CHARGE_FALLS_SHORT, chargeMovementOf, encounterDistanceOf, hesitationOf };

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
  parley: 'A', wait: 'B', flee: 'C',
  missile: 'D', 'turn-undead': 'D', spell: 'D', device: 'D',
  charge: 'E', 'set-vs-charge': 'F', melee: 'G',
  other: 'H', move: 'H', consumable: 'H', throw: 'H',
});

/** A problem with a letter table (unknown action kind or an empty letter), or null. */
export function letterTableProblem(table: LetterTable): Problem | null {
  for (const [kind, letter] of Object.entries(table)) {
    const known = (ACTION_KINDS as readonly string[]).includes(kind) && kind !== 'none';
    if (!known || typeof letter !== 'string' || letter.trim() === '') return { key: 'AddictLetterTableInvalid', data: { action: kind } };
  }
  return null;
}

/** The action list as ranks (a letter's place in sort order), built once per procedure from its letter table. */
type Letters = ReturnType<typeof makeLetters>;

function makeLetters(table: LetterTable) {
  const order = [...new Set(Object.values(table) as string[])].sort();
  const ranks = new Map<ActionKind, number>();
  for (const [kind, letter] of Object.entries(table)) ranks.set(kind as ActionKind, order.indexOf(letter as string));
  return {
    actions: [...ranks.keys(), 'none'] as readonly ActionKind[],
    /** How many distinct letters there are: every rank is below it. */
    count: order.length,
    rank: (kind: ActionKind) => ranks.get(kind),
    sameLetter: (a: ActionKind, b: ActionKind) => ranks.get(a) !== undefined && ranks.get(a) === ranks.get(b),
  };
}

/* ================================================================ options */

export interface AddictOptions extends ProcedureOptions {
  /** Footnote 9: a charge "increases MV by 100% (indoors) or 33.33% (outdoors)". For combatants with no chargeMovement. */
  chargeOutdoors: boolean;
  /** README ruling: when both sides are surprised, the lesser count is subtracted from the greater. */
  mutualSurprise: boolean;
  /** Phase 4 gives no mechanic: 'd100' (1e percentage morale, pass on roll <= score) or '2d6' (pass on roll <= score). */
  moraleDie: 'd100' | '2d6';
  /**
   * How the actions that meet in one segment are ordered (README, addict, "Tie rules"). 'footnotes': as footnotes
   * 13-20 decide the tie rules (a casting whose time has run out goes off at the top of its segment, before the blows
   * of that segment, footnote 18; in a charge the longer weapon strikes first, footnote 17; an attack without speed
   * factor always resolves, footnote 16). 'segments': what meets in the first step of a segment resolves together.
   * Absent (a combat started before issue 9, whose frozen options lack it): planned exactly as it was then.
   */
  tieRules: TieRules;
  /** RULING (an option, on; the seeds give no range penalties): a missile's medium range −2, long range −5 to hit (rules/attack.ts RANGE_MODIFIERS). */
  rangeModifiers: boolean;
}

export type TieRules = 'footnotes' | 'segments';

const DEFAULTS: AddictOptions = { chargeOutdoors: false, mutualSurprise: true, moraleDie: 'd100', tieRules: 'footnotes', rangeModifiers: true };

const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'chargeOutdoors', type: 'boolean' },
  { key: 'mutualSurprise', type: 'boolean' },
  { key: 'moraleDie', type: 'choice', choices: ['d100', '2d6'] },
  { key: 'tieRules', type: 'choice', choices: ['footnotes', 'segments'] },
  { key: 'rangeModifiers', type: 'boolean' },
];

/**
 * What a combat's options make of the rules of issue 9 (README "Stored data": a rule that changes keeps old combats
 * whole). `fixed`: planned as issue 9 decided (a lone striker is given no tie reason; a spell whose start hesitation
 * pushes past the round stays exposed, footnote 11), false only for a combat started before, whose options have no
 * `tieRules`. `footnotes`: the tie rules of footnotes 16-18 (`tieRules: 'footnotes'`).
 */
type Rules = { fixed: boolean; footnotes: boolean };

function rulesOf(options: Pick<AddictOptions, 'tieRules'>): Rules {
  const tie: unknown = options.tieRules;
  return { fixed: tie !== undefined, footnotes: tie === 'footnotes' };
}

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
// "If the DM has notes indicating how the encountered party will react to such
// an encounter, those are used and no roll is made … Otherwise, DM checks
// reaction for the opposing party." The reaction table (DMG 63) is not in the
// text: the GM records each side's result in their own words, with the roll
// made on their table (the flow's `reaction` input, gmPhases.reaction), kept in
// Encounter.reactions. Footnote 3: rolled privately where the players do not
// know the other party's alignment: a `secret` result is not shown to players.
// Phase 4.1, "certain reaction rolls may provoke a morale check right off the
// bat": the GM then calls the opening morale check (phase 4 below).

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
/** Able to act as the combat begins: above 0 hp, and not entering it fled or otherwise out of the fight (Combatant.condition). */
const ableAtStart = (c: Combatant): boolean => isActive(initialState(c));

function rollSurprise(encounter: Encounter, dice: Dice, options: AddictOptions): SurpriseResult {
  const rolls = rollD6SideSurprise(encounter, dice, 0);
  const surprised = d6SurpriseSegments(encounter, rolls);
  if (options.mutualSurprise) {
    let least = Infinity;
    for (const c of encounter.combatants) if (ableAtStart(c)) least = Math.min(least, surprised[c.id] ?? 0);
    if (least > 0 && Number.isFinite(least)) {
      for (const id of Object.keys(surprised)) surprised[id] = Math.max(0, surprised[id] - least);
    }
  }
  return { rolls, surprised, unit: 'segments' };
}

/* =================================================== phase 3: distance check */
// "If encounter distance is obvious to the DM, move to Phase 4. 2. Roll
// encounter distance." The distance tables (footnotes 6, 7) are not in the
// text: the GM records the result in feet (the flow's `distance` input,
// gmPhases.distance), kept in Encounter.distance. It is the gap a charge
// declared without a distance of its own closes (footnote 19, below); the GM
// records it again when the sides have closed.


/* ============================================== phase 4: opening morale check */

/**
 * "certain reaction rolls may provoke a morale check right off the bat", and
 * "overwhelming fear": the GM names who checks. The seed gives no mechanic:
 * a roll of the option's die at or under the combatant's morale score passes
 * (d100: a percentage, 1e style; 2d6: a 2-12 score). `opposed`, if given, is
 * subtracted from the score (how overwhelming the foe is). A failure routs.
 */
type MoraleRequest = { combatant: string; trigger: string; opposed?: number };

function moraleChecks(
  encounter: Encounter, requests: readonly MoraleRequest[], end: RoundEnd, dice: Dice, options: AddictOptions, round: number,
): EndOfRoundResult {
  if (requests.length === 0) return end.result();
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const die = options.moraleDie === '2d6' ? { count: 2, faces: 6 } : { count: 1, faces: 100 };
  for (const request of requests) {
    const c = byId.get(request.combatant);
    const state = end.states[request.combatant];
    if (!c || !state || state.condition === 'dead' || state.condition === 'fled') continue;
    const score = typeof c.morale === 'number' && Number.isFinite(c.morale) ? c.morale : DEFAULT_MORALE[options.moraleDie];
    const opposed = typeof request.opposed === 'number' && Number.isFinite(request.opposed) ? request.opposed : 0;
    const target = score - opposed;
    const roll = dice.roll({ purpose: 'morale', ...die, combatant: c.id, side: c.side, round });
    const passed = roll <= target;
    if (!passed) end.set(c.id, { ...state, routed: true });
    end.events.push({ kind: 'morale', combatant: c.id, trigger: request.trigger, roll, total: roll, target, passed });
  }
  return end.result();
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
  encounter: Encounter, surprise: SurpriseResult, declarations: Record<string, Declaration>, options: AddictOptions, letters: Letters,
): Schedule | null {
  let n = 0;
  for (const c of encounter.combatants) if (ableAtStart(c)) n = Math.max(n, surprise.surprised[c.id] ?? 0);
  if (n <= 0) return null;
  const plan = new Plan(PHASE_SURPRISE, n, 0, letters, 1, rulesOf(options), encounterDistanceOf(encounter));
  // In the encounter's order, whatever order the declarations were made in.
  for (const c of encounter.combatants) {
    const decl = declarations[c.id];
    if (!ableAtStart(c) || !decl || addictDeclarationProblem(decl, c, options, letters, encounter) !== null) continue;
    const s = surprise.surprised[c.id] ?? 0;
    if (s >= n) continue;
    const h = hesitationOf(decl);
    const first = s + 1 + h;
    const reason = h > 0 ? 'addictHesitation' : undefined;
    plan.place(c, decl, options, { first, ready: first, rank: 0, tied: true, furtherAt: null, repeat: true, reason });
  }
  return plan.build();
}

/* ============================================== phase 6: action declarations */



function addictDeclarationProblem(decl: Declaration, c: Combatant, options: AddictOptions, letters: Letters, encounter: Encounter | undefined): Problem | null {
  const common = commonDeclarationProblem(decl, c, letters.actions);
  if (common) return common;
  const name = c.name;
  if (decl.hesitation !== undefined && !Number.isInteger(decl.hesitation)) {
    return { key: 'AddictHesitationNotWhole', data: { name, hesitation: String(decl.hesitation) } };
  }
  const seconds: unknown = decl.hesitationSeconds;
  if (seconds !== undefined) {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return { key: 'AddictHesitationSecondsInvalid', data: { name, seconds: String(seconds) } };
    if (decl.hesitation !== undefined) return { key: 'AddictHesitationTwice', data: { name } };
  }
  if (badRoutines(decl.routines)) return { key: 'AddictRoutinesInvalid', data: { name, routines: String(decl.routines) } };
  if (badWeaponField(decl.weapon, ['speed', 'length']) !== null) return { key: 'AddictWeaponInvalid', data: { name } };
  if (decl.action === 'charge') {
    // Without a distance of its own, the charge closes the encounter distance (phase 3), if the GM has recorded one.
    if (decl.distance === undefined && encounterDistanceOf(encounter) === undefined) return { key: 'AddictChargeNoDistance', data: { name } };
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
  const sides = rollSideDice(encounter, dice, { faces: 6, round: input.round }, (c) => isActive(input.states[c.id]));
  return { round: input.round, sides, individuals: {}, winner: winnerOf(sides, { atLeast: 2 }) };
}

/* =================================================== phase 8: action resolution */

/*
 * "Resolving ties. During a round with tied initiative, actions are resolved
 * in the order found in the action list … but with the following additional
 * rules": four headings whose bodies are empty in the text, each decided from
 * its footnotes as an order (one before the other where a footnote says so,
 * together only where the text says "at the same time"). With tieRules
 * 'footnotes' (the default):
 *  - Speed factor (melee against melee): the lower speed factor strikes first,
 *    equal ones together (settleSpeeds). Footnote 16, "Attacks without speed
 *    factor … always resolve on tie rounds": with the first blow aimed at its
 *    maker, or with its target's own blow, whichever comes first. Footnote 17,
 *    "Speed factor is ignored during a charge; only weapon length is
 *    considered": charges, and the blow struck back at a charger as it lands,
 *    longer weapon first (meetCharges).
 *  - D vs D (missiles or turning against a spell or device), E vs D (a charge
 *    against any D) and G vs D (melee against a spell or device): footnote 18,
 *    "a higher initiative roll is better … rolling a 5 means that any spell
 *    taking 1-4 segments to cast could be completed before the spellcaster was
 *    attacked": the attack comes in the segment of the die (a charge where
 *    footnote 19 lands it); a casting begun in segment 1 whose time runs out
 *    by then goes off at the top of that segment, before it (Plan.build);
 *    a longer one is still being cast when it lands. Footnote 20: "Spells are
 *    lost if the caster is hit, but device usage can still happen normally
 *    assuming the wielder is still alive" (the castings' lossFrom). E vs D,
 *    footnote 14: missiles and turning (D) come before the charge (E) that
 *    lands in their segment, by letter.
 *  - Multiple attack routines, "resolved using the above rules": routine r >= 2
 *    after the other sides' segment (footnote 13: "Making MAR automatically win
 *    … is undesirable").
 * The same timing holds when a side won: footnote 18 speaks of the roll, win
 * or lose.
 */

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


/**
 * The time key [segment, group, rank, letter, sub]. Group −1 is the empty step
 * of a segment where only a casting begins or goes off; sub runs from −512
 * (−weapon length of a charge) to 511 (speed factor) and may be fractional
 * (a set weapon at the charge's sub − 0.5).
 */
function keyOf(segment: number, group: number, rank: number, letter: number, sub: number): Key {
  return pack(1024, segment, group + 1, rank, letter, sub + 512);
}

/**
 * Where and how a declaration is placed: `first` the segment of its action
 * (side segment + hesitation, or surprise segment); from `ready` on, what
 * starts with the round is ready (a spell or device begins, footnote 18; a
 * set weapon is braced); `tied`: its side's die ties another's, so the tie
 * rules order inside a letter; `furtherAt`: segment of further attack
 * routines ("after the other side's segment"), null in the surprise;
 * `repeat` (surprise): repeated in every segment from `first` to the last.
 */
type Placement = { first: number; ready: number; rank: number; tied: boolean; furtherAt: number | null; repeat: boolean; reason?: string };

/** Where a member of a side acts, after `hesitation` segments and once free of a casting at segment `free`. */
function placementOf(t: SideTiming, hesitation: number, free: number): Placement {
  const first = chargeFirstSegment(t, hesitation, free);
  // Spells and devices begin in segment 1 (footnote 18), later by hesitation (footnote 11).
  const ready = Math.max(1 + hesitation, free);
  const reason = free > t.segment + hesitation ? 'addictBusyCasting' : hesitation > 0 ? 'addictHesitation' : undefined;
  return { first, ready, rank: t.rank, tied: t.tied, furtherAt: Math.max(first, t.otherSegment), repeat: false, reason };
}

/** The entries at one [segment, group, rank, letter], in the order placed: the tie rules work inside it. */
type Lane = { segment: number; group: number; rank: number; letter: number; entries: Pending[]; bySpeed: boolean };

/**
 * An entry and its sub; melee under the tie rules (`bySpeed`) gets its sub from the speed factors of its lane.
 * `side`: its combatant's side; `length`: the weapon length of a melee blow (a charge meets it, footnote 17).
 */
type Pending = { entry: StepEntry; sub: number; bySpeed: boolean; speed?: number; side: string; length?: number };

/** A spell or device begun in this schedule, by segment; its `entry` is the cast-begin (`begin` null: it begins in a later round). */
type Cast = {
  id: string; entry: StepEntry; device: boolean; spell: string; castingTime: number; begin: number | null; complete: number | null; remaining: number;
};

/** A charge where it arrives, for the set weapon (and, footnote 17, the melee blow) that meets it. */
type Charge = { entry: StepEntry; lane: Lane; sub: number; key: Key; tied: boolean };

/**
 * The entries of one round (or of the surprise), placed by the seed's rules,
 * then handed to the round kit's builder. Where a casting begins or goes off:
 *  - footnote tie rules (`rules.footnotes`): in a step of its own at the top
 *    of its segment, before everything else there. Footnote 18: "rolling a 5
 *    means that any spell taking 1-4 segments to cast could be completed
 *    before the spellcaster was attacked": a spell begun in segment 1 with
 *    time 4 goes off in segment 5, *before* the blow of segment 5. Castings
 *    that go off in one segment are simultaneous with each other ("Any time
 *    an attack, spell, or whatever goes off at the same time as another
 *    action, all actions fully resolve").
 *  - segment timing: in the first step of its segment, simultaneous with it.
 * Either way damage in the segment a spell goes off does not stop it (ruling).
 */
class Plan {
  private readonly lanes = new Map<number, Lane>();
  private readonly carriedIn: { casting: Casting; at: number | null }[] = [];
  private readonly casts: Cast[] = [];
  private readonly charges: Charge[] = [];
  private readonly sets: { c: Combatant; decl: Declaration; p: Placement }[] = [];
  private castingCount = 0;
  /** Rules revision 3: a charge still closing at the end of the round has an entry in the last segment (CHARGE_FALLS_SHORT). */
  fallsShort = false;

  constructor(
    private readonly phase: string,
    /** Last segment of this schedule: 10, or the number of surprise segments. */
    private readonly last: number,
    private readonly round: number,
    private readonly letters: Letters,
    /** Ranks run from 0 to ranks − 1. */
    private readonly ranks: number,
    private readonly rules: Rules,
    /** Phase 3: the encounter distance in feet, the gap a charge declared without one closes. */
    private readonly encounterDistance: number | undefined,
  ) {}

  /** One number per lane, cheaper to find than its time key (segment <= last, rank < ranks, letter < count). */
  private laneId(segment: number, group: number, rank: number, letter: number): number {
    return ((group * (this.last + 1) + segment) * this.ranks + rank) * this.letters.count + letter;
  }

  /** An entry at [segment, group, rank, letter, sub]; `bySpeed`: its sub waits for the speed factors (its own is `speed`). */
  private add(segment: number, group: number, rank: number, letter: number, sub: number, entry: StepEntry, side: string, bySpeed = false, speed?: number, length?: number): Lane | null {
    if (segment < 1 || segment > this.last) return null; // delayed past the end of the round: it does not happen
    const id = this.laneId(segment, group, rank, letter);
    let lane = this.lanes.get(id);
    if (!lane) this.lanes.set(id, (lane = { segment, group, rank, letter, entries: [], bySpeed: false }));
    const pending: Pending = { entry, sub, bySpeed, speed, side };
    if (length !== undefined) pending.length = length;
    lane.entries.push(pending);
    lane.bySpeed ||= bySpeed;
    return lane;
  }

  /** A casting carried in from the previous round (or from the surprise): the segment it goes off, NEVER if it runs on. */
  carryIn(c: Casting): number {
    const at = c.remaining <= this.last ? Math.max(1, c.remaining) : null;
    this.carriedIn.push({ casting: c, at });
    return at ?? NEVER;
  }

  /** Place one combatant's declaration. */
  place(c: Combatant, decl: Declaration, options: AddictOptions, p: Placement): void {
    const action = decl.action;
    const letter = this.letters.rank(action);
    if (letter === undefined || action === 'none') return;
    const id = c.id;
    const side = c.side;
    const target = decl.target;
    // In the surprise the declaration repeats in every segment up to the last; otherwise it is placed once.
    const from = p.repeat ? Math.max(1, p.first) : p.first;
    const until = p.repeat ? this.last : p.first;
    switch (action) {
      case 'spell':
      case 'device':
        return this.placeCasting(c, decl, p);
      case 'melee':
      case 'missile': {
        // Speed factor applies to melee on tied initiative; missiles of one letter are simultaneous.
        const bySpeed = p.tied && action === 'melee';
        // Issue 9: the speed-factor reason is given in settleSpeeds, only where it orders this blow against another side's.
        const reason = p.reason || (bySpeed && !this.rules.fixed ? 'addictSpeedFactor' : undefined);
        for (let seg = from; seg <= until; seg++) {
          const further = p.furtherAt === null ? seg : Math.max(seg, p.furtherAt);
          this.attack(c, decl, action, seg, further, p.rank, letter, reason, bySpeed);
        }
        return;
      }
      case 'charge': {
        // Footnote 17: "Speed factor is ignored during a charge; only weapon length is considered."
        const length = weaponNumber(decl, c, 'length') ?? 1; // no weapon length: 1 ft
        const distance = decl.distance ?? this.encounterDistance ?? 0;
        const arrival = chargeArrivalSegment(distance, chargeMovementOf(c, options) ?? 0, length, p.first);
        if (arrival > this.last) {
          // Footnote 19: still closing when the round ends. From rules revision 3 the last segment says so (it does not attack).
          if (this.fallsShort && !p.repeat) this.add(this.last, 0, p.rank, letter, 0, stepEntry(id, 'action', action, target, CHARGE_FALLS_SHORT), side);
          return;
        }
        const sub = p.tied ? -length : 0;
        const entry = stepEntry(id, 'action', action, target, 'addictChargeArrives');
        const lane = this.add(arrival, 0, p.rank, letter, sub, entry, side);
        if (lane) this.charges.push({ entry, lane, sub, key: keyOf(arrival, 0, p.rank, letter, sub), tied: p.tied });
        if (!p.repeat) return;
        // In the surprise, once in melee the charger fights on in the segments left.
        const melee = this.letters.rank('melee') ?? letter;
        for (let seg = Math.max(1, arrival + 1); seg <= this.last; seg++) this.attack(c, decl, 'melee', seg, seg, p.rank, melee, 'addictAfterCharge', p.tied);
        return;
      }
      case 'set-vs-charge':
        // Placed once every charge is known: it strikes first at the arrival of the charge it meets.
        this.sets.push({ c, decl, p });
        return;
      default:
        // A parley, B wait / prepare ("becomes prepared at the time it would normally resolve"),
        // C flee, D missiles and turning, H other: in the side's segment, in letter order.
        for (let seg = from; seg <= until; seg++) this.add(seg, 0, p.rank, letter, 0, stepEntry(id, 'action', action, target, p.reason), side);
    }
  }

  /** An attack in segment `seg`; "Multiple attack routines": routine r >= 2 in segment `further`, group r − 1. */
  private attack(
    c: Combatant, decl: Declaration, action: ActionKind, seg: number, further: number, rank: number, letter: number, reason: string | undefined, bySpeed: boolean,
  ): void {
    const speed = weaponNumber(decl, c, 'speed');
    const length = action === 'melee' ? weaponNumber(decl, c, 'length') : undefined;
    this.add(seg, 0, rank, letter, 0, stepEntry(c.id, 'action', action, decl.target, reason), c.side, bySpeed, speed, length);
    const routines = routinesOf(decl, c);
    for (let r = 2; r <= routines; r++) {
      this.add(further, r - 1, rank, letter, 0, stepEntry(c.id, 'routine', action, decl.target, 'addictFurtherRoutine', r), c.side, bySpeed, speed);
    }
  }

  private placeCasting(c: Combatant, decl: Declaration, p: Placement): void {
    const castingTime = decl.castingTime ?? 1;
    const device = decl.action === 'device';
    const spell = decl.spell ?? decl.action;
    // Footnote 8 (surprise only): another copy may be begun when one goes off.
    let copies = 1;
    if (p.repeat) {
      if (device) copies = Infinity;
      else if (decl.spell !== undefined && Array.isArray(c.spells)) copies = Math.max(1, c.spells.filter((s) => s === decl.spell).length);
    }
    const cast = (begin: number | null, off: number) => {
      const id = `addict-${this.round}-${c.id}-${++this.castingCount}`;
      const entry: StepEntry = { combatant: c.id, kind: 'cast-begin', action: decl.action, casting: id };
      if (decl.target !== undefined) entry.target = decl.target;
      if (p.reason) entry.reason = p.reason;
      const complete = off <= this.last ? off : null;
      this.casts.push({ id, entry, device, spell, castingTime, begin, complete, remaining: complete === null ? off - this.last : 0 });
    };
    if (!p.repeat && this.rules.fixed && p.ready > this.last && p.ready < NEVER) {
      // Footnote 11: hesitation "never allows a combatant to delay casting a spell so as to not lose it from damage if
      // struck in an early segment". A start pushed past the round is still this round's casting: exposed from its
      // start, it begins in the next round at the segment the delay reaches, and goes off casting time later.
      cast(null, p.ready + castingTime);
      return;
    }
    for (let begin = p.ready; copies-- > 0 && begin <= this.last; begin += castingTime) cast(begin, begin + castingTime);
  }

  /** Footnote 17 and "F vs E": a set weapon strikes first at the arrival of the charge it meets. */
  private placeSets(): void {
    if (this.sets.length === 0) return;
    const byCharger = new Map<string, Charge>();
    const earliestAt = new Map<string, Charge>();
    for (const ch of this.charges) {
      byCharger.set(ch.entry.combatant, ch);
      if (ch.entry.target === undefined) continue;
      const known = earliestAt.get(ch.entry.target);
      if (!known || ch.key < known.key) earliestAt.set(ch.entry.target, ch);
    }
    const letterF = this.letters.rank('set-vs-charge') ?? 0;
    for (const { c, decl, p } of this.sets) {
      // The charge it names, else the earliest charge at it.
      const met = (decl.target !== undefined ? byCharger.get(decl.target) : undefined) ?? earliestAt.get(c.id);
      if (met && met.lane.segment >= p.ready) {
        const entry = stepEntry(c.id, 'action', 'set-vs-charge', met.entry.combatant, 'addictSetAgainstCharge');
        met.lane.entries.push({ entry, sub: met.sub - 0.5, bySpeed: false, side: c.side });
      } else this.add(p.first, 0, p.rank, letterF, 0, stepEntry(c.id, 'action', 'set-vs-charge', decl.target, 'addictSetNoCharge'), c.side);
    }
  }

  /**
   * Footnote 17, "Speed factor is ignored during a charge; only weapon length
   * is considered", on a tied round: the blow its target strikes back at a
   * charger in the segment the charge arrives leaves the melee (G) and its
   * speed factors for the charge's lane, where the longer weapon strikes
   * first and equal lengths strike together (a weapon set against the charge,
   * F, still strikes before both).
   */
  private meetCharges(): void {
    const melee = this.letters.rank('melee');
    if (melee === undefined) return;
    for (const ch of this.charges) {
      const defender = ch.entry.target;
      if (!ch.tied || defender === undefined) continue;
      const g = this.lanes.get(this.laneId(ch.lane.segment, 0, ch.lane.rank, melee));
      if (!g) continue;
      const at = g.entries.findIndex((x) => x.entry.combatant === defender && x.entry.kind === 'action' && (x.entry.target === undefined || x.entry.target === ch.entry.combatant));
      if (at < 0) continue;
      const [blow] = g.entries.splice(at, 1);
      if (!blow.entry.reason) blow.entry.reason = 'addictChargeLength';
      ch.lane.entries.push({ ...blow, sub: -(blow.length ?? 1), bySpeed: false });
    }
  }

  /**
   * Footnote 16: "Attacks without speed factor … always resolve on tie
   * rounds": a natural attack shares the step of its target's own melee in
   * the same lane (so both resolve), else the step of the fastest weapon
   * there. Otherwise the lower speed factor first, equal ones together.
   * Footnote tie rules: no blow of the lane comes before it either, so it
   * resolves with the first blow aimed at its maker if that comes before its
   * target's own.
   */
  private settleSpeeds(lane: Lane): void {
    const speeds = new Map<string, number>();
    const aimedAt = new Map<string, number>();
    let fastest = Infinity;
    const footnotes = this.rules.footnotes;
    for (const { entry, speed, bySpeed } of lane.entries) {
      if (!bySpeed || speed === undefined) continue;
      if (!speeds.has(entry.combatant)) speeds.set(entry.combatant, speed);
      fastest = Math.min(fastest, speed);
      if (footnotes && entry.target !== undefined) aimedAt.set(entry.target, Math.min(aimedAt.get(entry.target) ?? Infinity, speed));
    }
    for (const p of lane.entries) {
      if (!p.bySpeed) continue;
      if (p.speed !== undefined) {
        p.sub = p.speed;
        continue;
      }
      const target = p.entry.target;
      const own = target !== undefined ? speeds.get(target) : undefined;
      const first = footnotes ? Math.min(own ?? Infinity, aimedAt.get(p.entry.combatant) ?? Infinity, untargetedBefore(lane, p.side)) : own ?? Infinity;
      p.sub = Number.isFinite(first) ? first : speeds.size > 0 ? fastest : 0;
    }
    if (this.rules.fixed) giveTieReasons(lane);
  }

  /**
   * The schedule: every entry at its key, then the castings at the step of
   * their segments the tie rules give them. "any damage taken on a round
   * causes the spell to be lost, even if the start of casting was delayed";
   * footnote 20: "device usage can still happen normally assuming the
   * wielder is still alive".
   */
  build(initiative?: InitiativeResult): Schedule {
    this.placeSets();
    if (this.rules.footnotes) this.meetCharges();
    const builder = new RoundBuilder('addict', this.round);
    const where = Array.from({ length: this.last + 1 }, (_, segment) => ({ phase: this.phase, segment }));
    const firstKey: Key[] = where.map(() => Infinity);
    for (const lane of this.lanes.values()) {
      if (lane.bySpeed) this.settleSpeeds(lane);
      const { segment, group, rank, letter } = lane;
      let sub = NaN;
      let key = NaN;
      for (const p of lane.entries) {
        if (p.sub !== sub) key = keyOf(segment, group, rank, letter, (sub = p.sub));
        builder.add(key, where[segment], p.entry);
        if (key < firstKey[segment]) firstKey[segment] = key;
      }
    }
    // Footnote tie rules: a step of their own at the top of the segment. Segment timing: the first step of the
    // segment; where only a casting begins or goes off, an empty step (group −1).
    const top = (segment: number) => keyOf(segment, -1, 0, 0, 0);
    const at = (segment: number) => ({ key: this.rules.footnotes || firstKey[segment] === Infinity ? top(segment) : firstKey[segment], where: where[segment] });
    for (const { casting, at: segment } of this.carriedIn) {
      builder.carryIn(casting, segment === null ? null : { ...at(segment), reason: 'addictCarried' });
    }
    for (const c of this.casts) {
      const begin = c.begin === null ? null : at(c.begin);
      if (begin) builder.add(begin.key, begin.where, c.entry);
      const complete = c.complete === null ? null : at(c.complete);
      if (complete) builder.add(complete.key, complete.where, { ...c.entry, kind: 'cast-complete' });
      const { id, device, spell, castingTime, remaining } = c;
      const vulnerable = device ? 'never' : 'start';
      builder.cast({ id, caster: c.entry.combatant, spell, device, castingTime, beganRound: this.round, remaining, expends: !device,
        begin: begin ? begin.key : null, complete: complete ? complete.key : null, lossFrom: vulnerable, preventFrom: vulnerable });
    }
    return builder.build(initiative);
  }
}

/** The earliest speed factor of a blow in the lane aimed at nobody in particular by another side than `side`, or Infinity. */
function untargetedBefore(lane: Lane, side: string): number {
  let first = Infinity;
  for (const p of lane.entries) if (p.bySpeed && p.speed !== undefined && p.entry.target === undefined && p.side !== side) first = Math.min(first, p.speed);
  return first;
}

/**
 * Why a blow of a tied lane is where it is, once the subs are known, and only
 * where another side strikes in the same lane (a lone striker strikes before
 * nobody, issue 9): the lower speed factor first (`addictSpeedFactor`), equal
 * speed factors together (`addictSpeedFactorEqual`), an attack without speed
 * factor always resolving (`addictNoSpeedFactor`, footnote 16). A reason the
 * entry already has (hesitation, a further routine) stays.
 */
function giveTieReasons(lane: Lane): void {
  const sides = new Set<string>();
  for (const p of lane.entries) if (p.bySpeed) sides.add(p.side);
  if (sides.size < 2) return;
  for (const p of lane.entries) {
    if (!p.bySpeed || p.entry.reason) continue;
    if (p.speed === undefined) p.entry.reason = 'addictNoSpeedFactor';
    else p.entry.reason = lane.entries.some((o) => o.bySpeed && o.side !== p.side && o.sub !== p.sub) ? 'addictSpeedFactor' : 'addictSpeedFactorEqual';
  }
}

/** A step entry, its fields always in this order. */
function stepEntry(combatant: string, kind: EntryKind, action: ActionKind, target: string | undefined, reason: string | undefined, routine?: number): StepEntry {
  const e: StepEntry = { combatant, kind, action };
  if (target !== undefined) e.target = target;
  if (routine !== undefined) e.routine = routine;
  if (reason) e.reason = reason;
  return e;
}

/** A speed factor or length of the weapon in use (the declaration's, else the combatant's) when it is a finite number, 0 or more. */
function weaponNumber(decl: Declaration, c: Combatant, field: 'speed' | 'length'): number | undefined {
  const v = (decl.weapon ?? c.weapon)?.[field];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function routinesOf(decl: Declaration, c: Combatant): number {
  const r = decl.routines ?? c.routines ?? 1;
  return Number.isFinite(r) ? Math.max(1, Math.floor(r)) : 1;
}

/**
 * "If one side won initiative, resolve all of their actions in the order
 * appearing in the action list … After that, the losing side's actions are
 * resolved in the same order. On tied initiative, reference the tie rules."
 */
function planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: AddictOptions, letters: Letters): Schedule {
  const timings = sideTimings(initiative.sides);
  const plan = new Plan(PHASE_RESOLUTION, SEGMENTS_PER_ROUND, input.round, letters, timings.ranks, rulesOf(options), encounterDistanceOf(encounter));
  const states = input.states;
  // Castings carried in go off at segment `remaining`; the caster is busy until then.
  const busy = new Map<string, number>();
  for (const c of input.carryIn ?? []) {
    if (!isActive(states[c.caster]) || !(c.remaining >= 0)) continue;
    busy.set(c.caster, Math.max(busy.get(c.caster) ?? 0, plan.carryIn(c)));
  }
  plan.fallsShort = (input.rules ?? 0) >= 3;
  const plain = new Map<string, Placement>(); // by side: a member who neither hesitates nor is busy casting
  // In the encounter's order, whatever order the declarations were made in.
  for (const c of encounter.combatants) {
    const id = c.id;
    const decl = input.declarations[id];
    if (!decl || !isActive(states[id]) || addictDeclarationProblem(decl, c, options, letters, encounter) !== null) continue;
    const h = hesitationOf(decl);
    const free = busy.get(id) ?? 0;
    let p = h === 0 && free === 0 ? plain.get(c.side) : undefined;
    if (!p) p = placementOf(timings.of(c.side), h, free);
    if (h === 0 && free === 0) plain.set(c.side, p);
    plan.place(c, decl, options, p);
  }
  return plan.build(initiative);
}

/**
 * "Preparing actions": a prepared action (B) "becomes prepared at the time it
 * would normally resolve. Then, it's triggered when the case defined by the
 * player's declaration occurs" — the flow's `release` (flow/midround.ts).
 * RULING: the triggered action happens in the step being played (its entries
 * join it). "Regarding spellcasting, the start of spellcasting can be
 * prepared, but the finish cannot": a spell begun now goes off at this
 * segment + casting time (the first step of that segment, as a planned
 * casting), past the last segment it carries on; and "any damage taken on a
 * round causes the spell to be lost, even if the start of casting was
 * delayed!" (footnote 11): lost to damage from the start of the round, a
 * device never (footnote 20).
 */
/** The round's last segment: 10, or in the surprise the last surprise segment of anyone standing. */
function lastSegment(encounter: Encounter, round: number, surprise: SurpriseResult | null | undefined): number {
  if (round !== 0) return SEGMENTS_PER_ROUND;
  let last = 0;
  for (const c of encounter.combatants) if (c.hp > 0) last = Math.max(last, surprise?.surprised[c.id] ?? 0);
  return last;
}

/** Where an empty step of a segment goes (flow/held.ts): before everything else in it, as a planned casting's completion. */
function segmentStep(encounter: Encounter, q: { schedule: Schedule; surprise: SurpriseResult }, segment: number): { key: Key; where: { phase: string; segment: number } } | null {
  const round = q.schedule.round;
  if (segment < 1 || segment > lastSegment(encounter, round, q.surprise)) return null;
  return { key: keyOf(segment, -1, 0, 0, 0), where: { phase: round === 0 ? PHASE_SURPRISE : PHASE_RESOLUTION, segment } };
}

function releasePrepared(encounter: Encounter, q: MidRoundQuery & { declaration: Declaration }): ReleasePlan {
  const { schedule, declaration: decl } = q;
  const now = schedule.steps[q.step];
  const id = q.combatant;
  const reason = 'addictPreparedTriggered';
  if (decl.action !== 'spell' && decl.action !== 'device') {
    return { placed: [{ key: now.key, where: now, entry: stepEntry(id, 'action', decl.action, decl.target, reason) }], castings: [] };
  }
  const last = lastSegment(encounter, schedule.round, q.round.surprise);
  const castingTime = decl.castingTime ?? 1;
  const device = decl.action === 'device';
  const casting = `addict-${schedule.round}-${id}-prepared`;
  const entry: StepEntry = { combatant: id, kind: 'cast-begin', action: decl.action, casting };
  if (decl.target !== undefined) entry.target = decl.target;
  entry.reason = reason;
  const placed: Placed[] = [{ key: now.key, where: now, entry }];
  const off = (now.segment ?? 1) + castingTime;
  let complete: Key | null = null;
  if (off <= last) {
    // The first step of that segment, or an empty one before everything else in it (as Plan.build places castings).
    const first = schedule.steps.find((st) => st.segment === off);
    complete = first ? first.key : keyOf(off, -1, 0, 0, 0);
    placed.push({ key: complete, where: first ?? { phase: now.phase, segment: off }, entry: { ...entry, kind: 'cast-complete' } });
  }
  const vulnerable = device ? 'never' : 'start';
  return {
    placed,
    castings: [{
      id: casting, caster: id, spell: decl.spell ?? decl.action, device, castingTime, beganRound: schedule.round, remaining: complete === null ? off - last : 0,
      expends: !device, begin: now.key, complete, lossFrom: vulnerable, preventFrom: vulnerable,
    }],
  };
}

/* ============================================================ phase 9: bleeding */

function applyDamage(_c: Combatant, state: CombatantState, amount: number): DamageResult {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount === 0) return { state: { ...state }, wounds: 0 };
  if (amount < 0) {
    // Healing: hit points come back; a combatant brought above 0 wakes.
    const hp = state.hp - amount;
    const condition = state.condition === 'dying' && hp > 0 ? 'ok' : state.condition;
    return { state: unstaunched({ ...state, hp, condition }, hp >= 0), wounds: 0 };
  }
  // Phase 11 ruling: bleeding staunched stays staunched until a fresh wound, which bleeds again.
  const hit = hpDamage(state, amount, THRESHOLDS);
  return { state: unstaunched(hit.state, true), wounds: hit.wounds };
}

/** The state without its staunched mark, when `drop` (a fresh wound, or no longer below 0). */
function unstaunched(state: CombatantState, drop: boolean): CombatantState {
  if (drop && state.staunched !== undefined) delete state.staunched;
  return state;
}

/** Entering the combat with negative hit points is as damage leaves it: dying (it bleeds, phase 9) until -10, dead there. */
function startingCondition(c: Combatant): Condition {
  return conditionByHp(c.hp, THRESHOLDS, 'dying');
}

/**
 * "Any combatants who had negative hit points at the start of the round lose
 * 1 hit point. Anyone who hits -10 dies." Then any morale checks the GM calls.
 */
function endOfRound(encounter: Encounter, input: EndOfRoundInput, dice: Dice, options: AddictOptions): EndOfRoundResult {
  const end = new RoundEnd(input);
  for (const id of Object.keys(input.after)) {
    const now = input.after[id];
    const before = input.before[id];
    if (!before || !(before.hp < 0) || !(now.hp < 0)) continue; // a combatant healed to 0 or more stops bleeding
    if (now.condition === 'dead' || now.condition === 'fled') continue;
    if (now.staunched) continue; // phase 11: "bleeding can be staunched"
    const hp = now.hp - 1;
    end.bleed(id, 1, { ...now, hp, condition: hp <= THRESHOLDS.deathAt ? 'dead' : now.condition });
  }
  return moraleChecks(encounter, input.moraleRequests ?? [], end, dice, options, input.round);
}

/* =================================================== phase 10: recap */
// "The DM provides a narrative summary of the events of the round, making sure
// everyone understands the state of the battle." The engine gives the summary
// as data (src/rules/recap.ts, roundRecap: what each side did, what went off
// and what was lost, who fell, bled, broke, and who still stands), built from
// the round's timeline view so a player's recap shows only what the player may
// see; the narrative around it is the GM's.

/* ===================================== phase 11: reset or recovery */
// "1. If the combat has not been resolved, the procedure returns to Phase 6"
// (the flow's next round). "2. If the combat has been resolved, one turn
// passes while the survivors recover. … bleeding can be staunched, spells can
// be cast, prisoners can be tied up": whether it is resolved (a rout, a
// parley, flight) is the GM's to say; staunching is the GM's control (the
// flow's `staunch` input, at the end of a round): the combatant bleeds no more
// (phase 9) until a fresh wound. Spells and prisoners are the GM's.

/** A bleeding combatant's state with its bleeding staunched; a RulesError if it is not bleeding (not below 0, dead, gone, or staunched already). */
function staunch(c: Combatant, state: CombatantState): CombatantState {
  const bleeding = state.hp < 0 && state.condition !== 'dead' && state.condition !== 'fled' && !state.staunched;
  if (!bleeding) throw new RulesError({ key: 'AddictNotBleeding', data: { name: c.name, hp: state.hp } });
  return { ...state, expended: state.expended.slice(), staunched: true };
}

/* ============================================================== late joiners */

/**
 * The text has no late joiners. A newcomer with a declaration acts with its
 * side, as if it had declared in phase 6: its action lands in its side's
 * segment (+ hesitation) if that moment is still to come, in the step where
 * its side already acts with the same letter, else in a new step at the end of
 * that segment. Spells and devices begin in segment 1, so a caster who joins
 * mid-round begins next round; so does a newcomer whose side has no die.
 */
function lateJoin(encounter: Encounter, newcomer: Combatant, input: LateJoinInput, options: AddictOptions, letters: Letters): LateJoinResult {
  const schedule = input.schedule;
  const decl = input.declaration;
  const initiative = schedule.initiative;
  if (!decl || !initiative || schedule.round < 1 || initiative.sides[newcomer.side] === undefined) return { schedule };
  if (decl.action === 'spell' || decl.action === 'device' || decl.action === 'set-vs-charge') return { schedule };
  if (addictDeclarationProblem(decl, newcomer, options, letters, encounter) !== null) return { schedule };
  // Plan the newcomer alone against the round's dice, then splice its entries in.
  const states = { [newcomer.id]: { hp: newcomer.hp, condition: 'ok' as const, expended: [] } };
  const declarations = { [newcomer.id]: decl };
  const alone: RoundInput = { round: schedule.round, declarations, states, surprise: null, baseInitiative: input.baseInitiative, carryIn: [] };
  const solo = planRound({ ...encounter, combatants: [newcomer] }, alone, initiative, options, letters);
  const sideOf = new Map(encounter.combatants.map((c) => [c.id, c.side]));
  const steps = schedule.steps;
  // Steps up to the one being played have passed (all of them, if it is past the end).
  const now = input.currentStep >= steps.length ? Infinity : keyAt(schedule, input.currentStep);
  const opened: { segment: number; entry: StepEntry; key: Key }[] = []; // new steps, above every key of their segment
  const placed: Placed[] = [];
  for (const step of solo.steps) {
    const segment = step.segment ?? 0;
    const where = { phase: PHASE_RESOLUTION, segment };
    for (const entry of step.entries) {
      // The step of this segment where its side already acts with the same letter and kind (or one opened for it) …
      const same = (e: StepEntry) => e.kind === entry.kind && letters.sameLetter(e.action, entry.action);
      const joined =
        steps.find((s) => s.segment === segment && s.entries.some((e) => same(e) && sideOf.get(e.combatant) === newcomer.side)) ??
        opened.find((o) => o.segment === segment && same(o.entry));
      if (joined) {
        if (joined.key > now) placed.push({ key: joined.key, where, entry }); // else its side has already acted there
        continue;
      }
      // … else a new step at the end of the segment, unless that moment has passed.
      let key = keyOf(segment, -1, 0, 0, 0);
      for (const s of [...steps, ...opened]) if (s.segment === segment && s.key > key) key = s.key;
      if (++key <= now) continue;
      opened.push({ segment, entry, key });
      placed.push({ key, where, entry, join: false });
    }
  }
  return { schedule: splice(schedule, input.currentStep, placed) };
}

/* ============================================================== the procedure */

/** The procedure built from an action-letter table (the README default, or a GM's relabelling). */
/*
 * Movement on the map: beyond a charge's movement per segment (footnote 19, the charge placement above and
 * movement.ts's charges) the text sets no movement rate and no attack for moving, so no `movement` rules: a move
 * during the round (the `moved` input, flow/moved.ts) is the GM's, recorded only.
 */
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
    // Phase 6: "Once an action is declared, it cannot be changed, but it can be canceled".
    declarationsFinal: true,
    // "Preparing actions": a prepared action (B) "becomes prepared at the time it would normally resolve. Then, it's
    // triggered when the case defined by the player's declaration occurs": one attack, then or later in the round.
    // Its other out-of-sequence attack, a weapon set against a charge, is in the plan.
    attackRules: { held: 'wait' },
    validateDeclaration: (decl, combatant, options, encounter) => addictDeclarationProblem(decl, combatant, options, letters, encounter),
    rollSurprise: (encounter, dice, options) => rollSurprise(encounter, dice, options),
    planSurprise: (encounter, surprise, declarations, options) => planSurprise(encounter, surprise, declarations, options, letters),
    rollCombatInitiative: () => ({}),
    rollInitiative: (encounter, input, dice) => rollInitiative(encounter, input, dice),
    planRound: (encounter, input, initiative, options) => planRound(encounter, input, initiative, options, letters),
    applyDamage: (combatant, state, amount) => applyDamage(combatant, state, amount),
    canAct: (state) => isActive(state),
    startingCondition: (combatant) => startingCondition(combatant),
    endOfRound: (encounter, input, dice, options) => endOfRound(encounter, input, dice, options),
    // Phases 1, 3 and 11: what the GM records (the flow's reaction, distance and staunch inputs).
    gmPhases: { reaction: 'addict-reaction', distance: 'addict-distance', staunch: (combatant, state) => staunch(combatant, state) },
    flowInputs: { gmPhase: applyGmPhase, release, stop, holdSteps },
    openingMorale: (encounter, requests, states, dice, options) =>
      moraleChecks(encounter, requests, new RoundEnd({ round: 0, before: states, after: states, hits: [] }), dice, options, 0),
    // A check the GM calls in a round, made at once (rules revision 5): phase 4's check, now.
    moraleNow: (encounter, requests, states, dice, options, round) =>
      moraleChecks(encounter, requests, new RoundEnd({ round, before: states, after: states, hits: [] }), dice, options, round),
    lateJoin: (encounter, newcomer, input, _dice, options) => lateJoin(encounter, newcomer, input, options, letters),
    releaseHeld: (encounter, query) => releasePrepared(encounter, query),
    segmentStep,
    // Footnotes 9 and 19: a charge closes 1/10 of its charge movement a segment, from its start (the map's progress, charges.ts).
    chargeTiming: { movement: chargeMovementOf, start: addictChargeStart },
  };
}

export const addictProcedure: Procedure<AddictOptions> = makeAddictProcedure(DEFAULT_LETTERS);
