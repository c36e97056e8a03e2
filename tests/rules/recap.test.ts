/**
 * The recap (src/rules/recap.ts): addict, seed 004, phase 10, "The DM provides
 * a narrative summary of the events of the round, making sure everyone
 * understands the state of the battle". Built from the round's timeline view:
 * a player's recap tells only what that player sees.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RandomDice, ScriptedDice } from '../../src/rules/dice';
import type { Combatant, Declaration } from '../../src/rules/model';
import { playCombat } from '../../src/rules/play';
import { addictProcedure as P } from '../../src/rules/procedures/addict';
import { initiativeRecap, roundRecap, surpriseRecap, type RecapLine } from '../../src/rules/recap';
import { timeline, type TimelineView } from '../../src/rules/timeline';
import { pluralKey } from '../../src/plural';

const en = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });
const sides = [
  { id: 'party', name: 'Party' },
  { id: 'foes', name: 'Foes' },
];

/** Every line with its English text, placeholders filled from its data (a field that is a key itself localized first). */
function text(lines: RecapLine[]): string[] {
  return lines.map((l) => {
    // A counted line (Strain, CarriesOn) names a pair of keys, its form chosen by its count.
    const key = l.count === undefined ? l.key : pluralKey(l.key, l.count, 'en');
    const template = en[key];
    expect(template, key).toBeTypeOf('string');
    return template.replace(/{([^}]+)}/g, (_, k: string) => {
      expect(l.data, `${l.key} {${k}}`).toHaveProperty(k);
      const v = String(l.data[k]);
      if (!l.localized?.includes(k)) return v;
      expect(en[v], v).toBeTypeOf('string');
      return en[v];
    });
  });
}

function fight() {
  const combatants = [pc('mu', { spells: ['Bolt'] }), pc('fighter'), foe('orc'), foe('gob', { hp: 5 })];
  const dice = new ScriptedDice([
    { purpose: 'surprise', side: 'party', result: 5 },
    { purpose: 'surprise', side: 'foes', result: 5 },
    { purpose: 'initiative', side: 'party', round: 1, result: 5 },
    { purpose: 'initiative', side: 'foes', round: 1, result: 2 },
    { purpose: 'morale', combatant: 'orc', round: 1, result: 80 },
  ]);
  const declarations: Record<string, Declaration> = {
    mu: { combatant: 'mu', action: 'spell', spell: 'Bolt', castingTime: 4, target: 'orc' },
    fighter: { combatant: 'fighter', action: 'melee', target: 'gob' },
    orc: { combatant: 'orc', action: 'melee', target: 'mu' },
  };
  return playCombat(P, { sides, combatants }, { ...P.defaults }, dice, {
    rounds: 1,
    declarations: () => declarations,
    damage: [
      { round: 1, by: 'fighter', target: 'gob', amount: 8 },
      { round: 1, by: 'mu', spell: true, target: 'orc', amount: 4 },
      { round: 1, by: 'orc', target: 'mu', amount: 2 },
    ],
    moraleRequests: [{ round: 1, combatant: 'orc', trigger: 'wounded' }],
    // Phase 11: the GM staunches the goblin's bleeding at the end of the round.
    staunch: [{ round: 1, combatant: 'gob' }],
  });
}

