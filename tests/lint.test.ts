// The lint rules that keep the layers (eslint.config.mjs) do what they say:
// fixture sources linted as if they sat in src/apps and src/rules, then the
// real tree. The fixtures never touch the disk.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ESLint, type Linter } from 'eslint';

const root = fileURLToPath(new URL('..', import.meta.url));

// An apps fixture is not on disk, so the project service has no tsconfig
// project for it: let it use the default project, with tsconfig.json's options.
const FIXTURE = 'src/apps/lint-fixture-*.ts';
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: [FIXTURE],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: [FIXTURE], defaultProject: 'tsconfig.json' } },
    },
  },
});

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  // A parsing error (no type information, say) would make every "not reported" pass for nothing.
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages;
}

/** The lines a rule reported, in order. */
const linesOf = (messages: Linter.LintMessage[], ruleId: string) => messages.filter((m) => m.ruleId === ruleId).map((m) => m.line);

describe('lint: src/apps never writes the combat (ten-segments/no-combat-writes, typed)', () => {
  it('reports writes of a Combat, Combatant or CombatantGroup; not an Actor or Item saving itself', async () => {
    const code = [
      /* 1 */ "import type { TenSegmentsCombat } from '../documents/combat';",
      /* 2 */ 'export async function fixture(combat: TenSegmentsCombat, actor: Actor.Implementation, item: Item.Implementation): Promise<void> {',
      /* 3 */ '  await combat.update({ round: 2 });',
      /* 4 */ '  await game.combat?.update({ round: 1 });',
      /* 5 */ "  await combat.combatants.get('x')?.setFlag('ten-segments' as never, 'k' as never, 1 as never);",
      /* 6 */ '  await combat.groups.contents[0].delete();',
      /* 7 */ "  await combat.createEmbeddedDocuments('Combatant', []);",
      /* 8 */ '  await Combat.create({ name: "x" } as never);',
      /* 9 */ '  await CONFIG.Combat.documentClass.updateDocuments([]);',
      /* 10 */ '  await (game.combat as unknown as { update(d: object): Promise<void> } & Combat).update({});',
      /* 11 */ "  const untyped = combat as any; await untyped.combatants.get('x').update({});",
      /* 12 */ "  const anyCombat: any = game.combat; await anyCombat.unsetFlag('a', 'b');",
      /* 13 */ '  await actor.update({ name: "Bob" });',
      /* 14 */ "  await item.setFlag('ten-segments' as never, 'k' as never, 1 as never);",
      /* 15 */ "  await actor.createEmbeddedDocuments('Item', []);",
      /* 16 */ '  const thing: any = null; await thing.update({});',
      /* 17 */ "  await game.settings!.set('ten-segments' as never, 'procedure' as never, 'x' as never);",
      /* 18 */ '}',
    ].join('\n');
    const messages = await lint('src/apps/lint-fixture-combat.ts', code);
    expect(linesOf(messages, 'ten-segments/no-combat-writes')).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('a sheet saving its own Actor is clean', async () => {
    const code = [
      'export async function rename(actor: Actor.Implementation, name: string): Promise<void> {',
      '  await actor.update({ name });',
      "  await actor.setFlag('ten-segments' as never, 'seen' as never, true as never);",
      '}',
    ].join('\n');
    const messages = await lint('src/apps/lint-fixture-sheet.ts', code);
    expect(messages).toEqual([]);
  });
});

describe('lint: src/rules is the pure engine', () => {
  it('reports imports of the Foundry layer, of src/sim, of Foundry and of Node', async () => {
    const code = [
      /* 1 */ "import type { TenSegmentsCombat } from '../documents/combat';",
      /* 2 */ "import { SYSTEM_ID } from '../settings';",
      /* 3 */ "import { render } from '../sim/text';",
      /* 4 */ "import type {} from 'fvtt-types/configuration';",
      /* 5 */ "import { readFileSync } from 'node:fs';",
      /* 6 */ "import { RulesError } from './model';",
      /* 7 */ 'export const all = [SYSTEM_ID, render, readFileSync, RulesError] as unknown as TenSegmentsCombat;',
    ].join('\n');
    const messages = await lint('src/rules/lint-fixture.ts', code);
    expect(linesOf(messages, 'no-restricted-imports')).toEqual([1, 2, 3, 4, 5]);
    // One folder down, `../` is still inside src/rules.
    const nested = await lint('src/rules/flow/lint-fixture.ts', "import { RulesError } from '../model';\nimport { x } from '../../documents/combat';\nexport const y = [RulesError, x];");
    expect(linesOf(nested, 'no-restricted-imports')).toEqual([2]);
  });

  it('reports Foundry and DOM globals, as values and as types', async () => {
    const code = [
      /* 1 */ 'export function fixture(): unknown {',
      /* 2 */ "  const a = game.settings!.get('ten-segments' as never, 'procedure' as never);",
      /* 3 */ '  const b = (globalThis as any).game ?? globalThis.CONFIG;',
      /* 4 */ "  const c = document.createElement('div');",
      /* 5 */ '  let d: Combat.Implementation | HTMLElement | null = null;',
      /* 6 */ '  const Item = { name: "local" };',
      /* 7 */ '  return [a, b, c, d, Item, Math.max(1, 2), new Map()];',
      /* 8 */ '}',
    ].join('\n');
    const messages = await lint('src/rules/lint-fixture.ts', code);
    expect(linesOf(messages, 'no-restricted-globals')).toEqual([2, 3, 4]);
    expect(linesOf(messages, 'ten-segments/no-restricted-global-types')).toEqual([5, 5]);
  });
});

describe('lint: the real tree', () => {
  it('src/ and tests/ lint clean', async () => {
    const results = await new ESLint({ cwd: root }).lintFiles(['src', 'tests']);
    const errors = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}:${m.line}:${m.column} ${m.ruleId ?? ''} ${m.message}`));
    expect(errors).toEqual([]);
  });
});
