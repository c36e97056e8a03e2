/**
 * The surprise dialog (issue 10, Deliver 1 and 3): before the combat starts,
 * the GM sets each side (a CombatantGroup) rolling, alerted (no roll: seed 000
 * "the monsters will not need to make a surprise roll at all", seed 004
 * "Prior detection negates") or surprised (the GM rules it: seed 002 I.A "The
 * DM may dictate that surprise exists"), each in one click; gives a side the
 * situation's modifier (pips of the procedure's surprise die on its range:
 * seed 002 "that should factor into chances of surprise", Side.surpriseModifier);
 * sees each member's own adjustments by name and those never surprised; and
 * chooses whether the surprise is rolled in public (the default, seed 004's
 * footnote 5) or for the GMs only. Submitting starts the combat with them
 * (`TenSegmentsCombat#startWithSurprise`: the active GM writes the groups as
 * it starts), which rolls surprise and posts the surprise card.
 *
 * Reached by `await import()` from the tracker, so start-up does not carry it.
 * Nothing is written until the submit; a refusal is told in words and changes
 * nothing.
 */
import type { Combatant as EngineCombatant, Problem, ProcedureId, Side } from '../rules/model';
import { isProcedureId } from '../rules/model';
import type { Encounter, ProcedureOptions } from '../rules/procedure';
import { surpriseRanges } from '../rules/round/surprise';
import { SYSTEM_ID } from '../settings';
import { groupData } from '../data/systems';
import { LIMITS } from '../data/shapes';
import { engineCombatant } from '../documents/engine-encounter';
import { groupIdOf, sideOf } from '../documents/encounter';
import { localizeProblem } from '../documents/problems';
import type { TenSegmentsCombat } from '../documents/combat';
import type { SideSurprise } from '../documents/queries';

export type Stance = 'roll' | 'alerted' | 'surprised';
export const STANCES: readonly Stance[] = ['roll', 'alerted', 'surprised'];

/** What a procedure makes of surprise: its die (none for individual-speed), the unit, which stances it honours. */
export interface SurpriseRules {
  /** Faces of the surprise die; 0: no die (individual-speed: the GM says who is unaware). */
  faces: number;
  unit: 'segments' | 'round';
  /** The GM may rule a side surprised (high-low, d12-ascending, individual-speed); segment-d6 and addict let the dice decide. */
  ruled: boolean;
}

export function surpriseRules(procedure: ProcedureId, options: ProcedureOptions): SurpriseRules {
  switch (procedure) {
    case 'segment-d6':
    case 'addict':
      return { faces: 6, unit: 'segments', ruled: false };
    case 'high-low': {
      const faces = Number(options.surpriseDie);
      return { faces: Number.isFinite(faces) && faces >= 2 ? Math.trunc(faces) : 6, unit: 'round', ruled: true };
    }
    case 'd12-ascending':
      return { faces: 12, unit: 'round', ruled: true };
    case 'individual-speed':
      return { faces: 0, unit: 'round', ruled: true };
  }
}

/** What the GM has set for one side in the dialog, not yet written. */
export interface SideSetting {
  stance: Stance;
  modifier: number;
}

export interface StanceButton {
  stance: Stance;
  label: string;
  tooltip: string;
  active: boolean;
  disabled: boolean;
}

export interface MemberRow {
  id: string;
  name: string;
  img: string;
  hidden: boolean;
  neverSurprised: boolean;
  /** Its own adjustments, by name ("Dexterity +2", "surprises others on 1-3"…), localized. */
  adjustments: string[];
  /** The actor could not be read (no actor): told in words. */
  problem?: string;
}

export interface SideRow {
  id: string;
  name: string;
  stance: Stance;
  stanceLabel: string;
  stances: StanceButton[];
  modifier: number;
  /** The modifier can be set: the side rolls a die. */
  modifiable: boolean;
  /** The chance the side faces with its members, opponents and modifier, in words ("surprised on 1-3 of a d6"). */
  chance: string;
  members: MemberRow[];
  /** Every member is never surprised: the side rolls nothing. */
  allNever: boolean;
}

