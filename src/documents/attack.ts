/**
 * Attacks: a d20 against descending AC through AAC0 (the engine decides the
 * hit, natural 20 and natural 1 included), damage from the weapon or the
 * monster's routine, applied to the target's health through the engine's
 * damage rule (Stress before Wound Points where the procedure has them).
 * Real Roll objects and a chat message. The health update carries the
 * attacker, so the damage hook can tell the combat flow who struck.
 *
 * A player cannot update the target's actor, so a player's attack with their
 * own combatant goes to the active GM as a query (`requestAttack`), where it
 * is checked (shape, the sender owns the attacker, both combatants are in
 * that combat, the weapon or routine exists) and performed. Attacks in one
 * combat are resolved one after another, so two blows landing at once both
 * count.
 */
import { parseAac0, resolveAttack, type AttackModifier } from '../rules/attack';
import { parseAttackRoutines } from '../rules/attack-routines';
import type { Problem } from '../rules/model';
import { getProcedure } from '../rules/registry';
import { weaponOf } from '../data/engine-view';
import { SYSTEM_ID } from '../settings';
import { authorize } from './permissions';
import { ATTACKER_OPTION } from './damage';
import { engineCombatant, groupIdOf } from './encounter';
import type { TenSegmentsCombat } from './combat';
import { localizeProblem } from './problems';
import { askGM, senderOf, serialize, whenIdle, type QueryContext } from './requests';

export const QUERY_ATTACK = `${SYSTEM_ID}.attack`;

export interface AttackRequest {
  combatId: string;
  attackerId: string;
  targetId: string;
  /** A weapon item of the attacker's actor… */
  weaponId?: string;
  /** …or a monster routine (index) and the attack in it (index). */
  routine?: number;
  attack?: number;
  /** Target counts as large (weapon damage "large" column). */
  large?: boolean;
  userId: string;
}

export type AttackAnswer =
  | { ok: true; hit: boolean; natural: number; needed: number; damage: number }
  | { ok: false; key: string; message: string };

const refuse = (problem: Problem): AttackAnswer => ({ ok: false, key: problem.key, message: localizeProblem(problem) });

/** The highest routine or attack index a request may name. */
const MAX_INDEX = 100;

const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 64;
const isIndex = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_INDEX);

export function isAttackRequest(data: unknown): data is AttackRequest {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const d = data as Record<string, unknown>;
  return (
    isId(d.combatId) &&
    isId(d.attackerId) &&
    isId(d.targetId) &&
    typeof d.userId === 'string' &&
    (d.weaponId === undefined || isId(d.weaponId)) &&
    isIndex(d.routine) &&
    isIndex(d.attack) &&
    (d.large === undefined || typeof d.large === 'boolean')
  );
}

/** Attacks in one combat wait for each other (not for declarations or steps, which the damage hook waits for). */
const attackQueue = (combatId: string) => `${combatId}#attacks`;

/** "2-8" (an old-style range) as a Roll formula; dice formulas pass through. */
export function damageFormula(text: string): string | null {
  const t = text.trim().replace(/×/g, 'x');
  const range = /^(\d+)-(\d+)$/.exec(t);
  if (range) {
    const lo = Number(range[1]);
    const hi = Number(range[2]);
    if (hi < lo) return null;
    return lo === hi ? String(lo) : `1d${hi - lo + 1}${lo > 1 ? `+${lo - 1}` : ''}`;
  }
  const mult = /^(\d*d\d+(?:[+-]\d+)?)x(\d+)$/i.exec(t);
  if (mult) return `(${mult[1]})*${mult[2]}`;
  if (/^\d*d\d+(?:[+-]\d+)?$/i.test(t) || /^\d+$/.test(t)) return t;
  return null;
}

function aac0Of(actor: Actor.Implementation): ReturnType<typeof parseAac0> {
  const sys = actor.system as unknown as { aac0?: string; attack?: { aac0?: string } };
  return parseAac0(sys.attack?.aac0 ?? sys.aac0);
}

/**
 * The GM's side of an attack: authorise, roll, resolve, post, apply. `by`
 * is the user the attack is made for (from the query's sender); without it,
 * the user `req.userId` names (a call made on the GM's own client).
 */
export async function performAttack(req: AttackRequest, by?: User.Implementation): Promise<AttackAnswer> {
  if (!game.user?.isGM) return refuse({ key: 'OnlyGM' });
  if (!isAttackRequest(req)) return refuse({ key: 'MalformedRequest' });
  const user = by ?? game.users?.get(req.userId);
  return serialize(attackQueue(req.combatId), () => strike(req, user));
}

/** A player's attack arriving as a query, or the GM's own request. */
export async function handleAttack(data: unknown, context?: QueryContext): Promise<AttackAnswer> {
  if (!game.user?.isGM) return refuse({ key: 'OnlyGM' });
  if (!isAttackRequest(data)) return refuse({ key: 'MalformedRequest' });
  const who = senderOf(data.userId, context);
  if ('problem' in who) return refuse(who.problem);
  return performAttack(data, who.user);
}

/** A user's side: attack with a combatant, directly when GM, else through the active GM. */
export async function requestAttack(combat: Combat.Implementation, request: Omit<AttackRequest, 'combatId' | 'userId'>): Promise<AttackAnswer> {
  const payload: AttackRequest = { ...request, combatId: combat.id as string, userId: game.user?.id as string };
  return askGM(QUERY_ATTACK, payload, handleAttack, { key: 'NoActiveGMRequest' });
}

