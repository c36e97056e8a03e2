/**
 * What the tracker's controls do (controls.ts decides which a user gets):
 * requests through the active GM, refused in words; dialogs opened. A chunk
 * loaded at the first click, not at start-up. The call for declarations is
 * here too (its listener, declaration-call.ts, is at start-up).
 */
import { firstUndeclaredMonster, groupMembers } from '../../documents/group';
import type { TenSegmentsCombat } from '../../documents/combat';
import { requestCombatAction } from '../../documents/queries';
import { requestMidRound } from '../../documents/midround';
import { requestAttack } from '../../documents/attack';
import { CHANNEL } from '../../documents/requests';
import { playerViewer } from '../../documents/viewer';
import { BREAK_CAUSES, type BreakCause } from '../../rules/flow/state';
import { getProcedure } from '../../rules/registry';
import { attackFor, type TrackerActionName } from './controls';
import * as inTurn from '../../documents/declaring-in-turn';

const t = (key: string): string => game.i18n!.localize(`TENSEG.Tracker.${key}`);

/** Show a refusal in words (the answer of the request path). */
function shown(answer: { ok: boolean; message?: string }): void {
  if (!answer.ok && answer.message) ui.notifications?.error(answer.message);
}

/* ---------------------------------------------------- declarations */

/** What opens the declaration dialog (tests replace `open` to see who opens what). */
export const declarationOpener = {
  async open(combat: Combat.Implementation, combatantId: string, options: { mode: 'declare' | 'release' }): Promise<void> {
    const { openDeclarationDialog } = await import('../declaration-dialog');
    await openDeclarationDialog(combat, combatantId, options);
  },
};

/* addict's declaring in turn (documents/declaring-in-turn.ts, its own chunk): refusals are told there, in words. */

/** The GM: start declaring in turn (the roster in the order the GM gives it, a die for who is first), the first called at once. */
export async function startDeclaringInTurn(combat: TenSegmentsCombat): Promise<void> {
  const roster = await (await import('./gm-prompts')).askRoster(combat, inTurn.turnCall(combat)?.roster ?? inTurn.defaultRoster(combat));
  if (roster) await inTurn.startDeclaringInTurn(combat, roster);
}

/** The GM: call the next in the order. */
export async function callNext(combat: TenSegmentsCombat): Promise<void> {
  await inTurn.callNext(combat);
}

/** The GM: pause the called player's clock (a question to the GM) or let it run again. */
export async function pauseClock(combat: TenSegmentsCombat, paused: boolean): Promise<void> {
  await inTurn.pauseClock(combat, paused);
}

/** The combatants this user owns that may still declare this round (from the timeline view, as the tracker shows them). */
export async function stillToDeclare(combat: TenSegmentsCombat): Promise<string[]> {
  const state = combat.flowState;
  if (!state || state.stage !== 'declare') return [];
  const { timeline } = await import('../../rules/timeline');
  const view = timeline(state, game.user?.isGM ? { gm: true } : playerViewer(combat, game.user as User.Implementation));
  return view.combatants.filter((c) => c.mayDeclare && !c.declared && !!combat.combatants.get(c.id)?.isOwner).map((c) => c.id);
}

/** Open the declaration dialog for each of this user's combatants still to declare. */
export async function declareMine(combat: TenSegmentsCombat): Promise<void> {
  for (const id of await stillToDeclare(combat)) await declarationOpener.open(combat, id, { mode: 'declare' });
}

/** The GM's button: every player's client opens its dialogs (declaration-call.ts); addict: declaring in turn. */
export async function callForDeclarations(combat: TenSegmentsCombat): Promise<void> {
  if (!game.user?.isGM) return;
  if (combat.flowState?.procedure === 'addict') return startDeclaringInTurn(combat);
  game.socket?.emit(CHANNEL, { k: 'call', combat: combat.id as string });
  ui.notifications?.info(t('CalledDeclarations'));
}

/* ----------------------------------------------------------- others */

/** The combatants no player owns, still able to act as the procedure says (whom the header's morale check is for). */
export function monstersOf(combat: TenSegmentsCombat): string[] {
  const state = combat.flowState;
  const procedure = state ? getProcedure(state.procedure) : null;
  return combat.combatants.contents
    .filter((c) => !c.hasPlayerOwner)
    .map((c) => c.id as string)
    .filter((id) => !state || !procedure || (state.states[id] !== undefined && procedure.canAct(state.states[id])));
}

