import { InvalidArgumentError } from 'commander';
import { parseDateOrInstant } from '../domain/city-time.js';

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

export function parseInstant(value: string): number {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw new InvalidArgumentError('must be an ISO 8601 date or instant, e.g. 2026-07-01T00:00:00Z');
  }
  return ms;
}

/** `--since`/`--until` of export: checked here, so a bad value is a usage error that names the option only. */
export function parseDateOrInstantArg(value: string): string {
  if (!parseDateOrInstant(value)) throw new InvalidArgumentError('must be YYYY-MM-DD or an ISO 8601 instant');
  return value;
}
