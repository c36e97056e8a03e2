/**
 * Ten Segments: entry point loaded by Foundry (system.json "esmodules").
 * At init it registers settings, data models, the Combat and Combatant
 * documents, the GM queries and the hooks; at ready the GM migrates the world.
 */
import { initSystem, readySystem } from './system';

Hooks.once('init', initSystem);
Hooks.once('ready', () => void readySystem());
