/**
 * Scenario dice: each request takes the first unused scripted roll that
 * matches (purpose, and side / combatant / round where written); rolls the
 * script does not cover fall back to the seeded dice. An impossible scripted
 * result is a RulesError naming the scenario field.
 */
import type { Dice, DieRequest } from '../../rules/dice';
import { isPossibleTotal, takeScripted } from '../../rules/dice';
import { RulesError } from '../../rules/model';
import type { ScriptedDie } from './types';

export class ScenarioDice implements Dice {
  private readonly pending: ScriptedDie[];
  readonly log: { request: DieRequest; result: number; scripted: boolean; index?: number }[] = [];
  constructor(
    script: readonly ScriptedDie[],
    private readonly fallback: Dice,
    private readonly keepLog = true,
  ) {
    this.pending = [...script];
  }
  roll(request: DieRequest): number {
    const entry = takeScripted(this.pending, request);
    if (entry) {
      if (!isPossibleTotal(request, entry.result)) {
        throw new RulesError({
          key: 'ScriptedDieImpossible',
          path: `dice[${entry.index}].result`,
          data: { result: entry.result, purpose: entry.purpose, dice: `${request.count}d${request.faces}` },
        });
      }
      if (this.keepLog) this.log.push({ request, result: entry.result, scripted: true, index: entry.index });
      return entry.result;
    }
    const result = this.fallback.roll(request);
    if (this.keepLog) this.log.push({ request, result, scripted: false });
    return result;
  }
  /** Scripted rolls never asked for: a note for the GM. */
  unused(): readonly ScriptedDie[] {
    return this.pending;
  }
}
