/**
 * Odds (issue 14): the report drawn as one standalone SVG document, readable
 * on its own (no script, no stylesheet, no font but the reader's sans-serif):
 *
 *  1. the chance each side wins under each procedure (grouped horizontal
 *     bars, one colour per side, grey for undecided), with the spread of
 *     rounds under each procedure's name;
 *  2. each declared casting's first attempt under each procedure (a stacked
 *     100 % bar: goes off / interrupted / prevented / not cast);
 *  3. each side's first action in round 1, one small chart per procedure,
 *     its x axis in the procedure's unit (segment, initiative count, place
 *     in order).
 *
 * Every word comes from the localizer (TENSEG.Odds.Chart.*, and the words
 * the table shares, TENSEG.Odds.Report.*); every text is escaped for XML.
 * Colours: the Okabe–Ito palette (safe for the common colour blindnesses).
 */
import type { ProcedureId } from '../model';
import { CASTING_OUTCOMES, type CastingOutcome, type FirstActionUnit, type Localize, type OddsReport, type ProcedureOdds } from './types';

/** A procedure's short name (the table's and the chart's), by id. */
export const PROCEDURE_SHORT_KEYS: Record<ProcedureId, string> = {
  'segment-d6': 'TENSEG.Odds.Report.Procedure.segment-d6',
  'high-low': 'TENSEG.Odds.Report.Procedure.high-low',
  'd12-ascending': 'TENSEG.Odds.Report.Procedure.d12-ascending',
  'individual-speed': 'TENSEG.Odds.Report.Procedure.individual-speed',
  addict: 'TENSEG.Odds.Report.Procedure.addict',
};

/** What a first action's number counts, as an axis names it. */
export const UNIT_KEYS: Record<FirstActionUnit, string> = {
  segment: 'TENSEG.Odds.Report.Unit.segment',
  count: 'TENSEG.Odds.Report.Unit.count',
  order: 'TENSEG.Odds.Report.Unit.order',
};

/** A casting's outcome, as the legend names it. */
export const OUTCOME_KEYS: Record<CastingOutcome, string> = {
  off: 'TENSEG.Odds.Report.Outcome.off',
  interrupted: 'TENSEG.Odds.Report.Outcome.interrupted',
  prevented: 'TENSEG.Odds.Report.Outcome.prevented',
  'not-cast': 'TENSEG.Odds.Report.Outcome.not-cast',
};

/** Okabe–Ito: the sides' colours, in the order the sides first appear. */
const SIDE_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#56B4E9', '#E69F00', '#F0E442', '#000000'];
const UNDECIDED = '#999999';
const NONE_STANDING = '#555555';
const OUTCOME_COLOURS: Record<CastingOutcome, string> = { off: '#009E73', interrupted: '#D55E00', prevented: '#E69F00', 'not-cast': '#CCCCCC' };
const INK = '#1a1a1a';
const MUTED = '#555555';
const GRID = '#dddddd';
const AXIS = '#888888';
const BAND = '#f4f4f4';

const WIDTH = 1000;
const MARGIN = 24;
const LABEL_W = 220;
const PLOT_X0 = MARGIN + LABEL_W;
const PLOT_X1 = WIDTH - MARGIN - 56;