/** The GM's morale check for some combatants, through the active GM: one request (and log entry) each. */
async function moraleFor(combat: TenSegmentsCombat, ids: readonly string[], surrender = false): Promise<void> {
  if (ids.length === 0) return void ui.notifications?.warn(t('NoMonsters'));
  for (const combatantId of ids) {
    const answer = await requestCombatAction(combat, 'morale', { combatantId, trigger: t('MoraleTrigger'), ...(surrender ? { surrender } : {}) });
    shown(answer);
    if (!answer.ok) return;
  }
}

/** A casting broken for a reason: the control's data-why, or asked of the GM. */
async function breakFor(combat: TenSegmentsCombat, combatantId: string, why: string | undefined): Promise<void> {
  const cause = (BREAK_CAUSES as readonly string[]).includes(why ?? '') ? (why as BreakCause) : await (await import('./gm-prompts')).askBreakCause();
  if (!cause) return;
  shown(await requestMidRound(combat, 'break', { combatantId, why: cause }));
}

/** A free attack or attack of opportunity by `attackerId` against the GM's targeted token (exactly one). */
export async function freeAttack(combat: TenSegmentsCombat, attackerId: string): Promise<void> {
  const target = targeted(combat);
  if (target === null || target === 'several') return void ui.notifications?.error(t(target === 'several' ? 'TargetOne' : 'TargetNone'));
  shown(await requestAttack(combat, { attackerId, targetId: target }));
}

/** The one token this user targets, as a combatant of the combat: its id, null for none, an error for several. */
function targeted(combat: TenSegmentsCombat): string | null | 'several' {
  const targets = [...(game.user?.targets ?? [])] as unknown as { id?: string; document?: { id?: string | null } }[];
  const tokenIds = targets.map((tk) => tk.document?.id ?? tk.id).filter((id): id is string => !!id);
  if (tokenIds.length > 1) return 'several';
  const target = combat.combatants.contents.find((c) => tokenIds.includes(c.tokenId as string));
  return (target?.id as string | undefined) ?? null;
}

/**
 * The row's Attack: the combatant's attack in its step, against the user's
 * targeted token (exactly one) or else its declared target, with the weapon
 * its action names (the actor's item of that name) or its first attack
 * routine — the request game.tenSegments.attack makes, checked again by the
 * active GM.
 */
export async function attack(combat: TenSegmentsCombat, attackerId: string): Promise<void> {
  const state = combat.flowState;
  if (!state) return;
  const planned = attackFor(state, attackerId);
  const aimed = targeted(combat);
  if (aimed === 'several') return void ui.notifications?.error(t('TargetOne'));
  const targetId = aimed ?? planned?.target;
  if (!targetId) return void ui.notifications?.error(t('TargetNone'));
  const request: Parameters<typeof requestAttack>[1] = { attackerId, targetId };
  if (planned?.weapon !== undefined) {
    const name = planned.weapon.toLowerCase();
    const item = combat.combatants.get(attackerId)?.actor?.items.find((i) => i.type === 'weapon' && (i.name ?? '').trim().toLowerCase() === name);
    if (item) request.weaponId = item.id as string;
    else request.routine = 0;
  } else request.routine = 0;
  shown(await requestAttack(combat, request));
}

/**
 * The GM's group declaration (issue 29): the combatants of the selected tokens, else `lead` (the first monster still
 * to declare) and every undeclared monster identical to it; one dialog for all.
 */
export async function declareGroup(combat: TenSegmentsCombat, lead?: string): Promise<void> {
  const selected = ((canvas as unknown as { tokens?: { controlled?: { document?: { id?: string } }[] } } | undefined)?.tokens?.controlled ?? [])
    .map((tk) => tk.document?.id)
    .filter((id): id is string => !!id);
  const first = lead ?? firstUndeclaredMonster(combat);
  const members = first || selected.length > 0 ? groupMembers(combat, first ?? '', lead ? [] : selected) : [];
  if (members.length === 0) return void ui.notifications?.info(t('GroupNone'));
  await (await import('../declaration-dialog')).openGroupDeclaration(combat, members);
}

