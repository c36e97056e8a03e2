/**
 * The stand-in's shapes: named types for what it offers and for what it
 * reads of the objects a caller hands it, surface by surface and, where the
 * generations differ, one per generation. The stand-in's code is written
 * against them, and contracts.ts holds them to the fvtt-types declarations
 * of the typings the run compiles against (v13 or v14), so a drift between
 * the stand-in and the typings is a compile error.
 *
 * Type-only: nothing here exists at run time.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { CONST, MESSAGE_MODES } from './constants';

/* ----------------------------------------------- documents: operations */

export type DatabaseAction = 'create' | 'update' | 'delete';

/**
 * What the server adds to the options of every write before any client
 * sees them (core's DatabaseBackend): the action and the time of the write.
 */
export interface ServerAddedOptions<A extends DatabaseAction = DatabaseAction> {
  action: A;
  modifiedTime: number;
}

/** Keys of an operation the initiating client reads and never sends (the parent travels as its uuid). */
export interface ClientOnlyOperation {
  parent?: any;
  noHook?: boolean;
  pack?: string | null;
}

/** What a caller may pass to a delete that only the initiating client reads. */
export interface DeleteClientOnlyOperation extends ClientOnlyOperation {
  deleteAll?: boolean;
  ids?: string[];
}

/** What a caller may pass to an update that only the initiating client reads. */
export interface UpdateClientOnlyOperation extends ClientOnlyOperation {
  updates?: any[];
}

/** The options a client puts on every update it sends, unless the caller gave them (ClientDatabaseBackend). */
export interface UpdateDefaults {
  diff: boolean;
  recursive: boolean;
  render: boolean;
}

/** Whether the documents' applications re-render: read by every client on every write. */
export interface RenderOption {
  render?: boolean;
}

/** A create's options as every client's callbacks receive them; `keepId` is read by the server. */
export interface CreateOptions extends ServerAddedOptions<'create'>, RenderOption {
  keepId?: boolean;
}

/** An update's options as every client's callbacks receive them. */
export interface UpdateOptions extends ServerAddedOptions<'update'>, UpdateDefaults {}

/** A delete's options as every client's callbacks receive them. */
export interface DeleteOptions extends ServerAddedOptions<'delete'>, RenderOption {}

/**
 * What Combat#nextTurn, #previousTurn, #nextRound and #previousRound pass to
 * the combatTurn/combatRound hooks and to the update (v13 combat.mjs); the
 * server moves the world clock by `worldTime.delta`.
 */
export interface TurnChangeOptions {
  direction: 1 | -1;
  worldTime: { delta: number };
}

/** A Combat update's options: the turn-change options, and `turnEvents: false` to skip the turn events. */
export interface CombatUpdateOptions extends UpdateOptions, Partial<TurnChangeOptions> {
  turnEvents?: boolean;
}

/**
 * A Combatant update's options (Combat#rollInitiative, #resetAll): no turn
 * events, and the turn the combat is to keep after the combatants are sorted again.
 */
export interface CombatantTurnOptions {
  turnEvents?: boolean;
  /** `null` when rollInitiative keeps the turn of a combat that has none (core sends `this.turn`). */
  combatTurn?: number | null;
}
export interface CombatantUpdateOptions extends UpdateOptions, CombatantTurnOptions {}

/** The turn and round a combat is at (Combat#current, #previous; the combatTurnChange hook). */
export interface HistoryData {
  round: number;
  turn: number | null;
  combatantId: string | null;
  tokenId: string | null;
}

/** What the turn events receive (_onStartTurn, _onEndTurn). */
export interface TurnEventContext {
  round: number;
  turn: number;
  skipped: boolean;
}
/** What the round events receive (_onStartRound, _onEndRound). */
export type RoundEventContext = Omit<TurnEventContext, 'turn'>;

/** What Combat#nextTurn and #previousTurn pass to the combatTurn hook and to the update. */
export interface TurnUpdateData {
  round: number;
  turn: number;
}
/** What Combat#nextRound and #previousRound pass to the combatRound hook and to the update: no turn without combatants. */
export interface RoundUpdateData {
  round: number;
  turn: number | null;
}

/** What Combat#startCombat passes to the combatStart hook and to the update. */
export interface CombatStartData {
  round: number;
  turn: number;
}

