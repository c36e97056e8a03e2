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
 * at the start of each round (`joinMissing`). What only the active GM runs
 * (placing, joining) is combatant-join.ts, a chunk loaded on first use. Under v14 `roundJoined` says
 * in which round it came: one that came in a round later than the combat is
 * in now (a round Previous took back) waits for that round.
 */
import type { TenSegmentsCombat } from './combat';
import { groupIdOf } from './encounter';
import { notifyProblem } from './problems';
import { isActiveGM } from './permissions';
import { loadGMSide } from './requests';
import { combatantData } from '../data/systems';

/** What only a GM runs: placing a combatant in its side and bringing it into the flow (combatant-join.ts, a chunk loaded on first use). */
const gmSide = () => import('./combatant-join');

/** Side keys by token disposition (CONST.TOKEN_DISPOSITIONS). */
export const DISPOSITION_SIDES: Record<number, string> = { 1: 'friendly', 0: 'neutral', [-1]: 'hostile', [-2]: 'secret' };

/** The side of a combatant's token's disposition; with no token, its actor's prototype token's. */
export function sideKeyOf(combatant: Combatant.Implementation): string {
  const disposition = combatant.token?.disposition ?? combatant.actor?.prototypeToken?.disposition;
  return DISPOSITION_SIDES[disposition ?? -1] ?? 'hostile';
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
      const group = await (await gmSide()).ensureSide(combat, sideKeyOf(this));
      if (group) this.updateSource({ group: group.id });
    }
  }
}

/**
 * Active GM only, after any transition of the combat already under way: a
 * combatant added (by `userId`) is admitted — one that is a creature already
 * in the combat is removed, one a player added is put on its token's side,
 * then it is placed and brought into the flow (combatant-join.ts).
 */
export function onCombatantCreated(combatant: Combatant.Implementation, userId?: string): Promise<void> | void {
  if (!isActiveGM()) return;
  const combat = combatant.parent as TenSegmentsCombat | null;
  if (!combat) return;
  return combat.exclusive(async () => {
    if (!combat.combatants.has(combatant.id as string)) return; // deleted meanwhile
    await (await gmSide()).admit(combat, combatant, userId ?? null);
  });
}

/**
 * When this client has become the active GM: in every combat, the combatants
 * added while no GM was there are admitted (running combats: those not in the
 * flow, who then join it), and what the GM before left half-written is
 * finished (blow-record.ts), each combat in its own queue.
 */
export async function joinMissingEverywhere(): Promise<void> {
  if (!isActiveGM()) return;
  const combats = (game.combats?.contents ?? []) as TenSegmentsCombat[];
  await Promise.all(
    combats.map((c) =>
      c.exclusive(async () => {
        await (await gmSide()).joinMissing(c);
        // A GM that stopped between a blow's log write and the actor's (issue 27): finished from the log.
        if (c.flowState) await (await loadGMSide()).finishLeft(c);
      }),
    ),
  );
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
