/**
 * The declaration dialog: one combatant's declaration, or the release of its
 * held (segment-d6) or prepared (addict) action. Reached by `await import()`
 * from the tracker, so start-up does not carry it.
 *
 * It offers only the actions the engine finds legal now (legalActions, asked
 * with the combat's procedure as it was fixed at the start), the actor's
 * equipped weapons with speed factor and length (a monster's attack
 * routines), its spells with casting time and copies memorized and expended,
 * an optional target (preselected from the user's targeted token), and the
 * procedure's own extras (high-low: Go First, [delaying], innate, minor
 * actions). Submitting sends the authenticated request to the active GM and
 * shows the answer in words, in the dialog and as a notification; a refusal
 * leaves the dialog open with the choices kept.
 *
 * Under addict, declaring in turn (../documents/declaring-in-turn.ts): the
 * called player's dialog opens by itself and shows the running clock.
 */
import { ACTION_KINDS, type ActionKind, type Declaration } from '../rules/model';
import { legalActions, legalActionsBefore, type ActionChoice } from '../rules/flow/legal';
import { getProcedure, isLoaded } from '../rules/registry';
import { resolveOptions } from '../rules/procedure';
import { castingSegments } from '../data/shapes';
import { monsterRoutines, spellOf, weaponOf, type ItemView } from '../data/engine-view';
import { actorView, engineCombatant } from '../documents/engine-encounter';
import { groupIdOf } from '../documents/encounter';
import { requestDeclaration, requestGroupDeclaration, type QueryAnswer } from '../documents/queries';
import { requestMidRound } from '../documents/midround';
import type { DeclarationRequest } from '../documents/declarations';
import type { TenSegmentsCombat } from '../documents/combat';
import { clockNow, clockView, turnCall, type ClockView } from '../documents/declaring-in-turn';
import { SYSTEM_ID } from '../settings';
import { sceneOfCombat, withSceneOptions } from '../documents/scene-options';
import { chargePath, distanceBetween } from '../documents/grid';
import { missileRangeBand } from '../rules/range';
import { spellInRange, spellRangeFeet } from '../rules/spell-range';
import { formatPlural } from '../plural';

export interface DeclarationDialogOptions {
  /** 'declare': the round's declaration; 'release': a held (segment-d6) or prepared (addict) action released now. */
  mode: 'declare' | 'release';
}

/** The target choice of a group declaration: each member at its own nearest foe. */
export const NEAREST = '@nearest';

/** The actions that use a weapon (the weapon select applies to them). */
const WEAPON_ACTIONS: ReadonlySet<ActionKind> = new Set<ActionKind>(['melee', 'missile', 'charge', 'set-vs-charge', 'defensive-attack']);

/** What the form sends (FormDataExtended's object). */
export interface DeclarationFormValues {
  action?: string;
  weapon?: string;
  spell?: string;
  target?: string;
  goFirst?: boolean;
  delaying?: boolean;
  innate?: boolean;
  minorActions?: number | string | null;
  /** A hold's segment to be released at ('' or absent: when its owner asks). */
  releaseAt?: number | string | null;
  note?: string;
}

export interface DeclarationContext {
  combatId: string;
  combatantId: string;
  mode: 'declare' | 'release';
  name: string;
  img: string;
  heading: string;
  isGM: boolean;
  actions: { value: ActionKind; label: string; selected: boolean }[];
  /** No action is legal now: why, in words. */
  nothing: string | null;
  weapons: { id: string; name: string; speed: number | null; length: number | null; missile: boolean; label: string; selected: boolean }[];
  routines: { label: string }[];
  spells: { id: string; name: string; castingTime: number; memorized: number; expended: number; available: boolean; label: string; selected: boolean }[];
  targets: { id: string; name: string; label: string; feet: number | null; selected: boolean }[];
  /** Ranges on the map to the chosen target: the charge's gap, each missile weapon's band, each spell's range (out: beyond it). */
  ranges: { kind: 'charge' | 'missile' | 'spell'; text: string; out: boolean }[];
  /** high-low's declaration extras, or null where the procedure has none. */
  extras: { goFirst: boolean; delaying: boolean; innate: boolean; minorActions: number } | null;
  /** A group declaration (issue 29): who it is for, or null for one combatant. */
  group: { count: number; names: string } | null;
  /** segment-d6 hold / addict prepare: "release at segment N" (1–10), or null where nothing is held. */
  releaseAt: { value: number | null; segments: { value: number; selected: boolean }[] } | null;
  note: string;
  /** The declaration recorded now, in words, or "not declared yet". */
  current: string;
  clock: (ClockView & { label: string; delay: string; hint: string; roll: string }) | null;
  answer: { ok: boolean; text: string } | null;
  labels: Record<string, string>;
}

