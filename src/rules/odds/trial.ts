/**
 * One trial of the odds (issue 14): the encounter played once through the one
 * driver (flow/, applyInput) with rolled dice and rolled damage, and what it
 * gave (TrialResult). Driven input by input on one state, with no copy of it
 * per round (play.ts's playCombat copies for its logs; a trial needs none).
 *
 * A trial: the combat started (surprise rolled); addict's reactions and
 * distance recorded where the procedure has those phases; the surprise
 * segments (round 0) declared and played where the flow has them; then
 * rounds 1..maxRounds, each declared afresh from the setup (the last set
 * repeats). Every step: each entry that acts with an attack action attacks
 * while the flow grants it an attack of the schedule (attackGrant 'schedule':
 * the engine decides how many, routines and rate of fire), each rolled as
 * strike.ts rolls it, then the `attack` input and, when it did damage, the
 * `hit`; each spell that goes off does its SpellEffect (damage through `hit`,
 * foes disabled through `leave`). The fight ends as soon as one side or none
 * is left standing (after every step, after every end of round).
 */
import { parseAac0, type Aac0, type CreatureSize } from '../attack';
import { parseAttackRoutines } from '../attack-routines';
import type { Dice } from '../dice';
import type { ActionKind, Combatant, Declaration, Problem } from '../model';
import { AC_MAX, AC_MIN } from '../armor-class';
import { RulesError } from '../model';
import type { Procedure, ProcedureOptions, Schedule, StepEntry } from '../procedure';
import { isLoaded, getProcedure } from '../registry';
import { ACT_REFUSED_KEYS, applyInput, attackGrant, castingById, retargetOf, waitingTarget, checkStart, scheduledAttacksLeft, flowFrom, makeAttack, rollStart, spellAvailable, type CheckedStart, type FlowInput, type FlowState } from '../flow';
import { compile, DEFAULT_DAMAGE, rollCompiled, type Compiled } from './formula';
import { strike, type Blow } from './strike';
import { firstActionUnit } from './report';
import { castingKey, newTally, runTrials } from './tally';
import { nearest, type Position } from './nearest';
import type { CastingOutcome, FirstActionUnit, OddsSetup, Tally, TrialResult } from './types';

export { rollFormula } from './formula';

type P = Procedure<ProcedureOptions>;

/** Entry actions that are attacks (flow/attack.ts ATTACK_ACTIONS). */
const ATTACKS: ReadonlySet<ActionKind> = new Set<ActionKind>(['melee', 'missile', 'charge', 'set-vs-charge', 'defensive-attack']);

/** Refusals of a declaration a trial cannot foresee: a combatant that cannot act, a spell with no copy left, one gone, a final declaration. */
const TOLERATED = new Set(['CombatantCannotAct', 'SpellNotMemorized', 'UnknownCombatant', 'DeclarationFinal', 'DeclarationCancelled', 'DeclarationTargetFallen', ...ACT_REFUSED_KEYS]);

/* ------------------------------------------------------------ the setup, read once */

interface Fighter {
  aac0: Aac0;
  ac: number;
  size?: CreatureSize;
  small: Compiled | null;
  large: Compiled | null;
  melee: Compiled[] | null;
  missile: Compiled[] | null;
  position?: Position;
}

interface Effect {
  damage: Compiled | null;
  targets: number;
  disables: Compiled | null;
}

interface Prepared {
  fighters: Map<string, Fighter>;
  spells: Map<string, Effect>;
  /** Each (caster, spell) declared in any set, in order. */
  castings: { caster: string; spell: string }[];
  sides: string[];
  /** The start's checks, by procedure (flow/start.ts checkStart). */
  checked: Map<P, CheckedStart>;
}

const AAC0_20 = (parseAac0('20') as { ok: true; value: Aac0 }).value;
const prepared = new WeakMap<OddsSetup, Prepared>();