/* ------------------------------------------------------- CombatantGroup */

/** CombatantGroup's own API, beside its schema (v13 combatant-group.mjs). */
export interface CombatantGroupApi {
  /** The combatants whose `group` is this group. */
  readonly members: Set<any>;
  /** Every member is defeated, or there is none. */
  readonly defeated: boolean;
  /** Every member is hidden, or there is none. */
  readonly hidden: boolean;
}

/* -------------------------------------------------------- combat tracker */

export interface TemplatePart {
  template: string;
  scrollable?: string[];
}

/** core's CombatTracker.PARTS: the encounter switcher and controls, the turns, the round controls. */
export type TrackerParts = {
  header: TemplatePart;
  tracker: TemplatePart;
  footer: TemplatePart;
};

/** The options ui.combat.render reads: the encounter to view (`null`: none). */
export interface TrackerRenderOptions {
  combat?: any;
}

/** One encounter of the switcher (v14's typings add the encounter's name: the stand-in's Combat has none). */
export interface TrackerCombatEntry {
  id: string;
  label: number;
  active: boolean;
}

/** What the header and footer parts get (CombatTracker#_prepareCombatContext). */
interface TrackerCombatContext {
  combat: any;
  hasCombat: boolean;
  previousId: string | undefined;
  nextId: string | undefined;
  combats: TrackerCombatEntry[];
  control: boolean;
  css: string;
  currentIndex: number;
  displayCycle: boolean;
  initiativeIcon: { icon: string; hover: string };
  linked: boolean;
}
export interface TrackerCombatContextV13 extends TrackerCombatContext {
  labels: { scope: string };
}
export type TrackerCombatContextV14 = TrackerCombatContext;

/** One combatant's row (CombatTracker#_prepareTurnContext); `initiative` becomes a fixed-precision string. */
export interface TrackerTurnContext {
  hasDecimals: boolean;
  hidden: boolean;
  id: string;
  isDefeated: boolean;
  initiative: number | string | null;
  isOwner: boolean;
  name: string;
  resource: number | null;
  active: boolean;
  canPing: boolean;
  img: string;
  css: string;
  effects: { icons: { name: string; img: string }[]; tooltip: string };
}

/** What the tracker part gets (CombatTracker#_prepareTrackerContext), when an encounter is viewed. */
export interface TrackerTurnsContext {
  turns: TrackerTurnContext[];
  hasDecimals: boolean;
}

/** A part's context: the header and footer get the combat context, the tracker the turns. */
export type TrackerPartContextV13 = Partial<TrackerCombatContextV13 & TrackerTurnsContext>;
export type TrackerPartContextV14 = Partial<TrackerCombatContextV14 & TrackerTurnsContext>;

/* --------------------------------------------------------- context menus */

/** A v13 ContextMenuEntry as the stand-in reads it. */
export interface MenuEntryV13 {
  name: string;
  icon?: string;
  group?: string | null;
  condition?: boolean | null | ((target: any) => boolean | null);
  callback: (target: any) => unknown;
}

/** A v14 ContextMenuEntry as the stand-in reads it: the v13 keys still read, with a deprecation warning. */
export interface MenuEntryV14 {
  label: string;
  icon?: string;
  classes?: string;
  group?: string | null;
  visible?: boolean | ((target: any) => boolean | null);
  onClick?: (event: any, target: any) => unknown;
  /** @deprecated v14: label */
  name?: string;
  /** @deprecated v14: visible */
  condition?: boolean | null | ((target: any) => boolean | null);
  /** @deprecated v14: onClick(event, target) */
  callback?: (target: any, event: any) => unknown;
}

/* ------------------------------------------------------------- queries */

/** The options of User#query, and what the recipient's handler gets as its second argument. */
export interface QueryOptions {
  timeout?: number;
}

/** A CONFIG.queries handler, as the recipient's client calls it: JSON data and `{timeout}`. */
export type QueryHandler = (queryData: any, queryOptions: QueryOptions) => unknown;

/** User#query. */
export type UserQuery = (queryName: string, queryData: unknown, queryOptions?: QueryOptions) => Promise<unknown>;

/* -------------------------------------------------------------- socket */

/** What a socket listener is called with: a JSON copy of the data and the id of the sending user. */
export type SocketListener = (data: any, senderId: string) => unknown;

