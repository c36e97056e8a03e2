/**
 * The shape of every request a client may send the GM, checked before any
 * work. A request comes from the socket as parsed JSON and may be hostile:
 *
 *  1. bounds first, by a walk that stops at the first excess (never a
 *     recursive call, never a copy): at most MAX_DEPTH levels, MAX_NODES
 *     values and MAX_TEXT characters of text in all;
 *  2. then the schema of its kind: known keys only (own properties), each of
 *     its type and within its range; an unknown key or a wrong value is
 *     refused, never ignored, so a request is never taken for another.
 *
 * A refusal names the field by its path in the schema (or, for an unknown
 * key, by at most 40 characters of it, control characters escaped) and never
 * echoes a value back.
 */
import type { Problem } from '../rules/model';
import { ACTION_KINDS, DAMAGE_TYPES } from '../rules/model';
import { BREAK_CAUSES } from '../rules/flow/state';
import { DISTANCE_MAX, INJURY_TEXT_MAX, REACTION_MAX } from '../rules/flow/limits';
import { MORALE_METHODS } from '../rules/procedure';
import { LIMITS } from '../data/shapes';
import type { DeclarationRequest } from './declarations';
import { messageModes } from './compat-writes';

export const MAX_DEPTH = 6;
export const MAX_NODES = 200;
export const MAX_TEXT = 4_000;

type Spec =
  | { t: 'id' }
  | { t: 'text'; max: number }
  | { t: 'bool' }
  | { t: 'int'; min: number; max: number }
  | { t: 'num'; min: number; max: number }
  | { t: 'enum'; values: readonly string[] }
  /** A chat message mode of the running generation (compat.ts messageModes). */
  | { t: 'mode' }
  | { t: 'object'; fields: Record<string, Field> }
  /** An object keyed by document ids (at most `max` of them), each value of `value`'s shape. */
  | { t: 'record'; max: number; value: Spec };

interface Field {
  spec: Spec;
  optional?: boolean;
}

const req = (spec: Spec): Field => ({ spec });
const opt = (spec: Spec): Field => ({ spec, optional: true });
const ID: Spec = { t: 'id' };

/** Foundry ids are 16 alphanumerics; request ids are made by clients (requests.ts). */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The combat controls a GM may ask the active GM for (another GM's buttons go through the same queue as players' requests). */
/** A side's surprise as the GM sets it before the combat starts: it rolls, is alerted (no roll), or is surprised by the GM's ruling. */
export const SURPRISE_STANCES = ['roll', 'alerted', 'surprised'] as const;
export type SurpriseStance = (typeof SURPRISE_STANCES)[number];

export const COMBAT_ACTIONS_REQUESTED = ['nextTurn', 'previousTurn', 'nextRound', 'previousRound', 'rollInitiative', 'undoInterruption', 'startCombat', 'moveToSide', 'morale'] as const;
export type RequestedCombatAction = (typeof COMBAT_ACTIONS_REQUESTED)[number];

/**
 * The mid-round actions a client may ask the active GM for, one name each:
 * who may ask for it and the flow input it becomes are its entry in
 * src/documents/handlers/midround.ts (MID_ROUND). A new mid-round action is a name
 * here and an entry there (with the fields it needs below, if new).
 */
export const MID_ROUND_ACTIONS = ['delay', 'release', 'cancel', 'break', 'choose', 'reaction', 'distance', 'staunch', 'heal', 'injury', 'retarget', 'stop'] as const;
export type MidRoundActionName = (typeof MID_ROUND_ACTIONS)[number];

/**
 * The numbers a declaration takes from items, stats and the map, which only
 * the GM may set otherwise (a missile bonus is the actor's, changed on its sheet).
 */
