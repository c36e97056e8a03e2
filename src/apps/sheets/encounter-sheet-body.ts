/**
 * The encounter sheet's body (a chunk loaded when the sheet is first drawn):
 * its context (each member's name, picture and count, the side, the notes),
 * what its buttons do, and a monster dropped on it becoming a member.
 */
import type { CoreEncounterSheet } from './encounter-sheet';
import { encounterData } from '../../data/systems';
import { ACTOR_UUID_PATTERN } from '../../data/encounter-model';
import { LIMITS } from '../../data/shapes';

const i18n = () => game.i18n!;
const t = (key: string) => i18n().localize(`TENSEG.Encounter.${key}`);

interface Member {
  uuid: string;
  count: number;
}

/** A member as the sheet shows it: the monster's name and picture (a compendium's from its index), or "not found". */
function memberView(member: Member, index: number) {
  const found = fromUuidSync(member.uuid as never) as { name?: string; img?: string } | null;
  return {
    index,
    uuid: member.uuid,
    count: member.count,
    name: found?.name ?? t('MemberNotFound'),
    img: found?.img ?? 'icons/svg/mystery-man.svg',
    missing: !found,
    fewer: member.count > LIMITS.encounterCount.min,
    more: member.count < LIMITS.encounterCount.max,
  };
}

export async function prepareEncounterContext(sheet: CoreEncounterSheet, context: Record<string, unknown>): Promise<Record<string, unknown>> {
  const system = encounterData(sheet.actor);
  const editable = !!context.editable;
  const members = (system?.members ?? []).map((m, i) => memberView(m, i));
  const disposition = system?.disposition ?? -1;
  return {
    ...context,
    ts: {
      type: 'encounter',
      editable,
      dis: editable ? '' : 'disabled',
      isGM: !!game.user?.isGM,
      members,
      size: members.reduce((n, m) => n + m.count, 0),
      dispositions: ([-1, 0, 1] as const).map((value) => ({
        value,
        label: i18n().localize(`TENSEG.Side.${value === -1 ? 'hostile' : value === 0 ? 'neutral' : 'friendly'}`),
        selected: value === disposition,
      })),
      notes: system?.notes ?? '',
    },
  };
}

function membersOf(sheet: CoreEncounterSheet): Member[] {
  return (encounterData(sheet.actor)?.members ?? []).map((m) => ({ uuid: m.uuid, count: m.count }));
}

const indexOf = (target: HTMLElement) => Number(target.closest<HTMLElement>('[data-member]')?.dataset.member ?? -1);

/** The sheet's buttons (`data-action` in templates/encounter). */
export const ENCOUNTER_SHEET_ACTIONS = ['placeEncounter', 'memberMore', 'memberFewer', 'memberRemove', 'memberOpen'] as const;
export type EncounterSheetAction = (typeof ENCOUNTER_SHEET_ACTIONS)[number];

/** What a button does; any other `data-action` does nothing, as in core. */
export async function onEncounterAction(sheet: CoreEncounterSheet, name: string, _event: Event, target: HTMLElement): Promise<void> {
  if (!(ENCOUNTER_SHEET_ACTIONS as readonly string[]).includes(name)) return;
  const action = name as EncounterSheetAction;
  if (action === 'placeEncounter') {
    await (await import('../../documents/encounter-place')).placeOnViewedScene(sheet.actor);
    return;
  }
  const members = membersOf(sheet);
  const i = indexOf(target);
  const member = members[i];
  if (!member) return;
  if (action === 'memberOpen') {
    const doc = (await fromUuid(member.uuid as never)) as { sheet?: { render(options: object): unknown } } | null;
    await doc?.sheet?.render({ force: true });
    return;
  }
  if (!sheet.isEditable) return;
  if (action === 'memberRemove') members.splice(i, 1);
  else if (action === 'memberMore') member.count = Math.min(LIMITS.encounterCount.max, member.count + 1);
  else if (action === 'memberFewer') member.count = Math.max(LIMITS.encounterCount.min, member.count - 1);
  await sheet.actor.update({ 'system.members': members } as never);
}

/** An actor dropped on the sheet: a creature (world or compendium) becomes a member, or one more of one; anything else is refused in words. */
export async function addMember(sheet: CoreEncounterSheet, actor: Actor.Implementation): Promise<unknown> {
  if (!sheet.isEditable) return null;
  const uuid = actor.uuid ?? '';
  if (actor.type === 'encounter' || !ACTOR_UUID_PATTERN.test(uuid)) {
    ui.notifications?.warn(i18n().format('TENSEG.Encounter.NotAMember', { name: actor.name ?? '' }));
    return null;
  }
  const members = membersOf(sheet);
  const same = members.find((m) => m.uuid === uuid);
  if (same) same.count = Math.min(LIMITS.encounterCount.max, same.count + 1);
  else members.push({ uuid, count: 1 });
  return sheet.actor.update({ 'system.members': members } as never);
}
