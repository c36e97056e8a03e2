#!/usr/bin/env node
/**
 * The `monsters` pack sources, generated from the compact table below:
 *
 *   node scripts/packs/monsters.mjs            writes packs/_source/monsters/<folder>/<slug>.yml
 *   node scripts/packs/monsters.mjs --check    writes nothing; fails if a file would change
 *   … --items-from <checkout>                  reads the weapons and spells sources there
 *
 * Each row is an old-school stat block (facts: HD, AC, movement in inches,
 * attacks as written, number appearing, morale on 2d6, size, surprise) and a
 * note in our own words. Everything else is derived here by the rules in
 * README.md, "Rules notes → Classic monsters under individual-speed":
 * hit points (the average of the hit dice), AAC0 (the monster attack table by
 * attack hit dice), the d100 morale score, and individual-speed's Agility,
 * Stress, Wound Points, Strength, Defense, Armour and attack bonus.
 *
 * The weapons and spells a monster uses are embedded copies of the weapons
 * and spells packs' entries, read from packs/_source/weapons and
 * packs/_source/spells when this runs: the generator fails (exit 1, naming
 * every missing slug) when a source is not there, and writes nothing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { packId, slugOf } from './ids.mjs';
import { CARRIED } from './carried.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'packs', '_source', 'monsters');
/**
 * Where the weapons and spells sources are read: this checkout's, or with
 * `--items-from <checkout>` another's (a branch not merged yet).
 */
const itemsFrom = (() => {
  const i = process.argv.indexOf('--items-from');
  return i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : ROOT;
})();
const SOURCES = join(itemsFrom, 'packs', '_source');
const PACK = 'monsters';

/** Folders by kind: name, core icon for their monsters, sort order. */
const FOLDERS = {
  humanoids: { name: 'Humanoids', img: 'icons/svg/mystery-man.svg' },
  giants: { name: 'Giants and giant kin', img: 'icons/svg/mystery-man-black.svg' },
  undead: { name: 'Undead', img: 'icons/svg/skull.svg' },
  beasts: { name: 'Beasts and vermin', img: 'icons/svg/pawprint.svg' },
  monstrosities: { name: 'Monstrosities', img: 'icons/svg/terror.svg' },
  oozes: { name: 'Oozes and jellies', img: 'icons/svg/acid.svg' },
};

/*
 * The table. Columns:
 *   name, folder, hd (as parseHitDice reads it), ac, mv (inches; 12" = 120 ft),
 *   attacks (stat-block text; "{slug}" = the embedded weapon by name with its
 *   small/medium damage), routines (per round), na (number appearing), ml
 *   (morale on 2d6, 2-12), size, weapons, spells, notes (one or two sentences),
 *   and optional: sOn (surprises others on 1..n), sdOn (surprised on 1..n),
 *   never (never surprised), aac0 (a stat block's own figure, overriding the table).
 */