export const OVERRIDE_SPEC: Spec = {
  t: 'object',
  fields: {
    castingTime: opt({ t: 'int', min: 1, max: LIMITS.castingSegments.max }),
    speed: opt({ t: 'int', min: -LIMITS.castingTN.max, max: LIMITS.castingTN.max }),
    routines: opt({ t: 'int', min: 0, max: LIMITS.routines.max }),
    hesitation: opt({ t: 'int', min: 0, max: LIMITS.castingSegments.max }),
    hesitationSeconds: opt({ t: 'num', min: 0, max: LIMITS.castingSegments.max * 6 + 5 }),
    distance: opt({ t: 'num', min: 0, max: LIMITS.rangeFeet.max }),
    weaponSpeed: opt({ t: 'int', min: LIMITS.weaponSpeed.min, max: LIMITS.weaponSpeed.max }),
    length: opt({ t: 'num', min: LIMITS.reach.min, max: LIMITS.reach.max }),
    space: opt({ t: 'num', min: LIMITS.reach.min, max: LIMITS.reach.max }),
    dexterityReaction: opt({ t: 'bool' }),
  },
};

export const DECLARATION_SPEC: Spec = {
  t: 'object',
  fields: {
    action: req({ t: 'enum', values: ACTION_KINDS }),
    target: opt(ID),
    weapon: opt(ID),
    spell: opt(ID),
    spellName: opt({ t: 'text', max: 200 }),
    readied: opt({ t: 'bool' }),
    delayed: opt({ t: 'bool' }),
    goFirst: opt({ t: 'bool' }),
    delaying: opt({ t: 'bool' }),
    innate: opt({ t: 'bool' }),
    minorActions: opt({ t: 'int', min: 0, max: 10 }),
    releaseAt: opt({ t: 'int', min: 1, max: 10 }),
    note: opt({ t: 'text', max: 500 }),
    override: opt(OVERRIDE_SPEC),
  },
};

