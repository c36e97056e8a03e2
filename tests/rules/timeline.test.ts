/**
 * The timeline view (src/rules/timeline.ts): the round as a GM or a player
 * reads it on screen. Every test plays a combat through the one driver
 * (flow/applyInput) with scripted dice, and checks what a reader of the view
 * would notice: who has declared, what a player may and may not see, which
 * step is being played, castings, surprise, initiative, carry-over, late
 * joiners and the end of the round. Tests named "BUG:" assert the right
 * behaviour where the view is wrong today (it.fails until it is fixed).
 */
import { describe, expect, it } from 'vitest';
import { ScriptedDice, type ScriptedRoll } from '../../src/rules/dice';
import type { Combatant, Declaration, ProcedureId, Side } from '../../src/rules/model';
import type { Encounter, ProcedureOptions } from '../../src/rules/procedure';
import { applyInput, declarationProblem, startFlow, type FlowInput, type FlowState } from '../../src/rules/flow';
import { GM_VIEW, timeline, type CombatantView, type StepView, type TimelineView, type Viewer } from '../../src/rules/timeline';

/* ------------------------------------------------------------------ kit */

/** A combat at the table: inputs go through the flow; every view taken is checked to be pure. */
class Table {
  readonly state: FlowState;
  private readonly dice: ScriptedDice;

  constructor(procedure: ProcedureId, encounter: Encounter, rolls: ScriptedRoll[], options: ProcedureOptions = {}) {
    this.dice = new ScriptedDice(rolls);
    const started = startFlow(procedure, options, encounter, this.dice);
    if (!started.ok) throw new Error(`start refused: ${started.problem.key}`);
    this.state = started.state;
  }

  do(input: FlowInput): this {
    const done = applyInput(this.state, input, this.dice);
    if (!done.ok) throw new Error(`${input.t} refused: ${done.problem.key} ${JSON.stringify(done.problem.data ?? {})}`);
    return this;
  }

  declare(...ds: Declaration[]): this {
    for (const d of ds) this.do({ t: 'declare', d });
    return this;
  }

  next(times = 1): this {
    for (let i = 0; i < times; i++) this.do({ t: 'next' });
    return this;
  }

  hit(target: string, amount: number, by?: string): this {
    return this.do(by === undefined ? { t: 'hit', target, amount } : { t: 'hit', target, amount, by });
  }

  /** Play on to the end of the round being played. */
  finishRound(): this {
    while (this.state.stage === 'resolve') this.next();
    return this;
  }

  /** Play on until the step at this segment / count is being played. */
  until(at: { segment?: number; count?: number }): this {
    for (;;) {
      const step = this.state.stage === 'resolve' ? this.state.schedule?.steps[this.state.step] : undefined;
      if (step && (at.segment === undefined || step.segment === at.segment) && (at.count === undefined || step.count === at.count)) return this;
      if (this.state.stage !== 'resolve') throw new Error(`no step at ${JSON.stringify(at)}`);
      this.next();
    }
  }

  /** The view, taken twice: the state is untouched and both views are equal. */
  view(viewer: Viewer = GM_VIEW): TimelineView {
    const before = structuredClone(this.state);
    const first = timeline(this.state, viewer);
    const second = timeline(this.state, viewer);
    expect(this.state).toStrictEqual(before);
    expect(second).toStrictEqual(first);
    return first;
  }
}

const PARTY: Side = { id: 'party', name: 'The Party' };
const ORCS: Side = { id: 'orcs', name: 'Orcs' };
const FOES: Side = { id: 'foes', name: 'Goblins' };
const MONSTERS: Side = { id: 'monsters', name: 'Monsters' };

const who = (id: string, name: string, side: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name, side, hp: 10, ...extra });
const melee = (combatant: string, target?: string, extra: Partial<Declaration> = {}): Declaration => ({
  combatant,
  action: 'melee',
  ...(target !== undefined ? { target } : {}),
  ...extra,
});
const spell = (combatant: string, name: string, castingTime: number, extra: Partial<Declaration> = {}): Declaration => ({
  combatant,
  action: 'spell',
  spell: name,
  castingTime,
  ...extra,
});

/** A player of the party (their characters' side), with the combatants the GM hides. */
const player = (hidden: string[] = []): Viewer => ({ gm: false, sides: ['party'], hidden });

function combatant(view: TimelineView, id: string): CombatantView {
  const c = view.combatants.find((x) => x.id === id);
  if (!c) throw new Error(`${id} is not in the view`);
  return c;
}

function stepAt(view: TimelineView, at: { segment?: number; count?: number; phase?: string }): StepView {
  const s = view.steps.find(
    (x) => (at.segment === undefined || x.segment === at.segment) && (at.count === undefined || x.count === at.count) && (at.phase === undefined || x.phase === at.phase),
  );
  if (!s) throw new Error(`no step at ${JSON.stringify(at)}`);
  return s;
}

/** Each step as a GM scans the timeline: its label and whether it is done, current or next. */
const when = (view: TimelineView, label: 'segment' | 'count' | 'phase') => view.steps.map((s) => [s[label], s.when]);

/** Who did what in a step (entries as "combatant kind outcome"). */
const lines = (step: StepView) => step.entries.map((e) => [e.combatant, e.kind, e.outcome ?? '-'].join(' '));

const ids = (cs: CombatantView[], pick: (c: CombatantView) => boolean) => cs.filter(pick).map((c) => c.id);

/** Every object anywhere in a value. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, out);
  else if (value !== null && typeof value === 'object') {
    out.push(value as Record<string, unknown>);
    for (const v of Object.values(value)) objectsIn(v, out);
  }
  return out;
}

/** Objects of a view that carry a combatant's plan (a declaration or an entry with its target / spell / note). */
function plansOf(view: TimelineView, id: string): Record<string, unknown>[] {
  return objectsIn(view).filter(
    (o) => (o.combatant === id || o.caster === id) && ('target' in o || 'spell' in o || 'note' in o || 'castingTime' in o),
  );
}

/* ================================================================ fixtures */

/**
 * Seed 000's Halvaine example, as a fight: "The party rolls a 5 for
 * initiative, and the GM rolls a 4 for the orcs. Halvaine thus begins casting
 * in the fourth segment ... The orcs attack in the fifth segment ... and
 * Halvaine's spell will go off in the sixth segment". With a shaman whose
 * plan the GM keeps to himself and a stalker the GM hides from the players.
 */
function halvaine(extraRolls: ScriptedRoll[] = []): Table {
  const enc: Encounter = {
    sides: [PARTY, ORCS],
    combatants: [
      who('halvaine', 'Halvaine the Arcane', 'party', { hp: 6, maxHp: 6, spells: ['Sleep', 'Web'] }),
      who('fighter', 'Fighter', 'party', { maxHp: 10 }),
      who('orc', 'Orc', 'orcs', { hp: 5, maxHp: 5 }),
      who('shaman', 'Orc Shaman', 'orcs', { hp: 5, maxHp: 5, spells: ['Darkness'] }),
      who('stalker', 'Invisible Stalker', 'orcs', { hp: 8, maxHp: 8 }),
      who('corpse', 'Dead Orc', 'orcs', { hp: 0, maxHp: 5 }),
    ],
  };
  return new Table('segment-d6', enc, [
    { purpose: 'surprise', side: 'party', result: 5 },
    { purpose: 'surprise', side: 'orcs', result: 5 },
    { purpose: 'initiative', side: 'party', round: 1, result: 5 },
    { purpose: 'initiative', side: 'orcs', round: 1, result: 4 },
    ...extraRolls,
  ]);
}

