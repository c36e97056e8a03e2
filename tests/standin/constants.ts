/** The part of CONST the system reads (values from fvtt-types common/constants.d.mts, v13). */

export const USER_ROLES = { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 } as const;
export const USER_ROLE_NAMES = { 0: 'NONE', 1: 'PLAYER', 2: 'TRUSTED', 3: 'ASSISTANT', 4: 'GAMEMASTER' } as const;
export const DOCUMENT_OWNERSHIP_LEVELS = { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } as const;

const perm = (defaultRole: number, label: string) => ({ label, hint: '', disableGM: false, defaultRole });
/** defaultRole per permission, as documented in fvtt-types (v13). */
export const USER_PERMISSIONS = {
  ACTOR_CREATE: perm(USER_ROLES.ASSISTANT, 'PERMISSION.ActorCreate'),
  ITEM_CREATE: perm(USER_ROLES.ASSISTANT, 'PERMISSION.ItemCreate'),
  MESSAGE_WHISPER: perm(USER_ROLES.PLAYER, 'PERMISSION.MessageWhisper'),
  QUERY_USER: perm(USER_ROLES.PLAYER, 'PERMISSION.QueryUser'),
  SETTINGS_MODIFY: perm(USER_ROLES.ASSISTANT, 'PERMISSION.SettingsModify'),
  TOKEN_CREATE: perm(USER_ROLES.ASSISTANT, 'PERMISSION.TokenCreate'),
  TOKEN_DELETE: perm(USER_ROLES.ASSISTANT, 'PERMISSION.TokenDelete'),
  MANUAL_ROLLS: perm(USER_ROLES.TRUSTED, 'PERMISSION.ManualRolls'),
} as const;

export const CONST = Object.freeze({
  vtt: 'Foundry VTT',
  BASE_DOCUMENT_TYPE: 'base',
  USER_ROLES,
  USER_ROLE_NAMES,
  USER_PERMISSIONS,
  DOCUMENT_OWNERSHIP_LEVELS,
  DOCUMENT_META_OWNERSHIP_LEVELS: { DEFAULT: -20, NOCHANGE: -10 },
  TOKEN_DISPOSITIONS: { SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 },
  TOKEN_DISPLAY_MODES: { NONE: 0, CONTROL: 10, OWNER_HOVER: 20, HOVER: 30, OWNER: 40, ALWAYS: 50 },
  DEFAULT_TOKEN: 'icons/svg/mystery-man.svg',
  GRID_TYPES: { GRIDLESS: 0, SQUARE: 1, HEXODDR: 2, HEXEVENR: 3, HEXODDQ: 4, HEXEVENQ: 5 },
  GRID_DIAGONALS: { EQUIDISTANT: 0, EXACT: 1, APPROXIMATE: 2, RECTILINEAR: 3, ALTERNATING_1: 4, ALTERNATING_2: 5, ILLEGAL: 6 },
  CHAT_MESSAGE_STYLES: { OTHER: 0, OOC: 1, IC: 2, EMOTE: 3 },
  DICE_ROLL_MODES: { PUBLIC: 'publicroll', PRIVATE: 'gmroll', BLIND: 'blindroll', SELF: 'selfroll' } as const,
  SETTING_SCOPES: { CLIENT: 'client', WORLD: 'world', USER: 'user' },
  COMBAT_ANNOUNCEMENTS: ['startEncounter', 'nextUp', 'yourTurn'],
});

/** v14 message modes (CONFIG.ChatMessage.modes keys) replacing roll modes. */
export const MESSAGE_MODES = ['public', 'gm', 'blind', 'self'] as const;
/** v14 CONFIG.ChatMessage.modes icons (14.366 typings' defaults). */
export const MESSAGE_MODE_ICONS: Record<(typeof MESSAGE_MODES)[number], string> = { public: 'fa-solid fa-globe', gm: 'fa-solid fa-user-secret', blind: 'fa-solid fa-eye-slash', self: 'fa-solid fa-user' };
