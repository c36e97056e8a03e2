/**
 * The figures of `npm run bench`: every number the human table shows is also
 * recorded here under a stable name, so `npm run bench -- --json` can print
 * them as one JSON document:
 *
 *   { "figures": [ { "name", "value", "unit", "target" } ] }
 *
 * `target` is null when a figure has none, else `{ "max": x }` (the value
 * should be at most x) or `{ "min": x }` (at least x), in the figure's unit.
 */
export interface Target {
  max?: number;
  min?: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  target: Target | null;
}

const figures: Figure[] = [];

/** Record a figure (a later one with the same name replaces it). */
export function figure(name: string, value: number, unit: string, target: Target | null = null): Figure {
  const f: Figure = { name, value: Number.isFinite(value) ? Number(value.toPrecision(6)) : value, unit, target };
  const at = figures.findIndex((x) => x.name === name);
  if (at >= 0) figures[at] = f;
  else figures.push(f);
  return f;
}

/** Is a figure within its target (true when it has none)? */
export function within(f: Pick<Figure, 'value' | 'target'>): boolean {
  if (!f.target) return true;
  if (f.target.max !== undefined && !(f.value <= f.target.max)) return false;
  if (f.target.min !== undefined && !(f.value >= f.target.min)) return false;
  return true;
}

/** ✓ or ✗ against the target, '' without one. */
export function mark(f: Pick<Figure, 'value' | 'target'>): string {
  return f.target ? (within(f) ? '✓' : '✗') : '';
}

export function allFigures(): Figure[] {
  return figures.slice();
}

/** With --json the human table is not printed: every line goes here instead. */
export const JSON_MODE = process.argv.includes('--json');
export const say: (line: string) => void = JSON_MODE ? () => undefined : (line) => console.log(line);
