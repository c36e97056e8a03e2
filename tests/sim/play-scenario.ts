/**
 * A scenario file's content played by the runner's engine with a seeded die
 * (the tests of src/sim): validated first, any problem thrown in words.
 */
import { PROCEDURES } from '../../src/rules/procedures/all';
import { RandomDice } from '../../src/rules/dice';
import { runScenario, validateScenario } from '../../src/sim/scenario';

export function playScenario(raw: Record<string, unknown>, seed: number) {
  const valid = validateScenario(raw, PROCEDURES);
  if (!valid.ok) throw new Error(JSON.stringify(valid.problems));
  const run = runScenario(valid.scenario, new RandomDice(seed));
  if (!run.ok) throw new Error(JSON.stringify(run.problems));
  return run.log;
}
