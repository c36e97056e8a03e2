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
  config.registerSheet(Actor, SYSTEM_ID, TenSegmentsCharacterSheet, {
    types: ['character'],
    makeDefault: true,
    label: 'TENSEG.Sheet.Label.character',
  });
  config.registerSheet(Actor, SYSTEM_ID, TenSegmentsMonsterSheet, {
    types: ['monster'],
    makeDefault: true,
    label: 'TENSEG.Sheet.Label.monster',
  });
  config.registerSheet(Actor, SYSTEM_ID, TenSegmentsEncounterSheet, {
    types: ['encounter'],
    makeDefault: true,
    label: 'TENSEG.Sheet.Label.encounter',
  });
  config.registerSheet(Item, SYSTEM_ID, TenSegmentsItemSheet, {
    types: ['weapon', 'spell', 'armor', 'gear'],
    makeDefault: true,
    label: 'TENSEG.Sheet.Label.item',
  });
}
