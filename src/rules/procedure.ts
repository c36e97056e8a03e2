/**
 * The one interface every combat procedure implements, and the schedule it
 * produces. A procedure decides; the one driver (flow/) walks the
 * schedule, applies damage and asks the procedure's data what it means.
 */
import type { Dice } from './dice';
import type {
  ActionKind,
  Combatant,
  CombatInjury,
  CombatantState,
  DamageType,
  Condition,
  Declaration,
  Problem,
  ProcedureId,
  Side,
} from './model';
import type { Key, Placed, PlannedCasting, Where } from './round';
import type { FlowState } from './flow/state';
import type { Applied } from './flow/transitions';
import type { WoundInput } from './flow/wounds';
import type { GmPhaseInput } from './flow/gm-phases';
import type { AttackGranted, AttackInput } from './flow/attack';
import type { MidRoundInput } from './flow/midround';
import type { MovementRules, Provoked } from './movement';
import type { MoraleMethod } from './morale-methods';

/** Everything fixed about a combat: who fights on which side. */
export interface Encounter {
  sides: Side[];
  combatants: Combatant[];
  /** addict phase 3: the encounter distance in feet, once the GM has recorded it (the gap a charge declared without one closes). */
  distance?: number;
  /** addict phase 1: the reaction the GM recorded for a side, by side id. */
  reactions?: Record<string, EncounterReaction>;
}

/**
 * A side's reaction as the GM records it (addict phase 1). The reaction table
 * is not in the text: the result is the GM's own words, with the roll made on
 * their table if any. `secret`: rolled privately (footnote 3), not shown to players.
 */
export interface EncounterReaction {
  result: string;
  roll?: number;
  secret?: boolean;
}

/* ------------------------------------------------------------------ options */

export type OptionValue = boolean | number | string;
export type ProcedureOptions = Record<string, OptionValue>;

/** Describes one option so the settings UI and scenario validation can use it. */
export interface OptionSpec {
  key: string;
  type: 'boolean' | 'number' | 'choice';
  choices?: readonly string[];
  min?: number;
  max?: number;
}

/* ----------------------------------------------------------------- surprise */

export interface SurpriseResult {
  /** The surprise die each side rolled (sides that did not roll are absent). */
  rolls: Record<string, number>;
  /**
   * Per combatant: surprise segments (segment procedures), or 1 for
   * "surprised for the surprise round / first round" (round procedures).
   * 0 = not surprised. Every combatant of the encounter has an entry.
   */
  surprised: Record<string, number>;
  /** 'segments': surprise segments before round 1; 'round': a whole round. */
  unit: 'segments' | 'round';
}

/* --------------------------------------------------------------- initiative */

export interface InitiativeResult {
  round: number;
  /** Die (or modified result) per side, for side initiative. */
  sides: Record<string, number>;
  /** Result per combatant, for individual initiative (counts). */
  individuals: Record<string, number>;
  /** The side that won, or null for a tie or where nobody "wins". */
  winner: string | null;
  /** Extra labels per side or combatant, e.g. { orcs: 'low' } in high-low. */
  labels?: Record<string, string>;
}

/* ----------------------------------------------------------------- schedule */

export type EntryKind =
  | 'action' // the declared action (first attack routine for attackers)
  | 'routine' // a further attack routine (routine >= 2)
  | 'cast-begin' // a spell or device begins
  | 'cast-complete' // a spell or device goes off
  | 'late-join'; // a late joiner's extra action (individual-speed)

export interface StepEntry {
  combatant: string;
  kind: EntryKind;
  action: ActionKind;
  /** Attack routine number, 1-based, for attacks. */
  routine?: number;
  target?: string;
  /** The casting this entry belongs to (cast-begin / cast-complete). */
  casting?: string;
  /** Why the entry is where it is, a localization key under TENSEG.Reason (optional). */
  reason?: string;
}

/**
 * One moment of the round. All entries of a step are simultaneous: damage
 * dealt in a step lands after every entry of the step has acted.
 */
