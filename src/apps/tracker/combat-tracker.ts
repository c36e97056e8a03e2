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
import { SYSTEM_ID } from '../../settings';
import { contextMenuEntry } from '../../documents/compat';
import { groupIdOf } from '../../documents/encounter';
import { groupData } from '../../data/systems';
import { playerViewer } from '../../documents/viewer';
import { combatControls, combatantMenu, rowControls, TRACKER_ACTIONS, type ControlView } from './controls';
import type { CombatantFacts, Roster, TrackerContext } from './tracker-view';
import type { Declaration } from '../../rules/model';

const Base = foundry.applications.sidebar.tabs.CombatTracker;
const template = (name: string) => `systems/${SYSTEM_ID}/templates/tracker/${name}.hbs`;

/** What core's context menu entries are (either generation's shape). */
type MenuEntries = ReturnType<InstanceType<typeof Base>['_getEntryContextOptions' & keyof InstanceType<typeof Base>]>;

export class TenSegmentsCombatTracker extends Base {
  static override DEFAULT_OPTIONS = {
    classes: ['ten-segments', 'ts-tracker'],
    actions: { ...TRACKER_ACTIONS },
  } as never;

  static override PARTS = {
    header: { template: template('header') },
    tracker: { template: template('tracker'), scrollable: [''] },
    footer: { template: template('footer') },
  } as never;

  /** Our context of the last render (every part reads it as `ts`). */
  tenSegments: TrackerContext | null = null;

  protected override async _prepareContext(options: never): Promise<never> {
    const context = await super._prepareContext(options);
    this.tenSegments = await this.#build();
    const ours: TenSegmentsTracker.ContextAdditions = { ts: this.tenSegments, isGM: !!game.user?.isGM };
    return Object.assign(context, ours) as never;
  }

  /** The tracker's context for this user: the timeline view (their viewer), Foundry's facts, the controls. */
  async #build(): Promise<TrackerContext | null> {
    const combat = this.viewed as Combat.Implementation | null;
    if (!combat) return null;
    const [{ trackerContext }, { timeline, GM_VIEW }] = await Promise.all([import('./tracker-view'), import('../../rules/timeline')]);
    const user = game.user as User.Implementation;
    const gm = !!user.isGM;
    const state = combat.flowState;
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
      facts[id] = f;
      roster.combatants.push({ id, name: c.name ?? '', side: groupIdOf(c) ?? '' });
    }
    for (const g of (combat as unknown as { groups: Iterable<CombatantGroup.Implementation> }).groups ?? []) {
      const system = groupData(g);
      roster.sides.push({ id: g.id as string, name: g.name || (g.id as string), alerted: !!system?.alerted, surprised: !!system?.surprised });
    }
    const rows: Record<string, ControlView[]> = {};
    const i18n = game.i18n!;
    if (view) {
      const input = { view, state, gm, owned, started: true };
      for (const c of view.combatants) rows[c.id] = rowControls(input, c.id);
      const gmDeclarations = gm ? (combat as unknown as { gmDeclarations: Record<string, Declaration> }).gmDeclarations : undefined;
      return trackerContext({ view, roster, facts, gm, controls: combatControls(input), rows, i18n, gmDeclarations });
    }
    return trackerContext({ view: null, roster, facts, gm, controls: [], rows, i18n });
  }

  /** Core's entries (where core has them) and ours, in this generation's shape. */
  protected override _getEntryContextOptions(): MenuEntries {
    const core = (typeof super._getEntryContextOptions === 'function' ? super._getEntryContextOptions() : []) as unknown[];
    const combat = this.viewed as Combat.Implementation | null;
    if (!combat) return core as MenuEntries;
    const idOf = (target: HTMLElement) => target?.closest?.<HTMLElement>('[data-combatant-id]')?.dataset.combatantId ?? target?.dataset?.combatantId ?? '';
    const ours = combatantMenu(combat).map((e) =>
      contextMenuEntry({ label: e.label, icon: e.icon, visible: (t) => e.visible(idOf(t)), run: (t) => void e.run(idOf(t)) }),
    );
    return [...core, ...ours] as MenuEntries;
  }

  /** The step being played, in view (the sidebar scrolls vertically, a wide window sideways). */
  protected override async _onRender(context: never, options: never): Promise<void> {
    await super._onRender?.(context, options);
    const current = (this.element as HTMLElement | null)?.querySelector?.('.ts-step.current');
    current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }
}