const M = [
  // Humanoids
  { name: 'Goblin', folder: 'humanoids', hd: '1-1', ac: 6, mv: 6, attacks: '{short-sword}; MISSILE: {sling}', na: '2d4', ml: 7, size: 'small', weapons: ['short-sword', 'sling'], notes: 'Small, spiteful raiders who see well in the dark and fight poorly in bright sunlight.' },
  { name: 'Goblin chief', folder: 'humanoids', hd: '2', ac: 5, mv: 6, attacks: '{hand-axe}', na: '1', ml: 9, size: 'small', weapons: ['hand-axe'], notes: 'The biggest goblin of the band; while it stands, its followers hold firm.' },
  { name: 'Hobgoblin', folder: 'humanoids', hd: '1+1', ac: 5, mv: 9, attacks: '{morning-star}; MISSILE: {short-bow}', na: '1d6', ml: 8, size: 'medium', weapons: ['morning-star', 'short-bow'], notes: 'Disciplined warriors who march in ranks and keep their arms in good order.' },
  { name: 'Hobgoblin witch', folder: 'humanoids', hd: '2', ac: 6, mv: 9, attacks: '{staff}', na: '1', ml: 8, size: 'medium', weapons: ['staff'], spells: ['sleep', 'charm-person'], notes: 'A war-band\'s hedge witch who casts from behind the line of warriors. She prefers to send foes to sleep before the fighting starts.' },
  { name: 'Kobold', folder: 'humanoids', hd: '½', ac: 7, mv: 6, attacks: '{spear}; MISSILE: {javelin}', na: '4d4', ml: 6, size: 'small', weapons: ['spear', 'javelin'], notes: 'Scaly little tunnel-dwellers that favour traps and numbers over a fair fight.' },
  { name: 'Orc', folder: 'humanoids', hd: '1', ac: 6, mv: 9, attacks: '{scimitar}; MISSILE: {short-bow}', na: '2d4', ml: 8, size: 'medium', weapons: ['scimitar', 'short-bow'], notes: 'Brutish raiders who hate daylight and bully anything weaker than themselves.' },
  { name: 'Orc leader', folder: 'humanoids', hd: '2', ac: 4, mv: 9, attacks: '{battle-axe}', na: '1', ml: 9, size: 'medium', weapons: ['battle-axe'], notes: 'A scarred orc who rules its band by strength; the band breaks more easily once it falls.' },
  { name: 'Gnoll', folder: 'humanoids', hd: '2', ac: 5, mv: 9, attacks: '{flail}; MISSILE: {long-bow}', na: '1d6', ml: 8, size: 'large', weapons: ['flail', 'long-bow'], notes: 'Tall hyena-headed marauders that roam in packs and take captives to sell.' },
  { name: 'Bugbear', folder: 'humanoids', hd: '3+1', ac: 5, mv: 9, attacks: '{morning-star}', na: '2d4', ml: 9, size: 'large', weapons: ['morning-star'], sOn: 3, notes: 'Hulking, hairy goblin kin that move with surprising quiet and love an ambush.' },
  { name: 'Lizard man', folder: 'humanoids', hd: '2+1', ac: 5, mv: 6, attacks: '{spear}; claw/claw/bite (1d2/1d2/1d8)', na: '2d4', ml: 12, size: 'medium', weapons: ['spear'], notes: 'Swamp-dwelling reptile folk who fight with spear or with claws and jaws. They swim as well as they walk.' },
  { name: 'Troglodyte', folder: 'humanoids', hd: '2', ac: 5, mv: 12, attacks: '2 claws (1d3/1d3) and bite (2-5)', na: '1d8', ml: 9, size: 'medium', sOn: 4, notes: 'Cave reptiles whose skin changes colour to hide them. Their musk sickens those nearby.' },
  { name: 'Berserker', folder: 'humanoids', hd: '1+1', ac: 7, mv: 12, attacks: '{broad-sword}', na: '1d6', ml: 12, size: 'medium', weapons: ['broad-sword'], notes: 'Warriors who work themselves into a killing frenzy and never flee a fight.' },
  { name: 'Bandit', folder: 'humanoids', hd: '1', ac: 6, mv: 12, attacks: '{short-sword}; MISSILE: {short-bow}', na: '1d4', ml: 8, size: 'medium', weapons: ['short-sword', 'short-bow'], notes: 'Outlaws who waylay travellers on lonely roads and run when the odds turn.' },
  { name: 'Bandit leader', folder: 'humanoids', hd: '3', ac: 4, mv: 12, attacks: '{long-sword}; MISSILE: {light-crossbow}', na: '1', ml: 9, size: 'medium', weapons: ['long-sword', 'light-crossbow'], notes: 'A seasoned outlaw in good armour who leads from the front.' },
  { name: 'Man-at-arms', folder: 'humanoids', hd: '1', ac: 4, mv: 9, attacks: '{halberd}; MISSILE: {heavy-crossbow}', na: '2d6', ml: 8, size: 'medium', weapons: ['halberd', 'heavy-crossbow'], notes: 'A paid soldier in mail who holds a line or a gate as long as the pay lasts.' },
  { name: 'Acolyte', folder: 'humanoids', hd: '1', ac: 5, mv: 9, attacks: '{mace}', na: '1d6', ml: 7, size: 'medium', weapons: ['mace'], notes: 'A novice of a temple or cult, armoured and armed with a blunt weapon.' },
  { name: 'Caveman', folder: 'humanoids', hd: '2', ac: 8, mv: 12, attacks: '{club}', na: '1d10', ml: 7, size: 'medium', weapons: ['club'], notes: 'Strong, primitive hunters who fight with clubs and stones.' },
  { name: 'Merman', folder: 'humanoids', hd: '1+1', ac: 7, mv: 1, attacks: '{trident}; MISSILE: {heavy-crossbow}', na: '1d20', ml: 8, size: 'medium', weapons: ['trident', 'heavy-crossbow'], notes: 'Fish-tailed folk of the shallows, nearly helpless on land. They swim at 18".' },
  { name: 'Sahuagin', folder: 'humanoids', hd: '2+2', ac: 5, mv: 12, attacks: '{trident}; 2 claws (1d2/1d2) and bite (1d4)', na: '1d4', ml: 9, size: 'medium', weapons: ['trident'], notes: 'Savage sea devils that raid coasts by night and are driven mad by the smell of blood.' },

  // Giants and giant kin
  { name: 'Ogre', folder: 'giants', hd: '4+1', ac: 5, mv: 9, attacks: 'great club (1d10)', na: '1d6', ml: 10, size: 'large', notes: 'Huge, greedy brutes that swing clubs the size of small trees.' },
  { name: 'Troll', folder: 'giants', hd: '6+6', ac: 4, mv: 12, attacks: '2 claws (1d4+4/1d4+4) and bite (2d6)', na: '1d8', ml: 10, size: 'large', notes: 'Lanky, rubbery horrors that regrow 3 hp a round. Only fire or acid keeps them down.' },
  { name: 'Hill giant', folder: 'giants', hd: '8+2', ac: 4, mv: 12, attacks: 'giant club (2d8); MISSILE: hurled rock (2d8)', na: '1d4', ml: 8, size: 'large', notes: 'Dull, bullying giants of the foothills who hurl boulders at anything in range.' },
  { name: 'Stone giant', folder: 'giants', hd: '9+2', ac: 0, mv: 12, attacks: 'stone club (3d6); MISSILE: hurled rock (3d10)', na: '1d2', ml: 9, size: 'large', notes: 'Grey, stony-skinned giants of the high crags, the best rock-throwers of their kind.' },
  { name: 'Frost giant', folder: 'giants', hd: '10+2', ac: 4, mv: 12, attacks: 'great axe (4d6); MISSILE: hurled rock (2d10)', na: '1d2', ml: 9, size: 'large', notes: 'White-haired giants of the ice fields who cannot be harmed by cold.' },
  { name: 'Fire giant', folder: 'giants', hd: '11+2', ac: 3, mv: 12, attacks: 'great sword (5d6); MISSILE: hurled rock (2d10)', na: '1d2', ml: 9, size: 'large', notes: 'Soot-skinned giants of the volcanoes who cannot be harmed by fire.' },
  { name: 'Ettin', folder: 'giants', hd: '10', ac: 3, mv: 12, attacks: '2 clubs (2d8/3d6)', na: '1', ml: 9, size: 'large', sdOn: 1, notes: 'A two-headed giant: one head is always awake, so it is hard to take unawares.' },

  // Undead
  { name: 'Skeleton', folder: 'undead', hd: '1', ac: 7, mv: 12, attacks: '{short-sword}', na: '3d4', ml: 12, size: 'medium', weapons: ['short-sword'], never: true, notes: 'Animated bones that obey their maker without fear. Sleep, charm and other mind magic do nothing to them.' },
  { name: 'Zombie', folder: 'undead', hd: '2', ac: 8, mv: 6, attacks: 'strike (1d8)', na: '2d4', ml: 12, size: 'medium', never: true, notes: 'A slow, mindless corpse that always strikes last in the round. Mind magic does nothing to it.' },
  { name: 'Ghoul', folder: 'undead', hd: '2', ac: 6, mv: 9, attacks: '2 claws (1d3/1d3) and bite (1d6) plus paralysis', na: '1d6', ml: 9, size: 'medium', notes: 'Corpse-eaters whose touch paralyses; elves are immune to that touch.' },
  { name: 'Ghast', folder: 'undead', hd: '4', ac: 4, mv: 15, attacks: '2 claws (1d4/1d4) and bite (1d8) plus paralysis', na: '1d4', ml: 10, size: 'medium', notes: 'A stronger ghoul wrapped in a sickening stench; even elves are not safe from its touch.' },
  { name: 'Wight', folder: 'undead', hd: '4+3', ac: 5, mv: 12, attacks: 'claw (1d4) plus energy drain', na: '1d6', ml: 12, size: 'medium', notes: 'A barrow-dweller whose touch drains life levels. Only silver or magic weapons harm it.' },
  { name: 'Wraith', folder: 'undead', hd: '5+3', ac: 4, mv: 12, attacks: 'touch (1d6) plus energy drain', na: '1d6', ml: 12, size: 'medium', notes: 'A shadowy, flying spirit (24") whose chill touch drains life levels. Only silver or magic weapons harm it.' },
  { name: 'Shadow', folder: 'undead', hd: '3+3', ac: 7, mv: 12, attacks: 'touch (1d4+1) plus strength drain', na: '2d10', ml: 12, size: 'medium', sOn: 5, notes: 'A living darkness, nearly invisible, whose touch saps strength. Only magic weapons harm it.' },
  { name: 'Mummy', folder: 'undead', hd: '6+3', ac: 3, mv: 6, attacks: 'fist (1d12) plus rotting disease', na: '1d4', ml: 12, size: 'medium', notes: 'A wrapped corpse whose blow spreads a rotting disease; the sight of it can freeze the brave with fear.' },
  { name: 'Spectre', folder: 'undead', hd: '7+3', ac: 2, mv: 15, attacks: 'touch (1d8) plus double energy drain', na: '1d6', ml: 11, size: 'medium', notes: 'A hateful, flying ghost (30") whose touch drains two life levels. Sunlight leaves it powerless.' },
  { name: 'Vampire', folder: 'undead', hd: '8+3', ac: 1, mv: 12, attacks: 'fist (1d6+4) plus energy drain', na: '1d4', ml: 11, size: 'medium', notes: 'A proud undead noble who drains life and regenerates 3 hp a round. Garlic, mirrors and holy symbols hold it off.' },

  // Beasts and vermin
  { name: 'Wolf', folder: 'beasts', hd: '2+2', ac: 7, mv: 18, attacks: 'bite (1d4+1)', na: '2d6', ml: 8, size: 'medium', notes: 'Pack hunters that circle and harry their prey; a pack often breaks once its leader falls.' },
  { name: 'Dire wolf', folder: 'beasts', hd: '3+3', ac: 6, mv: 18, attacks: 'bite (2d4)', na: '1d4', ml: 8, size: 'large', notes: 'A huge, savage wolf of the wild places, sometimes ridden by goblins.' },
  { name: 'War dog', folder: 'beasts', hd: '2+2', ac: 6, mv: 12, attacks: 'bite (2d4)', na: '1d6', ml: 9, size: 'medium', notes: 'A big hound trained to fight beside its handler, often wearing a spiked collar.' },
  { name: 'Jackal', folder: 'beasts', hd: '½', ac: 7, mv: 12, attacks: 'bite (1d2)', na: '3d4', ml: 7, size: 'small', notes: 'Cowardly scavengers that attack only in numbers.' },
  { name: 'Giant rat', folder: 'beasts', hd: '½', ac: 7, mv: 12, attacks: 'bite (1d3) plus disease', na: '3d6', ml: 8, size: 'small', notes: 'Dog-sized sewer rats whose bite may carry disease. They swim well.' },
  { name: 'Giant spider', folder: 'beasts', hd: '4+4', ac: 4, mv: 3, attacks: 'bite (2d4 [poison])', na: '1d4', ml: 8, size: 'large', sOn: 3, notes: 'A web-spinner the size of a horse whose bite is deadly poison. It runs across its webs at 12".' },
  { name: 'Large spider', folder: 'beasts', hd: '1+1', ac: 8, mv: 6, attacks: 'bite (1 [poison])', na: '2d10', ml: 7, size: 'small', notes: 'A spider as big as a cat with a weak but venomous bite; it runs across webs at 15".' },
  { name: 'Giant centipede', folder: 'beasts', hd: '½', ac: 9, mv: 15, attacks: 'bite (1 [poison])', na: '2d12', ml: 7, size: 'small', notes: 'A foot-long centipede whose weak poison can still sicken the careless.' },
  { name: 'Giant ant', folder: 'beasts', hd: '2', ac: 3, mv: 18, attacks: 'bite (1d6)', na: '1d10', ml: 7, size: 'small', notes: 'Hard-shelled ants as large as dogs that fight to the death near their nest.' },
  { name: 'Fire beetle', folder: 'beasts', hd: '1+2', ac: 4, mv: 12, attacks: 'bite (2d4)', na: '1d8', ml: 7, size: 'small', notes: 'A beetle with glowing glands that keep shining for days after it dies.' },
  { name: 'Stirge', folder: 'beasts', hd: '1+1', ac: 8, mv: 3, attacks: 'beak (1d3) plus blood drain', na: '3d9', ml: 9, size: 'small', aac0: 15, notes: 'A bird-like bloodsucker that flies at 18" and strikes as a 4 HD monster. Once attached it drains blood every round.' },
  { name: 'Giant toad', folder: 'beasts', hd: '2+4', ac: 6, mv: 6, attacks: 'bite (2d4)', na: '1d12', ml: 6, size: 'medium', notes: 'A toad as big as a pony that leaps 6" to bite.' },
  { name: 'Poisonous snake', folder: 'beasts', hd: '2', ac: 6, mv: 15, attacks: 'bite (1d3 [poison])', na: '1d6', ml: 7, size: 'small', notes: 'A quick, venomous snake that strikes before it flees.' },
  { name: 'Wild boar', folder: 'beasts', hd: '3+3', ac: 7, mv: 15, attacks: 'tusks (3d4)', na: '1d12', ml: 9, size: 'medium', notes: 'A bad-tempered boar that keeps fighting for a while after it should be dead.' },
  { name: 'Giant weasel', folder: 'beasts', hd: '3+3', ac: 6, mv: 15, attacks: 'bite (2d6) plus blood drain', na: '1d6', ml: 8, size: 'medium', notes: 'A long, fierce weasel that hangs on after a bite and drains blood.' },
  { name: 'Black bear', folder: 'beasts', hd: '3+3', ac: 7, mv: 12, attacks: '2 claws (1d3/1d3) and bite (2d4)', na: '1d3', ml: 7, size: 'medium', notes: 'A forest bear that avoids people unless hungry or guarding cubs. Both claws hitting means a hug.' },
  { name: 'Brown bear', folder: 'beasts', hd: '5+5', ac: 6, mv: 12, attacks: '2 claws (1d6/1d6) and bite (1d8)', na: '1d2', ml: 8, size: 'large', notes: 'A large bear that keeps fighting a little while after it is slain.' },
  { name: 'Cave bear', folder: 'beasts', hd: '6+6', ac: 6, mv: 12, attacks: '2 claws (1d8/1d8) and bite (1d12)', na: '1d2', ml: 9, size: 'large', notes: 'A huge, ill-tempered bear of the caves and old forests.' },
  { name: 'Crocodile', folder: 'beasts', hd: '3', ac: 5, mv: 6, attacks: 'bite (2d4) and tail (1d12)', na: '3d8', ml: 7, size: 'large', sOn: 3, notes: 'A river ambusher that waits under the surface; it swims at 12".' },
  { name: 'Giant lizard', folder: 'beasts', hd: '3+1', ac: 5, mv: 15, attacks: 'bite (1d8)', na: '1d6', ml: 7, size: 'large', notes: 'A long-bodied lizard that drags prey into its burrow.' },
  { name: 'Lion', folder: 'beasts', hd: '5+2', ac: 5, mv: 12, attacks: '2 claws (1d4/1d4) and bite (1d10)', na: '1d8', ml: 9, size: 'large', sdOn: 1, notes: 'A great cat of the grasslands that hunts in prides. Rear claws rake for 2d6 when both forepaws hit.' },
  { name: 'Tiger', folder: 'beasts', hd: '5+5', ac: 6, mv: 12, attacks: '2 claws (1d4+1/1d4+1) and bite (1d10)', na: '1d4', ml: 9, size: 'large', sdOn: 1, notes: 'A striped stalker, rarely caught off guard. Rear claws rake for 2d4 when both forepaws hit.' },
  { name: 'Carnivorous ape', folder: 'beasts', hd: '5', ac: 6, mv: 12, attacks: '2 claws (1d4/1d4) and bite (1d8)', na: '1d4', ml: 7, size: 'large', sdOn: 1, notes: 'A large, unusually clever ape that hunts men.' },
  { name: 'Giant scorpion', folder: 'beasts', hd: '5+5', ac: 3, mv: 15, attacks: '2 pincers (1d10/1d10) and sting (1d4 [poison])', na: '1d6', ml: 11, size: 'large', notes: 'A desert scorpion as big as a horse; its sting is deadly poison.' },

  // Monstrosities
  { name: 'Owlbear', folder: 'monstrosities', hd: '5+2', ac: 5, mv: 12, attacks: '2 claws (1d6/1d6) and bite (2d6) plus hug (2d8)', na: '1d4', ml: 9, size: 'large', notes: 'A furious owl-headed bear. When a claw hits on a high roll it hugs its victim for 2d8 more.' },
  { name: 'Minotaur', folder: 'monstrosities', hd: '6+3', ac: 6, mv: 12, attacks: 'horns (2d4) and bite (1d4)', na: '1d8', ml: 12, size: 'large', sdOn: 1, notes: 'A bull-headed man-eater that never gets lost in a maze and often wields a great axe as well.' },
  { name: 'Gargoyle', folder: 'monstrosities', hd: '4+4', ac: 5, mv: 9, attacks: '2 claws (1d3/1d3), bite (1d6) and horn (1d4)', na: '1d6', ml: 11, size: 'medium', notes: 'A winged stone-skinned fiend (15" flying) that only magic weapons harm.' },
  { name: 'Harpy', folder: 'monstrosities', hd: '3', ac: 7, mv: 6, attacks: '2 claws (1d3/1d3) and weapon (1d6) plus charming song', na: '1d6', ml: 7, size: 'medium', notes: 'A vulture-winged hag (15" flying) whose song lures listeners to their death.' },
  { name: 'Hell hound', folder: 'monstrosities', hd: '5', ac: 4, mv: 12, attacks: 'bite (1d10) plus fire breath (5)', na: '2d4', ml: 9, size: 'medium', sOn: 4, notes: 'A red-black hound that breathes fire for 1 hp per hit die. It is hard to surprise and hard to escape.' },
  { name: 'Basilisk', folder: 'monstrosities', hd: '6+1', ac: 4, mv: 6, attacks: 'bite (1d10) plus petrifying gaze', na: '1d4', ml: 9, size: 'medium', notes: 'An eight-legged lizard whose gaze turns flesh to stone; its own reflected gaze is as dangerous to it.' },
  { name: 'Cockatrice', folder: 'monstrosities', hd: '5', ac: 6, mv: 6, attacks: 'beak (1d3) plus petrifying touch', na: '1d4', ml: 7, size: 'small', notes: 'A rooster with a serpent\'s tail (18" flying) whose touch turns flesh to stone.' },
  { name: 'Griffon', folder: 'monstrosities', hd: '7', ac: 3, mv: 12, attacks: '2 claws (1d4/1d4) and bite (2d8)', na: '2d8', ml: 8, size: 'large', notes: 'An eagle-lion that flies at 30" and craves horseflesh above all.' },
  { name: 'Hippogriff', folder: 'monstrosities', hd: '3+3', ac: 5, mv: 18, attacks: '2 claws (1d6/1d6) and bite (1d10)', na: '2d8', ml: 8, size: 'large', notes: 'A half-eagle, half-horse flier (36") that nests on high cliffs.' },
  { name: 'Manticore', folder: 'monstrosities', hd: '6+3', ac: 4, mv: 12, attacks: '2 claws (1d3/1d3) and bite (1d8); MISSILE: 6 tail spikes (1d6)', na: '1d4', ml: 9, size: 'large', notes: 'A man-faced lion with bat wings (18" flying) that looses volleys of tail spikes, 24 in all.' },
  { name: 'Chimera', folder: 'monstrosities', hd: '9', ac: 6, mv: 9, attacks: '2 claws (1d3/1d3), 2 horns (1d4/1d4), lion bite (2d4) and dragon bite (3d4)', na: '1d4', ml: 9, size: 'large', notes: 'A three-headed horror of lion, goat and dragon that flies at 18". The dragon head breathes fire for 3d8.' },
  { name: 'Wyvern', folder: 'monstrosities', hd: '7+7', ac: 3, mv: 6, attacks: 'bite (2d8) and sting (1d6 [poison])', na: '1d6', ml: 9, size: 'large', notes: 'A two-legged dragon kin that flies at 24"; the sting in its tail is deadly poison.' },
  { name: 'Werewolf', folder: 'monstrosities', hd: '4+3', ac: 5, mv: 15, attacks: 'bite (2d4)', na: '1d6', ml: 9, size: 'medium', sOn: 3, notes: 'A man who becomes a wolf, harmed only by silver or magic. Its bite can pass the curse on.' },
  { name: 'Wererat', folder: 'monstrosities', hd: '3+1', ac: 6, mv: 12, attacks: 'bite (1d4)', na: '1d8', ml: 8, size: 'small', sOn: 4, notes: 'A sly shapechanger of the sewers, harmed only by silver or magic.' },
  { name: 'Doppelganger', folder: 'monstrosities', hd: '4', ac: 5, mv: 9, attacks: 'fist (1d12)', na: '1d6', ml: 10, size: 'medium', sOn: 4, notes: 'A grey shapeshifter that takes the form of someone it has seen and waits for its moment. Sleep and charm do nothing to it.' },

  // Oozes and jellies
  { name: 'Gelatinous cube', folder: 'oozes', hd: '4', ac: 8, mv: 6, attacks: 'touch (2d4) plus paralysis', na: '1', ml: 12, size: 'large', sOn: 3, never: true, notes: 'A clear cube of jelly that fills a corridor, engulfing and dissolving what it passes over.' },
  { name: 'Ochre jelly', folder: 'oozes', hd: '6', ac: 8, mv: 3, attacks: 'touch (3d4)', na: '1', ml: 12, size: 'large', never: true, notes: 'An acidic yellow ooze that seeps under doors. Lightning splits it into smaller jellies.' },
  { name: 'Gray ooze', folder: 'oozes', hd: '3+3', ac: 8, mv: 1, attacks: 'touch (2d8)', na: '1', ml: 12, size: 'medium', sOn: 3, never: true, notes: 'A wet, stone-coloured ooze whose acid eats through metal armour and weapons.' },
];

