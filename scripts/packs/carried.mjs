/**
 * What a creature's copy of a pack item differs in from the entry: the state
 * it is carried in (a monster's weapons in hand, a caster's spells memorized
 * once), so a monster dropped on a map can fight and cast at once. Every
 * other field of the copy is the pack entry's (tests/packs.test.ts).
 */
export const CARRIED = { weapon: { equipped: true }, spell: { memorized: 1 } };
