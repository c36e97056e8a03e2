/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { makeWorld, g } from './world';
import { optionFields, ProcedureOptionsApp, saveProcedureOptions } from '../../src/apps/procedure-options';
import { PROCEDURE_IDS } from '../../src/rules/model';
import { PROCEDURES } from '../../src/rules/procedures/all';

describe.each([13, 14] as const)('procedure options, generation %i', (generation) => {
  it('the form shows the world procedure\'s options with their saved values, in words', async () => {
    await makeWorld(generation, 'segment-d6', { deathRule: 'minus-ten' });
    const app = new ProcedureOptionsApp();
    const context: any = await app._prepareContext({} as never);
    expect(context.procedure).toBe('TENSEG.Procedure.segment-d6.Name');
    const death = context.fields.find((f: any) => f.key === 'deathRule');
    expect(death.choices.find((c: any) => c.selected).value).toBe('minus-ten');
    const html = await g.foundry.applications.handlebars.renderTemplate('systems/ten-segments/templates/settings/procedure-options.hbs', context);
    expect(html).toContain(g.game.i18n.localize('TENSEG.Option.segment-d6.deathRule.Name'));
    expect(html).toMatch(/<option value="minus-ten" selected>/);
    expect(html).not.toContain('TENSEG.');
  });

  it('a refused value is shown and nothing is saved; a good one applies to the next combat, not the running one', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    w.foundry.dice.push(4, 5);
    await w.combat.startCombat();
    const before = g.game.settings.get('ten-segments', 'procedureOptions');
    await expect(saveProcedureOptions('segment-d6', { 'options.bleedPerRound': '99', 'options.deathRule': 'minus-ten' })).rejects.toThrow();
    expect(g.game.settings.get('ten-segments', 'procedureOptions')).toEqual(before);
    expect(w.foundry.notifications.at(-1)?.type).toBe('error');
    await saveProcedureOptions('segment-d6', { 'options.deathRule': 'minus-ten', 'options.bleedPerRound': '1', 'options.missileInitiative': 'on', 'options.tieRule': 'simultaneous', 'options.moraleMethod': '2d6' });
    expect(g.game.settings.get('ten-segments', 'procedureOptions')['segment-d6']).toMatchObject({ deathRule: 'minus-ten', bleedPerRound: 1, missileInitiative: true });
    // The running combat keeps the options it started with.
    expect(w.combat.flowState!.options.deathRule).toBe('zero');
    const next = await g.Combat.create({});
    await next.createEmbeddedDocuments('Combatant', w.combat.combatants.map((c: any) => ({ actorId: c.actorId, tokenId: c.tokenId, sceneId: w.scene.id })));
    w.foundry.dice.push(4, 5);
    await next.startCombat();
    expect(next.flowState.options).toMatchObject({ deathRule: 'minus-ten', bleedPerRound: 1 });
  });

  it('the settings menu opens the form, loaded when the menu is first opened (Foundry: new type().render(true))', async () => {
    const w = await makeWorld(generation, 'segment-d6', { deathRule: 'minus-ten' });
    const menu = g.game.settings.menus.get('ten-segments.procedureOptionsMenu');
    expect(menu.type).not.toBe(ProcedureOptionsApp);
    expect(menu.type.prototype).toBeInstanceOf(g.foundry.applications.api.ApplicationV2);
    w.foundry.renders.clear();
    await new menu.type().render(true);
    expect(w.foundry.renders.count('ten-segments-procedure-options')).toBe(1);
  });

  it.each(PROCEDURE_IDS)('every option of %s has a field of its type, within its range', async (id) => {
    const fields = optionFields(id);
    expect(fields.map((f) => f.key)).toEqual(PROCEDURES[id].optionSpecs.map((s) => s.key));
    for (const f of fields) {
      expect(f.value).toEqual(PROCEDURES[id].defaults[f.key]);
      if (f.type === 'choice') expect(f.choices!.filter((c) => c.selected)).toHaveLength(1);
    }
  });
});
