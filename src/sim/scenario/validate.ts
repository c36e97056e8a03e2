/**
 * Validating a scenario file (already parsed into plain values). Nothing is
 * run: the result is a ready scenario or every problem found, each naming its
 * field. The file is read section by section, in the order a reader writes
 * it; each section is a method of ScenarioReader.
 *
 * Shape (README.md, "The scenario file", has an example):
 *   title?, description?, procedure, options?, rounds?
 *   sides: [{ id, name?, alerted?, surprised? }]
 *   combatants: [{ id, name?, side, hp, ...Combatant stats }]
 *   declarations?: { surprise | 0 | 1 | 2 …: [{ combatant, action, … }] or { <id>: { action, … } } }
 *   dice?, damage?, joins?, morale?, cancel?, choose?, retarget?
 *   delays?, releases?, breaks?, attacks? (mid-round actions, each at a moment of its round)
 *   reactions?, distance?, staunch? (addict phases 1, 3, 11)
 *   heal?, injuries? (individual-speed: Heal checks, Combat Injuries the GM enters)
 *   spells? ({ <spell name>: { damage?, targets?, disables? } }: rolled play only)
 * A combatant may also carry stats for rolled play (`npm run odds`): ac, aac0,
 * size, attacks, position, and damage / damageLarge on its weapon. They go
 * into ValidScenario.fighters, never into the Combatant the runner plays.
 */
import type { DiePurpose } from '../../rules/dice';
import { isPossibleTotal } from '../../rules/dice';
import type { Combatant, DamageType, Declaration, Problem, ProcedureId, Side } from '../../rules/model';
import { PROCEDURE_IDS, isProcedureId } from '../../rules/model';
import type { Procedure, ProcedureOptions } from '../../rules/procedure';
import { resolveOptions } from '../../rules/procedure';
import { plainStartingCondition, startingConditionProblem } from '../../rules/round';
import type { DamageEvent, Moment, ScriptedAttack, ScriptedBreak, ScriptedDelay, ScriptedRelease, ScriptedRetarget, ScriptedWound } from '../../rules/play';
import type { WoundInput } from '../../rules/flow/wounds';
import { RELEASABLE } from '../../rules/flow/midround';
import type { BreakCause } from '../../rules/flow/state';
import type { CreatureSize } from '../../rules/attack';
import { parseAac0 } from '../../rules/armor-class';
import { parseAttackRoutines } from '../../rules/attack-routines';
import { damageFormula } from '../../rules/dice';
import type { FighterStats, SpellEffect } from '../../rules/odds/types';
import { checkObject, checkValue, Collector, controlFree, excerpt, isRecord, join, listAt, show, suggest } from './check';
import {
  ATTACK_FIELDS,
  BREAK_FIELDS,
  CANCEL_FIELDS,
  CHOOSE_FIELDS,
  RETARGET_FIELDS,
  COMBATANT_FIELDS,
  DISTANCE_SPEC,
  DAMAGE_FIELDS,
  DECLARATION_FIELDS,
  DELAY_FIELDS,
  DIE_FIELDS,
  FIGHTER_FIELDS,
  FIGHTER_KEYS,
  HEAL_FIELDS,
  INJURY_FIELDS,
  int,
  JOIN_FIELDS,
  KNOWN_DICE,
  MOMENT_FIELDS,
  MORALE_FIELDS,
  POSITION_FIELDS,
  RELEASE_FIELDS,
  REACTION_FIELDS,
  SIDE_FIELDS,
  SPELL_EFFECT_FIELDS,
  STAUNCH_FIELDS,
  str,
  text,
  TOP_FIELDS,
  WEAPON_DAMAGE_FIELDS,
  WEAPON_FIELDS,
  type Spec,
} from './fields';
import {
  MAX_COMBATANTS,
  MAX_ROUNDS,
  type ProcedureTable,
  type ScenarioCancel,
  type ScenarioChoice,
  type ScenarioJoin,
  type ScenarioMorale,
  type ScenarioNote,
  type ScenarioReaction,
  type ScenarioStaunch,
  type ScriptedDie,
  type ValidateOverrides,
  type ValidationResult,
} from './types';

/** Round keys of `declarations`: "surprise" or 0 for round 0, then 1, 2, … */
function roundOfKey(key: string): number | null {
  if (key === 'surprise') return 0;
  if (!/^\d+$/.test(key)) return null;
  return Number(key);
}

const SCALAR_OPTION = ['boolean', 'number', 'string'];

const COMBATANT_KEYS = new Set(Object.keys(COMBATANT_FIELDS));
const WEAPON_KEYS = new Set(Object.keys(WEAPON_FIELDS));

/** A parser's problem data with the file's text in it quoted as an excerpt (a message quotes no more than that). */
function quoted(data: Record<string, string | number> | undefined): Record<string, string | number> {
  return Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, typeof v === 'string' ? excerpt(v) : v]));
}

class ScenarioReader {
  readonly out = new Collector();
  readonly notes: ScenarioNote[] = [];
  originalId: ProcedureId | null = null;
  original: Procedure<ProcedureOptions> | undefined;
  procedure: Procedure<ProcedureOptions> | undefined;
  switched = false;
  options: ProcedureOptions = {};
  readonly sides: Side[] = [];
  readonly sideIds = new Set<string>();
  /** Every combatant id (joiners too), where it was written and the round it joins. */
  readonly ids = new Map<string, { path: string; joinRound?: number }>();
  readonly combatants: Combatant[] = [];
  readonly byId = new Map<string, Combatant>();
  /** Each combatant's stats for rolled play (joiners too), by id. */
  readonly fighters = new Map<string, FighterStats>();
  joinerCombatants: (Combatant | undefined)[] = [];
  explicitRounds: number | undefined;
  impliedRounds = 1;
  /** More combatants than MAX_COMBATANTS: nothing that names them is checked. */
  tooMany = false;
  /** Declarations to check against the procedure once everything is read. */
  readonly toCheck: { decl: Declaration; path: string }[] = [];
  /** Morale checks to put to the procedure once everything is read. */
  readonly moraleToCheck: { request: ScenarioMorale; path: string }[] = [];