/** game.socket as the stand-in offers it. */
export interface SocketApi {
  on(event: string, fn: SocketListener): unknown;
  off(event: string, fn?: SocketListener): unknown;
  emit(event: string, data?: unknown): void;
}

/* ------------------------------------------------- roll and message modes */

/** v13: a roll mode (CONST.DICE_ROLL_MODES). */
export type RollMode = (typeof CONST.DICE_ROLL_MODES)[keyof typeof CONST.DICE_ROLL_MODES];
/** v14: a message mode (CONFIG.ChatMessage.modes). */
export type MessageMode = (typeof MESSAGE_MODES)[number];

/** Roll#toMessage's options, v13: `rollMode` ("roll" or none: the core.rollMode setting). */
export interface ToMessageOptionsV13 {
  rollMode?: RollMode | 'roll' | null;
  create?: boolean;
}
/** Roll#toMessage's options, v14: `messageMode`; `rollMode` deprecated and mapped. */
export interface ToMessageOptionsV14 {
  messageMode?: MessageMode;
  /** @deprecated v14: messageMode */
  rollMode?: RollMode | 'roll' | null;
  create?: boolean;
}

/** ChatMessage creation options, v13: the roll mode applied before the pre-create hook ("roll", the current mode, is taken too, as core's applyRollMode does). */
export interface ChatCreateOptionsV13 extends CreateOptions {
  rollMode?: RollMode;
}
/** ChatMessage creation options, v14: the message mode; `rollMode` deprecated and mapped. */
export interface ChatCreateOptionsV14 extends CreateOptions {
  messageMode?: MessageMode;
  /** @deprecated v14: messageMode */
  rollMode?: RollMode | 'roll';
}

/** The core setting that holds how the user's messages are shown, and its choices. */
export interface ModeSettingV13 {
  key: 'core.rollMode';
  choice: RollMode;
}
export interface ModeSettingV14 {
  key: 'core.messageMode';
  choice: MessageMode;
}

/** What ChatMessage offers to apply a mode to message data (statics) and to a message (instances). */
export interface ChatModeStaticsV13 {
  applyRollMode(chatData: any, rollMode: RollMode | 'roll'): any;
}
export interface ChatModeMethodsV13 {
  applyRollMode(rollMode: RollMode | 'roll'): unknown;
}
/**
 * v14: no static or instance helper (issue 25: neither the 14.366 typings nor the v14 API pages show
 * `ChatMessage.applyMode`; the stricter reading is taken). A mode is applied by the `messageMode` creation
 * option, or by the mode's `handler` in `CONFIG.ChatMessage.modes` where one is set (none by default).
 */
export type ChatModeStaticsV14 = Record<never, never>;
export type ChatModeMethodsV14 = Record<never, never>;

/* ---------------------------------------------------------- keybindings */

/** A key binding: a KeyboardEvent `code` and the modifiers held with it (ClientKeybindings.KeybindingActionBinding). */
export interface KeyBinding {
  key: string;
  logicalKey?: string | undefined;
  modifiers?: string[] | undefined;
}

/** What a keybinding handler receives (KeyboardManager.KeyboardEventContext). */
export interface KeyContext {
  key: string;
  logicalKey: string;
  event: KeyboardEvent;
  isShift: boolean;
  isControl: boolean;
  isAlt: boolean;
  hasModifier: boolean;
  modifiers: string[];
  up: boolean;
  repeat: boolean;
  action?: string | undefined;
}

/** What `game.keybindings.register` reads of an action (ClientKeybindings.KeybindingActionConfig). */
export interface KeybindingActionData {
  name: string;
  hint?: string | undefined;
  uneditable?: KeyBinding[] | undefined;
  editable?: KeyBinding[] | undefined;
  onDown?: ((ctx: KeyContext) => boolean | void) | undefined;
  onUp?: ((ctx: KeyContext) => boolean | void) | undefined;
  repeat?: boolean | undefined;
  restricted?: boolean | undefined;
  reservedModifiers?: string[] | undefined;
  precedence?: number | undefined;
}

/** game.keybindings as the stand-in offers it: actions registered at init (core's `actions` holds them). */
export interface KeybindingsApi {
  register(namespace: string, action: string, data: KeybindingActionData): void;
}
