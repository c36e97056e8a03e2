/**
 * The "undo" of an interruption card (damage.ts shows the button to GMs):
 * refused in words to anyone else, else asked of the active GM, who
 * restores the casting. A chunk loaded at the first press.
 */
import type { TenSegmentsCombat } from './combat';
import { notifyProblem } from './problems';
import { authorize } from './permissions';
import { requestCombatAction } from './queries';

/** A GM presses "undo" on an interruption card: the active GM carries it out. */
export async function undoFromCard(combatId: string, castingId: string): Promise<void> {
  const denied = authorize('undoInterruption', game.user);
  if (denied) return notifyProblem(denied);
  const combat = game.combats?.get(combatId) as TenSegmentsCombat | undefined;
  if (!combat) return notifyProblem({ key: 'UnknownCombat' });
  const done = await requestCombatAction(combat, 'undoInterruption', { castingId });
  if (!done.ok) ui.notifications?.error(done.message);
}