/** A routine's attacks' damage, one per attack roll ("by weapon" and the unreadable: the default). */
function routineDamage(text: string | undefined, mode: 'melee' | 'missile'): Compiled[] | null {
  if (!text) return null;
  const parsed = parseAttackRoutines(text);
  if (!parsed.ok) return null;
  const routine = parsed.value.find((r) => r.mode === mode) ?? (mode === 'missile' ? parsed.value[0] : undefined);
  if (!routine) return null;
  return routine.attacks.flatMap((a) => a.damage.map((d) => compile(d) ?? DEFAULT_DAMAGE));
}

function prepare(setup: OddsSetup): Prepared {
  let p = prepared.get(setup);
  if (p) return p;
  const fighters = new Map<string, Fighter>();
  for (const c of setup.encounter.combatants) {
    const f = setup.fighters?.[c.id] ?? {};
    const aac0 = f.aac0 === undefined ? null : parseAac0(f.aac0);
    const small = f.damage === undefined ? null : compile(f.damage);
    const fighter: Fighter = {
      aac0: aac0?.ok ? aac0.value : AAC0_20,
      ac: typeof f.ac === 'number' ? f.ac : 10,
      small,
      large: f.damageLarge === undefined ? small : compile(f.damageLarge),
      melee: routineDamage(f.attacks, 'melee'),
      missile: routineDamage(f.attacks, 'missile'),
    };
    if (f.size) fighter.size = f.size;
    if (f.position) fighter.position = { x: f.position.x, y: f.position.y };
    fighters.set(c.id, fighter);
  }
  const spells = new Map<string, Effect>();
  for (const [name, e] of Object.entries(setup.spells ?? {})) {
    spells.set(name, {
      damage: e.damage === undefined ? null : compile(e.damage),
      targets: typeof e.targets === 'number' && e.targets >= 1 ? Math.floor(e.targets) : 1,
      disables: e.disables === undefined ? null : compile(e.disables),
    });
  }
  const castings: Prepared['castings'] = [];
  const seen = new Set<string>();
  for (const set of [...(setup.surpriseDeclarations ? [setup.surpriseDeclarations] : []), ...setup.declarations]) {
    for (const [id, d] of Object.entries(set)) {
      if ((d.action !== 'spell' && d.action !== 'device') || !d.spell) continue;
      const key = castingKey(id, d.spell);
      if (seen.has(key)) continue;
      seen.add(key);
      castings.push({ caster: id, spell: d.spell });
    }
  }
  p = { fighters, spells, castings, sides: setup.encounter.sides.map((s) => s.id), checked: new Map() };
  prepared.set(setup, p);
  return p;
}

/* -------------------------------------------------------------- problems */

/**
 * What would stop the setup from being played, named per combatant or spell
 * (keys under TENSEG.Error): unreadable damage, AAC0 or attack routines, an
 * armor class off the scale, a spell's damage or disables unreadable, its
 * targets not a whole number ≥ 1, fighters of no combatant, a round cap
 * below 1; and, where the procedure is loaded, declarations it refuses.
 */
