/**
 * Combatants and their sides. A combatant added to a combat joins the side
 * (CombatantGroup) of its token's disposition, created on first need; the
 * GM can move it to another side. A combatant added while the combat runs
 * joins the flow as a late joiner; one removed stops acting.
 *
 * Only the active GM's client brings combatants into the flow. One added
 * while no GM was active (a player adding their token), or whose joining
 * Previous took back, is in the tracker but not in the fight: it joins when
 * a GM becomes the active GM (ready, or taking over from one who left) and
 * at the start of each round (`joinMissing`). Under v14 `roundJoined` says
 * in which round it came: one that came in a round later than the combat is
 * in now (a round Previous took back) waits for that round.
 */
import type { TenSegmentsCombat } from './combat';
import { groupIdOf } from './encounter';
import { notifyProblem } from './problems';
import { isActiveGM } from './permissions';
import { combatantData, groupData } from '../data/systems';
import { roundJoinedOf } from './compat';

/** Side keys by token disposition (CONST.TOKEN_DISPOSITIONS). */
export const DISPOSITION_SIDES: Record<number, string> = { 1: 'friendly', 0: 'neutral', [-1]: 'hostile', [-2]: 'secret' };

export function sideKeyOf(combatant: Combatant.Implementation): string {
  const disposition = combatant.token?.disposition;
  return DISPOSITION_SIDES[disposition ?? -1] ?? 'hostile';
}

/** The group standing for a side key in a combat, created (one write) if missing; null if a hook prevented it. GM only. */
export async function ensureSide(combat: Combat.Implementation, key: string): Promise<CombatantGroup.Implementation | null> {
  const existing = combat.groups.find((g) => groupData(g)?.side === key);
  if (existing) return existing;
  const created = await combat.createEmbeddedDocuments('CombatantGroup', [{ name: game.i18n?.localize(`TENSEG.Side.${key}`) ?? key, system: { side: key } }]);
  return created?.[0] ?? null;
}

export class TenSegmentsCombatant extends Combatant {
  /** The declaration request waiting on this combatant (before it enters the flow): checked when it does (combat.ts). */
  get declaration(): unknown {
    return combatantData(this)?.declaration ?? null;
  }

  /** Place a new combatant in its side at creation, when the GM creates it (no extra write). */
  protected override async _preCreate(...args: Parameters<Combatant['_preCreate']>): Promise<boolean | void> {
    const allowed = await super._preCreate(...args);
    if (allowed === false) return false;
    const combat = this.parent;
    if (combat && game.user?.isGM && !groupIdOf(this)) {
      const group = await ensureSide(combat, sideKeyOf(this));
      if (group) this.updateSource({ group: group.id });
    }
  }
}

/**
 * Active GM only: place combatants players added, and bring late joiners
 * into the flow, after any transition of the combat already under way.
 */
export function onCombatantCreated(combatant: Combatant.Implementation): Promise<void> | void {
  if (!isActiveGM()) return;
  const combat = combatant.parent as TenSegmentsCombat | null;
  if (!combat) return;
  return combat.exclusive(async () => {
    if (!combat.combatants.has(combatant.id as string)) return; // deleted meanwhile
    await placeAndJoin(combat, combatant);
  });
}

/** Place a combatant in its side if it has none, then bring it into the running flow; true when it joined. The caller holds the queue. */
async function placeAndJoin(combat: TenSegmentsCombat, combatant: Combatant.Implementation): Promise<boolean> {
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
  return combat.orderedCombatants(state).filter((c) => {
    const id = c.id as string;
    if (state.encounter.combatants.some((e) => e.id === id) || state.states[id]) return false;
    const joined = roundJoinedOf(c);
    return joined === null || joined <= round;
  });
}

/**
 * Active GM only: the combatants missing from a running combat's flow
 * (missingFromFlow) join it, each as the procedure rules at this point (a
 * late joiner while the round is played, planned with the others in the
 * declarations), and the GM is told. The caller holds the queue.
 */
export async function joinMissing(combat: TenSegmentsCombat): Promise<void> {
  if (!isActiveGM()) return;
  for (const combatant of missingFromFlow(combat)) {
    if (!combat.combatants.has(combatant.id as string)) continue;
    if (!(await placeAndJoin(combat, combatant))) continue;
    const text = game.i18n?.format('TENSEG.Combatant.JoinsNow', { name: combatant.name ?? '', round: String(combat.round) });
    if (text) ui.notifications?.info(text);
  }
}

/** When this client has become the active GM: every running combat's missing combatants join, each combat in its own queue. */
export async function joinMissingEverywhere(): Promise<void> {
  if (!isActiveGM()) return;
  const combats = (game.combats?.contents ?? []) as TenSegmentsCombat[];
  await Promise.all(combats.filter((c) => c.flowState).map((c) => c.exclusive(() => joinMissing(c))));
}

/** A GM left: if this client is now the active GM (it took over), the combatants no GM brought in join. */
export function onUserConnected(user: User.Implementation, connected: boolean): Promise<void> | void {
  if (connected || !user?.isGM) return;
  return joinMissingEverywhere();
}

/** Active GM only: a combatant removed while the combat runs stops acting (its past stays in the flow). */
export function onCombatantDeleted(combatant: Combatant.Implementation): Promise<void> | void {
  if (!isActiveGM()) return;
  const combat = combatant.parent as TenSegmentsCombat | null;
  if (!combat || !game.combats?.has(combat.id as string)) return; // the whole combat is being deleted
  return combat.exclusive(async () => {
    const problem = await combat.leaveFlow(combatant);
    if (problem) notifyProblem(problem);
  });
}
