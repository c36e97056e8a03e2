/**
 * The actor sheets (issue 11): `character` and `monster`, ApplicationV2
 * (HandlebarsApplicationMixin(ActorSheetV2)), registered as the defaults at
 * init (register.ts). Registration needs the classes at start-up, so this
 * file is a thin shell: options, parts and tabs. Everything else (the
 * context, what the buttons do, which items an actor takes) is in
 * actor-sheet-body.ts, a chunk loaded when a sheet is first drawn.
 *
 * The sheet decides no rule: it shows what the data models and src/rules
 * compute and writes through the document (form submit → document.update,
 * or item.update), which the TypeDataModel validates; a refused value is
 * shown in a GM's words (core's submit path: ui.notifications.error),
 * nothing is written and the field shows the stored value again, so the next
 * edit saves (refusal.ts).
 */
import { ActorSheetBase, TAB_NAVIGATION, loadRefusal, part, prepareOrRefuse, primaryTabs, sheetOptions } from './shell';

/**
 * What this sheet uses of core's ActorSheetV2 (v13 and v14 alike). The two
 * generations' typings differ (v13.345 does not declare the drop chain,
 * v14 does: research notes §2), so the base is typed by what core has in both.
 */
export interface CoreActorSheet {
  readonly document: Actor.Implementation;
  readonly actor: Actor.Implementation;
  readonly isEditable: boolean;
  readonly options: { readonly classes?: string[] } & Record<string, unknown>;
  tabGroups: Record<string, string | null>;
  render(options?: object): Promise<unknown>;
  _prepareContext(options: object): Promise<Record<string, unknown>>;
  _preparePartContext(partId: string, context: Record<string, unknown>, options: object): Promise<Record<string, unknown>>;
  /** Core (v13 and v14): the tabs of a group from static TABS and tabGroups. */
  _prepareTabs(group: string): Record<string, unknown>;
  /** Core (v13 and v14): a `data-action` click with no handler in options.actions (core's own actions have theirs). */
  _onClickAction(event: Event, target: HTMLElement): unknown;
  /** Core (v13 and v14): the form's data made the update, validated against the document (a refused value throws). */
  _prepareSubmitData(event: Event, form: HTMLFormElement, formData: { object: Record<string, unknown> }, updateData?: object): Record<string, unknown>;
  /** Core (v13 and v14): creates a dropped item on the actor, or sorts it when it is already there. */
  _onDropItem(event: DragEvent, item: Item.Implementation): Promise<unknown>;
}
type CoreActorSheetClass = (new (options?: object) => CoreActorSheet) & { DEFAULT_OPTIONS: object; PARTS: object; TABS: object };
const Base = ActorSheetBase as CoreActorSheetClass;

type Body = typeof import('./actor-sheet-body');
const body = (): Promise<Body> => import('./actor-sheet-body');

/** A tab's part (templates/actor/<name>.hbs, scrolling). */
const tabPart = (name: string) => part(`actor/${name}`, true);
const header = part('actor/header');

export abstract class TenSegmentsActorSheet extends Base {
  static override DEFAULT_OPTIONS = sheetOptions(['actor'], { width: 600, height: 720 });

  /** The sheet's buttons (`data-action` in templates/actor, ACTOR_SHEET_ACTIONS in the body): loaded at the first press. */
  override async _onClickAction(event: Event, target: HTMLElement): Promise<void> {
    await (await body()).onSheetAction(this, target.dataset.action ?? '', event, target);
  }

  override async _prepareContext(options: object): Promise<Record<string, unknown>> {
    const context = await super._prepareContext(options);
    await loadRefusal();
    return (await body()).prepareActorContext(this, context);
  }

  /** A value the model refuses: told in a GM's words, the field back to what is stored, so the next edit saves (shell.ts prepareOrRefuse). */
  override _prepareSubmitData(event: Event, form: HTMLFormElement, formData: { object: Record<string, unknown> }, updateData?: object): Record<string, unknown> {
    return prepareOrRefuse(this, () => super._prepareSubmitData(event, form, formData, updateData));
  }

  /** Each tab's part gets its tab (core's convention: the part's root carries the tab's class and data-tab). */
  override async _preparePartContext(partId: string, context: Record<string, unknown>, options: object): Promise<Record<string, unknown>> {
    return (await body()).partContext(partId, await super._preparePartContext(partId, context, options));
  }

  /** An item of a type this actor cannot hold is refused in words; anything else goes core's way (created, or sorted). */
  override async _onDropItem(event: DragEvent, item: Item.Implementation): Promise<unknown> {
    if (!(await body()).acceptsItem(this, item)) return null;
    return super._onDropItem(event, item);
  }
}

export class TenSegmentsCharacterSheet extends TenSegmentsActorSheet {
  static override DEFAULT_OPTIONS = { classes: ['character'] } as never;

  static override PARTS = {
    header,
    tabs: TAB_NAVIGATION,
    combat: tabPart('combat-character'),
    items: tabPart('items'),
    abilities: tabPart('abilities'),
    biography: tabPart('biography'),
  };

  static override TABS = primaryTabs('combat', 'items', 'abilities', 'biography');
}

export class TenSegmentsMonsterSheet extends TenSegmentsActorSheet {
  static override DEFAULT_OPTIONS = { classes: ['monster'] } as never;

  static override PARTS = {
    header,
    tabs: TAB_NAVIGATION,
    combat: tabPart('combat-monster'),
    items: tabPart('items'),
    notes: tabPart('biography'),
  };

  static override TABS = primaryTabs('combat', 'items', 'notes');
}
