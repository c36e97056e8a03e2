/**
 * The round as a GM reads it: a pure view of the flow's state for one viewer.
 * Every screen renders it — the scenario runner's text and JSON, the combat
 * tracker, the declaration status, the recap card — so none of them reads the
 * flow itself. Shape: README.md, "The timeline view".
 *
 * A GM sees everything. A player sees every step played so far and what
 * happened in it; of what is still to come, and of the declarations, only
 * their own side's; health as a condition only, except on their own side;
 * another side's casting as someone casting, its spell, time and target only
 * once it goes off; nothing of hidden combatants (not even a step they alone
 * acted in, or who struck a blow).
 */
import type { ActionKind, CombatantState, CombatInjury, Condition, DamageType, Declaration, ProcedureId, Side } from './model';
import type { Casting, EncounterReaction, EndEvent, EntryKind, InitiativeResult, InjuryCheck, Procedure, ProcedureOptions, Schedule, StepEntry } from './procedure';
import { getProcedure } from './registry';
import type { CastingStatus, EntryOutcome, FlowInterruption, FlowStage, FlowState, MoraleMade } from './flow';
import { fallenBy } from './flow/read';
import { nameOf } from './flow/state';
import { actionRefusedBy, cannotActReason, engineDecidesActing, type CannotActReason } from './flow/acting';
import { waitingTarget } from './flow/retarget';
import type { ChargeView } from './charges';
import { part } from './parts';
import { copyJson } from './journal';

export interface Viewer {
  gm: boolean;
  /** The sides whose plans the viewer may see (a player: their characters' sides). */
  sides?: readonly string[];
  /** Combatants hidden from players (Foundry's hidden combatants). */
  hidden?: readonly string[];
}

export const GM_VIEW: Viewer = { gm: true };

export interface SideView {
  id: string;
  name: string;
  /** The side's initiative die this round, where sides roll. */
  initiative?: number;
  /** HIGH / LOW (high-low) or the procedure's other label for the side. */
  label?: string;
  /** The side's surprise die, if it rolled one. */
  surpriseRoll?: number;
  alerted?: boolean;
  /** The situation's surprise modifier the GM gave the side, in pips of the surprise die (absent: none). */
  surpriseModifier?: number;
  winner: boolean;
}

export interface CastingView {
  casting: string;
  caster: string;
  /** What is cast and for how long: the GM's view and the caster's side only (others see that someone is casting). */
  spell?: string;
  device: boolean;
  castingTime?: number;
  beganRound: number;
  /** Segments still to run at the end of the round (carried out); the GM's view and the caster's side only. */
  remaining?: number;
  status: CastingStatus;
}

export interface CombatantView {
  id: string;
  name: string;
  side: string;
  condition: Condition;
  routed: boolean;
  delayed: boolean;
  /** Exact health: the GM's view, or a player's own side. */
  health?: { hp: number; maxHp?: number; stress?: number; woundPoints?: number; stabilized?: boolean; injuries?: CombatInjury[] };
  /** Surprise: segments (segment procedures) or 1 for a lost round; 0 = not surprised. */
  surprised: number;
  /** Still surprised at this moment (cannot act yet because of surprise). */
  stillSurprised: boolean;
  /** Able to act and expected to declare this round. */
  mayDeclare: boolean;
  declared: boolean;
  /** The declaration, where the viewer may see it. */
  declaration?: Declaration;
  /** The combatant's own surprise die, where combatants roll their own. */
  surpriseRoll?: number;
  /** It can never be surprised (its stat block says so). */
  neverSurprised?: true;
  /** A label the procedure gives the combatant this round (HIGH / LOW…). */
  label?: string;
  /** Initiative count this round (individual initiative), or base initiative (individual-speed). */
  initiative?: number;
  baseInitiative?: number;
  /** Joined while this round was played. */
  joined?: boolean;
  /** Its bleeding staunched (addict phase 11). */
  staunched?: boolean;
  /**
   * Its morale this round: 'held' or 'broke' by its last check made at once (rules revision 5; a broken morale
   * is also `routed`); 'called': a check the GM called that waits for the end of the round (individual-speed), the GM's view only.
   */
  morale?: 'held' | 'broke' | 'called';
  /** It has surrendered (a failed morale check that asked for it, seed 002: rules revision 5): it acts no more. */
  surrendered?: true;
  /**
   * Why it cannot act (rules revision 5, flow/acting.ts), or for 'routed' only flee: its declaration is struck with
   * this reason (TENSEG.CannotAct.<reason>). Absent: it may act as its procedure allows.
   */
  struck?: CannotActReason;
  /** Its target fell and its attack waits for its owner's choice (the `retarget` input): the fallen target's id. */
  waiting?: string;
}

