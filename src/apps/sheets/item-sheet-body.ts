/**
 * What the item sheet shows (a chunk loaded when an item sheet is first
 * drawn; the shell is item-sheet.ts): the fields of each item type as rows
 * of controls, labelled from the data models' own field labels
 * (TENSEG.Item.<Type>.FIELDS.*), with what the models compute beside them
 * (a spell's casting time in segments, the copies left). No rule is decided
 * here: the values are the item's stored data, and every edit goes back
 * through the document's update, which the model validates.
 */
import { SYSTEM_ID } from '../../settings';
import { LIMITS, SPELL_CLASSES, castingSegments } from '../../data/shapes';
import { CRITICAL_MULTIPLIERS } from '../../rules/armor-class';
import { DAMAGE_TYPES } from '../../rules/model';
import { formatPlural } from '../../plural';

type Range = { readonly min: number; readonly max: number };

/** One control of the sheet, as the template draws it. */
export interface Control {
  kind: 'number' | 'text' | 'select' | 'checkbox' | 'checks' | 'shown';
  name?: string;
  /** The label (already localized) and its hint. */
  label: string;
  hint?: string;
  value?: string | number | boolean;
  min?: number;
  max?: number;
  step?: number | string;
  options?: { value: string; label: string; selected: boolean }[];
  /** checks: one checkbox per choice, each named `<name>.<value>`. */
  checks?: { name: string; label: string; checked: boolean }[];
  /** A field the world's procedure does not read (a note, the row dimmed). */
  unused?: boolean;
  /** How core's form data reads a select's value (`data-dtype`): Number for a numeric choice. */
  dtype?: 'Number';
  /** Extra classes for the row (a wide field). */
  cssClass?: string;
}

export interface Section {
  legend: string;
  /** A note under the legend (e.g. which procedure reads these). */
  note?: string;
  rows: Control[];
}

export interface ItemSheetContext {
  item: { name: string; img: string; type: string; typeLabel: string; uuid: string };
  editable: boolean;
  sections: Section[];
  description: { name: string; value: string; enriched: string };
  /** The note on a field only individual speed reads, when the world plays another procedure. */
  speedOnly: string;
}

/** The prefix of a damage type's checkbox name: the checkboxes become the weapon's list when submitted (gatherDamageTypes). */
const DAMAGE_TYPE_INPUT = 'damageType.';
/** The same for a spell's classes (`spellClass.<class>` → `system.classes`). */
const SPELL_CLASS_INPUT = 'spellClass.';

const i18n = () => game.i18n!;
const loc = (key: string): string => i18n().localize(key);
const has = (key: string): boolean => !!i18n().has?.(key);

/** A model field's label (and hint where lang has one): TENSEG.Item.<Type>.FIELDS.<path>, falling back to the common Base. */
function fieldText(type: string, path: string): { label: string; hint?: string } {
  const prefixes = [`TENSEG.Item.${type}.FIELDS.${path}`, `TENSEG.Item.Base.FIELDS.${path}`];
  const prefix = prefixes.find((p) => has(`${p}.label`)) ?? prefixes[0]!;
  const out: { label: string; hint?: string } = { label: loc(`${prefix}.label`) };
  if (has(`${prefix}.hint`)) out.hint = loc(`${prefix}.hint`);
  return out;
}

function read(source: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), source);
}

/** The world's procedure (a setting; the sheet notes the fields only individual speed reads). */
function worldProcedure(): string {
  try {
    return String(game.settings?.get(SYSTEM_ID, 'procedure') ?? '');
  } catch {
    return '';
  }
}

function builder(type: string, source: Record<string, unknown>) {
  const text = (path: string) => fieldText(type, path);
  return {
    number(path: string, range: Range, step: number | string = 1): Control {
      return { kind: 'number', name: `system.${path}`, ...text(path), value: read(source, path) as number, min: range.min, max: range.max, step };
    },
    text(path: string): Control {
      return { kind: 'text', name: `system.${path}`, ...text(path), value: String(read(source, path) ?? '') };
    },
    checkbox(path: string): Control {
      return { kind: 'checkbox', name: `system.${path}`, ...text(path), value: read(source, path) === true };
    },
    select(path: string, choices: Record<string, string>): Control {
      const current = String(read(source, path));
      return {
        kind: 'select',
        name: `system.${path}`,
        ...text(path),
        options: Object.entries(choices).map(([value, key]) => ({ value, label: loc(key), selected: value === current })),
      };
    },
  };
}

