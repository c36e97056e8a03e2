/**
 * The system's sheets as the defaults for its actor and item types, at init.
 * Core's own v1 sheets (`foundry.appv1.sheets.ActorSheet` / `ItemSheet`,
 * scope "core") are unregistered, as dnd5e does, so a type without a sheet
 * of ours never opens core's. The sheet classes are thin shells: their
 * bodies are chunks loaded when a sheet is first drawn.
 */
import { SYSTEM_ID } from '../../settings';
import { TenSegmentsCharacterSheet, TenSegmentsMonsterSheet } from './actor-sheet';
import { TenSegmentsItemSheet } from './item-sheet';
import { TenSegmentsEncounterSheet } from './encounter-sheet';

type SheetConfig = {
  registerSheet(documentClass: unknown, scope: string, sheetClass: unknown, options?: object): void;
  unregisterSheet(documentClass: unknown, scope: string, sheetClass: unknown, options?: object): void;
};

export function registerSheets(): void {
  const config = foundry.applications.apps.DocumentSheetConfig as unknown as SheetConfig;
  const { ActorSheet, ItemSheet } = foundry.appv1.sheets;
  config.unregisterSheet(Actor, 'core', ActorSheet);
  config.unregisterSheet(Item, 'core', ItemSheet);
  // [document class, sheet, its types, label key TENSEG.Sheet.Label.<label>]
  const sheets: [unknown, unknown, string[], string][] = [
    [Actor, TenSegmentsCharacterSheet, ['character'], 'character'],
    [Actor, TenSegmentsMonsterSheet, ['monster'], 'monster'],
    [Actor, TenSegmentsEncounterSheet, ['encounter'], 'encounter'],
    [Item, TenSegmentsItemSheet, ['weapon', 'spell', 'armor', 'gear'], 'item'],
  ];
  for (const [documentClass, sheet, types, label] of sheets) {
    config.registerSheet(documentClass, SYSTEM_ID, sheet, { types, makeDefault: true, label: `TENSEG.Sheet.Label.${label}` });
  }
}
