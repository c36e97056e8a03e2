/**
 * Placing a ready encounter on a scene (issue 12), a chunk loaded when a GM
 * drops an encounter actor on the map or presses the sheet's "Place on
 * scene". GM only: a player is told so and nothing is written.
 *
 * 1. Each member's monster is found: a world actor by its uuid, or a
 *    compendium's, imported into the world once (an actor already imported,
 *    the same `_stats.compendiumSource`, is used again).
 * 2. One unlinked token per creature, the encounter's disposition, on the
 *    free grid squares nearest the drop point (one write).
 * 3. The creatures join the current combat (the viewed one; a new combat
 *    linked to this scene when there is none), all in the side their
 *    disposition names (one CombatantGroup, created on first need), those of
 *    a kind the encounter has more than one of sharing an initiativeGroup
 *    (the kind's slug): individual-speed's shared roll (seed 003), ignored by
 *    procedures that roll by side.
 */
import { encounterData } from '../data/systems';
import { ensureSide } from './combatant-join';
import { DISPOSITION_SIDES } from './combatant';
import { sceneIdField } from './compat-writes';

/** A square of the grid (column, row) and a token's footprint in squares. */
export interface Square {
  col: number;
  row: number;
}

/** The squares within `bounds` (in squares, end exclusive) nobody stands on. */
interface Room {
  occupied: Set<string>;
  bounds: { minCol: number; minRow: number; maxCol: number; maxRow: number };
}

const key = (col: number, row: number) => `${col},${row}`;

/** How far from the drop point placing looks for room, in squares. */
const MAX_RING = 40;

/** Is a w×h block with its top-left corner at `at` free and inside the bounds? */
function blockFree(room: Room, at: Square, w: number, h: number): boolean {
  const { bounds } = room;
  if (at.col < bounds.minCol || at.row < bounds.minRow || at.col + w > bounds.maxCol || at.row + h > bounds.maxRow) return false;
  for (let c = 0; c < w; c++) for (let r = 0; r < h; r++) if (room.occupied.has(key(at.col + c, at.row + r))) return false;
  return true;
}

/**
 * The free block nearest `start` (ring by ring, nearest centre first within a ring), marked occupied;
 * null when there is no room within MAX_RING squares.
 */
export function takeFreeBlock(room: Room, start: Square, w = 1, h = 1): Square | null {
  for (let ring = 0; ring <= MAX_RING; ring++) {
    const candidates: Square[] = [];
    for (let dc = -ring; dc <= ring; dc++)
      for (let dr = -ring; dr <= ring; dr++) if (Math.max(Math.abs(dc), Math.abs(dr)) === ring) candidates.push({ col: start.col + dc, row: start.row + dr });
    candidates.sort((a, b) => (a.col - start.col) ** 2 + (a.row - start.row) ** 2 - ((b.col - start.col) ** 2 + (b.row - start.row) ** 2) || a.row - b.row || a.col - b.col);
    for (const at of candidates) {
      if (!blockFree(room, at, w, h)) continue;
      for (let c = 0; c < w; c++) for (let r = 0; r < h; r++) room.occupied.add(key(at.col + c, at.row + r));
      return at;
    }
  }
  return null;
}

type SceneLike = Scene.Implementation & {
  grid: { size: number };
  dimensions?: { sceneX?: number; sceneY?: number; sceneWidth?: number; sceneHeight?: number };
};

/** The squares taken by the scene's tokens, and the scene's area in squares (core's dimensions: the map inside its padding). */
function roomOn(scene: SceneLike): Room {
  const size = scene.grid.size;
  const occupied = new Set<string>();
  for (const t of scene.tokens.contents) {
    const col = Math.floor((t.x ?? 0) / size);
    const row = Math.floor((t.y ?? 0) / size);
    const w = Math.max(1, Math.ceil(t.width ?? 1));
    const h = Math.max(1, Math.ceil(t.height ?? 1));
    for (let c = 0; c < w; c++) for (let r = 0; r < h; r++) occupied.add(key(col + c, row + r));
  }
  const d = scene.dimensions;
  const x = d?.sceneX ?? 0;
  const y = d?.sceneY ?? 0;
  const width = d?.sceneWidth ?? Number(scene.width ?? 0);
  const height = d?.sceneHeight ?? Number(scene.height ?? 0);
  const bounds = {
    minCol: Math.ceil(x / size),
    minRow: Math.ceil(y / size),
    maxCol: width > 0 ? Math.floor((x + width) / size) : Number.POSITIVE_INFINITY,
    maxRow: height > 0 ? Math.floor((y + height) / size) : Number.POSITIVE_INFINITY,
  };
  return { occupied, bounds };
}

