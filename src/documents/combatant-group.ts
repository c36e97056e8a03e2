/**
 * A side of a combat: a v13 CombatantGroup. Its system data names the side
 * (friendly, neutral, hostile, secret, or one the GM made), whether it was
 * alerted (no surprise roll) or is surprised by the GM's ruling, and the dice
 * it rolled.
 */
import type { Side } from '../rules/model';
import { sideOf } from './encounter';

export class TenSegmentsCombatantGroup extends CombatantGroup {
  /** The engine's view of this side. */
  get side(): Side {
    return sideOf(this);
  }

  /** The combatants on this side. */
  get fighters(): Combatant.Implementation[] {
    const combat = this.parent;
    if (!combat) return [];
    return combat.combatants.filter((c) => c._source.group === this.id);
  }
}