export interface EntryView extends Pick<StepEntry, 'combatant' | 'kind' | 'action' | 'routine' | 'target' | 'casting' | 'reason'> {
  /**
   * The spell is still to be chosen at the caster's turn (d12-ascending II.C;
   * the `choose` input): no spell or time yet. Once chosen, `spell` and
   * `castingTime` instead; chosen "none": still true, the outcome 'cancelled'.
   */
  choosing?: boolean;
  spell?: string;
  device?: boolean;
  castingTime?: number;
  /**
   * Decided once the step is played; absent for steps to come, except the
   * entries of a casting already stopped (interrupted, prevented or given up
   * earlier): they will not happen, and say so.
   */
  outcome?: EntryOutcome;
  /** Its combatant cannot take this action (rules revision 5, flow/acting.ts): why (dead, fled, surrendered, dying, unconscious, routed). */
  struck?: CannotActReason;
}

export interface StepView {
  index: number;
  phase: string;
  segment?: number;
  count?: number;
  /** Played, being played, or to come. */
  when: 'done' | 'current' | 'next';
  entries: EntryView[];
  damage: { target: string; amount: number; wounds: number; by?: string; critical?: boolean; type?: DamageType; strain?: boolean; injury?: InjuryCheck }[];
  interruptions: InterruptionView[];
  fallen: { combatant: string; condition: Condition }[];
  /** Combatants who joined just before this step was played. */
  joins: string[];
  /** Mid-round actions taken while the step was played (flow/midround.ts); absent when none. */
  midRound?: MidRoundView[];
  /** Chargers whose progress changed in this step (charges.ts, chargeProgress); absent when none. */
  charges?: ChargeView[];
}


export type { ChargeView };

/** A casting interrupted or prevented in a step: by a hit, or `broken` by the GM (why). */
export type InterruptionView = Omit<FlowInterruption, 'round' | 'step'>;

/**
 * A mid-round action: a delay announced; a held or prepared action released
 * (as what action); a casting its caster gave up and so lost (its spell: the
 * GM's view and the caster's side only).
 */
export type MidRoundView =
  | { kind: 'delay'; combatant: string }
  | { kind: 'release'; combatant: string; action: ActionKind }
  | { kind: 'cancel'; combatant: string; casting: string; spell?: string };

export interface TimelineView {
  procedure: ProcedureId;
  round: number;
  kind: 'surprise' | 'round';
  stage: FlowStage;
  /** Index of the step being played, or null. */
  current: number | null;
  sides: SideView[];
  combatants: CombatantView[];
  surprise: { unit: 'segments' | 'round'; anyone: boolean };
  /** Opening morale (addict phase 4), once rolled. */
  opening: EndEvent[] | null;
  initiative: (Pick<InitiativeResult, 'winner'> & { tie: boolean }) | null;
  /** Castings carried into this round from an earlier one. */
  carryIn: CastingView[];
  steps: StepView[];
  /** Castings still running at the end of the round. */
  carryOut: CastingView[];
  /** The end of the round (bleeding, deaths, morale), once it is over. */
  end: EndEvent[] | null;
  /** The morale checks made at once this round (rules revision 5), in order, with the stage and step each was made in. */
  morale?: MoraleMade[];
  /** What the GM recorded of the encounter (addict phases 1 and 3), once there is something; a secret reaction only in the GM's view. */
  encounter?: EncounterView;
}

export interface EncounterView {
  /** Phase 3: the encounter distance in feet. */
  distance?: number;
  /** Phase 1: each side's reaction, in the order of the sides. */
  reactions?: ({ side: string } & EncounterReaction)[];
}

