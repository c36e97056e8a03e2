/**
 * The actor sheet's roll buttons: attack, damage, morale (the actor sheet's
 * body calls these; a chunk of its own, loaded at the first click).
 *
 * An attack during a combat is the tracker's: the actor's combatant, the
 * user's one targeted token as a combatant of that combat, and the request
 * the row's Attack sends (documents/attack.ts) to the active GM, who holds it
 * to the schedule rules (accepted only when the combatant acts) and posts
 * the card; a refusal is shown in words. Outside a combat there is no
 * schedule to keep: the attack is a plain roll, the d20 against the target's
 * AC through AAC0 (or, under individual speed, the attack bonus against
 * Defense) by the same rules code (rules/attack.ts), shown as a card that
 * tells the number needed and hit or miss, and nothing is written: no
 * health changes outside a combat's log (roll the damage with the Damage
 * button and apply it on the sheet).
 *
 * Damage rolls the weapon's column for the target's size (or a monster's
 * routine) and posts a card; it writes nothing (an attack in a combat has
 * dealt its damage already). Morale is the tracker's morale check for the
 * monster's combatant, through the GM. Every card goes out in the message
 * mode the user chose (compat-writes.ts), a monster's whispered to the GMs
 * where the world says so, as the attack cards are.
 */
import type { TenSegmentsCombat } from '../../documents/combat';
import { requestAttack } from '../../documents/attack';
import { requestCombatAction } from '../../documents/queries';
import { applyMessageMode, currentMessageMode, gmMode, publicMode } from '../../documents/compat-writes';
import { actorData, actorSize } from '../../data/systems';
import { actorToEngine, weaponOf } from '../../data/engine-view';
import { damageColumn, defenseScore, missileModifiers, parseAac0, resolveAttack, resolveDefenseAttack, type AttackModifier } from '../../rules/attack';
import { parseAttackRoutines } from '../../rules/attack-routines';
import { damageFormula } from '../../rules/dice';
import type { Problem } from '../../rules/model';
import { localizeProblem } from '../../documents/problems';
import { SYSTEM_ID, monsterRollsPrivate } from '../../settings';
import { storedActor } from '../../documents/stored';

/** What the buttons need of a sheet: its actor (an ActorSheetV2 has both). */
export interface RollSheet {
  actor?: Actor.Implementation | null;
  document?: Actor.Implementation | null;
}

/** What a button names: a weapon item of the actor, or a monster's routine (index). */
export interface RollWhat {
  itemId?: string;
  routine?: number;
}

const t = (key: string, data?: Record<string, string | number>): string =>
  data ? game.i18n!.format(`TENSEG.Sheet.Roll.${key}`, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) : game.i18n!.localize(`TENSEG.Sheet.Roll.${key}`);

/** Tell the user why nothing happened. */
function refuse(message: string): void {
  ui.notifications?.error(message);
}

const actorOf = (sheet: RollSheet): Actor.Implementation | null => sheet.actor ?? sheet.document ?? null;

/* ------------------------------------------------------------- targets */

interface Targeted {
  tokenId: string;
  actor: Actor.Implementation | null;
  name: string;
}

/** The user's one targeted token; null for none, 'several' for more than one. */
function targetedToken(): Targeted | null | 'several' {
  const targets = [...(game.user?.targets ?? [])] as unknown as { id?: string; name?: string; actor?: Actor.Implementation | null; document?: { id?: string | null; name?: string; actor?: Actor.Implementation | null } }[];
  if (targets.length > 1) return 'several';
  const token = targets[0];
  const tokenId = token?.document?.id ?? token?.id;
  if (!token || !tokenId) return null;
  const actor = token.actor ?? token.document?.actor ?? tokenActor(tokenId);
  return { tokenId, actor, name: token.document?.name ?? token.name ?? actor?.name ?? '' };
}

