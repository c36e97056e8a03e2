/**
 * World settings: which procedure the world plays, and that procedure's
 * options. A change applies to the next combat: a running combat keeps the
 * procedure and options frozen into it when it started.
 */
import { PROCEDURE_IDS, type ProcedureId } from './rules/model';
import { loadProcedure } from './rules/registry';

export const SYSTEM_ID = 'ten-segments';

declare module 'fvtt-types/configuration' {
  interface SettingConfig {
    'ten-segments.procedure': string;
    'ten-segments.procedureOptions': Record<string, Record<string, boolean | number | string>>;
    'ten-segments.schemaVersion': number;
    'ten-segments.monsterRollsPrivate': boolean;
    'ten-segments.animateCharges': boolean;
    'ten-segments.heldDeclarations': Record<string, Record<string, import('./rules/model').Declaration | null>>;
  }
}

export function registerSettings(): void {
  const choices: Record<string, string> = Object.fromEntries(
    PROCEDURE_IDS.map((id: ProcedureId) => [id, `TENSEG.Procedure.${id}.Name`]),
  );
  game.settings!.register(SYSTEM_ID, 'procedure', {
    name: 'TENSEG.Setting.Procedure.Name',
    hint: 'TENSEG.Setting.Procedure.Hint',
    scope: 'world',
    config: true,
    type: String,
    choices,
    default: 'segment-d6',
    // The new procedure's rules are loaded now, so the next combat starts without waiting; the existing actors' token bars
    // show the new procedure's health (documents/actor-defaults.ts, a chunk: written by the active GM).
    onChange: (value) => {
      void loadProcedure(value).catch(() => undefined);
      void import('./documents/actor-defaults').then((m) => m.tokenBarsFollow(value)).catch(console.error);
    },
  });
  // Monsters' rolls GM-only by default: attack cards and initiative dice of combatants no player owns are whispered to the GMs
  // when the card would be public (documents/handlers/attack.ts, documents/chat.ts); off, they are shown as any other.
  game.settings!.register(SYSTEM_ID, 'monsterRollsPrivate', {
    name: 'TENSEG.Setting.MonsterRolls.Name',
    hint: 'TENSEG.Setting.MonsterRolls.Hint',
    scope: 'world',
    config: true,
    type: Boolean,
    default: true,
  });
  // Chargers' tokens move along their paths as the GM steps the round (documents/charge-moves.ts): animated, or set down at once.
  game.settings!.register(SYSTEM_ID, 'animateCharges', {
    name: 'TENSEG.Setting.AnimateCharges.Name',
    hint: 'TENSEG.Setting.AnimateCharges.Hint',
    scope: 'world',
    config: true,
    type: Boolean,
    default: true,
  });
  game.settings!.register(SYSTEM_ID, 'procedureOptions', {
    scope: 'world',
    config: false,
    type: Object,
    default: {},
  });
  // The GM's plans (for combatants no player owns) held until initiative (documents/combat.ts). A world setting, written by
  // the active GM, so that a reload or another GM taking over keeps them; the tracker shows them to GMs only, but Foundry
  // sends world settings to every client (README, Permissions and threats).
  game.settings!.register(SYSTEM_ID, 'heldDeclarations', {
    scope: 'world',
    config: false,
    type: Object,
    default: {},
  });
  game.settings!.register(SYSTEM_ID, 'schemaVersion', {
    scope: 'world',
    config: false,
    type: Number,
    default: 0,
  });
}

/** Are the rolls of combatants no player owns whispered to the GMs where their card would be public (the world setting)? */
export function monsterRollsPrivate(): boolean {
  try {
    return game.settings!.get(SYSTEM_ID, 'monsterRollsPrivate') !== false;
  } catch {
    return true;
  }
}