describe('phase 10: the recap of a round', () => {
  it('tells the initiative, what went off, the damage and who fell, in the order of the round, then the end of the round and each side\'s standing', () => {
    const log = fight();
    expect(text(roundRecap(log.rounds[0].view))).toEqual([
      'Round 1, in short:',
      'Party won the initiative (5).',
      // Segment 2: the party acts in the segment of the foes' die.
      'Fighter dealt 8 damage to Gob.',
      'Gob fell.',
      // Segment 5: the 4-segment spell goes off first (footnote 18), then the orc strikes.
      'Mu cast Bolt.',
      'Mu dealt 4 damage to Orc.',
      'Orc dealt 2 damage to Mu.',
      "Orc's morale broke: rolled 80, needing 50 or less.",
      "Gob's bleeding is staunched.",
      'Party, standing: Mu, Fighter.',
      'Foes, routed: Orc.',
      'Foes, down: Gob.',
    ]);
  });

  it('a player\'s recap holds only what the player sees: nothing of a hidden combatant', () => {
    const log = fight();
    const state = log.state;
    const player = text(roundRecap(timeline(state, { gm: false, sides: ['party'], hidden: ['gob'] })));
    expect(player.some((line) => line.includes('Gob'))).toBe(false);
    expect(player).toContain('Mu cast Bolt.');
  });

  it('a spell lost, a tie, bleeding and death are told', () => {
    const combatants = [pc('mu', { spells: ['Bolt'] }), foe('orc', { hp: 3 })];
    const dice = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 5 },
      { purpose: 'surprise', side: 'foes', result: 5 },
      { purpose: 'initiative', side: 'party', round: 1, result: 3 },
      { purpose: 'initiative', side: 'foes', round: 1, result: 3 },
      { purpose: 'initiative', side: 'party', round: 2, result: 3 },
    ]);
    const log = playCombat(P, { sides, combatants }, { ...P.defaults }, dice, {
      rounds: 2,
      declarations: (round): Record<string, Declaration> =>
        round === 1
          ? { mu: { combatant: 'mu', action: 'spell', spell: 'Bolt', castingTime: 5 }, orc: { combatant: 'orc', action: 'melee', target: 'mu' } }
          : { mu: { combatant: 'mu', action: 'melee', target: 'orc' } },
      damage: [
        { round: 1, by: 'orc', target: 'mu', amount: 1 },
        { round: 1, segment: 4, target: 'orc', amount: 12 },
      ],
    });
    expect(text(roundRecap(log.rounds[0].view))).toEqual([
      'Round 1, in short:',
      'Initiative was tied at 3: no side won.',
      'Orc dealt 1 damage to Mu.',
      'Mu was struck while casting: Bolt is lost.',
      'Orc took 12 damage.',
      'Orc fell.',
      'Party, standing: Mu.',
      'Foes: nobody is left standing (down: Orc).',
    ]);
    // Round 2: the orc, below 0 since round 1, bleeds from -9 to -10 and dies (phase 9).
    expect(text(roundRecap(log.rounds[1].view)).slice(-4)).toEqual(['Orc bled 1.', 'Orc bled to death.', 'Party, standing: Mu.', 'Foes: nobody is left standing (down: Orc).']);
  });

  it('every line of random combats has its English text, placeholders filled', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new RandomDice(seed * 7919);
      const combatants = Array.from({ length: 6 }, (_, i) => (i % 2 ? foe(`f${i}`, { hp: 4 }) : pc(`p${i}`, { hp: 4, spells: ['Bolt', 'Bolt'] })));
      const declarations = Object.fromEntries(
        combatants.map((c, i): [string, Declaration] => {
          const target = combatants[(i + 1) % combatants.length].id;
          return [c.id, i % 3 === 0 ? { combatant: c.id, action: 'spell', spell: 'Bolt', castingTime: 1 + (seed % 6), target } : { combatant: c.id, action: 'melee', target }];
        }),
      );
      const damage = Array.from({ length: 8 }, (_, k) => ({ round: 1 + (k % 3), segment: 1 + ((seed + k) % 10), target: combatants[(seed + k) % 6].id, amount: 1 + ((seed * k) % 5) }));
      const log = playCombat(P, { sides, combatants }, { ...P.defaults }, rng, { rounds: 3, declarations: () => declarations, damage, cancelled: [{ round: 2, combatant: 'p0' }] });
      for (const r of [log.surpriseRound, ...log.rounds]) if (r) text(roundRecap(r.view));
    }
  });

  it('tells a device used, a casting given up, one prevented, one broken off but kept, a joiner, a casting running on, a morale held', () => {
    const view: TimelineView = {
      procedure: 'addict',
      round: 2,
      kind: 'round',
      stage: 'end-of-round',
      current: null,
      sides: [
        { id: 'party', name: 'Party', winner: false, initiative: 4 },
        { id: 'foes', name: 'Foes', winner: false, initiative: 2 },
      ],
      combatants: [
        { id: 'mu', name: 'Mu', side: 'party', condition: 'ok', routed: false, delayed: false, surprised: 0, stillSurprised: false, mayDeclare: true, declared: true },
        { id: 'wolf', name: 'Wolf', side: 'foes', condition: 'ok', routed: false, delayed: false, surprised: 0, stillSurprised: false, mayDeclare: true, declared: true, joined: true },
      ],
      surprise: { unit: 'segments', anyone: false },
      opening: null,
      initiative: { winner: null, tie: false },
      carryIn: [],
      steps: [
        {
          index: 0,
          phase: 'addict-resolution',
          segment: 1,
          when: 'done',
          entries: [
            { combatant: 'mu', kind: 'cast-complete', action: 'device', casting: 'w', spell: 'Wand of Frost', device: true, outcome: 'goes-off' },
            { combatant: 'mu', kind: 'cast-begin', action: 'spell', casting: 's', spell: 'Sleep', outcome: 'cancelled' },
            { combatant: 'mu', kind: 'cast-complete', action: 'spell', casting: 's', spell: 'Sleep', outcome: 'cancelled' },
          ],
          damage: [
            { target: 'mu', amount: 1, wounds: 1, by: 'wolf' },
            { target: 'mu', amount: 2, wounds: 2, by: 'wolf' },
          ],
          interruptions: [
            { casting: 'p', caster: 'mu', spell: 'Light', outcome: 'prevented', expended: false },
            { casting: 'k', caster: 'mu', spell: 'Shield', outcome: 'interrupted', expended: false },
          ],
          fallen: [],
          joins: ['wolf'],
        },
        { index: 1, phase: 'addict-resolution', segment: 2, when: 'next', entries: [], damage: [], interruptions: [], fallen: [], joins: [] },
      ],
      carryOut: [{ casting: 'f', caster: 'mu', spell: 'Fireball', device: false, beganRound: 2, remaining: 3, status: 'pending' }],
      end: [{ kind: 'morale', combatant: 'wolf', trigger: 'gm', roll: 30, total: 30, target: 50, passed: true }],
    };
    expect(text(roundRecap(view))).toEqual([
      'Round 2, in short:',
      'Wolf joined the fight.',
      'Mu used Wand of Frost.',
      'Mu gave up casting Sleep.',
      'Wolf dealt 3 damage to Mu.',
      'Mu was struck before casting Light: the spell is kept.',
      "Mu's Shield was broken off.",
      'Mu is still casting Fireball: 3 segments into the next round.',
      "Wolf's morale held: rolled 30, needing 50 or less.",
      'Party, standing: Mu.',
      'Foes, standing: Wolf.',
    ]);
  });

  it('step by step (the chat card): a heading before each step in which something happened, by segment, count or phase', () => {
    const log = fight();
    const lines = text(roundRecap(log.rounds[0].view, { steps: true }));
    expect(lines.slice(0, 4)).toEqual(['Round 1, in short:', 'Party won the initiative (5).', 'Segment 2:', 'Fighter dealt 8 damage to Gob.']);
    expect(lines).toContain('Segment 5:');
    expect(lines.filter((l) => l.endsWith(':'))).toEqual(['Round 1, in short:', 'Segment 2:', 'Segment 5:']);
    const base = log.rounds[0].view;
    const played = base.steps.find((s) => s.damage.length > 0)!;
    const byCount = { ...base, steps: [{ ...played, segment: undefined, count: 7 }] };
    expect(text(roundRecap(byCount, { steps: true }))).toContain('Count 7:');
    const byPhase = { ...base, steps: [{ ...played, segment: undefined, phase: 'high' }] };
    expect(text(roundRecap(byPhase, { steps: true }))).toContain('HIGH group:');
  });

  it('a charge the round ends before (seed 004 fn 19, addict\'s falls-short entry) is told in its step; its closing is not', () => {
    const base = fight().rounds[0].view;
    const played = base.steps.find((s) => s.damage.length > 0)!;
    const charge = { combatant: 'fighter', path: 265, arrived: false, short: true };
    const closing = { ...charge, moved: 24, key: 'TENSEG.Charge.Closing' as const, data: { name: 'Fighter', moved: 24, path: 265, left: 241 } };
    const short = { ...charge, moved: 240, key: 'TENSEG.Charge.FallsShort' as const, data: { name: 'Fighter', moved: 240, path: 265, left: 25 } };
    const view = { ...base, steps: [{ ...played, charges: [closing] }, { ...played, index: played.index + 1, damage: [], fallen: [], charges: [short] }] };
    const lines = text(roundRecap(view, { steps: true }));
    expect(lines).toContain("Fighter's charge fell short: 25 ft left when the round ended.");
    expect(lines.some((l) => l.includes('closing'))).toBe(false);
  });

  it('a player\'s recap of another side\'s secrets: someone still casting, someone who gave up a spell, without naming it', () => {
    const view: TimelineView = {
      ...minimalView(),
      steps: [
        {
          index: 0,
          phase: 'addict-resolution',
          segment: 1,
          when: 'done',
          entries: [{ combatant: 'wolf', kind: 'cast-begin', action: 'spell', casting: 's', outcome: 'cancelled' }],
          damage: [{ target: 'wolf', amount: 1, wounds: 1, strain: true }],
          interruptions: [],
          fallen: [],
          joins: [],
        },
      ],
      carryOut: [{ casting: 'f', caster: 'wolf', device: false, beganRound: 2, status: 'pending' }],
      end: [
        { kind: 'morale', combatant: 'wolf', trigger: 'gm', roll: 0, total: 0, target: 0, passed: false, method: 'gm' },
        { kind: 'morale', combatant: 'mu', trigger: 'gm', roll: 0, total: 0, target: 0, passed: true, method: 'gm' },
      ],
    };
    expect(text(roundRecap(view))).toEqual([
      'Round 2, in short:',
      'Wolf gave up casting a spell.',
      'Wolf lost 1 Wound Point for acting while hurt.',
      'Wolf is still casting, into the next round.',
      "Wolf's morale broke, as the GM rules.",
      "Mu's morale held, as the GM rules.",
      'Party, standing: Mu.',
      'Foes, standing: Wolf.',
    ]);
  });

  it('one killed by a blow is told so, not again as bleeding to death', () => {
    const view: TimelineView = {
      ...minimalView(),
      steps: [{ index: 0, phase: 'addict-resolution', segment: 1, when: 'done', entries: [], damage: [{ target: 'wolf', amount: 9, wounds: 9, by: 'mu' }], interruptions: [], fallen: [{ combatant: 'wolf', condition: 'dead' }], joins: [] }],
      end: [{ kind: 'death', combatant: 'wolf' }],
    };
    view.combatants[1].condition = 'dead';
    expect(text(roundRecap(view))).toEqual(['Round 2, in short:', 'Mu dealt 9 damage to Wolf.', 'Wolf was killed.', 'Party, standing: Mu.', 'Foes: nobody is left standing (down: Wolf).']);
  });
});

