/**
 * The runner's output: the timeline a GM reads, as lines of text and as one
 * JSON document (README.md, "--json"), both printed from the timeline view
 * model of each round (src/rules/timeline.ts) plus what only the runner
 * knows (its notes, the damage whose moment never came, the dice it rolled).
 */
import type { CombatantState, CombatInjury } from '../rules/model';
import { injuryText } from '../rules/injury-text';
import type { EndEvent } from '../rules/procedure';
import type { CombatLog, DamageEvent, RoundLog } from '../rules/play';
import type { CastingView, ChargeView, CombatantView, EntryView, MidRoundView, StepView, TimelineView } from '../rules/timeline';
import { roundRecap } from '../rules/recap';
import { undeliveredDamage, type ScenarioDice, type ScenarioNote, type Undelivered, type ValidScenario } from './scenario';
import type { Data, Strings } from './strings';

export interface TimelineText {
  key: string;
  data?: Data;
  text: string;
}

export interface TimelineEntry {
  combatant: string;
  name: string;
  kind: EntryView['kind'];
  action: EntryView['action'];
  routine?: number;
  target?: string;
  casting?: string;
  /** The spell is still to be chosen at the caster's turn (d12-ascending II.C): see EntryView.choosing. */
  choosing?: boolean;
  spell?: string;
  reason?: string;
  outcome: string;
  text: string;
}

export interface TimelineStep {
  index: number;
  phase: string;
  segment?: number;
  count?: number;
  heading: string;
  entries: TimelineEntry[];
  damage: (StepView['damage'][number] & { text: string })[];
  interruptions: (StepView['interruptions'][number] & { text: string })[];
  fallen: (StepView['fallen'][number] & { text: string })[];
  /** Mid-round actions taken in the step (a delay, a release, a spell given up); absent when none. */
  midRound?: (MidRoundView & { text: string })[];
  /** Chargers whose progress the step changes (closing, arriving, falling short); absent when none. */
  charges?: (ChargeView & { text: string })[];
  /** individual-speed: the Heal checks and injuries the GM entered with this step. */
  wounds?: TimelineText[];
}

export interface TimelineRound {
  round: number;
  kind: 'surprise' | 'round';
  heading: string;
  joins: TimelineText[];
  initiative: { round: number; sides: Record<string, number>; individuals: Record<string, number>; winner: string | null; labels?: Record<string, string>; lines: string[] } | null;
  carryIn: TimelineText[];
  steps: TimelineStep[];
  unapplied: (DamageEvent & { text: string })[];
  carryOut: { casting: string; caster: string; spell: string; remaining: number; text: string }[];
  /** Last round's declarations "same as last round" could not carry into this one (a spell with no copy left). */
  notCarried: TimelineText[];
  /** individual-speed: the Heal checks and injuries the GM entered after the last step. */
  wounds?: TimelineText[];
  end: (EndEvent & { text: string })[];
  standing: TimelineText[];
  /** The round's recap (addict phase 10), where the procedure has a recap phase. */
  recap?: TimelineText[];
  states: Record<string, CombatantState>;
}

export interface Timeline {
  ok: true;
  version: 1;
  file: string;
  title?: string;
  description?: string;
  procedure: string;
  procedureName: string;
  originalProcedure: string;
  options: Record<string, string | number | boolean>;
  seed: number;
  rounds: number;
  /** Notes for the GM; `path` names the file's entry a note is about (damage[2]), where there is one. */
  notes: (TimelineText & { path?: string })[];
  sides: { id: string; name: string }[];
  combatants: { id: string; name: string; side: string; joins?: number }[];
  /** What the GM recorded before the rounds (addict phases 1 and 3): each side's reaction, the encounter distance. */
  reactions: { side: string; result: string; roll?: number; secret?: boolean; text: string }[];
  distance: { feet: number; text: string } | null;
  openingMorale: (EndEvent & { text: string })[] | null;
  baseInitiative: Record<string, number>;
  surprise: { unit: string; rolls: Record<string, number>; surprised: Record<string, number>; lines: string[] };
  timeline: TimelineRound[];
  final: { states: Record<string, CombatantState>; standing: TimelineText[] };
  dice: { purpose: string; count: number; faces: number; side?: string; combatant?: string; round?: number; result: number; scripted: boolean; index?: number }[];
  lines: string[];
}

