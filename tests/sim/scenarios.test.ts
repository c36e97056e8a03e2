/**
 * The bundled scenarios (src/sim/scenarios/*.yaml) end to end: each is played by
 * the CLI code (in process) and its timeline is checked for the rule of the
 * seed text it exercises. Expected values are worked out from the rules text
 * and the scripted dice, as written in each scenario's header.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/sim/cli';
import type { Timeline, TimelineRound, TimelineStep } from '../../src/sim/text';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { PROCEDURE_IDS } from '../../src/rules/model';

const ROOT = resolve(__dirname, '..', '..');
const SCENARIOS = join(ROOT, 'src', 'sim', 'scenarios');

function play(name: string, extra: string[] = []): Timeline {
  const r = simulate([join(SCENARIOS, name), '--json', '--seed', '11', ...extra], PROCEDURES, { cwd: ROOT, root: ROOT });
  if (r.code !== 0) throw new Error(`${name}: exit ${r.code}\n${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as Timeline;
}

const round = (t: Timeline, n: number, kind: 'surprise' | 'round' = n === 0 ? 'surprise' : 'round'): TimelineRound => {
  const r = t.timeline.find((x) => x.round === n && x.kind === kind);
  if (!r) throw new Error(`no ${kind} ${n}`);
  return r;
};

/** Who does something (acts, begins, goes off) in a step. */
const doers = (s: TimelineStep) => s.entries.filter((e) => ['acts', 'begins', 'goes-off'].includes(e.outcome)).map((e) => e.combatant);

/** Index of the first step where `who` has an entry matching `test`. */
function stepOf(r: TimelineRound, who: string, test: (e: TimelineStep['entries'][number]) => boolean = () => true): TimelineStep {
  const s = r.steps.find((st) => st.entries.some((e) => e.combatant === who && test(e)));
  if (!s) throw new Error(`${who} has no such entry in round ${r.round}`);
  return s;
}

describe('every bundled scenario plays cleanly under its own procedure', () => {
  const files = readdirSync(SCENARIOS).filter((f) => f.endsWith('.yaml'));
  it('there is one scenario per procedure, plus the example', () => {
    expect(files.sort()).toEqual([...PROCEDURE_IDS.map((id) => `${id}.yaml`), 'example.yaml'].sort());
  });
  it.each(files)('%s: no unused scripted roll, no damage left unapplied', (f) => {
    const t = play(f);
    expect(t.notes.filter((n) => n.key === 'TENSEG.Sim.Note.UnusedDie')).toEqual([]);
    expect(t.timeline.flatMap((r) => r.unapplied)).toEqual([]);
    expect(t.dice.every((d) => d.scripted)).toBe(true); // the script covers every roll: the timeline does not depend on the seed
  });
});

describe('example.yaml (seed 000: Halvaine and the orcs)', () => {
  const t = play('example.yaml');
  it('"the party will be acting in segment 4 ... the orcs attack in the fifth segment"', () => {
    const r1 = round(t, 1);
    expect(stepOf(r1, 'brenna').segment).toBe(4);
    expect(stepOf(r1, 'chief').segment).toBe(5);
    expect(stepOf(r1, 'halvaine', (e) => e.kind === 'cast-begin').segment).toBe(4);
  });
  it('the orcish attack in the fifth segment interrupts and spoils the casting', () => {
    const r1 = round(t, 1);
    const hit = stepOf(r1, 'chief');
    expect(hit.interruptions).toEqual([expect.objectContaining({ caster: 'halvaine', spell: 'Sleep', outcome: 'interrupted', expended: true })]);
    expect(stepOf(r1, 'halvaine', (e) => e.kind === 'cast-complete')).toMatchObject({ segment: 6 });
    expect(r1.states.halvaine.expended).toContain('Sleep');
  });
  it('someone is killed, and the fighter\'s second routine comes after the orcs\' segment', () => {
    const r1 = round(t, 1);
    expect(r1.steps.flatMap((s) => s.fallen)).toContainEqual(expect.objectContaining({ combatant: 'orc2', condition: 'dead' }));
    const second = r1.steps.findIndex((s) => s.entries.some((e) => e.combatant === 'brenna' && e.routine === 2));
    const orcs = r1.steps.findIndex((s) => s.entries.some((e) => e.combatant === 'orc2'));
    expect(second).toBeGreaterThan(orcs);
  });
});