const t = (key: string): string => game.i18n?.localize(key) ?? key;
const f = (key: string, data: Record<string, unknown>): string =>
  game.i18n?.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) ?? key;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The procedure this combat runs (fixed at its start), or the world's before it starts. */
function procedureId(combat: TenSegmentsCombat): string {
  return combat.flowState?.procedure ?? String(game.settings?.get(SYSTEM_ID, 'procedure') ?? '');
}

/** The legal actions for the combatant now, asked of the engine. */
export function legalChoices(combat: TenSegmentsCombat, combatant: Combatant.Implementation, mode: 'declare' | 'release'): ActionChoice[] {
  const id = combatant.id as string;
  // A charge's distance is the map's when the request is made: the probe only needs to know there is one.
  const distance = combatant.token ? 0 : undefined;
  // The actor's spell items say what is in memory: the first with a copy left is tried (none: no spell to cast).
  const actor = combatant.actor;
  const spellItems = actor ? [...(actorView(actor).items ?? [])].flatMap((i) => (spellOf(i) ? [{ name: i.name, s: spellOf(i)! }] : [])) : [];
  const left = spellItems.find(({ s }) => (finite(s.memorized) ? s.memorized : 0) - (finite(s.expended) ? s.expended : 0) > 0);
  const noSpell = (choices: ActionChoice[]): ActionChoice[] =>
    left
      ? choices
      : choices.map((c) => (c.action === 'spell' && c.legal ? { action: c.action, legal: false, problem: { key: 'DeclarationNoSpell', data: { name: combatant.name ?? '' } } } : c));
  const state = combat.flowState;
  if (state) return noSpell(legalActions(state, id, { mode, distance, ...(left ? { spell: left.name } : {}) }));
  if (mode === 'release') return [];
  const pid = procedureId(combat);
  if (!isLoaded(pid as never)) return ACTION_KINDS.map((action) => ({ action, legal: true }));
  const procedure = getProcedure(pid as never);
  const all = (game.settings?.get(SYSTEM_ID, 'procedureOptions') ?? {}) as Record<string, Record<string, unknown>>;
  const { options } = resolveOptions(procedure, withSceneOptions(procedure.id, all[procedure.id] ?? {}, sceneOfCombat(combat)));
  const built = engineCombatant(combatant, groupIdOf(combatant) ?? '');
  if ('problem' in built) return ACTION_KINDS.map((action) => ({ action, legal: false, problem: built.problem }));
  return noSpell(legalActionsBefore(procedure, built.combatant, options, { distance, ...(left ? { spell: left.name } : {}) }));
}

/** The combatant's declaration recorded now, in words. */
function currentText(combat: TenSegmentsCombat, id: string, name: string): string {
  const d: Declaration | undefined = combat.flowState?.declarations[id];
  if (!d) return t('TENSEG.Declaration.NotDeclared');
  const what = [t(`TENSEG.Declaration.Action.${d.action}`), d.weapon?.name, d.spell].filter((x) => x).join(' · ');
  const target = d.target ? combat.combatants.get(d.target)?.name : undefined;
  return f('TENSEG.Declaration.Current', { name, action: target ? `${what} → ${target}` : what });
}

/** The token ids the user targets on the canvas (game.user.targets: Tokens). */
function targetedTokenIds(): Set<string> {
  const targets = (game.user as unknown as { targets?: Iterable<{ id?: string; document?: { id?: string } }> } | null)?.targets;
  const ids = new Set<string>();
  for (const tk of targets ?? []) {
    const id = tk?.document?.id ?? tk?.id;
    if (id) ids.add(id);
  }
  return ids;
}

/**
 * The dialog's context for one combatant: only the legal actions, the
 * weapons and spells with their numbers, the targets, the extras, the
 * clock; strings localized. `values`: what the form held (kept after a
 * refusal), `answer`: the GM's last answer in words.
 */
