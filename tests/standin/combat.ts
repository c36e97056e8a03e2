/**
 * Combat, Combatant and CombatantGroup after the v13 client classes
 * (client/documents/combat.mjs) and their common base classes
 * (common/documents/combat.mjs, combatant.mjs: the permission rules the
 * server applies): turn order from setupTurns, round/turn navigation with the
 * update options and hooks core passes, and the
 * _onStartRound/_onEndRound/_onStartTurn/_onEndTurn workflow, which runs only
 * on the designated active GM's client.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { CONST, DOCUMENT_OWNERSHIP_LEVELS as LEVELS } from './constants';
import { Document, Scenes, WorldCollection, getDocumentClass } from './documents';
import {
  BooleanField,
  DocumentIdField,
  DocumentOwnershipField,
  DocumentStatsField,
  DocumentTypeField,
  FilePathField,
  ForeignDocumentField,
  NumberField,
  ObjectField,
  SchemaField,
  StringField,
  TypeDataField,
  configRef,
  worldCollections,
  worldOf,
} from './fields';
import { hooks } from './hooks';
import { ownerOf, recordError, state, trackPending } from './state';
import { deepClone, mergeObject } from './utils';
import type {
  CombatStartData,
  CombatUpdateOptions,
  CombatantGroupApi,
  CombatantTurnOptions,
  HistoryData,
  RenderOption,
  RoundEventContext,
  RoundUpdateData,
  ToMessageOptionsV13,
  ToMessageOptionsV14,
  TurnChangeOptions,
  TurnEventContext,
  TurnUpdateData,
} from './shapes';

const ui = () => (globalThis as any).ui;
/** Core re-renders the tracker without awaiting it: a failing render is logged, not thrown. */
const renderTracker = (options?: any) => {
  Promise.resolve(ui().combat.render(options)).catch((err: unknown) => recordError('CombatTracker#render', err));
};
const settingsGet = (key: string) => (globalThis as any).game.settings.get('core', key);

function activeGM(): any {
  return worldCollections.get('User')?.activeGM ?? null;
}

/** Is the running client the designated active GM's? (core: game.users.activeGM?.isSelf) */
function onActiveGMClient(): boolean {
  const gm = activeGM();
  return !!gm && gm.id === state.user?.id;
}

/** BaseCombat#canModifyCombatants: every combatant change must be one the user may make to that combatant. */
function canModifyCombatants(combat: any, user: any, combatants: any): boolean {
  if (!Array.isArray(combatants)) return false;
  for (const { _id, ...change } of combatants) {
    const c = combat.combatants.get(_id);
    if (!c) return false;
    if (!c.canUserModify(user, 'update', change)) return false;
  }
  return true;
}

/* ------------------------------------------------------------- Combat */

const TURN_ONLY = ['_id', 'round', 'turn', 'combatants'];

/** Combat's embedded collections (core: fields of its schema). */
export const COMBAT_EMBEDDED = { Combatant: 'combatants', CombatantGroup: 'groups' } as const;

export class Combat extends Document {
  static override baseTypeAlways = true;
  static override metadata = {
    ...Document.metadata,
    name: 'Combat',
    collection: 'combats',
    embedded: COMBAT_EMBEDDED,
    hasTypeData: true,
    permissions: {
      create: 'ASSISTANT',
      delete: 'ASSISTANT',
      // BaseCombat.#canUpdate (v13 common code); the server calls it on its own BaseCombat copy
      update: (user: any, doc: any, data: any) => {
        if (user.isGM) return true;
        if (Object.keys(data).some((k) => !TURN_ONLY.includes(k))) return false;
        if ('round' in data && !doc._canChangeRound(user)) return false;
        if ('turn' in data && !doc._canChangeTurn(user)) return false;
        if ('combatants' in data && !canModifyCombatants(doc, user, data.combatants)) return false;
        return true;
      },
    },
  };
  static override defineSchema() {
    return {
      _id: new DocumentIdField(),
      type: new DocumentTypeField(this, { initial: CONST.BASE_DOCUMENT_TYPE }),
      system: new TypeDataField(this),
      scene: new ForeignDocumentField('Scene'),
      active: new BooleanField(),
      round: new NumberField({ required: true, nullable: false, integer: true, min: 0, initial: 0 }),
      turn: new NumberField({ required: true, integer: true, min: 0, initial: null }),
      sort: new NumberField({ required: true, nullable: false, integer: true, initial: 0 }),
      flags: new ObjectField(),
      _stats: new DocumentStatsField(),
    };
  }
  static CONFIG_SETTING = 'combatTrackerConfig';

