import type { Command } from 'commander';
import { Cache } from '../../cache/cache.js';
import { openCache } from '../../cache/open-cache.js';
import { resolveConnection } from '../config.js';
import { usageError } from '../exit-codes.js';

const FORMATS = ['json', 'ndjson', 'csv'] as const;
type Format = (typeof FORMATS)[number];

/** RFC 4180 field: quoted when it holds a comma, quote or line break; nested values as their JSON. */
function csvField(value: unknown): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV table: the columns every row has, in order of first appearance. */
export function toCsv(rows: readonly string[]): string {
  const objects = rows.map((json) => JSON.parse(json) as Record<string, unknown>);
  const columns = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const lines = [columns.map(csvField).join(','), ...objects.map((o) => columns.map((c) => csvField(o[c])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

export function formatRows(rows: readonly string[], format: Format): string {
  if (format === 'ndjson') return rows.map((row) => `${row}\n`).join('');
  if (format === 'csv') return rows.length === 0 ? '' : toCsv(rows);
  return rows.length === 0 ? '[]\n' : `[\n${rows.join(',\n')}\n]\n`;
}

/** `svc-monitor export NAME`: cache contents, API rows exactly as the API returned them. */
export function exportCommand(program: Command): void {
  program
    .command('export')
    .description('print cache contents')
    .argument(
      '<name>',
      'cities, current, forecasts, fusion-locks, no24, yescore, svc-max-picks, historical/<table>, webhook-events, insurance-picks, edge-trades, alerts',
    )
    .option('--format <f>', 'json, ndjson or csv', 'json')
    .option('--city <id>', 'only this city')
    .option('--since <date>', 'lower bound (inclusive)')
    .option('--until <date>', 'upper bound (inclusive)')
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .action((name: string, flags: { format: string; city?: string; since?: string; until?: string; db?: string }) => {
      if (!(FORMATS as readonly string[]).includes(flags.format))
        throw usageError(`--format must be one of ${FORMATS.join(', ')}`);
      const cache = new Cache(openCache(resolveConnection({ db: flags.db }).dbPath));
      try {
        const rows = cache.exportRows(name, { cityId: flags.city, since: flags.since, until: flags.until });
        process.stdout.write(formatRows(rows, flags.format as Format));
      } finally {
        cache.db.close();
      }
    });
}
