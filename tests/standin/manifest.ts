/** What the stand-in reads of the system's manifest (system.json) besides its document types. */
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolvePath(dirname(fileURLToPath(import.meta.url)), '../..');
let cached: { primaryTokenAttribute: string | null; secondaryTokenAttribute: string | null } | undefined;

/** game.system.primaryTokenAttribute / secondaryTokenAttribute (core reads them from the manifest). */
export function manifestTokenAttributes(): { primaryTokenAttribute: string | null; secondaryTokenAttribute: string | null } {
  if (!cached) {
    try {
      const m = JSON.parse(readFileSync(resolvePath(REPO_ROOT, 'system.json'), 'utf8'));
      cached = { primaryTokenAttribute: m.primaryTokenAttribute ?? null, secondaryTokenAttribute: m.secondaryTokenAttribute ?? null };
    } catch {
      cached = { primaryTokenAttribute: null, secondaryTokenAttribute: null };
    }
  }
  return { ...cached };
}
