import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AlertSettings, alertSettingsOf } from '../alerts/alert-settings.js';
import { apiKeyProblem, baseUrlProblem } from '../client/api-key.js';
import type { MonitorConfig, SettlementConfig } from '../contract/config.js';
import { detailDaysOf } from '../domain/retention.js';
import { DEFAULT_HISTORY_HOURS } from '../domain/streams.js';
import { usageError } from './exit-codes.js';
import { configFile, dataDir } from './paths.js';

export interface ConnectionFlags {
  baseUrl?: string;
  apiKey?: string;
  db?: string;
  save?: boolean;
}

export interface Connection {
  baseUrl?: string;
  apiKey?: string;
  /** `--base-url`, `SVC_BASE_URL` or the config file's path: where to fix it. */
  baseUrlFrom: string;
  apiKeyFrom: string;
  auth: 'x-api-key' | 'bearer';
  webhookSecrets: string[];
  dbPath: string;
  /** Poll intervals by stream, in ms. */
  intervals: Record<string, number>;
  /** The live history streams' first window (hours). */
  historyHours: number;
  /** The config's `alerts`, defaults filled in. */
  alerts: AlertSettings;
  /** The config's `settlement`: each named city's rule (the others settle by `metar_c`). */
  settlement?: SettlementConfig;
  /** What the config file itself set, its key and secrets left out: `status` says where each value came from. */
  fileSettings?: FileSettings;
  /**
   * `retention.detail_days` in force: days kept whole before thinning, the default (domain/retention.ts) when the
   * config names none; null keeps everything. Resolved here only (`fileSettings` says whether the file set it).
   */
  detailDays: number | null;
}

/** The config file's settings other than the key and the secrets. */
export type FileSettings = Omit<MonitorConfig, 'api_key' | 'webhook_secrets'>;

function withoutSecrets({ api_key: _key, webhook_secrets: _secrets, ...settings }: MonitorConfig): FileSettings {
  return settings;
}

/** A config file mode that lets other users change it, or read it. */
const OTHERS_WRITE = 0o022;
const OTHERS_READ = 0o044;

/**
 * Reads and checks the config file; a broken one is a usage error that names the file and the field. One that
 * other users can write is refused (whoever can write it can point `base_url` at their own host and collect the
 * key); one they can read, while it holds a key or a secret, is used with a warning on stderr.
 */
async function readConfig(
  path = configFile(),
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<MonitorConfig> {
  if (!existsSync(path)) return {};
  // POSIX modes only: Windows reports made-up bits
  const mode = process.platform === 'win32' ? 0o600 : statSync(path).mode & 0o777;
  if (mode & OTHERS_WRITE) {
    throw usageError(
      `${path} can be changed by other users (mode ${octal(mode)}), and whoever changes it can send your key to ` +
        `their own host: run chmod 600 ${path}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw usageError(`${path} is not valid JSON`);
  }
  // loaded only when there is a file to check
  const { configProblem } = await import('./config-check.js');
  const problem = await configProblem(parsed);
  if (problem !== undefined) throw usageError(`${path}: ${problem}`);
  const config = parsed as MonitorConfig;
  if (config.base_url !== undefined) {
    const problem = baseUrlProblem(config.base_url);
    if (problem) throw usageError(`${path}: base_url ${problem}`);
  }
  if (config.api_key !== undefined) {
    const problem = apiKeyProblem(config.api_key);
    if (problem) throw usageError(`${path}: api_key ${problem} (the key is not shown)`);
  }
  if (mode & OTHERS_READ && (config.api_key !== undefined || config.webhook_secrets !== undefined)) {
    warn(
      `svc-monitor: warning: ${path} holds a key and other users can read it (mode ${octal(mode)}): run chmod 600 ${path}`,
    );
  }
  return config;
}

const octal = (mode: number) => `0${mode.toString(8).padStart(3, '0')}`;

/** Writes the config file readable by its owner only (it holds the key). */
function saveConfig(config: MonitorConfig, path = configFile()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * An SVC_* variable, where set but empty counts as unset (`SVC_API_KEY= svc-monitor sync`, or a variable a script
 * exports as it found it): the next place is looked at, as a shell's `${VAR:-default}` does.
 */
function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Where a value came from, for a message that sends the user to the right place. */
function origin(flag: unknown, envValue: unknown, flagName: string, envName: string): string {
  if (flag !== undefined) return flagName;
  if (envValue !== undefined) return envName;
  return configFile();
}

/**
 * Base URL, key and secrets from flags, then `SVC_BASE_URL` / `SVC_API_KEY` / `SVC_WEBHOOK_SECRET`, then the config
 * file (DESIGN.md section 3). `--db` / `SVC_DB` picks the cache file. `--save` stores what was given for next time,
 * once it passed the checks of `requireService`.
 */
export async function resolveConnection(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Connection> {
  const file = await readConfig();
  const envBaseUrl = variable(env, 'SVC_BASE_URL');
  const envApiKey = variable(env, 'SVC_API_KEY');
  const baseUrl = flags.baseUrl ?? envBaseUrl ?? file.base_url;
  const apiKey = flags.apiKey ?? envApiKey ?? file.api_key;
  const envSecrets = variable(env, 'SVC_WEBHOOK_SECRET')?.split(',').filter(Boolean);
  const connection: Connection = {
    baseUrl,
    apiKey,
    baseUrlFrom: origin(flags.baseUrl, envBaseUrl, '--base-url', 'SVC_BASE_URL'),
    apiKeyFrom: origin(flags.apiKey, envApiKey, '--api-key', 'SVC_API_KEY'),
    auth: file.auth ?? 'x-api-key',
    webhookSecrets: envSecrets?.length ? envSecrets : (file.webhook_secrets ?? []),
    dbPath: flags.db ?? variable(env, 'SVC_DB') ?? join(dataDir(), 'cache.db'),
    intervals: Object.fromEntries(
      Object.entries(file.intervals ?? {}).map(([stream, seconds]) => [stream, (seconds as number) * 1000]),
    ),
    historyHours: file.history_hours ?? DEFAULT_HISTORY_HOURS,
    alerts: alertSettingsOf(file.alerts),
    settlement: file.settlement ?? {},
    fileSettings: withoutSecrets(file),
    detailDays: detailDaysOf(file.retention?.detail_days),
  };
  if (flags.save) {
    checkService(connection);
    saveConfig({ ...file, base_url: baseUrl, api_key: apiKey });
  }
  return connection;
}

export interface Service {
  baseUrl: string;
  apiKey: string;
  auth: 'x-api-key' | 'bearer';
}

/**
 * The service to talk to, refused at once (exit 2) when it is missing, when its address is not http(s) or when the
 * key cannot travel in a header: no request, no retry, and never the key in the message.
 */
export function requireService(connection: Connection): Service {
  const { baseUrl, apiKey, auth } = connection;
  if (!baseUrl || !apiKey) {
    throw usageError(
      `no service configured: pass --base-url and --api-key, set SVC_BASE_URL and SVC_API_KEY, or put them in ${configFile()}`,
    );
  }
  checkService(connection);
  return { baseUrl, apiKey, auth };
}

function checkService(connection: Connection): void {
  const addressProblem = connection.baseUrl === undefined ? undefined : baseUrlProblem(connection.baseUrl);
  if (addressProblem) throw usageError(`the base URL from ${connection.baseUrlFrom} ${addressProblem}`);
  const keyProblem = connection.apiKey === undefined ? undefined : apiKeyProblem(connection.apiKey);
  if (keyProblem) throw usageError(`the API key from ${connection.apiKeyFrom} ${keyProblem} (the key is not shown)`);
}
