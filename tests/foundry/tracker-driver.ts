/**
 * Driving the combat tracker as its users do (moved out of play-through.test.ts
 * so that the sheets' play-through shares it): draw a user's tracker as the
 * sidebar draws it, read its buttons, press one as core calls its action,
 * submit a declaration dialog as its Submit button does.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { expect } from 'vitest';
import { buttonsOf, type Button } from './tracker-html';
export { buttonsOf, text, type Button } from './tracker-html';
import { g, idle } from './world';
import type { FoundryHandle } from '../standin';
import type { TenSegmentsCombat } from '../../src/documents/combat';
import { DeclarationDialog, openDialogFor } from '../../src/apps/declaration-dialog';
import { surpriseDialogFor, SurpriseDialog } from '../../src/apps/surprise-dialog';
import type { TrackerContext } from '../../src/apps/tracker/tracker-view';
import type { FlowState } from '../../src/rules/flow';

/** What the helpers need of a test's world: the stand-in and the combat. */
export interface Table {
  foundry: FoundryHandle;
  combat: TenSegmentsCombat;
}

export interface Drawn {
  html: string;
  ts: TrackerContext;
  buttons: Button[];
  app: any;
}

/** The tracker on a user's client, drawn as the sidebar draws it (the stand-in renders our templates into partHTML). */
export async function draw(w: Table, user: any): Promise<Drawn> {
  return w.foundry.client(user).run(async () => {
    const app = new g.CONFIG.ui.combat();
    await app.render({ combat: g.game.combats.get(w.combat.id) });
    const html = ['header', 'tracker', 'footer'].map((p) => app.partHTML[p]).join('\n');
    return { html, ts: app.partContexts.tracker.ts, buttons: buttonsOf(html), app };
  });
}

/** Press a button the user's tracker shows (it must be there and enabled): its action as core calls it. */
export async function press(w: Table, user: any, action: string, combatantId?: string): Promise<void> {
  const drawn = await draw(w, user);
  const button = drawn.buttons.find((b) => b.action === action && (combatantId === undefined || b.combatantId === combatantId));
  expect(button, `${action} ${combatantId ?? ''} on the tracker`).toBeDefined();
  expect(button!.disabled, `${action} ${combatantId ?? ''} enabled: ${button!.label}`).toBe(false);
  await w.foundry.client(user).run(async () => {
    const row = { dataset: { combatantId } };
    const target = { dataset: { ...button!.data }, closest: (sel: string) => (sel === '[data-combatant-id]' && combatantId ? row : null) };
    const handler = drawn.app.options.actions[action];
    await (typeof handler === 'function' ? handler : handler.handler).call(drawn.app, { preventDefault() {} }, target);
  });
  await idle(w);
}

export const flow = (w: Table): FlowState => w.combat.flowState as FlowState;
export const refusals = (w: Table) => w.foundry.notifications.filter((n: any) => n.type === 'error');

/**
 * The GM starts the combat from the tracker: Roll surprise opens the surprise
 * dialog, both sides alerted where the procedure has it (one click a side),
 * else rolled, then its submit, as its buttons call them.
 */
export async function startWithSidesAlerted(w: Table, gm: any, procedure: string): Promise<void> {
  await press(w, gm, 'rollSurprise');
  await w.foundry.client(gm).run(async () => {
    const dialog = surpriseDialogFor(g.game.combats.get(w.combat.id));
    expect(dialog).toBeDefined();
    if (procedure !== 'individual-speed') {
      for (const side of dialog!.settings.keys()) await SurpriseDialog.onStance.call(dialog!, {} as Event, { dataset: { side, stance: 'alerted' } } as unknown as HTMLElement);
    }
    await SurpriseDialog.onSubmit.call(dialog!, {} as Event, {} as HTMLFormElement, { object: {} });
  });
  await idle(w);
}

/** Submit a declaration dialog open on the user's client (its form's handler, as its Submit button calls it). */
export async function submitDeclaration(w: Table, user: any, combatantId: string, values: Record<string, unknown>): Promise<void> {
  await w.foundry.client(user).run(async () => {
    const dialog = openDialogFor(g.game.combats.get(w.combat.id), combatantId);
    expect(dialog, `the declaration dialog for ${combatantId}`).toBeDefined();
    await DeclarationDialog.onSubmitForm.call(dialog!, {}, {}, { object: values });
    expect(dialog!.answer?.ok, dialog!.answer?.text).toBe(true);
    await dialog!.close();
  });
  await idle(w);
}

/** The user's tracker shows the combatant as still to declare ("not declared yet"). */
export async function undeclared(w: Table, user: any, id: string): Promise<boolean> {
  const row = (await draw(w, user)).ts.sides.flatMap((s) => s.rows).find((r) => r.ids.split(' ').includes(id));
  return row?.declaration?.text === 'not declared yet';
}
