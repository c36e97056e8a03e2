/**
 * Token movement as core v13/v14 documents it (issue 13). See README "Token movement".
 *
 * - An update of a Token's x, y, elevation, width or height is a movement. On the initiating client, after the
 *   dry run, the movement is built (origin, the waypoints measured by the scene's grid, history, method …) and
 *   `preMoveToken(document, movement, operation)` is called; `false` drops that token's update. The movement
 *   travels in `operation.movement[tokenId]`; a recorded movement adds its waypoints to `_movementHistory` in the
 *   same update.
 * - Every client, after `updateToken` for the token, calls `moveToken(document, movement, operation, user)` with
 *   the TokenMovementOperation (no `user`, `state`, `updateOptions`: those are TokenMovementData's, read from
 *   `TokenDocument#movement`).
 * - `TokenDocument#move(waypoints, options)`, `#measureMovementPath(waypoints)`, `#movementHistory`,
 *   `#revertRecordedMovement(movementId?)`, `#clearMovementHistory()`, `#movement`, `#_shouldRecordMovementHistory()`
 *   (core's default: the token is in a combat).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { TokenDocument, tokenMovement } from './documents';
import { hooks } from './hooks';
import { state } from './state';
import { deepClone, randomID } from './utils';

type Section = { waypoints: any[]; distance: number; cost: number; spaces: number; diagonals: number };

const POSITION_KEYS = ['x', 'y', 'elevation', 'width', 'height'] as const;
const METHODS = ['api', 'config', 'dragging', 'keyboard', 'paste', 'undo'];
const v14 = () => state.generation >= 14;
const emptySection = (): Section => ({ waypoints: [], distance: 0, cost: 0, spaces: 0, diagonals: 0 });

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    for (const v of Object.values(o)) if (v && typeof v === 'object' && !(v as any).documentName) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

function positionOf(src: any): any {
  return { x: src.x, y: src.y, elevation: src.elevation, width: src.width, height: src.height };
}

/** Complete waypoints from the previous one (core: "Default: the previous or source …"). */
function completeWaypoints(doc: any, waypoints: any[], teleport = false): any[] {
  let prev = positionOf(doc._source);
  return waypoints.map((w) => {
    const full = {
      ...prev,
      ...Object.fromEntries(Object.entries(w).filter(([k, v]) => v !== undefined && POSITION_KEYS.includes(k as any))),
      action: w.action ?? prev.action ?? (teleport ? 'displace' : 'walk'),
      snapped: w.snapped ?? false,
      explicit: w.explicit ?? false,
      checkpoint: w.checkpoint ?? false,
    };
    prev = full;
    return full;
  });
}

/** Measure a path of token positions (top-left, size in spaces) by the scene's grid, between token centres. */
function measure(doc: any, positions: any[]): { total: Omit<Section, 'waypoints'>; steps: number[] } {
  const grid = doc.parent?.grid;
  const steps: number[] = [];
  const total = { distance: 0, cost: 0, spaces: 0, diagonals: 0 };
  if (!grid || positions.length < 2) return { total, steps: positions.map(() => 0) };
  const centres = positions.map((p) => doc.getCenterPoint(p));
  const whole = grid.measurePath(centres);
  Object.assign(total, { distance: whole.distance, cost: whole.cost, spaces: whole.spaces, diagonals: whole.diagonals });
  // Each waypoint's cost: the cost of the path so far minus the cost before it (the diagonal rule runs along the path).
  let before = 0;
  steps.push(0);
  for (let k = 1; k < centres.length; k++) {
    const upTo = grid.measurePath(centres.slice(0, k + 1)).cost;
    steps.push(upTo - before);
    before = upTo;
  }
  return { total, steps };
}

function measuredWaypoint(w: any, cost: number, movementId: string | null, userId: string, subpathId: string): any {
  const m: any = { ...w, cost, terrain: null, intermediate: false, userId, movementId };
  if (v14()) m.subpathId = subpathId;
  return m;
}

/** A section: the waypoints after `from` measured along [from, ...waypoints]. */
function section(doc: any, from: any, waypoints: any[]): Section {
  if (!waypoints.length) return emptySection();
  const { total, steps } = measure(doc, [from, ...waypoints]);
  return { waypoints: waypoints.map((w, k) => ({ ...w, cost: steps[k + 1] })), ...total };
}

