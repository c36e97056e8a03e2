/**
 * Every test file: all five procedures registered, as the Node tools have
 * them (the Foundry bundle loads each on demand, src/rules/registry.ts).
 */
import '../src/rules/procedures/all';