export function prepareDeclarationContext(
  combat: TenSegmentsCombat,
  combatantId: string,
  mode: 'declare' | 'release',
  values: DeclarationFormValues = {},
  answer: DeclarationContext['answer'] = null,
  members: readonly string[] = [],
): DeclarationContext {
  const combatant = combat.combatants.get(combatantId);
  if (!combatant) throw new Error(`no combatant ${combatantId} in combat ${combat.id}`);
  const name = combatant.name ?? '';
  const isGM = game.user?.isGM === true;
  const choices = legalChoices(combat, combatant, mode);
  const legal = choices.filter((c) => c.legal);
  const selectedAction = legal.some((c) => c.action === values.action) ? values.action : legal[0]?.action;
  const actions = legal.map((c) => ({ value: c.action, label: t(`TENSEG.Declaration.Action.${c.action}`), selected: c.action === selectedAction }));
  const reason = choices.find((c) => c.problem)?.problem;
  const nothing =
    legal.length > 0 ? null : f('TENSEG.Declaration.NothingLegal', { name, reason: reason ? f(`TENSEG.Error.${reason.key}`, reason.data ?? {}) : '' });

  const actor = combatant.actor;
  const items = actor ? actorView(actor).items ?? [] : [];
  const weapons: DeclarationContext['weapons'] = [];
  const spells: DeclarationContext['spells'] = [];
  for (const item of items) {
    const w = weaponOf(item);
    if (w && w.equipped !== false && item.id) {
      const speed = finite(w.speed) ? w.speed : null;
      const length = finite(w.length) && w.length > 0 ? w.length : null;
      weapons.push({
        id: item.id,
        name: item.name,
        speed,
        length,
        missile: w.kind === 'missile',
        label: f('TENSEG.Declaration.WeaponLine', { name: item.name, speed: speed ?? '—', length: length ?? '—' }),
        selected: values.weapon === item.id,
      });
    }
    const s = spellOf(item);
    if (s && item.id) {
      const castingTime = castingSegments(s.castingTime);
      const memorized = finite(s.memorized) ? s.memorized : 0;
      const expended = finite(s.expended) ? s.expended : 0;
      spells.push({
        id: item.id,
        name: item.name,
        castingTime,
        memorized,
        expended,
        available: memorized - expended > 0,
        label: formatPlural(game.i18n!, 'TENSEG.Declaration.SpellLine', castingTime, { name: item.name, time: castingTime, memorized, expended }),
        selected: values.spell === item.id,
      });
    }
  }
  if (!weapons.some((w) => w.selected) && weapons[0]) weapons[0].selected = true;
  const firstSpell = spells.find((s) => s.available);
  if (!spells.some((s) => s.selected) && firstSpell) firstSpell.selected = true;
  // d12-ascending II.C: "A spellcaster may decide on his initiative result what spell to cast, if any": the spell left unnamed (value '').
  const pid = combat.flowState?.procedure ?? procedureId(combat);
  if (mode === 'declare' && spells.length > 0 && isLoaded(pid as never) && getProcedure(pid as never).chooseSpell !== undefined) {
    spells.push({ id: '', name: '', castingTime: 0, memorized: 0, expended: 0, available: true, label: t('TENSEG.Declaration.SpellAtTurn'), selected: values.spell === '' });
    if (values.spell === '') for (const s of spells) s.selected = s.id === '';
  }
  const routines: DeclarationContext['routines'] = [];
  if (actor?.type === 'monster') {
    const parsed = monsterRoutines(actor.system as never);
    if (parsed.ok) for (const r of parsed.value) routines.push({ label: r.text });
  }

  const targeted = targetedTokenIds();
  const wanted = values.target ?? combat.combatants.contents.find((c) => c.id !== combatantId && c.tokenId && targeted.has(c.tokenId))?.id;
  // Ranges on the map (seed 001: "center-to-center"), by the scene's grid, when both tokens stand on one scene.
  const token = combatant.token;
  const onMap = (id: string) => {
    const other = combat.combatants.get(id)?.token;
    return token && other && other.parent === token.parent ? other : null;
  };
  const targets = combat.combatants.contents
    .filter((c) => c.id !== combatantId && (isGM || !c.hidden))
    .map((c) => {
      const other = onMap(c.id as string);
      const feet = other && token ? Math.round(distanceBetween(token, other) * 10) / 10 : null;
      const name = c.name ?? '';
      return { id: c.id as string, name, label: feet === null ? name : f('TENSEG.Range.TargetLine', { name, feet }), feet, selected: c.id === wanted };
    });
  // A group: each member at its own nearest foe, chosen by default.
  const group = members.length > 1 ? { count: members.length, names: members.map((id) => combat.combatants.get(id)?.name ?? id).join(', ') } : null;
  if (group) {
    const nearest = values.target === undefined || values.target === NEAREST;
    for (const x of targets) x.selected = !nearest && x.id === values.target;
    targets.unshift({ id: NEAREST, name: t('TENSEG.Declaration.NearestFoe'), label: t('TENSEG.Declaration.NearestFoe'), feet: null, selected: nearest });
  }
  const chosen = targets.find((x) => x.selected);
  const ranges = chosen ? rangesTo(token, onMap(chosen.id), chosen.feet, items, actor) : [];

  const extras =
    procedureId(combat) === 'high-low' && mode === 'declare'
      ? { goFirst: values.goFirst === true, delaying: values.delaying === true, innate: values.innate === true, minorActions: Number(values.minorActions) || 0 }
      : null;

  // segment-d6 "hold", addict B "prepare": the round can stop at the segment it is to be released at (flow/held.ts).
  const at = Number(values.releaseAt);
  const chosenAt = values.releaseAt !== '' && values.releaseAt !== null && Number.isInteger(at) && at >= 1 && at <= 10 ? at : null;
  const holds = mode === 'declare' && legal.some((c) => c.action === 'wait') && isLoaded(pid as never) && getProcedure(pid as never).segmentStep !== undefined;
  const releaseAt = holds ? { value: chosenAt, segments: Array.from({ length: 10 }, (_, i) => ({ value: i + 1, selected: chosenAt === i + 1 })) } : null;

  const call = turnCall(combat);
  const view = mode === 'declare' && call?.called === combatantId ? clockView(call, clockNow()) : null;
  const clock = view
    ? {
        ...view,
        label: view.paused ? t('TENSEG.Declaration.ClockPaused') : view.running ? t('TENSEG.Declaration.ClockRunning') : t('TENSEG.Declaration.ClockStopped'),
        delay: formatPlural(game.i18n!, 'TENSEG.Declaration.ClockDelay', view.segments, { segments: view.segments }),
        hint: t('TENSEG.Declaration.ClockHint'),
        roll: f('TENSEG.Declaration.ClockRoll', { roll: call!.roll, size: call!.roster.length, name: combat.combatants.get(call!.order[0])?.name ?? '' }),
      }
    : null;

  return {
    combatId: combat.id as string,
    combatantId,
    mode,
    name,
    img: combatant.img ?? actor?.img ?? '',
    heading: group ? f('TENSEG.Declaration.GroupTitle', { name, count: group.count }) : f(mode === 'release' ? 'TENSEG.Declaration.TitleRelease' : 'TENSEG.Declaration.Title', { name }),
    isGM,
    actions,
    nothing,
    weapons,
    routines,
    spells,
    targets,
    ranges,
    extras,
    group: group ? { ...group, names: f('TENSEG.Declaration.GroupMembers', { names: group.names }) } : null,
    releaseAt,
    note: values.note ?? '',
    current: currentText(combat, combatantId, name),
    clock,
    answer,
    labels: {
      action: t('TENSEG.Declaration.ActionLabel'),
      weapon: t('TENSEG.Declaration.Weapon'),
      routines: t('TENSEG.Declaration.Routines'),
      spell: t('TENSEG.Declaration.Spell'),
      target: t('TENSEG.Declaration.Target'),
      noTarget: t('TENSEG.Declaration.NoTarget'),
      goFirst: t('TENSEG.Declaration.GoFirst'),
      delaying: t('TENSEG.Declaration.Delaying'),
      innate: t('TENSEG.Declaration.Innate'),
      minorActions: t('TENSEG.Declaration.MinorActions'),
      releaseAt: t('TENSEG.Declaration.ReleaseAt'),
      releaseAtAsked: t('TENSEG.Declaration.ReleaseAtAsked'),
      note: t('TENSEG.Declaration.Note'),
      submit: t(mode === 'release' ? 'TENSEG.Declaration.SubmitRelease' : 'TENSEG.Declaration.Submit'),
    },
  };
}

