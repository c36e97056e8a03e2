/**
 * What a chat card's flags are worth (issue 27). Foundry lets any player
 * create a message under her own name with any flags (CONFORMANCE A14), so a
 * card that looks like the system's (an interruption, an attack of
 * opportunity, an attack with a request's key) may be a player's. A card's
 * flags are believed only when a GM wrote it (`gmCardFlags`); a card's
 * controls are drawn, and carried out, only when, besides, what its flags
 * name is in the combat's log (`interruptionCardProblem`,
 * `opportunityCardProblem`): a forged card shows no controls, and pressing
 * one is refused in words. Read by every client (the chat render hook) and by
 * the active GM (a request naming a card, a retried attack).
 */
import type { Problem } from '../rules/model';
import type { FlowState } from '../rules/flow';
import { SYSTEM_ID } from '../settings';

/** What the system's cards carry (declared once, for core's typings: src/types/foundry.d.ts, FlagConfig). */
export type CardFlags = FlagConfig['ChatMessage']['ten-segments'];

/** A message as read here: its flags and its author (a User, as core resolves the field). */
type Card = Pick<ChatMessage.Implementation, 'flags'>;

/** Did a GM write this message? (Its author as the server stored it, a GM now.) */
export function writtenByGM(message: Card): boolean {
  const author = (message as unknown as { author?: User.Implementation | null }).author;
  return !!author?.isGM;
}

/** The system's flags of a card, only if a GM wrote it; a player's card (whatever it claims) has none. */
export function gmCardFlags(message: Card): CardFlags | null {
  if (!writtenByGM(message)) return null;
  const flags = (message.flags as Record<string, CardFlags | undefined> | undefined)?.[SYSTEM_ID];
  return flags && typeof flags === 'object' ? flags : null;
}

/** The system's cards a GM wrote, with their flags. */
export function gmCards(): { message: ChatMessage.Implementation; flags: CardFlags }[] {
  const out: { message: ChatMessage.Implementation; flags: CardFlags }[] = [];
  for (const message of game.messages?.contents ?? []) {
    const flags = gmCardFlags(message);
    if (flags) out.push({ message, flags });
  }
  return out;
}

/** A GM's card of this kind and the flow of the combat it names, or why not (not a GM's, no such combat, not started). */
function cardFlow(message: Card, kind: string): { flags: CardFlags; state: FlowState } | { problem: Problem } {
  const flags = gmCardFlags(message);
  if (!flags || flags.kind !== kind) return { problem: { key: 'CardNotByGM' } };
  const combat = game.combats?.get(flags.combat ?? '');
  if (!combat) return { problem: { key: 'UnknownCombat' } };
  const state = (combat as unknown as { flowState?: FlowState | null }).flowState;
  if (!state) return { problem: { key: 'CardNotInLog' } };
  return { flags, state };
}

/**
 * Why an interruption card's Undo may not be drawn or carried out (null: it
 * may): a GM wrote it, and the combat it names has that casting interrupted
 * this round (by that caster, in that round, where the card says so).
 */
export function interruptionCardProblem(message: Card): Problem | null {
  const card = cardFlow(message, 'interruption');
  if ('problem' in card) return card.problem;
  const { flags, state } = card;
  const logged = state.interruptions.some(
    (i) => i.casting === flags.casting && i.round === state.round && (flags.caster === undefined || i.caster === flags.caster) && (flags.round === undefined || i.round === flags.round),
  );
  return logged ? null : { key: 'CardNotInLog' };
}

/**
 * Why an attack-of-opportunity card's Attack may not be drawn or carried out
 * (null: it may): a GM wrote it, and this round of the combat it names has a
 * move of its target that gave its attacker that attack.
 */
export function opportunityCardProblem(message: Card): Problem | null {
  const card = cardFlow(message, 'opportunity');
  if ('problem' in card) return card.problem;
  const { flags, state } = card;
  if (flags.round !== undefined && flags.round !== state.round) return { key: 'CardNotInLog' };
  const logged = (state.moves ?? []).some((m) => m.c === flags.target && m.provoked.some((p) => p.by === flags.attacker));
  return logged ? null : { key: 'CardNotInLog' };
}
