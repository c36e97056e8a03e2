/**
 * Where Foundry v13 and v14 differ in what only the writer (the active GM's
 * client: the log, the migration) and the chat cards need: deleting a key,
 * a turn change's options, the chat message modes, the round a combatant
 * joined (combatant-join.ts). Apart from compat.ts so
 * that start-up code does not carry it (it goes with the chunks that use it).
 */
import { generation } from './compat';

/**
 * An update that deletes `key` of an object field at `path`: v13 writes
 * `path.-=key: null`; v14 writes `path.key: _del` (foundry.data.operators).
 */
export function deletionUpdate(path: string, key: string): Record<string, unknown> {
  if (generation() >= 14) {
    // v14: the `_del` operator (foundry.data.operators.ForcedDeletion); `-=` is deprecated there.
    return { [`${path}.${key}`]: (globalThis as Record<string, unknown>)._del };
  }
  return { [`${path}.-=${key}`]: null };
}

/**
 * Options for a Combat update that changes round or turn, in the form core
 * sends (v13 client source and the v14 combatRound hook agree):
 * `{direction, worldTime: {delta}}`, so the world clock and v14's effect
 * expiry follow the combat.
 */
export function turnChangeOptions(direction: 1 | -1, seconds: number): Record<string, unknown> {
  return { direction, worldTime: { delta: seconds } };
}

/** The core setting that holds how chat messages are shown: `core.rollMode` (v13) or `core.messageMode` (v14). */
export function messageModeSetting(): 'rollMode' | 'messageMode' {
  return generation() >= 14 ? 'messageMode' : 'rollMode';
}

/** v14's message modes when CONFIG does not list them (the four of the v14 chat log). */
const V14_MODES = ['public', 'gm', 'blind', 'self'] as const;

/**
 * The names of the message modes of this generation: v13 the roll modes
 * (`CONST.DICE_ROLL_MODES`: publicroll, gmroll, blindroll, selfroll); v14 the
 * keys of `CONFIG.ChatMessage.modes` (public, gm, blind, self).
 */
export function messageModes(): string[] {
  if (generation() >= 14) {
    const modes = configuredModes();
    return modes && Object.keys(modes).length > 0 ? Object.keys(modes) : [...V14_MODES];
  }
  return Object.values(CONST.DICE_ROLL_MODES as Record<string, string>);
}

/** v14 `CONFIG.ChatMessage.modes`: "Supported chat message visibility modes", each with a `handler(data)`. */
function configuredModes(): Record<string, { handler?: (data: Record<string, unknown>) => void }> | undefined {
  return (CONFIG.ChatMessage as unknown as { modes?: Record<string, { handler?: (data: Record<string, unknown>) => void }> }).modes;
}

/** The mode a message has when nobody chose one: everyone sees it. */
export function publicMode(): string {
  return generation() >= 14 ? 'public' : (CONST.DICE_ROLL_MODES as Record<string, string>).PUBLIC;
}

/** The mode that whispers to the GMs: `gm` (v14), `gmroll` (v13). */
export function gmMode(): string {
  return generation() >= 14 ? 'gm' : (CONST.DICE_ROLL_MODES as Record<string, string>).PRIVATE;
}

/** The mode meaning "only me": whispered to its user alone. */
function selfMode(): string {
  return generation() >= 14 ? 'self' : (CONST.DICE_ROLL_MODES as Record<string, string>).SELF;
}

/** The mode this client's user has chosen in the chat log. */
export function currentMessageMode(): string {
  return (game.settings as unknown as { get(ns: string, key: string): string }).get('core', messageModeSetting());
}

/**
 * Chat message data shown in a mode (v13 `ChatMessage.applyRollMode`, v14
 * `ChatMessage.applyMode`): by default this client's user's current mode.
 * `user` is whose mode it is: core's "self" whispers to the running user, so
 * a card written for another user's request in that user's self mode is
 * whispered to that user.
 */
export function applyMessageMode(data: Record<string, unknown>, mode: string = currentMessageMode(), user: User.Implementation | null = game.user ?? null): Record<string, unknown> {
  const cls = ChatMessage as unknown as {
    applyRollMode?: (d: Record<string, unknown>, m: string) => Record<string, unknown>;
    applyMode?: (d: Record<string, unknown>, m: string) => Record<string, unknown>;
  };
  let shown = data;
  if (generation() < 14) shown = cls.applyRollMode?.call(cls, data, mode) ?? data;
  else if (cls.applyMode) shown = cls.applyMode.call(cls, data, mode) ?? data;
  else {
    // v14 without a static helper (none in the 14.366 typings or the API pages): the mode's handler where a
    // package set one (CONFIG.ChatMessage.modes, v14 API), else core's whisper and blindness for the mode.
    const handler = configuredModes()?.[mode]?.handler;
    if (handler) handler(data);
    else whisperFor(data, mode);
  }
  if (mode === selfMode() && user && user.id !== game.user?.id) shown.whisper = [user.id];
  return shown;
}

/** Core's whisper and blindness of a v14 mode: gm and blind to the GMs (blind hidden from the roller), self to this user, public to all. */
function whisperFor(data: Record<string, unknown>, mode: string): void {
  const gms = (game.users?.filter((u) => u.isGM) ?? []).map((u) => u.id as string);
  data.whisper = mode === 'gm' || mode === 'blind' ? gms : mode === selfMode() ? [game.user?.id as string] : [];
  data.blind = mode === 'blind';
}

/**
 * The round a combatant joined its combat (v14 `Combatant#roundJoined`: the
 * combat's round when it was created, 1 before the combat starts); null
 * under v13, which does not record it.
 */
export function roundJoinedOf(combatant: Combatant.Implementation): number | null {
  if (generation() < 14) return null;
  const round = combatant.roundJoined;
  return typeof round === 'number' && Number.isInteger(round) && round >= 1 ? round : null;
}

/**
 * The scene a combatant's token is on: v13 its own `sceneId` (13.345.1 typings), else its combat's; v14's
 * CombatantData has no `sceneId` (v14 API page), so always the combat's.
 */
export function combatantSceneId(combatant: Combatant.Implementation): string | null {
  const own = generation() < 14 ? (combatant as unknown as { sceneId?: string | null }).sceneId : null;
  return own ?? (combatant.parent as Combat.Implementation | null)?._source.scene ?? null;
}

/** A new combatant's scene in its creation data, where the generation has the field (v13 `sceneId`; v14 none). */
export function sceneIdField(sceneId: string): { sceneId?: string } {
  return generation() < 14 ? { sceneId } : {};
}

/**
 * The keys naming a combatant (issue 26): its actor (`a:<actor>`) when `linked`, then its token
 * (`t:<scene>.<token>`, the scene as combatantSceneId reads it).
 */
export function combatantKeys(combatant: Combatant.Implementation, linked: boolean): string[] {
  const keys: string[] = [];
  if (combatant.actorId && linked) keys.push(`a:${combatant.actorId}`);
  if (combatant.tokenId) keys.push(`t:${combatantSceneId(combatant) ?? ''}.${combatant.tokenId}`);
  return keys;
}

