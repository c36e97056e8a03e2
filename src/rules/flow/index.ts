/**
 * The combat flow: the one driver of every combat (transitions.ts), its
 * state (state.ts), the log Foundry stores and every client replays
 * (log.ts), and what the current step is (read.ts).
 */
export * from './state';
export * from './transitions';
export * from './start';
export * from './log';
export * from './log-write';
export * from './read';
export { castingById } from './step';
export * from './attack';
// The Wound Point inputs' and the GM's phases' code is in the chunks of the procedures that have them (Procedure.flowInputs).
export type { WoundInput, WoundDetail } from './wounds';
export * from './midround';
export type { GmPhaseInput } from './gm-phases';
export * from './limits';
export * from './choose';
export * from './casting';
export { forfeited, provokedBy } from './moves';
export type { MovedDetail, MovedInput } from './moved';
export * from './acting';
export * from './retarget';
