#!/usr/bin/env node
// npm run typecheck:v14 — type-check src/ and the tests against Foundry v14's
// typings (fvtt-types 14.366, packed in ../shared/vendor/ because they are
// published only on GitHub). They are installed in typings-v14/, apart from the
// project's own dependencies, so a clone without ../shared installs and tests
// with the v13 typings alone. tsconfig.v14.json points `fvtt-types` there.
//   npm run typecheck:v14              install if needed, then check
//   npm run typecheck:v14 -- --install install only (CI, before npm test)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const folder = `${root}typings-v14`;
const wanted = JSON.parse(readFileSync(`${folder}/package.json`, 'utf8')).dependencies['fvtt-types'].replace(/^file:/, '');
const tarball = new URL(wanted, `file://${folder}/`).pathname;
const installed = `${folder}/node_modules/fvtt-types/package.json`;
const version = (tarball.match(/-(\d+\.\d+\.\d+)\.tgz$/) ?? [])[1];

if (!existsSync(tarball)) {
  console.error(`typecheck:v14: ${tarball} not found. The v14 typings come from ../shared/vendor/ beside this clone; without it only the v13 check (npm test) runs.`);
  process.exit(1);
}

const current = existsSync(installed) ? JSON.parse(readFileSync(installed, 'utf8')).version : null;
if (current !== version) {
  console.log(`typecheck:v14: installing fvtt-types ${version} into typings-v14/`);
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: folder, stdio: 'inherit' });
  if (npm.status !== 0) process.exit(npm.status ?? 1);
}
if (process.argv.includes('--install')) process.exit(0);

const tsc = spawnSync(`${root}node_modules/.bin/tsc`, ['--noEmit', '-p', `${root}tsconfig.v14.json`], { stdio: 'inherit' });
console.log(`typecheck:v14: ${tsc.status === 0 ? 'no errors' : 'FAILED'} against fvtt-types ${version}`);
process.exit(tsc.status ?? 1);
