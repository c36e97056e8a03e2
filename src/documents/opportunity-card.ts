/**
 * The attack-of-opportunity card's button (the card is posted by the active
 * GM, token-moved.ts, whispered to the GMs): a GM presses it and the ordinary
 * attack request goes to the active GM (attacker, target, the weapon the card
 * names), checked as every attack is; anyone else is shown no button. The
 * button is drawn, and carried out, only on a card a GM wrote whose attack
 * the log bears out (a move this round that gave it: card-flags.ts); a
 * player's card that claims to be one shows none, and pressing it is refused
 * in words. A chunk loaded when such a card is first drawn.
 */
import { notifyProblem } from './problems';
import { track } from './token-movement';
import { gmCardFlags, opportunityCardProblem } from './card-flags';

/** The button pressed: the attack request, sent as any attack is (the answer's refusal is told in words). */
export async function attackFromCard(message: ChatMessage.Implementation): Promise<void> {
  const problem = opportunityCardProblem(message);
  if (problem) return notifyProblem(problem);
  const flags = gmCardFlags(message) ?? {};
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

/** The card as a client draws it: its button for a GM on a GM's card the log bears out, none for anyone else or on any other card. */
export function wireOpportunityCard(message: ChatMessage.Implementation, html: HTMLElement): void {
  const button = html.querySelector<HTMLButtonElement>('[data-action="tenseg-opportunity-attack"]');
  if (!button) return;
  if (!game.user?.isGM || opportunityCardProblem(message)) {
    button.remove();
    return;
  }
  button.addEventListener('click', () => void track(attackFromCard(message)));
}
