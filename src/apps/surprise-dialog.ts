/**
 * The surprise dialog (issue 10, helper C replaces this file): before the
 * combat starts, the GM sets each side alerted, surprised or rolling, with
 * the situation's modifiers, then rolls surprise (starting the combat).
 * Reached by `await import()` from the tracker.
 */
export async function openSurpriseDialog(_combat: Combat.Implementation): Promise<void> {
  // Placeholder of the shared contract: the dialog itself is being built.
}
