/**
 * The active GM's side of a token moved during a round (issue 13, Deliver 2
 * and 3; issue 26, item 5), part of the GM's chunk (handlers/index.ts),
 * loaded at the first move the GM's client sees while a combat exists if it
 * is not loaded yet (token-movement.ts registers the hooks at init).
 *
 * A drag on any client → core writes the token and fires `moveToken` on
 * every client; a position written without a movement (a plain x, y or
 * elevation update, no `moveToken`) → `updateToken` on every client, measured
 * as a straight move from the position the GM's client last saw
 * (token-movement.ts) → on the active GM's client only, for a token of a combatant
 * of the viewed or active combat whose round is being played (stage
 * `resolve`), the move is measured on the scene's grid (move-measure.ts: the
 * feet, the opponents' melee ranges passed) and given to the engine as one
 * small `moved` input through the combat's queue (one log entry, broadcast
 * as every write is). The engine decides:
 *
 *  - within what the declaration and the procedure allow: recorded;
 *  - beyond it (`MoveBeyondAllowance`): nothing is recorded and the GM is
 *    asked (move-dialog.ts): Allow (recorded with `ruling: 'allow'`), Allow
 *    and forfeit the action (`ruling: 'forfeit'`), or Undo the move (the token
 *    is put back where the move began, its elevation too, by a move carrying
 *    `{undo: true}`);
 *  - each provocation in the recorded detail (`provoked`: who may now attack
 *    the mover out of turn, and why) is a chat card whispered to the GMs, its
 *    Attack button the ordinary attack request (attacker, target, its best
 *    weapon), checked as every attack is.
 *
 * Moves outside the round's resolution, of tokens in no running combat, and
 * the system's own moves (the `tenSegments` update option, believed only from
 * this client) record nothing.
 */
import type { FlowState } from '../rules/flow';
import type { MovedInput } from '../rules/flow/moved';
import type { Provoked } from '../rules/movement';
import type { Problem } from '../rules/model';
import { SYSTEM_ID } from '../settings';
import type { TenSegmentsCombat } from './combat';
import { localizeProblem, notifyProblem } from './problems';
import { isActiveGM } from './permissions';
import { measureMovement, type MovePath } from './move-measure';
import { postCard, postInterruptionCard } from './chat';
import { gmMode } from './compat-writes';
import { storedActor } from './stored';
import { weaponOf } from '../data/engine-view';
import { pendingMoves, track, type SeenPosition } from './token-movement';
import type { MoveRuling } from '../apps/move-dialog';

export type { MoveRuling };

