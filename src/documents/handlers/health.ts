/**
 * The active GM's comparison of an actor's health with what the combat flow
 * last recorded for its combatant (damage.ts queues it after every
 * transition of the combat): a difference is recorded as a hit, and the
 * interruptions it caused get their cards. Part of the GM's chunk.
 */
import type { CombatantState } from '../../rules/model';
import type { FlowState } from '../../rules/flow';
import type { TenSegmentsCombat } from '../combat';
import { notifyProblem } from '../problems';
import { answer, loadedGMSide, loadGMSide, serialize, tell, type QueryAnswer } from '../requests';
import type { HealthCardRequest } from '../health-card';
import { SYNC_OPTION } from '../schema-version';
import { actorData } from '../../data/systems';

/** Does this actor count Stress and Wound Points (individual-speed) rather than hp? */
function usesStressAndWounds(actor: Actor.Implementation): boolean {
  const ind = actorData(actor)?.individual;
  return !!ind && (ind.stress.max > 0 || ind.wounds.max > 0);
}

/** An actor's total health as combat counts it: hp, or Stress plus Wound Points where used. */
function healthOf(actor: Actor.Implementation): number {
  const sys = actorData(actor);
  if (!sys) return 0;
  if (usesStressAndWounds(actor)) return sys.individual.stress.value + sys.individual.wounds.value;
  return sys.hp.value;
}

/** Current Stress, or null where the actor has none. */
function stressOf(actor: Actor.Implementation): number | null {
  if (!usesStressAndWounds(actor)) return null;
  return actorData(actor)?.individual.stress.value ?? 0;
}

/** Stress and Wound Points count where the procedure counts them (individual-speed) and the actor has them; hp everywhere else. */
function countsStress(actor: Actor.Implementation, state: FlowState): boolean {
  return state.procedure === 'individual-speed' && usesStressAndWounds(actor);
}

/** The health the flow last recorded for a combatant, and the actor's now, counted the same way. */
function healthPair(actor: Actor.Implementation, state: FlowState, recorded: CombatantState): [number, number] {
  if (!countsStress(actor, state)) return [recorded.hp, actorData(actor)?.hp.value ?? 0];
  return [(recorded.stress ?? 0) + (recorded.woundPoints ?? 0), healthOf(actor)];
}

/** One combatant of a running combat whose actor changed: what the flow recorded against what the actor shows now. */
export async function compareHealth(combat: TenSegmentsCombat, combatantId: string): Promise<void> {
  const state = combat.flowState;
  const combatant = combat.combatants.get(combatantId);
  const actor = combatant?.actor;
  const recorded = state?.states[combatantId];
  if (!state || !actor || !recorded) return;
  const [recordedHealth, shown] = healthPair(actor, state, recorded);
  const drop = recordedHealth - shown;
  if (drop === 0) return;
  // Wound Points lost while Stress stayed as the flow had it: the damage went past Stress (a critical hit).
  const stressNow = countsStress(actor, state) ? stressOf(actor) : null;
  const critical = drop > 0 && stressNow !== null && recorded.stress !== undefined && stressNow >= recorded.stress && recorded.stress > 0;
  const res = await combat.recordHit({ target: combatantId, amount: drop, ...(critical ? { critical: true } : {}) });
  if ('problem' in res) return notifyProblem(res.problem);
  const now = combat.flowState as FlowState;
  // The cards are the GM's side (chat.ts), a chunk loaded on first use.
  const interrupted = res.detail.interruptions ?? [];
  const gm = interrupted.length > 0 ? (loadedGMSide() ?? (await loadGMSide())) : null;
  for (const i of interrupted) await gm!.postInterruptionCard(combat, now, i);
}

/* ------------------------------------------- health is the GM's in a fight */

/** A health field the flow counts, by its key in the flow's state and its path in the actor's data. */
export const HEALTH_FIELDS = {
  hp: 'system.hp.value',
  stress: 'system.individual.stress.value',
  woundPoints: 'system.individual.wounds.value',
} as const;
export type HealthField = keyof typeof HEALTH_FIELDS;

/** The fields the flow counts for this actor: Stress and Wound Points under individual-speed where it has them, else hp. */
export function countedFields(actor: Actor.Implementation, state: FlowState): HealthField[] {
  return countsStress(actor, state) ? ['stress', 'woundPoints'] : ['hp'];
}

/** The flow's value of a counted field for a combatant. */
function fightValue(recorded: CombatantState, field: HealthField): number {
  return recorded[field] ?? 0;
}

/** Does a change (Foundry's diff, nested or dotted) name this path? Its value if so. */
function changedAt(changes: Record<string, unknown>, path: string): { value: unknown } | null {
  if (path in changes) return { value: changes[path] };
  const flat = foundry.utils.flattenObject(changes) as Record<string, unknown>;
  return path in flat ? { value: flat[path] } : null;
}

/** Does this change touch a health field the flow counts for a combatant of this actor (in some running combat)? */
export function touchesCountedHealth(actor: Actor.Implementation, state: FlowState, changes: Record<string, unknown>): boolean {
  return countedFields(actor, state).some((f) => changedAt(changes, HEALTH_FIELDS[f]) !== null);
}

