/**
 * The stand-in held to the typings: what it offers, and what it reads of the
 * objects a caller hands it, is declared (shapes.ts, and its classes) to
 * satisfy the fvtt-types declarations, so a drift between the two is a
 * compile error in `tsc`. Type-level only: nothing here runs, and vitest
 * never needs to import it.
 *
 * Which typings. Both tsc runs compile this file: tsconfig.json against
 * fvtt-types 13.345.1, tsconfig.v14.json against 14.366.0. A run loads one
 * of them, under the one name fvtt-types (the global `Combat`, `ChatMessage`,
 * `CONFIG`, `foundry` … are that package's), so the other generation's
 * declarations are not in the program: the stand-in's v13 shapes can be
 * checked only in the v13 run, its v14 shapes only in the v14 run, and the
 * two runs together check both. `TypingsGeneration` tells which typings are
 * loaded, and `ForRun<V13, V14>` picks the stand-in's shape for them. This
 * file names only declarations both typings have (or reaches one that only
 * one of them has through `Get`, which is `never` in the other), so it
 * compiles in both runs.
 *
 * Every contract is a generic check that holds for the stand-in's shape;
 * under it, a deliberately wrong shape is fed to the same check under
 * `@ts-expect-error`: if the check stopped detecting drift, that directive
 * would be unused, and tsc would fail on it.
 *
 * Known disagreements (the stand-in follows the source, or the stricter
 * choice, where the typings say otherwise) are named exceptions, each with
 * a tripwire: when the typings change there, the tripwire fails and the
 * exception has to be looked at again.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { Hooks as HookConfigs, SettingConfig } from 'fvtt-types/configuration';
import type * as S from './shapes';
import type { COMBAT_EMBEDDED, Combat as StandinCombat, Combatant as StandinCombatant, CombatantGroup as StandinGroup } from './combat';
import type { Actor as StandinActor, ChatMessage as StandinChatMessage, Document as StandinDocument, Item as StandinItem, Scene as StandinScene, TokenDocument as StandinToken, User as StandinUser } from './documents';
import type { ClientSocket } from './client';
import type { ClientKeybindings as StandinKeybindings, KeyboardManager as StandinKeyboardManager, userQuery } from './game';
import type { ApplicationV2 as StandinApplication, CombatTracker as StandinTracker, TabsConfig } from './ui';
import type { DocumentSheetV2 as StandinDocumentSheet, SheetRegistrationOptions } from './sheets';
import type { DataFieldOperator, ForcedDeletion, ForcedReplacement } from './utils';
import type { CompendiumCollection as StandinPack } from './packs';
import type { DocumentCollection as StandinDocumentCollection, WorldCollection as StandinWorldCollection } from './documents';

/* ============================================================== helpers */

/** Compiles only when T is `true`. */
export type Assert<T extends true> = T;
export type Not<T extends boolean> = T extends true ? false : true;
/** Every element is `true` (an empty list holds). */
export type All<T extends boolean[]> = [T[number]] extends [true] ? true : false;
/** A and B are the same type. */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** A is assignable to B (not distributed over unions). */
export type Fits<A, B> = [A] extends [B] ? true : false;
/** Every member of the union A is a member of B. */
export type Within<A, B> = [Exclude<A, B>] extends [never] ? true : false;
/** The unions A and B have the same members. */
export type SameMembers<A, B> = All<[Within<A, B>, Within<B, A>]>;
/** No member of A is a member of B. */
export type Disjoint<A, B> = [Extract<A, B>] extends [never] ? true : false;
/** The declared keys of T: no index signature, no fvtt-types internals (keys that start with a space). */
export type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K extends ` ${string}` ? never : K]: 0;
};
/** T declares the key K. */
export type HasKey<T, K extends PropertyKey> = K extends KnownKeys<T> ? true : false;
/** T[K], or never where T does not have K: reaches what only one generation's typings declare. */
export type Get<T, K extends PropertyKey> = K extends keyof T ? T[K] : never;
/** The string literals of a union: no `string`, no branded string (fvtt-types brands the open ends of its key unions). */
export type Literals<T> = T extends string ? (Record<never, never> extends { [P in T]: 0 } ? never : T) : never;
/** V without the branded strings of its unions (fvtt-types' open ends: the modes a module may add to CONFIG), nor `Except`. */
export type Unbranded<V, Except = never> = V extends string ? (V extends Except ? never : Literals<V>) : V;
/** T's values unbranded (keeps optional keys, and tuples). */
export type UnbrandedValues<T, Except = never> = { [K in keyof T]: Unbranded<T[K], Except> };
/** The public members C has beyond Base. */
export type OwnMembers<C, Base> = Exclude<KnownKeys<C>, KnownKeys<Base>>;
/** The keys of a stand-in document class's schema. */
export type SchemaKeys<C extends { defineSchema(): object }> = keyof ReturnType<C['defineSchema']>;

/** Every key both declare has a value in `Offered` that fits the value in `Declared` (an absent optional value aside). */
type ValuesFit<Offered, Declared> = false extends {
  [K in KnownKeys<Offered> & KnownKeys<Declared>]: Fits<Exclude<Get<Offered, K>, undefined>, Get<Declared, K>>;
}[KnownKeys<Offered> & KnownKeys<Declared>]
  ? false
  : true;

