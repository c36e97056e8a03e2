/**
 * The active GM's handlers of requests: declarations (and their withdrawal)
 * and the combat controls another GM's client asks for. Requests arrive on
 * the system socket with the sender Foundry's server vouches for
 * (../requests.ts), already checked against their schema (../request-schema.ts).
 * A handler checks who asks (`authorize`, ../permissions.ts), what the
 * documents say (../declarations.ts: numbers come from items, stats and the
 * map) and what the engine says, then writes; a refusal comes back with a
 * localized reason and nothing changes.
 *
 * Requests for one combat are handled one after another, in the same queue
 * as the combat's own transitions, so two players declaring at once both keep
 * theirs and a declaration racing the GM's Next is either applied or refused,
 * never lost. A retried request (same sender and id) that already made an
 * entry in the log is answered "done" and not made again.
 *
 * This module and the other handlers are the GM-side chunk (index.ts), loaded
 * when the first request reaches this client; the senders are in
 * ../queries.ts.
 */
import type { Declaration, Problem } from '../../rules/model';
import { loadProcedure } from '../../rules/registry';
import { resolveOptions } from '../../rules/procedure';
import { RulesError } from '../../rules/model';
import { SYSTEM_ID } from '../../settings';
import { authorize, type CombatAction } from '../permissions';
import type { TenSegmentsCombat } from '../combat';
import { declarationFromRequest, type DeclarationOverride, type DeclarationRequest } from '../declarations';
import { groupIdOf } from '../encounter';
import { engineCombatant } from '../engine-encounter';
import { answer, serialize, type QueryAnswer } from '../requests';
import { combatantData } from '../../data/systems';
import { arrivalSeconds, stopClock } from '../declaring-in-turn';
import type { CombatActionRequest, DeclareGroupRequest, DeclareRequest, StepAction, WithdrawRequest } from '../queries';
import { nearestFoe } from '../group';
import { declarationProblem } from '../../rules/flow/transitions';
import { localizeProblem } from '../problems';
import { sceneOfCombat, withSceneOptions } from '../scene-options';
import { DECLARATION_CHANGES } from '../declaration-limit';

/* ------------------------------------------------------------ declare */

/** Before the combat starts: the world's procedure decides whether the declaration would be legal. */
async function checkBeforeStart(combatant: Combatant.Implementation, declaration: Declaration): Promise<Problem | null> {
  const id = game.settings!.get(SYSTEM_ID, 'procedure');
  let procedure;
  try {
    procedure = await loadProcedure(id);
  } catch (err) {
    if (err instanceof RulesError) return err.problem;
    throw err;
  }
  const all = game.settings!.get(SYSTEM_ID, 'procedureOptions') ?? {};
  const { options } = resolveOptions(procedure, withSceneOptions(procedure.id, all[procedure.id] ?? {}, sceneOfCombat(combatant.parent)));
  const built = engineCombatant(combatant, groupIdOf(combatant) ?? '');
  if ('problem' in built) return built.problem;
  return procedure.validateDeclaration({ ...declaration, combatant: built.combatant.id }, built.combatant, options);
}

/** The combat and combatant a request names, and whether the sender may act for it. */
function lookup(combatId: string, combatantId: string, sender: User.Implementation, right: CombatAction): { combat: TenSegmentsCombat; combatant: Combatant.Implementation } | { problem: Problem } {
  const combat = game.combats?.get(combatId) as TenSegmentsCombat | undefined;
  if (!combat) return { problem: { key: 'UnknownCombat' } };
  const combatant = combat.combatants.get(combatantId);
  if (!combatant) return { problem: { key: 'UnknownCombatant', data: { id: combatantId } } };
  const denied = authorize(right, sender, combatant);
  return denied ? { problem: denied } : { combat, combatant };
}

const blank = (v: unknown): boolean => v === null || v === undefined || v === '';

/** The optional fields of a request and of its override: every one a form may leave blank. */
const REQUEST_FIELDS = ['target', 'weapon', 'spell', 'spellName', 'readied', 'delayed', 'goFirst', 'delaying', 'innate', 'minorActions', 'note'] as const satisfies readonly (keyof DeclarationRequest)[];
const OVERRIDE_FIELDS = ['castingTime', 'speed', 'routines', 'hesitation', 'hesitationSeconds', 'distance', 'weaponSpeed', 'length', 'space', 'dexterityReaction'] as const satisfies readonly (keyof DeclarationOverride)[];

/** A request without its empty fields (a form's blanks), so what is kept is what was asked. */
export function cleaned(request: DeclarationRequest): DeclarationRequest {
  const { override, ...rest } = request;
  const out: DeclarationRequest = { ...rest };
  for (const k of REQUEST_FIELDS) if (blank(out[k])) delete out[k];
  if (override && typeof override === 'object') {
    const o: DeclarationOverride = { ...override };
    for (const k of OVERRIDE_FIELDS) if (blank(o[k])) delete o[k];
    if (Object.keys(o).length > 0) out.override = o;
  }
  return out;
}

