/**
 * The shared runner: walks a procedure's schedule step by step, lets each
 * entry act if its combatant can, lands the step's damage after all of the
 * step's entries have acted (simultaneity), and applies the casting rules the
 * procedure wrote into each Casting. Then a whole combat: surprise, rounds,
 * end of round.
 */
import type { Dice } from './dice';
import type { Combatant, CombatantState, Declaration } from './model';
import { RulesError } from './model';
import type {
  Casting,
  EndOfRoundResult,
  Encounter,
  InitiativeResult,
  Procedure,
  ProcedureOptions,
  RoundInput,
  Schedule,
  StepEntry,
  SurpriseResult,
} from './procedure';
import { copyState, initialStates } from './common';

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

export type EntryOutcome = 'acts' | 'begins' | 'goes-off' | 'cannot-act' | 'interrupted' | 'prevented' | 'cancelled';

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
  /** Damage events that could not land (attacker could not act, no such step). */
  unapplied: DamageEvent[];
  end?: EndOfRoundResult;
  states: Record<string, CombatantState>;
  /** Castings still running into the next round. */
  carryOut: Casting[];
}

const NONE: readonly never[] = Object.freeze([]);

export type CastingStatus = 'pending' | 'done' | 'interrupted' | 'prevented' | 'cancelled';

function isAttackEntry(e: StepEntry): boolean {
  return e.kind === 'action' || e.kind === 'routine' || e.kind === 'late-join';
}

function locateEvent(schedule: Schedule, ev: DamageEvent): number | 'by' | null {
  if (ev.by !== undefined) return 'by';
  if (ev.step !== undefined) return ev.step >= 0 && ev.step < schedule.steps.length ? ev.step : null;
  const i = schedule.steps.findIndex(
    (s) =>
      (ev.segment !== undefined && s.segment !== undefined && s.segment >= ev.segment) ||
      (ev.count !== undefined && s.count !== undefined && s.count >= ev.count),
  );
  return i < 0 ? null : i;
}

const castingIndex = new WeakMap<Schedule, Map<string, Casting>>();

/** A schedule's casting by id (indexed once per schedule). */
function castingById(schedule: Schedule, id: string): Casting | undefined {
  let index = castingIndex.get(schedule);
  if (!index) {
    index = new Map(schedule.castings.map((c) => [c.id, c]));
    castingIndex.set(schedule, index);
  }
  return index.get(id);
}

/** What changes while a round is played: combatant states and the status of each casting. */
export interface RoundProgress {
  states: Record<string, CombatantState>;
  status: Record<string, CastingStatus>;
}

export function startProgress(
  schedule: Schedule,
  startStates: Record<string, CombatantState>,
  cancelled: readonly string[] = [],
): RoundProgress {
  const states: Record<string, CombatantState> = {};
  for (const id of Object.keys(startStates)) states[id] = copyState(startStates[id]);
  const status: Record<string, CastingStatus> = {};
  for (const c of schedule.castings) status[c.id] = cancelled.length > 0 && cancelled.includes(c.id) ? 'cancelled' : 'pending';
  return { states, status };
}

/**
 * Open step k: decide each entry's outcome from the states at the start of
 * the step (so a combatant killed later in the same step still acts), and
 * mark castings that go off. Mutates `progress`.
 */
export function openStep<O extends ProcedureOptions>(
  procedure: Procedure<O>,
  schedule: Schedule,
  k: number,
  progress: RoundProgress,
): { entry: StepEntry; outcome: EntryOutcome }[] {
  const { states, status } = progress;
  const entries = schedule.steps[k].entries;
  const out: { entry: StepEntry; outcome: EntryOutcome }[] = new Array(entries.length);
  // Whether a combatant can act is read from its condition, which nothing in
  // a step's opening changes (a casting going off only adds to `expended`).
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const state = states[entry.combatant];
    const can = state !== undefined && procedure.canAct(state);
    if (entry.kind !== 'cast-begin' && entry.kind !== 'cast-complete') {
      out[i] = { entry, outcome: can ? 'acts' : 'cannot-act' };
      continue;
    }
    const st = entry.casting ? status[entry.casting] ?? 'pending' : 'pending';
    let outcome: EntryOutcome;
    if (st === 'interrupted' || st === 'prevented' || st === 'cancelled') outcome = st;
    else if (!can) outcome = 'cannot-act';
    else outcome = entry.kind === 'cast-begin' ? 'begins' : 'goes-off';
    if (entry.kind === 'cast-complete' && entry.casting) {
      if (outcome === 'goes-off') {
        status[entry.casting] = 'done';
        const casting = castingById(schedule, entry.casting);
        if (casting && !casting.device) states[casting.caster].expended.push(casting.spell);
      } else if (outcome === 'cannot-act') status[entry.casting] = 'interrupted';
    }
    out[i] = { entry, outcome };
  }
  return out;
}

