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
    const operators = (foundry.data as unknown as { operators?: { ForcedDeletion?: { create(): unknown } } }).operators;
    const del = operators?.ForcedDeletion?.create?.() ?? (globalThis as Record<string, unknown>)._del;
    return { [`${path}.${key}`]: del };
  }
  return { [`${path}.-=${key}`]: null };
}

/**
 * Options for a Combat update that changes round or turn, so core (and v14's
 * effect expiry) sees the change the way it expects: v13 passes a direction
 * and `worldTime.advance`; v14 passes `combatRound`/`combatTurn` with
 * `worldTime.delta`.
 */
export function turnChangeOptions(direction: 1 | -1, seconds: number, round: number, turn: number): Record<string, unknown> {
  if (generation() >= 14) return { direction, combatRound: round, combatTurn: turn, worldTime: { delta: seconds } };
  return { direction, worldTime: { advance: seconds } };
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

/** The setting that holds how chat messages are shown (roll mode in v13, message mode in v14). */
export function messageModeSetting(): string {
  return generation() >= 14 ? 'messageMode' : 'rollMode';
}