/** A note for each scripted damage entry that never landed, by why. */
const UNDELIVERED_KEYS: Record<Undelivered, string> = {
  'surprise-not-played': 'TENSEG.Sim.Note.DamageSurpriseNotPlayed',
  'round-not-played': 'TENSEG.Sim.Note.DamageRoundNotPlayed',
  'no-moment': 'TENSEG.Sim.Note.DamageNoMoment',
  'target-absent': 'TENSEG.Sim.Note.DamageTargetAbsent',
};

const BEGIN_KEYS: Record<string, string> = { cancelled: 'Cancelled', interrupted: 'BeginInterrupted', prevented: 'BeginPrevented', 'cannot-act': 'CannotBegin' };
const COMPLETE_KEYS: Record<string, string> = { 'goes-off': 'GoesOff', cancelled: 'Cancelled', interrupted: 'AlreadyInterrupted', prevented: 'AlreadyPrevented', 'cannot-act': 'CannotComplete' };

/** Writes the lines of the text output while the JSON is built. */
class Writer {
  readonly lines: string[] = [];
  constructor(readonly t: Strings) {}
  say(indent: number, text: string): string {
    this.lines.push('  '.repeat(indent) + text);
    return text;
  }
  /** A line of data and its text; `count` chooses a counted string's form (Strings.format). */
  txt(key: string, data: Data = {}, count?: number): TimelineText {
    return { key, data, text: this.t.format(key, data, count) };
  }
}

/** Names of combatants (joiners too) and sides. */
function namesOf(scenario: ValidScenario): (id: string | undefined) => string {
  const names = new Map<string, string>();
  for (const s of scenario.encounter.sides) names.set(s.id, s.name);
  for (const c of scenario.encounter.combatants) names.set(c.id, c.name);
  for (const j of scenario.joins) names.set(j.combatant.id, j.combatant.name);
  return (id) => (id === undefined ? '' : (names.get(id) ?? id));
}

function endEventText(w: Writer, nameOf: (id: string | undefined) => string, e: EndEvent): EndEvent & { text: string } {
  const { t } = w;
  const name = nameOf(e.combatant);
  let text: string;
  if (e.kind === 'bleed') text = t.format('TENSEG.Sim.End.Bleed', { name, amount: e.amount });
  else if (e.kind === 'death') text = t.format('TENSEG.Sim.End.Death', { name });
  else {
    const trigger = t.has(`TENSEG.MoraleTrigger.${e.trigger}`) ? t.format(`TENSEG.MoraleTrigger.${e.trigger}`) : t.maybe(`TENSEG.Sim.Trigger.${e.trigger}`, e.trigger);
    const data = { name, trigger, roll: e.roll, total: e.total, target: e.target };
    if (e.method === 'gm') text = t.format(e.passed ? 'TENSEG.Sim.End.MoraleGmHolds' : 'TENSEG.Sim.End.MoraleGmBreaks', data);
    else if (e.method !== undefined) text = t.format(e.passed ? 'TENSEG.Sim.End.MoraleMethodHolds' : 'TENSEG.Sim.End.MoraleMethodBreaks', { ...data, method: e.method });
    else text = !e.passed && e.roll === 0 ? t.format('TENSEG.Sim.End.MoraleAutomatic', data) : t.format(e.passed ? 'TENSEG.Sim.End.MoraleHolds' : 'TENSEG.Sim.End.MoraleBreaks', data);
  }
  return { ...e, text };
}

/** Each side's combatants with their health and condition, from a view. */
function standingOf(w: Writer, view: TimelineView): TimelineText[] {
  const { t } = w;
  const bySide = new Map<string, string[]>();
  for (const c of view.combatants) {
    const h = c.health ?? { hp: 0 };
    let one =
      h.woundPoints !== undefined
        ? t.format('TENSEG.Sim.StandingWounds', { name: c.name, stress: h.stress ?? 0, wounds: h.woundPoints })
        : h.maxHp !== undefined
          ? t.format('TENSEG.Sim.StandingHp', { name: c.name, hp: h.hp, max: h.maxHp })
          : t.format('TENSEG.Sim.StandingHpNoMax', { name: c.name, hp: h.hp });
    const marks: string[] = [];
    if (c.condition !== 'ok') marks.push(t.format(`TENSEG.Sim.Condition.${c.condition}`));
    if (c.routed) marks.push(t.format('TENSEG.Sim.Condition.routed'));
    if (c.staunched) marks.push(t.format('TENSEG.Sim.Condition.staunched'));
    if (h.stabilized) marks.push(t.format('TENSEG.Sim.Condition.stabilized'));
    if (marks.length > 0) one = t.format('TENSEG.Sim.StandingCondition', { text: one, condition: marks.join(', ') });
    bySide.set(c.side, [...(bySide.get(c.side) ?? []), one]);
  }
  return view.sides.filter((s) => bySide.has(s.id)).map((s) => w.txt('TENSEG.Sim.Standing', { side: s.name, list: (bySide.get(s.id) as string[]).join(', ') }));
}

