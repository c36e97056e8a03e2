import { describe, expect, it } from 'vitest';
import {
  actorToEngine,
  availableSpells,
  carriedWeight,
  monsterRoutines,
  toDeclaration,
  toEngineCombatant,
  weaponStats,
  type ItemView,
} from '../../src/data/engine-view';
import type { ArmorSystem, CharacterSystem, MonsterSystem, WeaponSystem } from '../../src/data/shapes';
import { castingSegments } from '../../src/data/shapes';
import { commonDeclarationProblem } from '../../src/rules/round';
import { ACTION_KINDS } from '../../src/rules/model';

function character(over: Partial<CharacterSystem> = {}): CharacterSystem {
  return {
    abilities: { str: 15, int: 10, wis: 9, dex: 16, con: 12, cha: 8 },
    size: 'medium',
    hp: { value: 9, max: 12 },
    ac: 4,
    attack: { mode: 'aac0', aac0: '20', table: '' },
    movement: { base: 120, charge: 0 },
    encumbrance: { carried: 0 },
    details: { className: 'Fighter', level: 3, turnsUndead: false },
    surprise: { surprisedOn: 0, surprisesOn: 0, surprisedAdjust: 0, surprisesOthersAdjust: 0, neverSurprised: false },
    combat: { reactionAdjustment: 1, missileBonus: 1, initiativeAdjustment: -1, routines: 1, dexAcBonus: 0 },
    individual: { agility: 0, insight: 0, stress: { value: 0, max: 0 }, wounds: { value: 0, max: 0 }, defense: 0, armour: 0, attackBonus: 0 },
    biography: '',
    ...over,
  };
}

function monster(over: Partial<MonsterSystem> = {}): MonsterSystem {
  return {
    hitDice: '4+4',
    size: 'medium',
    hp: { value: 30, max: 30 },
    ac: 5,
    aac0: '15',
    movement: { base: 90, charge: 0 },
    attacks: 'MELEE: 2 claws (1d8/1d8) and bite (2d6)',
    routines: 1,
    surprise: { surprisedOn: 0, surprisesOn: 3, surprisedAdjust: 0, surprisesOthersAdjust: 0, neverSurprised: false },
    morale: 8,
    turnsUndead: false,
    individual: { agility: 1, insight: -1, strength: 14, stress: { value: 20, max: 20 }, wounds: { value: 14, max: 14 }, defense: 0, armour: 0, attackBonus: 0 },
    notes: '',
    ...over,
  };
}

function weapon(id: string, name: string, over: Partial<WeaponSystem> = {}): ItemView {
  const system: WeaponSystem = {
    damage: { small: '1d8', large: '1d12' },
    speed: 5,
    length: 3.5,
    space: 4,
    kind: 'melee',
    rate: 1,
    range: { short: 0, medium: 0, long: 0 },
    missileBonus: 0,
    critical: 2,
    damageTypes: [],
    equipped: false,
    weight: 4,
    description: '',
    ...over,
  };
  return { id, name, type: 'weapon', system };
}

function armour(id: string, name: string, over: Partial<ArmorSystem> = {}): ItemView {
  const system: ArmorSystem = { ac: 5, bonus: 0, defense: 0, armour: 0, bulk: 'fairly', movement: 0, equipped: true, weight: 30, description: '', ...over };
  return { id, name, type: 'armor', system };
}

function spell(id: string, name: string, memorized: number, expended: number, value = 3, unit: 'segments' | 'rounds' = 'segments', castingTN = 0): ItemView {
  return {
    id,
    name,
    type: 'spell',
    system: { level: 1, castingTime: { value, unit }, castingTN, range: '', duration: '', memorized, expended, description: '' },
  };
}

const ctx = { id: 'c1', side: 'party' };

