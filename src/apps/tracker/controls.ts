/**
 * The tracker's controls: which buttons and menu entries a user gets, from
 * the timeline view and the flow state this client replays, and what each
 * does (a request through the active GM, or a dialog opened).
 *
 * Shared contract between the tracker (combat-tracker.ts renders the
 * buttons, wires `TRACKER_ACTIONS` as its ApplicationV2 `actions`, and asks
 * `combatantMenu` for its context menu) and this file, which decides.
 *
 * Nothing here decides a rule: whether a control is offered now, and why
 * not, is asked of the engine (`probe`: the flow input tried on a copy of the
 * state, as the active GM will try it). A control the procedure has no use
 * for is left out; one it has but not at this moment is greyed, with the
 * engine's reason. The request itself goes the request path (checked again
 * by the active GM), so a stale button is refused in words, nothing changed.
 *
 * Row buttons carry `data-combatant-id` (the action reads it from the
 * clicked element or its row, `[data-combatant-id]`); the tracker may put it
 * on the row instead.
 */
import type { TimelineView } from '../../rules/timeline';
import type { FlowInput, FlowState } from '../../rules/flow';
import { applyInput, beforeFirstRound } from '../../rules/flow/transitions';
import { midRoundProblem } from '../../rules/flow/midround';
import { BREAK_CAUSES, combatantOf as engineCombatant, type BreakCause } from '../../rules/flow/state';
import { choosingCasting } from '../../rules/flow/choose';
import { attackProblem, releasedThisRound, whenItAttacks } from '../../rules/flow/attack';
import { ACT_REFUSED_KEYS } from '../../rules/flow/acting';
import { getProcedure } from '../../rules/registry';
import { RulesError, type Problem } from '../../rules/model';
import type { Dice } from '../../rules/dice';
import type { TenSegmentsCombat } from '../../documents/combat';
import { localizeProblem } from '../../documents/problems';

/** One button as the templates draw it: `data-action` is a key of TRACKER_ACTIONS. */
export interface ControlView {
  action: string;
  /** Font Awesome classes, e.g. 'fa-solid fa-forward-step'. */
  icon: string;
  /** Localized label (tooltip and aria-label). */
  label: string;
  /** Greyed out, with the reason (localized) as its tooltip. */
  disabled?: boolean;
  reason?: string;
  /** Extra data attributes the action reads (data-<key>="<value>"). */
  data?: Record<string, string>;
}

/** What a control decision reads: the round as this user sees it, and who they are. */
export interface ControlsInput {
  view: TimelineView;
  /** The flow state this client replays (combat.flowState); null before the combat starts. */
  state: FlowState | null;
  gm: boolean;
  /** Combatant ids this user owns (a GM: all). */
  owned: ReadonlySet<string>;
  /** The combat has started (its log has a start). */
  started: boolean;
  /** Combatant ids no player owns (the monsters): whom the GM's header morale check is for. Absent: offered without asking the engine. */
  npcs?: readonly string[];
  /**
   * addict, declaring in turn (documents/declaring-in-turn.ts, the combat's
   * call state as this client reads it): the round it is for, who is called,
   * whether the clock runs or is paused. Absent or null: not started.
   */
  turnCall?: { round: number; called: string | null; running: boolean; paused: boolean } | null;
}

/* ------------------------------------------------------------- helpers */

const t = (key: string): string => game.i18n!.localize(`TENSEG.Tracker.${key}`);
const tf = (key: string, data: Record<string, string>): string => game.i18n!.format(`TENSEG.Tracker.${key}`, data);

/** Dice for a probe: the least each roll can give (nothing is kept). */
const PROBE_DICE: Dice = { roll: (request) => request.count };

/** Probes already answered, per state object (a state is replaced, never changed, when the log changes). */
const probed = new WeakMap<FlowState, Map<string, Problem | null>>();

