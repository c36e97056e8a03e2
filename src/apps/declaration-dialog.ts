/**
 * The declaration dialog (issue 10, helper B replaces this file): one
 * combatant's declaration, or the release of its held or prepared action.
 * Reached by `await import()` from the tracker, so start-up does not carry it.
 */
export interface DeclarationDialogOptions {
  /** 'declare': the round's declaration; 'release': a held (segment-d6) or prepared (addict) action released now. */
  mode: 'declare' | 'release';
}

export async function openDeclarationDialog(_combat: Combat.Implementation, _combatantId: string, _options: DeclarationDialogOptions = { mode: 'declare' }): Promise<void> {
  // Placeholder of the shared contract: the dialog itself is being built.
}
