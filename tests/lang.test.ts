/**
 * Everything a user reads comes from lang/en.json: every key the code and
 * templates name, every problem key, every phase and option of every
 * procedure, and every reason a schedule gives, has an English string whose
 * placeholders the code fills.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCEDURES } from '../src/rules/procedures/all';
import { PROCEDURE_IDS, type ProcedureId } from '../src/rules/model';
import { RandomDice } from '../src/rules/dice';
import { playCombat } from '../src/rules/play';

const en: Record<string, string> = JSON.parse(readFileSync('lang/en.json', 'utf8'));

function walk(dir: string, ext: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p, ext) : p.endsWith(ext) ? [p] : [];
  });
}

describe('lang/en.json', () => {
  it('has every TENSEG key written out in the code and the templates', () => {
    const missing: string[] = [];
    for (const file of [...walk('src', '.ts'), ...walk('templates', '.hbs')]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/["'`](TENSEG\.[A-Za-z0-9_.-]+[A-Za-z0-9])["'`]/g)) {
        // A data model's LOCALIZATION_PREFIXES name a prefix: its fields' labels sit below it.
        const isPrefix = Object.keys(en).some((k) => k.startsWith(`${m[1]}.`));
        if (!(m[1] in en) && !isPrefix) missing.push(`${file}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has every problem key the code can raise (TENSEG.Error.<key>)', () => {
    const missing: string[] = [];
    for (const file of walk('src', '.ts')) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bkey: '([A-Z][A-Za-z0-9]+)'/g)) {
        if (!(`TENSEG.Error.${m[1]}` in en)) missing.push(`${file}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(PROCEDURE_IDS as readonly ProcedureId[])('names the procedure %s, its phases and its options', (id) => {
    const p = PROCEDURES[id];
    expect(en[`TENSEG.Procedure.${id}.Name`]).toBeTruthy();
    for (const phase of p.phases) expect(en[`TENSEG.Phase.${phase}`], phase).toBeTruthy();
    for (const spec of p.optionSpecs) {
      expect(en[`TENSEG.Option.${id}.${spec.key}.Name`], spec.key).toBeTruthy();
      expect(en[`TENSEG.Option.${id}.${spec.key}.Hint`], spec.key).toBeTruthy();
      for (const choice of spec.choices ?? []) expect(en[`TENSEG.Option.${id}.${spec.key}.Choice.${choice}`], `${spec.key}: ${choice}`).toBeTruthy();
    }
  });

  it.each(PROCEDURE_IDS as readonly ProcedureId[])('explains every reason a %s schedule gives', (id) => {
    const p = PROCEDURES[id];
    const sides = [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ];
    const combatants = Array.from({ length: 12 }, (_, i) => ({
      id: `c${i}`,
      name: `C${i}`,
      side: sides[i % 2].id,
      kind: (i % 2 ? 'monster' : 'character') as 'monster' | 'character',
      hp: 20,
      routines: i % 3 === 0 ? 2 : 1,
      weapon: i % 4 === 1 ? { missile: true, speed: 7, rate: 2 } : { speed: 2 + (i % 7), length: 3 + (i % 3) },
      strength: 10,
      woundPoints: 10,
      stress: 5,
      className: 'fighter',
      level: 8,
    }));
    const actions = ['melee', 'missile', 'spell', 'charge', 'flee', 'parley', 'set-vs-charge', 'full-defense', 'consumable', 'wait', 'delay', 'complex'] as const;
    const reasons = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) {
      const decls = Object.fromEntries(
        combatants.map((c, i) => {
          const allowed = actions.filter((a) => p.actions.includes(a));
          const action = allowed[(i + seed) % allowed.length];
          const target = combatants[(i + 1) % combatants.length].id;
          return [c.id, { combatant: c.id, action, target, castingTime: 1 + (i % 4), speed: 2, spell: 'Bolt', distance: 20 }];
        }),
      );
      const log = playCombat(p, { sides, combatants }, { ...p.defaults }, new RandomDice(seed), {
        rounds: 2,
        declarations: () => Object.fromEntries(Object.entries(decls).filter(([id, d]) => p.validateDeclaration(d as never, combatants.find((c) => c.id === id)!, p.defaults) === null)) as never,
        damage: [],
      });
      for (const r of [log.surpriseRound, ...log.rounds]) for (const s of r?.schedule.steps ?? []) for (const e of s.entries) if (e.reason) reasons.add(e.reason);
    }
    const missing = [...reasons].filter((r) => !(`TENSEG.Reason.${r}` in en) && !(r in en));
    expect(missing).toEqual([]);
  });
});
