/**
 * The fixture actors and items the Foundry tests and the preview page share
 * (tests/foundry/world.ts, preview/world.ts): plain data, no Foundry global.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */

/** A character owned by `owner`, observed by `observer`: 12 hp, AC 5, AAC0 19. */
export function characterData(name: string, owner: string, observer: string, ownership: { OWNER: number; OBSERVER: number }, extra: Record<string, unknown> = {}): any {
  return {
    name,
    type: 'character',
    ownership: { [owner]: ownership.OWNER, [observer]: ownership.OBSERVER },
    system: { hp: { value: 12, max: 12 }, ac: 5, attack: { mode: 'aac0', aac0: '19' }, ...extra },
  };
}

/** An orc: 1 HD, 6 hp, AC 6, AAC0 19, an axe for 1d8, morale 8. */
export function monsterData(name: string): any {
  return { name, type: 'monster', system: { hitDice: '1', hp: { value: 6, max: 6 }, ac: 6, aac0: '19', attacks: 'axe 1d8', morale: 8 } };
}

/** Sleep: level 1, 2 segments, `memorized` copies. */
export function sleepData(memorized: number): any {
  return { name: 'Sleep', type: 'spell', system: { level: 1, castingTime: { value: 2, unit: 'segments' }, castingTN: 12, memorized, expended: 0 } };
}

/** A long sword, equipped: 1d8/1d12, speed factor 5, 3.5 ft, 3 ft of space. */
export const LONG_SWORD = { name: 'Long sword', type: 'weapon', system: { damage: { small: '1d8', large: '1d12' }, speed: 5, length: 3.5, space: 3, kind: 'melee', equipped: true } };
