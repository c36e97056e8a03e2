/**
 * Small forms the GM's controls ask before sending a request: the dice of
 * initiative rolled at the table (manual-dice.ts), why a casting broke, a
 * Heal check's total, a Combat Injury. Loaded when first used (not at
 * start-up). Each form only gathers what the GM types; the request path
 * checks it (schema, then the engine) and a refusal comes back in words.
 */
import { BREAK_CAUSES, type BreakCause } from '../../rules/flow/state';
import { fallenReason } from '../../rules/flow/acting';
import { DAMAGE_TYPES } from '../../rules/model';
import type { TenSegmentsCombat } from '../../documents/combat';
import { requestMidRound } from '../../documents/midround';
import { actorData } from '../../data/systems';
import { spellOf } from '../../data/engine-view';

const t = (key: string): string => game.i18n!.localize(`TENSEG.Tracker.${key}`);

/** Text for HTML. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

type Prompt = (config: Record<string, unknown>) => Promise<unknown>;

/** The forms' asker: a DialogV2 prompt (tests replace `ask` with the values a GM would type). */
export const forms = {
  ask: promptForm,
};

/** A form shown to the GM: its fields' values on OK, null when closed. */
export function askForm(title: string, content: string): Promise<Record<string, string> | null> {
  return forms.ask(title, content);
}

