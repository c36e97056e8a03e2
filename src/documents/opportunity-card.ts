/**
 * The attack-of-opportunity card's button (the card is posted by the active
 * GM, token-moved.ts, whispered to the GMs): a GM presses it and the ordinary
 * attack request goes to the active GM (attacker, target, the weapon the card
 * names), checked as every attack is; anyone else is shown no button. A
 * chunk loaded when such a card is first drawn.
 */
import { SYSTEM_ID } from '../settings';
import { notifyProblem } from './problems';
import { track } from './token-movement';

/** What the card carries (src/types/foundry.d.ts, FlagConfig). */
interface CardFlags {
  combat?: string | null;
  attacker?: string | null;
  target?: string | null;
  weapon?: string;
  routine?: number;
}

/** The button pressed: the attack request, sent as any attack is (the answer's refusal is told in words). */
export async function attackFromCard(message: ChatMessage.Implementation): Promise<void> {
  const flags = (message.flags as Record<string, CardFlags | undefined>)[SYSTEM_ID] ?? {};
  const combat = game.combats?.get(flags.combat ?? '');
  if (!combat) return notifyProblem({ key: 'UnknownCombat' });
  const { requestAttack } = await import('./attack');
  const answer = await requestAttack(combat, {
    attackerId: flags.attacker ?? '',
    targetId: flags.target ?? '',
    ...(flags.weapon ? { weaponId: flags.weapon } : { routine: flags.routine ?? 0, attack: 0 }),
  });
  if (!answer.ok) ui.notifications?.error(answer.message);
}

/** The card as a client draws it: its button for a GM, none for anyone else. */
export function wireOpportunityCard(message: ChatMessage.Implementation, html: HTMLElement): void {
  const button = html.querySelector<HTMLButtonElement>('[data-action="tenseg-opportunity-attack"]');
  if (!button) return;
  if (!game.user?.isGM) {
    button.remove();
    return;
  }
  button.addEventListener('click', () => void track(attackFromCard(message)));
}