/** The charge's gap, each missile weapon's band and each spell's range, to the chosen target. */
function rangesTo(
  token: TokenDocument.Implementation | null | undefined,
  target: TokenDocument.Implementation | null,
  feet: number | null | undefined,
  items: Iterable<ItemView>,
  actor: Actor.Implementation | null | undefined,
): DeclarationContext['ranges'] {
  if (!token || !target || feet === null || feet === undefined) return [];
  // A charge closes the gap to the nearest place beside the target (grid.ts): what the declaration will carry.
  const gap = chargePath(token, target, token.parent?.tokens.contents ?? []).distance;
  const out: DeclarationContext['ranges'] = [{ kind: 'charge', text: f('TENSEG.Range.Charge', { feet: Math.round(gap * 10) / 10 }), out: false }];
  const level = (actor?.system as { details?: { level?: unknown } } | undefined)?.details?.level;
  const casterLevel = typeof level === 'number' ? level : undefined;
  for (const item of items) {
    const w = weaponOf(item);
    if (w && w.kind === 'missile' && w.equipped !== false) {
      const band = missileRangeBand(feet, (w as { range?: { short: number; medium: number; long: number } }).range);
      if (band) out.push({ kind: 'missile', text: f(band === 'beyond' ? 'TENSEG.Range.MissileBeyond' : 'TENSEG.Range.Missile', { name: item.name, feet, band: t(`TENSEG.Range.Band.${band}`) }), out: band === 'beyond' });
    }
    const s = spellOf(item);
    const text = (s as { range?: unknown } | null)?.range;
    if (s && typeof text === 'string') {
      const inRange = spellInRange(feet, text, casterLevel);
      const range = spellRangeFeet(text, casterLevel);
      if (inRange === null || range === null || range === 'self') continue;
      const shown = range === 'touch' ? t('TENSEG.Range.Touch') : f('TENSEG.Range.Feet', { feet: range });
      out.push({ kind: 'spell', text: f(inRange ? 'TENSEG.Range.Spell' : 'TENSEG.Range.SpellOut', { name: item.name, range: shown, feet }), out: !inRange });
    }
  }
  return out;
}

