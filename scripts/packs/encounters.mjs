/**
 * The `encounters` pack's sources (issue 12): ready groups of monsters a GM
 * drops on a scene. Each is an `encounter` actor naming its members by the
 * monsters pack's uuids (ids from scripts/packs/ids.mjs, so the monsters need
 * not exist yet), how many of each, the side (hostile) and a short note of
 * our own words. Writes packs/_source/encounters/<slug>.yml, one file per
 * encounter (the files the build compiles; commit both).
 *
 *   node scripts/packs/encounters.mjs
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { packId, slugOf } from './ids.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'packs', '_source', 'encounters');

/** name, members (monster slug → count), note (one or two sentences of our own). */
export const ENCOUNTERS = [
  ['Hobgoblin raiders', { hobgoblin: 4, 'hobgoblin-witch': 1, wolf: 2 }, 'Four hobgoblin warriors escort their witch, two wolves running ahead. The witch stays behind the line and casts.'],
  ['Goblin war band', { goblin: 8, wolf: 2 }, 'A noisy band of goblins with two wolves on leashes. They break quickly once a few have fallen.'],
  ['Orc patrol', { orc: 6, 'orc-leader': 1 }, 'Six orcs under a leader who keeps them in line. Without the leader their nerve is poor.'],
  ['Skeleton guard', { skeleton: 6 }, 'Bones set to guard a door or a tomb. They fight until destroyed.'],
  ['Bandits', { bandit: 6, 'bandit-leader': 1 }, 'Road robbers who would rather take a purse than fight. Their leader parleys first.'],
  ['Gnoll hunting pack', { gnoll: 5 }, 'Hyena-men out for meat, spread wide to flank their prey.'],
  ['Ogre and goblins', { ogre: 1, goblin: 4 }, 'An ogre bullied into leading a handful of goblins, who hang back while it smashes.'],
  ['Lizard-men', { 'lizard-man': 4 }, 'A hunting party from the marsh, patient in ambush near the water.'],
  ['Troll', { troll: 1 }, 'A lone troll that regrows its wounds. Fire or acid keeps it down.'],
  ['Kobold ambush', { kobold: 8, 'giant-rat': 4 }, 'Kobolds with their pet rats, waiting in a narrow passage. They flee from anything that looks strong.'],
  ['Restless dead', { zombie: 4, ghoul: 2 }, 'Slow zombies in front, hungry ghouls slipping around them. A ghoul\'s touch can paralyse.'],
  ['Bugbear ambush', { bugbear: 2, goblin: 4 }, 'Two bugbears lurking while goblins draw the party in. The bugbears move quietly for their size.'],
  ['Spider lair', { 'giant-spider': 2 }, 'Two giant spiders in a web-choked hollow. Their bite is poisonous.'],
  ['Berserkers', { berserker: 6 }, 'Warriors who fight in a frenzy and never retreat.'],
  ['Hill giant and wolves', { 'hill-giant': 1, wolf: 3 }, 'A hill giant out hunting with its half-tame wolves. It throws rocks before closing.'],
  ['Owlbear', { owlbear: 1 }, 'A lone owlbear defending its den. It hugs whatever it hits with both claws.'],
];

export const monsterUuid = (slug) => `Compendium.ten-segments.monsters.Actor.${packId('monsters', slug)}`;

export function encounterSource([name, members, note]) {
  const slug = slugOf(name);
  const _id = packId('encounters', slug);
  return {
    _id,
    _key: `!actors!${_id}`,
    name,
    type: 'encounter',
    img: 'icons/svg/combat.svg',
    system: {
      members: Object.entries(members).map(([monster, count]) => ({ uuid: monsterUuid(monster), count })),
      disposition: -1,
      notes: `<p>${note}</p>`,
    },
    prototypeToken: { name, actorLink: false, disposition: -1 },
    items: [],
    effects: [],
    flags: {},
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(out)) if (f.endsWith('.yml')) rmSync(join(out, f));
  for (const row of ENCOUNTERS) {
    const doc = encounterSource(row);
    writeFileSync(join(out, `${slugOf(doc.name)}.yml`), YAML.stringify(doc, { lineWidth: 0 }));
  }
  console.log(`wrote ${ENCOUNTERS.length} encounters to packs/_source/encounters`);
}