/** The monsters' plans in the Halvaine fight: what the GM notes and the players must not learn before it happens. */
const SECRET = {
  orc: melee('orc', 'halvaine', { note: 'go for the wizard first' }),
  shaman: spell('shaman', 'Darkness', 3, { target: 'fighter', note: 'blind the fighter' }),
  stalker: melee('stalker', 'fighter'),
};

function halvaineDeclared(): Table {
  return halvaine().declare(spell('halvaine', 'Sleep', 2, { target: 'orc' }), melee('fighter', 'orc'), SECRET.orc, SECRET.shaman, SECRET.stalker);
}

/** Halvaine casts a one-round spell (10 segments) from segment 4; the shaman too, from segment 5. */
function longSpells(): Table {
  return halvaine([
    { purpose: 'initiative', side: 'party', round: 2, result: 3 },
    { purpose: 'initiative', side: 'orcs', round: 2, result: 3 },
  ]).declare(spell('halvaine', 'Web', 10), spell('shaman', 'Darkness', 10), melee('orc', 'fighter'));
}

/* ========================================================== declarations */

describe('declarations: who has declared, who may', () => {
  it('while declaring, the GM sees who has declared and who is still expected to (segment-d6)', () => {
    const t = halvaine();
    let v = t.view();
    expect(v.stage).toBe('declare');
    expect(v.round).toBe(1);
    expect(v.kind).toBe('round');
    expect(v.steps).toEqual([]);
    expect(v.current).toBeNull();
    expect(v.initiative).toBeNull();
    expect(ids(v.combatants, (c) => c.declared)).toEqual([]);
    // The dead orc is on the list but nobody waits for it.
    expect(ids(v.combatants, (c) => c.mayDeclare)).toEqual(['halvaine', 'fighter', 'orc', 'shaman', 'stalker']);
    expect(combatant(v, 'corpse')).toMatchObject({ condition: 'dead', mayDeclare: false, declared: false });

    t.declare(melee('fighter', 'orc'), SECRET.orc);
    v = t.view();
    expect(ids(v.combatants, (c) => c.declared)).toEqual(['fighter', 'orc']);
    expect(ids(v.combatants, (c) => c.mayDeclare && !c.declared)).toEqual(['halvaine', 'shaman', 'stalker']);

    t.do({ t: 'withdraw', c: 'fighter' });
    v = t.view();
    expect(combatant(v, 'fighter')).toMatchObject({ declared: false, mayDeclare: true });
    expect(combatant(v, 'fighter').declaration).toBeUndefined();
  });

  it('the GM sees every declaration, the monsters\' too; a player sees only their own side\'s (seed 004: the DM "privately notes" them)', () => {
    const t = halvaineDeclared();
    const gm = t.view();
    expect(combatant(gm, 'halvaine').declaration).toEqual(spell('halvaine', 'Sleep', 2, { target: 'orc' }));
    expect(combatant(gm, 'orc').declaration).toEqual(SECRET.orc);
    expect(combatant(gm, 'shaman').declaration).toEqual(SECRET.shaman);
    expect(combatant(gm, 'stalker').declaration).toEqual(SECRET.stalker);

    const p = t.view(player(['stalker']));
    expect(combatant(p, 'halvaine').declaration).toEqual(spell('halvaine', 'Sleep', 2, { target: 'orc' }));
    expect(combatant(p, 'fighter').declaration).toEqual(melee('fighter', 'orc'));
    // That the orcs have made up their minds shows; what they decided does not.
    expect(combatant(p, 'orc')).toMatchObject({ declared: true });
    expect(combatant(p, 'orc').declaration).toBeUndefined();
    expect(combatant(p, 'shaman').declaration).toBeUndefined();
    expect(plansOf(p, 'orc')).toEqual([]);
    expect(plansOf(p, 'shaman')).toEqual([]);
  });

  it('a player of the other side sees the orcs\' plans and not the party\'s', () => {
    const v = halvaineDeclared().view({ gm: false, sides: ['orcs'] });
    expect(combatant(v, 'shaman').declaration).toEqual(SECRET.shaman);
    expect(combatant(v, 'halvaine').declaration).toBeUndefined();
    expect(plansOf(v, 'halvaine')).toEqual([]);
  });

  it('a combatant the GM hides is not on a player\'s screen at all; the GM still sees it', () => {
    const t = halvaineDeclared();
    expect(t.view(player(['stalker'])).combatants.map((c) => c.id)).toEqual(['halvaine', 'fighter', 'orc', 'shaman', 'corpse']);
    expect(t.view({ gm: true, hidden: ['stalker'] }).combatants.map((c) => c.id)).toContain('stalker');
    // Nothing hidden from a player who is not told about hidden combatants.
    expect(t.view(player()).combatants.map((c) => c.id)).toContain('stalker');
  });

  it('surprised for a lost round: the surprised side is not expected to declare in round 1, and is in round 2 (high-low)', () => {
    const t = highLowAmbush();
    let v = t.view();
    expect(ids(v.combatants, (c) => c.mayDeclare)).toEqual(['orc']);
    t.declare(melee('orc', 'fighter')).next().finishRound().next();
    v = t.view();
    expect(v.round).toBe(2);
    expect(ids(v.combatants, (c) => c.mayDeclare)).toEqual(['fighter', 'mage', 'orc']);
  });

  it('addict: a combatant struck below 0 hp is unconscious; the flow refuses its declaration', () => {
    const t = addictFight();
    t.next(); // round 1's plan
    t.until({ segment: 4 }).hit('cleric', 7, 'goblin').finishRound().next();
    const v = t.view();
    expect(v.round).toBe(2);
    expect(combatant(v, 'cleric')).toMatchObject({ condition: 'dying', declared: false, health: { hp: -3, maxHp: 8 } });
    expect(declarationProblem(t.state, melee('cleric', 'goblin'))).toMatchObject({ key: 'ActRefusedDying' });
  });

  it('addict: an unconscious combatant (below 0 hp) is shown as expected to declare (mayDeclare)', () => {
    const t = addictFight();
    t.next();
    t.until({ segment: 4 }).hit('cleric', 7, 'goblin').finishRound().next();
    expect(combatant(t.view(), 'cleric').mayDeclare).toBe(false);
  });
});

/* ================================================================ health */

