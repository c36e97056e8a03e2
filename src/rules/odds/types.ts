/**
 * Odds (issue 14): an encounter played thousands of times under each
 * procedure with rolled dice and rolled damage, and what changes between
 * them. The shapes every part shares:
 *
 *  - OddsSetup: one encounter under one procedure, ready to play (the
 *    scenario runner builds it from a scenario file, src/sim/scenario; the
 *    Foundry layer from the combat on the tracker, src/documents/odds-setup.ts);
 *  - TrialResult: what one play of it gave (trial.ts, playTrial);
 *  - Tally: trial results counted (tally.ts), whole numbers only, so tallies
 *    of any split of the trials add up to the same figures (workers);
 *  - OddsReport: the chances and spreads a GM reads (report.ts), which the
 *    runner's table, its JSON, the SVG chart (chart.ts) and the Foundry
 *    dialog all render.
 *
 * Pure data: no Foundry global, no DOM, no Node module; dice through the
 * Dice interface, so the same code runs in Node worker threads and in a
 * browser Worker.
 */
import type { CreatureSize } from '../attack';
import type { Declaration, ProcedureId } from '../model';
import type { Encounter, ProcedureOptions } from '../procedure';

/** The default number of trials per procedure. */
export const DEFAULT_TRIALS = 10_000;
/** The default round cap: a fight still going after it is undecided. */
export const DEFAULT_MAX_ROUNDS = 10;

/**
 * What a fighter brings to a rolled attack beyond the engine's Combatant
 * (which carries the weapon's speed and length, Defense, Armour and attack
 * bonus for individual-speed, the routines per round).
 */
export interface FighterStats {
  /** Descending Armor Class, -10..10. Absent: 10 (no armour). */
  ac?: number;
  /** AAC0 as a stat block writes it ("17", "20*"; armor-class.ts parseAac0). Absent: "20". */
  aac0?: string;
  /** Its size, for the weapon's damage column (attack.ts damageColumn). Absent: medium. */
  size?: CreatureSize;
  /** Its weapon's damage vs small and medium ("1d8", "2-8"; dice.ts damageFormula), and vs large (absent: the same). */
  damage?: string;
  damageLarge?: string;
  /**
   * A monster's attack routines as its stat block writes them
   * (attack-routines.ts, "2 claws (1d4/1d4) and bite (1d8)"): used when it
   * has no weapon damage; each attack of a routine rolls to hit on its own,
   * and the routine's hits land together as one hit.
   */
  attacks?: string;
  /** Where it stands, in grid squares: "nearest living foe" measures from here. Absent: nearest is the first living foe in the encounter's order. */
  position?: { x: number; y: number };
}

/** What a spell does when it goes off (the scenario's `spells`); a spell without one only counts as gone off. */
export interface SpellEffect {
  /** Damage to each target, rolled per target ("1d4+1"). */
  damage?: string;
  /** How many foes it strikes: the declared target first, then the nearest living foes. Default 1. */
  targets?: number;
  /** How many foes (rolled, "2d4") it takes out of the fight (asleep, held): the declared target first, then the nearest; they leave the combat. */
  disables?: string;
}

/** One encounter under one procedure, ready to play. Plain JSON (it is posted to workers). */
export interface OddsSetup {
  /** The scenario's title, if any (shown in the report). */
  title?: string;
  procedure: ProcedureId;
  options: ProcedureOptions;
  encounter: Encounter;
  /**
   * The declarations of round 1, 2, …: round r plays entry min(r, length) - 1,
   * so the last set repeats (a scenario's declarations repeat each round).
   * Targets that have fallen are replaced by the nearest living foe.
   */
  declarations: Record<string, Declaration>[];
  /** The surprise segments' (round 0) declarations; absent: round 1's. */
  surpriseDeclarations?: Record<string, Declaration>;
  fighters: Record<string, FighterStats>;
  spells: Record<string, SpellEffect>;
  /** Rounds to play at most (DEFAULT_MAX_ROUNDS). */
  maxRounds: number;
  /** addict phases 1 and 3, as the scenario records them. */
  reactions?: { side: string; result: string; roll?: number; secret?: boolean }[];
  distance?: number;
}