export interface Hit {
  target: string;
  amount: number;
  by?: string;
  critical?: boolean;
}

export interface HitResult {
  damage: StepLog['damage'][number];
  interruptions: StepLog['interruptions'];
  /** The target's condition before and after, when it changed. */
  fallen?: { combatant: string; condition: CombatantState['condition'] };
}

/**
 * Land one hit at step k (k = steps.length for damage after the last step):
 * the procedure applies the damage, then every pending casting of the target
 * is interrupted or prevented according to its lossFrom / preventFrom.
 * Mutates `progress`.
 */
export function landHit<O extends ProcedureOptions>(
  procedure: Procedure<O>,
  target: Combatant,
  schedule: Schedule,
  k: number,
  progress: RoundProgress,
  hit: Hit,
  options: O,
): HitResult {
  const { states, status } = progress;
  const before = states[hit.target].condition;
  const result = procedure.applyDamage(target, states[hit.target], hit.amount, options, hit.critical ? { critical: true } : undefined);
  states[hit.target] = result.state;
  const damage: HitResult['damage'] = { target: hit.target, amount: hit.amount, wounds: result.wounds };
  if (hit.by !== undefined) damage.by = hit.by;
  const interruptions: StepLog['interruptions'] = [];
  if (hit.amount > 0 && schedule.castings.length > 0) {
    for (const casting of schedule.castings) {
      if (casting.caster !== hit.target || status[casting.id] !== 'pending') continue; // few castings: a scan is cheapest
      if (casting.completeStep !== null && k >= casting.completeStep) continue; // simultaneous: it goes off
      if (k >= casting.lossFrom) {
        status[casting.id] = 'interrupted';
        const expended = casting.expends && !casting.device;
        if (expended) states[casting.caster].expended.push(casting.spell);
        interruptions.push({ casting: casting.id, caster: casting.caster, spell: casting.spell, outcome: 'interrupted', expended });
      } else if (k >= casting.preventFrom) {
        status[casting.id] = 'prevented';
        interruptions.push({ casting: casting.id, caster: casting.caster, spell: casting.spell, outcome: 'prevented', expended: false });
      }
    }
  }
  const out: HitResult = { damage, interruptions };
  if (states[hit.target].condition !== before) out.fallen = { combatant: hit.target, condition: states[hit.target].condition };
  return out;
}

/**
 * Resolve one round's schedule with scripted damage. Pure: returns new
 * states, never mutates input. `cancelled` lists castings whose caster
 * elected not to cast.
 */
