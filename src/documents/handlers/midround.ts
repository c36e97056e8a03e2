/**
 * Mid-round actions asked of the active GM (request kind `midround`): a
 * player, for a combatant they own, announces a delay (high-low), releases a
 * held or prepared action (segment-d6, addict) or elects not to complete a
 * casting; the GM breaks a casting no hit broke (and may do any of the
 * players'). Each becomes inputs of the flow (src/rules/flow/midround.ts,
 * transitions.ts `cancel`), checked by the engine, written by the active GM
 * in the combat's queue like every other transition; a refusal comes back in
 * words and nothing changes.
 *
 * One table (MID_ROUND) holds every action: who may ask for it (a right of
 * permissions.ts, checked against the combatant it acts for) and the flow
 * inputs it becomes. A new mid-round action is its name in
 * ../request-schema.ts's MID_ROUND_ACTIONS and its entry here.
 *
 * The user's side (the request) is ../midround.ts.
 */
import type { Problem } from '../../rules/model';
import type { FlowInput, FlowState } from '../../rules/flow';
import type { TenSegmentsCombat } from '../combat';
import { authorize, type CombatAction } from '../permissions';
import { answer, serialize, type QueryAnswer } from '../requests';
import { cleaned } from './queries';
import { declarationFromRequest } from '../declarations';
import { postInterruptionCard } from '../chat';
import type { MidRoundActionName } from '../request-schema';
import type { MidRoundRequest } from '../midround';

/**
 * What a request becomes: the combatant it acts for (whose owner may ask; none
 * for what the GM records of the whole encounter, a GM-only action) and the
 * flow inputs, or why not.
 */
type Made = { combatant?: string; inputs: FlowInput[] } | { problem: Problem };

export interface MidRoundAction {
  /** Who may ask: 'declare' — the GM, or the owner of the combatant it acts for; 'manage' — the GM only. */
  right: CombatAction;
  /** The flow inputs the request becomes (the sender's right already checked where it needs no combatant). */
  make(request: MidRoundRequest, combat: TenSegmentsCombat, state: FlowState, sender: User.Implementation): Made;
}

const missing = (field: string): Made => ({ problem: { key: 'RequestFieldMissing', data: { field } } });

/**
 * The castings a request names, still under way: one by `castingId`, or every
 * casting of `combatantId`; with both, the casting must be that combatant's.
 * The flow decides the rest (none under way: it says there is nothing to cancel or break).
 */
function castingsNamed(request: MidRoundRequest, state: FlowState, input: (casting: string) => FlowInput): Made {
  const all = state.schedule?.castings ?? state.carry;
  if (request.castingId !== undefined) {
    const casting = all.find((c) => c.id === request.castingId);
    if (!casting) return { problem: { key: 'NoCasting' } };
    if (request.combatantId !== undefined && casting.caster !== request.combatantId) return { problem: { key: 'RequestFieldInvalid', data: { field: 'combatantId' } } };
    return { combatant: casting.caster, inputs: [input(casting.id)] };
  }
  if (request.combatantId === undefined) return missing('castingId');
  const under = all.filter((c) => c.caster === request.combatantId && (state.status[c.id] ?? 'pending') === 'pending');
  if (under.length === 0) return { problem: { key: 'NoCasting' } };
  return { combatant: request.combatantId, inputs: under.map((c) => input(c.id)) };
}

