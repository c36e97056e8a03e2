/**
 * Odds (issue 14, Deliver 6): the combat on the tracker as the odds engine
 * plays it (rules/odds/types.ts OddsSetup), built by the GM's client.
 *
 *  - The encounter: buildEncounter (the actors' stats and hit points now).
 *  - The declarations: the current round's, as the GM sees them (the log's
 *    and the plans the GM holds back until initiative: combat.gmDeclarations).
 *    RULING: a combatant with none attacks the nearest foe with its weapon in
 *    hand (melee; missile when that weapon is a missile weapon).
 *  - Each fighter's AC, AAC0, size, its declared weapon's damage (else its
 *    weapon in hand's, else its first weapon's), a monster's attack routines,
 *    and where its token stands in grid squares (x and y over the scene's
 *    grid size).
 *  - Spells: none known (a spell item carries no damage the system could
 *    read), so a spell going off only counts as gone off.
 *  - Options: the combat's own (frozen at its start) or, before the start,
 *    the world's for its procedure with the scene's; every other procedure
 *    at its defaults.
 *
 * A chunk of the odds dialog (loaded when the GM asks for the odds).
 */
import type { Declaration, ProcedureId } from '../rules/model';
import { PROCEDURE_IDS, RulesError, isProcedureId } from '../rules/model';
import type { Encounter, ProcedureOptions } from '../rules/procedure';
import { resolveOptions } from '../rules/procedure';
import { getProcedure, loadProcedure } from '../rules/registry';
import { DEFAULT_MAX_ROUNDS, type FighterStats, type OddsSetup } from '../rules/odds/types';
import { weaponOf, type ItemView } from '../data/engine-view';
import { actorData, actorSize } from '../data/systems';
import { SYSTEM_ID } from '../settings';
import { buildEncounter } from './engine-encounter';
import { footprintOf } from './grid';
import { nearest } from '../rules/odds/nearest';
import { sceneOfCombat, withSceneOptions } from './scene-options';
import type { TenSegmentsCombat } from './combat';

/** The procedure this combat plays: its own once started, else the world's. */
export function combatProcedure(combat: Combat.Implementation): ProcedureId {
  const own = (combat as TenSegmentsCombat).flowState?.procedure;
  if (own) return own;
  const world = game.settings?.get(SYSTEM_ID, 'procedure');
  return isProcedureId(world) ? world : PROCEDURE_IDS[0];
}

/** The procedures compared: all five, the combat's own first. */
export function oddsProcedures(first: ProcedureId): ProcedureId[] {
  return [first, ...PROCEDURE_IDS.filter((p) => p !== first)];
}

/** The options a procedure plays with: the combat's (or the world's and the scene's) for its own, the defaults for the others. */
function optionsFor(combat: Combat.Implementation, procedure: ProcedureId): ProcedureOptions {
  const rules = getProcedure(procedure);
  if (procedure !== combatProcedure(combat)) return resolveOptions(rules).options;
  const state = (combat as TenSegmentsCombat).flowState;
  if (state) return { ...state.options };
  const all = (game.settings?.get(SYSTEM_ID, 'procedureOptions') ?? {}) as Record<string, Record<string, unknown>>;
  return resolveOptions(rules, withSceneOptions(procedure, all[procedure] ?? {}, sceneOfCombat(combat))).options;
}

const items = (actor: Actor.Implementation): ItemView[] => actor.items.contents.map((i) => ({ id: i.id as string, name: i.name ?? '', type: i.type, system: i.system }));

/** Where a combatant's token stands, in grid squares (its top-left square, grid.ts footprintOf). */
function positionOf(combatant: Combatant.Implementation): { x: number; y: number } | undefined {
  const token = combatant.token;
  if (!token) return undefined;
  const { col, row } = footprintOf(token, token.parent?.grid?.size ?? 100);
  return { x: col, y: row };
}

