/**
 * How the GM checks morale where a text gives no method (d12-ascending: "no
 * formal method is given herein for checking morale the DM can still make
 * such a check in any way he sees fit"): a roll at or under a score (d100,
 * 2d6, d20), or the GM's own result ('gm'). A module of its own: d12-ascending's
 * chunk takes it without the procedure kit's option checks (procedure.ts).
 */
export const MORALE_METHODS = ['d100', '2d6', 'd20', 'gm'] as const;
export type MoraleMethod = (typeof MORALE_METHODS)[number];
