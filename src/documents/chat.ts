/** Chat cards the combat posts: the end of a round (bleeding, deaths, morale). */
import type { FlowState } from '../rules/flow';
import { SYSTEM_ID } from '../settings';

export interface EndOfRoundLine {
  kind: string;
  name: string;
  amount?: number;
  roll?: number;
  total?: number;
  target?: number;
  passed?: boolean;
  trigger?: string;
}

/** The end-of-round events of a flow state, as lines a template can show (pure). */
export function endOfRoundLines(state: FlowState): EndOfRoundLine[] {
  const name = (id: string) => state.encounter.combatants.find((c) => c.id === id)?.name ?? id;
  return (state.end?.events ?? []).map((e) => {
    if (e.kind === 'bleed') return { kind: 'bleed', name: name(e.combatant), amount: e.amount };
    if (e.kind === 'death') return { kind: 'death', name: name(e.combatant) };
    return { kind: 'morale', name: name(e.combatant), roll: e.roll, total: e.total, target: e.target, passed: e.passed, trigger: e.trigger };
  });
}

export async function postEndOfRoundCard(combat: Combat.Implementation, state: FlowState): Promise<void> {
  const lines = endOfRoundLines(state);
  if (lines.length === 0) return;
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/end-of-round.hbs`, {
    round: state.round,
    lines,
  });
  await ChatMessage.create({ content, flags: { [SYSTEM_ID]: { kind: 'end-of-round', combat: combat.id, round: state.round } } } as never);
}