  declare turns: any[];
  declare current: HistoryData;
  declare previous: HistoryData | undefined;
  declare _groupMembers: Map<string, Set<any>>;

  constructor(data: any = {}, context: any = {}) {
    super(data, context);
    this.turns ||= [];
    this.current ||= this._getCurrentState();
  }

  get combatant(): any {
    return this.turn !== null ? (this.turns[this.turn] ?? undefined) : null;
  }
  get nextCombatant(): any {
    if (this.turn === this.turns.length - 1) return this.turns[0];
    return this.turns[(this.turn ?? -1) + 1];
  }
  get settings(): any {
    return settingsGet(Combat.CONFIG_SETTING);
  }
  get started(): boolean {
    return this.round > 0;
  }
  get isActive(): boolean {
    const scene = this.scene;
    if (!scene) return this.active;
    return scene.isView && this.active;
  }
  get isView(): boolean {
    return worldOf(this).get('Combat')?.viewed === this;
  }
  async activate(options: any = {}): Promise<any> {
    return this.update({ active: true }, options);
  }

  override prepareEmbeddedDocuments(): void {
    super.prepareEmbeddedDocuments();
    const members = new Map<string, Set<any>>();
    for (const g of this.groups) members.set(g.id, new Set());
    for (const c of this.combatants) if (c._source.group) members.get(c._source.group)?.add(c);
    Object.defineProperty(this, '_groupMembers', { value: members, writable: true, configurable: true, enumerable: false });
    // v13 (issue 25): a group whose initiative is a finite number overrides each member's initiative.
    for (const g of this.groups) {
      if (!Number.isFinite(g.initiative)) continue;
      for (const c of members.get(g.id) ?? []) c.initiative = g.initiative;
    }
  }
  override prepareDerivedData(): void {
    if (this.combatants.size && !this.turns?.length) this.setupTurns();
  }

  getCombatantsByToken(token: any): any[] {
    const id = typeof token === 'string' ? token : token?.id;
    return this.combatants.filter((c: any) => c.tokenId === id);
  }
  getCombatantsByActor(actor: any): any[] {
    if (actor?.isToken) return this.getCombatantsByToken(actor.token);
    const id = typeof actor === 'string' ? actor : actor?.id;
    return this.combatants.filter((c: any) => c.actorId === id);
  }

  /** Seconds between two (round, turn) positions, from CONFIG.time (v13 Combat#getTimeDelta). */
  getTimeDelta(fromRound: number, fromTurn: number | null, toRound: number, toTurn: number | null): number {
    const rounds = Math.max(toRound, 1) - Math.max(fromRound, 1);
    let turns = Math.max(rounds - 1, 0) * this.turns.length;
    if (fromRound < toRound) {
      turns += toTurn ?? 0;
      if (fromRound > 0) turns += fromTurn === null ? 0 : this.turns.length - fromTurn;
    } else if (fromRound > toRound) {
      turns -= fromTurn === null ? 0 : fromTurn + 1;
      if (fromRound > 0) turns -= toTurn === null ? 0 : this.turns.length - (toTurn + 1);
    } else turns += (toTurn ?? 0) - (fromTurn ?? 0);
    const time = configRef.CONFIG.time;
    return rounds * time.roundTime + turns * time.turnTime;
  }

  async startCombat(): Promise<this> {
    const updateData: CombatStartData = { round: 1, turn: 0 };
    hooks.callAll('combatStart', this, updateData);
    await this.update(updateData);
    return this;
  }