describe('segment-d6.yaml (seed 000)', () => {
  const t = play('segment-d6.yaml');
  it('surprise: party rolls 2, monsters 1, the +2 member is not surprised and acts alone in segment 1', () => {
    expect(t.surprise.surprised).toMatchObject({ ilsa: 0, halvaine: 2, brom: 2, boss: 1, orc1: 1, orc2: 1 });
    const r0 = round(t, 0);
    expect(r0.steps.map((s) => s.segment)).toEqual([1, 2]);
    expect(doers(r0.steps[0])).toEqual(['ilsa']);
    // "In the second surprise segment, the monsters are no longer surprised, but the rest of the party is still surprised"
    expect(new Set(doers(r0.steps[1]))).toEqual(new Set(['ilsa', 'boss', 'orc1', 'orc2']));
    expect(r0.steps.flatMap(doers)).not.toContain('halvaine');
    expect(r0.steps.flatMap(doers)).not.toContain('brom');
  });
  it('everything in one segment lands together: Orc 1, felled in segment 2, still strikes in it', () => {
    const s2 = round(t, 0).steps[1];
    expect(s2.entries.find((e) => e.combatant === 'orc1')?.outcome).toBe('acts');
    expect(s2.fallen).toEqual([expect.objectContaining({ combatant: 'orc1', condition: 'dead' })]);
  });
  it('the spell "begins in the fourth segment" and with casting time 2 "will go off in the sixth segment"', () => {
    const r1 = round(t, 1);
    expect(stepOf(r1, 'halvaine', (e) => e.outcome === 'begins').segment).toBe(4);
    expect(stepOf(r1, 'halvaine', (e) => e.outcome === 'goes-off').segment).toBe(6);
  });
  it('a missile weapon in hand: the missile bonus (+1) acts one segment earlier (README ruling)', () => {
    expect(stepOf(round(t, 1), 'ilsa').segment).toBe(3);
  });
  it('"cannot use the second attack routine until after the other side\'s initiative segment has been resolved"', () => {
    const r1 = round(t, 1);
    const orcs = r1.steps.findIndex((s) => s.entries.some((e) => e.combatant === 'boss'));
    const first = r1.steps.findIndex((s) => s.entries.some((e) => e.combatant === 'brom' && e.routine === 1));
    const second = r1.steps.findIndex((s) => s.entries.some((e) => e.combatant === 'brom' && e.routine === 2));
    expect(r1.steps[orcs].segment).toBe(5);
    expect(first).toBeLessThan(orcs);
    expect(second).toBeGreaterThan(orcs);
  });
  it('a tie: "It is possible for two combatants to kill each other during a simultaneous initiative round"', () => {
    const r2 = round(t, 2);
    expect(r2.initiative?.winner).toBeNull();
    const step = stepOf(r2, 'brom');
    expect(new Set(doers(step))).toEqual(new Set(['brom', 'boss']));
    expect(new Set(step.fallen.map((f) => f.combatant))).toEqual(new Set(['brom', 'boss']));
  });
});

