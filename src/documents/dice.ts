/**
 * The engine's dice, rolled as real Foundry Rolls. The engine asks for dice
 * synchronously while Foundry rolls asynchronously (v13 dice fulfillment may
 * wait for a player's physical dice), so a transition is first run with the
 * rolls made so far; every die it asks for beyond them is rolled with
 * `Roll#evaluate`, and the (pure) transition runs again until it asks for no
 * die that has not been rolled.
 */
import type { Dice, DieRequest } from '../rules/dice';

export interface RolledDie {
  request: DieRequest;
  roll: Roll;
}

/** Run `run` with real rolls; returns its result and the rolls it used, in order. */
export async function withRolls<T>(run: (dice: Dice) => T): Promise<{ result: T; rolls: RolledDie[] }> {
  const rolled: RolledDie[] = [];
  for (;;) {
    let next = 0;
    const missing: DieRequest[] = [];
    const dice: Dice = {
      roll(request: DieRequest): number {
        const have = rolled[next];
        next += 1;
        if (have && have.request.faces === request.faces && have.request.count === request.count) return have.roll.total as number;
        if (have) rolled.length = next - 1; // the dice asked for changed: roll the rest anew
        missing.push(request);
        return request.count; // a stand-in value until the real roll is made
      },
    };
    const result = run(dice);
    if (missing.length === 0) return { result, rolls: rolled.slice(0, next) };
    for (const request of missing) {
      const roll = await new Roll(`${request.count}d${request.faces}`).evaluate();
      rolled.push({ request, roll });
    }
  }
}
