#!/usr/bin/env node
// The one test command (npm test): typecheck against the Foundry types (v13,
// and v14 when typings-v14/ is installed), lint
// (eslint.config.mjs: the layers), then every vitest suite with the coverage
// of src/rules. Ends with a plain "N passed, N failed" line for CI: tsc, eslint
// and "coverage of src/rules >= 95 % lines" count one check each, beside the tests.
// With arguments (a subset of the tests: npm test -- tests/rules) coverage is
// not measured.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false });
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

let passed = 0;
let failed = 0;

console.log('typecheck: tsc --noEmit');
const tsc = run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
if (tsc.status === 0) passed += 1;
else failed += 1;

// The same sources against Foundry v14's typings, when they are installed
// (npm run typecheck:v14 installs them from ../shared/vendor/): one check more.
const v14 = new URL('../typings-v14/node_modules/fvtt-types/package.json', import.meta.url).pathname;
if (existsSync(v14)) {
  console.log('typecheck v14: tsc --noEmit -p tsconfig.v14.json');
  const tsc14 = run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.v14.json']);
  if (tsc14.status === 0) passed += 1;
  else failed += 1;
} else {
  console.log('typecheck v14: skipped (typings not installed; npm run typecheck:v14 installs them from ../shared/vendor/)');
}

console.log('lint: eslint src tests');
const lintStart = Date.now();
const eslint = run(bin('eslint'), ['src', 'tests']);
if (eslint.status === 0) {
  passed += 1;
  console.log(`lint: clean (${((Date.now() - lintStart) / 1000).toFixed(1)} s)`);
} else {
  failed += 1;
  console.log('lint: FAILED');
}

const args = process.argv.slice(2);
const coverage = args.length === 0;
const LINES_THRESHOLD = 95; // as vitest.config.ts coverage.thresholds.lines
const root = new URL('..', import.meta.url).pathname;
const report = new URL('../.vitest-report.json', import.meta.url).pathname;
const summary = new URL('../build/coverage/coverage-summary.json', import.meta.url).pathname;
rmSync(report, { force: true });
rmSync(summary, { force: true });
const vitest = run(bin('vitest'), ['run', ...(coverage ? ['--coverage'] : []), ...args]);
let testsFailed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  testsFailed += json.numFailedTests;
  // A suite that fails to load has no tests counted: count it as a failure.
  testsFailed += (json.testResults ?? []).filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
} catch {
  testsFailed += 1;
  console.log('vitest produced no report');
}

let coverageOk = true;
if (coverage) {
  if (existsSync(summary)) {
    const json = JSON.parse(readFileSync(summary, 'utf8'));
    const pct = json.total.lines.pct;
    coverageOk = pct >= LINES_THRESHOLD;
    const lowest = Object.entries(json)
      .filter(([file]) => file !== 'total')
      .map(([file, s]) => ({ file: relative(root, file), pct: s.lines.pct, uncovered: s.lines.total - s.lines.covered }))
      .filter((f) => f.uncovered > 0)
      .sort((a, b) => a.pct - b.pct || b.uncovered - a.uncovered)
      .slice(0, 5);
    console.log(`coverage of src/rules: ${pct.toFixed(2)} % lines (${json.total.lines.covered}/${json.total.lines.total}), threshold ${LINES_THRESHOLD} %: ${coverageOk ? 'ok' : 'FAILED'}`);
    if (lowest.length > 0) console.log(`  lowest: ${lowest.map((f) => `${f.file} ${f.pct.toFixed(1)} % (${f.uncovered} lines uncovered)`).join(', ')}`);
  } else {
    coverageOk = false;
    console.log('coverage of src/rules: no report (build/coverage/coverage-summary.json missing): FAILED');
  }
  if (coverageOk) passed += 1;
  else failed += 1;
}

// vitest failed with every test passing (and not for the coverage threshold): count it once.
if (vitest.status !== 0 && testsFailed === 0 && coverageOk) testsFailed += 1;
failed += testsFailed;

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