/** Every mid-round action a client may ask for, by name (request-schema.ts MID_ROUND_ACTIONS). */
export const MID_ROUND: Record<MidRoundActionName, MidRoundAction> = {
  /** high-low "Delay": "Anytime during group actions, you can announce your intent to delay." */
  delay: {
    right: 'declare',
    make: (request) => (request.combatantId === undefined ? missing('combatantId') : { combatant: request.combatantId, inputs: [{ t: 'delay', c: request.combatantId }] }),
  },
  /** segment-d6 "hold", addict B "prepare": the action it becomes, asked for as a declaration is (numbers from items; override: GM only). */
  release: {
    right: 'declare',
    make: (request, combat, _state, sender) => {
      if (request.combatantId === undefined) return missing('combatantId');
      if (request.declaration === undefined) return missing('declaration');
      const combatant = combat.combatants.get(request.combatantId);
      if (!combatant) return { problem: { key: 'UnknownCombatant', data: { id: request.combatantId } } };
      const asked = cleaned(request.declaration);
      if (asked.override && !sender.isGM) return { problem: { key: 'OverrideGMOnly' } };
      const built = declarationFromRequest(combatant, asked);
      if ('problem' in built) return built;
      return { combatant: request.combatantId, inputs: [{ t: 'release', c: request.combatantId, d: { ...built.declaration, combatant: request.combatantId } }] };
    },
  },
  /** "the spell caster may elect not to cast the spell" (seed 000): the caster's owner. */
  cancel: {
    right: 'declare',
    make: (request, _combat, state) => castingsNamed(request, state, (casting) => ({ t: 'cancel', casting })),
  },
  /** The GM breaks a casting no hit broke (a failed save, movement or action impeded, jostling). */
  break: {
    right: 'manage',
    make: (request, _combat, state) => castingsNamed(request, state, (casting) => (request.why ? { t: 'break', casting, why: request.why } : { t: 'break', casting })),
  },
  /**
   * d12-ascending II.C: "A spellcaster may decide on his initiative result what spell to cast, if any": the caster's
   * owner names a spell item of the actor (its casting time the item's, as in a declaration), or none.
   */
  choose: {
    right: 'declare',
    make: (request, combat) => {
      if (request.combatantId === undefined) return missing('combatantId');
      const c = request.combatantId;
      if (request.none === true) return request.spell === undefined ? { combatant: c, inputs: [{ t: 'choose', c, spell: null }] } : { problem: { key: 'ChooseNeedsOne' } };
      if (request.spell === undefined) return { problem: { key: 'ChooseNeedsOne' } };
      const combatant = combat.combatants.get(c);
      if (!combatant) return { problem: { key: 'UnknownCombatant', data: { id: c } } };
      const built = declarationFromRequest(combatant, { action: 'spell', spell: request.spell });
      if ('problem' in built) return built;
      const { spell, castingTime } = built.declaration;
      if (spell === undefined || castingTime === undefined) return { problem: { key: 'CastingTimeInvalid', data: { name: combatant.name ?? '' } } };
      return { combatant: c, inputs: [{ t: 'choose', c, spell, castingTime }] };
    },
  },
  /** segment-d6, addict: the GM stops at a segment where nothing is scheduled, for a held or prepared action (flow/held.ts). */
  stop: {
    right: 'manage',
    make: (request) => (request.segment === undefined ? missing('segment') : { inputs: [{ t: 'stop', seg: request.segment }] }),
  },
  /** addict phase 1: the GM records a side's reaction (the reaction table is not in the text). */
  reaction: {
    right: 'manage',
    make: (request) => {
      if (request.groupId === undefined) return missing('groupId');
      if (request.result === undefined) return missing('result');
      const input: FlowInput = { t: 'reaction', side: request.groupId, result: request.result };
      if (request.roll !== undefined) input.roll = request.roll;
      if (request.secret === true) input.secret = true;
      return { inputs: [input] };
    },
  },
  /** addict phase 3: the GM records the encounter distance in feet (no distance table in the text). */
  distance: {
    right: 'manage',
    make: (request) => (request.feet === undefined ? missing('feet') : { inputs: [{ t: 'distance', feet: request.feet }] }),
  },
  /** individual-speed: "a Dying or Incapacitated creature can be stabilized with a Heal check": the GM enters the total. */
  heal: {
    right: 'manage',
    make: (request) => {
      if (request.combatantId === undefined) return missing('combatantId');
      if (request.total === undefined) return missing('total');
      return { combatant: request.combatantId, inputs: [{ t: 'heal', c: request.combatantId, total: request.total }] };
    },
  },
  /** individual-speed: "the Referee then rolls on the Combat Injury table": a row the GM rolled or picked, or their own words where the text's table is empty. */
  injury: {
    right: 'manage',
    make: (request) => {
      if (request.combatantId === undefined) return missing('combatantId');
      const input: FlowInput = { t: 'injury', c: request.combatantId };
      if (request.damageType !== undefined) input.type = request.damageType;
      if (request.row !== undefined) input.row = request.row;
      if (request.side !== undefined) input.side = request.side;
      if (request.text !== undefined) input.text = request.text;
      return { combatant: request.combatantId, inputs: [input] };
    },
  },
  /**
   * Rules revision 5 (src/rules/flow/retarget.ts): the attacker's owner (the GM for monsters) chooses once its target
   * fell — another opponent still standing, hold, or nothing: exactly one.
   */
  retarget: {
    right: 'declare',
    make: (request) => {
      const c = request.combatantId;
      if (c === undefined) return missing('combatantId');
      const given = [request.targetId !== undefined, request.hold === true, request.none === true].filter(Boolean).length;
      if (given !== 1) return { problem: { key: 'RetargetNeedsOne' } };
      if (request.targetId !== undefined) return { combatant: c, inputs: [{ t: 'retarget', c, choice: 'target', target: request.targetId }] };
      return { combatant: c, inputs: [{ t: 'retarget', c, choice: request.hold === true ? 'hold' : 'none' }] };
    },
  },
  /** addict phase 11: "bleeding can be staunched". */
  staunch: {
    right: 'manage',
    make: (request) => (request.combatantId === undefined ? missing('combatantId') : { combatant: request.combatantId, inputs: [{ t: 'staunch', c: request.combatantId }] }),
  },
};

