/**
 * The round kit every procedure builds on: the schedule builder (packed time
 * keys, castings, carried castings), the late-joiner splice, side initiative
 * and timing, health and the end of a round, d6 surprise, shared declaration
 * checks, the shape of a combatant. A procedure file keeps only the rules of
 * its own text.
 */
export * from './schedule';
export * from './splice';
export * from './sides';
export * from './health';
export * from './surprise';
export * from './declarations';
export * from './combatants';
export * from './attacks';