  async nextRound(): Promise<this> {
    let turn: number | null = this.turn === null || this.turns.length === 0 ? null : 0;
    if (this.settings.skipDefeated && turn !== null) {
      turn = this.turns.findIndex((t: any) => !t.isDefeated);
      if (turn === -1) {
        ui().notifications.warn('COMBAT.NoneRemaining', { localize: true });
        turn = 0;
      }
    }
    const round = this.round + 1;
    const updateData: RoundUpdateData = { round, turn };
    const updateOptions: TurnChangeOptions = { direction: 1, worldTime: { delta: this.getTimeDelta(this.round, this.turn, round, turn) } };
    hooks.callAll('combatRound', this, updateData, updateOptions);
    await this.update(updateData, updateOptions);
    return this;
  }

  async previousRound(): Promise<this> {
    if (this.round === 0) return this;
    const turn = this.round === 1 || this.turn === null || this.turns.length === 0 ? null : this.turns.length - 1;
    const round = this.round - 1;
    const updateData: RoundUpdateData = { round, turn };
    const updateOptions: TurnChangeOptions = { direction: -1, worldTime: { delta: this.getTimeDelta(this.round, this.turn, round, turn) } };
    hooks.callAll('combatRound', this, updateData, updateOptions);
    await this.update(updateData, updateOptions);
    return this;
  }

  async nextTurn(): Promise<this> {
    if (this.round === 0) return this.nextRound();
    const turn = this.turn ?? -1;
    let next: number | null = null;
    if (this.settings.skipDefeated) {
      for (let i = turn + 1; i < this.turns.length; i++) {
        if (!this.turns[i].isDefeated) {
          next = i;
          break;
        }
      }
    } else next = turn + 1;
    if (next === null || next >= this.turns.length) return this.nextRound();
    const updateData: TurnUpdateData = { round: this.round, turn: next };
    const updateOptions: TurnChangeOptions = { direction: 1, worldTime: { delta: this.getTimeDelta(this.round, this.turn, this.round, next) } };
    hooks.callAll('combatTurn', this, updateData, updateOptions);
    await this.update(updateData, updateOptions);
    return this;
  }

  async previousTurn(): Promise<this> {
    if (this.round === 0) return this;
    if (this.turn === 0 || this.turns.length === 0) return this.previousRound();
    const previous = (this.turn ?? this.turns.length) - 1;
    const updateData: TurnUpdateData = { round: this.round, turn: previous };
    const updateOptions: TurnChangeOptions = { direction: -1, worldTime: { delta: this.getTimeDelta(this.round, this.turn, this.round, previous) } };
    hooks.callAll('combatTurn', this, updateData, updateOptions);
    await this.update(updateData, updateOptions);
    return this;
  }

  /** Core asks for confirmation in a dialog; the stand-in confirms. */
  async endCombat(): Promise<this> {
    await this.delete();
    return this;
  }

  async resetAll({ updateTurn = true } = {}): Promise<void> {
    // Core sends one Combat update carrying all combatants; the stand-in sends one Combatant update.
    const currentId = this.combatant?.id;
    const updates = this.combatants.map((c: any) => ({ _id: c.id, initiative: null }));
    const options: CombatantTurnOptions = { turnEvents: false };
    if (updateTurn && currentId) {
      const ids = this.combatants.map((c: any) => c.id).sort();
      options.combatTurn = ids.indexOf(currentId);
    }
    await this.updateEmbeddedDocuments('Combatant', updates, options);
  }

