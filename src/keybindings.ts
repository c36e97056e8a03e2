/**
 * Keybindings for the GM (registered at init, as Foundry requires): the next
 * and the previous step of the combat being viewed, by the same path as the
 * tracker's Next and Previous (`requestCombatAction`, as `game.tenSegments.next` / `previous` do: the
 * active GM runs it, another GM's client asks it; a refusal is shown in
 * words). Defaults Shift+] and Shift+[ (a deliberate press: a stray Page Down
 * in a journal must not move the combat); each GM can rebind them in
 * Configure Controls.
 */
import { requestCombatAction } from './documents/queries';
import { SYSTEM_ID } from './settings';

/** What a step key does: nothing without a GM or a combat (the key is left to others), else the step. */
export function stepKey(direction: 'next' | 'previous'): () => boolean {
  return () => {
    const combat = game.combat;
    if (!game.user?.isGM || !combat) return false;
    // As game.tenSegments.next / previous do (api-calls.ts), without waiting for the API's chunk: the request is sent in this task.
    void requestCombatAction(combat as never, direction === 'next' ? 'nextTurn' : 'previousTurn').then((answer) => {
      if (!answer.ok && answer.message) ui.notifications?.error(answer.message);
    });
    return true;
  };
}

/** The default keys (KeyboardEvent codes), with Shift. */
const NEXT_KEY = 'BracketRight';
const PREVIOUS_KEY = 'BracketLeft';

export function registerKeybindings(): void {
  const keybindings = game.keybindings!;
  const { SHIFT } = foundry.helpers.interaction.KeyboardManager.MODIFIER_KEYS;
  keybindings.register(SYSTEM_ID, 'nextStep', {
    name: 'TENSEG.Keybinding.NextStep.Name',
    hint: 'TENSEG.Keybinding.NextStep.Hint',
    editable: [{ key: NEXT_KEY, modifiers: [SHIFT] }],
    restricted: true,
    onDown: stepKey('next'),
  });
  keybindings.register(SYSTEM_ID, 'previousStep', {
    name: 'TENSEG.Keybinding.PreviousStep.Name',
    hint: 'TENSEG.Keybinding.PreviousStep.Hint',
    editable: [{ key: PREVIOUS_KEY, modifiers: [SHIFT] }],
    restricted: true,
    onDown: stepKey('previous'),
  });
}
