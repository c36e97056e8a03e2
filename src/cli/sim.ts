/**
 * The scenario runner: `npm run sim -- <file> [--json] [--seed N]
 * [--procedure <id>] [--rounds N]`.
 *
 * Reads a scenario (YAML or JSON), validates it (src/rules/scenario.ts), plays
 * it with the rules engine and prints the round-by-round timeline a GM reads,
 * or the same as JSON (README.md, Scenario runner). Every word printed comes from the
 * language file (lang/en.json).
 *
 * Exit codes: 0 played; 1 the engine failed; 2 a broken scenario or bad flags
 * (nothing is played, no stack trace).
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { RandomDice } from '../rules/dice';
import type { Combatant, CombatantState, Problem } from '../rules/model';
import { PROCEDURE_IDS } from '../rules/model';
import type { Casting, EndEvent, InitiativeResult, StepEntry } from '../rules/procedure';
import type { CombatLog, DamageEvent, RoundLog, StepLog } from '../rules/resolve';
import type { ProcedureTable, ScenarioNote, ValidScenario } from '../rules/scenario';
import { MAX_ROUNDS, ScenarioDice, runScenario, validateScenario } from '../rules/scenario';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EXAMPLE = join('src', 'scenarios', 'example.yaml');

type Data = Record<string, string | number>;

/* ---------------------------------------------------------------- strings */

/** Flatten a language file: nested objects become dotted keys (Foundry accepts both). */
function flatten(obj: unknown, prefix: string, out: Record<string, string>): void {
  if (typeof obj === 'string') {
    if (prefix) out[prefix] = obj;
    return;
  }
  if (typeof obj !== 'object' || obj === null) return;
  for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
}

/** The English strings (lang/en.json); a missing or broken file leaves keys to stand for themselves. */
export function loadStrings(root = ROOT): Record<string, string> {
  const out: Record<string, string> = {};
  const main = join(root, 'lang', 'en.json');
  if (existsSync(main)) {
    try {
      flatten(JSON.parse(readFileSync(main, 'utf8')), '', out);
    } catch {
      // keys fall back to their names
    }
  }
  return out;
}

export class Strings {
  constructor(private readonly table: Record<string, string>) {}
  has(key: string): boolean {
    return typeof this.table[key] === 'string';
  }
  /** Foundry's i18n.format: {name} placeholders; a missing key prints the key and its data. */
  format(key: string, data: Data = {}): string {
    const template = this.table[key];
    if (template === undefined) {
      const d = Object.keys(data).length > 0 ? ' ' + JSON.stringify(data) : '';
      return key + d;
    }
    return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in data ? String(data[k]) : m));
  }
  /** A key if it exists, else the fallback text (ids from other modules: phases, reasons). */
  maybe(key: string, fallback: string, data: Data = {}): string {
    return this.has(key) ? this.format(key, data) : fallback;
  }
}

/* ------------------------------------------------------------------ flags */

export interface SimFlags {
  file?: string;
  json: boolean;
  seed?: number;
  procedure?: string;
  rounds?: number;
  help: boolean;
}

export function parseFlags(argv: readonly string[]): { flags: SimFlags; problems: Problem[] } {
  const flags: SimFlags = { json: false, help: false };
  const problems: Problem[] = [];
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string | undefined => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) return undefined;
      i++;
      return next;
    };
    const whole = (flag: string, min: number, max: number): number | undefined => {
      const v = value();
      if (v === undefined) {
        problems.push({ key: 'FlagNeedsValue', path: flag, data: { flag } });
        return undefined;
      }
      if (!/^-?\d+$/.test(v.trim()) || Number(v) < min || Number(v) > max) {
        problems.push({ key: 'FlagBadNumber', path: flag, data: { flag, value: v, min, max } });
        return undefined;
      }
      return Number(v);
    };
    switch (name) {
      case '--json':
        flags.json = true;
        break;
      case '--help':
      case '-h':
        flags.help = true;
        break;
      case '--seed':
        flags.seed = whole('--seed', 0, 4294967295);
        break;
      case '--rounds':
        flags.rounds = whole('--rounds', 1, MAX_ROUNDS);
        break;
      case '--procedure': {
        const v = value();
        if (v === undefined) problems.push({ key: 'FlagNeedsValue', path: '--procedure', data: { flag: '--procedure' } });
        else flags.procedure = v;
        break;
      }
      default:
        if (arg.startsWith('-') && arg !== '-') problems.push({ key: 'UnknownFlag', path: arg, data: { flag: arg } });
        else files.push(arg);
    }
  }
  if (files.length > 1) problems.push({ key: 'TooManyFiles', data: { files: files.join(', ') } });
  else if (files.length === 1) flags.file = files[0];
  return { flags, problems };
}

