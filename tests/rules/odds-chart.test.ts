/**
 * Odds (issue 14): the chart (chart.ts) is one standalone, well-formed SVG
 * document, readable on its own: a title and the run's figures, the three
 * panels with their axis labels and legends, every word from lang/, every
 * name escaped, nothing undefined or NaN.
 *
 * ODDS_SAMPLE=/tmp/odds-sample.svg npx vitest run tests/rules/odds-chart.test.ts
 * writes the chart of the realistic report below, to look at.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RandomDice } from '../../src/rules/dice';
import { PROCEDURE_IDS, type ProcedureId } from '../../src/rules/model';
import { escapeXml, oddsChart } from '../../src/rules/odds/chart';
import { oddsReport } from '../../src/rules/odds/report';
import { addTrial, newTally } from '../../src/rules/odds/tally';
import type { FirstActionUnit, Localize, OddsReport, OddsSetup, TrialResult } from '../../src/rules/odds/types';

const en: Record<string, string> = JSON.parse(readFileSync('lang/en.json', 'utf8'));
const de: Record<string, string> = JSON.parse(readFileSync('lang/de.json', 'utf8'));

/** Foundry's i18n.format over a lang file; a missing key comes back as itself (and fails the checks below). */
function localizer(lang: Record<string, string>): Localize {
  return (key, data = {}) => (lang[key] ?? key).replace(/\{(\w+)\}/g, (m, k: string) => (k in data ? String(data[k]) : m));
}
const t = localizer(en);

/* ------------------------------------------------------------------ kit */

const UNIT: Record<ProcedureId, FirstActionUnit> = {
  'segment-d6': 'segment',
  'high-low': 'order',
  'd12-ascending': 'order',
  'individual-speed': 'count',
  addict: 'order',
};

function setupOf(procedure: ProcedureId, names: { a: string; b: string; c: string; spell: string; mu: string }, title?: string): OddsSetup {
  return {
    ...(title ? { title } : {}),
    procedure,
    options: {},
    encounter: {
      sides: [
        { id: 'pcs', name: names.a },
        { id: 'orcs', name: names.b },
        { id: 'wolves', name: names.c },
      ],
      combatants: [
        { id: 'mu', name: names.mu, side: 'pcs', hp: 4 },
        { id: 'ftr', name: 'Brunhild', side: 'pcs', hp: 9 },
        ...[1, 2, 3, 4].map((i) => ({ id: `o${i}`, name: `Orc ${i}`, side: 'orcs', hp: 5 })),
        { id: 'w1', name: 'Wolf', side: 'wolves', hp: 7 },
      ],
    },
    declarations: [
      {
        mu: { combatant: 'mu', action: 'spell', spell: names.spell, castingTime: 1 },
        ftr: { combatant: 'ftr', action: 'melee', target: 'o1' },
      },
      { mu: { combatant: 'mu', action: 'spell', spell: 'Magic Missile', castingTime: 1 } },
    ],
    fighters: {},
    spells: {},
    maxRounds: 10,
  };
}