describe('health: exact on one\'s own side, a condition otherwise', () => {
  it('the GM sees every combatant\'s hit points; a player only their own side\'s, and the others\' condition', () => {
    const t = halvaineDeclared().next(); // segment 4: the party acts
    t.hit('orc', 3, 'fighter');
    const gm = t.view();
    expect(combatant(gm, 'orc').health).toEqual({ hp: 2, maxHp: 5 });
    expect(combatant(gm, 'halvaine').health).toEqual({ hp: 6, maxHp: 6 });

    const p = t.view(player());
    expect(combatant(p, 'halvaine').health).toEqual({ hp: 6, maxHp: 6 });
    expect(combatant(p, 'fighter').health).toEqual({ hp: 10, maxHp: 10 });
    expect(combatant(p, 'orc').health).toBeUndefined();
    expect(combatant(p, 'orc').condition).toBe('ok');
    // The blow itself was seen: the damage line is there, the orc's hit points are not.
    expect(stepAt(p, { segment: 4 }).damage).toEqual([{ target: 'orc', amount: 3, wounds: 3, by: 'fighter' }]);

    t.hit('orc', 4, 'fighter');
    const after = t.view(player());
    expect(combatant(after, 'orc')).toMatchObject({ condition: 'dead' });
    expect(combatant(after, 'orc').health).toBeUndefined();
    expect(JSON.stringify(combatant(after, 'orc'))).not.toMatch(/"hp"/);
  });

  it('individual-speed: a player sees their own Stress and Wound Points, never a monster\'s', () => {
    const t = ghoulFight();
    t.next().hit('fighter', 6, 'orc');
    const p = t.view(player());
    expect(combatant(p, 'fighter').health).toEqual({ hp: 10, stress: 0, woundPoints: 10 });
    expect(combatant(p, 'orc').health).toBeUndefined();
    expect(combatant(p, 'orc').baseInitiative).toBeUndefined();
    expect(combatant(t.view(), 'orc').health).toEqual({ hp: 10, stress: 2, woundPoints: 10 });
  });
});

/* ================================================================= steps */

describe('steps: done, current and next as the GM presses Next', () => {
  it('segment-d6: segments 4, 5, 6 of the Halvaine example go from next to current to done', () => {
    const t = halvaineDeclared();
    t.next();
    let v = t.view();
    expect(v.stage).toBe('resolve');
    expect(v.steps.every((s) => s.phase === 'd6-segment')).toBe(true);
    expect(when(v, 'segment')).toEqual([
      [4, 'current'],
      [5, 'next'],
      [6, 'next'],
      [8, 'next'],
    ]);
    expect(v.current).toBe(0);
    // Outcomes are decided for the step being played, not for those to come.
    expect(lines(stepAt(v, { segment: 4 }))).toEqual(['halvaine cast-begin begins', 'fighter action acts']);
    expect(lines(stepAt(v, { segment: 5 }))).toEqual(['orc action -', 'shaman cast-begin -', 'stalker action -']);

    t.next();
    v = t.view();
    expect(when(v, 'segment')).toEqual([
      [4, 'done'],
      [5, 'current'],
      [6, 'next'],
      [8, 'next'],
    ]);
    expect(v.current).toBe(1);

    t.next(2);
    v = t.view();
    expect(when(v, 'segment')).toEqual([
      [4, 'done'],
      [5, 'done'],
      [6, 'done'],
      [8, 'current'],
    ]);
    t.next();
    v = t.view();
    expect(v.stage).toBe('end-of-round');
    expect(v.current).toBeNull();
    expect(v.steps.every((s) => s.when === 'done')).toBe(true);
    expect(v.end).toEqual([]);
  });

  it('a player sees every step played and only their own side\'s steps to come', () => {
    const t = halvaineDeclared().next();
    let p = t.view(player(['stalker']));
    expect(when(p, 'segment')).toEqual([
      [4, 'current'],
      [6, 'next'],
    ]);
    expect(lines(stepAt(p, { segment: 6 }))).toEqual(['halvaine cast-complete -']);
    t.next();
    p = t.view(player(['stalker']));
    // The orcs' segment is being played: now it shows, with what they do (the stalker stays hidden).
    expect(when(p, 'segment')).toEqual([
      [4, 'done'],
      [5, 'current'],
      [6, 'next'],
    ]);
    expect(lines(stepAt(p, { segment: 5 }))).toEqual(['orc action acts', 'shaman cast-begin begins']);
  });

  it('individual-speed: steps are labelled by initiative count, lowest first', () => {
    const t = ghoulFight().next();
    let v = t.view();
    expect(v.steps.every((s) => s.segment === undefined && s.phase === 'speed-count')).toBe(true);
    expect(when(v, 'count')).toEqual([
      [5, 'current'],
      [7, 'next'],
      [13, 'next'],
    ]);
    expect(combatant(v, 'fighter').initiative).toBe(13); // base 10 + weapon speed 3
    expect(combatant(v, 'fighter').baseInitiative).toBe(10);
    t.next();
    v = t.view();
    expect(when(v, 'count')).toEqual([
      [5, 'done'],
      [7, 'current'],
      [13, 'next'],
    ]);
  });

  it('high-low: steps are labelled by phase (activation, HIGH, LOW, spells) with no segment or count', () => {
    const t = highLowAmbush();
    t.declare(melee('orc', 'fighter')).next().finishRound().next();
    t.declare(melee('fighter', 'orc'), spell('mage', 'Magic Missile', 1, { target: 'orc' })).next();
    const v = t.view();
    expect(v.steps.map((s) => [s.phase, s.when])).toEqual([
      ['activation', 'current'],
      ['high', 'next'],
      ['low', 'next'],
      ['spells', 'next'],
    ]);
    expect(v.steps.every((s) => s.segment === undefined && s.count === undefined)).toBe(true);
    expect(lines(stepAt(v, { phase: 'high' }))).toEqual(['fighter action -']);
    expect(lines(stepAt(v, { phase: 'low' }))).toEqual(['orc action -']);
  });
});

/* ============================================================== castings */