describe('high-low.yaml (seed 001)', () => {
  const t = play('high-low.yaml');
  const r1 = round(t, 1);
  const phaseOf = (r: TimelineRound, who: string, test?: (e: TimelineStep['entries'][number]) => boolean) => stepOf(r, who, test).phase;
  const indexOf = (r: TimelineRound, who: string, test?: (e: TimelineStep['entries'][number]) => boolean) => r.steps.indexOf(stepOf(r, who, test));

  it('the group with the highest roll is HIGH, the other LOW', () => {
    expect(r1.initiative?.labels).toEqual({ party: 'low', gnolls: 'high' });
  });
  it('the round follows the flowchart: fast actions, multi-attack, HIGH, LOW, remaining attacks, spells, go last', () => {
    const order = ['fast', 'multi-attack', 'high', 'low', 'remaining-attacks', 'spells', 'go-last'];
    const seen = r1.steps.map((s) => s.phase).filter((p) => order.includes(p));
    const ranks = seen.map((p) => order.indexOf(p));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(phaseOf(r1, 'mira')).toBe('fast'); // flee is a fast action even for the LOW party
    expect(phaseOf(r1, 'oswin', (e) => e.routine === 1)).toBe('multi-attack');
    expect(phaseOf(r1, 'oswin', (e) => e.routine === 2)).toBe('remaining-attacks');
    expect(phaseOf(r1, 'g1')).toBe('high');
    expect(phaseOf(r1, 'bex')).toBe('go-last');
  });
  it('"If you declare ... your intent to delay, you act on LOW initiative (no matter your group initiative result)"', () => {
    expect(phaseOf(r1, 'g2')).toBe('low');
  });
  it('spell initiative (README ruling): shortest casting time first, then HIGH before LOW', () => {
    const quill = indexOf(r1, 'quill', (e) => e.outcome === 'goes-off');
    const shaman = indexOf(r1, 'shaman', (e) => e.outcome === 'goes-off');
    const tam = indexOf(r1, 'tam', (e) => e.outcome === 'goes-off');
    expect(quill).toBeLessThan(shaman);
    expect(shaman).toBeLessThan(tam);
  });
  it('"If TIED, both groups act during HIGH group initiative"', () => {
    const r2 = round(t, 2);
    expect(r2.initiative?.labels).toEqual({ party: 'high', gnolls: 'high' });
    expect(phaseOf(r2, 'g2')).toBe('high');
  });
  it('"If this concentration is broken, the spell being cast fails and is lost as if cast"', () => {
    const r2 = round(t, 2);
    expect(r2.steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ caster: 'tam', spell: 'Hold Person', expended: true })]);
    expect(stepOf(r2, 'tam', (e) => e.kind === 'cast-complete').entries.find((e) => e.combatant === 'tam')?.outcome).toBe('interrupted');
  });
});

describe('d12-ascending.yaml (seed 002)', () => {
  const t = play('d12-ascending.yaml');
  it('"an elf on point makes the standard enemy surprise range 1-8": the orcs\' 6 surprises them, the party\'s 9 does not', () => {
    expect(t.surprise.rolls).toEqual({ party: 9, orcs: 6 });
    expect(t.surprise.surprised).toMatchObject({ orc1: 1, orc2: 1, orc3: 1, elowen: 0, garrick: 0, wren: 0 });
  });
  it('"Surprise lasts 1 round": only the party acts in it', () => {
    const actors = round(t, 0).steps.flatMap(doers);
    expect(new Set(actors)).toEqual(new Set(['elowen', 'garrick', 'wren']));
  });
  it('"Sides act in order of lowest to highest": the orcs (3) before the party (7); dexterity moves Garrick to 5', () => {
    const r1 = round(t, 1);
    expect(r1.initiative?.winner).toBe('orcs');
    expect(stepOf(r1, 'orc3').count).toBe(3);
    expect(stepOf(r1, 'garrick').count).toBe(5);
    expect(stepOf(r1, 'elowen').count).toBe(7);
    expect(r1.steps.indexOf(stepOf(r1, 'orc3'))).toBeLessThan(r1.steps.indexOf(stepOf(r1, 'garrick')));
  });
  it('damage before the casting even began "will prevent spellcasting in the remainder of that round" and the spell is kept', () => {
    const r1 = round(t, 1);
    expect(r1.steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ caster: 'wren', outcome: 'prevented', expended: false })]);
    expect(r1.states.wren.expended).not.toContain('Fireball');
  });
  it('struck "while actually casting": "the spell is not completed but it is wasted"', () => {
    const r2 = round(t, 2);
    expect(stepOf(r2, 'wren', (e) => e.kind === 'cast-begin').count).toBe(2);
    expect(r2.steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ caster: 'wren', spell: 'Lightning Bolt', outcome: 'interrupted', expended: true })]);
    expect(r2.states.wren.expended).toContain('Lightning Bolt');
  });
  it('3/2 attacks for a 7th-level fighter: one routine in odd rounds of the combat, two in even (README ruling)', () => {
    const swings = (r: TimelineRound) => r.steps.flatMap((s) => s.entries).filter((e) => e.combatant === 'garrick' && e.outcome === 'acts').length;
    // The surprise round is the combat's first round.
    expect([swings(round(t, 0)), swings(round(t, 1)), swings(round(t, 2))]).toEqual([1, 2, 1]);
  });
});

