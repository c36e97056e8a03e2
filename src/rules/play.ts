/**
 * A written-down combat played through the one driver (flow/transitions.ts):
 * the declarations of each round, damage at given moments, combatants
 * joining, casters giving up, morale checks. The scenario runner and the
 * engine's tests use it; it decides no rule, it only says when each input
 * goes in and reads back what the flow made of it.
 */
import type { Dice } from './dice';
import type { Combatant, CombatantState, DamageType, Declaration, Problem } from './model';
import { RulesError } from './model';
import type { Casting, EndEvent, EndOfRoundResult, Encounter, InitiativeResult, Procedure, ProcedureOptions, Schedule, Step, StepEntry, SurpriseResult } from './procedure';
import { copyState } from './round';
import {
  applyInput,
  flowFrom,
  FLOW_VERSION,
  RecordingDice,
  startFlow,
  type Applied,
  type BreakCause,
  type EntryOutcome,
  type FlowInput,
  type FlowStart,
  type FlowState,
  type InputEntry,
  type LogEntry,
  type MoraleRequest,
  type WoundDetail,
  type WoundInput,
  choosingCasting,
  actionRefusedBy,
  aimOf,
  cannotActReason,
  engineDecidesActing,
  fallenReason,
  waitingTarget,
  spellAvailable,
  ACT_REFUSED_KEYS,
  type CannotActReason,
  type RetargetChoice,
} from './flow';
import { openStep } from './flow/step';
import { fallenBy } from './flow/read';
import { timeline, type TimelineView } from './timeline';
import { copyJson } from './journal';

/** Damage that happens during a round (scripted, or reported by the table). */
export interface DamageEvent {
  round: number;
  target: string;
  amount: number;
  /** Dealt by this combatant when it acts; `routine` picks its n-th attack that round (default 1). */
  by?: string;
  routine?: number;
  /** Dealt by the spell of `by` when it goes off. */
  spell?: boolean;
  /** A critical hit (individual-speed: bypasses Stress, and may give a Combat Injury). */
  critical?: boolean;
  /** Its damage type (individual-speed: marked on the wound; the Combat Injury table of a critical hit). */
  type?: DamageType;
  /** Or at a fixed place in the round: a step index, or the first step at a segment or count. */
  step?: number;
  segment?: number;
  count?: number;
}

/**
 * When a mid-round action of a script happens in its round: at the step with
 * this index, at the first step at or after a segment or an initiative count,
 * or at the first step of a phase (exactly one is given). It happens before
 * that step's scripted damage lands.
 */
export interface Moment {
  step?: number;
  segment?: number;
  count?: number;
  phase?: string;
}

/** A delay announced (high-low). */
export interface ScriptedDelay extends Moment {
  round: number;
  combatant: string;
}

/** A held or prepared action released as `declaration` (segment-d6, addict). */
export interface ScriptedRelease extends Moment {
  round: number;
  combatant: string;
  declaration: Declaration;
}

/** The GM breaks a casting: by id, or every casting of a combatant still under way. */
export interface ScriptedBreak extends Moment {
  round: number;
  casting?: string;
  combatant?: string;
  why?: BreakCause;
}

/** An attack (in its step, or out of turn where the procedure grants one), and the damage it does (none: a miss). */
export interface ScriptedAttack extends Moment {
  round: number;
  attacker: string;
  target: string;
  weapon?: string;
  routine?: number;
  damage?: number;
  critical?: boolean;
  /** individual-speed: the damage type of the blow (the Combat Injury table of a critical hit). */
  type?: DamageType;
}

/** The lists of mid-round actions of a script, in the order they are tried within a step. */
export const MID_ROUND_LISTS = ['delays', 'releases', 'breaks', 'attacks'] as const;
export type MidRoundList = (typeof MID_ROUND_LISTS)[number];

export interface CombatScript {
  /** Number of regular rounds to play. */
  rounds: number;
  /**
   * Declarations for a round (0 = surprise segments / surprise round): the
   * whole set (a combatant it leaves out does nothing), or null for "same as
   * last round" (the flow carries on what can still be done).
   */
  declarations(round: number, state: FlowState): Record<string, Declaration> | null;
  damage?: DamageEvent[];
  /** Morale checks the GM calls for (round 0: opening morale, before surprise). */
  moraleRequests?: (MoraleRequest & { round: number })[];
  /** Combatants that join during a round, before the step with this index (step 0: before initiative). */
  joins?: { round: number; step: number; combatant: Combatant; declaration?: Declaration }[];
  /** Castings their casters elect not to complete: a casting by id, or every casting of a combatant that round. */
  cancelled?: { round: number; casting?: string; combatant?: string }[];
  /** individual-speed: Heal checks and Combat Injuries the GM enters (flow/wounds.ts). */
  wounds?: ScriptedWound[];
  /** Mid-round actions, each at its moment of its round. */
  delays?: ScriptedDelay[];
  releases?: ScriptedRelease[];
  breaks?: ScriptedBreak[];
  attacks?: ScriptedAttack[];
  /** What the GM records before the first round (addict phases 1 and 3): each side's reaction, the encounter distance in feet. */
  reactions?: { side: string; result: string; roll?: number; secret?: boolean }[];
  distance?: number;
  /** Bleeding the GM staunches at the end of a round (addict phase 11). */
  staunch?: { round: number; combatant: string }[];
  /**
   * What an attacker whose target fell chooses (the `retarget` input, rules revision 5): in a round, at the moment
   * its blow comes (or, for a declaration "same as last round" would carry at a fallen target, when the round is
   * declared). Without one the player chooses the first opponent still standing (defaultTarget).
   */
  retargets?: ScriptedRetarget[];
  /**
   * Spells chosen at the caster's turn (d12-ascending II.C: declared as a
   * spell with no spell named): given when the step its casting begins in
   * is played, before that step's damage; `spell` null chooses none.
   */
  choices?: ScriptedChoice[];
}