  async rollInitiative(ids: string | string[], { formula = null, updateTurn = true, messageOptions = {} as any } = {}): Promise<this> {
    ids = typeof ids === 'string' ? [ids] : ids;
    const v14 = state.generation >= 14;
    const modeKey = v14 ? 'messageMode' : 'rollMode';
    const chatMode = settingsGet(modeKey);
    const updates: any[] = [];
    const messages: any[] = [];
    for (const [i, id] of ids.entries()) {
      const combatant = this.combatants.get(id);
      if (!combatant?.isOwner) continue;
      const roll = combatant.getInitiativeRoll(formula);
      await roll.evaluate();
      updates.push({ _id: id, initiative: roll.total });
      const mode = modeKey in messageOptions ? messageOptions[modeKey] : combatant.hidden ? (v14 ? 'gm' : CONST.DICE_ROLL_MODES.PRIVATE) : chatMode;
      const ChatMessage = getDocumentClass('ChatMessage');
      const messageData = mergeObject(
        {
          speaker: ChatMessage.getSpeaker({ actor: combatant.actor, token: combatant.token, alias: combatant.name }),
          flavor: (globalThis as any).game.i18n.format('COMBAT.RollsInitiative', { name: combatant.name }),
          flags: { 'core.initiativeRoll': true },
        },
        messageOptions,
      );
      const messageOptions_: ToMessageOptionsV13 & ToMessageOptionsV14 = { [modeKey]: mode, create: false };
      const chatData = await roll.toMessage(messageData, messageOptions_);
      if (i > 0) chatData.sound = null;
      messages.push(chatData);
    }
    if (!updates.length) return this;
    const updateOptions: CombatantTurnOptions = { turnEvents: false };
    if (!updateTurn) updateOptions.combatTurn = this.turn;
    await this.updateEmbeddedDocuments('Combatant', updates, updateOptions);
    await getDocumentClass('ChatMessage').create(messages);
    return this;
  }
  async rollAll(options: any = {}): Promise<this> {
    const ids = this.combatants.filter((c: any) => c.isOwner && c.initiative === null).map((c: any) => c.id);
    return this.rollInitiative(ids, options);
  }
  async rollNPC(options: any = {}): Promise<this> {
    const ids = this.combatants.filter((c: any) => c.isOwner && c.isNPC && c.initiative === null).map((c: any) => c.id);
    return this.rollInitiative(ids, options);
  }
  async setInitiative(id: string, value: number): Promise<void> {
    await this.combatants.get(id, { strict: true }).update({ initiative: value });
  }

  /** Combatants sorted by initiative (descending, ties by id); clamps an out-of-range turn. */
  setupTurns(): any[] {
    this.turns ||= [];
    const turns = this.combatants.contents.sort(this._sortCombatants);
    if (this.turn !== null) {
      if (this.turn < 0) this.turn = 0;
      else if (this.turn >= turns.length) {
        this.turn = 0;
        this.round++;
      }
    }
    this.current = this._getCurrentState(turns[this.turn as number]);
    if (!this.previous) this.previous = this.current;
    return (this.turns = turns);
  }
  _sortCombatants(a: any, b: any): number {
    const ia = Number.isFinite(a.initiative) ? a.initiative : -Infinity;
    const ib = Number.isFinite(b.initiative) ? b.initiative : -Infinity;
    return ib - ia || (a.id > b.id ? 1 : -1);
  }
  _getCurrentState(combatant?: any): HistoryData {
    combatant ||= this.combatant;
    return { round: this.round, turn: this.turn ?? null, combatantId: combatant?.id || null, tokenId: combatant?.tokenId || null };
  }
  /** BaseCombat (v13 common code): true. The server calls the base class's, never a subclass override. */
  _canChangeRound(_user: any): boolean {
    return true;
  }
  /** BaseCombat (v13 common code): true. The server calls the base class's, never a subclass override. */
  _canChangeTurn(_user: any): boolean {
    return true;
  }
  updateCombatantActors(): void {
    for (const c of this.combatants) c.actor?.render(false, { renderContext: 'updateCombat' });
  }

  /* ------------------------------------------------------- events */

  override _onCreate(data: any, options: any, userId: string): void {
    super._onCreate(data, options, userId);
    const tracker = ui().combat;
    if (!tracker.viewed) tracker.viewed = this;
    if (onActiveGMClient()) for (const c of this.combatants) trackPending(this._onEnter(c));
    trackPending(this._manageTurnEvents());
  }

