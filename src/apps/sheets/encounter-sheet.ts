/**
 * The encounter sheet (issue 12): its members with their counts, the side
 * they take, the GM's notes, a "Place on scene" button, and monsters dragged
 * in as members. Registered at init (register.ts), so this file is a thin
 * shell: options, parts and the lazy actions; the context, the buttons and
 * the drop are in encounter-sheet-body.ts, a chunk loaded when the sheet is
 * first drawn; placing is encounter-place.ts, loaded at the first press.
 */
import { SYSTEM_ID } from '../../settings';
import type { CoreActorSheet } from './actor-sheet';

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

/** What this sheet uses of core's ActorSheetV2 beyond the actor sheets' (v13 and v14 alike). */
export interface CoreEncounterSheet extends CoreActorSheet {
  /** Core (v13 and v14): an actor dropped on the sheet (core does nothing with it). */
  _onDropActor(event: DragEvent, actor: Actor.Implementation): Promise<unknown>;
}
type CoreSheetClass = (new (options?: object) => CoreEncounterSheet) & { DEFAULT_OPTIONS: object; PARTS: object };
const Base = HandlebarsApplicationMixin(ActorSheetV2) as unknown as CoreSheetClass;

const template = (name: string) => `systems/${SYSTEM_ID}/templates/${name}.hbs`;
const body = () => import('./encounter-sheet-body');

/** The sheet's buttons (`data-action` in templates/encounter). */
export const ENCOUNTER_SHEET_ACTIONS = ['placeEncounter', 'memberMore', 'memberFewer', 'memberRemove', 'memberOpen'] as const;
export type EncounterSheetAction = (typeof ENCOUNTER_SHEET_ACTIONS)[number];

function lazyAction(name: EncounterSheetAction) {
  return async function (this: TenSegmentsEncounterSheet, event: Event, target: HTMLElement): Promise<void> {
    await (await body()).onEncounterAction(this, name, event, target);
  };
}

export class TenSegmentsEncounterSheet extends Base {
  static override DEFAULT_OPTIONS = {
    classes: ['ten-segments', 'sheet', 'actor', 'encounter'],
    form: { submitOnChange: true, closeOnSubmit: false },
    window: { resizable: true },
    position: { width: 520, height: 600 },
    actions: Object.fromEntries(ENCOUNTER_SHEET_ACTIONS.map((name) => [name, lazyAction(name)])),
  };

  static override PARTS = {
    header: { template: template('actor/header') },
    members: { template: template('encounter/members'), scrollable: [''] },
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