/** An attacker's choice once its target fell (flow/retarget.ts): another target, hold, or nothing. */
export interface ScriptedRetarget {
  round: number;
  combatant: string;
  choice: RetargetChoice;
  target?: string;
}

/** A fallen target replaced in a round (RoundLog.retargets): at a step, or (step null) a declaration re-aimed as the round was declared. */
export interface RetargetDone {
  step: number | null;
  combatant: string;
  /** The fallen target. */
  from: string;
  choice: RetargetChoice;
  target?: string;
  /** Chosen by the script; false: the player's default (defaultTarget). */
  scripted: boolean;
}

/** A spell a caster chooses at its turn (the `choose` input), in a round. */
export interface ScriptedChoice {
  round: number;
  combatant: string;
  spell: string | null;
  castingTime?: number;
}

/**
 * A Heal check or a Combat Injury the GM enters in a round: with the damage
 * of the step `step`, or of the first step at `count` or later; with neither,
 * after the round's last step (before its end: a Dying creature stabilized
 * then does not lose its Wound Point).
 */
export interface ScriptedWound {
  round: number;
  step?: number;
  count?: number;
  input: WoundInput;
  /** Where the script wrote it, for a refusal's path (`heal[0]`). */
  path?: string;
}

export interface StepLog {
  index: number;
  phase: string;
  segment?: number;
  count?: number;
  entries: { entry: StepEntry; outcome: EntryOutcome }[];
  /** `strain`: the Wound Point a hurt combatant paid for acting (individual-speed), not a blow. */
  damage: { target: string; amount: number; wounds: number; by?: string; strain?: boolean }[];
  interruptions: { casting: string; caster: string; spell: string; outcome: 'interrupted' | 'prevented'; expended: boolean }[];
  fallen: { combatant: string; condition: CombatantState['condition'] }[];
}

export interface RoundLog {
  round: number;
  initiative?: InitiativeResult;
  schedule: Schedule;
  steps: StepLog[];
  /** Damage whose moment never came (an attacker that could not act, no such step). */
  unapplied: DamageEvent[];
  end?: EndOfRoundResult;
  states: Record<string, CombatantState>;
  /** Castings still running into the next round. */
  carryOut: Casting[];
  /** Combatants that joined during the round, and the step being played then. */
  joins: { combatant: string; step: number }[];
  /** The round as a GM reads it (src/rules/timeline.ts). */
  view: TimelineView;
  /** Last round's declarations "same as last round" did not carry into this one though their combatant can still act (a spell with no copy left). */
  notCarried: { combatant: string; declaration: Declaration }[];
  /** individual-speed: the Heal checks and injuries the GM entered this round, each after the step it came with (null: after the last step). */
  wounds?: { step: number | null; combatant: string; detail: WoundDetail }[];
  /** Fallen targets replaced this round (rules revision 5): the script's choice, else the player's default. */
  retargets?: RetargetDone[];
  /** Last round's declarations struck because their combatant may no longer take them (rules revision 5: routed, surrendered). */
  struck?: { combatant: string; declaration: Declaration; reason: CannotActReason }[];
}

export interface CombatLog {
  procedure: string;
  surprise: SurpriseResult;
  surpriseRound: RoundLog | null;
  openingMorale: EndOfRoundResult | null;
  baseInitiative: Record<string, number>;
  rounds: RoundLog[];
  states: Record<string, CombatantState>;
  /** Declarations the flow would not take (a combatant that can no longer act, a spell with no copy left), by round. */
  refused: { round: number; combatant: string; problem: Problem }[];
  /** The flow's state at the end, and the round as a GM reads it then. */
  state: FlowState;
  view: TimelineView;
  /** The combat as its log (flow/log.ts): the start, then every input with its dice. Replaying it gives `state`. */
  entries: LogEntry[];
  /** Mid-round actions of the script not done: refused by the flow (with why), or whose moment never came (no problem). */
  notDone: { list: MidRoundList; index: number; round: number; problem?: Problem }[];
}

