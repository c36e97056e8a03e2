/**
 * Ten Segments: entry point loaded by Foundry (system.json "esmodules").
 * At init it registers settings, data models, the Combat and Combatant
 * documents, the GM queries and the hooks; at ready the GM migrates the world.
 */
import { registerSettings } from './settings';
import { registerDataModels } from './data';
import { TenSegmentsCombat } from './documents/combat';
import { TenSegmentsCombatant, onCombatantCreated, onCombatantDeleted } from './documents/combatant';
import { registerQueries } from './documents/queries';
import { registerDamageHooks } from './documents/damage';
import { migrateWorld } from './documents/migration';
import { notifyProblem } from './documents/problems';

Hooks.once('init', () => {
  registerSettings();
  registerDataModels();
  CONFIG.Combat.documentClass = TenSegmentsCombat as never;
  CONFIG.Combatant.documentClass = TenSegmentsCombatant as never;
  registerQueries();
  registerDamageHooks();
  Hooks.on('createCombatant', (combatant) => void onCombatantCreated(combatant as Combatant.Implementation));
  Hooks.on('deleteCombatant', (combatant) => void onCombatantDeleted(combatant as Combatant.Implementation));
});

Hooks.once('ready', async () => {
  const report = await migrateWorld();
  if (report && report.failed.length > 0) {
    notifyProblem({ key: 'MigrationFailed', data: { count: report.failed.length } });
    console.error('Ten Segments migration', report.failed);
  }
});