/** Everyone's Combat Injuries (individual-speed), one line each. */
function injuriesOf(w: Writer, view: TimelineView): TimelineText[] {
  const out: TimelineText[] = [];
  for (const c of view.combatants) for (const i of c.health?.injuries ?? []) out.push(w.txt('TENSEG.Sim.Injured', { name: c.name, injury: describe(w, i) }));
  return out;
}

function describe(w: Writer, injury: CombatInjury): string {
  return injuryText((key, data) => w.t.format(key, data), (key) => w.t.has(key), injury);
}

/** A Heal check or an injury the GM entered, as a line. */
function woundText(w: Writer, x: NonNullable<RoundLog['wounds']>[number], nameOf: (id: string | undefined) => string): TimelineText {
  const name = nameOf(x.combatant);
  if (x.detail.heal) return w.txt(x.detail.heal.passed ? 'TENSEG.Sim.HealCheck' : 'TENSEG.Sim.HealCheckFails', { name, total: x.detail.heal.total, tn: x.detail.heal.tn });
  return w.txt('TENSEG.Sim.InjuryEntered', { name, injury: x.detail.injury ? describe(w, x.detail.injury) : '' });
}

/** The surprise lines: each side's roll, who is surprised and for how long. */
function surpriseLines(w: Writer, view: TimelineView): string[] {
  const { t } = w;
  const out: string[] = [];
  const segments = view.surprise.unit === 'segments';
  for (const side of view.sides) {
    if (side.surpriseRoll !== undefined) out.push(w.say(1, t.format('TENSEG.Sim.SurpriseRoll', { side: side.name, roll: side.surpriseRoll })));
    else if (segments) out.push(w.say(1, t.format('TENSEG.Sim.SurpriseNoRoll', { side: side.name })));
  }
  if (!view.combatants.some((c) => c.surprised > 0)) {
    out.push(w.say(1, t.format('TENSEG.Sim.NobodySurprised')));
    return out;
  }
  for (const side of view.sides) {
    const groups = new Map<number, string[]>();
    for (const c of view.combatants) if (c.side === side.id) groups.set(c.surprised, [...(groups.get(c.surprised) ?? []), c.name]);
    for (const [v, names] of [...groups.entries()].sort((a, b) => b[0] - a[0])) {
      const list = names.join(', ');
      const text =
        v === 0
          ? t.format('TENSEG.Sim.NotSurprised', { names: list })
          : segments
            ? t.format('TENSEG.Sim.SurprisedSegments', { segments: v, names: list }, v)
            : t.format('TENSEG.Sim.SurprisedRound', { names: list });
      out.push(w.say(1, text));
    }
  }
  return out;
}

function initiativeOf(w: Writer, log: RoundLog, view: TimelineView, nameOf: (id: string | undefined) => string): TimelineRound['initiative'] {
  const ini = log.initiative;
  if (!ini) return null;
  const { t } = w;
  const lines: string[] = [];
  const labels = ini.labels ?? {};
  const label = (id: string) => (labels[id] !== undefined ? t.maybe(`TENSEG.Sim.Label.${labels[id]}`, labels[id]) : undefined);
  const sideIds = Object.keys(ini.sides);
  if (sideIds.length > 0) {
    const items = sideIds.map((id) => {
      const l = label(id);
      const data = { side: nameOf(id), roll: ini.sides[id] };
      return l ? t.format('TENSEG.Sim.InitiativeSideLabel', { ...data, label: l }) : t.format('TENSEG.Sim.InitiativeSide', data);
    });
    lines.push(w.say(1, t.format('TENSEG.Sim.Initiative', { list: items.join(', ') })));
    if (ini.winner) lines.push(w.say(1, t.format('TENSEG.Sim.InitiativeWinner', { side: nameOf(ini.winner) })));
    else if (view.initiative?.tie) lines.push(w.say(1, t.format('TENSEG.Sim.InitiativeTie')));
  }
  const individuals = Object.keys(ini.individuals);
  if (individuals.length > 0) {
    const items = individuals
      .sort((a, b) => ini.individuals[a] - ini.individuals[b] || nameOf(a).localeCompare(nameOf(b)))
      .map((id) => {
        const l = label(id);
        const data = { name: nameOf(id), value: ini.individuals[id] };
        return l ? t.format('TENSEG.Sim.InitiativeIndividualLabel', { ...data, label: l }) : t.format('TENSEG.Sim.InitiativeIndividual', data);
      });
    lines.push(w.say(1, t.format('TENSEG.Sim.InitiativeIndividuals', { list: items.join(', ') })));
  }
  const other = Object.keys(labels).filter((id) => !(id in ini.sides) && !(id in ini.individuals));
  if (other.length > 0) {
    const items = other.map((id) => t.format('TENSEG.Sim.InitiativeLabel', { name: nameOf(id), label: label(id) as string }));
    lines.push(w.say(1, t.format('TENSEG.Sim.InitiativeLabels', { list: items.join(', ') })));
  }
  return { ...structuredClone(ini), lines };
}

