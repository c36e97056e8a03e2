/**
 * Attacks held to the schedule: the `attack` input (transitions.ts) is
 * checked here first and, accepted, recorded in `state.attacks`. The engine
 * rolls nothing for an attack: the Foundry layer rolls the d20 and sends the
 * damage as a separate `hit`.
 *
 * An attack is accepted only while a round's steps are played, by a combatant
 * still in the combat and able to act, at another combatant still in it, when
 * one of these allows it at this moment (in this order):
 *  - the schedule: its attack entries in the current step (one attack per
 *    attack routine; a missile routine allows as many as the weapon's rate of
 *    fire), counted again from zero in every step; an entry that is the
 *    combatant's turn to choose its action (AttackRules.turn) allows one;
 *  - a held or prepared action (AttackRules.held): once its entry has come
 *    this round, one attack in that step or any later one — unless it was
 *    released as an action (the `release` input, midround.ts): then the
 *    released action's entries are its attacks, and its weapon the one it
 *    names;
 *  - an attack the procedure grants out of turn (AttackRules.outOfTurn: each
 *    procedure's own text decides, in its own file), told what the target's
 *    moves provoked from the attacker this round (flow/moved.ts).
 * A combatant that forfeited its action by moving makes none (ActionForfeited).
 * It must use the weapon its declaration stands for (weaponProblem).
 *
 * "Able" is read at the start of the step where a blow landed in this same
 * step (README ruling, simultaneous actions: "Everything that happens in the
 * same segment ... fully resolves, including damage from a combatant that
 * dies in that segment"); the entries' outcomes were decided then too.
 */
import type { ActionKind, Combatant, CombatantState, Declaration, Problem } from '../model';
import type { AttackGrant, Procedure, ProcedureOptions, StepEntry } from '../procedure';
import { getProcedure } from '../registry';
import { missileRangeBand } from '../range';
import { currentEntries } from './read';
import { forfeited, provokedBy } from './moves';
import { combatantOf, nameOf, type FlowAttack, type FlowInterruption, type FlowState } from './state';
import { actionRefusedBy, cannotActProblem, engineDecidesActing, fallenReason, fallenTargetProblem } from './acting';
import { retargetOf, waitingTarget } from './retarget';

type P = Procedure<ProcedureOptions>;

/** An attack made now: the attacker's combatant id, its target, the weapon (Declaration.weapon.name) or a monster's attack routine (its index, from 0). */
export interface AttackInput {
  t: 'attack';
  c: string;
  target: string;
  weapon?: string;
  routine?: number;
  /** Feet centre to centre, measured by the GM's client: a missile weapon's attack past its long range is refused (AttackOutOfRange). */
  distance?: number;
}

/** What allows an attack now (and the attacker's castings it breaks), or the Problem that refuses it. */
export type AttackGranted = { ok: true; grant: AttackGrant; breaks?: string[] } | { ok: false; problem: Problem };

/** Entry actions that are attacks: melee, missiles, a charge, a weapon set against a charge, a defensive attack. */
export const ATTACK_ACTIONS: ReadonlySet<ActionKind> = new Set<ActionKind>(['melee', 'missile', 'charge', 'set-vs-charge', 'defensive-attack']);

function refuse(key: string, data: Record<string, string | number>): { ok: false; problem: Problem } {
  return { ok: false, problem: { key, data } };
}

/**
 * The attacker's state as it acts in this step, or null when it cannot act:
 * its state now, or, where a hit landed on it in this step, its condition
 * before the first such hit (simultaneous actions).
 */
export function ableState(state: FlowState, id: string, procedure: P): CombatantState | null {
  const now = state.states[id];
  if (!now) return null;
  // From rules revision 5 (acting.ts): a routed combatant only flees, a surrendered one does nothing — no attack, no release.
  if (engineDecidesActing(state) && (now.routed || now.surrendered)) return null;
  if (procedure.canAct(now)) return now;
  const first = state.hits.find((h) => h.target === id && h.step === state.step);
  if (!first) return null;
  const before = { ...now, condition: first.before };
  return procedure.canAct(before) ? before : null;
}

/**
 * Surprised at this moment: in the surprise segments (round 0) while the
 * step's segment is within its count; with surprise counted in rounds,
 * throughout the combat's first round.
 */
function surprisedNow(state: FlowState, id: string): boolean {
  const n = state.surprise.surprised[id] ?? 0;
  if (!(n > 0)) return false;
  if (state.surprise.unit === 'round') return state.round === state.firstRound;
  return state.round === 0 && (state.schedule?.steps[state.step]?.segment ?? 0) <= n;
}

/**
 * What the combatant's action is this round: its declaration, or, once a held
 * or prepared action was released (flow/midround.ts), the action it became.
 */
