import { existsSync } from 'node:fs';
import { openCache } from '../../cache/index.js';
import { withoutValues } from '../../domain/without-values.js';
import type { Connection } from '../config.js';
import { CliError, EXIT } from '../exit-codes.js';
import { configFile } from '../paths.js';
import { problemLine, statusText } from '../status/render.js';
import { statusReport } from '../status/report.js';
import { checkService, notChecked, type ServiceCheck } from '../status/service-check.js';
import { settingsInForce } from '../status/settings.js';

export interface StatusFlags {
  json?: boolean;
  offline?: boolean;
  db?: string;
}

/**
 * `svc-monitor status`'s work: the cache read as it is (never created, never written: a cron job must not change
 * what it watches), the service asked once unless `--offline`, the report on stdout, and the exit code DESIGN 3
 * gives it with the problems as one line on stderr.
 */
export async function runStatus(flags: StatusFlags, connection: Connection): Promise<void> {
  const settings = settingsInForce(connection, flags.db, process.env);
  const cache = openCache(connection.dbPath, 'read');
  let report: ReturnType<typeof statusReport>;
  try {
    const service = await serviceOf(connection, flags.offline === true);
    report = statusReport({
      cache,
      connection,
      settings,
      configFile: { path: configFile(), exists: existsSync(configFile()) },
      service,
      hostNowMs: Date.now(),
    });
  } finally {
    cache.close();
  }
  report = withoutSecrets(report, [connection.apiKey, ...connection.webhookSecrets]);
  process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : statusText(report));
  if (report.exit_code !== EXIT.ok) throw new CliError(problemLine(report), report.exit_code);
}

async function serviceOf(connection: Connection, offline: boolean): Promise<ServiceCheck> {
  if (offline) return notChecked(connection);
  if (connection.baseUrl === undefined || connection.apiKey === undefined)
    return notChecked(
      connection,
      `no service: set SVC_BASE_URL and SVC_API_KEY, or put base_url and api_key in ${configFile()}`,
    );
  return checkService(connection);
}

/**
 * The report with every text a webhook secret or the key appears in cut where it appears, in every form
 * (domain/without-values.ts). The client cuts the key from its errors as they enter (client/api-client.ts); this
 * is for a webhook secret, which the client never holds, and for a cache whose `last_error` was written before.
 */
function withoutSecrets<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const cut = secrets.filter((s): s is string => s !== undefined && s.length > 0);
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return withoutValues(v, cut);
    if (Array.isArray(v)) return v.map(clean);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x)]));
    return v;
  };
  return clean(value) as T;
}
