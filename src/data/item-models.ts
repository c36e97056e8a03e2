/**
 * Item system data: `weapon`, `spell`, `armor`, `gear`.
 */
import { castingSegments, LIMITS, SPELL_CLASSES } from './shapes';
import { boolField, checkedBy, fields, localizedProblem, htmlField, intField, numField, textField } from './fields';
import { CRITICAL_MULTIPLIERS, DEFAULT_CRITICAL_MULTIPLIER } from '../rules/armor-class';
import { DAMAGE_TYPES } from '../rules/model';

/** A damage entry: a dice formula ("1d8", "2d4+1"), a number or a range ("2-8"). */
export const DAMAGE_PATTERN = /^\s*(?:\d*d\d+(?:\s*[+-]\s*\d+)?|\d+(?:\s*-\s*\d+)?)\s*$/i;

function damageField(initial: string) {
  const { StringField } = fields();
  return new StringField({
    required: true,
    blank: false,
    initial,
    validate: checkedBy((value) =>
      typeof value === 'string' && DAMAGE_PATTERN.test(value) ? null : { key: 'DamageInvalid', data: { value: String(value) } },
    ),
  });
}

function weaponSchema() {
  const { ArrayField, NumberField, SchemaField, StringField } = fields();
  return {
    damage: new SchemaField({ small: damageField('1d6'), large: damageField('1d6') }),
    speed: intField(LIMITS.weaponSpeed, 0),
    length: numField(LIMITS.reach, 0),
    space: numField(LIMITS.reach, 0),
    kind: new StringField({ required: true, blank: false, initial: 'melee', choices: { melee: 'TENSEG.Item.WeaponKind.melee', missile: 'TENSEG.Item.WeaponKind.missile' } }),
    rate: numField(LIMITS.rate, 1, 0.5),
    range: new SchemaField({
      short: numField(LIMITS.rangeFeet, 0),
      medium: numField(LIMITS.rangeFeet, 0),
      long: numField(LIMITS.rangeFeet, 0),
    }),
    missileBonus: intField(LIMITS.smallModifier, 0),
    // individual-speed (seed 003): "the weapon attack critical multiplier ... x2 ... x3 ... x4".
    critical: new NumberField({
      required: true,
      nullable: false,
      integer: true,
      initial: DEFAULT_CRITICAL_MULTIPLIER,
      choices: Object.fromEntries(CRITICAL_MULTIPLIERS.map((m) => [m, `TENSEG.Item.Critical.x${m}`])),
    }),
    // The Combat Injury tables a critical hit may roll on ("if there was more than one damage type, the player ... chooses").
    // (Each type once: validateJoint.)
    damageTypes: new ArrayField(new StringField({ required: true, blank: false, choices: Object.fromEntries(DAMAGE_TYPES.map((t) => [t, `TENSEG.DamageType.${t}`])) }), {
      required: true,
      initial: [],
    }),
    equipped: boolField(false),
    weight: numField(LIMITS.weight, 0),
    cost: numField(LIMITS.cost, 0),
    description: htmlField(),
  };
}

export type WeaponSchema = ReturnType<typeof weaponSchema>;

export class WeaponData extends foundry.abstract.TypeDataModel<WeaponSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Item.Base', 'TENSEG.Item.Weapon'];

  static override defineSchema(): WeaponSchema {
    return weaponSchema();
  }

  static override validateJoint(data: WeaponData['_source']): void {
    const types = data.damageTypes;
    if (Array.isArray(types) && new Set(types).size !== types.length) throw new Error(localizedProblem({ key: 'DamageTypesRepeated' }));
    const range = data.range;
    if (range && range.short > 0) {
      const { short: s, medium: m, long: l } = range;
      if ((m > 0 && m < s) || (l > 0 && l < Math.max(s, m))) {
        throw new Error(localizedProblem({ key: 'WeaponRangesOrder', data: { short: s, medium: m, long: l } }));
      }
    }
  }
}

