import type { DayPhase } from './day-phase.js';

/**
 * DESIGN 4 "a flag means what it says", the ladder: once the day's heat has begun (phase `peak` or later), a bucket
 * the rule keeps alive but the forecast gives under 2% is practically dead. It is the share below which the service
 * gives up a pick's legs as lost after the peak (a kill), so the ladder draws it apart from the live buckets (`·`),
 * and a held leg the kill just called lost no longer reads alive. Before the peak (`early`) the afternoon can still
 * bring it: it stays alive.
 */
export const PRACTICALLY_DEAD_BELOW = 0.02;

/** Whether the heat of the day has begun: from the peak phase on. */
export const peakBegan = (phase: DayPhase): boolean => phase !== 'early';

/** A bucket alive by the rule but under 2% once the peak began. */
export function practicallyDead(p: number | null, dead: boolean, phase: DayPhase): boolean {
  return !dead && p !== null && p < PRACTICALLY_DEAD_BELOW && peakBegan(phase);
}
