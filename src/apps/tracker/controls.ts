/**
 * The tracker's controls: which buttons and menu entries a user gets, from
 * the timeline view and the flow state this client replays, and what each
 * does (a request through the active GM, or a dialog opened).
 *
 * Shared contract between the tracker (combat-tracker.ts renders the
 * buttons, wires `TRACKER_ACTIONS` as its ApplicationV2 `actions`, and asks
 * `combatantMenu` for its context menu) and this file, which decides.
 */
import type { TimelineView } from '../../rules/timeline';
import type { FlowState } from '../../rules/flow';

/** One button as the templates draw it: `data-action` is a key of TRACKER_ACTIONS. */
export interface ControlView {
  action: string;
  /** Font Awesome classes, e.g. 'fa-solid fa-forward-step'. */
  icon: string;
  /** Localized label (tooltip and aria-label). */
  label: string;
  /** Greyed out, with the reason (localized) as its tooltip. */
  disabled?: boolean;
  reason?: string;
  /** Extra data attributes the action reads (data-<key>="<value>"). */
  data?: Record<string, string>;
}

/** What a control decision reads: the round as this user sees it, and who they are. */
export interface ControlsInput {
  view: TimelineView;
  /** The flow state this client replays (combat.flowState); null before the combat starts. */
  state: FlowState | null;
  gm: boolean;
  /** Combatant ids this user owns (a GM: all). */
  owned: ReadonlySet<string>;
  /** The combat has started (its log has a start). */
  started: boolean;
}

/** The buttons of the tracker's header and footer (GM: step, initiative, round; everyone: what applies). */
export function combatControls(input: ControlsInput): ControlView[] {
  if (!input.gm || !input.started) return [];
  return [
    { action: 'previousStep', icon: 'fa-solid fa-backward-step', label: game.i18n!.localize('TENSEG.Tracker.Previous') },
    { action: 'nextStep', icon: 'fa-solid fa-forward-step', label: game.i18n!.localize('TENSEG.Tracker.Next') },
  ];
}

/** The buttons on one combatant's row. */
export function rowControls(_input: ControlsInput, _combatantId: string): ControlView[] {
  return [];
}

/** An ApplicationV2 action: `this` is the tracker (its `viewed` combat), target the clicked element. */
export type TrackerAction = (this: { viewed: Combat.Implementation | null }, event: PointerEvent, target: HTMLElement) => Promise<void> | void;

export const TRACKER_ACTIONS: Record<string, TrackerAction> = {
  async nextStep() {
    await (game as unknown as { tenSegments: { next(): Promise<unknown> } }).tenSegments.next();
  },
  async previousStep() {
    await (game as unknown as { tenSegments: { previous(): Promise<unknown> } }).tenSegments.previous();
  },
};

/** A context-menu entry, generation-neutral (compat.ts contextMenuEntry turns it into v13's or v14's shape). */
export interface CombatantMenuEntry {
  label: string;
  icon: string;
  visible(combatantId: string): boolean;
  run(combatantId: string): Promise<void> | void;
}

/** The entries of a combatant's context menu (beyond core's), for this user. */
export function combatantMenu(_combat: Combat.Implementation): CombatantMenuEntry[] {
  return [];
}