/** Null when the engine would take `input` now, else its reason: tried on a copy of the state, never on it. */
export function probe(state: FlowState, input: FlowInput): Problem | null {
  let cache = probed.get(state);
  if (!cache) probed.set(state, (cache = new Map()));
  const key = JSON.stringify(input);
  if (cache.has(key)) return cache.get(key) ?? null;
  let problem: Problem | null;
  try {
    const procedure = getProcedure(state.procedure);
    if (input.t === 'delay' || input.t === 'release' || input.t === 'break' || input.t === 'stop') problem = midRoundProblem(state, input, procedure);
    else {
      const done = applyInput(structuredClone(state), input, PROBE_DICE, procedure);
      problem = done.ok ? null : done.problem;
    }
  } catch (err) {
    if (!(err instanceof RulesError)) throw err;
    problem = err.problem;
  }
  cache.set(key, problem);
  return problem;
}

/** A button, greyed with the engine's reason when there is one. */
function button(action: string, icon: string, label: string, problem: Problem | null = null, data?: Record<string, string>): ControlView {
  const out: ControlView = { action, icon, label };
  if (problem) {
    out.disabled = true;
    out.reason = localizeProblem(problem);
  }
  if (data) out.data = data;
  return out;
}

/** Reasons meaning "this procedure has no such thing" (the control is left out rather than greyed). */
const NOT_IN_PROCEDURE = new Set(['DelayNotInProcedure', 'ReleaseNotInProcedure', 'PhaseNotInProcedure', 'WoundRulesNotInProcedure']);
const absent = (p: Problem | null): boolean => !!p && NOT_IN_PROCEDURE.has(p.key);

/** Castings of a combatant still under way (not gone off, lost or given up). */
export function pendingCastings(state: FlowState, combatantId: string): string[] {
  const all = state.schedule?.castings ?? state.carry;
  return all.filter((c) => c.caster === combatantId && (state.status[c.id] ?? 'pending') === 'pending').map((c) => c.id);
}

/** Who holds (segment-d6) or prepares (addict) an action in a round's plan, and who acts in the step being played: once per state. */
const planned = new WeakMap<FlowState, { holders: Set<string>; acting: Set<string> }>();
function plannedOf(state: FlowState): { holders: Set<string>; acting: Set<string> } {
  let found = planned.get(state);
  if (found) return found;
  const hold = getProcedure(state.procedure).attackRules?.held;
  const steps = state.schedule?.steps ?? [];
  const holders = new Set<string>();
  if (hold !== undefined) for (const step of steps) for (const e of step.entries) if (e.action === hold) holders.add(e.combatant);
  const acting = new Set<string>(state.stage === 'resolve' ? (steps[state.step]?.entries ?? []).map((e) => e.combatant) : []);
  planned.set(state, (found = { holders, acting }));
  return found;
}

/** Has the combatant a held (segment-d6) or prepared (addict) action in this round's plan? (Read from the schedule: the procedure's hold kind.) */
export function holds(state: FlowState, combatantId: string): boolean {
  return plannedOf(state).holders.has(combatantId);
}

/** A release probe: the engine's reasons about the moment (held, come, used, able) count; one about the stand-in action does not. */
const RELEASE_MOMENT = new Set(['ReleaseNotInProcedure', 'ReleaseCannotAct', 'ReleaseNotHeld', 'ReleaseUsed', 'MidRoundOutsideRound', 'UnknownCombatant', ...ACT_REFUSED_KEYS]);
function releaseProblem(state: FlowState, c: string): Problem | null {
  const p = probe(state, { t: 'release', c, d: { combatant: c, action: 'melee' } });
  return p && RELEASE_MOMENT.has(p.key) ? p : null;
}

/** The morale checks the GM calls from the tracker: a check "called by the GM" for each. */
function moraleInput(ids: readonly string[]): FlowInput {
  return { t: 'morale', requests: ids.map((combatant) => ({ combatant, trigger: 'gm' })) };
}

/* ------------------------------------------------------------ header */