describe('castings: begun, going off, interrupted by a hit', () => {
  it('seed 000: Halvaine begins casting in segment 4 and the spell goes off in segment 6', () => {
    const t = halvaineDeclared().next();
    let v = t.view();
    const begin = stepAt(v, { segment: 4 }).entries[0];
    expect(begin).toMatchObject({ combatant: 'halvaine', kind: 'cast-begin', action: 'spell', spell: 'Sleep', castingTime: 2, device: false, target: 'orc', outcome: 'begins' });
    expect(stepAt(v, { segment: 6 }).entries[0]).toMatchObject({ combatant: 'halvaine', kind: 'cast-complete', casting: begin.casting, spell: 'Sleep' });
    expect(stepAt(v, { segment: 6 }).entries[0].outcome).toBeUndefined();
    t.until({ segment: 6 });
    v = t.view();
    expect(stepAt(v, { segment: 6 })).toMatchObject({ when: 'current', interruptions: [], damage: [] });
    expect(lines(stepAt(v, { segment: 6 }))).toEqual(['halvaine cast-complete goes-off']);
  });

  it('seed 000: "provided ... the orcish attack in the fifth segment does not interrupt and thus spoil his casting" — the hit, the lost spell and the fallen in that step', () => {
    const t = halvaineDeclared().next(2); // segment 5: the orcs attack
    t.hit('halvaine', 7, 'orc').hit('fighter', 2, 'orc');
    let v = t.view();
    const five = stepAt(v, { segment: 5 });
    expect(five.when).toBe('current');
    expect(five.damage).toEqual([
      { target: 'halvaine', amount: 7, wounds: 7, by: 'orc' },
      { target: 'fighter', amount: 2, wounds: 2, by: 'orc' },
    ]);
    const casting = stepAt(v, { segment: 4 }).entries[0].casting;
    expect(five.interruptions).toEqual([{ casting, caster: 'halvaine', spell: 'Sleep', outcome: 'interrupted', expended: true }]);
    // Only who went down is among the fallen: the fighter is hurt, still up.
    expect(five.fallen).toEqual([{ combatant: 'halvaine', condition: 'dead' }]);
    expect(combatant(v, 'halvaine')).toMatchObject({ condition: 'dead', mayDeclare: false });
    // Nothing of it spills into other steps.
    expect(stepAt(v, { segment: 4 })).toMatchObject({ damage: [], interruptions: [], fallen: [] });
    // Segment 6 is still to come, but the spell will not go off there: the GM's timeline says so already ("spoil his casting").
    expect(stepAt(v, { segment: 6 }).when).toBe('next');
    expect(lines(stepAt(v, { segment: 6 }))).toEqual(['halvaine cast-complete interrupted']);

    t.next();
    v = t.view();
    expect(lines(stepAt(v, { segment: 6 }))).toEqual(['halvaine cast-complete interrupted']);
    expect(stepAt(v, { segment: 6 }).interruptions).toEqual([]);

    // The party's player reads the same blow on their own wizard.
    const p = t.view(player(['stalker']));
    expect(stepAt(p, { segment: 5 }).interruptions).toEqual([{ casting, caster: 'halvaine', spell: 'Sleep', outcome: 'interrupted', expended: true }]);
    expect(stepAt(p, { segment: 5 }).fallen).toEqual([{ combatant: 'halvaine', condition: 'dead' }]);
  });

  it('README ruling: damage in the segment the spell goes off is simultaneous and does not stop it', () => {
    const t = halvaineDeclared().next().until({ segment: 6 });
    t.hit('halvaine', 2, 'orc');
    const six = stepAt(t.view(), { segment: 6 });
    expect(six.damage).toEqual([{ target: 'halvaine', amount: 2, wounds: 2, by: 'orc' }]);
    expect(six.interruptions).toEqual([]);
    expect(six.fallen).toEqual([]);
    expect(lines(six)).toEqual(['halvaine cast-complete goes-off']);
  });
});

/* ============================================================== surprise */

describe('surprise: who is still surprised', () => {
  /** Seed 000: "if the monsters rolled a 1, the party rolled a 2, and one party member had a +2 surprise bonus". */
  function nimble(): Table {
    const enc: Encounter = {
      sides: [PARTY, ORCS],
      combatants: [who('fighter', 'Fighter', 'party'), who('nimble', 'Nimble', 'party', { surpriseAdjustment: 2 }), who('orc', 'Orc', 'orcs')],
    };
    return new Table('segment-d6', enc, [
      { purpose: 'surprise', side: 'party', result: 2 },
      { purpose: 'surprise', side: 'orcs', result: 1 },
    ]).declare(melee('fighter', 'orc'), melee('nimble', 'orc'), melee('orc', 'fighter'));
  }

  it('seed 000: the nimble member acts in segment 1 while everyone else is surprised; in segment 2 the monsters act too', () => {
    const t = nimble();
    let v = t.view();
    expect(v).toMatchObject({ round: 0, kind: 'surprise', surprise: { unit: 'segments', anyone: true } });
    expect(v.sides.map((s) => [s.id, s.surpriseRoll])).toEqual([
      ['party', 2],
      ['orcs', 1],
    ]);
    expect(v.combatants.map((c) => [c.id, c.surprised])).toEqual([
      ['fighter', 2],
      ['nimble', 0],
      ['orc', 1],
    ]);
    t.next();
    v = t.view();
    expect(stepAt(v, { segment: 1 })).toMatchObject({ phase: 'd6-surprise', when: 'current' });
    expect(ids(v.combatants, (c) => c.stillSurprised)).toEqual(['fighter', 'orc']);
    expect(lines(stepAt(v, { segment: 1 }))).toEqual(['nimble action acts']);
    t.next();
    v = t.view();
    expect(stepAt(v, { segment: 2 }).when).toBe('current');
    expect(ids(v.combatants, (c) => c.stillSurprised)).toEqual(['fighter']);
    expect(lines(stepAt(v, { segment: 2 }))).toEqual(['nimble action acts', 'orc action acts']);
    // Round 1: surprise is over for everyone.
    t.next(2);
    v = t.view();
    expect(v).toMatchObject({ round: 1, kind: 'round', stage: 'declare' });
    expect(ids(v.combatants, (c) => c.stillSurprised)).toEqual([]);
  });

  it('once the surprise segments are played, nobody shows as still surprised (the orc acted in segment 2)', () => {
    const t = nimble().next(3);
    const v = t.view();
    expect(v).toMatchObject({ round: 0, stage: 'end-of-round' });
    expect(ids(v.combatants, (c) => c.stillSurprised)).toEqual([]);
  });

  it('high-low: a surprised side loses round 1 and is still surprised all through it; not in round 2', () => {
    const t = highLowAmbush();
    let v = t.view();
    expect(v).toMatchObject({ round: 1, kind: 'round', surprise: { unit: 'round', anyone: true } });
    expect(ids(v.combatants, (c) => c.stillSurprised)).toEqual(['fighter', 'mage']);
    expect(v.combatants.map((c) => c.surprised)).toEqual([1, 1, 0]);
    t.declare(melee('orc', 'fighter')).next();
    v = t.view();
    expect(ids(v.combatants, (c) => c.stillSurprised)).toEqual(['fighter', 'mage']);
    expect(v.steps.flatMap((s) => s.entries.map((e) => e.combatant))).toEqual(['orc']);
    t.finishRound().next();
    v = t.view();
    expect(v.round).toBe(2);
    expect(ids(v.combatants, (c) => c.stillSurprised)).toEqual([]);
  });

  it('d12-ascending: the surprise round is round 0; the surprised orc neither declares nor acts in it, and does in round 1', () => {
    const enc: Encounter = { sides: [PARTY, ORCS], combatants: [who('fighter', 'Fighter', 'party'), who('orc', 'Orc', 'orcs')] };
    const t = new Table('d12-ascending', enc, [
      { purpose: 'surprise', side: 'party', result: 9 },
      { purpose: 'surprise', side: 'orcs', result: 1 },
      { purpose: 'initiative', side: 'party', result: 4 },
      { purpose: 'initiative', side: 'orcs', result: 6 },
    ]);
    let v = t.view();
    expect(v).toMatchObject({ round: 0, kind: 'surprise', surprise: { unit: 'round', anyone: true } });
    expect(combatant(v, 'orc')).toMatchObject({ surprised: 1, stillSurprised: true, mayDeclare: false });
    expect(combatant(v, 'fighter')).toMatchObject({ surprised: 0, stillSurprised: false, mayDeclare: true });
    t.declare(melee('fighter', 'orc')).next();
    v = t.view();
    expect(v.steps.map((s) => [s.phase, s.when, lines(s)])).toEqual([['d12-surprise', 'current', ['fighter action acts']]]);
    t.finishRound().next();
    v = t.view();
    expect(v).toMatchObject({ round: 1, kind: 'round' });
    expect(combatant(v, 'orc')).toMatchObject({ stillSurprised: false, mayDeclare: true });
    t.declare(melee('orc', 'fighter')).next();
    v = t.view();
    // Lowest d12 acts first; steps carry the count.
    expect(when(v, 'count')).toEqual([
      [4, 'current'],
      [6, 'next'],
    ]);
    expect(v.initiative).toEqual({ winner: 'party', tie: false });
  });
});

