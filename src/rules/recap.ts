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
 * was lost, a charge that fell short, the damage dealt (by attacker and
 * target), who fell, who joined;
 * the castings still running; the end of the round (bleeding, deaths,
 * morale); whose bleeding is staunched; and each side's standing. A morale
 * check made at once (rules revision 5) is told once, where it was made.
 */
import type { Condition } from './model';
import type { EndEvent } from './procedure';
import type { CombatantView, StepView, TimelineView } from './timeline';

export interface RecapLine {
  /** A full localization key (TENSEG.Recap.*, TENSEG.Chat.*). */
  key: string;
  data: Record<string, string | number>;
  /** Data fields whose value is itself a localization key, to localize before filling the line (a phase's name, a HIGH/LOW label). */
  localized?: string[];
  /** A heading within the card (a step of the round), not an event. */
  heading?: true;
  /** A counted line: `key` names a pair `<key>.one`/`<key>.other`, and this count picks the form (src/plural.ts). */
  count?: number;
}

export interface RecapOptions {
  /** Tell the round step by step: a heading line (segment, count or phase) before the lines of each step in which something happened. */
  steps?: boolean;
}

const FELL: Record<Condition, string> = {
  ok: 'TENSEG.Recap.Fell.ok',
  incapacitated: 'TENSEG.Recap.Fell.incapacitated',
  dying: 'TENSEG.Recap.Fell.dying',
  dead: 'TENSEG.Recap.Fell.dead',
  fled: 'TENSEG.Recap.Fell.fled',
};

