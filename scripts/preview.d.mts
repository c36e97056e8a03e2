/** Types of scripts/preview.mjs (the preview page's bundle and server). */
export function buildPreview(): Promise<string>;
export function startPreviewServer(options?: { port?: number; host?: string }): Promise<{ url: string; port: number; close(): Promise<void> }>;
