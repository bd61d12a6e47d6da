import {
  checkStream,
  installationProblems,
  NOTIFY_FAILURES_WITHIN_MS,
  type StreamCheck,
} from '../../alerts/installation-health.js';
import type { Cache, ListenerHealth } from '../../cache/index.js';
import type {
  Setting,
  StatusBook,
  StatusCache,
  StatusListener,
  StatusReport,
  StatusStream,
} from '../../contract/status.js';
import { type BookHorizon, booksNote } from '../../domain/book-horizon.js';
import { localDate, localDay, openSinceDate } from '../../domain/city-time.js';
import { DEFAULT_INTERVALS_MS, POLLED_STREAMS } from '../../domain/streams.js';
import type { Connection } from '../config.js';
import { EXIT } from '../exit-codes.js';
import type { ServiceCheck } from './service-check.js';

export interface StatusInputs {
  cache: Cache;
  connection: Connection;
  settings: Setting[];
  configFile: { path: string; exists: boolean };
  service: ServiceCheck;
  /** The host's clock (ms). */
  hostNowMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Every fact of `svc-monitor status` (DESIGN 3), judged on the monitor's clock: the host's plus the service's offset
 * just measured, else the one the cache kept (DESIGN 4 "the monitor's clock").
 */
export function statusReport(inputs: StatusInputs): StatusReport {
  const { cache, connection, service } = inputs;
  const keptOffset = cache.streams.clockOffset();
  const offsetMs = service.offsetMs ?? keptOffset;
  const nowMs = inputs.hostNowMs + (offsetMs ?? 0);
  const nowIso = iso(nowMs);
  const { checks, rows: streams } = streamRows(cache, connection, nowMs, inputs.hostNowMs);
  const health = cache.inbox.listenerHealth(nowIso);
  const listener = listenerFacts(health);
  const book = bookFacts(cache, nowMs);
  const notify = cache.health.notifyCommandFailures(nowMs - NOTIFY_FAILURES_WITHIN_MS);
  const problems = [
    ...serviceProblems(service, connection),
    ...installationProblems(
      checks,
      {
        refusing: listener.refusing,
        refusalsLastHour: listener.refusals_last_hour,
        lastRefusalAt: listener.last_refusal_at,
        lastRefusalCause: health.lastRefusalCause,
      },
      notify,
    ),
  ];
  return {
    at: nowIso,
    exit_code: exitCode(service, connection, problems),
    problems,
    config: { file: inputs.configFile.path, file_exists: inputs.configFile.exists, settings: inputs.settings },
    service: {
      checked: service.checked,
      base_url: service.baseUrl,
      reachable: service.reachable,
      key_accepted: service.keyAccepted,
      clock_offset_ms: offsetMs === null ? null : Math.round(offsetMs),
      clock_offset_from: service.offsetMs !== null ? 'measured' : keptOffset !== null ? 'cache' : 'none',
      error: service.error,
    },
    streams,
    listener,
    insurance_picks_since: book.horizon?.at ?? null,
    book: book.facts,
    cache: cacheFacts(cache, connection, nowMs),
  };
}

const configured = (connection: Connection) => connection.baseUrl !== undefined && connection.apiKey !== undefined;

/** DESIGN 3: 3 key rejected and 4 unreachable say more than 1; 2 when there is no service to ask. */
function exitCode(
  service: ServiceCheck,
  connection: Connection,
  problems: readonly string[],
): StatusReport['exit_code'] {
  if (service.checked && service.keyAccepted === false) return EXIT.authRejected;
  if (service.checked && service.reachable === false) return EXIT.unreachable;
  if (!service.checked && service.error !== null && !configured(connection)) return EXIT.usage;
  return problems.length > 0 ? EXIT.failure : EXIT.ok;
}

function serviceProblems(service: ServiceCheck, connection: Connection): string[] {
  if (!service.checked) return service.error === null ? [] : [service.error];
  if (service.keyAccepted === false) return [`the service rejected the API key from ${keyFrom(connection)} (401)`];
  if (service.reachable === false) return [`${service.baseUrl}: ${service.error}`];
  if (service.error !== null) return [`the service answered, but not as the interface does: ${service.error}`];
  return [];
}

const keyFrom = (connection: Connection) =>
  connection.apiKeyFrom === 'SVC_API_KEY' ? 'SVC_API_KEY' : `the config file (${connection.apiKeyFrom})`;

/**
 * Each polled stream judged at `nowMs` (its age) and `hostNowMs` (whether it is stale: installation-health.ts) against
 * its interval (the config's, else the default), with what the cache keeps of it.
 */
function streamRows(
  cache: Cache,
  connection: Connection,
  nowMs: number,
  hostNowMs: number,
): { checks: StreamCheck[]; rows: StatusStream[] } {
  const states = cache.streams.states();
  const fileIntervals = connection.fileSettings?.intervals ?? {};
  const checks: StreamCheck[] = [];
  const rows = POLLED_STREAMS.map((stream): StatusStream => {
    const state = states.find((s) => s.stream === stream);
    const interval = connection.intervals[stream] ?? DEFAULT_INTERVALS_MS[stream];
    const check = checkStream(state, stream, nowMs, interval, hostNowMs);
    checks.push(check);
    return {
      stream,
      interval_s: check.intervalMs / 1000,
      interval_from: fileIntervals[stream] !== undefined ? 'config file' : 'default',
      state: check.verdict,
      last_success_at: state?.last_success_at ?? null,
      age_s: check.ageMs === null ? null : seconds(check.ageMs),
      stale_after_s: check.staleAfterMs / 1000,
      last_error_at: state?.last_error_at ?? null,
      last_error: state?.last_error ?? null,
    };
  });
  return { checks, rows };
}

/** The listener as the cache knows it, whichever process runs it. */
function listenerFacts(health: ListenerHealth): StatusListener {
  return {
    registered: health.firstVerifiedAt !== null,
    first_verified_at: health.firstVerifiedAt,
    last_verified_at: health.lastVerifiedAt,
    refusals_last_hour: health.refusalsLastHour,
    last_refusal_at: health.lastRefusalAt,
    refusing: health.refusing,
  };
}

/**
 * The book's horizon (DESIGN 4) as the screens say it of each city's today at `nowMs`, and what the book holds of
 * picks it never received on live markets (today's or later, in each city).
 */
function bookFacts(cache: Cache, nowMs: number): { horizon: BookHorizon | null; facts: StatusBook } {
  const cities = cache.resources.cities();
  const today = new Map(cities.map((c) => [c.city_id, localDate(nowMs, c.tz)]));
  const live = (p: { city_id: string; market_date: string }) =>
    p.market_date >= (today.get(p.city_id) ?? new Date(nowMs).toISOString().slice(0, 10));
  const held = cache.positions.notReceived(openSinceDate(nowMs), nowMs);
  // no city cached yet: the UTC day stands for the day on screen
  const starts =
    cities.length === 0
      ? [Date.parse(`${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`)]
      : cities.map((c) => localDay(today.get(c.city_id) as string, c.tz).startMs);
  return {
    horizon: held.horizon,
    facts: {
      horizon_from: held.horizon?.from ?? null,
      note: booksNote(held.horizon, starts, 'iso'),
      addons_not_received: held.addons.filter(live).length,
      kills_not_received: held.kills.filter(live).length,
    },
  };
}

function cacheFacts(cache: Cache, connection: Connection, nowMs: number): StatusCache {
  const { fileBytes, walBytes } = cache.health.fileSize();
  const rows = cache.health.rowsByTable();
  const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
  const span = cache.history.span();
  const rowsLastDay = cache.health.rowsOfLastDay(nowMs);
  const size = fileBytes + walBytes;
  return {
    path: cache.file,
    size_bytes: size,
    file_bytes: fileBytes,
    wal_bytes: walBytes,
    rows,
    total_rows: totalRows,
    oldest_day: span === null ? null : iso(span.firstMs).slice(0, 10),
    newest_day: span === null ? null : iso(span.lastMs).slice(0, 10),
    rows_last_day: rowsLastDay,
    // the day's rows at the file's bytes a row: what the file grows by a day at the present cadence
    growth_bytes_a_day: totalRows === 0 ? 0 : Math.round((rowsLastDay * size) / totalRows),
    retention_detail_days: connection.detailDays,
  };
}
