/**
 * Chat cards the combat posts: the surprise when a combat starts, the
 * initiative when a round begins, the recap at the end of every round (the
 * round step by step, with its bleeding, deaths and morale: one card) and the
 * opening morale check, interruptions (from damage.ts, attacks and
 * mid-round actions) here, and attacks (handlers/attack.ts). Every card is posted by the active GM's client through
 * `postCard`, in a message mode: a card of a player's request (an attack,
 * and an interruption it causes) in the mode that player chose; the cards of
 * the GM's own controls (end of round, morale, an interruption from a sheet)
 * in the active GM's own mode. Only the active GM posts them: this is part
 * of the GM's side (handlers/index.ts), a chunk loaded on first use.
 */
import type { FlowState } from '../rules/flow';
import type { EndEvent } from '../rules/procedure';
import { initiativeRecap, roundRecap, surpriseRecap, type RecapLine } from '../rules/recap';
import { GM_VIEW, timeline, type TimelineView, type Viewer } from '../rules/timeline';
import { SYSTEM_ID, monsterRollsPrivate } from '../settings';
import { applyMessageMode, currentMessageMode, gmMode, publicMode } from './compat-writes';
import type { TenSegmentsCombat } from './combat';
import { storedActor } from './stored';
import { gmCards } from './card-flags';
import { pluralKey } from '../plural';

/** How a card is shown: a mode of this generation and whose it is (for "self"); by default the running user's own. */
export interface CardMode {
  mode: string;
  user: User.Implementation;
}

/** Post a chat card in a message mode (by default this client's user's current one). */
export async function postCard(data: Record<string, unknown>, shown?: CardMode): Promise<void> {
  const shaped = shown ? applyMessageMode(data, shown.mode, shown.user) : applyMessageMode(data);
  await ChatMessage.create(shaped);
}

/* ------------------------------------------- cards told from the timeline view */

/**
 * What everyone may see: a player who owns no side (`sides: []`) and sees no
 * hidden combatant. Built from it, a card shown to players tells nothing a
 * player's own screens would not (the view model decides: README, "The
 * timeline view").
 */
export function publicViewer(combat: Combat.Implementation): Viewer {
  return { gm: false, sides: [], hidden: combat.combatants.filter((c) => !!c.hidden).map((c) => c.id as string) };
}

/** Lines of a card as text, each localized (and the fields that are keys themselves first). */
export function cardText(lines: readonly RecapLine[]): { text: string; heading: boolean }[] {
  const i18n = game.i18n!;
  return lines.map((l) => {
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(l.data)) data[k] = l.localized?.includes(k) ? i18n.localize(String(v)) : String(v);
    const key = l.count === undefined ? l.key : pluralKey(l.key, l.count, i18n.lang, (k) => i18n.has(k));
    return { text: i18n.format(key, data), heading: !!l.heading };
  });
}

/** Is a card shown in `mode` by this client whispered to GMs only (gm, blind, or the GM's self)? */
function gmsOnly(mode: string): boolean {
  const whisper = (applyMessageMode({}, mode).whisper as string[] | undefined) ?? [];
  return whisper.length > 0 && whisper.every((id) => !!game.users!.get(id)?.isGM);
}

interface ViewCard {
  kind: string;
  title: string;
  round: number;
  /** The step a card of one step belongs to (flag `step`). */
  step?: number;
  /**
   * Posted once: a card whose same text is already in the chat for this
   * combat, round (and step) is not posted again — the moment played again
   * after Previous. A different text (the round went otherwise) is posted.
   */
  once?: boolean;
  lines: (view: TimelineView) => RecapLine[];
  /** What the players' version leaves out beyond what the public viewer hides (the monsters' dice: monsterRollsPrivate). */
  forPlayers?: (view: TimelineView) => TimelineView;
}

/**
 * A card told from the timeline view, in a mode (by default the active GM's
 * own). Whispered to the GMs only, it is built from the GM's view. Shown to
 * players, it is built from what everyone may see (`publicViewer`); when the
 * GM's view tells more (a hidden combatant, another side's casting), the
 * GMs also get the full card, whispered (kind `<kind>-gm`).
 */
