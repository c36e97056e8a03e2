/**
 * Ten Segments: entry point loaded by Foundry (system.json "esmodules").
 * Registers settings, data models and documents at init.
 */
import { registerSettings } from './settings';

Hooks.once('init', () => {
  registerSettings();
});
