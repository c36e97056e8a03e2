/**
 * The combat flow's state: everything the one driver (transitions.ts) reads
 * and writes while a combat is played, as plain JSON. Foundry's Combat never
 * stores it: every client derives it by replaying the combat's log
 * (log.ts); the scenario runner and the tests drive it directly.
 *
 * Stages: declarations → resolution step by step → end of round → the next
 * round's declarations. Round 0 is the surprise segments (or surprise round)
 * where the procedure has them.
 */
import type { Combatant, CombatantState, Condition, DamageType, Declaration, Problem, ProcedureId } from '../model';
import type { FlowMove } from '../movement';
import type { FlowRetarget } from './retarget';
import type { AttackGrant, AttackMade, Casting, Encounter, EndEvent, InitiativeResult, InjuryCheck, MoraleCheckRequest, ProcedureOptions, Schedule, SurpriseResult } from '../procedure';

/**
 * Version of this state's shape. Stored with the log's start and snapshots (log.ts: engine versions, migrateState).
 * 3 (issue 27): a declaration may carry its combatant's sheet numbers (Declaration.sheet, frozen when it declared;
 * absent, as in every log before, a blow reads the sheet); an `attack` entry carries its blow (`b`, log.ts
 * BlowMark); a change of mind replaces the combatant's open declaration entry. Nothing a version 2 log stored
 * changes meaning: it replays to the same state.
 * 4 (issue 28): a `stop` entry (the GM stops at a segment where nothing is scheduled, flow/held.ts), a hold's
 * declaration may carry `releaseAt`; a `morale` request may carry `surrender` (d12-ascending); an engine before 4
 * would not know them, so it refuses such a log whole.
 * Nothing a version 3 log stored changes meaning.
 */
export const FLOW_VERSION = 4;

/**
 * The rules revision a combat started now follows, frozen in its start
 * (FlowStart.rules) so that a combat started earlier keeps the rules it
 * started under and its log replays as it was (log.ts: engine versions).
 * Absent: 0, the rules before. 1 (issue 9): a combatant enters the combat in
 * the condition the procedure's own damage rules give its hit points
 * (FlowStart.conditions, joiners too); a spell declaration carried on whose
 * last copy is still being cast in a casting carried in begins nothing
 * (transitions.ts, roundDeclarations); d12-ascending: a caster whose casting
 * carries in does nothing else that round (RoundInput.rules). 2: a
 * declaration carried on "same as last round" carries no hesitation (addict
 * phase 6: the delay is noted for the seconds a player hesitated in that
 * round's declarations; one who does not declare again has not hesitated).
 * 3 (issue 13): an addict charge that does not arrive this round has an
 * entry in the round's last segment (CHARGE_FALLS_SHORT) that does not attack;
 * d12-ascending's charge too far (III.D) compares with seed 002's standard
 * rate ("12” ... six squares", encumbrance.ts standardRateFeet), not the
 * movement as stored. 4 (issue 26): a combatant that leaves and comes back
 * (`join` with `was`) is the same combatant: it comes back in the condition it
 * left in (a dying one bleeds at the end of the round), with its declaration,
 * its initiative result, and this round's attacks, moves and mid-round actions
 * counted as its own; it may finish the step it left in (`left`). 5 (issue
 * 28): a morale check the GM calls is made at once where the procedure has
 * Procedure.moraleNow (`morale`), not at the end of the round; segment-d6 and
 * high-low check it too (their `moraleMethod`). The engine decides who can act
 * (acting.ts): a routed combatant may only flee, a surrendered one does
 * nothing; nobody strikes the dead, the fled or the surrendered; "same as last
 * round" carries no declaration aimed at a fallen target, nor a routed
 * combatant's other than flight; an attacker whose target fell waits for its
 * owner's choice (the `retarget` input, retarget.ts).
 */
export const RULES_REVISION = 5;

export type FlowStage = 'declare' | 'resolve' | 'end-of-round';

export type EntryOutcome = 'acts' | 'begins' | 'goes-off' | 'cannot-act' | 'interrupted' | 'prevented' | 'cancelled';

export type CastingStatus = 'pending' | 'done' | 'interrupted' | 'prevented' | 'cancelled';

