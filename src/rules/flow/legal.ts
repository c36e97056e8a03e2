/**
 * What a combatant may declare now: every kind of action tried against the
 * procedure's own declaration checks (`declarationProblem`, as the flow's
 * `declare` input asks them), or, for a held or prepared action released
 * mid-round, against the release checks (`releaseCheck`). The declaration
 * dialog offers only the legal ones; the others come with the reason.
 * Pure: nothing is changed, nothing rolled.
 *
 * Each kind is tried as the most favourable declaration of that kind the
 * combatant could make: a spell names a copy still in memory (the first one,
 * or the one asked), a spell or device a casting time of one segment (its
 * real time comes from the item), a charge the distance the map gives (the
 * Foundry layer passes it; without one the procedure decides as it would for
 * a request with none).
 */
import { ACTION_KINDS, type ActionKind, type Combatant, type Declaration, type Problem } from '../model';
import type { Procedure, ProcedureOptions, Encounter } from '../procedure';
import { getProcedure } from '../registry';
import { combatantOf, type FlowState } from './state';
import { declarationProblem, spellAvailable } from './transitions';
import { RELEASABLE } from './midround';
import { releaseCheck } from './held';

type P = Procedure<ProcedureOptions>;

/** One kind of action and whether it can be declared now (with the reason when not). */
export interface ActionChoice {
  action: ActionKind;
  legal: boolean;
  problem?: Problem;
}

/** What the probe declarations carry where the documents know better than the engine. */
export interface LegalProbe {
  /** 'declare' (default): the round's declaration; 'release': a held or prepared action released now. */
  mode?: 'declare' | 'release';
  /** A charge's distance in feet (from the tokens on the map). */
  distance?: number;
  /** The spell to try (by name); default the first with a copy left. */
  spell?: string;
}

/** The probe declaration of one kind for a combatant. */
function probeOf(action: ActionKind, combatant: string, probe: LegalProbe, spell: string | undefined): Declaration {
  const d: Declaration = { combatant, action };
  if (action === 'spell' || action === 'device') d.castingTime = 1;
  if (action === 'spell' && spell !== undefined) d.spell = spell;
  // A spell's speed comes from its item when it is declared (individual-speed, seed 003: "spell speed"; a spell without
  // one is refused then, in words): the probe has one, so casting is offered (issue 28).
  if (action === 'spell') d.speed = 1;
  if (action === 'charge' && probe.distance !== undefined) d.distance = probe.distance;
  return d;
}

/** A spell of the combatant with a copy left (state: what is expended), the one asked if given. */
function spellToTry(c: Combatant, probe: LegalProbe, left: (spell: string) => boolean): string | undefined {
  if (probe.spell !== undefined) return probe.spell;
  // Without a spell list nothing is known (as spellAvailable): any spell named will do for the checks.
  if (c.spells === undefined) return 'spell';
  return c.spells.find(left) ?? c.spells[0];
}

function choices(kinds: readonly ActionKind[], c: Combatant, probe: LegalProbe, spell: string | undefined, check: (d: Declaration) => Problem | null): ActionChoice[] {
  return kinds.map((action) => {
    // A spell list known and empty: nothing to cast (a list with every copy expended is refused by the checks themselves).
    if (action === 'spell' && c.spells !== undefined && c.spells.length === 0) {
      return { action, legal: false, problem: { key: 'DeclarationNoSpell', data: { name: c.name } } };
    }
    const problem = check(probeOf(action, c.id, probe, spell));
    return problem ? { action, legal: false, problem } : { action, legal: true };
  });
}

/** Every kind of action for `combatantId` in this moment of the combat, in the order of ACTION_KINDS (RELEASABLE when releasing). */
export function legalActions(state: FlowState, combatantId: string, probe: LegalProbe = {}, procedure: P = getProcedure(state.procedure)): ActionChoice[] {
  const c = combatantOf(state, combatantId);
  const kinds = probe.mode === 'release' ? RELEASABLE : ACTION_KINDS;
  if (!c) return kinds.map((action) => ({ action, legal: false, problem: { key: 'UnknownCombatant', data: { id: combatantId } } }));
  const spell = spellToTry(c, probe, (s) => spellAvailable(state, { combatant: c.id, action: 'spell', spell: s }));
  const check = probe.mode === 'release' ? (d: Declaration) => releaseCheck(state, d, procedure) : (d: Declaration) => declarationProblem(state, d, procedure);
  return choices(kinds, c, probe, spell, check);
}

/** Before the combat starts (no flow yet): the procedure's own declaration checks, as a declaration waiting on a combatant is checked. */
export function legalActionsBefore(procedure: P, combatant: Combatant, options: ProcedureOptions, probe: LegalProbe = {}, encounter?: Encounter): ActionChoice[] {
  const spell = spellToTry(combatant, probe, () => true);
  return choices(ACTION_KINDS, combatant, probe, spell, (d) => procedure.validateDeclaration(d, combatant, options, encounter));
}

/** The legal kinds only. */
export function legalKinds(choices: readonly ActionChoice[]): ActionKind[] {
  return choices.filter((c) => c.legal).map((c) => c.action);
}