export interface SurpriseContext {
  procedure: string;
  explain: string;
  sides: SideRow[];
  gmOnly: boolean;
  canSubmit: boolean;
  /** Why submitting is not possible, in words (a player, a combat already started, nobody in it). */
  blocked: string;
  modifierMin: number;
  modifierMax: number;
  labels: Record<string, string>;
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** A member's own adjustments, in words (pure apart from localization). */
export function memberAdjustments(c: EngineCombatant, rules: SurpriseRules, procedure: ProcedureId): string[] {
  const i18n = game.i18n!;
  const out: string[] = [];
  const range = (n: number) => (n <= 1 ? '1' : `1–${n}`);
  if (c.surpriseAdjustment && (procedure === 'segment-d6' || procedure === 'addict' || procedure === 'high-low'))
    out.push(i18n.format('TENSEG.Surprise.Dialog.Adjust.Dexterity', { n: signed(c.surpriseAdjustment) }));
  if (rules.faces > 0 && procedure !== 'd12-ascending') {
    if (c.surprisedOn) out.push(i18n.format('TENSEG.Surprise.Dialog.Adjust.SurprisedOn', { range: range(c.surprisedOn) }));
    if (c.surprisesOn) out.push(i18n.format('TENSEG.Surprise.Dialog.Adjust.SurprisesOn', { range: range(c.surprisesOn) }));
  }
  if (procedure === 'd12-ascending') {
    if (c.surprisedAdjust) out.push(i18n.format('TENSEG.Surprise.Dialog.Adjust.SurprisedAdjust', { n: signed(c.surprisedAdjust) }));
    if (c.surprisesOthersAdjust) out.push(i18n.format('TENSEG.Surprise.Dialog.Adjust.SurprisesOthersAdjust', { n: signed(c.surprisesOthersAdjust) }));
  }
  return out;
}

/** The sides as the engine would get them with the dialog's settings. */
function stagedSides(combat: Combat.Implementation, settings: ReadonlyMap<string, SideSetting>): Side[] {
  return combat.groups.contents.map((g) => {
    const side = sideOf(g);
    const s = settings.get(side.id);
    if (!s) return side;
    const out: Side = { id: side.id, name: side.name };
    if (s.stance === 'alerted') out.alerted = true;
    if (s.stance === 'surprised') out.surprised = true;
    if (s.modifier !== 0) out.surpriseModifier = s.modifier;
    return out;
  });
}

/**
 * The chance of each side, in pips of its die, with the dialog's settings:
 * the procedure's own ranges (the d6 of seeds 000/004, high-low's
 * `surprisedOn`, d12-ascending's table).
 */
async function chances(procedure: ProcedureId, options: ProcedureOptions, encounter: Encounter): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (procedure === 'segment-d6' || procedure === 'addict') return surpriseRanges(encounter);
  if (procedure === 'high-low') {
    const base = Number(options.surprisedOn);
    return surpriseRanges(encounter, Number.isFinite(base) ? Math.max(0, Math.trunc(base)) : 2);
  }
  if (procedure === 'd12-ascending') {
    const { surpriseRangeFor } = await import('../rules/procedures/d12-ascending');
    for (const s of encounter.sides) out.set(s.id, surpriseRangeFor(encounter, s.id));
  }
  return out;
}

export interface SurpriseInput {
  combat: Combat.Implementation;
  procedure: ProcedureId;
  options: ProcedureOptions;
  settings: ReadonlyMap<string, SideSetting>;
  gmOnly: boolean;
  user: User.Implementation;
}