/** The recap of the round `view` shows (best read once the round is over: what is still to come is not told). */
export function roundRecap(view: TimelineView, options: RecapOptions = {}): RecapLine[] {
  const names = new Map<string, string>();
  for (const s of view.sides) names.set(s.id, s.name);
  for (const c of view.combatants) names.set(c.id, c.name);
  const name = (id: string | undefined) => (id === undefined ? '' : (names.get(id) ?? id));
  const lines: RecapLine[] = [];
  const say = (key: string, data: RecapLine['data'] = {}) => lines.push({ key, data });
  // Morale passes at or over its target under individual-speed, at or under it elsewhere.
  const rollsOver = view.procedure === 'individual-speed';

  // Heading and initiative.
  if (view.kind === 'surprise') say('TENSEG.Recap.Surprise');
  else say('TENSEG.Recap.Round', { round: view.round });
  const winner = view.sides.find((s) => s.winner);
  if (winner) say('TENSEG.Recap.InitiativeWon', { side: winner.name, die: winner.initiative ?? '' });
  else if (view.initiative?.tie) say('TENSEG.Recap.InitiativeTied', { die: Math.max(...view.sides.map((s) => s.initiative ?? -Infinity)) });

  // The morale checks made at once (rules revision 5), each told once: those of the declarations before the steps,
  // those of a step in it, those made once the round was over with its end.
  const checks = view.morale ?? [];
  const told = new Set<number>();
  const tell = (i: number) => {
    told.add(i);
    say(...endLine(checks[i], name, rollsOver));
  };
  checks.forEach((m, i) => m.stage === 'declare' && tell(i));

  // The steps played.
  const cancelled = new Set<string>();
  // Killed by a blow in a step: the death the end of the round records for it is not told again as bleeding to death.
  const killed = new Set<string>();
  let lastHeading = '';
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
    const before = lines.length;
    for (const j of step.joins) say('TENSEG.Recap.Joined', { name: name(j) });
    for (const e of step.entries) {
      if (e.kind === 'cast-complete' && e.outcome === 'goes-off') say(e.device ? 'TENSEG.Recap.DeviceOff' : 'TENSEG.Recap.SpellOff', { name: name(e.combatant), spell: e.spell ?? '' });
      if (e.outcome === 'cancelled' && e.casting !== undefined && !cancelled.has(e.casting)) {
        cancelled.add(e.casting);
        // Another side's casting given up, as a player's view shows it: someone gave up casting, not what.
        if (e.spell === undefined) say('TENSEG.Recap.SpellCancelledUnknown', { name: name(e.combatant) });
        else say('TENSEG.Recap.SpellCancelled', { name: name(e.combatant), spell: e.spell });
      }
    }
    // A charge that never arrives (the round ends first): told where the view says so; its closing is the map's to show.
    for (const c of step.charges ?? []) if (c.key === 'TENSEG.Charge.FallsShort') say('TENSEG.Recap.ChargeFellShort', { ...c.data, name: name(c.combatant) });
    // The damage of a step, summed by attacker and target; told before what it broke and who fell of it.
    for (const d of step.damage) {
      // individual-speed: the Wound Point a hurt creature paid for acting is no blow.
      if (d.strain) {
        lines.push({ key: 'TENSEG.Recap.Strain', data: { name: name(d.target), amount: d.amount }, count: d.amount });
        continue;
      }
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
    for (const f of step.fallen) {
      say(FELL[f.condition], { name: name(f.combatant) });
      if (f.condition === 'dead') killed.add(f.combatant);
      else killed.delete(f.combatant);
    }
    checks.forEach((m, i) => m.stage === 'resolve' && m.step === step.index && tell(i));
    if (options.steps && lines.length > before) {
      // Two steps of one segment (a spell going off before the blows of its segment) share its heading.
      const heading = stepHeading(step);
      const said = JSON.stringify([heading.key, heading.data]);
      if (said !== lastHeading) lines.splice(before, 0, heading);
      lastHeading = said;
    }
  }

  // Castings still running, then the end of the round.
  for (const c of view.carryOut) {
    // Another side's casting, as a player's view shows it: who is casting, not what or for how long.
    if (c.spell === undefined || c.remaining === undefined) say('TENSEG.Recap.StillCasting', { name: name(c.caster) });
    else lines.push({ key: 'TENSEG.Recap.CarriesOn', data: { name: name(c.caster), spell: c.spell, remaining: c.remaining }, count: c.remaining });
  }
  for (const e of view.end ?? []) if (!(e.kind === 'death' && killed.has(e.combatant))) say(...endLine(e, name, rollsOver));
  // Made once the round was over, or in a step the view does not show (a round with no step): with the end.
  checks.forEach((_, i) => !told.has(i) && tell(i));
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

/** The heading of a step: its segment, its count, or its phase's name. */
function stepHeading(step: StepView): RecapLine {
  if (step.segment !== undefined) return { key: 'TENSEG.Recap.Step.segment', data: { segment: step.segment }, heading: true };
  if (step.count !== undefined) return { key: 'TENSEG.Recap.Step.count', data: { count: step.count }, heading: true };
  return { key: 'TENSEG.Recap.Step.phase', data: { phase: `TENSEG.Phase.${step.phase}` }, localized: ['phase'], heading: true };
}

function endLine(e: EndEvent, name: (id: string) => string, over: boolean): [string, RecapLine['data']] {
  if (e.kind === 'bleed') return ['TENSEG.Recap.Bled', { name: name(e.combatant), amount: e.amount }];
  if (e.kind === 'death') return ['TENSEG.Recap.Died', { name: name(e.combatant) }];
  // The GM's own result, no roll (a procedure's 'gm' morale method).
  // A failure that ended in surrender (d12-ascending, seed 002) says so.
  if (e.method === 'gm') return [e.passed ? 'TENSEG.Recap.MoraleHeldRuled' : e.surrendered ? 'TENSEG.Recap.MoraleSurrenderedRuled' : 'TENSEG.Recap.MoraleBrokeRuled', { name: name(e.combatant) }];
  // "The outcome is obvious" (individual-speed): it fails without a roll.
  if (!e.passed && e.roll === 0 && e.total === 0) return ['TENSEG.Recap.MoraleBrokeObvious', { name: name(e.combatant) }];
  // The roll and what it needed: at or under the target (a morale score, less how overwhelming the foe is), or, under
  // individual-speed, at or over it (3d6 and modifiers against 11 + the opponents).
  if (!e.passed && e.surrendered) return ['TENSEG.Recap.MoraleSurrendered', { name: name(e.combatant), total: e.total, target: e.target }];
  const key = `TENSEG.Recap.Morale${e.passed ? 'Held' : 'Broke'}${over ? 'Above' : ''}`;
  return [key, { name: name(e.combatant), total: e.total, target: e.target }];
}

/* ------------------------------------------------ surprise and initiative */

type SurpriseResultKind = 'none' | 'segments' | 'round';

/** What a number of surprise units means: not surprised, segments lost, or the whole round lost. */
function surpriseKind(view: TimelineView, n: number): SurpriseResultKind {
  if (n <= 0) return 'none';
  return view.surprise.unit === 'round' ? 'round' : 'segments';
}

/** The most common value (the larger on a tie), or null for none. */
function mostCommon(values: readonly number[]): number | null {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: [number, number] | null = null;
  for (const [v, n] of counts) if (!best || n > best[1] || (n === best[1] && v > best[0])) best = [v, n];
  return best ? best[0] : null;
}

/**
 * The surprise of a combat that has just started, as the view shows it: each
 * side's roll and result (segments lost, or the whole round), an alerted
 * side's "no roll", the combatants whose own result differs from their
 * side's (an adjustment, or a die of their own) by name, and those never
 * surprised. A hidden combatant is not in a player's view, so not here.
 */
export function surpriseRecap(view: TimelineView): RecapLine[] {
  const lines: RecapLine[] = [];
  const say = (key: string, data: RecapLine['data']) => lines.push({ key, data });
  for (const side of view.sides) {
    const members = view.combatants.filter((c) => c.side === side.id);
    if (members.length === 0) continue;
    const anySurprised = members.some((c) => c.surprised > 0);
    if (side.alerted && !anySurprised) {
      say('TENSEG.Chat.Surprise.Alerted', { side: side.name });
      for (const c of members) if (c.neverSurprised) say('TENSEG.Chat.Surprise.Never', { name: c.name });
      continue;
    }
    // The side's result: what most of those who share its die got.
    const shared = members.filter((c: CombatantView) => !c.neverSurprised && c.surpriseRoll === undefined);
    const result = mostCommon(shared.map((c) => c.surprised));
    if (side.surpriseRoll !== undefined && result !== null) say(`TENSEG.Chat.Surprise.SideRolled.${surpriseKind(view, result)}`, { side: side.name, roll: side.surpriseRoll, n: result });
    else if (result !== null) say(`TENSEG.Chat.Surprise.SideNoRoll.${surpriseKind(view, result)}`, { side: side.name, n: result });
    // The situation's modifier the GM gave a side that was not alerted (a range moved to nothing rolls no die).
    if (side.surpriseModifier !== undefined) {
      const m = side.surpriseModifier;
      say(m > 0 ? 'TENSEG.Chat.Surprise.SituationWorse' : 'TENSEG.Chat.Surprise.SituationBetter', { side: side.name, n: Math.abs(m) });
    }
    for (const c of members) {
      if (c.neverSurprised) say('TENSEG.Chat.Surprise.Never', { name: c.name });
      else if (c.surpriseRoll !== undefined) say(`TENSEG.Chat.Surprise.OwnRoll.${surpriseKind(view, c.surprised)}`, { name: c.name, roll: c.surpriseRoll, n: c.surprised });
      else if (result !== null && c.surprised !== result) say(`TENSEG.Chat.Surprise.Adjusted.${surpriseKind(view, c.surprised)}`, { name: c.name, n: c.surprised });
    }
  }
  if (!view.surprise.anyone) say('TENSEG.Chat.Surprise.Nobody', {});
  return lines;
}

/** A label the procedure gives (high-low: 'high' / 'low'), as the key of its name. */
function labelled(key: string, label: string | undefined, data: RecapLine['data']): RecapLine {
  if (label === undefined) return { key, data };
  return { key: `${key}Label`, data: { ...data, label: `TENSEG.Chat.Initiative.Label.${label}` }, localized: ['label'] };
}

/**
 * The initiative of a round just begun, as the view shows it: each side's
 * die (with its HIGH / LOW label where the procedure gives one), each
 * combatant's own count where combatants have one (individual initiative,
 * individual-speed; high-low's Dexterity-adjusted HIGH / LOW), and who won
 * or the tie. Nothing when no initiative was rolled (the surprise segments).
 */
export function initiativeRecap(view: TimelineView): RecapLine[] {
  const lines: RecapLine[] = [];
  if (!view.initiative) return lines;
  for (const side of view.sides) {
    if (side.initiative === undefined) continue;
    if (!view.combatants.some((c) => c.side === side.id)) continue;
    lines.push(labelled('TENSEG.Chat.Initiative.Side', side.label, { side: side.name, die: side.initiative }));
  }
  for (const c of view.combatants) {
    if (c.initiative === undefined) continue;
    lines.push(labelled('TENSEG.Chat.Initiative.Combatant', c.label, { name: c.name, count: c.initiative }));
  }
  const winner = view.sides.find((s) => s.winner);
  if (winner) lines.push({ key: 'TENSEG.Chat.Initiative.Won', data: { side: winner.name } });
  else if (view.initiative.tie) lines.push({ key: 'TENSEG.Chat.Initiative.Tied', data: { die: Math.max(...view.sides.map((s) => s.initiative ?? -Infinity)) } });
  return lines;
}
