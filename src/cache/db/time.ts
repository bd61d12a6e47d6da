import { timeBounds as boundsOf, TimeBoundsError } from '../../domain/time-bounds.js';
import { CacheError } from './cache-error.js';

/** Epoch ms of an instant as the API writes it; null when it is absent or not an instant (stored as NULL). */
export function instantMs(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

export interface Bounds {
  since?: string | number;
  until?: string | number;
}

/**
 * `since`/`until` (inclusive) as bounds on a typed column (epoch ms or `YYYY-MM-DD`), by the service's own rule
 * (domain/time-bounds.ts): a bad value or since after until is a CacheError naming them.
 */
export function timeBounds(kind: 'instant' | 'date', since?: string, until?: string): Bounds {
  try {
    return boundsOf(kind, since, until);
  } catch (error) {
    if (!(error instanceof TimeBoundsError)) throw error;
    throw new CacheError(`invalid ${error.bound === 'both' ? 'since and until' : error.bound}: ${error.message}`);
  }
}

/**
 * The instant of a read without a bound: the newest rows the cache holds, every signal, every alert as it is now (an
 * instant later than any the service writes).
 */
export const NOW_UNBOUNDED = Number.MAX_SAFE_INTEGER;
