/**
 * Every typing repair of Ten Segments for fvtt-types (13.345.1 and 14.366) lives in src/types; these are the registrations.
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
 * 3. The flags of the system's chat cards (`FlagConfig`), and the one
 *    update option the system adds (`tensegSync`, below).
 */
import type { CharacterData, MonsterData } from '../data/actor-models';
import type { EncounterData } from '../data/encounter-model';
import type { ArmorData, GearData, SpellData, WeaponData } from '../data/item-models';
import type { CombatData, CombatantData, CombatantGroupData } from '../data/combat-models';
import type { TenSegmentsCombat } from '../documents/combat';
import type { TenSegmentsActor } from '../documents/token-status';
import type { TenSegmentsCombatant } from '../documents/combatant';
import type { TenSegmentsCombatantGroup } from '../documents/combatant-group';

declare module 'fvtt-types/configuration' {
  interface DocumentClassConfig {
    Actor: typeof TenSegmentsActor;
    Combat: typeof TenSegmentsCombat;
    Combatant: typeof TenSegmentsCombatant;
    CombatantGroup: typeof TenSegmentsCombatantGroup;
  }

  interface ConfiguredActor<SubType extends Actor.SubType> {
    document: TenSegmentsActor;
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

  /** What the system's chat cards carry (chat.ts, handlers/attack.ts, token-moved.ts): an attack card its request and answer, for a retry; an attack-of-opportunity card its attacker, target and weapon. */
  interface FlagConfig {
    ChatMessage: {
      'ten-segments': {
        kind?: string;
        combat?: string | null;
        round?: number;
        /** The step of the round a card tells (the spell card). */
        step?: number;
        casting?: string;
        /** The interruption card: the caster of the casting (as the log has it). */
        caster?: string;
        attacker?: string | null;
        target?: string | null;
        request?: string;
        hit?: boolean;
        natural?: number;
        needed?: number;
        damage?: number;
        critical?: boolean;
        /** The attack-of-opportunity card (token-moved.ts): the weapon item its Attack button strikes with, or the routine. */
        weapon?: string;
        routine?: number;
        /** The health card (health-card.ts): the actor's uuid, the player who changed it, the values asked and the fight's, how a GM resolved it. */
        actor?: string;
        by?: string;
        asked?: Partial<Record<'hp' | 'stress' | 'woundPoints', number>>;
        fight?: Partial<Record<'hp' | 'stress' | 'woundPoints', number>>;
        resolved?: 'accepted' | 'putBack';
        resolvedBy?: string;
      };
    };
  }

  interface DataModelConfig {
    Actor: {
      character: typeof CharacterData;
      monster: typeof MonsterData;
      encounter: typeof EncounterData;
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

declare global {
  namespace Actor.Database {
    /**
     * `tensegSync` (schema-version.ts SYNC_OPTION, written by sync.ts): the update is the combat's own
     * health sync, which the damage hooks trust only from this client. v13
     * reads an update's options from `Update`, v14 from `UpdateOperation`.
     */
    interface Update {
      tensegSync?: boolean;
    }
    interface UpdateOperation {
      tensegSync?: boolean;
    }
  }
}