  override _onUpdate(changed: any, options: CombatUpdateOptions, userId: string): void {
    super._onUpdate(changed, options, userId);
    const prior = deepClone(this.current);
    if (!this.previous) this.previous = prior;
    if ('combatants' in changed) this.setupTurns();
    else this.current = this._getCurrentState();
    const stateChanged = this.#recordPreviousState(prior);
    if (stateChanged && options.turnEvents !== false) trackPending(this._manageTurnEvents());
    this.updateCombatantActors();
    if (changed.active === true && this.isActive) renderTracker({ combat: this });
    else if ('scene' in changed) renderTracker({ combat: null });
  }

  override _onDelete(options: any, userId: string): void {
    super._onDelete(options, userId);
    const tracker = ui().combat;
    if (tracker.viewed === this) {
      tracker.viewed = null;
      renderTracker({ combat: null });
    }
    if (onActiveGMClient()) for (const c of this.combatants) trackPending(this.#exit(c));
  }

  override _onCreateDescendantDocuments(parent: any, collection: string, documents: any[], data: any, options: any, userId: string): void {
    super._onCreateDescendantDocuments(parent, collection, documents, data, options, userId);
    if (collection !== 'combatants') return;
    if (onActiveGMClient()) for (const c of documents) trackPending(this._onEnter(c));
    this.#onModifyCombatants(parent, options);
  }
  override _onUpdateDescendantDocuments(parent: any, collection: string, documents: any[], changes: any, options: any, userId: string): void {
    super._onUpdateDescendantDocuments(parent, collection, documents, changes, options, userId);
    if (collection === 'combatants') this.#onModifyCombatants(parent, options);
    // A group's initiative is its members' (prepared above): core's order follows it. Whether core sorts again on a
    // group change is unconfirmed; the stand-in does, the stricter choice for a system that keeps its own order.
    else if (collection === 'groups') this.#onModifyCombatants(parent, options);
  }
  override _onDeleteDescendantDocuments(parent: any, collection: string, documents: any[], ids: any, options: any, userId: string): void {
    super._onDeleteDescendantDocuments(parent, collection, documents, ids, options, userId);
    if (collection !== 'combatants') return;
    if (onActiveGMClient()) for (const c of documents) trackPending(this.#exit(c));
    this.#onModifyCombatants(parent, options);
  }

  #onModifyCombatants(parent: any, options: CombatantTurnOptions & RenderOption): void {
    const { combatTurn, turnEvents, render } = options;
    const prior = deepClone(this.current);
    if (typeof combatTurn === 'number') this.updateSource({ turn: combatTurn });
    this.setupTurns();
    if (this.#recordPreviousState(prior) && turnEvents !== false) trackPending(this._manageTurnEvents());
    if (ui().combat.viewed === parent && render !== false) renderTracker();
  }

  #recordPreviousState(prior: HistoryData): boolean {
    const { round, turn, combatantId } = this.current;
    const changed = combatantId !== prior.combatantId || round !== prior.round || turn !== prior.turn;
    this.previous = Object.assign(this.previous ?? {}, prior);
    return changed;
  }

  async _onEnter(_combatant: any): Promise<void> {}
  async _onExit(_combatant: any): Promise<void> {}

  /** _onExit, then (a combatant with a token) _clearMovementHistoryOnExit, as core. */
  async #exit(combatant: any): Promise<void> {
    await this._onExit(combatant);
    if (combatant.token) await this._clearMovementHistoryOnExit(combatant);
  }
  /** _onStartTurn, then (a combatant with a token) _clearMovementHistoryOnStartTurn, as core. */
  async #startTurn(combatant: any, context: TurnEventContext): Promise<void> {
    await this._onStartTurn(combatant, context);
    if (combatant.token) await this._clearMovementHistoryOnStartTurn(combatant, context);
  }
  /** Core's default: the token's movement history is cleared when the combatant leaves the combat. */
  async _clearMovementHistoryOnExit(combatant: any): Promise<void> {
    await combatant.token?.clearMovementHistory();
  }
  /** Core's default: the token's movement history is cleared when the combatant's turn starts. */
  async _clearMovementHistoryOnStartTurn(combatant: any, _context: TurnEventContext): Promise<void> {
    await combatant.token?.clearMovementHistory();
  }
  /** Core's: clear the movement history of the given combatants' tokens (all by default). */
  async clearMovementHistories(combatants: Iterable<any> = this.combatants): Promise<void> {
    await Promise.all(Array.from(combatants, (c: any) => c.token?.clearMovementHistory()));
  }

  /** End turn, end round, start round, start turn, for each position passed over; then the combatTurnChange hook. */
  async _manageTurnEvents(): Promise<void> {
    if (!this.started) return;
    if (onActiveGMClient()) await this.#triggerTurnEvents();
    hooks.callAll('combatTurnChange', this, this.previous, this.current);
  }

  async #triggerTurnEvents(): Promise<void> {
    // core's arithmetic, null turns included (null + 1 is 1)
    const { turns } = this;
    const current: any = this.current;
    const previous: any = this.previous;
    const intervals: [number, number][] = [];
    let roundDelta = current.round - previous.round;
    if (roundDelta === 0) {
      if (current.round > 0 && previous.turn < current.turn) intervals.push([previous.turn + 1, current.turn]);
    } else if (roundDelta > 0) {
      if (previous.round > 0) intervals.push([previous.turn + 1, turns.length - 1]);
      while (--roundDelta) intervals.push([0, turns.length - 1]);
      intervals.push([0, current.turn ?? 0]);
    }
    if (intervals.length) {
      let prior: any = { combatant: this.combatants.get(previous.combatantId) ?? null, round: previous.round, turn: previous.turn, skipped: false };
      for (const [from, to] of intervals) {
        for (let turn = from; turn <= to; turn++) {
          const round = prior.round + (turn === 0 ? 1 : 0);
          const next = { combatant: turns[turn], round, turn, skipped: round !== current.round || turn !== current.turn };
          if (prior.combatant) await this._onEndTurn(prior.combatant, { round: prior.round, turn: prior.turn, skipped: prior.skipped });
          if (prior.round !== next.round) {
            await this._onEndRound({ round: prior.round, skipped: prior.round !== previous.round });
            await this._onStartRound({ round: next.round, skipped: next.round !== current.round });
          }
          if (next.combatant) await this.#startTurn(next.combatant, { round: next.round, turn: next.turn, skipped: next.skipped });
          prior = next;
        }
      }
    } else if (current.combatantId !== previous.combatantId && current.round === previous.round && current.turn === previous.turn) {
      const prior = this.combatants.get(previous.combatantId);
      if (prior) await this._onEndTurn(prior, { round: current.round, turn: current.turn, skipped: false });
      if (this.combatant) await this.#startTurn(this.combatant, { round: current.round, turn: current.turn, skipped: false });
    }
  }

  async _onEndTurn(_combatant: any, _context: TurnEventContext): Promise<void> {}
  async _onEndRound(_context: RoundEventContext): Promise<void> {}
  async _onStartRound(_context: RoundEventContext): Promise<void> {}
  async _onStartTurn(_combatant: any, _context: TurnEventContext): Promise<void> {}
}