  constructor(
    readonly raw: Record<string, unknown>,
    private readonly procedures: ProcedureTable,
    private readonly overrides: ValidateOverrides,
  ) {}

  /* -------------------------------------------------- procedure and options */

  readProcedure(): void {
    const { raw, out } = this;
    if (raw.procedure === undefined || raw.procedure === null) out.add('FieldMissing', 'procedure', { field: 'procedure' });
    else if (typeof raw.procedure === 'string' && !controlFree(raw.procedure, 'procedure', 'procedure', out)) {
      // named as it is: not as an unknown procedure that looks like a known one
    } else if (!isProcedureId(raw.procedure)) {
      const s = typeof raw.procedure === 'string' ? suggest(raw.procedure, PROCEDURE_IDS) : undefined;
      out.add(s ? 'UnknownProcedureDidYouMean' : 'UnknownProcedure', 'procedure', {
        id: show(raw.procedure),
        ...(s ? { suggestion: s } : { allowed: PROCEDURE_IDS.join(', ') }),
      });
    } else this.originalId = raw.procedure;

    let procedureId: ProcedureId | null = this.originalId;
    if (this.overrides.procedure !== undefined) {
      if (!controlFree(this.overrides.procedure, '--procedure', '--procedure', out)) procedureId = null;
      else if (!isProcedureId(this.overrides.procedure)) {
        out.add('UnknownProcedure', '--procedure', { id: this.overrides.procedure, allowed: PROCEDURE_IDS.join(', ') });
        procedureId = null;
      } else procedureId = this.overrides.procedure;
    }
    this.original = this.originalId ? this.procedures[this.originalId] : undefined;
    this.procedure = procedureId ? this.procedures[procedureId] : undefined;
    if (this.originalId && !this.original) out.add('ProcedureUnavailable', 'procedure', { id: this.originalId });
    if (procedureId && procedureId !== this.originalId && !this.procedure) out.add('ProcedureUnavailable', '--procedure', { id: procedureId });
    this.switched = procedureId !== null && this.originalId !== null && procedureId !== this.originalId;
    this.options = this.procedure ? { ...this.procedure.defaults } : {};
  }

  /** The options belong to the procedure the file names; under --procedure they are dropped, with a note. */
  readOptions(): void {
    const { raw, out } = this;
    if (raw.options === undefined || raw.options === null) return;
    if (!isRecord(raw.options)) return out.add('ExpectedObject', 'options', { field: 'options' });
    if (!this.original) return;
    const given = raw.options;
    for (const [k, v] of Object.entries(given)) {
      if (!SCALAR_OPTION.includes(typeof v)) out.add('BadOption', join('options', k), { option: k, procedure: this.original.id, value: show(v) });
    }
    const clean = Object.fromEntries(Object.entries(given).filter(([, v]) => SCALAR_OPTION.includes(typeof v)));
    const r = resolveOptions(this.original, clean as ProcedureOptions);
    for (const p of r.problems) out.problems.push({ ...p, path: join('options', String(p.data?.option ?? '')) });
    if (!this.switched) this.options = r.options;
    else if (Object.keys(given).length > 0) {
      this.notes.push({ key: 'TENSEG.Sim.Note.OptionsDropped', data: { options: Object.keys(given).join(', '), from: this.originalId as string, to: this.procedure?.id ?? '' } });
    }
  }

  /* ------------------------------------------------- sides and combatants */

  readSides(): void {
    const { raw, out } = this;
    listAt(raw, 'sides', out).forEach((s, i) => {
      const path = `sides[${i}]`;
      const o = checkObject(s, SIDE_FIELDS, path, out);
      const id = isRecord(s) && typeof s.id === 'string' ? s.id : undefined;
      if (id !== undefined) {
        if (this.sideIds.has(id)) out.add('DuplicateId', join(path, 'id'), { id });
        this.sideIds.add(id);
      }
      if (!o) return;
      const side: Side = { id: o.id as string, name: (o.name as string | undefined) ?? (o.id as string) };
      if (o.alerted !== undefined) side.alerted = o.alerted as boolean;
      if (o.surprised !== undefined) side.surprised = o.surprised as boolean;
      this.sides.push(side);
    });
    if (raw.sides === undefined) out.add('FieldMissing', 'sides', { field: 'sides' });
    else if (Array.isArray(raw.sides) && raw.sides.length < 2) out.add('TooFewSides', 'sides', { count: raw.sides.length });
  }

  private checkCombatant(value: unknown, path: string, joinRound?: number): Combatant | undefined {
    const { out } = this;
    const before = out.problems.length;
    const split = isRecord(value) ? this.splitFighter(value, path) : undefined;
    // A stat that cannot be read refuses the combatant, as any field of it does.
    const statsRead = out.problems.length === before;
    const o = checkObject(split ? split.rest : value, COMBATANT_FIELDS, path, out);
    const id = isRecord(value) && typeof value.id === 'string' ? value.id : undefined;
    if (id !== undefined) {
      if (this.ids.has(id)) out.add('DuplicateId', join(path, 'id'), { id });
      else this.ids.set(id, { path, joinRound });
    }
    if (isRecord(value) && typeof value.side === 'string' && !this.sideIds.has(value.side)) {
      out.add('UnknownSide', join(path, 'side'), { name: show(value.name ?? value.id ?? ''), side: value.side });
      return undefined;
    }
    if (!o || !statsRead) return undefined;
    if (!this.fighters.has(o.id as string)) this.fighters.set(o.id as string, split?.stats ?? {});
    return { ...o, name: (o.name as string | undefined) ?? (o.id as string) } as unknown as Combatant;
  }

