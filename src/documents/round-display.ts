/**
 * What every client reads of the round outside the tracker, once a combat has
 * started (a chunk of its own, loaded by token-status.ts): the statuses its
 * tokens show, from the timeline view, and the "your turn" notice.
 */
import { actingNow, procedureBleeds, tokenStatuses, TOKEN_STATUSES, type TokenStatus } from '../rules/statuses';
import { timeline, GM_VIEW, type EntryView, type TimelineView } from '../rules/timeline';
import { playerViewer } from './viewer';
import type { FlowState } from '../rules/flow';
import { ownsCombatant } from './permissions';
import { shown } from './token-status';

const flowOf = (combat: Combat.Implementation): FlowState | null => combat.flowState;

/** Statuses of every actor in every combat started, as this client may see them. */
function statusesNow(): Map<string, { actor: Actor.Implementation; list: TokenStatus[] }> {
  const out = new Map<string, { actor: Actor.Implementation; list: TokenStatus[] }>();
  const gm = !!game.user?.isGM;
  for (const combat of game.combats?.contents ?? []) {
    const state = flowOf(combat);
    if (!state) continue;
    // The GM's view (a player's lacks the exact health the bleeding of addict needs), less what a player may not see.
    const byId = tokenStatuses(timeline(state, GM_VIEW), procedureBleeds(state.procedure, state.options));
    for (const [id, list] of Object.entries(byId)) {
      const combatant = combat.combatants.get(id);
      const actor = combatant?.actor;
      if (!combatant || !actor?.uuid || (!gm && combatant.hidden)) continue;
      const had = out.get(actor.uuid)?.list ?? [];
      out.set(actor.uuid, { actor, list: TOKEN_STATUSES.filter((s) => had.includes(s) || list.includes(s)) });
    }
  }
  return out;
}

/** Redraw the icons of an actor's tokens on the map (v13 and v14: the Token's `redrawEffects` render flag). */
function redraw(actor: Actor.Implementation): void {
  for (const token of actor.getActiveTokens() as unknown as { renderFlags?: { set(flags: Record<string, boolean>): void } }[]) {
    token.renderFlags?.set({ redrawEffects: true });
  }
}

/** Bring this client's icons in line with the combats; the tokens of actors whose statuses changed are redrawn. */
export function refreshTokenStatuses(): string[] {
  const bag = shown();
  const now = statusesNow();
  const changed: string[] = [];
  for (const [uuid, { actor, list }] of now) {
    if ((bag.byActor.get(uuid) ?? []).join() !== list.join()) {
      bag.byActor.set(uuid, list);
      changed.push(uuid);
      redraw(actor);
    }
  }
  for (const uuid of [...bag.byActor.keys()]) {
    if (now.has(uuid)) continue;
    bag.byActor.delete(uuid);
    changed.push(uuid);
    const actor = fromUuidSync(uuid) as Actor.Implementation | null;
    if (actor) redraw(actor);
  }
  return changed;
}

/** The step being played, named as the tracker names it: a count, a segment (of the surprise), or a phase. */
function stepName(view: TimelineView): string {
  const i18n = game.i18n!;
  const step = view.steps.find((s) => s.when === 'current');
  if (!step) return '';
  if (step.count !== undefined) return i18n.format('TENSEG.Timeline.Count', { n: String(step.count) });
  if (step.segment !== undefined) return i18n.format(view.kind === 'surprise' ? 'TENSEG.Timeline.SurpriseSegment' : 'TENSEG.Timeline.Segment', { n: String(step.segment) });
  return i18n.localize(`TENSEG.Phase.${step.phase}`);
}

/** What the notice says a combatant does in its step, and when (issue 29: "Brand acts now — Segment 5: attacks in melee"). */
function noticeOf(entry: EntryView, name: string, when: string): { key: string; data: Record<string, string> } {
  if (entry.outcome === 'goes-off') return entry.spell ? { key: 'TENSEG.YourTurn.GoesOff', data: { name, when, spell: entry.spell } } : { key: 'TENSEG.YourTurn.GoesOffUnnamed', data: { name, when } };
  if (entry.outcome === 'begins' && entry.choosing) return { key: 'TENSEG.YourTurn.Choose', data: { name, when } };
  if (entry.outcome === 'begins') return entry.spell ? { key: 'TENSEG.YourTurn.Begins', data: { name, when, spell: entry.spell } } : { key: 'TENSEG.YourTurn.BeginsUnnamed', data: { name, when } };
  return { key: 'TENSEG.YourTurn.Acts', data: { name, when, action: game.i18n!.localize(`TENSEG.Sim.Action.${entry.action}`) } };
}

/**
 * Tell this client's user, once a step, of each combatant of theirs acting in
 * the step being played (a GM is not told: the monsters are theirs). A
 * combatant that comes to act in a step already told (a held action released)
 * is told then; the same step shown again tells nothing.
 */
export function noticeYourTurn(combat: Combat.Implementation): string[] {
  const user = game.user;
  if (!user || user.isGM) return [];
  const state = flowOf(combat);
  if (!state) return [];
  const view = timeline(state, playerViewer(combat, user));
  if (view.current === null) return [];
  const told = shown().told;
  const key = `${combat.id}:${view.round}:${view.current}`;
  if (told.key !== key) {
    told.key = key;
    told.ids = new Set();
  }
  const messages: string[] = [];
  for (const entry of actingNow(view)) {
    const combatant = combat.combatants.get(entry.combatant);
    if (!combatant || told.ids.has(entry.combatant) || !ownsCombatant(user, combatant)) continue;
    told.ids.add(entry.combatant);
    const { key: text, data } = noticeOf(entry, combatant.name ?? '', stepName(view));
    const message = game.i18n!.format(text, data);
    ui.notifications?.info(message);
    messages.push(message);
  }
  return messages;
}
