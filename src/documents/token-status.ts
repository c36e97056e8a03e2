/**
 * What every client shows of the round outside the tracker: status icons on
 * the tokens (surprised, casting, delayed, holding, bleeding, routed) and a
 * "your turn" notice to the owners of the combatants acting in the step
 * being played. Both are read from the timeline view of the combat each
 * client replays (rules/statuses.ts), on every change of a combat.
 *
 * Shown, never written: the icons are effects the system's Actor adds to
 * core's `temporaryEffects`, which is what a Token draws its icons from (and
 * v13's combat tracker its effect icons) in v13 and v14. So no client writes a
 * status document, Previous takes an icon back as it takes back the round, a
 * deleted combat leaves nothing behind, and a player's client shows only what
 * that player may see (hidden combatants have none). The registered status
 * effects (`CONFIG.statusEffects`) are not offered in the token HUD: the
 * round sets them, not a click.
 */
import { actingNow, procedureBleeds, tokenStatuses, TOKEN_STATUSES, type TokenStatus } from '../rules/statuses';
import { timeline, GM_VIEW, type EntryView, type Viewer } from '../rules/timeline';
import type { FlowState } from '../rules/flow';
import { SYSTEM_ID } from '../settings';
import { clientState } from './client-state';
import { ownsCombatant } from './permissions';
import { groupIdOf } from './encounter';

/** Each status: its id in `CONFIG.statusEffects` (under the system) and its icon from Foundry's core set. */
export const STATUS_ICONS: Record<TokenStatus, string> = {
  surprised: 'icons/svg/daze.svg',
  casting: 'icons/svg/book.svg',
  delayed: 'icons/svg/clockwork.svg',
  holding: 'icons/svg/target.svg',
  bleeding: 'icons/svg/blood.svg',
  routed: 'icons/svg/terror.svg',
};

export const statusId = (s: TokenStatus): string => `${SYSTEM_ID}.${s}`;

/** The status effects of the system, registered at init (names localized by core: `TENSEG.Status.*`). */
export function registerStatusEffects(): void {
  for (const s of TOKEN_STATUSES) {
    if (CONFIG.statusEffects.some((e) => e.id === statusId(s))) continue;
    CONFIG.statusEffects.push({ id: statusId(s), name: `TENSEG.Status.${s}`, img: STATUS_ICONS[s], hud: false });
  }
}

/** The shape of an effect a Token draws (img, tint, the core overlay flag) and a tracker lists (name, statuses). */
export interface ShownEffect {
  id: string;
  _id: string;
  name: string;
  img: string;
  tint: null;
  statuses: Set<string>;
  active: true;
  disabled: false;
  isSuppressed: false;
  isTemporary: true;
  transfer: false;
  flags: Record<string, never>;
  getFlag(scope: string, key: string): undefined;
}

interface Shown {
  /** Actor uuid → its statuses (a linked actor fighting as two combatants: both's). */
  byActor: Map<string, TokenStatus[]>;
  /** The effects made once per status (the same object every draw). */
  effects: Map<TokenStatus, ShownEffect>;
  /** The step last told to this user (combat, round, stage, step) and the combatants told in it. */
  told: { key: string; ids: Set<string> };
}

const shown = (): Shown => clientState('tokenStatus', () => ({ byActor: new Map(), effects: new Map(), told: { key: '', ids: new Set() } }));

function effectOf(s: TokenStatus): ShownEffect {
  const bag = shown().effects;
  let e = bag.get(s);
  if (!e) {
    const id = statusId(s);
    e = {
      id,
      _id: id,
      name: game.i18n?.localize(`TENSEG.Status.${s}`) ?? s,
      img: STATUS_ICONS[s],
      tint: null,
      statuses: new Set([id]),
      active: true,
      disabled: false,
      isSuppressed: false,
      isTemporary: true,
      transfer: false,
      flags: {},
      getFlag: () => undefined,
    };
    bag.set(s, e);
  }
  return e;
}

/** The round's effects on an actor, as this client shows them. */
export function roundEffectsOf(actor: { uuid: string | null }): ShownEffect[] {
  const list = actor.uuid ? shown().byActor.get(actor.uuid) : undefined;
  return list ? list.map(effectOf) : [];
}

/** The system's Actor: core's temporary effects and the round's statuses. */
export class TenSegmentsActor extends Actor {
  override get temporaryEffects() {
    const core = super.temporaryEffects;
    const round = roundEffectsOf(this);
    // Shown effects are not stored documents; Token#_drawEffects and the tracker read only the fields above.
    return round.length === 0 ? core : [...core, ...(round as unknown as typeof core)];
  }
}

interface FlowCombat {
  flowState: FlowState | null;
}

const flowOf = (combat: Combat.Implementation): FlowState | null => (combat as unknown as FlowCombat).flowState ?? null;

