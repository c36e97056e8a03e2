/**
 * Token movement as core v13/v14 does it (issue 13; README "Token movement"), after core's
 * client/documents/token.mjs (TokenDocument#_preUpdate → #preUpdateMovement, _onUpdate → #onUpdateMovement,
 * _onUpdateOperation → #onUpdateOperationMovement, move, revertRecordedMovement, clearMovementHistory,
 * measureMovementPath, getCompleteMovementPath, _shouldRecordMovementHistory):
 *
 * - Initiating client, in `TokenDocument#_preUpdate` (so before `preUpdateToken`): an update touching x, y,
 *   elevation, width or height (or `options.movement[id].waypoints`, which `move` sends with no changes) is a
 *   movement. The waypoints are cleaned and validated, the movement (TokenMovementOperation) is built and
 *   measured by the scene's grid, `_preUpdateMovement(movement, options)` then `preMoveToken(document,
 *   movement, options)` (skipped with `noHook`) may reject it: `false` drops the movement fields (x, y,
 *   elevation, width, height) from the change, the rest of the update still goes. Only `autoRotate` and
 *   `showRuler` of the movement are writable in the hook. Otherwise the change is set to the destination,
 *   `options._movement[id]` carries the movement, `options.diff` becomes false, a recorded movement writes
 *   `_movementHistory`. `movement`/`_movementArguments`/`teleport`/`forced` are removed before sending.
 * - Every client: `_onUpdate` sets `TokenDocument#movement` (TokenMovementData: + user, state,
 *   updateOptions) and calls `recordToken` when `_movementHistory` changed; `_onUpdateOperation` (after every
 *   `updateToken`) calls `_onUpdateMovement` and `moveToken(document, movement, operation, user)`.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { Document, TokenDocument, tokenMovement } from './documents';
import { hooks } from './hooks';
import { deprecate, state } from './state';
import { deepClone, randomID } from './utils';

const MOVEMENT_FIELDS = ['x', 'y', 'elevation', 'width', 'height'] as const;
const WAYPOINT_KEYS = new Set([...MOVEMENT_FIELDS, 'action', 'snapped', 'explicit', 'checkpoint']);
const METHODS = ['api', 'config', 'dragging', 'keyboard', 'paste', 'undo'];
/** Core's CONFIG.Token.movement.actions (v13/v14 defaults): blink and displace teleport. */
const DEFAULT_ACTIONS: Record<string, { teleport?: boolean }> = {
  walk: {},
  fly: {},
  swim: {},
  burrow: {},
  climb: {},
  crawl: {},
  jump: {},
  blink: { teleport: true },
  displace: { teleport: true },
};
const actions = (): Record<string, { teleport?: boolean }> => (globalThis as any).CONFIG?.Token?.movement?.actions ?? DEFAULT_ACTIONS;
const game = () => (globalThis as any).game;

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o) && !(o as any).documentName) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

const positionOf = (w: any) => ({ x: w.x, y: w.y, elevation: w.elevation, width: w.width, height: w.height });
const samePosition = (a: any, b: any) => MOVEMENT_FIELDS.every((k) => a[k] === b[k]);
const isMovementUpdate = (changes: any) => MOVEMENT_FIELDS.some((k) => k in changes);

/** Core's #cleanAndValiateMovementWaypoints: defaults from the previous waypoint (the source first), checked, other keys dropped. */
function cleanWaypoints(doc: any, waypoints: any[]): any[] {
  let previous: any = { ...positionOf(doc._source), action: doc.movementAction };
  return waypoints.map((given) => {
    const w = { ...given };
    for (const k of ['x', 'y', 'elevation', 'width', 'height'] as const) {
      if (w[k] === undefined) w[k] = previous[k];
      else if (typeof w[k] !== 'number') throw new Error(`${k} must be a number`);
      else if (!Number.isFinite(w[k])) throw new Error(`${k} must be finite`);
      else if ((k === 'width' || k === 'height') && !(w[k] > 0)) throw new Error(`${k} must be positive`);
      else if (k === 'x' || k === 'y') w[k] = Math.round(w[k]);
    }
    if (w.action === undefined) w.action = previous.action;
    else if (typeof w.action !== 'string') throw new Error('action must be a string');
    else if (!(w.action in actions())) throw new Error('action is invalid');
    for (const k of ['snapped', 'explicit', 'checkpoint']) {
      if (w[k] === undefined) w[k] = false;
      else if (typeof w[k] !== 'boolean') throw new Error(`${k} must be a boolean`);
    }
    for (const k of Object.keys(w)) if (!WAYPOINT_KEYS.has(k)) delete w[k];
    previous = w;
    return w;
  });
}