  /**
   * A combatant as the file writes it, less its stats for rolled play
   * (FIGHTER_FIELDS, `position`, its weapon's `damage` and `damageLarge`):
   * those are checked here and returned as FighterStats, the rest is what
   * the runner plays, for COMBATANT_FIELDS. Unknown fields are named here,
   * with the stats among the known ones, and left out of the rest.
   */
  private splitFighter(value: Record<string, unknown>, path: string): { rest: Record<string, unknown>; stats: FighterStats } {
    const rest: Record<string, unknown> = {};
    const stats: FighterStats = {};
    for (const [key, v] of Object.entries(value)) {
      if (!COMBATANT_KEYS.has(key) && !FIGHTER_KEYS.includes(key)) this.out.unknownField(key, path, [...COMBATANT_KEYS, ...FIGHTER_KEYS]);
      else if (!FIGHTER_KEYS.includes(key)) rest[key] = v;
      else if (v !== null && v !== undefined) this.fighterStat(key, v, join(path, key), stats);
    }
    if (isRecord(value.weapon)) {
      const weapon: Record<string, unknown> = {};
      const at = join(path, 'weapon');
      for (const [key, v] of Object.entries(value.weapon)) {
        if (key === 'damage' || key === 'damageLarge') {
          if (v === null || v === undefined) continue;
          const formula = this.damageText(v, join(at, key), key);
          if (formula !== undefined) stats[key] = formula;
        } else if (WEAPON_KEYS.has(key)) weapon[key] = v;
        else this.out.unknownField(key, at, [...WEAPON_KEYS, ...Object.keys(WEAPON_DAMAGE_FIELDS)]);
      }
      // A weapon written only for its damage (a monster's claws) is no weapon to the runner.
      if (Object.keys(weapon).length > 0 || Object.keys(value.weapon).length === 0) rest.weapon = weapon;
      else delete rest.weapon;
    }
    return { rest, stats };
  }

  /** One stat for rolled play, checked and put into `stats` (a problem recorded when it cannot be read). */
  private fighterStat(key: string, v: unknown, path: string, stats: FighterStats): void {
    const { out } = this;
    if (key === 'position') {
      const o = checkObject(v, POSITION_FIELDS, path, out);
      if (o) stats.position = { x: o.x as number, y: o.y as number };
      return;
    }
    const checked = checkValue(v, FIGHTER_FIELDS[key], path, key, out);
    if (checked === undefined) return;
    if (key === 'ac') stats.ac = checked as number;
    else if (key === 'size') stats.size = checked as CreatureSize;
    else if (key === 'aac0') {
      const parsed = parseAac0(checked);
      if (parsed.ok) stats.aac0 = parsed.value.text;
      else out.add('Aac0Invalid', path, { value: show(v) });
    } else {
      const parsed = parseAttackRoutines(checked);
      if (parsed.ok) stats.attacks = (checked as string).trim();
      else out.problems.push({ ...parsed.problem, path, data: quoted(parsed.problem.data) });
    }
  }

  /** A damage roll as a stat block writes it ("1d8", "2-8", "1d6+1", "3"): the text, trimmed, or undefined (a problem recorded). */
  private damageText(v: unknown, path: string, field: string): string | undefined {
    const text = checkValue(v, str, path, field, this.out);
    if (typeof text !== 'string') return undefined;
    if (damageFormula(text) !== null) return text.trim();
    this.out.add('ScenarioOddsDamageInvalid', path, { field, value: show(text) });
    return undefined;
  }

  /* --------------------------------------------------- spells (rolled play) */

  /**
   * `spells`: what each spell does when it goes off, by its name. A name no
   * combatant knows or declares is refused (a slip: the effect would never be
   * used), with the nearest known name where one is close.
   */
  readSpells(): Record<string, SpellEffect> {
    const { raw, out } = this;
    const spells = new Map<string, SpellEffect>();
    if (raw.spells === undefined || raw.spells === null) return {};
    if (!isRecord(raw.spells)) {
      out.add('ExpectedObject', 'spells', { field: 'spells' });
      return {};
    }
    const known = this.knownSpells();
    for (const [name, v] of Object.entries(raw.spells)) {
      const path = join('spells', excerpt(name));
      if (!controlFree(name, path, 'spells', out)) continue;
      if (name.trim() === '') {
        out.add('EmptyText', path, { field: 'spells' });
        continue;
      }
      if (!known.has(name)) {
        const s = suggest(name, [...known]);
        out.add(s ? 'ScenarioOddsSpellUnknownDidYouMean' : 'ScenarioOddsSpellUnknown', path, s ? { spell: excerpt(name), suggestion: s } : { spell: excerpt(name) });
        continue;
      }
      if (v === null || v === undefined) {
        spells.set(name, {});
        continue;
      }
      const o = checkObject(v, SPELL_EFFECT_FIELDS, path, out);
      if (!o) continue;
      const effect: SpellEffect = {};
      for (const k of ['damage', 'disables'] as const) {
        if (o[k] === undefined) continue;
        const formula = this.damageText(o[k], join(path, k), k);
        if (formula !== undefined) effect[k] = formula;
      }
      if (o.targets !== undefined) effect.targets = o.targets as number;
      spells.set(name, effect);
    }
    return Object.fromEntries(spells);
  }

