/**
 * Translation between stored system data and the rules engine: an actor (its
 * system data and items) becomes an engine Combatant, a weapon item becomes
 * WeaponStats, a declaration form payload becomes a Declaration.
 *
 * Pure: plain objects in, plain objects out, no Foundry global. Decides no
 * rule; where the engine needs a figure the sheet does not hold, the field is
 * left out and the procedure uses its own default.
 *
 * Choices (README.md, Rules notes):
 *  - Movement is stored in feet per round; an equipped armor's movement limit
 *    (its bulk) caps it.
 *  - The weapon in hand is the first equipped weapon in item order.
 *  - A character's missile bonus is its own (dexterity) bonus; a weapon's
 *    missile attack bonus counts for attack rolls only.
 *  - Spells listed for the engine are one entry per memorized, unexpended copy.
 *  - Surprise ranges of 0 mean "the procedure's standard range" and are not
 *    passed; Stress and Wound Points are passed only when their maximum is set.
 *  - individual-speed: the Defense bonus and the Armour are the actor's own
 *    plus those of its equipped armour ("most pieces of armour grant a bonus
 *    to Defense and/or Armour when worn"; Armour is "the sum of Armour
 *    Bonuses"); they, the attack bonus, a weapon's critical multiplier (other
 *    than the x2 default) and damage types are passed when given.
 */
import type { ActionKind, Combatant, Declaration, Problem, WeaponStats } from '../rules/model';
import { isActionKind, isDamageType } from '../rules/model';
import { CRITICAL_MULTIPLIERS, DEFAULT_CRITICAL_MULTIPLIER } from '../rules/armor-class';
import { parseHitDice, type Parsed } from '../rules/hit-dice';
import { parseAttackRoutines, type AttackRoutine } from '../rules/attack-routines';
import type {
  ArmorSystem,
  CharacterSystem,
  GearSystem,
  IndividualSpeedData,
  MonsterSystem,
  SpellSystem,
  SurpriseData,
  WeaponSystem,
} from './shapes';
import { castingSegments, LIMITS } from './shapes';

/** An item as the translation reads it (Foundry: `{ id, name, type, system }`). */
export interface ItemView {
  /** Needed to pick a weapon or spell by id in a declaration. */
  id?: string;
  name: string;
  type: string;
  system: unknown;
}

/** An actor as the translation reads it. */
export interface ActorView {
  id: string;
  name: string;
  type: string;
  system: unknown;
  items?: Iterable<ItemView>;
}

/** Where the combatant stands in this combat. */
export interface CombatContext {
  /** The engine's combatant id (the Foundry Combatant id). */
  id: string;
  side: string;
  /** Shown name (token name); defaults to the actor's. */
  name?: string;
  /** individual-speed: combatants sharing one initiative roll. */
  initiativeGroup?: string;
}

const fail = <T>(key: string, data: Problem['data']): Parsed<T> => ({ ok: false, problem: data ? { key, data } : { key } });

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/* ------------------------------------------------------------ item access */

export function weaponOf(item: ItemView): WeaponSystem | null {
  return item.type === 'weapon' && isRecord(item.system) ? (item.system as unknown as WeaponSystem) : null;
}
export function spellOf(item: ItemView): SpellSystem | null {
  return item.type === 'spell' && isRecord(item.system) ? (item.system as unknown as SpellSystem) : null;
}
export function armorOf(item: ItemView): ArmorSystem | null {
  return item.type === 'armor' && isRecord(item.system) ? (item.system as unknown as ArmorSystem) : null;
}
export function gearOf(item: ItemView): GearSystem | null {
  return item.type === 'gear' && isRecord(item.system) ? (item.system as unknown as GearSystem) : null;
}