async function postViewCard(combat: Combat.Implementation, state: FlowState, card: ViewCard, mode: string = currentMessageMode()): Promise<void> {
  const render = async (view: TimelineView, gmVersion: boolean) => {
    const lines = cardText(card.lines(view));
    if (lines.length === 0) return null;
    const note = gmVersion ? game.i18n!.localize('TENSEG.Chat.GMVersion') : '';
    return foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/lines.hbs`, { kind: card.kind, title: card.title, note, lines });
  };
  const flags = (kind: string) => ({ [SYSTEM_ID]: { kind, combat: combat.id, round: card.round, ...(card.step !== undefined ? { step: card.step } : {}) } });
  const post = async (content: string, kind: string, shown: CardMode) => {
    if (card.once && alreadyPosted(combat, kind, card, content)) return;
    await postCard({ content, flags: flags(kind) }, shown);
  };
  const full = await render(timeline(state, GM_VIEW), false);
  if (gmsOnly(mode)) {
    if (full) await post(full, card.kind, { mode, user: game.user! });
    return;
  }
  const seen = timeline(state, publicViewer(combat));
  const shown = await render(card.forPlayers ? card.forPlayers(seen) : seen, false);
  if (shown) await post(shown, card.kind, { mode, user: game.user! });
  if (full && full !== shown) await post((await render(timeline(state, GM_VIEW), true)) as string, `${card.kind}-gm`, { mode: gmMode(), user: game.user! });
}

/** Is a card of this kind, combat, round (and step) with this very text already in the chat? */
function alreadyPosted(combat: Combat.Implementation, kind: string, card: ViewCard, content: string): boolean {
  // Stored content is trimmed (and may be cleaned): compared with runs of white space as one.
  const norm = (html: unknown) => String(html ?? '').replace(/\s+/g, ' ').trim();
  const text = norm(content);
  // A GM's cards only: a player's message with the same flags and text does not keep the GM's card from the chat.
  return gmCards().some(({ message: m, flags: f }) => f.kind === kind && f.combat === combat.id && f.round === card.round && f.step === card.step && norm(m.content) === text);
}

/**
 * The surprise card of a combat just started: each side's roll and result,
 * alerted sides, adjustments by name, the never surprised. Public by default
 * (seed 004, footnote: surprise is best rolled in public), in `mode` if given.
 */
export async function postSurpriseCard(combat: Combat.Implementation, state: FlowState, mode: string = publicMode()): Promise<void> {
  const title = game.i18n!.localize('TENSEG.Chat.Surprise.Title');
  // The card says how it was rolled: in public, or for the GMs only (the GM's choice in the surprise dialog).
  const how: RecapLine = { key: gmsOnly(mode) ? 'TENSEG.Chat.Surprise.RolledGM' : 'TENSEG.Chat.Surprise.RolledPublic', data: {} };
  // Said only where the card shows a roll: a surprise the GM ruled without dice (individual-speed, alerted sides) was not rolled.
  const rolled = (l: RecapLine) => /^TENSEG\.Chat\.Surprise\.(SideRolled|OwnRoll)\./.test(l.key);
  const lines = (view: TimelineView) => {
    const told = surpriseRecap(view);
    return told.some(rolled) ? [...told, how] : told;
  };
  await postViewCard(combat, state, { kind: 'surprise', title, round: state.round, lines }, mode);
}

/**
 * The view without the initiative counts of combatants no player owns (the GMs get them whispered). A side's die stays:
 * it tells the players when they act (segment-d6: "each party acts in the segment indicated by the other party's die roll").
 */
function withoutMonsterDice(combat: Combat.Implementation, view: TimelineView): TimelineView {
  const owned = (id: string) => !!combat.combatants.get(id)?.hasPlayerOwner;
  return {
    ...view,
    combatants: view.combatants.map((c) => {
      if (owned(c.id) || c.initiative === undefined) return c;
      const { initiative: _count, ...rest } = c;
      return rest;
    }),
  };
}

/** The initiative card of a round just begun (nothing where no initiative is rolled: the surprise segments), in the active GM's own mode. */
export async function postInitiativeCard(combat: Combat.Implementation, state: FlowState): Promise<void> {
  if (!state.initiative) return;
  const title = game.i18n!.format('TENSEG.Chat.Initiative.Title', { round: String(state.round) });
  const card: ViewCard = { kind: 'initiative', title, round: state.round, lines: initiativeRecap };
  if (monsterRollsPrivate()) card.forPlayers = (view) => withoutMonsterDice(combat, view);
  await postViewCard(combat, state, card);
}

/**
 * The card of a round that has just ended, every round: its recap step by
 * step (seed 004 phase 10), with the bleeding, deaths and morale of its end,
 * in the active GM's own mode. One card per round end (and, where players
 * see it and the GM's view tells more, the GMs' full version). The round
 * ended again the same way after Previous does not post it twice.
 */
export async function postEndOfRoundCard(combat: Combat.Implementation, state: FlowState): Promise<void> {
  const surprise = state.surprise.unit === 'round' ? 'TENSEG.Chat.EndOfRound.SurpriseRound' : 'TENSEG.Chat.EndOfRound.SurpriseSegments';
  const title = state.round === 0 ? game.i18n!.localize(surprise) : game.i18n!.format('TENSEG.Chat.EndOfRound.Title', { round: String(state.round) });
  // The heading line of the recap says what the title says.
  const lines = (view: TimelineView) => roundRecap(view, { steps: true }).filter((l) => l.key !== 'TENSEG.Recap.Round' && l.key !== 'TENSEG.Recap.Surprise');
  await postViewCard(combat, state, { kind: 'end-of-round', title, round: state.round, lines, once: true });
}

/**
 * The lines of a spell-off card: each spell or device going off in the step
 * being played, by caster, with its target where the view shows one. Told
 * from the view, so a player's card names another side's spell only as the
 * view shows it once it goes off (README, "The timeline view").
 */
export function spellOffLines(view: TimelineView): RecapLine[] {
  const step = view.steps.find((s) => s.when === 'current');
  if (!step) return [];
  const names = new Map<string, string>(view.combatants.map((c) => [c.id, c.name]));
  const lines: RecapLine[] = [];
  for (const e of step.entries) {
    if (e.kind !== 'cast-complete' || e.outcome !== 'goes-off') continue;
    const name = names.get(e.combatant) ?? e.combatant;
    const target = e.target !== undefined ? names.get(e.target) : undefined;
    const key = e.device ? 'TENSEG.Chat.SpellOff.Device' : 'TENSEG.Chat.SpellOff.Spell';
    const data: RecapLine['data'] = { name, spell: e.spell ?? '' };
    if (target !== undefined) data.target = target;
    lines.push({ key: target !== undefined ? `${key}Target` : key, data });
  }
  return lines;
}


/**
 * The card of the spells (and devices) going off in the step just reached,
 * in the active GM's own mode: "Segment 6: Halvaine's Sleep goes off." Posted
 * once per step of a round: playing the step again after Previous does not
 * post it twice.
 */
export async function postSpellOffCard(combat: Combat.Implementation, state: FlowState): Promise<void> {
  const gmView = timeline(state, GM_VIEW);
  const current = gmView.steps.find((s) => s.when === 'current');
  const i18n = game.i18n!;
  const when = state.round === 0 ? i18n.localize('TENSEG.Chat.SpellOff.Surprise') : i18n.format('TENSEG.Chat.SpellOff.Round', { round: String(state.round) });
  let title: string;
  if (current?.segment !== undefined) title = i18n.format('TENSEG.Chat.SpellOff.TitleSegment', { when, segment: String(current.segment) });
  else if (current?.count !== undefined) title = i18n.format('TENSEG.Chat.SpellOff.TitleCount', { when, count: String(current.count) });
  // A phase that is itself the spells going off (high-low's "Spells and devices go off") is not named twice.
  else if (current?.phase === 'spells') title = i18n.format('TENSEG.Chat.SpellOff.TitleSpellPhase', { when, phase: i18n.localize('TENSEG.Phase.spells') });
  else title = i18n.format('TENSEG.Chat.SpellOff.TitlePhase', { when, phase: i18n.localize(`TENSEG.Phase.${current?.phase ?? ''}`) });
  await postViewCard(combat, state, { kind: 'spell-off', title, round: state.round, step: state.step, lines: spellOffLines, once: true });
}

/** A morale check made (at once, or by the end of the round), with the Roll it was rolled with (none: the GM's own result, or no roll). */
export interface MoraleCheckMade {
  event: Extract<EndEvent, { kind: 'morale' }>;
  roll?: Roll;
}

/** The words of a check: "Orc 2 rolls 9 on 2d6 against morale 8: breaks and flees" (its key and data). */
export function moraleCheckLine(name: string, check: MoraleCheckMade): RecapLine {
  const { event: e, roll } = check;
  const result = e.passed ? 'TENSEG.Chat.Morale.Holds' : e.surrendered ? 'TENSEG.Chat.Morale.Surrenders' : 'TENSEG.Chat.Morale.Breaks';
  if (e.method === 'gm') return { key: 'TENSEG.Chat.Morale.Ruled', data: { name, result }, localized: ['result'] };
  if (e.roll === 0 && !e.passed) return { key: 'TENSEG.Chat.Morale.Automatic', data: { name, result }, localized: ['result'] };
  const dice = roll ? String(roll.formula).replace(/^1d/, 'd') : '';
  const data = { name, roll: e.roll, total: e.total, target: e.target, dice, result };
  // individual-speed: 3d6 plus the creature's modifiers against a target number.
  if (e.total !== e.roll) return { key: 'TENSEG.Chat.Morale.RolledTotal', data, localized: ['result'] };
  return { key: 'TENSEG.Chat.Morale.Rolled', data, localized: ['result'] };
}

/**
 * The card of each morale check as it is made, by the active GM: the dice as a real Roll (Dice So Nice shows it),
 * the combatant and the result in words. In the active GM's own mode; a monster's check asked for in public is
 * whispered to the GMs while the world keeps monster rolls private, a hidden combatant's always.
 */
export async function postMoraleChecks(combat: Combat.Implementation, round: number, checks: readonly MoraleCheckMade[], titleKey = 'TENSEG.Chat.Morale.Title'): Promise<void> {
  const title = game.i18n!.localize(titleKey);
  for (const check of checks) {
    const combatant = combat.combatants.get(check.event.combatant);
    const lines = cardText([moraleCheckLine(combatant?.name ?? check.event.combatant, check)]);
    const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/lines.hbs`, { kind: 'morale', title, note: '', lines });
    const mode = currentMessageMode();
    const secret = !!combatant?.hidden || (mode === publicMode() && !combatant?.hasPlayerOwner && monsterRollsPrivate());
    await postCard(
      {
        content,
        rolls: check.roll ? [check.roll] : [],
        speaker: ChatMessage.getSpeaker({ actor: storedActor(combatant?.actor) }),
        flags: { [SYSTEM_ID]: { kind: 'morale', combat: combat.id, round, combatant: check.event.combatant, passed: check.event.passed } },
      },
      { mode: secret ? gmMode() : mode, user: game.user! },
    );
  }
}

