/**
 * The "undo" of an interruption card (damage.ts shows the button to GMs, on
 * a GM's card that agrees with the log): refused in words to anyone else,
 * and on a card a player wrote or one the log does not bear out
 * (card-flags.ts), else asked of the active GM, who checks the card again
 * and restores the casting. A chunk loaded at the first press.
 */
import type { TenSegmentsCombat } from './combat';
import { notifyProblem } from './problems';
import { authorize } from './permissions';
import { requestCombatAction } from './queries';
import { interruptionCardProblem } from './card-flags';

/** A GM presses "undo" on an interruption card (`card`, its message): the active GM carries it out. */
export async function undoFromCard(combatId: string, castingId: string, card?: string): Promise<void> {
  const denied = authorize('undoInterruption', game.user);
  if (denied) return notifyProblem(denied);
  const combat = game.combats?.get(combatId) as TenSegmentsCombat | undefined;
  if (!combat) return notifyProblem({ key: 'UnknownCombat' });
  if (card !== undefined) {
    const message = game.messages?.get(card);
    const problem = message ? interruptionCardProblem(message) : { key: 'CardNotByGM' };
    if (problem) return notifyProblem(problem);
  }
  const done = await requestCombatAction(combat, 'undoInterruption', card !== undefined ? { castingId, card } : { castingId });
  if (!done.ok) ui.notifications?.error(done.message);
}
