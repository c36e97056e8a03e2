/**
 * Stable document ids for the compendium sources: a pack entry's `_id` is
 * derived from its pack and slug, so one source can name another (a
 * monster's weapon, an encounter's members) before either is written, and
 * an id never changes when a file is regenerated.
 *
 *   packId('weapons', 'long-sword') → 16 characters [A-Za-z0-9], as Foundry's ids
 */
import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** @param {string} pack @param {string} slug @returns {string} */
export function packId(pack, slug) {
  const bytes = createHash('sha256').update(`ten-segments:${pack}:${slug}`).digest();
  let id = '';
  for (let i = 0; i < 16; i++) id += ALPHABET[bytes[i] % ALPHABET.length];
  return id;
}

/** A name as a slug: "Long sword" → "long-sword", "Magic Missile" → "magic-missile". */
export function slugOf(name) {
  return String(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