describe('individual-speed.yaml (seed 003)', () => {
  const t = play('individual-speed.yaml');
  const r1 = round(t, 1);
  const r2 = round(t, 2);
  it('base initiative is "a d12 and subtract your Agility modifier", rolled once', () => {
    // d12 5, 7, 4, 9, 6 (shared), 3, 8 minus Agility 2, 0, 1, -1, 0, 1, 0.
    expect(t.baseInitiative).toEqual({ kestrel: 3, bram: 7, sefa: 3, oren: 10, h1: 6, h2: 6, wolf: 2, ghoul: 8 });
    expect(t.dice.filter((d) => d.purpose === 'initiative').length).toBe(7); // the two warriors share one roll
  });
  it('round initiative = base + the action\'s modifier; lowest first; ties simultaneous', () => {
    expect(r1.initiative?.individuals).toEqual({ wolf: 2, kestrel: 6, sefa: 7, oren: 9, h1: 10, h2: 10, bram: 13 });
    const counts = r1.steps.filter((s) => s.count !== undefined).map((s) => s.count as number);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(doers(stepOf(r1, 'h1')))).toEqual(new Set(['h1', 'h2']));
  });
  it('damage "first lowers the creature\'s current Stress"; a critical hit "bypasses the opponent\'s Stress"', () => {
    expect(stepOf(r1, 'kestrel').damage).toEqual([expect.objectContaining({ target: 'h1', amount: 9, wounds: 3 })]);
    expect(r1.states.h1).toMatchObject({ stress: 0, woundPoints: 7 });
    expect(stepOf(r2, 'kestrel').damage).toEqual([expect.objectContaining({ target: 'h2', amount: 7, wounds: 7 })]);
    expect(r2.states.h2).toMatchObject({ stress: 6, woundPoints: 3 });
  });
  it('the ghoul "acts in the next round at Initiative -4, in addition to acting again with its Initiative of 8"', () => {
    const ghoul = r2.steps.filter((s) => s.entries.some((e) => e.combatant === 'ghoul' && e.outcome === 'acts'));
    expect(ghoul.map((s) => s.count)).toEqual([-4, 8]);
    expect(r1.steps.flatMap(doers)).not.toContain('ghoul');
  });
  it('morale: "3d6 roll plus ... Insight modifier plus its HD plus the number of allies" against the Intimidation check', () => {
    const wolf = r1.end.find((e) => e.kind === 'morale' && e.combatant === 'wolf');
    expect(wolf).toMatchObject({ roll: 10, total: 10 + 1 + 2 + 3, target: 15, passed: true });
  });
  it('morale: more than half its Wound Points in a single hit; TN "11 plus the number of opponents" (the Dying Sefa no longer counts)', () => {
    const h2 = r2.end.find((e) => e.kind === 'morale' && e.combatant === 'h2');
    expect(h2).toMatchObject({ roll: 4, total: 4 + 0 + 1 + 3, target: 11 + 3, passed: false });
    expect(r2.states.h2.routed).toBe(true);
  });
  it('"the Referee rolls a d%. if the result is equal to or lower than the damage dealt by the Critical Hit ... a Combat Injury": the blunt table\'s row, its ability damage rolled', () => {
    const hit = stepOf(r2, 'bram').damage.find((d) => d.target === 'h1');
    expect(hit).toMatchObject({ amount: 5, wounds: 5, critical: true, type: 'blunt' });
    expect(hit?.injury).toEqual({ roll: 3, wounds: 5, injury: { round: 2, type: 'blunt', row: 17, abilityDamage: { abilities: ['perception'], amount: 4 } } });
    expect(r2.states.h1).toMatchObject({ stress: 0, woundPoints: 2, wounds: [{ amount: 3 }, { amount: 5, type: 'blunt' }] });
    expect(t.lines).toContain('      Combat Injury check for Hobgoblin 1: d% 3 against 5 Wound Points: Broken nose (Blunt 17). Perception −4. No sense of smell.');
  });
  it('the slashing table is empty in the text: the injury waits for the GM, whose words complete it', () => {
    expect(stepOf(r2, 'kestrel').damage[0].injury).toEqual({ roll: 5, wounds: 7, injury: { round: 2, type: 'slashing' } });
    expect(r2.states.h2.injuries).toEqual([{ round: 2, type: 'slashing', text: 'Deep cut across the sword arm' }]);
    expect(r2.wounds?.map((x) => x.text)).toEqual(["Heal check for Sefa: 21 against TN 20: stabilized.", "The GM enters Hobgoblin 2's Combat Injury: Deep cut across the sword arm (Slashing)."]);
  });
  it('a Heal check "at a TN of 10 + the highest damage value of wounds it has" stabilizes Sefa: no Wound Point lost at the end of the round', () => {
    expect(stepOf(r2, 'wolf').damage).toEqual([expect.objectContaining({ target: 'sefa', amount: 15, wounds: 10 })]);
    expect(r2.states.sefa).toMatchObject({ woundPoints: -1, condition: 'dying', stabilized: true });
    expect(r2.end.filter((e) => e.kind === 'bleed')).toEqual([]);
  });
});

