/**
 * The odds runner's text output, from the OddsReport alone (every word from
 * the language file, TENSEG.Odds.Cli.*): a block per procedure, then a table
 * comparing the procedures side by side. Lines are kept to WIDTH columns
 * where it can be done (names are shortened in the table, distributions
 * cut with an ellipsis).
 */
import type { Localize, OddsReport, ProcedureOdds, Share } from '../../rules/odds/types';

/** The widest line aimed at. */
export const WIDTH = 100;

const K = 'TENSEG.Odds.Cli.';

/**
 * A chance (0..1) as a percentage with one decimal ("41.3 %"); a chance that
 * is not nil but rounds to 0, or not certain but rounds to 100, says so
 * ("< 0.1 %", "> 99.9 %").
 */
export function percent(t: Localize, chance: number, digits = 1): string {
  const step = 10 ** -digits;
  const value = chance * 100;
  if (chance > 0 && value < step / 2) return t(`${K}PercentUnder`, { value: step.toFixed(digits) });
  if (chance < 1 && value >= 100 - step / 2) return t(`${K}PercentOver`, { value: (100 - step).toFixed(digits) });
  return t(`${K}Percent`, { value: value.toFixed(digits) });
}

/** A number with one decimal ("3.4"). */
const decimal = (n: number, digits = 1): string => n.toFixed(digits);

/** Cut a text to `width` columns with an ellipsis. */
export function fit(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : chars.slice(0, Math.max(0, width - 1)).join('') + '…';
}

const columns = (text: string): number => [...text].length;

/** A sentence in lines of at most `width` columns, broken between words (the lines after the first indented by `indent`). */
export function wrapWords(text: string, width: number = WIDTH, indent = '  '): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    const prefix = out.length === 0 ? '' : indent;
    if (line !== '' && columns(prefix + next) > width) {
      out.push(prefix + line);
      line = word;
    } else line = next;
  }
  out.push((out.length === 0 ? '' : indent) + line);
  return out;
}

/** The header: title, seed (to repeat the run), trials and round cap. */
export function headerLines(report: OddsReport, t: Localize, file?: string): string[] {
  const out: string[] = [];
  if (report.title) out.push(t(`${K}Title`, { title: report.title }));
  else if (file) out.push(t(`${K}Title`, { title: file }));
  out.push(t(`${K}Header`, { seed: report.seed, trials: report.trials, rounds: report.maxRounds }));
  return out;
}

/**
 * A distribution in a line: the most frequent numbers first ("segment 3:
 * 41 %, 4: 30 % …"), as many as fit in `room` columns; shares under half a
 * percent are left to the ellipsis.
 */
export function compactDist(t: Localize, unit: string, dist: Share[], room: number): string {
  const sorted = [...dist].filter((s) => s.chance > 0).sort((a, b) => b.chance - a.chance || a.value - b.value);
  const parts: string[] = [];
  let cut = false;
  for (const s of sorted) {
    if (Math.round(s.chance * 100) === 0) {
      cut = true;
      break;
    }
    const part = parts.length === 0 ? t(`${K}DistFirst`, { unit, value: s.value, chance: percent(t, s.chance, 0) }) : t(`${K}DistNext`, { value: s.value, chance: percent(t, s.chance, 0) });
    const line = [...parts, part].join(t(`${K}ListComma`));
    if (columns(line) + 2 > room && parts.length > 0) {
      cut = true;
      break;
    }
    parts.push(part);
  }
  const line = parts.join(t(`${K}ListComma`));
  return cut ? t(`${K}DistMore`, { dist: line }) : line;
}

/**
 * A list after a label ("Wins: A 60 % · B 30 % · undecided 10 %") in as
 * many lines as it needs to stay within WIDTH: broken between items, the
 * lines after the first indented further.
 */
export function listLines(indent: string, render: (list: string) => string, items: string[], sep: string): string[] {
  const out: string[] = [];
  const more = indent + '    ';
  const line = (list: string[]) => (out.length === 0 ? indent + render(list.join(sep)) : more + list.join(sep));
  let current: string[] = [];
  for (const item of items) {
    if (current.length > 0 && columns(line([...current, item])) > WIDTH) {
      out.push(line(current).trimEnd());
      current = [item];
    } else current.push(item);
  }
  out.push(line(current).trimEnd());
  return out;
}