/** The dialog's context: every string localized. */
export async function surpriseContext(input: SurpriseInput): Promise<SurpriseContext> {
  const i18n = game.i18n!;
  const { combat, procedure, options, settings } = input;
  const rules = surpriseRules(procedure, options);
  const sides = stagedSides(combat, settings);
  const members = new Map<string, MemberRow[]>();
  const engine: EngineCombatant[] = [];
  for (const c of combat.combatants.contents) {
    const group = groupIdOf(c);
    if (!group) continue;
    const built = engineCombatant(c, group);
    const row: MemberRow = { id: c.id as string, name: c.name ?? '', img: c.img ?? '', hidden: !!c.hidden, neverSurprised: false, adjustments: [] };
    if ('problem' in built) row.problem = localizeProblem(built.problem);
    else {
      engine.push(built.combatant);
      row.neverSurprised = !!built.combatant.neverSurprised;
      row.adjustments = memberAdjustments(built.combatant, rules, procedure);
    }
    members.set(group, [...(members.get(group) ?? []), row]);
  }
  const ranges = await chances(procedure, options, { sides, combatants: engine });
  const die = rules.faces > 0 ? `d${rules.faces}` : '';
  const stanceLabel = (s: Stance) => i18n.localize(procedure === 'individual-speed' && s === 'roll' ? 'TENSEG.Surprise.Dialog.Stance.aware' : `TENSEG.Surprise.Dialog.Stance.${s}`);
  const rows: SideRow[] = sides.map((side) => {
    const setting = settings.get(side.id) ?? { stance: 'roll' as Stance, modifier: 0 };
    const list = members.get(side.id) ?? [];
    const allNever = list.length > 0 && list.every((m) => m.neverSurprised);
    const stances: StanceButton[] = STANCES.filter((s) => !(procedure === 'individual-speed' && s === 'alerted')).map((s) => {
      const disabled = s === 'surprised' && !rules.ruled;
      return {
        stance: s,
        label: stanceLabel(s),
        tooltip: i18n.localize(disabled ? 'TENSEG.Surprise.Dialog.StanceHint.diceDecide' : `TENSEG.Surprise.Dialog.StanceHint.${procedure === 'individual-speed' && s === 'roll' ? 'aware' : s}`),
        active: setting.stance === s,
        disabled,
      };
    });
    const range = Math.min(rules.faces, ranges.get(side.id) ?? 0);
    let chance: string;
    if (allNever) chance = i18n.localize('TENSEG.Surprise.Dialog.Chance.never');
    else if (setting.stance === 'alerted') chance = i18n.localize('TENSEG.Surprise.Dialog.Chance.alerted');
    else if (setting.stance === 'surprised') chance = i18n.localize('TENSEG.Surprise.Dialog.Chance.surprised');
    else if (rules.faces === 0) chance = i18n.localize('TENSEG.Surprise.Dialog.Chance.aware');
    else if (range <= 0) chance = i18n.format('TENSEG.Surprise.Dialog.Chance.none', { die });
    else chance = i18n.format('TENSEG.Surprise.Dialog.Chance.range', { range: range === 1 ? '1' : `1–${range}`, die });
    return {
      id: side.id,
      name: side.name,
      stance: setting.stance,
      stanceLabel: stanceLabel(setting.stance),
      stances,
      modifier: setting.modifier,
      modifiable: rules.faces > 0 && setting.stance === 'roll' && !allNever,
      chance,
      members: list,
      allNever,
    };
  });
  let blocked = '';
  if (!input.user.isGM) blocked = i18n.localize('TENSEG.Surprise.Dialog.Blocked.gm');
  else if (combat.started || ((combat as TenSegmentsCombat).flowState ?? null) !== null)
    blocked = i18n.localize('TENSEG.Surprise.Dialog.Blocked.started');
  else if (combat.combatants.size === 0) blocked = i18n.localize('TENSEG.Surprise.Dialog.Blocked.empty');
  return {
    procedure: i18n.localize(`TENSEG.Procedure.${procedure}.Name`),
    explain: i18n.format(`TENSEG.Surprise.Dialog.Explain.${procedure}`, { die }),
    sides: rows,
    gmOnly: input.gmOnly,
    canSubmit: blocked === '',
    blocked,
    modifierMin: LIMITS.surpriseAdjust.min,
    modifierMax: LIMITS.surpriseAdjust.max,
    labels: {
      members: i18n.localize('TENSEG.Surprise.Dialog.Members'),
      modifier: i18n.localize('TENSEG.Surprise.Dialog.Modifier'),
      modifierHint: i18n.format('TENSEG.Surprise.Dialog.ModifierHint', { die: die || 'd6' }),
      never: i18n.localize('TENSEG.Surprise.Dialog.Never'),
      hidden: i18n.localize('TENSEG.Surprise.Dialog.Hidden'),
      publicHint: i18n.localize('TENSEG.Surprise.Dialog.PublicHint'),
      gmOnly: i18n.localize('TENSEG.Surprise.Dialog.GMOnly'),
      submit: i18n.localize('TENSEG.Surprise.Dialog.Submit'),
      noSides: i18n.localize('TENSEG.Surprise.Dialog.NoSides'),
    },
  };
}