/** Does a mid-round action of the script happen at step k? */
function happensAt(m: Moment, step: Step, k: number): boolean {
  if (m.step !== undefined) return m.step === k;
  if (m.segment !== undefined) return step.segment !== undefined && step.segment >= m.segment;
  if (m.count !== undefined) return step.count !== undefined && step.count >= m.count;
  return m.phase !== undefined && step.phase === m.phase;
}

function isAttackEntry(e: StepEntry): boolean {
  return e.kind === 'action' || e.kind === 'routine' || e.kind === 'late-join';
}

/** The round that just ended, read back from the flow (a copy: the flow goes on changing its own). */
export function roundLog(state: FlowState, unapplied: DamageEvent[] = []): RoundLog {
  const s = copyJson(state);
  const schedule = s.schedule as Schedule;
  const steps: StepLog[] = schedule.steps.map((step, k) => {
    const hits = s.hits.filter((h) => h.step === k);
    const log: StepLog = {
      index: k,
      phase: step.phase,
      entries: step.entries.map((entry, i) => ({ entry, outcome: s.outcomes[k]?.[i] ?? 'cannot-act' })),
      damage: hits.map((h) => {
        const d: StepLog['damage'][number] = h.by === undefined ? { target: h.target, amount: h.amount, wounds: h.wounds } : { target: h.target, amount: h.amount, wounds: h.wounds, by: h.by };
        if (h.strain) d.strain = true;
        return d;
      }),
      interruptions: s.interruptions
        .filter((i) => i.step === k)
        .map(({ casting, caster, spell, outcome, expended }) => ({ casting, caster, spell, outcome, expended })),
      fallen: fallenBy(hits),
    };
    if (step.segment !== undefined) log.segment = step.segment;
    if (step.count !== undefined) log.count = step.count;
    return log;
  });
  const out: RoundLog = {
    round: s.round,
    schedule,
    steps,
    unapplied,
    states: s.states,
    carryOut: s.stage === 'end-of-round' ? s.carry.filter((c) => s.status[c.id] === 'pending') : s.carry,
    joins: s.joins,
    view: timeline(s),
    notCarried: [],
  };
  if (s.initiative) out.initiative = s.initiative;
  // The surprise segments have no end of round.
  // The GM's morale calls the script makes after the last step, checked at once (rules revision 5), are told with the end.
  const checked: EndEvent[] = (s.morale ?? []).map(({ stage: _s, step: _k, ...e }) => e);
  if (s.end && s.round > 0) out.end = { states: s.states, events: [...checked, ...s.end] };
  return out;
}

/** Feeds a script to the flow, one input at a time, and reads back what happened. */
class Player {
  readonly refused: CombatLog['refused'] = [];
  /** Declarations "same as last round" could not carry into the round being declared. */
  notCarried: RoundLog['notCarried'] = [];

  constructor(
    readonly state: FlowState,
    private readonly procedure: Procedure<ProcedureOptions>,
    private readonly dice: Dice,
    private readonly script: Pick<CombatScript, 'damage' | 'joins' | 'moraleRequests' | 'cancelled' | 'staunch' | 'choices' | 'wounds' | 'retargets' | MidRoundList>,
  ) {}

  /** The Heal checks and injuries entered in the round being played. */
  woundsDone: NonNullable<RoundLog['wounds']> = [];
  /** Fallen targets replaced in the round being played (and as it was declared). */
  retargetsDone: RetargetDone[] = [];
  /** The script's retargets used. */
  private readonly retargetsUsed = new Set<number>();

  /**
   * The player's default for an attacker whose target fell, where the script
   * gives no choice: the first opponent still standing (able to act, neither
   * routed nor fallen) in the encounter's order — the odds' "nearest foe"
   * where nobody has a position (odds/nearest.ts), so a scenario and its odds
   * play the same fight. None standing: nothing.
   */
  defaultTarget(id: string): string | undefined {
    const state = this.state;
    const me = state.encounter.combatants.find((c) => c.id === id);
    if (!me) return undefined;
    const foe = state.encounter.combatants.find((c) => c.side !== me.side && cannotActReason(state.states[c.id], this.procedure, true) === null);
    return foe?.id;
  }

  /** The script's choice for `id` in `round` (used once), else the default. */
  private choiceFor(round: number, id: string): { choice: RetargetChoice; target?: string; scripted: boolean } {
    const list = this.script.retargets ?? [];
    for (let i = 0; i < list.length; i++) {
      const x = list[i];
      if (this.retargetsUsed.has(i) || x.round !== round || x.combatant !== id) continue;
      this.retargetsUsed.add(i);
      return x.choice === 'target' ? { choice: 'target', target: x.target, scripted: true } : { choice: x.choice, scripted: true };
    }
    const target = this.defaultTarget(id);
    return target !== undefined ? { choice: 'target', target, scripted: false } : { choice: 'none', scripted: false };
  }