/** The buttons of the tracker's header and footer (GM: step, initiative, round; everyone: what applies). */
export function combatControls(input: ControlsInput): ControlView[] {
  const { state, gm } = input;
  if (!gm) return playerControls(input);
  if (!input.started || !state) return [button('rollSurprise', 'fa-solid fa-eye', t('RollSurprise'))];
  const out: ControlView[] = [button('previousStep', 'fa-solid fa-backward-step', t('Previous'))];
  if (state.stage === 'declare') {
    const begin = probe(state, { t: 'begin' });
    out.push(...declarationCalls(input, state));
    // One declaration for a group (issue 29): the selected tokens, or every undeclared monster like the first.
    if ((input.npcs?.length ?? 1) > 0) out.push(button('declareGroup', 'fa-solid fa-people-group', t('DeclareGroup')));
    out.push(
      button('rollInitiative', 'fa-solid fa-dice-d6', t('RollInitiative'), begin),
      button('manualInitiative', 'fa-solid fa-keyboard', t('ManualInitiative'), begin),
    );
  } else {
    out.push(button('nextStep', 'fa-solid fa-forward-step', t('Next')));
    const stop = stopControl(state);
    if (stop) out.push(stop);
    out.push(button('endRound', 'fa-solid fa-flag-checkered', state.stage === 'end-of-round' ? t('NextRound') : t('EndRound')));
  }
  // What the GM records of the encounter where the procedure has it (addict phases 1 and 3; the text gives no table): the
  // reactions while phase 1 is not past, the distance while declaring (asked of the engine only where the procedure has the phase).
  const phases = getProcedure(state.procedure).gmPhases;
  if (phases?.reaction && beforeFirstRound(state)) out.push(button('recordReactions', 'fa-solid fa-handshake', t('Reactions')));
  if (phases?.distance && state.stage === 'declare') out.push(button('encounterDistance', 'fa-solid fa-ruler-horizontal', t('Distance'), probe(state, { t: 'distance', feet: 0 })));
  // The monsters still able to act, as the procedure says (those the action checks: monstersOf).
  const procedure = getProcedure(state.procedure);
  const npcs = input.npcs?.filter((id) => state.states[id] !== undefined && procedure.canAct(state.states[id]));
  if (npcs === undefined) out.push(button('moraleCheck', 'fa-solid fa-person-running', t('Morale')));
  else if (npcs.length > 0) out.push(button('moraleCheck', 'fa-solid fa-person-running', t('Morale'), probe(state, moraleInput(npcs))));
  return out;
}

/**
 * segment-d6 "hold", addict B "prepare": while someone's held or prepared action is still to be released, the GM can
 * stop at the next segment where nothing is scheduled (flow/held.ts `stop`), one segment at a time: pressed again
 * after Next, it stops at the one after. Left out where the procedure holds nothing or no segment is empty before
 * the next step.
 */
function stopControl(state: FlowState): ControlView | null {
  const procedure = getProcedure(state.procedure);
  const steps = state.schedule?.steps ?? [];
  const now = steps[state.step]?.segment;
  if (!procedure.segmentStep || state.stage !== 'resolve' || now === undefined) return null;
  if (![...plannedOf(state).holders].some((c) => !releasedThisRound(state, c))) return null;
  const next = steps[state.step + 1]?.segment ?? Infinity;
  const seg = now + 1;
  if (seg >= next || probe(state, { t: 'stop', seg }) !== null) return null;
  return button('stopAtSegment', 'fa-solid fa-hand', tf('StopAt', { segment: String(seg) }), null, { segment: String(seg) });
}

/**
 * The GM's "Odds of this fight" (issue 14; the tracker offers it to the GM only): greyed while fewer
 * than two sides have combatants. Its dialog (and the worker it starts) is a
 * chunk loaded at the click (actions.ts).
 */