/** A token's actor by the token's id, in any scene. */
function tokenActor(tokenId: string): Actor.Implementation | null {
  for (const scene of game.scenes?.contents ?? []) {
    const token = (scene as unknown as { tokens: { get(id: string): { actor?: Actor.Implementation | null } | undefined } }).tokens.get(tokenId);
    if (token) return token.actor ?? null;
  }
  return null;
}

/** The one target, or the refusal told (none, several). */
function oneTarget(): Targeted | null {
  const target = targetedToken();
  if (target === 'several') return void refuse(t('TargetOne')), null;
  if (!target) return void refuse(t('TargetNone')), null;
  return target;
}

/* ------------------------------------------------------------- combats */

interface InCombat {
  combat: TenSegmentsCombat;
  combatant: Combatant.Implementation;
}

/**
 * The actor's combatant: in the combat being viewed first, then in a started
 * one, then any. The sheet's own actor (a token's actor for an unlinked
 * monster) is matched; a world actor with several tokens in one combat has no
 * one combatant ('several').
 */
function combatantOf(actor: Actor.Implementation): InCombat | null | 'several' {
  const all = (game.combats?.contents ?? []) as TenSegmentsCombat[];
  const viewed = game.combat as TenSegmentsCombat | null | undefined;
  const ordered = [...(viewed ? [viewed] : []), ...all.filter((c) => c !== viewed && c.flowState), ...all.filter((c) => c !== viewed && !c.flowState)];
  for (const combat of ordered) {
    const same = combat.combatants.contents.filter((c) => c.actor === actor || (!!actor.uuid && c.actor?.uuid === actor.uuid));
    if (same.length === 1) return { combat, combatant: same[0]! };
    if (same.length > 1) return 'several';
    if (!actor.isToken) {
      const byId = combat.combatants.contents.filter((c) => c.actorId === actor.id);
      if (byId.length === 1) return { combat, combatant: byId[0]! };
      if (byId.length > 1) return 'several';
    }
  }
  return null;
}

/* ------------------------------------------------------------- health */

/** Does this actor count Stress and Wound Points (individual-speed) rather than hp? */
function usesStressAndWounds(actor: Actor.Implementation): boolean {
  const ind = actorData(actor)?.individual;
  return !!ind && (ind.stress.max > 0 || ind.wounds.max > 0);
}

/**
 * Outside a combat (where the engine does not judge it): is the actor down?
 * With hp, at 0 or fewer; under individual speed with Wound Points, dead at
 * minus its Strength (seed 003: "if a creature's current Wound Points
 * reaches the negative value of their Strength Score, they die"); an
 * Incapacitated or Dying creature may still act.
 */
function isDown(actor: Actor.Implementation, speed: boolean): boolean {
  const sys = actorData(actor);
  if (!sys) return false;
  if (speed && usesStressAndWounds(actor)) {
    const strength = 'abilities' in sys ? sys.abilities.str : sys.individual.strength;
    return strength > 0 && sys.individual.wounds.value <= -strength;
  }
  return sys.hp.value <= 0;
}

function worldProcedure(): string {
  try {
    return String(game.settings?.get(SYSTEM_ID, 'procedure') ?? '');
  } catch {
    return '';
  }
}

/* --------------------------------------------------------------- cards */

/** A card of this user's, in their message mode (a monster's public roll whispered to the GMs where the world says so). */
async function postRollCard(actor: Actor.Implementation, content: string, rolls: Roll[], flags: Record<string, unknown>): Promise<void> {
  const asked = currentMessageMode();
  const monster = !actor.hasPlayerOwner;
  const mode = asked === publicMode() && monster && monsterRollsPrivate() ? gmMode() : asked;
  const data = applyMessageMode({ content, rolls, speaker: ChatMessage.getSpeaker({ actor: storedActor(actor) }), flags: { [SYSTEM_ID]: flags } }, mode);
  await ChatMessage.create(data as never);
}

