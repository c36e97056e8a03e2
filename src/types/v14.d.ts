/**
 * Foundry v14 API that the v14 typings (fvtt-types 14.366.0) lack. Each
 * entry says where Foundry documents it; the code reads it only behind
 * `game.release.generation` (src/documents/compat.ts).
 *
 * 1. `Combatant#roundJoined`. Foundry v14 API documentation, CombatantData:
 *    "roundJoined: number — The round this Combatant joined Combat (i.e.,
 *    was created). A Combatant created before the Combat starts is
 *    considered to have joined in round 1." Not in fvtt-types 14.366.0 (nor
 *    in 13.345.1: v13 has no such field). Typed optional, since v13 never
 *    has it. The core class is declared in a module the package's exports
 *    do not reach, so the field is declared on the system's Combatant class,
 *    which is `Combatant.Implementation` (src/types/foundry.d.ts).
 */
import type {} from '../documents/combatant';

declare module '../documents/combatant' {
  interface TenSegmentsCombatant {
    /** v14: the round this combatant joined its combat (1 if created before the combat started); undefined under v13. */
    readonly roundJoined?: number;
  }
}
