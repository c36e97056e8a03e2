/**
 * A validated scenario as the odds runner plays it (src/rules/odds): the
 * encounter, the declarations of each round, the fighters' stats and the
 * spells' effects, with rolled dice and rolled damage. What a scenario
 * scripts for one play-through (dice, damage, joins, morale calls, mid-round
 * actions…) has no place in thousands of rolled ones: oddsIgnored names
 * those sections so the runner can say so.
 */
import type { Declaration } from '../../rules/model';
import { DEFAULT_MAX_ROUNDS, type FighterStats, type OddsSetup } from '../../rules/odds/types';
import { copyJson } from '../../rules/journal';
import type { ScenarioNote, ValidScenario } from './types';

/**
 * The declarations of round 1, 2, … up to the last round the file gives
 * one for: a round without an entry repeats the one before (round 1 without
 * one takes the surprise's, or nobody declares). The last set repeats for
 * every later round (OddsSetup.declarations).
 */
export function oddsDeclarations(valid: ValidScenario): Record<string, Declaration>[] {
  const explicit = valid.declarations;
  const last = Math.max(1, ...[...explicit.keys()]);
  const rounds: Record<string, Declaration>[] = [];
  let previous = explicit.get(0) ?? {};
  for (let r = 1; r <= last; r++) {
    previous = explicit.get(r) ?? previous;
    rounds.push(copyJson(previous));
  }
  return rounds;
}

/** One validated scenario, ready to play under its procedure with rolled dice (`maxRounds`: the round cap); plain-JSON copies, nothing shared with the scenario (a setup is posted to workers). */
export function oddsSetup(valid: ValidScenario, maxRounds = DEFAULT_MAX_ROUNDS): OddsSetup {
  // Every combatant of the encounter has an entry (empty: no stats); a Map, so no id is taken for a property of Object.
  const fighters = new Map<string, FighterStats>();
  for (const c of valid.encounter.combatants) fighters.set(c.id, copyJson(Object.hasOwn(valid.fighters, c.id) ? valid.fighters[c.id] : {}));
  const setup: OddsSetup = {
    procedure: valid.procedure.id,
    options: copyJson(valid.options),
    encounter: copyJson(valid.encounter),
    declarations: oddsDeclarations(valid),
    fighters: Object.fromEntries(fighters),
    spells: copyJson(valid.spells),
    maxRounds,
  };
  if (valid.title !== undefined) setup.title = valid.title;
  const surprise = valid.declarations.get(0);
  if (surprise) setup.surpriseDeclarations = copyJson(surprise);
  if (valid.reactions.length > 0) setup.reactions = copyJson(valid.reactions);
  if (valid.distance !== undefined) setup.distance = valid.distance;
  return setup;
}

/**
 * The sections of the file the odds runner does not play (named as the file
 * writes them, in the file format's order): scripted rolls and damage, late
 * joiners, the GM's morale calls, cancels, choices, mid-round actions,
 * staunching, Heal checks and injuries. Empty when there are none.
 */
export function oddsIgnored(valid: ValidScenario): string[] {
  const sections: [string, number][] = [
    ['dice', valid.dice.length],
    ['damage', valid.damage.length],
    ['joins', valid.joins.length],
    ['morale', valid.morale.length],
    ['cancel', valid.cancels.length],
    ['delays', valid.delays.length],
    ['releases', valid.releases.length],
    ['breaks', valid.breaks.length],
    ['attacks', valid.attacks.length],
    ['staunch', valid.staunch.length],
    ['choose', valid.choices.length],
    ['heal', valid.wounds.filter((w) => w.input.t === 'heal').length],
    ['injuries', valid.wounds.filter((w) => w.input.t === 'injury').length],
  ];
  return sections.filter(([, n]) => n > 0).map(([name]) => name);
}

/** The note the odds runner shows for the sections it does not play (TENSEG.Sim.Note.OddsIgnored), or null when there are none. */
export function oddsIgnoredNote(valid: ValidScenario): ScenarioNote | null {
  const sections = oddsIgnored(valid);
  return sections.length === 0 ? null : { key: 'TENSEG.Sim.Note.OddsIgnored', data: { sections: sections.join(', ') } };
}
