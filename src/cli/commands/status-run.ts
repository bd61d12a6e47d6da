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
  // the service first: on a box with no cache yet, a rejected key (3) or no service (4) is still what is wrong
  const service = await serviceOf(connection, flags.offline === true);
  if (!existsSync(connection.dbPath)) noCache(connection.dbPath, service, [connection.apiKey]);
  const cache = openCache(connection.dbPath, 'read');
  let report: ReturnType<typeof statusReport>;
  try {
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

/**
 * No cache at `path` yet (nothing has synced): its own fact, with the service's when that failed. DESIGN 3's 3 (key
 * rejected) and 4 (service unreachable) win; with the service fine (or not asked) it is exit 2, as opening it is.
 */
function noCache(path: string, service: ServiceCheck, secrets: readonly (string | undefined)[]): never {
  const missing = `no cache at ${path} yet: run \`svc-monitor sync\` to make it`;
  const cut = secrets.filter((s): s is string => s !== undefined && s.length > 0);
  const said = (error: string | null) => withoutValues(`${error ?? 'the service failed'}; and ${missing}`, cut);
  if (service.checked && service.keyAccepted === false) throw new CliError(said(service.error), EXIT.authRejected);
  if (service.checked && service.reachable === false) throw new CliError(said(service.error), EXIT.unreachable);
  throw new CliError(missing, EXIT.usage);
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
