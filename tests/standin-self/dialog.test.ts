/**
 * The stand-in's foundry.applications.api.DialogV2 (tests/standin/dialog.ts)
 * against CONFORMANCE.md rows D1–D9, in both generations: what a dialog
 * shows, what a press resolves to, what a dismissal does, and where v13 and
 * v14 differ (v14's disabled buttons and renderOptions). Plus the system's
 * own use of it: a GM's form (gm-prompts.ts) answered through the stand-in's
 * DialogV2, as a GM would fill and press it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry } from '../standin';
import { DialogV2 } from '../standin/dialog';
import { askForm } from '../../src/apps/tracker/gm-prompts';

const g = globalThis as any;

/** The dialogs open on the running client. */
const openDialogs = (): DialogV2[] => [...g.foundry.applications.instances.values()].filter((a: unknown) => a instanceof DialogV2);
/** The one open dialog, once its render has gone through (the factories render without waiting). */
async function theDialog(): Promise<DialogV2> {
  for (let i = 0; i < 50 && openDialogs().length === 0; i++) await Promise.resolve();
  const [d, ...more] = openDialogs();
  expect(more).toEqual([]);
  await d.renderSettled();
  return d;
}

describe.each([13, 14] as const)('DialogV2, generation %i', (generation) => {
  beforeEach(() => {
    installFoundry({ generation, lang: [{ Confirm: 'Confirm', Yes: 'Yes', No: 'No' }] as any });
  });

  it('D1: foundry.applications.api.DialogV2 is there; a dialog without buttons is refused', () => {
    expect(g.foundry.applications.api.DialogV2).toBe(DialogV2);
    expect(() => new DialogV2({ content: '<p>x</p>' })).toThrow('You must define at least one entry in options.buttons');
    expect(() => new DialogV2({ buttons: [] })).toThrow('at least one entry');
  });

  it('D2: an instance renders a dialog form: the content, then one button per entry, labels localized, the default autofocused', async () => {
    const d = new DialogV2({
      window: { title: 'Pick' },
      content: '<label>Why <input name="why" type="text"></label>',
      buttons: [
        { action: 'one', label: 'Yes', icon: 'fa-solid fa-check' },
        { action: 'two', label: 'Other', default: true },
      ],
    });
    expect(d.id).toMatch(/^dialog-[A-Za-z0-9]{16}$/);
    expect(d.options.classes).toContain('dialog');
    expect(d.options.tag).toBe('dialog');
    await d.render({ force: true });
    expect(d.rendered).toBe(true);
    expect(d.html).toContain('<div class="dialog-content standard-form"><label>Why <input name="why" type="text"></label></div>');
    expect(d.buttonsShown()).toEqual([
      { action: 'one', label: 'Yes', disabled: false },
      { action: 'two', label: 'Other', disabled: false },
    ]);
    expect(d.html).toMatch(/data-action="two"[^>]* autofocus/);
  });

  it('D3: wait resolves to the pressed button\'s callback result, or its action when it has none or gives null; `submit` gets it; the dialog closes', async () => {
    const submitted: unknown[] = [];
    const buttons = [
      { action: 'a', label: 'A', callback: () => 42 },
      { action: 'b', label: 'B' },
      { action: 'c', label: 'C', callback: () => null },
    ];
    for (const [action, expected] of [
      ['a', 42],
      ['b', 'b'],
      ['c', 'c'],
    ] as const) {
      const answer = DialogV2.wait({ buttons, submit: async (r: unknown) => void submitted.push(r) });
      const d = await theDialog();
      await d.press(action);
      await expect(answer).resolves.toBe(expected);
      expect(d.rendered).toBe(false);
      expect(openDialogs()).toEqual([]);
    }
    expect(submitted).toEqual([42, 'b', 'c']);
  });

  it('D4: a callback gets (event, button, dialog): the button in the dialog\'s form, its fields as the user filled them', async () => {
    let seen: any = null;
    const answer = DialogV2.wait({
      content: '<input name="n" type="number"><select name="s"><option value="x">x</option><option value="y">y</option></select><input type="checkbox" name="c">',
      buttons: [{ action: 'go', label: 'Go', callback: (_e: any, button: any, dialog: any) => ((seen = { action: button.dataset.action, dialog }), new g.foundry.applications.ux.FormDataExtended(button.form).object) }],
    });
    const d = await theDialog();
    await d.press('go', { n: '7', s: 'y', c: true });
    await expect(answer).resolves.toEqual({ n: 7, s: 'y', c: true });
    expect(seen).toEqual({ action: 'go', dialog: d });
  });

  it('D5: dismissed (closed, the ×, Escape), wait resolves to null by default and with rejectClose false; rejects with rejectClose true; `close` is called either way', async () => {
    const closed: unknown[] = [];
    const byDefault = DialogV2.wait({ buttons: [{ action: 'ok', label: 'OK' }], close: (_e: unknown, dialog: unknown) => closed.push(dialog) });
    const d1 = await theDialog();
    await d1.close();
    await expect(byDefault).resolves.toBeNull();
    expect(closed).toEqual([d1]);

    const asked = DialogV2.wait({ buttons: [{ action: 'ok', label: 'OK' }], rejectClose: false });
    await (await theDialog()).close();
    await expect(asked).resolves.toBeNull();

    const strict = DialogV2.wait({ buttons: [{ action: 'ok', label: 'OK' }], rejectClose: true });
    await (await theDialog()).close();
    await expect(strict).rejects.toThrow('dismissed');
    // A dialog answered closes too: no rejection then, and the answer stands.
    const answered = DialogV2.wait({ buttons: [{ action: 'ok', label: 'OK' }], rejectClose: true });
    await (await theDialog()).press('ok');
    await expect(answered).resolves.toBe('ok');
  });

  it('D6: prompt: one Confirm button (ok, default) merged with `ok`, before the buttons given; input: the form\'s data', async () => {
    const p = DialogV2.prompt({ content: '<input name="x" value="3">', ok: { label: 'Send', callback: () => 'sent' }, buttons: [{ action: 'later', label: 'Later' }] });
    let d = await theDialog();
    expect(d.buttonsShown().map((b) => b.action)).toEqual(['ok', 'later']);
    expect(d.buttonsShown()[0].label).toBe('Send');
    expect(d.html).toMatch(/data-action="ok"[^>]* autofocus/);
    await d.press('later');
    await expect(p).resolves.toBe('later');

    const plain = DialogV2.prompt({ content: '<p>Go?</p>' });
    d = await theDialog();
    expect(d.buttonsShown()).toEqual([{ action: 'ok', label: 'Confirm', disabled: false }]);
    await d.press('ok');
    await expect(plain).resolves.toBe('ok');

    const input = DialogV2.input({ content: '<input name="feet" type="number" value="30"><input name="who" value="Brand">' });
    d = await theDialog();
    await d.press('ok', { feet: '40' });
    await expect(input).resolves.toEqual({ feet: 40, who: 'Brand' });
  });

  it('D7: confirm: Yes (true) and No (false, default); dismissed: null', async () => {
    for (const [action, expected] of [
      ['yes', true],
      ['no', false],
    ] as const) {
      const c = DialogV2.confirm({ content: '<p>Sure?</p>' });
      const d = await theDialog();
      expect(d.buttonsShown().map((b) => `${b.action}:${b.label}`)).toEqual(['yes:Yes', 'no:No']);
      expect(d.html).toMatch(/data-action="no"[^>]* autofocus/);
      await d.press(action);
      await expect(c).resolves.toBe(expected);
    }
    const c = DialogV2.confirm({ content: '<p>Sure?</p>' });
    await (await theDialog()).close();
    await expect(c).resolves.toBeNull();
  });

  it('D8: the `render` callback runs on each render; a dialog is in foundry.applications.instances while open', async () => {
    let renders = 0;
    const w = DialogV2.wait({ buttons: [{ action: 'ok', label: 'OK' }], render: () => void renders++ });
    const d = await theDialog();
    expect(renders).toBe(1);
    expect(g.foundry.applications.instances.get(d.id)).toBe(d);
    await d.render();
    expect(renders).toBe(2);
    await d.press('ok');
    await w;
    expect(g.foundry.applications.instances.has(d.id)).toBe(false);
  });

  it(`D9: a button's \`disabled\` ${generation >= 14 ? 'is drawn (v14) and cannot be pressed' : 'is not read (v13 has none)'}; v14 forwards renderOptions`, async () => {
    const w = DialogV2.wait({ buttons: [{ action: 'ok', label: 'OK', disabled: true }, { action: 'no', label: 'No' }], renderOptions: { position: { width: 480 } } });
    const d = await theDialog();
    expect(d.buttonsShown()[0].disabled).toBe(generation >= 14);
    if (generation >= 14) await expect(d.press('ok')).rejects.toThrow('no button ok');
    else await d.press('ok');
    if (generation >= 14) await d.press('no');
    await expect(w).resolves.toBe(generation >= 14 ? 'no' : 'ok');
  });

  it('the system\'s GM form (gm-prompts askForm) through DialogV2.prompt: the fields as text, closed: null', async () => {
    const asked = askForm('Distance', '<label>Feet <input type="number" name="feet" step="1"></label><label><input type="checkbox" name="secret"> Secret</label><input type="number" name="blank">');
    let d = await theDialog();
    expect(d.options.window.title).toBe('Distance');
    expect(d.html).toContain('class="ten-segments tenseg-prompt"');
    await d.press('ok', { feet: '60', secret: true });
    await expect(asked).resolves.toEqual({ feet: '60', secret: 'on', blank: '' });

    const closed = askForm('Distance', '<input name="feet">');
    d = await theDialog();
    await d.close();
    await expect(closed).resolves.toBeNull();

    // A form with no fields, confirmed: an empty answer (not the button's action).
    const empty = askForm('Roster', '<p>Nothing to type</p>');
    d = await theDialog();
    await d.press('ok');
    await expect(empty).resolves.toEqual({});
  });
});
