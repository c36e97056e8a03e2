/**
 * Actor system data of an `encounter`: a ready group of monsters a GM drops
 * on a scene (issue 12). It is not a creature: it names its members (a
 * monster of the monsters pack or of the world, by uuid, and how many), the
 * side they take and the GM's notes. Placing it (documents/encounter-place.ts,
 * a chunk) puts one unlinked token per creature on the scene and the
 * creatures into the combat, on one side.
 */
import { LIMITS } from './shapes';
import { checkedBy, fields, htmlField, intField } from './fields';

/** An actor's uuid: a world actor (`Actor.<id>`) or a compendium's (`Compendium.<scope>.<pack>.Actor.<id>`). */
export const ACTOR_UUID_PATTERN = /^(?:Actor\.[A-Za-z0-9]{16}|Compendium\.[a-z0-9_-]+\.[a-z0-9_-]+\.Actor\.[A-Za-z0-9]{16})$/i;

/** Core's token dispositions an encounter may take (friendly, neutral, hostile); hostile by default. */
export const ENCOUNTER_DISPOSITIONS = [-1, 0, 1] as const;

function encounterSchema() {
  const { ArrayField, NumberField, SchemaField, StringField } = fields();
  return {
    members: new ArrayField(
      new SchemaField({
        uuid: new StringField({
          required: true,
          blank: false,
          initial: undefined,
          validate: checkedBy((value) => (typeof value === 'string' && ACTOR_UUID_PATTERN.test(value) ? null : { key: 'EncounterMemberInvalid', data: { value: String(value) } })),
        }),
        count: intField(LIMITS.encounterCount, 1),
      }),
      { required: true, initial: [] },
    ),
    disposition: new NumberField({
      required: true,
      nullable: false,
      integer: true,
      initial: -1,
      choices: { [-1]: 'TENSEG.Side.hostile', 0: 'TENSEG.Side.neutral', 1: 'TENSEG.Side.friendly' },
    }),
    notes: htmlField(),
  };
}

export type EncounterSchema = ReturnType<typeof encounterSchema>;

export class EncounterData extends foundry.abstract.TypeDataModel<EncounterSchema, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ['TENSEG.Actor.Encounter'];

  static override defineSchema(): EncounterSchema {
    return encounterSchema();
  }

  /** How many creatures the encounter places. */
  get size(): number {
    return this.members.reduce((n, m) => n + m.count, 0);
  }
}
