/**
 * Parts of the engine a combat needs only once something in it uses them,
 * kept out of start-up (the bundle budget): the `moved` input's checks
 * (flow/moved.ts, from the first move on the map) and a charge's progress
 * (charges.ts, from the first charge declared). In Foundry a part is a chunk
 * loaded on demand (`loadPart`): the combat loads what its log or state needs
 * before it replays or draws (`partsFor`), the GM's writer loads `moved`
 * before it applies inputs. Node tools register them all statically
 * (procedures/all.ts). Until a part is in memory the engine goes without it:
 * a `moved` input is refused (EnginePartNotLoaded), the timeline shows no
 * charge progress.
 */
import type { FlowState } from './flow/state';

export interface Parts {
  moved: typeof import('./flow/moved');
  charges: typeof import('./charges');
}
export type PartName = keyof Parts;

const LOADERS: { [K in PartName]: () => Promise<Parts[K]> } = {
  moved: () => import('./flow/moved'),
  charges: () => import('./charges'),
};

const have: Partial<Parts> = {};

/** A part, if it is in memory. */
export function part<K extends PartName>(name: K): Parts[K] | undefined {
  return have[name] as Parts[K] | undefined;
}

/** A part now in memory (Node tools import them statically); undefined forgets it (tests). */
export function usePart<K extends PartName>(name: K, module: Parts[K] | undefined): void {
  if (module) have[name] = module;
  else delete have[name];
}

/** Load parts (each once). */
export async function loadParts(names: readonly PartName[]): Promise<void> {
  await Promise.all(names.filter((n) => !have[n]).map(async (n) => usePart(n, await LOADERS[n]())));
}

/** The parts a combat needs that are not in memory: `moved` for a log holding a move, `charges` for a charge declared. */
export function partsFor(kinds: Iterable<string>, state?: FlowState | null): PartName[] {
  const out: PartName[] = [];
  if (!have.moved) for (const t of kinds) if (t === 'moved') {
    out.push('moved');
    break;
  }
  if (!have.charges && state && Object.values(state.declarations ?? {}).some((d) => d.action === 'charge')) out.push('charges');
  return out;
}