/** One procedure's block. */
export function procedureLines(p: ProcedureOdds, t: Localize): string[] {
  const out: string[] = [];
  const sep = t(`${K}ListSep`);
  const name = t(`TENSEG.Procedure.${p.procedure}.Name`);
  out.push(t(`${K}Procedure`, { name, id: p.procedure, trials: p.trials }));
  if (p.trials === 0) {
    out.push('  ' + t(`${K}NoTrials`));
    return out;
  }

  const wins = p.sides.map((s) => t(`${K}Chance`, { name: s.name, chance: percent(t, s.win) }));
  wins.push(t(`${K}Undecided`, { chance: percent(t, p.undecided) }));
  if (p.noneStanding > 0) wins.push(t(`${K}NoneStanding`, { chance: percent(t, p.noneStanding) }));
  out.push(...listLines('  ', (list) => t(`${K}Wins`, { list }), wins, sep));

  const r = p.rounds;
  out.push('  ' + t(`${K}Rounds`, { mean: decimal(r.mean), sd: decimal(r.sd), min: r.min, max: r.max, median: r.median, p90: r.p90 }));

  const first = p.sides.map((s) => t(`${K}Chance`, { name: s.name, chance: percent(t, s.first) }));
  first.push(t(`${K}Together`, { chance: percent(t, p.firstTogether) }));
  const nobody = 1 - p.sides.reduce((a, s) => a + s.first, 0) - p.firstTogether;
  if (nobody > 0.0005) first.push(t(`${K}Nobody`, { chance: percent(t, nobody) }));
  out.push(...listLines('  ', (list) => t(`${K}First`, { list }), first, sep));

  const surprise = p.sides.map((s) => {
    const how = s.surprise
      .filter((x) => x.value > 0 && x.chance > 0)
      .sort((a, b) => a.value - b.value)
      .map((x) => t(p.surpriseUnit === 'round' ? `${K}SurpriseRound` : `${K}SurpriseSegments`, { count: x.value, chance: percent(t, x.chance) }));
    const chance = t(`${K}Chance`, { name: s.name, chance: percent(t, s.surprised) });
    return how.length > 1 || (how.length === 1 && p.surpriseUnit !== 'round') ? t(`${K}SurpriseDetail`, { chance, detail: how.join(t(`${K}ListComma`)) }) : chance;
  });
  out.push(...listLines('  ', (list) => t(`${K}Surprised`, { list }), surprise, sep));

  if (p.castings.length > 0) {
    out.push('  ' + t(`${K}Castings`));
    for (const c of p.castings) {
      const figures = [
        t(`${K}CastingOff`, { chance: percent(t, c.off) }),
        t(`${K}CastingInterrupted`, { chance: percent(t, c.interrupted) }),
        t(`${K}CastingPrevented`, { chance: percent(t, c.prevented) }),
        t(`${K}CastingNotCast`, { chance: percent(t, c.notCast) }),
      ];
      out.push(...listLines('    ', (list) => t(`${K}Casting`, { name: c.name, spell: c.spell, list }), figures, sep));
    }
  }

  out.push('  ' + t(`${K}FirstAction`, { unit: t(`${K}Unit.${p.firstActionUnit}`) }));
  const unit = t(`${K}UnitShort.${p.firstActionUnit}`);
  const row = (label: string, d: { dist: Share[]; mean: number | null; never: number }): string => {
    const head = ['    ' + label];
    if (d.mean !== null) head.push(t(`${K}Mean`, { mean: decimal(d.mean) }));
    if (d.never >= 0.005) head.push(t(`${K}Never`, { chance: percent(t, d.never, 0) }));
    if (d.mean === null) return head.join(sep);
    const start = head.join(sep) + sep;
    return start + compactDist(t, unit, d.dist, WIDTH - columns(start));
  };
  for (const s of p.sides) out.push(row(t(`${K}SideLabel`, { name: s.name }), s.firstAction));
  const sideName = new Map(p.sides.map((s) => [s.id, s.name]));
  for (const c of p.firstAction) out.push(row(t(`${K}CombatantLabel`, { name: c.name, side: sideName.get(c.side) ?? c.side }), c));
  return out;
}

