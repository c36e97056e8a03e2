/**
 * Attacks: a d20 against descending AC through AAC0 (the engine decides the
 * hit, natural 20 and natural 1 included), damage from the weapon (its
 * column by the target's size) or the monster's routine, real Roll objects
 * and a chat card. The world's procedure decides the roll: under
 * individual-speed (seed 003) it is d20 + attack bonus against Defense
 * (Full-Defense's +4 included), a natural 20 a critical hit that multiplies
 * the damage by the weapon's multiplier and goes past Stress, the target's
 * Armour taken off the damage (never below 0), the hit carrying its damage
 * type for the Combat Injury check the engine makes (rules/attack.ts).
 *
 * Every attack is made by the active GM's client (a player asks for it on
 * the socket, ../requests.ts) and held to the rules before any die is rolled:
 * the sender owns the attacker; both are in that combat; the weapon or
 * routine exists; and the engine's `attackProblem` accepts it (the attacker
 * acts in this step by the schedule or has a free or immediate attack, is
 * alive and able, has a routine left, uses its declared weapon or routine).
 * The attack and the damage it does are one write of the combat log (an
 * `attack` entry, then a `hit`); the actor's health follows from the flow,
 * so a hit is never counted twice. A retried request gets the answer its
 * chat card recorded. The card (and the card of a casting the attack
 * interrupts) is shown in the message mode the requesting user chose, which
 * the request carries.
 *
 * The user's side (the request and its answer) is ../attack.ts.
 */
import { criticalMultiplier, damageColumn, damageTaken, defenseScore, fullDefenseIn, missileModifiers, parseAac0, resolveAttack, resolveDefenseAttack, type AttackModifier } from '../../rules/attack';
import { injuryText } from '../../rules/injury-text';
import { damageFormula } from '../../rules/dice';
import { isDamageType, type DamageType } from '../../rules/model';
import { parseAttackRoutines } from '../../rules/attack-routines';
import { armorClassNow, attackProblem, type FlowInput } from '../../rules/flow';
import type { Problem } from '../../rules/model';
import { actorToEngine, weaponOf } from '../../data/engine-view';
import { SYSTEM_ID, monsterRollsPrivate } from '../../settings';
import { authorize } from '../permissions';
import type { TenSegmentsCombat } from '../combat';
import { localizeProblem } from '../problems';
import { serialize } from '../requests';
import { storedActor } from '../stored';
import { actorData, actorSize } from '../../data/systems';
import { postCard, postInterruptionCard, type CardMode } from '../chat';
import { gmMode, publicMode } from '../compat-writes';
import type { AttackAnswer, AttackRequest } from '../attack';
import { distanceBetween } from '../grid';
import { missileRangeBand } from '../../rules/range';

const refuse = (problem: Problem): AttackAnswer => ({ ok: false, key: problem.key, message: localizeProblem(problem) });

/** The active GM's side of an attack request (its shape already checked). */
export async function handleAttack(data: AttackRequest, sender: User.Implementation, q: string): Promise<AttackAnswer> {
  return serialize(data.combatId, () => strike(data, sender, q));
}

/** Damage text as a Roll formula (rules/dice.ts; the sheet's damage button reads it too). */
export { damageFormula };

function aac0Of(actor: Actor.Implementation): ReturnType<typeof parseAac0> {
  const sys = actorData(actor);
  return parseAac0(sys && 'attack' in sys ? sys.attack.aac0 : sys?.aac0);
}

/** The answer a chat card recorded for a request, if it was carried out already (a retry). */
function recordedAnswer(q: string): AttackAnswer | null {
  const message = game.messages?.contents.find((m) => ((m.flags as Record<string, { request?: string }>)?.[SYSTEM_ID])?.request === q);
  const f = (message?.flags as Record<string, { hit?: boolean; natural?: number; needed?: number; damage?: number; critical?: boolean }> | undefined)?.[SYSTEM_ID];
  if (!f) return null;
  const answer: AttackAnswer = { ok: true, hit: !!f.hit, natural: Number(f.natural), needed: Number(f.needed), damage: Number(f.damage) };
  if (f.critical) answer.critical = true;
  return answer;
}

/** An actor's stats as the engine reads them (Defense bonus, Armour, attack bonus, Agility). */
function statsOf(actor: Actor.Implementation) {
  return actorToEngine(actor.type, actor.system, actor.items.contents.map((i) => ({ id: i.id as string, name: i.name ?? '', type: i.type, system: i.system })));
}

/**
 * individual-speed: the blow's damage type. A weapon's: the one the request
 * names, which must be one of the weapon's ("if there was more than one damage
 * type, the player whose character made the attack chooses"), else its first;
 * a routine's: the one the request names (the Referee's choice), else none.
 */
