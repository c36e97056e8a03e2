/** Scenario files: an input adapter that writes a whole encounter down and plays it through the flow. */
export * from './types';
export * from './fields';
export { editDistance, excerpt, show, suggest } from './check';
export * from './validate';
export * from './dice';
export * from './run';
export * from './odds';
