/**
 * Once per test run, before any test: the installable system built into dist/ (as `npm run build` builds it,
 * with release/ and the command-line tools build/sim.mjs, build/odds.mjs and its worker, as `npm run sim` and
 * `npm run odds` run them). Every test that reads dist/ reads this one build; no test builds it again.
 */
// @ts-expect-error -- a plain ES module script, no type declarations
import { buildSystem } from '../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await buildSystem({ log: false });
}