/** A realistic report: rolled stand-in results, different per procedure, through the real tally and report. */
function realistic(opts: { trials?: number; complete?: boolean; names?: Parameters<typeof setupOf>[1]; procedures?: readonly ProcedureId[]; spells?: boolean; title?: string } = {}): OddsReport {
  const names = opts.names ?? { a: 'The party', b: 'Orcs', c: 'Wolves', spell: 'Sleep', mu: 'Mordo' };
  const trials = opts.trials ?? 2000;
  const procedures = opts.procedures ?? PROCEDURE_IDS;
  const setups = procedures.map((p) => setupOf(p, names, opts.title ?? 'Will Mordo get Sleep off against four orcs?'));
  const tallies = procedures.map((p, pi) => {
    const dice = new RandomDice(1000 + pi);
    const d = (faces: number) => dice.roll({ purpose: 'other', count: 1, faces });
    const tally = newTally(p);
    for (let i = 0; i < trials; i++) {
      const win = d(100);
      const pcsWin = 35 + pi * 8;
      const unit = UNIT[p];
      const first = (): number => (unit === 'segment' ? d(6) + (d(2) - 1) * 2 : unit === 'count' ? d(12) + d(6) : d(3));
      const sideFirst: Record<string, number> = {};
      const firstAction: Record<string, number> = {};
      for (const c of ['mu', 'ftr', 'o1', 'o2', 'o3', 'o4', 'w1']) {
        if (d(10) === 1) continue;
        const v = first();
        firstAction[c] = v;
        const side = c.startsWith('o') ? 'orcs' : c.startsWith('w') ? 'wolves' : 'pcs';
        sideFirst[side] = Math.min(sideFirst[side] ?? 99, v);
      }
      const earliest = Math.min(...Object.values(sideFirst));
      const firsts = Object.keys(sideFirst).filter((s) => sideFirst[s] === earliest);
      const o = d(100);
      const result: TrialResult = {
        winner: win <= pcsWin ? 'pcs' : win <= 85 ? 'orcs' : win <= 93 ? 'wolves' : win <= 97 ? null : null,
        undecided: win > 93 && win <= 97,
        rounds: Math.min(10, d(4) + d(4) - 1 + (p === 'individual-speed' ? d(3) : 0)),
        surprised: { pcs: d(6) <= 2 ? (UNIT[p] === 'segment' || p === 'addict' ? d(2) : 1) : 0, orcs: d(6) === 1 ? 1 : 0, wolves: 0 },
        first: firsts.length === 0 ? null : firsts.length > 1 ? '' : firsts[0],
        firstAction,
        sideFirstAction: sideFirst,
        castings:
          opts.spells === false
            ? []
            : [
                { caster: 'mu', spell: names.spell, outcome: o <= 40 + pi * 10 ? 'off' : o <= 80 ? 'interrupted' : o <= 92 ? 'prevented' : 'not-cast' },
                { caster: 'mu', spell: 'Magic Missile', outcome: o % 3 === 0 ? 'off' : 'not-cast' },
              ],
      };
      addTrial(tally, result);
    }
    return tally;
  });
  return oddsReport(setups, tallies, { seed: 20240601, trials: opts.trials ?? 2000, maxRounds: 10, complete: opts.complete ?? true }, (p) => UNIT[p]);
}

/**
 * A strict enough XML check: one declaration, then one root element; every
 * tag closed in order; attributes quoted with no raw < or &; text with no raw
 * < and every & an entity. Returns the problems found (none: well-formed).
 */
