/**
 * addict, phase 6 (seed 004): "Once an action is declared, it cannot be
 * changed, but it can be canceled". A declaration made in a round's
 * declarations is final: declared again, by the `declare` input or among the
 * GM's held declarations at `begin`, it is refused; withdrawn, it is
 * cancelled, and nothing can be declared in its place that round (a cancel
 * followed by another declaration would be the change the text forbids). A
 * declaration carried on from last round ("same as last round") was not made
 * in this round's declarations: it may be replaced. The other procedures keep
 * a declaration open to change until the round is planned.
 */
import { describe, expect, it } from 'vitest';
import { declarationProblem } from '../../src/rules/flow';
import { PROCEDURE_IDS, type Combatant } from '../../src/rules/model';
import { base, d, encounter, expectRefused, finishRound, give, init, melee, start, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10 });
const people = () => encounter(pc('fighter'), pc('mage', { spells: ['Sleep', 'Sleep'] }), foe('ogre'), foe('gob'));
const addict = () => start('addict', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2), init('party', 2, 3), init('foes', 2, 4)]);

describe('addict: "Once an action is declared, it cannot be changed, but it can be canceled"', () => {
  it('declared: the same combatant cannot declare again; cancelled (withdraw): nothing in its place this round', () => {
    const { state } = addict();
    give(state, { t: 'declare', d: melee('fighter', 'ogre') });
    expectRefused(state, { t: 'declare', d: melee('fighter', 'gob') }, 'DeclarationFinal');
    expectRefused(state, { t: 'declare', d: melee('fighter', 'ogre') }, 'DeclarationFinal');
    expect(declarationProblem(state, melee('fighter', 'gob'))).toEqual({ key: 'DeclarationFinal', data: { name: 'Fighter' } });
    // Others still declare.
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2 }) });
    give(state, { t: 'withdraw', c: 'fighter' });
    expect(state.declarations.fighter).toBeUndefined();
    expectRefused(state, { t: 'declare', d: melee('fighter', 'gob') }, 'DeclarationCancelled');
    expectRefused(state, { t: 'withdraw', c: 'fighter' }, 'NoDeclaration');
  });

  it('the GM\'s held declarations at begin cannot replace a final one (all or none are recorded); null cancels it', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: melee('fighter', 'ogre') });
    give(state, { t: 'declare', d: melee('mage', 'gob') });
    expectRefused(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter'), fighter: melee('fighter', 'gob') } }, 'DeclarationFinal', dice);
    give(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter'), mage: null } }, dice);
    expect(Object.keys(state.declarations).sort()).toEqual(['fighter', 'ogre']);
    expect(state.finalDeclarations).toBeUndefined(); // the round is under way: nothing is declared any more
  });

  it('a withdrawn declaration may not be declared again through begin either', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: melee('fighter', 'ogre') });
    give(state, { t: 'withdraw', c: 'fighter' });
    expectRefused(state, { t: 'begin', d: { fighter: melee('fighter', 'gob') } }, 'DeclarationCancelled', dice);
  });

  it('phase 11 "returns to Phase 6": next round, the declaration carried on from last round may be replaced once, then it is final', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: melee('fighter', 'ogre') });
    give(state, { t: 'declare', d: melee('mage', 'ogre') });
    give(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter') } }, dice);
    finishRound(state);
    give(state, { t: 'next' });
    expect(state).toMatchObject({ round: 2, stage: 'declare' });
    expect(state.declarations.fighter).toEqual(melee('fighter', 'ogre')); // "same as last round"
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    expectRefused(state, { t: 'declare', d: melee('fighter', 'ogre') }, 'DeclarationFinal');
    // A carried declaration taken back is no cancel of this round's: a new one may be declared.
    give(state, { t: 'withdraw', c: 'mage' });
    give(state, { t: 'declare', d: melee('mage', 'gob') });
    expectRefused(state, { t: 'declare', d: melee('mage', 'ogre') }, 'DeclarationFinal');
    // The GM's carried declaration too may be replaced at begin.
    give(state, { t: 'begin', d: { ogre: melee('ogre', 'mage') } }, dice);
    expect(state.declarations.ogre).toEqual(melee('ogre', 'mage'));
  });

  it('a joiner declaring as it joins while the round is declared has declared (README addict: it "acts as if it had declared in phase 6")', () => {
    const { state } = addict();
    give(state, { t: 'join', c: foe('wolf'), d: melee('wolf', 'fighter') });
    expectRefused(state, { t: 'declare', d: melee('wolf', 'mage') }, 'DeclarationFinal');
    // One that leaves and comes back under the same id declares afresh.
    give(state, { t: 'leave', c: 'wolf' });
    give(state, { t: 'join', c: foe('wolf') });
    give(state, { t: 'declare', d: melee('wolf', 'mage') });
  });
});

describe.each(PROCEDURE_IDS.filter((p) => p !== 'addict'))('%s: a declaration may be changed until the round is planned', (procedure) => {
  it('declared again, the new one replaces it; withdrawn, another may be declared', () => {
    const rolls = procedure === 'individual-speed' ? [base('fighter', 3), base('mage', 4), base('ogre', 5), base('gob', 6)] : procedure === 'd12-ascending' ? [surprise('party', 12), surprise('foes', 12)] : [surprise('party', 5), surprise('foes', 5)];
    const { state } = start(procedure, people(), rolls);
    give(state, { t: 'declare', d: melee('fighter', 'ogre') });
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    expect(state.declarations.fighter).toEqual(melee('fighter', 'gob'));
    give(state, { t: 'withdraw', c: 'fighter' });
    give(state, { t: 'declare', d: melee('fighter', 'ogre') });
    expect(state.declarations.fighter).toEqual(melee('fighter', 'ogre'));
    expect(state.finalDeclarations).toBeUndefined();
  });
});