export interface Step {
  /** A phase id from the procedure's `phases`. */
  phase: string;
  /**
   * The step's time key (round kit, src/rules/round/schedule.ts): steps are in
   * ascending key order and keys are distinct; a late joiner's entries are
   * spliced in by key.
   */
  key: number;
  /** Segment 1..10 (or surprise segment 1..n) for segment-timed steps. */
  segment?: number;
  /** Initiative count for count-ordered steps. */
  count?: number;
  entries: StepEntry[];
}

/**
 * A spell or device in progress. Step indices refer to the schedule of the
 * round it is in. Damage to the caster in step k, with k < completeStep
 * (or any k when completeStep is null):
 *   k >= lossFrom    → interrupted: the spell is lost (and expended if `expends`)
 *   k >= preventFrom → prevented: no casting this round, spell kept
 *   otherwise        → no effect
 * Damage in completeStep itself is simultaneous and does not stop it.
 * NEVER (round/schedule.ts, Number.MAX_SAFE_INTEGER) means "never": devices
 * are never interrupted. Schedules are plain JSON: no Infinity.
 */
export interface Casting {
  id: string;
  caster: string;
  spell: string;
  device: boolean;
  castingTime: number;
  /** Round in which the casting began. */
  beganRound: number;
  /** Step of this round in which it begins; -1 if it began in an earlier round. */
  beginStep: number;
  /** Step of this round in which it goes off; null if it carries into the next round. */
  completeStep: number | null;
  lossFrom: number;
  preventFrom: number;
  /** A lost spell is expended (removed from memory). */
  expends: boolean;
  /** Segments still to run at the end of this round (carry-over); 0 when it completes. */
  remaining: number;
  /**
   * The spell is still to be chosen at the caster's turn (d12-ascending II.C "A
   * spellcaster may decide on his initiative result what spell to cast, if
   * any"; the `choose` input, flow/choose.ts): until then `spell` is '',
   * `castingTime` 0, it does not expend, and it ends at its own begin step
   * (completeStep = beginStep, so it never carries into the next round).
   */
  choosing?: boolean;
}

export interface Schedule {
  procedure: ProcedureId;
  /** 0 for the surprise segments / surprise round, then 1, 2, … */
  round: number;
  steps: Step[];
  castings: Casting[];
  /** Castings that go on into the next round. */
  carryOut: Casting[];
  initiative?: InitiativeResult;
}

/* ------------------------------------------------------------ round inputs */

export interface RoundInput {
  round: number;
  /** Declarations by combatant id. Combatants without one do nothing. */
  declarations: Record<string, Declaration>;
  /** States at the start of the round (dead or fled combatants do not act). */
  states: Record<string, CombatantState>;
  /** The surprise result of this combat (round-based surprise affects round 1). */
  surprise: SurpriseResult | null;
  /** Per-combat initiative (individual-speed base initiative), if any. */
  baseInitiative: Record<string, number>;
  /** Castings carried in from the previous round. */
  carryIn: Casting[];
  /** Late joiners owed an extra action this round (individual-speed), by id → count. */
  owed?: Record<string, number>;
  /** The rules revision the combat started under (flow/state.ts, RULES_REVISION); absent: 0, the rules before. */
  rules?: number;
}

/* ------------------------------------------------------------------ damage */

export interface DamageResult {
  state: CombatantState;
  /** Wound points (or hp) actually lost, for morale triggers. */
  wounds: number;
}

/* ------------------------------------------------------------ end of round */

export type EndEvent =
  | { kind: 'bleed'; combatant: string; amount: number }
  | { kind: 'death'; combatant: string }
  | {
      kind: 'morale';
      combatant: string;
      trigger: string;
      roll: number;
      total: number;
      target: number;
      passed: boolean;
      /** The method the GM chose, where the procedure lets them (MoraleMethod); 'gm': no roll, the GM's own result. */
      method?: MoraleMethod;
      /** It failed and the combatant surrendered (the call's `surrender`), rather than routed. */
      surrendered?: true;
    };