  /** An attacker whose target fell, its blow come: its choice given to the flow (a refused scripted choice stops the play). */
  retargetNow(round: number, id: string): void {
    const from = waitingTarget(this.state, id);
    if (from === undefined) return;
    const chosen = this.choiceFor(round, id);
    const input: FlowInput = chosen.choice === 'target' ? { t: 'retarget', c: id, choice: 'target', target: chosen.target as string } : { t: 'retarget', c: id, choice: chosen.choice };
    this.must(input, `retargets, round ${round}, ${id}`);
    const done: RetargetDone = { step: this.state.step, combatant: id, from, choice: chosen.choice, scripted: chosen.scripted };
    if (chosen.target !== undefined) done.target = chosen.target;
    this.retargetsDone.push(done);
  }

  /**
   * Whom a scripted blow of `by` lands on. Rules revision 5: nobody is struck
   * after falling; a blow written at a target that fell lands on whom its
   * attacker aims at now (the target it turned to), or nowhere (it held or
   * chose nothing): undefined.
   */
  landsOn(ev: DamageEvent): string | undefined {
    const state = this.state;
    if (ev.by === undefined || !engineDecidesActing(state) || fallenReason(state.states[ev.target]) === null) return ev.target;
    const aim = aimOf(state, ev.by);
    return aim !== undefined && fallenReason(state.states[aim]) === null ? aim : undefined;
  }

  /** Mid-round actions not done (refused, or their moment never came). */
  readonly notDone: CombatLog['notDone'] = [];
  /** Mid-round actions tried, by list and index. */
  private readonly tried = new Set<string>();

  /** Every input carried out, with the dice it rolled: the combat's log after its start entry. */
  readonly entries: InputEntry[] = [];

  give(input: FlowInput): Applied {
    const dice = new RecordingDice(this.dice);
    const done = applyInput(this.state, input, dice, this.procedure);
    if (done.ok) {
      const entry: InputEntry = copyJson(input);
      if (dice.totals.length > 0) entry.r = dice.totals;
      this.entries.push(entry);
    }
    return done;
  }

  /** An input the script cannot do without: a refusal stops the play (a RulesError). */
  must(input: FlowInput, path: string): void {
    const done = this.give(input);
    if (!done.ok) throw new RulesError({ ...done.problem, path: done.problem.path ?? path });
  }

  /** A round's declarations: a whole set replaces the last round's (null: same as last round). */
  declare(round: number, set: Record<string, Declaration> | null): void {
    if (set === null) {
      this.reaim(round);
      return;
    }
    // A whole new set: what "same as last round" would have carried does not matter.
    this.notCarried = [];
    this.fallenAims = [];
    const state = this.state;
    for (const id of Object.keys(state.declarations)) if (!set[id]) this.give({ t: 'withdraw', c: id });
    for (const [id, d] of Object.entries(set)) {
      let done = this.give({ t: 'declare', d: { ...d, combatant: id } });
      if (!done.ok && done.problem.key === 'DeclarationTargetFallen' && d.target !== undefined) {
        // Written at a target that fell before the round (rules revision 5): the script's choice, else the default.
        const chosen = this.choiceFor(round, id);
        const turned: RetargetDone = { step: null, combatant: id, from: d.target, choice: chosen.choice, scripted: chosen.scripted };
        if (chosen.choice === 'target' && chosen.target !== undefined) {
          turned.target = chosen.target;
          done = this.give({ t: 'declare', d: { ...d, combatant: id, target: chosen.target } });
        }
        if (done.ok || chosen.choice !== 'target') {
          this.retargetsDone.push(turned);
          if (!done.ok) {
            // It holds or does nothing: last round's declaration is not kept either.
            if (state.declarations[id]) this.give({ t: 'withdraw', c: id });
            continue;
          }
        }
      }
      if (done.ok) continue;
      if (!TOLERATED.has(done.problem.key)) throw new RulesError({ ...done.problem, path: done.problem.path ?? `round ${round}, ${id}` });
      if (state.declarations[id]) this.give({ t: 'withdraw', c: id });
      this.refused.push({ round, combatant: id, problem: done.problem });
    }
  }

  /** The joiners due at a round's start (step 0: before initiative). */
  joinAtStart(round: number): void {
    (this.script.joins ?? []).forEach((j, i) => {
      if (j.round === round && j.step <= 0) this.must(joinInput(j), `joins[${i}]`);
    });
  }

  /** Castings the script cancels this round, once they are in the schedule and still pending. */
  cancelNow(round: number): void {
    const state = this.state;
    for (const c of (this.script.cancelled ?? []).filter((x) => x.round === round)) {
      for (const casting of state.schedule?.castings ?? []) {
        const named = (c.casting !== undefined && casting.id === c.casting) || (c.combatant !== undefined && casting.caster === c.combatant);
        if (named && state.status[casting.id] === 'pending') this.give({ t: 'cancel', casting: casting.id });
      }
    }
  }

