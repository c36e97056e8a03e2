/**
 * The map as the GM steps through a round (a chunk, loaded by the active
 * GM's `updateCombat` hook the first time a round has a charge or a spell
 * aimed at a target: system.ts).
 *
 * Charges (seed 004, footnote 19: "the charger moves 1/10th of their charge
 * MV every segment"; the other procedures: all of it when the charge acts).
 * After each write that advances the step, every charger's token is moved to
 * the share of its path the engine says it has covered by the end of the
 * step being played (chargeProgress, src/rules/charges.ts): along the
 * straight path from where it stands to the nearest place beside its target
 * (grid.ts, chargePath), to the last grid space reached within that share;
 * once it arrives, onto the square beside the target. The move is core's
 * `TokenDocument#move` (an x/y update where a generation lacks it), animated
 * as the world setting `animateCharges` says, and carries the system's own
 * update option `tenSegments: { charge: true }` so the GM's check of moves
 * (token-movement.ts) leaves it alone. A charge that falls short tells the GM
 * so. A step taken back (undo) moves nobody back.
 *
 * Spells (ranges on the map): a spell that goes off at a target beyond its
 * range (src/rules/range.ts, centre to centre) warns the GM.
 */
import type { FlowState } from '../rules/flow/state';
import { chargeProgress, type ChargeProgress } from '../rules/charges';
import { spellInRange, spellRangeFeet } from '../rules/spell-range';
import { SYSTEM_ID } from '../settings';
import { chargePath, distanceBetween, pointAlong, type Point } from './grid';

/** The step last handled per combat document (a write that does not advance the step moves nobody). */
const handled = new WeakMap<Combat.Implementation, string>();
/** Chargers told of falling short, per combat document: round and combatant. */
const toldShort = new WeakMap<Combat.Implementation, Set<string>>();
let queue: Promise<void> = Promise.resolve();

const f = (key: string, data: Record<string, unknown>): string =>
  game.i18n?.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) ?? key;

/** The active GM's hook, after a write to a combat: the moves and warnings of the step now played, one combat write at a time. */
export function onCombatStep(combat: Combat.Implementation): Promise<void> {
  queue = queue.then(() => stepTaken(combat)).catch((err) => console.error(err));
  return queue;
}

/** Settled once every move asked for so far is done (tests). */
export function whenChargesMoved(): Promise<void> {
  return queue;
}

async function stepTaken(combat: Combat.Implementation): Promise<void> {
  const state = (combat as unknown as { flowState: FlowState | null }).flowState;
  if (!state || state.stage === 'declare') return;
  const key = `${state.round}:${state.step}`;
  if (handled.get(combat) === key) return;
  handled.set(combat, key);
  await moveChargers(combat, state);
  warnSpellsOutOfRange(combat, state);
}

/** A combatant's token, on a scene. */
function tokenOf(combat: Combat.Implementation, id: string | undefined): TokenDocument.Implementation | null {
  return id ? (combat.combatants.get(id)?.token ?? null) : null;
}

/** Move every charger of the round to its share (see above). */
export async function moveChargers(combat: Combat.Implementation, state: FlowState): Promise<void> {
  const animate = game.settings!.get(SYSTEM_ID, 'animateCharges') !== false;
  for (const p of chargeProgress(state)) {
    const token = tokenOf(combat, p.c);
    const target = tokenOf(combat, p.target);
    if (!token || !target || token.parent !== target.parent) continue;
    const to = destination(token, target, p);
    if (to && (to.x !== token.x || to.y !== token.y)) await moveToken(token, to, animate);
    if (p.short && state.step >= (state.schedule?.steps.length ?? 0)) tellShort(combat, state, p);
  }
}

/** Where the charger stands after the step: its share along the path from where it stands, or beside the target once it arrives. */
function destination(token: TokenDocument.Implementation, target: TokenDocument.Implementation, p: ChargeProgress): Point | null {
  const path = chargePath(token, target, token.parent?.tokens.contents ?? []);
  if (path.distance <= 0) return null;
  if (p.arrived) return path.waypoints.at(-1)!;
  // Covered so far: the declared path less the gap left from here (the token may have been set down short of a whole share).
  const covered = Math.max(0, p.path - path.distance);
  const ahead = p.moved - covered;
  return ahead > 0 ? pointAlong(path, ahead) : null;
}

/** Core's TokenDocument#move, as the system's own move; an x/y update where the generation has no #move. */
async function moveToken(token: TokenDocument.Implementation, to: Point, animate: boolean): Promise<void> {
  const options = { animate, method: 'api', tenSegments: { charge: true } };
  const doc = token as unknown as { move?: (w: object, o: object) => Promise<unknown>; update(d: object, o: object): Promise<unknown> };
  if (typeof doc.move === 'function') await doc.move({ x: to.x, y: to.y }, options);
  else await doc.update({ x: to.x, y: to.y }, options);
}

function tellShort(combat: Combat.Implementation, state: FlowState, p: ChargeProgress): void {
  const told = `${state.round}:${p.c}`;
  const seen = toldShort.get(combat) ?? new Set<string>();
  toldShort.set(combat, seen);
  if (seen.has(told)) return;
  seen.add(told);
  const name = combat.combatants.get(p.c)?.name ?? '';
  ui.notifications?.info(f('TENSEG.Charge.FallsShort', { name, left: Math.round(Math.max(0, p.path - p.moved)) }));
}

/** The caster's level as its actor gives it (a character's; none for a monster: a per-level range is then not checked). */
function levelOf(actor: Actor.Implementation | null | undefined): number | undefined {
  const level = (actor?.system as { details?: { level?: unknown } } | undefined)?.details?.level;
  return typeof level === 'number' && Number.isFinite(level) ? level : undefined;
}

/** A spell going off in the step now played at a target beyond its range: the GM is warned. */
export function warnSpellsOutOfRange(combat: Combat.Implementation, state: FlowState): void {
  const step = state.schedule?.steps[state.step];
  if (!step) return;
  step.entries.forEach((entry, i) => {
    if (entry.kind !== 'cast-complete' || entry.target === undefined) return;
    const outcome = state.outcomes[state.step]?.[i];
    if (outcome !== undefined && outcome !== 'goes-off') return;
    const casting = state.schedule?.castings.find((c) => c.id === entry.casting);
    const caster = combat.combatants.get(entry.combatant);
    const token = caster?.token;
    const target = tokenOf(combat, entry.target);
    if (!casting || !caster || !token || !target || token.parent !== target.parent) return;
    const item = caster.actor?.items.find((i) => i.type === 'spell' && i.name === casting.spell);
    const text = (item?.system as { range?: unknown } | undefined)?.range;
    if (typeof text !== 'string') return;
    const feet = distanceBetween(token, target);
    const level = levelOf(caster.actor);
    if (spellInRange(feet, text, level) !== false) return;
    const range = spellRangeFeet(text, level);
    ui.notifications?.warn(
      f('TENSEG.Range.SpellBeyond', {
        name: caster.name ?? '',
        spell: casting.spell,
        target: combat.combatants.get(entry.target)?.name ?? '',
        feet: Math.round(feet),
        range: range === 'touch' ? game.i18n!.localize('TENSEG.Range.Touch') : f('TENSEG.Range.Feet', { feet: Math.round(Number(range) * 10) / 10 }),
      }),
    );
  });
}
