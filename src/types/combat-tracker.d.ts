// Typing repair: fvtt-types 13.345.1 stubs v13's CombatTracker ("leaving out DEFAULT_OPTIONS and PARTS"; its RenderContext lacks what _preparePartContext adds, its RenderOptions lack `combat`), so v13 core's parts and part context are declared here; tests/standin/contracts.ts holds the stand-in's v13 tracker to them (v14's typings declare their own).
/**
 * v13 core's CombatTracker (client/applications/sidebar/tabs/combat-tracker.mjs),
 * what the typings stub:
 *
 *  - `PARTS`: header, tracker, footer (the templates of
 *    templates/sidebar/tabs/combat/; v14's typings document the same three).
 *  - `_preparePartContext(partId, context, options)`: the header and footer
 *    parts get `_prepareCombatContext`'s keys, the tracker part
 *    `_prepareTrackerContext`'s. The stub's own `CombatTracker.CombatContext`
 *    is not what the source assigns: it has `link` where the source has
 *    `linked`, and lacks `previousId` and `nextId`; `initiativeIcon` is
 *    `CONFIG.Combat.initiativeIcon`, an `{icon, hover}` pair (the stub says a
 *    string, and declares no `CONFIG.Combat.initiativeIcon`).
 *  - `_prepareTrackerContext` rewrites each turn's initiative into a
 *    fixed-precision string (the stub's `TurnContext` says a number).
 *  - `render({combat})` views that encounter (`_configureRenderOptions`).
 */
declare namespace CombatTrackerV13 {
  type TemplatePart = foundry.applications.api.HandlebarsApplicationMixin.HandlebarsTemplatePart;

  /** CombatTracker.PARTS. */
  interface Parts {
    header: TemplatePart;
    tracker: TemplatePart;
    footer: TemplatePart;
  }

  /** One encounter of the switcher. */
  interface CombatEntry {
    id: string;
    /** The encounter's one-based position in `combats`. */
    label: number;
    active: boolean;
  }

  /** What `_prepareCombatContext` assigns (header and footer parts). */
  interface CombatContext {
    combat: Combat.Stored | null;
    hasCombat: boolean;
    previousId: string | undefined;
    nextId: string | undefined;
    combats: CombatEntry[];
    control: boolean;
    css: string;
    currentIndex: number;
    displayCycle: boolean;
    initiativeIcon: { icon: string; hover: string };
    linked: boolean;
    labels: { scope: string };
  }

  /** One combatant's row, its initiative made a fixed-precision string. */
  type TurnContext = Omit<foundry.applications.sidebar.tabs.CombatTracker.TurnContext, 'initiative'> & {
    initiative: number | string | null;
  };

  /** What `_prepareTrackerContext` assigns (tracker part), when an encounter is viewed. */
  interface TrackerContext {
    turns: TurnContext[];
    hasDecimals: boolean;
  }

  /** A part's context: each part has one of the two. */
  type PartContext = Partial<CombatContext & TrackerContext>;

  /** What `render` reads beyond ApplicationV2's options. */
  interface RenderOptions {
    /** The encounter to view; `null`: none. */
    combat?: Combat.Stored | null | undefined;
  }
}

/**
 * What the Ten Segments tracker (src/apps/tracker/combat-tracker.ts) adds to
 * the context every part gets, in both generations: `ts`, the tracker's view
 * (tracker-view.ts; null when no encounter is viewed), and `isGM`.
 */
declare namespace TenSegmentsTracker {
  interface ContextAdditions {
    ts: import('../apps/tracker/tracker-view').TrackerContext | null;
    isGM: boolean;
    /** The GM's "Odds of this fight" control (controls.ts oddsControl); null for a player or without an encounter. */
    odds: import('../apps/tracker/controls').ControlView | null;
  }
}