export const REQUEST_SPECS = {
  declare: { t: 'object', fields: { combatId: req(ID), combatantId: req(ID), declaration: req(DECLARATION_SPEC) } },
  /** The GM's group declaration (issue 29): member ids comma-separated (one value, however many), each at its nearest foe if asked. */
  declareGroup: { t: 'object', fields: { combatId: req(ID), members: req({ t: 'text', max: MAX_TEXT }), declaration: req(DECLARATION_SPEC), nearest: opt({ t: 'bool' }) } },
  withdraw: { t: 'object', fields: { combatId: req(ID), combatantId: req(ID) } },
  attack: {
    t: 'object',
    fields: {
      combatId: req(ID),
      attackerId: req(ID),
      targetId: req(ID),
      weaponId: opt(ID),
      routine: opt({ t: 'int', min: 0, max: LIMITS.routines.max }),
      attack: opt({ t: 'int', min: 0, max: 100 }),
      /** The requesting user's message mode for the card. */
      mode: opt({ t: 'mode' }),
      /** individual-speed: the damage type the attacker chooses among its weapon's (seed 003). */
      damageType: opt({ t: 'enum', values: DAMAGE_TYPES }),
    },
  },
  combat: {
    t: 'object',
    fields: {
      combatId: req(ID),
      action: req({ t: 'enum', values: COMBAT_ACTIONS_REQUESTED }),
      /** A casting's id: its caster's id, @, a round (flow castingAt). */
      castingId: opt({ t: 'text', max: 100 }),
      /** undoInterruption pressed on a chat card: that card's message id (checked: a GM's card the log bears out, card-flags.ts). */
      card: opt(ID),
      combatantId: opt(ID),
      groupId: opt(ID),
      trigger: opt({ t: 'text', max: 80 }),
      opposed: opt({ t: 'int', min: -100, max: 100 }),
      /** morale: how the GM checks it where the text gives no method (d12-ascending), the score, the GM's own result. */
      method: opt({ t: 'enum', values: MORALE_METHODS }),
      score: opt({ t: 'int', min: -100, max: 1000 }),
      passed: opt({ t: 'bool' }),
      /** morale: should the check fail, the combatant surrenders (d12-ascending, seed 002). */
      surrender: opt({ t: 'bool' }),
      /** startCombat: the surprise card for the GMs only. */
      surpriseGMOnly: opt({ t: 'bool' }),
      /** startCombat: each side's surprise as the GM set it in the surprise dialog, by group id (written as the combat starts). */
      surpriseSides: opt({
        t: 'record',
        max: 32,
        value: {
          t: 'object',
          fields: {
            stance: req({ t: 'enum', values: SURPRISE_STANCES }),
            modifier: req({ t: 'int', min: LIMITS.surpriseAdjust.min, max: LIMITS.surpriseAdjust.max }),
          },
        },
      }),
      /** rollInitiative: dice rolled at the table by hand, by who rolled them (a side's id, or a combatant's where the procedure rolls for each). */
      dice: opt({ t: 'record', max: 100, value: { t: 'int', min: 1, max: 1000 } }),
    },
  },
  midround: {
    t: 'object',
    fields: {
      combatId: req(ID),
      action: req({ t: 'enum', values: MID_ROUND_ACTIONS }),
      /** The combatant it is for (delay, release; cancel, break: every casting of it under way). */
      combatantId: opt(ID),
      /** cancel, break: one casting by its id. */
      castingId: opt({ t: 'text', max: 100 }),
      /** release: what the held or prepared action becomes, asked for as a declaration is (items by id). */
      declaration: opt(DECLARATION_SPEC),
      /** break: why (a failed save, movement or action impeded, jostled, other). */
      why: opt({ t: 'enum', values: BREAK_CAUSES }),
      /** choose (d12-ascending II.C): the spell item chosen at the caster's turn, or `none: true`. */
      spell: opt(ID),
      none: opt({ t: 'bool' }),
      /** retarget (rules revision 5): an attacker whose target fell turns to this combatant, or holds (`hold: true`), or does nothing (`none: true`). */
      targetId: opt(ID),
      hold: opt({ t: 'bool' }),
      /** reaction (addict phase 1): the side (CombatantGroup), the result in the GM's words, the roll if any, hidden from players. */
      groupId: opt(ID),
      result: opt({ t: 'text', max: REACTION_MAX }),
      roll: opt({ t: 'int', min: -1000, max: 1000 }),
      secret: opt({ t: 'bool' }),
      /** distance (addict phase 3): the encounter distance in feet. */
      feet: opt({ t: 'num', min: 0, max: DISTANCE_MAX }),
      /** heal (individual-speed): the Heal check's total. */
      total: opt({ t: 'int', min: -1000, max: 1000 }),
      /** stop (segment-d6, addict): the segment the GM stops at, where nothing is scheduled. */
      segment: opt({ t: 'int', min: 1, max: 10 }),
      /** injury (individual-speed): the Combat Injury the GM enters — its table, a row of it, the arm or hand, or words of their own. */
      damageType: opt({ t: 'enum', values: DAMAGE_TYPES }),
      row: opt({ t: 'int', min: 1, max: 100 }),
      side: opt({ t: 'enum', values: ['main', 'off'] }),
      text: opt({ t: 'text', max: INJURY_TEXT_MAX }),
    },
  },
  /** A GM's Accept or Put back on a health card (health-card.ts): the card by its message id. */
  health: { t: 'object', fields: { messageId: req(ID), accept: req({ t: 'bool' }) } },
} as const satisfies Record<string, Spec>;

export type RequestKind = keyof typeof REQUEST_SPECS;
export const REQUEST_KINDS = Object.keys(REQUEST_SPECS) as RequestKind[];

/** The envelope every request travels in. */
export const ENVELOPE_SPEC: Spec = {
  t: 'object',
  fields: {
    k: req({ t: 'enum', values: ['req'] }),
    id: req(ID),
    kind: req({ t: 'enum', values: REQUEST_KINDS }),
    body: req({ t: 'object', fields: {} }),
  },
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** At most 40 characters of a key, control characters escaped: a refusal can name a key without carrying it back. */
export function shortName(key: string): string {
  const cut = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Null when `data` is within the bounds, else why not. Iterative: a deep payload cannot exhaust the stack. */
export function boundsProblem(data: unknown): Problem | null {
  const stack: [unknown, number][] = [[data, 1]];
  let nodes = 0;
  let text = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (++nodes > MAX_NODES) return { key: 'RequestTooLarge', data: { limit: MAX_NODES } };
    if (depth > MAX_DEPTH) return { key: 'RequestTooDeep', data: { limit: MAX_DEPTH } };
    if (typeof value === 'string') {
      text += value.length;
      if (text > MAX_TEXT) return { key: 'RequestTooLarge', data: { limit: MAX_NODES } };
    } else if (typeof value === 'object' && value !== null) {
      // Keys count as values and as text: 200,000 keys stop at the 200th.
      let keys = 0;
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        if (++keys + nodes > MAX_NODES) return { key: 'RequestTooLarge', data: { limit: MAX_NODES } };
        text += key.length;
        if (text > MAX_TEXT) return { key: 'RequestTooLarge', data: { limit: MAX_NODES } };
        stack.push([(value as Record<string, unknown>)[key], depth + 1]);
      }
    }
  }
  return null;
}