/* ---------------------------------------------------------- Combatant */

/** A sibling reference (Combatant#group): the id, initialized to a getter for the parent's CombatantGroup. */
/** Combatant#group (v13, issue 25): the CombatantGroup, or the raw id string when the combat has no such group. */
class GroupField extends ForeignDocumentField {
  override initialize(value: any, model?: any): any {
    if (value == null) return null;
    return () => model?.parent?.groups?.get(value) ?? value;
  }
}

/** Combatant schemas by class, per generation (v14 adds roundJoined). */
const combatantSchemas = new WeakMap<object, Map<number, SchemaField>>();

export class Combatant extends Document {
  static override baseTypeAlways = true;
  static override metadata = {
    ...Document.metadata,
    name: 'Combatant',
    collection: 'combatants',
    isEmbedded: true,
    hasTypeData: true,
    // BaseCombatant (v13 common code, schemaVersion 13.341): create and delete by the user's level over the combatant
    // (its actor's), with any field (group, initiative, hidden: the server judges none of them at creation).
    permissions: {
      create: 'OWNER',
      delete: 'OWNER',
      // BaseCombatant.#canUpdate (v13 common code, schemaVersion 13.341): an owner may change these keys only
      update: (user: any, doc: any, data: any) => {
        if (user.isGM) return true;
        if (!doc.testUserPermission(user, 'OWNER')) return false;
        const allowed = ['_id', 'initiative', 'flags', 'defeated', 'system'];
        return Object.keys(data).every((k) => allowed.includes(k));
      },
    },
  };
  static override defineSchema() {
    return {
      _id: new DocumentIdField(),
      type: new DocumentTypeField(this, { initial: CONST.BASE_DOCUMENT_TYPE }),
      system: new TypeDataField(this),
      actorId: new ForeignDocumentField('Actor', { idOnly: true }),
      tokenId: new ForeignDocumentField('Token', { idOnly: true }),
      // v13 (typings 13.345.1, BaseCombat#_preUpdate reads it); v14's CombatantData (API page) has no sceneId: a value sent is dropped.
      ...(state.generation >= 14 ? {} : { sceneId: new ForeignDocumentField('Scene', { idOnly: true }) }),
      name: new StringField({ blank: true }),
      img: new FilePathField(),
      initiative: new NumberField(),
      hidden: new BooleanField(),
      defeated: new BooleanField(),
      group: new GroupField('CombatantGroup'),
      flags: new ObjectField(),
      // v14 CombatantData.roundJoined (v14 API documentation); v13 has no such field, so v13 drops it as any unknown key.
      ...(state.generation >= 14 ? { roundJoined: new NumberField({ required: true, nullable: false, integer: true, min: 1, initial: 1 }) } : {}),
      _stats: new DocumentStatsField(),
    };
  }
  /** The schema of the running generation (classes are shared by every install: one schema per class and generation). */
  static override get schema(): SchemaField {
    const generation = state.generation >= 14 ? 14 : 13;
    let byGeneration = combatantSchemas.get(this);
    if (!byGeneration) combatantSchemas.set(this, (byGeneration = new Map()));
    let schema = byGeneration.get(generation);
    if (!schema) byGeneration.set(generation, (schema = new SchemaField(this.defineSchema())));
    return schema;
  }
  /**
   * v14: "The round this Combatant joined Combat (i.e., was created). A Combatant created before the Combat starts is
   * considered to have joined in round 1." Set at creation by the initiating client, from the combat's round as it sees
   * it; the server keeps what the client sent (unconfirmed whether core's server sets it again: the stricter choice).
   */
  override async _preCreate(data: any, options: any, user: any): Promise<boolean | void> {
    if (state.generation >= 14) this.updateSource({ roundJoined: Math.max(1, this.parent?.round ?? 0) });
    return super._preCreate(data, options, user);
  }
  get combat(): any {
    return this.parent;
  }
  get token(): any {
    // v13: its own scene when it names one; else (v14 always) the combat's.
    const sceneId = state.generation >= 14 ? undefined : this.sceneId;
    const scene = sceneId ? worldOf(this).get('Scene')?.get(sceneId) : this.parent?.scene;
    return scene?.tokens.get(this.tokenId) ?? null;
  }
  get actor(): any {
    if (this.token) return this.token.actor;
    return worldOf(this).get('Actor')?.get(this.actorId) ?? null;
  }
  get isDefeated(): boolean {
    const dead = configRef.CONFIG.specialStatusEffects?.DEFEATED;
    return this.defeated || !!this.actor?.statuses?.has(dead);
  }
  get isNPC(): boolean {
    return !this.actor || !this.hasPlayerOwner;
  }
  override get hasPlayerOwner(): boolean {
    return !!this.actor?.hasPlayerOwner;
  }
  get players(): any[] {
    return worldOf(this).get('User')!.filter((u: any) => !u.isGM && this.testUserPermission(u, 'OWNER'));
  }
  override get visible(): boolean {
    return this.isOwner || !this.hidden;
  }
  override prepareDerivedData(): void {
    this.img ||= this.actor?.img || null;
    this.name ||= this.token?.name || this.actor?.name || 'Unknown Combatant';
  }
  override getUserLevel(user: any = state.user): number {
    if (user?.isGM) return LEVELS.OWNER;
    return this.actor?.getUserLevel(user) ?? LEVELS.NONE;
  }
  _getInitiativeFormula(): string {
    return String(configRef.CONFIG.Combat.initiative.formula || (globalThis as any).game.system.initiative);
  }
  getInitiativeRoll(formula?: string | null): any {
    const Roll = configRef.CONFIG.Dice.rolls[0];
    return Roll.create(formula || this._getInitiativeFormula(), this.actor?.getRollData() ?? {});
  }
  async rollInitiative(formula?: string): Promise<any> {
    await this.parent.rollInitiative(this.id, { formula });
    return this;
  }
  override getRollData(): any {
    return this.actor?.getRollData() ?? {};
  }
}

