/** Types of scripts/packs/carried.mjs. */
export const CARRIED: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
