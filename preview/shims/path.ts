/** node:path for the preview page: POSIX dirname and resolve, enough for the stand-in's repository paths. */
function normalize(parts: string[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (!p || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return '/' + out.join('/');
}
export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}
export function resolve(...paths: string[]): string {
  let parts: string[] = [];
  for (const p of paths) parts = p.startsWith('/') ? p.split('/') : [...parts, ...p.split('/')];
  return normalize(parts);
}
export function join(...paths: string[]): string {
  const joined = paths.filter((p) => p !== '').join('/');
  const out = normalize(joined.split('/'));
  return joined.startsWith('/') ? out : out.slice(1);
}
