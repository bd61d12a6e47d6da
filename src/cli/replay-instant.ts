import type { Cache } from '../cache/index.js';
import { isoUtc, parseDateOrInstant } from '../domain/city-time.js';
import { usageError } from './exit-codes.js';

/** An ISO 8601 instant with its offset (`Z` or `+HH:MM`): a date alone, or a time of no zone, is no instant. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** Whether `--at`'s text is an instant: checked before a cache is opened (`export`), and again here. */
export const isInstantText = (text: string): boolean =>
  INSTANT.test(text.trim()) && parseDateOrInstant(text.trim()) !== null;

/**
 * `--at ISO` (`export board --at`, and the monitor's `--at`): the instant of the cache's own history to show it as
 * of (DESIGN 4 "the board as of an instant"). Refused, exit 2, naming the option and the cache's span, when it is not
 * an instant, is before the cache's first row, or is after now (`nowMs`, the caller's clock). The value typed is never
 * repeated (typed-values.ts).
 */
export function replayInstant(text: string, cache: Cache, nowMs: number, option = '--at'): number {
  const span = cache.history.span();
  const spans = span
    ? `the cache spans ${isoUtc(span.firstMs)} to ${isoUtc(span.lastMs)}`
    : 'the cache holds no rows yet';
  const ms = isInstantText(text) ? parseDateOrInstant(text.trim())?.ms : undefined;
  if (ms === undefined)
    throw usageError(`${option} must be an ISO 8601 instant with its offset, e.g. 2026-11-20T15:00:00Z; ${spans}`);
  if (span === null) throw usageError(`${option}: ${spans}, nothing to show as of an instant`);
  if (ms < span.firstMs) throw usageError(`${option} is before the cache's first row; ${spans}`);
  if (ms > nowMs) throw usageError(`${option} is after now; ${spans}`);
  return ms;
}
