import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Compile } from 'typebox/compile';
import { MonitorConfig } from '../contract/config.js';
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
  auth: 'x-api-key' | 'bearer';
  webhookSecrets: string[];
  dbPath: string;
  /** Poll intervals by stream, in ms. */
  intervals: Record<string, number>;
}

const validator = Compile(MonitorConfig);

/** Reads and checks the config file; a broken one is a usage error that names the file and the field. */
export function readConfig(path = configFile()): MonitorConfig {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw usageError(`${path} is not valid JSON`);
  }
  if (!validator.Check(parsed)) {
    const [first] = validator.Errors(parsed);
    throw usageError(`${path}: ${first?.instancePath || '/'} ${first?.message ?? 'is not a valid config'}`);
  }
  return parsed;
}

/** Writes the config file readable by its owner only (it holds the key). */
export function saveConfig(config: MonitorConfig, path = configFile()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * Base URL, key and secrets from flags, then `SVC_BASE_URL` / `SVC_API_KEY` / `SVC_WEBHOOK_SECRET`, then the config
 * file (DESIGN.md section 3). `--db` / `SVC_DB` picks the cache file. `--save` stores what was given for next time.
 */
export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const file = readConfig();
  const baseUrl = flags.baseUrl ?? env.SVC_BASE_URL ?? file.base_url;
  const apiKey = flags.apiKey ?? env.SVC_API_KEY ?? file.api_key;
  const envSecrets = env.SVC_WEBHOOK_SECRET?.split(',').filter(Boolean);
  const connection: Connection = {
    baseUrl,
    apiKey,
    auth: file.auth ?? 'x-api-key',
    webhookSecrets: envSecrets ?? file.webhook_secrets ?? [],
    dbPath: flags.db ?? env.SVC_DB ?? join(dataDir(), 'cache.db'),
    intervals: Object.fromEntries(
      Object.entries(file.intervals ?? {}).map(([stream, seconds]) => [stream, seconds * 1000]),
    ),
  };
  if (flags.save) saveConfig({ ...file, base_url: baseUrl, api_key: apiKey });
  return connection;
}
