/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The cards of a combat's course (README, "Running a combat in Foundry"):
 * the surprise when the combat starts (public by default, seed 004's
 * footnote), the initiative when a round begins, and at the end of every
 * round its recap, step by step, bleeding and morale folded in: one card,
 * even when nothing happened. Cards players see are told from what everyone
 * may see (no hidden combatant, no other side's secret); the GMs then get
 * the full version whispered. Asserted as text, as a GM and as a player read
 * their chat log. And the GM's keybindings for the next and previous step.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { g, makeWorld, type World, cardText as text, idle, cardKind as kindOf, cardsSeenBy as seenBy, brandVersusOrcs } from './world';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { requestAttack } from '../../src/documents/attack';
import type { TenSegmentsCombat } from '../../src/documents/combat';

type ModeName = 'public' | 'gm';
const MODES: Record<13 | 14, Record<ModeName, string>> = {
  13: { public: 'publicroll', gm: 'gmroll' },
  14: { public: 'public', gm: 'gm' },
};

function cards(kind: string): any[] {
  return g.game.messages.contents.filter((m: any) => kindOf(m) === kind);
}

async function nextUntil(combat: TenSegmentsCombat, done: () => boolean, max = 40): Promise<void> {
  for (let i = 0; i < max && !done(); i++) await combat.nextTurn();
  expect(done()).toBe(true);
}

describe.each([13, 14] as const)('chat cards of the combat, generation %i', (generation) => {
  let w: World;
  const modes = MODES[generation];
  const setting = generation === 14 ? 'messageMode' : 'rollMode';
  const choose = (user: any, mode: ModeName) => w.foundry.client(user).run(() => g.game.settings.set('core', setting, modes[mode]));
  const gmIds = () => g.game.users.filter((u: any) => u.isGM).map((u: any) => u.id).sort();
  const groupOf = (id: string) => w.combat.groups.get((w.combat.combatants.get(id) as any)._source.group)!;
  const hide = (id: string) => w.combat.updateEmbeddedDocuments('Combatant', [{ _id: id, hidden: true }] as never);

  describe('segment-d6', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'segment-d6', { deathRule: 'minus-ten', bleedPerRound: 1 });
    });

    it('surprise: one public card when the combat starts, even in the GM\'s gm mode: each side\'s roll and result, the never surprised; players read it too', async () => {
      const { gm, player } = w.foundry.users;
      await choose(gm, 'gm');
      await w.actors.orc2.update({ 'system.surprise.neverSurprised': true });
      w.foundry.dice.push(2, 5); // the party is surprised for 2 segments; the orcs roll 5
      await w.combat.startCombat();
      await idle(w);
      const [card] = cards('surprise');
      expect([...card.whisper]).toEqual([]);
      const expected = 'Surprise Friendly rolled 2: surprised, segments lost: 2. Hostile rolled 5: not surprised. Orc 2 is never surprised. Rolled in public.';
      expect(text(card)).toBe(expected);
      expect(seenBy(w, player, 'surprise', 'surprise-gm')).toEqual([expected]);
      expect(seenBy(w, gm, 'surprise', 'surprise-gm')).toEqual([expected]); // nothing more for the GMs: nobody hidden
      expect(w.foundry.errors).toEqual([]);
    });

    it('surprise: an alerted side makes no roll; a hidden combatant is not in the public card, the GMs get the full one whispered', async () => {
      const { gm, player } = w.foundry.users;
      await w.actors.orc2.update({ 'system.surprise.neverSurprised': true });
      await groupOf(w.ids.orc1).update({ 'system.alerted': true } as never);
      await hide(w.ids.orc2);
      w.foundry.dice.push(5); // only the party rolls
      await w.combat.startCombat();
      await idle(w);
      const shown = 'Surprise Friendly rolled 5: not surprised. Hostile is alerted: no roll. Nobody is surprised. Rolled in public.';
      const full = 'Surprise For the GMs: the full version, with what players do not see. Friendly rolled 5: not surprised. Hostile is alerted: no roll. Orc 2 is never surprised. Nobody is surprised. Rolled in public.';
      expect(seenBy(w, player, 'surprise', 'surprise-gm')).toEqual([shown]);
      expect(seenBy(w, gm, 'surprise', 'surprise-gm')).toEqual([shown, full]);
      expect([...cards('surprise-gm')[0].whisper].sort()).toEqual(gmIds());
    });

    it('surprise in German: the card reads in the language of the client', async () => {
      w.foundry.loadLang('lang/de.json');
      w.foundry.dice.push(2, 5);
      await w.combat.startCombat();
      await idle(w);
      const seen = seenBy(w, w.foundry.users.player, 'surprise');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toContain('Überraschung');
      expect(seen[0]).toContain('hat 2 gewürfelt: überrascht, verlorene Segmente: 2.');
      expect(seen[0]).toContain('hat 5 gewürfelt: nicht überrascht.');
    });

    it('initiative: a card when a round begins, each side\'s die and who won (or the tie), in the GM\'s mode', async () => {
      const { gm, player, player2 } = w.foundry.users;
      w.foundry.dice.push(4, 5); // nobody surprised
      await w.combat.startCombat();
      await w.foundry.asUser(player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
      w.foundry.dice.push(6, 1);
      await w.combat.rollInitiative();
      await idle(w);
      const round1 = 'Initiative, round 1 Friendly rolled 6. Hostile rolled 1. Friendly wins the initiative.';
      expect(seenBy(w, player, 'initiative', 'initiative-gm')).toEqual([round1]);
      // Round 2 in the GM's gm mode: whispered to the GMs, told from the GM's view; a tie.
      await choose(gm, 'gm');
      await nextUntil(w.combat, () => w.combat.flowState!.stage === 'declare' && w.combat.flowState!.round === 2);
      w.foundry.dice.push(3, 3);
      await w.combat.rollInitiative();
      await idle(w);
      const round2 = 'Initiative, round 2 Friendly rolled 3. Hostile rolled 3. Tied at 3: no side wins.';
      expect(seenBy(w, player, 'initiative', 'initiative-gm')).toEqual([round1]);
      expect(seenBy(w, gm, 'initiative', 'initiative-gm')).toEqual([round1, round2]);
      expect([...cards('initiative')[1].whisper].sort()).toEqual(gmIds());
      expect(w.foundry.errors).toEqual([]);
    });

    it('initiative undone by Previous takes its card with it; rolled again, only the new card is in the chat', async () => {
      const { gm, player, player2 } = w.foundry.users;
      await brandVersusOrcs(w, [4, 5], { initiative: [6, 1] });
      expect(seenBy(w, player, 'initiative')).toEqual(['Initiative, round 1 Friendly rolled 6. Hostile rolled 1. Friendly wins the initiative.']);
      expect(await w.foundry.pressKey(gm, 'ten-segments.previousStep')).toBe(true);
      await idle(w);
      expect(w.combat.flowState!.stage).toBe('declare');
      expect(seenBy(w, player, 'initiative', 'initiative-gm')).toEqual([]);
      expect(seenBy(w, gm, 'initiative', 'initiative-gm')).toEqual([]);
      w.foundry.dice.push(2, 5);
      await w.combat.rollInitiative();
      await idle(w);
      expect(seenBy(w, player, 'initiative')).toEqual(['Initiative, round 1 Friendly rolled 2. Hostile rolled 5. Hostile wins the initiative.']);
      expect(w.foundry.errors).toEqual([]);
    });

    it('the recap: a card at the end of every round, even one in which nothing happened', async () => {
      const { player, player2 } = w.foundry.users;
      w.foundry.dice.push(4, 5);
      await w.combat.startCombat();
      await w.foundry.asUser(player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
      w.foundry.dice.push(6, 1);
      await w.combat.rollInitiative();
      await nextUntil(w.combat, () => w.combat.flowState!.stage === 'end-of-round');
      await idle(w);
      const quiet = 'End of round 1 Friendly won the initiative (6). Friendly, standing: Halvaine, Brand. Hostile, standing: Orc 1, Orc 2.';
      expect(seenBy(w, player, 'end-of-round', 'end-of-round-gm')).toEqual([quiet]);
      expect(cards('end-of-round')).toHaveLength(1);
    });

    it('the recap tells the round segment by segment; a hidden orc is left out of the public card and told to the GMs alone', async () => {
      const { gm, player, player2 } = w.foundry.users;
      await hide(w.ids.orc2);
      w.foundry.dice.push(4, 5);
      await w.combat.startCombat();
      await w.foundry.asUser(player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc2 }));
      w.foundry.dice.push(6, 1); // the party acts in segment 1
      await w.combat.rollInitiative();
      await idle(w);
      w.foundry.dice.push(18, 8); // Brand drops Orc 2 to -2
      expect(await w.foundry.asUser(player2, () => requestAttack(w.combat, { attackerId: w.ids.brand, targetId: w.ids.orc2, weaponId: w.sword.id }))).toMatchObject({ ok: true, hit: true, damage: 8 });
      await idle(w);
      await nextUntil(w.combat, () => w.combat.flowState!.stage === 'end-of-round');
      await idle(w);
      const [shown] = seenBy(w, player, 'end-of-round', 'end-of-round-gm');
      expect(seenBy(w, player, 'end-of-round', 'end-of-round-gm')).toHaveLength(1);
      expect(shown).toBe('End of round 1 Friendly won the initiative (6). Friendly, standing: Halvaine, Brand. Hostile, standing: Orc 1.');
      const full = seenBy(w, gm, 'end-of-round-gm');
      expect(full).toHaveLength(1);
      expect(full[0]).toMatch(/^End of round 1 For the GMs: .* Friendly won the initiative \(6\)\. Segment 1: .*Orc 2 .* Orc 2 bled 1\. .*Hostile, down: Orc 2\.$/);
      expect([...cards('end-of-round-gm')[0].whisper].sort()).toEqual(gmIds());
    });
  });

  describe('high-low and individual-speed', () => {
    it('high-low: the sides\' dice with their HIGH / LOW labels', async () => {
      w = await makeWorld(generation, 'high-low', { deathAt: -10, bleedPerRound: 1 });
      w.foundry.dice.push(5, 6); // nobody surprised
      await w.combat.startCombat();
      await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
      w.foundry.dice.push(2, 5);
      await w.combat.rollInitiative();
      await idle(w);
      expect(seenBy(w, w.foundry.users.player, 'initiative')).toEqual(['Initiative, round 1 Friendly rolled 2: LOW. Hostile rolled 5: HIGH. Hostile wins the initiative.']);
    });

    it('individual-speed: each combatant\'s initiative count', async () => {
      w = await makeWorld(generation, 'individual-speed');
      w.foundry.dice.push(8, 3, 4, 6); // base initiative, a d12 each
      await w.combat.startCombat();
      await w.foundry.asUser(w.foundry.users.player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
      await w.foundry.asUser(w.foundry.users.player2, () => requestDeclaration(w.combat, w.ids.brand, { action: 'melee', weapon: w.sword.id, target: w.ids.orc1 }));
      await w.combat.rollInitiative();
      await idle(w);
      const counts = w.combat.flowState!.initiative!.individuals;
      expect(seenBy(w, w.foundry.users.player, 'initiative')).toEqual([`Initiative, round 1 Halvaine: ${counts[w.ids.halvaine]}. Brand: ${counts[w.ids.brand]}.`]);
      expect([counts[w.ids.halvaine], counts[w.ids.brand]]).toEqual([10, 8]);
    });
  });

  describe('keybindings', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'segment-d6');
    });

    it('next and previous step are registered at init, GM only, with names in English and German', async () => {
      for (const user of [w.foundry.users.gm, w.foundry.users.player]) {
        const actions = (w.foundry.client(user) as any).game.keybindings.actions;
        expect(actions.get('ten-segments.nextStep')).toMatchObject({ name: 'TENSEG.Keybinding.NextStep.Name', restricted: true, editable: [{ key: 'BracketRight', modifiers: ['Shift'] }] });
        expect(actions.get('ten-segments.previousStep')).toMatchObject({ name: 'TENSEG.Keybinding.PreviousStep.Name', restricted: true, editable: [{ key: 'BracketLeft', modifiers: ['Shift'] }] });
      }
      expect(g.game.i18n.localize('TENSEG.Keybinding.NextStep.Name')).toBe('Next step');
      expect(g.game.i18n.localize('TENSEG.Keybinding.PreviousStep.Name')).toBe('Previous step');
      w.foundry.loadLang('lang/de.json');
      expect(g.game.i18n.localize('TENSEG.Keybinding.NextStep.Name')).toBe('Nächster Schritt');
      expect(g.game.i18n.localize('TENSEG.Keybinding.PreviousStep.Name')).toBe('Vorheriger Schritt');
    });

    it('the GM\'s keys move the combat a step on and back, as Next and Previous do; a player\'s press does nothing', async () => {
      const { gm, player, player2 } = w.foundry.users;
      await brandVersusOrcs(w, [4, 5], { initiative: [6, 1] });
      const at = () => ({ stage: w.combat.flowState!.stage, step: w.combat.flowState!.step, log: w.combat.entries.length });
      const start = at();
      expect(await w.foundry.pressKey(player, 'ten-segments.nextStep')).toBe(false);
      await idle(w);
      expect(at()).toEqual(start);
      expect(await w.foundry.pressKey(gm, 'ten-segments.nextStep')).toBe(true);
      await idle(w);
      expect(at()).toMatchObject({ stage: 'end-of-round', log: start.log + 1 }); // Brand's segment was the round's one step
      expect(await w.foundry.pressKey(gm, 'ten-segments.previousStep')).toBe(true);
      await idle(w);
      expect(at()).toEqual(start);
      expect(w.foundry.errors).toEqual([]);
    });

    it('without a combat the keys are left to others (not consumed)', async () => {
      await w.combat.delete();
      expect(await w.foundry.pressKey(w.foundry.users.gm, 'ten-segments.nextStep')).toBe(false);
    });
  });
});
