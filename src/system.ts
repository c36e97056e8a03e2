/**
 * What the system does at init and at ready, as functions so tests can run
 * them against the stand-in after each fresh install.
 */
import { registerSettings } from './settings';
import { registerDataModels } from './data';
import { TenSegmentsCombat } from './documents/combat';
import { TenSegmentsCombatant, joinMissingEverywhere, onCombatantCreated, onCombatantDeleted, onUserConnected } from './documents/combatant';
import { TenSegmentsCombatantGroup } from './documents/combatant-group';
import { registerRequests } from './documents/requests';
import { registerDamageHooks } from './documents/damage';
import { SCHEMA_VERSION } from './documents/schema-version';
import { loadProcedure } from './rules/registry';
import { notifyProblem } from './documents/problems';
import { isActiveGM } from './documents/permissions';
import { registerApi } from './api';
import { registerDeclarationCalls } from './apps/tracker/declaration-call';
import { registerKeybindings } from './keybindings';
import { ProcedureOptionsMenu } from './apps/procedure-options-menu';
import { registerSheets } from './apps/sheets/register';
import { registerEncounterDrop } from './documents/encounter-drop';
import { registerTokenMovement } from './documents/token-movement';
import { TenSegmentsCombatTracker } from './apps/tracker/combat-tracker';
import { SYSTEM_ID } from './settings';
import { TenSegmentsActor, refreshTokenStatuses, registerStatusEffects, registerTokenStatusHooks } from './documents/token-status';

export function initSystem(): void {
  registerSettings();
  game.settings!.registerMenu(SYSTEM_ID, 'procedureOptionsMenu', {
    name: 'TENSEG.Setting.Options.Name',
    label: 'TENSEG.Setting.Options.Label',
    hint: 'TENSEG.Setting.Options.Hint',
    icon: 'fa-solid fa-swords',
    // The form itself is loaded when the menu is opened.
    type: ProcedureOptionsMenu as never,
    restricted: true,
  });
  registerDataModels();
  CONFIG.Actor.documentClass = TenSegmentsActor;
  CONFIG.Combat.documentClass = TenSegmentsCombat;
  CONFIG.Combatant.documentClass = TenSegmentsCombatant;
  CONFIG.CombatantGroup.documentClass = TenSegmentsCombatantGroup;
  // The actor and item sheets (thin shells; their bodies are loaded when a sheet is first drawn).
  registerSheets();
  // The segment-timeline tracker (its view code is loaded when first drawn).
  CONFIG.ui.combat = TenSegmentsCombatTracker as never;
  registerRequests();
  registerDeclarationCalls();
  registerDamageHooks();
  registerApi();
  registerKeybindings();
  registerStatusEffects();
  registerTokenStatusHooks();
  // An encounter actor dropped on the map places its creatures (the placing is loaded then).
  registerEncounterDrop();
  // A token moved during a round: judged by the active GM (the judging is loaded at the first move), and the attack-of-opportunity card's button.
  registerTokenMovement();
  Hooks.on('createCombatant', (combatant, _options, userId) => void onCombatantCreated(combatant, userId));
  Hooks.on('deleteCombatant', (combatant) => void onCombatantDeleted(combatant));
  Hooks.on('userConnected', (user, connected) => void onUserConnected(user as User.Implementation, connected));
  // The scene's "Outdoors" checkbox in core's Scene configuration (the field's code is loaded then).
  Hooks.on('renderSceneConfig', ((app: unknown, html: HTMLElement) => import('./apps/scene-config').then((m) => m.onRenderSceneConfig(app as never, html))) as never);
  // addict, declaring in turn: the called player's declaration dialog opens by itself (a chunk loaded then).
  Hooks.on('updateCombat', ((combat: Combat.Implementation, changed: object) => {
    if (!foundry.utils.hasProperty(changed, `flags.${SYSTEM_ID}.declaring`)) return;
    return import('./apps/declaration-dialog').then((m) => m.onDeclaringChanged(combat));
  }) as never);
  // The map as the active GM steps a round: chargers' tokens move their share, a spell beyond its range is told (a chunk).
  Hooks.on('updateCombat', ((combat: TenSegmentsCombat) => {
    const declared = isActiveGM() ? Object.values(combat.flowState?.declarations ?? {}) : [];
    if (!declared.some((d) => d.action === 'charge' || (d.action === 'spell' && d.target !== undefined))) return;
    return import('./documents/charge-moves').then((m) => m.onCombatStep(combat));
  }) as never);
}

/**
 * The rules a client needs: the world's procedure, and the procedure of every
 * combat already running (each procedure is a chunk of its own).
 */
export async function loadWorldRules(): Promise<void> {
  const ids = new Set<unknown>([game.settings!.get(SYSTEM_ID, 'procedure')]);
  for (const combat of game.combats?.contents ?? []) {
    const procedure = (combat as unknown as TenSegmentsCombat).loggedProcedure;
    if (procedure) ids.add(procedure);
  }
  await Promise.all([...ids].map((id) => loadProcedure(id).catch(() => undefined)));
}

/** The active GM migrates a world stored by an older schema; the migration code is a chunk loaded only then. */
async function migrateIfOlder(): Promise<Awaited<ReturnType<typeof import('./documents/migration').migrateWorld>>> {
  if (!isActiveGM()) return null;
  if (Number(game.settings!.get(SYSTEM_ID, 'schemaVersion') ?? 0) >= SCHEMA_VERSION) return null;
  const { migrateWorld } = await import('./documents/migration');
  return migrateWorld();
}

export async function readySystem(): Promise<void> {
  await loadWorldRules();
  ui.combat?.render();
  await refreshTokenStatuses();
  const report = await migrateIfOlder();
  if (report && report.failed.length > 0) {
    notifyProblem({ key: 'MigrationFailed', data: { count: report.failed.length } });
    console.error('Ten Segments migration', report.failed);
  }
  // The active GM brings in the combatants no GM could (added while none was connected).
  await joinMissingEverywhere();
}
