/** What the stand-in reads of the installed system's manifest besides its document types (package.ts reads it). */
import { systemPackage } from './package';

/** game.system as core builds it from the manifest: id, title, version, initiative and the token bars. */
export function manifestSystem(): { id: string; title: string; version: string; initiative: string | null; primaryTokenAttribute: string | null; secondaryTokenAttribute: string | null } {
  const m = systemPackage().manifest;
  return { id: m.id, title: m.title, version: m.version, initiative: m.initiative ?? null, primaryTokenAttribute: m.primaryTokenAttribute ?? null, secondaryTokenAttribute: m.secondaryTokenAttribute ?? null };
}