function valueProblem(spec: Spec, value: unknown, path: string): Problem | null {
  const invalid: Problem = { key: 'RequestFieldInvalid', data: { field: path } };
  switch (spec.t) {
    case 'id':
      return typeof value === 'string' && ID_PATTERN.test(value) ? null : invalid;
    case 'text':
      return typeof value === 'string' && value.length <= spec.max ? null : invalid;
    case 'bool':
      return typeof value === 'boolean' ? null : invalid;
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= spec.min && value <= spec.max ? null : invalid;
    case 'num':
      return typeof value === 'number' && Number.isFinite(value) && value >= spec.min && value <= spec.max ? null : invalid;
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? null : invalid;
    case 'mode': {
      const modes = messageModes();
      return typeof value === 'string' && modes.includes(value) ? null : { key: 'RequestModeInvalid', data: { field: path, modes: modes.join(', ') } };
    }
    case 'record': {
      if (!isPlainObject(value)) return invalid;
      const keys = Object.keys(value);
      if (keys.length > spec.max) return invalid;
      for (const key of keys) {
        if (!ID_PATTERN.test(key)) return { key: 'RequestFieldInvalid', data: { field: path ? `${path}.${shortName(key)}` : shortName(key) } };
        const problem = valueProblem(spec.value, value[key], path ? `${path}.${key}` : key);
        if (problem) return problem;
      }
      return null;
    }
    case 'object': {
      if (!isPlainObject(value)) return invalid;
      for (const key of Object.keys(value)) {
        if (!Object.prototype.hasOwnProperty.call(spec.fields, key)) return { key: 'RequestUnknownField', data: { field: path ? `${path}.${shortName(key)}` : shortName(key) } };
      }
      for (const [key, field] of Object.entries(spec.fields)) {
        const v = Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
        const at = path ? `${path}.${key}` : key;
        // Absent, null or "" (a form's empty field) all mean "not given".
        if (v === undefined || v === null || (v === '' && field.optional)) {
          if (field.optional) continue;
          return { key: 'RequestFieldMissing', data: { field: at } };
        }
        const problem = valueProblem(field.spec, v, at);
        if (problem) return problem;
      }
      return null;
    }
  }
}

/** Null when the envelope is well formed (its body is checked by kind, requestProblem). */
export function envelopeProblem(data: unknown): Problem | null {
  const bounds = boundsProblem(data);
  if (bounds) return bounds;
  if (!isPlainObject(data)) return { key: 'MalformedRequest' };
  // The body is an object of any keys here: its own schema follows.
  const { body, ...rest } = data;
  const problem = valueProblem(ENVELOPE_SPEC, { ...rest, body: isPlainObject(body) ? {} : body }, '');
  return problem;
}

/** Null when `body` is a well-formed request of `kind`: within bounds, known keys, values in range. */
export function requestProblem(kind: RequestKind, body: unknown): Problem | null {
  return boundsProblem(body) ?? valueProblem(REQUEST_SPECS[kind], body, '');
}

/** A value the declaration schema passed is a declaration request: the schema is the check, this the type it gives. */
export function isDeclarationRequest(value: unknown): value is DeclarationRequest {
  return declarationRequestProblem(value) === null;
}

/** Null when a declaration request kept on a combatant (written at its creation, by anyone) is well formed; checked like a request. */
export function declarationRequestProblem(value: unknown): Problem | null {
  return boundsProblem(value) ?? valueProblem(DECLARATION_SPEC, value, 'declaration');
}