function damageTypeOf(req: AttackRequest, types: readonly DamageType[] | null, name: string): { ok: true; type?: DamageType } | { ok: false; problem: Problem } {
  const asked = req.damageType;
  if (asked === undefined) return types && types.length > 0 ? { ok: true, type: types[0] } : { ok: true };
  if (!isDamageType(asked) || (types !== null && !types.includes(asked))) {
    return { ok: false, problem: { key: 'DamageTypeNotOfWeapon', data: { name, type: String(asked), types: (types ?? []).join(', ') } } };
  }
  return { ok: true, type: asked };
}

async function strike(req: AttackRequest, user: User.Implementation, q: string): Promise<AttackAnswer> {
  const combat = game.combats?.get(req.combatId) as TenSegmentsCombat | undefined;
  if (!combat) return refuse({ key: 'UnknownCombat' });
  const attacker = combat.combatants.get(req.attackerId);
  const target = combat.combatants.get(req.targetId);
  if (!attacker) return refuse({ key: 'UnknownCombatant', data: { id: req.attackerId } });
  if (!target) return refuse({ key: 'UnknownCombatant', data: { id: req.targetId } });
  const denied = authorize('applyDamage', user, attacker);
  if (denied) return refuse(denied);
  // A retry: the log knows the request (its attack entry), the chat card its answer.
  const done = combat.madeBy(q) ? recordedAnswer(q) : null;
  if (done) return done;
  const state = combat.flowState;
  if (!state) return refuse({ key: 'CombatNotStarted' });
  const attackerActor = attacker.actor;
  const targetActor = target.actor;
  if (!attackerActor || !targetActor) return refuse({ key: 'CombatantWithoutActor', data: { name: (attackerActor ? target : attacker).name ?? '' } });

  // What strikes: a weapon (its column by the target's size), or a monster routine's attack.
  const modifiers: AttackModifier[] = [];
  let damageText: string;
  let label: string;
  // individual-speed: the weapon's critical multiplier and damage types (null: a routine, whose types are not known).
  let multiplier: number | undefined;
  let types: readonly DamageType[] | null = null;
  const input: FlowInput & { t: 'attack' } = { t: 'attack', c: attacker.id as string, target: target.id as string };
  // Ranges on the map: this (the GM's) client measures centre to centre by the scene's grid; a request carries no distance.
  const from = attacker.token;
  const to = target.token;
  if (from && to && from.parent === to.parent) input.distance = distanceBetween(from, to);
  const speed = state.procedure === 'individual-speed';
  if (req.weaponId) {
    const item = attackerActor.items.get(req.weaponId);
    const weapon = item ? weaponOf({ id: item.id as string, name: item.name ?? '', type: item.type, system: item.system }) : null;
    if (!item || !weapon) return refuse({ key: 'DeclarationWeaponMissing', data: { name: attacker.name ?? '', item: req.weaponId } });
    const size = actorSize(targetActor);
    damageText = damageColumn(size) === 'large' ? weapon.damage.large : weapon.damage.small;
    label = item.name ?? '';
    input.weapon = label;
    multiplier = criticalMultiplier(weapon.critical);
    types = Array.isArray(weapon.damageTypes) ? weapon.damageTypes.filter(isDamageType) : [];
    if (weapon.kind === 'missile') {
      const sys = actorData(attackerActor);
      const band = input.distance === undefined ? null : missileRangeBand(input.distance, weapon.range);
      const rangeModifiers = (state.options as Record<string, unknown>).rangeModifiers !== false;
      modifiers.push(...missileModifiers(sys && 'combat' in sys ? sys.combat.missileBonus : 0, weapon.missileBonus ?? 0, speed, band, rangeModifiers));
    }
  } else {
    const sys = actorData(attackerActor);
    const routines = parseAttackRoutines(sys && 'attacks' in sys ? sys.attacks : '');
    if (!routines.ok) return refuse(routines.problem);
    const routine = routines.value[req.routine ?? 0];
    const flat = routine?.attacks.flatMap((a) => a.damage.map((d) => ({ name: a.name, damage: d })));
    const chosen = flat?.[req.attack ?? 0];
    if (!chosen) return refuse({ key: 'NoSuchAttack', data: { name: attacker.name ?? '' } });
    damageText = chosen.damage;
    label = chosen.name;
    input.routine = req.routine ?? 0;
  }
  const formula = damageFormula(damageText);
  if (!formula) return refuse({ key: 'DamageFormulaInvalid', data: { text: damageText } });
  const aac0 = aac0Of(attackerActor);
  if (!aac0.ok && !speed) return refuse(aac0.problem);
  const type = speed ? damageTypeOf(req, types, attacker.name ?? '') : { ok: true as const };
  if (!type.ok) return refuse(type.problem);
  // The rules before any die: whose step it is, who can act, what is left, what was declared.
  const illegal = attackProblem(state, input);
  if (illegal) return refuse(illegal);
  const sheetAc = actorData(targetActor)?.ac ?? 10;
  // The world's procedure may change the AC the attack is rolled against (d12-ascending III.E: no Dexterity bonus while casting).
  const { ac, casting } = armorClassNow(state, target.id as string, sheetAc);
  // individual-speed (seed 003): Defense (+4 for a Full-Defense this round) and Armour, read from the actors now.
  const defender = speed ? statsOf(targetActor) : null;
  const defense = defender ? defenseScore(defender, fullDefenseIn(state.schedule, target.id as string)) : 0;

  const attackRoll = await new Roll('1d20').evaluate();
  const natural = attackRoll.total as number;
  const result = defender
    ? resolveDefenseAttack({ attackBonus: statsOf(attackerActor).attackBonus ?? 0, defense, modifiers }, natural)
    : aac0.ok
      ? resolveAttack({ aac0: aac0.value, ac, modifiers }, natural)
      : aac0;
  if (!result.ok) return refuse(result.problem);
  const needed = 'defense' in result.value ? result.value.defense : result.value.needed;
  const critical = 'critical' in result.value && result.value.critical;
  const rolls: Roll[] = [attackRoll];
  let damage = 0;
  let dealt = 0;
  let rolled = 0;
  if (result.value.hit) {
    const damageRoll = await new Roll(formula).evaluate();
    rolled = Math.max(0, damageRoll.total as number);
    // "Armour reduces the damage taken from each hit"; a critical hit "multiplies the damage dealt".
    const taken = defender ? damageTaken(rolled, { critical, multiplier, armour: defender.armour }) : { dealt: rolled, taken: rolled };
    dealt = taken.dealt;
    damage = taken.taken;
    rolls.push(damageRoll);
  }
  const made = await combat.recordAttack(input, damage, q, speed ? { ...(critical ? { critical: true } : {}), ...(type.type !== undefined ? { type: type.type } : {}) } : {});
  if ('problem' in made) return refuse(made.problem);
  // The cards tell what the attack did: shown as the one who asked chose.
  // A monster's attack (no player owns the attacker) asked for in public is whispered to the GMs while the world says so.
  const asked = req.mode ?? publicMode();
  const gmOnly = asked === publicMode() && !attacker.hasPlayerOwner && monsterRollsPrivate();
  const shown: CardMode = { mode: gmOnly ? gmMode() : asked, user };
  const after = combat.flowState;
  if (after) for (const i of made.detail.interruptions ?? []) await postInterruptionCard(combat, after, i, shown);
  const check = made.detail.hit?.injury;
  const i18n = game.i18n;
  const injury =
    check && i18n
      ? i18n.format(check.injury ? 'TENSEG.Chat.Attack.Injury' : 'TENSEG.Chat.Attack.NoInjury', {
          roll: String(check.roll),
          wounds: String(check.wounds),
          injury: check.injury ? injuryText((key, data) => i18n.format(key, Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, String(v)]))), (key) => i18n.has(key), check.injury) : '',
        })
      : '';
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/attack.hbs`, {
    attacker: attacker.name,
    target: target.name,
    label,
    natural,
    total: result.value.total,
    needed,
    hit: result.value.hit,
    reason: result.value.reason,
    damage,
    critical: critical && result.value.hit,
    rolled,
    multiplier,
    dealt,
    armour: defender && result.value.hit && (defender.armour ?? 0) > 0 ? defender.armour : 0,
    type: type.type !== undefined && result.value.hit ? (i18n?.localize(`TENSEG.DamageType.${type.type}`) ?? type.type) : '',
    injury,
    // III.E: the AC the attack was rolled against when a casting changed it (AC 0 shown too).
    castingAc: casting && ac !== sheetAc,
    ac,
  });
  const answer: AttackAnswer = { ok: true as const, hit: result.value.hit, natural, needed, damage };
  if (critical) answer.critical = true;
  await postCard(
    {
      content,
      rolls,
      speaker: ChatMessage.getSpeaker({ actor: storedActor(attackerActor) }),
      flags: { [SYSTEM_ID]: { kind: 'attack', combat: combat.id, attacker: attacker.id, target: target.id, request: q, hit: answer.hit, natural, needed, damage, ...(critical ? { critical: true } : {}) } },
    },
    shown,
  );
  return answer;
}
