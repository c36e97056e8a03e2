#!/usr/bin/env node
// The one test command (npm test): typecheck against the Foundry types, then
// every vitest suite. Ends with a plain "N passed, N failed" line for CI.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false });
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

let passed = 0;
let failed = 0;

console.log('typecheck: tsc --noEmit');
const tsc = run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
if (tsc.status === 0) passed += 1;
else failed += 1;

const report = new URL('../.vitest-report.json', import.meta.url).pathname;
rmSync(report, { force: true });
const vitest = run(bin('vitest'), ['run', ...process.argv.slice(2)]);
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  // A suite that fails to load has no tests counted: count it as a failure.
  failed += (json.testResults ?? []).filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
} catch {
  failed += 1;
  console.log('vitest produced no report');
}
if (vitest.status !== 0 && failed === 0) failed += 1;

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
