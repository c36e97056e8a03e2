/**
 * The actor sheets' body (a chunk loaded when a sheet is first drawn; the
 * classes in actor-sheet.ts are thin shells). It builds what the templates
 * show — the combat block first — from the actor's data and what src/rules
 * computes of it (parseHitDice and what hit dice imply, parseAac0 and its
 * attack table, parseAttackRoutines, casting times), and carries out the
 * sheet's buttons through the documents (`item.update`, `Item.create`,
 * `item.delete`), whose data models validate: a refusal is shown in words.
 *
 * Nothing here decides a rule. Strings reach the templates localized, or as
 * keys the templates pass to `{{localize}}`.
 */
import type { CoreActorSheet } from './actor-sheet';
import { SYSTEM_ID } from '../../settings';
import { localizedProblem } from '../../data/fields';
import { formatPlural } from '../../plural';
import { FEET_PER_INCH, LIMITS, SIZES, castingSegments, ABILITY_KEYS, type ItemType } from '../../data/shapes';
import { parseAac0 } from '../../rules/armor-class';
import { attackTable } from '../../rules/attack-table';
import { parseAttackRoutines } from '../../rules/attack-routines';
import { attackBasis, attackHitDice, hitPointFormula, hitPointRange, moraleBonus, overallHitDice, parseHitDice, saveHitDice } from '../../rules/hit-dice';
import { carriedWeight, effectiveMovement, wornArmour, type ItemView } from '../../data/engine-view';
import { SEGMENTS_PER_ROUND } from '../../rules/model';
import { encumbrance, squaresOfInches } from '../../rules/encumbrance';

/* eslint-disable @typescript-eslint/no-explicit-any -- the actor's and items' source data are read as plain records */

const i18n = () => game.i18n!;
const t = (key: string, data?: Record<string, string | number>): string =>
  data ? i18n().format(`TENSEG.Sheet.Actor.${key}`, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) : i18n().localize(`TENSEG.Sheet.Actor.${key}`);

/** Whether the world plays individual-speed (read as src/documents reads the procedure: the world setting). */
export function worldProcedure(): string {
  return String(game.settings!.get(SYSTEM_ID, 'procedure') ?? '');
}