function xmlProblems(doc: string): string[] {
  const problems: string[] = [];
  let body = doc;
  if (body.startsWith('<?xml')) body = body.slice(body.indexOf('?>') + 2);
  const stack: string[] = [];
  let roots = 0;
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
  const checkText = (text: string, where: number) => {
    for (let i = 0; i < text.length; i++) {
      if (text[i] === '<') problems.push(`raw < at ${where + i}`);
      if (text[i] === '&') {
        entity.lastIndex = i;
        if (!entity.test(text)) problems.push(`raw & at ${where + i}`);
      }
    }
  };
  let at = 0;
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  while (at < body.length) {
    const open = body.indexOf('<', at);
    const text = body.slice(at, open < 0 ? body.length : open);
    if (stack.length === 0 && text.trim()) problems.push(`text outside the root: ${text.trim().slice(0, 20)}`);
    checkText(text, at);
    if (open < 0) break;
    tag.lastIndex = open;
    const m = tag.exec(body);
    if (!m) {
      problems.push(`bad tag at ${open}: ${body.slice(open, open + 40)}`);
      break;
    }
    const [, closing, name, attrs, selfClosing] = m;
    for (const a of attrs.matchAll(/="([^"]*)"/g)) checkText(a[1], open);
    const names = [...attrs.matchAll(/([\w:-]+)="/g)].map((x) => x[1]);
    if (new Set(names).size !== names.length) problems.push(`repeated attribute in <${name}>`);
    if (closing) {
      const top = stack.pop();
      if (top !== name) problems.push(`</${name}> closes <${top}>`);
    } else {
      if (stack.length === 0) roots += 1;
      if (!selfClosing) stack.push(name);
    }
    at = open + m[0].length;
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(' ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

/** The document's text content (what a reader sees), entities undone. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&'),
  );
}

/* ---------------------------------------------------------------- tests */

describe('the checker itself', () => {
  it('finds what is not well-formed', () => {
    expect(xmlProblems('<svg><g></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg><text>a < b</text></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg><text>R&D</text></svg>')).not.toEqual([]);
    expect(xmlProblems('<svg a="1" a="2"/>')).not.toEqual([]);
    expect(xmlProblems('<svg/><svg/>')).not.toEqual([]);
    expect(xmlProblems('<?xml version="1.0"?>\n<svg x="&amp;"><text>&lt;ok&gt; &#38;</text></svg>\n')).toEqual([]);
  });
});

describe('oddsChart', () => {
  const report = realistic();
  const svg = oddsChart(report, t);
  if (process.env.ODDS_SAMPLE) writeFileSync(process.env.ODDS_SAMPLE, svg);

  it('is one well-formed standalone SVG document with a size, a viewBox and a title', () => {
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1000" height="\d+" viewBox="0 0 1000 \d+" font-family="sans-serif">\n<title>Odds: Will Mordo get Sleep off against four orcs\?<\/title>/);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });

  it('stays small (5 procedures × 3 sides under 60 KB)', () => {
    expect(svg.length).toBeLessThan(60_000);
  });

  it('says the run: trials, seed and round cap, and not "stopped early" when complete', () => {
    const words = texts(svg);
    expect(words).toContain('2000 trials per procedure · seed 20240601 · undecided after 10 rounds');
    expect(words.some((w) => w.startsWith('Stopped early'))).toBe(false);
  });

  it('has the panels, their axis labels and the percent scale', () => {
    const words = texts(svg);
    for (const key of ['WinHeading', 'WinAxis', 'SpellHeading', 'SpellAxis', 'FirstHeading', 'Chance']) expect(words, key).toContain(en[`TENSEG.Odds.Chart.${key}`]);
    for (const v of [0, 20, 40, 60, 80, 100]) expect(words).toContain(`${v} %`);
    // Each procedure's x axis in its unit.
    for (const unit of ['segment', 'count', 'order']) expect(words).toContain(en[`TENSEG.Odds.Report.Unit.${unit}`]);
  });

  it('names every procedure, every side in a legend, undecided, and every casting outcome', () => {
    const words = texts(svg);
    for (const p of PROCEDURE_IDS) expect(words).toContain(en[`TENSEG.Odds.Report.Procedure.${p}`]);
    for (const side of ['The party', 'Orcs', 'Wolves']) expect(words.filter((w) => w === side).length, side).toBeGreaterThanOrEqual(2);
    expect(words).toContain('Undecided after 10 rounds');
    for (const o of ['off', 'interrupted', 'prevented', 'not-cast']) expect(words).toContain(en[`TENSEG.Odds.Report.Outcome.${o}`]);
    expect(words).toContain('Mordo: Sleep');
    expect(words).toContain('Mordo: Magic Missile');
  });

  it('gives one colour per side (Okabe–Ito), the same in every panel', () => {
    expect(svg).toContain('fill="#0072B2"');
    expect(svg).toContain('fill="#D55E00"');
    expect(svg).toContain('fill="#009E73"');
  });

  it('has no NaN, undefined, null, Infinity or untranslated key anywhere', () => {
    expect(svg).not.toMatch(/NaN|undefined|null|Infinity|TENSEG\./);
  });

  it('fills every text and writes percentages plainly ("62 %")', () => {
    for (const m of svg.matchAll(/<text [^>]*>/g)) expect(m[0]).toMatch(/ fill="#[0-9a-fA-F]{6}"/);
    for (const w of texts(svg).filter((x) => x.includes('%'))) expect(w).toMatch(/(<1|>99|\d{1,3}) %/);
  });

  it('escapes <&>"\' in the title, side names, caster and spell names', () => {
    const nasty = realistic({
      trials: 50,
      title: 'Tom & Jerry\'s <fight> "now"',
      names: { a: 'A & B <C>', b: 'O\'Brien "the" orc', c: '<wolves>', spell: 'Bigby\'s <Hand> & "Fist"', mu: 'Mordo & <Co>' },
    });
    const out = oddsChart(nasty, t);
    expect(xmlProblems(out)).toEqual([]);
    expect(out).toContain('Tom &amp; Jerry&apos;s &lt;fight&gt; &quot;now&quot;');
    const words = texts(out);
    for (const name of ['A & B <C>', 'O\'Brien "the" orc', '<wolves>', 'Mordo & <Co>: Bigby\'s <Hand> & "Fist"']) expect(words, name).toContain(name);
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
  });

  it('says "stopped early" with the trials played when the run was stopped', () => {
    const stopped = oddsChart({ ...realistic({ trials: 300 }), trials: 1000, complete: false }, t);
    expect(xmlProblems(stopped)).toEqual([]);
    const words = texts(stopped);
    expect(words).toContain('Stopped early: the figures are of the 300 trials played per procedure');
    expect(words).toContain('300 trials played');
  });

  it('gives the range of trials played when the procedures stopped at different counts', () => {
    const r = realistic({ trials: 100, procedures: ['segment-d6', 'addict'] });
    r.procedures[1] = { ...r.procedures[1], trials: 80 };
    expect(texts(oddsChart({ ...r, complete: false }, t))).toContain('Stopped early: the figures are of the 80–100 trials played per procedure');
  });

  it('says "no spells declared" when there are no castings', () => {
    const out = oddsChart(realistic({ trials: 100, spells: false }), t);
    expect(xmlProblems(out)).toEqual([]);
    expect(texts(out)).toContain('No spells declared.');
    expect(texts(out)).not.toContain(en['TENSEG.Odds.Report.Outcome.off']);
  });

  it('draws a report with no trials, no castings and nobody acting without a NaN', () => {
    const empty = oddsReport([setupOf('high-low', { a: 'A', b: 'B', c: 'C', spell: 'S', mu: 'M' }, 'Empty')], [newTally('high-low')], { seed: 1, trials: 0, maxRounds: 10, complete: false }, () => 'order');
    const out = oddsChart(empty, t);
    expect(xmlProblems(out)).toEqual([]);
    expect(out).not.toMatch(/NaN|undefined|Infinity/);
    expect(texts(out)).toContain('Nobody acted in round 1');
    expect(texts(out)).toContain('Odds: Empty');
  });

  it('without a title says "Odds of the fight", and lists a side no longer standing when any trial ended so', () => {
    const r = realistic({ trials: 200, procedures: ['segment-d6'] });
    const out = oddsChart({ ...r, title: undefined, procedures: [{ ...r.procedures[0], noneStanding: 0.02 }] }, t);
    expect(texts(out)).toContain('Odds of the fight');
    expect(texts(out)).toContain('No side left standing');
    expect(texts(out)).toContain('2 %');
  });

  it('shows tiny and near-certain chances as <1 % and >99 %', () => {
    const r = realistic({ trials: 200, procedures: ['high-low'] });
    const sides = r.procedures[0].sides.map((s, i) => ({ ...s, win: i === 0 ? 0.996 : 0.001 }));
    const words = texts(oddsChart({ ...r, procedures: [{ ...r.procedures[0], sides }] }, t));
    expect(words).toContain('>99 %');
    expect(words).toContain('<1 %');
  });

  it('labels a wide spread of initiative counts by only the values that came', () => {
    const r = realistic({ trials: 200, procedures: ['individual-speed'] });
    const sides = r.procedures[0].sides.map((s) => ({ ...s, firstAction: { dist: [{ value: 1, chance: 0.5 }, { value: 40, chance: 0.5 }], mean: 20.5, never: 0 } }));
    const out = oddsChart({ ...r, procedures: [{ ...r.procedures[0], sides }] }, t);
    expect(xmlProblems(out)).toEqual([]);
    expect(texts(out)).toContain('40');
    expect(texts(out)).not.toContain('20');
  });

  it('reads in German with the German words', () => {
    const out = oddsChart(report, localizer(de));
    expect(xmlProblems(out)).toEqual([]);
    expect(texts(out)).toContain(de['TENSEG.Odds.Chart.WinHeading']);
    expect(texts(out)).toContain('Segmente per W6');
    expect(out).not.toMatch(/TENSEG\./);
  });
});