/** A form in a DialogV2 prompt: its fields' values on OK, null when closed. */
async function promptForm(title: string, content: string): Promise<Record<string, string> | null> {
  const DialogV2 = (foundry.applications as unknown as { api?: { DialogV2?: { prompt?: Prompt } } }).api?.DialogV2;
  if (!DialogV2?.prompt) return null;
  const result = await DialogV2.prompt({
    window: { title },
    content: `<div class="ten-segments tenseg-prompt">${content}</div>`,
    rejectClose: false,
    ok: {
      label: t('Confirm'),
      // The form's fields as core reads them (FormDataExtended), as text: a number left blank is '', a box ticked 'on'
      // and one not ticked absent (as a browser submits them). Always an object: a callback's null would make
      // DialogV2 resolve to the button's action ("ok") instead.
      callback: (_event: Event, button: HTMLButtonElement) => {
        const out: Record<string, string> = {};
        if (!button.form) return out;
        const data = new foundry.applications.ux.FormDataExtended(button.form).object as Record<string, unknown>;
        for (const [k, v] of Object.entries(data)) {
          if (v === false) continue;
          out[k] = v === true ? 'on' : v === null || v === undefined ? '' : String(v);
        }
        return out;
      },
    },
  });
  return result !== null && typeof result === 'object' ? (result as Record<string, string>) : null;
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

/**
 * The GM's damage or healing for a combatant without opening its sheet: the
 * amount typed (a negative number heals) is taken from the actor's health as
 * an edit on the sheet or the token's bar would be — Stress first, then Wound
 * Points where the actor counts them under individual-speed, hp otherwise —
 * and the active GM records the change as it records any (documents/damage.ts:
 * a hit, a casting interrupted, a combatant falling, its card).
 */
export async function applyDamage(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
  const actor = combat.combatants.get(combatantId)?.actor;
  const sys = actor ? actorData(actor) : null;
  if (!actor || !sys) return void ui.notifications?.error(t('DamageNoActor'));
  const form = await askForm(t('ApplyDamage'), `<label>${escape(t('DamageAmount'))} <input type="number" name="amount" step="1" autofocus></label>`);
  const amount = numberOf(form?.amount);
  if (amount === undefined || amount === 0) return;
  if (!Number.isInteger(amount)) return void ui.notifications?.error(t('DamageWhole'));
  const ind = 'individual' in sys ? sys.individual : undefined;
  if (combat.flowState?.procedure === 'individual-speed' && ind && (ind.stress.max > 0 || ind.wounds.max > 0)) {
    let stress = ind.stress.value;
    let wounds = ind.wounds.value;
    if (amount > 0) {
      const fromStress = Math.min(Math.max(0, stress), amount);
      stress -= fromStress;
      wounds -= amount - fromStress;
    } else {
      // Healing: Wound Points first, up to their maximum, then Stress.
      const toWounds = Math.min(Math.max(0, ind.wounds.max - wounds), -amount);
      wounds += toWounds;
      stress = Math.min(ind.stress.max, stress + (-amount - toWounds));
    }
    await actor.update({ 'system.individual.stress.value': stress, 'system.individual.wounds.value': wounds } as never);
    return;
  }
  const hp = sys.hp.value - amount;
  await actor.update({ 'system.hp.value': amount < 0 && sys.hp.max > 0 ? Math.min(sys.hp.max, hp) : hp } as never);
}

/**
 * d12-ascending II.C ("A spellcaster may decide on his initiative result what
 * spell to cast, if any"): at its turn, the caster's owner (or the GM) picks
 * one of the actor's spells with a copy left, or none.
 */
export async function chooseSpell(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
  const actor = combat.combatants.get(combatantId)?.actor;
  const spells = (actor?.items.contents ?? []).flatMap((item) => {
    const s = spellOf({ name: item.name ?? '', type: item.type, system: item.system });
    const left = s ? (s.memorized ?? 0) - (s.expended ?? 0) : 0;
    return s && left > 0 && item.id ? [`<option value="${escape(item.id)}">${escape(item.name ?? '')}</option>`] : [];
  });
  const form = await askForm(
    t('ChooseSpell'),
    `<label>${escape(t('ChooseSpell'))} <select name="spell">${spells.join('')}<option value="">${escape(t('ChooseNone'))}</option></select></label>`,
  );
  if (!form) return;
  shown(await requestMidRound(combat, 'choose', form.spell ? { combatantId, spell: form.spell } : { combatantId, none: true }));
}

/**
 * Rules revision 5 (src/rules/flow/retarget.ts): an attacker whose target fell — its owner chooses another opponent
 * still standing, to hold, or nothing. The engine checks the choice; a refusal comes back in words.
 */
export async function chooseTarget(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
  const state = combat.flowState;
  const me = state?.encounter.combatants.find((c) => c.id === combatantId);
  if (!state || !me) return;
  const foes = state.encounter.combatants.filter((c) => c.side !== me.side && fallenReason(state.states[c.id]) === null);
  const options = foes.map((c) => `<option value="target:${escape(c.id)}">${escape(c.name)}</option>`);
  options.push(`<option value="hold">${escape(t('RetargetHold'))}</option>`, `<option value="none">${escape(t('RetargetNone'))}</option>`);
  const form = await askForm(t('Retarget'), `<label>${escape(t('Retarget'))} <select name="choice">${options.join('')}</select></label>`);
  const choice = form?.choice;
  if (!choice) return;
  const extra = choice === 'hold' ? { hold: true } : choice === 'none' ? { none: true } : { targetId: choice.slice('target:'.length) };
  shown(await requestMidRound(combat, 'retarget', { combatantId, ...extra }));
}

/** addict phase 3: the encounter distance in feet (the text gives no table). */
export async function encounterDistance(combat: TenSegmentsCombat): Promise<void> {
  const now = combat.flowState?.encounter.distance;
  const value = typeof now === 'number' ? ` value="${now}"` : '';
  const form = await askForm(t('Distance'), `<label>${escape(t('DistanceFeet'))} <input type="number" name="feet" step="1" min="0"${value} autofocus></label>`);
  const feet = numberOf(form?.feet);
  if (feet === undefined) return;
  shown(await requestMidRound(combat, 'distance', { feet }));
}

/**
 * addict phase 1: each side's reaction in the GM's words, the roll if one was
 * made, secret or not; a side left blank is not recorded. One request a side,
 * stopping at the first refusal (told in words).
 */
export async function recordReactions(combat: TenSegmentsCombat): Promise<void> {
  const recorded = combat.flowState?.encounter.reactions ?? {};
  const groups = combat.groups.contents.map((g) => ({ id: g.id as string, name: g.name ?? '' }));
  const fields = groups.map(({ id, name }) => {
    const had = recorded[id];
    return `<fieldset><legend>${escape(name)}</legend>
      <label>${escape(t('ReactionResult'))} <input type="text" name="result.${escape(id)}" value="${escape(had?.result ?? '')}"></label>
      <label>${escape(t('ReactionRoll'))} <input type="number" name="roll.${escape(id)}" step="1" value="${had?.roll ?? ''}"></label>
      <label><input type="checkbox" name="secret.${escape(id)}"${had?.secret ? ' checked' : ''}> ${escape(t('ReactionSecret'))}</label></fieldset>`;
  });
  const form = await askForm(t('Reactions'), fields.join(''));
  if (!form) return;
  for (const { id } of groups) {
    const result = form[`result.${id}`]?.trim();
    if (!result) continue;
    const roll = numberOf(form[`roll.${id}`]);
    const answer = await requestMidRound(combat, 'reaction', { groupId: id, result, ...(roll !== undefined ? { roll } : {}), ...(form[`secret.${id}`] ? { secret: true } : {}) });
    shown(answer);
    if (!answer.ok) return;
  }
}

/**
 * addict phase 6, declaring in turn: the GM orders the roster (who declares,
 * in what order; a die then picks who is first). Prefilled with the last
 * round's order, else the player-owned combatants in the combat's order; a
 * place left blank keeps its place. Null: closed, nothing started.
 */
export async function askRoster(combat: TenSegmentsCombat, roster: readonly string[]): Promise<string[] | null> {
  if (roster.length < 2) return [...roster];
  const fields = roster.map((id, i) => {
    const name = combat.combatants.get(id)?.name ?? id;
    return `<label>${escape(name)} <input type="number" name="order.${escape(id)}" step="1" min="1" value="${i + 1}"></label>`;
  });
  const form = await askForm(t('RosterOrder'), `<p>${escape(t('RosterHint'))}</p>${fields.join('')}`);
  if (!form) return null;
  const place = (id: string, i: number): number => numberOf(form[`order.${id}`]) ?? i + 1;
  return roster
    .map((id, i) => ({ id, i, at: place(id, i) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map(({ id }) => id);
}
