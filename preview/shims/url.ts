/** node:url for the preview page: the path of a URL (the bundle is served from the repository's root). */
export function fileURLToPath(url: string | URL): string {
  return new URL(String(url)).pathname;
}
