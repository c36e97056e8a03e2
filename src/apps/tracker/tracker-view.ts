/**
 * The tracker's template context, made from the timeline view (what this
 * viewer may see: a player's view has no monsters' declarations, no exact
 * health of other sides, no hidden combatants) and a few Foundry facts per
 * combatant. Pure: no Foundry global; strings come through `i18n`. A chunk of
 * its own, loaded by combat-tracker.ts when the tracker is first drawn.
 */
import type { CastingView, ChargeView, CombatantView, EntryView, StepView, TimelineView } from '../../rules/timeline';
import type { ControlView } from './controls';
import type { Declaration } from '../../rules/model';
import type { ClockView } from '../../documents/declaring-in-turn';
import { ROUTED_ACTIONS } from '../../rules/flow/acting';
import { formatPlural } from '../../plural';

export interface Strings {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
  /** The client's language and whether a key has a string (game.i18n's): they pick a counted string's form (src/plural.ts). */
  lang?: string;
  has?(key: string): boolean;
}

/** What Foundry knows of a combatant that the timeline does not. */
export interface CombatantFacts {
  img: string;
  /** This user owns it (a GM: every one). */
  owned: boolean;
  defeated: boolean;
  /** Its actor's id: identical monsters share one. */
  actorId?: string;
  /**
   * The compendium document its actor was imported from (`_stats.compendiumSource`, v12+; older worlds'
   * `flags.core.sourceId`): two actors imported from one stat block are identical monsters too.
   */
  sourceId?: string;
}

/** Before the combat starts: the sides and their members, as the documents say. */
export interface Roster {
  sides: { id: string; name: string; alerted: boolean; surprised: boolean }[];
  combatants: { id: string; name: string; side: string }[];
}

export interface TrackerViewInput {
  /** The round as this viewer sees it; null before the combat starts. */
  view: TimelineView | null;
  roster: Roster;
  facts: Record<string, CombatantFacts>;
  gm: boolean;
  controls: ControlView[];
  rows: Record<string, ControlView[]>;
  /**
   * The GM's client only: every declaration as the GM knows it, the plans held
   * until initiative included (combat.gmDeclarations); absent for a player.
   */
  gmDeclarations?: Record<string, Declaration>;
  /** The collapsed rows (identical monsters) this tracker has opened, by their `key`. */
  open?: ReadonlySet<string>;
  i18n: Strings;
}

export interface HealthContext {
  exact: boolean;
  text: string;
  /** Percentage of the bar (exact health only). */
  pct?: number;
  css: string;
}

export interface RowContext {
  id: string;
  /** Every member's id (identical monsters shown once). */
  ids: string;
  name: string;
  img: string;
  count: number;
  /** Shown once for several identical monsters. */
  multiple: boolean;
  css: string;
  health: HealthContext[];
  /**
   * The declared action (where this viewer may see it), or a word about the declaration. `struck`: why its combatant
   * no longer does it (TENSEG.CannotAct.*, in words: "dead", "routed: may only flee"); the row draws it struck through.
   */
  declaration: { icon: string; text: string; detail: string; css: string; struck: string } | null;
  badges: { icon: string; text: string; css: string }[];
  initiative: string;
  controls: ControlView[];
  /**
   * Identical monsters in the same state shown once ("Orc ×5"): the key of their kind (the tracker remembers which
   * it has opened, whatever their state since), its members' own rows (each with its controls), whether it is open,
   * and its disclosure's label. A single row: '' and none.
   */
  key: string;
  members: RowContext[];
  open: boolean;
  toggle: string;
}

export interface SideContext {
  id: string;
  name: string;
  css: string;
  dice: { label: string; value: string }[];
  tags: { text: string; css: string }[];
  rows: RowContext[];
}

export interface EntryContext {
  combatantId: string;
  name: string;
  img: string;
  icon: string;
  text: string;
  detail: string;
  outcome: string;
  /** Why its combatant no longer takes this action (in words), drawn struck through; '' when it may. */
  struck: string;
  css: string;
}

export interface EventContext {
  icon: string;
  text: string;
  css: string;
}