function spellName(w: Writer, spell: string | undefined, device: boolean | undefined): string {
  return spell || w.t.format(device ? 'TENSEG.Sim.UnnamedDevice' : 'TENSEG.Sim.UnnamedSpell');
}

function entryText(w: Writer, e: EntryView, nameOf: (id: string | undefined) => string, routines: Map<string, number>, turnedTo?: string): string {
  const { t } = w;
  const name = nameOf(e.combatant);
  const outcome = e.outcome ?? 'cannot-act';
  const actionText = t.format(`TENSEG.Sim.Action.${e.action}`);
  let text: string;
  if (e.kind === 'cast-begin' || e.kind === 'cast-complete') {
    const time = e.castingTime ?? '?';
    const data = { name, spell: spellName(w, e.spell, e.device || e.action === 'device'), time };
    const timed = typeof time === 'number' && time > 0;
    // A spell still to be chosen at the caster's turn (d12-ascending II.C): never chosen, or chosen "none".
    const chose = e.choosing && outcome === 'begins' ? 'ChoseNothing' : e.choosing && outcome === 'cancelled' ? 'ChoosesNone' : undefined;
    const key =
      chose ?? (e.kind === 'cast-begin' ? (outcome === 'begins' ? (e.device ? 'BeginsDevice' : timed ? 'Begins' : 'BeginsNoTime') : BEGIN_KEYS[outcome]) : COMPLETE_KEYS[outcome]);
    text = t.format(`TENSEG.Sim.Entry.${key ?? 'CannotComplete'}`, data);
  } else if (outcome === 'acts') {
    // Its target fell: the one it turned to (RoundLog.retargets).
    const target = turnedTo ?? e.target;
    text = target !== undefined ? t.format('TENSEG.Sim.Entry.ActsTarget', { name, action: actionText, target: nameOf(target) }) : t.format('TENSEG.Sim.Entry.Acts', { name, action: actionText });
    const extras: string[] = [];
    if (e.routine !== undefined && ((routines.get(e.combatant) ?? 0) > 1 || e.routine > 1)) extras.push(t.format('TENSEG.Sim.Entry.Routine', { routine: e.routine }));
    if (e.kind === 'late-join') extras.push(t.format('TENSEG.Sim.Entry.LateJoin'));
    if (extras.length > 0) text = t.format('TENSEG.Sim.Entry.Extra', { text, extra: extras.join(', ') });
  } else if (e.struck !== undefined) text = t.format('TENSEG.Sim.Entry.CannotActWhy', { name, action: actionText, reason: t.format(`TENSEG.CannotAct.${e.struck}`) });
  else text = t.format('TENSEG.Sim.Entry.CannotAct', { name, action: actionText });
  // The reason explains a placement: shown only for what actually happens.
  const happened = outcome === 'acts' || outcome === 'begins' || outcome === 'goes-off';
  if (happened && e.reason && t.has(`TENSEG.Reason.${e.reason}`)) text = t.format('TENSEG.Sim.Entry.Why', { text, reason: t.format(`TENSEG.Reason.${e.reason}`) });
  return text;
}

/** An attacker whose target fell, and its choice: another target, hold, or nothing (the script's, or the runner's default). */
function retargetText(w: Writer, x: NonNullable<RoundLog['retargets']>[number], nameOf: (id: string | undefined) => string): string {
  const data = { name: nameOf(x.combatant), from: nameOf(x.from), target: nameOf(x.target) };
  const key = x.choice === 'target' ? (x.scripted ? 'TENSEG.Sim.Retarget.target' : 'TENSEG.Sim.Retarget.default') : `TENSEG.Sim.Retarget.${x.choice}`;
  return w.t.format(key, data);
}