/** The token's grid offset (top-left space) and back (square grids). */
function toOffset(doc: any, p: any): { i: number; j: number } {
  const size = doc.parent?.grid?.size ?? 100;
  return { i: Math.round(p.y / size), j: Math.round(p.x / size) };
}
function toPosition(doc: any, o: { i: number; j: number }): { x: number; y: number } {
  const size = doc.parent?.grid?.size ?? 100;
  return { x: o.j * size, y: o.i * size };
}

/** Cumulative distance/spaces/diagonals at the last waypoint of each section of a measured path. */
function sectionDistances(doc: any, sections: any[][]): { distance: number; spaces: number; diagonals: number }[] {
  const path = sections.flat();
  const measured = doc.measureMovementPath(path).waypoints;
  const out: { distance: number; spaces: number; diagonals: number }[] = [];
  let at = -1;
  let before = { distance: 0, spaces: 0, diagonals: 0 };
  for (const s of sections) {
    at += s.length;
    const m = at >= 0 ? measured[at] : { distance: 0, spaces: 0, diagonals: 0 };
    const cur = { distance: m?.distance ?? 0, spaces: m?.spaces ?? 0, diagonals: m?.diagonals ?? 0 };
    out.push({ distance: cur.distance - before.distance, spaces: cur.spaces - before.spaces, diagonals: cur.diagonals - before.diagonals });
    before = cur;
  }
  return out;
}