describe('addict.yaml (seed 004)', () => {
  const t = play('addict.yaml');
  it('phase 4: opening morale before the surprise; a failed check routs', () => {
    expect(t.openingMorale).toEqual([expect.objectContaining({ combatant: 'sentry', roll: 75, passed: false })]);
    expect(round(t, 0).states.sentry.routed).toBe(true);
  });
  it('phase 5: only the surprising party acts, one surprise segment at a time', () => {
    const r0 = round(t, 0);
    expect(r0.steps.map((s) => s.segment)).toEqual([1, 2]);
    expect(new Set(r0.steps.flatMap(doers))).toEqual(new Set(['hale']));
  });
  it('phases 7-8: the winner resolves first; each side acts in the segment of the other side\'s die', () => {
    const r1 = round(t, 1);
    expect(r1.initiative?.winner).toBe('goblins');
    expect(stepOf(r1, 'archer').segment).toBe(2);
    expect(stepOf(r1, 'hale').segment).toBe(5);
  });
  it('"For every full 6 seconds of real-life delay ... the character will delay 1 segment": 12 seconds timed at the table', () => {
    expect(stepOf(round(t, 1), 'pip').segment).toBe(5 + 2);
    expect(stepOf(round(t, 1), 'pip').entries.find((e) => e.combatant === 'pip')?.reason).toBe('addictHesitation');
  });
  it('phases 1 and 3: the reaction and the encounter distance the GM recorded; a charge without a distance closes it (footnote 19)', () => {
    expect(t.reactions).toEqual([expect.objectContaining({ side: 'goblins', result: 'Hostile: attack on sight', roll: 23 })]);
    expect(t.distance).toMatchObject({ feet: 30 });
    // Round 3: Pip starts in segment 2 at 24 ft a segment; 29 ft to within his dagger's 1 ft: lands at the end of segment 3.
    expect(stepOf(round(t, 3), 'pip').segment).toBe(3);
  });
  it('footnote 19 on the runner\'s page: Pip closing 24 of 30 ft by the end of segment 2, arriving (29 of 30 ft, his dagger\'s 1 ft left) in 3', () => {
    const r3 = round(t, 3);
    const lines = r3.steps.map((s) => [s.segment, (s.charges ?? []).map((c) => c.text)]);
    expect(lines).toEqual([
      [2, ['Pip closing 24 of 30 ft']],
      [3, ['Pip arrives within weapon length (29 of 30 ft)']],
      [4, []],
    ]);
    // The text the runner prints: under the step's heading, beside its blows.
    const r = simulate([join(SCENARIOS, 'addict.yaml'), '--seed', '11'], PROCEDURES, { cwd: ROOT, root: ROOT });
    const page = r.stdout.slice(r.stdout.indexOf('Round 3'));
    expect(page).toMatch(/ {2}Segment 2\n(?: {4}.*\n)* {6}Pip closing 24 of 30 ft\n/);
    expect(page).toMatch(/ {2}Segment 3\n {4}Pip: charges → Goblin archer[^\n]*\n {6}Pip arrives within weapon length \(29 of 30 ft\)\n/);
  });
  it('phase 10: each round ends with its recap; phase 11: the GM staunches the bleeding once the fight is won', () => {
    for (const r of t.timeline) expect(r.recap?.length).toBeGreaterThan(0);
    const r3 = round(t, 3);
    expect(r3.recap?.map((l) => l.text)).toEqual(expect.arrayContaining(["Goblin 1's bleeding is staunched.", "Goblin archer's bleeding is staunched."]));
    expect(r3.states.goblin1).toMatchObject({ hp: -4, staunched: true });
    expect(t.final.states.archer).toMatchObject({ hp: -1, staunched: true });
  });
  it('action letters: D (missiles) resolves before G (melee)', () => {
    const r1 = round(t, 1);
    expect(r1.steps.indexOf(stepOf(r1, 'corin'))).toBeLessThan(r1.steps.indexOf(stepOf(r1, 'hale')));
    const r2 = round(t, 2); // tied initiative: same segment, letters still order it
    expect(r2.initiative?.winner).toBeNull();
    expect(stepOf(r2, 'archer').segment).toBe(stepOf(r2, 'hale').segment);
    expect(r2.steps.indexOf(stepOf(r2, 'archer'))).toBeLessThan(r2.steps.indexOf(stepOf(r2, 'hale')));
  });
  it('"any damage taken on a round causes the spell to be lost"', () => {
    const r1 = round(t, 1);
    expect(r1.steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ caster: 'ysolde', outcome: 'interrupted', expended: true })]);
  });
  it('phase 9: "negative hit points at the start of the round lose 1 hit point. Anyone who hits -10 dies"', () => {
    const r1 = round(t, 1);
    const r2 = round(t, 2);
    expect(r1.end).toEqual([expect.objectContaining({ kind: 'bleed', combatant: 'goblin1', amount: 1 })]); // goblin2 went negative during round 1
    expect(r2.end).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'bleed', combatant: 'goblin1' }),
        expect.objectContaining({ kind: 'bleed', combatant: 'goblin2' }),
        expect.objectContaining({ kind: 'death', combatant: 'goblin2' }),
      ]),
    );
    expect(r2.states.goblin2).toMatchObject({ hp: -10, condition: 'dead' });
  });
});