  /** The inputs of one mid-round action of the script (an attack: the attack, then the damage it does). */
  private midRoundInputs(list: MidRoundList, index: number): FlowInput[] {
    const state = this.state;
    if (list === 'delays') {
      const x = (this.script.delays ?? [])[index];
      return [{ t: 'delay', c: x.combatant }];
    }
    if (list === 'releases') {
      const x = (this.script.releases ?? [])[index];
      return [{ t: 'release', c: x.combatant, d: { ...x.declaration, combatant: x.combatant } }];
    }
    if (list === 'breaks') {
      const x = (this.script.breaks ?? [])[index];
      const why = x.why !== undefined ? { why: x.why } : {};
      if (x.casting !== undefined) return [{ t: 'break', casting: x.casting, ...why }];
      // Every casting of the caster still under way; none: the flow says there is nothing to break.
      const ids = (state.schedule?.castings ?? []).filter((c) => c.caster === x.combatant && state.status[c.id] === 'pending').map((c) => c.id);
      return (ids.length > 0 ? ids : ['']).map((casting) => ({ t: 'break', casting, ...why }));
    }
    const x = (this.script.attacks ?? [])[index];
    const attack: FlowInput = { t: 'attack', c: x.attacker, target: x.target };
    if (x.weapon !== undefined) attack.weapon = x.weapon;
    if (x.routine !== undefined) attack.routine = x.routine;
    if (!(x.damage !== undefined && x.damage > 0)) return [attack];
    return [attack, { t: 'hit', target: x.target, amount: x.damage, by: x.attacker, ...(x.critical ? { critical: true } : {}), ...(x.type !== undefined ? { type: x.type } : {}) }];
  }

  /**
   * The mid-round actions of the script due at step `k` of `round` (delays,
   * releases, breaks, then attacks), each once; a refusal is noted, and the
   * rest of that action is not done.
   */
  midRoundAt(round: number, k: number): void {
    for (const list of MID_ROUND_LISTS) {
      (this.script[list] ?? []).forEach((x: Moment & { round: number }, index) => {
        const id = `${list}[${index}]`;
        const step = this.state.schedule?.steps[k];
        if (x.round !== round || this.tried.has(id) || !step || !happensAt(x, step, k)) return;
        this.tried.add(id);
        for (const input of this.midRoundInputs(list, index)) {
          const done = this.give(input);
          if (done.ok) continue;
          this.notDone.push({ list, index, round, problem: done.problem });
          return;
        }
      });
    }
  }

  /**
   * A release the script makes at a segment where nothing is scheduled: the GM stops there (the flow's `stop`,
   * flow/held.ts), as a GM at the table would, so its moment comes. The earliest such segment between the step
   * being played and the next; one the flow refuses (past the round) is left, and its moment never comes.
   */
  private stopForRelease(round: number): void {
    const schedule = this.state.schedule;
    const now = schedule?.steps[this.state.step]?.segment;
    if (!schedule || now === undefined || !this.procedure.segmentStep) return;
    const next = schedule.steps[this.state.step + 1]?.segment ?? Infinity;
    let seg = Infinity;
    (this.script.releases ?? []).forEach((x, index) => {
      if (x.round !== round || this.tried.has(`releases[${index}]`) || x.segment === undefined) return;
      if (x.segment > now && x.segment < next) seg = Math.min(seg, x.segment);
    });
    if (Number.isFinite(seg)) this.give({ t: 'stop', seg });
  }

  /** The mid-round actions never tried: their moment never came (or their round was not played). */
  midRoundLeft(): void {
    for (const list of MID_ROUND_LISTS) {
      (this.script[list] ?? []).forEach((x: { round: number }, index) => {
        if (!this.tried.has(`${list}[${index}]`)) this.notDone.push({ list, index, round: x.round });
      });
    }
  }