  /** Every spell a combatant knows (its `spells`) or a declaration, a join or a choice names. */
  private knownSpells(): Set<string> {
    const known = new Set<string>();
    for (const c of this.byId.values()) for (const s of c.spells ?? []) known.add(s);
    for (const { decl } of this.toCheck) if (decl.spell !== undefined) known.add(decl.spell);
    const chosen = listAt(this.raw, 'choose', new Collector());
    for (const c of chosen) if (isRecord(c) && typeof c.spell === 'string') known.add(c.spell);
    return known;
  }

  /** The combatants, and the joiners (they share the id space), so later sections may name them. */
  readCombatants(): void {
    const { raw, out } = this;
    // Counted before anything is checked: a hostile file is refused before any work.
    const listed = listAt(raw, 'combatants', out);
    const joining = Array.isArray(raw.joins) ? raw.joins.length : 0;
    if (listed.length + joining > MAX_COMBATANTS) {
      const path = listed.length > MAX_COMBATANTS || joining === 0 ? 'combatants' : 'joins';
      out.add('TooManyCombatants', path, { count: listed.length + joining, combatants: listed.length, joiners: joining, max: MAX_COMBATANTS });
      this.tooMany = true;
      return;
    }
    listed.forEach((c, i) => {
      const checked = this.checkCombatant(c, `combatants[${i}]`);
      if (checked) this.combatants.push(checked);
    });
    if (raw.combatants === undefined) out.add('FieldMissing', 'combatants', { field: 'combatants' });
    else if (Array.isArray(raw.combatants) && raw.combatants.length === 0) out.add('NoCombatants', 'combatants');
    this.joinerCombatants = listAt(raw, 'joins', out).map((j, i) => {
      if (!isRecord(j)) return undefined;
      const round = typeof j.round === 'number' && Number.isInteger(j.round) ? j.round : undefined;
      return j.combatant === undefined ? undefined : this.checkCombatant(j.combatant, join(`joins[${i}]`, 'combatant'), round);
    });
    for (const c of this.combatants) this.byId.set(c.id, c);
    for (const c of this.joinerCombatants) if (c) this.byId.set(c.id, c);
  }

  knownCombatant(id: unknown, path: string): boolean {
    if (typeof id !== 'string') return false;
    if (this.ids.has(id)) return true;
    const s = suggest(id, [...this.ids.keys()]);
    this.out.add(s ? 'UnknownCombatantDidYouMean' : 'UnknownCombatant', path, s ? { id, suggestion: s } : { id });
    return false;
  }

  knownSide(id: unknown, path: string): boolean {
    if (typeof id !== 'string') return false;
    if (this.sideIds.has(id)) return true;
    this.out.add('UnknownSideId', path, { side: id });
    return false;
  }

  /* --------------------------------------------------------------- rounds */

  readRounds(): void {
    const { raw, out } = this;
    if (raw.rounds === undefined || raw.rounds === null) return;
    const r = checkValue(raw.rounds, int(1, MAX_ROUNDS), 'rounds', 'rounds', out);
    if (typeof r === 'number') this.explicitRounds = r;
  }

  /** A round an entry names: it makes the scenario at least that long, and may not be past an explicit `rounds`. */
  roundRef(round: unknown, path: string): void {
    if (typeof round !== 'number' || !Number.isInteger(round)) return;
    this.impliedRounds = Math.max(this.impliedRounds, round);
    if (this.explicitRounds !== undefined && round > this.explicitRounds) this.out.add('RoundBeyondEnd', path, { round, rounds: this.explicitRounds });
  }

  /* --------------------------------------------------------- declarations */

  private checkDeclaration(value: unknown, path: string, impliedCombatant: string | undefined, round: number | null): Declaration | undefined {
    const { out } = this;
    const o = checkObject(value, DECLARATION_FIELDS, path, out);
    if (!isRecord(value)) return undefined;
    let id = impliedCombatant;
    if (value.combatant !== undefined) {
      if (impliedCombatant !== undefined && value.combatant !== impliedCombatant) {
        out.add('DeclarationCombatantMismatch', join(path, 'combatant'), { key: impliedCombatant, combatant: show(value.combatant) });
        return undefined;
      }
      id = typeof value.combatant === 'string' ? value.combatant : undefined;
    }
    if (id === undefined) {
      if (value.combatant === undefined) out.add('FieldMissing', join(path, 'combatant'), { field: 'combatant' });
      return undefined;
    }
    const idPath = impliedCombatant !== undefined ? path : join(path, 'combatant');
    if (!this.knownCombatant(id, idPath)) return undefined;
    const joined = this.ids.get(id)?.joinRound;
    if (round !== null && joined !== undefined && round <= joined) {
      out.add('DeclarationBeforeJoin', idPath, { id, round, joinRound: joined });
      return undefined;
    }
    if (value.target !== undefined && typeof value.target === 'string') this.knownCombatant(value.target, join(path, 'target'));
    if (!o) return undefined;
    const decl = { ...o, combatant: id } as unknown as Declaration;
    this.toCheck.push({ decl, path });
    return decl;
  }