function stepOf(
  w: Writer, st: StepView, view: TimelineView, nameOf: (id: string | undefined) => string, routines: Map<string, number>, showPhase: boolean, wounds?: RoundLog['wounds'], retargets?: RoundLog['retargets'],
): TimelineStep {
  const { t } = w;
  const phase = t.maybe(`TENSEG.Phase.${st.phase}`, st.phase);
  const only = showPhase ? '' : 'Only';
  const heading =
    st.segment !== undefined
      ? t.format(`${view.kind === 'surprise' ? 'TENSEG.Sim.StepSurpriseSegment' : 'TENSEG.Sim.StepSegment'}${only}`, { segment: st.segment, phase })
      : st.count !== undefined
        ? t.format(`TENSEG.Sim.StepCount${only}`, { count: st.count, phase })
        : t.format('TENSEG.Sim.StepPhase', { phase });
  w.say(1, heading);
  // Attackers whose target fell before their blow in this step, and what they chose (rules revision 5).
  const turned = (retargets ?? []).filter((x) => x.step === st.index);
  for (const x of turned) w.say(2, retargetText(w, x, nameOf));
  const entries: TimelineEntry[] = st.entries.map((e) => {
    const to = e.outcome === 'acts' ? turned.find((x) => x.combatant === e.combatant && x.choice === 'target')?.target : undefined;
    const text = w.say(2, entryText(w, e, nameOf, routines, to));
    const out: TimelineEntry = { combatant: e.combatant, name: nameOf(e.combatant), kind: e.kind, action: e.action, outcome: e.outcome ?? 'cannot-act', text };
    if (e.routine !== undefined) out.routine = e.routine;
    if (e.target !== undefined) out.target = e.target;
    if (e.casting !== undefined) out.casting = e.casting;
    if (e.choosing) out.choosing = true;
    if (e.spell !== undefined) out.spell = e.spell;
    if (e.reason !== undefined) out.reason = e.reason;
    return out;
  });
  // Where each charger stands by the step's end: "Pip closing 12 of 30 ft".
  const charges = (st.charges ?? []).map((c) => ({ ...c, text: w.say(3, t.format(c.key, { ...c.data, name: nameOf(c.combatant) })) }));
  // Mid-round actions come first: they happen before the blows of the step are counted.
  const midRound = (st.midRound ?? []).map((m) => {
    const data = { name: nameOf(m.combatant), action: m.kind === 'release' ? t.format(`TENSEG.Sim.Action.${m.action}`) : '', spell: m.kind === 'cancel' ? spellName(w, m.spell, false) : '' };
    return { ...m, text: w.say(3, t.format(`TENSEG.Sim.MidRound.${m.kind}`, data)) };
  });
  const damage = st.damage.map((d) => {
    const data: Data = { target: nameOf(d.target), amount: d.amount, by: nameOf(d.by), wounds: d.wounds, stress: d.amount - d.wounds };
    const split = d.wounds !== d.amount;
    const key = d.strain ? 'TENSEG.Sim.Strain' : split ? (d.by !== undefined ? 'TENSEG.Sim.DamageSplit' : 'TENSEG.Sim.DamageSplitNoSource') : d.by !== undefined ? 'TENSEG.Sim.Damage' : 'TENSEG.Sim.DamageNoSource';
    const text = w.say(3, t.format(key, data, d.wounds));
    if (!d.injury) return { ...d, text };
    const check = { name: nameOf(d.target), roll: d.injury.roll, wounds: d.injury.wounds };
    const line = d.injury.injury ? t.format('TENSEG.Sim.InjuryCheck', { ...check, injury: describe(w, d.injury.injury) }) : t.format('TENSEG.Sim.InjuryCheckNone', check);
    return { ...d, text: `${text} ${w.say(3, line)}` };
  });
  const interruptions = st.interruptions.map((x) => {
    const data = { name: nameOf(x.caster), spell: x.spell || t.format('TENSEG.Sim.UnnamedSpell'), why: x.broken ? t.format(`TENSEG.Break.${x.broken}`) : '' };
    const key = x.broken
      ? x.outcome === 'prevented' ? 'TENSEG.Sim.CastingBrokenPrevented' : x.expended ? 'TENSEG.Sim.CastingBroken' : 'TENSEG.Sim.CastingBrokenKept'
      : x.outcome === 'prevented' ? 'TENSEG.Sim.Prevented' : x.expended ? 'TENSEG.Sim.Interrupted' : 'TENSEG.Sim.InterruptedKept';
    return { ...x, text: w.say(3, t.format(key, data)) };
  });
  const fallen = st.fallen.map((f) => ({ ...f, text: w.say(3, t.format(`TENSEG.Sim.Falls.${f.condition}`, { name: nameOf(f.combatant) })) }));
  const step: TimelineStep = { index: st.index, phase: st.phase, heading, entries, damage, interruptions, fallen };
  if (midRound.length > 0) step.midRound = midRound;
  if (charges.length > 0) step.charges = charges;
  const gm = (wounds ?? []).filter((x) => x.step === st.index).map((x) => woundText(w, x, nameOf));
  for (const x of gm) w.say(3, x.text);
  if (gm.length > 0) step.wounds = gm;
  if (st.segment !== undefined) step.segment = st.segment;
  if (st.count !== undefined) step.count = st.count;
  return step;
}