  /**
   * Every step of the round being played, each with its damage, then the
   * joiners due before the next; with `end`, the end of the round too.
   * Returns the damage whose moment never came.
   */
  playSteps(round: number, end: boolean): DamageEvent[] {
    const state = this.state;
    const events = (this.script.damage ?? []).filter((d) => d.round === round);
    const used = new Set<number>();
    const attacks = new Map<string, number>();
    const joins = (this.script.joins ?? []).map((j, i) => ({ j, i })).filter(({ j }) => j.round === round && j.step > 0);
    const joined = new Set<number>();
    const take = (j: number, landing: number[]) => {
      used.add(j);
      landing.push(j);
    };
    /** Joiners due before step `k` (after the step before it was played). */
    const joinBefore = (k: number) => {
      for (const { j, i } of joins) {
        if (joined.has(i) || j.step > k) continue;
        joined.add(i);
        this.must(joinInput(j), `joins[${i}]`);
        this.cancelNow(round);
      }
    };
    // A hold the script releases this round is not itself an attack: the released action is.
    const releasing = new Set((this.script.releases ?? []).filter((x) => x.round === round).map((x) => x.combatant));
    /** The damage of step k: each attacker's n-th attack, spells going off, then what is placed at the step. */
    const landAt = (k: number) => {
      const step = (state.schedule as Schedule).steps[k];
      if (!step) return;
      const landing: number[] = [];
      step.entries.forEach((entry, i) => {
        const outcome = state.outcomes[k]?.[i];
        if (outcome === 'acts' && isAttackEntry(entry) && !(entry.action === 'wait' && releasing.has(entry.combatant))) {
          // Its target fell before its blow: its owner's choice (the script's, else the default) first.
          this.retargetNow(round, entry.combatant);
          const n = (attacks.get(entry.combatant) ?? 0) + 1;
          attacks.set(entry.combatant, n);
          events.forEach((ev, j) => {
            if (!used.has(j) && ev.by === entry.combatant && !ev.spell && (ev.routine ?? 1) === n) take(j, landing);
          });
        }
        if (outcome === 'goes-off') {
          events.forEach((ev, j) => {
            if (!used.has(j) && ev.by === entry.combatant && ev.spell) take(j, landing);
          });
        }
      });
      events.forEach((ev, j) => {
        if (used.has(j) || ev.by !== undefined) return;
        const here =
          ev.step !== undefined
            ? ev.step === k
            : (ev.segment !== undefined && step.segment !== undefined && step.segment >= ev.segment) ||
              (ev.count !== undefined && step.count !== undefined && step.count >= ev.count);
        if (here) take(j, landing);
      });
      for (const j of landing) {
        const ev = events[j];
        const target = this.landsOn(ev);
        if (target === undefined) {
          // Its target fell and its attacker held or chose nothing: the blow's moment never came.
          used.delete(j);
          continue;
        }
        this.give({ t: 'hit', target, amount: ev.amount, ...(ev.by !== undefined ? { by: ev.by } : {}), ...(ev.critical ? { critical: true } : {}), ...(ev.type !== undefined ? { type: ev.type } : {}) });
      }
      // The GM's Heal checks and injuries of this step.
      woundsLeft.forEach((w, j) => {
        if (woundsUsed.has(j) || (w.step === undefined && w.count === undefined)) return;
        if (w.step !== undefined ? w.step !== k : !(step.count !== undefined && step.count >= (w.count as number))) return;
        woundsUsed.add(j);
        this.enter(w, k);
      });
    };
    const woundsLeft = (this.script.wounds ?? []).filter((w) => w.round === round);
    const woundsUsed = new Set<number>();
    this.cancelNow(round);
    const choices = (this.script.choices ?? []).map((c, i) => ({ c, i })).filter(({ c }) => c.round === round);
    const chosen = new Set<number>();
    for (;;) {
      this.chooseNow(round, choices, chosen);
      this.midRoundAt(round, state.step);
      landAt(state.step);
      this.stopForRelease(round);
      // Joiners due before the next step, or, after the last one, every joiner left.
      joinBefore(state.step + 1 < (state.schedule as Schedule).steps.length ? state.step + 1 : Infinity);
      if (state.step + 1 >= (state.schedule as Schedule).steps.length) {
        // After the last step: the GM's entries without a moment, and those whose moment never came.
        woundsLeft.forEach((w, j) => !woundsUsed.has(j) && this.enter(w, null));
        woundsUsed.clear();
        woundsLeft.length = 0;
      }
      if (state.step + 1 >= (state.schedule as Schedule).steps.length && !end) return events.filter((_, j) => !used.has(j));
      if (state.step + 1 >= (state.schedule as Schedule).steps.length) this.moraleCalls(round);
      this.must({ t: 'next' }, `round ${round}`);
      if (state.stage !== 'resolve') {
        this.choicesLeft(round, choices, chosen);
        return events.filter((_, j) => !used.has(j));
      }
    }
  }

  /**
   * The GM's morale calls of this round, after its last step (before its end): made at once where the procedure
   * makes them so (rules revision 5), else waiting for the end of the round, as a script's call always did. One not
   * in the fight then (never there, gone, dead) is skipped, as a GM would.
   */
  private moraleCalls(round: number): void {
    const state = this.state;
    // Round 0's calls are the opening morale (before surprise), made apart.
    if (round === 0) return;
    const able = (m: MoraleRequest) => {
      const condition = state.states[m.combatant]?.condition;
      return state.encounter.combatants.some((c) => c.id === m.combatant) && condition !== undefined && condition !== 'dead' && condition !== 'fled';
    };
    const requests = (this.script.moraleRequests ?? []).filter((m) => m.round === round && able(m)).map(({ round: _r, ...m }) => m);
    if (requests.length > 0) this.must({ t: 'morale', requests }, `round ${round}`);
  }

  /** The choices due in the step being played: a caster whose casting still to be chosen begins in it. */
  private chooseNow(round: number, choices: { c: ScriptedChoice; i: number }[], chosen: Set<number>): void {
    const state = this.state;
    for (const { c, i } of choices) {
      if (chosen.has(i)) continue;
      const casting = choosingCasting(state, c.combatant);
      if (!casting || casting.beginStep !== state.step) continue;
      chosen.add(i);
      const input: FlowInput = c.spell === null ? { t: 'choose', c: c.combatant, spell: null } : { t: 'choose', c: c.combatant, spell: c.spell, castingTime: c.castingTime };
      const done = this.give(input);
      if (done.ok) continue;
      // A caster struck before its turn, or unable to act then: the script could not foresee it.
      if (!CHOICE_TOLERATED.has(done.problem.key)) throw new RulesError({ ...done.problem, path: done.problem.path ?? `choose[${i}]` });
      this.refused.push({ round, combatant: c.combatant, problem: done.problem });
    }
  }