  readDeclarations(): Map<number, Record<string, Declaration>> {
    const { raw, out } = this;
    const declarations = new Map<number, Record<string, Declaration>>();
    if (raw.declarations === undefined || raw.declarations === null) return declarations;
    if (!isRecord(raw.declarations)) {
      out.add('ExpectedObject', 'declarations', { field: 'declarations' });
      return declarations;
    }
    for (const [key, entry] of Object.entries(raw.declarations)) {
      const path = join('declarations', key);
      const round = roundOfKey(key);
      if (round === null) {
        out.add('BadRoundKey', path, { key });
        continue;
      }
      if (round > MAX_ROUNDS) {
        out.add('RoundKeyTooLarge', path, { key, max: MAX_ROUNDS });
        continue;
      }
      if (declarations.has(round)) {
        out.add('DuplicateRound', path, { round });
        continue;
      }
      this.roundRef(round, path);
      const set: Record<string, Declaration> = {};
      const put = (d: Declaration | undefined, p: string) => {
        if (!d) return;
        if (set[d.combatant]) out.add('DuplicateDeclaration', p, { id: d.combatant, round });
        else set[d.combatant] = d;
      };
      if (entry === null || entry === undefined) {
        // An explicit empty entry: nobody declares anything this round.
      } else if (Array.isArray(entry)) entry.forEach((d, i) => put(this.checkDeclaration(d, join(path, i), undefined, round), join(path, i)));
      else if (isRecord(entry)) for (const [cid, d] of Object.entries(entry)) put(this.checkDeclaration(d, join(path, cid), cid, round), join(path, cid));
      else out.add('ExpectedList', path, { field: key });
      declarations.set(round, set);
    }
    return declarations;
  }

  /* ---------------------------------------------------------------- joins */

  readJoins(): ScenarioJoin[] {
    const { raw, out } = this;
    const joins: ScenarioJoin[] = [];
    listAt(raw, 'joins', out).forEach((j, i) => {
      const path = `joins[${i}]`;
      if (!isRecord(j)) {
        out.add('ExpectedObject', path, { field: path });
        return;
      }
      for (const key of Object.keys(j)) if (!JOIN_FIELDS.includes(key)) out.unknownField(key, path, JOIN_FIELDS);
      let round: unknown;
      if (j.round === undefined || j.round === null) out.add('FieldMissing', join(path, 'round'), { field: 'round' });
      else round = checkValue(j.round, int(1, MAX_ROUNDS, true), join(path, 'round'), 'round', out);
      const step = j.step === undefined ? 0 : checkValue(j.step, int(0, 1000000), join(path, 'step'), 'step', out);
      if (j.combatant === undefined) out.add('FieldMissing', join(path, 'combatant'), { field: 'combatant' });
      this.roundRef(round, join(path, 'round'));
      const c = this.joinerCombatants[i];
      let declaration: Declaration | undefined;
      if (j.declaration !== undefined && j.declaration !== null) {
        const cid = c?.id ?? (isRecord(j.combatant) && typeof j.combatant.id === 'string' ? j.combatant.id : undefined);
        declaration = this.checkDeclaration(j.declaration, join(path, 'declaration'), cid, null);
      }
      if (c && typeof round === 'number' && typeof step === 'number') {
        const entry: ScenarioJoin = { round, step, combatant: c };
        if (declaration) entry.declaration = declaration;
        joins.push(entry);
      }
    });
    return joins;
  }

  /**
   * Each object of the list `key`: checked against `fields`, the sides,
   * combatants and round it names checked to exist, then read by `build`
   * (nothing kept when it gives undefined).
   */
  readList<T>(key: string, fields: Record<string, Spec>, refs: { sides?: string[]; combatants?: string[] }, build: (o: Record<string, unknown>, path: string, i: number) => T | undefined): T[] {
    const { raw, out } = this;
    const list: T[] = [];
    listAt(raw, key, out).forEach((item, i) => {
      const path = `${key}[${i}]`;
      const o = checkObject(item, fields, path, out);
      if (!isRecord(item)) return;
      for (const f of refs.sides ?? []) if (item[f] !== undefined) this.knownSide(item[f], join(path, f));
      for (const f of refs.combatants ?? []) if (item[f] !== undefined) this.knownCombatant(item[f], join(path, f));
      this.roundRef(item.round, join(path, 'round'));
      if (!o) return;
      const value = build(o, path, i);
      if (value !== undefined) list.push(value);
    });
    return list;
  }

  /* ----------------------------------------------------------------- dice */

  readDice(): ScriptedDie[] {
    const { out } = this;
    const dice = this.readList('dice', DIE_FIELDS, { sides: ['side'], combatants: ['combatant'] }, (o, path, i): ScriptedDie | undefined => {
      const die: ScriptedDie = { index: i, purpose: o.purpose as DiePurpose, result: o.result as number };
      if (o.side !== undefined) die.side = o.side as string;
      if (o.combatant !== undefined) die.combatant = o.combatant as string;
      if (o.round !== undefined) die.round = o.round as number;
      const known = this.originalId ? KNOWN_DICE[this.originalId][die.purpose] : undefined;
      if (die.result < 1 || (known && !isPossibleTotal({ purpose: die.purpose, ...known }, die.result))) {
        out.add('ScriptedDieImpossible', join(path, 'result'), { result: die.result, purpose: die.purpose, dice: known ? `${known.count}d${known.faces}` : '?' });
        return undefined;
      }
      return die;
    });
    // Die sizes and meanings differ between procedures: under --procedure every die is rolled.
    if (this.switched && dice.length > 0) {
      this.notes.push({ key: 'TENSEG.Sim.Note.DiceDropped', data: { count: dice.length, from: this.originalId as string, to: this.procedure?.id ?? '' } });
      dice.length = 0;
    }
    return dice;
  }

  /* --------------------------------------------------------------- damage */

  readDamage(): DamageEvent[] {
    const { out } = this;
    return this.readList('damage', DAMAGE_FIELDS, { combatants: ['target', 'by'] }, (o, path): DamageEvent | undefined => {
      const placements = ['by', 'step', 'segment', 'count'].filter((k) => o[k] !== undefined);
      if (placements.length === 0) return void out.add('DamageNoPlacement', path, {});
      if (placements.length > 1) return void out.add('DamagePlacementConflict', path, { fields: placements.join(', ') });
      if ((o.spell !== undefined || o.routine !== undefined) && o.by === undefined) return void out.add('DamageNeedsBy', path, { field: o.spell !== undefined ? 'spell' : 'routine' });
      if (o.spell === true && o.routine !== undefined) return void out.add('DamageSpellRoutine', path, {});
      return o as unknown as DamageEvent;
    });
  }

