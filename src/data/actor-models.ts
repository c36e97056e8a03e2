/**
 * Actor system data: `character` and `monster`. Validation refuses values off
 * the rules' scales (AC outside -10..10, negative level, unparseable hit dice
 * or attack routines); the pure checks live in src/rules.
 */
import { parseHitDice } from '../rules/hit-dice-parse';
import { parseAac0 } from '../rules/armor-class';
import { parseAttackRoutines, type AttackRoutine } from '../rules/attack-routines';
import type { Parsed } from '../rules/hit-dice-parse';
import type { Problem } from '../rules/model';
import { LIMITS, SIZES } from './shapes';
import {
  boolField,
  checkedBy,
  fields,
  htmlField,
  individualFields,
  intField,
  movementField,
  numField,
  surpriseField,
  textField,
  valueMaxField,
} from './fields';
import { migrateActorSource, migrateCharacterTurning } from './migrations';

function problemOf(result: Parsed<unknown>): Problem | null {
  return result.ok ? null : result.problem;
}

/** Small, man-sized or large: a weapon's damage column follows its target's size. */
function sizeField() {
  const { StringField } = fields();
  return new StringField({ required: true, blank: false, initial: 'medium', choices: Object.fromEntries(SIZES.map((k) => [k, `TENSEG.Actor.Size.${k}`])) });
}

function aac0Field(initial: string) {
  const { StringField } = fields();
  return new StringField({
    required: true,
    blank: false,
    initial,
    validate: checkedBy((value) => problemOf(parseAac0(value))),
  });
}

function characterSchema() {
  const { SchemaField, StringField } = fields();
  return {
    abilities: new SchemaField({
      str: intField(LIMITS.ability, 10),
      int: intField(LIMITS.ability, 10),
      wis: intField(LIMITS.ability, 10),
      dex: intField(LIMITS.ability, 10),
      con: intField(LIMITS.ability, 10),
      cha: intField(LIMITS.ability, 10),
    }),
    hp: valueMaxField(LIMITS.hp, 1),
    ac: intField(LIMITS.ac, 10),
    size: sizeField(),
    attack: new SchemaField({
      mode: new StringField({ required: true, blank: false, initial: 'aac0', choices: { aac0: 'TENSEG.Actor.AttackMode.aac0', table: 'TENSEG.Actor.AttackMode.table' } }),
      aac0: aac0Field('20'),
      table: textField(''),
    }),
    movement: movementField(),
    encumbrance: new SchemaField({ carried: numField(LIMITS.weight, 0) }),
    details: new SchemaField({ className: textField(''), level: intField(LIMITS.level, 1), turnsUndead: boolField(false) }),
    surprise: surpriseField(),
    combat: new SchemaField({
      reactionAdjustment: intField(LIMITS.smallModifier, 0),
      missileBonus: intField(LIMITS.smallModifier, 0),
      initiativeAdjustment: intField(LIMITS.smallModifier, 0),
      routines: intField(LIMITS.routines, 1),
      dexAcBonus: intField(LIMITS.smallModifier, 0),
    }),
    individual: new SchemaField(individualFields()),
    biography: htmlField(),
  };
}

export type CharacterSchema = ReturnType<typeof characterSchema>;

export class CharacterData extends foundry.abstract.TypeDataModel<CharacterSchema, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Actor.Base', 'TENSEG.Actor.Character'];

  static override defineSchema(): CharacterSchema {
    return characterSchema();
  }

  static override migrateData(source: Record<string, unknown>) {
    migrateActorSource(source);
    migrateCharacterTurning(source);
    return super.migrateData(source);
  }
}

/**
 * Number appearing as a stat block gives it: a dice formula ("2d4", "1d6+1"),
 * a number ("1") or a range ("3-12"); blank when not given.
 */
export const NUMBER_APPEARING_PATTERN = /^\s*(?:\d*d\d+(?:\s*[+-]\s*\d+)?|\d+(?:\s*[-\u2013]\s*\d+)?)\s*$/i;

function numberAppearingField() {
  const { StringField } = fields();
  return new StringField({
    required: true,
    blank: true,
    initial: '',
    validate: checkedBy((value) =>
      typeof value === 'string' && (value.trim() === '' || NUMBER_APPEARING_PATTERN.test(value))
        ? null
        : { key: 'NumberAppearingInvalid', data: { value: String(value) } },
    ),
  });
}

function monsterSchema() {
  const { SchemaField, StringField } = fields();
  return {
    hitDice: new StringField({
      required: true,
      blank: false,
      initial: '1',
      validate: checkedBy((value) => problemOf(parseHitDice(value))),
    }),
    hp: valueMaxField(LIMITS.hp, 1),
    ac: intField(LIMITS.ac, 10),
    size: sizeField(),
    aac0: aac0Field('20'),
    movement: movementField(),
    attacks: new StringField({
      required: true,
      blank: true,
      initial: '',
      validate: checkedBy((value) => problemOf(parseAttackRoutines(value))),
    }),
    routines: intField(LIMITS.routines, 1),
    surprise: surpriseField(),
    morale: intField(LIMITS.morale, 0),
    turnsUndead: boolField(false),
    numberAppearing: numberAppearingField(),
    individual: new SchemaField({ ...individualFields(), strength: intField(LIMITS.strength, 0) }),
    notes: htmlField(),
  };
}

export type MonsterSchema = ReturnType<typeof monsterSchema>;

export class MonsterData extends foundry.abstract.TypeDataModel<MonsterSchema, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Actor.Base', 'TENSEG.Actor.Monster'];

  static override defineSchema(): MonsterSchema {
    return monsterSchema();
  }

  static override migrateData(source: Record<string, unknown>) {
    migrateActorSource(source);
    return super.migrateData(source);
  }

  /** The attack routines parsed from the stat-block text. */
  get parsedAttacks(): Parsed<AttackRoutine[]> {
    return parseAttackRoutines(this.attacks);
  }
}