  /** A choice whose moment never came this round (no casting of that caster was left to be chosen): a problem with the script. */
  private choicesLeft(round: number, choices: { c: ScriptedChoice; i: number }[], chosen: Set<number>): void {
    for (const { c, i } of choices) {
      if (chosen.has(i)) continue;
      const name = this.state.encounter.combatants.find((x) => x.id === c.combatant)?.name ?? c.combatant;
      throw new RulesError({ key: 'ChooseSpellNeverDue', path: `choose[${i}]`, data: { name, round } });
    }
  }

  /** A Heal check or injury the GM enters: one the flow refuses stops the play, naming the script's entry. */
  enter(w: ScriptedWound, step: number | null): void {
    const done = this.give(w.input);
    if (!done.ok) throw new RulesError({ ...done.problem, path: done.problem.path ?? w.path ?? `round ${w.round}` });
    const detail: WoundDetail = {};
    if (done.detail?.heal) detail.heal = done.detail.heal;
    if (done.detail?.injury) detail.injury = done.detail.injury;
    this.woundsDone.push({ step, combatant: w.input.c, detail });
  }

  /** Declarations struck as the round is declared (RoundLog.struck). */
  struck: NonNullable<RoundLog['struck']> = [];

  /** Declarations "same as last round" did not carry because their target fell (rules revision 5), for `declare`. */
  private fallenAims: { id: string; d: Declaration }[] = [];

  /** On to the next round's declarations, noting what "same as last round" could not carry on. */
  advance(): void {
    const state = this.state;
    const before = state.declarations;
    this.must({ t: 'next' }, `round ${state.round}`);
    this.retargetsDone = [];
    this.fallenAims = [];
    this.struck = [];
    for (const [id, d] of Object.entries(before)) {
      const s = state.states[id];
      if (state.declarations[id] || !s) continue;
      if (engineDecidesActing(state)) {
        const reason = actionRefusedBy(state, id, d.action, this.procedure);
        if (reason === 'routed' || reason === 'surrendered') this.struck.push({ combatant: id, declaration: copyJson(d), reason });
        if (reason !== null) continue;
        if (d.target !== undefined && fallenReason(state.states[d.target]) !== null && spellAvailable(state, d)) {
          this.fallenAims.push({ id, d });
          continue;
        }
      } else if (!this.procedure.canAct(s)) continue;
      this.notCarried.push({ combatant: id, declaration: copyJson(d) });
    }
  }

  /**
   * Rules revision 5, "same as last round": a declaration not carried because its target fell is declared again
   * at the script's choice for the new round, else the default target (defaultTarget); one that holds or chooses
   * nothing is not declared (noted as not carried).
   */
  private reaim(round: number): void {
    for (const { id, d } of this.fallenAims) {
      const chosen = this.choiceFor(round, id);
      const done: RetargetDone = { step: null, combatant: id, from: d.target as string, choice: chosen.choice, scripted: chosen.scripted };
      if (chosen.choice === 'target' && chosen.target !== undefined) {
        done.target = chosen.target;
        const given = this.give({ t: 'declare', d: { ...copyJson(d), target: chosen.target } });
        if (!given.ok) {
          this.notCarried.push({ combatant: id, declaration: copyJson(d) });
          continue;
        }
      } else this.notCarried.push({ combatant: id, declaration: copyJson(d) });
      this.retargetsDone.push(done);
    }
    this.fallenAims = [];
  }

  /** The round being played, to its end (and the bleeding the GM staunches then), as a log. */
  round(round: number): RoundLog {
    this.woundsDone = [];
    const unapplied = this.playSteps(round, true);
    (this.script.staunch ?? []).forEach((s, i) => {
      if (s.round === round) this.must({ t: 'staunch', c: s.combatant }, `staunch[${i}]`);
    });
    const log = roundLog(this.state, unapplied);
    log.notCarried = this.notCarried;
    this.notCarried = [];
    if (this.woundsDone.length > 0) log.wounds = this.woundsDone;
    if (this.retargetsDone.length > 0) log.retargets = this.retargetsDone;
    this.retargetsDone = [];
    if (this.struck.length > 0) log.struck = this.struck;
    this.struck = [];
    return log;
  }
}

/** Refusals a script could not foresee: a combatant who fell, a spell with no copy left, one not in the fight. */
const TOLERATED = new Set(['CombatantCannotAct', 'SpellNotMemorized', 'UnknownCombatant', ...ACT_REFUSED_KEYS]);
/** …and for a spell chosen at the caster's turn: struck before it, unable to act then, the spell's last copy gone. */
const CHOICE_TOLERATED = new Set(['ChooseSpellPrevented', 'CombatantCannotAct', 'SpellNotMemorized', ...ACT_REFUSED_KEYS]);

