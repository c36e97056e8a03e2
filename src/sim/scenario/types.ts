/** What a validated scenario is: everything the runner needs to play it through the flow. */
import type { DiePurpose } from '../../rules/dice';
import type { Combatant, Declaration, Problem, ProcedureId } from '../../rules/model';
import type { Encounter, Procedure, ProcedureOptions } from '../../rules/procedure';
import type { DamageEvent, ScriptedAttack, ScriptedBreak, ScriptedChoice, ScriptedDelay, ScriptedRetarget, ScriptedRelease, ScriptedWound } from '../../rules/play';
import type { MoraleCheckRequest } from '../../rules/procedure';
import type { FighterStats, SpellEffect } from '../../rules/odds/types';

export type ProcedureTable = Partial<Record<ProcedureId, Procedure<ProcedureOptions>>>;

/** Something the GM should know that is not an error; key is a full localization key. */
export interface ScenarioNote {
  key: string;
  data?: Record<string, string | number>;
  path?: string;
}

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

/** A morale check the GM calls for (the procedure's request), in the round it is called. */
export interface ScenarioMorale extends MoraleCheckRequest {
  round: number;
}

/** A spell a caster chooses at its turn (the `choose` section); `spell` null: none. */
export type ScenarioChoice = ScriptedChoice;

/** A caster elects not to complete a casting: by caster (any casting of theirs that round) or by casting id. */
export interface ScenarioCancel {
  round: number;
  combatant?: string;
  casting?: string;
}

/** addict phase 1: a side's reaction as the GM records it. */
export interface ScenarioReaction {
  side: string;
  result: string;
  roll?: number;
  secret?: boolean;
}

/** addict phase 11: the GM staunches a combatant's bleeding at the end of a round. */
export interface ScenarioStaunch {
  round: number;
  combatant: string;
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
  /** individual-speed: Heal checks (`heal`) and Combat Injuries (`injuries`) the GM enters. */
  wounds: ScriptedWound[];
  /** Mid-round actions (play.ts): delays announced, held actions released, castings broken, attacks. */
  delays: ScriptedDelay[];
  releases: ScriptedRelease[];
  breaks: ScriptedBreak[];
  attacks: ScriptedAttack[];
  /** addict phases 1, 3 and 11 (empty, absent where the file has none or the procedure played has no such phase). */
  reactions: ScenarioReaction[];
  distance?: number;
  staunch: ScenarioStaunch[];
  /** Spells chosen at the caster's turn (d12-ascending II.C). */
  choices: ScenarioChoice[];
  /** Choices of attackers whose target fell (the `retarget` section; without one the runner's default: play.ts defaultTarget). */
  retargets: ScriptedRetarget[];
  /**
   * Stats for rolled play (`npm run odds`), by combatant id (joiners too;
   * an empty object when it has none): AC, AAC0, size, weapon damage, attack
   * routines, position. Kept out of the Combatant the runner plays.
   */
  fighters: Record<string, FighterStats>;
  /** What each spell does when it goes off, by spell name (the file's `spells`): read by odds only. */
  spells: Record<string, SpellEffect>;
  notes: ScenarioNote[];
}

export type ValidationResult = { ok: true; scenario: ValidScenario } | { ok: false; problems: Problem[]; notes: ScenarioNote[] };

export interface ValidateOverrides {
  /** Run the same encounter under another procedure (--procedure). */
  procedure?: string;
  /** Play this many rounds instead (--rounds). */
  rounds?: number;
}

/**
 * Largest number of rounds a scenario may play (its `rounds`, any round an
 * entry names, --rounds). 100 rounds is far past any fight a GM writes down;
 * the cap (with MAX_COMBATANTS) keeps a hostile file from running for minutes.
 */
export const MAX_ROUNDS = 100;

/** Most combatants a scenario may have, joiners included (a large battle is a few dozen). */
export const MAX_COMBATANTS = 200;
