#!/usr/bin/env node
/**
 * The `weapons` pack's sources, generated from the table below:
 *   node scripts/packs/weapons.mjs   → packs/_source/weapons/<folder>/<slug>.yml (+ _folder.yml each)
 *
 * The facts are the standard old-school weapon table: damage against
 * small–medium and against large foes, speed factor, length and space
 * required (ft), weight (lb; the old tables' encumbrance in gp ÷ 10), cost
 * (gp; silver and copper as fractions), rate of fire, and ranges. Ranges are
 * given there in inches: stored here in feet, 1" = 10 ft (as movement,
 * FEET_PER_INCH). A thrown melee weapon keeps its melee kind and carries its
 * throwing rate and ranges. Missile weapons have no length or space (0: not
 * given). The bow and crossbow lines carry their arrow's / quarrel's damage,
 * the sling its bullet's.
 *
 * Individual speed's critical multiplier and damage types are not in the old
 * tables: the multiplier follows the usual convention (×2 most weapons, ×3
 * axes, heavy blades on poles, spears and long bows, ×4 picks and beaked
 * hammers), the types what the head of the weapon does (DAMAGE_TYPES in
 * src/rules/model.ts). Descriptions are our own. Every entry is unequipped.
 *
 * Ids are packId('weapons', slug) (scripts/packs/ids.mjs), folders'
 * packId('weapons', 'folder:<dir>'), so other sources may name a weapon.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { packId, slugOf } from './ids.mjs';

const PACK = 'weapons';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'packs', '_source', PACK);

const FOLDERS = {
  melee: { name: 'Melee', sort: 100000 },
  'pole-arms': { name: 'Pole arms', sort: 200000 },
  missile: { name: 'Missile', sort: 300000 },
};

// types: b blunt, p piercing, s slashing, c chopping.
const TYPES = { b: 'blunt', p: 'piercing', s: 'slashing', c: 'chopping' };
const THROWN = [10, 20, 30];

// [name, folder, dmg S-M, dmg L, speed, length ft, space ft, weight lb, cost gp, kind, rate, ranges ft | null, critical, types, description]
const WEAPONS = [
  // Melee
  ['Battle axe', 'melee', '1d8', '1d8', 7, 4, 4, 7.5, 5, 'melee', 1, null, 3, 'c', 'A broad, heavy axe that wants room to swing.'],
  ['Hand axe', 'melee', '1d6', '1d4', 4, 1.5, 2, 5, 1, 'melee', 1, THROWN, 3, 'c', 'A small one-handed axe, balanced well enough to throw.'],
  ['Club', 'melee', '1d6', '1d3', 4, 3, 3, 3, 0, 'melee', 1, THROWN, 2, 'b', 'A length of hard wood, thicker at the striking end; anyone can find one.'],
  ['Dagger', 'melee', '1d4', '1d3', 2, 1.25, 1, 1, 2, 'melee', 2, THROWN, 2, 'ps', 'A short blade, quick to draw and quick to strike, and it can be thrown.'],
  ['Flail', 'melee', '1d6+1', '2d4', 7, 4, 6, 15, 3, 'melee', 1, null, 2, 'b', 'A spiked weight on a chain at the end of a long haft, swung on foot with both hands.'],
  ["Horseman's flail", 'melee', '1d4+1', '1d4+1', 6, 2, 4, 3.5, 8, 'melee', 1, null, 2, 'b', 'A short-hafted flail for one hand, made for fighting from the saddle.'],
  ['Mace', 'melee', '1d6+1', '1d6', 7, 2.5, 4, 10, 8, 'melee', 1, null, 2, 'b', 'A flanged iron head on a stout haft, made to dent armour.'],
  ["Horseman's mace", 'melee', '1d6', '1d4', 6, 1.5, 2, 5, 4, 'melee', 1, null, 2, 'b', 'A lighter mace carried at a rider\'s saddle.'],
  ['Morning star', 'melee', '2d4', '1d6+1', 7, 4, 5, 12.5, 5, 'melee', 1, null, 2, 'bp', 'A heavy spiked ball on a long haft.'],
  ['War hammer', 'melee', '1d4+1', '1d4', 4, 1.5, 2, 5, 1, 'melee', 1, THROWN, 3, 'b', 'A short hammer with a heavy head, quick in the hand and fit for throwing.'],
  ['Military pick', 'melee', '1d6+1', '2d4', 7, 4, 4, 6, 8, 'melee', 1, null, 4, 'p', 'A long-hafted pick whose spike punches through plate.'],
  ["Horseman's pick", 'melee', '1d4+1', '1d4', 5, 2, 3, 4, 5, 'melee', 1, null, 4, 'p', 'A short pick for one hand, carried by riders.'],
  ['Scimitar', 'melee', '1d8', '1d8', 4, 3, 2, 4, 15, 'melee', 1, null, 2, 's', 'A curved single-edged sword that cuts in a drawing stroke.'],
  ['Short sword', 'melee', '1d6', '1d8', 3, 2, 1, 3.5, 8, 'melee', 1, null, 2, 'ps', 'A short stabbing blade that works in a crowd.'],
  ['Long sword', 'melee', '1d8', '1d12', 5, 3.5, 3, 6, 15, 'melee', 1, null, 2, 'ps', 'A straight double-edged sword, the usual arm of a warrior.'],
  ['Broad sword', 'melee', '2d4', '1d6+1', 5, 3.5, 4, 7.5, 10, 'melee', 1, null, 2, 's', 'A wide, heavy blade made for cutting.'],
  ['Bastard sword', 'melee', '2d4', '2d8', 6, 4.5, 5, 10, 25, 'melee', 1, null, 2, 'ps', 'A long sword with a hilt long enough for a second hand.'],
  ['Two-handed sword', 'melee', '1d10', '3d6', 10, 6, 6, 25, 30, 'melee', 1, null, 2, 's', 'A great sword held in both hands; it needs a wide space to swing.'],
  ['Spear', 'melee', '1d6', '1d8', 6, 8, 1, 5, 1, 'melee', 1, THROWN, 3, 'p', 'A leaf-shaped head on a long shaft; it can be thrown or set against a charge.'],
  ['Trident', 'melee', '1d6+1', '3d4', 7, 6, 1, 5, 4, 'melee', 1, null, 2, 'p', 'A three-pronged fork on a shaft.'],
  ['Staff', 'melee', '1d6', '1d6', 4, 7, 3, 5, 0, 'melee', 1, null, 2, 'b', 'A quarterstaff of hard wood, wielded with both hands.'],
  ['Light lance', 'melee', '1d6', '1d8', 7, 10, 1, 5, 6, 'melee', 1, null, 3, 'p', 'A slender lance for a light horse; used from the saddle only.'],
  ['Medium lance', 'melee', '1d6+1', '2d6', 8, 12, 1, 10, 6, 'melee', 1, null, 3, 'p', 'A lance for a medium horse, couched for the charge.'],
  ['Heavy lance', 'melee', '2d4', '3d6', 8, 14, 1, 15, 6, 'melee', 1, null, 3, 'p', 'A long, thick lance for a heavy charger; terrible on the charge.'],
  // Pole arms
  ['Awl pike', 'pole-arms', '1d6', '1d12', 13, 18, 1, 8, 3, 'melee', 1, null, 3, 'p', 'A very long pike with a narrow spike, fought in close ranks.'],
  ['Bardiche', 'pole-arms', '2d4', '3d4', 9, 5, 5, 12.5, 7, 'melee', 1, null, 3, 'c', 'A long crescent axe blade fixed to a pole.'],
  ['Bec de corbin', 'pole-arms', '1d8', '1d6', 9, 8, 6, 10, 8, 'melee', 1, null, 4, 'bp', 'A beak and a hammer on a pole, made to break into armour.'],
  ['Bill-guisarme', 'pole-arms', '2d4', '1d10', 10, 7.5, 2, 15, 7, 'melee', 1, null, 3, 'ps', 'A hooked bill with spikes on a pole, good for pulling riders down.'],
  ['Fauchard', 'pole-arms', '1d6', '1d8', 8, 8, 2, 6, 3, 'melee', 1, null, 2, 's', 'A curved blade on a pole, like a long sickle.'],
  ['Fauchard-fork', 'pole-arms', '1d8', '1d10', 8, 8, 2, 8, 8, 'melee', 1, null, 2, 'ps', 'A fauchard with a fork at its back.'],
  ['Glaive', 'pole-arms', '1d6', '1d10', 8, 8, 1, 7.5, 6, 'melee', 1, null, 3, 's', 'A single-edged blade on the end of a pole.'],
  ['Glaive-guisarme', 'pole-arms', '2d4', '2d6', 9, 8, 1, 10, 10, 'melee', 1, null, 3, 'ps', 'A glaive with a hook on its back.'],
  ['Guisarme', 'pole-arms', '2d4', '1d8', 8, 8, 2, 8, 5, 'melee', 1, null, 2, 's', 'A hooked blade on a pole, grown from the pruning hook.'],
  ['Guisarme-voulge', 'pole-arms', '2d4', '2d4', 10, 8, 2, 15, 8, 'melee', 1, null, 3, 'cs', 'A heavy voulge blade with a hook and spike.'],
  ['Halberd', 'pole-arms', '1d10', '2d6', 9, 5.5, 5, 17.5, 9, 'melee', 1, null, 3, 'cp', 'Axe blade, spike and hook on a long pole; it needs space to chop.'],
  ['Lucern hammer', 'pole-arms', '2d4', '1d6', 9, 5.5, 5, 15, 7, 'melee', 1, null, 4, 'bp', 'A pronged hammer head with a long spike, on a pole.'],
  ['Military fork', 'pole-arms', '1d8', '2d4', 7, 7, 2, 7.5, 5, 'melee', 1, null, 2, 'p', 'A two-tined fork on a pole, set to meet a charge.'],
  ['Partisan', 'pole-arms', '1d6', '1d6+1', 9, 7, 3, 8, 10, 'melee', 1, null, 3, 'p', 'A broad spear head with two small side blades.'],
  ['Ranseur', 'pole-arms', '2d4', '2d4', 8, 8, 1, 5, 4, 'melee', 1, null, 3, 'p', 'A long spike with two side prongs that can catch a weapon.'],
  ['Spetum', 'pole-arms', '1d6+1', '2d6', 8, 8, 2, 5, 3, 'melee', 1, null, 3, 'p', 'A spear head with two angled side blades.'],
  ['Voulge', 'pole-arms', '2d4', '2d4', 10, 8, 2, 12.5, 2, 'melee', 1, null, 3, 'c', 'A cleaver-like blade lashed to a pole; cheap and brutal.'],
  // Missile
  ['Short bow', 'missile', '1d6', '1d6', 7, 0, 0, 5, 15, 'missile', 2, [50, 100, 150], 2, 'p', 'A small bow, easy to carry and to shoot from horseback.'],
  ['Long bow', 'missile', '1d6', '1d6', 8, 0, 0, 10, 60, 'missile', 2, [70, 140, 210], 3, 'p', 'A tall bow of yew that needs a strong arm and reaches far.'],
  ['Composite short bow', 'missile', '1d6', '1d6', 6, 0, 0, 5, 75, 'missile', 2, [50, 100, 180], 2, 'p', 'A short bow of horn, wood and sinew, more powerful than its size suggests.'],
  ['Composite long bow', 'missile', '1d6', '1d6', 7, 0, 0, 8, 100, 'missile', 2, [60, 120, 210], 3, 'p', 'A long bow built up of layered horn and wood.'],
  ['Light crossbow', 'missile', '1d4', '1d4', 7, 0, 0, 5, 3, 'missile', 1, [60, 120, 180], 2, 'p', 'A crossbow cocked by hand or lever; quick to learn.'],
  ['Heavy crossbow', 'missile', '1d4+1', '1d6+1', 10, 0, 0, 8, 10, 'missile', 0.5, [80, 160, 240], 2, 'p', 'A heavy crossbow wound with a crank: slow to load, hard-hitting.'],
  ['Sling', 'missile', '1d4+1', '1d6+1', 6, 0, 0, 0.5, 0.5, 'missile', 1, [50, 100, 200], 2, 'b', 'A leather cord and pouch that hurls lead bullets or stones.'],
  ['Dart', 'missile', '1d3', '1d2', 2, 0, 0, 0.1, 0.5, 'missile', 3, [15, 30, 45], 2, 'p', 'A small weighted dart, thrown three at a time.'],
  ['Javelin', 'missile', '1d6', '1d6', 4, 4, 1, 2, 0.5, 'missile', 1, [20, 40, 60], 2, 'p', 'A light throwing spear.'],
];

function folderDoc(dir) {
  const f = FOLDERS[dir];
  const _id = packId(PACK, `folder:${dir}`);
  return { _id, _key: `!folders!${_id}`, name: f.name, type: 'Item', folder: null, sorting: 'a', sort: f.sort, color: null, description: '', flags: {} };
}

function weaponDoc(row) {
  const [name, dir, small, large, speed, length, space, weight, cost, kind, rate, ranges, critical, types, description] = row;
  const slug = slugOf(name);
  const _id = packId(PACK, slug);
  const [short, medium, long] = ranges ?? [0, 0, 0];
  return {
    slug,
    dir,
    doc: {
      _id,
      _key: `!items!${_id}`,
      name,
      type: 'weapon',
      img: kind === 'missile' ? 'icons/svg/target.svg' : 'icons/svg/sword.svg',
      folder: packId(PACK, `folder:${dir}`),
      system: {
        damage: { small, large },
        speed,
        length,
        space,
        kind,
        rate,
        range: { short, medium, long },
        missileBonus: 0,
        critical,
        damageTypes: [...types].map((t) => TYPES[t]),
        equipped: false,
        weight,
        cost,
        description: `<p>${description}</p>`,
      },
      effects: [],
      flags: {},
    },
  };
}

const YAML = { lineWidth: 0 };

// Regenerate from scratch: the table is the whole pack.
for (const entry of readdirSync(out, { withFileTypes: true })) rmSync(join(out, entry.name), { recursive: true, force: true });
const slugs = new Set();
for (const dir of Object.keys(FOLDERS)) {
  mkdirSync(join(out, dir), { recursive: true });
  writeFileSync(join(out, dir, '_folder.yml'), stringify(folderDoc(dir), YAML));
}
for (const row of WEAPONS) {
  const { slug, dir, doc } = weaponDoc(row);
  if (slugs.has(slug)) throw new Error(`duplicate weapon slug ${slug}`);
  slugs.add(slug);
  writeFileSync(join(out, dir, `${slug}.yml`), stringify(doc, YAML));
}
console.log(`weapons: ${WEAPONS.length} weapons in ${Object.keys(FOLDERS).length} folders → packs/_source/weapons`);