export interface EndOfRoundInput {
  round: number;
  /** States at the start of the round and now. */
  before: Record<string, CombatantState>;
  after: Record<string, CombatantState>;
  /** Each hit taken this round, in order: target and wounds lost. */
  hits: { target: string; wounds: number; by?: string }[];
  /** Combatants the GM asks to check morale (intimidation, opening morale…), with the reason. */
  moraleRequests?: MoraleCheckRequest[];
}

// How the GM checks morale where a text gives no method (morale-methods.ts).
export { MORALE_METHODS, type MoraleMethod } from './morale-methods';

/** A morale check the GM calls for, as a procedure reads it. */
export interface MoraleCheckRequest {
  combatant: string;
  trigger: string;
  opposed?: number;
  /** The method, where the procedure lets the GM choose one (else the procedure's own, or its option). */
  method?: MoraleMethod;
  /** The score a roll must be at or under (else the combatant's morale score). */
  score?: number;
  /** The GM's own result, with method 'gm'. */
  passed?: boolean;
  /**
   * Should the check fail, the combatant surrenders rather than routs: the GM's choice with the call, where the
   * procedure's text gives surrender as an effect of failed morale (`Procedure.moraleSurrender`; rules revision 5).
   */
  surrender?: boolean;
}

export interface EndOfRoundResult {
  states: Record<string, CombatantState>;
  events: EndEvent[];
}

/* ---------------------------------------------------------------- late join */

export interface LateJoinInput {
  round: number;
  /** The schedule of the current round and the index of the step now being played. */
  schedule: Schedule;
  currentStep: number;
  declaration?: Declaration;
  baseInitiative: Record<string, number>;
}

export interface LateJoinResult {
  /** The schedule with the newcomer's step(s) inserted after currentStep, if it acts this round. */
  schedule: Schedule;
  /** Base initiative rolled for the newcomer (individual-speed). */
  baseInitiative?: number;
  /** An extra action owed next round at this count (individual-speed: base + modifier − 12). */
  owedNextRound?: number;
}

/* ----------------------------------------------------------- spell chosen */

export interface ChooseSpellInput {
  schedule: Schedule;
  /** The step being played: the casting's begin step. */
  currentStep: number;
  casting: string;
  spell: string;
  castingTime: number;
  declarations: Readonly<Record<string, Declaration>>;
  surprise: SurpriseResult;
}

/* ------------------------------------------------------------------ attacks */

/**
 * What allowed an attack at its moment (flow/attack.ts): an attack routine of
 * the schedule's current step, a held or prepared action released, or an
 * attack a procedure grants out of turn.
 */
export type AttackGrant = 'schedule' | 'held' | 'free-attack' | 'fleeing-attack' | 'opportunity' | 'riposte';

/** An attack made this round, as a procedure reads it. */
export interface AttackMade {
  c: string;
  target: string;
  /** The step being played when it was made. */
  step: number;
  as: AttackGrant;
}

/** An attack asked for outside the attacker's own attack entries: what the procedure is told. */
export interface OutOfTurnQuery {
  attacker: Combatant;
  target: Combatant;
  /** The attacker's state as it acts in this step. */
  state: CombatantState;
  /** The attacker is surprised at this moment. */
  surprised: boolean;
  /** The schedule being played and its current step, with each entry's outcome ('acts', 'begins', 'cannot-act', …). */
  schedule: Schedule;
  step: number;
  entries: readonly { entry: StepEntry; outcome: string }[];
  declarations: Readonly<Record<string, Declaration>>;
  /** Attacks made this round so far. */
  attacks: readonly AttackMade[];
  /**
   * What the target's moves provoked from the attacker this round (the `moved`
   * input, movement.ts), in order; absent or empty: none. A procedure grants
   * each one attack at most.
   */
  provoked?: readonly Provoked[];
}

/** What a procedure is told about the target of an attack, for the armor class the attack is rolled against. */
export interface ArmorClassQuery {
  target: Combatant;
  /** The target's armor class as its sheet gives it (descending, -10..10). */
  ac: number;
  /** The target is actually casting a spell now (flow/casting.ts castingNow). */
  casting: boolean;
}

/** A grant (with the castings of the attacker it breaks), a refusal, or null: nothing grants one now. */
export type OutOfTurnAnswer = { grant: AttackGrant; breaks?: string[] } | { problem: Problem } | null;