/** A signed modifier as a sheet shows it: "+2", "−1", "0". */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${Math.abs(n)}` : '0';
}

/* ------------------------------------------------------------------ context */

export interface NeededRow {
  ac: number;
  needed: number;
}

/** The attack table of an AAC0 (roll needed by AC, 10 down to -10), or the localized problem. */
export function aac0Table(aac0: unknown): { text: string; rows: NeededRow[]; problem: string | null } {
  const parsed = parseAac0(aac0);
  if (!parsed.ok) return { text: String(aac0 ?? ''), rows: [], problem: localizedProblem(parsed.problem) };
  return { text: parsed.value.text, rows: attackTable(parsed.value), problem: null };
}

export interface HitDiceView {
  ok: boolean;
  problem: string | null;
  text: string;
  attackRow: string;
  attackBasis: number;
  saveAs: number;
  overall: number;
  moraleBonus: string;
  formula: string;
  min: number;
  max: number;
}

/** What a monster's hit dice imply (src/rules/hit-dice.ts), or the localized problem. */
export function hitDiceView(text: unknown): HitDiceView {
  const parsed = parseHitDice(text);
  if (!parsed.ok) {
    return { ok: false, problem: localizedProblem(parsed.problem), text: String(text ?? ''), attackRow: '', attackBasis: 0, saveAs: 0, overall: 0, moraleBonus: '', formula: '', min: 0, max: 0 };
  }
  const hd = parsed.value;
  const range = hitPointRange(hd);
  return {
    ok: true,
    problem: null,
    text: hd.text,
    attackRow: attackHitDice(hd).label,
    attackBasis: attackBasis(hd).value,
    saveAs: saveHitDice(hd),
    overall: overallHitDice(hd),
    moraleBonus: signed(moraleBonus(hd)),
    formula: hitPointFormula(hd),
    min: range.min,
    max: range.max,
  };
}

export interface RoutineView {
  index: number;
  mode: string;
  text: string;
  count: string;
  aac0: string;
  effects: string;
  attacks: { name: string; count: number; damage: string; special: string }[];
}

/** A monster's attack routines as written, parsed (each attack, its count and damage), or the parser's localized problem. */
export function routinesView(text: unknown): { routines: RoutineView[]; problem: string | null } {
  const parsed = parseAttackRoutines(text);
  if (!parsed.ok) return { routines: [], problem: localizedProblem(parsed.problem) };
  return {
    problem: null,
    routines: parsed.value.map((r, index) => ({
      index,
      mode: i18n().localize(`TENSEG.Actor.Derived.${r.mode}`),
      text: r.text,
      count: formatPlural(i18n(), 'TENSEG.Actor.Derived.attacksPerRoutine', r.attackCount, { count: r.attackCount }),
      aac0: r.aac0 ?? '',
      effects: r.effects ?? '',
      attacks: r.attacks.map((a) => ({ name: a.name, count: a.count, damage: a.damage.join('/'), special: a.special ?? '' })),
    })),
  };
}

/** A casting time as the sheet shows it: "3 segments", "1 round" (and in segments, what the engine reads). */
export function castingText(castingTime: { value: number; unit: 'segments' | 'rounds' }): string {
  const segments = castingSegments(castingTime);
  if (castingTime.unit === 'rounds') return formatPlural(i18n(), 'TENSEG.Sheet.Actor.CastingRounds', castingTime.value, { value: castingTime.value, segments });
  return formatPlural(i18n(), 'TENSEG.Sheet.Actor.CastingSegments', segments, { value: segments });
}

interface ItemLike {
  id: string | null;
  name: string;
  type: string;
  img?: string | null;
  system: any;
  sort?: number;
}

const byName = (a: ItemLike, b: ItemLike) => (a.sort ?? 0) - (b.sort ?? 0) || a.name.localeCompare(b.name);

export interface ItemLists {
  weapons: Record<string, unknown>[];
  spellLevels: { level: number; label: string; spells: Record<string, unknown>[] }[];
  armor: Record<string, unknown>[];
  gear: Record<string, unknown>[];
  hasSpells: boolean;
}

/** The actor's items as the lists of the items tab show them. */
export function itemLists(items: readonly ItemLike[]): ItemLists {
  const of = (type: ItemType) => items.filter((i) => i.type === type).sort(byName);
  const feet = (n: number) => (n > 0 ? t('Feet', { value: n }) : '—');
  const weapons = of('weapon').map((i) => ({
    id: i.id,
    name: i.name,
    img: i.img ?? '',
    speed: i.system.speed,
    length: feet(i.system.length),
    space: feet(i.system.space),
    damage: `${i.system.damage?.small ?? ''} / ${i.system.damage?.large ?? ''}`,
    kind: i18n().localize(`TENSEG.Item.WeaponKind.${i.system.kind}`),
    equipped: !!i.system.equipped,
    equipLabel: t(i.system.equipped ? 'Unequip' : 'Equip'),
  }));
  const levels = new Map<number, Record<string, unknown>[]>();
  for (const i of of('spell')) {
    const level = Number(i.system.level ?? 0);
    const memorized = Number(i.system.memorized ?? 0);
    const expended = Number(i.system.expended ?? 0);
    const row = {
      id: i.id,
      name: i.name,
      img: i.img ?? '',
      casting: castingText(i.system.castingTime ?? { value: 1, unit: 'segments' }),
      memorized,
      expended,
      remaining: Math.max(0, memorized - expended),
      canMemorize: memorized < LIMITS.memorized.max,
      canForget: memorized > expended && memorized > 0,
      canExpend: expended < memorized,
      canRestore: expended > 0,
    };
    levels.set(level, [...(levels.get(level) ?? []), row]);
  }
  const spellLevels = [...levels.keys()].sort((a, b) => a - b).map((level) => ({ level, label: t('SpellLevel', { level }), spells: levels.get(level)! }));
  const armor = of('armor').map((i) => ({
    id: i.id,
    name: i.name,
    img: i.img ?? '',
    ac: i.system.ac,
    bonus: signed(Number(i.system.bonus ?? 0)),
    equipped: !!i.system.equipped,
    equipLabel: t(i.system.equipped ? 'Unequip' : 'Equip'),
  }));
  const gear = of('gear').map((i) => ({ id: i.id, name: i.name, img: i.img ?? '', quantity: i.system.quantity, weight: i.system.weight }));
  return { weapons, spellLevels, armor, gear, hasSpells: spellLevels.length > 0 };
}

/** What the encumbrance block shows (seed 002's table, src/rules/encumbrance.ts) and how the world's procedure reads it. */
export interface EncumbranceView {
  /** Pounds: the items' weight, the other load written on the sheet, and both. */
  items: number;
  other: number;
  carried: number;
  band: string;
  bandLabel: string;
  inches: number;
  squares: number;
  /** Feet per round as the world's procedure reads the rate: d12-ascending its squares × 5 ft, others its inches × 10 ft. */
  feet: number;
  /** How those feet are reached, in words. */
  feetText: string;
  /** Whether the world's procedure applies the rate (its option `encumbrance`). */
  applies: boolean;
  appliesText: string;
}

/**
 * Whether the world's procedure applies encumbrance to movement: its saved
 * option `encumbrance`, else the default (on for d12-ascending only).
 */
export function encumbranceApplies(procedure: string, saved: Record<string, Record<string, unknown>> | null | undefined): boolean {
  const value = saved?.[procedure]?.encumbrance;
  return typeof value === 'boolean' ? value : procedure === 'd12-ascending';
}

/**
 * A character's encumbrance as the sheet shows it: the weight carried (its
 * items and the other load noted), the band of seed 002's table, the rate
 * it allows (no more than the character's own rate, armour worn included),
 * in inches and squares, and the feet per round the world's procedure reads.
 */
export function encumbranceView(system: any, items: ItemView[], procedure: string, saved: Record<string, Record<string, unknown>> | null | undefined): EncumbranceView {
  const itemsWeight = carriedWeight(items);
  const noted = Number(system?.encumbrance?.carried ?? 0);
  const other = Number.isFinite(noted) && noted > 0 ? noted : 0;
  const carried = itemsWeight + other;
  const own = effectiveMovement(Number(system?.movement?.base ?? 0), items) / FEET_PER_INCH;
  const rate = encumbrance(carried, own, system?.size === 'small');
  const squares = squaresOfInches(rate.inches);
  const d12 = procedure === 'd12-ascending';
  const feet = d12 ? squares * 5 : rate.inches * FEET_PER_INCH;
  const applies = encumbranceApplies(procedure, saved);
  const procedureName = i18n().localize(`TENSEG.Procedure.${procedure}.Name`);
  return {
    items: itemsWeight,
    other,
    carried,
    band: rate.band,
    bandLabel: t(`Encumbrance.Band.${rate.band}`),
    inches: rate.inches,
    squares,
    feet,
    feetText: t(d12 ? 'Encumbrance.FeetSquares' : 'Encumbrance.FeetInches', { feet, squares, inches: rate.inches }),
    applies,
    appliesText: t(applies ? 'Encumbrance.Applies' : 'Encumbrance.NotApplied', { procedure: procedureName }),
  };
}

function sizeChoices(selected: string) {
  return SIZES.map((value) => ({ value, label: `TENSEG.Actor.Size.${value}`, selected: value === selected }));
}

/**
 * The individual-speed block's totals: the actor's own Defense and Armour
 * bonuses with those of the armour worn (engine-view's wornArmour, as the
 * engine reads them).
 */
function individualView(system: any, items: ItemView[]) {
  const ind = system.individual ?? {};
  const worn = wornArmour(items);
  const defense = Number(ind.defense ?? 0) + worn.defense;
  const armour = Number(ind.armour ?? 0) + worn.armour;
  return {
    defense,
    armour,
    defenseText: t('DefenseTotal', { value: signed(defense), worn: signed(worn.defense) }),
    armourText: t('ArmourTotal', { value: armour, worn: worn.armour }),
  };
}

/** The enriched HTML of a biography or notes field (core's TextEditor), for reading when the sheet cannot be edited. */
async function enriched(html: string, actor: Actor.Implementation): Promise<string> {
  const editor = (foundry.applications as any).ux?.TextEditor?.implementation;
  if (!editor?.enrichHTML) return html;
  return editor.enrichHTML(html, { relativeTo: actor, secrets: actor.isOwner });
}

/** The sheet's context: core's (document, source, fields, editable, tabs…) and ours under `ts`. */
export async function prepareActorContext(sheet: CoreActorSheet, context: Record<string, unknown>): Promise<Record<string, unknown>> {
  const actor = sheet.actor;
  const source = ((context.source as any) ?? actor.toObject()).system ?? {};
  const system = actor.system as any;
  const items: ItemLike[] = actor.items.contents.map((i) => ({ id: i.id, name: i.name ?? '', type: i.type, img: i.img, system: i.system, sort: i.sort }));
  const views: ItemView[] = items.map((i) => ({ id: i.id ?? undefined, name: i.name, type: i.type, system: i.system }));
  const individual = worldProcedure() === 'individual-speed';
  const editable = !!context.editable;
  const html = String((actor.type === 'monster' ? source.notes : source.biography) ?? '');
  const lists = itemLists(items);
  const base = {
    type: actor.type,
    editable,
    /** Every input's attribute: disabled when the user may not edit (core disables a read-only sheet's form too). */
    dis: editable ? '' : 'disabled',
    individual,
    sizes: sizeChoices(String(source.size ?? 'medium')),
    lists,
    aac0: aac0Table(actor.type === 'monster' ? source.aac0 : source.attack?.aac0),
    movement: {
      inches: i18n().format('TENSEG.Actor.Derived.inches', { inches: String(Number(source.movement?.base ?? 0) / FEET_PER_INCH) }),
      effective: effectiveMovement(Number(source.movement?.base ?? 0), views),
    },
    ind: individualView(system, views),
    prose: {
      name: actor.type === 'monster' ? 'system.notes' : 'system.biography',
      value: html,
      enriched: await enriched(html, actor),
      uuid: actor.uuid,
    },
    create: (['weapon', 'spell', 'armor', 'gear'] as const).map((type) => ({ type, label: t(`Create.${type}`) })),
  };
  let extra: Record<string, unknown>;
  if (actor.type === 'monster') {
    extra = {
      hd: hitDiceView(source.hitDice),
      routines: routinesView(source.attacks ?? ''),
    };
  } else {
    const dex = Number(source.abilities?.dex ?? 10);
    extra = {
      attackModes: ['aac0', 'table'].map((value) => ({ value, label: `TENSEG.Actor.AttackMode.${value}`, selected: value === source.attack?.mode })),
      byTable: source.attack?.mode === 'table',
      dexScore: dex,
      abilities: ABILITY_KEYS.map((key) => ({ key, name: `system.abilities.${key}`, label: `TENSEG.Ability.${key}.long`, abbr: `TENSEG.Ability.${key}.abbr`, value: source.abilities?.[key] ?? 10 })),
      carried: carriedWeight(views),
      encumbrance: encumbranceView(source, views, worldProcedure(), game.settings!.get(SYSTEM_ID, 'procedureOptions') as Record<string, Record<string, unknown>> | undefined),
    };
  }
  // Core puts the tabs of a sheet's one tab group in the context; asked here when it has not.
  context.tabs ??= sheet._prepareTabs('primary');
  return Object.assign(context, { ts: { ...base, ...extra, system: source, segmentsPerRound: SEGMENTS_PER_ROUND } });
}

/* ------------------------------------------------------------------ actions */

/** An item's id from the clicked element or its row (`data-item-id`). */
function itemIdOf(target: HTMLElement): string | null {
  return target.dataset?.itemId ?? (target.closest?.('[data-item-id]') as HTMLElement | null)?.dataset?.itemId ?? null;
}

/** An update through the item's data model; a refusal (validation error) is shown in words and nothing is written. */
async function updateItem(item: Item.Implementation, changes: Record<string, unknown>): Promise<boolean> {
  try {
    await item.update(changes as never);
    return true;
  } catch (err) {
    ui.notifications?.error(err instanceof Error ? err.message : String(err));
    return false;
  }
}

/** Opens an item's sheet (core's `sheet` is an ApplicationV2 here: render with options). */
async function openSheet(item: Item.Implementation | null | undefined): Promise<void> {
  const sheet = item?.sheet as unknown as { render(options: object): Promise<unknown> } | null | undefined;
  await sheet?.render({ force: true });
}

/** A part's context: a tab's part gets its tab (core's convention: the part's root carries the tab's class and data-tab). */
export function partContext(partId: string, prepared: Record<string, unknown>): Record<string, unknown> {
  const tabs = prepared.tabs as Record<string, unknown> | undefined;
  if (tabs && partId in tabs) prepared.tab = tabs[partId];
  return prepared;
}

/** The buttons of the sheets (`data-action` in templates/actor). */
export const ACTOR_SHEET_ACTIONS = [
  'itemCreate',
  'itemEdit',
  'itemDelete',
  'itemEquip',
  'spellMemorize',
  'spellForget',
  'spellExpend',
  'spellRestore',
  'rollAttack',
  'rollDamage',
  'rollMorale',
] as const;
export type ActorSheetAction = (typeof ACTOR_SHEET_ACTIONS)[number];

/** What a sheet's button does (`this` = the sheet in core's call, passed here as `sheet`); any other `data-action` does nothing, as in core. */
export async function onSheetAction(sheet: CoreActorSheet, name: string, event: Event, target: HTMLElement): Promise<void> {
  if (!(ACTOR_SHEET_ACTIONS as readonly string[]).includes(name)) return;
  const action = name as ActorSheetAction;
  const actor = sheet.actor;
  const id = itemIdOf(target);
  const item = id ? (actor.items.get(id) ?? null) : null;
  switch (action) {
    case 'rollAttack':
    case 'rollDamage':
    case 'rollMorale': {
      const rolls = await import('./rolls');
      const routine = target.dataset?.routine;
      const which = { ...(id ? { itemId: id } : {}), ...(routine !== undefined ? { routine: Number(routine) } : {}) };
      if (action === 'rollAttack') await rolls.rollAttack(sheet as never, which);
      else if (action === 'rollDamage') await rolls.rollDamage(sheet as never, which);
      else await rolls.rollMorale(sheet as never);
      return;
    }
    case 'itemEdit':
      await openSheet(item);
      return;
    default:
      break;
  }
  if (!sheet.isEditable) return;
  switch (action) {
    case 'itemCreate': {
      const type = target.dataset?.type as ItemType | undefined;
      if (!type) return;
      const [created] = ((await actor.createEmbeddedDocuments('Item', [{ name: t(`New.${type}`), type } as never])) ?? []) as Item.Implementation[];
      await openSheet(created);
      return;
    }
    case 'itemDelete': {
      if (!item) return;
      const dialog = (item as unknown as { deleteDialog?: () => Promise<unknown> }).deleteDialog;
      if (typeof dialog === 'function') await dialog.call(item);
      else await item.delete();
      return;
    }
    case 'itemEquip':
      if (item && (item.type === 'weapon' || item.type === 'armor')) await updateItem(item, { 'system.equipped': !(item.system as any).equipped });
      return;
    case 'spellMemorize':
    case 'spellForget':
    case 'spellExpend':
    case 'spellRestore': {
      if (!item || item.type !== 'spell') return;
      const { memorized, expended } = item.system as any;
      const changes: Record<string, unknown> =
        action === 'spellMemorize'
          ? { 'system.memorized': memorized + 1 }
          : action === 'spellForget'
            ? { 'system.memorized': memorized - 1 }
            : action === 'spellExpend'
              ? { 'system.expended': expended + 1 }
              : { 'system.expended': expended - 1 };
      await updateItem(item, changes);
      return;
    }
    default:
      return;
  }
}

/** The item types an actor takes (every type the system has: monsters carry weapons and cast spells too). */
export const HELD_ITEM_TYPES: Readonly<Record<string, readonly string[]>> = {
  character: ['weapon', 'spell', 'armor', 'gear'],
  monster: ['weapon', 'spell', 'armor', 'gear'],
};

/** Whether a dropped item may go core's way (created on the actor, or sorted); one of a type this actor cannot hold is refused in words. */
export function acceptsItem(sheet: CoreActorSheet, item: Item.Implementation): boolean {
  if ((HELD_ITEM_TYPES[sheet.actor.type] ?? []).includes(item.type)) return true;
  ui.notifications?.warn(t('CannotHold', { actor: sheet.actor.name ?? '', item: item.name ?? '', type: item.type }));
  return false;
}
