/**
 * The recap of a round (addict, seed 004, phase 10: "The DM provides a
 * narrative summary of the events of the round, making sure everyone
 * understands the state of the battle"): the round's events as lines of data,
 * each a localization key under TENSEG.Recap with the names it needs, for the
 * timeline view, the chat and the scenario runner. It is built from the
 * round's timeline view (timeline.ts), so a player's recap tells only what
 * that player's view shows; the narrative around it is the GM's.
 *
 * In order: who won the initiative; then, step by step, what went off, what
 * was lost, the damage dealt (by attacker and target), who fell, who joined;
 * the castings still running; the end of the round (bleeding, deaths,
 * morale); whose bleeding is staunched; and each side's standing.
 */
import type { Condition } from './model';
import type { EndEvent } from './procedure';
import type { TimelineView } from './timeline';

export interface RecapLine {
  /** A full localization key (TENSEG.Recap.*). */
  key: string;
  data: Record<string, string | number>;
}

const FELL: Record<Condition, string> = {
  ok: 'TENSEG.Recap.Fell.ok',
  incapacitated: 'TENSEG.Recap.Fell.incapacitated',
  dying: 'TENSEG.Recap.Fell.dying',
  dead: 'TENSEG.Recap.Fell.dead',
  fled: 'TENSEG.Recap.Fell.fled',
};

/** The recap of the round `view` shows (best read once the round is over: what is still to come is not told). */
export function roundRecap(view: TimelineView): RecapLine[] {
  const names = new Map<string, string>();
  for (const s of view.sides) names.set(s.id, s.name);
  for (const c of view.combatants) names.set(c.id, c.name);
  const name = (id: string | undefined) => (id === undefined ? '' : (names.get(id) ?? id));
  const lines: RecapLine[] = [];
  const say = (key: string, data: RecapLine['data'] = {}) => lines.push({ key, data });

  // Heading and initiative.
  if (view.kind === 'surprise') say('TENSEG.Recap.Surprise');
  else say('TENSEG.Recap.Round', { round: view.round });
  const winner = view.sides.find((s) => s.winner);
  if (winner) say('TENSEG.Recap.InitiativeWon', { side: winner.name, die: winner.initiative ?? '' });
  else if (view.initiative?.tie) say('TENSEG.Recap.InitiativeTied', { die: Math.max(...view.sides.map((s) => s.initiative ?? -Infinity)) });

  // The steps played.
  const cancelled = new Set<string>();
  const damage = new Map<string, { by?: string; target: string; amount: number; hits: number }>();
  const flushDamage = () => {
    for (const d of damage.values()) {
      if (d.by !== undefined) say('TENSEG.Recap.Damage', { by: name(d.by), target: name(d.target), amount: d.amount, hits: d.hits });
      else say('TENSEG.Recap.DamageNoSource', { target: name(d.target), amount: d.amount, hits: d.hits });
    }
    damage.clear();
  };
  for (const step of view.steps) {
    if (step.when === 'next') continue;
    for (const j of step.joins) say('TENSEG.Recap.Joined', { name: name(j) });
    for (const e of step.entries) {
      if (e.kind === 'cast-complete' && e.outcome === 'goes-off') say(e.device ? 'TENSEG.Recap.DeviceOff' : 'TENSEG.Recap.SpellOff', { name: name(e.combatant), spell: e.spell ?? '' });
      if (e.outcome === 'cancelled' && e.casting !== undefined && !cancelled.has(e.casting)) {
        cancelled.add(e.casting);
        say('TENSEG.Recap.SpellCancelled', { name: name(e.combatant), spell: e.spell ?? '' });
      }
    }
    // The damage of a step, summed by attacker and target; told before what it broke and who fell of it.
    for (const d of step.damage) {
      const k = `${d.by ?? ''}\u0000${d.target}`;
      const known = damage.get(k);
      if (known) {
        known.amount += d.amount;
        known.hits++;
      } else damage.set(k, { by: d.by, target: d.target, amount: d.amount, hits: 1 });
    }
    flushDamage();
    for (const i of step.interruptions) {
      const key = i.outcome === 'prevented' ? 'TENSEG.Recap.SpellPrevented' : i.expended ? 'TENSEG.Recap.SpellLost' : 'TENSEG.Recap.SpellBroken';
      say(key, { name: name(i.caster), spell: i.spell });
    }
    for (const f of step.fallen) say(FELL[f.condition], { name: name(f.combatant) });
  }

  // Castings still running, then the end of the round.
  for (const c of view.carryOut) say('TENSEG.Recap.CarriesOn', { name: name(c.caster), spell: c.spell ?? '', remaining: c.remaining ?? '' });
  for (const e of view.end ?? []) say(...endLine(e, name));
  for (const c of view.combatants) if (c.staunched) say('TENSEG.Recap.Staunched', { name: c.name });

  // The state of the battle, side by side.
  for (const side of view.sides) {
    const members = view.combatants.filter((c) => c.side === side.id);
    if (members.length === 0) continue;
    const standing = members.filter((c) => c.condition === 'ok' && !c.routed);
    const routed = members.filter((c) => c.condition === 'ok' && c.routed);
    const down = members.filter((c) => c.condition !== 'ok');
    if (standing.length > 0) say('TENSEG.Recap.Standing', { side: side.name, names: standing.map((c) => c.name).join(', '), count: standing.length });
    if (routed.length > 0) say('TENSEG.Recap.Routed', { side: side.name, names: routed.map((c) => c.name).join(', '), count: routed.length });
    const downNames = { side: side.name, names: down.map((c) => c.name).join(', '), count: down.length };
    if (standing.length === 0 && routed.length === 0) say('TENSEG.Recap.SideDown', downNames);
    else if (down.length > 0) say('TENSEG.Recap.Down', downNames);
  }
  return lines;
}

function endLine(e: EndEvent, name: (id: string) => string): [string, RecapLine['data']] {
  if (e.kind === 'bleed') return ['TENSEG.Recap.Bled', { name: name(e.combatant), amount: e.amount }];
  if (e.kind === 'death') return ['TENSEG.Recap.Died', { name: name(e.combatant) }];
  return [e.passed ? 'TENSEG.Recap.MoraleHeld' : 'TENSEG.Recap.MoraleBroke', { name: name(e.combatant), roll: e.roll, target: e.target }];
}
