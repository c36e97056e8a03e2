/**
 * The bounds of what the GM may enter in the inputs only some procedures
 * have (the request schema checks them before the GM's chunk or the
 * procedure's is loaded): reactions and the encounter distance (addict's
 * phases, gm-phases.ts), Combat Injuries in words (individual-speed, wounds.ts).
 */

/** The longest reaction result the GM may write. */
export const REACTION_MAX = 200;

/** The farthest encounter distance taken, in feet (about 19 miles: past any encounter table). */
export const DISTANCE_MAX = 100000;

/** The longest injury text the GM may enter. */
export const INJURY_TEXT_MAX = 200;
