/**
 * Initiative dice rolled at the table by hand: the GM types each die and the
 * active GM gives them to the engine instead of rolling (the `rollInitiative`
 * control's `dice`, documents/combat.ts handDice). Which dice to ask for is
 * the engine's: initiative is tried on a copy of the round being declared
 * and every initiative die it asks for is a field — a side's where the
 * procedure rolls per side, a combatant's where it rolls per combatant (or per
 * group of identical monsters: the first of them). Loaded when first used.
 */
import type { TenSegmentsCombat } from '../../documents/combat';
import { applyInput } from '../../rules/flow/transitions';
import type { FlowInput } from '../../rules/flow';
import type { Dice, DieRequest } from '../../rules/dice';
import { getProcedure } from '../../rules/registry';
import { RulesError, type Problem } from '../../rules/model';
import { askForm, escape } from './gm-prompts';

/** One die the GM enters: who rolls it (a side's or a combatant's id), its name, the die. */
export interface ManualDie {
  id: string;
  name: string;
  count: number;
  faces: number;
}

/** The initiative dice the engine would ask for if the round began now (with the GM's held declarations), in its order; none when it would not begin. */
export function initiativeDice(combat: TenSegmentsCombat): ManualDie[] {
  const state = combat.flowState;
  if (!state || state.stage !== 'declare') return [];
  const asked: DieRequest[] = [];
  const dice: Dice = {
    roll(request) {
      asked.push(request);
      return request.count;
    },
  };
  const held = combat.held;
  const input: FlowInput = Object.keys(held).length > 0 ? { t: 'begin', d: held } : { t: 'begin' };
  try {
    const done = applyInput(structuredClone(state), input, dice, getProcedure(state.procedure));
    if (!done.ok) return [];
  } catch (err) {
    if (err instanceof RulesError) return [];
    throw err;
  }
  const out: ManualDie[] = [];
  for (const r of asked) {
    if (r.purpose !== 'initiative') continue;
    const id = r.combatant ?? r.side;
    if (!id || out.some((d) => d.id === id)) continue;
    const name = combat.combatants.get(id)?.name ?? combat.groups.get(id)?.name ?? id;
    out.push({ id, name, count: r.count, faces: r.faces });
  }
  return out;
}

/** Send the dice typed (by id; blanks left out) as the round's initiative; the refusal, if any, was shown in words. */
export async function submitManualDice(combat: TenSegmentsCombat, values: Record<string, number>): Promise<Problem | null> {
  return combat.rollInitiativeWith(values);
}

/** The GM's form: one number per die, then initiative with them. */
export async function openManualDice(combat: TenSegmentsCombat): Promise<void> {
  const i18n = game.i18n!;
  const dice = initiativeDice(combat);
  if (dice.length === 0) return void ui.notifications?.warn(i18n.localize('TENSEG.Tracker.ManualNoDice'));
  const fields = dice
    .map((d) => {
      const die = `${d.count > 1 ? d.count : ''}d${d.faces}`;
      const label = i18n.format('TENSEG.Tracker.ManualDie', { name: d.name, die });
      return `<label>${escape(label)} <input type="number" name="${escape(d.id)}" min="${d.count}" max="${d.count * d.faces}" step="1" required></label>`;
    })
    .join('');
  const form = await askForm(i18n.localize('TENSEG.Tracker.ManualInitiative'), `<p>${escape(i18n.localize('TENSEG.Tracker.ManualHint'))}</p>${fields}`);
  if (!form) return;
  const values: Record<string, number> = {};
  for (const d of dice) {
    const v = form[d.id];
    if (v !== undefined && v.trim() !== '') values[d.id] = Number(v);
  }
  await submitManualDice(combat, values);
}
