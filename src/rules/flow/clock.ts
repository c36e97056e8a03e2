/**
 * The combat's clock as the writer advances Foundry's world time (combat-writer.ts:
 * a turn change's seconds). Apart from read.ts: only the writer's chunk reads it.
 */
import type { FlowState } from './state';

/** Seconds of combat before `state`'s round begins: the surprise segments (six seconds each) or surprise round, then a minute a round. */
export function secondsBeforeRound(state: FlowState | null): number {
  if (!state || state.round <= 0) return 0;
  const surprised = Object.values(state.surprise?.surprised ?? {});
  const surprise =
    state.surprise?.unit === 'segments' ? Math.min(10, Math.max(0, ...surprised.filter((n) => Number.isFinite(n)))) * 6 : 60;
  return surprise + (state.round - 1) * 60;
}
