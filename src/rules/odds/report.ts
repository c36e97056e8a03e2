/**
 * Odds (issue 14): tallies turned into the figures a GM reads (OddsReport):
 * chances 0..1, the spread of rounds, each casting's outcomes, who acts
 * first and when, surprise. The runner's table, its JSON, the chart and the
 * Foundry dialog all render this one shape.
 */
import type { ProcedureId } from '../model';
import { castingKey, splitCastingKey } from './tally';
import type { FirstActionUnit, OddsReport, OddsSetup, ProcedureOdds, Share, Tally } from './types';

/**
 * What a procedure's surprise counts (its rollSurprise's SurpriseResult.unit):
 * surprise segments before round 1 (segment-d6, addict), or a whole round
 * (high-low, d12-ascending, individual-speed). tests/rules/odds-report.test.ts
 * checks this against the procedures themselves.
 */
export const SURPRISE_UNIT: Record<ProcedureId, 'segments' | 'round'> = {
  'segment-d6': 'segments',
  'high-low': 'round',
  'd12-ascending': 'round',
  'individual-speed': 'round',
  addict: 'segments',
};

/** What a first action's number counts, by procedure: a segment, an initiative count, or the step's place in the round (trial.ts). */
export function firstActionUnit(procedure: ProcedureId): FirstActionUnit {
  if (procedure === 'segment-d6' || procedure === 'addict') return 'segment';
  if (procedure === 'individual-speed') return 'count';
  return 'order';
}

/** The spread of rounds to the end, from a histogram (rounds[n]: trials that took n rounds). */
export function roundStats(rounds: readonly number[]): ProcedureOdds['rounds'] {
  let total = 0;
  let sum = 0;
  let min = -1;
  let max = 0;
  rounds.forEach((n, r) => {
    if (n <= 0) return;
    total += n;
    sum += n * r;
    if (min < 0) min = r;
    max = r;
  });
  if (total === 0) return { mean: 0, sd: 0, min: 0, median: 0, p90: 0, max: 0 };
  const mean = sum / total;
  let squares = 0;
  rounds.forEach((n, r) => {
    if (n > 0) squares += n * (r - mean) * (r - mean);
  });
  return { mean, sd: Math.sqrt(squares / total), min, median: quantile(rounds, total, 0.5), p90: quantile(rounds, total, 0.9), max };
}

/** The value at 1-based rank `rank` of the histogram's sorted values. */
function valueAtRank(rounds: readonly number[], rank: number): number {
  let seen = 0;
  for (let r = 0; r < rounds.length; r++) {
    seen += rounds[r] > 0 ? rounds[r] : 0;
    if (seen >= rank) return r;
  }
  /* c8 ignore next */
  return rounds.length - 1;
}

/**
 * The median (the middle value; with an even count the mean of the two
 * middle ones) or another quantile by nearest rank (p90: the smallest value
 * with at least 90 % of the trials at or below it).
 */
function quantile(rounds: readonly number[], total: number, q: number): number {
  if (q === 0.5 && total % 2 === 0) return (valueAtRank(rounds, total / 2) + valueAtRank(rounds, total / 2 + 1)) / 2;
  return valueAtRank(rounds, Math.max(1, Math.ceil(q * total)));
}

/** Counts by number (string keys) as shares of `trials`, by value; their mean (null: none); the share of trials not counted. */
export function distribution(counts: Record<string, number> | undefined, trials: number): { dist: Share[]; mean: number | null; never: number } {
  const entries = Object.entries(counts ?? {})
    .map(([k, n]) => ({ value: Number(k), n }))
    .filter((e) => Number.isFinite(e.value) && e.n > 0)
    .sort((a, b) => a.value - b.value);
  const counted = entries.reduce((s, e) => s + e.n, 0);
  return {
    dist: entries.map((e) => ({ value: e.value, chance: share(e.n, trials) })),
    mean: counted > 0 ? entries.reduce((s, e) => s + e.value * e.n, 0) / counted : null,
    never: trials > 0 ? Math.max(0, trials - counted) / trials : 0,
  };
}

