/**
 * The item sheet for weapons, spells, armour and gear: a thin shell
 * registered at init (src/apps/sheets/register.ts). Everything it shows is
 * built by item-sheet-body.ts, a chunk loaded when a sheet is first drawn:
 * the header (name, image), the type's fields (what combat reads), the
 * description. Edits submit on change through core's document-sheet path, so
 * the item's data model checks them: a bad value is refused in a GM's words,
 * nothing is written and the field shows the stored value again.
 */
import { ItemSheetBase, loadRefusal, part, prepareOrRefuse, sheetOptions } from './shell';

/**
 * What this sheet uses of core's ItemSheetV2 (v13 and v14 alike; typed by
 * hand, as the mixed class's full typing is too deep for the compiler).
 */
interface CoreItemSheet {
  readonly document: Item.Implementation;
  readonly item: Item.Implementation;
  readonly isEditable: boolean;
  readonly options: { readonly classes?: string[] } & Record<string, unknown>;
  render(options?: object): Promise<unknown>;
  _prepareContext(options: object): Promise<Record<string, unknown>>;
  /** Core: the form's data (FormDataExtended: `object` is name → value) made the update, then validated. */
  _prepareSubmitData(event: Event, form: HTMLFormElement, formData: { object: Record<string, unknown> }, updateData?: object): Record<string, unknown>;
}
type CoreItemSheetClass = (new (options?: object) => CoreItemSheet) & { DEFAULT_OPTIONS: object; PARTS: object };
const Base = ItemSheetBase as CoreItemSheetClass;

type Body = typeof import('./item-sheet-body');

/** The body module, once loaded (the submit path reads it synchronously after the first render). */
let loadedBody: Body | null = null;
async function body(): Promise<Body> {
  return (loadedBody ??= await import('./item-sheet-body'));
}

export class TenSegmentsItemSheet extends Base {
  static override DEFAULT_OPTIONS = sheetOptions(['item'], { width: 520 }) as never;

  static override PARTS = {
    header: part('item/header'),
    details: part('item/details', true),
    description: part('item/description'),
  } as never;

  constructor(options?: object) {
    super(options);
    // The item's type as a class (weapon, spell, armor, gear): the stylesheet lays each out.
    const type = (this.document as Item.Implementation | null)?.type;
    const classes = this.options.classes;
    if (type && Array.isArray(classes) && !classes.includes(type)) classes.push(type);
  }

  override async _prepareContext(options: object): Promise<Record<string, unknown>> {
    const context = await super._prepareContext(options);
    await loadRefusal();
    return Object.assign(context, await (await body()).itemContext(this.document, this.isEditable));
  }

  /**
   * The damage types' checkboxes (one per type) become the weapon's list before core validates the submission;
   * a value the model refuses is told in a GM's words, the field back to what is stored (shell.ts prepareOrRefuse).
   */
  override _prepareSubmitData(event: Event, form: HTMLFormElement, formData: { object: Record<string, unknown> }, updateData?: object): Record<string, unknown> {
    loadedBody?.gatherDamageTypes(formData?.object);
    return prepareOrRefuse(this, () => super._prepareSubmitData(event, form, formData, updateData));
  }
}
