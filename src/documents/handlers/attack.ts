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
import { damageFormula } from '../../rules/dice';
import { isDamageType, type DamageType } from '../../rules/model';
import { parseAttackRoutines } from '../../rules/attack-routines';
import { armorClassNow, attackProblem, type FlowInput } from '../../rules/flow';
import { whenItAttacks } from '../../rules/flow/attack';
import type { Problem } from '../../rules/model';
import { SYSTEM_ID, monsterRollsPrivate } from '../../settings';
import { authorize } from '../permissions';
import type { TenSegmentsCombat } from '../combat';
import { localizeProblem } from '../problems';
import { serialize } from '../requests';
import { actorSize } from '../../data/systems';
import { SIZES } from '../../data/shapes';
import { sheetNumbers } from '../declarations';
import type { FlowState } from '../../rules/flow';
import type { SheetNumbers } from '../../rules/model';
import { postInterruptionCard, type CardMode } from '../chat';
import { postAttackCard } from '../attack-card';
import { answerOfBlow, blowOf, ensureAttackCard } from '../blow-record';
import { gmCards } from '../card-flags';
import type { BlowMark } from '../../rules/flow/log';
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

/**
 * The answer to a request the log says was carried out already (a retry): the one its chat card (a GM's) recorded,
 * else the one its blow's mark in the log gives (a GM that stopped before posting the card: the card is
 * posted now); an attack logged before blows were marked, with no card: refused, not made again.
 */
async function recordedAnswer(combat: TenSegmentsCombat, q: string): Promise<AttackAnswer> {
  // A GM's card of this combat only: a player may post a message with any flags, this request's key among them.
  const f = gmCards().find(({ flags }) => flags.kind === 'attack' && flags.combat === combat.id && flags.request === q)?.flags;
  if (f) {
    const answer: AttackAnswer = { ok: true, hit: !!f.hit, natural: Number(f.natural), needed: Number(f.needed), damage: Number(f.damage) };
    if (f.critical) answer.critical = true;
    return answer;
  }
  const blow = blowOf(combat, q);
  if (!blow) return refuse({ key: 'AttackAnswerLost' });
  await ensureAttackCard(combat, blow);
  return answerOfBlow(blow.b);
}

/**
 * What a blow reads of a combatant's sheet (issue 27): the numbers frozen when it declared this round, so an
 * edit of its sheet since changes its next declaration, not this round; `frozen` says they are. A combatant
 * that has not declared (or a combat declared before these numbers were kept): its sheet now.
 */
