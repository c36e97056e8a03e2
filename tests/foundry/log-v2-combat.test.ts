/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Issue 27, Deliver 8: a combat in progress stored by the code before log
 * version 3 (tests/foundry/fixtures/world-v2-log.json, its generator beside
 * it: segment-d6, round 1 being played, Brand's blow recorded without a
 * blow mark, declarations without sheet numbers) replays under this code to
 * the state that code reached, and play goes on: its declarations read the
 * sheet at the blow (they froze nothing), the next round's freeze it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { g } from './world';
import { loadWorld } from './stored-world';
import { installFoundry } from '../standin';
import { initSystem } from '../../src/system';
import { SCHEMA_VERSION } from '../../src/documents/schema-version';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import { FLOW_VERSION } from '../../src/rules/flow';
import type { TenSegmentsCombat } from '../../src/documents/combat';

const stored = JSON.parse(readFileSync(new URL('./fixtures/world-v2-log.json', import.meta.url), 'utf8'));
const { ids, users } = stored._note;

describe.each([13, 14] as const)('a combat in progress stored at log version 2, generation %i', (generation) => {
  async function boot() {
    const foundry = installFoundry({ generation, lang: 'lang/en.json', systemId: 'ten-segments' });
    foundry.everyClient(initSystem);
    await g.game.settings.set('ten-segments', 'schemaVersion', SCHEMA_VERSION);
    loadWorld(foundry, stored);
    await foundry.settle();
    const combat = g.game.combats.contents[0] as TenSegmentsCombat;
    const idle = async () => {
      await foundry.client(foundry.users.gm).run(() => whenIdle());
      await foundry.settle();
    };
    return { foundry, combat, idle };
  }

  it('replays to the state the code before reached, brought to version 3; every client the same', async () => {
    const { foundry, combat } = await boot();
    expect(stored._note.flowVersion).toBe(2);
    expect(combat.entries[0][1]).toMatchObject({ t: 'start', v: 2 });
    expect(JSON.parse(JSON.stringify(combat.flowState))).toStrictEqual({ ...stored.state, v: FLOW_VERSION });
    expect(combat.flowState!.states[ids.orc1].hp).toBe(1);
    const player = await foundry.client(g.game.users.get(users.player2)).run(() => JSON.parse(JSON.stringify(g.game.combats.contents[0].flowState)));
    expect(player).toStrictEqual({ ...stored.state, v: FLOW_VERSION });
    expect(foundry.errors).toEqual([]);
  });

  it('play goes on: the orc strikes with the sheet (its declaration froze nothing), the next round freezes Brand\'s edited sheet', async () => {
    const { foundry, combat, idle } = await boot();
    const brand = g.game.actors.find((a: any) => a.name === 'Brand');
    const sword = brand.items.find((i: any) => i.type === 'weapon');
    // Brand's AC lowered on the sheet during the round: his declaration (written before version 3) froze nothing, so the orc's blow reads it.
    await foundry.asUser(g.game.users.get(users.player2), () => brand.update({ 'system.ac': 10 }));
    await idle();
    // On to the orcs' segment (segment 6).
    for (let i = 0; i < 6 && combat.combatant?.id !== ids.orc1; i++) {
      await combat.nextTurn();
      await idle();
    }
    expect(combat.combatant?.id).toBe(ids.orc1);
    foundry.dice.push(9, 3); // AAC0 19 against AC 10 needs 9
    const orcs = await requestAttack(combat, { attackerId: ids.orc1, targetId: ids.brand, routine: 0, attack: 0 });
    await idle();
    expect(orcs).toMatchObject({ ok: true, hit: true, natural: 9, needed: 9, damage: 3 });
    expect(brand.system.hp.value).toBe(brand.system.hp.max - 3);
    // Round 2: Brand declares again; his declaration carries the sheet as it is now (AC 10), and a later edit is not read.
    await combat.nextRound();
    await idle();
    await foundry.asUser(g.game.users.get(users.player2), () => requestDeclaration(combat, ids.brand, { action: 'melee', weapon: sword.id, target: ids.orc1 }));
    await idle();
    expect(combat.flowState!.declarations[ids.brand]?.sheet).toMatchObject({ ac: 10 });
    expect(combat.entries.some(([, e]: any) => e.t === 'start' && e.v === 2)).toBe(true);
    expect(foundry.errors).toEqual([]);
  });
});
