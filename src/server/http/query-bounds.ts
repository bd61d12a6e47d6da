import { isoUtc, parseDateOrInstant } from '../../domain/city-time.js';
import { badRequest } from './http-error.js';

/**
 * Turns `since`/`until` into bounds comparable with the stored column: instants are whole-second UTC strings, so
 * a date means its whole UTC day and sub-second bounds round inward; a date column compares the UTC date.
 */
export function timeBounds(
  kind: 'instant' | 'date',
  since: string | undefined,
  until: string | undefined,
): { since?: string; until?: string } {
  const lower = since === undefined ? undefined : bound('since', since, kind, 'lower');
  const upper = until === undefined ? undefined : bound('until', until, kind, 'upper');
  if (lower !== undefined && upper !== undefined && lower > upper) {
    throw badRequest(`invalid query parameters: since (${since}) is after until (${until})`);
  }
  return { since: lower, until: upper };
}

function bound(name: string, text: string, kind: 'instant' | 'date', side: 'lower' | 'upper'): string {
  const parsed = parseDateOrInstant(text);
  if (!parsed) throw badRequest(`invalid query parameter '${name}': ${text} is not a real date or time`);
  if (kind === 'date') return parsed.date;
  if (parsed.kind === 'date') return `${parsed.date}T${side === 'lower' ? '00:00:00' : '23:59:59'}Z`;
  return isoUtc(side === 'lower' ? Math.ceil(parsed.ms / 1000) * 1000 : parsed.ms);
}
