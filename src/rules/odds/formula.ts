/**
 * Damage text rolled through the Dice (odds, issue 14): the texts a stat
 * block or a scenario writes ("1d8", "2-8", "1d6+1", "2d4x2", "3"; dice.ts
 * damageFormula reads them as a Roll formula would), compiled once into
 * `(count d faces + plus) × times` so a trial rolls them without parsing.
 */
import { damageFormula, type Dice, type DiePurpose } from '../dice';

/** A damage text compiled: (count d faces + plus) × times. */
export interface Compiled {
  count: number;
  faces: number;
  plus: number;
  times: number;
}

/** RULING (default damage): an attack whose damage nothing tells (no weapon damage, no routine) rolls 1d6. */
export const DEFAULT_DAMAGE: Readonly<Compiled> = Object.freeze({ count: 1, faces: 6, plus: 0, times: 1 });

const DICE = /^(\d*)d(\d+)(?:([+-])(\d+))?$/i;
const cache = new Map<string, Compiled | null>();

function compileFormula(formula: string): Compiled | null {
  let times = 1;
  let body = formula;
  const mult = /^\((.+)\)\*(\d+)$/.exec(formula);
  if (mult) {
    body = mult[1];
    times = Number(mult[2]);
  }
  if (/^\d+$/.test(body)) return { count: 0, faces: 0, plus: Number(body), times };
  const m = DICE.exec(body);
  if (!m) return null;
  const count = m[1] === '' ? 1 : Number(m[1]);
  const faces = Number(m[2]);
  if (!(faces >= 1) || count > 1000 || faces > 1000) return null;
  const plus = m[3] === undefined ? 0 : (m[3] === '-' ? -1 : 1) * Number(m[4]);
  return { count, faces, plus, times };
}

/** A damage text compiled (null: unreadable), remembered per text. */
export function compile(text: unknown): Compiled | null {
  if (typeof text !== 'string') return null;
  let c = cache.get(text);
  if (c === undefined) {
    const formula = damageFormula(text);
    c = formula === null ? null : compileFormula(formula);
    if (cache.size > 10_000) cache.clear();
    cache.set(text, c);
  }
  return c;
}

/** Roll a compiled text through the Dice (no request when it has no dice). */
export function rollCompiled(c: Compiled, dice: Dice, purpose: DiePurpose, combatant?: string, round?: number): number {
  const rolled = c.count > 0 ? dice.roll({ purpose, count: c.count, faces: c.faces, combatant, round }) : 0;
  return (rolled + c.plus) * c.times;
}

/** A damage text's total, rolled through the Dice (purpose 'damage'); null if the text is unreadable. */
export function rollFormula(text: string, dice: Dice, who?: { combatant?: string; round?: number }): number | null {
  const c = compile(text);
  return c === null ? null : rollCompiled(c, dice, 'damage', who?.combatant, who?.round);
}