/* ---------------- derivations (README: Classic monsters under individual-speed) ---------------- */

const HALF = /^(?:½|1\/2|0?\.5)$/;

function hitDice(text) {
  if (HALF.test(text)) return { dice: 0.5, modifier: 0, text: '½' };
  const m = /^(\d+)(?:([+-])(\d+))?$/.exec(text);
  if (!m) throw new Error(`hit dice "${text}" unreadable`);
  const modifier = m[2] ? (m[2] === '-' ? -1 : 1) * Number(m[3]) : 0;
  return { dice: Number(m[1]), modifier, text };
}

/** Hit points: the average of NdM + N×bonus (d8; ½ = 1d4), rounded half up, at least 1. */
function averageHp(hd) {
  return Math.max(1, Math.round(exactAverage(hd)));
}

function exactAverage(hd) {
  return hd.dice === 0.5 ? 2.5 : hd.dice * 4.5 + hd.dice * hd.modifier;
}

/** Seed 001's overall (= saving throw) hit dice: +1 per started 4 points of bonus. */
function overallHd(hd) {
  return hd.dice + (hd.modifier > 0 ? Math.ceil(hd.modifier / 4) : 0);
}

/**
 * AAC0 by the monster attack table (the classic first-edition matrix read at
 * AC 0), rows by seed 001's attack hit dice: +1-3 → the "N+" row, +4 or more
 * → one more hit die.
 */
