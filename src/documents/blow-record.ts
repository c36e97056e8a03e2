/**
 * No lost hit (issue 27). A blow and its damage are one write of the combat
 * log: the `attack` entry with what the blow was (its mark `b`, log.ts
 * BlowMark) and the `hit` entry of its damage. The actor's health and the
 * attack's card are derived from the log, after the write, by the active GM;
 * a GM whose client stops between the two leaves them undone, and whichever
 * GM is active next finishes them (`finishLeft`, when it becomes the active
 * GM): each combatant's health and defeated status written as the flow has
 * them, each blow's missing card posted. A retry of the blow's request is
 * answered from its card, else from its mark (`answerOfBlow`). Part of the
 * GM's side.
 */
import type { BlowMark, InputEntry } from '../rules/flow/log';
import type { FlowState } from '../rules/flow';
import type { TenSegmentsCombat } from './combat';
import type { AttackAnswer } from './attack';
import { SYSTEM_ID, monsterRollsPrivate } from '../settings';
import { actorData } from '../data/systems';
import { gmMode, publicMode } from './compat-writes';
import { applySync, type SyncPlan } from './sync';
import { postAttackCard } from './attack-card';
import { gmCards } from './card-flags';

/** The answer a blow's mark gives its request. */
export function answerOfBlow(b: BlowMark): AttackAnswer {
  const answer: AttackAnswer = { ok: true, hit: b.hit, natural: b.n, needed: b.need, damage: b.d };
  if (b.c) answer.critical = true;
  return answer;
}

/** The `attack` entry a request made, with its mark (null: none, or written before blows were marked). */
export function blowOf(combat: TenSegmentsCombat, q: string): (InputEntry & { t: 'attack'; b: BlowMark }) | null {
  for (let i = combat.entries.length - 1; i >= 0; i--) {
    const e = combat.entries[i][1] as InputEntry;
    if (e.q === q) return e.t === 'attack' && e.b ? (e as InputEntry & { t: 'attack'; b: BlowMark }) : null;
  }
  return null;
}

/** Has a GM posted the card of this request? (A player's message with the same flags is none.) */
function cardPosted(combat: TenSegmentsCombat, q: string): boolean {
  return gmCards().some(({ flags: f }) => f.kind === 'attack' && f.combat === combat.id && f.request === q);
}

/**
 * Post a blow's card if no GM has: in public, or to the GMs for a monster's
 * blow while the world keeps monsters' rolls private. RULING (choice): the
 * mode the player asked for is not in the log; the card a GM finishes is
 * shown as a public request's would be. It carries no dice (they were rolled
 * on the client that stopped).
 */
export async function ensureAttackCard(combat: TenSegmentsCombat, entry: InputEntry & { t: 'attack'; b: BlowMark }): Promise<void> {
  if (!entry.q || cardPosted(combat, entry.q)) return;
  const attacker = combat.combatants.get(entry.c);
  const target = combat.combatants.get(entry.target);
  if (!attacker || !target || !game.user) return;
  const mode = !attacker.hasPlayerOwner && monsterRollsPrivate() ? gmMode() : publicMode();
  await postAttackCard(combat, { attacker, target, q: entry.q, b: entry.b }, { mode, user: game.user });
}

/** Health as the flow has it against what each combatant's actor shows: what to write (an actor in another running combat is left to that one). */
function healthToWrite(combat: TenSegmentsCombat, state: FlowState): SyncPlan {
  const plan: SyncPlan = { spells: {}, health: {}, defeated: {} };
  const running = (game.combats?.contents ?? []).filter((c) => c !== combat && (c as TenSegmentsCombat).flowState);
  for (const [id, recorded] of Object.entries(state.states)) {
    const combatant = combat.combatants.get(id);
    const actor = combatant?.actor;
    const sys = actor ? actorData(actor) : null;
    if (!combatant || !actor || !sys) continue;
    if (running.some((c) => c.combatants.some((o) => o.actor === actor || o.actor?.uuid === actor.uuid))) continue;
    const shown = { hp: sys.hp.value, stress: sys.individual?.stress.value, woundPoints: sys.individual?.wounds.value };
    for (const key of ['hp', 'stress', 'woundPoints'] as const) {
      const value = recorded[key];
      if (typeof value === 'number' && shown[key] !== undefined && shown[key] !== value) (plan.health[id] ??= {})[key] = value;
    }
    const dead = recorded.condition === 'dead';
    if (!!combatant.defeated !== dead) plan.defeated[id] = dead;
  }
  return plan;
}

/**
 * This client has become the active GM: what the last one left half-written
 * in this combat is finished. Health and defeated status are written as the
 * flow has them (the log is the fact; an actor that shows other health was
 * not brought in line, so it is no hit and no healing); the cards of this
 * round's blows no GM posted are posted. The caller holds the combat's queue.
 */
export async function finishLeft(combat: TenSegmentsCombat): Promise<void> {
  const state = combat.flowState;
  if (!state) return;
  const plan = healthToWrite(combat, state);
  if (Object.keys(plan.health).length > 0 || Object.keys(plan.defeated).length > 0) await applySync(combat, plan);
  // This round's blows: from the last entry back to the round's opening.
  const path = combat.replay.waypoints();
  for (let i = combat.entries.length - 1; i >= 0; i--) {
    const e = combat.entries[i][1] as InputEntry;
    if (e.t === 'attack' && e.b) await ensureAttackCard(combat, e as InputEntry & { t: 'attack'; b: BlowMark });
    const before = path[i];
    if (before && before.round < state.round) break;
  }
}