/** How a procedure holds attacks to its schedule beyond one attack per attack entry (flow/attack.ts). */
export interface AttackRules {
  /** An entry of this action holds the combatant's action for later: one attack, in its step or any later one of the round. */
  held?: ActionKind;
  /** An entry of this action is the combatant's turn to choose what it does: one attack in that step. */
  turn?: ActionKind;
  /** The most attacks a combatant in this state makes in one step, where the procedure limits it below its routines. */
  cap?(state: CombatantState): number | undefined;
  /** Attacks granted out of turn (free attacks, attacks of opportunity …), or null when nothing grants one now. */
  outOfTurn?(query: OutOfTurnQuery): OutOfTurnAnswer;
  /** The armor class an attack is rolled against now, where the procedure changes it (d12-ascending III.E); absent: the sheet's. */
  armorClass?(query: ArmorClassQuery): number;
}

/* ------------------------------------------------------ mid-round actions */

/**
 * What a mid-round action (flow/midround.ts) tells the procedure: the round
 * as it was planned (`round`: its input, with the states when it began) and
 * as it is being played (`schedule`, the step being played, the states now).
 */
export interface MidRoundQuery {
  round: RoundInput;
  initiative: InitiativeResult;
  schedule: Schedule;
  /** Index of the step being played: its entries' outcomes are decided. */
  step: number;
  states: Record<string, CombatantState>;
  /** The combatant acting. */
  combatant: string;
}

/** A delay announced now: the round's schedule with the delayer's entries placed anew (played steps keep their indices) and the states after it. */
export interface DelayPlan {
  schedule: Schedule;
  states: Record<string, CombatantState>;
}

/**
 * A held or prepared action released now as the action it becomes: its
 * entries at time keys (an entry at the key of the step being played joins
 * that step) and the casting it begins, if any, with its moments as keys and
 * its windows ('next': from the step being played on).
 */
export interface ReleasePlan {
  placed: Placed[];
  castings: PlannedCasting[];
}

/* ----------------------------------------------------------- the GM's phases */

/**
 * Phases whose result the GM records because the text gives no table for them
 * (flow/gm-phases.ts): each present where the procedure has that phase.
 */
export interface GmPhases {
  /** The phase id of the reaction check: the GM records a side's reaction (Encounter.reactions). */
  reaction?: string;
  /** The phase id of the distance check: the GM records the encounter distance in feet (Encounter.distance). */
  distance?: string;
  /** Recovery: the combatant's state once the GM staunches its bleeding; throws a RulesError when it is not bleeding. */
  staunch?(combatant: Combatant, state: CombatantState): CombatantState;
}

/* ------------------------------------------------------------------ wounds */

/** What a critical hit's Combat Injury check did: the d% against the Wound Points the hit dealt, and the injury received, if any. */
export interface InjuryCheck {
  roll: number;
  wounds: number;
  injury?: CombatInjury;
}

/** An injury the GM enters: a row of a table the text gives, or their own words where it gives none. */
export interface InjuryEntry {
  type?: DamageType;
  row?: number;
  side?: 'main' | 'off';
  text?: string;
}

/** An action being taken (an entry of the step being opened), for its cost. */
export interface ActionTaken {
  combatant: Combatant;
  /** The combatant's state as the step opens. */
  state: CombatantState;
  entry: StepEntry;
  /** The entry's outcome (flow EntryOutcome). */
  outcome: string;
  /** Actions this combatant took earlier in this round (counted only when asked). */
  earlier(): number;
}

/**
 * Wound Point rules the flow applies through the procedure (individual-speed,
 * seed 003 "Wound Points" and "Critical Hits and Injuries"): the cost of
 * acting while hurt, the Combat Injury check of a critical hit, the GM's Heal
 * check and the injuries the GM enters (flow/wounds.ts). Each refuses by
 * throwing a RulesError.
 */