function aac0Of(hd) {
  if (hd.dice === 0.5 || (hd.dice === 1 && hd.modifier < 0)) return 20;
  const dice = hd.modifier >= 4 ? hd.dice + 1 : hd.dice;
  const plus = hd.modifier >= 1 && hd.modifier <= 3;
  if (dice === 1) return plus ? 18 : 19;
  if (dice <= 3) return 16;
  if (dice <= 5) return 15;
  if (dice <= 7) return 13;
  if (dice <= 9) return 12;
  if (dice <= 11) return 10;
  if (dice <= 13) return 9;
  if (dice <= 15) return 8;
  return 7;
}

/** Morale: the stat block's 2d6 figure as the chance in 100 that 2d6 rolls at or under it. */
function moralePercent(ml) {
  let hits = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b <= ml) hits++;
  return Math.round((hits * 100) / 36);
}

const SIZE_STRENGTH = { small: 6, medium: 10, large: 14 };
const SIZE_AGILITY = { small: 1, medium: 0, large: -1 };

/** individual-speed's figures from HD, AC and size (the README formula). */
function individualOf(hd, ac, size, aac0) {
  const strength = Math.min(30, SIZE_STRENGTH[size] + Math.floor(overallHd(hd) / 2));
  const strMod = Math.floor((strength - 10) / 2);
  const stress = Math.max(1, Math.round(exactAverage(hd) + hd.dice * strMod));
  const protection = 10 - ac;
  const armour = Math.max(0, Math.floor(protection / 3));
  return {
    agility: SIZE_AGILITY[size],
    insight: 0,
    stress: { value: stress, max: stress },
    wounds: { value: strength, max: strength },
    defense: protection - armour,
    armour,
    attackBonus: 20 - aac0,
    strength,
  };
}