/** Chat card for an interrupted or prevented casting, with the GM's undo button; shown as the attack that caused it was (`shown`), else in the active GM's own mode. */
export async function postInterruptionCard(combat: TenSegmentsCombat, state: FlowState, i: { casting: string; caster: string; spell: string; outcome: string; expended: boolean }, shown?: CardMode): Promise<void> {
  const combatant = combat.combatants.get(i.caster);
  const content = await foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/interruption.hbs`, {
    caster: combatant?.name ?? i.caster,
    spell: i.spell,
    outcome: i.outcome,
    expended: i.expended,
    round: state.round,
    casting: i.casting,
    combat: combat.id,
  });
  const data = {
    content,
    speaker: ChatMessage.getSpeaker({ actor: storedActor(combatant?.actor) }),
    // What the log has of it (card-flags.ts: the Undo is drawn only where the log bears the card out).
    flags: { [SYSTEM_ID]: { kind: 'interruption', combat: combat.id, casting: i.casting, caster: i.caster, round: state.round } },
  };
  const shaped = shown ? applyMessageMode(data, shown.mode, shown.user) : applyMessageMode(data);
  // Whispered (the blow rolled GM-only, or the GM's mode private): the caster's owners are told too. The card holds
  // no dice, so a GM-only roll stays hidden; it is never blind to them.
  const whisper = shaped.whisper;
  if (Array.isArray(whisper) && whisper.length > 0) {
    const actor = combatant?.actor;
    const owners = (game.users?.contents ?? []).filter((u) => !u.isGM && !!actor?.testUserPermission(u, 'OWNER')).map((u) => u.id as string);
    shaped.whisper = [...new Set([...(whisper as string[]), ...owners])];
    if (owners.length > 0) shaped.blind = false;
  }
  await ChatMessage.create(shaped as never);
}
