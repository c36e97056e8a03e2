/**
 * The system as Foundry reads it from its folder (Data/systems/<id>): the
 * manifest validated as core's package code validates it, read with
 * fallback, so a field that fails falls back to its initial value with a
 * warning (the setup screen's) instead of refusing the package; the folder
 * the templates, languages and compiled packs are read from.
 *
 * Two folders are used: the repository itself (system.json, templates/,
 * lang/, packs/_source/ — the default, what most tests run against) and a
 * built one (`dist/`, whose packs are compiled LevelDB, read by
 * built-system.ts through the official CLI).
 *
 * Source of the rules (see CONFORMANCE.md, P1–P2): issue 24 (v13's
 * `AdditionalTypesField` throws `"base" is a reserved core type for the
 * Combat document`, and the manifest is read with fallback, so the whole
 * `documentTypes` falls back to empty), the v13/v14 typings (which
 * documents have sub-types: `hasTypeData`; their `coreTypes`), and the v13
 * and v14 API pages of `PackageCompendiumData` (`name`, `label`, `path`,
 * `type`, `system` for Actor and Item packs).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCUMENT_OWNERSHIP_LEVELS, USER_ROLES } from './constants';

export const REPO_ROOT = resolvePath(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The documents that take sub-types (`metadata.hasTypeData` in the 13.345.1 and 14.366 typings alike) and
 * their core types (`metadata.coreTypes`; default `[BASE_DOCUMENT_TYPE]`, "base").
 */