export function setupProblems(setup: OddsSetup): Problem[] {
  const out: Problem[] = [];
  const names = new Map(setup.encounter.combatants.map((c) => [c.id, c.name]));
  if (!(Number.isInteger(setup.maxRounds) && setup.maxRounds >= 1)) out.push({ key: 'OddsMaxRoundsInvalid', data: { value: String(setup.maxRounds) }, path: 'maxRounds' });
  for (const [id, f] of Object.entries(setup.fighters ?? {})) {
    const name = names.get(id);
    if (name === undefined) {
      out.push({ key: 'OddsFighterUnknown', data: { id }, path: `fighters.${id}` });
      continue;
    }
    for (const field of ['damage', 'damageLarge'] as const) {
      const text = f[field];
      if (text !== undefined && compile(text) === null) out.push({ key: 'OddsDamageUnreadable', data: { name, text: String(text) }, path: `fighters.${id}.${field}` });
    }
    if (f.aac0 !== undefined && !parseAac0(f.aac0).ok) out.push({ key: 'OddsAac0Unreadable', data: { name, value: String(f.aac0) }, path: `fighters.${id}.aac0` });
    if (f.ac !== undefined && !(Number.isInteger(f.ac) && f.ac >= AC_MIN && f.ac <= AC_MAX)) out.push({ key: 'OddsArmorClassInvalid', data: { name, value: String(f.ac) }, path: `fighters.${id}.ac` });
    if (f.attacks !== undefined && !parseAttackRoutines(f.attacks).ok) out.push({ key: 'OddsAttacksUnreadable', data: { name, text: String(f.attacks) }, path: `fighters.${id}.attacks` });
  }
  for (const [spell, e] of Object.entries(setup.spells ?? {})) {
    if (e.damage !== undefined && compile(e.damage) === null) out.push({ key: 'OddsSpellDamageUnreadable', data: { spell, text: String(e.damage) }, path: `spells.${spell}.damage` });
    if (e.disables !== undefined && compile(e.disables) === null) out.push({ key: 'OddsSpellDisablesUnreadable', data: { spell, text: String(e.disables) }, path: `spells.${spell}.disables` });
    if (e.targets !== undefined && !(Number.isInteger(e.targets) && e.targets >= 1)) out.push({ key: 'OddsSpellTargetsInvalid', data: { spell, value: String(e.targets) }, path: `spells.${spell}.targets` });
  }
  if (isLoaded(setup.procedure)) {
    const procedure = getProcedure(setup.procedure);
    const byId = new Map(setup.encounter.combatants.map((c) => [c.id, c]));
    const sets: [string, Record<string, Declaration>][] = setup.declarations.map((set, i) => [`declarations[${i}]`, set]);
    if (setup.surpriseDeclarations) sets.unshift(['surpriseDeclarations', setup.surpriseDeclarations]);
    for (const [path, set] of sets) {
      for (const [id, d] of Object.entries(set)) {
        const c = byId.get(id);
        const problem = c ? procedure.validateDeclaration({ ...d, combatant: id }, c, setup.options, setup.encounter) : { key: 'UnknownCombatant', data: { id } };
        if (problem) out.push({ ...problem, path: `${path}.${id}` });
      }
    }
  }
  return out;
}

/* ------------------------------------------------------------------ a trial */

/** A casting's first attempt, followed through the trial. */
interface Attempt {
  id: string | null;
  began: boolean;
  outcome: CastingOutcome | null;
}

class Trial {
  readonly state: FlowState;
  readonly p: Prepared;
  readonly firstAction: Record<string, number> = {};
  first: string | null = null;
  readonly attempts: Attempt[];
  private readonly attemptBy = new Map<string, number>();
  private readonly handled: string[] = [];
  /** The encounter's combatants by id (a combatant that leaves keeps its entry: its state says it fled). */
  private readonly byId = new Map<string, Combatant>();
  rounds = 0;
  /** A hit landed or a combatant left since the fight was last checked. */
  changed = true;
  private seenHits = 0;

  constructor(
    readonly setup: OddsSetup,
    readonly procedure: P,
    readonly dice: Dice,
  ) {
    this.p = prepare(setup);
    this.unit = firstActionUnit(procedure.id);
    // The start's checks once per setup and procedure; its dice (surprise, per-combat initiative) every trial.
    let checked = this.p.checked.get(procedure);
    if (!checked) {
      const c = checkStart(procedure, setup.options, setup.encounter);
      if (!c.ok) throw new RulesError(c.problem);
      this.p.checked.set(procedure, (checked = c.value));
    }
    // The encounter's lists are shared by the trials, read only: each trial has its own encounter object.
    const started = rollStart(checked, { ...setup.encounter }, dice, false);
    if (!started.ok) throw new RulesError(started.problem);
    this.state = flowFrom(started.start, true);
    for (const c of this.state.encounter.combatants) this.byId.set(c.id, c);
    this.attempts = this.p.castings.map(() => ({ id: null, began: false, outcome: null }));
    this.p.castings.forEach((c, i) => this.attemptBy.set(castingKey(c.caster, c.spell), i));
  }