export interface StepContext {
  index: number;
  label: string;
  /** The step's own label differs from its column's (a phase within a segment). */
  showLabel: boolean;
  css: string;
  current: boolean;
  entries: EntryContext[];
  events: EventContext[];
}

export interface ColumnContext {
  label: string;
  css: string;
  segment: string;
  steps: StepContext[];
}

/** addict, declaring in turn: who is called and the running clock (the tracker fills it in). */
export interface ClockContext {
  combatantId: string;
  /** "0:13" */
  text: string;
  segments: number;
  running: boolean;
  /** "Called: Brand" */
  label: string;
  /** running, paused, answered (in words) */
  status: string;
  /** "1 segment of delay so far" */
  delay: string;
  css: string;
}

export interface TrackerContext {
  started: boolean;
  gm: boolean;
  title: string;
  stage: string;
  currentLabel: string;
  initiative: string;
  sides: SideContext[];
  columns: ColumnContext[];
  carryIn: EventContext[];
  carryOut: EventContext[];
  end: EventContext[];
  controls: ControlView[];
  labels: Record<string, string>;
  /** addict, declaring in turn: the called player's clock (absent otherwise). */
  clock?: ClockContext | null;
}

/** Font Awesome 6 (as Foundry ships it) for each declared action. */
export const ACTION_ICONS: Record<string, string> = {
  melee: 'fa-solid fa-sword',
  missile: 'fa-solid fa-bow-arrow',
  spell: 'fa-solid fa-wand-sparkles',
  device: 'fa-solid fa-wand-magic',
  'turn-undead': 'fa-solid fa-ankh',
  charge: 'fa-solid fa-person-running',
  flee: 'fa-solid fa-person-walking-arrow-right',
  parley: 'fa-solid fa-comments',
  wait: 'fa-solid fa-hourglass-half',
  'set-vs-charge': 'fa-solid fa-shield-halved',
  'full-defense': 'fa-solid fa-shield',
  'defensive-attack': 'fa-solid fa-shield-halved',
  consumable: 'fa-solid fa-flask',
  throw: 'fa-solid fa-hand-holding',
  delay: 'fa-solid fa-clock',
  complex: 'fa-solid fa-gears',
  move: 'fa-solid fa-shoe-prints',
  other: 'fa-solid fa-circle-question',
  none: 'fa-solid fa-ban',
};

const K = 'TENSEG.Timeline.';

function fmt(i18n: Strings, key: string, data: Record<string, string | number>): string {
  return i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])));
}

function health(c: CombatantView, i18n: Strings): HealthContext {
  const h = c.health;
  if (h) {
    const max = h.maxHp ?? 0;
    const pct = max > 0 ? Math.max(0, Math.min(100, Math.round((h.hp / max) * 100))) : 100;
    const text = max > 0 ? `${h.hp}/${max}` : String(h.hp);
    return { exact: true, text, pct, css: `ts-health exact ${pct <= 25 ? 'low' : pct <= 50 ? 'mid' : 'high'}` };
  }
  const word = c.condition === 'ok' ? i18n.localize(`${K}Fighting`) : i18n.localize(`TENSEG.Sim.Condition.${c.condition}`);
  return { exact: false, text: word, css: `ts-health word ${c.condition}` };
}