export function oddsControl(sidesWithCombatants: number): ControlView {
  const out = button('oddsOfFight', 'fa-solid fa-chart-column', t('Odds'));
  if (sidesWithCombatants < 2) Object.assign(out, { disabled: true, reason: t('OddsNeedsTwoSides') });
  return out;
}

/**
 * The call for declarations: a broadcast; under addict, declaring in turn
 * (seed 004 phase 6): start it (a die picks who is first), then call the next
 * in the order, and pause the called player's clock while they ask the GM a
 * question (footnote 10) or let it run again.
 */
function declarationCalls(input: ControlsInput, state: FlowState): ControlView[] {
  if (state.procedure !== 'addict') return [button('callDeclarations', 'fa-solid fa-bullhorn', t('CallDeclarations'))];
  const call = input.turnCall;
  if (!call || call.round !== state.round) return [button('startDeclaringInTurn', 'fa-solid fa-list-ol', t('StartDeclaringInTurn'))];
  const out = [button('callNext', 'fa-solid fa-forward', t('CallNext'))];
  const live = call.called !== null && (call.running || call.paused);
  const pause = call.paused ? button('pauseClock', 'fa-solid fa-play', t('ResumeClock'), null, { paused: 'false' }) : button('pauseClock', 'fa-solid fa-pause', t('PauseClock'), null, { paused: 'true' });
  if (!live) {
    pause.disabled = true;
    pause.reason = t('NoClock');
  }
  out.push(pause);
  // The GM stops calling (everyone declares from their rows, untimed); a new round's call starts afresh.
  out.push(button('stopDeclaringInTurn', 'fa-solid fa-stop', t('StopDeclaringInTurn')));
  return out;
}

/** A player's header: declare for every combatant of theirs still to declare. */
function playerControls(input: ControlsInput): ControlView[] {
  if (!input.started || input.state?.stage !== 'declare') return [];
  const mine = input.view.combatants.filter((c) => input.owned.has(c.id) && c.mayDeclare && !c.declared);
  return mine.length > 0 ? [button('declareMine', 'fa-solid fa-scroll', t('DeclareMine'))] : [];
}

/* --------------------------------------------------------------- rows */

/** The buttons on one combatant's row. */
export function rowControls(input: ControlsInput, combatantId: string): ControlView[] {
  const { state, gm } = input;
  if (!input.started || !state) return [];
  if (!gm && !input.owned.has(combatantId)) return [];
  const c = combatantId;
  const data = { 'combatant-id': c };
  const view = input.view.combatants.find((x) => x.id === c);
  if (!view) return [];
  const out: ControlView[] = [];
  if (state.stage === 'declare') {
    if (view.mayDeclare) out.push(button('declare', 'fa-solid fa-scroll', view.declared ? t('Redeclare') : t('Declare'), null, data));
  }
  if (state.stage === 'resolve') {
    // What the procedure has at all (its capabilities, not a rule) is read first: the engine is asked only where it could say yes.
    const procedure = getProcedure(state.procedure);
    if (procedure.announceDelay) out.push(button('delay', 'fa-solid fa-hourglass-half', t('Delay'), probe(state, { t: 'delay', c }), data));
    if (holds(state, c)) out.push(button('release', 'fa-solid fa-bolt', t('Release'), releaseProblem(state, c), data));
    const castings = pendingCastings(state, c);
    if (castings.length > 0) {
      out.push(button('cancelCasting', 'fa-solid fa-ban', t('CancelCasting'), probe(state, { t: 'cancel', casting: castings[0] }), data));
      if (gm) out.push(button('breakCasting', 'fa-solid fa-heart-crack', t('BreakCasting'), probe(state, { t: 'break', casting: castings[0] }), data));
    }
    // d12-ascending II.C: the caster whose spell was left unnamed chooses it at its initiative result.
    if (choosingCasting(state, c)) out.push(button('chooseSpell', 'fa-solid fa-wand-sparkles', t('ChooseSpell'), probe(state, { t: 'choose', c, spell: null }), data));
    // Rules revision 5: its target fell before its blow; its owner chooses another target, to hold, or nothing.
    if (view.waiting !== undefined) out.push(button('retarget', 'fa-solid fa-arrows-turn-right', t('Retarget'), null, data));
    // The Attack of a combatant in the step being played, or holding an action for a later one (the engine says yes or why not);
    // the others' attacks out of turn are the GM's Free attack.
    const attack = plannedOf(state).acting.has(c) || holds(state, c) ? attackFor(state, c) : null;
    if (attack) out.push(button('attack', 'fa-solid fa-hand-fist', t('Attack'), attack.problem, data));
    if (gm) out.push(button('freeAttack', 'fa-solid fa-crosshairs', t('FreeAttack'), null, data));
  }
  if (gm) {
    // Not asked of the engine row by row (one copy of the round per row would cost a render of 200 its budget): the
    // request is, and a refusal comes back in words; the context menu's entry is offered only where the engine agrees.
    out.push(button('moraleOne', 'fa-solid fa-person-running', t('MoraleOne'), null, data));
    if (state.stage === 'end-of-round') {
      const staunch = probe(state, { t: 'staunch', c });
      if (!absent(staunch)) out.push(button('staunch', 'fa-solid fa-kit-medical', t('Staunch'), staunch, data));
    }
  }
  return out;
}

