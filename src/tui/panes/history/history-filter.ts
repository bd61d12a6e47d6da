import type { BrowseFilter } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { HISTORICAL_TIME_COLUMN } from '../../../contract/names.js';
import { isoUtc, localDay, parseDateOrInstant } from '../../../domain/city-time.js';
import { TimeBoundsError, timeBounds } from '../../../domain/time-bounds.js';

/**
 * Reads what was typed after `/`: a city id and a date or a range (`2026-11-01..2026-11-20`, `2026-11-01..`,
 * `..2026-11-20`), in any order. Empty text clears the filter.
 */
export function parseHistoryFilter(
  text: string,
  cityIds: readonly string[],
): { filter: BrowseFilter } | { error: string } {
  const filter: BrowseFilter = {};
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    if (cityIds.includes(token)) {
      filter.cityId = token;
      continue;
    }
    const range = token.includes('..') ? token.split('..') : [token, token];
    if (range.length !== 2) return { error: `'${token}' is neither a city nor a date range` };
    const [since, until] = range as [string, string];
    for (const d of [since, until]) {
      if (d !== '' && !parseDateOrInstant(d))
        return { error: `'${token}' is neither a city id (${cityIds.slice(0, 3).join(', ')}, …) nor a date` };
    }
    if (since !== '') filter.since = since;
    if (until !== '') filter.until = until;
    if (since !== '' && until !== '' && !inOrder(since, until)) return { error: `${since} is after ${until}` };
  }
  return { filter };
}

/** since no later than until, by the rule the cache and the service apply (domain/time-bounds.ts). */
function inOrder(since: string, until: string): boolean {
  try {
    timeBounds('instant', since, until);
    return true;
  } catch (error) {
    if (error instanceof TimeBoundsError) return false;
    throw error;
  }
}

/**
 * The filter as the cache reads it for `table`: with a city, a date bounds that city's market day, its local midnight
 * to the next (a trader's `paris 2026-11-27` means Paris's 11-27 market, not the UTC day, whose last hours are the
 * 11-28 market's), on the tables whose rows carry an instant; the daily tables and the strategy records already carry
 * the market day. An instant typed stays that instant.
 */
export function marketDayFilter(filter: BrowseFilter, table: string, cities: readonly City[]): BrowseFilter {
  const tz = cities.find((c) => c.city_id === filter.cityId)?.tz;
  const kind = (HISTORICAL_TIME_COLUMN as Record<string, { kind: string } | undefined>)[table]?.kind;
  if (tz === undefined || kind !== 'instant') return filter;
  const isDate = (d: string | undefined): d is string => d !== undefined && parseDateOrInstant(d)?.kind === 'date';
  return {
    ...filter,
    ...(isDate(filter.since) ? { since: isoUtc(localDay(filter.since, tz).startMs) } : {}),
    // inclusive, to the whole second: the last second before the next day's midnight
    ...(isDate(filter.until) ? { until: isoUtc(localDay(filter.until, tz).endMs - 1000) } : {}),
  };
}

export function describeFilter(filter: BrowseFilter): string {
  const parts: string[] = [];
  if (filter.cityId) parts.push(`city ${filter.cityId}`);
  if (filter.since || filter.until) parts.push(`${filter.since ?? '…'}..${filter.until ?? '…'}`);
  return parts.length ? parts.join(' · ') : 'no filter';
}

export function filterText(filter: BrowseFilter): string {
  const dates = filter.since || filter.until ? `${filter.since ?? ''}..${filter.until ?? ''}` : '';
  return [filter.cityId ?? '', dates].filter(Boolean).join(' ');
}
