/**
 * Registers the system's data models in CONFIG. Called once at `init` by the
 * system's entry point.
 */
import { CharacterData, MonsterData } from './actor-models';
import { EncounterData } from './encounter-model';
import { ArmorData, GearData, SpellData, WeaponData } from './item-models';
import { CombatData, CombatantData, CombatantGroupData } from './combat-models';

export { CharacterData, MonsterData, EncounterData, ArmorData, GearData, SpellData, WeaponData, CombatData, CombatantData, CombatantGroupData };

/** The model classes by document name and type, as they go into CONFIG. */
export const DATA_MODELS = {
  Actor: { character: CharacterData, monster: MonsterData, encounter: EncounterData },
  Item: { weapon: WeaponData, spell: SpellData, armor: ArmorData, gear: GearData },
  Combat: { base: CombatData },
  Combatant: { base: CombatantData },
  CombatantGroup: { base: CombatantGroupData },
} as const;

/** Token bars and values by actor type: hit points first, then Stress and Wounds where individual-speed uses them. */
const TRACKABLE_ATTRIBUTES = {
  character: { bar: ['hp', 'individual.stress', 'individual.wounds'], value: ['ac', 'movement.base'] },
  monster: { bar: ['hp', 'individual.stress', 'individual.wounds'], value: ['ac', 'movement.base', 'morale'] },
  encounter: { bar: [], value: [] },
} satisfies TrackableAttributesByType;

export function registerDataModels(): void {
  Object.assign(CONFIG.Actor.dataModels, DATA_MODELS.Actor);
  Object.assign(CONFIG.Item.dataModels, DATA_MODELS.Item);
  Object.assign(CONFIG.Combat.dataModels, DATA_MODELS.Combat);
  Object.assign(CONFIG.Combatant.dataModels, DATA_MODELS.Combatant);
  Object.assign(CONFIG.CombatantGroup.dataModels, DATA_MODELS.CombatantGroup);
  // By actor type, as core reads them (TokenDocument._getConfiguredTrackedAttributes); see TrackableAttributesByType.
  Object.assign(CONFIG.Actor.trackableAttributes, TRACKABLE_ATTRIBUTES);
}