/* ---------------------------------------------------------- file and lines */

interface Located {
  value: unknown;
  /** Line and column (1-based) of the field a path names, where the file gives one. */
  locate(path: string | undefined): { line: number; column: number } | undefined;
  syntax: { line: number; column: number; detail: string }[];
}

/** "declarations.1[0].castingTime" → ['declarations', '1', 0, 'castingTime'] */
export function pathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) out.push(m[1] !== undefined ? Number(m[1]) : (m[2] as string));
  return out;
}

/** Parse YAML (JSON is YAML too), keeping positions for error messages. */
export function parseScenarioText(text: string): Located {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntax = doc.errors.map((e) => {
    const pos = e.linePos?.[0] ?? lines.linePos(e.pos[0]);
    return { line: pos.line, column: pos.col, detail: `${e.code}: ${e.message.split('\n')[0]}` };
  });
  const value = syntax.length > 0 ? undefined : doc.toJS({ maxAliasCount: 1000 });
  const locate = (path: string | undefined) => {
    if (!path || path.startsWith('--')) return undefined;
    let node: unknown = doc.contents;
    let at: number | undefined = (doc.contents as { range?: number[] } | null)?.range?.[0];
    for (const seg of pathSegments(path)) {
      if (isMap(node)) {
        const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(seg));
        if (!pair) break;
        const keyRange = (pair.key as { range?: number[] } | null)?.range;
        if (keyRange) at = keyRange[0];
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg] as { range?: number[] } | undefined;
        if (!item) break;
        if (item.range) at = item.range[0];
        node = item;
      } else break;
    }
    if (at === undefined) return undefined;
    const p = lines.linePos(at);
    return { line: p.line, column: p.col };
  };
  return { value, locate, syntax };
}

/* --------------------------------------------------------------- timeline */

export interface TimelineText {
  key: string;
  data?: Data;
  text: string;
}

export interface TimelineEntry {
  combatant: string;
  name: string;
  kind: StepEntry['kind'];
  action: StepEntry['action'];
  routine?: number;
  target?: string;
  casting?: string;
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
  damage: (StepLog['damage'][number] & { text: string })[];
  interruptions: (StepLog['interruptions'][number] & { text: string })[];
  fallen: (StepLog['fallen'][number] & { text: string })[];
}

export interface TimelineRound {
  round: number;
  kind: 'surprise' | 'round';
  heading: string;
  joins: TimelineText[];
  initiative: (InitiativeResult & { lines: string[] }) | null;
  carryIn: TimelineText[];
  steps: TimelineStep[];
  unapplied: (DamageEvent & { text: string })[];
  carryOut: { casting: string; caster: string; spell: string; remaining: number; text: string }[];
  end: (EndEvent & { text: string })[];
  standing: TimelineText[];
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
  notes: TimelineText[];
  sides: { id: string; name: string }[];
  combatants: { id: string; name: string; side: string; joins?: number }[];
  openingMorale: (EndEvent & { text: string })[] | null;
  baseInitiative: Record<string, number>;
  surprise: { unit: string; rolls: Record<string, number>; surprised: Record<string, number>; lines: string[] };
  timeline: TimelineRound[];
  final: { states: Record<string, CombatantState>; standing: TimelineText[] };
  dice: { purpose: string; count: number; faces: number; side?: string; combatant?: string; round?: number; result: number; scripted: boolean; index?: number }[];
  lines: string[];
}

