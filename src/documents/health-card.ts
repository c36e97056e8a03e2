/**
 * The card a player's change of a combatant's health brings the GMs (issue
 * 27: health is the GM's during a combat). The active GM posts it, whispered
 * to the GMs, after writing the fight's value back onto the actor
 * (handlers/health.ts holdHealth); a GM presses Accept (the value becomes the
 * active GM's own change of the actor, which reaches the fight as a GM's edit
 * does: a drop is damage, a rise healing) or Put back (nothing more: the
 * fight's value is on the actor already), and the card says which. Its
 * buttons are drawn only for a GM, and only on a card a GM posted: a card a
 * player forged with the same flags shows none. A chunk loaded when such a
 * card is posted or first drawn.
 */
import { SYSTEM_ID } from '../settings';
import type { TenSegmentsCombat } from './combat';
import { applyMessageMode, gmMode } from './compat-writes';
import { notifyProblem } from './problems';
import { askGM } from './requests';
import { track } from './token-movement';

export type HealthKey = 'hp' | 'stress' | 'woundPoints';

/** What the card carries (src/types/foundry.d.ts, FlagConfig). */
export interface HealthCardFlags {
  kind?: string;
  combat?: string | null;
  target?: string | null;
  actor?: string;
  by?: string;
  asked?: Partial<Record<HealthKey, number>>;
  fight?: Partial<Record<HealthKey, number>>;
  resolved?: 'accepted' | 'putBack';
  resolvedBy?: string;
}

/** The body of a press, sent to the active GM. */
export interface HealthCardRequest {
  messageId: string;
  accept: boolean;
}

export const flagsOf = (message: ChatMessage.Implementation): HealthCardFlags =>
  ((message.flags as Record<string, HealthCardFlags | undefined>)[SYSTEM_ID] ?? {}) as HealthCardFlags;

/** The card's HTML: one line per field asked for, and either the buttons or who resolved it. */
async function render(name: string, flags: HealthCardFlags): Promise<string> {
  const i18n = game.i18n!;
  const user = game.users?.get(flags.by ?? '')?.name ?? '?';
  const lines = (Object.entries(flags.asked ?? {}) as [HealthKey, number][]).map(([field, asked]) =>
    i18n.format('TENSEG.Chat.Health.Line', { user, name, field: i18n.localize(`TENSEG.Chat.Health.Field.${field}`), asked: String(asked), fight: String(flags.fight?.[field] ?? '?') }),
  );
  const by = game.users?.get(flags.resolvedBy ?? '')?.name ?? '';
  const resolved = flags.resolved ? i18n.format(flags.resolved === 'accepted' ? 'TENSEG.Chat.Health.Accepted' : 'TENSEG.Chat.Health.PutBackDone', { gm: by }) : '';
  return foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/health.hbs`, { name, lines, resolved });
}

/** The open card for this combatant (a GM's, not resolved), if any: a second change brings it up to date instead of another card. */
function openCard(combatId: string, combatantId: string): ChatMessage.Implementation | undefined {
  const open = (game.messages?.contents ?? []).filter((m) => {
    const f = flagsOf(m);
    return f.kind === 'health' && f.combat === combatId && f.target === combatantId && !f.resolved && !!m.author?.isGM;
  });
  return open[open.length - 1];
}

/** The active GM's side: post the card (or bring the open one up to date). */
export async function postHealthCard(
  combat: TenSegmentsCombat,
  combatant: Combatant.Implementation,
  actor: Actor.Implementation,
  { asked, fight, by }: { asked: Partial<Record<HealthKey, number>>; fight: Partial<Record<HealthKey, number>>; by: string },
): Promise<void> {
  const name = combatant.name ?? actor.name ?? '';
  const open = openCard(combat.id as string, combatant.id as string);
  if (open) {
    const before = flagsOf(open);
    const flags: HealthCardFlags = { ...before, by, asked: { ...before.asked, ...asked }, fight: { ...before.fight, ...fight } };
    await open.update({ content: await render(name, flags), [`flags.${SYSTEM_ID}`]: flags } as never);
    return;
  }
  const flags: HealthCardFlags = { kind: 'health', combat: combat.id, target: combatant.id, actor: actor.uuid as string, by, asked, fight };
  const data = { content: await render(name, flags), speaker: ChatMessage.getSpeaker({ actor: (actor.id !== null ? actor : undefined) as Actor.Stored | undefined }), flags: { [SYSTEM_ID]: flags } };
  await ChatMessage.create(applyMessageMode(data, gmMode(), game.user ?? null) as never);
}

/** The active GM's side: the card marked resolved (its buttons gone), by whom. */
export async function markResolved(message: ChatMessage.Implementation, how: 'accepted' | 'putBack', gm: User.Implementation): Promise<void> {
  const flags: HealthCardFlags = { ...flagsOf(message), resolved: how, resolvedBy: gm.id as string };
  const actor = fromUuidSync(flags.actor ?? '') as Actor.Implementation | null;
  const combatant = game.combats?.get(flags.combat ?? '')?.combatants.get(flags.target ?? '');
  const name = combatant?.name ?? actor?.name ?? '';
  await message.update({ content: await render(name, flags), [`flags.${SYSTEM_ID}`]: flags } as never);
}

/** A GM presses Accept or Put back: refused in words to anyone else and on a card no GM posted, else asked of the active GM. */
export async function resolveHealthFromCard(message: ChatMessage.Implementation, accept: boolean): Promise<void> {
  if (!game.user?.isGM) return notifyProblem({ key: 'OnlyGM' });
  if (!message.author?.isGM || flagsOf(message).kind !== 'health') return notifyProblem({ key: 'HealthCardNotGM' });
  const body: HealthCardRequest = { messageId: message.id as string, accept };
  const answer = await askGM('health', body, { key: 'NoActiveGMRequest' });
  if (!answer.ok) ui.notifications?.error((answer as { message: string }).message);
}

/** The card as a client draws it: its buttons for a GM on a GM's open card, none for anyone else. */
export function wireHealthCard(message: ChatMessage.Implementation, html: HTMLElement): void {
  const buttons = [...html.querySelectorAll<HTMLButtonElement>('[data-action="tenseg-health-accept"], [data-action="tenseg-health-putback"]')];
  if (buttons.length === 0) return;
  if (!game.user?.isGM || !message.author?.isGM || flagsOf(message).resolved) {
    for (const b of buttons) b.remove();
    return;
  }
  for (const b of buttons) {
    const accept = b.dataset.action === 'tenseg-health-accept';
    b.addEventListener('click', () => void track(resolveHealthFromCard(message, accept)));
  }
}
