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
 *    fire), counted again from zero in every step;
 *  - a held (segment-d6) or prepared (addict) action released: a `wait`
 *    entry that has come this round allows one attack in any later moment of
 *    the round;
 *  - an attack the procedure grants out of turn (freeAttack below).
 * It must use the weapon its declaration stands for (weaponProblem).
 *
 * "Able" is read at the start of the step where a blow landed in this same
 * step (README ruling, simultaneous actions: "Everything that happens in the
 * same segment ... fully resolves, including damage from a combatant that
 * dies in that segment"); the entries' outcomes were decided then too.
 */
import type { ActionKind, Combatant, CombatantState, Problem, ProcedureId } from '../model';
import type { Procedure, ProcedureOptions, StepEntry } from '../procedure';
import { castingsBrokenByFreeAttack, freeAttackProblem, type FreeAttackTaken } from '../procedures/high-low';
import { getProcedure } from '../registry';
import { currentEntries } from './read';
import { combatantOf, nameOf, type AttackGrant, type FlowAttack, type FlowInterruption, type FlowState } from './state';

type P = Procedure<ProcedureOptions>;

/** An attack made now: the attacker's combatant id, its target, the weapon (Declaration.weapon.name) or a monster's attack routine (its index, from 0). */
export interface AttackInput {
  t: 'attack';
  c: string;
  target: string;
  weapon?: string;
  routine?: number;
}

export type AttackGranted = { ok: true; grant: AttackGrant } | { ok: false; problem: Problem };

/** Entry actions that are attacks: melee, missiles, a charge, a weapon set against a charge, a defensive attack. */
const ATTACK_ACTIONS: ReadonlySet<ActionKind> = new Set<ActionKind>(['melee', 'missile', 'charge', 'set-vs-charge', 'defensive-attack']);

/**
 * An entry that is the combatant's turn to choose its action, an attack
 * among others: high-low "Declaring a Delay ... you act on LOW initiative".
 */
const TURN_ACTIONS: Partial<Record<ProcedureId, ActionKind>> = { 'high-low': 'delay' };

/**
 * An entry that holds an action for later in the round: segment-d6 "some
 * combatants might 'hold' (choose to delay) their actions, waiting to act
 * until these later segments"; addict "that action 'becomes prepared' at the
 * time it would normally resolve. Then, it's triggered when the case defined
 * by the player's declaration occurs".
 */
const HOLD_ACTIONS: Partial<Record<ProcedureId, ActionKind>> = { 'segment-d6': 'wait', addict: 'wait' };

function refuse(key: string, data: Record<string, string | number>): { ok: false; problem: Problem } {
  return { ok: false, problem: { key, data } };
}

/**
 * The attacker's state as it acts in this step, or null when it cannot act:
 * its state now, or, where a hit landed on it in this step, its condition
 * before the first such hit (simultaneous actions).
 */
function ableState(state: FlowState, id: string, procedure: P): CombatantState | null {
  const now = state.states[id];
  if (!now) return null;
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

/** Attacks one schedule entry allows: one per routine, a missile routine its weapon's rate of fire; none for a defensive attack declared without attacking. */
function entryAllowance(state: FlowState, c: Combatant, entry: StepEntry): number {
  const decl = state.declarations[c.id];
  // individual-speed: "a character may use Defensive Attack even if they do not actually attack" (declared with routines 0).
  if (entry.action === 'defensive-attack' && decl?.routines === 0) return 0;
  if (entry.action === 'missile') {
    const rate = (decl?.weapon ?? c.weapon)?.rate;
    if (typeof rate === 'number' && Number.isFinite(rate) && rate >= 1) return Math.floor(rate);
  }
  return 1;
}

/** Has a `hold` entry of this combatant come (and acted) in a step of this round up to the current one? */
function released(state: FlowState, id: string, hold: ActionKind): boolean {
  const steps = state.schedule?.steps ?? [];
  for (let k = 0; k <= state.step && k < steps.length; k++) {
    const outcomes = state.outcomes[k] ?? [];
    if (steps[k].entries.some((e, i) => e.combatant === id && e.action === hold && outcomes[i] === 'acts')) return true;
  }
  return false;
}

/** Does `id` do `action` in the current step, with one of these outcomes? */
function doesNow(state: FlowState, id: string, actions: readonly ActionKind[], outcomes: readonly string[] = ['acts']): boolean {
  return currentEntries(state).some(({ entry, outcome }) => entry.combatant === id && actions.includes(entry.action) && outcomes.includes(outcome));
}

/** Attacks made this round. */
function made(state: FlowState): readonly FlowAttack[] {
  return state.attacks ?? [];
}

type Free = { grant: AttackGrant } | { problem: Problem } | null;

/**
 * Attacks a procedure grants out of turn, read from what the state knows (the
 * step's entries, the declarations, the attacks made). Null: nothing grants
 * one now. Where the text asks for closeness (adjacent, in melee range, a
 * threat range), the engine has no positions: see each case.
 */
function freeAttack(state: FlowState, procedure: P, attacker: Combatant, able: CombatantState, target: Combatant): Free {
  const data = { name: attacker.name, target: target.name };
  const opponent = attacker.side !== target.side;
  switch (procedure.id) {
    case 'segment-d6': {
      // Seed 000: "Some actions may allow the other side to 'interrupt' with an action such as a fleeing attack": any
      // opponent of a combatant fleeing in this step, once per fleeing opponent a round (the GM judges who is close).
      if (!opponent || !doesNow(state, target.id, ['flee'])) return null;
      if (surprisedNow(state, attacker.id)) return { problem: { key: 'AttackerSurprised', data } };
      if (made(state).some((a) => a.c === attacker.id && a.target === target.id && a.as === 'fleeing-attack')) return { problem: { key: 'FleeingAttackTaken', data } };
      return { grant: 'fleeing-attack' };
    }
    case 'high-low': {
      // Seed 001 "Free Attack. [immediate]" (e.g. "Flee Melee"): at an opponent fleeing in this step. "Creatures drawing a
      // free attack can only be subject to one free attack ... per opponent per round. Only one free attack may be taken
      // per segment by any creature"; "Creatures with the surprised condition cannot make free attacks".
      if (!opponent || !doesNow(state, target.id, ['flee'])) return null;
      const taken: FreeAttackTaken[] = made(state)
        .filter((a) => a.as === 'free-attack')
        .map((a) => ({ attacker: a.c, target: a.target, step: a.step }));
      const problem = freeAttackProblem(attacker, target, state.step, able, surprisedNow(state, attacker.id), taken);
      return problem ? { problem } : { grant: 'free-attack' };
    }
    case 'd12-ascending': {
      // Seed 002 III.C "Missile fire versus adjacent opponents attacking you with a melee weapon draws an Attack of
      // Opportunity. Casting while in melee range also draws an AoO"; "Flee in panic ... Opponents may take an AoO at
      // your back"; III.F "Generally only one AoO per round per character". Engaged stands for adjacent / in melee
      // range: the attacker declared melee or a charge at the target, or the target's declaration is aimed at it.
      if (!opponent || !engaged(state, attacker.id, target.id)) return null;
      const trigger = doesNow(state, target.id, ['missile', 'flee']) || doesNow(state, target.id, ['spell', 'device'], ['begins']);
      if (!trigger) return null;
      if (surprisedNow(state, attacker.id)) return { problem: { key: 'AttackerSurprised', data } };
      if (made(state).some((a) => a.c === attacker.id && a.as === 'opportunity')) return { problem: { key: 'AttackOfOpportunityUsed', data } };
      return { grant: 'opportunity' };
    }
    case 'individual-speed': {
      // Seed 003: "when using the Full-Defense action ... if they are attacked they may make a Reposte as a Reaction":
      // at the one who attacked it in this step; one Reaction a round ("1 each of a Standard Action, Free Action, and
      // Reaction").
      if (state.declarations[attacker.id]?.action !== 'full-defense') return null;
      if (!made(state).some((a) => a.step === state.step && a.c === target.id && a.target === attacker.id)) return null;
      if (surprisedNow(state, attacker.id)) return { problem: { key: 'AttackerSurprised', data } };
      if (made(state).some((a) => a.c === attacker.id && a.as === 'riposte')) return { problem: { key: 'RiposteUsed', data } };
      return { grant: 'riposte' };
    }
    default:
      // addict: its out-of-sequence attacks are in the schedule (a weapon set against a charge) or prepared actions.
      return null;
  }
}

/** d12-ascending: the two are fighting each other, as far as the declarations tell. */
function engaged(state: FlowState, a: string, b: string): boolean {
  const da = state.declarations[a];
  const db = state.declarations[b];
  return ((da?.action === 'melee' || da?.action === 'charge') && da.target === b) || db?.target === a;
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
  const decl = state.declarations[c.id];
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

/** What allows this attack now, or why nothing does. `able`: the attacker's state as it acts in this step. */
function grantOf(state: FlowState, procedure: P, attacker: Combatant, able: CombatantState, target: Combatant): AttackGranted {
  const id = attacker.id;
  const name = attacker.name;
  const turn = TURN_ACTIONS[procedure.id];
  let scheduled = false;
  let allowance = 0;
  for (const { entry, outcome } of currentEntries(state)) {
    if (entry.combatant !== id || outcome !== 'acts' || !(ATTACK_ACTIONS.has(entry.action) || entry.action === turn)) continue;
    scheduled = true;
    allowance += entryAllowance(state, attacker, entry);
  }
  // individual-speed: "a Dying creature ... can only take 1 action of any kind on its turn".
  if (procedure.id === 'individual-speed' && state.states[id]?.condition === 'dying') allowance = Math.min(allowance, 1);
  const here = made(state).filter((a) => a.c === id && a.step === state.step && a.as === 'schedule').length;
  if (here < allowance) return { ok: true, grant: 'schedule' };

  const hold = HOLD_ACTIONS[procedure.id];
  const held = hold !== undefined && released(state, id, hold);
  if (held && !made(state).some((a) => a.c === id && a.as === 'held')) return { ok: true, grant: 'held' };

  const free = freeAttack(state, procedure, attacker, able, target);
  if (free && 'grant' in free) return { ok: true, grant: free.grant };
  if (scheduled || held) return refuse('NoAttackLeft', { name });
  if (free) return { ok: false, problem: free.problem };
  return refuse('AttackNotYourStep', { name });
}

function malformed(input: AttackInput): boolean {
  return (
    !input ||
    typeof input !== 'object' ||
    typeof input.c !== 'string' ||
    typeof input.target !== 'string' ||
    (input.weapon !== undefined && typeof input.weapon !== 'string') ||
    (input.routine !== undefined && !(typeof input.routine === 'number' && Number.isInteger(input.routine) && input.routine >= 0))
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
  if (!attacker || !able) return refuse('AttackerCannotAct', { name });
  const target = combatantOf(state, input.target);
  if (!target || target.id === attacker.id) return refuse('AttackTargetInvalid', { name, target: nameOf(state, input.target) });
  const granted = grantOf(state, procedure, attacker, able, target);
  if (!granted.ok) return granted;
  const weapon = weaponProblem(state, attacker, input);
  return weapon ? { ok: false, problem: weapon } : granted;
}

/** Null if this attack can be made now, else the reason (a key under TENSEG.Error). */
export function attackProblem(state: FlowState, input: AttackInput, procedure: P = getProcedure(state.procedure)): Problem | null {
  const granted = attackGrant(state, input, procedure);
  return granted.ok ? null : granted.problem;
}

/**
 * Record an attack attackGrant allowed. A high-low free attack breaks the
 * attacker's concentration (seed 001: "a free attack taken will break
 * concentration (e.g. spell casting)"; "If this concentration is broken, the
 * spell being cast fails and is lost as if cast"): its castings under way are
 * interrupted, as a hit would.
 */
export function recordAttack(state: FlowState, input: AttackInput, grant: AttackGrant): { attack: FlowAttack; interruptions?: FlowInterruption[] } {
  const attack: FlowAttack = { c: input.c, target: input.target, step: state.step, as: grant };
  if (input.weapon !== undefined) attack.weapon = input.weapon;
  if (input.routine !== undefined) attack.routine = input.routine;
  (state.attacks ??= []).push(attack);
  if (grant !== 'free-attack' || !state.schedule) return { attack };
  const interruptions: FlowInterruption[] = [];
  const broken = new Set(castingsBrokenByFreeAttack(state.schedule, input.c, state.step));
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
