/**
 * Small forms the GM's controls ask before sending a request: the dice of
 * initiative rolled at the table (manual-dice.ts), why a casting broke, a
 * Heal check's total, a Combat Injury. Loaded when first used (not at
 * start-up). Each form only gathers what the GM types; the request path
 * checks it (schema, then the engine) and a refusal comes back in words.
 */
import { BREAK_CAUSES, type BreakCause } from '../../rules/flow/state';
import { DAMAGE_TYPES } from '../../rules/model';
import type { TenSegmentsCombat } from '../../documents/combat';
import { requestMidRound } from '../../documents/midround';

const t = (key: string): string => game.i18n!.localize(`TENSEG.Tracker.${key}`);

/** Text for HTML. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

type Prompt = (config: Record<string, unknown>) => Promise<unknown>;

/** A form in a DialogV2 prompt: its fields' values on OK, null when closed. */
export async function askForm(title: string, content: string): Promise<Record<string, string> | null> {
  const DialogV2 = (foundry.applications as unknown as { api?: { DialogV2?: { prompt?: Prompt } } }).api?.DialogV2;
  if (!DialogV2?.prompt) return null;
  const result = await DialogV2.prompt({
    window: { title },
    content: `<div class="ten-segments tenseg-prompt">${content}</div>`,
    rejectClose: false,
    ok: {
      label: t('Confirm'),
      callback: (_event: Event, button: HTMLButtonElement) => {
        const form = button.form;
        if (!form) return null;
        const out: Record<string, string> = {};
        for (const [k, v] of new FormData(form).entries()) out[k] = String(v);
        return out;
      },
    },
  });
  return (result as Record<string, string> | null | undefined) ?? null;
}

/** Why a casting broke, chosen by the GM (null: closed). */
export async function askBreakCause(): Promise<BreakCause | null> {
  const options = BREAK_CAUSES.map((why) => `<option value="${why}">${escape(t(`Break.${why}`))}</option>`).join('');
  const form = await askForm(t('BreakCasting'), `<label>${escape(t('BreakWhy'))} <select name="why">${options}</select></label>`);
  const why = form?.why;
  return (BREAK_CAUSES as readonly string[]).includes(why ?? '') ? (why as BreakCause) : null;
}

/** A number typed in a form, or undefined when blank (a wrong one is sent as typed: the request path refuses it in words). */
function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return Number(value);
}

function shown(answer: { ok: boolean; message?: string }): void {
  if (!answer.ok && answer.message) ui.notifications?.error(answer.message);
}

/** individual-speed: the total of a Heal check the GM rolled, for a Dying or Incapacitated combatant. */
export async function healCheck(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
  const form = await askForm(t('HealCheck'), `<label>${escape(t('HealTotal'))} <input type="number" name="total" step="1" autofocus></label>`);
  const total = numberOf(form?.total);
  if (total === undefined) return;
  shown(await requestMidRound(combat, 'heal', { combatantId, total }));
}

/** individual-speed: a Combat Injury — the damage type's table and its row, or the GM's own words. */
export async function injury(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
  const types = DAMAGE_TYPES.map((d) => `<option value="${d}">${escape(game.i18n!.localize(`TENSEG.DamageType.${d}`))}</option>`).join('');
  const form = await askForm(
    t('Injury'),
    `<label>${escape(t('InjuryType'))} <select name="damageType"><option value=""></option>${types}</select></label>
     <label>${escape(t('InjuryRow'))} <input type="number" name="row" step="1" min="1"></label>
     <label>${escape(t('InjuryText'))} <input type="text" name="text"></label>`,
  );
  if (!form) return;
  const extra: { damageType?: (typeof DAMAGE_TYPES)[number]; row?: number; text?: string } = {};
  if (form.damageType) extra.damageType = form.damageType as (typeof DAMAGE_TYPES)[number];
  const row = numberOf(form.row);
  if (row !== undefined) extra.row = row;
  if (form.text?.trim()) extra.text = form.text.trim();
  shown(await requestMidRound(combat, 'injury', { combatantId, ...extra }));
}
