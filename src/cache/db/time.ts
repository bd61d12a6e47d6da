import { parseDateOrInstant } from '../../domain/city-time.js';
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
 * `since`/`until` (inclusive; YYYY-MM-DD or an ISO instant) as bounds on a typed column, with the server's meaning:
 * on an instant column a date is its whole UTC day; on a date column an instant is its UTC date.
 */
export function timeBounds(kind: 'instant' | 'date', since?: string, until?: string): Bounds {
  return {
    since: since === undefined ? undefined : bound('since', since, kind, 'lower'),
    until: until === undefined ? undefined : bound('until', until, kind, 'upper'),
  };
}

function bound(name: string, text: string, kind: 'instant' | 'date', side: 'lower' | 'upper'): string | number {
  const parsed = parseDateOrInstant(text);
  if (!parsed) throw new CacheError(`invalid ${name} '${text}': expected YYYY-MM-DD or an ISO 8601 instant`);
  if (kind === 'date') return parsed.date;
  if (parsed.kind === 'date' && side === 'upper') return parsed.ms + 86_400_000 - 1;
  return parsed.ms;
}
