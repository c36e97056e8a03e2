/**
 * The scene's "Outdoors" checkbox in core's Scene configuration (a chunk
 * loaded at the first `renderSceneConfig`; src/system.ts registers the hook).
 * It writes the scene flag `flags['ten-segments'].outdoors` (absent or false:
 * indoors) through core's own form: the field is named after the flag, so
 * SceneConfig's submit (FormDataExtended → the document's update) saves it
 * with the rest. src/documents reads the flag into addict's chargeOutdoors
 * (a charge outdoors moves +⅓, indoors doubled: seed 004, footnote 9).
 *
 * Core's SceneConfig is an ApplicationV2 (HandlebarsApplicationMixin of
 * DocumentSheetV2) in v13 and v14; both render a `grid` part, the tab
 * `<div class="tab" data-group="sheet" data-tab="grid">` (v13's tabs: basics,
 * grid, lighting, ambience; v14's: basics, grid, levels, visibility,
 * environment, misc). The field goes at the end of that tab, as core's
 * `.form-group` markup (label, `.form-fields` with the input, `p.hint`); a
 * sheet without that tab gets it at the end of its basics tab, else of its
 * form. A partial render that keeps the grid part keeps the field already
 * there (never two).
 */
import { SYSTEM_ID } from '../settings';

/** The flag's form name: core's form data expands it into `flags['ten-segments'].outdoors`. */
export const OUTDOORS_FIELD = `flags.${SYSTEM_ID}.outdoors`;

/** What the hook reads of the application: its scene. */
interface SceneConfigLike {
  document?: { id?: string | null; getFlag?(scope: string, key: string): unknown; flags?: Record<string, Record<string, unknown> | undefined> } | null;
  id?: string;
}

/** What the hook uses of an element (an HTMLElement in Foundry; the stand-in gives its parts the same calls). */
interface ElementLike {
  querySelector(selector: string): ElementLike | null;
  insertAdjacentHTML(position: 'beforeend', html: string): void;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Whether the scene is outdoors (its flag; absent: indoors). */
export function sceneOutdoors(scene: SceneConfigLike['document']): boolean {
  const value = scene?.getFlag ? scene.getFlag(SYSTEM_ID, 'outdoors') : scene?.flags?.[SYSTEM_ID]?.outdoors;
  return value === true;
}

/** The field's markup: core's form-group with a checkbox, its label and hint. */
export function outdoorsFieldHTML(checked: boolean, idPrefix: string): string {
  const i18n = game.i18n!;
  const id = `${idPrefix}-${OUTDOORS_FIELD}`;
  return (
    `<div class="form-group ten-segments-outdoors">` +
    `<label for="${escape(id)}">${escape(i18n.localize('TENSEG.SceneConfig.Outdoors'))}</label>` +
    `<div class="form-fields"><input type="checkbox" id="${escape(id)}" name="${OUTDOORS_FIELD}"${checked ? ' checked' : ''}></div>` +
    `<p class="hint">${escape(i18n.localize('TENSEG.SceneConfig.OutdoorsHint'))}</p>` +
    `</div>`
  );
}

/** The `renderSceneConfig` hook's body: the checkbox in the grid tab (once), checked as the scene's flag is. */
export function onRenderSceneConfig(app: SceneConfigLike, html: ElementLike): void {
  const target = html.querySelector('.tab[data-tab="grid"]') ?? html.querySelector('.tab[data-tab="basics"]') ?? html;
  if (target.querySelector(`[name="${OUTDOORS_FIELD}"]`)) return;
  target.insertAdjacentHTML('beforeend', outdoorsFieldHTML(sceneOutdoors(app.document), app.id ?? app.document?.id ?? 'scene'));
}