/** The request the form's values make (only the fields the chosen action uses). */
export function requestFromValues(values: DeclarationFormValues, mode: 'declare' | 'release', highLow: boolean): DeclarationRequest {
  const action = String(values.action ?? '');
  const request: DeclarationRequest = { action };
  if (values.target && values.target !== NEAREST) request.target = values.target;
  if (WEAPON_ACTIONS.has(action as ActionKind) && values.weapon) request.weapon = values.weapon;
  if (action === 'spell' && values.spell) request.spell = values.spell;
  if (highLow && mode === 'declare') {
    if (values.goFirst === true) request.goFirst = true;
    if (values.delaying === true) request.delaying = true;
    if (values.innate === true) request.innate = true;
    const minor = Number(values.minorActions);
    if (values.minorActions !== null && values.minorActions !== undefined && values.minorActions !== '' && Number.isFinite(minor) && minor > 0) request.minorActions = minor;
  }
  const at = Number(values.releaseAt);
  if (mode === 'declare' && action === 'wait' && values.releaseAt !== '' && values.releaseAt !== null && values.releaseAt !== undefined && Number.isInteger(at)) request.releaseAt = at;
  if (values.note && values.note.trim() !== '') request.note = values.note.trim();
  return request;
}

/* ------------------------------------------------------------ the app */

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/** Dialogs open on this client, by user, combat, combatant and mode. */
const openDialogs = new Map<string, DeclarationDialog>();
const keyOf = (combatId: string, combatantId: string, mode: string): string => `${game.user?.id ?? ''}:${combatId}:${combatantId}:${mode}`;

/** The dialog open for a combatant on this client (tests, the tracker). */
export function openDialogFor(combat: Combat.Implementation, combatantId: string, mode: 'declare' | 'release' = 'declare'): DeclarationDialog | undefined {
  return openDialogs.get(keyOf(combat.id as string, combatantId, mode));
}

