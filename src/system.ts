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
import { loadProcedure } from './rules/registry';
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

/**
 * The rules a client needs: the world's procedure, and the procedure of every
 * combat already running (each procedure is a chunk of its own).
 */
export async function loadWorldRules(): Promise<void> {
  const ids = new Set<unknown>([game.settings!.get(SYSTEM_ID, 'procedure')]);
  for (const combat of game.combats?.contents ?? []) {
    const log = (combat.system as unknown as { log?: Record<string, { t?: string; s?: { procedure?: unknown } }> })?.log ?? {};
    for (const entry of Object.values(log)) if (entry?.t === 'start' || entry?.t === 'snapshot') ids.add(entry.s?.procedure);
  }
  await Promise.all([...ids].map((id) => loadProcedure(id).catch(() => undefined)));
}

export async function readySystem(): Promise<void> {
  await loadWorldRules();
  ui.combat?.render();
  const report = await migrateWorld();
  if (report && report.failed.length > 0) {
    notifyProblem({ key: 'MigrationFailed', data: { count: report.failed.length } });
    console.error('Ten Segments migration', report.failed);
  }
}
