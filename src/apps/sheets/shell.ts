/**
 * What the sheets' shells share (actor-sheet.ts, encounter-sheet.ts,
 * item-sheet.ts): the mixed core bases, a part's template, the options every
 * sheet of the system takes.
 * Built once, so start-up carries one copy of each (issue 11's budget).
 */
import { SYSTEM_ID } from '../../settings';

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2, ItemSheetV2 } = foundry.applications.sheets;

type Refusal = typeof import('./refusal');
/** The refusal words (refusal.ts), once loaded: core's submit path, which needs them, is synchronous. */
let refusal: Refusal | null = null;
/** Loaded with a sheet's first draw (each shell's _prepareContext), before anything can be submitted. */
export async function loadRefusal(): Promise<void> {
  refusal ??= await import('./refusal');
}

/**
 * Core's _prepareSubmitData (`prepare`: the form's values, validated) with a
 * refusal told in a GM's words and the sheet drawn again from what is stored
 * (refusal.ts: why the next edit was lost before), the values together
 * checked by the model before anything is sent.
 */
export function prepareOrRefuse<T extends Record<string, unknown>>(sheet: import('./refusal').RefusingSheet, prepare: () => T): T {
  let data: T;
  try {
    data = prepare();
  } catch (err) {
    throw refusal ? refusal.refusedFields(sheet, err) : err;
  }
  refusal?.checkJoint(sheet, data);
  return data;
}

/** HandlebarsApplicationMixin(ActorSheetV2), typed by each shell (the two generations' typings differ). */
export const ActorSheetBase: unknown = HandlebarsApplicationMixin(ActorSheetV2);
/** HandlebarsApplicationMixin(ItemSheetV2). */
export const ItemSheetBase: unknown = HandlebarsApplicationMixin(ItemSheetV2);

/** A part drawn from the system's templates/<path>.hbs; `scroll` keeps its scroll position (core's `scrollable`). */
export const part = (path: string, scroll?: boolean) => ({
  template: `systems/${SYSTEM_ID}/templates/${path}.hbs`,
  ...(scroll ? { scrollable: [''] } : {}),
});

/** Core's tab navigation part (the tabs from static TABS). */
export const TAB_NAVIGATION = { template: 'templates/generic/tab-navigation.hbs' };

/** Static TABS of one `primary` group, opening on its first tab, labels `TENSEG.Sheet.Tab.<id>`. */
export const primaryTabs = (...ids: string[]) => ({
  primary: { tabs: ids.map((id) => ({ id })), initial: ids[0], labelPrefix: 'TENSEG.Sheet.Tab' },
});

/**
 * A sheet's DEFAULT_OPTIONS: the system's classes and `classes`, submit on
 * change (the data model validates), resizable, `position`. A sheet's own
 * buttons reach its `_onClickAction` (core's way for a `data-action` with no
 * handler in options.actions), which loads its body.
 */
export const sheetOptions = (classes: string[], position: { width: number; height?: number }) => ({
  classes: ['ten-segments', 'sheet', ...classes],
  form: { submitOnChange: true, closeOnSubmit: false },
  window: { resizable: true },
  position,
});
