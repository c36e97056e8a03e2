/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The GM's surprise dialog (issue 10, Deliver 1 and 3): each side with its
 * members, their own adjustments by name and those never surprised; one
 * click marks a side alerted or surprised (nothing written until the
 * submit); the situation's modifier; the card rolled in public by default
 * (seed 004's footnote) or for the GMs only. Submitting writes the sides and
 * starts the combat, whose surprise card tells the result. A player cannot.
 * And the card of a spell going off, as a GM and a player read it, posted
 * once per step (Previous then Next does not double it).
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { beforeEach, describe, expect, it } from 'vitest';
import { g, makeWorld, type World, cardText as text, idle, cardKind as kindOf, cardsSeenBy as seenBy } from './world';
import { openSurpriseDialog, SurpriseDialog, type SurpriseContext } from '../../src/apps/surprise-dialog';
import { requestDeclaration, whenIdle } from '../../src/documents/queries';
import { groupData } from '../../src/data/systems';
import { requestProblem } from '../../src/documents/request-schema';

describe.each([13, 14] as const)('the surprise dialog, generation %i', (generation) => {
  let w: World;
  const groupOf = (id: string) => w.combat.groups.get((w.combat.combatants.get(id) as any)._source.group)!;
  const friendly = () => groupOf(w.ids.halvaine).id as string;
  const hostile = () => groupOf(w.ids.orc1).id as string;
  const context = (d: SurpriseDialog) => (d as any).lastContext as SurpriseContext;
  const side = (c: SurpriseContext, id: string) => c.sides.find((s) => s.id === id)!;

  describe('segment-d6', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'segment-d6');
      w.foundry.loadLang('lang/en.json');
      await w.actors.halvaine.update({ 'system.combat.reactionAdjustment': 2 });
      await w.actors.orc1.update({ 'system.surprise.surprisesOn': 3 });
      await w.actors.orc2.update({ 'system.surprise.neverSurprised': true });
      w.foundry.writes.clear();
    });

    it('shows each side with its members, their adjustments by name, the never surprised, and the chance in words; public by default', async () => {
      const dialog = (await openSurpriseDialog(w.combat))!;
      const c = context(dialog);
      expect(c.procedure).toBe(g.game.i18n.localize('TENSEG.Procedure.segment-d6.Name'));
      expect(c.sides.map((s) => s.name)).toEqual(['Friendly', 'Hostile']);
      const party = side(c, friendly());
      expect(party.members.map((m) => [m.name, m.adjustments, m.neverSurprised])).toEqual([
        ['Halvaine', ['Dexterity +2'], false],
        ['Brand', [], false],
      ]);
      // The orc who "surprises on 1-3" widens the party's range (seed 000).
      expect(party.chance).toBe('Surprised on 1–3 of a d6.');
      const orcs = side(c, hostile());
      expect(orcs.members.map((m) => [m.name, m.adjustments, m.neverSurprised])).toEqual([
        ['Orc 1', ['surprises others on 1–3'], false],
        ['Orc 2', [], true],
      ]);
      expect(orcs.chance).toBe('Surprised on 1–2 of a d6.');
      // Under segment-d6 the dice decide: "surprised" is offered but disabled, with the reason.
      expect(party.stances.map((s) => [s.stance, s.label, s.active, s.disabled])).toEqual([
        ['roll', 'Rolls', true, false],
        ['alerted', 'Alerted', false, false],
        ['surprised', 'Surprised', false, true],
      ]);
      expect(party.stances[2].tooltip).toBe('Under this procedure the dice decide: a side rolls or is alerted.');
      expect(c.gmOnly).toBe(false);
      expect(c.canSubmit).toBe(true);
      expect(w.foundry.writes.count()).toBe(0);
    });

    it('the template draws it: a stance control per side (the active one pressed, "surprised" disabled), the members with their tags, the public choice unticked', async () => {
      const dialog = (await openSurpriseDialog(w.combat))!;
      dialog.setStance(hostile(), 'alerted');
      await dialog.render();
      const html = Handlebars.compile(readFileSync('templates/dialogs/surprise.hbs', 'utf8'))(context(dialog));
      const flat = html.replace(/\s+/g, ' ');
      expect(flat).toContain(`<fieldset class="surprise-side" data-side="${hostile()}" data-stance="alerted">`);
      expect(flat).toContain(`class="surprise-stance active" data-action="stance" data-side="${hostile()}" data-stance="alerted"`);
      expect(flat).toMatch(new RegExp(`data-side="${friendly()}" data-stance="surprised"[^>]*aria-pressed="false" disabled>Surprised</button>`));
      expect(flat).toContain('<span class="surprise-tag adjustment">Dexterity +2</span>');
      expect(flat).toContain('<span class="surprise-tag never-tag">never surprised</span>');
      expect(flat).toContain(`name="modifier.${friendly()}" value="0"`);
      expect(flat).not.toContain(`name="modifier.${hostile()}"`); // alerted: no roll, no modifier
      expect(flat).toMatch(/<input type="checkbox" id="tenseg-surprise-gm-only" name="gmOnly" >/);
      expect(flat).toContain('Roll surprise and start the combat</button>');
    });

    it('one click marks a side alerted (shown at once, written only on submit); the submit starts the combat and the card says "alerted: no roll"', async () => {
      const dialog = (await openSurpriseDialog(w.combat))!;
      expect(dialog.setStance(hostile(), 'alerted')).toBeNull();
      await dialog.render();
      expect(side(context(dialog), hostile())).toMatchObject({ stance: 'alerted', chance: 'Alerted: no roll, not surprised.', modifiable: false });
      expect(w.foundry.writes.count()).toBe(0);
      expect(groupData(w.combat.groups.get(hostile()))!.alerted).toBe(false);
      // "surprised" is refused in words under segment-d6, nothing changed.
      expect(dialog.setStance(friendly(), 'surprised')).toMatchObject({ key: 'SurpriseDiceDecide' });
      w.foundry.dice.push(4); // only the party rolls
      expect(await dialog.startWith({})).toBeNull();
      await idle(w);
      expect(groupData(w.combat.groups.get(hostile()))!.alerted).toBe(true);
      expect(w.combat.flowState?.surprise.rolls).toEqual({ [friendly()]: 4 });
      expect(seenBy(w, w.foundry.users.player, 'surprise')).toEqual(['Surprise Friendly rolled 4: not surprised. Hostile is alerted: no roll. Orc 2 is never surprised. Nobody is surprised. Rolled in public.']);
    });

    it('the situation modifier: +1 widens the party\'s range; the combat starts with it and the card names it, and Halvaine\'s Dexterity by name', async () => {
      await w.actors.orc1.update({ 'system.surprise.surprisesOn': 0 });
      const dialog = (await openSurpriseDialog(w.combat))!;
      expect(dialog.setModifier(friendly(), '1')).toBeNull();
      await dialog.render();
      expect(side(context(dialog), friendly()).chance).toBe('Surprised on 1–3 of a d6.');
      w.foundry.dice.push(3, 5);
      expect(await dialog.startWith({ [`modifier.${friendly()}`]: '1' })).toBeNull();
      await idle(w);
      expect(groupData(w.combat.groups.get(friendly()))!.surpriseModifier).toBe(1);
      const surprised = w.combat.flowState!.surprise.surprised;
      expect([surprised[w.ids.halvaine], surprised[w.ids.brand], surprised[w.ids.orc1]]).toEqual([1, 3, 0]);
      const expected =
        'Surprise Friendly rolled 3: surprised, segments lost: 3. Friendly: the situation raises the chance of surprise by 1. Halvaine, adjusted: surprised, segments lost: 1. ' +
        'Hostile rolled 5: not surprised. Orc 2 is never surprised. Rolled in public.';
      expect(seenBy(w, w.foundry.users.player, 'surprise')).toEqual([expected]);
      expect(seenBy(w, w.foundry.users.gm, 'surprise')).toEqual([expected]);
    });

    it('rolled for the GMs only when the GM chooses: the card is whispered to the GMs and says so; players see none', async () => {
      const dialog = (await openSurpriseDialog(w.combat))!;
      w.foundry.dice.push(5, 6);
      expect(await dialog.startWith({ gmOnly: true })).toBeNull();
      await idle(w);
      expect(seenBy(w, w.foundry.users.player, 'surprise', 'surprise-gm')).toEqual([]);
      const [card] = seenBy(w, w.foundry.users.gm, 'surprise');
      expect(card).toBe('Surprise Friendly rolled 5: not surprised. Hostile rolled 6: not surprised. Orc 2 is never surprised. Nobody is surprised. Rolled for the GMs only.');
    });

    it('a modifier out of bounds is refused in words and nothing changes', async () => {
      const dialog = (await openSurpriseDialog(w.combat))!;
      expect(await dialog.startWith({ [`modifier.${friendly()}`]: '99' })).toMatchObject({ key: 'SurpriseModifierInvalid' });
      expect(w.foundry.notifications.at(-1)).toEqual({ type: 'error', message: '"99" is not a surprise modifier: write a whole number from -12 to 12.' });
      expect(w.combat.flowState).toBeNull();
      expect(w.foundry.writes.count()).toBe(0);
    });

    it('a player cannot open it nor submit it: told in words, nothing written, the combat not started', async () => {
      const { player } = w.foundry.users;
      const opened = await w.foundry.asUser(player, () => openSurpriseDialog(w.combat));
      expect(opened).toBeNull();
      expect(w.foundry.client(player).notifications.at(-1)).toEqual({ type: 'error', message: 'Only a GM sets up and rolls surprise.' });
      const problem = await w.foundry.asUser(player, async () => {
        const d = new SurpriseDialog(g.game.combats.get(w.combat.id));
        await d.render({ force: true });
        expect(context(d)).toMatchObject({ canSubmit: false, blocked: 'Only a GM rolls surprise.' });
        return d.startWith({});
      });
      expect(problem).toMatchObject({ key: 'SurpriseGMOnly' });
      await idle(w);
      expect(w.combat.flowState).toBeNull();
      expect(w.foundry.writes.count()).toBe(0);
    });

    it('an assistant GM\'s dialog goes to the active GM, who writes the sides and starts the combat', async () => {
      const gm2 = w.foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
      await w.foundry.settle();
      w.foundry.writes.clear();
      w.foundry.dice.push(6);
      const problem = await w.foundry.asUser(gm2, async () => {
        const d = (await openSurpriseDialog(g.game.combats.get(w.combat.id)))!;
        expect(d.setStance(hostile(), 'alerted')).toBeNull();
        return d.startWith({});
      });
      expect(problem).toBeNull();
      await idle(w);
      expect(groupData(w.combat.groups.get(hostile()))!.alerted).toBe(true);
      expect(w.combat.flowState?.surprise.rolls).toEqual({ [friendly()]: 6 });
      expect(w.foundry.writes.all().filter((x: any) => x.documentName === 'Combat' || x.documentName === 'CombatantGroup').every((x: any) => x.userId === w.foundry.users.gm.id)).toBe(true);
    });

    it('the request carrying the sides is checked: a stance or modifier out of bounds is refused', () => {
      const body = (sides: unknown) => ({ combatId: 'c1', action: 'startCombat', surpriseSides: sides });
      expect(requestProblem('combat', body({ g1: { stance: 'alerted', modifier: 0 } }))).toBeNull();
      expect(requestProblem('combat', body({ g1: { stance: 'asleep', modifier: 0 } }))).toMatchObject({ key: 'RequestFieldInvalid', data: { field: 'surpriseSides.g1.stance' } });
      expect(requestProblem('combat', body({ g1: { stance: 'roll', modifier: 13 } }))).toMatchObject({ key: 'RequestFieldInvalid' });
      expect(requestProblem('combat', body({ 'not an id!': { stance: 'roll', modifier: 0 } }))).toMatchObject({ key: 'RequestFieldInvalid' });
      expect(requestProblem('combat', body({ g1: { stance: 'roll', modifier: 0, extra: 1 } }))).toMatchObject({ key: 'RequestUnknownField' });
    });

    it('a start that fails changes nothing: the sides are not written', async () => {
      const dialog = (await openSurpriseDialog(w.combat))!;
      dialog.setStance(hostile(), 'alerted');
      // A side the combat does not have (deleted meanwhile): refused in words.
      dialog.settings.set('nosuchgroup00000', { stance: 'roll', modifier: 0 });
      expect(await dialog.startWith({})).toMatchObject({ key: 'UnknownSideId' });
      expect(w.foundry.notifications.at(-1)?.type).toBe('error');
      expect(w.combat.flowState).toBeNull();
      expect(groupData(w.combat.groups.get(hostile()))!.alerted).toBe(false);
      expect(w.foundry.writes.count()).toBe(0);
    });

    it('once the combat has started the dialog says so and cannot submit', async () => {
      w.foundry.dice.push(5, 6);
      await w.combat.startCombat();
      await idle(w);
      const dialog = (await openSurpriseDialog(w.combat))!;
      expect(context(dialog)).toMatchObject({ canSubmit: false, blocked: 'This combat has already started: its surprise was rolled.' });
      expect(await dialog.startWith({})).toMatchObject({ key: 'CombatAlreadyStarted' });
    });
  });

  describe('GM-ruled surprise', () => {
    it('d12-ascending: one click rules the orcs surprised: no roll, the whole round, the card says so', async () => {
      w = await makeWorld(generation, 'd12-ascending');
      w.foundry.loadLang('lang/en.json');
      const dialog = (await openSurpriseDialog(w.combat))!;
      expect(side(context(dialog), friendly()).chance).toBe('Surprised on 1–4 of a d12.');
      expect(dialog.setStance(hostile(), 'surprised')).toBeNull();
      expect(dialog.setModifier(friendly(), -2)).toBeNull();
      await dialog.render();
      expect(side(context(dialog), hostile())).toMatchObject({ stance: 'surprised', chance: "Surprised by the GM's ruling: no roll." });
      expect(side(context(dialog), friendly()).chance).toBe('Surprised on 1–2 of a d12.');
      w.foundry.dice.push(3); // the party's d12: 3 > 1-2, not surprised
      expect(await dialog.startWith({})).toBeNull();
      await idle(w);
      expect(groupData(w.combat.groups.get(hostile()))).toMatchObject({ surprised: true, alerted: false });
      const s = w.combat.flowState!.surprise;
      expect([s.surprised[w.ids.halvaine], s.surprised[w.ids.orc1], s.surprised[w.ids.orc2]]).toEqual([0, 1, 1]);
      expect(seenBy(w, w.foundry.users.player, 'surprise')).toEqual([
        'Surprise Friendly rolled 3: not surprised. Friendly: the situation lowers the chance of surprise by 2. Hostile, without a roll: surprised for the whole round. Rolled in public.',
      ]);
    });

    it('individual-speed: no die; a side is aware or surprised, no modifier', async () => {
      w = await makeWorld(generation, 'individual-speed');
      w.foundry.loadLang('lang/en.json');
      const dialog = (await openSurpriseDialog(w.combat))!;
      const party = side(context(dialog), friendly());
      expect(party.stances.map((s) => s.label)).toEqual(['Aware', 'Surprised']);
      expect(party).toMatchObject({ modifiable: false, chance: 'Aware of its enemies: not surprised.' });
      expect(dialog.setStance(friendly(), 'alerted')).toMatchObject({ key: 'SurpriseNoAlert' });
    });

    it('individual-speed: a surprise the GM rules is rolled by nobody: the card tells who is surprised, not "Rolled in public."', async () => {
      w = await makeWorld(generation, 'individual-speed');
      w.foundry.loadLang('lang/en.json');
      const dialog = (await openSurpriseDialog(w.combat))!;
      expect(dialog.setStance(hostile(), 'surprised')).toBeNull();
      expect(await dialog.startWith({})).toBeNull();
      await idle(w);
      expect(seenBy(w, w.foundry.users.player, 'surprise')).toEqual(['Surprise Friendly, without a roll: not surprised. Hostile, without a roll: surprised for the whole round.']);
    });
  });

  describe('the card of a spell going off', () => {
    beforeEach(async () => {
      w = await makeWorld(generation, 'segment-d6');
      w.foundry.loadLang('lang/en.json');
      w.foundry.dice.push(4, 5); // nobody surprised
      await w.combat.startCombat();
      await w.foundry.asUser(w.foundry.users.player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
      w.foundry.dice.push(6, 1); // the party acts in segment 1 (the orcs' die): Sleep begins in 1, goes off in 3
      await w.combat.rollInitiative();
      await idle(w);
    });

    it('tells GM and players whose spell goes off and when, once: Previous then Next does not post it again', async () => {
      const { gm, player } = w.foundry.users;
      expect(seenBy(w, player, 'spell-off')).toEqual([]);
      await w.combat.nextTurn();
      await idle(w);
      const expected = "Spells go off · Round 1, segment 3 Halvaine's Sleep goes off.";
      expect(seenBy(w, player, 'spell-off', 'spell-off-gm')).toEqual([expected]);
      expect(seenBy(w, gm, 'spell-off', 'spell-off-gm')).toEqual([expected]);
      await w.combat.previousTurn();
      await idle(w);
      await w.combat.nextTurn();
      await idle(w);
      expect(seenBy(w, gm, 'spell-off', 'spell-off-gm')).toEqual([expected]);
    });

    it('the end-of-round card too: the round ended again the same way after Previous is not told twice', async () => {
      const { gm } = w.foundry.users;
      for (let i = 0; i < 10 && w.combat.flowState!.stage !== 'end-of-round'; i++) await w.combat.nextTurn();
      await idle(w);
      expect(w.combat.flowState!.stage).toBe('end-of-round');
      const once = seenBy(w, gm, 'end-of-round', 'end-of-round-gm');
      expect(once).toHaveLength(1);
      await w.combat.previousTurn();
      await idle(w);
      await w.combat.nextTurn();
      await idle(w);
      expect(w.combat.flowState!.stage).toBe('end-of-round');
      expect(seenBy(w, gm, 'end-of-round', 'end-of-round-gm')).toEqual(once);
    });

    it('a hidden caster: players get no card, the GMs the full one, whispered', async () => {
      const { gm, player } = w.foundry.users;
      await w.combat.updateEmbeddedDocuments('Combatant', [{ _id: w.ids.halvaine, hidden: true }] as never);
      await w.combat.nextTurn();
      await idle(w);
      expect(seenBy(w, player, 'spell-off', 'spell-off-gm')).toEqual([]);
      expect(seenBy(w, gm, 'spell-off', 'spell-off-gm')).toEqual(["Spells go off · Round 1, segment 3 For the GMs: the full version, with what players do not see. Halvaine's Sleep goes off."]);
    });

    it('in German', async () => {
      w.foundry.loadLang('lang/de.json');
      await w.combat.nextTurn();
      await idle(w);
      expect(seenBy(w, w.foundry.users.player, 'spell-off')).toEqual(['Zauber werden wirksam · Runde 1, Segment 3 Sleep von Halvaine wird wirksam.']);
    });

    it('high-low: a spell going off in its phase "Spells and devices go off" is titled with the round and the phase once', async () => {
      w = await makeWorld(generation, 'high-low');
      w.foundry.loadLang('lang/en.json');
      w.foundry.dice.push(5, 5); // nobody surprised
      await w.combat.startCombat();
      await idle(w);
      await w.foundry.asUser(w.foundry.users.player, () => requestDeclaration(w.combat, w.ids.halvaine, { action: 'spell', spell: w.spell.id }));
      w.foundry.dice.push(2, 6); // the party LOW, the orcs HIGH
      await w.combat.rollInitiative();
      await idle(w);
      for (let i = 0; i < 12 && seenBy(w, w.foundry.users.player, 'spell-off').length === 0 && w.combat.flowState!.stage !== 'end-of-round'; i++) {
        await w.combat.nextTurn();
        await idle(w);
      }
      expect(seenBy(w, w.foundry.users.player, 'spell-off')).toEqual(["Round 1: Spells and devices go off Halvaine's Sleep goes off."]);
    });
  });
});