/** The header's actions, by name. */
export const COMBAT = {
  endRound: async (combat: TenSegmentsCombat) => shown(await requestCombatAction(combat, 'nextRound')),
  rollInitiative: async (combat: TenSegmentsCombat) => shown(await requestCombatAction(combat, 'rollInitiative')),
  manualInitiative: async (combat: TenSegmentsCombat) => (await import('./manual-dice')).openManualDice(combat),
  rollSurprise: async (combat: TenSegmentsCombat) => (await import('../surprise-dialog')).openSurpriseDialog(combat),
  callDeclarations: callForDeclarations,
  startDeclaringInTurn,
  callNext,
  stopDeclaringInTurn: async (combat: TenSegmentsCombat) => void (await inTurn.stopDeclaringInTurn(combat)),
  declareMine,
  moraleCheck: (combat: TenSegmentsCombat) => moraleFor(combat, monstersOf(combat)),
  recordReactions: async (combat: TenSegmentsCombat) => (await import('./gm-prompts')).recordReactions(combat),
  encounterDistance: async (combat: TenSegmentsCombat) => (await import('./gm-prompts')).encounterDistance(combat),
  oddsOfFight: async (combat: TenSegmentsCombat) => (await import('../odds-dialog')).openOddsDialog(combat),
  declareGroup: (combat: TenSegmentsCombat) => declareGroup(combat),
};

type RowRun = (combat: TenSegmentsCombat, combatantId: string, data: Record<string, string | undefined>) => Promise<void>;

/** A row's (and the context menu's) actions, by name: the combatant, and the clicked element's data attributes. */
export const ROW: Record<'moraleOne' | 'declare' | 'release' | 'delay' | 'cancelCasting' | 'breakCasting' | 'freeAttack' | 'attack' | 'staunch' | 'chooseSpell' | 'retarget', RowRun> = {
  // The context menu's "surrenders if it breaks" (d12-ascending, seed 002) is the same check with `surrender`.
  moraleOne: (combat, id, data) => moraleFor(combat, [id], data.surrender === 'true'),
  declare: (combat, id) => declarationOpener.open(combat, id, { mode: 'declare' }),
  release: (combat, id) => declarationOpener.open(combat, id, { mode: 'release' }),
  delay: async (combat, id) => shown(await requestMidRound(combat, 'delay', { combatantId: id })),
  cancelCasting: async (combat, id) => shown(await requestMidRound(combat, 'cancel', { combatantId: id })),
  breakCasting: (combat, id, data) => breakFor(combat, id, data.why),
  freeAttack: (combat, id) => freeAttack(combat, id),
  attack: (combat, id) => attack(combat, id),
  staunch: async (combat, id) => shown(await requestMidRound(combat, 'staunch', { combatantId: id })),
  chooseSpell: async (combat, id) => (await import('./gm-prompts')).chooseSpell(combat, id),
  retarget: async (combat, id) => (await import('./gm-prompts')).chooseTarget(combat, id),
};

/** The combatant a clicked control is for: its own data-combatant-id, or its row's. */
function combatantOf(target: HTMLElement | null | undefined): string | null {
  if (!target) return null;
  const own = target.dataset?.combatantId;
  if (own) return own;
  const row = target.closest?.('[data-combatant-id]') as HTMLElement | null | undefined;
  return row?.dataset?.combatantId ?? null;
}

/**
 * A tracker action by name (controls.ts TRACKER_ACTIONS: `this` the tracker,
 * its `viewed` combat): Next and Previous through the API, the clock's pause,
 * a header's action on the combat, a row's on the combatant the clicked
 * element or its row names, with the element's data (data-why).
 */
export async function trackerAction(name: TrackerActionName, app: { viewed: Combat.Implementation | null }, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (name === 'nextStep' || name === 'previousStep') {
    const api = (game as unknown as { tenSegments: { next(): Promise<unknown>; previous(): Promise<unknown> } }).tenSegments;
    await (name === 'nextStep' ? api.next() : api.previous());
    return;
  }
  const combat = app.viewed as TenSegmentsCombat | null;
  if (!combat) return;
  if (name === 'pauseClock') return pauseClock(combat, target?.dataset?.paused !== 'false');
  if (name === 'stopAtSegment') return void shown(await requestMidRound(combat, 'stop', { segment: Number(target?.dataset?.segment) }));
  if (name in COMBAT) {
    await COMBAT[name as keyof typeof COMBAT](combat);
    return;
  }
  const id = combatantOf(target);
  if (id) await ROW[name as keyof typeof ROW](combat, id, { ...(target.dataset ?? {}) });
}