/**
 * The stand-in hands `Offered` to code typed against `Declared` (options it
 * passes to callbacks and hooks, data it returns): every key it sets is
 * declared, and each value fits. `Except` are keys the typings do not
 * declare and the stand-in sets anyway, each for a reason given where it is
 * used; an exception the typings come to declare fails (it is stale).
 */
export type Offers<Offered, Declared, Except extends PropertyKey = never> = All<
  [Within<Exclude<KnownKeys<Offered>, Except>, KnownKeys<Declared>>, Disjoint<Except, KnownKeys<Declared>>, ValuesFit<Omit<Offered, Except>, Declared>]
>;

/**
 * The stand-in reads objects typed `Declared` as `Read` (entries, options a
 * caller passes): every key it reads is declared (but `Except`, as above),
 * and whatever the typings accept, it accepts.
 */
export type Reads<Declared, Read, Except extends PropertyKey = never> = All<
  [Within<Exclude<KnownKeys<Read>, Except>, KnownKeys<Declared>>, Disjoint<Except, KnownKeys<Declared>>, Fits<Declared, Omit<Read, Except>>]
>;

/* ============================================================ the typings */

/**
 * Which typings this run compiles against. v14's declare the
 * DataFieldOperators (`foundry.data.operators`: ForcedDeletion and
 * ForcedReplacement, the `_del` and `_replace` of v14 updates), a module
 * v13's do not have.
 */
export type TypingsGeneration = 'operators' extends keyof typeof foundry.data ? 14 : 13;

/** The stand-in's shape for the running typings' generation. */
export type ForRun<V13, V14> = TypingsGeneration extends 14 ? V14 : V13;

/** A second marker agrees: only v14's typings configure chat message modes (CONFIG.ChatMessage.modes). */
export type MarkerAgrees = Assert<Equals<TypingsGeneration extends 14 ? true : false, HasKey<CONFIG['ChatMessage'], 'modes'>>>;

type HookConfig = HookConfigs.HookConfig;
type HookArg<Name extends keyof HookConfig, I extends number> = Parameters<HookConfig[Name]>[I];
/** The options a document's _onCreate/_onUpdate/_onDelete and its create/update/delete hooks receive. */
type CreateOptionsFor<N extends foundry.abstract.Document.Type> = foundry.abstract.Document.Database.CreateOptionsFor<N>;
type UpdateOptionsFor<N extends foundry.abstract.Document.Type> = foundry.abstract.Document.Database.UpdateOptionsFor<N>;
type DeleteOptionsFor<N extends foundry.abstract.Document.Type> = foundry.abstract.Document.Database.DeleteOptionsFor<N>;
/** The operation a caller passes to create/update/delete. */
type CreateOperationFor<N extends foundry.abstract.Document.Type> = foundry.abstract.Document.Database.CreateOperationForName<N>;
type UpdateOperationFor<N extends foundry.abstract.Document.Type> = foundry.abstract.Document.Database.UpdateOperationForName<N>;
type DeleteOperationFor<N extends foundry.abstract.Document.Type> = foundry.abstract.Document.Database.DeleteOperationForName<N>;

/* ============================================= documents: their schemas */

/**
 * Combat, Combatant and CombatantGroup have exactly core's fields: the
 * embedded collections are metadata.embedded in the stand-in, fields in
 * core. The other documents have a subset of core's (the stand-in models
 * what the system reads), never a field core lacks.
 */
type CombatEmbedded = (typeof COMBAT_EMBEDDED)[keyof typeof COMBAT_EMBEDDED];
type SchemaContract<Combat, Combatant, Group> = All<
  [
    SameMembers<Combat, KnownKeys<foundry.documents.BaseCombat.Schema>>,
    SameMembers<Combatant, KnownKeys<foundry.documents.BaseCombatant.Schema>>,
    SameMembers<Group, KnownKeys<foundry.documents.BaseCombatantGroup.Schema>>,
  ]
>;
export type Schemas = Assert<
  All<
    [
      // roundJoined: v14's CombatantData (Foundry's API documentation) that the 14.366 typings lack; typed in src/types/v14.d.ts.
      SchemaContract<SchemaKeys<typeof StandinCombat> | CombatEmbedded, Exclude<SchemaKeys<typeof StandinCombatant>, 'roundJoined'>, SchemaKeys<typeof StandinGroup>>,
      SameMembers<SchemaKeys<typeof StandinChatMessage>, KnownKeys<ChatMessage.Schema>>,
      Within<SchemaKeys<typeof StandinActor>, KnownKeys<Actor.Schema>>,
      Within<SchemaKeys<typeof StandinItem>, KnownKeys<Item.Schema>>,
      Within<SchemaKeys<typeof StandinScene>, KnownKeys<Scene.Schema>>,
      Within<SchemaKeys<typeof StandinToken>, KnownKeys<TokenDocument.Schema>>,
      Within<SchemaKeys<typeof StandinUser>, KnownKeys<User.Schema>>,
    ]
  >
>;
// @ts-expect-error: a group that stores whether it is defeated (core derives it from its members)
export type SchemasDrift = Assert<SchemaContract<SchemaKeys<typeof StandinCombat> | CombatEmbedded, SchemaKeys<typeof StandinCombatant>, SchemaKeys<typeof StandinGroup> | 'defeated'>>;

/* ============================================ documents: their members */

/**
 * The members the stand-in's Combat and Combatant add to its Document are
 * core's: public there, or protected there (the stand-in makes them public:
 * they are named below, where the typings must declare them), or the
 * stand-in's own bookkeeping (named, and core must not have them).
 */