/** Core's #preUpdateMovement, on the initiating client. */
async function preUpdateMovement(doc: any, changed: any, options: any): Promise<void> {
  if (!options.isUndo) delete changed._movementHistory;
  if (options._clearMovementHistory) changed._movementHistory = [];

  let { waypoints, method, constrainOptions, autoRotate, showRuler } = options.movement?.[doc.id] ?? {};
  if (waypoints && waypoints.length === 0) waypoints = undefined;
  if (!waypoints && isMovementUpdate(changed)) {
    const src = doc._source;
    if ('teleport' in options) deprecate('DatabaseUpdateOperation#teleport has been deprecated. Use DatabaseUpdateOperation#waypoints or TokenDocument#movement instead.');
    if ('forced' in options) deprecate('DatabaseUpdateOperation#forced has been deprecated. Use DatabaseUpdateOperation#waypoints or TokenDocument#movement instead.');
    const action = options.teleport === true || options.isPaste === true ? 'displace' : undefined;
    waypoints = [{ ...Object.fromEntries(MOVEMENT_FIELDS.map((k) => [k, changed[k] ?? src[k]])), action, snapped: false, explicit: false, checkpoint: true }];
  }
  if (!waypoints) {
    for (const k of MOVEMENT_FIELDS) delete changed[k];
    return;
  }
  method ??= options.isPaste ? 'paste' : options.isUndo ? 'undo' : 'api';
  if (!METHODS.includes(method) || (method === 'paste') !== !!options.isPaste || (method === 'undo') !== !!options.isUndo) throw new Error('Invalid movement method');
  constrainOptions = deepClone(constrainOptions) ?? {};
  if (autoRotate !== undefined) autoRotate = !!autoRotate;
  if (showRuler !== undefined) showRuler = !!showRuler;
  const autoRotateSetting = () => {
    try {
      return !!game().settings.get('core', 'tokenAutoRotate');
    } catch {
      return false;
    }
  };
  if (method === 'paste' || method === 'undo') autoRotate = showRuler = false;
  else if (method === 'keyboard') {
    autoRotate ??= autoRotateSetting();
    showRuler ??= false;
  } else if (method === 'dragging') {
    autoRotate ??= autoRotateSetting();
    showRuler ??= true;
  } else {
    autoRotate ??= false;
    showRuler ??= false;
  }
  options._movement ??= {};

  waypoints = cleanWaypoints(doc, Array.isArray(waypoints) ? waypoints : [waypoints]);
  const origin = Object.freeze(positionOf(doc._source));
  const movementId = randomID();
  const userId = game().user.id;
  const recorded = !options.isUndo && doc._shouldRecordMovementHistory();
  const recordedHistory = deepClone(doc._source._movementHistory ?? []).map((w: any) => ({ ...w, cost: w.cost ?? Infinity }));
  const combined: any[] = [...recordedHistory];
  const previous = combined.at(-1);
  if (!previous || !samePosition(previous, origin)) {
    combined.push({ ...origin, action: previous ? 'displace' : waypoints[0].action, terrain: null, snapped: false, explicit: false, checkpoint: true, intermediate: false, userId, movementId, cost: 0 });
  }
  const unrecordedHistory = combined.slice(recordedHistory.length);

  // No Regions in the stand-in: the path splits only at explicit checkpoints, which core continues in later updates.
  if (!options.isPaste && !options.isUndo && waypoints.slice(0, -1).some((w: any) => w.checkpoint)) {
    throw new Error('The stand-in does not model movement continued across checkpoints (a waypoint other than the last with checkpoint: true)');
  }
  let passed: any[] = waypoints;
  const destination = passed.at(-1);
  destination.checkpoint = true;
  for (const k of MOVEMENT_FIELDS) changed[k] = destination[k];

  const nonintermediate = (ws: any[]) => ws.filter((w) => !w.intermediate);
  const [rec, unrec, pas] = sectionDistances(doc, [nonintermediate(recordedHistory), nonintermediate(unrecordedHistory), passed]);

  passed = doc.getCompleteMovementPath([origin, ...passed]).slice(1);
  for (const w of passed) Object.assign(w, { userId, movementId });
  combined.push(...passed);

  // Costs: measured by the rendered token (the initiating client views the token's scene), else 0 (core).
  let passedCost = 0;
  if (doc.rendered) {
    const measurement = doc.measureMovementPath(combined);
    for (let i = combined.length - passed.length; i < combined.length; i++) passedCost += combined[i].cost = measurement.waypoints[i].backward.cost;
  } else for (const w of passed) w.cost = 0;
  const sum = (ws: any[]) => ws.reduce((t, w) => t + w.cost, 0);
  const recordedCost = sum(recordedHistory);
  const unrecordedCost = sum(unrecordedHistory);

  const move: any = {
    id: movementId,
    chain: [],
    origin,
    destination: positionOf(destination),
    passed: { waypoints: passed, distance: pas.distance, cost: passedCost, spaces: pas.spaces, diagonals: pas.diagonals },
    pending: { waypoints: [], distance: 0, cost: 0, spaces: 0, diagonals: 0 },
    history: {
      recorded: { waypoints: recordedHistory, distance: rec.distance, cost: recordedCost, spaces: rec.spaces, diagonals: rec.diagonals },
      unrecorded: { waypoints: unrecordedHistory, distance: unrec.distance, cost: unrecordedCost, spaces: unrec.spaces, diagonals: unrec.diagonals },
      distance: rec.distance + unrec.distance,
      cost: recordedCost + unrecordedCost,
      spaces: rec.spaces + unrec.spaces,
      diagonals: rec.diagonals + unrec.diagonals,
    },
    constrained: false,
    recorded,
    method,
    constrainOptions,
    autoRotate,
    showRuler,
  };
  if (state.generation >= 14) {
    // v14's TokenMovementOperation: the subpath (no continuation here: one subpath) and split.
    Object.assign(move, { subpathId: movementId, split: false, measureOptions: {}, terrainOptions: {} });
    for (const w of passed) w.subpathId = movementId;
  }
  Object.seal(move);
  // Core redefines every other property with its deep-frozen value (docs: not writable); the stand-in also makes it read-only.
  for (const [key, value] of Object.entries(move)) {
    if (key === 'autoRotate' || key === 'showRuler') continue;
    Object.defineProperty(move, key, { value: deepFreeze(value), writable: false });
  }
  let allowed = (await doc._preUpdateMovement(move, options)) ?? true;
  allowed &&= options.noHook || hooks.call('preMoveToken', doc, move, options);
  if (allowed === false) {
    for (const k of MOVEMENT_FIELDS) delete changed[k];
    return;
  }
  for (const key of ['autoRotate', 'showRuler']) Object.defineProperty(move, key, { value: deepFreeze(move[key]), writable: false });
  if (recorded) changed._movementHistory = combined.map((w) => ({ ...w, cost: w.cost === Infinity ? null : w.cost }));
  Object.defineProperty(options._movement, doc.id, { value: move, enumerable: true });
  options.diff = false;
  if (options._movementArguments) options._movementArguments.result = true;
}