  /* ------------------------------------------------------ morale, cancels */

  readMorale(): ScenarioMorale[] {
    return this.readList('morale', MORALE_FIELDS, { combatants: ['combatant'] }, (o, path) => {
      const req: ScenarioMorale = { round: o.round as number, combatant: o.combatant as string, trigger: (o.trigger as string | undefined) ?? 'gm' };
      if (o.opposed !== undefined) req.opposed = o.opposed as number;
      if (o.method !== undefined) req.method = o.method as ScenarioMorale['method'];
      if (o.score !== undefined) req.score = o.score as number;
      if (o.passed !== undefined) req.passed = o.passed as boolean;
      this.moraleToCheck.push({ request: req, path });
      return req;
    });
  }

  /** Spells chosen at the caster's turn: a spell with its casting time, or none. */
  readChoices(): ScenarioChoice[] {
    const { out } = this;
    return this.readList('choose', CHOOSE_FIELDS, { combatants: ['combatant'] }, (o, path): ScenarioChoice | undefined => {
      const round = o.round as number;
      const combatant = o.combatant as string;
      if ((o.none === true) === (o.spell !== undefined)) return void out.add('ChooseNeedsOne', path, {});
      if (o.none === true) {
        if (o.castingTime !== undefined) return void out.add('ChooseNoneWithTime', join(path, 'castingTime'), {});
        return { round, combatant, spell: null };
      }
      if (o.castingTime === undefined) return void out.add('FieldMissing', join(path, 'castingTime'), { field: 'castingTime' });
      return { round, combatant, spell: o.spell as string, castingTime: o.castingTime as number };
    });
  }

  /** Choices of attackers whose target fell (rules revision 5): exactly one of target, hold: true, none: true. */
  readRetargets(): ScriptedRetarget[] {
    const { out } = this;
    return this.readList('retarget', RETARGET_FIELDS, { combatants: ['combatant', 'target'] }, (o, path): ScriptedRetarget | undefined => {
      const round = o.round as number;
      const combatant = o.combatant as string;
      const given = [o.target !== undefined, o.hold === true, o.none === true].filter(Boolean).length;
      if (given !== 1) return void out.add('RetargetNeedsOne', path, {});
      if (o.target !== undefined) return { round, combatant, choice: 'target', target: o.target as string };
      return { round, combatant, choice: o.hold === true ? 'hold' : 'none' };
    });
  }

  readCancels(): ScenarioCancel[] {
    const { out } = this;
    return this.readList('cancel', CANCEL_FIELDS, { combatants: ['combatant'] }, (o, path): ScenarioCancel | undefined => {
      if ((o.combatant === undefined) === (o.casting === undefined)) return void out.add('CancelNeedsOne', path, {});
      return o as unknown as ScenarioCancel;
    });
  }

  /* ---------------------------------------------------- mid-round actions */

  /**
   * The moment of a mid-round action: exactly one of step, segment, count,
   * phase (a phase of the procedure played). Undefined (a problem recorded)
   * when there is none, more than one, or an unknown phase.
   */
  moment(o: Record<string, unknown>, path: string): Moment | undefined {
    const given = Object.keys(MOMENT_FIELDS).filter((k) => o[k] !== undefined);
    if (given.length === 0) return void this.out.add('MidRoundNoMoment', path, {});
    if (given.length > 1) return void this.out.add('MidRoundMomentConflict', path, { fields: given.join(', ') });
    const key = given[0] as keyof Moment;
    const phases = this.procedure?.phases;
    if (key === 'phase' && phases && !phases.includes(o.phase as string)) {
      return void this.out.add('UnknownValue', join(path, 'phase'), { field: 'phase', value: show(o.phase), allowed: phases.join(', ') });
    }
    return { [key]: o[key] };
  }

  /** A list of mid-round actions needs the procedure's rule (delays: high-low; releases: a procedure that holds actions). */
  private ruled(key: string, has: boolean, problem: string): boolean {
    if (has || !this.procedure || listAt(this.raw, key, new Collector()).length === 0) return true;
    this.out.add(problem, key, { procedure: this.procedure.id });
    return false;
  }

  readDelays(): ScriptedDelay[] {
    if (!this.ruled('delays', !!this.procedure?.announceDelay, 'DelaysNotInProcedure')) return [];
    return this.readList('delays', DELAY_FIELDS, { combatants: ['combatant'] }, (o, path): ScriptedDelay | undefined => {
      const at = this.moment(o, path);
      return at && { round: o.round as number, combatant: o.combatant as string, ...at };
    });
  }

