/**
 * The combat tracker: core's v13/v14 CombatTracker (ApplicationV2) with our
 * own parts, drawing the round as a timeline from the timeline view (GM: the
 * GM's view; a player: their viewer, so monsters' plans, exact health and
 * hidden combatants never reach their screen). Registered as
 * CONFIG.ui.combat at init; the code that builds the view (timeline.ts,
 * tracker-view.ts) is loaded when the tracker is first drawn with a combat.
 * The layout follows the width (a CSS container query), so the sidebar, a
 * pop-out (v13 renderPopout) and a v14 detached window all read.
 */
import { loadParts, partsFor } from '../../rules/parts';
import { SYSTEM_ID } from '../../settings';
import { contextMenuEntry } from '../../documents/compat';
import { groupIdOf } from '../../documents/encounter';
import { groupData } from '../../data/systems';
import { playerViewer } from '../../documents/viewer';
import { combatControls, combatantMenu, oddsControl, rowControls, TRACKER_ACTIONS, type ControlsInput, type ControlView } from './controls';
import type { ClockContext, CombatantFacts, Roster, TrackerContext } from './tracker-view';
import type { TimelineView } from '../../rules/timeline';
import type { Declaration } from '../../rules/model';

const Base = foundry.applications.sidebar.tabs.CombatTracker;

const template = (name: string) => `systems/${SYSTEM_ID}/templates/tracker/${name}.hbs`;

/** What core's context menu entries are (either generation's shape). */
type MenuEntries = ReturnType<InstanceType<typeof Base>['_getEntryContextOptions' & keyof InstanceType<typeof Base>]>;

/** The compendium document an actor was imported from: `_stats.compendiumSource` (v12 on), else an older world's `flags.core.sourceId`. */
function compendiumSource(actor: unknown): string | undefined {
  const a = actor as { _stats?: { compendiumSource?: string | null }; flags?: { core?: { sourceId?: string } } } | null | undefined;
  return a?._stats?.compendiumSource || a?.flags?.core?.sourceId || undefined;
}

export class TenSegmentsCombatTracker extends Base {
  static override DEFAULT_OPTIONS = {
    classes: ['ten-segments', 'ts-tracker'],
    actions: { ...TRACKER_ACTIONS, toggleGroup: TenSegmentsCombatTracker.#toggleGroup },
  } as never;

  /** The collapsed rows of identical monsters this tracker has opened (their keys), kept across re-renders. */
  openGroups = new Set<string>();

  /** A collapsed row's disclosure: open it to its members' rows, or close it; drawn again. */
  static async #toggleGroup(this: TenSegmentsCombatTracker, _event: Event, target: HTMLElement): Promise<void> {
    const key = target?.dataset?.groupKey;
    if (!key) return;
    if (!this.openGroups.delete(key)) this.openGroups.add(key);
    await this.render();
  }

  static override PARTS = {
    header: { template: template('header') },
    tracker: { template: template('tracker'), scrollable: [''] },
    footer: { template: template('footer') },
  } as never;

  /** Our context of the last render (every part reads it as `ts`). */
  tenSegments: TrackerContext | null = null;

