/**
 * Combatants and their sides. A combatant added to a combat joins the side
 * (CombatantGroup) of its token's disposition, created on first need; the
 * GM can move it to another side. A combatant added while the combat runs
 * joins the flow as a late joiner; one removed stops acting.
 */
import type { TenSegmentsCombat } from './combat';
import { groupIdOf } from './encounter';
import { notifyProblem } from './problems';
import { isActiveGM } from './permissions';
import { combatantData, groupData } from '../data/systems';

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
    if (!groupIdOf(combatant)) {
      const group = await ensureSide(combat, sideKeyOf(combatant));
      if (group) await combatant.update({ group: group.id });
    }
    if (combat.flowState) {
      const problem = await combat.joinFlow(combatant);
      if (problem) notifyProblem(problem);
    }
  });
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