  /** Releases: the action a held one becomes (`as`) is a declaration of the releasing combatant, checked like any. */
  readReleases(): ScriptedRelease[] {
    const { raw, out } = this;
    if (!this.ruled('releases', !!this.procedure?.releaseHeld, 'ReleasesNotInProcedure')) return [];
    const list: ScriptedRelease[] = [];
    listAt(raw, 'releases', out).forEach((item, i) => {
      const path = `releases[${i}]`;
      if (!isRecord(item)) return out.add('ExpectedObject', path, { field: path });
      const { as, ...rest } = item;
      const o = checkObject(rest, RELEASE_FIELDS, path, out);
      if (rest.combatant !== undefined) this.knownCombatant(rest.combatant, join(path, 'combatant'));
      this.roundRef(rest.round, join(path, 'round'));
      if (as === undefined || as === null) return out.add('FieldMissing', join(path, 'as'), { field: 'as' });
      const round = typeof rest.round === 'number' && Number.isInteger(rest.round) ? rest.round : null;
      const who = typeof rest.combatant === 'string' ? rest.combatant : undefined;
      const declaration = who === undefined ? undefined : this.checkDeclaration(as, join(path, 'as'), who, round);
      if (declaration && !RELEASABLE.includes(declaration.action)) {
        const c = this.byId.get(declaration.combatant);
        return out.add('ReleaseActionInvalid', join(path, 'as.action'), { name: c?.name ?? declaration.combatant, action: declaration.action });
      }
      const at = o ? this.moment(o, path) : undefined;
      if (!o || !at || !declaration) return;
      list.push({ round: o.round as number, combatant: o.combatant as string, declaration, ...at });
    });
    return list;
  }

  readBreaks(): ScriptedBreak[] {
    const { out } = this;
    return this.readList('breaks', BREAK_FIELDS, { combatants: ['combatant'] }, (o, path): ScriptedBreak | undefined => {
      if ((o.combatant === undefined) === (o.casting === undefined)) return void out.add('BreakNeedsOne', path, {});
      const at = this.moment(o, path);
      if (!at) return undefined;
      const x: ScriptedBreak = { round: o.round as number, ...at };
      if (o.combatant !== undefined) x.combatant = o.combatant as string;
      if (o.casting !== undefined) x.casting = o.casting as string;
      if (o.why !== undefined) x.why = o.why as BreakCause;
      return x;
    });
  }

  readAttacks(): ScriptedAttack[] {
    return this.readList('attacks', ATTACK_FIELDS, { combatants: ['attacker', 'target'] }, (o, path): ScriptedAttack | undefined => {
      const at = this.moment(o, path);
      if (!at) return undefined;
      const x: ScriptedAttack = { round: o.round as number, attacker: o.attacker as string, target: o.target as string, ...at };
      if (o.weapon !== undefined) x.weapon = o.weapon as string;
      if (o.damage !== undefined) x.damage = o.damage as number;
      if (o.critical !== undefined) x.critical = o.critical as boolean;
      if (o.type !== undefined) x.type = o.type as DamageType;
      return x;
    });
  }

  /* --------------------------------- the GM's phases (addict 1, 3, 11) */

  /**
   * Whether the procedure played records this phase; written for one that does
   * not, a problem, or under --procedure a note and the entries dropped.
   */
  private gmPhase(key: string, phase: 'reaction' | 'distance' | 'staunch', present: boolean): boolean {
    if (!present || !this.procedure) return present;
    const has = phase === 'staunch' ? !!this.procedure.gmPhases?.staunch : !!this.procedure.gmPhases?.[phase];
    if (has) return true;
    if (this.switched) this.notes.push({ key: 'TENSEG.Sim.Note.PhaseDropped', data: { field: key, from: this.originalId as string, to: this.procedure.id } });
    else this.out.add('PhaseNotInProcedure', key, { phase, procedure: this.procedure.id });
    return false;
  }

  readReactions(): ScenarioReaction[] {
    const seen = new Set<string>();
    const list = this.readList('reactions', REACTION_FIELDS, { sides: ['side'] }, (o, path): ScenarioReaction | undefined => {
      const side = o.side as string;
      if (seen.has(side)) return void this.out.add('DuplicateReaction', join(path, 'side'), { side });
      seen.add(side);
      const result = (o.result as string).trim();
      if (result.length > 200) return void this.out.add('ReactionResultInvalid', join(path, 'result'), { side, max: 200 });
      const r: ScenarioReaction = { side, result };
      if (o.roll !== undefined) r.roll = o.roll as number;
      if (o.secret !== undefined) r.secret = o.secret as boolean;
      return r;
    });
    return this.gmPhase('reactions', 'reaction', list.length > 0) ? list : [];
  }

  readDistance(): number | undefined {
    const { raw, out } = this;
    if (raw.distance === undefined || raw.distance === null) return undefined;
    const feet = checkValue(raw.distance, DISTANCE_SPEC, 'distance', 'distance', out);
    if (typeof feet !== 'number') return undefined;
    return this.gmPhase('distance', 'distance', true) ? feet : undefined;
  }

  readStaunch(): ScenarioStaunch[] {
    const list = this.readList('staunch', STAUNCH_FIELDS, { combatants: ['combatant'] }, (o) => ({ round: o.round as number, combatant: o.combatant as string }));
    return this.gmPhase('staunch', 'staunch', list.length > 0) ? list : [];
  }

  /* ------------------------------------ Heal checks and injuries (individual-speed) */

  /** A moment in the round (`step` or `count`, not both); false when both are given. */
  private woundMoment(o: Record<string, unknown>, path: string): { step?: number; count?: number } | false {
    if (o.step !== undefined && o.count !== undefined) return void this.out.add('DamagePlacementConflict', path, { fields: 'step, count' }), false;
    return o.step !== undefined ? { step: o.step as number } : o.count !== undefined ? { count: o.count as number } : {};
  }