/** A round-2 view of Mu (party) and Wolf (foes), nothing happened. */
function minimalView(): TimelineView {
  const c = (id: string, name: string, side: string) => ({ id, name, side, condition: 'ok' as const, routed: false, delayed: false, surprised: 0, stillSurprised: false, mayDeclare: true, declared: true });
  return {
    procedure: 'addict',
    round: 2,
    kind: 'round',
    stage: 'end-of-round',
    current: null,
    sides: [
      { id: 'party', name: 'Party', winner: false },
      { id: 'foes', name: 'Foes', winner: false },
    ],
    combatants: [c('mu', 'Mu', 'party'), c('wolf', 'Wolf', 'foes')],
    surprise: { unit: 'segments', anyone: false },
    opening: null,
    initiative: null,
    carryIn: [],
    steps: [],
    carryOut: [],
    end: null,
  };
}

describe('the surprise card\'s lines', () => {
  it('each side\'s roll and result, adjustments and own dice by name, the never surprised, an alerted side', () => {
    const view = minimalView();
    view.round = 0;
    view.kind = 'surprise';
    view.stage = 'declare';
    view.surprise = { unit: 'segments', anyone: true };
    view.sides = [
      { id: 'party', name: 'Party', winner: false, surpriseRoll: 2 },
      { id: 'foes', name: 'Foes', winner: false, alerted: true },
    ];
    const c = view.combatants[0];
    view.combatants = [
      { ...c, id: 'a', name: 'Ann', surprised: 2 },
      { ...c, id: 'b', name: 'Bo', surprised: 2 },
      { ...c, id: 'e', name: 'Elf', surprised: 1 },
      { ...c, id: 'm', name: 'Monk', surprised: 0 },
      { ...c, id: 'g', name: 'Golem', neverSurprised: true },
      { ...c, id: 'r', name: 'Ranger', surprised: 0, surpriseRoll: 4 },
      { ...c, id: 'w', name: 'Wolf', side: 'foes' },
      { ...c, id: 'x', name: 'Xorn', side: 'foes', neverSurprised: true },
    ];
    expect(text(surpriseRecap(view))).toEqual([
      'Party rolled 2: surprised, segments lost: 2.',
      'Elf, adjusted: surprised, segments lost: 1.',
      'Monk, adjusted: not surprised.',
      'Golem is never surprised.',
      'Ranger rolled 4: not surprised.',
      'Foes is alerted: no roll.',
      'Xorn is never surprised.',
    ]);
  });

  it('a whole round lost, a side surprised without a roll (the GM\'s ruling), nobody surprised', () => {
    const view = minimalView();
    view.surprise = { unit: 'round', anyone: true };
    view.sides = [
      { id: 'party', name: 'Party', winner: false, surpriseRoll: 1 },
      { id: 'foes', name: 'Foes', winner: false },
    ];
    view.combatants[0].surprised = 1;
    view.combatants[1].surprised = 1;
    view.combatants.push({ ...view.combatants[0], id: 'p2', name: 'Pip', surprised: 1, surpriseRoll: 2 });
    expect(text(surpriseRecap(view))).toEqual(['Party rolled 1: surprised for the whole round.', 'Pip rolled 2: surprised for the whole round.', 'Foes, without a roll: surprised for the whole round.']);
    view.combatants = view.combatants.map((x) => ({ ...x, surprised: 0 }));
    view.surprise.anyone = false;
    expect(text(surpriseRecap(view)).at(-1)).toBe('Nobody is surprised.');
    expect(text(surpriseRecap({ ...view, combatants: [] }))).toEqual(['Nobody is surprised.']); // a side of hidden combatants alone is not told
  });

  it('the situation\'s modifier the GM gave a side (seed 002 "that should factor into chances of surprise"), after its result; none for an alerted side', () => {
    const view = minimalView();
    view.surprise = { unit: 'segments', anyone: true };
    view.sides = [
      { id: 'party', name: 'Party', winner: false, surpriseRoll: 3, surpriseModifier: 1 },
      { id: 'foes', name: 'Foes', winner: false, surpriseRoll: 5, surpriseModifier: -2 },
    ];
    view.combatants[0].surprised = 3;
    view.combatants[1].surprised = 0;
    expect(text(surpriseRecap(view))).toEqual([
      'Party rolled 3: surprised, segments lost: 3.',
      'Party: the situation raises the chance of surprise by 1.',
      'Foes rolled 5: not surprised.',
      'Foes: the situation lowers the chance of surprise by 2.',
    ]);
    view.sides[1] = { id: 'foes', name: 'Foes', winner: false, alerted: true, surpriseModifier: -2 };
    expect(text(surpriseRecap(view)).slice(2)).toEqual(['Foes is alerted: no roll.']);
  });
});