describe('a character as an engine combatant', () => {
  it('carries hp, side, class and level, and the dexterity adjustments the procedures read', () => {
    const r = toEngineCombatant({ id: 'a1', name: 'Halvaine', type: 'character', system: character(), items: [] }, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      id: 'c1',
      name: 'Halvaine',
      side: 'party',
      kind: 'character',
      hp: 9,
      maxHp: 12,
      className: 'Fighter',
      level: 3,
      // seed 000: "A character's surprise bonus (see 'Dexterity') acts to negate surprise segments"
      surpriseAdjustment: 1,
      // seed 000: "he or she applies his or her missile attack bonus as a bonus to his or her initiative"
      missileBonus: 1,
      // seed 002 II.A: "Roll a d12 for the party; modify by dexterity"
      initiativeAdjustment: -1,
      movement: 120,
      strength: 15,
    });
    // Standard surprise ranges and unused Stress / Wound Points are left to the procedure.
    expect(r.value.surprisedOn).toBeUndefined();
    expect(r.value.stress).toBeUndefined();
    expect(r.value.woundPoints).toBeUndefined();
  });

  it('seed 002 III.E "Spellcasters lose dexterity AC bonus only while actually casting": the Dexterity AC bonus reaches the engine; none is left out', () => {
    const sys = character();
    const r = toEngineCombatant({ id: 'a1', name: 'Wren', type: 'character', system: { ...sys, combat: { ...sys.combat, dexAcBonus: 2 } }, items: [] }, ctx);
    expect(r.ok && r.value.dexterityAcBonus).toBe(2);
    const none = toEngineCombatant({ id: 'a1', name: 'Wren', type: 'character', system: character(), items: [] }, ctx);
    expect(none.ok && 'dexterityAcBonus' in none.value).toBe(false);
  });

  it('a token name overrides the actor name; a shared initiative group is passed on (seed 003 "share a single Initiative roll")', () => {
    const r = toEngineCombatant(
      { id: 'a1', name: 'Orc', type: 'character', system: character(), items: [] },
      { id: 'c7', side: 'orcs', name: 'Orc 3', initiativeGroup: 'orc-warriors' },
    );
    expect(r.ok && r.value).toMatchObject({ name: 'Orc 3', side: 'orcs', initiativeGroup: 'orc-warriors' });
  });

  it('turning undead is the sheet\'s; the devices are gear marked as one and carried (issue 28)', () => {
    const wand: ItemView = { id: 'g1', name: 'Wand of frost', type: 'gear', system: { weight: 1, quantity: 1, device: true, description: '' } };
    const spent: ItemView = { id: 'g2', name: 'Rod (given away)', type: 'gear', system: { weight: 1, quantity: 0, device: true, description: '' } };
    const rope: ItemView = { id: 'g3', name: 'Rope', type: 'gear', system: { weight: 5, quantity: 1, device: false, description: '' } };
    const fighter = toEngineCombatant({ id: 'a1', name: 'F', type: 'character', system: character(), items: [rope, spent] }, ctx);
    expect(fighter.ok && fighter.value).toMatchObject({ turnsUndead: false, devices: [] });
    const cleric = toEngineCombatant({ id: 'a1', name: 'C', type: 'character', system: character({ details: { className: 'Cleric', level: 2, turnsUndead: true } }), items: [wand, rope] }, ctx);
    expect(cleric.ok && cleric.value).toMatchObject({ turnsUndead: true, devices: ['Wand of frost'] });
    const orc = toEngineCombatant({ id: 'a2', name: 'Orc', type: 'monster', system: monster(), items: [] }, ctx);
    expect(orc.ok && orc.value).toMatchObject({ turnsUndead: false, devices: [] });
  });

  it('the weapon in hand is the equipped one; its speed factor and length reach the engine', () => {
    const items = [weapon('w1', 'Dagger', { speed: 2, length: 1 }), weapon('w2', 'Long sword', { equipped: true })];
    const r = toEngineCombatant({ id: 'a1', name: 'F', type: 'character', system: character(), items }, ctx);
    expect(r.ok && r.value.weapon).toEqual({ name: 'Long sword', speed: 5, length: 3.5, space: 4 });
  });

  it('equipped bulky armor caps movement; unequipped armor does not', () => {
    const plate: ItemView = {
      id: 'ar',
      name: 'Plate',
      type: 'armor',
      system: { ac: 3, bonus: 0, bulk: 'bulky', movement: 60, equipped: true, weight: 45, description: '' },
    };
    const r = toEngineCombatant({ id: 'a1', name: 'F', type: 'character', system: character(), items: [plate] }, ctx);
    expect(r.ok && r.value.movement).toBe(60);
    const off = { ...plate, system: { ...(plate.system as object), equipped: false } };
    const r2 = toEngineCombatant({ id: 'a1', name: 'F', type: 'character', system: character(), items: [off] }, ctx);
    expect(r2.ok && r2.value.movement).toBe(120);
  });

  it('lists memorized, unexpended spells (one per copy) so "a spell cast is expended" can be checked', () => {
    const items = [spell('s1', 'Magic Missile', 2, 1), spell('s2', 'Sleep', 1, 1), spell('s3', 'Shield', 2, 0)];
    const r = toEngineCombatant({ id: 'a1', name: 'M', type: 'character', system: character(), items }, ctx);
    expect(r.ok && r.value.spells).toEqual(['Magic Missile', 'Shield', 'Shield']);
  });

  it('individual-speed figures are passed when used: Stress first, then Wound Points (seed 003)', () => {
    const r = toEngineCombatant(
      {
        id: 'a1',
        name: 'Leonin',
        type: 'character',
        system: character({ individual: { agility: 2, insight: 1, stress: { value: 41, max: 41 }, wounds: { value: 15, max: 15 }, defense: 0, armour: 0, attackBonus: 0 } }),
        items: [],
      },
      ctx,
    );
    expect(r.ok && r.value).toMatchObject({ agilityModifier: 2, insightModifier: 1, stress: 41, maxStress: 41, woundPoints: 15, maxWoundPoints: 15 });
  });

  it('Defense bonus and Armour: the actor\'s own plus its worn armour\'s ("most pieces of armour grant a bonus to Defense and/or Armour when worn", seed 003); the attack bonus', () => {
    const ind = { agility: 1, insight: 0, stress: { value: 0, max: 0 }, wounds: { value: 0, max: 0 }, defense: 1, armour: 1, attackBonus: 3 };
    const items = [armour('a1', 'Mail', { defense: 1, armour: 4 }), armour('a2', 'Shield', { defense: 2 }), armour('a3', 'Spare plate', { defense: 5, armour: 8, equipped: false })];
    const r = toEngineCombatant({ id: 'a1', name: 'Kestrel', type: 'character', system: character({ individual: ind }), items }, ctx);
    expect(r.ok && r.value).toMatchObject({ defenseBonus: 4, armour: 5, attackBonus: 3, agilityModifier: 1 });
    // Nothing given, nothing passed (the engine's defaults: Defense 10 + Agility, no Armour, no attack bonus).
    const bare = toEngineCombatant({ id: 'a1', name: 'Bare', type: 'character', system: character(), items: [] }, ctx);
    expect(bare.ok && bare.value).not.toHaveProperty('defenseBonus');
    expect(bare.ok && bare.value).not.toHaveProperty('armour');
    expect(bare.ok && bare.value).not.toHaveProperty('attackBonus');
  });

  it('a weapon\'s critical multiplier (x3, x4; x2 is the default) and its damage types', () => {
    expect(weaponStats(weapon('w1', 'Pick', { critical: 4, damageTypes: ['piercing', 'blunt'] }))).toMatchObject({ critical: 4, damageTypes: ['piercing', 'blunt'] });
    const plain = weaponStats(weapon('w2', 'Club'));
    expect(plain).not.toHaveProperty('critical');
    expect(plain).not.toHaveProperty('damageTypes');
  });

  it('bad data is a Problem, not a crash', () => {
    const noHp = toEngineCombatant({ id: 'a', name: 'X', type: 'character', system: { ...character(), hp: null }, items: [] }, ctx);
    expect(noHp).toMatchObject({ ok: false, problem: { key: 'HitPointsInvalid' } });
    const noSystem = toEngineCombatant({ id: 'a', name: 'X', type: 'character', system: null }, ctx);
    expect(noSystem).toMatchObject({ ok: false, problem: { key: 'ActorDataMissing' } });
    const vehicle = toEngineCombatant({ id: 'a', name: 'Cart', type: 'vehicle', system: {} }, ctx);
    expect(vehicle).toMatchObject({ ok: false, problem: { key: 'ActorTypeUnknown', data: { type: 'vehicle' } } });
  });
});