function actionOf(state: FlowState, id: string): Declaration | undefined {
  const release = state.midRound?.find((r) => r.t === 'release' && r.c === id);
  return release?.t === 'release' ? release.d : state.declarations[id];
}

/** Has this combatant released its held or prepared action this round (flow/midround.ts)? */
export function releasedThisRound(state: FlowState, id: string): boolean {
  return state.midRound?.some((r) => r.t === 'release' && r.c === id) ?? false;
}

/** Attacks one schedule entry allows: one per routine, a missile routine its weapon's rate of fire; none for a defensive attack declared without attacking. */
function entryAllowance(state: FlowState, c: Combatant, entry: StepEntry): number {
  const decl = actionOf(state, c.id);
  // individual-speed: "a character may use Defensive Attack even if they do not actually attack" (declared with routines 0).
  if (entry.action === 'defensive-attack' && decl?.routines === 0) return 0;
  if (entry.action === 'missile') {
    const rate = (decl?.weapon ?? c.weapon)?.rate;
    if (typeof rate === 'number' && Number.isFinite(rate) && rate >= 1) return Math.floor(rate);
  }
  return 1;
}

/** Has a `hold` entry of this combatant come (and acted) in a step of this round up to the current one? */
export function holdHasCome(state: FlowState, id: string, hold: ActionKind): boolean {
  const steps = state.schedule?.steps ?? [];
  for (let k = 0; k <= state.step && k < steps.length; k++) {
    const outcomes = state.outcomes[k] ?? [];
    if (steps[k].entries.some((e, i) => e.combatant === id && e.action === hold && outcomes[i] === 'acts')) return true;
  }
  return false;
}

/** Attacks made this round. */
function made(state: FlowState): readonly FlowAttack[] {
  return state.attacks ?? [];
}

/**
 * The weapon an attack uses. RULING (choice): the weapon its declaration
 * stands for is the declaration's, else the weapon in hand (as every
 * procedure reads it). An attack naming a weapon must name that one (by its
 * name, trimmed, case aside); when neither names a weapon (natural attacks, a
 * weapon the engine was not told of) any weapon is taken. An attack naming a
 * monster's routine is refused when the declaration named a weapon, and must
 * be one of the routines its stat block lists when the engine knows how many.
 * An attack naming neither uses the declared weapon.
 */
function weaponProblem(state: FlowState, c: Combatant, input: AttackInput): Problem | null {
  const decl = actionOf(state, c.id);
  const declared = decl?.weapon?.name?.trim();
  if (input.routine !== undefined) {
    if (declared) return { key: 'AttackRoutineNotDeclared', data: { name: c.name, weapon: declared } };
    const count = c.attackRoutines;
    if (typeof count === 'number' && Number.isFinite(count) && input.routine >= count) {
      return { key: 'AttackRoutineUnknown', data: { name: c.name, routine: input.routine + 1, count } };
    }
  }
  const wielded = (decl?.weapon ?? c.weapon)?.name?.trim();
  if (input.weapon !== undefined && wielded && input.weapon.trim().toLowerCase() !== wielded.toLowerCase()) {
    return { key: 'AttackWeaponNotDeclared', data: { name: c.name, weapon: wielded, used: input.weapon } };
  }
  return null;
}

/**
 * The attacks the schedule still allows the attacker in the current step:
 * its acting attack entries' allowance (one per routine, a missile routine
 * its rate of fire; its turn's entry one), capped by the procedure, less the
 * attacks of the schedule it made in this step; `scheduled`: it has such an
 * entry at all. `able`: its state as it acts in this step.
 */
function scheduleLeft(state: FlowState, procedure: P, attacker: Combatant, able: CombatantState): { scheduled: boolean; left: number } {
  const id = attacker.id;
  const rules = procedure.attackRules;
  let scheduled = false;
  let allowance = 0;
  // The current step's entries and their outcomes, read in place.
  const entries = state.schedule?.steps[state.step]?.entries ?? [];
  const outcomes = state.outcomes[state.step] ?? [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.combatant !== id || outcomes[i] !== 'acts') continue;
    // addict footnote 19: a charge still closing at the end of the round does not attack (addict.ts CHARGE_FALLS_SHORT).
    if (entry.reason === 'addictChargeFallsShort') continue;
    if (ATTACK_ACTIONS.has(entry.action)) allowance += entryAllowance(state, attacker, entry);
    else if (entry.action === rules?.turn) allowance += 1;
    else continue;
    scheduled = true;
  }
  const cap = rules?.cap?.(state.states[id] ?? able);
  if (cap !== undefined) allowance = Math.min(allowance, cap);
  let here = 0;
  for (const a of made(state)) if (a.c === id && a.step === state.step && a.as === 'schedule') here++;
  return { scheduled, left: Math.max(0, allowance - here) };
}