function roundOf(w: Writer, log: RoundLog, scenario: ValidScenario, nameOf: (id: string | undefined) => string): TimelineRound {
  const { t } = w;
  const view = log.view;
  const surprise = view.kind === 'surprise';
  w.say(0, '');
  const heading = surprise
    ? w.say(0, t.format(view.surprise.unit === 'segments' ? 'TENSEG.Sim.SurpriseSegments' : 'TENSEG.Sim.SurpriseRound'))
    : w.say(0, t.format('TENSEG.Sim.Round', { round: view.round }));
  const joins = surprise
    ? []
    : scenario.joins.filter((j) => j.round === view.round).map((j) => w.txt('TENSEG.Sim.Joins', { name: j.combatant.name, side: nameOf(j.combatant.side), step: j.step }));
  for (const j of joins) w.say(1, j.text);
  const notCarried = log.notCarried.map((d) =>
    d.declaration.action === 'spell' || d.declaration.action === 'device'
      ? w.txt('TENSEG.Sim.NotCarried', { name: nameOf(d.combatant), spell: d.declaration.spell ?? '' })
      : w.txt('TENSEG.Sim.NotCarriedTarget', { name: nameOf(d.combatant), target: nameOf(d.declaration.target) }),
  );
  for (const d of notCarried) w.say(1, d.text);
  // Declarations struck because their combatant may no longer take them (rules revision 5: routed, surrendered).
  for (const x of log.struck ?? []) w.say(1, t.format('TENSEG.Sim.Struck', { name: nameOf(x.combatant), action: t.format(`TENSEG.Sim.Action.${x.declaration.action}`), reason: t.format(`TENSEG.CannotAct.${x.reason}`) }));
  // Declarations "same as last round" re-aimed because their target fell (rules revision 5).
  for (const x of (log.retargets ?? []).filter((r) => r.step === null)) w.say(1, retargetText(w, x, nameOf));
  const initiative = initiativeOf(w, log, view, nameOf);
  const carryIn = view.carryIn.map((c) => w.txt('TENSEG.Sim.CarryIn', { name: nameOf(c.caster), spell: spellName(w, c.spell, c.device), round: c.beganRound }));
  for (const c of carryIn) w.say(1, c.text);
  const routines = new Map<string, number>();
  for (const st of view.steps) for (const e of st.entries) if (e.routine !== undefined) routines.set(e.combatant, (routines.get(e.combatant) ?? 0) + 1);
  // The phase is named only where it tells something: when the round's steps are in more than one phase.
  const showPhase = new Set(view.steps.map((st) => st.phase)).size > 1;
  const steps = view.steps.map((st) => stepOf(w, st, view, nameOf, routines, showPhase, log.wounds, log.retargets));
  const afterSteps = (log.wounds ?? []).filter((x) => x.step === null).map((x) => woundText(w, x, nameOf));
  for (const x of afterSteps) w.say(1, x.text);
  const unapplied = log.unapplied.map((d) => {
    const data = { amount: d.amount, target: nameOf(d.target), by: nameOf(d.by) };
    return { ...d, text: w.say(1, t.format(d.by !== undefined ? 'TENSEG.Sim.Unapplied' : 'TENSEG.Sim.UnappliedPlaced', data)) };
  });
  const carryOut = view.carryOut.map((c: CastingView) => ({
    casting: c.casting,
    caster: c.caster,
    // The runner reads the GM's view: spell and time are always there.
    spell: c.spell ?? '',
    remaining: c.remaining ?? 0,
    text: w.say(1, t.format('TENSEG.Sim.CarryOut', { name: nameOf(c.caster), spell: spellName(w, c.spell, c.device), remaining: c.remaining ?? 0 }, c.remaining ?? 0)),
  }));
  // The GM's morale calls the script makes after the last step are checked at once (rules revision 5): told with the end.
  const checked: EndEvent[] = (view.morale ?? []).map(({ stage: _s, step: _k, ...e }) => e);
  const end = [...checked, ...(view.end ?? [])].map((e) => endEventText(w, nameOf, e));
  const standing = standingOf(w, view);
  w.say(1, t.format('TENSEG.Sim.EndOfRound'));
  for (const e of end) w.say(2, e.text);
  for (const x of standing) w.say(2, x.text);
  for (const x of injuriesOf(w, view)) w.say(2, x.text);
  const out: TimelineRound = { round: view.round, kind: view.kind, heading, joins, initiative, carryIn, steps, unapplied, carryOut, notCarried, end, standing, states: log.states };
  // Phase 10 (addict): "The DM provides a narrative summary of the events of the round".
  if (scenario.procedure.phases.includes('addict-recap')) {
    w.say(1, t.format('TENSEG.Sim.Recap', { phase: t.maybe('TENSEG.Phase.addict-recap', 'addict-recap') }));
    out.recap = roundRecap(view).map((l) => w.txt(l.key, l.data, l.count));
    for (const x of out.recap) w.say(2, x.text);
  }
  if (afterSteps.length > 0) out.wounds = afterSteps;
  return out;
}

