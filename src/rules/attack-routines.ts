/**
 * Attack routines as written in stat blocks, parsed into structured attacks.
 *
 * Seed 001 gives the form
 *   "MELEE/MISSILE: <attack> (<damage> [<special damage>]; [AAC0 <#>]) [plus <special effects>];"
 * with the examples "MELEE: 2 claws (1d8/1d8) and bite (2d6)" and
 * "MISSILE: 2 longbow arrows (1d6/1d6)". Older blocks write the damage after
 * the name without parentheses ("2 claws 1d4/1d4 and bite 1d8") or name every
 * attack ("claw/claw/bite 1d3/1d3/1d6"); both are read too.
 *
 * "An attack routine is an attack or set of attacks that happen simultaneous
 * to each other (in the same segment)" (seed 001): everything up to a ";" (or
 * the next "MELEE:" / "MISSILE:") is one routine. Several routines in one text
 * are alternatives (e.g. a melee and a missile routine); how many routines a
 * creature uses in a round is a separate statistic.
 *
 * Choices where the text is silent (README.md, Rules notes): a routine with
 * no "MELEE:" / "MISSILE:" prefix is melee; every attack needs a damage entry;
 * "2 claws (1d4)" gives each claw 1d4; damage may be a dice formula ("2d6+1",
 * "1d6x2"), a fixed number or an old-style range ("2-8"), or "by weapon".
 */
import type { Problem } from './model';
import type { Parsed } from './hit-dice';

export type AttackMode = 'melee' | 'missile';

export interface RoutineAttack {
  /** As written: "claws", "bite", "longbow arrows". */
  name: string;
  /** How many attacks of this kind in the routine. */
  count: number;
  /** Damage of each attack (length = count). */
  damage: string[];
  /** Special damage in brackets, e.g. "poison". */
  special?: string;
}

export interface AttackRoutine {
  mode: AttackMode;
  attacks: RoutineAttack[];
  /** Total number of attacks in the routine. */
  attackCount: number;
  /** AAC0 given inside the parentheses ("AAC0 15"), as written. */
  aac0?: string;
  /** Text after "plus". */
  effects?: string;
  /** The routine's own text, trimmed. */
  text: string;
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };

/** An attack's name: letters (any script), digits, spaces, ' - + . / — and at least one letter. */
const NAME = /^(?=.*\p{L})[\p{L}\p{N} '’+.\-/]+$/u;

const DAMAGE_TERM = /^(?:\d*d\d+(?:[+-]\d+)?(?:[x×]\d+)?|\d+(?:-\d+)?|by weapon|weapon)$/i;

function problem(key: string, text: string, extra: Record<string, string | number> = {}): { ok: false; problem: Problem } {
  return { ok: false, problem: { key, data: { text, ...extra } } };
}

/** Split at a separator pattern, ignoring anything inside () or []. */
function splitTopLevel(text: string, isSeparator: (rest: string) => number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      const len = isSeparator(text.slice(i));
      if (len > 0) {
        out.push(text.slice(start, i));
        start = i + len;
        i = start - 1;
      }
    }
  }
  out.push(text.slice(start));
  return out;
}

function balanced(text: string): boolean {
  let round = 0;
  let square = 0;
  for (const ch of text) {
    if (ch === '(') round++;
    else if (ch === ')') round--;
    else if (ch === '[') square++;
    else if (ch === ']') square--;
    if (round < 0 || square < 0) return false;
  }
  return round === 0 && square === 0;
}

function normalizeDamage(term: string): string {
  return term.replace(/\s+/g, ' ').replace(/\s*([+\-x×/])\s*/g, '$1').trim();
}

/** "1d8/1d8 [poison]" → { damage: ['1d8','1d8'], special: 'poison' }, or null. */
function parseDamageSpec(spec: string): { damage: string[]; special?: string } | null {
  let text = spec.trim();
  let special: string | undefined;
  const sp = /\[([^\]]*)\]\s*$/.exec(text);
  if (sp) {
    special = sp[1].trim() || undefined;
    text = text.slice(0, sp.index).trim();
  }
  if (text === '') return null;
  const terms = text.split('/').map((t) => normalizeDamage(t));
  if (terms.some((t) => !DAMAGE_TERM.test(t))) return null;
  return special ? { damage: terms, special } : { damage: terms };
}

interface RawPart {
  names: string[];
  count: number;
  damage: string[];
  special?: string;
  aac0?: string;
}

function parsePart(part: string, whole: string): Parsed<RawPart> {
  let text = part.trim();
  if (text === '') return problem('AttackRoutineUnparseable', whole);
  let count = 1;
  const countMatch = /^(\d+|one|two|three|four|five|six|seven|eight)\s+/i.exec(text);
  if (countMatch) {
    const word = countMatch[1].toLowerCase();
    count = NUMBER_WORDS[word] ?? Number(word);
    text = text.slice(countMatch[0].length);
  }
  if (!Number.isInteger(count) || count < 1 || count > 20) return problem('AttackRoutineUnparseable', whole);

  let name: string;
  let damageSpec: { damage: string[]; special?: string } | null;
  let aac0: string | undefined;
  const paren = /^(.*?)\s*\(([^()]*)\)$/.exec(text);
  if (paren) {
    name = paren[1].trim();
    const inside = paren[2].split(';').map((s) => s.trim());
    damageSpec = parseDamageSpec(inside[0]);
    for (const extra of inside.slice(1)) {
      if (extra === '') continue;
      const a = /^AAC0\s*(\d{1,2}\**)$/i.exec(extra);
      if (!a) return problem('AttackRoutineUnparseable', whole);
      aac0 = a[1];
    }
  } else if (/\s+by weapon$/i.test(text)) {
    name = text.replace(/\s+by weapon$/i, '').trim();
    damageSpec = { damage: ['by weapon'] };
  } else {
    // Trailing damage without parentheses: "claws 1d4/1d4", "bite 1d8 [poison]".
    const m = /^(.*?)\s+((?:\S+\s*\/\s*)*\S+(?:\s*\[[^\]]*\])?)$/.exec(text);
    if (!m) return problem('AttackRoutineNoDamage', whole, { attack: text });
    name = m[1].trim();
    damageSpec = parseDamageSpec(m[2]);
  }
  if (!NAME.test(name)) return problem('AttackRoutineUnparseable', whole);
  if (!damageSpec) return problem('AttackRoutineNoDamage', whole, { attack: name });
  const names = name.split('/').map((n) => n.trim());
  if (names.some((n) => n === '')) return problem('AttackRoutineUnparseable', whole);
  const raw: RawPart = { names, count, damage: damageSpec.damage };
  if (damageSpec.special) raw.special = damageSpec.special;
  if (aac0) raw.aac0 = aac0;
  return { ok: true, value: raw };
}