export interface WoundRules<O extends ProcedureOptions = ProcedureOptions> {
  /** Is this entry, with this outcome, an action taken? */
  isAction(entry: StepEntry, outcome: string): boolean;
  /** What taking this action costs: the new state and the Wound Points lost, or null when it costs nothing. */
  actionCost(action: ActionTaken, options: O): DamageResult | null;
  /** A critical hit dealt `wounds` Wound Points: the Combat Injury check, or null where none is made. */
  criticalHit(combatant: Combatant, state: CombatantState, hit: { wounds: number; type?: DamageType }, dice: Dice, round: number, options: O): { state: CombatantState; check: InjuryCheck } | null;
  /** The GM's Heal check total: its TN and whether it stabilized the combatant. */
  heal(combatant: Combatant, state: CombatantState, total: number, options: O): { state: CombatantState; tn: number; passed: boolean };
  /** The GM enters a Combat Injury (completing one a check left for the GM to pick). */
  enterInjury(combatant: Combatant, state: CombatantState, entry: InjuryEntry, dice: Dice, round: number, options: O): { state: CombatantState; injury: CombatInjury };
}

/* ---------------------------------------------------------------- interface */

/** What a charge's start is read from (a flow state has it all): the round, its initiative and surprise, the encounter, the schedule. */
export interface ChargeStartQuery {
  round: number;
  initiative: InitiativeResult | null;
  surprise: SurpriseResult;
  encounter: Encounter;
  schedule: Schedule | null;
}

export interface Procedure<O extends ProcedureOptions = ProcedureOptions> {
  readonly id: ProcedureId;
  /** Default option values: the rulings of seeds/README.md. */
  readonly defaults: Readonly<O>;
  readonly optionSpecs: readonly OptionSpec[];
  /** Phase ids in the order they occur in a round (localized as TENSEG.Phase.<id>). */
  readonly phases: readonly string[];
  /** How steps are placed: by segment, by initiative count, or by phase only. */
  readonly timing: 'segments' | 'counts' | 'phases';
  /** The actions a combatant may declare under this procedure. */
  readonly actions: readonly ActionKind[];
  /**
   * A declaration made in a round's declarations cannot be changed, only
   * cancelled (addict, seed 004 phase 6). Absent: a declaration may be made
   * again while the round is declared.
   */
  readonly declarationsFinal?: boolean;
  /** Attacks beyond one per attack entry of the current step (held actions, attacks out of turn); absent: none. */
  readonly attackRules?: AttackRules;
  /** Wound Point rules the flow applies (individual-speed); absent: none. */
  readonly wounds?: WoundRules<O>;
  /** What a move on the map during a round is held to, and what it provokes (movement.ts; the `moved` input); absent: movement is the GM's, recorded only. */
  readonly movement?: MovementRules<O>;
  /**
   * A charge that closes segment by segment (addict, footnotes 9 and 19), as a charge's progress on the map reads it
   * (charges.ts, through the loaded procedure, so the part does not import the procedure's code): the charge movement
   * per round in feet, and the segment its charger starts moving in. Absent: a charge arrives all at once when it acts.
   */
  readonly chargeTiming?: {
    movement(c: Combatant, options: { chargeOutdoors: boolean }): number | undefined;
    start(q: ChargeStartQuery, decl: Declaration, c: Combatant): number | undefined;
  };

  /** null if legal, else the reason (key under TENSEG.Error). `encounter`, where known: what the encounter's phases recorded (addict's distance). */
  validateDeclaration(decl: Declaration, combatant: Combatant, options: O, encounter?: Encounter): Problem | null;

  /** Roll surprise once, at the start of combat. */
  rollSurprise(encounter: Encounter, dice: Dice, options: O): SurpriseResult;
  /**
   * The surprise segments (segment procedures) or surprise round (round 0),
   * or null when nobody gets to act before round 1 as a separate round.
   */
  planSurprise(
    encounter: Encounter,
    surprise: SurpriseResult,
    declarations: Record<string, Declaration>,
    options: O,
  ): Schedule | null;