/** A weapon item as the engine sees it. Zero length / space mean "not given". */
export function weaponStats(item: ItemView): WeaponStats | null {
  const w = weaponOf(item);
  if (!w) return null;
  const stats: WeaponStats = { name: item.name };
  if (finite(w.speed)) stats.speed = w.speed;
  if (finite(w.length) && w.length > 0) stats.length = w.length;
  if (finite(w.space) && w.space > 0) stats.space = w.space;
  if (w.kind === 'missile') {
    stats.missile = true;
    stats.rate = finite(w.rate) && w.rate > 0 ? w.rate : 1;
    // Its range figures in feet (src/rules/range.ts: the attack past long range is refused); all 0: none, not checked.
    const r = w.range;
    if (r && finite(r.short) && finite(r.medium) && finite(r.long) && Math.max(r.short, r.medium, r.long) > 0) stats.range = { short: r.short, medium: r.medium, long: r.long };
  }
  if (finite(w.critical) && w.critical !== DEFAULT_CRITICAL_MULTIPLIER && (CRITICAL_MULTIPLIERS as readonly number[]).includes(w.critical)) stats.critical = w.critical;
  const types = Array.isArray(w.damageTypes) ? w.damageTypes.filter(isDamageType) : [];
  if (types.length > 0) stats.damageTypes = [...new Set(types)];
  return stats;
}

/** Defense and Armour bonuses of the armour worn (equipped armour items). */
export function wornArmour(items: Iterable<ItemView>): { defense: number; armour: number } {
  let defense = 0;
  let armour = 0;
  for (const item of items) {
    const a = armorOf(item);
    if (!a?.equipped) continue;
    if (finite(a.defense)) defense += a.defense;
    if (finite(a.armour)) armour += a.armour;
  }
  return { defense, armour };
}

/** Total carried weight in pounds: gear × quantity, weapons and armor. */
export function carriedWeight(items: Iterable<ItemView>): number {
  let total = 0;
  for (const item of items) {
    const g = gearOf(item);
    if (g && finite(g.weight) && finite(g.quantity)) total += g.weight * g.quantity;
    const w = weaponOf(item) ?? armorOf(item);
    if (w && finite(w.weight)) total += w.weight;
  }
  return total;
}

/** The magic devices carried (gear marked as a device, at least one of it): their names. */
export function carriedDevices(items: Iterable<ItemView>): string[] {
  const out: string[] = [];
  for (const item of items) {
    const g = gearOf(item);
    if (g?.device === true && !(finite(g.quantity) && g.quantity <= 0)) out.push(item.name);
  }
  return out;
}

/** Spell names available to cast: one per memorized, unexpended copy. */
export function availableSpells(items: Iterable<ItemView>): string[] {
  const out: string[] = [];
  for (const item of items) {
    const s = spellOf(item);
    if (!s) continue;
    const left = Math.max(0, (finite(s.memorized) ? s.memorized : 0) - (finite(s.expended) ? s.expended : 0));
    for (let i = 0; i < left; i++) out.push(item.name);
  }
  return out;
}

function equippedWeapon(items: ItemView[]): WeaponStats | undefined {
  for (const item of items) {
    const w = weaponOf(item);
    if (w?.equipped) return weaponStats(item) ?? undefined;
  }
  return undefined;
}

/** Movement in feet per round, capped by the lowest limit of equipped armor. */
export function effectiveMovement(base: number, items: Iterable<ItemView>): number {
  let move = base;
  for (const item of items) {
    const a = armorOf(item);
    if (a?.equipped && finite(a.movement) && a.movement > 0) move = Math.min(move, a.movement);
  }
  return move;
}

/* ------------------------------------------------------------- combatants */

function applySurprise(c: Combatant, s: SurpriseData | undefined): void {
  if (!s) return;
  if (finite(s.surprisedOn) && s.surprisedOn > 0) c.surprisedOn = s.surprisedOn;
  if (finite(s.surprisesOn) && s.surprisesOn > 0) c.surprisesOn = s.surprisesOn;
  if (finite(s.surprisedAdjust) && s.surprisedAdjust !== 0) c.surprisedAdjust = s.surprisedAdjust;
  if (finite(s.surprisesOthersAdjust) && s.surprisesOthersAdjust !== 0) c.surprisesOthersAdjust = s.surprisesOthersAdjust;
  if (s.neverSurprised) c.neverSurprised = true;
}