export class DeclarationDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  static override DEFAULT_OPTIONS = {
    tag: 'form',
    classes: ['ten-segments', 'tenseg-declaration'],
    window: { title: 'TENSEG.Declaration.WindowTitle', icon: 'fa-solid fa-scroll' },
    position: { width: 420, height: 'auto' as const },
    form: { handler: DeclarationDialog.onSubmitForm, submitOnChange: false, closeOnSubmit: false },
  };

  static override PARTS = {
    form: { template: `systems/${SYSTEM_ID}/templates/dialogs/declaration.hbs` },
  };

  readonly combat: TenSegmentsCombat;
  readonly combatantId: string;
  readonly mode: 'declare' | 'release';
  /** A group declaration's members (the first is `combatantId`); empty for one combatant. */
  members: string[] = [];
  /** What the form held when last submitted (kept after a refusal). */
  values: DeclarationFormValues = {};
  /** The GM's last answer, in words. */
  answer: DeclarationContext['answer'] = null;
  private ticker: ReturnType<typeof setInterval> | null = null;
  /** Its place among the dialogs open on its client. */
  key = '';

  constructor(combat: TenSegmentsCombat, combatantId: string, mode: 'declare' | 'release', options: Record<string, unknown> = {}) {
    super({ id: `tenseg-declaration-${combat.id}-${combatantId}-${mode}`, ...options } as never);
    this.combat = combat;
    this.combatantId = combatantId;
    this.mode = mode;
  }

  override get title(): string {
    const name = this.combat.combatants.get(this.combatantId)?.name ?? '';
    return f(this.mode === 'release' ? 'TENSEG.Declaration.TitleRelease' : 'TENSEG.Declaration.Title', { name });
  }

  override async _prepareContext(_options: unknown): Promise<foundry.applications.api.ApplicationV2.RenderContext> {
    return prepareDeclarationContext(this.combat, this.combatantId, this.mode, this.values, this.answer, this.members) as unknown as foundry.applications.api.ApplicationV2.RenderContext;
  }

  /** The form's handler: FormDataExtended's object is the values. */
  static async onSubmitForm(this: DeclarationDialog, _event: unknown, _form: unknown, formData: { object: Record<string, unknown> }): Promise<void> {
    await this.send(formData.object as DeclarationFormValues);
  }

  /** Send the request; the answer in words in the dialog and as a notification. A refusal keeps the dialog open. */
  async send(values: DeclarationFormValues): Promise<QueryAnswer> {
    this.values = { ...values };
    const highLow = procedureId(this.combat) === 'high-low';
    const request = requestFromValues(values, this.mode, highLow);
    const group = this.members.length > 1;
    const result = group
      ? await requestGroupDeclaration(this.combat, this.members, request, (values.target ?? NEAREST) === NEAREST)
      : this.mode === 'release'
        ? await requestMidRound(this.combat, 'release', { combatantId: this.combatantId, declaration: request })
        : await requestDeclaration(this.combat, this.combatantId, request);
    const name = this.combat.combatants.get(this.combatantId)?.name ?? '';
    if (result.ok) {
      const action = t(`TENSEG.Declaration.Action.${request.action}`);
      const text = group
        ? (result.message ?? f('TENSEG.Declaration.GroupAccepted', { count: this.members.length, action }))
        : f(this.mode === 'release' ? 'TENSEG.Declaration.Released' : 'TENSEG.Declaration.Accepted', { name, action });
      this.answer = { ok: true, text };
      ui.notifications?.info(text);
    } else {
      const text = f('TENSEG.Declaration.Refused', { reason: result.message });
      this.answer = { ok: false, text };
      ui.notifications?.warn(text);
    }
    await this.render();
    return result;
  }

  /** Another target chosen: drawn again with the ranges to it (the form's values kept). */
  override _onChangeForm(formConfig: unknown, event: Event): void {
    (super._onChangeForm as ((c: unknown, e: Event) => void) | undefined)?.call(this, formConfig, event);
    const field = event.target as HTMLSelectElement | null;
    if (field?.name !== 'target' || !field.form) return;
    const values: Record<string, unknown> = {};
    for (const [k, v] of new FormData(field.form)) values[k] = v;
    for (const k of ['goFirst', 'delaying', 'innate'] as const) values[k] = (field.form.elements.namedItem(k) as HTMLInputElement | null)?.checked === true;
    this.values = values as DeclarationFormValues;
    void this.render();
  }

  override async _onRender(context: unknown, options: unknown): Promise<void> {
    await (super._onRender as ((c: unknown, o: unknown) => Promise<void>) | undefined)?.call(this, context, options);
    this.tick();
  }

  /** In a browser: the running clock's text follows the seconds (no re-render). */
  private tick(): void {
    const el = (this as unknown as { element?: HTMLElement | null }).element;
    const clock = el?.querySelector?.('[data-clock-time]');
    if (!clock || this.ticker !== null) return;
    this.ticker = setInterval(() => {
      const view = clockView(turnCall(this.combat), clockNow());
      const now = (this as unknown as { element?: HTMLElement | null }).element?.querySelector?.('[data-clock-time]');
      if (!view || !now) return;
      now.textContent = view.text;
      now.closest('[data-clock]')?.setAttribute('data-segments', String(view.segments));
    }, 250);
  }

  private hook: number | null = null;

  /** While open: the combat's changes (a declaration recorded, the call state) re-render it. */
  watch(): void {
    if (this.hook !== null) return;
    this.hook = Hooks.on('updateCombat', (combat: Combat.Implementation) => {
      if (combat.id === this.combat.id && this.rendered) void this.render();
    }) as unknown as number;
  }

  override async close(options: Record<string, unknown> = {}): Promise<this> {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
    if (this.hook !== null) Hooks.off('updateCombat', this.hook as never);
    this.hook = null;
    if (openDialogs.get(this.key) === this) openDialogs.delete(this.key);
    return super.close(options as never) as Promise<this>;
  }
}