function expand(raw: RawPart, whole: string): Parsed<RoutineAttack[]> {
  const mismatch = () =>
    problem('AttackRoutineCountMismatch', whole, { attack: raw.names.join('/'), attacks: raw.count * raw.names.length, damage: raw.damage.length });
  if (raw.names.length > 1) {
    // "claw/claw/bite 1d3/1d3/1d6": one attack per name.
    if (raw.count !== 1) return mismatch();
    if (raw.damage.length !== raw.names.length && raw.damage.length !== 1) return mismatch();
    const out: RoutineAttack[] = [];
    raw.names.forEach((name, i) => {
      const dmg = raw.damage.length === 1 ? raw.damage[0] : raw.damage[i];
      const last = out[out.length - 1];
      if (last && last.name === name && last.special === raw.special) {
        last.count++;
        last.damage.push(dmg);
      } else {
        const a: RoutineAttack = { name, count: 1, damage: [dmg] };
        if (raw.special) a.special = raw.special;
        out.push(a);
      }
    });
    return { ok: true, value: out };
  }
  let damage: string[];
  if (raw.damage.length === raw.count) damage = raw.damage;
  else if (raw.damage.length === 1) damage = Array.from({ length: raw.count }, () => raw.damage[0]);
  else return mismatch();
  const a: RoutineAttack = { name: raw.names[0], count: raw.count, damage };
  if (raw.special) a.special = raw.special;
  return { ok: true, value: [a] };
}

/** Parse one routine ("MELEE: 2 claws (1d8/1d8) and bite (2d6) plus poison"). */
export function parseAttackRoutine(input: string): Parsed<AttackRoutine> {
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '' || !balanced(text)) return problem('AttackRoutineUnparseable', input.trim());
  let mode: AttackMode = 'melee';
  let body = text;
  const prefix = /^(MELEE|MISSILE)\s*:\s*/i.exec(body);
  if (prefix) {
    mode = prefix[1].toLowerCase() as AttackMode;
    body = body.slice(prefix[0].length);
  }
  let effects: string | undefined;
  const plusParts = splitTopLevel(body, (rest) => {
    const m = /^\s+plus\s+/i.exec(rest);
    return m ? m[0].length : 0;
  });
  if (plusParts.length > 1) {
    body = plusParts[0];
    effects = plusParts.slice(1).join(' plus ').trim() || undefined;
  }
  const parts = splitTopLevel(body, (rest) => {
    const m = /^(?:\s+and\s+|\s*,\s*(?:and\s+)?|\s*&\s*)/i.exec(rest);
    return m ? m[0].length : 0;
  });
  const attacks: RoutineAttack[] = [];
  let aac0: string | undefined;
  for (const part of parts) {
    const raw = parsePart(part, text);
    if (!raw.ok) return raw;
    if (raw.value.aac0) aac0 = raw.value.aac0;
    const expanded = expand(raw.value, text);
    if (!expanded.ok) return expanded;
    attacks.push(...expanded.value);
  }
  const routine: AttackRoutine = {
    mode,
    attacks,
    attackCount: attacks.reduce((n, a) => n + a.count, 0),
    text,
  };
  if (aac0) routine.aac0 = aac0;
  if (effects) routine.effects = effects;
  return { ok: true, value: routine };
}

/**
 * Parse a stat block's attack text into its routines: separated by ";", a
 * line break, or a new "MELEE:" / "MISSILE:" label. Empty text has none.
 */
export function parseAttackRoutines(input: unknown): Parsed<AttackRoutine[]> {
  if (typeof input !== 'string') return problem('AttackRoutineUnparseable', String(input));
  if (!balanced(input)) return problem('AttackRoutineUnparseable', input.trim());
  const chunks = splitTopLevel(input, (rest) => {
    if (rest[0] === ';' || rest[0] === '\n') return 1;
    return 0;
  }).flatMap((chunk) =>
    // A second label inside a chunk starts a new routine.
    splitTopLevel(chunk, (rest) => (/^\s+(?=(?:MELEE|MISSILE)\s*:)/i.exec(rest)?.[0].length ?? 0)),
  );
  const routines: AttackRoutine[] = [];
  for (const chunk of chunks) {
    if (chunk.trim() === '') continue;
    const r = parseAttackRoutine(chunk);
    if (!r.ok) return r;
    routines.push(r.value);
  }
  return { ok: true, value: routines };
}

/** The most attacks any routine of the text makes (0 when there are none or it is unparseable). */
export function maxAttacksPerRoutine(input: string): number {
  const r = parseAttackRoutines(input);
  if (!r.ok) return 0;
  return r.value.reduce((n, x) => Math.max(n, x.attackCount), 0);
}
