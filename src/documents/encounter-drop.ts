/**
 * An encounter actor dropped on the map (core's `dropCanvasData` hook, at
 * init): its creatures are placed instead of the encounter itself, and
 * returning false stops core from making a token of the encounter actor.
 * What placing does is a chunk (encounter-place.ts) loaded then. Any other
 * drop goes core's way.
 */

/** Core's drop data on the canvas (Canvas#_onDrop): the drag data, and the drop point in canvas pixels. */
interface CanvasDrop {
  type?: string;
  uuid?: string;
  x?: number;
  y?: number;
}

/** Is this drop an encounter actor? (A world actor, or a compendium's index entry, both carry their type.) */
export function isEncounterDrop(data: CanvasDrop): boolean {
  if (data?.type !== 'Actor' || typeof data.uuid !== 'string') return false;
  const found = fromUuidSync(data.uuid as never) as { type?: string } | null;
  return found?.type === 'encounter';
}

export function onDropCanvasData(_canvas: unknown, data: CanvasDrop): boolean | void {
  if (!isEncounterDrop(data)) return;
  const point = { x: Number(data.x ?? 0), y: Number(data.y ?? 0) };
  void import('./encounter-place').then((m) => m.placeDropped(data.uuid as string, point)).catch(console.error);
  return false;
}

export function registerEncounterDrop(): void {
  Hooks.on('dropCanvasData', onDropCanvasData as never);
}