function numbersOf(state: FlowState, combatantId: string, actor: Actor.Implementation): { numbers: SheetNumbers; frozen: boolean } {
  // A held or prepared action released mid-round was declared anew then (flow/midround.ts): its numbers are the release's.
  const release = state.midRound?.find((r) => r.t === 'release' && r.c === combatantId);
  const sheet = (release?.t === 'release' ? release.d.sheet : undefined) ?? state.declarations[combatantId]?.sheet;
  return sheet ? { numbers: sheet, frozen: true } : { numbers: sheetNumbers(actor), frozen: false };
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
  // A retry: the log knows the request (its attack entry), the chat card or the blow's mark its answer.
  if (combat.madeBy(q)) return recordedAnswer(combat, q);
  const state = combat.flowState;
  if (!state) return refuse({ key: 'CombatNotStarted' });
  const attackerActor = attacker.actor;
  const targetActor = target.actor;
  if (!attackerActor || !targetActor) return refuse({ key: 'CombatantWithoutActor', data: { name: (attackerActor ? target : attacker).name ?? '' } });

  // What the blow reads: the attacker's numbers and the target's defence as each declared them.
  const { numbers: own, frozen } = numbersOf(state, attacker.id as string, attackerActor);
  const { numbers: theirs } = numbersOf(state, target.id as string, targetActor);
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
    const weapon = own.weapons?.[req.weaponId];
    if (!item) return refuse({ key: 'DeclarationWeaponMissing', data: { name: attacker.name ?? '', item: req.weaponId } });
    // A weapon it did not carry when it declared: this round's blows know nothing of it.
    if (!weapon) return refuse(frozen ? { key: 'WeaponNotAtDeclaration', data: { name: attacker.name ?? '', weapon: item.name ?? '' } } : { key: 'DeclarationWeaponMissing', data: { name: attacker.name ?? '', item: req.weaponId } });
    const size = SIZES.find((s) => s === theirs.size) ?? actorSize(targetActor);
    damageText = damageColumn(size) === 'large' ? weapon.damage.large : weapon.damage.small;
    label = item.name ?? '';
    input.weapon = label;
    multiplier = criticalMultiplier(weapon.critical);
    types = Array.isArray(weapon.damageTypes) ? weapon.damageTypes.filter(isDamageType) : [];
    if (weapon.kind === 'missile') {
      const band = input.distance === undefined ? null : missileRangeBand(input.distance, weapon.range);
      const rangeModifiers = (state.options as Record<string, unknown>).rangeModifiers !== false;
      modifiers.push(...missileModifiers(own.missileBonus ?? 0, weapon.missileBonus ?? 0, speed, band, rangeModifiers));
    }
  } else {
    const routines = parseAttackRoutines(own.attacks ?? '');
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
  const aac0 = parseAac0(own.aac0);
  if (!aac0.ok && !speed) return refuse(aac0.problem);
  const type = speed ? damageTypeOf(req, types, attacker.name ?? '') : { ok: true as const };
  if (!type.ok) return refuse(type.problem);
  // The rules before any die: whose step it is, who can act, what is left, what was declared.
  const illegal = attackProblem(state, input);
  // Not its step yet: the words say when it comes (the answer's key stays the engine's).
  if (illegal) return { ok: false, key: illegal.key, message: localizeProblem(whenItAttacks(state, input.c, illegal, (p) => game.i18n!.localize(`TENSEG.Phase.${p}`))!) };
  const sheetAc = theirs.ac ?? 10;
  // The world's procedure may change the AC the attack is rolled against (d12-ascending III.E: no Dexterity bonus while casting).
  const { ac, casting } = armorClassNow(state, target.id as string, sheetAc);
  // individual-speed (seed 003): Defense (+4 for a Full-Defense this round) and Armour, as the target declared them.
  const defender = speed ? theirs : null;
  const defense = defender ? defenseScore(defender, fullDefenseIn(state.schedule, target.id as string)) : 0;

  const attackRoll = await new Roll('1d20').evaluate();
  const natural = attackRoll.total as number;
  const result = defender
    ? resolveDefenseAttack({ attackBonus: own.attackBonus ?? 0, defense, modifiers }, natural)
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
  // What the blow was, one fact with its damage in the log: a GM taking over answers a retry and posts its card from it.
  const b: BlowMark = { n: natural, t: result.value.total, need: needed, hit: result.value.hit, d: damage, l: label };
  if (result.value.reason) b.why = result.value.reason;
  if (critical && result.value.hit) b.c = { rolled, multiplier: multiplier ?? 1, dealt };
  if (defender && result.value.hit && (defender.armour ?? 0) > 0) b.ar = { armour: defender.armour as number, dealt };
  if (type.type !== undefined && result.value.hit) b.ty = type.type;
  if (casting && ac !== sheetAc) b.ac = ac;
  const made = await combat.recordAttack(input, damage, q, speed ? { ...(critical ? { critical: true } : {}), ...(type.type !== undefined ? { type: type.type } : {}) } : {}, b);
  if ('problem' in made) return refuse(made.problem);
  // The cards tell what the attack did: shown as the one who asked chose.
  // A monster's attack (no player owns the attacker) asked for in public is whispered to the GMs while the world says so.
  const asked = req.mode ?? publicMode();
  const gmOnly = asked === publicMode() && !attacker.hasPlayerOwner && monsterRollsPrivate();
  const shown: CardMode = { mode: gmOnly ? gmMode() : asked, user };
  // The blow's card first, then what it caused (issue 28: the interruption card under the attack card that broke the casting).
  await postAttackCard(combat, { attacker, target, q, b, rolls, ...(made.detail.hit?.injury ? { injury: made.detail.hit.injury } : {}) }, shown);
  const after = combat.flowState;
  if (after) for (const i of made.detail.interruptions ?? []) await postInterruptionCard(combat, after, i, shown);
  const answer = answerOfBlow(b);
  return answer;
}