/**
 * A player (not a GM) changed the health of a combatant's actor in a running
 * combat: the fight keeps its value. The active GM writes the fight's value
 * back onto the actor (so the sheet and the token bar show what the fight
 * counts; its own mark, so its hook does not take it for damage), posts the
 * GMs a card with Accept / Put back (or brings the open one for that
 * combatant up to date) and tells the player. Runs in the combat's queue.
 */
export async function holdHealth(combat: TenSegmentsCombat, combatantId: string, changes: Record<string, unknown>, byId: string): Promise<void> {
  const state = combat.flowState;
  const combatant = combat.combatants.get(combatantId);
  const actor = combatant?.actor;
  const recorded = state?.states[combatantId];
  if (!state || !combatant || !actor || !recorded) return;
  const back: Record<string, number> = {};
  const asked: Partial<Record<HealthField, number>> = {};
  const fight: Partial<Record<HealthField, number>> = {};
  for (const field of countedFields(actor, state)) {
    const path = HEALTH_FIELDS[field];
    const value = fightValue(recorded, field);
    fight[field] = value;
    if (foundry.utils.getProperty(actor, path) !== value) back[path] = value;
    const change = changedAt(changes, path);
    if (change && typeof change.value === 'number' && change.value !== value) asked[field] = change.value;
  }
  if (Object.keys(back).length > 0) await actor.update(back, { [SYNC_OPTION]: true });
  if (Object.keys(asked).length === 0) return;
  await (await import('../health-card')).postHealthCard(combat, combatant, actor, { asked, fight, by: byId });
  tell(byId, { key: 'HealthHeldYours', data: { name: combatant.name ?? actor.name ?? '' } });
}

/**
 * A stored value no client's model accepts (or one the model had to change),
 * written by a modified client (health-guard.ts saw it on this, the active
 * GM's, client): the stored document gets the fight's value for a counted
 * health field of a combatant in a running combat, else the value this
 * client had before (the last valid one), written in full (not as a diff:
 * this client's copy already holds it, the server's does not). The GM is told.
 */
export async function repairStored(actor: Actor.Implementation, previous: Record<string, unknown>): Promise<void> {
  const data: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(previous)) if (value !== undefined) data[path] = value;
  for (const combat of (game.combats?.contents ?? []) as TenSegmentsCombat[]) {
    const state = combat.flowState;
    if (!state) continue;
    for (const combatant of combat.combatants.contents) {
      const own = combatant.actor;
      if (!own || (own !== actor && own.uuid !== actor.uuid)) continue;
      const recorded = state.states[combatant.id as string];
      if (!recorded) continue;
      for (const field of countedFields(actor, state)) {
        const path = HEALTH_FIELDS[field];
        if (path in previous) data[path] = fightValue(recorded, field);
      }
    }
  }
  const paths = Object.keys(data);
  if (paths.length === 0) return;
  await actor.update(data, { diff: false, [SYNC_OPTION]: true } as never);
  const values = paths.map((p) => `${p} = ${String(data[p])}`).join(', ');
  ui.notifications?.warn(game.i18n!.format('TENSEG.Notice.StoredValueRepaired', { name: actor.name ?? '', values }));
}

/**
 * The active GM's side of Accept / Put back on a health card: a GM only
 * (a player's forged request is refused in words), on a card a GM posted,
 * not yet resolved. Accept writes the asked value onto the actor as this
 * GM's own change, which damage.ts takes into the fight as it takes any
 * GM's edit (a drop is damage, a rise healing); Put back writes nothing (the
 * fight's value is on the actor already). Either way the card says so.
 */
export async function handleHealthCard(body: HealthCardRequest, sender: User.Implementation): Promise<QueryAnswer> {
  if (!sender.isGM) return answer({ key: 'OnlyGM' });
  const message = game.messages?.get(body.messageId) as ChatMessage.Implementation | undefined;
  const card = await import('../health-card');
  if (!message || card.flagsOf(message).kind !== 'health') return answer({ key: 'HealthCardUnknown' });
  if (!message.author?.isGM) return answer({ key: 'HealthCardNotGM' });
  return serialize(card.flagsOf(message).combat ?? 'health', async () => {
    const flags = card.flagsOf(message);
    if (flags.resolved) return answer({ key: 'HealthCardResolved' });
    if (body.accept) {
      const actor = fromUuidSync(flags.actor ?? '') as Actor.Implementation | null;
      if (!actor) return answer({ key: 'HealthCardUnknown' });
      const data: Record<string, number> = {};
      for (const [field, value] of Object.entries(flags.asked ?? {})) {
        if (field in HEALTH_FIELDS && typeof value === 'number') data[HEALTH_FIELDS[field as HealthField]] = value;
      }
      if (Object.keys(data).length > 0) await actor.update(data);
    }
    await card.markResolved(message, body.accept ? 'accepted' : 'putBack', sender);
    return answer(null);
  });
}