/** Resolves once every move this client is judging has been judged (a question put to the GM counts as judged once asked; its answer is work of its own). */
export async function movementIdle(): Promise<void> {
  const pending = pendingMoves();
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** A move the GM's client is judging: where it began, what the engine is given. */
export interface JudgedMove {
  combat: TenSegmentsCombat;
  token: TokenDocument.Implementation;
  /** Where the move began (the movement's origin, or the position a plain write moved it from): "Undo the move" puts the token back there. */
  origin: { x: number; y: number; elevation?: number };
  input: MovedInput;
}

/**
 * Core's TokenDocument#move with the system's update option (`tenSegments`,
 * src/types/token-movement.d.ts): a move the system makes, which the GM's
 * handler does not judge again. D2's charge moves pass `{charge: true}`.
 */
export function systemMove(token: TokenDocument.Implementation, to: { x: number; y: number; elevation?: number }, tag: TenSegmentsMovement.Tag): Promise<boolean> {
  // Not a literal: the typings declare no way to add an update option to a token's (see the repair).
  const options = { method: 'api' as const, tenSegments: tag };
  // "displace": core's movement action that puts the token there without walking the path back.
  return token.move({ x: to.x, y: to.y, ...(to.elevation === undefined ? {} : { elevation: to.elevation }), action: 'displace' }, options);
}

/** The combat (viewed or active) in which this token is a combatant of the flow, with its combatant and state. */
function combatantOfToken(token: TokenDocument.Implementation): { combat: TenSegmentsCombat; combatant: Combatant.Implementation; state: FlowState } | null {
  const combats: TenSegmentsCombat[] = [];
  for (const c of [game.combats?.viewed, game.combats?.active]) if (c && !combats.includes(c as TenSegmentsCombat)) combats.push(c as TenSegmentsCombat);
  for (const combat of combats) {
    const state = combat.flowState;
    if (!state) continue;
    const combatant = combat.getCombatantsByToken(token as never).find((c) => state.encounter.combatants.some((e) => e.id === c.id));
    if (combatant) return { combat, combatant: combatant as Combatant.Implementation, state };
  }
  return null;
}

/** The tokens of the mover's opponents (combatants of another side in the flow) on the mover's scene. */
function opponentsOf(combat: TenSegmentsCombat, state: FlowState, moverId: string, scene: Scene.Implementation | null): { c: string; token: TokenDocument.Implementation }[] {
  const side = state.encounter.combatants.find((c) => c.id === moverId)?.side;
  const out: { c: string; token: TokenDocument.Implementation }[] = [];
  for (const e of state.encounter.combatants) {
    if (e.id === moverId || e.side === side) continue;
    const token = combat.combatants.get(e.id)?.token as TokenDocument.Implementation | null | undefined;
    if (!token || token.parent !== scene) continue;
    out.push({ c: e.id, token });
  }
  return out;
}

/** The active GM: a token has moved (core's `moveToken`, on this client). */
export async function onTokenMoved(token: TokenDocument.Implementation, movement: TenSegmentsMovement.Movement, operation: TenSegmentsMovement.Operation, user: User.Implementation): Promise<void> {
  return judgeMove(token, movement, operation.tenSegments, user.id as string);
}

/**
 * The active GM: a token's position or elevation was written without a movement (`updateToken` with no
 * `_movement` for it, on this client): a straight move from where this client last saw it (`from`) to where the
 * write put it (`to`, read when the write arrived), judged as a movement is. A teleport is never believed here:
 * the write's options are the sender's.
 */
export async function onTokenWritten(token: TokenDocument.Implementation, from: SeenPosition, to: SeenPosition, tag: TenSegmentsMovement.Tag | undefined, userId: string): Promise<void> {
  // The token's size now, at both ends: a change of size alone is no move.
  const at = ([x, y, elevation]: SeenPosition) => ({ x, y, elevation, width: token.width ?? 1, height: token.height ?? 1 });
  return judgeMove(token, { origin: at(from), passed: { waypoints: [at(to)] } }, tag, userId);
}

/** A move by `userId` (its path, and the system's option it came with) measured and given to the engine. */
async function judgeMove(token: TokenDocument.Implementation, movement: MovePath, tag: TenSegmentsMovement.Tag | undefined, userId: string): Promise<void> {
  if (!isActiveGM()) return;
  // The system's own moves (a charge's share, a move taken back), believed only from this client: another client's options prove nothing.
  if (tag && (tag.charge || tag.undo) && userId === game.user?.id) return;
  const found = combatantOfToken(token);
  if (!found) return;
  const { combat, combatant, state } = found;
  // Only while the round is played; the engine refuses a move at other times (MoveNotDuringRound), so none is sent.
  if (state.stage !== 'resolve') return;
  const c = combatant.id as string;
  // A teleport (core's blink, displace) costs nothing only when a GM makes it: a player's client may send any action,
  // so a player's teleport is measured as the straight move it is (issue 26).
  const walked = game.users?.get(userId)?.isGM ? movement : { origin: movement.origin, passed: { waypoints: movement.passed.waypoints.map(({ action: _action, ...p }) => p) } };
  const measure = measureMovement(token, walked, opponentsOf(combat, state, c, token.parent));
  if (measure.feet <= 0 && !measure.reach) return;
  const input: MovedInput = { t: 'moved', c, feet: measure.feet, ...(measure.reach ? { reach: measure.reach } : {}) };
  const { x, y, elevation } = movement.origin;
  await judge({ combat, token, origin: { x, y, ...(elevation === undefined ? {} : { elevation }) }, input });
}

/** Give the engine the move (with the GM's ruling, if any); a move beyond the allowance without one asks the GM. */
async function judge(move: JudgedMove, ruling?: 'allow' | 'forfeit'): Promise<void> {
  const { combat } = move;
  const input: MovedInput = ruling ? { ...move.input, ruling } : move.input;
  const done = await combat.exclusive(() =>
    combat.transact((_, give) => {
      const r = give(input);
      return 'key' in r ? (r as Problem) : null;
    }),
  );
  if ('problem' in done) {
    if (done.problem.key === 'MoveBeyondAllowance' && !ruling) return ask(move, done.problem);
    return notifyProblem(done.problem);
  }
  const detail = done.details[0] ?? {};
  // A forfeit breaks the mover's casting under way: its card, in the active GM's own mode (as an interruption from a sheet).
  for (const i of detail.interruptions ?? []) await postInterruptionCard(combat, done.state, i);
  for (const p of detail.moved?.provoked ?? []) await postOpportunityCard(combat, done.state, detail.moved?.c ?? move.input.c, p);
}

/** The GM is asked (the dialog's chunk, loaded then); the answer is carried out as work of its own. */
async function ask(move: JudgedMove, problem: Problem): Promise<void> {
  const { askMoveRuling } = await import('../apps/move-dialog');
  const why = `TENSEG.Movement.Why.${String(problem.data?.why ?? '')}`;
  const i18n = game.i18n!;
  const question = {
    id: `${move.combat.id}.${move.input.c}.${foundry.utils.randomID(8)}`,
    name: move.combat.combatants.get(move.input.c)?.name ?? move.input.c,
    reason: localizeProblem(problem),
    ...(i18n.has(why) ? { why: i18n.localize(why) } : {}),
  };
  await askMoveRuling(question, (answer) => {
    void track(rule(move, answer));
  });
}

/** Carry out the GM's ruling on a move beyond the allowance. */
export async function rule(move: JudgedMove, answer: MoveRuling): Promise<void> {
  if (answer !== 'undo') return judge(move, answer);
  const moved = await systemMove(move.token, move.origin, { undo: true });
  if (!moved) notifyProblem({ key: 'MoveUndoFailed', data: { name: move.token.name ?? '' } });
}

/** The attacker's best weapon for an attack out of turn: the melee weapon it declared, else one it holds ready, else its first; a creature without one attacks with its first routine. */
export function bestWeapon(state: FlowState, attacker: Combatant.Implementation): { weapon?: string; label: string; routine?: number } {
  const items = attacker.actor?.items.contents ?? [];
  const melee: { item: (typeof items)[number]; w: NonNullable<ReturnType<typeof weaponOf>> }[] = [];
  for (const item of items) {
    const w = weaponOf({ id: item.id as string, name: item.name ?? '', type: item.type, system: item.system });
    if (w && w.kind !== 'missile') melee.push({ item, w });
  }
  const declared = state.declarations[attacker.id as string]?.weapon?.name;
  const pick = melee.find((x) => declared !== undefined && x.item.name === declared) ?? melee.find((x) => x.w.equipped) ?? melee[0];
  if (pick) return { weapon: pick.item.id as string, label: pick.item.name ?? '' };
  return { routine: 0, label: '' };
}

/** A card whispered to the GMs: "<by> may make an attack of opportunity on <mover>" (or a free attack), the reason, and an Attack button. */
async function postOpportunityCard(combat: TenSegmentsCombat, state: FlowState, moverId: string, p: Provoked): Promise<void> {
  const attacker = combat.combatants.get(p.by);
  const mover = combat.combatants.get(moverId);
  if (!attacker || !mover) return;
  const i18n = game.i18n!;
  const reasonKey = `TENSEG.Reason.${p.reason}`;
  const weapon = bestWeapon(state, attacker);
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/opportunity.hbs`, {
    grant: p.grant,
    by: attacker.name,
    mover: mover.name,
    reason: i18n.has(reasonKey) ? i18n.localize(reasonKey) : p.reason,
    weapon: weapon.label,
  });
  await postCard(
    {
      content,
      speaker: ChatMessage.getSpeaker({ actor: storedActor(attacker.actor) }),
      flags: {
        [SYSTEM_ID]: {
          kind: 'opportunity',
          combat: combat.id,
          round: state.round,
          attacker: attacker.id,
          target: mover.id,
          ...(weapon.weapon ? { weapon: weapon.weapon } : { routine: weapon.routine ?? 0 }),
        },
      },
    },
    { mode: gmMode(), user: game.user! },
  );
}