function declarationOf(c: CombatantView, input: TrackerViewInput): RowContext['declaration'] {
  const { i18n, gmDeclarations } = input;
  const d = gmDeclarations ? gmDeclarations[c.id] : c.declaration;
  const declared = gmDeclarations ? !!d : c.declared;
  // Issue 28: one who cannot act has its declaration struck with the reason; a routed one's flight stands, and a
  // flight unseen (another side's declaration) is not struck on a guess.
  const why = c.struck && !(c.struck === 'routed' && (!d || ROUTED_ACTIONS.has(d.action))) ? i18n.localize(`TENSEG.CannotAct.${c.struck}`) : '';
  const struck = why ? ' struck' : '';
  if (d) {
    // A plan the GM holds until initiative: only the GM's screen shows it.
    const held = !c.declaration;
    const detail = d.spell ?? d.weapon?.name ?? '';
    const time = d.spell && d.castingTime !== undefined ? ` (${formatPlural(i18n, `${K}Segments`, d.castingTime, { n: d.castingTime })})` : '';
    const action = i18n.localize(`TENSEG.Sim.Action.${d.action}`);
    // Marked held, with its target (README, the tracker): the GM reads the plan the players do not see.
    const target = held && d.target ? input.view?.combatants.find((x) => x.id === d.target)?.name : undefined;
    const text = held ? fmt(i18n, `${K}HeldPlan`, { action }) : action;
    return { icon: ACTION_ICONS[d.action] ?? ACTION_ICONS.other, text, detail: [detail + time, target ? `→ ${target}` : ''].filter(Boolean).join(' '), css: `ts-declaration action-${d.action}${held ? ' held' : ''}${struck}`, struck: why };
  }
  if (declared) return { icon: 'fa-solid fa-check', text: i18n.localize(`${K}Declared`), detail: '', css: `ts-declaration declared${struck}`, struck: why };
  if (c.mayDeclare) return { icon: 'fa-solid fa-hourglass', text: i18n.localize(`${K}NotDeclared`), detail: '', css: 'ts-declaration pending', struck: '' };
  // Nothing declared and nothing it may declare: the reason alone.
  if (why) return { icon: 'fa-solid fa-ban', text: '', detail: '', css: 'ts-declaration struck none', struck: why };
  return null;
}

/**
 * Identical monsters (the same actor, or actors from the same compendium stat block) in the same state as the row
 * shows it (initiative, declaration — "not declared yet" too —, badges, health in words, defeated, acting, struck):
 * shown once, opening to its members. A player's own combatants are never collapsed.
 */
function groupKey(c: CombatantView, facts: CombatantFacts | undefined, row: RowContext, gm: boolean): Grouping | null {
  const identity = facts?.sourceId ?? facts?.actorId;
  if (!identity || (facts?.owned && !gm)) return null;
  return {
    key: JSON.stringify([identity, c.side, row.initiative, row.css, c.condition, row.declaration, row.badges, c.health ? null : row.health[0].text]),
    kind: JSON.stringify([identity, c.side]),
  };
}

/**
 * How a row groups: `key`, the kind and the state (rows with the same one are shown once); `kind`, the kind alone
 * (identity and side): what the tracker remembers as opened, so a row stays open while its monsters' state moves on
 * (declared, acting now) and each row of that kind a state splits off opens the same way.
 */
interface Grouping {
  key: string;
  kind: string;
}