declare abstract class CoreCombat extends foundry.documents.Combat {
  /** core's protected members the stand-in offers, as the typings declare them. */
  readonly declared: {
    _sortCombatants: CoreCombat['_sortCombatants'];
    _getCurrentState: CoreCombat['_getCurrentState'];
    _canChangeRound: CoreCombat['_canChangeRound'];
    _canChangeTurn: CoreCombat['_canChangeTurn'];
    _onEnter: CoreCombat['_onEnter'];
    _onExit: CoreCombat['_onExit'];
    _manageTurnEvents: CoreCombat['_manageTurnEvents'];
    _onEndTurn: CoreCombat['_onEndTurn'];
    _onEndRound: CoreCombat['_onEndRound'];
    _onStartRound: CoreCombat['_onStartRound'];
    _onStartTurn: CoreCombat['_onStartTurn'];
    _clearMovementHistoryOnExit: CoreCombat['_clearMovementHistoryOnExit'];
    _clearMovementHistoryOnStartTurn: CoreCombat['_clearMovementHistoryOnStartTurn'];
  };
}
declare abstract class CoreCombatant extends foundry.documents.Combatant {
  readonly declared: { _getInitiativeFormula: CoreCombatant['_getInitiativeFormula'] };
}
type CombatDeclared = CoreCombat['declared'];

/**
 * The stand-in's own: `_groupMembers` (CombatantGroup#members, kept by the
 * combat). v13 only, `isView`: 13.345.1 does not declare Combat#isView, which
 * v14's typings do (the stand-in offers it in both).
 */
type CombatOwn = '_groupMembers' | ForRun<'isView', never>;
type MembersContract<Combat, Combatant, Group> = All<
  [
    Within<Exclude<Combat, CombatOwn>, KnownKeys<foundry.documents.Combat> | keyof CombatDeclared>,
    Disjoint<CombatOwn, KnownKeys<foundry.documents.Combat> | keyof CombatDeclared>,
    Within<Combatant, KnownKeys<foundry.documents.Combatant> | keyof CoreCombatant['declared']>,
    Within<Group, KnownKeys<foundry.documents.CombatantGroup>>,
  ]
>;
export type Members = Assert<MembersContract<OwnMembers<StandinCombat, StandinDocument>, OwnMembers<StandinCombatant, StandinDocument>, OwnMembers<StandinGroup, StandinDocument>>>;
// @ts-expect-error: a group that offers its combat (core's CombatantGroup has no `combat`: a system reading it would pass here and fail in Foundry)
export type MembersDrift = Assert<MembersContract<OwnMembers<StandinCombat, StandinDocument>, OwnMembers<StandinCombatant, StandinDocument>, OwnMembers<StandinGroup, StandinDocument> | 'combat'>>;

/** What the turn and round events, the combatTurnChange hook and Combat#current receive. */
type TurnEventsContract<Turn, Round, History> = All<
  [
    Fits<Turn, Parameters<CombatDeclared['_onStartTurn']>[1]>,
    Fits<Turn, Parameters<CombatDeclared['_onEndTurn']>[1]>,
    Fits<Round, Parameters<CombatDeclared['_onStartRound']>[0]>,
    Fits<Round, Parameters<CombatDeclared['_onEndRound']>[0]>,
    Fits<History, HookArg<'combatTurnChange', 1>>,
    Fits<History, foundry.documents.Combat['current']>,
    Fits<History, ReturnType<CombatDeclared['_getCurrentState']>>,
  ]
>;
export type TurnEvents = Assert<TurnEventsContract<S.TurnEventContext, S.RoundEventContext, S.HistoryData>>;
// @ts-expect-error: a turn event told the turn as a combatant id
export type TurnEventsDrift = Assert<TurnEventsContract<Omit<S.TurnEventContext, 'turn'> & { turn: string }, S.RoundEventContext, S.HistoryData>>;

/* ==================================== documents: their operation options */

/**
 * v13 only, `action`: the server adds `action` to every operation's options,
 * as core does (v14's typings declare it); 13.345.1 declares it on the
 * socket request only.
 */
type ActionV13 = ForRun<'action', never>;

/** ChatMessage creation, v14 only: `messageMode`, the mode of Roll#toMessage (which v14's typings declare), is not yet among 14.366's creation options. */
type ChatCreateExcept = ForRun<never, 'messageMode'>;

/** `combatTurn: null`: core's rollInitiative sends `this.turn`, null before the combat starts; the typings say a number. */
type CombatantOptions = Omit<S.CombatantUpdateOptions, 'combatTurn'> & { combatTurn?: number };

type OperationsContract<Combat, Combatant, Create, Delete, ChatCreate> = All<
  [
    Offers<Combat, UpdateOptionsFor<'Combat'>, ActionV13>,
    Offers<Combatant, UpdateOptionsFor<'Combatant'>, ActionV13>,
    Offers<Create, CreateOptionsFor<'Combat'>, ActionV13>,
    Offers<Delete, DeleteOptionsFor<'Combat'>, ActionV13>,
    Offers<ChatCreate, CreateOptionsFor<'ChatMessage'>, ActionV13 | ChatCreateExcept>,
    Reads<UnbrandedValues<Pick<CreateOptionsFor<'ChatMessage'>, 'rollMode'>>, Pick<ChatCreate, Extract<keyof ChatCreate, 'rollMode'>>>,
  ]