/**
 * Before the combat starts there is no log to count a player's changes in
 * (declaration-limit.ts): the requests that wrote a player's declaration on
 * a combatant are counted here, by combat and user, on the active GM's
 * client (a GM taking over, or a reload, counts again from nothing).
 */
const writtenBeforeStart = new WeakMap<TenSegmentsCombat, Map<string, number>>();

/** A player who has used her changes before the start: the refusal; else null, and the request counted. */
function countBeforeStart(combat: TenSegmentsCombat, sender: User.Implementation): Problem | null {
  if (sender.isGM) return null;
  const byUser = writtenBeforeStart.get(combat) ?? new Map<string, number>();
  writtenBeforeStart.set(combat, byUser);
  const n = byUser.get(sender.id as string) ?? 0;
  if (n > DECLARATION_CHANGES) return { key: 'DeclarationChangesSpent', data: { count: DECLARATION_CHANGES } };
  byUser.set(sender.id as string, n + 1);
  return null;
}

/**
 * The active GM's side: validate and record one declaration. The latest
 * declaration for a combatant wins: a player's replaces a plan the GM held
 * for that combatant, and a plan the GM holds replaces a request waiting on it.
 */
export async function handleDeclare(data: DeclareRequest, sender: User.Implementation, q: string): Promise<QueryAnswer> {
  return serialize(data.combatId, async () => {
    const found = lookup(data.combatId, data.combatantId, sender, 'declare');
    if ('problem' in found) return answer(found.problem);
    const { combat, combatant } = found;
    if (combat.madeBy(q)) return answer(null);
    const request = cleaned(data.declaration);
    if (request.override && !sender.isGM) return answer({ key: 'OverrideGMOnly' });
    const built = declarationFromRequest(combatant, request);
    if ('problem' in built) return answer(built.problem);
    const id = combatant.id as string;
    const stored = combatantData(combatant)?.declaration;
    if (!combat.flowState) {
      const illegal = await checkBeforeStart(combatant, built.declaration);
      if (illegal) return answer(illegal);
      // Each request writes the combatant: a player's are counted against her changes.
      const spent = countBeforeStart(combat, sender);
      if (spent) return answer(spent);
      // An earlier request waiting on the combatant goes (an update would merge the new one into it).
      if (stored) await combatant.update({ system: { declaration: null } });
      // The GM's plans (for monsters, or with numbers of the GM's own) are held until initiative.
      if (sender.isGM && (combat.holdsFor(id) || request.override)) return answer(await combat.recordDeclaration(id, built.declaration, { hold: true }));
      // Otherwise the request waits on the combatant, and is checked again when the combat starts.
      await combatant.update({ system: { declaration: { ...request } } });
      await combat.dropHeld(id);
      return answer(null);
    }
    const hold = sender.isGM && combat.holdsFor(id);
    // addict, declaring in turn (seed 004 phase 6): the called combatant's delay, timed by this client, unless the GM set one.
    const timed = request.override?.hesitation === undefined && request.override?.hesitationSeconds === undefined ? arrivalSeconds(combat, id) : undefined;
    if (timed !== undefined) built.declaration.hesitationSeconds = timed;
    // A player's changes of mind are counted (declaration-limit.ts); the GM's are not.
    const problem = await combat.recordDeclaration(id, built.declaration, { q, hold, ...(sender.isGM ? {} : { limit: sender.id as string }) });
    if (!problem && !hold) await combat.dropHeld(id);
    if (!problem && timed !== undefined) await stopClock(combat, id, timed);
    return answer(problem);
  });
}

/** Ids as Foundry makes them. */
const MEMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The active GM's side of a group declaration (issue 29; GM only): each
 * member's declaration built from the one request (its own items: a weapon
 * named by the first member's item is found by name on the others; its own
 * nearest foe where asked) and checked as if declared alone. The accepted are
 * recorded — the plans held for monsters in one write of the held store —
 * and the refused named with their reasons. All refused: a refusal, nothing
 * written.
 */
