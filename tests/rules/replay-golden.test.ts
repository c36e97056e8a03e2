/**
 * A combat is stored as its log and every client replays it (src/rules/flow/log.ts).
 * Two promises a GM relies on:
 *  - the log is the whole combat: replaying what a play wrote gives exactly
 *    the state the play reached, read at once or entry by entry, and after
 *    Previous (entries dropped) play goes on the same;
 *  - a combat stored by one version of the engine replays to the same state
 *    under the next: the logs in fixtures/replay-v<version>.json were written
 *    by that version (scripts/make-replay-fixture.ts) and are never
 *    regenerated. A change to the rules that breaks this test must keep the
 *    old behaviour for old logs (a procedure option frozen in the start
 *    entry, or a decision on the state's version) — README, "Stored data".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entryKey, FLOW_VERSION, FlowLog, replay, type KeyedLog, type LogEntry } from '../../src/rules/flow';
import { migrateState } from '../../src/rules/flow/log';
import { allPlayedLogs, type PlayedLog } from './replay-logs';

const keyed = (entries: LogEntry[]): KeyedLog => Object.fromEntries(entries.map((e, i) => [entryKey(i), e]));
const pairs = (entries: LogEntry[]): [string, LogEntry][] => entries.map((e, i) => [entryKey(i), e]);

describe('the log is the whole combat', () => {
  const played = allPlayedLogs();

  it('covers every bundled scenario, the example under all five procedures, and the held and prepared releases at empty segments', () => {
    expect(played.length).toBe(13);
    expect(played.flatMap((p) => p.entries.map((e) => e.t))).toContain('stop');
    expect(new Set(played.map((p) => p.state.procedure)).size).toBe(5);
  });

  it.each(played.map((p) => [p.name, p] as [string, PlayedLog]))('%s: replaying its log gives the state its play reached', (_, p) => {
    const { state, problems } = replay(keyed(p.entries));
    expect(problems).toEqual([]);
    expect(state).toStrictEqual(p.state);
  });

  it.each(played.map((p) => [p.name, p] as [string, PlayedLog]))('%s: read entry by entry (each client as entries arrive), then after Previous and the same entries again', (_, p) => {
    const log = new FlowLog();
    const all = pairs(p.entries);
    const states = [];
    for (let k = 1; k <= all.length; k++) states.push(structuredClone(log.read(all.slice(0, k)).state));
    expect(states.at(-1)).toStrictEqual(p.state);
    // Previous, three times, then the same entries again: every state as it was.
    for (let k = all.length - 1; k >= Math.max(1, all.length - 3); k--) expect(log.read(all.slice(0, k)).state).toStrictEqual(states[k - 1]);
    expect(log.read(all).state).toStrictEqual(p.state);
    // Back to the start and forward again.
    expect(log.read(all.slice(0, 1)).state).toStrictEqual(states[0]);
    expect(log.read(all).state).toStrictEqual(p.state);
  });
});

describe('a combat stored by one engine version replays to the same state under this one', () => {
  const files = readdirSync(new URL('./fixtures/', import.meta.url)).filter((f) => /^replay-v\d+\.json$/.test(f));

  it('there is a fixture for this engine version', () => {
    expect(files).toContain(`replay-v${FLOW_VERSION}.json`);
  });

  for (const file of files) {
    const fixture = JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as { flowVersion: number; logs: PlayedLog[] };
    // The state that version stored, brought to this version as a stored state is (its shape's version, migrateState).
    it.each(fixture.logs.map((p) => [p.name, p] as [string, PlayedLog]))(`${file}: %s`, (_, p) => {
      const { state, problems } = replay(keyed(p.entries));
      expect(problems).toEqual([]);
      expect(state).toStrictEqual(migrateState(structuredClone(p.state), fixture.flowVersion));
      if (fixture.flowVersion < FLOW_VERSION) expect(state!.v).toBe(FLOW_VERSION);
    });
  }

  it('a log started by a newer engine is refused, not guessed at', () => {
    const [first] = allPlayedLogs();
    const newer = [{ ...(first.entries[0] as Extract<LogEntry, { t: 'start' }>), v: FLOW_VERSION + 1 }, ...first.entries.slice(1)];
    const { state, problems } = replay(keyed(newer));
    expect(state).toBeNull();
    expect(problems[0]).toEqual({ key: entryKey(0), problem: { key: 'CombatFromNewerVersion', data: { version: FLOW_VERSION + 1 } } });
  });
});
