import { HISTORICAL_TABLES, type HistoricalTable } from '../../contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyFamily } from '../../contract/strategies.js';

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
];
