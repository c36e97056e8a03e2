/**
 * Every Problem the data layer and its rules helpers can give a GM has a
 * translation in lang/en.json (a raw key on screen is a bug a GM sees).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHitDice } from '../../src/rules/hit-dice';
import { aac0ForLevel, parseAac0, resolveAttack } from '../../src/rules/attack';
import { parseAttackRoutines } from '../../src/rules/attack-routines';
import { toDeclaration, toEngineCombatant } from '../../src/data/engine-view';
import { entryProblem } from '../../src/data/combat-log';
import type { Problem } from '../../src/rules/model';
import type { Parsed } from '../../src/rules/hit-dice';

const translations: Record<string, string> = JSON.parse(readFileSync('lang/en.json', 'utf8'));

function problem(r: Parsed<unknown>): Problem {
  if (r.ok) throw new Error('expected a problem');
  return r.problem;
}

describe('problems are translated, with every placeholder filled', () => {
  const aac0 = parseAac0(15);
  if (!aac0.ok) throw new Error('aac0');
  const who = { combatant: 'c', name: 'N', items: [{ id: 'w', name: 'Sword', type: 'weapon', system: { speed: 5 } }] };
  const cases: Problem[] = [
    problem(parseHitDice('x')),
    problem(parseAac0('x')),
    problem(resolveAttack({ aac0: aac0.value, ac: 11 }, 10)),
    problem(resolveAttack({ aac0: aac0.value, ac: 1 }, 0)),
    problem(aac0ForLevel({ name: 't', aac0ByLevel: [] }, 1)),
    problem(parseAttackRoutines('bite (1d6')),
    problem(parseAttackRoutines('2 claws and bite')),
    problem(parseAttackRoutines('2 claws (1d4/1d4/1d4)')),
    problem(toEngineCombatant({ id: 'a', name: 'N', type: 'character', system: { hp: null } }, { id: 'c', side: 's' })),
    problem(toEngineCombatant({ id: 'a', name: 'N', type: 'character', system: null }, { id: 'c', side: 's' })),
    problem(toEngineCombatant({ id: 'a', name: 'N', type: 'cart', system: {} }, { id: 'c', side: 's' })),
    problem(toDeclaration({ action: 'dance' }, who)),
    problem(toDeclaration({ action: 'melee', weapon: 'x' }, who)),
    problem(toDeclaration({ action: 'spell', spell: 'x' }, who)),
    problem(toDeclaration({ action: 'melee', distance: 'far' }, who)),
    problem(toDeclaration({ action: 'device' }, who)),
    entryProblem('{') as Problem,
    entryProblem({ t: 'chess' }) as Problem,
    entryProblem({ t: 'next', r: ['six'] }) as Problem,
  ];
  it.each(cases.map((p) => [p.key, p] as const))('%s', (key, p) => {
    const text = translations[`TENSEG.Error.${key}`];
    expect(text, key).toBeTypeOf('string');
    for (const placeholder of text.match(/{[^}]+}/g) ?? []) {
      expect(p.data ?? {}, `${key} ${placeholder}`).toHaveProperty(placeholder.slice(1, -1));
    }
  });
});