function castingView(c: Casting, status: CastingStatus, known: boolean): CastingView {
  const v: CastingView = { casting: c.id, caster: c.caster, device: c.device, beganRound: c.beganRound, status };
  if (known) {
    v.spell = c.spell;
    v.castingTime = c.castingTime;
    v.remaining = c.remaining;
  }
  return v;
}

/** Is a combatant still kept from acting by surprise now? */
function stillSurprised(state: FlowState, id: string, segment: number | undefined): boolean {
  const s = state.surprise.surprised[id] ?? 0;
  if (s <= 0) return false;
  // The surprise segments: until the segment after its last one; once they are all played, nobody.
  if (state.surprise.unit === 'segments') return state.round === 0 && state.stage !== 'end-of-round' && s >= (segment ?? 1);
  // A lost round: the surprise round (round 0) where there is one, else round 1.
  return state.round === 0 || (state.round === 1 && state.firstRound === 1);
}

/** An entry as a viewer sees it; `known` false hides a casting begun by another side (spell, time, target) until it goes off. */
function entryView(entry: StepEntry, schedule: Schedule, outcome: EntryOutcome | undefined, known: boolean): EntryView {
  const v: EntryView = { combatant: entry.combatant, kind: entry.kind, action: entry.action };
  const secret = !known && entry.kind === 'cast-begin';
  if (entry.routine !== undefined) v.routine = entry.routine;
  if (entry.target !== undefined && !secret) v.target = entry.target;
  if (entry.casting !== undefined) {
    v.casting = entry.casting;
    const c = schedule.castings.find((x) => x.id === entry.casting);
    if (c && !secret && c.choosing) v.choosing = true;
    else if (c && !secret) {
      v.spell = c.spell;
      v.device = c.device;
      v.castingTime = c.castingTime;
    }
  }
  if (entry.reason !== undefined) v.reason = entry.reason;
  if (outcome !== undefined) v.outcome = outcome;
  return v;
}

