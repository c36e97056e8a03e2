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
 *
 * This module is the start-up part (the icons, the Actor, the hooks); what
 * reads the round (the timeline view, the notice) is `round-display.ts`, a
 * chunk loaded on the first change of a combat started.
 */
import type { TokenStatus } from '../rules/statuses';
import { SYSTEM_ID } from '../settings';
import { clientState } from './client-state';
import { guardReceipt } from './health-guard';
import { combatData } from '../data/systems';

/** Each status, in TOKEN_STATUSES order (rules/statuses.ts): its icon from Foundry's core set. */
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
  for (const s of Object.keys(STATUS_ICONS) as TokenStatus[]) {
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

export interface Shown {
  /** Actor uuid → its statuses (a linked actor fighting as two combatants: both's). */
  byActor: Map<string, TokenStatus[]>;
  /** The effects made once per status (the same object every draw). */
  effects: Map<TokenStatus, ShownEffect>;
  /** The step last told to this user (combat, round, stage, step) and the combatants told in it. */
  told: { key: string; ids: Set<string> };
}

export const shown = (): Shown => clientState('tokenStatus', () => ({ byActor: new Map(), effects: new Map(), told: { key: '', ids: new Set() } }));

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
  /**
   * A new character's token is linked and friendly, a monster's unlinked and
   * hostile, so a token dropped on a map joins the right side when added to a
   * combat (sides follow the token's disposition). What the creation data
   * gives (a compendium's actor, a module) stands.
   */
  override async _preCreate(...args: Parameters<Actor['_preCreate']>): ReturnType<Actor['_preCreate']> {
    const allowed = await super._preCreate(...args);
    if (allowed === false) return false;
    // Creating an actor is rare: the defaults are a chunk loaded then, not at start-up.
    const update = (await import('./actor-defaults')).prototypeDefaults(this.type, args[0]);
    if (update) this.updateSource(update as never);
    return allowed;
  }

  /** What a client receives from the server goes through the stored-value guard (health-guard.ts) on the active GM's client. */
  override updateSource(...args: Parameters<Actor['updateSource']>): ReturnType<Actor['updateSource']> {
    return guardReceipt(this as unknown as Actor.Implementation, args[0], args[1], () => super.updateSource(...args));
  }

  override get temporaryEffects() {
    const core = super.temporaryEffects;
    const round = roundEffectsOf(this);
    // Shown effects are not stored documents; Token#_drawEffects and the tracker read only the fields above.
    return round.length === 0 ? core : [...core, ...(round as unknown as typeof core)];
  }
}

type Display = typeof import('./round-display');

/** The chunk that reads the round, loaded once a combat has started (the same module once loaded). */
function display(): Promise<Display> {
  return import('./round-display');
}

const started = (combat: Combat.Implementation): boolean => Object.keys(combatData(combat)?.log ?? {}).length > 0;

/** Icons, after a change: nothing to load until some combat has started (or icons are shown that must go). */
export async function refreshTokenStatuses(): Promise<void> {
  if (shown().byActor.size === 0 && !(game.combats?.contents ?? []).some(started)) return;
  (await display()).refreshTokenStatuses();
}

/** On every client: icons and notices follow every change of a combat. */
export function registerTokenStatusHooks(): void {
  Hooks.on('updateCombat', (combat) => {
    if (!started(combat as Combat.Implementation) && shown().byActor.size === 0) return;
    return display().then((d) => {
      d.refreshTokenStatuses();
      d.noticeYourTurn(combat as Combat.Implementation);
    });
  });
  for (const hook of ['deleteCombat', 'updateCombatant', 'deleteCombatant'] as const) Hooks.on(hook, () => refreshTokenStatuses());
}
