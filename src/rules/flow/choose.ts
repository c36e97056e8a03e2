/**
 * A spell chosen at the caster's turn: the `choose` input (transitions.ts).
 *
 * Where a procedure lets a caster declare that it will cast without naming
 * the spell (d12-ascending II.C "A spellcaster may decide on his initiative
 * result what spell to cast, if any"), the round is planned with a casting
 * still to be chosen (Casting.choosing) beginning at the caster's turn. When
 * that step is the one being played, the caster names the spell and its
 * casting time, or none. The procedure places what follows (chooseSpell:
 * its completion spliced in after the current step, so the steps played keep
 * their indices); "none" ends the casting as a caster electing not to cast.
 *
 * Refused, changing nothing: not the caster's turn (yet, or any more), no
 * spell left to choose, the casting already stopped (damage earlier in the
 * round, or in this step before the choice: it "prevents any/all spell
 * completion"), a caster that cannot act, a bad casting time, a spell with no
 * copy left in memory.
 */
import type { Problem } from '../model';
import { RulesError } from '../model';
import type { Casting, Procedure, ProcedureOptions, Schedule } from '../procedure';
import { combatantOf, nameOf, type FlowState } from './state';
import { spellAvailable } from './transitions';

type P = Procedure<ProcedureOptions>;

/** The caster `c` chooses `spell` with `castingTime` (segments, as a declaration's), or no spell (`spell: null`). */
export interface ChooseInput {
  t: 'choose';
  c: string;
  spell: string | null;
  castingTime?: number;
}

type Done = { ok: true } | { ok: false; problem: Problem };

const refuse = (key: string, data?: Problem['data']): { ok: false; problem: Problem } => ({ ok: false, problem: data ? { key, data } : { key } });

function malformed(input: ChooseInput): boolean {
  if (!input || typeof input !== 'object' || typeof input.c !== 'string') return true;
  if (input.spell === null) return input.castingTime !== undefined;
  return typeof input.spell !== 'string' || input.spell.trim() === '' || (input.castingTime !== undefined && typeof input.castingTime !== 'number');
}

/** The caster's casting of this round still to be chosen (or chosen "none"), if any. */
export function choosingCasting(state: FlowState, caster: string): Casting | undefined {
  return state.schedule?.castings.find((c) => c.caster === caster && c.choosing && c.beganRound === state.round);
}

/** Why this choice cannot be made now, or null. Pure: `state` is not changed. */
export function chooseProblem(state: FlowState, input: ChooseInput): Problem | null {
  if (malformed(input)) return { key: 'MalformedRequest' };
  const c = combatantOf(state, input.c);
  if (!c) return { key: 'UnknownCombatant', data: { id: input.c } };
  const name = c.name;
  // While the round is declared, a spell declared without naming it is chosen once the round is under way.
  const d = state.declarations[c.id];
  if (state.stage === 'declare') return { key: d?.action === 'spell' && d.spell === undefined && d.castingTime === undefined ? 'ChooseSpellNotYet' : 'ChooseSpellNothing', data: { name } };
  const casting = choosingCasting(state, c.id);
  if (!casting) return { key: 'ChooseSpellNothing', data: { name } };
  const status = state.status[casting.id] ?? 'pending';
  if (status === 'cancelled') return { key: 'ChooseSpellNothing', data: { name } };
  if (state.stage === 'resolve' && state.step < casting.beginStep) return { key: 'ChooseSpellNotYet', data: { name } };
  if (state.stage !== 'resolve' || state.step > casting.beginStep) return { key: 'ChooseSpellPassed', data: { name } };
  // Damage before the choice: earlier in the round it prevented the casting (its status), in this step it lands before the casting begins.
  const struck = state.hits.some((h) => h.target === c.id && h.step === state.step && h.amount > 0 && h.step >= casting.preventFrom);
  if (status !== 'pending' || struck) return { key: 'ChooseSpellPrevented', data: { name } };
  const at = state.schedule?.steps[state.step]?.entries.findIndex((e) => e.casting === casting.id) ?? -1;
  if (at < 0 || state.outcomes[state.step]?.[at] === 'cannot-act') return { key: 'CombatantCannotAct', data: { name } };
  if (input.spell === null) return null;
  const t = input.castingTime;
  if (t === undefined || typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 100) return { key: 'CastingTimeInvalid', data: { name } };
  if (!spellAvailable(state, { combatant: c.id, action: 'spell', spell: input.spell, castingTime: t })) return { key: 'SpellNotMemorized', data: { name, spell: input.spell } };
  return null;
}

/**
 * Carry out a choice on `state` in place, or refuse it (nothing changed). A
 * spell: the procedure places its completion (it may refuse by throwing a
 * RulesError). None: the casting ends as one the caster elected not to
 * complete, its entry in this step showing it.
 */
export function choose(state: FlowState, input: ChooseInput, procedure: P): Done {
  const problem = chooseProblem(state, input);
  if (problem) return { ok: false, problem };
  const casting = choosingCasting(state, input.c) as Casting;
  const schedule = state.schedule as Schedule;
  if (input.spell === null) {
    state.status[casting.id] = 'cancelled';
    state.cancelled.push(casting.id);
    const outcomes = state.outcomes[state.step];
    schedule.steps[state.step].entries.forEach((e, i) => e.casting === casting.id && (outcomes[i] = 'cancelled'));
    return { ok: true };
  }
  if (!procedure.chooseSpell) return refuse('ChooseSpellNothing', { name: nameOf(state, input.c) });
  let placed: Schedule;
  try {
    placed = procedure.chooseSpell(
      state.encounter,
      {
        schedule,
        currentStep: state.step,
        casting: casting.id,
        spell: input.spell,
        castingTime: input.castingTime as number,
        declarations: state.declarations,
        surprise: state.surprise,
      },
      state.options,
    );
  } catch (err) {
    if (err instanceof RulesError) return { ok: false, problem: err.problem };
    throw err;
  }
  state.schedule = placed;
  // The casting begins now (its entry was opened as the caster's turn; a GM's undo may have restored it since).
  const outcomes = state.outcomes[state.step];
  placed.steps[state.step].entries.forEach((e, i) => e.casting === casting.id && (outcomes[i] = 'begins'));
  return { ok: true };
}