describe('a monster as an engine combatant', () => {
  it('carries normalized hit dice ("4+4 HD", seed 001), routines per round, morale and surprise range ("surprises on 1-3", seed 000)', () => {
    const r = toEngineCombatant({ id: 'm', name: 'Ogre', type: 'monster', system: monster({ hitDice: ' 4 + 4 HD', routines: 2 }), items: [] }, { id: 'c2', side: 'monsters' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ kind: 'monster', hitDice: '4+4', routines: 2, morale: 8, surprisesOn: 3, hp: 30, movement: 90 });
    expect(r.value.surprisedOn).toBeUndefined();
    // seed 003: Wound Points = Strength score; Stress absorbs damage first
    expect(r.value).toMatchObject({ strength: 14, stress: 20, woundPoints: 14, agilityModifier: 1, insightModifier: -1 });
  });

  it('"some monsters cannot be surprised" (seed 000) reaches the engine', () => {
    const sys = monster();
    sys.surprise.neverSurprised = true;
    const r = toEngineCombatant({ id: 'm', name: 'Golem', type: 'monster', system: sys }, ctx);
    expect(r.ok && r.value.neverSurprised).toBe(true);
  });

  it('unparseable hit dice give the HitDiceInvalid problem with the monster name', () => {
    const r = toEngineCombatant({ id: 'm', name: 'Blob', type: 'monster', system: monster({ hitDice: 'lots' }) }, ctx);
    expect(r).toMatchObject({ ok: false, problem: { key: 'HitDiceInvalid', data: { name: 'Blob', value: 'lots' } } });
  });

  it('its attack text parses into routines', () => {
    const r = monsterRoutines(monster());
    expect(r.ok && r.value[0].attackCount).toBe(3);
    expect(monsterRoutines(monster({ attacks: '2 claws and bite' })).ok).toBe(false);
  });
});