>;
export type Operations = Assert<
  OperationsContract<S.CombatUpdateOptions, CombatantOptions, S.CreateOptions, S.DeleteOptions, ForRun<S.ChatCreateOptionsV13, S.ChatCreateOptionsV14>>
>;
// @ts-expect-error: a round/turn change that says how far the turn moved under a name of its own
export type OperationsDrift = Assert<OperationsContract<S.CombatUpdateOptions & { turnDelta: number }, CombatantOptions, S.CreateOptions, S.DeleteOptions, ForRun<S.ChatCreateOptionsV13, S.ChatCreateOptionsV14>>>;
// @ts-expect-error: a world-time advance given in minutes, as a string
export type OperationsValueDrift = Assert<Offers<Omit<S.CombatUpdateOptions, 'worldTime'> & { worldTime: { delta: string } }, UpdateOptionsFor<'Combat'>, ActionV13>>;

/** The exceptions above are still needed: the typings still lack them, or still disagree. */
export type OperationsExceptions = Assert<
  All<
    [
      Equals<HasKey<UpdateOptionsFor<'Combat'>, 'action'>, ForRun<false, true>>,
      Not<HasKey<CreateOptionsFor<'ChatMessage'>, 'messageMode'>>,
      Not<Fits<null, Get<UpdateOptionsFor<'Combatant'>, 'combatTurn'>>>,
    ]
  >
>;

/**
 * What a caller passes that only the initiating client reads: declared by
 * the operation a caller passes. v13 only, `updates` and `ids`: 13.345.1's
 * caller operations leave out what core fills in itself; the stand-in drops
 * them if a caller passes them anyway.
 */
type KeysWithin<Read, Declared, Except extends PropertyKey = never> = All<[Within<Exclude<KnownKeys<Read>, Except>, KnownKeys<Declared>>, Disjoint<Except, KnownKeys<Declared>>]>;
type ClientOnlyContract<Create, Update, Delete> = All<
  [
    KeysWithin<Create, CreateOperationFor<'Combat'>>,
    KeysWithin<Update, UpdateOperationFor<'Combat'>, ForRun<'updates', never>>,
    KeysWithin<Delete, DeleteOperationFor<'Combat'>, ForRun<'ids', never>>,
  ]
>;
export type ClientOnlyOperations = Assert<ClientOnlyContract<S.ClientOnlyOperation, S.UpdateClientOnlyOperation, S.DeleteClientOnlyOperation>>;
// @ts-expect-error: a delete that a caller could scope to a scene by an option core does not have
export type ClientOnlyOperationsDrift = Assert<ClientOnlyContract<S.ClientOnlyOperation, S.UpdateClientOnlyOperation, S.DeleteClientOnlyOperation & { scene?: string }>>;

/**
 * The round/turn changes (Combat#nextTurn … #previousRound) and the start:
 * their update data and options as the hooks see them. v13 only: 13.345.1
 * declares the combatTurn/combatRound hooks' options as `{advanceTime,
 * direction}` and combatRound's turn as a number, where v13's source (and
 * 13.345.1's own Combat.Database.Update, checked above) passes
 * `{direction, worldTime: {delta}}` and a null turn without combatants; v14's
 * typings agree with the source. So the hooks are checked in the v14 run,
 * and the v13 run checks that 13.345.1 still says so.
 */
type TurnHooksContract<Start, Turn, Round, Options> = All<
  [
    Fits<Start, HookArg<'combatStart', 1>>,
    ForRun<true, Fits<Turn, HookArg<'combatTurn', 1>>>,
    ForRun<true, Fits<Round, HookArg<'combatRound', 1>>>,
    ForRun<true, Offers<Options, HookArg<'combatTurn', 2>>>,
    ForRun<true, Offers<Options, HookArg<'combatRound', 2>>>,
  ]
>;
export type TurnHooks = Assert<TurnHooksContract<S.CombatStartData, S.TurnUpdateData, S.RoundUpdateData, S.TurnChangeOptions>>;
// @ts-expect-error: a combat that starts at round "one"
export type TurnHooksDrift = Assert<TurnHooksContract<{ round: 'one'; turn: number }, S.TurnUpdateData, S.RoundUpdateData, S.TurnChangeOptions>>;
export type TurnHooksV13Typings = Assert<
  ForRun<All<[Not<Offers<S.TurnChangeOptions, HookArg<'combatTurn', 2>>>, HasKey<HookArg<'combatTurn', 2>, 'advanceTime'>, Not<Fits<null, HookArg<'combatRound', 1>['turn']>>]>, true>
>;

/** v14's update operators: the stand-in installs those the typings declare (v13: none, and the typings have none). */
type StandinOperators = ForRun<Record<never, never>, { DataFieldOperator: typeof DataFieldOperator; ForcedDeletion: typeof ForcedDeletion; ForcedReplacement: typeof ForcedReplacement }>;
type TypingsOperators = [Get<typeof foundry.data, 'operators'>] extends [never] ? never : KnownKeys<Get<typeof foundry.data, 'operators'>>;
export type Operators = Assert<Within<KnownKeys<StandinOperators>, TypingsOperators>>;
// @ts-expect-error: an operator neither generation has
export type OperatorsDrift = Assert<Within<KnownKeys<StandinOperators> | 'ForcedIncrement', TypingsOperators>>;

/* ===================================================== CombatantGroup */