/* ---------------- embedded items ---------------- */

const sourceCache = new Map();

function itemSource(pack, slug, missing) {
  const key = `${pack}/${slug}`;
  if (!sourceCache.has(key)) sourceCache.set(key, readItemSource(pack, slug));
  const source = sourceCache.get(key);
  if (!source) missing.push(key);
  return source;
}

function readItemSource(pack, slug) {
  const dir = join(SOURCES, pack);
  const found = existsSync(dir) ? findFile(dir, `${slug}.yml`) : null;
  if (!found) return null;
  const source = parse(readFileSync(found, 'utf8'));
  const id = packId(pack, slug);
  // The packs' ids are packId(pack, slug) (scripts/packs/ids.mjs); a source still on an older id is named, not copied.
  if (source._id !== id) console.warn(`monsters: warning: ${pack}/${slug}.yml has _id ${source._id}, not packId('${pack}', '${slug}') = ${id}; the embedded copy uses ${id}`);
  return source;
}

function findFile(dir, file) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = findFile(path, file);
      if (inner) return inner;
    } else if (entry.name === file) return path;
  }
  return null;
}


function embedded(actorId, pack, slug, source) {
  const id = packId(pack, slug);
  return {
    _id: id,
    _key: `!actors.items!${actorId}.${id}`,
    name: source.name,
    type: source.type,
    img: source.img,
    system: { ...source.system, ...(CARRIED[source.type] ?? {}) },
    effects: [],
    flags: {},
    _stats: { compendiumSource: `Compendium.ten-segments.${pack}.Item.${id}` },
  };
}

