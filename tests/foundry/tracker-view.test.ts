/**
 * tracker-view.ts alone (pure): a timeline view and a few Foundry facts in,
 * the tracker's template context out, with the English strings.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { trackerContext, type CombatantFacts, type TrackerViewInput } from '../../src/apps/tracker/tracker-view';
import type { CombatantView, StepView, TimelineView } from '../../src/rules/timeline';

const EN = JSON.parse(readFileSync('lang/en.json', 'utf8')) as Record<string, string>;
const i18n = {
  localize: (key: string) => EN[key] ?? key,
  format: (key: string, data: Record<string, string>) => (EN[key] ?? key).replace(/\{(\w+)\}/g, (_m, k: string) => data[k] ?? `{${k}}`),
};

const fighter = (id: string, side: string, extra: Partial<CombatantView> = {}): CombatantView => ({
  id,
  name: id,
  side,
  condition: 'ok',
  routed: false,
  delayed: false,
  surprised: 0,
  stillSurprised: false,
  mayDeclare: true,
  declared: false,
  ...extra,
});

const step = (index: number, extra: Partial<StepView>): StepView => ({ index, phase: 'd6-segment', when: 'next', entries: [], damage: [], interruptions: [], fallen: [], joins: [], ...extra });

function view(extra: Partial<TimelineView>): TimelineView {
  return {
    procedure: 'segment-d6',
    round: 1,
    kind: 'round',
    stage: 'resolve',
    current: null,
    sides: [],
    combatants: [],
    surprise: { unit: 'segments', anyone: false },
    opening: null,
    initiative: null,
    carryIn: [],
    steps: [],
    carryOut: [],
    end: null,
    ...extra,
  };
}

function input(v: TimelineView | null, facts: Record<string, CombatantFacts>, extra: Partial<TrackerViewInput> = {}): TrackerViewInput {
  return { view: v, roster: { sides: [], combatants: [] }, facts, gm: true, controls: [], rows: {}, i18n, ...extra };
}

const fact = (actorId: string, owned = false): CombatantFacts => ({ img: `${actorId}.webp`, owned, defeated: false, actorId });

describe('tracker-view', () => {
  it('high-low: HIGH and LOW on the sides and the combatants; identical monsters with the same count shown once with a count, a different count apart, a player\'s own never', () => {
    const v = view({
      procedure: 'high-low',
      sides: [
        { id: 'party', name: 'Party', initiative: 5, label: 'high', winner: true },
        { id: 'gobs', name: 'Goblins', initiative: 2, label: 'low', winner: false },
      ],
      combatants: [
        fighter('Anna', 'party', { label: 'high', health: { hp: 3, maxHp: 12 } }),
        fighter('Twin', 'party', { health: { hp: 12, maxHp: 12 } }),
        fighter('Twin2', 'party', { health: { hp: 12, maxHp: 12 } }),
        fighter('g1', 'gobs', { initiative: 4 }),
        fighter('g2', 'gobs', { initiative: 4 }),
        fighter('g3', 'gobs', { initiative: 4 }),
        fighter('g4', 'gobs', { initiative: 6 }),
      ],
      initiative: { winner: 'party', tie: false },
    });
    const facts = { Anna: fact('a', true), Twin: fact('t', true), Twin2: fact('t', true), g1: fact('gob'), g2: fact('gob'), g3: fact('gob'), g4: fact('gob') };
    const ctx = trackerContext(input(v, facts, { gm: false }));
    expect(ctx.sides.map((s) => s.tags.map((t) => t.text))).toEqual([['HIGH', 'won initiative'], ['LOW']]);
    expect(ctx.sides[0].rows[0].badges.map((b) => b.text)).toEqual(['HIGH']);
    expect(ctx.sides[0].rows[0].health[0]).toEqual({ exact: true, text: '3/12', pct: 25, css: 'ts-health exact low' });
    expect(ctx.sides[0].rows.map((r) => r.count)).toEqual([1, 1, 1]);
    expect(ctx.sides[1].rows.map((r) => [r.name, r.count, r.multiple, r.ids, r.initiative])).toEqual([
      ['g1', 3, true, 'g1 g2 g3', '4'],
      ['g4', 1, false, 'g4', '6'],
    ]);
    expect(ctx.sides[1].rows[0].health.map((h) => h.text)).toEqual(['fighting']);
    expect(ctx.initiative).toBe('Party won the initiative');
  });

  it('individual-speed: one column a count; a tie; what a player is told of a declaration', () => {
    const v = view({
      procedure: 'individual-speed',
      current: 1,
      sides: [
        { id: 'a', name: 'A', winner: false },
        { id: 'b', name: 'B', winner: false },
      ],
      combatants: [
        fighter('x', 'a', { declared: true }),
        fighter('y', 'b', { mayDeclare: false }),
        fighter('z', 'b', { declared: true, declaration: { combatant: 'z', action: 'missile', weapon: { name: 'Short bow' } } }),
      ],
      initiative: { winner: null, tie: true },
      steps: [
        step(0, { count: 9, when: 'done', entries: [{ combatant: 'z', kind: 'action', action: 'missile', target: 'x', outcome: 'acts' }] }),
        step(1, { count: 7, when: 'current', entries: [{ combatant: 'x', kind: 'routine', action: 'melee', routine: 1 }] }),
      ],
    });
    const ctx = trackerContext(input(v, { x: fact('x'), y: fact('y'), z: fact('z') }));
    expect(ctx.initiative).toBe('Initiative tied');
    expect(ctx.columns.map((c) => [c.label, c.css])).toEqual([
      ['Count 9', 'ts-column'],
      ['Count 7', 'ts-column current'],
    ]);
    expect(ctx.columns[0].steps[0].entries[0]).toMatchObject({ name: 'z', text: 'fires a missile', detail: 'Short bow → x', icon: 'fa-solid fa-bow-arrow', outcome: '' });
    expect(ctx.columns[1].steps[0].entries[0].detail).toBe('routine 2');
    expect(ctx.currentLabel).toBe('Count 7');
    const rows = ctx.sides.flatMap((s) => s.rows);
    expect(rows.map((r) => r.declaration?.text ?? null)).toEqual(['declared', null, 'fires a missile']);
  });

  it('the surprise segments: two steps of one segment (a blow, then the spell that goes off) share one column, in their order', () => {
    const v = view({
      kind: 'surprise',
      round: 0,
      current: 0,
      combatants: [fighter('x', 'a'), fighter('y', 'b')],
      steps: [
        step(0, { phase: 'd6-surprise', segment: 1, when: 'current', entries: [{ combatant: 'x', kind: 'action', action: 'melee', target: 'y' }] }),
        step(1, { phase: 'd6-surprise', segment: 2, entries: [{ combatant: 'x', kind: 'action', action: 'melee', target: 'y' }] }),
        step(2, { phase: 'd6-surprise', segment: 2, entries: [{ combatant: 'y', kind: 'cast-complete', action: 'spell', spell: 'Sleep' }] }),
      ],
    });
    const ctx = trackerContext(input(v, { x: fact('x'), y: fact('y') }));
    expect(ctx.columns.map((c) => [c.label, c.steps.map((st) => st.index)])).toEqual([
      ['Surprise segment 1', [0]],
      ['Surprise segment 2', [1, 2]],
    ]);
  });

  it('addict (issue 28): two steps of segment 1 in a row — the header says which is played, so Next visibly moves on', () => {
    const steps = (current: number) => [
      step(0, { phase: 'addict-surprise-resolution', segment: 1, when: current === 0 ? 'current' : 'done', entries: [{ combatant: 'x', kind: 'cast-begin', action: 'spell', spell: 'Sleep' }] }),
      step(1, { phase: 'addict-surprise-resolution', segment: 1, when: current === 1 ? 'current' : 'next', entries: [{ combatant: 'y', kind: 'action', action: 'melee', target: 'x' }] }),
      step(2, { phase: 'addict-surprise-resolution', segment: 2, when: 'next', entries: [{ combatant: 'y', kind: 'action', action: 'melee', target: 'x' }] }),
    ];
    const at = (current: number) => trackerContext(input(view({ procedure: 'addict', kind: 'surprise', round: 0, current, combatants: [fighter('x', 'a'), fighter('y', 'b')], steps: steps(current) }), { x: fact('x'), y: fact('y') }));
    expect(at(0).currentLabel).toBe('Surprise segment 1 · step 1 of 2');
    expect(at(1).currentLabel).toBe('Surprise segment 1 · step 2 of 2');
  });

  it('individual-speed: a Dying combatant still acts (seed 003), so its row is not struck: where the GM sees a bar, a "dying" badge says it; one that cannot act shows the struck reason instead', () => {
    const v = view({
      procedure: 'individual-speed',
      sides: [{ id: 'b', name: 'B', winner: false }],
      combatants: [
        fighter('orc', 'b', { condition: 'dying', health: { hp: -2, maxHp: 6 } }),
        fighter('gob', 'b', { condition: 'dying', health: { hp: -1, maxHp: 6 }, struck: 'dying' }),
        fighter('ogre', 'b', { condition: 'dying' }),
      ],
    });
    const rows = trackerContext(input(v, { orc: fact('orc'), gob: fact('gob'), ogre: fact('ogre') })).sides[0].rows;
    const badges = (name: string) => rows.find((r) => r.name === name)!.badges.map((b) => b.text);
    expect(badges('orc')).toEqual(['dying']);
    expect(badges('gob')).toEqual([]);
    // No bar (a player's view of a monster): its health is the word already.
    expect(badges('ogre')).toEqual([]);
    expect(rows.find((r) => r.name === 'ogre')!.health[0].text).toBe('dying');
  });

  it('a round played out: castings carried in and out, interruptions, a casting given up, a release, the fallen, the end of the round', () => {
    const v = view({
      stage: 'end-of-round',
      sides: [{ id: 's', name: 'S', winner: false }],
      combatants: [fighter('Mage', 's'), fighter('Orc', 's', { condition: 'dead', mayDeclare: false })],
      carryIn: [{ casting: 'c1', caster: 'Mage', spell: 'Fireball', device: false, castingTime: 12, beganRound: 0, status: 'pending' }],
      carryOut: [{ casting: 'c2', caster: 'Mage', device: false, beganRound: 1, status: 'pending' }],
      steps: [
        step(0, {
          segment: 3,
          when: 'done',
          entries: [{ combatant: 'Mage', kind: 'cast-complete', action: 'spell', casting: 'c1', spell: 'Fireball', outcome: 'interrupted' }],
          interruptions: [{ casting: 'c1', caster: 'Mage', spell: 'Fireball', outcome: 'interrupted', expended: true, broken: 'save' }],
          damage: [{ target: 'Orc', amount: 7, wounds: 0 }],
          fallen: [{ combatant: 'Orc', condition: 'dead' }],
          midRound: [
            { kind: 'cancel', combatant: 'Mage', casting: 'c3' },
            { kind: 'release', combatant: 'Orc', action: 'missile' },
            { kind: 'delay', combatant: 'Orc' },
          ],
        }),
      ],
      end: [
        { kind: 'bleed', combatant: 'Orc', amount: 1 },
        { kind: 'death', combatant: 'Orc' },
      ],
    });
    const ctx = trackerContext(input(v, { Mage: fact('m'), Orc: { ...fact('o'), defeated: true } }));
    expect(ctx.stage).toBe('End of the round');
    expect(ctx.columns[2].steps[0].entries[0]).toMatchObject({ text: 'Fireball goes off', outcome: 'interrupted', css: 'ts-entry kind-cast-complete outcome-interrupted' });
    expect(ctx.columns[2].steps[0].events.map((e) => e.text)).toEqual([
      "Mage's Fireball is broken off",
      'Orc takes 7',
      'Orc is dead',
      'Mage gives up a casting',
      'Orc releases a held action: fires a missile',
      'Orc delays',
    ]);
    expect(ctx.carryIn.map((e) => e.text)).toEqual(['Mage: Fireball still casting (12 segments left)']);
    expect(ctx.carryOut.map((e) => e.text)).toEqual(['Mage is casting']);
    expect(ctx.end.map((e) => e.text)).toEqual(['Orc bleeds 1', 'Orc dies']);
    const orc = ctx.sides[0].rows.find((r) => r.name === 'Orc')!;
    expect(orc.css).toContain('defeated');
    expect(orc.declaration).toBeNull(); // the dead do not declare: no "not declared yet"
    expect(orc.health[0]).toMatchObject({ exact: false, text: 'dead' });
  });

  it('individual-speed: the Wound Point a hurt combatant pays for acting is told as such, not as a blow it dealt itself; counted in the client\'s language', () => {
    const v = view({
      procedure: 'individual-speed',
      sides: [{ id: 's', name: 'S', winner: false }],
      combatants: [fighter('Halvaine', 's')],
      steps: [step(0, { count: 4, when: 'done', damage: [{ target: 'Halvaine', amount: 1, wounds: 1, by: 'Halvaine', strain: true }, { target: 'Halvaine', amount: 2, wounds: 2, by: 'Halvaine', strain: true }] })],
    });
    const events = (i: typeof i18n) => trackerContext(input(v, { Halvaine: fact('h', true) }, { i18n: i })).columns.flatMap((c) => c.steps).flatMap((s) => s.events).map((e) => e.text);
    expect(events(i18n)).toEqual(['Halvaine loses 1 Wound Point for acting while hurt', 'Halvaine loses 2 Wound Points for acting while hurt']);
    const DE = JSON.parse(readFileSync('lang/de.json', 'utf8')) as Record<string, string>;
    const de = { lang: 'de', localize: (key: string) => DE[key] ?? key, format: (key: string, data: Record<string, string>) => (DE[key] ?? key).replace(/\{(\w+)\}/g, (_m, k: string) => data[k] ?? `{${k}}`) };
    expect(events(de)).toEqual(['Halvaine verliert 1 Wundpunkt für Handeln im verletzten Zustand', 'Halvaine verliert 2 Wundpunkte für Handeln im verletzten Zustand']);
  });

  it('before the start: the roster by side, alerted and surprised sides, only the combatants this user may see', () => {
    const ctx = trackerContext(
      input(null, { a: fact('a', true), b: fact('b') }, {
        roster: {
          sides: [
            { id: 'p', name: 'Party', alerted: true, surprised: false },
            { id: 'm', name: 'Monsters', alerted: false, surprised: true },
          ],
          combatants: [
            { id: 'a', name: 'Anna', side: 'p' },
            { id: 'b', name: 'Bat', side: 'm' },
            { id: 'hidden', name: 'Hidden', side: 'm' },
          ],
        },
      }),
    );
    expect(ctx.started).toBe(false);
    expect(ctx.sides.map((s) => [s.name, s.tags.map((t) => t.text), s.rows.map((r) => r.name)])).toEqual([
      ['Party', ['alerted: no roll'], ['Anna']],
      ['Monsters', ['surprised (GM)'], ['Bat']],
    ]);
  });

  describe('identical monsters collapse into one row that opens to its members (issue 29)', () => {
    const party = fighter('Anna', 'party', { declared: true });
    const orc = (id: string, extra: Partial<CombatantView> = {}) => fighter(id, 'orcs', { name: `Orc ${id.slice(1)}`, ...extra });
    const gmFact = (actorId: string, sourceId?: string): CombatantFacts => ({ ...fact(actorId, true), ...(sourceId ? { sourceId } : {}) });
    const declare = (id: string) => [{ action: 'declare', icon: 'fa-solid fa-scroll', label: 'Declare', data: { combatantId: id } }];
    const at = (combatants: CombatantView[], facts: Record<string, CombatantFacts>, extra: Partial<TrackerViewInput> = {}) =>
      trackerContext(input(view({ stage: 'declare', sides: [{ id: 'party', name: 'Party', winner: false }, { id: 'orcs', name: 'Orcs', winner: false }], combatants: [party, ...combatants] }), { Anna: fact('anna', true), ...facts }, {
        rows: Object.fromEntries(['Anna', ...combatants.map((c) => c.id)].map((id) => [id, declare(id)])),
        ...extra,
      }));

    it('the GM: three undeclared tokens of one orc actor are one row "Orc ×3", its first member\'s controls, every id; its members\' own rows each with its own Declare', () => {
      const ctx = at([orc('o1'), orc('o2'), orc('o3')], { o1: gmFact('orc'), o2: gmFact('orc'), o3: gmFact('orc') });
      const rows = ctx.sides[1].rows;
      expect(rows.map((r) => [r.name, r.count, r.ids, r.declaration?.text])).toEqual([['Orc', 3, 'o1 o2 o3', 'not declared yet']]);
      expect(rows[0].controls.map((c) => c.data?.combatantId)).toEqual(['o1']);
      expect(rows[0].open).toBe(false);
      expect(rows[0].toggle).toBe('Show each of the 3');
      expect(rows[0].members.map((m) => [m.name, m.id, m.controls.map((c) => `${c.action} ${c.data?.combatantId}`)])).toEqual([
        ['Orc 1', 'o1', ['declare o1']],
        ['Orc 2', 'o2', ['declare o2']],
        ['Orc 3', 'o3', ['declare o3']],
      ]);
      // The party's one is its own row.
      expect(ctx.sides[0].rows.map((r) => [r.name, r.count])).toEqual([['Anna', 1]]);
    });

    it('actors imported from one compendium stat block are identical too; another stat block is not', () => {
      const src = 'Compendium.world.monsters.Actor.orc';
      const ctx = at([orc('o1'), orc('o2'), orc('o3')], { o1: gmFact('a1', src), o2: gmFact('a2', src), o3: gmFact('a3', 'Compendium.world.monsters.Actor.gnoll') });
      expect(ctx.sides[1].rows.map((r) => [r.ids, r.count])).toEqual([
        ['o1 o2', 2],
        ['o3', 1],
      ]);
    });

    it('a different state splits them: one declared, one struck, one surprised apart from the undeclared', () => {
      const facts = { o1: gmFact('orc'), o2: gmFact('orc'), o3: gmFact('orc'), o4: gmFact('orc'), o5: gmFact('orc') };
      const ctx = at(
        [orc('o1'), orc('o2', { declared: true, declaration: { combatant: 'o2', action: 'melee' } }), orc('o3'), orc('o4', { stillSurprised: true }), orc('o5', { declared: true, declaration: { combatant: 'o5', action: 'melee' } })],
        facts,
      );
      expect(ctx.sides[1].rows.map((r) => [r.ids, r.declaration?.text, r.badges.map((b) => b.css)])).toEqual([
        ['o1 o3', 'not declared yet', []],
        ['o2 o5', 'attacks in melee', []],
        ['o4', 'not declared yet', ['surprised']],
      ]);
    });

    it('the tracker\'s opened rows (by key) are drawn open, with the label to close them', () => {
      const combatants = [orc('o1'), orc('o2')];
      const facts = { o1: gmFact('orc'), o2: gmFact('orc') };
      const key = at(combatants, facts).sides[1].rows[0].key;
      expect(key).not.toBe('');
      const opened = at(combatants, facts, { open: new Set([key]) }).sides[1].rows[0];
      expect([opened.open, opened.toggle, opened.css.split(' ').includes('open')]).toEqual([true, 'Show the 2 as one row again', true]);
      // Their state moves on (declared, then acting in the step being played): the row stays open.
      const acting = (id: string) => ({ combatant: id, kind: 'action' as const, action: 'melee' as const, outcome: 'acts' as const });
      const declared = combatants.map((c) => ({ ...c, declared: true, declaration: { combatant: c.id, action: 'melee' as const } }));
      const later = trackerContext(
        input(view({ stage: 'resolve', current: 0, sides: [{ id: 'party', name: 'Party', winner: false }, { id: 'orcs', name: 'Orcs', winner: false }], combatants: [party, ...declared], steps: [step(0, { when: 'current', entries: [acting('o1'), acting('o2')] })] }), { Anna: fact('anna', true), ...facts }, { open: new Set([key]) }),
      ).sides[1].rows;
      expect(later.map((r) => [r.ids, r.css.split(' ').includes('acting'), r.open])).toEqual([['o1 o2', true, true]]);
    });
  });
});
