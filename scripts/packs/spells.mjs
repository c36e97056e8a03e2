#!/usr/bin/env node
/**
 * The `spells` pack's sources, generated from the table below:
 *   node scripts/packs/spells.mjs   → packs/_source/spells/<class>/level-<n>/<slug>.yml (+ _folder.yml each)
 *
 * Levels 1–4 of the four casting classes (magic-user, cleric, druid,
 * illusionist). The facts are the old-school spell tables: level, casting
 * time (segments, or rounds; a turn is 10 rounds), range, duration, area of
 * effect and saving throw. Ranges and areas given there in inches are
 * written here in feet, 1" = 10 ft. A spell that stands on two lists with
 * the same level and figures is one entry whose `classes` names both (it
 * sits in the first class's folder); where the lists differ, the entry is
 * the first class's version.
 *
 * Individual speed's casting TN is not in the old tables: it is 10 + 2 ×
 * level here (so the spell speed, TN − 10, is twice the level). Every entry
 * is unmemorized (memorized 0, expended 0). Descriptions are our own.
 *
 * Ids are packId('spells', slug) (scripts/packs/ids.mjs), folders'
 * packId('spells', 'folder:<class>') and packId('spells', 'folder:<class>/level-<n>').
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { packId, slugOf } from './ids.mjs';

const PACK = 'spells';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'packs', '_source', PACK);

const CLASSES = {
  mu: { id: 'magic-user', name: 'Magic-user', sort: 100000, img: 'icons/svg/book.svg' },
  cl: { id: 'cleric', name: 'Cleric', sort: 200000, img: 'icons/svg/angel.svg' },
  dr: { id: 'druid', name: 'Druid', sort: 300000, img: 'icons/svg/oak.svg' },
  il: { id: 'illusionist', name: 'Illusionist', sort: 400000, img: 'icons/svg/eye.svg' },
};

/** The casting TN of individual speed: 10 + 2 × level. */
const castingTN = (level) => 10 + 2 * level;

// Icons from core's icons/svg.
const ICON = {
  fire: 'fire', bolt: 'lightning', sleep: 'sleep', light: 'light', dark: 'light-off', shield: 'mage-shield', heal: 'regen',
  hold: 'paralysis', web: 'net', invis: 'invisible', eye: 'eye', charm: 'daze', fear: 'terror', cold: 'frozen', ward: 'holy-shield',
  hush: 'silenced', blind: 'blind', deaf: 'deaf', poison: 'poison', plant: 'oak', beast: 'pawprint', door: 'teleport', fly: 'wing',
  sound: 'sound', aura: 'aura', skull: 'skull', sword: 'sword', up: 'upgrade', down: 'downgrade', hazard: 'hazard', book: 'book',
};

