/**
 * The GM's question when a token has moved further than its declaration and
 * procedure allow this round (issue 13, Deliver 2): the engine's refusal in
 * its own words, and three answers — Allow, Allow and forfeit the action,
 * Undo the move. The answer goes back to the active GM's movement chunk
 * (src/documents/token-moved.ts), which carries it out; this dialog writes
 * nothing. Closed without an answer, nothing is recorded and the token stays.
 *
 * A chunk of its own, loaded when the first such question is asked.
 */
import { SYSTEM_ID } from '../settings';
import { clientState } from '../documents/client-state';

export type MoveRuling = 'allow' | 'forfeit' | 'undo';
export const MOVE_RULINGS: readonly MoveRuling[] = ['allow', 'forfeit', 'undo'];

/** What the GM is asked: whose move, and the engine's refusal as words. */
export interface MoveQuestion {
  /** Unique per question (one dialog each). */
  id: string;
  name: string;
  /** The engine's refusal, localized. */
  reason: string;
  /** What the round allows it, localized (TENSEG.Movement.Why), where the rules say. */
  why?: string;
}

const ICONS: Record<MoveRuling, string> = {
  allow: 'fa-solid fa-check',
  forfeit: 'fa-solid fa-hand',
  undo: 'fa-solid fa-rotate-left',
};

const LABELS: Record<MoveRuling, string> = {
  allow: 'TENSEG.Move.Dialog.Allow',
  forfeit: 'TENSEG.Move.Dialog.Forfeit',
  undo: 'TENSEG.Move.Dialog.Undo',
};

/** The questions open on this client. */
const openOf = () => clientState('moveDialogs', () => new Map<string, MoveDialog>());

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

export class MoveDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  static override DEFAULT_OPTIONS = {
    classes: ['ten-segments', 'move-dialog'],
    window: { title: 'TENSEG.Move.Dialog.Title', icon: 'fa-solid fa-person-walking-arrow-right' },
    position: { width: 440 },
    actions: { rule: MoveDialog.onRule },
  };

  static override PARTS = {
    body: { template: `systems/${SYSTEM_ID}/templates/dialogs/move.hbs` },
  };

  readonly question: MoveQuestion;
  private answer: ((ruling: MoveRuling) => void) | null;

  constructor(question: MoveQuestion, answer: (ruling: MoveRuling) => void, options: Record<string, unknown> = {}) {
    super({ id: `ten-segments-move-${question.id.replace(/[^A-Za-z0-9_-]/g, '-')}`, ...options });
    this.question = question;
    this.answer = answer;
  }

  override async _prepareContext(options: foundry.applications.api.ApplicationV2.RenderOptions) {
    const context = await super._prepareContext(options);
    const i18n = game.i18n!;
    return Object.assign(context, {
      name: this.question.name,
      reason: this.question.reason,
      why: this.question.why ?? '',
      buttons: MOVE_RULINGS.map((ruling) => ({ ruling, label: i18n.localize(LABELS[ruling]), icon: ICONS[ruling] })),
    });
  }

  /** The GM answers (once): the answer is handed back, the dialog closes. */
  async rule(ruling: MoveRuling): Promise<void> {
    if (!MOVE_RULINGS.includes(ruling)) return;
    const answer = this.answer;
    this.answer = null;
    openOf().delete(this.question.id);
    answer?.(ruling);
    await this.close();
  }

  /** Closed without an answer: nothing is recorded, the token stays where it was moved. */
  override async close(options?: Parameters<foundry.applications.api.ApplicationV2['close']>[0]) {
    this.answer = null;
    openOf().delete(this.question.id);
    return super.close(options);
  }

  static async onRule(this: MoveDialog, _event: Event, target: HTMLElement): Promise<void> {
    await this.rule((target.dataset.ruling ?? '') as MoveRuling);
  }
}

/** The questions open on this client, oldest first (tests; a GM's screen shows them as windows). */
export function moveDialogs(): MoveDialog[] {
  return [...openOf().values()];
}

/** Ask the GM; `answer` is called with the GM's ruling, if one is given. Resolves once the dialog is shown. */
export async function askMoveRuling(question: MoveQuestion, answer: (ruling: MoveRuling) => void): Promise<MoveDialog> {
  const dialog = new MoveDialog(question, answer);
  openOf().set(question.id, dialog);
  await dialog.render({ force: true });
  return dialog;
}
