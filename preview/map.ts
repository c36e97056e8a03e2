/**
 * The preview page's map (?map=1, preview/main.ts): the viewed scene drawn as
 * an SVG in scene pixels (viewBox = the scene's width × height), its grid at
 * the scene's grid size, and every token as a box at its x/y covering its
 * width × height squares, with its name and its side's colour (disposition:
 * friendly, neutral, hostile). The checks read the scene's tokens through
 * `mapTokens` (window.tenPreview.tokens()) and compare them with the boxes.
 *
 * Generic on purpose: it draws whatever scene and tokens it is given; a
 * scenario (a charge, a move) only changes the documents, and the page draws
 * again on every createToken / updateToken / deleteToken.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */

const SVG = 'http://www.w3.org/2000/svg';

/** A token as the checks read it: its id, name, top-left corner (scene pixels) and size (squares). */
export interface MapToken {
  id: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The scene's tokens as the checks read them. */
export function mapTokens(scene: any): MapToken[] {
  if (!scene) return [];
  return (scene.tokens?.contents ?? []).map((t: any) => ({ id: t.id, name: t.name ?? '', x: t.x, y: t.y, width: t.width, height: t.height }));
}

/** The side class of a token's disposition (core's CONST.TOKEN_DISPOSITIONS: 1 friendly, 0 neutral, -1 hostile, -2 secret). */
function sideOf(disposition: number): string {
  if (disposition === 1) return 'friendly';
  if (disposition === 0) return 'neutral';
  if (disposition === -1) return 'hostile';
  return 'secret';
}

function el(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Draw `scene` into `slot` (replacing what was there); no scene: says so. */
export function drawMap(slot: HTMLElement, scene: any): void {
  if (!scene) {
    const p = document.createElement('p');
    p.className = 'preview-map-empty';
    p.textContent = 'No scene is viewed.';
    slot.replaceChildren(p);
    return;
  }
  const size: number = scene.grid?.size ?? 100;
  const width: number = scene.width;
  const height: number = scene.height;
  const svg = el('svg', { class: 'preview-map-board', viewBox: `0 0 ${width} ${height}`, 'data-grid-size': size, 'data-scene-id': scene.id, role: 'img' }) as SVGSVGElement;
  svg.setAttribute('aria-label', `${scene.name}: ${Math.round(width / size)} × ${Math.round(height / size)} squares of ${scene.grid?.distance ?? 5} ${scene.grid?.units ?? 'ft'}`);
  svg.append(el('rect', { class: 'preview-map-ground', x: 0, y: 0, width, height }));
  const lines: string[] = [];
  for (let x = 0; x <= width; x += size) lines.push(`M${x} 0V${height}`);
  for (let y = 0; y <= height; y += size) lines.push(`M0 ${y}H${width}`);
  svg.append(el('path', { class: 'preview-map-grid', d: lines.join('') }));
  const tokens = [...(scene.tokens?.contents ?? [])].sort((a: any, b: any) => (a.sort ?? 0) - (b.sort ?? 0));
  for (const t of tokens) {
    const w = t.width * size;
    const h = t.height * size;
    const group = el('g', { class: `preview-map-token ${sideOf(t.disposition)}`, 'data-token-id': t.id, 'data-name': t.name ?? '' });
    group.append(el('rect', { class: 'preview-map-box', x: t.x, y: t.y, width: w, height: h, rx: size * 0.08 }));
    // The name, shrunk to fit the box.
    const fontSize = Math.min(size * 0.22, (w * 1.6) / Math.max(4, (t.name ?? '').length));
    group.append(el('text', { class: 'preview-map-name', x: t.x + w / 2, y: t.y + h / 2, 'font-size': fontSize.toFixed(1), 'text-anchor': 'middle', 'dominant-baseline': 'central' }, t.name ?? ''));
    group.append(el('title', {}, `${t.name} (${t.width}×${t.height}) at ${t.x / size}, ${t.y / size}`));
    svg.append(group);
  }
  const caption = document.createElement('p');
  caption.className = 'preview-map-caption';
  caption.textContent = `${scene.name} · ${Math.round(width / size)} × ${Math.round(height / size)} squares · ${scene.grid?.distance ?? 5} ${scene.grid?.units ?? 'ft'} each`;
  slot.replaceChildren(caption, svg);
}
