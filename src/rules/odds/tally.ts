/**
 * Odds (issue 14): trial results counted. A Tally holds whole numbers only,
 * so the tallies of any split of the trials (one per worker, or one per
 * chunk) merged in any order give the same figures as one tally of all of
 * them; and trial i of a procedure always plays with the same dice
 * (trialSeed), whoever plays it.
 */
import { RandomDice, type Dice } from '../dice';
import { PROCEDURE_IDS, type ProcedureId } from '../model';
import { CASTING_OUTCOMES, type CastingOutcome, type Tally, type TrialResult } from './types';

/** The key of a casting in Tally.castings: caster id and spell name. */
export function castingKey(caster: string, spell: string): string {
  return `${caster}\u0000${spell}`;
}

/** The caster id and spell name of a Tally.castings key. */
export function splitCastingKey(key: string): { caster: string; spell: string } {
  const at = key.indexOf('\u0000');
  return at < 0 ? { caster: key, spell: '' } : { caster: key.slice(0, at), spell: key.slice(at + 1) };
}

/** The key of Tally.first for a trial's `first`: the side, '' for a tie, 'none' for nobody acting. */
export const FIRST_NONE = 'none';

/** An empty tally of a procedure. */
export function newTally(procedure: ProcedureId): Tally {
  return {
    procedure,
    trials: 0,
    wins: {},
    undecided: 0,
    noneStanding: 0,
    rounds: [0],
    first: {},
    firstAction: {},
    sideFirstAction: {},
    castings: {},
    surprised: {},
  };
}

function emptyOutcomes(): Record<CastingOutcome, number> {
  return { off: 0, interrupted: 0, prevented: 0, 'not-cast': 0 };
}

function bump(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

function bumpIn(table: Record<string, Record<string, number>>, outer: string, inner: string, by = 1): void {
  bump((table[outer] ??= {}), inner, by);
}

/** Count one trial's result into the tally (changed in place and returned). */
export function addTrial(tally: Tally, result: TrialResult): Tally {
  tally.trials += 1;
  if (result.winner !== null) bump(tally.wins, result.winner);
  else if (result.undecided) tally.undecided += 1;
  else tally.noneStanding += 1;
  const rounds = Math.max(0, Math.trunc(result.rounds));
  while (tally.rounds.length <= rounds) tally.rounds.push(0);
  tally.rounds[rounds] += 1;
  bump(tally.first, result.first ?? FIRST_NONE);
  for (const [id, n] of Object.entries(result.firstAction)) bumpIn(tally.firstAction, id, String(n));
  for (const [id, n] of Object.entries(result.sideFirstAction)) bumpIn(tally.sideFirstAction, id, String(n));
  for (const c of result.castings) (tally.castings[castingKey(c.caster, c.spell)] ??= emptyOutcomes())[c.outcome] += 1;
  for (const [side, n] of Object.entries(result.surprised)) bumpIn(tally.surprised, side, String(n));
  return tally;
}

/** Add the tally `from` into `into` (changed in place and returned): pure whole-number sums. */
export function mergeTally(into: Tally, from: Tally): Tally {
  if (into.procedure !== from.procedure) throw new Error(`mergeTally: ${from.procedure} into ${into.procedure}`);
  into.trials += from.trials;
  into.undecided += from.undecided;
  into.noneStanding += from.noneStanding;
  for (const [side, n] of Object.entries(from.wins)) bump(into.wins, side, n);
  while (into.rounds.length < from.rounds.length) into.rounds.push(0);
  from.rounds.forEach((n, i) => (into.rounds[i] += n));
  for (const [key, n] of Object.entries(from.first)) bump(into.first, key, n);
  for (const table of ['firstAction', 'sideFirstAction', 'surprised'] as const) {
    for (const [outer, counts] of Object.entries(from[table])) {
      for (const [inner, n] of Object.entries(counts)) bumpIn(into[table], outer, inner, n);
    }
  }
  for (const [key, outcomes] of Object.entries(from.castings)) {
    const mine = (into.castings[key] ??= emptyOutcomes());
    for (const o of CASTING_OUTCOMES) mine[o] += outcomes[o] ?? 0;
  }
  return into;
}

/* ------------------------------------------------------------------ seeds */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** One 32-bit word into a MurmurHash3 state. */
function murmurWord(h: number, word: number): number {
  let k = Math.imul(word >>> 0, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** MurmurHash3's finalizer: every input bit moves every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The seed of trial `trial` of `procedure` in a run seeded `seed`: a
 * MurmurHash3 of the seed (both 32-bit halves of a whole number up to
 * 2^53), the procedure's index in PROCEDURE_IDS (not in the procedures
 * chosen, so a run of one procedure gives it the same numbers as a run of
 * all five) and the trial's index. A uint32.
 */
export function trialSeed(seed: number, procedure: ProcedureId, trial: number): number {
  const s = Number.isFinite(seed) ? Math.trunc(seed) : 0;
  const low = s >>> 0;
  const high = Math.floor(s / 4294967296) >>> 0;
  let h = 0x5eed0dd5;
  h = murmurWord(h, low);
  h = murmurWord(h, high);
  h = murmurWord(h, PROCEDURE_IDS.indexOf(procedure));
  h = murmurWord(h, Math.trunc(trial));
  return fmix32(h ^ 16);
}

/**
 * Play trials `from` .. `to - 1` of a procedure, each with its own dice
 * (RandomDice(trialSeed(seed, procedure, i))), counting each into `tally`.
 * `stop` is asked before each trial: when it says so, the run ends there.
 * Returns how many trials were played.
 */
export function runTrials(
  play: (dice: Dice) => TrialResult,
  procedure: ProcedureId,
  seed: number,
  from: number,
  to: number,
  tally: Tally,
  stop?: () => boolean,
): number {
  let played = 0;
  for (let i = from; i < to; i++) {
    if (stop?.()) break;
    addTrial(tally, play(new RandomDice(trialSeed(seed, procedure, i))));
    played += 1;
  }
  return played;
}