/**
 * The combatant's attack now, as the row's Attack button makes it: against
 * its declared target (or, at the click, the user's one targeted token), with
 * the weapon its action names (or its first attack routine), and whether the
 * engine takes it at this moment (not its step, surprised, down…: greyed with
 * the reason). Null where there is nobody it could attack.
 */
export function attackFor(state: FlowState, c: string): { target: string; weapon?: string; problem: Problem | null } | null {
  const self = engineCombatant(state, c);
  if (!self) return null;
  const release = state.midRound?.find((r) => r.t === 'release' && r.c === c);
  const declared = release?.t === 'release' ? release.d : state.declarations[c];
  const foes = state.encounter.combatants.filter((x) => x.side !== self.side);
  const target = declared?.target && declared.target !== c ? declared.target : foes[0]?.id;
  if (!target) return null;
  const weapon = (declared?.weapon ?? self.weapon)?.name?.trim() || undefined;
  const input = weapon !== undefined ? { t: 'attack' as const, c, target, weapon } : { t: 'attack' as const, c, target, routine: 0 };
  const out: { target: string; weapon?: string; problem: Problem | null } = { target, problem: whenItAttacks(state, c, attackProblem(state, input), (phase) => game.i18n?.localize(`TENSEG.Phase.${phase}`) ?? phase) };
  if (weapon !== undefined) out.weapon = weapon;
  return out;
}

/* ------------------------------------------------------------ actions */

/** An ApplicationV2 action: `this` is the tracker (its `viewed` combat), target the clicked element. */
export type TrackerAction = (this: { viewed: Combat.Implementation | null }, event: PointerEvent, target: HTMLElement) => Promise<void> | void;

/** What the actions do (requests, dialogs): a chunk loaded at the first click, not at start-up. */
const actions = () => import('./actions');
type Actions = Awaited<ReturnType<typeof actions>>;

/** The tracker's actions by name: a header's on the viewed combat, a row's on the combatant its element or row names. */
export const TRACKER_ACTION_NAMES = [
  'nextStep',
  'previousStep',
  'endRound',
  'rollInitiative',
  'manualInitiative',
  'rollSurprise',
  'callDeclarations',
  'startDeclaringInTurn',
  'callNext',
  'stopDeclaringInTurn',
  'pauseClock',
  'declareMine',
  'moraleCheck',
  'moraleOne',
  'declare',
  'release',
  'delay',
  'cancelCasting',
  'breakCasting',
  'freeAttack',
  'attack',
  'staunch',
  'chooseSpell',
  'retarget',
  'recordReactions',
  'encounterDistance',
  'oddsOfFight',
  'stopAtSegment',
  'declareGroup',
] as const;
export type TrackerActionName = (typeof TRACKER_ACTION_NAMES)[number];