function share(n: number | undefined, of: number): number {
  return of > 0 && n ? n / of : 0;
}

/**
 * The castings in the order they are declared: the surprise set's, then
 * round 1's, 2's …, each set in its own order; then any other the tally
 * holds (sorted, so any split gives the same order).
 */
function castingOrder(setup: OddsSetup | undefined, tally: Tally): string[] {
  const keys: string[] = [];
  const sets = setup ? [setup.surpriseDeclarations ?? {}, ...setup.declarations] : [];
  for (const set of sets) {
    for (const [id, d] of Object.entries(set)) {
      if (d.action !== 'spell' || d.spell === undefined) continue;
      const key = castingKey(d.combatant || id, d.spell);
      if (key in tally.castings && !keys.includes(key)) keys.push(key);
    }
  }
  return [...keys, ...Object.keys(tally.castings).filter((k) => !keys.includes(k)).sort()];
}

/** One procedure's figures. */
export function procedureOdds(setup: OddsSetup | undefined, tally: Tally, unit: FirstActionUnit): ProcedureOdds {
  const trials = tally.trials;
  const combatants = setup?.encounter.combatants ?? [];
  const nameOf = (id: string) => combatants.find((c) => c.id === id)?.name ?? id;
  const sides = (setup?.encounter.sides ?? []).filter((s) => combatants.some((c) => c.side === s.id));
  return {
    procedure: tally.procedure,
    trials,
    sides: sides.map((s) => {
      const surprise = distribution(tally.surprised[s.id], trials).dist.filter((d) => d.value > 0);
      return {
        id: s.id,
        name: s.name,
        win: share(tally.wins[s.id], trials),
        first: share(tally.first[s.id], trials),
        surprised: surprise.reduce((sum, d) => sum + d.chance, 0),
        surprise,
        firstAction: distribution(tally.sideFirstAction[s.id], trials),
      };
    }),
    undecided: share(tally.undecided, trials),
    noneStanding: share(tally.noneStanding, trials),
    firstTogether: share(tally.first[''], trials),
    surpriseUnit: SURPRISE_UNIT[tally.procedure],
    rounds: roundStats(tally.rounds),
    castings: castingOrder(setup, tally).map((key) => {
      const { caster, spell } = splitCastingKey(key);
      const o = tally.castings[key];
      const of = o.off + o.interrupted + o.prevented + o['not-cast'];
      return {
        caster,
        name: nameOf(caster),
        spell,
        off: share(o.off, of),
        interrupted: share(o.interrupted, of),
        prevented: share(o.prevented, of),
        notCast: share(o['not-cast'], of),
      };
    }),
    firstActionUnit: unit,
    firstAction: combatants.map((c) => ({ combatant: c.id, name: c.name, side: c.side, ...distribution(tally.firstAction[c.id], trials) })),
  };
}

/**
 * The report of a run: one ProcedureOdds per tally, in the tallies' order,
 * each with the setup of its procedure (else the setup at the same index).
 * `unit` names what a procedure's first-action numbers count (firstActionUnit).
 */
export function oddsReport(
  setups: OddsSetup[],
  tallies: Tally[],
  meta: { seed: number; trials: number; maxRounds: number; complete: boolean; title?: string },
  unit: (p: ProcedureId) => FirstActionUnit = firstActionUnit,
): OddsReport {
  const title = meta.title ?? setups.find((s) => s.title)?.title;
  return {
    ...(title ? { title } : {}),
    seed: meta.seed,
    trials: meta.trials,
    maxRounds: meta.maxRounds,
    complete: meta.complete,
    procedures: tallies.map((tally, i) => procedureOdds(setups.find((s) => s.procedure === tally.procedure) ?? setups[i], tally, unit(tally.procedure))),
  };
}
