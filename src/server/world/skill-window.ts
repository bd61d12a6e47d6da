import { addDays } from '../../domain/city-time.js';

/** How far back every rolling figure of the world looks: model weights and biases, the desk's record, hit rates. */
export const SKILL_WINDOW_DAYS = 30;

const windows = new Map<string, readonly string[]>();
const neighbours = new Map<string, { before: string; after: string }>();

/**
 * The local dates a rolling figure for `date` reads: the 30 before it, newest first. Kept once per date, as the world
 * asks for the same windows for every city, half hour and product.
 */
export function daysBefore(date: string): readonly string[] {
  let days = windows.get(date);
  if (days === undefined) {
    days = Array.from({ length: SKILL_WINDOW_DAYS }, (_, i) => addDays(date, -i - 1));
    windows.set(date, days);
  }
  return days;
}

function around(date: string): { before: string; after: string } {
  let pair = neighbours.get(date);
  if (pair === undefined) {
    pair = { before: addDays(date, -1), after: addDays(date, 1) };
    neighbours.set(date, pair);
  }
  return pair;
}

/** The local date before `date`. */
export const dayBefore = (date: string): string => around(date).before;

/** The local date after `date`. */
export const dayAfter = (date: string): string => around(date).after;
