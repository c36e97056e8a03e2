/**
 * What a scene says about the procedure's options. The scene flag
 * `flags['ten-segments'].outdoors` (boolean, absent = indoors; the scene
 * config's checkbox) is addict's `chargeOutdoors` (seed 004, footnote 9: a
 * charge adds 100% to MV indoors, 33⅓% outdoors) for a combat on that scene:
 * where the flag is set, the scene wins over the world's option; where it is
 * absent, the world's option stands. Read where the combat's options are
 * frozen into its start (combat-writer.ts) and where a declaration is
 * checked before the start (handlers/queries.ts, the declaration dialog).
 */
import { SYSTEM_ID } from '../settings';

type Options = Record<string, boolean | number | string | unknown>;

/** The scene a combat is fought on: its own, else its combatants' tokens' scene. */
export function sceneOfCombat(combat: Combat.Implementation | null | undefined): Scene.Implementation | null {
  if (!combat) return null;
  const own = (combat as { scene?: Scene.Implementation | null }).scene;
  if (own) return own;
  for (const c of combat.combatants) {
    const scene = c.token?.parent;
    if (scene) return scene as Scene.Implementation;
  }
  return null;
}

/** The scene's `outdoors` flag: true / false where set, undefined where the scene says nothing. */
export function sceneOutdoors(scene: Scene.Implementation | null | undefined): boolean | undefined {
  const flag = (scene?.flags as Record<string, Record<string, unknown> | undefined> | undefined)?.[SYSTEM_ID]?.outdoors;
  return typeof flag === 'boolean' ? flag : undefined;
}

/** The procedure's options as the world sets them, with what the scene says over them. */
export function withSceneOptions<T extends Options>(procedure: string, options: T, scene: Scene.Implementation | null | undefined): T {
  const outdoors = sceneOutdoors(scene);
  if (procedure === 'addict' && outdoors !== undefined) return { ...options, chargeOutdoors: outdoors };
  return options;
}
