/**
 * What a combat control does on this client (combat.ts `command`: Next,
 * Previous, start, initiative, a side change, a morale check): refused in
 * words when this user may not, sent to the active GM when this client is not
 * it, else carried out in the combat's queue by the writer (the GM's chunk).
 * A chunk loaded at the first control this client presses; the replay and
 * the order stay in combat.ts.
 */
import type { Problem } from '../rules/model';
import type { MoraleRequest } from '../rules/flow/state';
import type { TenSegmentsCombat } from './combat';
import { notifyProblem } from './problems';
import { authorize, isActiveGM, type CombatAction } from './permissions';
import { requestCombatAction, type CombatActionRequest, type StepAction } from './queries';
import { loadedGMSide, loadGMSide } from './requests';

type Extra = Omit<CombatActionRequest, 'combatId' | 'action'>;

/** Show a problem (if any) to the user and hand it back. */
function report(problem: Problem | null): Problem | null {
  if (problem) notifyProblem(problem);
  return problem;
}

/** A combat control on this client: refused when this user may not, sent to the active GM when this client is not it, else carried out in the combat's queue. */
export async function command(combat: TenSegmentsCombat, action: StepAction, right: CombatAction, extra: Extra = {}): Promise<Problem | null> {
  const denied = authorize(right, game.user);
  if (denied) return report(denied);
  if (!isActiveGM()) {
    const done = await requestCombatAction(combat, action, extra);
    if (!done.ok) ui.notifications?.error(done.message);
    return done.ok ? null : { key: done.key };
  }
  return report(await combat.exclusive(async () => (loadedGMSide() ?? (await loadGMSide())).writer.run(combat, action, extra)));
}

/**
 * The GM calls for a morale check. Before round 1 of a procedure with an
 * opening morale check (addict phase 4) it is rolled at once and shown in
 * a chat card; otherwise it is rolled with the end of the round. Another GM
 * sends each check to the active GM (`send`: the combat's command).
 */
export async function requestMorale(
  combat: TenSegmentsCombat,
  request: MoraleRequest | MoraleRequest[],
  send: (action: StepAction, right: CombatAction, extra: Extra) => Promise<Problem | null>,
): Promise<Problem | null> {
  const denied = authorize('manage', game.user);
  if (denied) return report(denied);
  const requests = Array.isArray(request) ? request : [request];
  if (!isActiveGM()) {
    // Another GM: each check is a request to the active GM.
    for (const m of requests) {
      const { combatant, trigger, ...rest } = m;
      const problem = await send('morale', 'manage', { combatantId: combatant, trigger, ...rest });
      if (problem) return problem;
    }
    return null;
  }
  return combat.exclusive(async () => report(await combat.transition({ t: 'morale', requests })));
}