// [name, class (+ other classes with '+'), level, casting time ('<n>s' segments | '<n>r' rounds), range, duration, area, save, icon | '', description]
const SPELLS = [
  // Magic-user, level 1
  ['Burning hands', 'mu', 1, '1s', '0', 'instantaneous', 'fan of flame 3 ft long, 120° arc', 'none', 'fire', 'Thin sheets of flame fan out from the caster\'s fingertips, burning 1 point per level to each creature caught.'],
  ['Charm person', 'mu', 1, '1s', '120 ft', 'special', '1 person', 'negates', 'charm', 'One human or demi-human comes to regard the caster as a trusted friend and ally.'],
  ['Detect magic', 'mu', 1, '1s', '0', '2 rounds/level', '10-ft path, 60 ft long', 'none', 'eye', 'The caster sees a faint glow about magical things in the direction faced.'],
  ['Enlarge', 'mu', 1, '1s', '5 ft/level', '1 turn/level', '1 creature or object', 'negates', 'up', 'A creature or object grows by a fifth of its size per level; the reverse shrinks it.'],
  ['Feather fall', 'mu', 1, '1s', '10 ft/level', '1 segment/level', '1 creature or object, up to 200 lb/level', 'none', 'fly', 'A falling creature or object drifts down as lightly as a feather.'],
  ['Hold portal', 'mu', 1, '1s', '20 ft/level', '1 round/level', '80 sq ft/level', 'none', 'door', 'A door, gate or valve is held fast as if locked.'],
  ['Light', 'mu', 1, '1s', '60 ft', '6 turns/level', '20-ft radius globe', 'none', 'light', 'A glow like torchlight fills a globe around a point, an object or a creature; cast at the eyes, it can blind.'],
  ['Magic missile', 'mu', 1, '1s', '60 ft + 10 ft/level', 'instantaneous', '1 or more creatures', 'none', 'bolt', 'Darts of force fly unerringly at their targets, one for every two levels, each dealing 1d4+1.'],
  ['Protection from evil', 'mu', 1, '1s', 'touch', '2 rounds/level', 'creature touched', 'none', 'ward', 'A ward keeps summoned evil creatures from touching the recipient and hampers evil attackers.'],
  ['Read magic', 'mu', 1, '1r', '0', '2 rounds/level', 'special', 'none', 'book', 'The caster can read magical writing on scrolls and in books.'],
  ['Shield', 'mu', 1, '1s', '0', '5 rounds/level', 'the caster', 'none', 'shield', 'An invisible barrier in front of the caster stops magic missiles and turns other attacks.'],
  ['Sleep', 'mu', 1, '1s', '30 ft + 10 ft/level', '5 rounds/level', 'special', 'none', 'sleep', 'Creatures of few hit dice in the area fall into a magical slumber, the weakest first.'],
  ['Spider climb', 'mu', 1, '1s', 'touch', '1 round + 1 round/level', 'creature touched', 'negates', '', 'The recipient can climb walls and ceilings like a spider.'],
  ['Unseen servant', 'mu', 1, '1s', '0', '6 turns + 1 turn/level', '30-ft radius', 'none', '', 'An invisible, mindless force fetches, carries and cleans at the caster\'s word.'],
  // Magic-user, level 2
  ['Darkness', 'mu', 2, '2s', '10 ft/level', '1 turn + 1 round/level', '15-ft radius', 'none', 'dark', 'Utter darkness fills a sphere that no ordinary light can pierce.'],
  ['Detect invisibility', 'mu', 2, '2s', '10 ft/level', '5 rounds/level', '10-ft path', 'none', 'eye', 'The caster sees invisible, astral and ethereal things in the direction faced.'],
  ['ESP', 'mu', 2, '2s', '0', '1 round/level', '5 ft/level path', 'none', 'eye', 'The caster hears the surface thoughts of creatures nearby.'],
  ['Invisibility', 'mu+il', 2, '2s', 'touch', 'until the recipient attacks', 'creature touched', 'none', 'invis', 'The recipient vanishes from sight until it makes an attack.'],
  ['Knock', 'mu', 2, '1s', '60 ft', 'special', '10 sq ft/level', 'none', 'door', 'A locked, barred or stuck door or chest springs open.'],
  ['Levitate', 'mu', 2, '2s', '20 ft/level', '1 turn/level', '1 creature or object, up to 100 lb/level', 'negates', 'fly', 'The subject rises or sinks straight up or down at the caster\'s will.'],
  ['Mirror image', 'mu', 2, '2s', '0', '3 rounds/level', '6-ft radius', 'none', 'invis', 'Several illusory doubles of the caster appear; each vanishes when struck.'],
  ['Ray of enfeeblement', 'mu', 2, '2s', '10 ft + 2.5 ft/level', '1 round/level', '1 creature', 'negates', 'down', 'A ray saps a creature\'s strength, weakening its blows.'],
  ['Stinking cloud', 'mu', 2, '2s', '30 ft', '1 round/level', '20-ft cube', 'special', 'poison', 'A nauseating vapour leaves those inside helpless with retching.'],
  ['Web', 'mu', 2, '2s', '5 ft/level', '2 turns/level', '8,000 cubic ft (eight 10-ft cubes)', 'negates or ½', 'web', 'A mass of tough, sticky strands fills the area and holds fast whoever is caught.'],
  // Magic-user, level 3
  ['Dispel magic', 'mu', 3, '3s', '120 ft', 'permanent', '30-ft cube', 'none', 'aura', 'Spells and magical effects in the area may be ended, by the caster\'s level against theirs.'],
  ['Fireball', 'mu', 3, '3s', '100 ft + 10 ft/level', 'instantaneous', '20-ft radius globe', '½', 'fire', 'A bead of fire bursts at the chosen point, 1d6 damage per level to all within.'],
  ['Fly', 'mu', 3, '3s', 'touch', '1 turn/level + 1d6 turns', 'creature touched', 'none', 'fly', 'The recipient flies at will, as fast as a horse gallops.'],
  ['Haste', 'mu', 3, '3s', '60 ft', '3 rounds + 1 round/level', '40 × 40 ft', 'none', 'up', 'Creatures in the area move and attack twice as fast, and age a year from the strain.'],
  ['Hold person', 'mu', 3, '3s', '120 ft', '1 round/level', '1 to 4 persons', 'negates', 'hold', 'Up to four humans or humanoids are held rigid, unable to move.'],
  ['Invisibility, 10-ft radius', 'mu+il', 3, '3s', 'touch', 'special', '10-ft radius', 'none', 'invis', 'The recipient and all within ten feet of it vanish from sight; a creature that attacks reappears.'],
  ['Lightning bolt', 'mu', 3, '3s', '40 ft + 10 ft/level', 'instantaneous', '5 × 80 ft or 10 × 40 ft', '½', 'bolt', 'A stroke of lightning deals 1d6 per level along its path and rebounds from walls.'],
  ['Protection from normal missiles', 'mu', 3, '3s', 'touch', '1 turn/level', 'creature touched', 'none', 'shield', 'Arrows, bolts, stones and other ordinary missiles cannot harm the recipient.'],
  ['Slow', 'mu', 3, '3s', '90 ft + 10 ft/level', '3 rounds + 1 round/level', '40 × 40 ft', 'negates', 'down', 'Creatures in the area move and attack at half their speed.'],
  ['Suggestion', 'mu', 3, '3s', '30 ft', '6 turns + 6 turns/level', '1 creature', 'negates', 'charm', 'A reasonable-sounding course of action, spoken by the caster, is followed by the subject.'],
  ['Water breathing', 'mu', 3, '3s', 'touch', '1 hour/level', 'creature touched', 'none', '', 'The recipient can breathe water as freely as air.'],
  // Magic-user, level 4
  ['Charm monster', 'mu', 4, '4s', '60 ft', 'special', '1 creature, or several of few hit dice', 'negates', 'charm', 'As charm person, but any creature may be befriended.'],
  ['Confusion', 'mu', 4, '4s', '120 ft', '2 rounds + 1 round/level', 'up to 60 × 60 ft', 'special', 'charm', 'Creatures in the area wander, attack or stand about at random.'],
  ['Dimension door', 'mu', 4, '1s', '0', 'instantaneous', 'the caster', 'none', 'door', 'The caster steps through the air and appears up to 30 ft per level away.'],
  ['Fear', 'mu', 4, '4s', '0', 'special', 'cone 60 ft long, 30 ft across at the end', 'negates', 'fear', 'Creatures caught in the cone flee in panic and may drop what they hold.'],
  ['Fire shield', 'mu', 4, '4s', '0', '2 rounds + 1 round/level', 'the caster', 'none', 'fire', 'A sheath of flame guards the caster and returns double damage to whoever strikes in melee.'],
  ['Ice storm', 'mu', 4, '4s', '10 ft/level', '1 round', '30-ft diameter (hail) or 80-ft diameter (sleet)', 'none', 'cold', 'Great hailstones batter an area for 3d10, or driving sleet blinds and trips those in it.'],
  ['Polymorph self', 'mu', 4, '3s', '0', '2 turns/level', 'the caster', 'none', '', 'The caster takes the shape of another creature, gaining its way of moving but not its mind.'],
  ['Wall of fire', 'mu', 4, '4s', '60 ft', 'special', 'a wall 20 sq ft/level or a ring', 'none', 'fire', 'A wall of roaring flame burns all who pass through it and scorches those near one side.'],
  // Cleric, level 1
  ['Bless', 'cl', 1, '1r', '60 ft', '6 rounds', '50 × 50 ft', 'none', 'ward', 'Allies in the area gain +1 on attack rolls and on morale; the reverse curses foes.'],
  ['Command', 'cl', 1, '1s', '10 ft', '1 round', '1 creature', 'none', 'charm', 'A single word of command is obeyed by the subject for one round.'],
  ['Create water', 'cl', 1, '1r', '10 ft', 'permanent', '4 gallons/level', 'none', '', 'Clean drinking water appears in a container or on the ground.'],
  ['Cure light wounds', 'cl', 1, '5s', 'touch', 'permanent', 'creature touched', 'none', 'heal', 'A touch heals 1d8 hit points; the reverse inflicts as much.'],
  ['Detect evil', 'cl', 1, '1r', '0', '1 turn + 5 rounds/level', '10-ft path, 120 ft long', 'none', 'eye', 'The caster senses evil intent and evil things in the direction faced.'],
  ['Purify food and drink', 'cl', 1, '1r', '30 ft', 'permanent', '1 cubic ft/level', 'none', '', 'Spoiled, poisoned or tainted food and water are made wholesome.'],
  ['Remove fear', 'cl', 1, '1s', 'touch', 'special', 'creature touched', 'none', 'ward', 'Courage returns to a frightened creature, and it resists new fear for a while.'],
  ['Resist cold', 'cl', 1, '1r', 'touch', '1 turn/level', 'creature touched', 'none', 'cold', 'The recipient shrugs off natural cold and takes less harm from magical cold.'],
  ['Sanctuary', 'cl', 1, '4s', 'touch', '2 rounds + 1 round/level', 'the caster', 'negates', 'ward', 'Foes find themselves unable to attack the caster, who may not attack in turn.'],
  // Cleric, level 2
  ['Augury', 'cl', 2, '2r', '0', 'special', 'special', 'none', 'eye', 'The caster learns whether a course of action in the near future bodes well or ill.'],
  ['Chant', 'cl', 2, '10r', '0', 'while chanting', '30-ft radius', 'none', 'sound', 'While the chant lasts, allies gain +1 on attacks, damage and saves and foes suffer −1.'],
  ['Find traps', 'cl', 2, '5s', '0', '3 turns', '10-ft path, 30 ft long', 'none', 'eye', 'Traps in the caster\'s line of sight are revealed.'],
  ['Know alignment', 'cl', 2, '1r', '10 ft', '1 turn', '1 creature a round', 'negates', 'eye', 'The caster reads the moral bent of one creature each round.'],
  ['Resist fire', 'cl', 2, '5s', 'touch', '1 turn/level', 'creature touched', 'none', 'fire', 'The recipient ignores ordinary heat and takes less harm from magical fire.'],
  ['Silence, 15-ft radius', 'cl', 2, '5s', '120 ft', '2 rounds/level', '15-ft radius', 'none (negates if cast on a creature)', 'hush', 'No sound at all is made within the area, which stops spellcasting there.'],
  ['Slow poison', 'cl', 2, '1s', 'touch', '1 hour/level', 'creature touched', 'none', 'poison', 'Poison in the recipient\'s body is held back from working for the duration.'],
  ['Spiritual hammer', 'cl', 2, '5s', '30 ft', '1 round/level', 'special', 'none', 'sword', 'A hammer of force strikes as the caster directs, as a magic weapon.'],
  // Cleric, level 3
  ['Animate dead', 'cl', 3, '1r', '10 ft', 'permanent', 'special', 'none', 'skull', 'Bones or corpses rise as skeletons or zombies that obey the caster.'],
  ['Continual light', 'cl', 3, '6s', '120 ft', 'permanent', '60-ft radius', 'none', 'light', 'A light as bright as day shines until dispelled.'],
  ['Create food and water', 'cl', 3, '10r', '10 ft', 'special', '1 cubic ft/level', 'none', '', 'Plain food and water enough for three people per level appear.'],
  ['Cure blindness', 'cl', 3, '1r', 'touch', 'permanent', 'creature touched', 'none', 'blind', 'Blindness from any cause is healed.'],
  ['Cure disease', 'cl', 3, '10r', 'touch', 'permanent', 'creature touched', 'none', 'heal', 'A disease, even a magical one, is driven from the body.'],
  ['Prayer', 'cl', 3, '6s', '0', '1 round/level', '60-ft radius', 'none', 'ward', 'Allies gain +1 on attacks, damage and saves, and foes suffer −1, while the prayer lasts.'],
  ['Remove curse', 'cl', 3, '6s', 'touch', 'permanent', 'special', 'special', 'aura', 'A curse on a creature or an object is lifted.'],
  ['Speak with dead', 'cl', 3, '10r', '10 ft', 'special', '1 creature', 'special', 'skull', 'A corpse answers a few questions about what it knew in life.'],
  // Cleric, level 4
  ['Cure serious wounds', 'cl', 4, '7s', 'touch', 'permanent', 'creature touched', 'none', 'heal', 'A touch heals 2d8+1 hit points; the reverse inflicts as much.'],
  ['Divination', 'cl', 4, '10r', '0', 'special', 'special', 'none', 'eye', 'The caster learns of the dangers, treasure and powers of a nearby place.'],
  ['Neutralize poison', 'cl', 4, '7s', 'touch', 'permanent', 'creature or object touched', 'none', 'poison', 'Poison in a creature or substance is made harmless.'],
  ['Protection from evil, 10-ft radius', 'cl', 4, '7s', 'touch', '1 turn/level', '10-ft radius', 'none', 'ward', 'A ward about the recipient shields all within ten feet from evil creatures.'],
  ['Sticks to snakes', 'cl', 4, '7s', '30 ft', '2 rounds/level', '10-ft cube', 'none', 'beast', 'Sticks and staves in the area become snakes that fight for the caster.'],
  ['Tongues', 'cl', 4, '7s', '0', '1 turn', '30-ft radius', 'none', 'sound', 'The caster speaks and understands the language of any creature nearby.'],
  // Druid, level 1
  ['Detect snares and pits', 'dr', 1, '4s', '0', '4 rounds/level', '10-ft path, 40 ft long', 'none', 'eye', 'Traps, snares and pits ahead of the caster are revealed.'],
  ['Entangle', 'dr', 1, '3s', '80 ft', '1 turn', '40-ft diameter circle', '½', 'plant', 'Grass, weeds and vines twist about creatures in the area and hold them fast.'],
  ['Faerie fire', 'dr', 1, '3s', '80 ft', '4 rounds/level', '40 ft of outline/level', 'none', 'light', 'A pale glow outlines creatures and objects, making them easier to hit.'],
  ['Invisibility to animals', 'dr', 1, '4s', 'touch', '1 turn + 1 round/level', 'creature touched', 'none', 'invis', 'Ordinary animals can neither see nor smell the recipient.'],
  ['Pass without trace', 'dr', 1, '1r', 'touch', '1 turn/level', 'creature touched', 'none', 'beast', 'The recipient leaves no footprint or scent to follow.'],
  ['Shillelagh', 'dr', 1, '2s', 'touch', '4 rounds + 1 round/level', 'one club or staff', 'none', 'sword', 'A wooden club becomes a magic weapon that strikes harder.'],
  ['Speak with animals', 'dr', 1, '3s', '0', '2 rounds/level', '1 animal within 40 ft', 'none', 'beast', 'The caster can talk with one kind of animal, which may help if friendly.'],
  // Druid, level 2
  ['Barkskin', 'dr', 2, '3s', 'touch', '4 rounds + 1 round/level', 'creature touched', 'none', 'plant', 'The recipient\'s skin hardens like bark, improving its armour class and saves.'],
  ['Charm person or mammal', 'dr', 2, '3s', '80 ft', 'special', '1 person or mammal', 'negates', 'charm', 'One person or mammal comes to regard the caster as a friend.'],
  ['Heat metal', 'dr', 2, '5s', '40 ft', '7 rounds', 'metal of one creature per 2 levels', 'none', 'fire', 'Metal grows hotter and hotter, burning whoever wears or holds it; the reverse chills it.'],
  ['Obscurement', 'dr', 2, '5s', '0', '4 rounds/level', '10 × 10 ft per level', 'none', 'dark', 'A misty vapour rises around the caster and hides everything within it.'],
  ['Produce flame', 'dr', 2, '5s', '0', '2 rounds/level', 'special', 'none', 'fire', 'A flame appears in the caster\'s palm; it sheds light and can be hurled.'],
  ['Trip', 'dr', 2, '2s', 'touch', '1 turn/level', 'one object up to 10 ft long', 'negates', 'down', 'A stick or rope becomes a hidden trip line that fells whoever passes.'],
  ['Warp wood', 'dr', 2, '5s', '10 ft/level', 'permanent', 'wooden object', 'none', 'plant', 'Wooden shafts, doors and boards bend and twist out of true.'],
  // Druid, level 3
  ['Call lightning', 'dr', 3, '10r', '0', '1 turn/level', '360-ft radius', '½', 'bolt', 'In stormy weather, the caster calls a lightning bolt down each turn, 2d8 plus 1d8 per level.'],
  ['Hold animal', 'dr', 3, '5s', '80 ft', '2 rounds/level', '1 to 4 animals', 'negates', 'hold', 'Up to four animals are held motionless.'],
  ['Protection from fire', 'dr', 3, '5s', 'touch', 'special', 'creature touched', 'none', 'fire', 'The recipient is shielded from flame until the ward has soaked up its fill.'],
  ['Snare', 'dr', 3, '3r', 'touch', 'until triggered', '2-ft diameter loop', 'none', 'hazard', 'A vine or rope becomes a hidden noose that snatches whoever steps in it.'],
  ['Stone shape', 'dr', 3, '1r', 'touch', 'permanent', '1 cubic ft/level + 3', 'none', '', 'Stone is moulded by hand like clay.'],
  ['Summon insects', 'dr', 3, '1r', '30 ft', '1 round/level', '1 creature', 'none', 'beast', 'A swarm of biting insects engulfs one creature, which can do little but swat.'],
  ['Tree', 'dr', 3, '5s', '0', '6 turns + 1 turn/level', 'the caster', 'none', 'plant', 'The caster takes the form of a small tree or bush, indistinguishable from real growth.'],
  // Druid, level 4
  ['Animal summoning I', 'dr', 4, '6s', '40 ft/level', 'special', 'special', 'none', 'beast', 'Up to eight ordinary animals of the caster\'s choosing come to help.'],
  ['Hold plant', 'dr', 4, '6s', '80 ft', '1 round/level', '1 to 4 plants in 40 × 40 ft', 'negates', 'hold', 'Plants, including plant creatures, are held still.'],
  ['Protection from lightning', 'dr', 4, '6s', 'touch', 'special', 'creature touched', 'none', 'bolt', 'The recipient is shielded from electrical harm until the ward is spent.'],
  ['Repel insects', 'dr', 4, '1r', '0', '1 turn/level', '10-ft radius', 'none', 'beast', 'Insects cannot enter the area about the caster.'],
  // Illusionist, level 1
  ['Audible glamer', 'il', 1, '1s', '60 ft + 10 ft/level', '3 rounds/level', 'hearing range', 'special', 'sound', 'Illusory sounds rise and fade as the caster wills, from footsteps to a marching troop.'],
  ['Change self', 'il', 1, '1s', '0', '2d6 rounds + 2 rounds/level', 'the caster', 'none', '', 'The caster seems another person of similar size.'],
  ['Color spray', 'il', 1, '1s', '0', 'instantaneous', 'cone 20 ft long', 'special', 'daze', 'A fan of clashing colours stuns, blinds or knocks out creatures caught in it.'],
  ['Dancing lights', 'il+mu', 1, '1s', '40 ft + 10 ft/level', '2 rounds/level', 'special', 'none', 'light', 'Up to four floating lights move wherever the caster directs.'],
  ['Detect illusion', 'il', 1, '1s', '0', '3 rounds + 2 rounds/level', '10-ft path, 10 ft long/level', 'none', 'eye', 'Illusions in the caster\'s gaze are seen for what they are.'],
  ['Hypnotism', 'il', 1, '1s', '30 ft', '1 round + 1 round/level', '30-ft square', 'negates', 'charm', 'Creatures that meet the caster\'s gaze become open to a simple suggestion.'],
  ['Phantasmal force', 'il', 1, '1s', '60 ft + 10 ft/level', 'while concentrating', '400 sq ft + 100 sq ft/level', 'special', 'eye', 'A convincing illusion of sight appears; those who believe it can be harmed by it.'],
  ['Wall of fog', 'il', 1, '1s', '30 ft', '2d4 rounds + 1 round/level', '20-ft cube + 10-ft cube/level', 'none', 'dark', 'A wall of thick billowing fog blocks all sight.'],
  // Illusionist, level 2
  ['Blindness', 'il', 2, '2s', '30 ft', 'until dispelled', '1 creature', 'negates', 'blind', 'The subject\'s mind is made to believe it is blind.'],
  ['Blur', 'il', 2, '2s', '0', '3 rounds + 1 round/level', 'the caster', 'none', 'invis', 'The caster\'s outline wavers, spoiling attacks and aimed spells.'],
  ['Deafness', 'il', 2, '2s', '60 ft', 'until dispelled', '1 creature', 'negates', 'deaf', 'The subject\'s mind is made to believe it is deaf.'],
  ['Fog cloud', 'il', 2, '2s', '30 ft', '4 rounds + 1 round/level', '20 × 40 × 20 ft', 'none', 'dark', 'A cloud of fog rolls out and drifts with the wind.'],
  ['Hypnotic pattern', 'il', 2, '2s', '0', 'while concentrating', '30 × 30 ft', 'negates', 'charm', 'A twisting pattern of light holds watching creatures spellbound.'],
  ['Improved phantasmal force', 'il', 2, '2s', '60 ft + 10 ft/level', 'while concentrating + 2 rounds', '400 sq ft + 100 sq ft/level', 'special', 'eye', 'As phantasmal force, with sounds, and the caster may move while keeping it up.'],
  // Illusionist, level 3
  ['Non-detection', 'il', 3, '3s', '0', '1 turn/level', '5-ft radius', 'none', 'invis', 'The caster and those close by cannot be found by divination.'],
  ['Paralyzation', 'il', 3, '3s', '10 ft/level', 'special', '20 × 20 ft', 'negates', 'hold', 'Creatures in the area believe their bodies will not move, and stand helpless.'],
  ['Spectral force', 'il', 3, '3s', '60 ft + 10 ft/level', 'while concentrating + 3 rounds', '400 sq ft + 100 sq ft/level', 'special', 'eye', 'A full illusion of sight, sound, smell and heat that can wound those who believe it.'],
  // Illusionist, level 4
  ['Emotion', 'il', 4, '4s', '10 ft/level', 'while concentrating', '40 × 40 ft', 'negates', 'charm', 'The caster fills creatures in the area with fear, hate, hopelessness or rage.'],
  ['Improved invisibility', 'il', 4, '4s', 'touch', '4 rounds + 1 round/level', 'creature touched', 'none', 'invis', 'As invisibility, but the recipient stays unseen even while attacking.'],
  ['Phantasmal killer', 'il', 4, '4s', '5 ft/level', '1 round/level', '1 creature', 'special', 'fear', 'The subject sees the creature it fears most; if it believes, the terror can kill it.'],
  ['Shadow monsters', 'il', 4, '4s', '30 ft', '1 round/level', 'special', 'special', 'skull', 'Monsters made partly of shadow fight for the caster; those who disbelieve take less harm.'],
];