function weaponSections(source: Record<string, unknown>, speedRules: boolean): Section[] {
  const f = builder('Weapon', source);
  const types = new Set((read(source, 'damageTypes') as string[] | undefined) ?? []);
  const critical = f.select('critical', Object.fromEntries(CRITICAL_MULTIPLIERS.map((m) => [String(m), `TENSEG.Item.Critical.x${m}`])));
  critical.unused = !speedRules;
  critical.dtype = 'Number';
  const damageTypes: Control = {
    kind: 'checks',
    ...fieldText('Weapon', 'damageTypes'),
    checks: DAMAGE_TYPES.map((t) => ({ name: `${DAMAGE_TYPE_INPUT}${t}`, label: loc(`TENSEG.DamageType.${t}`), checked: types.has(t) })),
    unused: !speedRules,
    cssClass: 'wide',
  };
  return [
    {
      legend: loc('TENSEG.Sheet.Item.Section.Combat'),
      rows: [
        f.text('damage.small'),
        f.text('damage.large'),
        f.number('speed', LIMITS.weaponSpeed),
        f.number('length', LIMITS.reach, 'any'),
        f.number('space', LIMITS.reach, 'any'),
        f.select('kind', { melee: 'TENSEG.Item.WeaponKind.melee', missile: 'TENSEG.Item.WeaponKind.missile' }),
        f.checkbox('equipped'),
      ],
    },
    {
      legend: loc('TENSEG.Sheet.Item.Section.Missile'),
      rows: [
        f.number('rate', LIMITS.rate, 0.5),
        f.number('missileBonus', LIMITS.smallModifier),
        f.number('range.short', LIMITS.rangeFeet),
        f.number('range.medium', LIMITS.rangeFeet),
        f.number('range.long', LIMITS.rangeFeet),
      ],
    },
    { legend: loc('TENSEG.Sheet.Item.Section.Critical'), note: loc('TENSEG.Sheet.Item.IndividualSpeedNote'), rows: [critical, damageTypes] },
    { legend: loc('TENSEG.Sheet.Item.Section.Carried'), rows: [f.number('weight', LIMITS.weight, 'any'), f.number('cost', LIMITS.cost, 'any')] },
  ];
}

function spellSections(source: Record<string, unknown>, speedRules: boolean): Section[] {
  const f = builder('Spell', source);
  const value = Number(read(source, 'castingTime.value'));
  const unit = read(source, 'castingTime.unit') === 'rounds' ? 'rounds' : 'segments';
  const memorized = Number(read(source, 'memorized')) || 0;
  const expended = Number(read(source, 'expended')) || 0;
  const tn = f.number('castingTN', LIMITS.castingTN);
  tn.unused = !speedRules;
  const chosen = new Set((read(source, 'classes') as string[] | undefined) ?? []);
  const classes: Control = {
    kind: 'checks',
    ...fieldText('Spell', 'classes'),
    checks: SPELL_CLASSES.map((c) => ({ name: `${SPELL_CLASS_INPUT}${c}`, label: loc(`TENSEG.Item.SpellClass.${c}`), checked: chosen.has(c) })),
    cssClass: 'wide',
  };
  return [
    {
      legend: loc('TENSEG.Sheet.Item.Section.Casting'),
      rows: [
        classes,
        f.number('level', LIMITS.spellLevel),
        f.number('castingTime.value', LIMITS.castingValue),
        f.select('castingTime.unit', { segments: 'TENSEG.Item.CastingUnit.segments', rounds: 'TENSEG.Item.CastingUnit.rounds' }),
        // What the model computes: the casting in segments (1 round is 10 segments).
        {
          kind: 'shown',
          label: loc('TENSEG.Sheet.Item.CastingSegments'),
          value: Number.isFinite(value) ? formatPlural(i18n(), 'TENSEG.Sheet.Item.SegmentsCount', castingSegments({ value, unit }), { count: castingSegments({ value, unit }) }) : '',
        },
        tn,
        f.text('range'),
        f.text('duration'),
        f.text('area'),
        f.text('save'),
      ],
    },
    {
      legend: loc('TENSEG.Sheet.Item.Section.Memorized'),
      rows: [
        f.number('memorized', LIMITS.memorized),
        f.number('expended', LIMITS.memorized),
        { kind: 'shown', label: loc('TENSEG.Sheet.Item.Remaining'), value: Math.max(0, memorized - expended) },
      ],
    },
  ];
}

