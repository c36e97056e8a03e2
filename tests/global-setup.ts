/** Once per test run: the scenario runner built (build/sim.mjs), as `npm run sim` runs it. */
// @ts-expect-error -- a plain ES module script, no type declarations
import { buildCli } from '../scripts/build-cli.mjs';

export default async function setup(): Promise<void> {
  await buildCli();
}