/** The history section: recorded waypoints (their first is where the recording started). */
function historyOf(doc: any, recordedWaypoints: any[]): any {
  const recorded = recordedWaypoints.length ? { ...section(doc, recordedWaypoints[0], recordedWaypoints.slice(1)), waypoints: deepClone(recordedWaypoints) } : emptySection();
  const unrecorded = emptySection();
  return { recorded, unrecorded, distance: recorded.distance, cost: recorded.cost, spaces: recorded.spaces, diagonals: recorded.diagonals };
}

/** Initiating client: build the movement, call preMoveToken, put it in the operation. */
function prepare(doc: any, changes: any, diff: any, options: any, user: any): boolean {
  if (!POSITION_KEYS.some((k) => k in diff)) return true;
  const given = options.movement?.[doc.id] ?? {};
  const origin = positionOf(doc._source);
  const destination = { ...origin, ...Object.fromEntries(POSITION_KEYS.filter((k) => k in diff).map((k) => [k, diff[k]])) };
  const method = given.method ?? 'api';
  if (!METHODS.includes(method)) throw new Error(`Invalid movement method "${method}"`);
  let waypoints = completeWaypoints(doc, given.waypoints?.length ? given.waypoints : [destination], !!options.teleport);
  const last = waypoints[waypoints.length - 1];
  if (POSITION_KEYS.some((k) => last[k] !== destination[k])) waypoints.push(...completeWaypoints(doc, [{ ...last, ...destination }]));
  waypoints = waypoints.map((w, k) => ({ ...w, checkpoint: w.checkpoint || k === waypoints.length - 1 }));
  const id = randomID();
  const subpathId = randomID();
  const measured = section(doc, origin, waypoints);
  measured.waypoints = measured.waypoints.map((w) => measuredWaypoint(w, w.cost, id, user.id, subpathId));
  const priorHistory = deepClone(doc._source._movementHistory ?? []);
  const recorded = method !== 'undo' && doc._shouldRecordMovementHistory() === true;
  const movement: any = {
    id,
    chain: [],
    origin,
    destination,
    passed: measured,
    pending: emptySection(),
    history: historyOf(doc, priorHistory),
    constrained: false,
    recorded,
    method,
    constrainOptions: deepClone(given.constrainOptions ?? {}),
    autoRotate: given.autoRotate ?? false,
    showRuler: given.showRuler ?? false,
  };
  if (v14()) Object.assign(movement, { subpathId, split: false });
  // v13: nothing of the movement is writable; v14: only autoRotate and showRuler (hookEvents.preMoveToken).
  for (const [k, v] of Object.entries(movement)) if (v && typeof v === 'object') deepFreeze(v);
  if (v14()) {
    for (const k of Object.keys(movement)) if (k !== 'autoRotate' && k !== 'showRuler') Object.defineProperty(movement, k, { writable: false });
    Object.seal(movement);
  } else Object.freeze(movement);
  if (hooks.call('preMoveToken', doc, movement, options) === false) return false;
  const sent = {
    id,
    chain: [],
    origin,
    waypoints: deepClone(measured.waypoints),
    method,
    autoRotate: !!movement.autoRotate,
    showRuler: !!movement.showRuler,
    constrainOptions: deepClone(movement.constrainOptions),
    recorded,
    ...(v14() ? { subpathId } : {}),
  };
  options.movement = { ...(options.movement ?? {}), [doc.id]: sent };
  if (recorded) {
    const start = priorHistory.length ? [] : [measuredWaypoint({ ...origin, action: waypoints[0].action, snapped: false, explicit: false, checkpoint: true }, 0, id, user.id, subpathId)];
    changes._movementHistory = diff._movementHistory = [...priorHistory, ...start, ...deepClone(measured.waypoints)];
  } else if (method === 'undo' && '_movementHistory' in changes) diff._movementHistory = changes._movementHistory;
  return true;
}