  /** An input the trial cannot do without: a refusal is a RulesError. */
  must(input: FlowInput): void {
    if (input.t === 'hit' || input.t === 'leave') this.changed = true;
    const done = applyInput(this.state, input, this.dice, this.procedure);
    if (!done.ok) throw new RulesError(done.problem);
  }

  /** In the fight and able to fight: in the encounter (one that left has fled), able to act, neither routed nor fled. */
  standing(id: string): boolean {
    const s = this.state.states[id];
    return s !== undefined && s.condition !== 'fled' && !s.routed && !s.surrendered && this.procedure.canAct(s);
  }

  private combatant(id: string): Combatant | undefined {
    return this.byId.get(id);
  }

  /** The sides still standing: none, one (its id), or several (undefined). */
  standingSide(): string | null | undefined {
    let found: string | null = null;
    for (const c of this.state.encounter.combatants) {
      if (!this.standing(c.id)) continue;
      if (found === null) found = c.side;
      else if (found !== c.side) return undefined;
    }
    return found;
  }

  /** The nearest standing foe of `id` (nearest.ts: grid squares, else the encounter's order), skipping `not`. */
  nearestFoe(id: string, not?: ReadonlySet<string>): string | undefined {
    const me = this.combatant(id);
    if (!me) return undefined;
    const fighters = this.p.fighters;
    const foe = nearest(
      fighters.get(id)?.position,
      this.state.encounter.combatants,
      (c) => c.side !== me.side && !not?.has(c.id) && this.standing(c.id),
      (c) => fighters.get(c.id)?.position,
    );
    return foe?.id;
  }

  /** A standing target: the one given while it stands, else the nearest standing foe. */
  targetOf(id: string, declared: string | undefined): string | undefined {
    return declared !== undefined && declared !== id && this.standing(declared) ? declared : this.nearestFoe(id);
  }

  /** A round's declarations, afresh: the set's, retargeted, a spell with no copy left turned to the weapon; the rest withdrawn. */
  declare(set: Record<string, Declaration>): void {
    const state = this.state;
    for (const id of Object.keys(state.declarations)) if (!set[id] || !this.standing(id)) this.must({ t: 'withdraw', c: id });
    for (const id of Object.keys(set)) {
      if (!this.standing(id)) continue;
      let d: Declaration = { ...set[id], combatant: id };
      if ((d.action === 'spell' || d.action === 'device') && d.spell && !spellAvailable(state, d)) {
        const weapon = this.combatant(id)?.weapon;
        d = { combatant: id, action: weapon?.missile ? 'missile' : 'melee' };
        const foe = this.nearestFoe(id);
        if (foe !== undefined) d.target = foe;
      } else if (d.target !== undefined && !this.standing(d.target)) {
        const foe = this.nearestFoe(id);
        if (foe !== undefined) d.target = foe;
        else delete d.target;
      }
      // Carried on from last round as it is: declaring it again would change nothing.
      if (sameDeclaration(state.declarations[id], d)) continue;
      const done = applyInput(state, { t: 'declare', d }, this.dice, this.procedure);
      if (done.ok) continue;
      if (!TOLERATED.has(done.problem.key) && d.action === set[id].action) throw new RulesError({ ...done.problem, path: done.problem.path ?? id });
      if (state.declarations[id]) applyInput(state, { t: 'withdraw', c: id }, this.dice, this.procedure);
    }
  }

  /** The castings of the schedule just planned: the first attempt of each declared (caster, spell). */
  noteCastings(schedule: Schedule): void {
    for (const c of schedule.castings) {
      if (c.choosing) continue;
      const i = this.attemptBy.get(castingKey(c.caster, c.spell));
      if (i === undefined || this.attempts[i].id !== null) continue;
      this.attempts[i].id = c.id;
      if (c.beginStep < 0) this.attempts[i].began = true;
    }
  }

