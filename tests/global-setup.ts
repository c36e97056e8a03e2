/** Once per test run: the command-line tools built (build/sim.mjs, build/odds.mjs and its worker), as `npm run sim` and `npm run odds` run them. */
// @ts-expect-error -- a plain ES module script, no type declarations
import { buildCli } from '../scripts/build-cli.mjs';

export default async function setup(): Promise<void> {
  await buildCli();
}
