/**
 * What the system does at init and at ready, as functions so tests can run
 * them against the stand-in after each fresh install.
 */
import { registerSettings } from './settings';
import { registerDataModels } from './data';
import { TenSegmentsCombat } from './documents/combat';
import { TenSegmentsCombatant, onCombatantCreated, onCombatantDeleted } from './documents/combatant';
import { TenSegmentsCombatantGroup } from './documents/combatant-group';
import { registerQueries } from './documents/queries';
import { registerDamageHooks } from './documents/damage';
import { migrateWorld } from './documents/migration';
import { notifyProblem } from './documents/problems';
import { registerApi } from './api';
import { ProcedureOptionsApp } from './apps/procedure-options';
import { SYSTEM_ID } from './settings';

export function initSystem(): void {
  registerSettings();
  game.settings!.registerMenu(SYSTEM_ID, 'procedureOptionsMenu', {
    name: 'TENSEG.Setting.Options.Name',
    label: 'TENSEG.Setting.Options.Label',
    hint: 'TENSEG.Setting.Options.Hint',
    icon: 'fa-solid fa-swords',
    type: ProcedureOptionsApp as never,
    restricted: true,
  });
  registerDataModels();
  CONFIG.Combat.documentClass = TenSegmentsCombat;
  CONFIG.Combatant.documentClass = TenSegmentsCombatant;
  CONFIG.CombatantGroup.documentClass = TenSegmentsCombatantGroup;
  registerQueries();
  registerDamageHooks();
  registerApi();
  Hooks.on('createCombatant', (combatant) => void onCombatantCreated(combatant));
  Hooks.on('deleteCombatant', (combatant) => void onCombatantDeleted(combatant));
}

export async function readySystem(): Promise<void> {
  const report = await migrateWorld();
  if (report && report.failed.length > 0) {
    notifyProblem({ key: 'MigrationFailed', data: { count: report.failed.length } });
    console.error('Ten Segments migration', report.failed);
  }
}
