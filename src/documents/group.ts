/**
 * A group declared at once (issue 29): the GM declares one action for many
 * combatants — the tokens selected, or every undeclared monster identical to
 * one ("Orc ×5: attack in melee, nearest foe"). Identical means the same
 * actor (tokens of one actor, linked or not) or the same compendium source
 * (`_stats.compendiumSource`, v13 and v14; `flags.core.sourceId` before).
 * The members are chosen here; the active GM checks each as if declared
 * alone (handlers/queries.ts handleDeclareGroup).
 */
import { fallenReason } from '../rules/flow/acting';
import type { TenSegmentsCombat } from './combat';
import { groupIdOf } from './encounter';
import { distanceBetween } from './grid';

/** What makes two combatants identical: their actor's id (the base actor for an unlinked token), else its compendium source. */
function sourceOf(combatant: Combatant.Implementation): { actor: string | null; source: string | null } {
  const actor = combatant.actor as (Actor.Implementation & { _stats?: { compendiumSource?: string | null } }) | null;
  const base = (combatant.token?.actorId as string | null | undefined) ?? (combatant.actorId as string | null | undefined) ?? null;
  const stats = actor?._stats?.compendiumSource ?? null;
  const legacy = (actor?.flags as { core?: { sourceId?: string } } | undefined)?.core?.sourceId ?? null;
  return { actor: base, source: stats ?? legacy };
}

/** Are these two combatants identical monsters (same actor or same compendium source)? */
export function identical(a: Combatant.Implementation, b: Combatant.Implementation): boolean {
  const x = sourceOf(a);
  const y = sourceOf(b);
  return (x.actor !== null && x.actor === y.actor) || (x.source !== null && x.source === y.source);
}

/** Has the GM (or a player) declared for this combatant this round, as the GM's client knows it (plans held included)? */
function declared(combat: TenSegmentsCombat, id: string): boolean {
  if (combat.flowState) return id in combat.gmDeclarations;
  const stored = (combat.combatants.get(id)?.system as { declaration?: unknown } | undefined)?.declaration;
  return id in combat.held || !!stored;
}

/** Can it act at all (not dead, fled or surrendered; not defeated before the start)? */
function inTheFight(combat: TenSegmentsCombat, c: Combatant.Implementation): boolean {
  const state = combat.flowState;
  if (state) return fallenReason(state.states[c.id as string]) === null;
  return !c.isDefeated;
}

/** The first monster in the combat's order still in the fight and still to declare: a group's lead when the GM names none. */
export function firstUndeclaredMonster(combat: TenSegmentsCombat): string | undefined {
  return combat.combatants.contents.find((c) => !c.hasPlayerOwner && inTheFight(combat, c) && !declared(combat, c.id as string))?.id as string | undefined;
}

/**
 * The members of a group declaration the GM asks for: the combatants of the
 * selected tokens when any is selected, else `lead` and every monster
 * identical to it on its side still to declare (the lead first).
 */
export function groupMembers(combat: TenSegmentsCombat, lead: string, selectedTokens: readonly string[] = []): string[] {
  if (selectedTokens.length > 0) {
    const ids = combat.combatants.contents.filter((c) => c.tokenId && selectedTokens.includes(c.tokenId as string) && inTheFight(combat, c)).map((c) => c.id as string);
    if (ids.length > 0) return ids;
  }
  const first = combat.combatants.get(lead);
  if (!first) return [];
  const side = groupIdOf(first);
  const others = combat.combatants.contents.filter(
    (c) => c.id !== lead && !c.hasPlayerOwner && groupIdOf(c) === side && identical(first, c) && inTheFight(combat, c) && !declared(combat, c.id as string),
  );
  return [lead, ...others.map((c) => c.id as string)];
}

/**
 * The nearest opponent still standing, for "nearest foe": measured between
 * tokens on the same scene by the grid's rule (grid.ts); one without a token
 * there comes after, in the combat's order. None: undefined.
 */
export function nearestFoe(combat: TenSegmentsCombat, combatant: Combatant.Implementation): string | undefined {
  const side = groupIdOf(combatant);
  const token = combatant.token;
  const foes = combat.combatants.contents.filter((c) => c.id !== combatant.id && groupIdOf(c) !== side && inTheFight(combat, c));
  let best: { id: string; d: number } | undefined;
  for (const c of foes) {
    const other = c.token;
    const d = token && other && other.parent === token.parent ? distanceBetween(token, other) : Infinity;
    if (!best || d < best.d) best = { id: c.id as string, d };
  }
  return best?.id;
}