export class CombatantGroup extends Document implements CombatantGroupApi {
  static override baseTypeAlways = true;
  static override metadata = {
    ...Document.metadata,
    name: 'CombatantGroup',
    collection: 'groups',
    isEmbedded: true,
    hasTypeData: true,
    // BaseCombatantGroup (v13 common code, schemaVersion 13.341) declares no permissions: core's defaults, create and
    // delete by role (ASSISTANT: an owner of the group who is a player may not), update by ownership level.
    permissions: { create: 'ASSISTANT', update: 'OWNER', delete: 'ASSISTANT' },
  };
  static override defineSchema() {
    return {
      _id: new DocumentIdField(),
      type: new DocumentTypeField(this, { initial: CONST.BASE_DOCUMENT_TYPE }),
      system: new TypeDataField(this),
      name: new StringField({ blank: true }),
      img: new FilePathField(),
      initiative: new NumberField(),
      ownership: new DocumentOwnershipField(),
      flags: new ObjectField(),
      _stats: new DocumentStatsField(),
    };
  }
  /** Combatants whose `group` is this group. */
  get members(): Set<any> {
    return this.parent?._groupMembers?.get(this.id) ?? new Set();
  }
  /** Every member is defeated, or the group has none (core sets it in prepareBaseData; a getter here, as members are known only once the combat has prepared its combatants). */
  get defeated(): boolean {
    return [...this.members].every((c: any) => c.isDefeated);
  }
  /** Every member is hidden, or the group has none. */
  get hidden(): boolean {
    return [...this.members].every((c: any) => c.hidden);
  }
  override getUserLevel(user: any = state.user): number {
    if (user?.isGM) return LEVELS.OWNER;
    const o = this._source.ownership ?? {};
    return o[user?.id] ?? o.default ?? LEVELS.NONE;
  }
}

export class CombatEncounters extends WorldCollection {
  constructor() {
    super('Combat');
  }
  static get settings(): any {
    return settingsGet(Combat.CONFIG_SETTING);
  }
  /** Encounters of the viewed scene or not linked to one. */
  get combats(): any[] {
    const scene = ownerOf(this).collections.get('Scene')?.viewed;
    return this.filter((c: any) => c._source.scene === null || c._source.scene === scene?.id);
  }
  get active(): any {
    return this.combats.find((c: any) => c.active) ?? null;
  }
  get viewed(): any {
    return ownerOf(this).ui?.combat?.viewed ?? this.active ?? null;
  }
}

/** A client's or the server's world collections, empty, around its users. */
export function emptyCollections(users: any): Record<string, any> {
  return {
    User: users,
    Actor: new WorldCollection('Actor'),
    Item: new WorldCollection('Item'),
    Scene: new Scenes(),
    Combat: new CombatEncounters(),
    ChatMessage: new WorldCollection('ChatMessage'),
  };
}
