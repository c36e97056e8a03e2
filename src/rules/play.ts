/**
 * A written-down combat played through the one driver (flow/transitions.ts):
 * the declarations of each round, damage at given moments, combatants
 * joining, casters giving up, morale checks. The scenario runner and the
 * engine's tests use it; it decides no rule, it only says when each input
 * goes in and reads back what the flow made of it.
 */
import type { Dice } from './dice';
import type { Combatant, CombatantState, Declaration, Problem } from './model';
import { RulesError } from './model';
import type { Casting, EndEvent, EndOfRoundResult, Encounter, InitiativeResult, Procedure, ProcedureOptions, Schedule, StepEntry, SurpriseResult } from './procedure';
import { copyState } from './round';
import { applyInput, startFlow, type Applied, type EntryOutcome, type FlowInput, type FlowState, type MoraleRequest } from './flow';
import { timeline, type TimelineView } from './timeline';

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
  /** A critical hit (individual-speed: bypasses Stress). */
  critical?: boolean;
  /** Or at a fixed place in the round: a step index, or the first step at a segment or count. */
  step?: number;
  segment?: number;
  count?: number;
}

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
}

export interface StepLog {
  index: number;
  phase: string;
  segment?: number;
  count?: number;
  entries: { entry: StepEntry; outcome: EntryOutcome }[];
  damage: { target: string; amount: number; wounds: number; by?: string }[];
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
}

function isAttackEntry(e: StepEntry): boolean {
  return e.kind === 'action' || e.kind === 'routine' || e.kind === 'late-join';
}