function applyIndividual(c: Combatant, ind: Partial<IndividualSpeedData> | undefined, items: ItemView[]): void {
  // Defense and Armour: the actor's own bonuses and its worn armour's.
  const worn = wornArmour(items);
  const defense = worn.defense + (finite(ind?.defense) ? ind.defense : 0);
  const armour = worn.armour + (finite(ind?.armour) ? ind.armour : 0);
  if (defense !== 0) c.defenseBonus = defense;
  if (armour !== 0) c.armour = armour;
  if (!ind) return;
  if (finite(ind.attackBonus) && ind.attackBonus !== 0) c.attackBonus = ind.attackBonus;
  if (finite(ind.agility) && ind.agility !== 0) c.agilityModifier = ind.agility;
  if (finite(ind.insight) && ind.insight !== 0) c.insightModifier = ind.insight;
  if (ind.stress && finite(ind.stress.max) && ind.stress.max > 0) {
    c.stress = ind.stress.value;
    c.maxStress = ind.stress.max;
  }
  if (ind.wounds && finite(ind.wounds.max) && ind.wounds.max > 0) {
    c.woundPoints = ind.wounds.value;
    c.maxWoundPoints = ind.wounds.max;
  }
}

function hpProblem(actor: ActorView, hp: unknown): Problem | null {
  if (!isRecord(hp) || !finite(hp.value) || !Number.isInteger(hp.value)) {
    return { key: 'HitPointsInvalid', data: { name: actor.name } };
  }
  return null;
}

function characterCombatant(actor: ActorView, sys: CharacterSystem, items: ItemView[], ctx: CombatContext): Parsed<Combatant> {
  const problem = hpProblem(actor, sys.hp);
  if (problem) return { ok: false, problem };
  const c: Combatant = { id: ctx.id, name: ctx.name ?? actor.name, side: ctx.side, kind: 'character', hp: sys.hp.value };
  if (finite(sys.hp.max) && sys.hp.max > 0) c.maxHp = sys.hp.max;
  const combat = sys.combat;
  if (combat) {
    if (finite(combat.routines) && combat.routines >= 1) c.routines = combat.routines;
    if (finite(combat.reactionAdjustment) && combat.reactionAdjustment !== 0) c.surpriseAdjustment = combat.reactionAdjustment;
    if (finite(combat.initiativeAdjustment) && combat.initiativeAdjustment !== 0) c.initiativeAdjustment = combat.initiativeAdjustment;
    if (finite(combat.missileBonus) && combat.missileBonus !== 0) c.missileBonus = combat.missileBonus;
    if (finite(combat.dexAcBonus) && combat.dexAcBonus !== 0) c.dexterityAcBonus = combat.dexAcBonus;
  }
  applySurprise(c, sys.surprise);
  if (sys.details) {
    if (typeof sys.details.className === 'string' && sys.details.className.trim() !== '') c.className = sys.details.className.trim();
    if (finite(sys.details.level)) c.level = sys.details.level;
  }
  // Issue 28: the sheet says whether it turns (stored characters of a class that turns: migrations.ts).
  c.turnsUndead = sys.details?.turnsUndead === true;
  c.devices = carriedDevices(items);
  applyIndividual(c, sys.individual, items);
  if (sys.abilities && finite(sys.abilities.str)) c.strength = sys.abilities.str;
  // Seed 002's encumbrance: its items and the other load noted on the sheet.
  const carried = carriedWeight(items) + (finite(sys.encumbrance?.carried) && sys.encumbrance.carried > 0 ? sys.encumbrance.carried : 0);
  if (carried > 0) c.carried = carried;
  if (sys.size === 'small') c.small = true;
  if (sys.movement && finite(sys.movement.base)) {
    c.movement = effectiveMovement(sys.movement.base, items);
    if (finite(sys.movement.charge) && sys.movement.charge > 0) c.chargeMovement = sys.movement.charge;
  }
  const weapon = equippedWeapon(items);
  if (weapon) c.weapon = weapon;
  if (items.some((i) => i.type === 'spell')) c.spells = availableSpells(items);
  if (ctx.initiativeGroup) c.initiativeGroup = ctx.initiativeGroup;
  return { ok: true, value: c };
}