export const CORE_TYPES: Readonly<Record<string, readonly string[]>> = {
  ActiveEffect: ['base'],
  Actor: ['base'],
  Card: ['base'],
  Cards: ['deck', 'hand', 'pile'],
  ChatMessage: ['base'],
  Combat: ['base'],
  Combatant: ['base'],
  CombatantGroup: ['base'],
  Item: ['base'],
  JournalEntryPage: ['text', 'image', 'pdf', 'video'],
  RegionBehavior: ['adjustDarknessLevel', 'displayScrollingText', 'executeMacro', 'executeScript', 'modifyMovementCost', 'pauseGame', 'suppressWeather', 'teleportToken', 'toggleBehavior'],
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Core's validation of a package's `documentTypes` (v13 AdditionalTypesField): an object of document names,
 * each a document that takes sub-types, each sub-type an object and none of the document's core types.
 * Throws the first failure, as the field's validation does.
 */
export function validateDocumentTypes(value: unknown): void {
  if (!isObject(value)) throw new Error('documentTypes: is not a valid sub-types configuration');
  for (const [documentName, subtypes] of Object.entries(value)) {
    const reserved = CORE_TYPES[documentName];
    if (!reserved) throw new Error(`documentTypes: '${documentName}' is not a Document type that supports sub-types`);
    if (!isObject(subtypes)) throw new Error(`documentTypes: the ${documentName} sub-types are not an object`);
    for (const [type, config] of Object.entries(subtypes)) {
      if (reserved.includes(type)) throw new Error(`"${type}" is a reserved core type for the ${documentName} document`);
      if (!isObject(config)) throw new Error(`documentTypes: the "${type}" sub-type of ${documentName} is not an object`);
    }
  }
}

/** A system folder as Foundry has read it. */
export interface SystemPackage {
  /** The folder (absolute): system.json, templates/, lang/, the packs. */
  readonly root: string;
  /** The manifest as read, a field that failed validation replaced by its fallback. */
  readonly manifest: any;
  /** The sub-types the world knows, by document name (from the manifest as read; "base" is added by the server). */
  readonly types: Record<string, string[]>;
  /** What the setup screen warns of: each field that failed and fell back. */
  readonly warnings: string[];
  /** Compiled packs read back (built-system.ts), by pack name: the documents and folders with their `_key`; absent: the YAML sources. */
  readonly packs?: ReadonlyMap<string, any[]>;
}

/** Read and validate `<root>/system.json` as Foundry does; a broken `documentTypes` falls back to `{}` with a warning. */
export function readSystemPackage(root: string = REPO_ROOT, packs?: ReadonlyMap<string, any[]>): SystemPackage {
  const manifest = JSON.parse(readFileSync(resolvePath(root, 'system.json'), 'utf8'));
  const warnings: string[] = [];
  try {
    validateDocumentTypes(manifest.documentTypes ?? {});
  } catch (err) {
    warnings.push(`${manifest.id ?? 'system'}: documentTypes fell back to its initial value: ${(err as Error).message}`);
    manifest.documentTypes = {};
  }
  const types = Object.fromEntries(Object.entries((manifest.documentTypes ?? {}) as Record<string, object>).map(([name, t]) => [name, Object.keys(t)]));
  return { root, manifest, types, warnings, packs };
}

let repository: SystemPackage | undefined;
let current: SystemPackage | undefined;

/**
 * The repository's system, read once per process. Where its manifest cannot be read yet (the preview page
 * installs a world before it has fetched system.json), a system with no manifest, not kept: the next
 * install reads again.
 */
function repositoryPackage(): SystemPackage {
  if (repository) return repository;
  try {
    return (repository = readSystemPackage());
  } catch {
    return { root: REPO_ROOT, manifest: {}, types: {}, warnings: [] };
  }
}

/** The installed world's system (installFoundry sets it; the repository's until then). */
export function systemPackage(): SystemPackage {
  return (current ??= repositoryPackage());
}

/** The system a fresh world installs: the given one, or the repository's. */
export function useSystemPackage(pkg?: SystemPackage): SystemPackage {
  current = pkg ?? repositoryPackage();
  return current;
}

/**
 * What Foundry's package rules ask of a system manifest in its folder (the package-rule test reads `dist/`):
 * each is a sentence naming what is wrong; none when the package loads as declared. `exists(path)` tells
 * whether a path relative to the folder is there.
 */
export function packageProblems(manifest: any, exists: (path: string) => boolean): string[] {
  const problems: string[] = [];
  try {
    validateDocumentTypes(manifest.documentTypes ?? {});
  } catch (err) {
    problems.push(`documentTypes would fall back to empty: ${(err as Error).message}`);
  }
  for (const key of ['id', 'title', 'version'] as const) if (typeof manifest[key] !== 'string' || manifest[key] === '') problems.push(`"${key}" is missing`);
  const packNames = new Set<string>();
  for (const [i, pack] of (manifest.packs ?? []).entries()) {
    const name = pack?.name ?? `#${i}`;
    for (const key of ['name', 'label', 'path', 'type'] as const) if (typeof pack?.[key] !== 'string' || pack[key] === '') problems.push(`pack ${name}: "${key}" is missing`);
    if (['Actor', 'Item'].includes(pack?.type) && pack?.system !== manifest.id) problems.push(`pack ${name}: an ${pack.type} pack needs "system": "${manifest.id}"`);
    if (typeof pack?.path === 'string' && !exists(`${pack.path}/CURRENT`)) problems.push(`pack ${name}: no compiled pack at ${pack.path}`);
    // CompendiumOwnershipField (13.345.1 and 14.366 typings): "is not a mapping of USER_ROLES to DOCUMENT_OWNERSHIP_LEVELS".
    for (const [role, level] of Object.entries(pack?.ownership ?? {})) {
      if (!(role in USER_ROLES) || !((level as string) in DOCUMENT_OWNERSHIP_LEVELS)) problems.push(`pack ${name}: ownership ${role}: ${String(level)} is not a role and a level`);
    }
    if (packNames.has(name)) problems.push(`pack ${name}: declared twice`);
    packNames.add(name);
  }
  const folderPacks = (folders: any[]): string[] => (folders ?? []).flatMap((f) => [...(f.packs ?? []), ...folderPacks(f.folders)]);
  for (const name of folderPacks(manifest.packFolders)) if (!packNames.has(name)) problems.push(`packFolders: no pack named ${name}`);
  for (const key of ['esmodules', 'scripts', 'styles'] as const) for (const path of manifest[key] ?? []) if (!exists(path)) problems.push(`${key}: ${path} is not in the package`);
  for (const lang of manifest.languages ?? []) {
    if (!lang?.lang || !lang?.path) problems.push(`languages: an entry without "lang" and "path"`);
    else if (!exists(lang.path)) problems.push(`languages: ${lang.path} is not in the package`);
  }
  return problems;
}