/**
 * CombatantGroup's own API (beside the fields, checked above) is core's:
 * `members`, `defeated`, `hidden`, each of core's type. Left out:
 * `clearMovementHistories` (Combat's is modelled, the group's is not).
 */
type GroupLeftOut = 'clearMovementHistories';
/** What core's CombatantGroup has beyond its fields and what every client document has (what Item and Combatant both have stands for those). */
type CommonDocumentMembers = KnownKeys<foundry.documents.Item> & KnownKeys<foundry.documents.Combatant>;
type CoreGroupOwn = Exclude<KnownKeys<foundry.documents.CombatantGroup>, CommonDocumentMembers | KnownKeys<foundry.documents.BaseCombatantGroup.Schema>>;
type GroupContract<Api> = All<
  [SameMembers<KnownKeys<Api> | GroupLeftOut, CoreGroupOwn>, Offers<Api, foundry.documents.CombatantGroup>, Fits<StandinGroup, Api>]
>;
export type Group = Assert<GroupContract<S.CombatantGroupApi>>;
// @ts-expect-error: a group that counts its members as a number
export type GroupDrift = Assert<GroupContract<Omit<S.CombatantGroupApi, 'members'> & { readonly members: number }>>;

/* ====================================================== combat tracker */

type CoreTracker = foundry.applications.sidebar.tabs.CombatTracker;
type CoreTrackerClass = typeof foundry.applications.sidebar.tabs.CombatTracker;
declare abstract class CoreTrackerProtected extends foundry.applications.sidebar.tabs.CombatTracker {
  readonly declared: {
    _preparePartContext: CoreTrackerProtected['_preparePartContext'];
    _prepareCombatContext: CoreTrackerProtected['_prepareCombatContext'];
    _prepareTrackerContext: CoreTrackerProtected['_prepareTrackerContext'];
    _prepareTurnContext: CoreTrackerProtected['_prepareTurnContext'];
    _getCombatantThumbnail: CoreTrackerProtected['_getCombatantThumbnail'];
    _formatEffectsTooltip: CoreTrackerProtected['_formatEffectsTooltip'];
    _getEntryContextOptions: CoreTrackerProtected['_getEntryContextOptions'];
  };
}

/**
 * The tracker's parts and each part's context. v13: against the repair
 * (src/types/combat-tracker.d.ts), as 13.345.1 stubs them. v14: against
 * v14's CombatTracker.RenderContext, which carries the parts' context; the
 * stand-in leaves out what ApplicationV2's base context holds (`tabs`,
 * `user`: the stand-in's application context is the app's own) and the
 * encounter's `name` in the switcher (the stand-in's Combat has no name).
 * v14's typings type PARTS as a Record (the part ids are in a doc comment
 * only), so only the v13 run checks the ids.
 */
type TrackerBase = 'tabs' | 'user';
type CoreRenderContext = foundry.applications.sidebar.tabs.CombatTracker.RenderContext;
type CoreCombatEntry = NonNullable<Get<CoreRenderContext, 'combats'>> extends (infer E)[] ? E : never;
type V14Context = Omit<CoreRenderContext, 'combats'> & { combats?: Omit<CoreCombatEntry, 'name'>[] };
type TrackerDeclaredContext = ForRun<CombatTrackerV13.PartContext, V14Context>;
type TrackerDeclaredTurn = ForRun<CombatTrackerV13.TurnContext, foundry.applications.sidebar.tabs.CombatTracker.TurnContext>;
type TrackerDeclaredOptions = ForRun<CombatTrackerV13.RenderOptions & foundry.applications.sidebar.tabs.CombatTracker.RenderOptions, foundry.applications.sidebar.tabs.CombatTracker.RenderOptions>;
/** v14 only: the context's `initiativeIcon` is CONFIG.Combat.initiativeIcon, an {icon, hover} pair in 14.366's CONFIG, a string in its tracker context. */
type IconExcept = ForRun<never, 'initiativeIcon'>;
type TrackerContract<Parts, Context, Turn, Options> = All<
  [
    Fits<Parts, CoreTrackerClass['PARTS']>,
    ForRun<SameMembers<keyof Parts, keyof CombatTrackerV13.Parts>, true>,
    SameMembers<KnownKeys<Context> | ForRun<never, TrackerBase>, KnownKeys<TrackerDeclaredContext>>,
    Offers<Omit<Context, IconExcept>, TrackerDeclaredContext>,
    SameMembers<KnownKeys<Turn>, KnownKeys<TrackerDeclaredTurn>>,
    Offers<Turn, TrackerDeclaredTurn>,
    Offers<Options, TrackerDeclaredOptions>,
    Within<Exclude<OwnMembers<StandinTracker, StandinApplication>, TrackerOwn>, KnownKeys<CoreTracker> | keyof CoreTrackerProtected['declared']>,
    Disjoint<TrackerOwn, KnownKeys<CoreTracker>>,
  ]
