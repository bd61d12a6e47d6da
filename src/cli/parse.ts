import { parseDateOrInstant } from '../domain/city-time.js';
import { InvalidArgumentError } from './commander.js';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return port;
}

export function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('must be a whole number of 0 or more');
  }
  return Number(value);
}

export function parsePositiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a number above 0');
  return n;
}

/** What a date or time option expects, for its error: spec 4.4's forms, and what a time without an offset means. */
const DATE_OR_INSTANT_FORMS = 'must be YYYY-MM-DD or an ISO 8601 instant such as 2026-11-20T06:00Z (no offset: UTC)';

/** `--start`: an instant (a date is its UTC midnight), read the same on every machine whatever its time zone. */
export function parseInstant(value: string): number {
  const parsed = parseDateOrInstant(value);
  if (!parsed) throw new InvalidArgumentError(DATE_OR_INSTANT_FORMS);
  return parsed.ms;
}

/** `--since`/`--until` of export: checked here, so a bad value is a usage error that names the option only. */
export function parseDateOrInstantArg(value: string): string {
  if (!parseDateOrInstant(value)) throw new InvalidArgumentError(DATE_OR_INSTANT_FORMS);
  return value;
}

/**
 * `--since`/`--until` of `sync --backfill`, sent to the service: checked as export's are, and an instant without
 * an offset sent as its UTC instant (the service asks for the offset; the monitor reads none as UTC).
 */
export function parseQueryBoundArg(value: string): string {
  const parsed = parseDateOrInstant(value);
  if (!parsed) throw new InvalidArgumentError(DATE_OR_INSTANT_FORMS);
  return parsed.kind === 'date' ? value : new Date(parsed.ms).toISOString();
}