  readWounds(): ScriptedWound[] {
    const heals = this.readList('heal', HEAL_FIELDS, { combatants: ['combatant'] }, (o, path): ScriptedWound | undefined => {
      const at = this.woundMoment(o, path);
      if (at === false) return undefined;
      return { round: o.round as number, ...at, input: { t: 'heal', c: o.combatant as string, total: o.total as number }, path };
    });
    const injuries = this.readList('injuries', INJURY_FIELDS, { combatants: ['combatant'] }, (o, path): ScriptedWound | undefined => {
      const at = this.woundMoment(o, path);
      if (at === false) return undefined;
      if (o.row === undefined && o.text === undefined) return void this.out.add('InjuryNeedsRowOrText', path, {});
      const input: WoundInput = { t: 'injury', c: o.combatant as string };
      for (const k of ['type', 'row', 'side', 'text'] as const) if (o[k] !== undefined) Object.assign(input, { [k]: o[k] });
      return { round: o.round as number, ...at, input, path };
    });
    const all = [...heals, ...injuries];
    // Under --procedure, a procedure without Wound Point rules cannot take them.
    if (this.switched && all.length > 0 && !this.procedure?.wounds) {
      this.notes.push({ key: 'TENSEG.Sim.Note.WoundsDropped', data: { count: all.length, from: this.originalId as string, to: this.procedure?.id ?? '' } });
      return [];
    }
    return all;
  }

  /* -------------------------------------- legality under the procedure played */

  checkLegality(distance: number | undefined): void {
    if (!this.procedure) return;
    // A starting condition its hit points contradict under the procedure's damage rules (the flow refuses it too).
    const procedure = this.procedure;
    this.combatants.forEach((c, i) => this.checkStarting(procedure, c, `combatants[${i}]`));
    this.joinerCombatants.forEach((c, i) => c && this.checkStarting(procedure, c, join(`joins[${i}]`, 'combatant')));
    // What the encounter's phases recorded: a charge without a distance closes the encounter distance (addict phase 3).
    const encounter = { sides: this.sides, combatants: this.combatants, ...(distance !== undefined ? { distance } : {}) };
    for (const { decl, path } of this.toCheck) {
      const c = this.byId.get(decl.combatant);
      if (!c) continue;
      let problem: Problem | null;
      try {
        problem = this.procedure.validateDeclaration(decl, c, this.options, encounter);
      } catch (e) {
        problem = { key: 'DeclarationCheckFailed', data: { name: c.name, message: e instanceof Error ? e.message : show(e) } };
      }
      if (problem) this.out.problems.push({ ...problem, path: problem.path ? join(path, problem.path) : path });
    }
    for (const { request, path } of this.moraleToCheck) {
      const c = this.byId.get(request.combatant);
      const problem = c ? (this.procedure.moraleProblem?.(c, request, this.options) ?? null) : null;
      if (problem) this.out.problems.push({ ...problem, path });
    }
  }

  private checkStarting(procedure: Procedure<ProcedureOptions>, c: Combatant, path: string): void {
    if (c.condition === undefined) return;
    const derived = procedure.startingCondition ? procedure.startingCondition(c, this.options) : plainStartingCondition(c);
    const problem = startingConditionProblem(c, derived);
    if (problem) this.out.problems.push({ ...problem, path: join(path, 'condition') });
  }
}

/**
 * Validate a parsed scenario. Nothing is run: the result is either a ready
 * scenario or every problem found, each naming its field.
 */
export function validateScenario(raw: unknown, procedures: ProcedureTable, overrides: ValidateOverrides = {}): ValidationResult {
  if (!isRecord(raw)) {
    const out = new Collector();
    out.add('ScenarioNotObject', '');
    return { ok: false, problems: out.problems, notes: [] };
  }
  const r = new ScenarioReader(raw, procedures, overrides);
  for (const key of Object.keys(raw)) if (!TOP_FIELDS.includes(key)) r.out.unknownField(key, '', TOP_FIELDS);
  const title = raw.title === undefined ? undefined : checkValue(raw.title, str, 'title', 'title', r.out);
  const description = raw.description === undefined ? undefined : checkValue(raw.description, text, 'description', 'description', r.out);
  r.readProcedure();
  r.readOptions();
  r.readSides();
  r.readCombatants();
  r.readRounds();
  // Past the cap nothing that names a combatant is read (it would only echo unknown ids).
  if (r.tooMany) return { ok: false, problems: r.out.problems, notes: r.notes };
  const declarations = r.readDeclarations();
  const joins = r.readJoins();
  const dice = r.readDice();
  const damage = r.readDamage();
  const morale = r.readMorale();
  const cancels = r.readCancels();
  const delays = r.readDelays();
  const releases = r.readReleases();
  const breaks = r.readBreaks();
  const attacks = r.readAttacks();
  const reactions = r.readReactions();
  const distance = r.readDistance();
  const staunch = r.readStaunch();
  const choices = r.readChoices();
  const retargets = r.readRetargets();
  const wounds = r.readWounds();
  const spells = r.readSpells();
  r.checkLegality(distance);

  if (r.out.problems.length > 0 || !r.procedure || !r.originalId) return { ok: false, problems: r.out.problems, notes: r.notes };
  if (r.switched) r.notes.unshift({ key: 'TENSEG.Sim.Note.ProcedureSwitched', data: { from: r.originalId, to: r.procedure.id } });
  const scenario: ValidationResult & { ok: true } = {
    ok: true,
    scenario: {
      procedure: r.procedure,
      originalProcedure: r.originalId,
      options: r.options,
      encounter: { sides: r.sides, combatants: r.combatants },
      rounds: overrides.rounds ?? r.explicitRounds ?? r.impliedRounds,
      declarations,
      dice,
      damage,
      joins,
      morale,
      cancels,
      wounds,
      delays,
      releases,
      breaks,
      attacks,
      reactions,
      staunch,
      choices,
      retargets,
      fighters: Object.fromEntries(r.fighters),
      spells,
      notes: r.notes,
    },
  };
  if (distance !== undefined) scenario.scenario.distance = distance;
  if (typeof title === 'string') scenario.scenario.title = title;
  if (typeof description === 'string') scenario.scenario.description = description;
  return scenario;
}