describe('the initiative card\'s lines', () => {
  it('sides with HIGH / LOW, individual counts with their own label, the winner or the tie; nothing before initiative', () => {
    const view = minimalView();
    expect(initiativeRecap(view)).toEqual([]);
    view.initiative = { winner: 'foes', tie: false };
    view.sides = [
      { id: 'party', name: 'Party', winner: false, initiative: 2, label: 'low' },
      { id: 'foes', name: 'Foes', winner: true, initiative: 5, label: 'high' },
    ];
    view.combatants[0].initiative = 4;
    view.combatants[0].label = 'high';
    view.combatants[1].initiative = 5;
    expect(text(initiativeRecap(view))).toEqual(['Party rolled 2: LOW.', 'Foes rolled 5: HIGH.', 'Mu: 4, HIGH.', 'Wolf: 5.', 'Foes wins the initiative.']);
    view.initiative = { winner: null, tie: true };
    view.sides = view.sides.map((s) => ({ ...s, initiative: 3, label: undefined, winner: false }));
    view.combatants = view.combatants.map((x) => ({ ...x, initiative: undefined, label: undefined }));
    expect(text(initiativeRecap(view))).toEqual(['Party rolled 3.', 'Foes rolled 3.', 'Tied at 3: no side wins.']);
  });
});