/** Statuses of every actor in every combat started, as this client may see them. */
function statusesNow(): Map<string, { actor: Actor.Implementation; list: TokenStatus[] }> {
  const out = new Map<string, { actor: Actor.Implementation; list: TokenStatus[] }>();
  const gm = !!game.user?.isGM;
  for (const combat of game.combats?.contents ?? []) {
    const state = flowOf(combat);
    if (!state) continue;
    // The GM's view (a player's lacks the exact health the bleeding of addict needs), less what a player may not see.
    const byId = tokenStatuses(timeline(state, GM_VIEW), procedureBleeds(state.procedure, state.options));
    for (const [id, list] of Object.entries(byId)) {
      const combatant = combat.combatants.get(id);
      const actor = combatant?.actor;
      if (!combatant || !actor?.uuid || (!gm && combatant.hidden)) continue;
      const had = out.get(actor.uuid)?.list ?? [];
      out.set(actor.uuid, { actor, list: TOKEN_STATUSES.filter((s) => had.includes(s) || list.includes(s)) });
    }
  }
  return out;
}

/** Redraw the icons of an actor's tokens on the map (v13 and v14: the Token's `redrawEffects` render flag). */
function redraw(actor: Actor.Implementation): void {
  for (const token of actor.getActiveTokens() as unknown as { renderFlags?: { set(flags: Record<string, boolean>): void } }[]) {
    token.renderFlags?.set({ redrawEffects: true });
  }
}

/** Bring this client's icons in line with the combats; the tokens of actors whose statuses changed are redrawn. */
export function refreshTokenStatuses(): string[] {
  const bag = shown();
  const now = statusesNow();
  const changed: string[] = [];
  for (const [uuid, { actor, list }] of now) {
    if ((bag.byActor.get(uuid) ?? []).join() !== list.join()) {
      bag.byActor.set(uuid, list);
      changed.push(uuid);
      redraw(actor);
    }
  }
  for (const uuid of [...bag.byActor.keys()]) {
    if (now.has(uuid)) continue;
    bag.byActor.delete(uuid);
    changed.push(uuid);
    const actor = fromUuidSync(uuid) as Actor.Implementation | null;
    if (actor) redraw(actor);
  }
  return changed;
}

/** A player's viewer for a combat: their combatants' sides; the combatants the GM hides. */
function playerViewer(combat: Combat.Implementation, user: User.Implementation): Viewer {
  const sides = new Set<string>();
  const hidden: string[] = [];
  for (const c of combat.combatants) {
    if (c.hidden) hidden.push(c.id as string);
    const group = groupIdOf(c);
    if (group && ownsCombatant(user, c)) sides.add(group);
  }
  return { gm: false, sides: [...sides], hidden };
}

/** What the notice says a combatant does in its step. */
function noticeOf(entry: EntryView, name: string): { key: string; data: Record<string, string> } {
  if (entry.outcome === 'goes-off') return entry.spell ? { key: 'TENSEG.YourTurn.GoesOff', data: { name, spell: entry.spell } } : { key: 'TENSEG.YourTurn.GoesOffUnnamed', data: { name } };
  if (entry.outcome === 'begins' && entry.choosing) return { key: 'TENSEG.YourTurn.Choose', data: { name } };
  if (entry.outcome === 'begins') return entry.spell ? { key: 'TENSEG.YourTurn.Begins', data: { name, spell: entry.spell } } : { key: 'TENSEG.YourTurn.BeginsUnnamed', data: { name } };
  return { key: 'TENSEG.YourTurn.Acts', data: { name, action: game.i18n!.localize(`TENSEG.Sim.Action.${entry.action}`) } };
}

/**
 * Tell this client's user, once a step, of each combatant of theirs acting in
 * the step being played (a GM is not told: the monsters are theirs). A
 * combatant that comes to act in a step already told (a held action released)
 * is told then; the same step shown again tells nothing.
 */
export function noticeYourTurn(combat: Combat.Implementation): string[] {
  const user = game.user;
  if (!user || user.isGM) return [];
  const state = flowOf(combat);
  if (!state) return [];
  const view = timeline(state, playerViewer(combat, user));
  if (view.current === null) return [];
  const told = shown().told;
  const key = `${combat.id}:${view.round}:${view.current}`;
  if (told.key !== key) {
    told.key = key;
    told.ids = new Set();
  }
  const messages: string[] = [];
  for (const entry of actingNow(view)) {
    const combatant = combat.combatants.get(entry.combatant);
    if (!combatant || told.ids.has(entry.combatant) || !ownsCombatant(user, combatant)) continue;
    told.ids.add(entry.combatant);
    const { key: text, data } = noticeOf(entry, combatant.name ?? '');
    const message = game.i18n!.format(text, data);
    ui.notifications?.info(message);
    messages.push(message);
  }
  return messages;
}

/** On every client: icons and notices follow every change of a combat. */
export function registerTokenStatusHooks(): void {
  const onCombat = (combat: Combat.Implementation) => {
    refreshTokenStatuses();
    noticeYourTurn(combat);
  };
  Hooks.on('updateCombat', (combat) => onCombat(combat as Combat.Implementation));
  Hooks.on('deleteCombat', () => void refreshTokenStatuses());
  Hooks.on('updateCombatant', () => void refreshTokenStatuses());
  Hooks.on('deleteCombatant', () => void refreshTokenStatuses());
}