/** Build the timeline (JSON form) and, in the same pass, the lines a GM reads. */
export function buildTimeline(
  scenario: ValidScenario,
  log: CombatLog,
  dice: ScenarioDice,
  seed: number,
  file: string,
  t: Strings,
): Timeline {
  const lines: string[] = [];
  const say = (indent: number, text: string) => {
    lines.push('  '.repeat(indent) + text);
    return text;
  };
  const txt = (key: string, data: Data = {}): TimelineText => ({ key, data, text: t.format(key, data) });

  const combatants = new Map<string, Combatant>();
  for (const c of scenario.encounter.combatants) combatants.set(c.id, c);
  for (const j of scenario.joins) combatants.set(j.combatant.id, j.combatant);
  const sideName = new Map(scenario.encounter.sides.map((s) => [s.id, s.name]));
  const nameOf = (id: string | undefined) => (id === undefined ? '' : combatants.get(id)?.name ?? sideName.get(id) ?? id);
  const list = (items: string[]) => items.join(', ');

  const procedureName = t.maybe(`TENSEG.Procedure.${scenario.procedure.id}.Name`, scenario.procedure.id);
  const procedureLabel = (id: string) => t.maybe(`TENSEG.Procedure.${id}.Name`, id);

  /* header */
  if (scenario.title) say(0, t.format('TENSEG.Sim.Title', { title: scenario.title }));
  if (scenario.description) say(0, t.format('TENSEG.Sim.Description', { description: scenario.description.trim() }));
  say(0, t.format('TENSEG.Sim.Header', { procedure: `${scenario.procedure.id} — ${procedureName}`, rounds: scenario.rounds }));
  say(0, t.format('TENSEG.Sim.Seed', { seed }));
  const notes: TimelineText[] = scenario.notes.map((n: ScenarioNote) => {
    const data: Data = { ...(n.data ?? {}) };
    for (const k of ['from', 'to']) if (typeof data[k] === 'string') data[k] = procedureLabel(data[k] as string);
    return { key: n.key, data: n.data ?? {}, text: t.format(n.key, data) };
  });
  for (const u of dice.unused()) {
    notes.push(txt('TENSEG.Sim.Note.UnusedDie', { index: u.index, purpose: u.purpose, result: u.result }));
  }
  for (const n of notes) say(0, n.text);

  /* standing of every side */
  const standing = (states: Record<string, CombatantState>): TimelineText[] => {
    const bySide = new Map<string, string[]>();
    for (const [id, s] of Object.entries(states)) {
      const c = combatants.get(id);
      if (!c) continue;
      let one =
        s.woundPoints !== undefined
          ? t.format('TENSEG.Sim.StandingWounds', { name: c.name, stress: s.stress ?? 0, wounds: s.woundPoints })
          : c.maxHp !== undefined
            ? t.format('TENSEG.Sim.StandingHp', { name: c.name, hp: s.hp, max: c.maxHp })
            : t.format('TENSEG.Sim.StandingHpNoMax', { name: c.name, hp: s.hp });
      const marks: string[] = [];
      if (s.condition !== 'ok') marks.push(t.format(`TENSEG.Sim.Condition.${s.condition}`));
      if (s.routed) marks.push(t.format('TENSEG.Sim.Condition.routed'));
      if (marks.length > 0) one = t.format('TENSEG.Sim.StandingCondition', { text: one, condition: marks.join(', ') });
      bySide.set(c.side, [...(bySide.get(c.side) ?? []), one]);
    }
    return scenario.encounter.sides
      .filter((s) => bySide.has(s.id))
      .map((s) => txt('TENSEG.Sim.Standing', { side: s.name, list: list(bySide.get(s.id) as string[]) }));
  };

  const endEvent = (e: EndEvent): EndEvent & { text: string } => {
    const name = nameOf(e.combatant);
    let text: string;
    if (e.kind === 'bleed') text = t.format('TENSEG.Sim.End.Bleed', { name, amount: e.amount });
    else if (e.kind === 'death') text = t.format('TENSEG.Sim.End.Death', { name });
    else {
      const trigger = t.has(`TENSEG.MoraleTrigger.${e.trigger}`)
        ? t.format(`TENSEG.MoraleTrigger.${e.trigger}`)
        : t.maybe(`TENSEG.Sim.Trigger.${e.trigger}`, e.trigger);
      const data = { name, trigger, roll: e.roll, total: e.total, target: e.target };
      text =
        !e.passed && e.roll === 0
          ? t.format('TENSEG.Sim.End.MoraleAutomatic', data)
          : t.format(e.passed ? 'TENSEG.Sim.End.MoraleHolds' : 'TENSEG.Sim.End.MoraleBreaks', data);
    }
    return { ...e, text };
  };

  /* opening morale, surprise, base initiative */
  let openingMorale: Timeline['openingMorale'] = null;
  if (log.openingMorale) {
    say(0, '');
    say(0, t.format('TENSEG.Sim.OpeningMorale'));
    openingMorale = log.openingMorale.events.map(endEvent);
    for (const e of openingMorale) say(1, e.text);
  }

  say(0, '');
  say(0, t.format('TENSEG.Sim.Surprise'));
  const surpriseLines: string[] = [];
  const s = log.surprise;
  for (const side of scenario.encounter.sides) {
    const roll = s.rolls[side.id];
    if (roll !== undefined) surpriseLines.push(say(1, t.format('TENSEG.Sim.SurpriseRoll', { side: side.name, roll })));
    else if (s.unit === 'segments') surpriseLines.push(say(1, t.format('TENSEG.Sim.SurpriseNoRoll', { side: side.name })));
  }
  const anySurprised = Object.values(s.surprised).some((v) => v > 0);
  if (!anySurprised) surpriseLines.push(say(1, t.format('TENSEG.Sim.NobodySurprised')));
  else {
    // One pass: side → surprise count → names.
    const bySide = new Map<string, Map<number, string[]>>();
    for (const c of scenario.encounter.combatants) {
      const v = s.surprised[c.id] ?? 0;
      let groups = bySide.get(c.side);
      if (!groups) bySide.set(c.side, (groups = new Map()));
      const names = groups.get(v);
      if (names) names.push(c.name);
      else groups.set(v, [c.name]);
    }
    for (const side of scenario.encounter.sides) {
      const groups = bySide.get(side.id) ?? new Map<number, string[]>();
      for (const [v, names] of [...groups.entries()].sort((a, b) => b[0] - a[0])) {
        const text =
          v === 0
            ? t.format('TENSEG.Sim.NotSurprised', { names: list(names) })
            : s.unit === 'segments'
              ? t.format('TENSEG.Sim.SurprisedSegments', { segments: v, names: list(names) })
              : t.format('TENSEG.Sim.SurprisedRound', { names: list(names) });
        surpriseLines.push(say(1, text));
      }
    }
  }
  const baseIds = Object.keys(log.baseInitiative);
  if (baseIds.length > 0) {
    const items = baseIds
      .sort((a, b) => log.baseInitiative[a] - log.baseInitiative[b] || nameOf(a).localeCompare(nameOf(b)))
      .map((id) => t.format('TENSEG.Sim.InitiativeIndividual', { name: nameOf(id), value: log.baseInitiative[id] }));
    say(1, t.format('TENSEG.Sim.BaseInitiative', { list: list(items) }));
  }

  /* rounds */
  const rounds: TimelineRound[] = [];
  const playRound = (r: RoundLog, surpriseRound: boolean) => {
    const schedule = r.schedule;
    const castings = new Map<string, Casting>(schedule.castings.map((c) => [c.id, c]));
    const routineCount = new Map<string, number>();
    for (const step of schedule.steps)
      for (const e of step.entries) if (e.routine !== undefined) routineCount.set(e.combatant, (routineCount.get(e.combatant) ?? 0) + 1);
    const spellName = (c: Casting | undefined, action: string) =>
      c?.spell || t.format(action === 'device' || c?.device ? 'TENSEG.Sim.UnnamedDevice' : 'TENSEG.Sim.UnnamedSpell');

    say(0, '');
    const heading = surpriseRound
      ? say(0, t.format(log.surprise.unit === 'segments' ? 'TENSEG.Sim.SurpriseSegments' : 'TENSEG.Sim.SurpriseRound'))
      : say(0, t.format('TENSEG.Sim.Round', { round: r.round }));

    const joins = surpriseRound
      ? []
      : scenario.joins
          .filter((j) => j.round === r.round)
          .map((j) => txt('TENSEG.Sim.Joins', { name: j.combatant.name, side: sideName.get(j.combatant.side) ?? j.combatant.side, step: j.step }));
    for (const j of joins) say(1, j.text);

    let initiative: TimelineRound['initiative'] = null;
    if (r.initiative) {
      const ini = r.initiative;
      const ilines: string[] = [];
      const labels = ini.labels ?? {};
      const label = (id: string) => (labels[id] !== undefined ? t.maybe(`TENSEG.Sim.Label.${labels[id]}`, labels[id]) : undefined);
      const sideIds = Object.keys(ini.sides);
      if (sideIds.length > 0) {
        const items = sideIds.map((id) => {
          const l = label(id);
          const data = { side: sideName.get(id) ?? id, roll: ini.sides[id] };
          return l ? t.format('TENSEG.Sim.InitiativeSideLabel', { ...data, label: l }) : t.format('TENSEG.Sim.InitiativeSide', data);
        });
        ilines.push(say(1, t.format('TENSEG.Sim.Initiative', { list: list(items) })));
        if (ini.winner) ilines.push(say(1, t.format('TENSEG.Sim.InitiativeWinner', { side: sideName.get(ini.winner) ?? ini.winner })));
        else if (sideIds.length > 1 && new Set(sideIds.map((id) => ini.sides[id])).size === 1) {
          ilines.push(say(1, t.format('TENSEG.Sim.InitiativeTie')));
        }
      }
      const indIds = Object.keys(ini.individuals);
      if (indIds.length > 0) {
        const items = indIds
          .sort((a, b) => ini.individuals[a] - ini.individuals[b] || nameOf(a).localeCompare(nameOf(b)))
          .map((id) => {
            const l = label(id);
            const data = { name: nameOf(id), value: ini.individuals[id] };
            return l ? t.format('TENSEG.Sim.InitiativeIndividualLabel', { ...data, label: l }) : t.format('TENSEG.Sim.InitiativeIndividual', data);
          });
        ilines.push(say(1, t.format('TENSEG.Sim.InitiativeIndividuals', { list: list(items) })));
      }
      const other = Object.keys(labels).filter((id) => !(id in ini.sides) && !(id in ini.individuals));
      if (other.length > 0) {
        const items = other.map((id) => t.format('TENSEG.Sim.InitiativeLabel', { name: nameOf(id), label: label(id) as string }));
        ilines.push(say(1, t.format('TENSEG.Sim.InitiativeLabels', { list: list(items) })));
      }
      initiative = { ...ini, lines: ilines };
    }

    const carryIn = schedule.castings
      .filter((c) => c.beginStep < 0 && c.beganRound < r.round)
      .map((c) => txt('TENSEG.Sim.CarryIn', { name: nameOf(c.caster), spell: spellName(c, 'spell'), round: c.beganRound }));
    for (const c of carryIn) say(1, c.text);

    // The phase is named only where it tells something: when the round's steps are in more than one phase.
    const showPhase = new Set(r.steps.map((st) => st.phase)).size > 1;
    const steps: TimelineStep[] = r.steps.map((st) => {
      const phase = t.maybe(`TENSEG.Phase.${st.phase}`, st.phase);
      const only = showPhase ? '' : 'Only';
      const stepHeading =
        st.segment !== undefined
          ? t.format(`${surpriseRound ? 'TENSEG.Sim.StepSurpriseSegment' : 'TENSEG.Sim.StepSegment'}${only}`, { segment: st.segment, phase })
          : st.count !== undefined
            ? t.format(`TENSEG.Sim.StepCount${only}`, { count: st.count, phase })
            : t.format('TENSEG.Sim.StepPhase', { phase });
      say(1, stepHeading);
      const entries: TimelineEntry[] = st.entries.map(({ entry, outcome }) => {
        const name = nameOf(entry.combatant);
        const casting = entry.casting ? castings.get(entry.casting) : undefined;
        const actionText = t.format(`TENSEG.Sim.Action.${entry.action}`);
        let text: string;
        if (entry.kind === 'cast-begin' || entry.kind === 'cast-complete') {
          const spell = spellName(casting, entry.action);
          const time = casting?.castingTime ?? '?';
          const data = { name, spell, time };
          const begin = entry.kind === 'cast-begin';
          const timed = typeof time === 'number' && time > 0;
          const beginKeys: Record<string, string> = {
            begins: casting?.device ? 'BeginsDevice' : timed ? 'Begins' : 'BeginsNoTime',
            cancelled: 'Cancelled',
            interrupted: 'BeginInterrupted',
            prevented: 'BeginPrevented',
            'cannot-act': 'CannotBegin',
          };
          const completeKeys: Record<string, string> = {
            'goes-off': 'GoesOff',
            cancelled: 'Cancelled',
            interrupted: 'AlreadyInterrupted',
            prevented: 'AlreadyPrevented',
            'cannot-act': 'CannotComplete',
          };
          const key = (begin ? beginKeys : completeKeys)[outcome] ?? 'CannotComplete';
          text = t.format(`TENSEG.Sim.Entry.${key}`, data);
        } else if (outcome === 'acts') {
          text =
            entry.target !== undefined
              ? t.format('TENSEG.Sim.Entry.ActsTarget', { name, action: actionText, target: nameOf(entry.target) })
              : t.format('TENSEG.Sim.Entry.Acts', { name, action: actionText });
          const extras: string[] = [];
          if (entry.routine !== undefined && ((routineCount.get(entry.combatant) ?? 0) > 1 || entry.routine > 1)) {
            extras.push(t.format('TENSEG.Sim.Entry.Routine', { routine: entry.routine }));
          }
          if (entry.kind === 'late-join') extras.push(t.format('TENSEG.Sim.Entry.LateJoin'));
          if (extras.length > 0) text = t.format('TENSEG.Sim.Entry.Extra', { text, extra: extras.join(', ') });
        } else {
          text = t.format('TENSEG.Sim.Entry.CannotAct', { name, action: actionText });
        }
        // The reason explains a placement: shown only for what actually happens.
        const happened = outcome === 'acts' || outcome === 'begins' || outcome === 'goes-off';
        if (happened && entry.reason && t.has(`TENSEG.Reason.${entry.reason}`)) {
          text = t.format('TENSEG.Sim.Entry.Why', { text, reason: t.format(`TENSEG.Reason.${entry.reason}`) });
        }
        say(2, text);
        const out: TimelineEntry = { combatant: entry.combatant, name, kind: entry.kind, action: entry.action, outcome, text };
        if (entry.routine !== undefined) out.routine = entry.routine;
        if (entry.target !== undefined) out.target = entry.target;
        if (entry.casting !== undefined) out.casting = entry.casting;
        if (casting) out.spell = casting.spell;
        if (entry.reason !== undefined) out.reason = entry.reason;
        return out;
      });
      const damage = st.damage.map((d) => {
        const data: Data = { target: nameOf(d.target), amount: d.amount, by: nameOf(d.by), wounds: d.wounds, stress: d.amount - d.wounds };
        const split = d.wounds !== d.amount;
        const key = split
          ? d.by !== undefined
            ? 'TENSEG.Sim.DamageSplit'
            : 'TENSEG.Sim.DamageSplitNoSource'
          : d.by !== undefined
            ? 'TENSEG.Sim.Damage'
            : 'TENSEG.Sim.DamageNoSource';
        return { ...d, text: say(3, t.format(key, data)) };
      });
      const interruptions = st.interruptions.map((x) => {
        const data = { name: nameOf(x.caster), spell: x.spell || t.format('TENSEG.Sim.UnnamedSpell') };
        const key = x.outcome === 'prevented' ? 'TENSEG.Sim.Prevented' : x.expended ? 'TENSEG.Sim.Interrupted' : 'TENSEG.Sim.InterruptedKept';
        return { ...x, text: say(3, t.format(key, data)) };
      });
      const fallen = st.fallen.map((f) => ({ ...f, text: say(3, t.format(`TENSEG.Sim.Falls.${f.condition}`, { name: nameOf(f.combatant) })) }));
      const step: TimelineStep = { index: st.index, phase: st.phase, heading: stepHeading, entries, damage, interruptions, fallen };
      if (st.segment !== undefined) step.segment = st.segment;
      if (st.count !== undefined) step.count = st.count;
      return step;
    });

    const unapplied = r.unapplied.map((d) => {
      const data = { amount: d.amount, target: nameOf(d.target), by: nameOf(d.by) };
      return { ...d, text: say(1, t.format(d.by !== undefined ? 'TENSEG.Sim.Unapplied' : 'TENSEG.Sim.UnappliedPlaced', data)) };
    });
    const carryOut = r.carryOut.map((c) => ({
      casting: c.id,
      caster: c.caster,
      spell: c.spell,
      remaining: c.remaining,
      text: say(1, t.format('TENSEG.Sim.CarryOut', { name: nameOf(c.caster), spell: spellName(c, 'spell'), remaining: c.remaining })),
    }));
    const end = (r.end?.events ?? []).map(endEvent);
    const standingNow = standing(r.states);
    say(1, t.format('TENSEG.Sim.EndOfRound'));
    for (const e of end) say(2, e.text);
    for (const x of standingNow) say(2, x.text);
    rounds.push({
      round: r.round,
      kind: surpriseRound ? 'surprise' : 'round',
      heading,
      joins,
      initiative,
      carryIn,
      steps,
      unapplied,
      carryOut,
      end,
      standing: standingNow,
      states: r.states,
    });
  };

  if (log.surpriseRound) playRound(log.surpriseRound, true);
  for (const r of log.rounds) playRound(r, false);

  // The last round's standing is the final one; it is printed there (JSON keeps it in `final` too).
  const finalStanding = standing(log.states);
  if (rounds.length === 0) {
    say(0, '');
    say(0, t.format('TENSEG.Sim.Final', { round: 0 }));
    for (const x of finalStanding) say(1, x.text);
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
    openingMorale,
    baseInitiative: log.baseInitiative,
    surprise: { unit: log.surprise.unit, rolls: log.surprise.rolls, surprised: log.surprise.surprised, lines: surpriseLines },
    timeline: rounds,
    final: { states: log.states, standing: finalStanding },
    dice: dice.log.map((d) => {
      const out: Timeline['dice'][number] = {
        purpose: d.request.purpose,
        count: d.request.count,
        faces: d.request.faces,
        result: d.result,
        scripted: d.scripted,
      };
      if (d.request.side !== undefined) out.side = d.request.side;
      if (d.request.combatant !== undefined) out.combatant = d.request.combatant;
      if (d.request.round !== undefined) out.round = d.request.round;
      if (d.index !== undefined) out.index = d.index;
      return out;
    }),
    lines,
  };
  if (scenario.title) timeline.title = scenario.title;
  if (scenario.description) timeline.description = scenario.description;
  return timeline;
}

