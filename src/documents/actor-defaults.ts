/**
 * What a new actor's prototype token is by type (a chunk loaded when an
 * actor is created): a character's linked and friendly, a monster's
 * unlinked and hostile, so a token dropped on a map joins the right side when
 * added to a combat (sides follow the token's disposition). Its health bar
 * follows the world's procedure: hit points, or under individual speed the
 * Wound Points (bar 1) and Stress (bar 2). What the creation data gives (a
 * compendium's actor, a module) stands.
 */
import { SYSTEM_ID } from '../settings';

/**
 * The token bars of a procedure. Health is hit points everywhere but under
 * individual speed, where seed 003 makes Wound Points the creature's health
 * ("the physical bodily damage threshhold of a creature": at 0 it is
 * Incapacitated, below 0 Dying, at minus its Strength dead) and Stress its
 * stamina, which damage lowers first ("when the creature runs out of Stress,
 * any further damage lowers their current Wound Points"): Wound Points on
 * bar 1, Stress on bar 2.
 */
export function healthBars(procedure: string): { bar1: string; bar2?: string } {
  return procedure === 'individual-speed' ? { bar1: 'individual.wounds', bar2: 'individual.stress' } : { bar1: 'hp' };
}

/** The world's procedure (the setting), or '' before settings exist. */
function worldProcedure(): string {
  try {
    return String(game.settings?.get(SYSTEM_ID, 'procedure') ?? '');
  } catch {
    return '';
  }
}

export function prototypeDefaults(type: string, data: unknown, procedure: string = worldProcedure()): Record<string, unknown> | null {
  const { FRIENDLY, HOSTILE } = CONST.TOKEN_DISPOSITIONS;
  const side = type === 'character' ? { actorLink: true, disposition: FRIENDLY } : type === 'monster' ? { actorLink: false, disposition: HOSTILE } : null;
  if (!side) return null;
  const bars = healthBars(procedure);
  const defaults: Record<string, unknown> = { ...side, 'bar1.attribute': bars.bar1 };
  if (bars.bar2) defaults['bar2.attribute'] = bars.bar2;
  const update: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) if (!foundry.utils.hasProperty((data ?? {}) as object, `prototypeToken.${key}`)) update[`prototypeToken.${key}`] = value;
  return Object.keys(update).length > 0 ? update : null;
}