/** The round that just ended, read back from the flow (a copy: the flow goes on changing its own). */
export function roundLog(state: FlowState, unapplied: DamageEvent[] = []): RoundLog {
  const s = structuredClone(state);
  const schedule = s.schedule as Schedule;
  const steps: StepLog[] = schedule.steps.map((step, k) => {
    const hits = s.hits.filter((h) => h.step === k);
    const first = new Map<string, CombatantState['condition']>();
    const last = new Map<string, CombatantState['condition']>();
    for (const h of hits) {
      if (!first.has(h.target)) first.set(h.target, h.before);
      last.set(h.target, h.after);
    }
    const log: StepLog = {
      index: k,
      phase: step.phase,
      entries: step.entries.map((entry, i) => ({ entry, outcome: s.outcomes[k]?.[i] ?? 'cannot-act' })),
      damage: hits.map((h) => (h.by === undefined ? { target: h.target, amount: h.amount, wounds: h.wounds } : { target: h.target, amount: h.amount, wounds: h.wounds, by: h.by })),
      interruptions: s.interruptions
        .filter((i) => i.step === k)
        .map(({ casting, caster, spell, outcome, expended }) => ({ casting, caster, spell, outcome, expended })),
      fallen: [...first].filter(([id, before]) => last.get(id) !== before).map(([id]) => ({ combatant: id, condition: last.get(id) as CombatantState['condition'] })),
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
    carryOut: s.carry,
    joins: s.joins,
    view: timeline(s),
    notCarried: [],
  };
  if (s.initiative) out.initiative = s.initiative;
  // The surprise segments have no end of round.
  if (s.end && s.round > 0) out.end = { states: s.states, events: s.end };
  return out;
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
  const refused: CombatLog['refused'] = [];
  const give = (input: FlowInput): Applied => applyInput(state, input, dice, procedure);
  const must = (input: FlowInput, path: string): void => {
    const done = give(input);
    if (!done.ok) throw new RulesError({ ...done.problem, path: done.problem.path ?? path });
  };

  const opening = (script.moraleRequests ?? []).filter((m) => m.round === 0);
  let openingMorale: EndOfRoundResult | null = null;
  if (opening.length > 0 && procedure.openingMorale) {
    must({ t: 'morale', requests: opening.map(({ round: _r, ...m }) => m) }, 'morale');
    if (state.opening) openingMorale = { states: copyStates(state.states), events: structuredClone(state.opening) };
  }

  let notCarried: RoundLog['notCarried'] = [];
  const declareFor = (round: number): void => {
    const set = script.declarations(round, state);
    if (set === null) return;
    // A whole new set: what "same as last round" would have carried does not matter.
    notCarried = [];
    for (const id of Object.keys(state.declarations)) if (!set[id]) give({ t: 'withdraw', c: id });
    for (const [id, d] of Object.entries(set)) {
      const done = give({ t: 'declare', d: { ...d, combatant: id } });
      if (!done.ok) {
        if (done.problem.key !== 'CombatantCannotAct' && done.problem.key !== 'SpellNotMemorized' && done.problem.key !== 'UnknownCombatant') {
          throw new RulesError({ ...done.problem, path: done.problem.path ?? `round ${round}, ${id}` });
        }
        delete state.declarations[id];
        refused.push({ round, combatant: id, problem: done.problem });
      }
    }
  };

  const cancelsOf = (round: number) => (script.cancelled ?? []).filter((c) => c.round === round);
  const cancelNow = (round: number): void => {
    for (const c of cancelsOf(round)) {
      for (const casting of state.schedule?.castings ?? []) {
        if ((c.casting !== undefined && casting.id === c.casting) || (c.combatant !== undefined && casting.caster === c.combatant)) {
          if (state.status[casting.id] === 'pending') give({ t: 'cancel', casting: casting.id });
        }
      }
    }
  };

  /** Every step of the round being played, with its damage, joiners and cancels, to the end of the round. */
  const playSteps = (round: number): DamageEvent[] => {
    const events = (script.damage ?? []).filter((d) => d.round === round);
    const used = new Set<number>();
    const take = (j: number, landing: number[]) => {
      used.add(j);
      landing.push(j);
    };
    const attacks = new Map<string, number>();
    const joins = (script.joins ?? []).filter((j) => j.round === round && j.step > 0);
    const joined = new Set<number>();
    /** Joiners due before step `k` (after the step before it was played). */
    const joinBefore = (k: number) => {
      joins.forEach((j, i) => {
        if (joined.has(i) || j.step > k) return;
        joined.add(i);
        must({ t: 'join', c: j.combatant, ...(j.declaration ? { d: { ...j.declaration, combatant: j.combatant.id } } : {}) }, `joins[${i}]`);
        cancelNow(round);
      });
    };
    /** The damage of step k: each attacker's n-th attack, spells going off, then what is placed at the step. */
    const landAt = (k: number) => {
      const step = (state.schedule as Schedule).steps[k];
      if (!step) return;
      const landing: number[] = [];
      step.entries.forEach((entry, i) => {
        const outcome = state.outcomes[k]?.[i];
        if (outcome === 'acts' && isAttackEntry(entry)) {
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
        give({ t: 'hit', target: ev.target, amount: ev.amount, ...(ev.by !== undefined ? { by: ev.by } : {}), ...(ev.critical ? { critical: true } : {}) });
      }
    };
    cancelNow(round);
    for (;;) {
      landAt(state.step);
      const count = (state.schedule as Schedule).steps.length;
      // Joiners due before the next step, or, after the last one, every joiner left.
      joinBefore(state.step + 1 < count ? state.step + 1 : Infinity);
      const last = (state.schedule as Schedule).steps.length - 1;
      must({ t: 'next' }, `round ${round}`);
      if (state.stage !== 'resolve' || state.step > last) return events.filter((_, j) => !used.has(j));
    }
  };

  /** On to the next round's declarations, noting what "same as last round" could not carry on. */
  const advance = (): void => {
    const before = state.declarations;
    must({ t: 'next' }, `round ${state.round}`);
    for (const [id, d] of Object.entries(before)) {
      const s = state.states[id];
      if (!state.declarations[id] && s && procedure.canAct(s)) notCarried.push({ combatant: id, declaration: structuredClone(d) });
    }
  };
  const logOf = (round: number): RoundLog => {
    const log = roundLog(state, playSteps(round));
    log.notCarried = notCarried;
    notCarried = [];
    return log;
  };

  const moraleFor = (round: number) => (script.moraleRequests ?? []).filter((m) => m.round === round).map(({ round: _r, ...m }) => m);

  let surpriseRound: RoundLog | null = null;
  if (state.round === 0) {
    declareFor(0);
    must({ t: 'next' }, 'surprise');
    if (state.stage === 'resolve') {
      surpriseRound = logOf(0);
      advance();
    }
  }
  const rounds: RoundLog[] = [];
  for (let round = 1; round <= script.rounds; round++) {
    declareFor(round);
    (script.joins ?? []).forEach((j, i) => {
      if (j.round === round && j.step <= 0) must({ t: 'join', c: j.combatant, ...(j.declaration ? { d: { ...j.declaration, combatant: j.combatant.id } } : {}) }, `joins[${i}]`);
    });
    must({ t: 'next' }, `round ${round}`);
    const requests = moraleFor(round);
    if (requests.length > 0) must({ t: 'morale', requests }, `round ${round}`);
    rounds.push(logOf(round));
    if (round < script.rounds) advance();
  }
  return {
    procedure: procedure.id,
    surprise: structuredClone(started.detail?.surprise ?? state.surprise),
    surpriseRound,
    openingMorale,
    baseInitiative: { ...state.baseInitiative },
    rounds,
    states: copyStates(state.states),
    refused,
    state: structuredClone(state),
    view: timeline(state),
  };
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
