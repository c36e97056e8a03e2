/**
 * A document's system data as the system's own model, found by what it is
 * (the registered TypeDataModel Foundry built), never by a cast. A document of
 * a type the system does not define (a module's sub-type) has none: null.
 */
import { CharacterData, MonsterData } from './actor-models';
import { EncounterData } from './encounter-model';
import { SIZES, type Size } from './shapes';
import { SpellData } from './item-models';
import { CombatData, CombatantData, CombatantGroupData } from './combat-models';

export function actorData(actor: Actor.Implementation | null | undefined): CharacterData | MonsterData | null {
  const system = actor?.system;
  return system instanceof CharacterData || system instanceof MonsterData ? system : null;
}

/** An encounter actor's system data (its members, side and notes); null for any other actor. */
export function encounterData(actor: Actor.Implementation | null | undefined): EncounterData | null {
  const system = actor?.system;
  return system instanceof EncounterData ? system : null;
}

/** An actor's size as the damage column reads it; an actor of no system type counts as medium. */
export function actorSize(actor: Actor.Implementation | null | undefined): Size {
  const size = actorData(actor)?.size;
  return SIZES.find((s) => s === size) ?? 'medium';
}

export function spellData(item: Item.Implementation | null | undefined): SpellData | null {
  const system = item?.system;
  return system instanceof SpellData ? system : null;
}

export function combatData(combat: Combat.Implementation | null | undefined): CombatData | null {
  const system = combat?.system;
  return system instanceof CombatData ? system : null;
}

export function combatantData(combatant: Combatant.Implementation | null | undefined): CombatantData | null {
  const system = combatant?.system;
  return system instanceof CombatantData ? system : null;
}

export function groupData(group: CombatantGroup.Implementation | null | undefined): CombatantGroupData | null {
  const system = group?.system;
  return system instanceof CombatantGroupData ? system : null;
}
