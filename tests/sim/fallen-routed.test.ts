/**
 * Issue 28 in the runner: a fallen target is replaced and a routed combatant
 * does not strike, under every procedure. Brand kills Orc 1 in round 1; round
 * 2 is "same as last round" and its script still has Brand's blow at Orc 1:
 * nobody is struck after falling, so the blow lands on the opponent Brand
 * turns to — the script's `retarget` choice, else the runner's default (the
 * first opponent still standing, as the odds' nearest foe without positions).
 * Orc 2's morale breaks in round 1 (a GM-called check with the GM's
 * result; segment-d6 and high-low by their `moraleMethod`, a ruling): routed, it strikes nobody in
 * round 2 and its scripted blow is not applied.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { PROCEDURE_IDS, type ProcedureId } from '../../src/rules/model';
import { simulate } from '../../src/sim/cli';
import { validateScenario } from '../../src/sim/scenario';
import { playScenario } from './play-scenario';

const ROOT = resolve(__dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'tenseg-fallen-'));
let n = 0;

function sim(raw: Record<string, unknown>) {
  const name = `f${++n}.yaml`;
  writeFileSync(join(tmp, name), stringify(raw));
  return simulate([name, '--seed', '3'], PROCEDURES, { cwd: tmp, root: ROOT });
}

const play = (raw: Record<string, unknown>) => playScenario(raw, 3);

/** The text of round 2 on. */
function round2Text(out: string): string {
  const at = out.indexOf('Round 2');
  expect(at).toBeGreaterThan(0);
  return out.slice(at);
}


const fight = (procedure: ProcedureId, extra: Record<string, unknown> = {}) => ({
  procedure,
  rounds: 2,
  sides: [
    { id: 'party', name: 'Party' },
    { id: 'orcs', name: 'Orcs' },
  ],
  combatants: [
    { id: 'brand', name: 'Brand', side: 'party', kind: 'character', hp: 40, maxHp: 40 },
    { id: 'orc1', name: 'Orc 1', side: 'orcs', kind: 'monster', hitDice: '1', hp: 3, maxHp: 3 },
    { id: 'orc2', name: 'Orc 2', side: 'orcs', kind: 'monster', hitDice: '1', hp: 30, maxHp: 30 },
    { id: 'orc3', name: 'Orc 3', side: 'orcs', kind: 'monster', hitDice: '1', hp: 30, maxHp: 30 },
  ],
  declarations: {
    1: {
      brand: { action: 'melee', target: 'orc1' },
      orc1: { action: 'melee', target: 'brand' },
      orc2: { action: 'melee', target: 'brand' },
      orc3: { action: 'melee', target: 'brand' },
    },
  },
  damage: [
    // Orc 1 dies in round 1 (15 is past every procedure's death).
    { round: 1, by: 'brand', target: 'orc1', amount: 15 },
    // Round 2, "same as last round": the script still has Brand striking Orc 1.
    { round: 2, by: 'brand', target: 'orc1', amount: 3 },
    { round: 2, by: 'orc2', target: 'brand', amount: 2 },
  ],
  // individual-speed: "a monster automatically fails its morale check if the outcome is obvious to the monster" (seed 003).
  morale: [procedure === 'individual-speed' ? { round: 1, combatant: 'orc2', trigger: 'obvious' } : { round: 1, combatant: 'orc2', trigger: 'gm', method: 'gm', passed: false }],
  ...extra,
});

describe.each(PROCEDURE_IDS)('%s in the runner: a fallen target, a routed orc', (procedure) => {

  it('the dead orc is struck no more: Brand turns to the first opponent still standing, and the blow lands there', () => {
    const log = play(fight(procedure));
    expect(log.rounds[0].states.orc1.condition).toBe('dead');
    const round2 = log.rounds[1];
    const to = 'orc3'; // Orc 2 is routed (every procedure applies the GM's morale call; segment-d6 and high-low by `moraleMethod`)
    expect(round2.retargets).toEqual([{ step: null, combatant: 'brand', from: 'orc1', choice: 'target', target: to, scripted: false }]);
    const hits = round2.steps.flatMap((s) => s.damage);
    expect(hits.filter((h) => h.target === 'orc1')).toEqual([]);
    expect(hits).toContainEqual(expect.objectContaining({ target: to, amount: 3, by: 'brand' }));
    expect(round2.states.orc1.hp).toBe(log.rounds[0].states.orc1.hp);
  });

  it('the script can choose: Brand turns to Orc 3, or does nothing', () => {
    const turned = play(fight(procedure, { retarget: [{ round: 2, combatant: 'brand', target: 'orc3' }] })).rounds[1];
    expect(turned.retargets?.[0]).toMatchObject({ choice: 'target', target: 'orc3', scripted: true });
    expect(turned.steps.flatMap((s) => s.damage)).toContainEqual(expect.objectContaining({ target: 'orc3', amount: 3, by: 'brand' }));
    const idle = play(fight(procedure, { retarget: [{ round: 2, combatant: 'brand', none: true }] })).rounds[1];
    expect(idle.retargets?.[0]).toMatchObject({ choice: 'none', scripted: true });
    expect(idle.steps.flatMap((s) => s.damage).filter((h) => h.by === 'brand')).toEqual([]);
    expect(idle.unapplied).toContainEqual(expect.objectContaining({ by: 'brand', target: 'orc1' }));
  });

  it('a routed orc strikes nobody: its blow is not applied and its entry says why', () => {
    const log = play(fight(procedure));
    expect(log.rounds[0].states.orc2.routed).toBe(true);
    const round2 = log.rounds[1];
    expect(round2.steps.flatMap((s) => s.damage).filter((h) => h.by === 'orc2')).toEqual([]);
    expect(round2.unapplied).toContainEqual(expect.objectContaining({ by: 'orc2', target: 'brand', amount: 2 }));
    expect(round2.view.combatants.find((c) => c.id === 'orc2')?.struck).toBe('routed');
    const out = round2Text(sim(fight(procedure)).stdout);
    expect(out).toContain('Orc 1, the target of Brand, has fallen: Brand turns to Orc 3 (no choice given: the first opponent still standing).');
    expect(out).not.toMatch(/Orc 2: attacks in melee/);
    expect(out).toContain('Orc 2 no longer does this (attacks in melee): routed: may only flee.');
    expect(out).toContain('Not applied: 2 damage from Orc 2 to Brand');
  });

  it('the text tells the fallen target replaced', () => {
    const out = round2Text(sim(fight(procedure, { retarget: [{ round: 2, combatant: 'brand', target: 'orc3' }] })).stdout);
    expect(out).toContain('Orc 1, the target of Brand, has fallen: Brand turns to Orc 3.');
    expect(out).not.toContain('→ Orc 1');
  });
});

describe('the retarget section is validated', () => {
  it('exactly one of target, hold, none; the target a combatant of the file', () => {
    const v = validateScenario(
      fight('segment-d6', {
        retarget: [
          { round: 2, combatant: 'brand' },
          { round: 2, combatant: 'brand', target: 'orc3', none: true },
          { round: 2, combatant: 'brand', target: 'ghost' },
        ],
      }),
      PROCEDURES,
    );
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.problems.map((p) => [p.key, p.path])).toEqual(
      expect.arrayContaining([
        ['RetargetNeedsOne', 'retarget[0]'],
        ['RetargetNeedsOne', 'retarget[1]'],
      ]),
    );
    expect(v.problems.some((p) => p.path === 'retarget[2].target')).toBe(true);
  });
});