async function strike(req: AttackRequest, user: User.Implementation | undefined): Promise<AttackAnswer> {
  const combat = game.combats?.get(req.combatId) as TenSegmentsCombat | undefined;
  if (!combat) return refuse({ key: 'UnknownCombat' });
  const attacker = combat.combatants.get(req.attackerId);
  const target = combat.combatants.get(req.targetId);
  if (!attacker) return refuse({ key: 'UnknownCombatant', data: { id: req.attackerId } });
  if (!target) return refuse({ key: 'UnknownCombatant', data: { id: req.targetId } });
  const denied = authorize('applyDamage', user, attacker);
  if (denied) return refuse(denied);
  const attackerActor = attacker.actor;
  const targetActor = target.actor;
  if (!attackerActor || !targetActor) return refuse({ key: 'CombatantWithoutActor', data: { name: (attackerActor ? target : attacker).name ?? '' } });

  // What strikes: a weapon, or a monster routine's attack.
  const modifiers: AttackModifier[] = [];
  let damageText: string;
  let label: string;
  if (req.weaponId) {
    const item = attackerActor.items.get(req.weaponId);
    const weapon = item ? weaponOf({ id: item.id as string, name: item.name ?? '', type: item.type, system: item.system }) : null;
    if (!item || !weapon) return refuse({ key: 'DeclarationWeaponMissing', data: { name: attacker.name ?? '', item: req.weaponId } });
    damageText = req.large ? weapon.damage.large : weapon.damage.small;
    label = item.name ?? '';
    const missileBonus = (attackerActor.system as unknown as { combat?: { missileBonus?: number } }).combat?.missileBonus ?? 0;
    if (weapon.kind === 'missile' && missileBonus) modifiers.push({ source: 'missile', value: missileBonus });
    if (weapon.kind === 'missile' && weapon.missileBonus) modifiers.push({ source: 'weapon', value: weapon.missileBonus });
  } else {
    const routines = parseAttackRoutines((attackerActor.system as unknown as { attacks?: string }).attacks ?? '');
    if (!routines.ok) return refuse(routines.problem);
    const routine = routines.value[req.routine ?? 0];
    const flat = routine?.attacks.flatMap((a) => a.damage.map((d) => ({ name: a.name, damage: d })));
    const chosen = flat?.[req.attack ?? 0];
    if (!chosen) return refuse({ key: 'NoSuchAttack', data: { name: attacker.name ?? '' } });
    damageText = chosen.damage;
    label = chosen.name;
  }
  const formula = damageFormula(damageText);
  if (!formula) return refuse({ key: 'DamageFormulaInvalid', data: { text: damageText } });
  const aac0 = aac0Of(attackerActor);
  if (!aac0.ok) return refuse(aac0.problem);
  const ac = (targetActor.system as unknown as { ac?: number }).ac ?? 10;

  const attackRoll = await new Roll('1d20').evaluate();
  const natural = attackRoll.total as number;
  const result = resolveAttack({ aac0: aac0.value, ac, modifiers }, natural);
  if (!result.ok) return refuse(result.problem);
  const rolls: Roll[] = [attackRoll];
  let damage = 0;
  if (result.value.hit) {
    const damageRoll = await new Roll(formula).evaluate();
    damage = Math.max(0, damageRoll.total as number);
    rolls.push(damageRoll);
  }
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/attack.hbs`, {
    attacker: attacker.name,
    target: target.name,
    label,
    natural,
    total: result.value.total,
    needed: result.value.needed,
    hit: result.value.hit,
    reason: result.value.reason,
    damage,
  });
  await ChatMessage.create({
    content,
    rolls,
    speaker: ChatMessage.getSpeaker({ actor: attackerActor }),
    flags: { [SYSTEM_ID]: { kind: 'attack', combat: combat.id, attacker: attacker.id, target: target.id } },
  } as never);
  if (damage > 0) {
    await applyDamageToCombatant(combat, target, damage, attacker.id as string);
    // The damage hook hands the hit to the combat flow; let it finish first.
    await whenIdle(combat.id as string);
  }
  return { ok: true, hit: result.value.hit, natural, needed: result.value.needed, damage };
}

/** Apply damage to a combatant's actor the way the combat's procedure counts it. */
export async function applyDamageToCombatant(combat: TenSegmentsCombat, target: Combatant.Implementation, amount: number, by?: string): Promise<void> {
  const actor = target.actor;
  if (!actor) return;
  const state = combat.flowState;
  const options = by ? { [ATTACKER_OPTION]: by } : {};
  const built = engineCombatant(target, groupIdOf(target) ?? '');
  if (state && !('problem' in built)) {
    const procedure = getProcedure(state.procedure);
    const current = state.states[target.id as string];
    if (current) {
      const { state: after } = procedure.applyDamage(built.combatant, { ...current, hp: built.combatant.hp, stress: built.combatant.stress, woundPoints: built.combatant.woundPoints }, amount, state.options);
      const data: Record<string, number> = { 'system.hp.value': after.hp };
      if (after.stress !== undefined) data['system.individual.stress.value'] = after.stress;
      if (after.woundPoints !== undefined) data['system.individual.wounds.value'] = after.woundPoints;
      await actor.update(data as never, options as never);
      return;
    }
  }
  const hp = (actor.system as unknown as { hp?: { value?: number } }).hp?.value ?? 0;
  await actor.update({ 'system.hp.value': hp - amount } as never, options as never);
}