/* ============================================================ initiative */

describe('initiative: the winner and ties', () => {
  it('seed 000: the party rolls 5, the orcs 4 — the party wins and acts in segment 4', () => {
    const v = halvaineDeclared().next().view();
    expect(v.initiative).toEqual({ winner: 'party', tie: false });
    expect(v.sides.map((s) => [s.id, s.initiative, s.winner])).toEqual([
      ['party', 5, true],
      ['orcs', 4, false],
    ]);
    expect(stepAt(v, { segment: 4 }).entries.map((e) => e.combatant)).toEqual(['halvaine', 'fighter']);
  });

  it('seed 000: "Initiative rolls may result in a tie ... both sides are considered to be acting simultaneously"', () => {
    const enc: Encounter = { sides: [PARTY, ORCS], combatants: [who('fighter', 'Fighter', 'party'), who('orc', 'Orc', 'orcs')] };
    const t = new Table('segment-d6', enc, [
      { purpose: 'surprise', result: 5 },
      { purpose: 'surprise', result: 5 },
      { purpose: 'initiative', side: 'party', result: 3 },
      { purpose: 'initiative', side: 'orcs', result: 3 },
    ]);
    const v = t.declare(melee('fighter', 'orc'), melee('orc', 'fighter')).next().view();
    expect(v.initiative).toEqual({ winner: null, tie: true });
    expect(v.sides.map((s) => [s.initiative, s.winner])).toEqual([
      [3, false],
      [3, false],
    ]);
    expect(when(v, 'segment')).toEqual([[3, 'current']]);
    expect(lines(v.steps[0])).toEqual(['fighter action acts', 'orc action acts']);
  });

  /** Three sides; the two highest dice tie. */
  function threeSides(): TimelineView {
    const enc: Encounter = {
      sides: [PARTY, ORCS, { id: 'goblins', name: 'Goblins' }],
      combatants: [who('fighter', 'Fighter', 'party'), who('orc', 'Orc', 'orcs'), who('gob', 'Goblin', 'goblins')],
    };
    const t = new Table('segment-d6', enc, [
      { purpose: 'surprise', result: 5 },
      { purpose: 'surprise', result: 5 },
      { purpose: 'surprise', result: 5 },
      { purpose: 'initiative', side: 'party', result: 5 },
      { purpose: 'initiative', side: 'orcs', result: 5 },
      { purpose: 'initiative', side: 'goblins', result: 2 },
    ]);
    return t.declare(melee('fighter'), melee('orc'), melee('gob')).next().view();
  }

  it('three sides, the two highest dice equal: nobody wins, everyone acts together in segment 5', () => {
    const v = threeSides();
    expect(v.initiative?.winner).toBeNull();
    expect(v.sides.every((s) => !s.winner)).toBe(true);
    expect(when(v, 'segment')).toEqual([[5, 'current']]);
  });

  it('three sides, the two highest dice equal — the view should say it is a tie', () => {
    expect(threeSides().initiative).toEqual({ winner: null, tie: true });
  });

  it('high-low: the higher die is HIGH, the other LOW; on a tie both are HIGH', () => {
    const t = highLowAmbush();
    t.declare(melee('orc', 'fighter')).next().finishRound().next();
    t.declare(melee('fighter', 'orc'), spell('mage', 'Magic Missile', 1, { target: 'orc' })).next();
    let v = t.view();
    expect(v.initiative).toEqual({ winner: 'party', tie: false });
    expect(v.sides.map((s) => [s.id, s.initiative, s.label, s.winner])).toEqual([
      ['party', 5, 'high', true],
      ['orcs', 2, 'low', false],
    ]);
    t.finishRound().next().next(); // round 3, same declarations
    v = t.view();
    expect(v.round).toBe(3);
    expect(v.initiative).toEqual({ winner: null, tie: true });
    expect(v.sides.map((s) => [s.initiative, s.label])).toEqual([
      [4, 'high'],
      [4, 'high'],
    ]);
    expect(lines(stepAt(v, { phase: 'high' }))).toEqual(['fighter action -', 'orc action -']);
  });
});

/* ============================================================ carry-over */

