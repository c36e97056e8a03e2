/**
 * Issue 28 (Deliver 4): actions offered only where the actor has them. Seed 004's action list names both as
 * actions of their own ("D missiles · turn undead · cast spell · use device"; seed README's action letters), and its
 * note 20 gives a device a wielder ("device usage can still happen normally assuming the wielder is still alive");
 * the seeds do not say who turns: the ruling is the sheet's (Combatant.turnsUndead: a class that turns) and a device
 * is an item carried (Combatant.devices). The shared declaration checks refuse the two for one without them, in
 * words, under every procedure that has them; a combatant whose sheet does not say (an older log, a scenario that
 * does not give the field) is not known and keeps both.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { legalActions, legalActionsBefore, legalKinds, type ActionChoice } from '../../src/rules/flow/legal';
import { getProcedure } from '../../src/rules/registry';
import { resolveOptions } from '../../src/rules/procedure';
import { PROCEDURE_IDS, type Combatant, type ProcedureId } from '../../src/rules/model';
import { d, encounter, expectRefused, give, init, start, surprise } from './flow-helpers';

const lang = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;

const who = (id: string, side: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side, hp: 10, ...extra });
const people = () =>
  encounter(
    who('cleric', 'party', { turnsUndead: true, devices: [] }),
    who('wizard', 'party', { turnsUndead: false, devices: ['Wand of frost'] }),
    who('orc', 'foes', { kind: 'monster', turnsUndead: false, devices: [] }),
    // Not known (no field): as a log written before issue 28 or a scenario without it.
    who('unknown', 'foes'),
  );
const rolls = [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)];
const problemOf = (choices: ActionChoice[], action: string) => choices.find((c) => c.action === action)?.problem;
const has = (p: ProcedureId, action: string) => legalActionsBefore(getProcedure(p), who('x', 's'), resolveOptions(getProcedure(p), {}).options).find((c) => c.action === action)?.problem?.key !== 'ActionNotInProcedure';

describe('turning undead and using a device: only by one who has them (issue 28)', () => {
  it.each(PROCEDURE_IDS.filter((p) => p !== 'individual-speed'))('%s: the orc is offered neither, the cleric turns, the wizard uses its wand', (p) => {
    const { state } = start(p, people(), rolls);
    const orc = legalActions(state, 'orc');
    expect(legalKinds(orc)).not.toContain('turn-undead');
    expect(legalKinds(orc)).not.toContain('device');
    expect(legalKinds(orc)).toContain('melee');
    expect(problemOf(orc, 'turn-undead')).toEqual({ key: 'DeclarationCannotTurn', data: { name: 'Orc' } });
    expect(problemOf(orc, 'device')).toEqual({ key: 'DeclarationNoDevice', data: { name: 'Orc' } });
    expect(legalKinds(legalActions(state, 'cleric'))).toContain('turn-undead');
    expect(problemOf(legalActions(state, 'cleric'), 'device')?.key).toBe('DeclarationNoDevice');
    expect(legalKinds(legalActions(state, 'wizard'))).toContain('device');
    expect(problemOf(legalActions(state, 'wizard'), 'turn-undead')?.key).toBe('DeclarationCannotTurn');
    // Not known: both kept (what the engine knew before).
    expect(legalKinds(legalActions(state, 'unknown'))).toEqual(expect.arrayContaining(['turn-undead', 'device']));
  });

  it.each(PROCEDURE_IDS.filter((p) => p !== 'individual-speed'))('%s: the flow\'s declare input refuses them in words and changes nothing; the one who has them declares', (p) => {
    const { state } = start(p, people(), rolls);
    expectRefused(state, { t: 'declare', d: d('orc', 'turn-undead') }, 'DeclarationCannotTurn');
    expectRefused(state, { t: 'declare', d: d('orc', 'device', { spell: 'Wand of frost', castingTime: 1 }) }, 'DeclarationNoDevice');
    give(state, { t: 'declare', d: d('cleric', 'turn-undead') });
    give(state, { t: 'declare', d: d('wizard', 'device', { spell: 'Wand of frost', castingTime: 1 }) });
    expect(Object.keys(state.declarations).sort()).toEqual(['cleric', 'wizard']);
  });

  it('individual-speed (seed 003) has no turning in its list; a device only for one carrying one', () => {
    expect(has('individual-speed', 'turn-undead')).toBe(false);
    const procedure = getProcedure('individual-speed');
    const { options } = resolveOptions(procedure, {});
    const [, wizard, orc] = people().combatants;
    expect(legalKinds(legalActionsBefore(procedure, wizard, options))).toContain('device');
    expect(problemOf(legalActionsBefore(procedure, orc, options), 'device')?.key).toBe('DeclarationNoDevice');
    expect(procedure.validateDeclaration(d('orc', 'device', { spell: 'Wand', speed: 0 }), orc, options)?.key).toBe('DeclarationNoDevice');
  });

  it('the reasons read in words, naming the combatant', () => {
    expect(lang['TENSEG.Error.DeclarationCannotTurn'].replace('{name}', 'Orc 1')).toBe('Orc 1 cannot turn undead: its sheet does not say it turns (a class that turns, such as a cleric or paladin, does).');
    expect(lang['TENSEG.Error.DeclarationNoDevice'].replace('{name}', 'Orc 1')).toBe('Orc 1 carries no magic device to use.');
  });
});