describe('weapons as WeaponStats', () => {
  it('missile weapons carry their rate of fire ("an orc fires a short bow twice", seed 001)', () => {
    const bow = weapon('b', 'Short bow', { kind: 'missile', rate: 2, speed: 7, length: 0, space: 0 });
    expect(weaponStats(bow)).toEqual({ name: 'Short bow', speed: 7, missile: true, rate: 2 });
  });
  it('a non-weapon item is not a weapon', () => {
    expect(weaponStats(spell('s', 'Sleep', 1, 0))).toBeNull();
  });
});

describe('declarations from the form', () => {
  const items = [weapon('w1', 'Halberd', { speed: 9, length: 8, space: 6 }), spell('s1', 'Fireball', 1, 0, 3), spell('s2', 'Sleep', 1, 1, 1), spell('s3', 'Haste', 1, 0, 1, 'rounds', 14)];
  const who = { combatant: 'c1', name: 'Halvaine', items };

  it('a spell uses the item casting time in segments: "a spell with a 2 segment casting time" (seed 000)', () => {
    const r = toDeclaration({ action: 'spell', spell: 's1', target: 'c9' }, who);
    expect(r).toEqual({ ok: true, value: { combatant: 'c1', action: 'spell', spell: 'Fireball', castingTime: 3, target: 'c9' } });
  });

  it('"A casting time of \'1 round\' is 10 segments" (README ruling); spell speed is casting TN − 10 (seed 003)', () => {
    const r = toDeclaration({ action: 'spell', spell: 's3' }, who);
    expect(r.ok && r.value).toMatchObject({ spell: 'Haste', castingTime: 10, speed: 4 });
    expect(castingSegments({ value: 2, unit: 'rounds' })).toBe(20);
  });

  it('an expended spell cannot be declared', () => {
    expect(toDeclaration({ action: 'spell', spell: 's2' }, who)).toMatchObject({ ok: false, problem: { key: 'SpellNotMemorized', data: { spell: 'Sleep' } } });
  });

  it('form strings become numbers; blanks are "not given"; checkboxes become flags', () => {
    const r = toDeclaration({ action: 'charge', weapon: 'w1', distance: '30', hesitation: '', readied: 'on', note: ' go! ' }, who);
    expect(r).toEqual({
      ok: true,
      value: { combatant: 'c1', action: 'charge', weapon: { name: 'Halberd', speed: 9, length: 8, space: 6 }, distance: 30, readied: true, note: 'go!' },
    });
  });

  it('a device needs a casting time (invocation) given on the form', () => {
    expect(toDeclaration({ action: 'device', spellName: 'Wand of frost' }, who)).toMatchObject({ ok: false, problem: { key: 'CastingTimeInvalid' } });
    expect(toDeclaration({ action: 'device', spellName: 'Wand of frost', castingTime: '2' }, who)).toMatchObject({ ok: true, value: { spell: 'Wand of frost', castingTime: 2 } });
  });

  it('refuses unknown actions, missing items and bad numbers with problems', () => {
    expect(toDeclaration({ action: 'dance' }, who)).toMatchObject({ ok: false, problem: { key: 'DeclarationActionUnknown', data: { action: 'dance' } } });
    expect(toDeclaration({ action: 'melee', weapon: 'nope' }, who)).toMatchObject({ ok: false, problem: { key: 'DeclarationWeaponMissing' } });
    expect(toDeclaration({ action: 'melee', weapon: 's1' }, who)).toMatchObject({ ok: false, problem: { key: 'DeclarationWeaponMissing' } });
    expect(toDeclaration({ action: 'spell', spell: 'w1' }, who)).toMatchObject({ ok: false, problem: { key: 'DeclarationSpellMissing' } });
    expect(toDeclaration({ action: 'melee', distance: 'far' }, who)).toMatchObject({ ok: false, problem: { key: 'NumberInvalid', data: { field: 'distance' } } });
    expect(toDeclaration({ action: 'melee', routines: -1 }, who)).toMatchObject({ ok: false, problem: { key: 'NumberInvalid', data: { field: 'routines' } } });
    expect(toDeclaration({ action: 'spell', spell: 's1', castingTime: 0 }, who)).toMatchObject({ ok: false, problem: { key: 'CastingTimeInvalid' } });
    expect(toDeclaration(null as never, who)).toMatchObject({ ok: false, problem: { key: 'DeclarationActionUnknown' } });
  });

  it('every declaration it accepts passes the shared engine checks for the same combatant (one who turns and carries a device)', () => {
    const wand: ItemView = { id: 'g1', name: 'Wand of frost', type: 'gear', system: { weight: 1, quantity: 1, device: true, description: '' } };
    const system = character({ details: { className: 'Cleric', level: 3, turnsUndead: true } });
    const engine = toEngineCombatant({ id: 'a', name: 'Halvaine', type: 'character', system, items: [...items, wand] }, { id: 'c1', side: 'party' });
    if (!engine.ok) throw new Error('combatant');
    for (const action of ACTION_KINDS) {
      const payload = action === 'spell' ? { action, spell: 's1' } : action === 'device' ? { action, castingTime: 1 } : { action };
      const d = toDeclaration(payload, who);
      expect(d.ok).toBe(true);
      if (d.ok) expect(commonDeclarationProblem(d.value, engine.value, ACTION_KINDS)).toBeNull();
    }
  });
});

describe('helpers', () => {
  it('carried weight adds gear × quantity, weapons and armor', () => {
    const gear: ItemView = { id: 'g', name: 'Rope', type: 'gear', system: { weight: 5, quantity: 2, description: '' } };
    expect(carriedWeight([gear, weapon('w', 'Sword')])).toBe(14);
  });
  it('available spells ignore other item types', () => {
    expect(availableSpells([weapon('w', 'Sword'), spell('s', 'Light', 1, 0)])).toEqual(['Light']);
  });
});

describe('actorToEngine (stats without id, name and side)', () => {
  it('gives the same stats as toEngineCombatant', () => {
    const stats = actorToEngine('monster', monster(), []);
    expect(stats).toMatchObject({ kind: 'monster', hitDice: '4+4', hp: 30, morale: 8 });
    expect(stats).not.toHaveProperty('id');
    expect(stats).not.toHaveProperty('side');
  });
  it('never throws: unreadable data keeps the hit points (or 1)', () => {
    expect(actorToEngine('monster', monster({ hitDice: '??' }))).toEqual({ hp: 30, kind: 'monster' });
    expect(actorToEngine('vehicle', null)).toEqual({ hp: 1 });
  });
});