function spellSchema() {
  const { ArrayField, SchemaField, StringField } = fields();
  return {
    level: intField(LIMITS.spellLevel, 1),
    castingTime: new SchemaField({
      value: intField(LIMITS.castingValue, 1),
      unit: new StringField({ required: true, blank: false, initial: 'segments', choices: { segments: 'TENSEG.Item.CastingUnit.segments', rounds: 'TENSEG.Item.CastingUnit.rounds' } }),
    }),
    castingTN: intField(LIMITS.castingTN, 0),
    range: textField(''),
    duration: textField(''),
    // The area of effect and the saving throw as the spell's text gives them ("20-ft radius", "negates").
    area: textField(''),
    save: textField(''),
    memorized: intField(LIMITS.memorized, 0),
    expended: intField(LIMITS.memorized, 0),
    // Whose spell list the spell is on (a spell may be on several); each class once: validateJoint.
    classes: new ArrayField(new StringField({ required: true, blank: false, choices: Object.fromEntries(SPELL_CLASSES.map((c) => [c, `TENSEG.Item.SpellClass.${c}`])) }), {
      required: true,
      initial: [],
    }),
    description: htmlField(),
  };
}

export type SpellSchema = ReturnType<typeof spellSchema>;

export class SpellData extends foundry.abstract.TypeDataModel<SpellSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Item.Base', 'TENSEG.Item.Spell'];

  static override defineSchema(): SpellSchema {
    return spellSchema();
  }

  static override validateJoint(data: SpellData['_source']): void {
    const classes = data.classes;
    if (Array.isArray(classes) && new Set(classes).size !== classes.length) throw new Error(localizedProblem({ key: 'SpellClassesRepeated' }));
    const ct = data.castingTime;
    if (ct && typeof ct.value === 'number' && (ct.unit === 'rounds' || ct.unit === 'segments')) {
      if (castingSegments({ value: ct.value, unit: ct.unit }) > LIMITS.castingSegments.max) {
        throw new Error(localizedProblem({ key: 'CastingTimeTooLong', data: { max: LIMITS.castingSegments.max } }));
      }
    }
    if (typeof data.memorized === 'number' && typeof data.expended === 'number' && data.expended > data.memorized) {
      throw new Error(localizedProblem({ key: 'SpellExpendedTooMany', data: { memorized: data.memorized, expended: data.expended } }));
    }
  }

  /** The casting time in segments ("1 round" = 10 segments). */
  get castingSegments(): number {
    return castingSegments(this.castingTime);
  }

  /** Copies still memorized and not expended. */
  get remaining(): number {
    return Math.max(0, this.memorized - this.expended);
  }
}

function armorSchema() {
  const { StringField } = fields();
  return {
    ac: intField(LIMITS.ac, 10),
    bonus: intField(LIMITS.smallModifier, 0),
    // individual-speed (seed 003): "most pieces of armour grant a bonus to Defense and/or Armour when worn".
    defense: intField(LIMITS.defenseBonus, 0),
    armour: intField(LIMITS.armour, 0),
    bulk: new StringField({ required: true, blank: false, initial: 'none', choices: { none: 'TENSEG.Item.Bulk.none', fairly: 'TENSEG.Item.Bulk.fairly', bulky: 'TENSEG.Item.Bulk.bulky' } }),
    movement: numField(LIMITS.movement, 0),
    equipped: boolField(false),
    weight: numField(LIMITS.weight, 0),
    cost: numField(LIMITS.cost, 0),
    description: htmlField(),
  };
}

export type ArmorSchema = ReturnType<typeof armorSchema>;

export class ArmorData extends foundry.abstract.TypeDataModel<ArmorSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Item.Base', 'TENSEG.Item.Armor'];

  static override defineSchema(): ArmorSchema {
    return armorSchema();
  }
}

function gearSchema() {
  return {
    weight: numField(LIMITS.weight, 0),
    quantity: intField({ min: 0, max: 100000 }, 1),
    // A magic device (a wand, rod or staff): its carrier may declare "Use a magic device" (issue 28).
    device: boolField(false),
    cost: numField(LIMITS.cost, 0),
    description: htmlField(),
  };
}

export type GearSchema = ReturnType<typeof gearSchema>;

export class GearData extends foundry.abstract.TypeDataModel<GearSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Item.Base', 'TENSEG.Item.Gear'];

  static override defineSchema(): GearSchema {
    return gearSchema();
  }
}
