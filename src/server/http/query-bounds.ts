import { isoUtc } from '../../domain/city-time.js';
import { timeBounds as boundsOf, TimeBoundsError } from '../../domain/time-bounds.js';
import { badRequest } from './http-error.js';

/**
 * `since`/`until` as bounds comparable with the stored column, by domain/time-bounds.ts's rule (a bad value or
 * since after until: 400 naming the parameters). Stored instants are whole-second UTC strings, so a sub-second
 * bound rounds inward; a date column compares the UTC date.
 */
export function timeBounds(
  kind: 'instant' | 'date',
  since: string | undefined,
  until: string | undefined,
): { since?: string; until?: string } {
  try {
    if (kind === 'date') return boundsOf('date', since, until);
    const ms = boundsOf('instant', since, until);
    return {
      since: ms.since === undefined ? undefined : isoUtc(Math.ceil(ms.since / 1000) * 1000),
      until: ms.until === undefined ? undefined : isoUtc(ms.until),
    };
  } catch (error) {
    if (!(error instanceof TimeBoundsError)) throw error;
    const what = error.bound === 'both' ? 'parameters' : `parameter '${error.bound}'`;
    throw badRequest(`invalid query ${what}: ${error.message}`);
  }
}