  /** Each attempt whose casting has ended: its outcome, once. */
  readCastings(): void {
    for (const a of this.attempts) {
      if (a.id === null || a.outcome !== null) continue;
      const st = this.state.status[a.id];
      if (st === 'done') a.outcome = 'off';
      else if (st === 'prevented') a.outcome = 'prevented';
      else if (st === 'interrupted') a.outcome = a.began ? 'interrupted' : 'not-cast';
      else if (st === 'cancelled') a.outcome = 'not-cast';
    }
  }

  /** Step k of the round: first actions (round 1), attacks, spells going off. */
  playStep(k: number): void {
    const state = this.state;
    const schedule = state.schedule as Schedule;
    const step = schedule.steps[k];
    const outcomes = state.outcomes[k] ?? [];
    const entries = step.entries;
    // First actions of round 1, and the castings begun.
    for (let i = 0; i < entries.length; i++) {
      const o = outcomes[i];
      if (o !== 'acts' && o !== 'begins' && o !== 'goes-off') continue;
      const e = entries[i];
      if (e.casting !== undefined && this.attempts.length > 0) {
        for (const a of this.attempts) if (a.id === e.casting) a.began = true;
      }
      if (state.round !== 1 || this.firstAction[e.combatant] !== undefined) continue;
      // A step with no segment (count) of its own is no moment of action: individual-speed's castings "since the start
      // of the round" act at their count, when they go off.
      const n = this.unit === 'segment' ? step.segment : this.unit === 'count' ? step.count : this.orderOf(k);
      if (n === undefined) continue;
      this.firstAction[e.combatant] = n;
      const side = this.sideOf(e.combatant);
      if (this.firstStep === -1) {
        this.firstStep = k;
        this.first = side;
      } else if (this.firstStep === k && this.first !== side) this.first = '';
    }
    // Attacks: each combatant once per step, as many as the schedule grants.
    this.handled.length = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (outcomes[i] !== 'acts' || !ATTACKS.has(e.action) || this.handled.includes(e.combatant)) continue;
      this.handled.push(e.combatant);
      this.attacks(e);
    }
    // Spells going off.
    for (let i = 0; i < entries.length; i++) {
      if (outcomes[i] !== 'goes-off') continue;
      const e = entries[i];
      const casting = e.casting !== undefined ? castingById(schedule, e.casting) : undefined;
      if (casting) this.spell(casting.caster, casting.spell, e);
    }
  }

  private firstStep = -1;
  private readonly unit: FirstActionUnit;

  private sideOf(id: string): string {
    return this.combatant(id)?.side ?? '';
  }

  /** The place of step k among the round's steps where someone acts (1 = first). */
  private orderOf(k: number): number {
    let n = 0;
    for (let j = 0; j <= k; j++) {
      const outcomes = this.state.outcomes[j] ?? [];
      if (outcomes.some((o) => o === 'acts' || o === 'begins' || o === 'goes-off')) n++;
    }
    return n;
  }

  /** What an attacker strikes with this action: its weapon's column by the target's size, else its routine, else 1d6. */
  private blowOf(id: string, action: ActionKind, target: string): Blow {
    const f = this.p.fighters.get(id);
    const decl = this.state.declarations[id];
    const weapon = decl?.weapon ?? this.combatant(id)?.weapon;
    const missile = action === 'missile' || (weapon?.missile ?? false);
    const blow: Blow = { damage: [DEFAULT_DAMAGE], missile };
    if (weapon) blow.weapon = weapon;
    if (f?.small) {
      const large = this.p.fighters.get(target)?.size === 'large';
      blow.damage = [(large ? f.large : f.small) ?? f.small];
    } else {
      const routine = missile ? (f?.missile ?? f?.melee) : f?.melee;
      if (routine && routine.length > 0) blow.damage = routine;
    }
    return blow;
  }

  /** An entry's attacks: while the schedule grants one, at its target (the nearest standing foe once it fell). */
  private attacks(e: StepEntry): void {
    const id = e.combatant;
    const attacker = this.combatant(id);
    if (!attacker) return;
    const me = this.p.fighters.get(id) as Fighter;
    // As many as the schedule allows it now (asked once), each granted by the engine.
    const left = scheduledAttacksLeft(this.state, id, this.procedure);
    for (let n = 0; n < left; n++) {
      // Its target fell before its blow (rules revision 5, flow/retarget.ts): its owner's choice first, as the runner's
      // default (play.ts defaultTarget) — the nearest standing foe, else nothing.
      if (waitingTarget(this.state, id) !== undefined) {
        const foe = this.nearestFoe(id);
        this.must(foe !== undefined ? { t: 'retarget', c: id, choice: 'target', target: foe } : { t: 'retarget', c: id, choice: 'none' });
        if (foe === undefined) return;
      }
      const target = this.targetOf(id, retargetOf(this.state, id)?.target ?? e.target ?? this.state.declarations[id]?.target);
      if (target === undefined) return;
      const input: FlowInput & { t: 'attack' } = { t: 'attack', c: id, target };
      const granted = attackGrant(this.state, input, this.procedure);
      if (!granted.ok || granted.grant !== 'schedule') return;
      const struck = this.combatant(target) as Combatant;
      const landed = strike(this.state, this.procedure, { combatant: attacker, aac0: me.aac0 }, { combatant: struck, ac: (this.p.fighters.get(target) as Fighter).ac }, this.blowOf(id, e.action, target), this.dice);
      // The flow's own `attack` input, its grant asked once.
      makeAttack(this.state, input, granted, this.procedure);
      if (landed.amount > 0) {
        const hit: FlowInput & { t: 'hit' } = { t: 'hit', target, amount: landed.amount, by: id };
        if (landed.critical) hit.critical = true;
        if (landed.type !== undefined) hit.type = landed.type;
        this.must(hit);
      }
    }
  }

  /** A spell going off: its damage to its targets, then the foes it disables leave the fight. */
  private spell(caster: string, name: string, e: StepEntry): void {
    const effect = this.p.spells.get(name);
    if (!effect) return;
    const declared = e.target ?? this.state.declarations[caster]?.target;
    const round = this.state.round;
    const pick = (n: number): string[] => {
      const out: string[] = [];
      const taken = new Set<string>();
      if (declared !== undefined && declared !== caster && this.standing(declared) && this.sideOf(declared) !== this.sideOf(caster)) {
        out.push(declared);
        taken.add(declared);
      }
      while (out.length < n) {
        const foe = this.nearestFoe(caster, taken);
        if (foe === undefined) break;
        out.push(foe);
        taken.add(foe);
      }
      return out.slice(0, n);
    };
    if (effect.damage) {
      for (const target of pick(effect.targets)) {
        const amount = rollCompiled(effect.damage, this.dice, 'damage', caster, round);
        if (amount > 0) this.must({ t: 'hit', target, amount, by: caster });
      }
    }
    if (effect.disables) {
      const n = rollCompiled(effect.disables, this.dice, 'other', caster, round);
      if (n > 0) for (const target of pick(n)) this.must({ t: 'leave', c: target });
    }
  }

  /**
   * The steps of the round being played, then its end; true as soon as the
   * fight is decided (after a step, or after the end of the round).
   */
  playRound(): boolean {
    const state = this.state;
    this.noteCastings(state.schedule as Schedule);
    this.seenHits = 0;
    for (;;) {
      const schedule = state.schedule as Schedule;
      if (state.step < schedule.steps.length) {
        this.playStep(state.step);
        if (this.attempts.length > 0) this.readCastings();
        // A hit of the flow's own (individual-speed: the Wound Point a hurt combatant pays for acting) counts too.
        if (this.changed || state.hits.length !== this.seenHits) {
          this.changed = false;
          this.seenHits = state.hits.length;
          if (this.standingSide() !== undefined) return true;
        }
      }
      const last = state.step + 1 >= schedule.steps.length;
      this.must({ t: 'next' });
      if (last) break;
    }
    this.readCastings();
    return state.round > 0 && this.standingSide() !== undefined;
  }

  result(undecided: boolean): TrialResult {
    this.readCastings();
    const state = this.state;
    const winner = undecided ? null : (this.standingSide() ?? null);
    const surprised: Record<string, number> = {};
    for (const s of this.p.sides) surprised[s] = 0;
    for (const c of this.setup.encounter.combatants) {
      const n = state.surprise.surprised[c.id] ?? 0;
      if (n > (surprised[c.side] ?? 0)) surprised[c.side] = n;
    }
    const sideFirstAction: Record<string, number> = {};
    for (const [id, n] of Object.entries(this.firstAction)) {
      const side = this.sideOf(id);
      if (sideFirstAction[side] === undefined || n < sideFirstAction[side]) sideFirstAction[side] = n;
    }
    return {
      winner,
      undecided,
      rounds: Math.max(1, this.rounds),
      surprised,
      first: this.first,
      firstAction: this.firstAction,
      sideFirstAction,
      castings: this.p.castings.map((c, i) => ({ caster: c.caster, spell: c.spell, outcome: this.attempts[i].outcome ?? 'not-cast' })),
    };
  }
}