/** Build the timeline (JSON form) and, in the same pass, the lines a GM reads. */
export function buildTimeline(scenario: ValidScenario, log: CombatLog, dice: ScenarioDice, seed: number, file: string, t: Strings): Timeline {
  const w = new Writer(t);
  const nameOf = namesOf(scenario);
  const procedureLabel = (id: string) => t.maybe(`TENSEG.Procedure.${id}.Name`, id);
  const procedureName = procedureLabel(scenario.procedure.id);

  if (scenario.title) w.say(0, t.format('TENSEG.Sim.Title', { title: scenario.title }));
  if (scenario.description) w.say(0, t.format('TENSEG.Sim.Description', { description: scenario.description.trim() }));
  w.say(0, t.format('TENSEG.Sim.Header', { procedure: `${scenario.procedure.id} — ${procedureName}`, rounds: scenario.rounds }, scenario.rounds));
  w.say(0, t.format('TENSEG.Sim.Seed', { seed }));
  const notes: Timeline['notes'] = scenario.notes.map((n: ScenarioNote) => {
    const data: Data = { ...(n.data ?? {}) };
    for (const k of ['from', 'to']) if (typeof data[k] === 'string') data[k] = procedureLabel(data[k] as string);
    return { key: n.key, data: n.data ?? {}, text: t.format(n.key, data) };
  });
  for (const u of dice.unused()) notes.push(w.txt('TENSEG.Sim.Note.UnusedDie', { index: u.index, purpose: u.purpose, result: u.result }));
  for (const r of log.refused) notes.push(w.txt('TENSEG.Sim.Note.DeclarationRefused', { round: r.round, name: nameOf(r.combatant), reason: t.format(`TENSEG.Error.${r.problem.key}`, r.problem.data ?? {}) }));
  for (const u of undeliveredDamage(scenario, log)) {
    const data = { index: u.index, amount: u.damage.amount, target: nameOf(u.damage.target), round: u.damage.round, played: log.rounds.length };
    notes.push({ ...w.txt(UNDELIVERED_KEYS[u.why], data, log.rounds.length), path: `damage[${u.index}]` });
  }
  for (const x of log.notDone) {
    const path = `${x.list}[${x.index}]`;
    const note = x.problem
      ? w.txt('TENSEG.Sim.Note.MidRoundRefused', { path, round: x.round, reason: t.format(`TENSEG.Error.${x.problem.key}`, x.problem.data ?? {}) })
      : w.txt('TENSEG.Sim.Note.MidRoundNotPlayed', { path, round: x.round });
    notes.push({ ...note, path });
  }
  for (const n of notes) w.say(0, n.text);

  // Phases 1 and 3 (addict): what the GM recorded before the rounds, as the first round's view shows it.
  const recorded = (log.surpriseRound ?? log.rounds[0])?.view.encounter ?? log.view.encounter;
  const reactions: Timeline['reactions'] = (recorded?.reactions ?? []).map((r) => {
    const data = { side: nameOf(r.side), result: r.result, roll: r.roll ?? '' };
    const key = r.roll !== undefined ? (r.secret ? 'TENSEG.Sim.ReactionRolledSecret' : 'TENSEG.Sim.ReactionRolled') : r.secret ? 'TENSEG.Sim.ReactionSecret' : 'TENSEG.Sim.Reaction';
    return { ...r, text: t.format(key, data) };
  });
  const distance: Timeline['distance'] = recorded?.distance !== undefined ? { feet: recorded.distance, text: t.format('TENSEG.Sim.Distance', { feet: recorded.distance }) } : null;
  if (reactions.length > 0 || distance) {
    w.say(0, '');
    w.say(0, t.format('TENSEG.Sim.Encounter'));
    for (const r of reactions) w.say(1, r.text);
    if (distance) w.say(1, distance.text);
  }

  let openingMorale: Timeline['openingMorale'] = null;
  if (log.openingMorale) {
    w.say(0, '');
    w.say(0, t.format('TENSEG.Sim.OpeningMorale'));
    openingMorale = log.openingMorale.events.map((e) => endEventText(w, nameOf, e));
    for (const e of openingMorale) w.say(1, e.text);
  }

  // Surprise and base initiative, as the first round the combat played shows them.
  const first: TimelineView = (log.surpriseRound ?? log.rounds[0])?.view ?? log.view;
  w.say(0, '');
  w.say(0, t.format('TENSEG.Sim.Surprise'));
  const surprise = surpriseLines(w, { ...first, combatants: first.combatants.filter((c) => scenario.encounter.combatants.some((x) => x.id === c.id)) });
  // Base initiative of everyone who fought, joiners too (they roll when they join).
  const based = log.view.combatants.filter((c: CombatantView) => c.baseInitiative !== undefined);
  if (based.length > 0) {
    const items = based
      .sort((a, b) => (a.baseInitiative as number) - (b.baseInitiative as number) || a.name.localeCompare(b.name))
      .map((c) => t.format('TENSEG.Sim.InitiativeIndividual', { name: c.name, value: c.baseInitiative as number }));
    w.say(1, t.format('TENSEG.Sim.BaseInitiative', { list: items.join(', ') }));
  }

  const rounds: TimelineRound[] = [];
  if (log.surpriseRound) rounds.push(roundOf(w, log.surpriseRound, scenario, nameOf));
  for (const r of log.rounds) rounds.push(roundOf(w, r, scenario, nameOf));

  const finalStanding = standingOf(w, log.view);
  if (rounds.length === 0) {
    w.say(0, '');
    w.say(0, t.format('TENSEG.Sim.Final', { round: 0 }));
    for (const x of finalStanding) w.say(1, x.text);
  }

  const timeline: Timeline = {
    ok: true,
    version: 1,
    file,
    procedure: scenario.procedure.id,
    procedureName,
    originalProcedure: scenario.originalProcedure,
    options: scenario.options,
    seed,
    rounds: scenario.rounds,
    notes,
    sides: scenario.encounter.sides.map((x) => ({ id: x.id, name: x.name })),
    combatants: [
      ...scenario.encounter.combatants.map((c) => ({ id: c.id, name: c.name, side: c.side })),
      ...scenario.joins.map((j) => ({ id: j.combatant.id, name: j.combatant.name, side: j.combatant.side, joins: j.round })),
    ],
    reactions,
    distance,
    openingMorale,
    baseInitiative: log.baseInitiative,
    surprise: { unit: log.surprise.unit, rolls: log.surprise.rolls, surprised: log.surprise.surprised, lines: surprise },
    timeline: rounds,
    final: { states: log.states, standing: finalStanding },
    dice: dice.log.map((d) => {
      const out: Timeline['dice'][number] = { purpose: d.request.purpose, count: d.request.count, faces: d.request.faces, result: d.result, scripted: d.scripted };
      if (d.request.side !== undefined) out.side = d.request.side;
      if (d.request.combatant !== undefined) out.combatant = d.request.combatant;
      if (d.request.round !== undefined) out.round = d.request.round;
      if (d.index !== undefined) out.index = d.index;
      return out;
    }),
    lines: w.lines,
  };
  if (scenario.title) timeline.title = scenario.title;
  if (scenario.description) timeline.description = scenario.description;
  return timeline;
}