/** The active GM's side of a mid-round request (its shape already checked): who asks, what it becomes, then the engine, in the combat's queue. */
export async function handleMidRound(request: MidRoundRequest, sender: User.Implementation, q: string): Promise<QueryAnswer> {
  return serialize(request.combatId, async () => {
    const action = MID_ROUND[request.action];
    // A GM-only action is refused before anything about the combat is looked up.
    if (action.right === 'manage') {
      const denied = authorize(action.right, sender);
      if (denied) return answer(denied);
    }
    const combat = game.combats?.get(request.combatId) as TenSegmentsCombat | undefined;
    if (!combat) return answer({ key: 'UnknownCombat' });
    if (request.combatantId !== undefined && !combat.combatants.get(request.combatantId)) return answer({ key: 'UnknownCombatant', data: { id: request.combatantId } });
    // A player acting for someone else's combatant is refused before its castings or items are looked at.
    if (request.combatantId !== undefined) {
      const denied = authorize(action.right, sender, combat.combatants.get(request.combatantId));
      if (denied) return answer(denied);
    }
    const state = combat.flowState;
    if (!state) return answer({ key: 'CombatNotStarted' });
    const made = action.make(request, combat, state, sender);
    if ('problem' in made) return answer(made.problem);
    if (made.combatant === undefined) {
      // What the GM records of the whole encounter: a GM-only action, checked above.
      if (action.right !== 'manage') return answer({ key: 'RequestFieldMissing', data: { field: 'combatantId' } });
    } else {
      const combatant = combat.combatants.get(made.combatant);
      if (!combatant) return answer({ key: 'UnknownCombatant', data: { id: made.combatant } });
      const denied = authorize(action.right, sender, combatant);
      if (denied) return answer(denied);
    }
    // A retry of a request already carried out is answered without doing it again.
    if (combat.madeBy(q)) return answer(null);
    const done = await combat.transact(
      (_, give) => {
        for (const input of made.inputs) {
          const r = give(input);
          if ('key' in r) return r as Problem;
        }
        return null;
      },
      { q },
    );
    if ('problem' in done) return answer(done.problem);
    // A casting broken (or lost at once, released after damage this round): its card, with the GM's undo.
    for (const detail of done.details) for (const i of detail.interruptions ?? []) await postInterruptionCard(combat, done.state, i);
    return answer(null);
  });
}