/** A name as a slug ("Hobgoblin witch" → "hobgoblin-witch"), as the packs' ids are made (scripts/packs/ids.mjs slugOf). */
export function kindOf(name: string): string {
  return String(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const say = (key: string, data?: Record<string, string>) => (data ? game.i18n!.format(key, data) : game.i18n!.localize(key));

type WorldActors = { find(fn: (a: Actor.Implementation) => boolean): Actor.Implementation | undefined; fromCompendium(doc: unknown, options?: object): object };

/** A member's actor in the world: itself, or the world's import of a compendium's (imported now when there is none). */
async function worldActorOf(uuid: string, imported: Map<string, Actor.Implementation | null>): Promise<Actor.Implementation | null> {
  if (imported.has(uuid)) return imported.get(uuid)!;
  let actor: Actor.Implementation | null = null;
  const found = (await fromUuid(uuid)) as (Actor.Implementation & { pack?: string | null }) | null;
  if (found && found.documentName === 'Actor' && found.type !== 'encounter') {
    if (!found.pack) actor = found;
    else {
      const actors = game.actors as unknown as WorldActors;
      actor =
        actors.find((a) => (a._source as { _stats?: { compendiumSource?: string | null } })._stats?.compendiumSource === uuid) ??
        ((await Actor.implementation.create(actors.fromCompendium(found, { clearFolder: true }) as never, { fromCompendium: true } as never)) as Actor.Implementation | undefined) ??
        null;
    }
  }
  imported.set(uuid, actor);
  return actor;
}

export interface Placed {
  combat: Combat.Implementation;
  tokens: TokenDocument.Implementation[];
  combatants: Combatant.Implementation[];
}

type TokenMaker = { getTokenDocument(data: object, options: object): Promise<{ toObject(): Record<string, unknown> }> };

/**
 * Place an encounter's creatures around a point of a scene (canvas pixels) and bring them into the current combat.
 * Null when nothing was placed (the user is no GM, the encounter has no member found, or there is no room): the
 * user is told why.
 */
export async function placeEncounter(encounter: Actor.Implementation, scene: Scene.Implementation, point: { x: number; y: number }): Promise<Placed | null> {
  if (!game.user?.isGM) {
    ui.notifications?.warn(say('TENSEG.Encounter.GMOnly'));
    return null;
  }
  const system = encounterData(encounter);
  if (!system) return null;
  const at = scene as SceneLike;
  const size = at.grid.size;
  const room = roomOn(at);
  const start = { col: Math.floor(point.x / size), row: Math.floor(point.y / size) };
  const disposition = system.disposition;

  // Each creature's actor, in the members' order; the kinds the encounter has more than one of.
  const imported = new Map<string, Actor.Implementation | null>();
  const creatures: Actor.Implementation[] = [];
  for (const member of system.members) {
    const actor = await worldActorOf(member.uuid, imported);
    if (!actor) {
      ui.notifications?.warn(say('TENSEG.Encounter.MemberMissing', { name: encounter.name ?? '', uuid: member.uuid }));
      continue;
    }
    for (let i = 0; i < member.count; i++) creatures.push(actor);
  }
  if (creatures.length === 0) {
    ui.notifications?.warn(say('TENSEG.Encounter.Empty', { name: encounter.name ?? '' }));
    return null;
  }
  const perKind = new Map<string, number>();
  for (const a of creatures) {
    const kind = kindOf(a.name ?? '');
    perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
  }

  // One unlinked token per creature on the nearest free squares, numbered within its kind when there are several.
  const numbered = new Map<string, number>();
  const tokenData: Record<string, unknown>[] = [];
  for (const actor of creatures) {
    const proto = actor.prototypeToken as unknown as { name?: string; width?: number; height?: number };
    const w = Math.max(1, Math.ceil(proto.width ?? 1));
    const h = Math.max(1, Math.ceil(proto.height ?? 1));
    const square = takeFreeBlock(room, start, w, h);
    if (!square) {
      ui.notifications?.warn(say('TENSEG.Encounter.NoRoom', { name: encounter.name ?? '' }));
      return null;
    }
    const kind = kindOf(actor.name ?? '');
    const n = (numbered.get(kind) ?? 0) + 1;
    numbered.set(kind, n);
    const base = proto.name || actor.name || '';
    const name = (perKind.get(kind) ?? 0) > 1 ? `${base} ${n}` : base;
    const token = await (actor as unknown as TokenMaker).getTokenDocument({ name, x: square.col * size, y: square.row * size, actorLink: false, disposition }, { parent: scene });
    const data = token.toObject();
    delete data._id;
    tokenData.push(data);
  }
  const tokens = (await scene.createEmbeddedDocuments('Token', tokenData as never)) as TokenDocument.Implementation[];

  // The current combat, or a new one on this scene.
  const combat = (game.combats?.viewed ?? (await Combat.implementation.create({ scene: scene.id, active: true } as never))) as Combat.Implementation | null;
  if (!combat) return null;
  const group = await ensureSide(combat, DISPOSITION_SIDES[disposition] ?? 'hostile');
  const combatants = (await combat.createEmbeddedDocuments(
    'Combatant',
    tokens.map((t) => {
      const kind = kindOf(t.baseActor?.name ?? t.name ?? '');
      const shared = (perKind.get(kind) ?? 0) > 1;
      return {
        tokenId: t.id,
        ...sceneIdField(scene.id as string),
        actorId: t.actorId,
        hidden: t.hidden,
        ...(group ? { group: group.id } : {}),
        ...(shared ? { system: { initiativeGroup: kind } } : {}),
      };
    }) as never,
  )) as Combatant.Implementation[];
  return { combat, tokens, combatants };
}

/** Place an encounter dropped on the canvas (core's drop data: canvas pixels) on the scene the canvas shows. */
export async function placeDropped(uuid: string, point: { x: number; y: number }): Promise<Placed | null> {
  const encounter = (await fromUuid(uuid)) as Actor.Implementation | null;
  const scene = (globalThis as { canvas?: { scene?: Scene.Implementation | null } }).canvas?.scene ?? game.scenes?.viewed ?? null;
  if (!encounter || !scene) return null;
  return placeEncounter(encounter, scene, point);
}

/** The sheet's "Place on scene": around the centre of the view (core's canvas.stage pivot), else the middle of the map. */
export async function placeOnViewedScene(encounter: Actor.Implementation): Promise<Placed | null> {
  if (!game.user?.isGM) {
    ui.notifications?.warn(say('TENSEG.Encounter.GMOnly'));
    return null;
  }
  const canvas = (globalThis as { canvas?: { scene?: Scene.Implementation | null; stage?: { pivot?: { x: number; y: number } } } }).canvas;
  const scene = (canvas?.scene ?? game.scenes?.viewed ?? null) as SceneLike | null;
  if (!scene) {
    ui.notifications?.warn(say('TENSEG.Encounter.NoScene'));
    return null;
  }
  const pivot = canvas?.scene === scene ? canvas.stage?.pivot : undefined;
  const d = scene.dimensions;
  const point = pivot ?? {
    x: (d?.sceneX ?? 0) + (d?.sceneWidth ?? Number(scene.width ?? 0)) / 2,
    y: (d?.sceneY ?? 0) + (d?.sceneHeight ?? Number(scene.height ?? 0)) / 2,
  };
  return placeEncounter(encounter, scene, point);
}