/** How a declared casting's first attempt ended. */
export type CastingOutcome = 'off' | 'interrupted' | 'prevented' | 'not-cast';
export const CASTING_OUTCOMES: readonly CastingOutcome[] = ['off', 'interrupted', 'prevented', 'not-cast'];

/** What a first action's number counts: a segment (1..10), an initiative count, or the step's place in the round's order (1 = first). */
export type FirstActionUnit = 'segment' | 'count' | 'order';

/** What one play of the encounter gave. */
export interface TrialResult {
  /** The side left standing; null: undecided at the round cap, or no side left standing (every side out in the same step). */
  winner: string | null;
  /** True when the cap was reached with two or more sides still standing. */
  undecided: boolean;
  /** Regular rounds played (the surprise segments not counted), 1..maxRounds. */
  rounds: number;
  /** Per side: surprise as the side suffered it (the most of its members: segments, or 1 for a surprise round); 0 not surprised. */
  surprised: Record<string, number>;
  /** The side whose entry acts first in round 1; '' when two sides act together in that first step; null when nobody acted. */
  first: string | null;
  /** Each combatant's first action in round 1 (absent: it did not act then), in the procedure's FirstActionUnit. */
  firstAction: Record<string, number>;
  /** Each side's first action in round 1: its earliest member's (absent: none of them acted). */
  sideFirstAction: Record<string, number>;
  /** Each casting declared (caster and spell, in declaration order): how its first attempt ended. */
  castings: { caster: string; spell: string; outcome: CastingOutcome }[];
}

/** Trial results counted: whole numbers only (so any split of the trials, in any order, adds up to the same). */
export interface Tally {
  procedure: ProcedureId;
  trials: number;
  /** Wins by side id. */
  wins: Record<string, number>;
  undecided: number;
  /** No side left standing. */
  noneStanding: number;
  /** rounds[n]: trials that took n rounds (index 0 unused). */
  rounds: number[];
  /** First in round 1 by side id; '' for a tie; 'none' key for nobody acting. */
  first: Record<string, number>;
  /** Per combatant: trials by the number of its first action in round 1 (string keys: the number). Absent key: not acted. */
  firstAction: Record<string, Record<string, number>>;
  /** Per side: the same, for the side's earliest member. */
  sideFirstAction: Record<string, Record<string, number>>;
  /** Per casting key `${caster}\u0000${spell}`: trials by outcome. */
  castings: Record<string, Record<CastingOutcome, number>>;
  /** Per side: trials by how much it was surprised (string keys: the number; "0": not surprised). */
  surprised: Record<string, Record<string, number>>;
}

/** A value and how often it came (0..1). */
export interface Share {
  value: number;
  chance: number;
}

/** One procedure's figures, as a GM reads them: chances are 0..1. */
export interface ProcedureOdds {
  procedure: ProcedureId;
  trials: number;
  sides: {
    id: string;
    name: string;
    win: number;
    /** Acts first in round 1 (alone). */
    first: number;
    /** Surprised at all, and how much (SurpriseResult.unit). */
    surprised: number;
    surprise: Share[];
    /** The side's first action in round 1 (its earliest member's): how often at each number, its mean (null: never), and how often none acted. */
    firstAction: { dist: Share[]; mean: number | null; never: number };
  }[];
  undecided: number;
  noneStanding: number;
  /** Both (or more) sides act together in round 1's first step. */
  firstTogether: number;
  surpriseUnit: 'segments' | 'round';
  rounds: { mean: number; sd: number; min: number; median: number; p90: number; max: number };
  castings: { caster: string; name: string; spell: string; off: number; interrupted: number; prevented: number; notCast: number }[];
  firstActionUnit: FirstActionUnit;
  firstAction: { combatant: string; name: string; side: string; dist: Share[]; mean: number | null; never: number }[];
}

export interface OddsReport {
  title?: string;
  seed: number;
  /** Trials asked for per procedure. */
  trials: number;
  maxRounds: number;
  /** False when the run was stopped (Ctrl-C, Cancel): the figures are of the trials played. */
  complete: boolean;
  procedures: ProcedureOdds[];
}

/** A localizer: a key under TENSEG (full key) and its data, as Foundry's i18n.format. */
export type Localize = (key: string, data?: Record<string, string | number>) => string;