export function resolveRound<O extends ProcedureOptions>(
  procedure: Procedure<O>,
  encounter: Encounter,
  schedule: Schedule,
  startStates: Record<string, CombatantState>,
  damage: DamageEvent[],
  options: O,
  cancelled: readonly string[] = [],
): RoundLog {
  const progress = startProgress(schedule, startStates, cancelled);
  const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
  const attackCount = new Map<string, number>();
  const events = damage.length === 0 ? damage : damage.filter((d) => d.round === schedule.round);
  const placed = events.map((ev) => locateEvent(schedule, ev));
  const used = new Set<number>();
  const byAttacker = new Map<string, number[]>();
  const atStep = new Map<number, number[]>();
  const push = <K>(m: Map<K, number[]>, k: K, i: number) => {
    const list = m.get(k);
    if (list) list.push(i);
    else m.set(k, [i]);
  };
  placed.forEach((p, i) => {
    if (p === 'by') push(byAttacker, events[i].by as string, i);
    else if (p !== null) push(atStep, p, i);
  });
  const take = (i: number, landing: DamageEvent[]) => {
    used.add(i);
    landing.push(events[i]);
  };
  const logs: StepLog[] = [];

  schedule.steps.forEach((step, k) => {
    // Most steps land nothing: they share one frozen empty list for damage, interruptions and falls.
    const log: StepLog = { index: k, phase: step.phase, entries: NONE as never[], damage: NONE as never[], interruptions: NONE as never[], fallen: NONE as never[] };
    if (step.segment !== undefined) log.segment = step.segment;
    if (step.count !== undefined) log.count = step.count;
    const landing: DamageEvent[] = [];
    log.entries = openStep(procedure, schedule, k, progress);
    for (const { entry, outcome } of log.entries) {
      // Damage this entry deals (scripted by attacker): its n-th attack, or its spell.
      if (outcome === 'acts' && isAttackEntry(entry)) {
        const n = (attackCount.get(entry.combatant) ?? 0) + 1;
        attackCount.set(entry.combatant, n);
        for (const i of byAttacker.get(entry.combatant) ?? []) {
          if (!used.has(i) && !events[i].spell && (events[i].routine ?? 1) === n) take(i, landing);
        }
      }
      if (outcome === 'goes-off') {
        for (const i of byAttacker.get(entry.combatant) ?? []) if (!used.has(i) && events[i].spell) take(i, landing);
      }
    }
    for (const i of atStep.get(k) ?? []) if (!used.has(i)) take(i, landing);

    // All of this step's damage lands together, after everyone in it acted.
    if (landing.length === 0) {
      logs.push(log);
      return;
    }
    log.damage = [];
    log.interruptions = [];
    log.fallen = [];
    const conditionBefore = new Map<string, CombatantState['condition']>();
    for (const ev of landing) {
      const target = byId.get(ev.target);
      if (!target || !progress.states[ev.target]) continue;
      if (!conditionBefore.has(ev.target)) conditionBefore.set(ev.target, progress.states[ev.target].condition);
      const result = landHit(procedure, target, schedule, k, progress, ev, options);
      log.damage.push(result.damage);
      log.interruptions.push(...result.interruptions);
    }
    for (const [id, before] of conditionBefore) {
      const now = progress.states[id].condition;
      if (before !== now) log.fallen.push({ combatant: id, condition: now });
    }
    logs.push(log);
  });

  const unapplied = events.filter((_, i) => !used.has(i));
  const carryOut = schedule.carryOut.filter((c) => progress.status[c.id] === 'pending');
  const out: RoundLog = { round: schedule.round, schedule, steps: logs, unapplied, states: progress.states, carryOut };
  if (schedule.initiative) out.initiative = schedule.initiative;
  return out;
}

/* ----------------------------------------------------------- whole combats */

export interface CombatScript {
  /** Number of regular rounds to play. */
  rounds: number;
  /** Declarations for a round (0 = surprise segments / surprise round). */
  declarations(round: number, states: Record<string, CombatantState>): Record<string, Declaration>;
  damage: DamageEvent[];
  /** Morale checks the GM calls for at the end of a round (round 0: opening morale, before surprise). */
  moraleRequests?: { round: number; combatant: string; trigger: string; opposed?: number }[];
  /** Combatants that join during a round, before the step with this index. */
  joins?: { round: number; step: number; combatant: Combatant; declaration?: Declaration }[];
  /** Castings the caster elects not to complete, by round → casting id. */
  cancelled?: { round: number; casting: string }[];
}

export interface CombatLog {
  procedure: string;
  surprise: SurpriseResult;
  surpriseRound: RoundLog | null;
  openingMorale: EndOfRoundResult | null;
  baseInitiative: Record<string, number>;
  rounds: RoundLog[];
  states: Record<string, CombatantState>;
}

function hitsOf(log: RoundLog): { target: string; wounds: number; by?: string }[] {
  return log.steps.flatMap((s) => s.damage.map((d) => ({ target: d.target, wounds: d.wounds, by: d.by })));
}

