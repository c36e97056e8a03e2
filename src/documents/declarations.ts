/**
 * A declaration request made into an engine Declaration. A request names
 * items and choices, never numbers: the casting time and speed come from the
 * spell item, speed factor, length and space from the weapon item, attack
 * routines and the missile bonus from the actor, the distance a charger must
 * cover from the tokens on the map. Only the GM may set one of these numbers
 * otherwise (`override`, refused for anyone else by the handler), as a GM
 * would rule at the table.
 *
 * A request may come from any client; its shape was checked against its
 * schema before it got here (request-schema.ts). Ids must name this
 * combat's combatants and this actor's items. The procedure then decides
 * whether the declaration is legal (src/rules).
 */
import type { Declaration, FrozenWeapon, Problem, SheetNumbers } from '../rules/model';
import { needsOpenSquare } from '../rules/space';
import { actorToEngine, toDeclaration, weaponOf, type DeclarationPayload } from '../data/engine-view';
import { actorData } from '../data/systems';
import { actorView } from './engine-encounter';
import { gapBetween, weaponUsableAt } from './grid';

/** The numbers only the GM may set in a declaration. */
export interface DeclarationOverride {
  castingTime?: number;
  speed?: number;
  routines?: number;
  hesitation?: number;
  /** addict phase 6: real seconds of hesitation, noted by the GM ("every full 6 seconds", one segment). */
  hesitationSeconds?: number;
  distance?: number;
  weaponSpeed?: number;
  length?: number;
  space?: number;
  /** high-low: the Dexterity Reaction Adjustment applies ("in the right circumstances": the GM's judgement). */
  dexterityReaction?: boolean;
}

/** What a client sends to declare: items by id and choices. */
export interface DeclarationRequest {
  action: string;
  target?: string;
  /** Item id of the weapon used. */
  weapon?: string;
  /** Item id of the spell cast (or of the spell a device calls up). */
  spell?: string;
  /** A device or invocation named in words (its time is the GM's: override.castingTime). */
  spellName?: string;
  readied?: boolean;
  delayed?: boolean;
  /** high-low (seed 001): a "Go First" activity, a [delaying] activity, an innate ability (D1). */
  goFirst?: boolean;
  delaying?: boolean;
  innate?: boolean;
  /** high-low: 1-segment minor actions with the major action (each +1 to weapon speed in ties). */
  minorActions?: number;
  /** segment-d6 hold / addict prepare: the segment (1–10) the round stops at for its release. */
  releaseAt?: number;
  note?: string;
  /** GM only. */
  override?: DeclarationOverride;
}

const given = (v: unknown): v is string => typeof v === 'string' && v !== '';