  /** Initiative rolled once per combat (individual-speed base initiative); {} if none. */
  rollCombatInitiative(encounter: Encounter, combatants: Combatant[], dice: Dice, options: O): Record<string, number>;
  /** Initiative for one round. */
  rollInitiative(encounter: Encounter, input: RoundInput, dice: Dice, options: O): InitiativeResult;
  /** The round's schedule: ordered steps, castings and carry-over. */
  planRound(encounter: Encounter, input: RoundInput, initiative: InitiativeResult, options: O): Schedule;

  /** Apply damage to a combatant (hp, or Stress before Wound Points; a critical hit may bypass Stress). */
  applyDamage(
    combatant: Combatant,
    state: CombatantState,
    amount: number,
    options: O,
    detail?: { critical?: boolean; type?: DamageType },
  ): DamageResult;
  /** Can a combatant in this state act? */
  canAct(state: CombatantState): boolean;
  /**
   * The condition a combatant's hit points (Wound Points) put it in as it
   * enters the combat (at the start, or joining), by this procedure's own
   * damage rules: at 0 or below it may be unconscious or dying rather than
   * dead. Absent: dead at 0 hp or below (round kit, initialState).
   */
  startingCondition?(combatant: Combatant, options: O): Condition;

  /** End-of-round steps: bleeding, dying, morale. */
  endOfRound(encounter: Encounter, input: EndOfRoundInput, dice: Dice, options: O): EndOfRoundResult;

  /**
   * Morale checked before the first round (addict phase 4, opening morale),
   * for the combatants the GM names. Absent where the procedure has none.
   */
  openingMorale?(
    encounter: Encounter,
    requests: { combatant: string; trigger: string; opposed?: number }[],
    states: Record<string, CombatantState>,
    dice: Dice,
    options: O,
  ): EndOfRoundResult;

  /**
   * A morale check the GM calls, made at once (rules revision 5, issue 28:
   * "morale answers at once"): the combatants' states after it and an event a
   * check (a failure routs). Absent where the procedure checks morale only at
   * the end of the round (individual-speed, seed 003 Step 4: "at the end of each
   * round"): a call then waits for it.
   */
  /**
   * The text gives surrender as an effect of a failed morale check (d12-ascending, seed 002, "Withdrawal Tactics and
   * Effects of Failed Morale": "Surrender: You don't even see the point in running"): a call may ask for it
   * (`MoraleCheckRequest.surrender`). Absent: such a call is refused (rules revision 5 onwards; before, always).
   */
  readonly moraleSurrender?: true;

  moraleNow?(
    encounter: Encounter,
    requests: MoraleCheckRequest[],
    states: Record<string, CombatantState>,
    dice: Dice,
    options: O,
    round: number,
  ): EndOfRoundResult;

  /** What the GM records in the phases around the rounds (addict phases 1, 3, 11); absent where the procedure has none. */
  readonly gmPhases?: GmPhases;

  /**
   * The flow's handling of the inputs only this procedure has, carried by the
   * procedure so that their code is in its chunk: the Wound Point inputs
   * (flow/wounds.ts, individual-speed) and the GM's phases (flow/gm-phases.ts,
   * addict). Absent: the flow refuses them (not in this procedure).
   */
  readonly flowInputs?: FlowInputHandlers;

  /**
   * A morale check the GM calls for, refused before it is queued (a Problem),
   * or null when the procedure takes it. Absent: every request is taken.
   */
  moraleProblem?(combatant: Combatant, request: MoraleCheckRequest, options: O): Problem | null;

  /**
   * The spell a caster chooses at its turn for a casting planned as
   * `choosing` (d12-ascending II.C): the schedule with the casting placed
   * (its completion spliced in after the current step; played steps keep
   * their indices), or a RulesError. Absent: no procedure plans such castings.
   */
  chooseSpell?(encounter: Encounter, input: ChooseSpellInput, options: O): Schedule;

  /** A combatant joining in the middle of a round. */
  lateJoin(encounter: Encounter, newcomer: Combatant, input: LateJoinInput, dice: Dice, options: O): LateJoinResult;