describe('castings carried over a round boundary', () => {
  it('README ruling: a casting time of "1 round" carries out of round 1 and goes off in round 2', () => {
    const t = longSpells().next();
    let v = t.view();
    expect(v.carryIn).toEqual([]);
    expect(v.carryOut).toEqual([]); // only once the round is over
    t.finishRound();
    v = t.view();
    expect(v.stage).toBe('end-of-round');
    const web = { casting: 'halvaine@1', caster: 'halvaine', spell: 'Web', device: false, castingTime: 10, beganRound: 1 };
    const darkness = { casting: 'shaman@1', caster: 'shaman', spell: 'Darkness', device: false, castingTime: 10, beganRound: 1 };
    expect(v.carryOut).toEqual([
      { ...web, remaining: 4, status: 'pending' },
      { ...darkness, remaining: 5, status: 'pending' },
    ]);
    // A player sees both carry out, but only their own side's spell and time: the shaman is casting something.
    expect(t.view(player()).carryOut.map((c) => [c.caster, c.spell, c.remaining])).toEqual([
      ['halvaine', 'Web', 4],
      ['shaman', undefined, undefined],
    ]);

    t.next(); // round 2 is declared
    t.next(); // and planned
    v = t.view();
    expect(v).toMatchObject({ round: 2, stage: 'resolve', carryOut: [] });
    expect(v.carryIn).toEqual([
      { ...web, remaining: 0, status: 'pending' },
      { ...darkness, remaining: 0, status: 'pending' },
    ]);
    // They go off 4 and 5 segments into round 2.
    expect(lines(stepAt(v, { segment: 4 }))).toEqual(['halvaine cast-complete -']);
    expect(lines(stepAt(v, { segment: 5 }))).toEqual(['shaman cast-complete -']);
    t.until({ segment: 4 });
    v = t.view();
    expect(lines(stepAt(v, { segment: 4 }))).toEqual(['halvaine cast-complete goes-off']);
    expect(v.carryIn.find((c) => c.caster === 'halvaine')?.status).toBe('done');
    t.finishRound();
    expect(t.view().carryOut).toEqual([]);
  });

  it('a player sees another side begin casting, but learns the spell, its time and its target only when it goes off', () => {
    const t = longSpells().next();
    t.until({ segment: 5 });
    const begun = (v: TimelineView) => v.steps.flatMap((st) => st.entries).find((e) => e.combatant === 'shaman' && e.kind === 'cast-begin');
    const gm = begun(t.view());
    expect(gm).toMatchObject({ spell: 'Darkness', castingTime: 10 });
    const seen = begun(t.view(player()));
    expect(seen).toBeDefined();
    expect(seen?.action).toBe('spell');
    expect(seen?.spell).toBeUndefined();
    expect(seen?.castingTime).toBeUndefined();
    expect(seen?.target).toBeUndefined();
    // The party's own casting keeps its details for the party.
    expect(t.view(player()).steps.flatMap((st) => st.entries).find((e) => e.combatant === 'halvaine' && e.kind === 'cast-begin')).toMatchObject({ spell: 'Web' });
    // In round 2 the shaman's Darkness goes off: then the player reads it.
    t.finishRound().next().next();
    t.until({ segment: 5 });
    const off = t.view(player()).steps.flatMap((st) => st.entries).find((e) => e.combatant === 'shaman' && e.kind === 'cast-complete');
    expect(off).toMatchObject({ spell: 'Darkness', outcome: 'goes-off' });
  });

  it('a hit during round 2\'s declarations breaks the carried spell (it is not planned into round 2)', () => {
    const t = longSpells().next().finishRound().next();
    t.hit('halvaine', 1, 'orc');
    expect(t.state.status['halvaine@1']).toBe('interrupted');
    t.next();
    const v = t.view();
    expect(v.carryIn.map((c) => c.caster)).toEqual(['shaman']);
    expect(v.steps.flatMap((s) => s.entries).some((e) => e.casting === 'halvaine@1')).toBe(false);
  });

  it('while round 2 is being declared, the castings carried into it show in carryIn', () => {
    const t = longSpells().next().finishRound().next();
    const v = t.view();
    expect(v).toMatchObject({ round: 2, stage: 'declare' });
    expect(v.carryIn.map((c) => [c.caster, c.spell, c.remaining, c.status])).toEqual([
      ['halvaine', 'Web', 4, 'pending'],
      ['shaman', 'Darkness', 5, 'pending'],
    ]);
  });

  it('a carried spell broken while round 2 is declared shows as interrupted in carryIn', () => {
    const t = longSpells().next().finishRound().next();
    t.hit('halvaine', 1, 'orc');
    expect(t.view().carryIn.find((c) => c.caster === 'halvaine')?.status).toBe('interrupted');
  });
});

/* ========================================================= late joiners */

/**
 * Seed 003's Ghoul: the fighter (base 10, weapon speed 3) acts at 13, the
 * cleric at 5, an orc at 7. Ghouls with a Base Initiative of 8 come in.
 */
function ghoulFight(options: ProcedureOptions = { automaticMorale: false }, rolls: ScriptedRoll[] = []): Table {
  const enc: Encounter = {
    sides: [PARTY, MONSTERS],
    combatants: [
      who('fighter', 'Fighter', 'party', { kind: 'character', weapon: { speed: 3 }, stress: 4, woundPoints: 12, strength: 12 }),
      who('cleric', 'Cleric', 'party', { kind: 'character' }),
      who('orc', 'Orc', 'monsters', { kind: 'monster', stress: 2, woundPoints: 10, strength: 10, hitDice: '2', insightModifier: 1 }),
    ],
  };
  return new Table(
    'individual-speed',
    enc,
    [
      { purpose: 'initiative', combatant: 'fighter', result: 10 },
      { purpose: 'initiative', combatant: 'cleric', result: 5 },
      { purpose: 'initiative', combatant: 'orc', result: 7 },
      { purpose: 'initiative', combatant: 'ghoul', result: 8 },
      ...rolls,
    ],
    options,
  ).declare(melee('fighter', 'orc'), { combatant: 'cleric', action: 'other' }, melee('orc', 'cleric'));
}

const GHOUL: Combatant = who('ghoul', 'Ghoul', 'monsters', { kind: 'monster', hp: 8 });
const joinGhoul: FlowInput = { t: 'join', c: GHOUL, d: melee('ghoul', 'fighter') };

describe('late joiners (seed 003: "new combatants enter play, they immediately roll Initiative")', () => {
  it('a ghoul joining while count 5 is played acts at 8 this round; the GM sees it join', () => {
    const t = ghoulFight().next(); // count 5
    t.do(joinGhoul);
    let v = t.view();
    expect(combatant(v, 'ghoul')).toMatchObject({ joined: true, declared: true, baseInitiative: 8, condition: 'ok' });
    expect(combatant(v, 'cleric').joined).toBeUndefined();
    expect(when(v, 'count')).toEqual([
      [5, 'current'],
      [7, 'next'],
      [8, 'next'],
      [13, 'next'],
    ]);
    // It came in before count 7 was played, and acts at its own count.
    expect(stepAt(v, { count: 7 }).joins).toEqual(['ghoul']);
    expect(stepAt(v, { count: 5 }).joins).toEqual([]);
    expect(lines(stepAt(v, { count: 8 }))).toEqual(['ghoul action -']);
    t.until({ count: 8 });
    v = t.view();
    expect(lines(stepAt(v, { count: 8 }))).toEqual(['ghoul action acts']);
    // A player sees the newcomer come in and act once it acts, but not its plan beforehand.
    const p = t.view(player());
    expect(combatant(p, 'ghoul')).toMatchObject({ joined: true });
    expect(combatant(p, 'ghoul').baseInitiative).toBeUndefined();
    expect(stepAt(p, { count: 7 }).joins).toEqual(['ghoul']);
  });

  it('the ghoul that joined at count 8 shows its initiative count, like everyone else acting this round', () => {
    const t = ghoulFight().next();
    t.do(joinGhoul);
    expect(combatant(t.view(), 'ghoul').initiative).toBe(8);
  });

  it('"the round is currently on Initiative 13": the ghoul acts next round at -4 and again at 8', () => {
    const t = ghoulFight().next().until({ count: 13 });
    t.do(joinGhoul);
    let v = t.view();
    expect(v.steps.flatMap((s) => s.entries).some((e) => e.combatant === 'ghoul')).toBe(false);
    expect(combatant(v, 'ghoul').joined).toBe(true);
    t.finishRound().next();
    v = t.view();
    // A new round: nobody "joined" in it.
    expect(combatant(v, 'ghoul').joined).toBeUndefined();
    t.next();
    v = t.view();
    expect(when(v, 'count')).toEqual([
      [-4, 'current'],
      [5, 'next'],
      [7, 'next'],
      [8, 'next'],
      [13, 'next'],
    ]);
    expect(stepAt(v, { count: -4 }).entries).toMatchObject([{ combatant: 'ghoul', kind: 'late-join', target: 'fighter', outcome: 'acts' }]);
    expect(lines(stepAt(v, { count: 8 }))).toEqual(['ghoul action -']);
  });
});