  protected override async _prepareContext(options: never): Promise<never> {
    const context = await super._prepareContext(options);
    const ts = (this.tenSegments = await this.#build());
    const gm = !!game.user?.isGM;
    // The GM's odds of this fight: greyed while fewer than two sides have combatants.
    const ours: TenSegmentsTracker.ContextAdditions = { ts, isGM: gm, odds: gm && ts ? oddsControl(ts.sides.filter((s) => s.rows.length > 0).length) : null };
    return Object.assign(context, ours) as never;
  }

  /** The tracker's context for this user: the timeline view (their viewer), Foundry's facts, the controls. */
  async #build(): Promise<TrackerContext | null> {
    const combat = this.viewed as Combat.Implementation | null;
    if (!combat) return null;
    const [{ trackerContext, clockContext }, { timeline, GM_VIEW }] = await Promise.all([import('./tracker-view'), import('../../rules/timeline')]);
    const user = game.user as User.Implementation;
    const gm = !!user.isGM;
    const state = combat.flowState;
    // A charge's progress is a part of the engine loaded with the first charge declared (rules/parts.ts).
    const parts = partsFor([], state);
    if (parts.length > 0) await loadParts(parts);
    const view = state ? timeline(state, gm ? GM_VIEW : playerViewer(combat, user)) : null;
    const facts: Record<string, CombatantFacts> = {};
    const roster: Roster = { sides: [], combatants: [] };
    const owned = new Set<string>();
    for (const c of combat.combatants) {
      if (!gm && c.hidden) continue;
      const id = c.id as string;
      if (c.isOwner) owned.add(id);
      const f: CombatantFacts = { img: await this._getCombatantThumbnail(c as never), owned: !!c.isOwner, defeated: !!c.isDefeated };
      if (c.actorId) f.actorId = c.actorId;
      const sourceId = compendiumSource(c.actor);
      if (sourceId) f.sourceId = sourceId;
      facts[id] = f;
      roster.combatants.push({ id, name: c.name ?? '', side: groupIdOf(c) ?? '' });
    }
    for (const g of (combat as unknown as { groups: Iterable<CombatantGroup.Implementation> }).groups ?? []) {
      const system = groupData(g);
      roster.sides.push({ id: g.id as string, name: g.name || (g.id as string), alerted: !!system?.alerted, surprised: !!system?.surprised });
    }
    const rows: Record<string, ControlView[]> = {};
    const i18n = game.i18n!;
    // The monsters: whom the GM's morale check is for.
    const npcs = gm ? combat.combatants.contents.filter((c) => !c.hasPlayerOwner).map((c) => c.id as string) : undefined;
    // addict, declaring in turn: the call state and its clock (its chunk loaded only under addict).
    let clock: ClockContext | null = null;
    let turnCall: ControlsInput['turnCall'] = null;
    if (state?.procedure === 'addict') {
      const inTurn = (this.#inTurn ??= (await import('./turn-clock')).turnClock);
      const call = inTurn.turnCall(combat);
      const shown = call && call.round === state.round ? inTurn.clockView(call) : null;
      if (call) turnCall = { round: call.round, called: call.called, running: !!shown?.running, paused: !!shown?.paused };
      if (shown && state.stage === 'declare') clock = clockContext(shown, combat.combatants.get(shown.combatant)?.name ?? '', i18n);
    }
    if (view) {
      const input: ControlsInput = { view, state, gm, owned, started: true, turnCall };
      if (npcs) input.npcs = npcs;
      for (const c of view.combatants) rows[c.id] = rowControls(input, c.id);
      const gmDeclarations = gm ? (combat as unknown as { gmDeclarations: Record<string, Declaration> }).gmDeclarations : undefined;
      return { ...trackerContext({ view, roster, facts, gm, controls: combatControls(input), rows, i18n, gmDeclarations, open: this.openGroups }), clock };
    }
    // Before the start: the GM's one way in, "Roll surprise and start" (the surprise dialog).
    const before: ControlsInput = { view: { combatants: [] } as unknown as TimelineView, state: null, gm, owned, started: false };
    return trackerContext({ view: null, roster, facts, gm, controls: combatControls(before), rows, i18n, open: this.openGroups });
  }

  /** addict's declaring-in-turn module, once loaded (the clock's tick reads it). */
  #inTurn: (typeof import('./turn-clock'))['turnClock'] | null = null;
  /** The clock's light tick in a browser (the time shown follows the seconds between renders). */
  #tick: ReturnType<typeof setInterval> | null = null;

  /** In a browser, while a called player's clock runs: its text follows the seconds (no re-render). */
  #startTick(): void {
    if (this.#tick !== null) clearInterval(this.#tick);
    this.#tick = null;
    const root = this.element as HTMLElement | null;
    if (!this.tenSegments?.clock?.running || !root?.querySelector?.('[data-tracker-clock]') || !this.#inTurn) return;
    const inTurn = this.#inTurn;
    this.#tick = setInterval(() => {
      const view = inTurn.clockView(inTurn.turnCall(this.viewed as Combat.Implementation | null));
      const el = (this.element as HTMLElement | null)?.querySelector?.('[data-tracker-clock]');
      if (!view || !el) return;
      const time = el.querySelector('[data-clock-time]');
      if (time) time.textContent = view.text;
      el.setAttribute('data-segments', String(view.segments));
    }, 250);
  }

  /**
   * Core's entries and ours, in this generation's shape. Core asks for them
   * once, at the first render (CombatTracker#_onFirstRender, v13 and v14),
   * when no combat may be viewed yet, and keeps them: so ours are all
   * there, and each finds its combat (the one viewed at that moment) and its
   * combatant (the row's `data-combatant-id`) when it is tested or chosen.
   */
  protected override _getEntryContextOptions(): MenuEntries {
    const core = (typeof super._getEntryContextOptions === 'function' ? super._getEntryContextOptions() : []) as unknown[];
    const idOf = (target: HTMLElement): string => target?.dataset?.combatantId ?? target?.closest?.<HTMLElement>('[data-combatant-id]')?.dataset.combatantId ?? '';
    /** The viewed combat and the row's combatant in it, now; null when there is none. */
    const at = (target: HTMLElement): [Combat.Implementation, string] | null => {
      const combat = this.viewed as Combat.Implementation | null;
      const id = idOf(target);
      return combat && id && combat.combatants.has(id) ? [combat, id] : null;
    };
    const ours = combatantMenu().map((e) =>
      contextMenuEntry({
        label: e.label,
        icon: e.icon,
        visible: (target) => {
          const found = at(target);
          return !!found && e.visible(...found);
        },
        run: async (target) => {
          const found = at(target);
          if (found) await e.run(...found);
        },
      }),
    );
    return [...core, ...ours] as MenuEntries;
  }

  /** The step being played, in view (the sidebar scrolls vertically, a wide window sideways). */
  protected override async _onRender(context: never, options: never): Promise<void> {
    await super._onRender?.(context, options);
    const current = (this.element as HTMLElement | null)?.querySelector?.('.ts-step.current');
    current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    this.#startTick();
  }
}