export function declarationFromRequest(
  combatant: Combatant.Implementation,
  request: DeclarationRequest,
): { declaration: Declaration } | { problem: Problem } {
  const actor = combatant.actor;
  const name = combatant.name ?? '';
  if (!actor) return { problem: { key: 'CombatantWithoutActor', data: { name } } };
  if (typeof request !== 'object' || request === null || typeof request.action !== 'string') return { problem: { key: 'MalformedRequest' } };
  // Only the choices go to the translation: every number comes from the documents (or the override below).
  const payload: DeclarationPayload = { action: request.action };
  for (const k of ['target', 'weapon', 'spell', 'spellName', 'note'] as const) if (given(request[k])) payload[k] = request[k];
  if (request.readied === true) payload.readied = true;
  if (request.delayed === true) payload.delayed = true;
  for (const k of ['goFirst', 'delaying', 'innate'] as const) if (request[k] === true) payload[k] = true;
  if (request.minorActions !== undefined) payload.minorActions = request.minorActions;
  if (request.releaseAt !== undefined) payload.releaseAt = request.releaseAt;
  const override = request.override ?? {};
  if (override.castingTime !== undefined) payload.castingTime = override.castingTime;
  const parsed = toDeclaration(payload, { combatant: combatant.id as string, name, items: actorView(actor).items });
  if (!parsed.ok) return { problem: parsed.problem };
  const declaration = parsed.value;
  if (override.speed !== undefined) declaration.speed = override.speed;
  if (override.routines !== undefined) declaration.routines = override.routines;
  if (override.hesitation !== undefined) declaration.hesitation = override.hesitation;
  if (override.hesitationSeconds !== undefined) declaration.hesitationSeconds = override.hesitationSeconds;
  if (override.dexterityReaction !== undefined) declaration.dexterityReaction = override.dexterityReaction;
  if (declaration.weapon) {
    if (override.weaponSpeed !== undefined) declaration.weapon.speed = override.weaponSpeed;
    if (override.length !== undefined) declaration.weapon.length = override.length;
    if (override.space !== undefined) declaration.weapon.space = override.space;
  }
  const combat = combatant.parent;
  if (declaration.target !== undefined && !combat?.combatants.get(declaration.target)) {
    return { problem: { key: 'DeclarationTargetUnknown', data: { name } } };
  }
  if (override.distance !== undefined) declaration.distance = override.distance;
  const token = combatant.token;
  if (token && combat) {
    const target = declaration.target ? combat.combatants.get(declaration.target)?.token : null;
    // Seed 004 fn 19: a charge arrives when the gap closes to the weapon's length; the gap is the map's: the grid's measure
    // (its diagonal rule) from the charger's centre to the nearest place where its footprint touches the target's (grid.ts).
    if (declaration.action === 'charge' && override.distance === undefined && target && target.parent === token.parent) {
      declaration.distance = gapBetween(token, target, token.parent?.tokens.contents ?? []);
    }
    // Seed 001: a weapon needing more than 4 ft needs an open adjacent square.
    const space = declaration.weapon?.space;
    if ((declaration.action === 'melee' || declaration.action === 'charge') && needsOpenSquare(space) && token.parent) {
      const others = token.parent.tokens.contents;
      if (!weaponUsableAt(token, others, space as number)) {
        return { problem: { key: 'WeaponNoRoom', data: { name, weapon: declaration.weapon?.name ?? '' } } };
      }
    }
  }
  // Its numbers as its sheet has them now: this round's blows read these, not the sheet (issue 27). Only where a
  // player owns the actor: a sheet no player owns only a GM can edit (a GM's edit mid-round is the GM's ruling), and
  // the GM's plans for monsters stay as small as before (held in a world setting sent whole, then the begin entry).
  if (combatant.hasPlayerOwner) declaration.sheet = sheetNumbers(actor);
  return { declaration };
}

/**
 * What a combatant's blows read of its actor, and blows against it of its defence (issue 27), frozen into
 * its declaration: AAC0 or attack bonus, missile bonus, a monster's routines, each weapon's damage and
 * bonuses, and its Armor Class, Agility, Defense and Armour.
 */
export function sheetNumbers(actor: Actor.Implementation): SheetNumbers {
  const sys = actorData(actor);
  const items = actorView(actor).items ?? [];
  const stats = actorToEngine(actor.type, actor.system, items);
  const out: SheetNumbers = {};
  if (sys && 'attack' in sys) out.aac0 = sys.attack.aac0;
  else if (sys && 'aac0' in sys) out.aac0 = sys.aac0;
  if (sys && 'combat' in sys && sys.combat.missileBonus) out.missileBonus = sys.combat.missileBonus;
  if (sys && 'attacks' in sys && sys.attacks) out.attacks = sys.attacks;
  if (sys && typeof sys.ac === 'number') out.ac = sys.ac;
  if (sys?.size) out.size = sys.size;
  for (const key of ['attackBonus', 'agilityModifier', 'defenseBonus', 'armour'] as const) {
    const n = stats[key];
    if (typeof n === 'number' && n !== 0) out[key] = n;
  }
  const weapons: Record<string, FrozenWeapon> = {};
  for (const item of items) {
    const w = weaponOf(item);
    if (!w) continue;
    const frozen: FrozenWeapon = { damage: { small: w.damage.small, large: w.damage.large }, kind: w.kind };
    if (w.missileBonus) frozen.missileBonus = w.missileBonus;
    if (w.kind === 'missile' && w.range && w.range.long > 0) frozen.range = { ...w.range };
    if (w.critical) frozen.critical = w.critical;
    if (Array.isArray(w.damageTypes) && w.damageTypes.length > 0) frozen.damageTypes = [...w.damageTypes];
    if (item.id) weapons[item.id] = frozen;
  }
  if (Object.keys(weapons).length > 0) out.weapons = weapons;
  return out;
}