/** Core's #onUpdateMovement (every client, in _onUpdate). */
function onUpdateMovement(doc: any, changed: any, options: any, userId: string): void {
  const movement = options._movement?.[doc.id];
  if (movement) {
    const impute = (ws: any[]) => ws.forEach((w) => (w.cost ??= Infinity));
    impute(movement.passed.waypoints);
    impute(movement.pending.waypoints);
    impute(movement.history.recorded.waypoints);
    impute(movement.history.unrecorded.waypoints);
    for (const s of [movement.passed, movement.pending, movement.history.recorded, movement.history.unrecorded, movement.history]) s.cost ??= Infinity;
    deepFreeze(movement);
    const user = game().users.get(userId);
    const moveState = movement.constrained ? 'stopped' : movement.pending.waypoints.length > 0 ? 'pending' : 'completed';
    const { animate, animation, diff, noHook, pan, render, renderSheet, isPaste, isUndo } = options;
    const updateOptions = deepFreeze({ animate, animation, diff, noHook, pan, render, renderSheet, isPaste, isUndo });
    Object.defineProperty(doc, '_movementData', { value: Object.freeze({ ...movement, user, state: moveState, updateOptions }), writable: true, configurable: true });
  }
  if ('_movementHistory' in changed) {
    doc._onMovementRecorded();
    hooks.callAll('recordToken', doc);
  }
}

const baseOnUpdate = Document.prototype._onUpdate;
const basePreUpdate = Document.prototype._preUpdate;

const methods = {
  async _preUpdate(this: any, changed: any, options: any, user: any): Promise<boolean | void> {
    const allowed = await basePreUpdate.call(this, changed, options, user);
    if (allowed === false) return false;
    await preUpdateMovement(this, changed, options);
  },
  _onUpdate(this: any, changed: any, options: any, userId: string): void {
    onUpdateMovement(this, changed, options, userId);
    baseOnUpdate.call(this, changed, options, userId);
  },
  /** Core's: may reject the movement (false); the movement's waypoints are final. */
  async _preUpdateMovement(_movement: any, _operation: any): Promise<boolean | void> {},
  /** Core's: called on every client before the moveToken hook. */
  _onUpdateMovement(_movement: any, _operation: any, _user: any): void {},
  _onMovementRecorded(): void {},
  /** Core's TokenDocument#move: an update with the waypoints as `movement`; true if the token was moved. */
  async move(this: any, waypoints: any, { method, constrainOptions, autoRotate, showRuler, ...options }: any = {}): Promise<boolean> {
    if (!Array.isArray(waypoints)) waypoints = [waypoints];
    else if (waypoints.length === 0) return false;
    const args = { result: false };
    const updated = await this.update({}, { ...options, movement: { [this.id]: { waypoints, method, constrainOptions, autoRotate, showRuler } }, _movementArguments: args });
    return args.result && !!updated;
  },
  /**
   * Core's: undo all recorded movement, or the recorded movement with this ID and every later one: the token is
   * displaced to the position before it (method "undo", not recorded) and the history cut there.
   */
  async revertRecordedMovement(this: any, movementId?: string): Promise<boolean> {
    const history = this._source._movementHistory ?? [];
    if (history.length === 0) return false;
    movementId ??= history[0].movementId;
    const index = history.findIndex((w: any) => w.movementId === movementId);
    if (index < 0) return false;
    const { x, y, elevation, width, height } = history[Math.max(index - 1, 0)];
    const args = { result: false };
    const updated = await this.update({ x, y, elevation, width, height, _movementHistory: deepClone(history.slice(0, index)) }, { isUndo: true, diff: false, animate: false, _movementArguments: args });
    return args.result && !!updated;
  },
  async clearMovementHistory(this: any): Promise<void> {
    if ((this._source._movementHistory ?? []).length === 0) return;
    await this.update({}, { diff: false, noHook: true, _clearMovementHistory: true });
  },
  /** Core's: record while the token's combatant's combat has started. */
  _shouldRecordMovementHistory(this: any): boolean {
    const combatant = this.combatant;
    if (!combatant) return false;
    return !!combatant.parent?.started;
  },
  /** Core's TokenDocument#measureMovementPath on a square grid: between the token's grid offsets, teleporting actions cost nothing. */
  measureMovementPath(this: any, waypoints: any[], { cost }: any = {}): any {
    const grid = this.parent?.grid;
    let prev: any = { ...positionOf(this._source), action: this.movementAction };
    const path = waypoints.map((w: any) => {
      const full = { ...prev, ...Object.fromEntries(Object.entries(w).filter(([, v]) => v !== undefined)) };
      prev = full;
      const o: any = toOffset(this, full);
      if (actions()[full.action]?.teleport) o.teleport = true;
      if (typeof w.cost === 'number') o.cost = w.cost;
      return o;
    });
    return grid.measurePath(path, { cost });
  },
  /** Core's: the waypoints with the intermediate grid steps of each non-teleporting segment (intermediate: true, snapped). */
  getCompleteMovementPath(this: any, waypoints: any[]): any[] {
    const grid = this.parent?.grid;
    const path: any[] = [];
    let prev: any = { ...positionOf(this._source), action: this.movementAction };
    let from: any;
    waypoints.forEach((w: any, i: number) => {
      const cur = {
        ...prev,
        ...Object.fromEntries(Object.entries(w).filter(([k, v]) => v !== undefined && (MOVEMENT_FIELDS as readonly string[]).concat('action').includes(k))),
      };
      const x = Math.round(cur.x);
      const y = Math.round(cur.y);
      const { elevation, width, height, action } = cur;
      const to = toOffset(this, { x, y });
      if (i > 0 && !actions()[action]?.teleport) {
        const steps = grid.getDirectPath([from, to]);
        for (let s = 1; s < steps.length - 1; s++) {
          const p = toPosition(this, steps[s]);
          path.push({ x: p.x, y: p.y, elevation, width, height, action, terrain: null, snapped: true, explicit: false, checkpoint: false, intermediate: true });
        }
      }
      path.push({ x, y, elevation, width, height, action, terrain: null, snapped: w.snapped ?? false, explicit: w.explicit ?? false, checkpoint: w.checkpoint ?? false, intermediate: w.intermediate ?? false });
      from = to;
      prev = cur;
    });
    return path;
  },
};