/** The comparison table: a row per figure, a column per procedure. */
export function comparisonLines(report: OddsReport, t: Localize): string[] {
  const procs = report.procedures;
  if (procs.length === 0) return [];
  type Row = { label: string; cells: (string | null)[] };
  const rows: Row[] = [];
  const per = (label: string, cell: (p: ProcedureOdds) => string | null): void => {
    rows.push({ label, cells: procs.map((p) => (p.trials === 0 ? null : cell(p))) });
  };
  // Sides, castings and combatants as the procedures name them (the same encounter: the first procedure's order).
  const sides = procs[0].sides.map((s) => ({ id: s.id, name: s.name }));
  const side = (p: ProcedureOdds, id: string) => p.sides.find((s) => s.id === id);
  for (const s of sides) per(t(`${K}Row.Win`, { name: s.name }), (p) => (side(p, s.id) ? percent(t, side(p, s.id)!.win) : null));
  per(t(`${K}Row.Undecided`), (p) => percent(t, p.undecided));
  per(t(`${K}Row.RoundsMean`), (p) => decimal(p.rounds.mean));
  per(t(`${K}Row.RoundsP90`), (p) => String(p.rounds.p90));
  for (const s of sides) per(t(`${K}Row.First`, { name: s.name }), (p) => (side(p, s.id) ? percent(t, side(p, s.id)!.first) : null));
  per(t(`${K}Row.Together`), (p) => percent(t, p.firstTogether));
  for (const s of sides) per(t(`${K}Row.Surprised`, { name: s.name }), (p) => (side(p, s.id) ? percent(t, side(p, s.id)!.surprised) : null));
  const castings: { caster: string; name: string; spell: string }[] = [];
  for (const p of procs) for (const c of p.castings) if (!castings.some((x) => x.caster === c.caster && x.spell === c.spell)) castings.push(c);
  for (const c of castings) {
    const of = (p: ProcedureOdds) => p.castings.find((x) => x.caster === c.caster && x.spell === c.spell);
    per(t(`${K}Row.CastingOff`, { name: c.name, spell: c.spell }), (p) => (of(p) ? percent(t, of(p)!.off) : null));
    per(t(`${K}Row.CastingInterrupted`, { name: c.name, spell: c.spell }), (p) => (of(p) ? percent(t, of(p)!.interrupted) : null));
  }

  const none = t(`${K}NoFigure`);
  // A long id ("individual-speed") is written over two header lines, split at its first hyphen, so the columns stay narrow.
  const heads = procs.map((p) => {
    const at = p.procedure.indexOf('-');
    return at > 0 ? [p.procedure.slice(0, at + 1), p.procedure.slice(at + 1)] : ['', p.procedure];
  });
  const widths = procs.map((_, i) => Math.max(...heads[i].map(columns), ...rows.map((r) => columns(r.cells[i] ?? none))) + 2);
  const labelRoom = Math.max(16, WIDTH - widths.reduce((a, b) => a + b, 0));
  const labelWidth = Math.min(labelRoom, Math.max(...rows.map((r) => columns(r.label))));
  const pad = (s: string, w: number, right: boolean) => (right ? ' '.repeat(Math.max(0, w - columns(s))) + s : s + ' '.repeat(Math.max(0, w - columns(s))));
  const out = [t(`${K}Compare`)];
  for (const line of [0, 1]) {
    if (heads.every((h) => h[line] === '')) continue;
    out.push((pad('', labelWidth, false) + heads.map((h, i) => pad(h[line], widths[i], true)).join('')).trimEnd());
  }
  for (const r of rows) out.push(pad(fit(r.label, labelWidth), labelWidth, false) + r.cells.map((c, i) => pad(c ?? none, widths[i], true)).join(''));
  return out;
}

/** The whole report as a GM reads it. */
export function oddsText(report: OddsReport, t: Localize, file?: string): string[] {
  const out = headerLines(report, t, file);
  for (const p of report.procedures) {
    out.push('');
    out.push(...procedureLines(p, t));
  }
  if (report.procedures.length > 1) {
    out.push('');
    out.push(...comparisonLines(report, t));
  }
  return out;
}

/** "Stopped after N trials" (a Ctrl-C). */
export function stoppedLine(t: Localize, played: number, asked: number): string {
  return t(`${K}Stopped`, { played, asked });
}

/** Trials played, seconds, trials per second. */
export function throughputLine(t: Localize, played: number, seconds: number, workers: number): string {
  const rate = seconds > 0 ? Math.round(played / seconds) : played;
  return t(`${K}Throughput`, { trials: played, seconds: seconds.toFixed(1), rate, workers });
}

/** The progress line (stderr). */
export function progressLine(t: Localize, done: number, total: number): string {
  return t(`${K}Progress`, { done, total, percent: total > 0 ? Math.floor((done / total) * 100) : 100 });
}
