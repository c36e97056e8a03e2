/**
 * The active GM's side of combatants (combatant.ts has the document and the
 * hooks): a side (CombatantGroup) created on first need, a combatant placed
 * in its side and brought into the running flow, the combatants missing from
 * a flow joining it. A chunk of its own (the writer's chunk imports it too),
 * loaded when a GM first needs it.
 */
import type { TenSegmentsCombat } from './combat';
import { groupIdOf } from './encounter';
import { notifyProblem } from './problems';
import { isActiveGM } from './permissions';
import { groupData } from '../data/systems';
import { combatantKeys, roundJoinedOf } from './compat-writes';
import { sideKeyOf } from './combatant';
import { tell } from './requests';

/** The group standing for a side key in a combat, created (one write) if missing; null if a hook prevented it. GM only. */
export async function ensureSide(combat: Combat.Implementation, key: string): Promise<CombatantGroup.Implementation | null> {
  const existing = combat.groups.find((g) => groupData(g)?.side === key);
  if (existing) return existing;
  const created = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: game.i18n?.localize(`TENSEG.Side.${key}`) ?? key, system: { side: key } }]);
  return created?.[0] ?? null;
}

/**
 * A combatant new to this combat, added by `creatorId` (null: not known),
 * on the active GM's client (issue 26). A creature already in the combat
 * (duplicateOf: the same token, or the same linked actor) is removed: it
 * never joins, the GM is told and so is its creator. One a player added is
 * put on its token's disposition side, whatever group it was created with
 * (core lets an owner create a combatant with any field). Then it is placed
 * and brought into the flow. True when it joined. The caller holds the queue.
 */
export async function admit(combat: TenSegmentsCombat, combatant: Combatant.Implementation, creatorId: string | null): Promise<boolean> {
  const creator = creatorId ? (game.users?.get(creatorId) ?? null) : null;
  const first = duplicateOf(combat, combatant);
  if (first) {
    await combatant.delete();
    const data = { name: combatant.name ?? '', first: first.name ?? '' };
    notifyProblem({ key: 'DuplicateCombatant', data: { ...data, user: creator?.name ?? '' } });
    if (creator && !creator.isGM && creator.id !== game.user?.id) tell(creator.id as string, { key: 'DuplicateCombatantYours', data });
    return false;
  }
  if (creator && !creator.isGM) await keepToItsSide(combat, combatant, creator);
  return placeAndJoin(combat, combatant);
}

/** A player's combatant on its token's side: a group it was created with is put back (the GM and the player told). */
async function keepToItsSide(combat: TenSegmentsCombat, combatant: Combatant.Implementation, creator: User.Implementation): Promise<void> {
  const own = groupIdOf(combatant);
  if (!own) return; // placed below, on its side
  const side = await ensureSide(combat, sideKeyOf(combatant));
  if (!side || side.id === own) return;
  await combatant.update({ group: side.id });
  const data = { name: combatant.name ?? '', side: side.name ?? '' };
  notifyProblem({ key: 'SidePutBack', data: { ...data, user: creator.name ?? '' } });
  if (creator.id !== game.user?.id) tell(creator.id as string, { key: 'SidePutBackYours', data });
}

/** Place a combatant in its side if it has none, then bring it into the running flow; true when it joined. The caller holds the queue. */
export async function placeAndJoin(combat: TenSegmentsCombat, combatant: Combatant.Implementation): Promise<boolean> {
  if (!groupIdOf(combatant)) {
    const group = await ensureSide(combat, sideKeyOf(combatant));
    if (group) await combatant.update({ group: group.id });
  }
  if (!combat.flowState) return false;
  const problem = await combat.joinFlow(combatant);
  if (problem) notifyProblem(problem);
  return !problem;
}

/**
 * The combatants of a running combat that are not in its flow and may join
 * it now, in the tracker's order. Not one the flow knows under its id (it
 * was in the fight and left). v14: not one that came in a later round than
 * the combat's (`roundJoined`; core's round, 1 in the surprise segments):
 * Previous took that round back, and it joins when the round comes again.
 * v13 does not record the round: each joins now.
 */
export function missingFromFlow(combat: TenSegmentsCombat): Combatant.Implementation[] {
  const state = combat.flowState;
  if (!state) return [];
  const round = Math.max(1, state.round);
  const known = new Set(state.encounter.combatants.map((e) => e.id));
  return combat.orderedCombatants(state).filter((c) => {
    const id = c.id as string;
    if (known.has(id) || state.states[id]) return false;
    const joined = roundJoinedOf(c);
    return joined === null || joined <= round;
  });
}

/**
 * Active GM only: the combatants missing from a running combat's flow
 * (missingFromFlow) are admitted and join it, each as the procedure rules at
 * this point (a late joiner while the round is played, planned with the
 * others in the declarations), and the GM is told; a combat not started yet
 * has every combatant admitted (those added while no GM was there). Who added
 * one is read from its `_stats.lastModifiedBy` (core's, the server's word):
 * a player's, unless a GM has written it since. The caller holds the queue.
 */
export async function joinMissing(combat: TenSegmentsCombat): Promise<void> {
  if (!isActiveGM()) return;
  const waiting = combat.flowState ? missingFromFlow(combat) : combat.orderedCombatants(null);
  for (const combatant of waiting) {
    if (!combat.combatants.has(combatant.id as string)) continue;
    const joined = await admit(combat, combatant, combatant._stats?.lastModifiedBy ?? null);
    if (!joined) continue;
    const text = game.i18n?.format('TENSEG.Combatant.JoinsNow', { name: combatant.name ?? '', round: String(combat.round) });
    if (text) ui.notifications?.info(text);
  }
}

/**
 * What makes two combatants one creature (issue 26: one combatant per token, and per actor for a linked
 * actor): its token, and its actor when linked — a linked token's, or, with no token, an actor whose prototype
 * token is linked (a character). Several combatants of an unlinked actor without tokens (three orcs added
 * from the sidebar) are several creatures.
 */
function creatureKeys(combatant: Combatant.Implementation): string[] {
  return combatantKeys(combatant, combatant.tokenId ? !!combatant.token?.actorLink : !!combatant.actor?.prototypeToken?.actorLink);
}

/** Another combatant of the same combat that is this one's creature (creatureKeys), or null. */
export function duplicateOf(combat: Combat.Implementation, combatant: Combatant.Implementation): Combatant.Implementation | null {
  const mine = new Set(creatureKeys(combatant));
  if (mine.size === 0) return null;
  return combat.combatants.find((other) => other.id !== combatant.id && creatureKeys(other).some((k) => mine.has(k))) ?? null;
}
