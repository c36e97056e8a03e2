/** Problems from the engine or the Foundry layer, shown to the user in their language. */
import type { Problem } from '../rules/model';

export function localizeProblem(problem: Problem): string {
  const key = `TENSEG.Error.${problem.key}`;
  const data = Object.fromEntries(Object.entries(problem.data ?? {}).map(([k, v]) => [k, String(v)]));
  return game.i18n ? game.i18n.format(key, data) : key;
}

export function notifyProblem(problem: Problem): void {
  ui.notifications?.error(localizeProblem(problem));
}
