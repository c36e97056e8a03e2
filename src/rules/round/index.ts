/**
 * The round kit every procedure builds on: the schedule builder (packed time
 * keys, castings, carried castings), the late-joiner splice, side initiative
 * and timing, health and the end of a round, shared declaration
 * checks, the shape of a combatant. A procedure file keeps only the rules of
 * its own text. The d6 surprise of segment-d6, high-low and addict is
 * imported from ./surprise by those procedures (in their chunks, not at start-up).
 */
export * from './schedule';
export * from './splice';
export * from './sides';
export * from './health';
export * from './declarations';
export * from './combatants';
export * from './attacks';