const card = (data: Record<string, unknown>) => foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/sheet-roll.hbs`, data);

/* -------------------------------------------------------------- what */

interface Strike {
  label: string;
  /** The damage entries (a weapon's column; each attack of a routine). */
  damage: { name: string; text: string }[];
  weapon?: { kind: string; missileBonus: number };
}

/** The weapon or routine a button names, or the refusal. */
function strikeOf(actor: Actor.Implementation, what: RollWhat, target: Actor.Implementation | null): Strike | Problem {
  if (what.itemId) {
    const item = actor.items.get(what.itemId);
    const weapon = item ? weaponOf({ id: item.id as string, name: item.name ?? '', type: item.type, system: item.system }) : null;
    if (!item || !weapon) return { key: 'DeclarationWeaponMissing', data: { name: actor.name ?? '', item: what.itemId } };
    const text = damageColumn(actorSize(target)) === 'large' ? weapon.damage.large : weapon.damage.small;
    return { label: item.name ?? '', damage: [{ name: item.name ?? '', text }], weapon: { kind: weapon.kind, missileBonus: weapon.missileBonus ?? 0 } };
  }
  const sys = actorData(actor);
  const routines = parseAttackRoutines(sys && 'attacks' in sys ? sys.attacks : '');
  if (!routines.ok) return routines.problem;
  const routine = routines.value[what.routine ?? 0];
  if (!routine) return { key: 'NoSuchAttack', data: { name: actor.name ?? '' } };
  return { label: routine.text, damage: routine.attacks.flatMap((a) => a.damage.map((text) => ({ name: a.name, text }))) };
}

/* -------------------------------------------------------------- attack */

/**
 * The Attack button: against the user's one targeted token. In a combat the
 * tracker's request (accepted only when the combatant acts); outside one a
 * plain roll card (see the module's comment).
 */
export async function rollAttack(sheet: RollSheet, what: RollWhat = {}): Promise<void> {
  const actor = actorOf(sheet);
  if (!actor) return;
  const target = oneTarget();
  if (!target) return;
  const found = combatantOf(actor);
  if (found === 'several') return refuse(t('SeveralCombatants', { name: actor.name ?? '' }));
  if (found) return attackInCombat(found, actor, target, what);
  return attackOutside(actor, target, what);
}

async function attackInCombat({ combat, combatant }: InCombat, actor: Actor.Implementation, target: Targeted, what: RollWhat): Promise<void> {
  const aimed = combat.combatants.contents.find((c) => c.tokenId === target.tokenId);
  if (!aimed) return refuse(t('TargetNotInCombat', { target: target.name }));
  const request: Parameters<typeof requestAttack>[1] = { attackerId: combatant.id as string, targetId: aimed.id as string };
  if (what.itemId) {
    if (!actor.items.get(what.itemId)) return refuse(localizeProblem({ key: 'DeclarationWeaponMissing', data: { name: actor.name ?? '', item: what.itemId } }));
    request.weaponId = what.itemId;
  } else request.routine = what.routine ?? 0;
  const answer = await requestAttack(combat, request);
  if (!answer.ok) refuse(answer.message);
}

async function attackOutside(actor: Actor.Implementation, target: Targeted, what: RollWhat): Promise<void> {
  const defender = target.actor;
  if (!defender || !actorData(defender)) return refuse(t('TargetNoActor', { target: target.name }));
  const speed = worldProcedure() === 'individual-speed';
  if (isDown(actor, speed)) return refuse(t('Down', { name: actor.name ?? '' }));
  const strike = strikeOf(actor, what, defender);
  if ('key' in strike) return refuse(localizeProblem(strike));
  // The same modifiers the GM's attack counts (handlers/attack.ts).
  const sys = actorData(actor);
  const modifiers: AttackModifier[] =
    strike.weapon?.kind === 'missile' ? missileModifiers(sys && 'combat' in sys ? sys.combat.missileBonus : 0, strike.weapon.missileBonus, speed) : [];
  const stats = (a: Actor.Implementation) => actorToEngine(a.type, a.system, a.items.contents.map((i) => ({ id: i.id as string, name: i.name ?? '', type: i.type, system: i.system })));
  const aac0 = parseAac0(sys && 'attack' in sys ? sys.attack.aac0 : sys?.aac0);
  if (!speed && !aac0.ok) return refuse(localizeProblem(aac0.problem));
  const ac = actorData(defender)?.ac ?? 10;
  const defense = speed ? defenseScore(stats(defender)) : 0;
  const roll = await new Roll('1d20').evaluate();
  const natural = roll.total as number;
  const result = speed
    ? resolveDefenseAttack({ attackBonus: stats(actor).attackBonus ?? 0, defense, modifiers }, natural)
    : resolveAttack({ aac0: (aac0 as { ok: true; value: Parameters<typeof resolveAttack>[0]['aac0'] }).value, ac, modifiers }, natural);
  if (!result.ok) return refuse(localizeProblem(result.problem));
  const needed = 'defense' in result.value ? result.value.defense : result.value.needed;
  const content = await card({
    kind: 'attack',
    attacker: actor.name,
    target: target.name,
    label: strike.label,
    natural,
    total: result.value.total,
    needed,
    hit: result.value.hit,
    reason: result.value.reason,
    against: speed ? t('AgainstDefense', { defense }) : t('AgainstAc', { ac }),
  });
  await postRollCard(actor, content, [roll], { kind: 'sheet-attack', hit: result.value.hit, natural, needed });
}

/* -------------------------------------------------------------- damage */

/** The Damage button: the weapon's (or routine's) damage against the targeted token's size column, as a card; nothing is written. */
export async function rollDamage(sheet: RollSheet, what: RollWhat = {}): Promise<void> {
  const actor = actorOf(sheet);
  if (!actor) return;
  const target = oneTarget();
  if (!target) return;
  const defender = target.actor ?? combatActorOf(target.tokenId);
  if (isDown(actor, worldProcedure() === 'individual-speed')) return refuse(t('Down', { name: actor.name ?? '' }));
  const strike = strikeOf(actor, what, defender);
  if ('key' in strike) return refuse(localizeProblem(strike));
  const lines: { name: string; formula: string; total: number }[] = [];
  const rolls: Roll[] = [];
  for (const d of strike.damage) {
    const formula = damageFormula(d.text);
    if (!formula) return refuse(localizeProblem({ key: 'DamageFormulaInvalid', data: { text: d.text } }));
    const roll = await new Roll(formula).evaluate();
    rolls.push(roll);
    lines.push({ name: d.name, formula: d.text, total: Math.max(0, roll.total as number) });
  }
  const column = damageColumn(actorSize(defender)) === 'large' ? t('ColumnLarge') : t('ColumnSmall');
  const total = lines.reduce((s, l) => s + l.total, 0);
  const content = await card({ kind: 'damage', attacker: actor.name, target: target.name, label: strike.label, column, lines, total });
  await postRollCard(actor, content, rolls, { kind: 'sheet-damage', total });
}

/** A combatant's actor by its token id, in any combat (a target known only to the tracker). */
function combatActorOf(tokenId: string): Actor.Implementation | null {
  for (const combat of game.combats?.contents ?? []) {
    const c = combat.combatants.contents.find((x) => x.tokenId === tokenId);
    if (c?.actor) return c.actor;
  }
  return null;
}

/* -------------------------------------------------------------- morale */

/** The Morale button: the monster's morale check, as the tracker's row asks it of the GM (in a combat only). */
export async function rollMorale(sheet: RollSheet): Promise<void> {
  const actor = actorOf(sheet);
  if (!actor) return;
  if (actor.type !== 'monster') return refuse(t('MoraleMonstersOnly'));
  const found = combatantOf(actor);
  if (found === 'several') return refuse(t('SeveralCombatants', { name: actor.name ?? '' }));
  if (!found) return refuse(t('MoraleNoCombat', { name: actor.name ?? '' }));
  const answer = await requestCombatAction(found.combat, 'morale', { combatantId: found.combatant.id as string, trigger: game.i18n!.localize('TENSEG.Tracker.MoraleTrigger') });
  if (!answer.ok && answer.message) refuse(answer.message);
}