/** A morale check the GM calls for (intimidation, overwhelming fear…), with the method where the procedure lets the GM choose one. */
export type MoraleRequest = MoraleCheckRequest;

export type { AttackGrant };

/** An attack made this round (the `attack` input): who, at whom, in which step, on what grant (AttackMade), with what. */
export interface FlowAttack extends AttackMade {
  weapon?: string;
  routine?: number;
}

/** A hit taken this round, where it landed and what it did. */
export interface FlowHit {
  /** Step it landed in: the step being played, 0 before the round is planned, steps.length after the last step. */
  step: number;
  target: string;
  amount: number;
  /** Wound points (or hp) actually lost, for morale triggers. */
  wounds: number;
  by?: string;
  critical?: boolean;
  /** The damage type of the hit (individual-speed: marked on the wound, and the Combat Injury table a critical hit rolls on). */
  type?: DamageType;
  /** individual-speed: the Combat Injury check of a critical hit. */
  injury?: InjuryCheck;
  /** The Wound Point a hurt combatant pays for acting (individual-speed; `by` is itself). */
  strain?: boolean;
  /** The target's condition before and after. */
  before: Condition;
  after: Condition;
}

export interface FlowInterruption {
  round: number;
  step: number;
  casting: string;
  caster: string;
  spell: string;
  outcome: 'interrupted' | 'prevented';
  expended: boolean;
  /** Broken by the GM (the `break` input), not by a hit: why (flow/midround.ts); 'moved': its caster moved and forfeited its action (the `moved` input). */
  broken?: BreakCause | 'moved';
}

/** Why the GM breaks a casting no hit broke: a failed save, the caster's movement or ability to act impeded, jostling (seeds 001, 002), or another cause. */
export const BREAK_CAUSES = ['save', 'impeded', 'jostled', 'other'] as const;
export type BreakCause = (typeof BREAK_CAUSES)[number];

/**
 * A mid-round action taken this round (flow/midround.ts), with the step being
 * played then: a delay announced, a held or prepared action released (as the
 * declaration it became), a casting given up that lost its spell.
 */
/** What a combatant that left had (FlowState.left). */
export interface LeftCombatant {
  condition: Condition;
  declaration?: Declaration;
  final?: 'declared' | 'cancelled';
}

export type MidRoundRecord =
  | { t: 'delay'; c: string; step: number }
  | { t: 'release'; c: string; step: number; d: Declaration }
  | { t: 'cancel'; c: string; step: number; casting: string; spell: string };

