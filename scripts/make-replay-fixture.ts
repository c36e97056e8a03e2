/**
 * Writes tests/rules/fixtures/replay-v<FLOW_VERSION>.json: every bundled
 * scenario's log and the state it ended in, as this engine played them. Run
 * once per engine version (npx tsx scripts/make-replay-fixture.ts) and commit
 * the file; never regenerate an older version's file. The test
 * tests/rules/replay-golden.test.ts replays every such file under the current
 * engine and requires the same states: a later engine keeps running combats
 * whole (README, "Stored data").
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FLOW_VERSION } from '../src/rules/flow';
import { allPlayedLogs } from '../tests/rules/replay-logs';

const out = fileURLToPath(new URL(`../tests/rules/fixtures/replay-v${FLOW_VERSION}.json`, import.meta.url));
const logs = allPlayedLogs();
writeFileSync(out, JSON.stringify({ flowVersion: FLOW_VERSION, logs }) + '\n');
console.log(`wrote ${out}: ${logs.length} logs`);