/** Text safe inside an XML element or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** A number for an attribute: plain, two decimals at most. */
function n(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** A name cut to `max` characters. */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

interface TextStyle {
  size?: number;
  anchor?: 'start' | 'middle' | 'end';
  weight?: 'bold';
  fill?: string;
}

function text(x: number, y: number, content: string, style: TextStyle = {}): string {
  const anchor = style.anchor && style.anchor !== 'start' ? ` text-anchor="${style.anchor}"` : '';
  const weight = style.weight ? ` font-weight="${style.weight}"` : '';
  return `<text x="${n(x)}" y="${n(y)}" font-size="${style.size ?? 12}" fill="${style.fill ?? INK}"${anchor}${weight}>${escapeXml(content)}</text>`;
}

function rect(x: number, y: number, w: number, h: number, fill: string, title?: string): string {
  const tip = title ? `<title>${escapeXml(title)}</title>` : '';
  return tip
    ? `<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(0, w))}" height="${n(h)}" fill="${fill}">${tip}</rect>`
    : `<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(0, w))}" height="${n(h)}" fill="${fill}"/>`;
}

function line(x1: number, y1: number, x2: number, y2: number, stroke: string): string {
  return `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${stroke}" stroke-width="1"/>`;
}

/** A rough width of a text in sans-serif at `size` px (for laying out legends). */
function textWidth(content: string, size: number): number {
  return content.length * size * 0.52;
}

/** Legend entries laid out left to right, wrapping; returns the SVG and the height used. */
function legend(entries: { colour: string; label: string }[], x0: number, y0: number, x1: number): { svg: string; height: number } {
  const parts: string[] = [];
  let x = x0;
  let y = y0;
  for (const e of entries) {
    const w = 18 + textWidth(e.label, 12) + 18;
    if (x > x0 && x + w > x1) {
      x = x0;
      y += 20;
    }
    parts.push(rect(x, y, 12, 12, e.colour), text(x + 17, y + 10.5, e.label));
    x += w;
  }
  return { svg: parts.join(''), height: y - y0 + 20 };
}

interface FlowItem {
  label: string;
  /** A swatch before the label. */
  colour?: string;
  fill?: string;
}

/** Small labels (each with its swatch, if any) left to right from (x, y), wrapping at maxX. */
function flow(items: FlowItem[], x0: number, y0: number, maxX: number): string {
  const parts: string[] = [];
  let x = x0;
  let y = y0;
  for (const item of items) {
    const w = (item.colour ? 11 : 0) + textWidth(item.label, 11);
    if (x > x0 && x + w > maxX) {
      x = x0 + 8;
      y += 14;
    }
    if (item.colour) parts.push(rect(x, y - 8, 8, 8, item.colour));
    parts.push(text(x + (item.colour ? 11 : 0), y, item.label, { size: 11, fill: item.fill ?? INK }));
    x += w + 8;
  }
  return parts.join('');
}

/** The chart of a report: one standalone SVG document. */
export function oddsChart(report: OddsReport, t: Localize): string {
  const percent = (v: number): string => {
    const value = v > 0 && v < 0.005 ? '<1' : v < 1 && v > 0.995 ? '>99' : String(Math.round(v * 100));
    return t('TENSEG.Odds.Report.Percent', { value });
  };
  const procName = (p: ProcedureOdds) => t(PROCEDURE_SHORT_KEYS[p.procedure] ?? p.procedure);

  // One colour per side, the same in every panel.
  const sides: { id: string; name: string; colour: string }[] = [];
  for (const p of report.procedures) {
    for (const s of p.sides) {
      if (!sides.some((x) => x.id === s.id)) sides.push({ id: s.id, name: s.name, colour: SIDE_COLOURS[sides.length % SIDE_COLOURS.length] });
    }
  }
  const colourOf = (id: string) => sides.find((s) => s.id === id)?.colour ?? UNDECIDED;

  const out: string[] = [];
  let y = MARGIN;

  // Title and subtitle.
  const title = report.title ? t('TENSEG.Odds.Chart.Title', { title: report.title }) : t('TENSEG.Odds.Chart.TitleUntitled');
  out.push(text(MARGIN, y + 20, title, { size: 22, weight: 'bold' }));
  y += 44;
  out.push(text(MARGIN, y, t('TENSEG.Odds.Chart.Subtitle', { trials: report.trials, seed: report.seed, rounds: report.maxRounds }), { size: 13, fill: MUTED }));
  if (!report.complete) {
    const played = report.procedures.map((p) => p.trials);
    const least = played.length ? Math.min(...played) : 0;
    const most = played.length ? Math.max(...played) : 0;
    y += 20;
    out.push(text(MARGIN, y, t('TENSEG.Odds.Chart.StoppedEarly', { played: least === most ? String(least) : `${least}–${most}` }), { size: 13, weight: 'bold', fill: '#A63D00' }));
  }
  y += 16;

  const xOf = (v: number) => PLOT_X0 + (PLOT_X1 - PLOT_X0) * Math.min(1, Math.max(0, v));
  /** Vertical gridlines at 0, 20 … 100 % from `top` to `bottom`, labelled below. */
  const percentAxis = (top: number, bottom: number): string => {
    const parts: string[] = [];
    for (let i = 0; i <= 5; i++) {
      const x = xOf(i / 5);
      parts.push(line(x, top, x, bottom, i === 0 ? AXIS : GRID), text(x, bottom + 15, percent(i / 5), { size: 11, anchor: 'middle', fill: MUTED }));
    }
    return parts.join('');
  };

  /* ------------------------------------------------ panel 1: win chances */
  y += 24;
  out.push(text(MARGIN, y, t('TENSEG.Odds.Chart.WinHeading'), { size: 16, weight: 'bold' }));
  y += 14;
  const anyNone = report.procedures.some((p) => p.noneStanding > 0);
  const winLegend = legend(
    [
      ...sides.map((s) => ({ colour: s.colour, label: s.name })),
      { colour: UNDECIDED, label: t('TENSEG.Odds.Report.Undecided', { rounds: report.maxRounds }) },
      ...(anyNone ? [{ colour: NONE_STANDING, label: t('TENSEG.Odds.Report.NoneStanding') }] : []),
    ],
    PLOT_X0,
    y,
    WIDTH - MARGIN,
  );
  out.push(winLegend.svg);
  y += winLegend.height + 6;
  const BAR = 14;
  const GAP = 3;
  const winTop = y;
  const winRows: string[] = [];
  const winBands: string[] = [];
  report.procedures.forEach((p, i) => {
    const series = [
      ...p.sides.map((s) => ({ colour: colourOf(s.id), value: s.win, label: s.name })),
      { colour: UNDECIDED, value: p.undecided, label: t('TENSEG.Odds.Report.Undecided', { rounds: report.maxRounds }) },
      ...(anyNone ? [{ colour: NONE_STANDING, value: p.noneStanding, label: t('TENSEG.Odds.Report.NoneStanding') }] : []),
    ];
    const h = series.length * (BAR + GAP) - GAP + 16;
    if (i % 2 === 1) winBands.push(rect(MARGIN, y, WIDTH - 2 * MARGIN, h, BAND));
    winRows.push(text(MARGIN + 6, y + 18, procName(p), { size: 13, weight: 'bold' }));
    const r = p.rounds;
    winRows.push(text(MARGIN + 6, y + 34, t('TENSEG.Odds.Chart.Rounds', { mean: r.mean.toFixed(1), p90: r.p90 }), { size: 11, fill: MUTED }));
    if (!report.complete) winRows.push(text(MARGIN + 6, y + 48, t('TENSEG.Odds.Chart.Trials', { trials: p.trials }), { size: 11, fill: MUTED }));
    series.forEach((s, k) => {
      const by = y + 8 + k * (BAR + GAP);
      winRows.push(rect(PLOT_X0, by, xOf(s.value) - PLOT_X0, BAR, s.colour, `${s.label}: ${percent(s.value)}`));
      winRows.push(text(xOf(s.value) + 4, by + BAR - 3, percent(s.value), { size: 11 }));
    });
    y += h;
  });
  out.push(winBands.join(''), percentAxis(winTop, y), winRows.join(''));
  y += 34;
  out.push(text(xOf(0.5), y, t('TENSEG.Odds.Chart.WinAxis'), { size: 12, anchor: 'middle', fill: MUTED }));
  y += 10;

  /* ---------------------------------------------- panel 2: spell success */
  y += 34;
  out.push(text(MARGIN, y, t('TENSEG.Odds.Chart.SpellHeading'), { size: 16, weight: 'bold' }));
  y += 14;
  // Castings by caster and spell, each with its row per procedure.
  const castings: { caster: string; name: string; spell: string; rows: { p: ProcedureOdds; c: ProcedureOdds['castings'][number] }[] }[] = [];
  for (const p of report.procedures) {
    for (const c of p.castings) {
      let entry = castings.find((x) => x.caster === c.caster && x.spell === c.spell);
      if (!entry) castings.push((entry = { caster: c.caster, name: c.name, spell: c.spell, rows: [] }));
      entry.rows.push({ p, c });
    }
  }
  if (castings.length === 0) {
    y += 8;
    out.push(text(MARGIN, y, t('TENSEG.Odds.Chart.NoSpells'), { size: 13, fill: MUTED }));
    y += 6;
  } else {
    const spellLegend = legend(
      CASTING_OUTCOMES.map((o) => ({ colour: OUTCOME_COLOURS[o], label: t(OUTCOME_KEYS[o]) })),
      PLOT_X0,
      y,
      WIDTH - MARGIN,
    );
    out.push(spellLegend.svg);
    y += spellLegend.height + 6;
    const spellTop = y;
    const rows: string[] = [];
    const bands: string[] = [];
    castings.forEach((entry, i) => {
      const h = 22 + entry.rows.length * 20 + 6;
      if (i % 2 === 1) bands.push(rect(MARGIN, y, WIDTH - 2 * MARGIN, h, BAND));
      rows.push(text(MARGIN + 6, y + 16, t('TENSEG.Odds.Report.Casting', { caster: entry.name, spell: entry.spell }), { size: 13, weight: 'bold' }));
      entry.rows.forEach(({ p, c }, k) => {
        const by = y + 22 + k * 20;
        rows.push(text(MARGIN + 18, by + 12, clip(procName(p), 30), { size: 12 }));
        const values: Record<CastingOutcome, number> = { off: c.off, interrupted: c.interrupted, prevented: c.prevented, 'not-cast': c.notCast };
        let at = 0;
        for (const o of CASTING_OUTCOMES) {
          const x = xOf(at);
          const w = xOf(at + values[o]) - x;
          if (w > 0) {
            rows.push(rect(x, by, w, 16, OUTCOME_COLOURS[o], `${t(OUTCOME_KEYS[o])}: ${percent(values[o])}`));
            if (w >= 34) rows.push(text(x + w / 2, by + 12, percent(values[o]), { size: 11, anchor: 'middle' }));
          }
          at += values[o];
        }
      });
      y += h;
    });
    out.push(bands.join(''), percentAxis(spellTop, y), rows.join(''));
    y += 34;
    out.push(text(xOf(0.5), y, t('TENSEG.Odds.Chart.SpellAxis'), { size: 12, anchor: 'middle', fill: MUTED }));
    y += 4;
  }

  /* ------------------------------- panel 3: first action in round 1 */
  y += 40;
  out.push(text(MARGIN, y, t('TENSEG.Odds.Chart.FirstHeading'), { size: 16, weight: 'bold' }));
  y += 14;
  const firstLegend = legend(
    sides.map((s) => ({ colour: s.colour, label: s.name })),
    MARGIN,
    y,
    WIDTH - MARGIN,
  );
  out.push(firstLegend.svg);
  y += firstLegend.height + 8;
  const cols = Math.max(1, Math.min(3, report.procedures.length));
  const CELL_GAP = 24;
  const cellW = (WIDTH - 2 * MARGIN - (cols - 1) * CELL_GAP) / cols;
  const CELL_H = 262;
  report.procedures.forEach((p, i) => {
    const cx = MARGIN + (i % cols) * (cellW + CELL_GAP);
    const cy = y + Math.floor(i / cols) * (CELL_H + 16);
    out.push(smallMultiple(p, cx, cy, cellW, t, procName(p), percent, colourOf));
  });
  y += Math.ceil(report.procedures.length / cols) * (CELL_H + 16);

  const height = Math.ceil(y + MARGIN);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">`,
    `<title>${escapeXml(title)}</title>`,
    rect(0, 0, WIDTH, height, '#ffffff'),
    ...out,
    '</svg>',
    '',
  ].join('\n');
}

