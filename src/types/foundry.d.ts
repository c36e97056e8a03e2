/**
 * Every typing repair of Ten Segments for fvtt-types (13.345.x) lives here.
 *
 * 1. The system's data models are registered in `fvtt-types/configuration`
 *    so `actor.system`, `item.system`, `combat.system`, `combatant.system`
 *    and `group.system` have their real types.
 * 2. The system's document classes are registered there too, in both ways
 *    the typings read: `DocumentClassConfig` (the class in CONFIG) and
 *    `ConfiguredCombat`/`ConfiguredCombatant`/`ConfiguredCombatantGroup`
 *    (the instance), so `Combat.Implementation` and the stored documents
 *    v14's typings hand back (`Combatant.Stored`, `combat.turns`,
 *    `combat.groups`) are the Ten Segments classes.
 */
import type { CharacterData, MonsterData } from '../data/actor-models';
import type { ArmorData, GearData, SpellData, WeaponData } from '../data/item-models';
import type { CombatData, CombatantData, CombatantGroupData } from '../data/combat-models';
import type { TenSegmentsCombat } from '../documents/combat';
import type { TenSegmentsCombatant } from '../documents/combatant';
import type { TenSegmentsCombatantGroup } from '../documents/combatant-group';

declare module 'fvtt-types/configuration' {
  interface DocumentClassConfig {
    Combat: typeof TenSegmentsCombat;
    Combatant: typeof TenSegmentsCombatant;
    CombatantGroup: typeof TenSegmentsCombatantGroup;
  }

  interface ConfiguredCombat<SubType extends Combat.SubType> {
    document: TenSegmentsCombat;
  }
  interface ConfiguredCombatant<SubType extends Combatant.SubType> {
    document: TenSegmentsCombatant;
  }
  interface ConfiguredCombatantGroup<SubType extends CombatantGroup.SubType> {
    document: TenSegmentsCombatantGroup;
  }

  interface DataModelConfig {
    Actor: {
      character: typeof CharacterData;
      monster: typeof MonsterData;
    };
    Item: {
      weapon: typeof WeaponData;
      spell: typeof SpellData;
      armor: typeof ArmorData;
      gear: typeof GearData;
    };
    Combat: {
      base: typeof CombatData;
    };
    Combatant: {
      base: typeof CombatantData;
    };
    CombatantGroup: {
      base: typeof CombatantGroupData;
    };
  }
}