/* ========================================================= end of round */

/** An addict fight: the party wins round 1 (4 vs 2), round 2 (5 vs 1). */
function addictFight(hidden = false): Table {
  const enc: Encounter = {
    sides: [PARTY, FOES],
    combatants: [
      who('fighter', 'Fighter', 'party', { kind: 'character', maxHp: 10 }),
      who('cleric', 'Cleric', 'party', { kind: 'character', hp: 4, maxHp: 8 }),
      who('goblin', 'Goblin', 'foes', { kind: 'monster', hp: 5, maxHp: 5 }),
      ...(hidden ? [who('stalker', 'Invisible Stalker', 'foes', { kind: 'monster', hp: 3, maxHp: 5, morale: 40 })] : []),
    ],
  };
  return new Table('addict', enc, [
    { purpose: 'surprise', side: 'party', result: 3 },
    { purpose: 'surprise', side: 'foes', result: 4 },
    { purpose: 'morale', combatant: 'stalker', result: 90 },
    { purpose: 'initiative', side: 'party', round: 1, result: 4 },
    { purpose: 'initiative', side: 'foes', round: 1, result: 2 },
    { purpose: 'initiative', side: 'party', round: 2, result: 5 },
    { purpose: 'initiative', side: 'foes', round: 2, result: 1 },
  ]).declare(melee('fighter', 'goblin'), melee('cleric', 'goblin'), melee('goblin', 'cleric'));
}

describe('end of round: bleeding and morale', () => {
  it('addict phase 9: "Any combatants who had negative hit points at the start of the round lose 1 hit point"', () => {
    const t = addictFight().next();
    expect(t.view().end).toBeNull();
    t.until({ segment: 4 }).hit('cleric', 7, 'goblin');
    let v = t.view();
    expect(stepAt(v, { segment: 4 }).fallen).toEqual([{ combatant: 'cleric', condition: 'dying' }]);
    t.finishRound();
    v = t.view();
    // Round 1: the cleric was up when it began, so no bleeding yet.
    expect(v).toMatchObject({ round: 1, stage: 'end-of-round', end: [] });
    t.next().next().finishRound();
    v = t.view();
    expect(v).toMatchObject({ round: 2, stage: 'end-of-round' });
    expect(v.end).toEqual([{ kind: 'bleed', combatant: 'cleric', amount: 1 }]);
    expect(combatant(v, 'cleric')).toMatchObject({ condition: 'dying', health: { hp: -4, maxHp: 8 } });
    // The party's player reads the same.
    const p = t.view(player());
    expect(p.end).toEqual([{ kind: 'bleed', combatant: 'cleric', amount: 1 }]);
    expect(combatant(p, 'cleric').health).toEqual({ hp: -4, maxHp: 8 });
    // The next round's declarations start with a clean end.
    t.next();
    expect(t.view().end).toBeNull();
  });

  it('individual-speed step 4: a monster that took more than half its Wound Points in one hit checks morale and routs', () => {
    const t = ghoulFight({}, [{ purpose: 'morale', combatant: 'orc', round: 1, result: 3 }]).next().until({ count: 13 }); // the fighter
    t.hit('orc', 9, 'fighter'); // 2 Stress, 7 Wound Points of 10
    t.finishRound();
    const v = t.view();
    expect(v.end).toEqual([{ kind: 'morale', combatant: 'orc', trigger: 'half-wounds', roll: 3, total: 6, target: 13, passed: false }]);
    expect(combatant(v, 'orc')).toMatchObject({ routed: true, condition: 'ok' });
    // A player sees the orc break, not its Wound Points.
    const p = t.view(player());
    expect(combatant(p, 'orc').routed).toBe(true);
    expect(combatant(p, 'orc').health).toBeUndefined();
    expect(p.end).toEqual(v.end);
  });

  it('addict phase 4: opening morale shows before round 1 is declared', () => {
    const t = addictFight(true);
    t.do({ t: 'morale', requests: [{ combatant: 'stalker', trigger: 'overwhelming' }] });
    const v = t.view();
    expect(v.opening).toEqual([{ kind: 'morale', combatant: 'stalker', trigger: 'overwhelming', roll: 90, total: 90, target: 40, passed: false }]);
    expect(combatant(v, 'stalker').routed).toBe(true);
  });
});

/* ================================================================ purity */

describe('the view is pure', () => {
  /** Every view of a combat at every moment, GM and player: the state never changes and two views agree. */
  function everyMoment(t: Table, play: (t: Table, look: () => void) => void, viewers: Viewer[]): number {
    let looks = 0;
    const look = () => {
      for (const viewer of viewers) {
        const before = structuredClone(t.state);
        const a = timeline(t.state, viewer);
        const b = timeline(t.state, viewer);
        expect(t.state).toStrictEqual(before);
        expect(b).toStrictEqual(a);
        expect(JSON.parse(JSON.stringify(a))).toStrictEqual(a); // plain JSON, as screens and the runner's --json take it
        looks++;
      }
    };
    look();
    play(t, look);
    return looks;
  }

  it('segment-d6: through declarations, every step, hits, the end of the round and the next round', () => {
    const n = everyMoment(
      halvaine([
        { purpose: 'initiative', side: 'party', round: 2, result: 2 },
        { purpose: 'initiative', side: 'orcs', round: 2, result: 6 },
      ]),
      (t, look) => {
        for (const d of [spell('halvaine', 'Sleep', 2, { target: 'orc' }), melee('fighter', 'orc'), SECRET.orc, SECRET.shaman, SECRET.stalker]) {
          t.declare(d);
          look();
        }
        t.next();
        look();
        while (t.state.stage === 'resolve') {
          if (t.state.step === 1) {
            t.hit('halvaine', 3, 'orc').hit('fighter', 2, 'stalker');
            look();
          }
          t.next();
          look();
        }
        t.next();
        look();
        t.next();
        look();
        t.finishRound();
        look();
      },
      [GM_VIEW, player(['stalker']), { gm: false, sides: ['orcs'] }],
    );
    expect(n).toBeGreaterThan(30);
  });

  it('individual-speed with a late joiner, and addict with opening morale and bleeding', () => {
    everyMoment(
      ghoulFight(),
      (t, look) => {
        t.next();
        look();
        t.do(joinGhoul);
        look();
        t.finishRound();
        look();
        t.next().next();
        look();
      },
      [GM_VIEW, player()],
    );
    everyMoment(
      addictFight(true),
      (t, look) => {
        t.do({ t: 'morale', requests: [{ combatant: 'stalker', trigger: 'overwhelming' }] });
        look();
        t.next().until({ segment: 4 }).hit('cleric', 7, 'goblin');
        look();
        t.finishRound().next().next().finishRound();
        look();
      },
      [GM_VIEW, player(['stalker'])],
    );
  });

  it('a screen that edits the view it was given does not touch the combat', () => {
    const addict = addictFight(true).do({ t: 'morale', requests: [{ combatant: 'stalker', trigger: 'overwhelming' }] });
    addict.next().until({ segment: 4 }).hit('cleric', 7, 'goblin').finishRound().next().next().finishRound();
    const tables = [halvaineDeclared().next(2).hit('halvaine', 7, 'orc'), longSpells().next().finishRound(), addict];
    for (const t of tables) {
      const before = structuredClone(t.state);
      const v = timeline(t.state);
      expect(v.stage === 'resolve' || (v.opening !== null && v.end !== null) || v.carryOut.length > 0).toBe(true);
      for (const o of objectsIn(v)) {
        for (const k of Object.keys(o)) {
          const x = o[k];
          if (Array.isArray(x)) x.splice(0, x.length, 'scribble');
          else if (typeof x !== 'object' || x === null) o[k] = 'scribble';
        }
      }
      expect(t.state).toStrictEqual(before);
      expect(timeline(t.state)).not.toStrictEqual(v);
    }
  });
});