/** Open (or bring back) the dialog for one combatant. A player only for combatants they own; the GM for any. */
export async function openDeclarationDialog(combat: Combat.Implementation, combatantId: string, options: DeclarationDialogOptions = { mode: 'declare' }): Promise<DeclarationDialog | null> {
  const mode = options.mode ?? 'declare';
  const combatant = combat.combatants.get(combatantId);
  if (!combatant) return null;
  if (!game.user?.isGM && !combatant.isOwner) return null;
  const key = keyOf(combat.id as string, combatantId, mode);
  let dialog = openDialogs.get(key);
  // A dialog of another copy of the combat (a world reloaded) is not this one.
  if (dialog && dialog.combat !== combat) {
    await dialog.close();
    dialog = undefined;
  }
  if (!dialog) {
    dialog = new DeclarationDialog(combat as TenSegmentsCombat, combatantId, mode);
    dialog.key = key;
    openDialogs.set(key, dialog);
  }
  await dialog.render({ force: true });
  dialog.watch();
  return dialog;
}

/**
 * The GM's group declaration (issue 29): one dialog for `members` (the first its lead: its weapons and spells are
 * offered), each member checked by the active GM as if declared alone. One member: the ordinary dialog.
 */
export async function openGroupDeclaration(combat: Combat.Implementation, members: readonly string[]): Promise<DeclarationDialog | null> {
  if (!game.user?.isGM || members.length === 0) return null;
  if (members.length === 1) return openDeclarationDialog(combat, members[0]);
  const key = keyOf(combat.id as string, members[0], 'group');
  const old = openDialogs.get(key);
  if (old) await old.close();
  const dialog = new DeclarationDialog(combat as TenSegmentsCombat, members[0], 'declare', { id: `tenseg-declaration-${combat.id}-${members[0]}-group` });
  dialog.members = [...members];
  dialog.key = key;
  openDialogs.set(key, dialog);
  await dialog.render({ force: true });
  dialog.watch();
  return dialog;
}

/** Close every declaration dialog open on this client (a combat ended, a test's world gone). */
export async function closeDeclarationDialogs(): Promise<void> {
  for (const dialog of [...openDialogs.values()]) await dialog.close();
}

/**
 * Every client, when the call state changes (system.ts's updateCombat hook):
 * the called combatant's owner (not the GM) gets the dialog opened by
 * itself (an open dialog re-renders by its own hook).
 */
export async function onDeclaringChanged(combat: Combat.Implementation): Promise<void> {
  const call = turnCall(combat);
  const called = call?.called ? combat.combatants.get(call.called) : undefined;
  const running = call && call.answeredSeconds === null;
  if (called && running && !game.user?.isGM && called.isOwner && !openDialogFor(combat, called.id as string)) {
    await openDeclarationDialog(combat, called.id as string, { mode: 'declare' });
  }
}
