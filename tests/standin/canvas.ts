/**
 * What the stand-in has of the canvas: the part placing tokens needs (issue 12).
 * No drawing, no layers, no PIXI. Modelled on core v13/v14
 * (client/canvas/board.mjs Canvas#_onDrop, client/canvas/layers/tokens.mjs
 * TokenLayer#_onDropActorData, client/documents/actor.mjs getTokenDocument,
 * client/documents/scene.mjs dimensions):
 *
 * - `canvas` (global, the running client's): `ready`, `scene` (the viewed
 *   scene), `grid` (its grid), `dimensions` (its). No `stage`: nothing here
 *   has a view to centre on.
 * - `Scene#dimensions`: the map's rectangle in canvas pixels. The stand-in's
 *   scenes have no padding field, so the map starts at (0, 0) (core pads it
 *   by `padding`, 0.25 by default, and shifts sceneX/sceneY accordingly).
 * - `Actor#getTokenDocument(data, options)`: a new, unsaved TokenDocument
 *   from the actor's prototype token with `data` over it (core's; no random
 *   image).
 * - `dropOnCanvas(data)`: what core does when something is dropped on the
 *   board, as the running client: the drag data with the drop point
 *   ({type, uuid, x, y}, canvas pixels) goes to `Hooks.call('dropCanvasData',
 *   canvas, data, event)`; false stops it. Otherwise an Actor drop goes
 *   core's way: a user without TOKEN_CREATE is warned and nothing happens;
 *   a user who does not own the actor is warned; a compendium's actor is
 *   imported first (`game.actors.fromCompendium`, which the compendium
 *   stand-in provides); the token is centred on the drop point and snapped
 *   to the grid, refused outside the map, created on the viewed scene.
 *   Other drop types (Item, JournalEntry, …) are not modelled: an error.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { Actor, Scene, getDocumentClass } from './documents';
import { deepClone, mergeObject } from './utils';

const g = () => globalThis as any;

function sceneDimensions(scene: any) {
  const size = scene.grid?.size ?? 100;
  const width = scene.width;
  const height = scene.height;
  return {
    size,
    width,
    height,
    sceneX: 0,
    sceneY: 0,
    sceneWidth: width,
    sceneHeight: height,
    sceneRect: { x: 0, y: 0, width, height },
    rect: { x: 0, y: 0, width, height, contains: (x: number, y: number) => x >= 0 && y >= 0 && x <= width && y <= height },
  };
}

/** The running client's canvas: the viewed scene, its grid and dimensions. */
function clientCanvas(): any {
  const scene = g().game?.scenes?.viewed ?? null;
  return {
    ready: !!scene,
    scene,
    grid: scene?.grid ?? null,
    dimensions: scene ? sceneDimensions(scene) : null,
  };
}

/** Install the canvas global and the canvas-side methods on the shared classes. */
export function installCanvas(): void {
  Object.defineProperty(globalThis, 'canvas', { configurable: true, enumerable: true, get: clientCanvas });
  Object.defineProperty(Scene.prototype, 'dimensions', {
    configurable: true,
    get(this: any) {
      return sceneDimensions(this);
    },
  });
  (Actor.prototype as any).getTokenDocument = async function getTokenDocument(this: any, data: any = {}, options: any = {}) {
    const tokenData = deepClone(this._source.prototypeToken ?? {});
    tokenData.actorId = this.id;
    mergeObject(tokenData, deepClone(data));
    const cls = getDocumentClass('Token');
    return new cls(tokenData, { actor: this, ...options });
  };
}

/** A drag event as far as the drop handlers read it (no modifier keys). */
const dropEvent = () => ({ altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, preventDefault() {} });

/**
 * Something dropped on the board by the running client (core's Canvas#_onDrop then the layer's handler).
 * Returns false when a dropCanvasData hook stopped it, the token core created for an Actor, or null when
 * core refused (after warning the user).
 */
export async function dropOnCanvas(data: { type: string; uuid?: string; x: number; y: number }): Promise<any> {
  const canvas = g().canvas;
  if (!canvas.ready) throw new Error('No scene is viewed: nothing to drop on');
  const event = dropEvent();
  const dropped = { ...data };
  if (g().Hooks.call('dropCanvasData', canvas, dropped, event) === false) return false;
  if (dropped.type !== 'Actor') throw new Error(`The stand-in's canvas takes Actor drops only, not ${dropped.type}`);
  const { game, ui } = g();
  if (!game.user.can('TOKEN_CREATE')) {
    ui.notifications.warn('You do not have permission to create new Tokens!');
    return null;
  }
  let actor = await g().Actor.implementation.fromDropData(dropped);
  if (!actor.isOwner) {
    ui.notifications.warn(`You do not have permission to create a new Token for the ${actor.name} Actor.`);
    return null;
  }
  if (actor.pack) {
    const actorData = game.actors.fromCompendium(actor);
    actor = await g().Actor.implementation.create(actorData, { fromCompendium: true });
  }
  const td = await actor.getTokenDocument({}, { parent: canvas.scene });
  const size = canvas.grid.size;
  // Centred on the drop point, then snapped to the square's top-left corner.
  const x = Math.round((dropped.x - (td.width * size) / 2) / size) * size;
  const y = Math.round((dropped.y - (td.height * size) / 2) / size) * size;
  if (!canvas.dimensions.rect.contains(x, y)) return null;
  td.updateSource({ x, y });
  const [created] = await canvas.scene.createEmbeddedDocuments('Token', [td.toObject()]);
  return created ?? null;
}