/** Each action as core calls it (`this` the tracker, (event, target)); what it does is in actions.ts, loaded at the first click. */
export const TRACKER_ACTIONS: Record<string, TrackerAction> = Object.fromEntries(
  TRACKER_ACTION_NAMES.map((name) => [
    name,
    async function (this: { viewed: Combat.Implementation | null }, event: PointerEvent, target: HTMLElement) {
      await (await actions()).trackerAction(name, this, event, target);
    },
  ]),
);

/* ------------------------------------------------------- context menu */

/**
 * A context-menu entry, generation-neutral (compat.ts contextMenuEntry turns
 * it into v13's or v14's shape). Core builds the menu once, at the tracker's
 * first render: so an entry holds no combat; it is handed the combat viewed
 * and the row's combatant each time it is tested or chosen.
 */
export interface CombatantMenuEntry {
  label: string;
  /** Font Awesome classes, e.g. 'fa-solid fa-scroll'. */
  icon: string;
  visible(combat: Combat.Implementation, combatantId: string): boolean;
  run(combat: Combat.Implementation, combatantId: string): Promise<void> | void;
}

const BREAK_ICONS: Record<BreakCause, string> = { save: 'fa-solid fa-shield-halved', impeded: 'fa-solid fa-person-walking', jostled: 'fa-solid fa-hand-back-fist', other: 'fa-solid fa-heart-crack' };

/**
 * The entries of a combatant's context menu (beyond core's), every one this
 * client may ever offer; each asks, when tested, whether it is offered now,
 * to this user (the GM's only to a GM), for this combatant of this combat.
 */