/** A setting from a group's stored data (a GM's "surprised" the procedure does not honour reads as rolling: the dice decide). */
function storedSetting(group: CombatantGroup.Implementation, rules: SurpriseRules): SideSetting {
  const data = groupData(group);
  const stance: Stance = data?.surprised && rules.ruled ? 'surprised' : data?.alerted ? 'alerted' : 'roll';
  const m = Number(data?.surpriseModifier ?? 0);
  return { stance, modifier: Number.isFinite(m) ? Math.trunc(m) : 0 };
}

/** Check a modifier typed in the dialog: a whole number within the limits, else the problem in words. */
export function readModifier(raw: unknown): { ok: true; value: number } | { ok: false; problem: Problem } {
  const text = typeof raw === 'string' ? raw.trim() : raw;
  const n = text === '' || text === undefined || text === null ? 0 : Number(text);
  const { min, max } = LIMITS.surpriseAdjust;
  if (!Number.isInteger(n) || n < min || n > max) return { ok: false, problem: { key: 'SurpriseModifierInvalid', data: { value: String(raw), min, max } } };
  return { ok: true, value: n };
}

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

export class SurpriseDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  static override DEFAULT_OPTIONS = {
    tag: 'form',
    classes: ['ten-segments', 'surprise-dialog'],
    window: { title: 'TENSEG.Surprise.Dialog.Title', icon: 'fa-solid fa-eye-slash' },
    position: { width: 520 },
    form: { handler: SurpriseDialog.onSubmit, closeOnSubmit: false, submitOnChange: false },
    actions: { stance: SurpriseDialog.onStance },
  };

  static override PARTS = {
    form: { template: `systems/${SYSTEM_ID}/templates/dialogs/surprise.hbs` },
  };

  readonly combat: TenSegmentsCombat;
  /** Per side (group id) what the GM has set here, not yet written. */
  readonly settings = new Map<string, SideSetting>();
  gmOnly = false;

  constructor(combat: Combat.Implementation, options: Record<string, unknown> = {}) {
    super({ id: `ten-segments-surprise-${combat.id}`, ...options });
    this.combat = combat as TenSegmentsCombat;
    const rules = surpriseRules(this.procedureId, this.procedureOptions);
    for (const g of combat.groups.contents) this.settings.set(g.id as string, storedSetting(g, rules));
  }

  get procedureId(): ProcedureId {
    const id = game.settings!.get(SYSTEM_ID, 'procedure');
    return isProcedureId(id) ? id : 'segment-d6';
  }

  get procedureOptions(): ProcedureOptions {
    const all = game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {};
    return all[this.procedureId] ?? {};
  }

  override async _prepareContext(options: foundry.applications.api.ApplicationV2.RenderOptions) {
    const context = await super._prepareContext(options);
    const built = await surpriseContext({ combat: this.combat, procedure: this.procedureId, options: this.procedureOptions, settings: this.settings, gmOnly: this.gmOnly, user: game.user! });
    return Object.assign(context, built);
  }

  /** One click: a side rolls, is alerted, or is surprised (by the GM's ruling). Nothing is written until the submit. */
  setStance(groupId: string, stance: Stance): Problem | null {
    const s = this.settings.get(groupId);
    if (!s) return { key: 'UnknownSideId', data: { side: groupId } };
    if (!STANCES.includes(stance)) return { key: 'MalformedRequest' };
    if (stance === 'surprised' && !surpriseRules(this.procedureId, this.procedureOptions).ruled) return { key: 'SurpriseDiceDecide' };
    if (stance === 'alerted' && this.procedureId === 'individual-speed') return { key: 'SurpriseNoAlert' };
    s.stance = stance;
    return null;
  }

  setModifier(groupId: string, raw: unknown): Problem | null {
    const s = this.settings.get(groupId);
    if (!s) return { key: 'UnknownSideId', data: { side: groupId } };
    const read = readModifier(raw);
    if (!read.ok) return read.problem;
    s.modifier = read.value;
    return null;
  }

  /**
   * Write the sides' settings (GM only) and start the combat (which rolls
   * surprise and posts the card). A refusal is told in words and nothing is
   * written.
   */
  async startWith(form: Record<string, unknown> = {}): Promise<Problem | null> {
    if (!game.user?.isGM) return this.refuse({ key: 'SurpriseGMOnly' });
    if (this.combat.started || (this.combat.flowState ?? null) !== null) return this.refuse({ key: 'CombatAlreadyStarted' });
    // Values typed in the form (modifiers, the GM-only choice) are read first, all or nothing.
    for (const [k, v] of Object.entries(form)) {
      const m = /^modifier\.(.+)$/.exec(k);
      if (!m) continue;
      if (!this.settings.has(m[1])) continue;
      const read = readModifier(v);
      if (!read.ok) return this.refuse(read.problem);
    }
    for (const [k, v] of Object.entries(form)) {
      const m = /^modifier\.(.+)$/.exec(k);
      if (m && this.settings.has(m[1])) this.setModifier(m[1], v);
    }
    if ('gmOnly' in form) this.gmOnly = form.gmOnly === true || form.gmOnly === 'true' || form.gmOnly === 'on';
    // Written by the active GM as the combat starts (the request path: src/documents), nothing if it does not.
    const sides: Record<string, SideSurprise> = {};
    for (const [id, s] of this.settings) sides[id] = { stance: s.stance, modifier: s.modifier };
    const problem = await this.combat.startWithSurprise({ sides, surpriseGMOnly: this.gmOnly });
    if (problem) return problem;
    await this.close();
    return null;
  }

  private refuse(problem: Problem): Problem {
    ui.notifications?.error(localizeProblem(problem));
    return problem;
  }

  /** What the GM typed and ticked but has not submitted, kept across a redraw (a stance clicked, a modifier changed). */
  private readForm(): void {
    const form = this.element as HTMLElement | null;
    if (!form || typeof form.querySelectorAll !== 'function') return;
    for (const input of Array.from(form.querySelectorAll<HTMLInputElement>('input[name^="modifier."]'))) {
      this.setModifier(input.name.slice('modifier.'.length), input.value);
    }
    const gmOnly = form.querySelector<HTMLInputElement>('input[name="gmOnly"]');
    if (gmOnly) this.gmOnly = gmOnly.checked;
  }

  /** A modifier changed: the side's chance is told again at once (a value out of bounds is told in words). */
  override async _onRender(context: Record<string, unknown>, options: foundry.applications.api.ApplicationV2.RenderOptions): Promise<void> {
    await super._onRender(context as never, options);
    const form = this.element as HTMLElement | null;
    if (!form || typeof form.querySelectorAll !== 'function') return;
    for (const input of Array.from(form.querySelectorAll<HTMLInputElement>('input[name^="modifier."]'))) {
      input.addEventListener('change', () => {
        const problem = this.setModifier(input.name.slice('modifier.'.length), input.value);
        if (problem) ui.notifications?.error(localizeProblem(problem));
        else {
          this.readForm();
          void this.render();
        }
      });
    }
  }

  static async onStance(this: SurpriseDialog, _event: Event, target: HTMLElement): Promise<void> {
    this.readForm();
    const group = target.dataset.side ?? '';
    const problem = this.setStance(group, (target.dataset.stance ?? '') as Stance);
    if (problem) ui.notifications?.error(localizeProblem(problem));
    else await this.render();
  }

  static async onSubmit(this: SurpriseDialog, _event: Event, _form: HTMLFormElement, formData: { object: Record<string, unknown> }): Promise<void> {
    await this.startWith(formData.object);
  }
}

/** The surprise dialog open on this client, per combat (the tracker's button brings it back rather than opening a second). */
const openDialogs = new Map<string, SurpriseDialog>();

/** The surprise dialog open for a combat on this client (tests, the tracker). */
export function surpriseDialogFor(combat: Combat.Implementation): SurpriseDialog | undefined {
  const dialog = openDialogs.get(combat.id as string);
  return dialog && dialog.combat === combat && dialog.rendered ? dialog : undefined;
}

/** Open the GM's surprise dialog for a combat not yet started (a player is told in words). */
export async function openSurpriseDialog(combat: Combat.Implementation): Promise<SurpriseDialog | null> {
  if (!game.user?.isGM) {
    ui.notifications?.error(localizeProblem({ key: 'SurpriseGMOnly' }));
    return null;
  }
  const dialog = surpriseDialogFor(combat) ?? new SurpriseDialog(combat);
  openDialogs.set(combat.id as string, dialog);
  await dialog.render({ force: true });
  return dialog;
}
