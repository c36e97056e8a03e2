/**
 * The encounter sheet (issue 12): its members with their counts, the side
 * they take, the GM's notes, a "Place on scene" button, and monsters dragged
 * in as members. Registered at init (register.ts), so this file is a thin
 * shell: options, parts and the lazy actions; the context, the buttons and
 * the drop are in encounter-sheet-body.ts, a chunk loaded when the sheet is
 * first drawn; placing is encounter-place.ts, loaded at the first press.
 */
import type { CoreActorSheet } from './actor-sheet';
import { ActorSheetBase, part, sheetOptions } from './shell';

/** What this sheet uses of core's ActorSheetV2 beyond the actor sheets' (v13 and v14 alike). */
export interface CoreEncounterSheet extends CoreActorSheet {
  /** Core (v13 and v14): an actor dropped on the sheet (core does nothing with it). */
  _onDropActor(event: DragEvent, actor: Actor.Implementation): Promise<unknown>;
}
type CoreSheetClass = (new (options?: object) => CoreEncounterSheet) & { DEFAULT_OPTIONS: object; PARTS: object };
const Base = ActorSheetBase as CoreSheetClass;
const body = () => import('./encounter-sheet-body');

/** The sheet's buttons (`data-action` in templates/encounter). */
export const ENCOUNTER_SHEET_ACTIONS = ['placeEncounter', 'memberMore', 'memberFewer', 'memberRemove', 'memberOpen'] as const;
export type EncounterSheetAction = (typeof ENCOUNTER_SHEET_ACTIONS)[number];

export class TenSegmentsEncounterSheet extends Base {
  /** Each button's body is loaded when it is first pressed. */
  static override DEFAULT_OPTIONS = sheetOptions<CoreEncounterSheet, EncounterSheetAction>(
    ['actor', 'encounter'],
    { width: 520, height: 600 },
    ENCOUNTER_SHEET_ACTIONS,
    async (sheet, name, event, target) => (await body()).onEncounterAction(sheet, name, event, target),
  );

  static override PARTS = {
    header: part('actor/header'),
    members: part('encounter/members', true),
  };

  override async _prepareContext(options: object): Promise<Record<string, unknown>> {
    const context = await super._prepareContext(options);
    return (await body()).prepareEncounterContext(this, context);
  }

  /** A monster dragged in becomes a member (one more of it when it is one already). */
  override async _onDropActor(_event: DragEvent, actor: Actor.Implementation): Promise<unknown> {
    return (await body()).addMember(this, actor);
  }
}
