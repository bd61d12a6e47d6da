import { duration } from '../../alerts/installation-health.js';
import type { StatusReport } from '../../contract/status.js';
import { signedDuration } from '../../domain/clock-offset.js';
import { EXIT } from '../exit-codes.js';
import { count, megabytes } from '../format-numbers.js';

/** What the first line says of each exit code. */
const VERDICT: Record<StatusReport['exit_code'], string> = {
  [EXIT.ok]: 'healthy',
  [EXIT.failure]: 'needs a person',
  [EXIT.usage]: 'not configured',
  [EXIT.authRejected]: 'key rejected',
  [EXIT.unreachable]: 'service unreachable',
};

const table = (rows: string[][]): string[] => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd());
};

/** The problems, one line, for stderr when the exit code is not 0. */
export function problemLine(report: StatusReport): string {
  return `${VERDICT[report.exit_code]}: ${report.problems.join('; ')}`;
}

/** `svc-monitor status` for a person: the verdict first, then each part, one fact a line. */
export function statusText(report: StatusReport): string {
  const lines: string[] = [`${VERDICT[report.exit_code]} at ${report.at} (the monitor's clock)`];
  if (report.problems.length > 0) lines.push('', 'problems', ...report.problems.map((p) => `  ${p}`));
  lines.push('', `config  ${report.config.file}${report.config.file_exists ? '' : ' (none: defaults)'}`);
  lines.push(
    ...table(
      report.config.settings
        .filter((s) => !s.key.startsWith('intervals.'))
        // `not set` says where it came from already
        .map((s) => [s.key, s.value === null ? 'none' : String(s.value), s.from === 'not set' ? '' : `(${s.from})`]),
    ),
  );
  lines.push('', `service  ${serviceLine(report.service)}`);
  lines.push('', 'streams');
  lines.push(
    ...table([
      ['stream', 'state', 'last success', 'age', 'every', 'last error'],
      ...report.streams.map((s) => [
        s.stream,
        s.state,
        s.last_success_at ?? 'never',
        s.age_s === null ? '-' : duration(s.age_s * 1000),
        `${duration(s.interval_s * 1000)}${s.interval_from === 'default' ? '' : ' (config)'}`,
        s.last_error === null ? '' : `${s.last_error_at} ${s.last_error}`,
      ]),
    ]),
  );
  lines.push('', `listener  ${listenerLine(report.listener)}`);
  lines.push(...bookLines(report));
  lines.push('', ...cacheLines(report.cache));
  return `${lines.join('\n')}\n`;
}

function serviceLine(service: StatusReport['service']): string {
  const offset =
    service.clock_offset_ms === null
      ? 'clock offset unknown'
      : `clock ${signedDuration(service.clock_offset_ms)} (${service.clock_offset_from === 'measured' ? 'measured' : 'kept in the cache'})`;
  if (!service.checked) return `not checked${service.error ? `: ${service.error}` : ' (--offline)'}; ${offset}`;
  const where = service.base_url ?? '';
  if (service.reachable === false) return `${where} unreachable: ${service.error}; ${offset}`;
  if (service.key_accepted === false) return `${where} reachable, key rejected (401); ${offset}`;
  if (service.error !== null) return `${where} reachable, answering wrongly: ${service.error}; ${offset}`;
  return `${where} reachable, key accepted, ${offset}`;
}

function listenerLine(listener: StatusReport['listener']): string {
  const refusals =
    listener.refusals_last_hour === null ? '' : `; ${listener.refusals_last_hour} refused in the last hour`;
  const refusing = listener.refusing ? `; REFUSING since ${listener.last_refusal_at ?? 'unknown'}` : '';
  if (!listener.registered) return `no verified delivery yet${refusals}${refusing}`;
  return `registered: last verified delivery ${listener.last_verified_at}${refusals}${refusing}`;
}

/**
 * The book's horizon (DESIGN 4): the screens' note while a city's today began before it, else that today's book is
 * whole; then what the book holds of picks it never received.
 */
function bookLines(report: StatusReport): string[] {
  const { book, insurance_picks_since: since } = report;
  const from = book.horizon_from === 'registration' ? "the listener's registration" : 'the first verified delivery';
  const head =
    book.note === null
      ? [`book      whole today: every city's day began after ${from} (${since})`]
      : since === null
        ? [`book      ${book.note}`]
        : [`book      ${book.note}`, `          from ${from}: picks made before it never reached the monitor`];
  const apart = [
    book.addons_not_received > 0 ? plural(book.addons_not_received, 'addon') : '',
    book.kills_not_received > 0 ? plural(book.kills_not_received, 'kill') : '',
  ].filter((part) => part !== '');
  return apart.length === 0
    ? head
    : [...head, `          pick not received: ${apart.join(', ')} (shown apart in Positions)`];
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function cacheLines(cache: StatusReport['cache']): string[] {
  const biggest = Object.entries(cache.rows)
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, 5)
    .map(([name, n]) => `${name} ${count(n)}`);
  const days = cache.oldest_day === null ? 'none' : `${cache.oldest_day} .. ${cache.newest_day}`;
  const retention =
    cache.retention_detail_days === null
      ? 'everything kept'
      : `${cache.retention_detail_days} days kept whole, older days thinned to the hour`;
  return [
    `cache  ${cache.path}`,
    ...table([
      [
        'size',
        `${megabytes(cache.size_bytes)} (file ${megabytes(cache.file_bytes)}, WAL ${megabytes(cache.wal_bytes)})`,
      ],
      ['rows', `${count(cache.total_rows)}${biggest.length > 0 ? `: ${biggest.join(', ')}, ...` : ''}`],
      ['days', days],
      [
        'growth',
        `about ${megabytes(cache.growth_bytes_a_day)} a day (${count(cache.rows_last_day)} rows in the last day)`,
      ],
      ['retention', retention],
    ]),
  ];
}
