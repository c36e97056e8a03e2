/**
 * README "Permissions and threats": the table of requests lists every request
 * the active GM handles, and who may make each is what `authorize` decides.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REQUEST_KINDS, COMBAT_ACTIONS_REQUESTED, MAX_DEPTH, MAX_NODES, MAX_TEXT, MID_ROUND_ACTIONS } from '../../src/documents/request-schema';
import '../standin/global';
import { MID_ROUND } from '../../src/documents/handlers/midround';
import { authorize, type CombatAction } from '../../src/documents/permissions';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Permissions and threats'), readme.indexOf('\n## ', readme.indexOf('## Permissions and threats') + 5));
const rows = section
  .split('\n')
  .filter((l) => /^\| `[a-zA-Z:]+` \|/.test(l))
  .map((l) => l.split('|').map((c) => c.trim()));

/** The right each request needs (queries.ts, attack.ts, midround.ts). */
const RIGHT: Record<string, CombatAction> = {
  declare: 'declare',
  // The GM's group declaration (issue 29): GMs only.
  declareGroup: 'manage',
  withdraw: 'declare',
  attack: 'applyDamage',
  'combat:nextTurn': 'changeStep',
  'combat:previousTurn': 'changeStep',
  'combat:nextRound': 'changeStep',
  'combat:previousRound': 'changeStep',
  'combat:rollInitiative': 'rollInitiative',
  'combat:undoInterruption': 'undoInterruption',
  'combat:startCombat': 'manage',
  'combat:moveToSide': 'manage',
  'combat:morale': 'manage',
  'midround:delay': 'declare',
  'midround:release': 'declare',
  'midround:cancel': 'declare',
  'midround:break': 'manage',
  'midround:choose': 'declare',
  'midround:reaction': 'manage',
  'midround:distance': 'manage',
  'midround:staunch': 'manage',
  'midround:heal': 'manage',
  'midround:injury': 'manage',
  // A GM's Accept / Put back on a health card (issue 27): GMs only.
  health: 'manage',
  'midround:retarget': 'declare',
  // The GM stops at an empty segment for a held action (issue 28): GMs only.
  'midround:stop': 'manage',
};

const user = (isGM: boolean) => ({ isGM }) as any;
const combatant = (owned: boolean) => ({ name: 'X', actor: { testUserPermission: () => owned } }) as any;

describe('README: Permissions and threats', () => {
  it('lists every request the active GM handles, once', () => {
    const listed = rows.map((r) => r[1].replace(/`/g, ''));
    const handled = [
      ...REQUEST_KINDS.filter((k) => k !== 'combat' && k !== 'midround'),
      ...COMBAT_ACTIONS_REQUESTED.map((a) => `combat:${a}`),
      ...MID_ROUND_ACTIONS.map((a) => `midround:${a}`),
    ];
    expect([...listed].sort()).toEqual([...handled].sort());
    expect(Object.keys(RIGHT).sort()).toEqual([...handled].sort());
  });

  it('says who may make each request, as authorize decides it', () => {
    for (const r of rows) {
      const name = r[1].replace(/`/g, '');
      const who = r[2].split(',').map((s) => s.trim());
      const right = RIGHT[name];
      expect(authorize(right, user(true), combatant(false)), name).toBeNull();
      expect(authorize(right, user(false), combatant(true)) === null, `${name}: owner`).toBe(who.includes('owner'));
      expect(authorize(right, user(false), combatant(false)), `${name}: another player`).not.toBeNull();
    }
  });

  it('the rights listed for mid-round actions are the ones their handlers check (handlers/midround.ts MID_ROUND)', () => {
    for (const a of MID_ROUND_ACTIONS) expect(MID_ROUND[a].right, a).toBe(RIGHT[`midround:${a}`]);
  });

  it('states the schema\'s bounds', () => {
    expect(section).toContain(`at most ${MAX_DEPTH} levels deep, ${MAX_NODES} values and ${MAX_TEXT.toLocaleString('en')} characters of text`);
  });
});
