/**
 * Chat cards the combat posts: the end of a round (bleeding, deaths, morale)
 * and the opening morale check, interruptions (from damage.ts, attacks and
 * mid-round actions) here, and attacks (handlers/attack.ts). Every card is posted by the active GM's client through
 * `postCard`, in a message mode: a card of a player's request (an attack,
 * and an interruption it causes) in the mode that player chose; the cards of
 * the GM's own controls (end of round, morale, an interruption from a sheet)
 * in the active GM's own mode. Only the active GM posts them: this is part
 * of the GM's side (handlers/index.ts), a chunk loaded on first use.
 */
import type { FlowState } from '../rules/flow';
import type { EndEvent } from '../rules/procedure';
import { SYSTEM_ID } from '../settings';
import { applyMessageMode } from './compat';
import type { TenSegmentsCombat } from './combat';
import { storedActor } from './stored';

/** How a card is shown: a mode of this generation and whose it is (for "self"); by default the running user's own. */
export interface CardMode {
  mode: string;
  user: User.Implementation;
}

/** Post a chat card in a message mode (by default this client's user's current one). */
export async function postCard(data: Record<string, unknown>, shown?: CardMode): Promise<void> {
  const shaped = shown ? applyMessageMode(data, shown.mode, shown.user) : applyMessageMode(data);
  await ChatMessage.create(shaped);
}

export interface EndOfRoundLine {
  kind: string;
  name: string;
  amount?: number;
  roll?: number;
  total?: number;
  target?: number;
  passed?: boolean;
  trigger?: string;
  /** The GM's own result, no roll (a procedure's 'gm' morale method). */
  ruled?: boolean;
}

/** Engine events as lines a template can show (pure). */
export function eventLines(state: FlowState, events: readonly EndEvent[]): EndOfRoundLine[] {
  const name = (id: string) => state.encounter.combatants.find((c) => c.id === id)?.name ?? id;
  return events.map((e) => {
    if (e.kind === 'bleed') return { kind: 'bleed', name: name(e.combatant), amount: e.amount };
    if (e.kind === 'death') return { kind: 'death', name: name(e.combatant) };
    const line: EndOfRoundLine = { kind: 'morale', name: name(e.combatant), roll: e.roll, total: e.total, target: e.target, passed: e.passed, trigger: e.trigger };
    if (e.method === 'gm') line.ruled = true;
    return line;
  });
}

/** The end-of-round events of a flow state, as lines a template can show (pure). */
export function endOfRoundLines(state: FlowState): EndOfRoundLine[] {
  return eventLines(state, state.end ?? []);
}

async function postEventsCard(combat: Combat.Implementation, kind: string, title: string, round: number, lines: EndOfRoundLine[]): Promise<void> {
  if (lines.length === 0) return;
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/end-of-round.hbs`, { kind, title, lines });
  await postCard({ content, flags: { [SYSTEM_ID]: { kind, combat: combat.id, round } } });
}

/** The card of a round that has just ended (nothing when nothing happened). */
export async function postEndOfRoundCard(combat: Combat.Implementation, state: FlowState): Promise<void> {
  const title = game.i18n!.format('TENSEG.Chat.EndOfRound.Title', { round: String(state.round) });
  await postEventsCard(combat, 'end-of-round', title, state.round, endOfRoundLines(state));
}

/** The card of a morale check rolled before round 1 (addict phase 4, opening morale). */
export async function postMoraleCard(combat: Combat.Implementation, state: FlowState, events: readonly EndEvent[]): Promise<void> {
  const title = game.i18n!.localize('TENSEG.Chat.OpeningMorale.Title');
  await postEventsCard(combat, 'opening-morale', title, state.round, eventLines(state, events));
}

/** Chat card for an interrupted or prevented casting, with the GM's undo button; shown as the attack that caused it was (`shown`), else in the active GM's own mode. */
export async function postInterruptionCard(combat: TenSegmentsCombat, state: FlowState, i: { casting: string; caster: string; spell: string; outcome: string; expended: boolean }, shown?: CardMode): Promise<void> {
  const combatant = combat.combatants.get(i.caster);
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/interruption.hbs`, {
    caster: combatant?.name ?? i.caster,
    spell: i.spell,
    outcome: i.outcome,
    expended: i.expended,
    round: state.round,
    casting: i.casting,
    combat: combat.id,
  });
  await postCard(
    {
      content,
      speaker: ChatMessage.getSpeaker({ actor: storedActor(combatant?.actor) }),
      flags: { [SYSTEM_ID]: { kind: 'interruption', combat: combat.id, casting: i.casting } },
    },
    shown,
  );
}