/* ------------------------------------------------------------------ main */

export interface SimIO {
  /** Where relative file names are resolved (the directory `npm run` was called from). */
  cwd: string;
  /** Repository root: lang files and the bundled example. */
  root: string;
  /** Seed used when --seed is not given. */
  defaultSeed: () => number;
}

export interface SimResult {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

function defaultIO(): SimIO {
  return {
    cwd: process.env.INIT_CWD ?? process.cwd(),
    root: ROOT,
    defaultSeed: () => (Date.now() ^ (process.pid << 8)) >>> 0,
  };
}

/** Run the CLI on arguments; returns what to print and the exit code (no process side effects). */
export function simulate(argv: readonly string[], procedures: ProcedureTable, ioIn: Partial<SimIO> = {}): SimResult {
  const io: SimIO = { ...defaultIO(), ...ioIn };
  const t = new Strings(loadStrings(io.root));
  const { flags, problems: flagProblems } = parseFlags(argv);

  type Positioned = Problem & { at?: { line: number; column: number } };
  const report = (problems: Positioned[], file: string | null, located?: Located, code: 1 | 2 = 2): SimResult => {
    const items = problems.map((p) => {
      const message = t.format(`TENSEG.Error.${p.key}`, p.data ?? {});
      const pos = p.at ?? located?.locate(p.path);
      const where = file ?? '';
      const base = { key: p.key, data: p.data ?? {}, path: p.path ?? null, line: pos?.line ?? null, column: pos?.column ?? null };
      const text = p.path?.startsWith('-')
        ? t.format('TENSEG.Sim.ProblemFlag', { message })
        : pos
          ? p.path
            ? t.format('TENSEG.Sim.ProblemLine', { file: where, line: pos.line, column: pos.column, path: p.path, message })
            : t.format('TENSEG.Sim.ProblemLineOnly', { file: where, line: pos.line, column: pos.column, message })
          : p.path
            ? t.format('TENSEG.Sim.ProblemPath', { file: where, path: p.path, message })
            : file === null
              ? t.format('TENSEG.Sim.ProblemFlag', { message })
              : t.format('TENSEG.Sim.ProblemPlain', { file, message });
      return { ...base, text };
    });
    // Flag problems: nothing was read, so no summary about a file.
    const summary = file === null ? null : t.format('TENSEG.Sim.Broken', { file, count: problems.length });
    if (flags.json) {
      return { code, stdout: JSON.stringify({ ok: false, file, problems: items, summary }, null, 2) + '\n', stderr: '' };
    }
    const out = items.map((i) => i.text);
    if (summary) out.push(summary);
    return { code, stdout: '', stderr: out.join('\n') + '\n' };
  };

  if (flags.help) {
    return { code: flagProblems.length > 0 ? 2 : 0, stdout: t.format('TENSEG.Sim.Usage', { ids: PROCEDURE_IDS.join(', ') }) + '\n', stderr: '' };
  }
  if (flagProblems.length > 0) {
    const r = report(flagProblems, null);
    return { ...r, stderr: r.stderr + (flags.json ? '' : t.format('TENSEG.Sim.Usage', { ids: PROCEDURE_IDS.join(', ') }) + '\n') };
  }

  const path = flags.file ? resolve(io.cwd, flags.file) : join(io.root, EXAMPLE);
  const shown = flags.file ?? relative(io.cwd, path) ?? EXAMPLE;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
    return report([{ key: 'FileUnreadable', data: { reason } }], shown);
  }
  const located = parseScenarioText(text);
  if (located.syntax.length > 0) {
    const problems: Positioned[] = located.syntax.map((x) => ({
      key: 'YamlSyntax',
      data: { detail: x.detail },
      at: { line: x.line, column: x.column },
    }));
    return report(problems, shown);
  }