/** "{slug}" → "<weapon name> (<damage>)" from the weapon's source. */
function expandAttacks(text, weapons, row) {
  return text.replace(/\{([a-z0-9-]+)\}/g, (_, slug) => {
    const w = weapons.get(slug);
    if (!w) throw new Error(`${row.name}: attack names {${slug}}, which is not in its weapons`);
    const name = w.name.toLowerCase();
    const damage = w.system.damage.small;
    // A missile weapon shot more than once a round shoots its rate in one routine (seed 001: "an orc fires a short bow twice").
    const rate = w.system.kind === 'missile' && Number.isInteger(w.system.rate) && w.system.rate > 1 ? w.system.rate : 1;
    if (rate === 1) return `${name} (${damage})`;
    const shots = /crossbow/.test(name) ? 'bolts' : /bow/.test(name) ? 'arrows' : /sling/.test(name) ? 'stones' : 'shots';
    return `${rate} ${name} ${shots} (${Array(rate).fill(damage).join('/')})`;
  });
}

/* ---------------- generation ---------------- */

function build() {
  const missing = [];
  const slugs = new Set();
  const docs = [];
  for (const row of M) {
    const slug = row.slug ?? slugOf(row.name);
    if (slugs.has(slug)) throw new Error(`duplicate slug ${slug}`);
    slugs.add(slug);
    const id = packId(PACK, slug);
    const weapons = new Map();
    const items = [];
    for (const w of row.weapons ?? []) {
      const source = itemSource('weapons', w, missing);
      if (!source) continue;
      weapons.set(w, source);
      items.push(embedded(id, 'weapons', w, source));
    }
    for (const s of row.spells ?? []) {
      const source = itemSource('spells', s, missing);
      if (source) items.push(embedded(id, 'spells', s, source));
    }
    if (missing.length > 0) continue;
    const hd = hitDice(row.hd);
    const aac0 = row.aac0 ?? aac0Of(hd);
    const hp = averageHp(hd);
    const size = row.size;
    const grid = size === 'large' ? 2 : 1;
    const folder = FOLDERS[row.folder];
    if (!folder) throw new Error(`${row.name}: no folder ${row.folder}`);
    docs.push({
      folderKey: row.folder,
      slug,
      doc: {
        _id: id,
        _key: `!actors!${id}`,
        name: row.name,
        type: 'monster',
        img: folder.img,
        folder: folderId(row.folder),
        system: {
          hitDice: hd.text,
          hp: { value: hp, max: hp },
          ac: row.ac,
          size,
          aac0: String(aac0),
          movement: { base: row.mv * 10, charge: 0 },
          attacks: expandAttacks(row.attacks, weapons, row),
          routines: row.routines ?? 1,
          surprise: {
            surprisedOn: row.sdOn ?? 0,
            surprisesOn: row.sOn ?? 0,
            surprisedAdjust: 0,
            surprisesOthersAdjust: 0,
            neverSurprised: row.never === true,
          },
          morale: moralePercent(row.ml),
          numberAppearing: row.na,
          individual: individualOf(hd, row.ac, size, aac0),
          notes: `<p>${escapeHtml(row.notes)}</p>`,
        },
        items,
        effects: [],
        flags: {},
        prototypeToken: {
          name: row.name,
          actorLink: false,
          disposition: -1,
          width: grid,
          height: grid,
          texture: { src: folder.img },
        },
      },
    });
  }
  if (missing.length > 0) {
    const list = [...new Set(missing)].sort();
    throw new Error(`missing item sources (packs/_source/<pack>/<slug>.yml): ${list.join(', ')}`);
  }
  return docs;
}