/* ================================================================= leaks */

describe('nothing hidden leaks into a player\'s view', () => {
  const SECRETS = ['Darkness', 'blind the fighter', 'go for the wizard first', 'stalker', 'Invisible Stalker'];
  const leaks = (v: TimelineView) => SECRETS.filter((s) => JSON.stringify(v).includes(s));

  it('while declaring: no monster plan, no hidden combatant anywhere in the player\'s view', () => {
    const t = halvaineDeclared();
    const p = t.view(player(['stalker']));
    expect(leaks(p)).toEqual([]);
    for (const id of ['orc', 'shaman']) expect(plansOf(p, id)).toEqual([]);
    // The GM's view has them all (the test would catch nothing if they were never there).
    expect(SECRETS.filter((s) => !JSON.stringify(t.view()).includes(s))).toEqual([]);
  });

  it('once the round is planned, the monsters\' steps to come stay hidden until they are played', () => {
    const t = halvaineDeclared().next(); // segment 4: the party acts; the orcs' plans are in segments 5 and 8
    const p = t.view(player(['stalker']));
    expect(leaks(p)).toEqual([]);
    for (const id of ['orc', 'shaman']) expect(plansOf(p, id)).toEqual([]);
    expect(p.steps.flatMap((s) => s.entries).map((e) => e.combatant)).toEqual(['halvaine', 'fighter', 'halvaine']);
  });

  it('the hidden stalker\'s own steps and hits on it never show', () => {
    const t = halvaineDeclared().next().hit('stalker', 2, 'fighter').next();
    const p = t.view(player(['stalker']));
    expect(stepAt(p, { segment: 4 }).damage).toEqual([]);
    expect(p.steps.flatMap((s) => s.entries).some((e) => e.combatant === 'stalker')).toBe(false);
    expect(JSON.stringify(p)).not.toContain('Invisible Stalker');
  });

  it('the hidden stalker wounds the fighter — the player sees the wound, not who dealt it (damage.by)', () => {
    const t = halvaineDeclared().next(2); // segment 5: the orcs and the stalker act
    t.hit('fighter', 3, 'stalker');
    const p = t.view(player(['stalker']));
    expect(stepAt(p, { segment: 5 }).damage.map((d) => [d.target, d.amount])).toEqual([['fighter', 3]]);
    expect(JSON.stringify(p)).not.toContain('stalker');
  });

  /** The hidden stalker shoots (missile bonus 2): alone in segment 3, before the fighter (4) and the orc (5). */
  function sniper(): Table {
    const enc: Encounter = {
      sides: [PARTY, ORCS],
      combatants: [who('fighter', 'Fighter', 'party'), who('stalker', 'Invisible Stalker', 'orcs', { missileBonus: 2 }), who('orc', 'Orc', 'orcs')],
    };
    return new Table('segment-d6', enc, [
      { purpose: 'surprise', result: 5 },
      { purpose: 'surprise', result: 5 },
      { purpose: 'initiative', side: 'party', round: 1, result: 5 },
      { purpose: 'initiative', side: 'orcs', round: 1, result: 4 },
    ])
      .declare(melee('fighter', 'orc'), { combatant: 'stalker', action: 'missile', target: 'fighter' }, melee('orc', 'fighter'))
      .next()
      .until({ segment: 5 });
  }

  it('the GM sees the hidden sniper\'s own segment; its entries never reach a player', () => {
    const t = sniper();
    expect(when(t.view(), 'segment')).toEqual([
      [3, 'done'],
      [4, 'done'],
      [5, 'current'],
    ]);
    const p = t.view(player(['stalker']));
    expect(p.steps.flatMap((s) => s.entries).map((e) => e.combatant)).toEqual(['fighter', 'orc']);
    expect(JSON.stringify(p)).not.toContain('stalker');
  });

  it('a step where only the hidden sniper acted (and hit nobody) does not show on a player\'s screen', () => {
    expect(when(sniper().view(player(['stalker'])), 'segment')).toEqual([
      [4, 'done'],
      [5, 'current'],
    ]);
  });

  it('a hidden combatant\'s opening morale check is not in a player\'s view (opening)', () => {
    const t = addictFight(true);
    t.do({ t: 'morale', requests: [{ combatant: 'stalker', trigger: 'overwhelming' }] });
    expect(JSON.stringify(t.view(player(['stalker'])))).not.toContain('stalker');
  });

  it('a hidden combatant bleeding at the end of the round is not in a player\'s view (end)', () => {
    const t = addictFight(true).next();
    t.hit('stalker', 5); // a trap: no attacker named
    t.finishRound().next().next().finishRound();
    expect(t.view().end).toContainEqual({ kind: 'bleed', combatant: 'stalker', amount: 1 });
    expect(JSON.stringify(t.view(player(['stalker'])))).not.toContain('stalker');
  });
});

/* ============================================================== fixtures */

/** High-low: the party rolls 1 for surprise and loses round 1; round 2 party 5 / orcs 2; round 3 a tie at 4. */
function highLowAmbush(): Table {
  const enc: Encounter = {
    sides: [PARTY, ORCS],
    combatants: [who('fighter', 'Fighter', 'party'), who('mage', 'Mage', 'party', { hp: 4, spells: ['Magic Missile', 'Magic Missile'] }), who('orc', 'Orc', 'orcs')],
  };
  return new Table('high-low', enc, [
    { purpose: 'surprise', side: 'party', result: 1 },
    { purpose: 'surprise', side: 'orcs', result: 6 },
    { purpose: 'initiative', side: 'orcs', round: 1, result: 2 },
    { purpose: 'initiative', side: 'party', round: 2, result: 5 },
    { purpose: 'initiative', side: 'orcs', round: 2, result: 2 },
    { purpose: 'initiative', side: 'party', round: 3, result: 4 },
    { purpose: 'initiative', side: 'orcs', round: 3, result: 4 },
  ]);
}