/** The round of `state` as `viewer` may see it. */
export function timeline(state: FlowState, viewer: Viewer = GM_VIEW, procedure: Pick<Procedure<ProcedureOptions>, 'canAct'> = getProcedure(state.procedure)): TimelineView {
  const gm = viewer.gm;
  const own = new Set(viewer.sides ?? []);
  const hidden = new Set(gm ? [] : (viewer.hidden ?? []));
  const sideOf = new Map(state.encounter.combatants.map((c) => [c.id, c.side]));
  const mine = (id: string) => gm || own.has(sideOf.get(id) ?? '');
  const shown = (id: string) => !hidden.has(id);
  const schedule = state.schedule;
  const current = state.stage === 'resolve' && schedule && state.step < schedule.steps.length ? state.step : null;
  const currentSegment = current !== null ? schedule?.steps[current].segment : undefined;
  const labels = state.initiative?.labels ?? {};
  const surprisedAnyone = Object.values(state.surprise.surprised).some((n) => n > 0);
  const byEngine = engineDecidesActing(state);

  const sides: SideView[] = state.encounter.sides.map((s: Side) => {
    const v: SideView = { id: s.id, name: s.name, winner: state.initiative?.winner === s.id };
    const die = state.initiative?.sides[s.id];
    if (die !== undefined) v.initiative = die;
    if (labels[s.id] !== undefined) v.label = labels[s.id];
    const roll = state.surprise.rolls[s.id];
    if (roll !== undefined) v.surpriseRoll = roll;
    if (s.alerted) v.alerted = true;
    if (typeof s.surpriseModifier === 'number' && s.surpriseModifier !== 0) v.surpriseModifier = s.surpriseModifier;
    return v;
  });

  const combatants: CombatantView[] = [];
  for (const c of state.encounter.combatants) {
    if (!shown(c.id)) continue;
    const s: CombatantState | undefined = state.states[c.id];
    const condition = s?.condition ?? 'ok';
    const decl = state.declarations[c.id];
    const still = stillSurprised(state, c.id, currentSegment);
    const v: CombatantView = {
      id: c.id,
      name: c.name,
      side: c.side,
      condition,
      routed: !!s?.routed,
      delayed: !!s?.delayed,
      surprised: state.surprise.surprised[c.id] ?? 0,
      stillSurprised: still,
      // As the flow decides it: the procedure says who can act (declarationProblem), a lost surprise round says who may not yet.
      // From rules revision 5 (flow/acting.ts): a surrendered combatant declares nothing; a routed one may still declare flight.
      mayDeclare: !!s && procedure.canAct(s) && !(byEngine && s.surrendered) && !(still && state.surprise.unit === 'round'),
      declared: decl !== undefined,
    };
    if (mine(c.id) && s) {
      v.health = { hp: s.hp };
      if (c.maxHp !== undefined) v.health.maxHp = c.maxHp;
      if (s.stress !== undefined) v.health.stress = s.stress;
      if (s.woundPoints !== undefined) v.health.woundPoints = s.woundPoints;
      if (s.stabilized) v.health.stabilized = true;
      if (s.injuries && s.injuries.length > 0) v.health.injuries = copyJson(s.injuries);
    }
    if (decl && mine(c.id)) v.declaration = copyJson(decl);
    if (state.surprise.rolls[c.id] !== undefined) v.surpriseRoll = state.surprise.rolls[c.id];
    if (c.neverSurprised) v.neverSurprised = true;
    if (labels[c.id] !== undefined) v.label = labels[c.id];
    // A late joiner's count is in the schedule's initiative (the round's, with it added).
    const count = (schedule?.initiative ?? state.initiative)?.individuals[c.id];
    if (count !== undefined) v.initiative = count;
    if (state.baseInitiative[c.id] !== undefined && mine(c.id)) v.baseInitiative = state.baseInitiative[c.id];
    if (state.joins.some((j) => j.combatant === c.id)) v.joined = true;
    if (s?.staunched) v.staunched = true;
    if (s?.surrendered) v.surrendered = true;
    const checked = (state.morale ?? []).filter((m) => m.combatant === c.id).pop();
    if (checked) v.morale = checked.passed ? 'held' : 'broke';
    else if (gm && state.moraleRequests.some((r) => r.combatant === c.id)) v.morale = 'called';
    if (byEngine) {
      const reason = cannotActReason(s, procedure, true);
      if (reason) v.struck = reason;
      const waiting = state.stage === 'resolve' ? waitingTarget(state, c.id) : undefined;
      if (waiting !== undefined && shown(waiting)) v.waiting = waiting;
    }
    combatants.push(v);
  }

  const status = (id: string): CastingStatus => state.status[id] ?? 'pending';
  // A step to come that would begin or complete a casting already stopped: what stopped it.
  const stoppedAhead = (e: StepEntry): EntryOutcome | undefined => {
    const s = e.casting !== undefined ? status(e.casting) : 'pending';
    return s === 'interrupted' || s === 'prevented' || s === 'cancelled' ? s : undefined;
  };
  const carryIn: CastingView[] = (schedule?.castings ?? (state.stage === 'declare' ? state.carry : []))
    .filter((c) => c.beganRound < state.round && shown(c.caster))
    .map((c) => castingView(c, status(c.id), mine(c.caster)));

  const steps: StepView[] = [];
  (schedule?.steps ?? []).forEach((step, k) => {
    const when: StepView['when'] = current === null ? (state.stage === 'end-of-round' ? 'done' : 'next') : k < current ? 'done' : k === current ? 'current' : 'next';
    const played = when !== 'next';
    const entries = step.entries
      .map((e, i) => ({ e, outcome: played ? state.outcomes[k]?.[i] : stoppedAhead(e) }))
      .filter(({ e }) => shown(e.combatant) && (played || mine(e.combatant)))
      .map(({ e, outcome }) => {
        const v = entryView(e, schedule as Schedule, outcome, mine(e.combatant));
        // Struck with its reason: an entry that could not be carried out, or one to come its combatant can no longer take.
        if (byEngine && (outcome === undefined || outcome === 'cannot-act')) {
          const reason = actionRefusedBy(state, e.combatant, e.action, procedure);
          if (reason) v.struck = reason;
        }
        return v;
      });
    if (!played && entries.length === 0) return;
    const hits = state.hits.filter((h) => h.step === k && shown(h.target));
    const breaks = state.interruptions.filter((i) => i.step === k && shown(i.caster));
    const joined = state.joins.filter((j) => j.step + 1 === k && shown(j.combatant)).map((j) => j.combatant);
    const actions = (state.midRound ?? []).filter((r) => r.step === k && shown(r.c)).map((r): MidRoundView => {
      if (r.t === 'delay') return { kind: 'delay', combatant: r.c };
      if (r.t === 'release') return { kind: 'release', combatant: r.c, action: r.d.action };
      return mine(r.c) ? { kind: 'cancel', combatant: r.c, casting: r.casting, spell: r.spell } : { kind: 'cancel', combatant: r.c, casting: r.casting };
    });
    // A step a player can see nothing in (a hidden combatant acting alone) is not shown: it would tell that someone acted then.
    if (!gm && entries.length === 0 && hits.length === 0 && breaks.length === 0 && joined.length === 0 && actions.length === 0) return;
    const v: StepView = {
      index: k,
      phase: step.phase,
      when,
      entries,
      damage: hits.map((h) => {
        const d: StepView['damage'][number] = { target: h.target, amount: h.amount, wounds: h.wounds };
        if (h.by !== undefined && shown(h.by)) d.by = h.by;
        if (h.critical) d.critical = true;
        if (h.type !== undefined) d.type = h.type;
        if (h.strain) d.strain = true;
        if (h.injury) d.injury = copyJson(h.injury);
        return d;
      }),
      interruptions: breaks.map(({ casting, caster, spell, outcome, expended, broken }) => {
        const i: InterruptionView = { casting, caster, spell, outcome, expended };
        if (broken !== undefined) i.broken = broken;
        return i;
      }),
      fallen: fallenBy(hits),
      joins: joined,
    };
    if (actions.length > 0) v.midRound = actions;
    // A charge's progress (charges.ts) is loaded with the first charge declared (parts.ts); until then none is shown.
    const charges = part('charges')?.chargeViews(state, k, played, mine, shown) ?? [];
    if (charges.length > 0) v.charges = charges;
    if (step.segment !== undefined) v.segment = step.segment;
    if (step.count !== undefined) v.count = step.count;
    steps.push(v);
  });

  const ini = state.initiative;
  const dice = ini ? Object.values(ini.sides) : [];
  const top = Math.max(...dice);
  const events = (list: EndEvent[] | null) => (list ? copyJson(list.filter((e) => shown(e.combatant))) : null);
  const view: TimelineView = {
    procedure: state.procedure,
    round: state.round,
    kind: state.round === 0 ? 'surprise' : 'round',
    stage: state.stage,
    current,
    sides,
    combatants,
    surprise: { unit: state.surprise.unit, anyone: surprisedAnyone },
    opening: events(state.opening),
    // A tie: no winner, and the highest die shared by two sides or more.
    initiative: ini ? { winner: ini.winner, tie: ini.winner === null && dice.filter((d) => d === top).length > 1 } : null,
    carryIn,
    steps,
    carryOut:
      state.stage === 'end-of-round'
        ? state.carry.filter((c) => status(c.id) === 'pending' && shown(c.caster)).map((c) => castingView(c, 'pending', mine(c.caster)))
        : [],
    end: events(state.end),
  };
  const checks = (state.morale ?? []).filter((m) => shown(m.combatant));
  if (checks.length > 0) view.morale = copyJson(checks);
  const recorded = encounterView(state, gm);
  if (recorded) view.encounter = recorded;
  return view;
}

/** What the GM recorded of the encounter that this viewer may see, or null when nothing. */
function encounterView(state: FlowState, gm: boolean): EncounterView | null {
  const { distance, reactions } = state.encounter;
  const out: EncounterView = {};
  if (typeof distance === 'number') out.distance = distance;
  if (reactions) {
    const list = state.encounter.sides.filter((s) => reactions[s.id] && (gm || !reactions[s.id].secret)).map((s) => ({ side: s.id, ...copyJson(reactions[s.id]) }));
    if (list.length > 0) out.reactions = list;
  }
  return Object.keys(out).length > 0 ? out : null;
}
