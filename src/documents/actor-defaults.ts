/**
 * What a new actor's prototype token is by type (a chunk loaded when an
 * actor is created): a character's linked and friendly, a monster's
 * unlinked and hostile, so a token dropped on a map joins the right side when
 * added to a combat (sides follow the token's disposition). What the
 * creation data gives (a compendium's actor, a module) stands.
 */
export function prototypeDefaults(type: string, data: unknown): Record<string, unknown> | null {
  const { FRIENDLY, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
  const defaults = type === 'character' ? { actorLink: true, disposition: FRIENDLY } : type === 'monster' ? { actorLink: false, disposition: HOSTILE } : null;
  if (!defaults) return null;
  const update: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) if (!foundry.utils.hasProperty((data ?? {}) as object, `prototypeToken.${key}`)) update[`prototypeToken.${key}`] = value;
  return Object.keys(update).length > 0 ? update : null;
}