/**
 * How many more attacks the schedule allows `id` in the current step (0 when
 * it cannot act, has forfeited its action, or it is not a round's step). The
 * odds' trials ask it once, then make that many attacks, each granted by
 * attackGrant.
 */
export function scheduledAttacksLeft(state: FlowState, id: string, procedure: P = getProcedure(state.procedure)): number {
  if (state.stage !== 'resolve' || !state.schedule?.steps[state.step] || forfeited(state, id)) return 0;
  const attacker = combatantOf(state, id);
  const able = attacker ? ableState(state, id, procedure) : null;
  return attacker && able ? scheduleLeft(state, procedure, attacker, able).left : 0;
}

/** What allows this attack now, or why nothing does. `able`: the attacker's state as it acts in this step. */
function grantOf(state: FlowState, procedure: P, attacker: Combatant, able: CombatantState, target: Combatant): AttackGranted {
  const id = attacker.id;
  const name = attacker.name;
  const rules = procedure.attackRules;
  // It moved and forfeited its action this round (the `moved` input, flow/moved.ts): no attack at all.
  if (forfeited(state, id)) return refuse('ActionForfeited', { name });
  const { scheduled, left } = scheduleLeft(state, procedure, attacker, able);
  // From rules revision 5 (retarget.ts): its target fell, and its owner has chosen to hold or to do nothing instead.
  const chosen = engineDecidesActing(state) ? retargetOf(state, id)?.choice : undefined;
  if (left > 0 && chosen !== 'hold' && chosen !== 'none') {
    // Its target fell: the attack waits for its owner's choice (retarget.ts).
    const fallen = waitingTarget(state, id);
    if (fallen !== undefined) return refuse('AttackWaitsForChoice', { name, target: nameOf(state, fallen) });
    return { ok: true, grant: 'schedule' };
  }
  const heldNow = chosen === 'hold' && !made(state).some((a) => a.c === id && a.as === 'held');
  if (heldNow) return { ok: true, grant: 'held' };

  // A held action is one attack, or the action it was released as (its entries in the schedule).
  const held = rules?.held !== undefined && holdHasCome(state, id, rules.held);
  if (held && !releasedThisRound(state, id) && !made(state).some((a) => a.c === id && a.as === 'held')) return { ok: true, grant: 'held' };

  const free =
    rules?.outOfTurn?.({
      attacker,
      target,
      state: able,
      surprised: surprisedNow(state, id),
      schedule: state.schedule as NonNullable<FlowState['schedule']>,
      step: state.step,
      entries: currentEntries(state),
      declarations: state.declarations,
      attacks: made(state),
      provoked: provokedBy(state, target.id, id),
    }) ?? null;
  if (free && 'grant' in free) return free.breaks && free.breaks.length > 0 ? { ok: true, grant: free.grant, breaks: free.breaks } : { ok: true, grant: free.grant };
  if (scheduled || held) return refuse('NoAttackLeft', { name });
  if (free) return { ok: false, problem: free.problem };
  return refuse('AttackNotYourStep', { name });
}

/**
 * "Not its step" said as a GM would: the step of this round in which its next attack comes ("Not Brand's turn:
 * Brand attacks in segment 5"), where the schedule has one still to come; else the problem as it is. `phaseName`
 * names a phase in the reader's words (a step timed by neither segment nor count).
 */
export function whenItAttacks(state: FlowState, c: string, problem: Problem | null, phaseName: (phase: string) => string = (p) => p): Problem | null {
  if (problem?.key !== 'AttackNotYourStep') return problem;
  const steps = state.schedule?.steps ?? [];
  const next = steps.find((s, k) => k > state.step && s.entries.some((e) => e.combatant === c && (e.kind === 'action' || e.kind === 'routine')));
  if (!next) return problem;
  const name = problem.data?.name ?? '';
  if (next.segment !== undefined) return { key: 'AttackNotYourStepSegment', data: { name, segment: next.segment } };
  if (next.count !== undefined) return { key: 'AttackNotYourStepCount', data: { name, count: next.count } };
  return { key: 'AttackNotYourStepPhase', data: { name, phase: phaseName(next.phase) } };
}

function malformed(input: AttackInput): boolean {
  return (
    !input ||
    typeof input !== 'object' ||
    typeof input.c !== 'string' ||
    typeof input.target !== 'string' ||
    (input.weapon !== undefined && typeof input.weapon !== 'string') ||
    (input.routine !== undefined && !(typeof input.routine === 'number' && Number.isInteger(input.routine) && input.routine >= 0)) ||
    (input.distance !== undefined && !(typeof input.distance === 'number' && Number.isFinite(input.distance) && input.distance >= 0))
  );
}