>;
/** The stand-in's own: `partContexts` and `partHTML`, each part's context and HTML of the last render, for tests to read. */
type TrackerOwn = 'partContexts' | 'partHTML';
type StandinTrackerContext = ForRun<S.TrackerPartContextV13, S.TrackerPartContextV14>;
export type Tracker = Assert<TrackerContract<(typeof StandinTracker)['PARTS'], StandinTrackerContext, S.TrackerTurnContext, S.TrackerRenderOptions>>;
// @ts-expect-error: a tracker part context that numbers the round under a key core does not have
export type TrackerDrift = Assert<TrackerContract<(typeof StandinTracker)['PARTS'], StandinTrackerContext & { roundLabel: string }, S.TrackerTurnContext, S.TrackerRenderOptions>>;
// @ts-expect-error: a turn whose image is an element, not a URL
export type TrackerTurnDrift = Assert<TrackerContract<(typeof StandinTracker)['PARTS'], StandinTrackerContext, Omit<S.TrackerTurnContext, 'img'> & { img: HTMLImageElement }, S.TrackerRenderOptions>>;
export type TrackerExceptions = Assert<
  ForRun<
    true,
    All<
      [
        HasKey<CoreCombatEntry, 'name'>,
        Not<Fits<S.TrackerCombatContextV14['initiativeIcon'], Get<CoreRenderContext, 'initiativeIcon'>>>,
        Fits<S.TrackerCombatContextV14['initiativeIcon'], Get<CONFIG['Combat'], 'initiativeIcon'>>,
      ]
    >
  >
>;

/* ===================================================== document sheets */

type CoreApplication = foundry.applications.api.ApplicationV2;
type CoreDocumentSheet = foundry.applications.api.DocumentSheetV2<foundry.abstract.Document.Any>;
declare abstract class CoreApplicationProtected extends foundry.applications.api.ApplicationV2 {
  readonly declared: {
    _canRender: CoreApplicationProtected['_canRender'];
    _prepareContext: CoreApplicationProtected['_prepareContext'];
    _prepareTabs: CoreApplicationProtected['_prepareTabs'];
    _getTabsConfig: CoreApplicationProtected['_getTabsConfig'];
    _onSubmitForm: CoreApplicationProtected['_onSubmitForm'];
    _onChangeForm: CoreApplicationProtected['_onChangeForm'];
    _onClickAction: CoreApplicationProtected['_onClickAction'];
    _renderHTML: CoreApplicationProtected['_renderHTML'];
    _replaceHTML: CoreApplicationProtected['_replaceHTML'];
    _onRender: CoreApplicationProtected['_onRender'];
    _onFirstRender: CoreApplicationProtected['_onFirstRender'];
    _createContextMenu: CoreApplicationProtected['_createContextMenu'];
  };
}
declare abstract class CoreDocumentSheetProtected extends foundry.applications.api.DocumentSheetV2<foundry.abstract.Document.Any> {
  readonly declared: {
    _prepareSubmitData: CoreDocumentSheetProtected['_prepareSubmitData'];
    _processFormData: CoreDocumentSheetProtected['_processFormData'];
    _processSubmitData: CoreDocumentSheetProtected['_processSubmitData'];
  };
}
/** The stand-in's own members, for tests (not core's): the last render's context, its count, its settled promise, the client it runs on, the context menus it made. */
type ApplicationOwn = 'lastContext' | 'renderCount' | 'renderSettled' | 'client' | 'contextMenus';

/**
 * ApplicationV2 and DocumentSheetV2: every public member the stand-in adds
 * (tabs, forms, permissions, title, the submit path) is one core declares,
 * public or protected (named, so a rename in the typings fails); registerSheet
 * reads only declared options and accepts every option the typings accept;
 * a TABS group the typings accept, the stand-in reads; getTrackedAttributes
 * returns core's description.
 */
type SheetContract<App, Sheet, Options, Tabs, Tracked> = All<
  [
    Within<Exclude<KnownKeys<App>, ApplicationOwn>, KnownKeys<CoreApplication> | keyof CoreApplicationProtected['declared']>,
    Disjoint<ApplicationOwn, KnownKeys<CoreApplication>>,
    Within<OwnMembers<Sheet, App>, KnownKeys<CoreDocumentSheet> | keyof CoreDocumentSheetProtected['declared']>,
    Reads<NonNullable<Parameters<typeof foundry.applications.apps.DocumentSheetConfig.registerSheet>[3]>, Options>,
    Reads<foundry.applications.api.ApplicationV2.TabsConfiguration, Tabs>,
    Fits<Tracked, ReturnType<typeof foundry.documents.TokenDocument.getTrackedAttributes>>,
  ]
>;
type StandinTracked = ReturnType<typeof StandinToken.getTrackedAttributes>;
export type Sheets = Assert<SheetContract<StandinApplication, StandinDocumentSheet, SheetRegistrationOptions, TabsConfig, StandinTracked>>;
// @ts-expect-error: a sheet with a member core does not have
export type SheetsDrift = Assert<SheetContract<StandinApplication, StandinDocumentSheet & { saveNow(): void }, SheetRegistrationOptions, TabsConfig, StandinTracked>>;
// @ts-expect-error: registration options read under a key neither generation declares
export type SheetsOptionsDrift = Assert<SheetContract<StandinApplication, StandinDocumentSheet, SheetRegistrationOptions & { priority?: number }, TabsConfig, StandinTracked>>;
// @ts-expect-error: a stand-in that would refuse a tab group whose initial tab is null, which the typings allow
export type SheetsTabsDrift = Assert<SheetContract<StandinApplication, StandinDocumentSheet, SheetRegistrationOptions, Omit<TabsConfig, 'initial'> & { initial?: string }, StandinTracked>>;
// @ts-expect-error: tracked attributes as dotted strings, not key arrays
export type SheetsTrackedDrift = Assert<SheetContract<StandinApplication, StandinDocumentSheet, SheetRegistrationOptions, TabsConfig, { bar: string[]; value: string[] }>>;

/* ======================================================= context menus */

