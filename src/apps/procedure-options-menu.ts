/**
 * The settings menu's button for the procedure options (Game Settings → Ten
 * Segments → Procedure options). Foundry needs an application class when the
 * menu is registered, at init, but only a GM who opens the menu needs the
 * form: this small class stands in for it and, when Foundry renders it,
 * loads the form (procedure-options.ts, a chunk of its own) and renders that.
 */
const { ApplicationV2 } = foundry.applications.api;

export class ProcedureOptionsMenu extends ApplicationV2 {
  /** Opens the real form (what Foundry does with a menu's class: `new type().render(true)`). */
  override async render(): Promise<this> {
    const { ProcedureOptionsApp } = await import('./procedure-options');
    await new ProcedureOptionsApp().render({ force: true });
    return this;
  }
}