export function combatantMenu(): CombatantMenuEntry[] {
  /** The combat the tracker views when the entry is tested or chosen. */
  type Viewed = Combat.Implementation;
  const state = (combat: Viewed): FlowState | null => (combat as TenSegmentsCombat).flowState;
  const gm = (): boolean => !!game.user?.isGM;
  const mine = (combat: Viewed, id: string): boolean => gm() || !!combat.combatants.get(id)?.isOwner;
  const resolving = (combat: Viewed, id: string): boolean => mine(combat, id) && state(combat)?.stage === 'resolve';
  /** Offered when the engine would take it now (a menu has no greyed entries). */
  const when = (combat: Viewed, input: (s: FlowState) => FlowInput | null): boolean => {
    const s = state(combat);
    const i = s ? input(s) : null;
    return !!s && !!i && probe(s, i) === null;
  };
  const casting = (s: FlowState, id: string): string | null => pendingCastings(s, id)[0] ?? null;
  const row = async (name: keyof Actions['ROW'], combat: Viewed, id: string, data: Record<string, string> = {}) => (await actions()).ROW[name](combat as TenSegmentsCombat, id, data);
  /** A GM's entry: offered to a GM only. */
  const gmOnly = (entry: CombatantMenuEntry): CombatantMenuEntry => ({ ...entry, visible: (combat, id) => gm() && entry.visible(combat, id) });
  const entries: CombatantMenuEntry[] = [
    { label: t('Declare'), icon: 'fa-solid fa-scroll', visible: (combat, id) => mine(combat, id) && state(combat)?.stage === 'declare', run: (combat, id) => row('declare', combat, id) },
    gmOnly({
      label: t('DeclareGroupLike'),
      icon: 'fa-solid fa-people-group',
      visible: (combat, id) => state(combat)?.stage === 'declare' && !combat.combatants.get(id)?.hasPlayerOwner,
      run: async (combat, id) => (await actions()).declareGroup(combat as TenSegmentsCombat, id),
    }),
    { label: t('Delay'), icon: 'fa-solid fa-hourglass-half', visible: (combat, id) => resolving(combat, id) && when(combat, () => ({ t: 'delay', c: id })), run: (combat, id) => row('delay', combat, id) },
    {
      label: t('Release'),
      icon: 'fa-solid fa-bolt',
      visible: (combat, id) => {
        const s = state(combat);
        return resolving(combat, id) && !!s && holds(s, id) && releaseProblem(s, id) === null;
      },
      run: (combat, id) => row('release', combat, id),
    },
    {
      label: t('CancelCasting'),
      icon: 'fa-solid fa-ban',
      visible: (combat, id) => resolving(combat, id) && when(combat, (s) => (casting(s, id) ? { t: 'cancel', casting: casting(s, id)! } : null)),
      run: (combat, id) => row('cancelCasting', combat, id),
    },
  ];
  for (const why of BREAK_CAUSES) {
    entries.push(
      gmOnly({
        label: tf('BreakBecause', { why: game.i18n!.localize(`TENSEG.Tracker.Break.${why}`) }),
        icon: BREAK_ICONS[why],
        visible: (combat, id) => resolving(combat, id) && when(combat, (s) => (casting(s, id) ? { t: 'break', casting: casting(s, id)!, why } : null)),
        run: (combat, id) => row('breakCasting', combat, id, { why }),
      }),
    );
  }
  entries.push(
    ...[
      { label: t('FreeAttack'), icon: 'fa-solid fa-crosshairs', visible: (combat: Viewed, id: string) => resolving(combat, id), run: (combat: Viewed, id: string) => row('freeAttack', combat, id) },
      { label: t('MoraleOne'), icon: 'fa-solid fa-person-running', visible: (combat: Viewed, id: string) => when(combat, () => moraleInput([id])), run: (combat: Viewed, id: string) => row('moraleOne', combat, id) },
      // Seed 002 (d12-ascending): a failed check may end in surrender; offered only where the engine accepts it.
      {
        label: t('MoraleSurrender'),
        icon: 'fa-solid fa-flag',
        visible: (combat: Viewed, id: string) => when(combat, () => ({ t: 'morale', requests: [{ combatant: id, trigger: 'gm', surrender: true }] })),
        run: (combat: Viewed, id: string) => row('moraleOne', combat, id, { surrender: 'true' }),
      },
      { label: t('Staunch'), icon: 'fa-solid fa-kit-medical', visible: (combat: Viewed, id: string) => when(combat, () => ({ t: 'staunch', c: id })), run: (combat: Viewed, id: string) => row('staunch', combat, id) },
      {
        label: t('ApplyDamage'),
        icon: 'fa-solid fa-heart-pulse',
        // While the combat runs (before it, the sheet or the token's bar: nothing is recorded yet).
        visible: (combat: Viewed, id: string) => !!state(combat) && !!combat.combatants.get(id)?.actor,
        run: async (combat: Viewed, id: string) => (await import('./gm-prompts')).applyDamage(combat as TenSegmentsCombat, id),
      },
      {
        label: t('HealCheck'),
        icon: 'fa-solid fa-hand-holding-medical',
        // Offered where the procedure has wound rules (the total is the GM's, asked when chosen).
        visible: (combat: Viewed, id: string) => {
          const s = state(combat);
          return !!s && !absent(probe(s, { t: 'heal', c: id, total: 0 }));
        },
        run: async (combat: Viewed, id: string) => (await import('./gm-prompts')).healCheck(combat as TenSegmentsCombat, id),
      },
      {
        label: t('Injury'),
        icon: 'fa-solid fa-user-injured',
        visible: (combat: Viewed, id: string) => {
          const s = state(combat);
          return !!s && !absent(probe(s, { t: 'injury', c: id, text: '-' }));
        },
        run: async (combat: Viewed, id: string) => (await import('./gm-prompts')).injury(combat as TenSegmentsCombat, id),
      },
    ].map(gmOnly),
  );
  return entries;
}