/** What allows this attack now (AttackGrant), or the Problem that refuses it. Pure: `state` is not changed. */
export function attackGrant(state: FlowState, input: AttackInput, procedure: P = getProcedure(state.procedure)): AttackGranted {
  if (malformed(input)) return { ok: false, problem: { key: 'MalformedRequest' } };
  if (!state.states[input.c]) return refuse('UnknownCombatant', { id: input.c });
  const name = nameOf(state, input.c);
  // Only while a round's steps are played: not while declaring, not once the last step is done.
  if (state.stage !== 'resolve' || !state.schedule?.steps[state.step]) return refuse('AttackOutsideRound', { name });
  const attacker = combatantOf(state, input.c);
  const able = attacker ? ableState(state, attacker.id, procedure) : null;
  if (!attacker || !able) {
    // From rules revision 5, the refusal says why (acting.ts): dead, fled, surrendered, dying, unconscious, routed.
    const reason = engineDecidesActing(state) ? actionRefusedBy(state, input.c, undefined, procedure) : null;
    return reason ? { ok: false, problem: cannotActProblem(state, input.c, reason) } : refuse('AttackerCannotAct', { name });
  }
  const target = combatantOf(state, input.target);
  if (!target || target.id === attacker.id) return refuse('AttackTargetInvalid', { name, target: nameOf(state, input.target) });
  // From rules revision 5: nobody is struck after falling (dead, fled, surrendered; acting.ts).
  const fallen = engineDecidesActing(state) ? fallenReason(state.states[target.id]) : null;
  if (fallen) return { ok: false, problem: fallenTargetProblem(state, attacker.id, target.id, fallen) };
  const granted = grantOf(state, procedure, attacker, able, target);
  if (!granted.ok) return granted;
  const weapon = weaponProblem(state, attacker, input);
  if (weapon) return { ok: false, problem: weapon };
  const range = rangeProblem(state, attacker, input);
  return range ? { ok: false, problem: range } : granted;
}

/**
 * A missile attack past its weapon's long range (src/rules/range.ts; the
 * weapon its declaration stands for, as weaponProblem reads it): refused.
 * No distance, or a weapon without ranges: not checked.
 */
function rangeProblem(state: FlowState, c: Combatant, input: AttackInput): Problem | null {
  if (input.distance === undefined) return null;
  const weapon = actionOf(state, c.id)?.weapon ?? c.weapon;
  const band = missileRangeBand(input.distance, weapon?.range);
  if (band !== 'beyond' || !weapon?.range) return null;
  return { key: 'AttackOutOfRange', data: { name: c.name, distance: Math.round(input.distance), long: weapon.range.long } };
}

/** Null if this attack can be made now, else the reason (a key under TENSEG.Error). */
export function attackProblem(state: FlowState, input: AttackInput, procedure: P = getProcedure(state.procedure)): Problem | null {
  const granted = attackGrant(state, input, procedure);
  return granted.ok ? null : granted.problem;
}

/**
 * Record an attack attackGrant allowed. Castings the grant breaks (high-low:
 * "a free attack taken will break concentration (e.g. spell casting)"; "If
 * this concentration is broken, the spell being cast fails and is lost as if
 * cast") are interrupted as a hit would, where still pending.
 */
export function recordAttack(state: FlowState, input: AttackInput, granted: Extract<AttackGranted, { ok: true }>): { attack: FlowAttack; interruptions?: FlowInterruption[] } {
  const attack: FlowAttack = { c: input.c, target: input.target, step: state.step, as: granted.grant };
  if (input.weapon !== undefined) attack.weapon = input.weapon;
  if (input.routine !== undefined) attack.routine = input.routine;
  (state.attacks ??= []).push(attack);
  const broken = new Set(granted.breaks ?? []);
  if (broken.size === 0 || !state.schedule) return { attack };
  const interruptions: FlowInterruption[] = [];
  for (const casting of state.schedule.castings) {
    if (!broken.has(casting.id) || state.status[casting.id] !== 'pending') continue;
    state.status[casting.id] = 'interrupted';
    const expended = casting.expends && !casting.device;
    if (expended) state.states[casting.caster].expended.push(casting.spell);
    const record: FlowInterruption = { round: state.round, step: state.step, casting: casting.id, caster: casting.caster, spell: casting.spell, outcome: 'interrupted', expended };
    state.interruptions.push(record);
    interruptions.push(record);
  }
  return interruptions.length > 0 ? { attack, interruptions } : { attack };
}