/**
 * The stand-in reads the entries of the running generation: every key it
 * reads is declared, and every entry the typings accept, it accepts.
 */
type MenuContract<V13, V14> = Reads<foundry.applications.ux.ContextMenu.Entry<HTMLElement>, ForRun<V13, V14>>;
export type Menus = Assert<MenuContract<S.MenuEntryV13, S.MenuEntryV14>>;
// @ts-expect-error: an entry with a keyboard shortcut, which neither generation declares
export type MenusDrift = Assert<MenuContract<S.MenuEntryV13 & { shortcut?: string }, S.MenuEntryV14 & { shortcut?: string }>>;
// @ts-expect-error: a stand-in that would refuse a condition returning null, which both typings allow
export type MenusConditionDrift = Assert<MenuContract<Omit<S.MenuEntryV13, 'condition'> & { condition?: (t: any) => boolean }, Omit<S.MenuEntryV14, 'visible'> & { visible?: (t: any) => boolean }>>;

/* ============================================================= queries */

type CoreQueryOptions = NonNullable<Parameters<foundry.documents.User['query']>[2]>;
/** v14 types any CONFIG.queries handler; v13's name each core handler, with no common type (so only v14 checks the handler). */
type CoreQueryHandler = Extract<Get<CONFIG.Queries, string>, (...args: any) => any>;
type QueriesContract<Options, Handler extends (...args: any) => any, Query> = All<
  [
    SameMembers<KnownKeys<Options>, KnownKeys<CoreQueryOptions>>,
    Reads<CoreQueryOptions, Options>,
    Fits<Query, S.UserQuery>,
    Fits<Parameters<S.UserQuery>[2], Parameters<foundry.documents.User['query']>[2]>,
    ForRun<true, Fits<Parameters<Handler>, Parameters<CoreQueryHandler>>>,
  ]
>;
export type Queries = Assert<QueriesContract<S.QueryOptions, S.QueryHandler, OmitThisParameter<typeof userQuery>>>;
// @ts-expect-error: a query whose timeout is given as a duration string
export type QueriesDrift = Assert<QueriesContract<{ timeout?: string }, S.QueryHandler, OmitThisParameter<typeof userQuery>>>;

/* ============================================================== socket */

/**
 * game.socket: what the stand-in offers is a part of socket.io's Socket the
 * typings declare game.socket to be: the same methods, and every call the
 * stand-in accepts is one the real socket accepts (an acknowledgement
 * callback is left out).
 */
type CoreSocket = NonNullable<foundry.Game['socket']>;
type SocketContract<Api extends S.SocketApi> = All<
  [
    Within<KnownKeys<Api>, KnownKeys<CoreSocket>>,
    Fits<Parameters<Api['on']>, Parameters<CoreSocket['on']>>,
    Fits<Parameters<Api['off']>, Parameters<CoreSocket['off']>>,
    Fits<Parameters<Api['emit']>, Parameters<CoreSocket['emit']>>,
    Fits<ClientSocket, Api>,
  ]
>;
export type Socket = Assert<SocketContract<S.SocketApi>>;
// @ts-expect-error: a socket that sends to a numbered channel
export type SocketDrift = Assert<SocketContract<Omit<S.SocketApi, 'emit'> & { emit(event: number, data?: unknown): void }>>;

/* ================================================ roll and message modes */

/**
 * The mode a user's messages are shown in: the setting, its choices, Roll#toMessage's
 * options and ChatMessage's methods.
 *
 * v13: setting `core.rollMode` with the roll modes of CONFIG.Dice.rollModes,
 * `toMessage(data, {rollMode, create})`, ChatMessage.applyRollMode.
 *
 * v14: `toMessage(data, {messageMode, rollMode (deprecated), create})`, the
 * message modes of ChatMessage.Mode. 14.366 has not caught up elsewhere: it
 * still declares `core.rollMode` (not `core.messageMode`) and
 * ChatMessage.applyRollMode (not applyMode), and the mode `ic`. The stand-in
 * follows v14's source as far as it is confirmed (README: "Could not
 * confirm"): it registers `core.messageMode`, offers neither applyMode (in
 * no typings or API page: issue 25) nor applyRollMode, and leaves `ic` out. So the v14 run checks the modes and
 * toMessage, and trips when 14.x's typings change on the rest. In both,
 * the modes are core's: a mode a module adds to CONFIG is left out.
 */
type ModesLeftOut = ForRun<never, 'ic'>;
type TypingsRollModes = Literals<keyof CONFIG['Dice']['rollModes']>;
type TypingsMessageModes = Literals<Get<Roll.ToMessageOptions<boolean>, 'messageMode'>>;
type ModesContract<Setting extends { key: string; choice: string }, ToMessage, Statics> = All<
  [
    SameMembers<Setting['choice'] | ModesLeftOut, ForRun<TypingsRollModes, TypingsMessageModes>>,
    ForRun<HasKey<SettingConfig, Setting['key']>, true>,
    Reads<UnbrandedValues<Roll.ToMessageOptions<boolean>, ModesLeftOut>, ToMessage>,
    ForRun<Fits<UnbrandedValues<Parameters<(typeof foundry.documents.ChatMessage)['applyRollMode']>>, Parameters<Extract<Get<Statics, 'applyRollMode'>, (...args: any) => any>>>, true>,
  ]
