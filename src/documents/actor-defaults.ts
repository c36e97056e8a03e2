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

/** Every bar a procedure sets as health (bar 1) or stamina (bar 2): a bar holding another is the GM's choice and stays. */
const HEALTH_BARS = new Set(['hp', 'individual.wounds']);
const STAMINA_BARS = new Set(['individual.stress']);
const ACTOR_TYPES = new Set(['character', 'monster']);

type Bars = { bar1?: { attribute?: string | null } | null; bar2?: { attribute?: string | null } | null };

/**
 * The changes that make a token's (or prototype token's) bars the
 * procedure's: bar 1 when it shows a procedure's health (or nothing), bar 2
 * when it shows a procedure's stamina (or nothing, where the procedure has
 * one); a bar the GM set to something else stays. Null when nothing changes.
 */
export function barChanges(token: Bars | null | undefined, procedure: string, prefix = ''): Record<string, unknown> | null {
  const bars = healthBars(procedure);
  const bar1 = token?.bar1?.attribute ?? null;
  const bar2 = token?.bar2?.attribute ?? null;
  const changes: Record<string, unknown> = {};
  if ((bar1 === null || HEALTH_BARS.has(bar1)) && bar1 !== bars.bar1) changes[`${prefix}bar1.attribute`] = bars.bar1;
  const want2 = bars.bar2 ?? null;
  if ((bar2 === null || STAMINA_BARS.has(bar2)) && bar2 !== want2) changes[`${prefix}bar2.attribute`] = want2;
  return Object.keys(changes).length > 0 ? changes : null;
}

/**
 * After the GM changes the world's procedure (settings.ts: every client; the
 * active GM's writes): the prototype tokens of the existing characters and monsters,
 * and their tokens placed on scenes (linked or not: the bars are the token's
 * own), show the new procedure's health. One batched update for the actors,
 * one per scene for its tokens.
 */
export async function tokenBarsFollow(procedure: string): Promise<void> {
  if (!game.user?.isGM || game.users?.activeGM?.id !== game.user.id) return;
  const actorUpdates: Record<string, unknown>[] = [];
  for (const actor of game.actors?.contents ?? []) {
    if (!ACTOR_TYPES.has(actor.type)) continue;
    const changes = barChanges(actor.prototypeToken as unknown as Bars, procedure, 'prototypeToken.');
    if (changes) actorUpdates.push({ _id: actor.id, ...changes });
  }
  if (actorUpdates.length > 0) await Actor.implementation.updateDocuments(actorUpdates as never);
  for (const scene of game.scenes?.contents ?? []) {
    const tokens = (scene as unknown as { tokens: { contents: (Bars & { id: string; actor?: { type: string } | null })[] } }).tokens.contents;
    const updates: Record<string, unknown>[] = [];
    for (const token of tokens) {
      if (!token.actor || !ACTOR_TYPES.has(token.actor.type)) continue;
      const changes = barChanges(token, procedure);
      if (changes) updates.push({ _id: token.id, ...changes });
    }
    if (updates.length > 0) await scene.updateEmbeddedDocuments('Token', updates as never);
  }
}
