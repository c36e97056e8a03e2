/**
 * State a module keeps for the client it runs on (open requests, answers,
 * queues). In Foundry every client is its own page, so module state is the
 * client's; keyed by the client's `game` it stays so wherever several clients
 * share one module (the multi-client stand-in of the tests).
 */
const bags = new WeakMap<object, Map<string, unknown>>();

export function clientState<T>(name: string, make: () => T): T {
  const owner = (globalThis as { game?: object }).game ?? globalThis;
  let bag = bags.get(owner);
  if (!bag) bags.set(owner, (bag = new Map()));
  if (!bag.has(name)) bag.set(name, make());
  return bag.get(name) as T;
}
