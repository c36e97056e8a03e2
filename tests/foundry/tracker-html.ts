/**
 * Reading the combat tracker's rendered HTML as its users see it: its buttons
 * (with the row each is on) and its text. No system import, so a test of the
 * built system (tests/package/) reads the tracker the same way.
 */
export interface Button {
  action: string;
  combatantId?: string;
  disabled: boolean;
  label: string;
  data: Record<string, string>;
}

const camel = (k: string) => k.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
export const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');

/** The buttons in the tracker's rendered HTML, with the row they are on (data-combatant-id of the button or its row). */
export function buttonsOf(html: string): Button[] {
  const out: Button[] = [];
  let row: string | undefined;
  const re = /<li class="[^"]*ts-row[^"]*"[^>]*data-combatant-id="([^"]+)"|<button([^>]*)>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[1]) {
      row = m[1];
      continue;
    }
    const attrs = m[2];
    const action = /data-action="([^"]+)"/.exec(attrs)?.[1];
    if (!action) continue;
    const data: Record<string, string> = {};
    for (const d of attrs.matchAll(/data-([a-z-]+)="([^"]*)"/g)) if (d[1] !== 'action' && d[1] !== 'tooltip') data[camel(d[1])] = d[2];
    out.push({ action, combatantId: data.combatantId ?? row, disabled: /\sdisabled(\s|$)/.test(attrs), label: /aria-label="([^"]*)"/.exec(attrs)?.[1] ?? '', data });
  }
  return out;
}