function folderDoc(key, name, parent, sort) {
  const _id = packId(PACK, `folder:${key}`);
  return { _id, _key: `!folders!${_id}`, name, type: 'Item', folder: parent, sorting: 'a', sort, color: null, description: '', flags: {} };
}

function castingTime(text) {
  const m = /^(\d+)([sr])$/.exec(text);
  if (!m) throw new Error(`casting time ${text}`);
  return { value: Number(m[1]), unit: m[2] === 's' ? 'segments' : 'rounds' };
}

function spellDoc(row) {
  const [name, who, level, ct, range, duration, area, save, icon, description] = row;
  const codes = who.split('+');
  const main = CLASSES[codes[0]];
  if (codes.some((c) => !CLASSES[c])) throw new Error(`${name}: class ${who}`);
  const slug = slugOf(name);
  const _id = packId(PACK, slug);
  return {
    slug,
    dir: join(main.id, `level-${level}`),
    folderKey: `${main.id}/level-${level}`,
    doc: {
      _id,
      _key: `!items!${_id}`,
      name,
      type: 'spell',
      img: icon ? `icons/svg/${ICON[icon] ?? icon}.svg` : main.img,
      folder: packId(PACK, `folder:${main.id}/level-${level}`),
      system: {
        level,
        castingTime: castingTime(ct),
        castingTN: castingTN(level),
        range,
        duration,
        area,
        save,
        memorized: 0,
        expended: 0,
        classes: codes.map((c) => CLASSES[c].id),
        description: `<p>${description}</p>`,
      },
      effects: [],
      flags: {},
    },
  };
}