function monsterCombatant(actor: ActorView, sys: MonsterSystem, items: ItemView[], ctx: CombatContext): Parsed<Combatant> {
  const problem = hpProblem(actor, sys.hp);
  if (problem) return { ok: false, problem };
  const hd = parseHitDice(sys.hitDice);
  if (!hd.ok) return { ok: false, problem: { ...hd.problem, data: { ...hd.problem.data, name: actor.name } } };
  const c: Combatant = {
    id: ctx.id,
    name: ctx.name ?? actor.name,
    side: ctx.side,
    kind: 'monster',
    hp: sys.hp.value,
    hitDice: hd.value.text,
  };
  if (finite(sys.hp.max) && sys.hp.max > 0) c.maxHp = sys.hp.max;
  if (finite(sys.routines) && sys.routines >= 1) c.routines = sys.routines;
  // The routines its stat block lists: an attack names one of them (flow attackProblem).
  const listed = parseAttackRoutines(sys.attacks ?? '');
  if (listed.ok && listed.value.length > 0) c.attackRoutines = listed.value.length;
  if (finite(sys.morale) && sys.morale > 0) c.morale = sys.morale;
  // Issue 28: a monster turns only where its sheet says so; its devices are its gear marked as one.
  c.turnsUndead = sys.turnsUndead === true;
  c.devices = carriedDevices(items);
  applySurprise(c, sys.surprise);
  applyIndividual(c, sys.individual, items);
  if (sys.individual && finite(sys.individual.strength) && sys.individual.strength > 0) c.strength = sys.individual.strength;
  if (sys.movement && finite(sys.movement.base)) {
    c.movement = effectiveMovement(sys.movement.base, items);
    if (finite(sys.movement.charge) && sys.movement.charge > 0) c.chargeMovement = sys.movement.charge;
  }
  const weapon = equippedWeapon(items);
  if (weapon) c.weapon = weapon;
  if (items.some((i) => i.type === 'spell')) c.spells = availableSpells(items);
  if (ctx.initiativeGroup) c.initiativeGroup = ctx.initiativeGroup;
  return { ok: true, value: c };
}

/** An actor in a combat as an engine Combatant, or a Problem. */
export function toEngineCombatant(actor: ActorView, ctx: CombatContext): Parsed<Combatant> {
  if (!isRecord(actor.system)) return fail('ActorDataMissing', { name: actor.name });
  const items = [...(actor.items ?? [])];
  if (actor.type === 'character') return characterCombatant(actor, actor.system as unknown as CharacterSystem, items, ctx);
  if (actor.type === 'monster') return monsterCombatant(actor, actor.system as unknown as MonsterSystem, items, ctx);
  return fail('ActorTypeUnknown', { name: actor.name, type: String(actor.type) });
}

/** A combatant's stats without its place in the combat (id, name, side). */
export type CombatantStats = Omit<Combatant, 'id' | 'name' | 'side'>;

/**
 * The stats an actor gives a combatant, for callers that add id, name and side
 * themselves. Never fails: on a Problem (see toEngineCombatant, which reports
 * it) the result holds only the hit points, or 1 when even they are missing.
 */
export function actorToEngine(type: string, system: unknown, items: Iterable<ItemView> = []): CombatantStats {
  const r = toEngineCombatant({ id: '', name: '', type, system, items }, { id: '', side: '' });
  if (r.ok) {
    const { id: _id, name: _name, side: _side, ...stats } = r.value;
    return stats;
  }
  const hp = isRecord(system) && isRecord(system.hp) && finite(system.hp.value) ? system.hp.value : 1;
  return type === 'character' || type === 'monster' ? { hp, kind: type } : { hp };
}

/** The parsed attack routines of a monster (for its sheet and attack cards). */
export function monsterRoutines(sys: Pick<MonsterSystem, 'attacks'>): Parsed<AttackRoutine[]> {
  return parseAttackRoutines(sys.attacks ?? '');
}

/* ----------------------------------------------------------- declarations */

/** What the declaration form sends. Numbers may arrive as strings; blank means "not given". */
export interface DeclarationPayload {
  action: string;
  target?: string;
  /** Item id of the weapon used. */
  weapon?: string;
  /** Item id of the spell cast (or device used). */
  spell?: string;
  /** Device name or invocation shown on the timeline, when no spell item is named. */
  spellName?: string;
  castingTime?: number | string;
  speed?: number | string;
  routines?: number | string;
  hesitation?: number | string;
  /** segment-d6 hold / addict prepare: the segment to release at (1–10). */
  releaseAt?: number | string;
  distance?: number | string;
  readied?: boolean | string;
  delayed?: boolean | string;
  goFirst?: boolean | string;
  delaying?: boolean | string;
  innate?: boolean | string;
  minorActions?: number | string;
  note?: string;
}

