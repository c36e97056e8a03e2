/**
 * Where Foundry v13 and v14 differ, the system asks here, so every branch on
 * `game.release.generation` sits in one file.
 */

export function generation(): number {
  return game.release?.generation ?? 13;
}

/**
 * An update that deletes `key` of an object field at `path`: v13 writes
 * `path.-=key: null`; v14 writes `path.key: _del` (foundry.data.operators).
 */
export function deletionUpdate(path: string, key: string): Record<string, unknown> {
  if (generation() >= 14) {
    // v14: the `_del` operator (foundry.data.operators.ForcedDeletion); `-=` is deprecated there.
    return { [`${path}.${key}`]: (globalThis as Record<string, unknown>)._del };
  }
  return { [`${path}.-=${key}`]: null };
}

/**
 * Options for a Combat update that changes round or turn, in the form core
 * sends (v13 client source and the v14 combatRound hook agree):
 * `{direction, worldTime: {delta}}`, so the world clock and v14's effect
 * expiry follow the combat.
 */
export function turnChangeOptions(direction: 1 | -1, seconds: number): Record<string, unknown> {
  return { direction, worldTime: { delta: seconds } };
}

/** A context-menu entry in the shape each generation expects. */
export interface MenuEntry {
  label: string;
  icon: string;
  visible: (target: HTMLElement) => boolean;
  run: (target: HTMLElement) => void;
}

export function contextMenuEntry(entry: MenuEntry): Record<string, unknown> {
  if (generation() >= 14) {
    return { label: entry.label, icon: entry.icon, visible: entry.visible, onClick: (_event: Event, target: HTMLElement) => entry.run(target) };
  }
  return { name: entry.label, icon: entry.icon, condition: entry.visible, callback: entry.run };
}

/** The core setting that holds how chat messages are shown: `core.rollMode` (v13) or `core.messageMode` (v14). */
export function messageModeSetting(): 'rollMode' | 'messageMode' {
  return generation() >= 14 ? 'messageMode' : 'rollMode';
}

/** Chat message data shown the way the user chose (v13 applyRollMode, v14 applyMode). */
export function applyMessageMode(data: Record<string, unknown>): Record<string, unknown> {
  const setting = messageModeSetting();
  const mode = (game.settings as unknown as { get(ns: string, key: string): string }).get('core', setting);
  const cls = ChatMessage as unknown as {
    applyRollMode?: (d: Record<string, unknown>, m: string) => Record<string, unknown>;
    applyMode?: (d: Record<string, unknown>, m: string) => Record<string, unknown>;
  };
  if (generation() >= 14) return cls.applyMode ? cls.applyMode(data, mode) ?? data : data;
  return cls.applyRollMode ? cls.applyRollMode(data, mode) ?? data : data;
}