/** One procedure's first actions in round 1: bars of chance by number, one colour per side. */
function smallMultiple(
  p: ProcedureOdds,
  x0: number,
  y0: number,
  w: number,
  t: Localize,
  name: string,
  percent: (v: number) => string,
  colourOf: (id: string) => string,
): string {
  const parts: string[] = [];
  parts.push(`<rect x="${n(x0)}" y="${n(y0)}" width="${n(w)}" height="262" fill="none" stroke="${GRID}"/>`);
  parts.push(text(x0 + 8, y0 + 18, name, { size: 13, weight: 'bold' }));
  // Who acts first (alone), and together: two lines at most.
  const firsts: FlowItem[] = [
    { label: t('TENSEG.Odds.Chart.ActsFirst'), fill: MUTED },
    ...p.sides.map((s) => ({ colour: colourOf(s.id), label: percent(s.first) })),
    ...(p.firstTogether > 0 ? [{ label: t('TENSEG.Odds.Chart.Together', { chance: percent(p.firstTogether) }), fill: MUTED }] : []),
  ];
  parts.push(flow(firsts, x0 + 8, y0 + 36, x0 + w - 6));

  const plotX0 = x0 + 44;
  const plotX1 = x0 + w - 10;
  const plotY0 = y0 + 64;
  const plotY1 = y0 + 194;
  const values = [...new Set(p.sides.flatMap((s) => s.firstAction.dist.map((d) => d.value)))].sort((a, b) => a - b);
  if (values.length === 0) {
    parts.push(text((plotX0 + plotX1) / 2, (plotY0 + plotY1) / 2, t('TENSEG.Odds.Chart.NobodyActed'), { size: 12, anchor: 'middle', fill: MUTED }));
  } else {
    // Whole numbers in a short range: every number on the axis; else only the ones that came.
    const lo = values[0];
    const hi = values[values.length - 1];
    const cats = values.every(Number.isInteger) && hi - lo < 12 ? Array.from({ length: hi - lo + 1 }, (_, k) => lo + k) : values;
    const top = Math.max(0.1, ...p.sides.flatMap((s) => s.firstAction.dist.map((d) => d.chance)));
    const yMax = Math.min(1, Math.ceil(top * 10) / 10);
    const yOf = (v: number) => plotY1 - (plotY1 - plotY0) * (v / yMax);
    for (const v of [0, yMax / 2, yMax]) {
      parts.push(line(plotX0, yOf(v), plotX1, yOf(v), v === 0 ? AXIS : GRID), text(plotX0 - 4, yOf(v) + 4, percent(v), { size: 10, anchor: 'end', fill: MUTED }));
    }
    const slot = (plotX1 - plotX0) / cats.length;
    const barW = (slot * 0.8) / Math.max(1, p.sides.length);
    const every = Math.ceil(cats.length / Math.max(1, Math.floor((plotX1 - plotX0) / 22)));
    cats.forEach((c, k) => {
      const sx = plotX0 + k * slot + slot * 0.1;
      p.sides.forEach((s, j) => {
        const chance = s.firstAction.dist.find((d) => d.value === c)?.chance ?? 0;
        if (chance > 0) parts.push(rect(sx + j * barW, yOf(chance), barW, plotY1 - yOf(chance), colourOf(s.id), `${s.name} · ${c}: ${percent(chance)}`));
      });
      if (k % every === 0) parts.push(text(plotX0 + (k + 0.5) * slot, plotY1 + 14, String(c), { size: 10, anchor: 'middle', fill: MUTED }));
    });
  }
  parts.push(text((plotX0 + plotX1) / 2, plotY1 + 32, t(UNIT_KEYS[p.firstActionUnit] ?? UNIT_KEYS.order), { size: 11, anchor: 'middle', fill: MUTED }));
  parts.push(
    `<text x="${n(x0 + 12)}" y="${n((plotY0 + plotY1) / 2)}" font-size="11" fill="${MUTED}" text-anchor="middle" transform="rotate(-90 ${n(x0 + 12)} ${n((plotY0 + plotY1) / 2)})">${escapeXml(t('TENSEG.Odds.Chart.Chance'))}</text>`,
  );
  // How often each side did not act in round 1.
  const nevers: FlowItem[] = [{ label: t('TENSEG.Odds.Chart.DidNotAct'), fill: MUTED }, ...p.sides.map((s) => ({ colour: colourOf(s.id), label: percent(s.firstAction.never) }))];
  parts.push(flow(nevers, x0 + 8, y0 + 246, x0 + w - 6));
  return parts.join('');
}