function joinInput(j: NonNullable<CombatScript['joins']>[number]): FlowInput {
  const input: FlowInput = { t: 'join', c: j.combatant };
  if (j.declaration) input.d = { ...j.declaration, combatant: j.combatant.id };
  return input;
}

/**
 * Play a combat from its script: surprise, then `script.rounds` rounds with
 * their end-of-round steps. A refusal the script could not have foreseen (a
 * declaration for a combatant who fell, a spell whose last copy is gone) is
 * noted in `refused`; anything else the flow refuses is a RulesError.
 */
export function playCombat(
  procedure: Procedure<ProcedureOptions>,
  encounter: Encounter,
  options: ProcedureOptions,
  dice: Dice,
  script: CombatScript,
): CombatLog {
  const started = startFlow(procedure, options, encounter, dice);
  if (!started.ok) throw new RulesError(started.problem);
  const state = started.state;
  const p = new Player(state, procedure, dice, script);

  // Phases 1 and 3 (addict): what the GM records before the rounds; phase 2, surprise, was rolled at the start.
  (script.reactions ?? []).forEach((r, i) => p.must({ t: 'reaction', ...r }, `reactions[${i}]`));
  if (script.distance !== undefined) p.must({ t: 'distance', feet: script.distance }, 'distance');

  // Morale checks of combatants not in the fight (never there, or gone) are skipped, as a GM would.
  const inFight = (m: MoraleRequest) => state.encounter.combatants.some((c) => c.id === m.combatant);
  const opening = (script.moraleRequests ?? []).filter((m) => m.round === 0 && inFight(m));
  let openingMorale: EndOfRoundResult | null = null;
  if (opening.length > 0 && procedure.openingMorale) {
    p.must({ t: 'morale', requests: opening.map(({ round: _r, ...m }) => m) }, 'morale');
    if (state.opening) openingMorale = { states: copyStates(state.states), events: copyJson(state.opening) };
  }

  let surpriseRound: RoundLog | null = null;
  if (state.round === 0) {
    p.declare(0, script.declarations(0, state));
    p.must({ t: 'next' }, 'surprise');
    if (state.stage === 'resolve') {
      surpriseRound = p.round(0);
      p.advance();
    }
  }
  const rounds: RoundLog[] = [];
  for (let round = 1; round <= script.rounds; round++) {
    p.declare(round, script.declarations(round, state));
    p.joinAtStart(round);
    p.must({ t: 'next' }, `round ${round}`);
    rounds.push(p.round(round));
    if (round < script.rounds) p.advance();
  }
  p.midRoundLeft();
  return {
    procedure: procedure.id,
    surprise: copyJson(started.detail?.surprise ?? state.surprise),
    surpriseRound,
    openingMorale,
    baseInitiative: { ...state.baseInitiative },
    rounds,
    states: copyStates(state.states),
    refused: p.refused,
    notDone: p.notDone,
    entries: [{ t: 'start', v: FLOW_VERSION, s: copyJson(started.detail as FlowStart) }, ...p.entries],
    state: copyJson(state),
    view: timeline(state),
  };
}

/**
 * Play one given schedule through the flow, with damage (the steps only: no
 * end of round). For tests of the step mechanics themselves: simultaneity,
 * castings broken, combatants felled mid-round. `cancelled` lists castings
 * their casters elected not to complete.
 */
export function playSchedule(
  procedure: Procedure<ProcedureOptions>,
  encounter: Encounter,
  schedule: Schedule,
  states: Record<string, CombatantState>,
  damage: DamageEvent[],
  options: ProcedureOptions,
  cancelled: readonly string[] = [],
): RoundLog {
  const surprised: Record<string, number> = {};
  for (const c of encounter.combatants) surprised[c.id] = 0;
  const state = flowFrom({ procedure: procedure.id, options, encounter, surprise: { rolls: {}, surprised, unit: 'segments' }, baseInitiative: {}, round: schedule.round });
  state.states = copyStates(states);
  state.roundStart = copyStates(states);
  state.schedule = copyJson(schedule);
  for (const c of schedule.castings) state.status[c.id] = cancelled.includes(c.id) ? 'cancelled' : 'pending';
  state.stage = 'resolve';
  state.step = 0;
  if (schedule.steps.length > 0) state.outcomes[0] = openStep(procedure, state, 0);
  const p = new Player(state, procedure, { roll: () => 1 }, { damage });
  const unapplied = p.playSteps(schedule.round, false);
  const log = roundLog(state, unapplied);
  delete log.end;
  return log;
}

function copyStates(states: Record<string, CombatantState>): Record<string, CombatantState> {
  const out: Record<string, CombatantState> = {};
  for (const id of Object.keys(states)) out[id] = copyState(states[id]);
  return out;
}

/** Convenience for tests: the combatants acting (outcome 'acts' or 'goes-off') at each step. */
export function actorsByStep(log: RoundLog): string[][] {
  return log.steps.map((s) => s.entries.filter((e) => e.outcome === 'acts' || e.outcome === 'goes-off').map((e) => e.entry.combatant));
}