const YAML = { lineWidth: 0 };

// Regenerate from scratch: the table is the whole pack.
mkdirSync(out, { recursive: true });
for (const entry of readdirSync(out, { withFileTypes: true })) rmSync(join(out, entry.name), { recursive: true, force: true });
const built = SPELLS.map(spellDoc);
const slugs = new Set();
const levelFolders = new Set();
for (const { slug, dir, folderKey, doc } of built) {
  if (slugs.has(slug)) throw new Error(`duplicate spell slug ${slug}`);
  slugs.add(slug);
  levelFolders.add(folderKey);
  mkdirSync(join(out, dir), { recursive: true });
  writeFileSync(join(out, dir, `${slug}.yml`), stringify(doc, YAML));
}
for (const c of Object.values(CLASSES)) {
  writeFileSync(join(out, c.id, '_folder.yml'), stringify(folderDoc(c.id, c.name, null, c.sort), YAML));
  for (let level = 1; level <= 9; level++) {
    const key = `${c.id}/level-${level}`;
    if (!levelFolders.has(key)) continue;
    const parent = packId(PACK, `folder:${c.id}`);
    writeFileSync(join(out, c.id, `level-${level}`, '_folder.yml'), stringify(folderDoc(key, `Level ${level}`, parent, level * 100000), YAML));
  }
}
const byClass = Object.values(CLASSES).map((c) => `${c.id} ${built.filter((b) => b.doc.system.classes[0] === c.id).length}`);
console.log(`spells: ${SPELLS.length} spells (${byClass.join(', ')}; by first list) → packs/_source/spells`);