/** A short, stable name for a group's kind (FNV-1a): the tracker remembers the opened ones by it. */
function hashKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** A group's name: its members' names without their numbers ("Orc 1", "Orc 2" → "Orc") where they agree, else the first's. */
function groupName(members: readonly RowContext[]): string {
  const bare = members.map((m) => m.name.replace(/(\s+#?|\s*#)\d+$/, '').trim());
  return bare[0] && bare.every((b) => b === bare[0]) ? bare[0] : members[0].name;
}

/** Who acts (acts, begins or completes a casting) in the step being played, per view: the rows drawn as acting now. */
const actingCache = new WeakMap<TimelineView, ReadonlySet<string>>();
function actingNow(view: TimelineView | null): ReadonlySet<string> {
  if (!view) return new Set();
  let found = actingCache.get(view);
  if (!found) {
    const now = view.steps.find((s) => s.when === 'current');
    const ids = (now?.entries ?? []).filter((e) => e.outcome === 'acts' || e.outcome === 'begins' || e.outcome === 'goes-off').map((e) => e.combatant);
    actingCache.set(view, (found = new Set(ids)));
  }
  return found;
}

function row(c: CombatantView, input: TrackerViewInput): RowContext {
  const { i18n, facts } = input;
  const f = facts[c.id];
  const badges: RowContext['badges'] = [];
  if (c.stillSurprised) badges.push({ icon: 'fa-solid fa-face-surprise', text: i18n.localize('TENSEG.Status.surprised'), css: 'surprised' });
  if (c.delayed) badges.push({ icon: 'fa-solid fa-clock', text: i18n.localize('TENSEG.Status.delayed'), css: 'delayed' });
  if (c.routed) badges.push({ icon: 'fa-solid fa-person-running', text: i18n.localize('TENSEG.Status.routed'), css: 'routed' });
  if (c.surrendered) badges.push({ icon: 'fa-solid fa-flag', text: i18n.localize('TENSEG.Status.surrendered'), css: 'surrendered' });
  // A morale check this round: held (broken shows as routed), or called and waiting for the end of the round.
  if (c.morale === 'held') badges.push({ icon: 'fa-solid fa-flag', text: i18n.localize('TENSEG.Status.moraleHeld'), css: 'morale-held' });
  if (c.morale === 'called') badges.push({ icon: 'fa-solid fa-hourglass', text: i18n.localize('TENSEG.Status.moraleCalled'), css: 'morale-called' });
  if (c.label) badges.push({ icon: 'fa-solid fa-tag', text: i18n.localize(`${K}Label.${c.label}`), css: `label-${c.label}` });
  if (c.neverSurprised) badges.push({ icon: 'fa-solid fa-eye', text: i18n.localize(`${K}NeverSurprised`), css: 'never-surprised' });
  // Down but still in it (individual-speed's Incapacitated and Dying act): where the row shows a bar, not the word, say it.
  if ((c.condition === 'dying' || c.condition === 'incapacitated') && !c.struck && c.health) {
    badges.push({ icon: 'fa-solid fa-heart-pulse', text: i18n.localize(`TENSEG.Sim.Condition.${c.condition}`), css: `condition-${c.condition}` });
  }
  const defeated = !!f?.defeated || c.condition === 'dead';
  const declaration = declarationOf(c, input);
  return {
    id: c.id,
    ids: c.id,
    name: c.name,
    img: f?.img ?? '',
    count: 1,
    multiple: false,
    css: ['combatant', 'ts-row', defeated ? 'defeated' : '', f?.owned ? 'owned' : '', actingNow(input.view).has(c.id) ? 'acting' : '', c.stillSurprised ? 'surprised' : '', declaration?.css.includes('pending') ? 'undeclared' : ''].filter(Boolean).join(' '),
    health: [health(c, i18n)],
    declaration,
    badges,
    initiative: c.initiative !== undefined ? String(c.initiative) : '',
    controls: input.rows[c.id] ?? [],
    key: '',
    members: [],
    open: false,
    toggle: '',
  };
}

/**
 * The rows of a side: identical monsters in the same state collapsed into one row ("Orc ×5", its first member's
 * id and controls, every member's id in `ids`) that opens to its members' own rows; the others one row each.
 */
function collapse(list: readonly { row: RowContext; group: Grouping | null }[], input: TrackerViewInput): RowContext[] {
  const out: RowContext[] = [];
  const byKey = new Map<string, RowContext[]>();
  const groupOf = new Map<RowContext, Grouping>();
  for (const { row: r, group } of list) {
    const same = group ? byKey.get(group.key) : undefined;
    if (same) {
      same.push(r);
      continue;
    }
    if (group) {
      byKey.set(group.key, [r]);
      groupOf.set(r, group);
    }
    out.push(r);
  }
  return out.map((first) => {
    const group = groupOf.get(first);
    const rows = group ? byKey.get(group.key) : undefined;
    if (!group || !rows || rows.length < 2) return first;
    const key = hashKey(group.kind);
    const open = !!input.open?.has(key);
    // Exact health (the GM's): the members' hit points together; in words (a player's): the one word they share.
    const exact = rows.every((m) => m.health[0]?.exact);
    let health = first.health;
    if (exact) {
      const [hp, max] = rows.reduce(([a, b], m) => { const [x, y = '0'] = m.health[0].text.split('/'); return [a + Number(x), b + Number(y)]; }, [0, 0]);
      const pct = max > 0 ? Math.max(0, Math.min(100, Math.round((hp / max) * 100))) : 100;
      health = [{ exact: true, text: max > 0 ? `${hp}/${max}` : String(hp), pct, css: `ts-health exact ${pct <= 25 ? 'low' : pct <= 50 ? 'mid' : 'high'}` }];
    }
    return {
      ...first,
      ids: rows.map((m) => m.id).join(' '),
      name: groupName(rows),
      count: rows.length,
      multiple: true,
      css: `${first.css} ts-group${open ? ' open' : ''}`,
      health,
      key,
      members: rows.map((m) => ({ ...m, css: `${m.css} ts-member` })),
      open,
      toggle: fmt(input.i18n, open ? `${K}GroupClose` : `${K}GroupOpen`, { n: rows.length }),
    };
  });
}

function sideRows(list: CombatantView[], input: TrackerViewInput): RowContext[] {
  return collapse(
    list.map((c) => {
      const r = row(c, input);
      return { row: r, group: groupKey(c, input.facts[c.id], r, input.gm) };
    }),
    input,
  );
}

function names(view: TimelineView): Map<string, string> {
  return new Map(view.combatants.map((c) => [c.id, c.name]));
}

function entry(e: EntryView, view: TimelineView, input: TrackerViewInput, name: (id: string) => string): EntryContext {
  const { i18n } = input;
  const decl = view.combatants.find((c) => c.id === e.combatant)?.declaration;
  let text: string;
  let detail = '';
  let icon = ACTION_ICONS[e.action] ?? ACTION_ICONS.other;
  if (e.kind === 'cast-begin') {
    text = e.spell ? fmt(i18n, `${K}Begins`, { spell: e.spell }) : i18n.localize(e.choosing ? `${K}Choosing` : `${K}BeginsUnnamed`);
    if (e.castingTime !== undefined) detail = formatPlural(i18n, `${K}Segments`, e.castingTime, { n: e.castingTime });
  } else if (e.kind === 'cast-complete') {
    icon = 'fa-solid fa-burst';
    text = e.spell ? fmt(i18n, `${K}GoesOff`, { spell: e.spell }) : i18n.localize(`${K}GoesOffUnnamed`);
  } else if (e.kind === 'late-join') {
    icon = 'fa-solid fa-user-plus';
    text = i18n.localize(`${K}Joins`);
  } else {
    text = i18n.localize(`TENSEG.Sim.Action.${e.action}`);
    detail = decl?.weapon?.name ?? '';
    if (e.routine !== undefined && e.kind === 'routine') detail = [detail, fmt(i18n, `${K}Routine`, { n: e.routine + 1 })].filter(Boolean).join(', ');
  }
  if (e.target) {
    const t = name(e.target);
    if (t) detail = [detail, `→ ${t}`].filter(Boolean).join(' ');
  }
  return {
    combatantId: e.combatant,
    name: name(e.combatant),
    img: input.facts[e.combatant]?.img ?? '',
    icon,
    text,
    detail,
    outcome: e.outcome && e.outcome !== 'acts' ? i18n.localize(`${K}Outcome.${e.outcome}`) : '',
    struck: e.struck ? i18n.localize(`TENSEG.CannotAct.${e.struck}`) : '',
    css: `ts-entry kind-${e.kind}${e.outcome ? ` outcome-${e.outcome}` : ''}${e.struck ? ' struck' : ''}`,
  };
}

const CHARGE_CSS: Record<ChargeView['key'], string> = { 'TENSEG.Charge.Closing': 'closing', 'TENSEG.Charge.Arrives': 'arrives', 'TENSEG.Charge.FallsShort': 'falls-short' };

function events(step: StepView, input: TrackerViewInput, name: (id: string) => string): EventContext[] {
  const { i18n } = input;
  const out: EventContext[] = [];
  // A charger's progress first (charges.ts): where it stands when the step's blows land. The view gives a player only what it may see.
  for (const c of step.charges ?? []) {
    out.push({ icon: ACTION_ICONS.charge, text: fmt(i18n, c.key, { ...c.data, name: name(c.combatant) || c.data.name }), css: `ts-event charge ${CHARGE_CSS[c.key]}` });
  }
  for (const i of step.interruptions) {
    const key = i.broken ? `${K}Broken` : i.outcome === 'prevented' ? `${K}Prevented` : `${K}Interrupted`;
    out.push({ icon: 'fa-solid fa-bolt-lightning', text: fmt(i18n, key, { name: name(i.caster), spell: i.spell }), css: `ts-event interruption ${i.outcome}` });
  }
  for (const d of step.damage) {
    const by = d.by ? name(d.by) : '';
    // individual-speed: the Wound Point a hurt combatant pays for acting is no blow it dealt itself.
    if (d.strain) {
      out.push({ icon: 'fa-solid fa-droplet', text: formatPlural(i18n, `${K}Strain`, d.amount, { name: name(d.target), amount: d.amount }), css: 'ts-event damage strain' });
      continue;
    }
    const text = by ? fmt(i18n, `${K}DamageBy`, { name: name(d.target), amount: d.amount, by }) : fmt(i18n, `${K}Damage`, { name: name(d.target), amount: d.amount });
    out.push({ icon: 'fa-solid fa-droplet', text, css: `ts-event damage${d.critical ? ' critical' : ''}` });
  }
  for (const f of step.fallen) {
    out.push({ icon: 'fa-solid fa-skull', text: fmt(i18n, `${K}Falls`, { name: name(f.combatant), condition: i18n.localize(`TENSEG.Sim.Condition.${f.condition}`) }), css: `ts-event fallen ${f.condition}` });
  }
  for (const j of step.joins) out.push({ icon: 'fa-solid fa-user-plus', text: fmt(i18n, `${K}Joined`, { name: name(j) }), css: 'ts-event join' });
  for (const m of step.midRound ?? []) {
    if (m.kind === 'delay') out.push({ icon: 'fa-solid fa-clock', text: fmt(i18n, `${K}Delays`, { name: name(m.combatant) }), css: 'ts-event midround delay' });
    else if (m.kind === 'release') {
      out.push({ icon: 'fa-solid fa-play', text: fmt(i18n, `${K}Releases`, { name: name(m.combatant), action: i18n.localize(`TENSEG.Sim.Action.${m.action}`) }), css: 'ts-event midround release' });
    } else {
      const text = m.spell ? fmt(i18n, `${K}GivesUp`, { name: name(m.combatant), spell: m.spell }) : fmt(i18n, `${K}GivesUpUnnamed`, { name: name(m.combatant) });
      out.push({ icon: 'fa-solid fa-ban', text, css: 'ts-event midround cancel' });
    }
  }
  return out;
}

function stepLabel(step: StepView, view: TimelineView, i18n: Strings): string {
  if (step.count !== undefined) return fmt(i18n, `${K}Count`, { n: step.count });
  if (step.segment !== undefined) return fmt(i18n, view.kind === 'surprise' ? `${K}SurpriseSegment` : `${K}Segment`, { n: step.segment });
  return i18n.localize(`TENSEG.Phase.${step.phase}`);
}

/**
 * The header's label of the step being played: where several steps share its segment (or count) — addict's action
 * letters, segment-d6's interrupts, a casting going off before the segment's actions — which of them, so each Next
 * visibly moves on ("Segment 1 · step 1 of 2").
 */
function currentStepLabel(step: StepView, view: TimelineView, i18n: Strings): string {
  const label = stepLabel(step, view, i18n);
  if (step.segment === undefined && step.count === undefined) return label;
  const same = view.steps.filter((s) => s.segment === step.segment && s.count === step.count);
  if (same.length < 2) return label;
  return fmt(i18n, `${K}StepOf`, { label, n: same.indexOf(step) + 1, of: same.length });
}

function stepContext(step: StepView, view: TimelineView, input: TrackerViewInput, name: (id: string) => string): StepContext {
  const current = step.when === 'current';
  return {
    index: step.index,
    label: stepLabel(step, view, input.i18n),
    showLabel: false,
    css: ['ts-step', step.when, view.kind === 'surprise' ? 'surprise' : ''].filter(Boolean).join(' '),
    current,
    entries: step.entries.map((e) => entry(e, view, input, name)),
    events: events(step, input, name),
  };
}

/**
 * Columns: segments 1–10 (each with its steps, the empty ones too) for
 * segment procedures; otherwise one column a moment — consecutive steps that
 * read the same (two steps of one surprise segment, of one count) share it.
 */
function columns(view: TimelineView, input: TrackerViewInput, name: (id: string) => string): ColumnContext[] {
  const steps = view.steps.map((s) => ({ s, ctx: stepContext(s, view, input, name) }));
  const segmented = view.kind === 'round' && view.steps.length > 0 && view.steps.every((s) => s.segment !== undefined && s.count === undefined);
  const column = (label: string, segment: string, list: StepContext[]): ColumnContext => ({
    label,
    segment,
    css: ['ts-column', list.some((c) => c.current) ? 'current' : '', list.length === 0 ? 'empty' : ''].filter(Boolean).join(' '),
    steps: list,
  });
  if (!segmented) {
    const out: ColumnContext[] = [];
    for (const { ctx, s } of steps) {
      const last = out.at(-1);
      if (last?.label === ctx.label) out[out.length - 1] = column(last.label, last.segment, [...last.steps, ctx]);
      else out.push(column(ctx.label, s.segment !== undefined ? String(s.segment) : '', [ctx]));
    }
    return out;
  }
  const out: ColumnContext[] = [];
  for (let n = 1; n <= 10; n++) {
    const label = fmt(input.i18n, `${K}Segment`, { n });
    const list = steps.filter(({ s }) => s.segment === n).map(({ ctx }) => ({ ...ctx, showLabel: ctx.label !== label }));
    out.push(column(label, String(n), list));
  }
  return out;
}

function carried(list: CastingView[], input: TrackerViewInput, name: (id: string) => string, out: boolean): EventContext[] {
  const { i18n } = input;
  return list.map((c) => {
    const text = c.spell
      ? formatPlural(i18n, out ? `${K}CarryOut` : `${K}CarryIn`, c.remaining ?? c.castingTime ?? NaN, { name: name(c.caster), spell: c.spell, n: c.remaining ?? c.castingTime ?? '?' })
      : fmt(i18n, `${K}CastingUnnamed`, { name: name(c.caster) });
    return { icon: 'fa-solid fa-hourglass-half', text, css: `ts-event carry ${c.status}` };
  });
}

function endEvents(view: TimelineView, input: TrackerViewInput, name: (id: string) => string): EventContext[] {
  const { i18n } = input;
  return (view.end ?? []).map((e) => {
    if (e.kind === 'bleed') return { icon: 'fa-solid fa-droplet', text: fmt(i18n, `${K}Bleeds`, { name: name(e.combatant), amount: e.amount }), css: 'ts-event bleed' };
    if (e.kind === 'death') return { icon: 'fa-solid fa-skull', text: fmt(i18n, `${K}Dies`, { name: name(e.combatant) }), css: 'ts-event death' };
    if (e.kind === 'morale') {
      return { icon: 'fa-solid fa-flag', text: fmt(i18n, e.passed ? `${K}MoraleHolds` : `${K}MoraleBreaks`, { name: name(e.combatant) }), css: `ts-event morale ${e.passed ? 'passed' : 'failed'}` };
    }
    return { icon: 'fa-solid fa-circle-info', text: name((e as { combatant: string }).combatant), css: 'ts-event' };
  });
}

function stageLabel(view: TimelineView, i18n: Strings): string {
  return i18n.localize(`${K}Stage.${view.stage}`);
}

function labels(i18n: Strings): Record<string, string> {
  const keys = ['Timeline', 'Sides', 'NotStarted', 'CarryIn', 'CarriedOut', 'EndOfRound', 'NoSteps', 'Health', 'Initiative'];
  return Object.fromEntries(keys.map((k) => [k, i18n.localize(`${K}Heading.${k}`)]));
}

/** The called player's clock as the tracker shows it (addict, declaring in turn). */
export function clockContext(view: ClockView, name: string, i18n: Strings): ClockContext {
  const state = view.paused ? 'paused' : view.running ? 'running' : 'answered';
  return {
    combatantId: view.combatant,
    text: view.text,
    segments: view.segments,
    running: view.running,
    label: i18n.format('TENSEG.Tracker.Called', { name }),
    status: i18n.localize(`TENSEG.Tracker.Clock.${state}`),
    delay: formatPlural(i18n, 'TENSEG.Tracker.ClockDelay', view.segments, { n: view.segments }),
    css: `ts-clock ${state}`,
  };
}

/** The context of the tracker's templates. */
export function trackerContext(input: TrackerViewInput): TrackerContext {
  const { view, i18n } = input;
  if (!view) {
    const sides: SideContext[] = input.roster.sides.map((s) => {
      const tags: SideContext['tags'] = [];
      if (s.alerted) tags.push({ text: i18n.localize(`${K}Alerted`), css: 'alerted' });
      if (s.surprised) tags.push({ text: i18n.localize(`${K}SurprisedSide`), css: 'surprised' });
      const listed = input.roster.combatants
        .filter((c) => c.side === s.id && input.facts[c.id])
        .map((c): { row: RowContext; group: Grouping | null } => {
          const f = input.facts[c.id];
          const identity = f.sourceId ?? f.actorId;
          const row: RowContext = {
            id: c.id,
            ids: c.id,
            name: c.name,
            img: f.img,
            count: 1,
            multiple: false,
            css: ['combatant', 'ts-row', f.defeated ? 'defeated' : '', f.owned ? 'owned' : ''].filter(Boolean).join(' '),
            health: [],
            declaration: null,
            badges: [],
            initiative: '',
            controls: input.rows[c.id] ?? [],
            key: '',
            members: [],
            open: false,
            toggle: '',
          };
          return { row, group: identity && !(f.owned && !input.gm) ? { key: JSON.stringify([identity, s.id, row.css]), kind: JSON.stringify([identity, s.id]) } : null };
        });
      return { id: s.id, name: s.name, css: 'ts-side', dice: [], tags, rows: collapse(listed, input) };
    });
    return {
      started: false,
      gm: input.gm,
      title: i18n.localize(`${K}NotStartedTitle`),
      stage: '',
      currentLabel: '',
      initiative: '',
      sides,
      columns: [],
      carryIn: [],
      carryOut: [],
      end: [],
      controls: input.controls,
      labels: labels(i18n),
    };
  }
  const byId = names(view);
  const name = (id: string) => byId.get(id) ?? '';
  const sides: SideContext[] = view.sides.map((s) => {
    const members = view.combatants.filter((c) => c.side === s.id);
    const dice: SideContext['dice'] = [];
    if (s.surpriseRoll !== undefined) dice.push({ label: i18n.localize(`${K}SurpriseDie`), value: String(s.surpriseRoll) });
    if (s.initiative !== undefined) dice.push({ label: i18n.localize(`${K}InitiativeDie`), value: String(s.initiative) });
    const tags: SideContext['tags'] = [];
    if (s.label) tags.push({ text: i18n.localize(`${K}Label.${s.label}`), css: `label-${s.label}` });
    if (s.winner) tags.push({ text: i18n.localize(`${K}Winner`), css: 'winner' });
    if (s.alerted) tags.push({ text: i18n.localize(`${K}Alerted`), css: 'alerted' });
    const still = members.filter((c) => c.stillSurprised).length;
    if (still > 0) tags.push({ text: fmt(i18n, `${K}StillSurprised`, { n: still }), css: 'surprised' });
    return { id: s.id, name: s.name, css: ['ts-side', s.winner ? 'winner' : '', still > 0 ? 'surprised' : ''].filter(Boolean).join(' '), dice, tags, rows: sideRows(members, input) };
  });
  const current = view.steps.find((s) => s.when === 'current');
  let initiative = '';
  if (view.initiative?.tie) initiative = i18n.localize(`${K}Tie`);
  else if (view.initiative?.winner) initiative = fmt(i18n, `${K}Won`, { side: view.sides.find((s) => s.id === view.initiative?.winner)?.name ?? '' });
  return {
    started: true,
    gm: input.gm,
    title: view.kind === 'surprise' ? i18n.localize(view.surprise.unit === 'round' ? `${K}SurpriseRound` : `${K}SurpriseSegments`) : fmt(i18n, `${K}Round`, { n: view.round }),
    stage: stageLabel(view, i18n),
    currentLabel: current ? currentStepLabel(current, view, i18n) : '',
    initiative,
    sides,
    columns: columns(view, input, name),
    carryIn: carried(view.carryIn, input, name, false),
    carryOut: carried(view.carryOut, input, name, true),
    end: endEvents(view, input, name),
    controls: input.controls,
    labels: labels(i18n),
  };
}