export async function handleDeclareGroup(data: DeclareGroupRequest, sender: User.Implementation): Promise<QueryAnswer> {
  if (!sender.isGM) return answer({ key: 'OnlyGM' });
  return serialize(data.combatId, async () => {
    const combat = game.combats?.get(data.combatId) as TenSegmentsCombat | undefined;
    if (!combat) return answer({ key: 'UnknownCombat' });
    const ids = [...new Set(data.members.split(',').map((x) => x.trim()).filter((x) => x !== ''))];
    if (ids.length === 0 || ids.some((id) => !MEMBER_ID.test(id))) return answer({ key: 'RequestFieldInvalid', data: { field: 'members' } });
    const request = cleaned(data.declaration);
    const lead = combat.combatants.get(ids[0]);
    const leadWeapon = request.weapon && lead?.actor ? lead.actor.items.get(request.weapon)?.name : undefined;
    const state = combat.flowState;
    if (state) await loadProcedure(state.procedure);
    const accepted: { id: string; declaration: Declaration; hold: boolean; request: DeclarationRequest }[] = [];
    const refused: string[] = [];
    const refuse = (name: string, problem: Problem) => refused.push(f('TENSEG.Declaration.GroupRefusedOne', { name, reason: localizeProblem(problem) }));
    for (const id of ids) {
      const combatant = combat.combatants.get(id);
      if (!combatant) {
        refused.push(localizeProblem({ key: 'UnknownCombatant', data: { id } }));
        continue;
      }
      const asked: DeclarationRequest = { ...request };
      if (data.nearest && asked.target === undefined) {
        const foe = nearestFoe(combat, combatant);
        if (foe) asked.target = foe;
      }
      if (asked.weapon && !combatant.actor?.items.get(asked.weapon) && leadWeapon) {
        const same = combatant.actor?.items.find((i) => i.type === 'weapon' && i.name === leadWeapon);
        if (same) asked.weapon = same.id as string;
      }
      const built = declarationFromRequest(combatant, asked);
      if ('problem' in built) {
        refuse(combatant.name ?? id, built.problem);
        continue;
      }
      const problem = state ? declarationProblem(state, { ...built.declaration, combatant: id }) : await checkBeforeStart(combatant, built.declaration);
      if (problem) {
        refuse(combatant.name ?? id, problem);
        continue;
      }
      accepted.push({ id, declaration: { ...built.declaration, combatant: id }, hold: combat.holdsFor(id), request: asked });
    }
    if (accepted.length === 0) return answer({ key: 'GroupAllRefused', data: { refused: refused.join(' ') } });
    let done = accepted.length;
    // The plans held for monsters: one write of the store, however many.
    const held = accepted.filter((a) => a.hold);
    if (held.length > 0) await combat.setHeld({ ...combat.held, ...Object.fromEntries(held.map((a) => [a.id, a.declaration])) });
    for (const a of accepted) {
      if (a.hold) {
        if (!state) {
          const combatant = combat.combatants.get(a.id)!;
          if (combatantData(combatant)?.declaration) await combatant.update({ system: { declaration: null } });
        }
        continue;
      }
      if (!state) {
        await combat.combatants.get(a.id)!.update({ system: { declaration: { ...a.request } } });
        await combat.dropHeld(a.id);
        continue;
      }
      const problem = await combat.recordDeclaration(a.id, a.declaration, {});
      if (!problem) await combat.dropHeld(a.id);
      else {
        refuse(combat.combatants.get(a.id)?.name ?? a.id, problem);
        done--;
      }
    }
    if (refused.length === 0) return { ok: true };
    return { ok: true, message: f('TENSEG.Declaration.GroupPartly', { count: done, of: ids.length, refused: refused.join(' ') }) };
  });
}

const f = (key: string, data: Record<string, unknown>): string =>
  game.i18n?.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) ?? key;

/** The active GM's side: withdraw (cancel) a declaration. */
export async function handleWithdraw(data: WithdrawRequest, sender: User.Implementation, q: string): Promise<QueryAnswer> {
  return serialize(data.combatId, async () => {
    const found = lookup(data.combatId, data.combatantId, sender, 'declare');
    if ('problem' in found) return answer(found.problem);
    const { combat, combatant } = found;
    if (combat.madeBy(q)) return answer(null);
    if (!combat.flowState) {
      if (!combatantData(combatant)?.declaration) return answer(null);
      const spent = countBeforeStart(combat, sender);
      if (spent) return answer(spent);
      await combatant.update({ system: { declaration: null } });
      return answer(null);
    }
    const limit = sender.isGM ? {} : { limit: sender.id as string };
    return answer(await combat.withdrawDeclaration(combatant.id as string, { q, hold: sender.isGM && combat.holdsFor(combatant.id as string), ...limit }));
  });
}

/* ------------------------------------------------ another GM's controls */

const ACTION_RIGHT: Record<StepAction, CombatAction> = {
  nextTurn: 'changeStep',
  previousTurn: 'changeStep',
  nextRound: 'changeStep',
  previousRound: 'changeStep',
  rollInitiative: 'rollInitiative',
  undoInterruption: 'undoInterruption',
  startCombat: 'manage',
  moveToSide: 'manage',
  morale: 'manage',
};

/** The active GM's side of a control pressed on another GM's client: GM only, in the combat's queue. */
export async function handleCombatAction(data: CombatActionRequest, sender: User.Implementation, q: string): Promise<QueryAnswer> {
  const denied = authorize(ACTION_RIGHT[data.action], sender);
  if (denied) return answer(denied);
  const combat = game.combats?.get(data.combatId) as TenSegmentsCombat | undefined;
  if (!combat) return answer({ key: 'UnknownCombat' });
  return answer(await combat.control(data, q));
}
