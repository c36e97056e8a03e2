/**
 * Dice for the rules engine. The engine never rolls by itself: it asks a Dice
 * for each roll, saying what the roll is for, so tests and scenario files can
 * script exact results and the Foundry layer can use real Roll objects.
 */

export type DiePurpose =
  | 'surprise' // per side (or per combatant)
  | 'initiative' // per side, per combatant or per shared group
  | 'morale'
  | 'attack'
  | 'damage'
  | 'injury' // individual-speed: a Combat Injury's d%, its table's d20 and what the row rolls
  | 'other';

export interface DieRequest {
  purpose: DiePurpose;
  /** Number of dice and faces: 3d6 is { count: 3, faces: 6 }. */
  count: number;
  faces: number;
  /** Who the roll is for. */
  side?: string;
  combatant?: string;
  round?: number;
}

export interface Dice {
  /** The total of `count` dice of `faces`, each 1..faces. */
  roll(request: DieRequest): number;
}

/** Check a total is possible for a request; used by scripted dice. */
export function isPossibleTotal(request: DieRequest, total: number): boolean {
  return Number.isInteger(total) && total >= request.count && total <= request.count * request.faces;
}

/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same
 * rolls, so `--seed N` makes a simulation repeatable.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class RandomDice implements Dice {
  private readonly random: () => number;
  constructor(seedOrRandom: number | (() => number) = Date.now()) {
    this.random = typeof seedOrRandom === 'number' ? seededRandom(seedOrRandom) : seedOrRandom;
  }
  roll(request: DieRequest): number {
    let total = 0;
    for (let i = 0; i < request.count; i++) total += 1 + Math.floor(this.random() * request.faces);
    return total;
  }
}

/** One scripted result: matches the first pending request with these fields. */
export interface ScriptedRoll {
  purpose: DiePurpose;
  side?: string;
  combatant?: string;
  round?: number;
  result: number;
}

/** Take (remove and return) the first pending scripted roll that answers `request`: its purpose, and side / combatant / round where written. */
export function takeScripted<T extends Omit<ScriptedRoll, 'result'>>(pending: T[], request: DieRequest): T | undefined {
  const i = pending.findIndex(
    (s) =>
      s.purpose === request.purpose &&
      (s.side === undefined || s.side === request.side) &&
      (s.combatant === undefined || s.combatant === request.combatant) &&
      (s.round === undefined || s.round === request.round),
  );
  return i >= 0 ? pending.splice(i, 1)[0] : undefined;
}

/**
 * Dice that answer from a script. Each request takes the first unused entry
 * whose purpose matches and whose side / combatant / round, where given, match.
 * With no matching entry it falls back to `fallback`, or throws if none.
 */
export class ScriptedDice implements Dice {
  private readonly pending: ScriptedRoll[];
  readonly log: { request: DieRequest; result: number; scripted: boolean }[] = [];
  constructor(script: ScriptedRoll[], private readonly fallback?: Dice) {
    this.pending = [...script];
  }
  roll(request: DieRequest): number {
    const entry = takeScripted(this.pending, request);
    if (entry) {
      if (!isPossibleTotal(request, entry.result)) {
        throw new RangeError(
          `scripted ${request.purpose} result ${entry.result} is impossible on ${request.count}d${request.faces}`,
        );
      }
      this.log.push({ request, result: entry.result, scripted: true });
      return entry.result;
    }
    if (!this.fallback) {
      throw new RangeError(
        `no scripted ${request.purpose} roll for ${request.side ?? request.combatant ?? 'anyone'} in round ${request.round ?? '?'}`,
      );
    }
    const result = this.fallback.roll(request);
    this.log.push({ request, result, scripted: false });
    return result;
  }
  /** Entries never used: a scenario can warn about them. */
  unused(): readonly ScriptedRoll[] {
    return this.pending;
  }
}

/** Dice that always return a fixed sequence (simple unit tests). */
export class SequenceDice implements Dice {
  private i = 0;
  constructor(private readonly results: number[]) {}
  roll(request: DieRequest): number {
    if (this.i >= this.results.length) throw new RangeError('SequenceDice ran out of results');
    const r = this.results[this.i++];
    if (!isPossibleTotal(request, r)) throw new RangeError(`result ${r} impossible on ${request.count}d${request.faces}`);
    return r;
  }
}

/** "2-8" (an old-style range) as a Roll formula; dice formulas pass through. */
export function damageFormula(text: string): string | null {
  const t = text.trim().replace(/×/g, 'x');
  const range = /^(\d+)-(\d+)$/.exec(t);
  if (range) {
    const lo = Number(range[1]);
    const hi = Number(range[2]);
    if (hi < lo) return null;
    return lo === hi ? String(lo) : `1d${hi - lo + 1}${lo > 1 ? `+${lo - 1}` : ''}`;
  }
  const mult = /^(\d*d\d+(?:[+-]\d+)?)x(\d+)$/i.exec(t);
  if (mult) return `(${mult[1]})*${mult[2]}`;
  if (/^\d*d\d+(?:[+-]\d+)?$/i.test(t) || /^\d+$/.test(t)) return t;
  return null;
}
