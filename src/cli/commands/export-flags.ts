import { exportNameProblem } from '../../contract/names.js';
import { parseDateOrInstant } from '../../domain/city-time.js';
import { TimeBoundsError, timeBounds } from '../../domain/time-bounds.js';
import { usageError } from '../exit-codes.js';
import { isInstantText } from '../replay-instant.js';

export const EXPORT_FORMATS = ['json', 'ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportFlags {
  format: string;
  city?: string;
  since?: string;
  until?: string;
  at?: string;
  date?: string;
  db?: string;
}

/**
 * What was asked of `export`, checked before the cache, the board and the config load (commands/export.ts): a wrong
 * name, format, combination or value is answered at the cost of the command line alone. What needs the cache (an
 * `--at` outside its span, an unknown `--city`) is export-run.ts's.
 */
export function checkExportFlags(name: string, flags: ExportFlags): void {
  if (!(EXPORT_FORMATS as readonly string[]).includes(flags.format))
    throw usageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const unknown = exportNameProblem(name);
  if (unknown) throw usageError(unknown);
  if (name === 'board' && (flags.since !== undefined || flags.until !== undefined))
    throw usageError('--since and --until do not apply to board: it is the board as of now, or of --at');
  if (flags.at !== undefined && name !== 'board') throw usageError('--at applies to board only');
  if (flags.at !== undefined && !isInstantText(flags.at))
    throw usageError('--at must be an ISO 8601 instant with its offset, e.g. 2026-11-20T15:00:00Z');
  if (flags.date !== undefined && name !== 'board') throw usageError('--date applies to board only');
  if (flags.date !== undefined && !isMarketDate(flags.date))
    throw usageError('--date must be a market day, YYYY-MM-DD, e.g. 2026-11-20');
  refuseEmptyWindow(flags.since, flags.until);
}

/** A real calendar date written YYYY-MM-DD. */
function isMarketDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && parseDateOrInstant(text)?.date === text;
}

/** `--since` after `--until` asks for nothing: said, by the service's own rule (domain/time-bounds.ts), not `[]`. */
function refuseEmptyWindow(since: string | undefined, until: string | undefined): void {
  try {
    timeBounds('instant', since, until);
  } catch (error) {
    if (error instanceof TimeBoundsError && error.bound === 'both')
      throw usageError('--since is after --until: no row can be in between');
    throw error;
  }
}