/** The same declaration (its fields one by one; a weapon by its JSON)? */
function sameDeclaration(a: Declaration | undefined, b: Declaration): boolean {
  if (!a) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const x = (a as unknown as Record<string, unknown>)[k];
    const y = (b as unknown as Record<string, unknown>)[k];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/** The declarations of round r (1, 2, …): the setup's entry min(r, length) - 1. */
function setOf(setup: OddsSetup, round: number): Record<string, Declaration> {
  const list = setup.declarations;
  return list.length === 0 ? {} : list[Math.min(round, list.length) - 1];
}

/**
 * Play the encounter once with these dice: surprise, the surprise segments
 * where the flow has them, then up to setup.maxRounds rounds. A refusal the
 * trial could not foresee (anything but a combatant or spell that can no
 * longer be declared) is a RulesError: setupProblems names them first.
 */
export function playTrial(setup: OddsSetup, procedure: P, dice: Dice): TrialResult {
  const t = new Trial(setup, procedure, dice);
  const state = t.state;
  // addict phases 1 and 3, where the procedure has them.
  if (procedure.flowInputs?.gmPhase) {
    for (const r of setup.reactions ?? []) t.must({ t: 'reaction', ...r });
    if (setup.distance !== undefined) t.must({ t: 'distance', feet: setup.distance });
  }
  if (t.standingSide() !== undefined) return t.result(false);
  if (state.round === 0) {
    t.declare(setup.surpriseDeclarations ?? setOf(setup, 1));
    t.must({ t: 'next' });
    if (state.stage === 'resolve') {
      if (t.playRound()) return t.result(false);
      t.must({ t: 'next' });
    }
  }
  const max = Math.max(1, Math.floor(setup.maxRounds));
  for (let round = 1; round <= max; round++) {
    t.rounds = round;
    t.declare(setOf(setup, round));
    t.must({ t: 'next' });
    if (t.playRound()) return t.result(false);
    if (round < max) t.must({ t: 'next' });
  }
  return t.result(true);
}

/**
 * Trials from..to-1 of a setup, each from its own seed (tally.ts runTrials),
 * tallied: a batch as the runner's worker threads and the dialog's Worker
 * play it. `stop` is asked between trials.
 */
export function tallyTrials(setup: OddsSetup, procedure: P, seed: number, from: number, to: number, stop?: () => boolean): { played: number; tally: Tally } {
  const tally = newTally(setup.procedure);
  const played = runTrials((dice) => playTrial(setup, procedure, dice), setup.procedure, seed, from, to, tally, stop);
  return { played, tally };
}
