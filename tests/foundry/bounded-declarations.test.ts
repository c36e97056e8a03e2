/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 27, Why 4: a flood of declarations. A player who changes her mind
 * 400 times in one round's declarations (melee at Orc 1, at Orc 2, at Orc 1,
 * ...) made 400 log entries and 400 Combat writes, the Combat grew tenfold,
 * and each change was one more step for Previous. Now a change of mind
 * replaces the combatant's open declaration entry (one entry per combatant),
 * and a player has DECLARATION_CHANGES changes a round (that many + 1 Combat
 * writes): the next is refused in words and writes nothing. The GM is not
 * limited.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { g, idle, makeWorld, type World } from './world';
import { requestCombatAction, requestDeclaration, requestWithdrawal } from '../../src/documents/queries';
import { DECLARATION_CHANGES } from '../../src/documents/declaration-limit';
import { CHANNEL, whenIdle } from '../../src/documents/requests';

describe.each([13, 14] as const)('bounded declarations, generation %i', (generation) => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(generation, 'segment-d6');
  });

  const stored = () => JSON.stringify(w.foundry.server.source(w.combat.uuid as string)).length;
  const combatWrites = () => w.foundry.writes.all().filter((x: any) => x.documentName === 'Combat').length;
  const declareEntries = (id: string) => w.combat.entries.filter(([, e]: [string, any]) => e.t === 'declare' && e.d?.combatant === id);
  const asPlayer2 = <T>(fn: () => Promise<T>) => w.foundry.asUser(w.foundry.users.player2, fn);

  /** Started (nobody surprised), Orc 1 at Brand (the GM). */
  async function started(): Promise<void> {
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await requestDeclaration(w.combat, w.ids.orc1, { action: 'melee', target: w.ids.brand });
    await idle(w);
  }

  const at = (i: number) => (i % 2 === 0 ? w.ids.orc1 : w.ids.orc2);

  it('400 alternating declarations: one entry, at most L + 1 writes, the Combat stays small, the rest refused in words', async () => {
    await started();
    const before = stored();
    const entriesBefore = w.combat.entries.length;
    w.foundry.writes.clear();
    const answers: any[] = [];
    for (let i = 0; i < 400; i++) {
      answers.push(await asPlayer2(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: at(i) })));
    }
    await idle(w);
    // The first declaration and DECLARATION_CHANGES changes are taken; every later change is refused, in words
    // (one the same as the declaration in force changes nothing and is answered done).
    const last = at(DECLARATION_CHANGES);
    expect(answers.slice(0, DECLARATION_CHANGES + 1).every((a) => a.ok)).toBe(true);
    const later = answers.map((a, i) => ({ a, i })).slice(DECLARATION_CHANGES + 1);
    expect(later.filter(({ a, i }) => (at(i) === last ? !a.ok : a.ok || a.key !== 'DeclarationChangesSpent'))).toEqual([]);
    expect(answers[DECLARATION_CHANGES + 1].message).toContain(`You have changed your declarations ${DECLARATION_CHANGES} times this round`);
    expect(answers[DECLARATION_CHANGES + 1].message).toContain('ask the GM');
    expect(combatWrites()).toBeLessThanOrEqual(DECLARATION_CHANGES + 1);
    // One open declaration entry for Brand; the log one entry longer than before.
    expect(declareEntries(w.ids.brand)).toHaveLength(1);
    expect(w.combat.entries.length).toBe(entriesBefore + 1);
    expect(stored()).toBeLessThan(before * 2);
    // The last declaration taken is the one in force, through initiative.
    expect(w.combat.flowState!.declarations[w.ids.brand]?.target).toBe(last);
    w.foundry.dice.push(6, 1);
    await w.combat.rollInitiative();
    await idle(w);
    expect(w.combat.flowState!.stage).toBe('resolve');
    expect(w.combat.flowState!.declarations[w.ids.brand]?.target).toBe(last);
    // Previous: back to the declarations as they were; once more, Brand's declaration goes (one step, not 400).
    await w.combat.previousTurn();
    await idle(w);
    expect(w.combat.flowState!.stage).toBe('declare');
    expect(w.combat.flowState!.declarations[w.ids.brand]?.target).toBe(last);
    await w.combat.previousTurn();
    await idle(w);
    expect(w.combat.flowState!.declarations[w.ids.brand]).toBeUndefined();
    expect(w.combat.gmDeclarations[w.ids.orc1]?.target).toBe(w.ids.brand);
  });

  it('a change of mind after another combatant declared replaces the entry in its place; every client replays the same', async () => {
    await started();
    await asPlayer2(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    await w.foundry.asUser(w.foundry.users.player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
    await asPlayer2(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc2 }));
    await idle(w);
    expect(declareEntries(w.ids.brand)).toHaveLength(1);
    const { outOfPlace } = await import('../../src/rules/flow');
    expect(outOfPlace(w.combat.entries)).toBe(-1);
    const p1 = w.foundry.client(w.foundry.users.player).game.combats.get(w.combat.id);
    expect(p1.flowState.declarations[w.ids.brand]?.target).toBe(w.ids.orc2);
    expect(p1.flowState.declarations[w.ids.halvaine]?.spell).toBe('Sleep');
    // Withdrawn and declared again: still one declaration entry.
    await asPlayer2(() => requestWithdrawal(w.combat, w.ids.brand));
    await asPlayer2(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
    await idle(w);
    expect(declareEntries(w.ids.brand)).toHaveLength(1);
    expect(w.combat.entries.filter(([, e]: [string, any]) => e.t === 'withdraw')).toHaveLength(0);
    expect(p1.flowState.declarations[w.ids.brand]?.target).toBe(w.ids.orc1);
  });

  it('a retry of a request whose entry a change of mind replaced is answered done and changes nothing', async () => {
    await started();
    const p2 = w.foundry.users.player2;
    const send = (id: string, target: string) =>
      w.foundry.raw(p2).emit(CHANNEL, { k: 'req', id, kind: 'declare', body: { combatId: w.combat.id, combatantId: w.ids.brand, declaration: { action: 'melee', weapon: w.sword.id, target } } });
    const settled = async () => {
      await w.foundry.settle();
      await w.foundry.client(w.foundry.users.gm).run(() => whenIdle());
      await w.foundry.settle();
    };
    send('first', w.ids.orc1);
    await settled();
    send('second', w.ids.orc2);
    await settled();
    expect(declareEntries(w.ids.brand)).toHaveLength(1);
    // To the same GM (who remembers its answers), then to the next GM after a handover (who reads the log).
    send('first', w.ids.orc1);
    await settled();
    expect(w.combat.flowState!.declarations[w.ids.brand]?.target).toBe(w.ids.orc2);
    const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
    await w.foundry.settle();
    w.foundry.disconnect(w.foundry.users.gm);
    await w.foundry.settle();
    const next = w.foundry.client(gm2);
    send('first', w.ids.orc1);
    await w.foundry.settle();
    await next.run(() => whenIdle());
    await w.foundry.settle();
    const c2 = next.game.combats.get(w.combat.id);
    expect(c2.flowState.declarations[w.ids.brand]?.target).toBe(w.ids.orc2);
    expect(c2.entries.filter(([, e]: [string, any]) => e.t === 'declare' && e.d?.combatant === w.ids.brand)).toHaveLength(1);
  });

  it('the GM is not limited, and her changes replace the entry too', async () => {
    await started();
    for (let i = 0; i < DECLARATION_CHANGES + 5; i++) {
      const a = await requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: at(i) });
      expect(a).toEqual({ ok: true });
    }
    await idle(w);
    expect(declareEntries(w.ids.brand)).toHaveLength(1);
    expect(w.combat.flowState!.declarations[w.ids.brand]?.target).toBe(at(DECLARATION_CHANGES + 4));
  });

  it('before the start: a player\'s changes are limited too, the combatant written at most twice a change', async () => {
    w.foundry.writes.clear();
    const answers: any[] = [];
    for (let i = 0; i < DECLARATION_CHANGES + 10; i++) {
      answers.push(await asPlayer2(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: at(i) })));
    }
    await idle(w);
    expect(answers.slice(0, DECLARATION_CHANGES + 1).every((a) => a.ok)).toBe(true);
    expect(answers.slice(DECLARATION_CHANGES + 1).filter((a) => a.ok || a.key !== 'DeclarationChangesSpent')).toEqual([]);
    const writes = w.foundry.writes.all().filter((x: any) => x.documentName === 'Combat' || x.documentName === 'Combatant').length;
    expect(writes).toBeLessThanOrEqual(2 * (DECLARATION_CHANGES + 1));
    // The last one taken enters the log at the start.
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    await idle(w);
    expect(w.combat.flowState!.declarations[w.ids.brand]?.target).toBe(at(DECLARATION_CHANGES));
  });

  it('the limit is per round: the next round a player declares again', async () => {
    await started();
    for (let i = 0; i < DECLARATION_CHANGES + 2; i++) await asPlayer2(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: at(i) }));
    const refused = await asPlayer2(() => requestWithdrawal(w.combat, w.ids.brand));
    expect(refused).toMatchObject({ ok: false, key: 'DeclarationChangesSpent' });
    expect(await requestCombatAction(w.combat, 'nextRound')).toEqual({ ok: true });
    await idle(w);
    expect(w.combat.flowState!.stage).toBe('declare');
    const again = await asPlayer2(() => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc2 }));
    expect(again).toEqual({ ok: true });
  });
});