/** What a combatant brings to a rolled attack: from its actor, its items and its token. */
export function fighterOf(combatant: Combatant.Implementation, declared: Declaration | undefined): FighterStats {
  const out: FighterStats = {};
  const actor = combatant.actor;
  const position = positionOf(combatant);
  if (position) out.position = position;
  if (!actor) return out;
  const sys = actorData(actor);
  if (sys) {
    out.ac = sys.ac;
    const aac0 = 'attack' in sys ? sys.attack.aac0 : 'aac0' in sys ? sys.aac0 : '';
    if (typeof aac0 === 'string' && aac0.trim() !== '') out.aac0 = aac0.trim();
    if ('attacks' in sys && typeof sys.attacks === 'string' && sys.attacks.trim() !== '') out.attacks = sys.attacks.trim();
  }
  out.size = actorSize(actor);
  // The declared weapon (by name), else the one in hand (the first equipped), else the first weapon carried.
  const weapons = items(actor).flatMap((i) => {
    const w = weaponOf(i);
    return w ? [{ name: i.name, w }] : [];
  });
  const name = declared?.weapon?.name;
  const weapon = (name !== undefined ? weapons.find((x) => x.name === name) : undefined) ?? weapons.find((x) => x.w.equipped) ?? weapons[0];
  if (weapon) {
    const small = weapon.w.damage?.small?.trim();
    const large = weapon.w.damage?.large?.trim();
    if (small) out.damage = small;
    if (large) out.damageLarge = large;
    else if (small) out.damageLarge = small;
  }
  return out;
}

/** The nearest foe still on its feet (hit points above 0), by the fighters' positions (rules/odds/nearest.ts, as the trials count it). */
export function nearestFoe(encounter: Encounter, fighters: Record<string, FighterStats>, id: string): string | undefined {
  const self = encounter.combatants.find((c) => c.id === id);
  if (!self) return undefined;
  return nearest(fighters[id]?.position, encounter.combatants, (c) => c.side !== self.side && c.hp > 0, (c) => fighters[c.id]?.position)?.id;
}

/** What every procedure's setup of the combat shares: its encounter, its fighters, this round's declarations (read once for all five). */
function sharedSetup(combat: Combat.Implementation): Omit<OddsSetup, 'procedure' | 'options'> {
  const built = buildEncounter(combat);
  if ('problem' in built) throw new RulesError(built.problem);
  const { encounter } = built;
  const held = (combat as TenSegmentsCombat).gmDeclarations ?? {};
  const fighters: Record<string, FighterStats> = {};
  for (const c of combat.combatants.contents) fighters[c.id as string] = fighterOf(c, held[c.id as string]);
  const declarations: Record<string, Declaration> = {};
  for (const c of encounter.combatants) {
    const d = held[c.id];
    if (d) {
      declarations[c.id] = structuredClone(d);
      continue;
    }
    // RULING (odds): a combatant with no declaration this round attacks the nearest foe with its weapon in hand.
    const target = nearestFoe(encounter, fighters, c.id);
    if (target === undefined) continue;
    const attack: Declaration = { combatant: c.id, action: c.weapon?.missile ? 'missile' : 'melee', target };
    if (c.weapon) attack.weapon = structuredClone(c.weapon);
    declarations[c.id] = attack;
  }
  // The encounter is built afresh for the setup (buildEncounter): nothing in it is the combat's own.
  return { encounter, declarations: [declarations], fighters, spells: {}, maxRounds: DEFAULT_MAX_ROUNDS };
}

/**
 * The combat on the tracker under one procedure, ready to play (the
 * procedure must be loaded: oddsSetupsFor loads them). A combat the engine
 * cannot read (a combatant without an actor or a side) is a RulesError with
 * the engine's problem.
 */
export function oddsSetupFor(combat: Combat.Implementation, procedure: ProcedureId, shared = sharedSetup(combat)): OddsSetup {
  return { ...shared, procedure, options: optionsFor(combat, procedure) };
}

/** The combat under all five procedures (the combat's own first), each loaded first; the combat read once. */
export async function oddsSetupsFor(combat: Combat.Implementation): Promise<OddsSetup[]> {
  const procedures = oddsProcedures(combatProcedure(combat));
  await Promise.all(procedures.map((p) => loadProcedure(p)));
  const shared = sharedSetup(combat);
  return procedures.map((p) => oddsSetupFor(combat, p, shared));
}