  /**
   * A delay announced in the middle of the round (flow `delay`; high-low
   * "Delay"). `played`: the delayer's entries in the step being played count
   * as played (it has acted in it, or has none there). Refuses by throwing a
   * RulesError. Absent where the text has no such rule.
   */
  announceDelay?(encounter: Encounter, query: MidRoundQuery & { played: boolean }, options: O): DelayPlan;
  /**
   * A held or prepared action (AttackRules.held) released now as
   * `declaration` (flow `release`): where its entries and casting go. Refuses
   * by throwing a RulesError. Absent where the text holds no actions.
   */
  releaseHeld?(encounter: Encounter, query: MidRoundQuery & { declaration: Declaration }, options: O): ReleasePlan;
  /**
   * Where a step of segment `segment` of the round being played goes when
   * nothing is scheduled in that segment (its key and place), or null when the
   * round has no such segment (past the last surprise segment): the GM
   * stopping at an empty segment and a hold set to "release at segment N"
   * (flow/held.ts). Present where releaseHeld is.
   */
  segmentStep?(encounter: Encounter, query: { schedule: Schedule; surprise: SurpriseResult }, segment: number): { key: Key; where: Where } | null;
  /**
   * A caster electing not to complete a casting (flow `cancel`) loses the
   * spell "as if cast" (high-low). Absent or false: the spell is kept.
   */
  cancelLoses?(casting: Casting, options: O): boolean;
}

/** Options merged over a procedure's defaults, checked against its specs. */
export function resolveOptions<O extends ProcedureOptions>(
  procedure: Procedure<O>,
  given: Readonly<Record<string, unknown>> = {},
): { options: O; problems: Problem[] } {
  const problems: Problem[] = [];
  const options = { ...procedure.defaults } as O;
  for (const [key, value] of Object.entries(given)) {
    const spec = procedure.optionSpecs.find((s) => s.key === key);
    if (!spec) {
      problems.push({ key: 'UnknownOption', data: { option: key, procedure: procedure.id } });
      continue;
    }
    const ok =
      (spec.type === 'boolean' && typeof value === 'boolean') ||
      (spec.type === 'number' &&
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (spec.min === undefined || value >= spec.min) &&
        (spec.max === undefined || value <= spec.max)) ||
      (spec.type === 'choice' && typeof value === 'string' && (spec.choices ?? []).includes(value));
    if (!ok) {
      problems.push({ key: 'BadOption', data: { option: key, procedure: procedure.id, value: String(value) } });
      continue;
    }
    (options as ProcedureOptions)[key] = value as OptionValue;
  }
  return { options, problems };
}

/** The flow inputs a procedure's chunk handles (Procedure.flowInputs). */
export interface FlowInputHandlers {
  /** individual-speed: a Heal check, a Combat Injury the GM enters. */
  wound?(state: FlowState, input: WoundInput, dice: Dice, procedure: Procedure<ProcedureOptions>): Applied;
  /** individual-speed: the Wound Point an attack out of turn costs a hurt combatant. */
  chargeOutOfTurn?(state: FlowState, input: AttackInput, granted: Extract<AttackGranted, { ok: true }>, procedure: Procedure<ProcedureOptions>): void;
  /** addict: a side's reaction, the encounter distance, bleeding staunched. */
  gmPhase?(state: FlowState, input: GmPhaseInput, procedure: Procedure<ProcedureOptions>): Applied;
  /** high-low: a delay announced during group actions (flow/held.ts). */
  delay?(state: FlowState, input: Extract<MidRoundInput, { t: 'delay' }>, procedure: Procedure<ProcedureOptions>): Applied;
  /** segment-d6, addict: a held or prepared action released (flow/held.ts). */
  release?(state: FlowState, input: Extract<MidRoundInput, { t: 'release' }>, procedure: Procedure<ProcedureOptions>): Applied;
  /** segment-d6, addict: the GM stops at a segment where nothing is scheduled (flow/held.ts). */
  stop?(state: FlowState, input: Extract<MidRoundInput, { t: 'stop' }>, procedure: Procedure<ProcedureOptions>): Applied;
  /** segment-d6, addict: the round's schedule with a step at each segment a hold is set to be released at (flow/held.ts). */
  holdSteps?(state: FlowState, schedule: Schedule, procedure: Procedure<ProcedureOptions>): Schedule;
}