function armorSections(source: Record<string, unknown>, speedRules: boolean): Section[] {
  const f = builder('Armor', source);
  const defense = f.number('defense', LIMITS.defenseBonus);
  const armour = f.number('armour', LIMITS.armour);
  defense.unused = armour.unused = !speedRules;
  return [
    {
      legend: loc('TENSEG.Sheet.Item.Section.Protection'),
      rows: [f.number('ac', LIMITS.ac), f.number('bonus', LIMITS.smallModifier), defense, armour, f.checkbox('equipped')],
    },
    {
      legend: loc('TENSEG.Sheet.Item.Section.Carried'),
      rows: [
        f.select('bulk', { none: 'TENSEG.Item.Bulk.none', fairly: 'TENSEG.Item.Bulk.fairly', bulky: 'TENSEG.Item.Bulk.bulky' }),
        f.number('movement', LIMITS.movement),
        f.number('weight', LIMITS.weight, 'any'),
        f.number('cost', LIMITS.cost, 'any'),
      ],
    },
  ];
}

function gearSections(source: Record<string, unknown>): Section[] {
  const f = builder('Gear', source);
  return [
    { legend: loc('TENSEG.Sheet.Item.Section.Carried'), rows: [f.number('quantity', { min: 0, max: 100000 }), f.number('weight', LIMITS.weight, 'any'), f.number('cost', LIMITS.cost, 'any')] },
    // Issue 28: a magic device (wand, rod, staff) lets its carrier declare "Use a magic device".
    { legend: loc('TENSEG.Sheet.Item.Section.Magic'), rows: [f.checkbox('device')] },
  ];
}

/** The description as shown (enriched where core's TextEditor is there). */
async function enriched(html: string, item: Item.Implementation): Promise<string> {
  const editor = (foundry.applications as { ux?: { TextEditor?: { implementation?: { enrichHTML?: (html: string, o: object) => Promise<string> } } } }).ux?.TextEditor?.implementation;
  if (!editor?.enrichHTML) return html;
  return editor.enrichHTML(html, { relativeTo: item, secrets: item.isOwner });
}

/** The sheet's context for an item (its stored data, what the models compute, the labels). */
export async function itemContext(item: Item.Implementation, editable: boolean): Promise<ItemSheetContext> {
  const source = ((item as unknown as { _source: { system?: Record<string, unknown> } })._source.system ?? {}) as Record<string, unknown>;
  const speedRules = worldProcedure() === 'individual-speed';
  const type = item.type as string;
  const sections =
    type === 'weapon' ? weaponSections(source, speedRules) : type === 'spell' ? spellSections(source, speedRules) : type === 'armor' ? armorSections(source, speedRules) : type === 'gear' ? gearSections(source) : [];
  const description = String(source.description ?? '');
  return {
    item: { name: item.name ?? '', img: item.img ?? '', type, typeLabel: has(`TYPES.Item.${type}`) ? loc(`TYPES.Item.${type}`) : type, uuid: item.uuid ?? '' },
    editable,
    sections,
    description: { name: 'system.description', value: description, enriched: await enriched(description, item) },
    speedOnly: loc('TENSEG.Sheet.Item.UnusedHere'),
  };
}

/** The checkboxes named `<prefix><choice>` as a list in the choices' order, written into the form data as `field` (each once). */
function gatherList(formData: Record<string, unknown>, prefix: string, choices: readonly string[], field: string): void {
  const keys = Object.keys(formData).filter((k) => k.startsWith(prefix));
  if (keys.length === 0) return;
  const chosen = new Set(keys.filter((k) => formData[k] === true || formData[k] === 'on').map((k) => k.slice(prefix.length)));
  for (const k of keys) delete formData[k];
  formData[field] = choices.filter((t) => chosen.has(t));
}

/**
 * The damage types' checkboxes (`damageType.<type>`, checked or not) as the
 * weapon's list, in the rules' order, written into the submitted form data
 * as `system.damageTypes` (each type once, as the model requires); a
 * spell's class checkboxes (`spellClass.<class>`) likewise as `system.classes`.
 */
export function gatherDamageTypes(formData: Record<string, unknown> | undefined): void {
  if (!formData) return;
  gatherList(formData, DAMAGE_TYPE_INPUT, DAMAGE_TYPES, 'system.damageTypes');
  gatherList(formData, SPELL_CLASS_INPUT, SPELL_CLASSES, 'system.classes');
}