/** Play a whole combat: surprise, then `script.rounds` rounds with end-of-round steps. */
export function runCombat<O extends ProcedureOptions>(
  procedure: Procedure<O>,
  encounterIn: Encounter,
  options: O,
  dice: Dice,
  script: CombatScript,
): CombatLog {
  const encounter: Encounter = { sides: encounterIn.sides, combatants: [...encounterIn.combatants] };
  for (const c of encounter.combatants) {
    if (!encounter.sides.some((s) => s.id === c.side)) {
      throw new RulesError({ key: 'UnknownSide', data: { name: c.name, side: c.side } });
    }
  }
  let states = initialStates(encounter);
  const surprise = procedure.rollSurprise(encounter, dice, options);
  const baseInitiative = procedure.rollCombatInitiative(encounter, encounter.combatants, dice, options);
  const cancelledIn = (round: number) => (script.cancelled ?? []).filter((c) => c.round === round).map((c) => c.casting);

  const validated = (round: number): Record<string, Declaration> => {
    const decls = script.declarations(round, states);
    const byId = new Map(encounter.combatants.map((c) => [c.id, c]));
    for (const [id, d] of Object.entries(decls)) {
      const c = byId.get(id);
      if (!c) throw new RulesError({ key: 'UnknownCombatant', data: { id }, path: `round ${round}` });
      const problem = procedure.validateDeclaration(d, c, options);
      if (problem) throw new RulesError({ ...problem, path: problem.path ?? `round ${round}, ${id}` });
    }
    return decls;
  };

  let openingMorale: EndOfRoundResult | null = null;
  const opening = (script.moraleRequests ?? []).filter((m) => m.round === 0);
  if (opening.length > 0 && procedure.openingMorale) {
    openingMorale = procedure.openingMorale(encounter, opening, states, dice, options);
    states = openingMorale.states;
  }

  let surpriseRound: RoundLog | null = null;
  let carry: Casting[] = [];
  const surpriseSchedule = procedure.planSurprise(encounter, surprise, validated(0), options);
  if (surpriseSchedule) {
    surpriseRound = resolveRound(procedure, encounter, surpriseSchedule, states, script.damage, options, cancelledIn(0));
    states = surpriseRound.states;
    carry = surpriseRound.carryOut;
  }

  const rounds: RoundLog[] = [];
  let owed: Record<string, number> = {};
  for (let round = 1; round <= script.rounds; round++) {
    const input: RoundInput = {
      round,
      declarations: validated(round),
      states,
      surprise,
      baseInitiative,
      carryIn: carry,
      owed,
    };
    const initiative = procedure.rollInitiative(encounter, input, dice, options);
    let schedule = procedure.planRound(encounter, input, initiative, options);
    owed = {};
    // Late joiners: insert them, then resolve the (possibly changed) schedule.
    for (const join of (script.joins ?? []).filter((j) => j.round === round)) {
      encounter.combatants.push(join.combatant);
      states = { ...states, [join.combatant.id]: initialStates({ sides: [], combatants: [join.combatant] })[join.combatant.id] };
      const res = procedure.lateJoin(
        encounter,
        join.combatant,
        { round, schedule, currentStep: join.step - 1, declaration: join.declaration, baseInitiative },
        dice,
        options,
      );
      schedule = res.schedule;
      if (res.baseInitiative !== undefined) baseInitiative[join.combatant.id] = res.baseInitiative;
      if (res.owedNextRound !== undefined) owed[join.combatant.id] = res.owedNextRound;
    }
    const log = resolveRound(procedure, encounter, schedule, states, script.damage, options, cancelledIn(round));
    const requests = (script.moraleRequests ?? []).filter((m) => m.round === round);
    const end = procedure.endOfRound(
      encounter,
      { round, before: states, after: log.states, hits: hitsOf(log), moraleRequests: requests },
      dice,
      options,
    );
    log.end = end;
    states = end.states;
    log.states = states;
    carry = log.carryOut;
    rounds.push(log);
  }
  return { procedure: procedure.id, surprise, surpriseRound, openingMorale, baseInitiative, rounds, states };
}

/** Convenience for tests: the combatants acting (outcome 'acts' or 'goes-off') at each step. */
export function actorsByStep(log: RoundLog): string[][] {
  return log.steps.map((s) => s.entries.filter((e) => e.outcome === 'acts' || e.outcome === 'goes-off').map((e) => e.entry.combatant));
}