export interface FlowState {
  /** FLOW_VERSION of this shape. */
  v: number;
  procedure: ProcedureId;
  options: ProcedureOptions;
  encounter: Encounter;
  stage: FlowStage;
  /** 0 = the surprise segments (or surprise round), then 1, 2, … */
  round: number;
  /** The combat's first round: 0 when it had a surprise phase, else 1. */
  firstRound: number;
  /** Index of the step being played (resolution), steps.length once the last is done. */
  step: number;
  surprise: SurpriseResult;
  /** Initiative rolled once per combat (individual-speed base initiative). */
  baseInitiative: Record<string, number>;
  /** What each combatant declared for this round ("same as last round" carries them on). */
  declarations: Record<string, Declaration>;
  initiative: InitiativeResult | null;
  schedule: Schedule | null;
  /** Every combatant's state now. */
  states: Record<string, CombatantState>;
  /** The status of each casting of the round. */
  status: Record<string, CastingStatus>;
  /** States when the round began (the end of the round compares with them); empty while declaring. */
  roundStart: Record<string, CombatantState>;
  /** Outcome of each entry of each step played so far this round (outcomes[k][i]: steps[k].entries[i]). */
  outcomes: EntryOutcome[][];
  hits: FlowHit[];
  interruptions: FlowInterruption[];
  /** Combatants that joined while this round was played, and the step being played then. */
  joins: { combatant: string; step: number }[];
  /**
   * Castings carried into the round being declared or played; once its steps
   * are played (end of round), every casting running past it, those still
   * pending (`status`) carrying on.
   */
  carry: Casting[];
  /** Late joiners owed an extra action next round, at this count (individual-speed). */
  owed: Record<string, number>;
  /** Castings their casters elected not to complete, this round. */
  cancelled: string[];
  /** Morale checks waiting for the end of the round. */
  moraleRequests: MoraleRequest[];
  /** Opening morale (addict phase 4), once rolled. */
  opening: EndEvent[] | null;
  /**
   * From rules revision 5: the morale checks made at once this round (the GM's calls, Procedure.moraleNow), in
   * order, each with the stage and step it was made in. Absent until the first; cleared when the next round is
   * declared (a check called while a round is declared belongs to that round).
   */
  morale?: MoraleMade[];
  /** What the end of this round did (bleeding, deaths, morale), once it is over. */
  end: EndEvent[] | null;
  /**
   * Attacks made this round (the `attack` input), in order. Absent until the
   * first; cleared when a round begins and when the next is declared.
   */
  attacks?: FlowAttack[];
  /**
   * Procedures whose declarations are final (addict, seed 004: "Once an action
   * is declared, it cannot be changed, but it can be canceled"): who declared
   * in this round's declarations ('declared') and who cancelled such a
   * declaration ('cancelled'). A declaration carried on from last round ("same
   * as last round") is not one of them. Absent until the first; cleared when
   * the round begins.
   */
  finalDeclarations?: Record<string, 'declared' | 'cancelled'>;
  /**
   * Mid-round actions this round (flow/midround.ts), in order. Absent until
   * the first; cleared when a round begins and when the next is declared.
   */
  midRound?: MidRoundRecord[];
  /**
   * Moves on the map this round (the `moved` input, movement.ts), in order:
   * the feet each combatant moved, its forfeit (ruling 'forfeit'), what each
   * move provoked. Absent until the first; cleared when a round begins and
   * when the next is declared.
   */
  moves?: FlowMove[];
  /**
   * From rules revision 5: the choices of attackers whose target fell this round (the `retarget` input,
   * retarget.ts), in order. Absent until the first; cleared when a round begins and when the next is declared.
   */
  retargets?: FlowRetarget[];
  /** Combatants that left and were taken over by a joiner (`join` with `was`): id that left → id of the joiner. Absent until the first. */
  takenOver?: Record<string, string>;
  /**
   * From rules revision 4: what a combatant that left had when it left (its state says 'fled'), for its
   * return (`join` with `was`): its condition, its declaration of the round and whether it was final.
   * Absent until the first.
   */
  left?: Record<string, LeftCombatant>;
  /** The rules revision the combat started under (RULES_REVISION, FlowStart.rules); absent: 0, the rules before. */
  rules?: number;
}

/** A morale check made at once (rules revision 5): its event, and when in the round it was made. */
export type MoraleMade = Extract<EndEvent, { kind: 'morale' }> & { stage: FlowStage; step?: number };

export type FlowResult<T = unknown> = { ok: true; state: FlowState; detail?: T } | { ok: false; problem: Problem };

/** What starting a combat decided: the rest of the first state follows from it (flowFrom). */
export interface FlowStart {
  procedure: ProcedureId;
  options: ProcedureOptions;
  encounter: Encounter;
  surprise: SurpriseResult;
  baseInitiative: Record<string, number>;
  /** 0 when there is a surprise phase before round 1, else 1. */
  round: number;
  /**
   * The rules revision the combat follows (RULES_REVISION when it started).
   * Absent in combats started before the first: they keep the rules before.
   */
  rules?: number;
  /**
   * From rules revision 1: the condition each combatant starts in where it is
   * not 'ok': the one it was given (Combatant.condition), else the one the
   * procedure's own damage rules give its hit points
   * (Procedure.startingCondition: at 0 or below it may be unconscious or
   * dying, not dead). Absent in combats started before: there 0 hp or below
   * started dead.
   */
  conditions?: Record<string, Condition>;
}

export function refuse(key: string, data?: Problem['data']): { ok: false; problem: Problem } {
  return { ok: false, problem: data ? { key, data } : { key } };
}

export function combatantOf(state: FlowState, id: string): Combatant | undefined {
  return state.encounter.combatants.find((c) => c.id === id);
}

export function nameOf(state: FlowState, id: string): string {
  return combatantOf(state, id)?.name ?? id;
}
