/**
 * The encounter sheet (issue 12): its members with their counts, the side
 * they take, the GM's notes, a "Place on scene" button, and monsters dragged
 * in as members. Registered at init (register.ts), so this file is a thin
 * shell: options, parts and the lazy actions; the context, the buttons and
 * the drop are in encounter-sheet-body.ts, a chunk loaded when the sheet is
 * first drawn; placing is encounter-place.ts, loaded at the first press.
 */
import type { CoreActorSheet } from './actor-sheet';
import { ActorSheetBase, loadRefusal, part, prepareOrRefuse, sheetOptions } from './shell';

/** What this sheet uses of core's ActorSheetV2 beyond the actor sheets' (v13 and v14 alike). */
export interface CoreEncounterSheet extends CoreActorSheet {
  /** Core (v13 and v14): an actor dropped on the sheet (core does nothing with it). */
  _onDropActor(event: DragEvent, actor: Actor.Implementation): Promise<unknown>;
}
type CoreSheetClass = (new (options?: object) => CoreEncounterSheet) & { DEFAULT_OPTIONS: object; PARTS: object };
const Base = ActorSheetBase as CoreSheetClass;
const body = () => import('./encounter-sheet-body');

export class TenSegmentsEncounterSheet extends Base {
  static override DEFAULT_OPTIONS = sheetOptions(['actor', 'encounter'], { width: 520, height: 600 });

  static override PARTS = {
    header: part('actor/header'),
    members: part('encounter/members', true),
  };

  /** The sheet's buttons (`data-action` in templates/encounter, ENCOUNTER_SHEET_ACTIONS in the body): loaded at the first press. */
  override async _onClickAction(event: Event, target: HTMLElement): Promise<void> {
    await (await body()).onEncounterAction(this, target.dataset.action ?? '', event, target);
  }

  override async _prepareContext(options: object): Promise<Record<string, unknown>> {
    const context = await super._prepareContext(options);
    await loadRefusal();
    return (await body()).prepareEncounterContext(this, context);
  }

  /** A value the model refuses: told in a GM's words, the field back to what is stored (shell.ts prepareOrRefuse). */
  override _prepareSubmitData(event: Event, form: HTMLFormElement, formData: { object: Record<string, unknown> }, updateData?: object): Record<string, unknown> {
    return prepareOrRefuse(this, () => super._prepareSubmitData(event, form, formData, updateData));
  }

  /** A monster dragged in becomes a member (one more of it when it is one already). */
  override async _onDropActor(_event: DragEvent, actor: Actor.Implementation): Promise<unknown> {
    return (await body()).addMember(this, actor);
  }
}
