import {
  HISTORICAL_TABLES,
  type HistoricalTable,
  STRATEGY_FAMILIES,
  type StrategyFamily,
} from '../../contract/names.js';

export const historicalSqlTable = (table: HistoricalTable): string => `h_${table}`;
export const strategySqlTable = (family: StrategyFamily): string => `s_${family.replaceAll('-', '_')}`;

/**
 * Each API row is kept as the exact JSON the API serves (`json`), beside the typed columns queries filter and
 * order on. Responses are assembled from the stored text, so what is served is what was written.
 */
export const MIGRATIONS: string[] = [
  [
    'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
    'CREATE TABLE api_keys (id TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, label TEXT, created_at TEXT NOT NULL, revoked_at TEXT)',
    'CREATE TABLE current_obs (city_id TEXT NOT NULL, source TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (city_id, source))',
    'CREATE TABLE current_forecast (city_id TEXT NOT NULL, layer TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (city_id, layer))',
    ...HISTORICAL_TABLES.flatMap((t) => {
      const name = historicalSqlTable(t);
      return [
        `CREATE TABLE ${name} (id INTEGER PRIMARY KEY, city_id TEXT NOT NULL, t TEXT NOT NULL, json TEXT NOT NULL)`,
        `CREATE INDEX ${name}_city ON ${name} (city_id, id)`,
        `CREATE INDEX ${name}_t ON ${name} (t)`,
      ];
    }),
    ...STRATEGY_FAMILIES.flatMap((f) => {
      const name = strategySqlTable(f);
      return [
        `CREATE TABLE ${name} (id INTEGER PRIMARY KEY, city_id TEXT NOT NULL, local_date TEXT NOT NULL, open INTEGER NOT NULL, json TEXT NOT NULL)`,
        `CREATE INDEX ${name}_city ON ${name} (city_id, id)`,
        `CREATE INDEX ${name}_open ON ${name} (open, id)`,
      ];
    }),
    'CREATE TABLE fusion_locks (id TEXT PRIMARY KEY, city_id TEXT NOT NULL, local_date TEXT NOT NULL, locked_at TEXT NOT NULL, resolved INTEGER NOT NULL, json TEXT NOT NULL)',
    'CREATE INDEX fusion_locks_order ON fusion_locks (locked_at, id)',
    'CREATE INDEX fusion_locks_city ON fusion_locks (city_id, locked_at, id)',
    'CREATE TABLE edge_positions (engine_trade_id INTEGER PRIMARY KEY, city_id TEXT NOT NULL, local_date TEXT NOT NULL, open INTEGER NOT NULL, json TEXT NOT NULL)',
    'CREATE TABLE world_events (id INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, event_type TEXT NOT NULL, created_at TEXT NOT NULL, json TEXT NOT NULL)',
  ].join(';\n'),
  // webhook delivery (issue 3): registrations, one outbox row per (event, webhook), the attempt log; insurance picks
  [
    `CREATE TABLE webhooks (
      id TEXT PRIMARY KEY, url TEXT NOT NULL, secret TEXT NOT NULL, events TEXT,
      allow_private INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'active',
      consecutive_failures INTEGER NOT NULL DEFAULT 0, last_attempt_at TEXT, last_result TEXT, created_at TEXT NOT NULL)`,
    `CREATE TABLE webhook_deliveries (
      id INTEGER PRIMARY KEY, webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      event_id TEXT NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'pending', next_attempt_at INTEGER NOT NULL,
      created_at TEXT NOT NULL, UNIQUE (webhook_id, event_id))`,
    'CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)',
    `CREATE TABLE webhook_attempts (
      id INTEGER PRIMARY KEY, delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      webhook_id TEXT NOT NULL, event_id TEXT NOT NULL, delivery_uuid TEXT NOT NULL, attempt INTEGER NOT NULL,
      status_code INTEGER, error TEXT, duration_ms INTEGER NOT NULL, attempted_at TEXT NOT NULL, next_attempt_at INTEGER)`,
    'CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id)',
    `CREATE TABLE insurance_picks (
      pick_id TEXT PRIMARY KEY, city_id TEXT NOT NULL, local_date TEXT NOT NULL, open INTEGER NOT NULL, json TEXT NOT NULL)`,
    'CREATE INDEX insurance_picks_open ON insurance_picks (open, city_id)',
  ].join(';\n'),
  // account pages (issue 15): a key's short prefix to recognise it by, and when it was last used
  ['ALTER TABLE api_keys ADD COLUMN key_prefix TEXT', 'ALTER TABLE api_keys ADD COLUMN last_used_at TEXT'].join(';\n'),
];