function folderId(key) {
  return packId(PACK, `folder-${key}`);
}

function folderDoc(key, sort) {
  const id = folderId(key);
  return { _id: id, _key: `!folders!${id}`, name: FOLDERS[key].name, type: 'Actor', folder: null, sorting: 'a', sort, color: null, description: '', flags: {} };
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function files() {
  const out = new Map();
  Object.keys(FOLDERS).forEach((key, i) => out.set(join(key, '_folder.yml'), folderDoc(key, (i + 1) * 100000)));
  for (const { folderKey, slug, doc } of build()) out.set(join(folderKey, `${slug}.yml`), doc);
  return new Map([...out].map(([path, doc]) => [path, stringify(doc, { lineWidth: 0 })]));
}

export const MONSTER_TABLE = M;

function main() {
  const check = process.argv.includes('--check');
  let wanted;
  try {
    wanted = files();
  } catch (error) {
    console.error(`monsters: ${error.message}`);
    process.exit(1);
  }
  const existing = new Map();
  const walk = (dir, rel) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), join(rel, e.name));
      else if (e.name.endsWith('.yml')) existing.set(join(rel, e.name), readFileSync(join(dir, e.name), 'utf8'));
    }
  };
  walk(OUT, '');
  const changed = [...wanted].filter(([p, t]) => existing.get(p) !== t).map(([p]) => p);
  const stale = [...existing.keys()].filter((p) => !wanted.has(p));
  if (check) {
    if (changed.length || stale.length) {
      console.error(`monsters: out of date (${[...changed, ...stale].join(', ')}); run node scripts/packs/monsters.mjs`);
      process.exit(1);
    }
    console.log(`monsters: ${wanted.size - Object.keys(FOLDERS).length} monsters up to date`);
    return;
  }
  for (const p of stale) rmSync(join(OUT, p));
  for (const [p, t] of wanted) {
    mkdirSync(dirname(join(OUT, p)), { recursive: true });
    writeFileSync(join(OUT, p), t);
  }
  console.log(`monsters: wrote ${wanted.size - Object.keys(FOLDERS).length} monsters in ${Object.keys(FOLDERS).length} folders (${changed.length} files changed, ${stale.length} removed)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