  const validation = validateScenario(located.value, procedures, { procedure: flags.procedure, rounds: flags.rounds });
  if (!validation.ok) return report(validation.problems, shown, located);

  const seed = flags.seed ?? io.defaultSeed();
  const result = runScenario(validation.scenario, new RandomDice(seed));
  if (!result.ok) return report(result.problems, shown, located, result.internal ? 1 : 2);

  const timeline = buildTimeline(validation.scenario, result.log, result.dice, seed, shown, t);
  if (flags.json) return { code: 0, stdout: JSON.stringify(timeline, null, 2) + '\n', stderr: '' };
  return { code: 0, stdout: timeline.lines.join('\n') + '\n', stderr: '' };
}

/* When run as a program (tsx src/cli/sim.ts …). */
const invoked = process.argv[1] ? resolve(process.argv[1]) : '';
if (invoked === fileURLToPath(import.meta.url)) {
  try {
    const { PROCEDURES } = await import('../rules/registry');
    const r = simulate(process.argv.slice(2), PROCEDURES);
    if (r.stdout) process.stdout.write(r.stdout);
    if (r.stderr) process.stderr.write(r.stderr);
    process.exitCode = r.code;
  } catch (e) {
    const t = new Strings(loadStrings());
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    process.stderr.write(t.format('TENSEG.Error.EngineFault', { procedure: '?', message }) + '\n');
    process.exitCode = 1;
  }
}
