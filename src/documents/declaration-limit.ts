/**
 * How often a player may change her mind in one round's declarations (issue
 * 27, a flood of declarations). Each declaration or withdrawal the active GM
 * writes for a player's request is one write of the Combat, which every
 * client receives and replays: a player has her first declaration and
 * DECLARATION_CHANGES changes a round (at most DECLARATION_CHANGES + 1 Combat
 * writes from her requests), counted over all the combatants she declares
 * for. The next one is refused in words and writes nothing; the GM, who is
 * not limited, may still change it for her. The count is read from the log
 * (the keys of the requests each declaration entry carries, log.ts `q`/`qs`),
 * so a GM taking over keeps it; it starts again with the next round's
 * declarations.
 *
 * 20: a table's players reconsider a handful of times as the GM describes the
 * scene and others declare; twenty is well above that and small next to a
 * flood (one entry per combatant stays in the log whatever the number, a
 * change of mind replacing the combatant's entry).
 */
export const DECLARATION_CHANGES = 20;
