/**
 * Where Foundry v13 and v14 differ, the system asks here, so every branch on
 * `game.release.generation` sits in this file and in compat-writes.ts (what
 * only the writer and the chat cards need: deletions, turn changes, message
 * modes; apart so start-up code does not carry it).
 */

export function generation(): number {
  return game.release?.generation ?? 13;
}

/** A context-menu entry in the shape each generation expects. */
export interface MenuEntry {
  label: string;
  /** Font Awesome classes, e.g. 'fa-solid fa-scroll'. */
  icon: string;
  visible: (target: HTMLElement) => boolean;
  /** Its work (a promise: returned, so whoever calls it may wait on it). */
  run: (target: HTMLElement) => Promise<void> | void;
}

/**
 * v14's ContextMenuEntry takes the icon as "a string containing a className";
 * v13's inserts it as HTML ("a string containing an HTML icon element"), so
 * there the classes go into an `<i>`: a bare class string would show as text.
 */
export function contextMenuEntry(entry: MenuEntry): Record<string, unknown> {
  if (generation() >= 14) {
    return { label: entry.label, icon: entry.icon, visible: entry.visible, onClick: (_event: Event, target: HTMLElement) => entry.run(target) };
  }
  return { name: entry.label, icon: `<i class="${foundry.utils.escapeHTML(entry.icon)}"></i>`, condition: entry.visible, callback: entry.run };
}
