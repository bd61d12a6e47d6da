import type { BrowseFilter } from '../../../cache/index.js';
import { parseDateOrInstant } from '../../../domain/city-time.js';
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
