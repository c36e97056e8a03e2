/**
 * node:fs for the preview page: a few files the stand-in reads at install
 * (system.json), put here by preview/main.ts after fetching them.
 */
export const files = new Map<string, string>();
const norm = (p: string) => '/' + p.replace(/^\/+/, '');
export function existsSync(path: string): boolean {
  return files.has(norm(path));
}
export function readFileSync(path: string, _encoding?: string): string {
  const text = files.get(norm(path));
  if (text === undefined) throw new Error(`ENOENT: ${path} (the preview page fetched no such file)`);
  return text;
}
/** The preview page fetches no directory: listing one fails as a missing one does (the stand-in's packs are then empty). */
export function readdirSync(path: string): string[] {
  throw new Error(`ENOENT: ${path} (the preview page lists no directory)`);
}
export function statSync(path: string): { isDirectory(): boolean; isFile(): boolean } {
  const known = files.has(norm(path));
  if (!known) throw new Error(`ENOENT: ${path} (the preview page fetched no such file)`);
  return { isDirectory: () => false, isFile: () => true };
}
