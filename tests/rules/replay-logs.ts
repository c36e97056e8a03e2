/**
 * Logs for the engine-version guard (replay-golden.test.ts): every bundled
 * scenario played through the flow, as the log of transitions it made and
 * the state it ended in. The example is played under all five procedures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RandomDice } from '../../src/rules/dice';
import type { FlowState, LogEntry } from '../../src/rules/flow';
import { PROCEDURE_IDS } from '../../src/rules/model';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { parseScenarioText } from '../../src/sim/cli';
import { runScenario, validateScenario } from '../../src/sim/scenario';

export const SCENARIOS = fileURLToPath(new URL('../../src/sim/scenarios', import.meta.url));
/** Scenarios played only for the log's sake: what the bundled ones do not hold (a release at an empty segment, engine version 4). */
export const TEST_SCENARIOS = fileURLToPath(new URL('./scenarios', import.meta.url));

export interface PlayedLog {
  name: string;
  entries: LogEntry[];
  state: FlowState;
}

/** Play one scenario file (under another procedure, if given) and keep its log and final state. */
export function playedLog(file: string, procedure?: string, dir = SCENARIOS): PlayedLog {
  const parsed = parseScenarioText(readFileSync(join(dir, file), 'utf8'));
  const valid = validateScenario(parsed.value, PROCEDURES, procedure ? { procedure } : {});
  if (!valid.ok) throw new Error(`${file}: ${JSON.stringify(valid.problems)}`);
  const run = runScenario(valid.scenario, new RandomDice(11));
  if (!run.ok) throw new Error(`${file}: ${JSON.stringify(run.problems)}`);
  return { name: procedure ? `${file} --procedure ${procedure}` : file, entries: run.log.entries, state: run.log.state };
}

/** Every bundled scenario under its own procedure, the example under each of the five, then the test scenarios. */
export function allPlayedLogs(): PlayedLog[] {
  const files = readdirSync(SCENARIOS)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const out = files.map((f) => playedLog(f));
  for (const id of PROCEDURE_IDS) out.push(playedLog('example.yaml', id));
  for (const f of readdirSync(TEST_SCENARIOS).filter((x) => x.endsWith('.yaml')).sort()) out.push(playedLog(f, undefined, TEST_SCENARIOS));
  return out;
}