const NUMERIC_FIELDS = ['castingTime', 'speed', 'routines', 'hesitation', 'releaseAt', 'distance', 'minorActions'] as const;

function numberField(value: unknown): number | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    if (value.trim() === '') return undefined;
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return finite(value) ? value : null;
}

function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 'on' || value === '1';
}

/**
 * A declaration form payload as an engine Declaration for the combatant with
 * id `ctx.combatant`, whose items are `ctx.items`. The procedure still checks
 * whether the declaration is legal; this only checks that it makes sense.
 */
export function toDeclaration(
  payload: DeclarationPayload,
  ctx: { combatant: string; name: string; items?: Iterable<ItemView> },
): Parsed<Declaration> {
  if (!isRecord(payload) || !isActionKind(payload.action)) {
    return fail('DeclarationActionUnknown', { name: ctx.name, action: String(isRecord(payload) ? payload.action : payload) });
  }
  const action: ActionKind = payload.action;
  const items = [...(ctx.items ?? [])];
  const numbers: Partial<Record<(typeof NUMERIC_FIELDS)[number], number>> = {};
  for (const field of NUMERIC_FIELDS) {
    const n = numberField(payload[field]);
    if (n === null || (n !== undefined && field !== 'speed' && n < 0)) {
      return fail('NumberInvalid', { name: ctx.name, field });
    }
    if (n !== undefined) numbers[field] = n;
  }
  const decl: Declaration = { combatant: ctx.combatant, action };
  if (typeof payload.target === 'string' && payload.target !== '') decl.target = payload.target;

  if (typeof payload.weapon === 'string' && payload.weapon !== '') {
    const item = items.find((i) => i.id === payload.weapon);
    const stats = item ? weaponStats(item) : null;
    if (!item || !stats) return fail('DeclarationWeaponMissing', { name: ctx.name, item: payload.weapon });
    decl.weapon = stats;
  }

  if (typeof payload.spell === 'string' && payload.spell !== '') {
    const item = items.find((i) => i.id === payload.spell);
    const spell = item ? spellOf(item) : null;
    if (!item || !spell) return fail('DeclarationSpellMissing', { name: ctx.name, item: payload.spell });
    if (action === 'spell' && (spell.memorized ?? 0) - (spell.expended ?? 0) <= 0) {
      return fail('SpellNotMemorized', { name: ctx.name, spell: item.name });
    }
    decl.spell = item.name;
    decl.castingTime = castingSegments(spell.castingTime);
    if (finite(spell.castingTN) && spell.castingTN > 0) decl.speed = spell.castingTN - 10;
  } else if (typeof payload.spellName === 'string' && payload.spellName.trim() !== '') {
    decl.spell = payload.spellName.trim();
  }

  // Explicit numbers from the form win over the item's.
  if (numbers.castingTime !== undefined) {
    if (!Number.isInteger(numbers.castingTime) || numbers.castingTime < 1 || numbers.castingTime > LIMITS.castingSegments.max) {
      return fail('CastingTimeInvalid', { name: ctx.name });
    }
    decl.castingTime = numbers.castingTime;
  }
  if (numbers.speed !== undefined) decl.speed = numbers.speed;
  if (numbers.routines !== undefined) decl.routines = numbers.routines;
  if (numbers.hesitation !== undefined) decl.hesitation = numbers.hesitation;
  if (numbers.distance !== undefined) decl.distance = numbers.distance;
  if (numbers.releaseAt !== undefined) decl.releaseAt = numbers.releaseAt;
  // A spell named is cast in its time; one declared without a name is the procedure's to allow (d12-ascending II.C: chosen on the initiative result).
  if (((action === 'spell' && decl.spell !== undefined) || action === 'device') && decl.castingTime === undefined) {
    return fail('CastingTimeInvalid', { name: ctx.name });
  }
  if (flag(payload.readied)) decl.readied = true;
  if (flag(payload.delayed)) decl.delayed = true;
  for (const k of ['goFirst', 'delaying', 'innate'] as const) if (flag(payload[k])) decl[k] = true;
  if (numbers.minorActions !== undefined) decl.minorActions = numbers.minorActions;
  if (typeof payload.note === 'string' && payload.note.trim() !== '') decl.note = payload.note.trim();
  return { ok: true, value: decl };
}