>;
type ModesFor<T extends 'setting' | 'toMessage' | 'statics'> = {
  setting: ForRun<S.ModeSettingV13, S.ModeSettingV14>;
  toMessage: ForRun<S.ToMessageOptionsV13, S.ToMessageOptionsV14>;
  statics: ForRun<S.ChatModeStaticsV13, S.ChatModeStaticsV14>;
}[T];
export type Modes = Assert<ModesContract<ModesFor<'setting'>, ModesFor<'toMessage'>, ModesFor<'statics'>>>;
// @ts-expect-error: a roll mode core does not have
export type ModesDrift = Assert<ModesContract<{ key: ModesFor<'setting'>['key']; choice: ModesFor<'setting'>['choice'] | 'whisper' }, ModesFor<'toMessage'>, ModesFor<'statics'>>>;
// @ts-expect-error: a stand-in that would not take "roll" (the user's current mode), which both typings allow
export type ModesRollDrift = Assert<ModesContract<ModesFor<'setting'>, Omit<ModesFor<'toMessage'>, 'rollMode'> & { rollMode?: S.RollMode }, ModesFor<'statics'>>>;

/** v14: the message modes apply as ChatMessage.Mode says; 14.366 still declares the v13 setting and method, and the `ic` mode. */
export type ModesV14Typings = Assert<
  ForRun<
    true,
    All<
      [
        Not<HasKey<SettingConfig, S.ModeSettingV14['key']>>,
        HasKey<SettingConfig, S.ModeSettingV13['key']>,
        HasKey<typeof foundry.documents.ChatMessage, 'applyRollMode'>,
        Not<HasKey<typeof foundry.documents.ChatMessage, 'applyMode'>>,
        Within<'ic', TypingsMessageModes>,
      ]
    >
  >
>;

/* ========================================================== keybindings */

/**
 * game.keybindings: what the stand-in offers is a part of core's
 * ClientKeybindings (the same method names); `register` accepts every
 * action config the typings accept; the context a handler gets is
 * KeyboardManager.KeyboardEventContext's shape.
 */
type CoreKeybindings = foundry.helpers.interaction.ClientKeybindings;
type CoreKeyContext = foundry.helpers.interaction.KeyboardManager.KeyboardEventContext;
type KeybindingsContract<Api extends S.KeybindingsApi, Context> = All<
  [
    Within<KnownKeys<Api>, KnownKeys<CoreKeybindings>>,
    Fits<Parameters<CoreKeybindings['register']>, Parameters<Api['register']>>,
    Fits<StandinKeybindings, Api>,
    Fits<Context, CoreKeyContext>,
    Fits<CoreKeyContext, Context>,
  ]
>;
export type Keybindings = Assert<KeybindingsContract<S.KeybindingsApi, S.KeyContext>>;
// @ts-expect-error: a register that demands a hint (the typings make it optional)
export type KeybindingsDrift = Assert<KeybindingsContract<Omit<S.KeybindingsApi, 'register'> & { register(namespace: string, action: string, data: S.KeybindingActionData & { hint: string }): void }, S.KeyContext>>;
// @ts-expect-error: a handler context without the modifiers core passes
export type KeyContextDrift = Assert<KeybindingsContract<S.KeybindingsApi, Omit<S.KeyContext, 'modifiers'>>>;
// KeyboardManager.MODIFIER_KEYS: the same names (the typings brand the values, the stand-in's are the strings core has).
type CoreModifierKeys = foundry.helpers.interaction.KeyboardManager.ModifierKeys;
type ModifierKeysContract<Offered> = All<[Equals<keyof Offered, keyof CoreModifierKeys>, Fits<Offered[keyof Offered & string], string>]>;
export type ModifierKeys = Assert<ModifierKeysContract<(typeof StandinKeyboardManager)['MODIFIER_KEYS']>>;
// @ts-expect-error: a modifier core does not have
export type ModifierKeysDrift = Assert<ModifierKeysContract<{ CONTROL: 'Control'; SHIFT: 'Shift'; ALT: 'Alt'; META: 'Meta' }>>;

/* ============================================================ compendium packs */

/**
 * The stand-in's compendiums (packs.ts) offer only members core's
 * CompendiumCollection declares, but `getDocumentSync` (its own: the
 * synchronous build behind getDocument and fromUuidSync); a compendium
 * document's `pack`, `compendium` and `inCompendium`, and a world
 * collection's `fromCompendium` / `importFromCompendium`, are core's.
 */
type PackOwn = 'getDocumentSync';
type PacksContract<Pack, Doc, World> = All<
  [
    Within<Exclude<Pack, PackOwn>, KnownKeys<foundry.documents.collections.CompendiumCollection<'Item'>>>,
    Disjoint<PackOwn, KnownKeys<foundry.documents.collections.CompendiumCollection<'Item'>>>,
    Within<Doc, KnownKeys<foundry.documents.Item>>,
    Within<World, KnownKeys<foundry.documents.collections.Items>>,
  ]
>;
export type Packs = Assert<PacksContract<OwnMembers<StandinPack, StandinDocumentCollection>, 'pack' | 'compendium' | 'inCompendium', OwnMembers<StandinWorldCollection, StandinDocumentCollection>>>;
// @ts-expect-error: a pack offering a member core's CompendiumCollection lacks (a system calling it would pass here and fail in Foundry)
export type PacksDrift = Assert<PacksContract<OwnMembers<StandinPack, StandinDocumentCollection> | 'documents', 'pack', OwnMembers<StandinWorldCollection, StandinDocumentCollection>>>;