/** Every client, after updateToken: moveToken with the TokenMovementOperation; recordToken when the history changed. */
function received(doc: any, diff: any, operation: any, author: any): void {
  const sent = operation.movement?.[doc.id];
  if (sent && POSITION_KEYS.some((k) => k in diff)) {
    const origin = sent.origin;
    const destination = positionOf(doc._source);
    const passed = section(doc, origin, sent.waypoints);
    passed.waypoints = deepClone(sent.waypoints);
    const history = historyOf(doc, (doc._source._movementHistory ?? []).filter((w: any) => w.movementId !== sent.id));
    const movement: any = {
      id: sent.id,
      chain: [...(sent.chain ?? [])],
      origin: { ...origin },
      destination,
      passed,
      pending: emptySection(),
      history,
      constrained: false,
      recorded: !!sent.recorded,
      method: sent.method,
      constrainOptions: deepClone(sent.constrainOptions ?? {}),
      autoRotate: !!sent.autoRotate,
      showRuler: !!sent.showRuler,
    };
    if (v14()) Object.assign(movement, { subpathId: sent.subpathId, split: false });
    const data = { ...deepClone(movement), user: author, state: 'completed', updateOptions: { ...operation, parent: undefined } };
    delete data.updateOptions.parent;
    Object.defineProperty(doc, '_movement', { value: deepFreeze(data), writable: true, configurable: true, enumerable: false });
    hooks.callAll('moveToken', doc, deepFreeze(movement), operation, author);
  }
  if ('_movementHistory' in diff) hooks.callAll('recordToken', doc);
}

const methods = {
  /** Core's TokenDocument#move: one update through the waypoints; true if the token moved. */
  async move(this: any, waypoints: any, options: any = {}): Promise<boolean> {
    const list = (Array.isArray(waypoints) ? waypoints : [waypoints]).map((w: any) => ({ ...w }));
    if (!list.length) return false;
    const { method = 'api', autoRotate, showRuler, constrainOptions, ...rest } = options;
    const full = completeWaypoints(this, list, !!rest.teleport);
    const dest = full[full.length - 1];
    const change = Object.fromEntries(POSITION_KEYS.map((k) => [k, dest[k]]));
    const movement = { ...(rest.movement ?? {}), [this.id]: { waypoints: list, method, autoRotate, showRuler, constrainOptions } };
    const before = positionOf(this._source);
    await this.update(change, { ...rest, movement });
    return POSITION_KEYS.some((k) => (this as any)._source[k] !== before[k]);
  },
  /** Core's measureMovementPath: the path between the token's centres at each waypoint, by the scene's grid. */
  measureMovementPath(this: any, waypoints: any[]): any {
    const full = completeWaypoints(this, waypoints);
    const { total, steps } = measure(this, full);
    let cost = 0;
    return { ...total, waypoints: full.map((w, k) => ({ x: w.x, y: w.y, cost: (cost += steps[k]) })) };
  },
  _shouldRecordMovementHistory(this: any): boolean {
    return this.inCombat;
  },
  /** Core's: displace the token to the position before the last recorded movement (or the given one, which must be the last). */
  async revertRecordedMovement(this: any, movementId?: string): Promise<boolean> {
    const history: any[] = deepClone(this._source._movementHistory ?? []);
    if (!history.length) return false;
    const lastId = history[history.length - 1].movementId;
    if (movementId !== undefined && movementId !== lastId) return false;
    const first = history.findIndex((w) => w.movementId === lastId);
    const kept = history.slice(0, first);
    const to = kept.length ? kept[kept.length - 1] : history[first];
    const change: any = Object.fromEntries(POSITION_KEYS.map((k) => [k, to[k]]));
    change._movementHistory = kept;
    const before = deepClone(this._source._movementHistory);
    await this.update(change, { movement: { [this.id]: { waypoints: [{ ...change, action: 'displace' }], method: 'undo' } } });
    return JSON.stringify(this._source._movementHistory) !== JSON.stringify(before);
  },
  async clearMovementHistory(this: any): Promise<void> {
    await this.update({ _movementHistory: [] });
  },
};

/** Install the movement API on the shared TokenDocument class and the workflow in the database path. */
export function installMovement(): void {
  Object.assign(TokenDocument.prototype, methods);
  Object.defineProperty(TokenDocument.prototype, 'movementHistory', {
    configurable: true,
    get(this: any) {
      return this._source._movementHistory ?? [];
    },
  });
  Object.defineProperty(TokenDocument.prototype, 'movement', {
    configurable: true,
    get(this: any) {
      return this._movement ?? null;
    },
  });
  tokenMovement.prepare = prepare;
  tokenMovement.received = received;
}