let installed = false;

/** Install the movement workflow and API on the shared TokenDocument class (once; the generation is read at call time). */
export function installMovement(): void {
  if (installed) return;
  installed = true;
  Object.assign(TokenDocument.prototype, methods);
  const defineGetter = (name: string, get: (this: any) => any) => Object.defineProperty(TokenDocument.prototype, name, { configurable: true, get });
  defineGetter('movementHistory', function () {
    return this._source._movementHistory ?? [];
  });
  defineGetter('movement', function () {
    return this._movementData ?? null;
  });
  defineGetter('movementAction', function () {
    return (globalThis as any).CONFIG?.Token?.movement?.defaultAction ?? 'walk';
  });
  /** The token has a canvas object on this client: its scene is the one viewed. */
  defineGetter('rendered', function () {
    return !!this.parent && game().scenes?.viewed === this.parent;
  });
  // Core's TokenDocument._preCreateOperation: a new token starts with no movement history.
  const basePreCreateOperation = (TokenDocument as any)._preCreateOperation;
  (TokenDocument as any)._preCreateOperation = async function (documents: any[], operation: any, user: any): Promise<boolean | void> {
    const allowed = await basePreCreateOperation.call(this, documents, operation, user);
    if (allowed === false) return false;
    for (const doc of documents) doc.updateSource({ _movementHistory: [] });
  };
  const baseOnUpdateOperation = (TokenDocument as any)._onUpdateOperation;
  (TokenDocument as any)._onUpdateOperation = async function (documents: any[], operation: any, user: any): Promise<void> {
    await baseOnUpdateOperation.call(this, documents, operation, user);
    if (!operation._movement) return;
    for (const doc of documents) {
      const movement = operation._movement[doc.id];
      if (!movement) continue;
      doc._onUpdateMovement(movement, operation, user);
      hooks.callAll('moveToken', doc, movement, operation, user);
    }
  };
  tokenMovement.finalize = (options: any) => {
    delete options.movement;
    if (options._movement && Object.keys(options._movement).length === 0) delete options._movement;
    delete options._movementArguments;
    delete options.teleport;
    delete options.forced;
  };
}
