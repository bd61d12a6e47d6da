import { HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN, STRATEGY_FAMILIES } from '../../contract/names.js';
import { historicalSqlTable, strategySqlTable } from './tables.js';

/**
 * The cache's schema, one entry per `user_version`. Every API row is kept as `json` (JSON.stringify of the row as
 * received) beside typed columns for what the TUI filters and sorts on. Instants are typed as epoch milliseconds
 * (`*_ms`, `t`), so offsets and fractional seconds order correctly; the received text stays in `json` (and in
 * `fetched_at`/`locked_at`, which checkpoints hand back to the server unchanged).
 *
 * Historical rows: one SQL table per whitelisted table rather than one shared table keyed (table_name, id). Each
 * table's key is then the rowid itself, so an insert touches the table b-tree and two indexes, with no separate
 * key index and no table name stored per row; the `t` column gets the affinity of its table's time column
 * (INTEGER ms for instants, TEXT for local dates); and a table is dropped or counted on its own. The rowid is
 * `rid = -id`: the API pages ids in descending order, so backfill appends at the right edge of every b-tree
 * (SQLite's fast path) instead of splitting its left edge, and `ORDER BY rid` is the API's `id DESC`. `t DESC`
 * for the same reason. Measured: about 1.4x the insert rate of `id INTEGER PRIMARY KEY` with ascending indexes.
 */
/**
 * The tables a settled day's board's record reads (history/board-record-days.ts), each with its instant column: a row
 * written into one within a kept day's span makes that day's kept record stale (the migration that keeps the record).
 */
const RECORD_READS: { table: string; at: string; when?: string }[] = [
  { table: historicalSqlTable('mkta_buckets_history'), at: 't' },
  { table: historicalSqlTable('mktb_buckets_history'), at: 't' },
  { table: historicalSqlTable('metar_observations_history'), at: 't' },
  { table: historicalSqlTable('forecast_history'), at: 't' },
  { table: 'current_obs', at: 'fetched_ms', when: "source = 'metar_observations'" },
  { table: 'forecasts', at: 'fetched_ms', when: "layer = 'svc_pro_forecast'" },
];

/** Longer than any kept day's span (kept-record-days.ts `recordSpan`: 31 hours, 32 on a day that changes its clock). */
const RECORD_SPAN_BOUND_MS = 48 * 3_600_000;

/**
 * The `retention_marks` row a prune writes at the start of each of its transactions and deletes before it commits
 * (retention/retention.ts): while it is there the triggers of `record_days_kept` do nothing, since thinning keeps
 * exactly what the board's record reads. Only the pruning connection ever sees it (it is never committed), so a
 * backfill by another process during a prune still drops the kept days it writes into. (A TEMP table, which would be
 * the pruning connection's alone by construction, cannot be named by a trigger of the main database: SQLite refuses
 * "cannot reference objects in database temp".)
 */
export const THINNING_MARK = '@thinning';

export const MIGRATIONS: string[] = [
  [
    'CREATE TABLE cities (city_id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL)',
    `CREATE TABLE current_obs (
      city_id TEXT NOT NULL, source TEXT NOT NULL, fetched_ms INTEGER NOT NULL, fetched_at TEXT NOT NULL,
      temp_f REAL, json TEXT NOT NULL, PRIMARY KEY (city_id, source, fetched_ms))`,
    'CREATE INDEX current_obs_fetched ON current_obs (fetched_ms)',
    `CREATE TABLE forecasts (
      city_id TEXT NOT NULL, layer TEXT NOT NULL, fetched_ms INTEGER NOT NULL, fetched_at TEXT NOT NULL,
      local_date TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (city_id, layer, fetched_ms))`,
    'CREATE INDEX forecasts_fetched ON forecasts (fetched_ms)',
    'CREATE INDEX forecasts_date ON forecasts (city_id, local_date, layer)',
    ...STRATEGY_FAMILIES.flatMap((f) => {
      const name = strategySqlTable(f);
      return [
        `CREATE TABLE ${name} (id INTEGER PRIMARY KEY, city_id TEXT NOT NULL, local_date TEXT NOT NULL, open INTEGER NOT NULL, json TEXT NOT NULL)`,
        `CREATE INDEX ${name}_open ON ${name} (open, id)`,
        `CREATE INDEX ${name}_city ON ${name} (city_id, id)`,
        `CREATE INDEX ${name}_date ON ${name} (local_date)`,
      ];
    }),
    `CREATE TABLE fusion_locks (
      id TEXT PRIMARY KEY NOT NULL, city_id TEXT NOT NULL, local_date TEXT NOT NULL, locked_at TEXT NOT NULL,
      locked_ms INTEGER NOT NULL, resolved INTEGER NOT NULL, json TEXT NOT NULL)`,
    'CREATE INDEX fusion_locks_order ON fusion_locks (locked_ms DESC, id DESC)',
    // partial: only the few unresolved locks are indexed (the poller's oldest-unresolved query)
    'CREATE INDEX fusion_locks_unresolved ON fusion_locks (locked_ms, id) WHERE resolved = 0',
    'CREATE INDEX fusion_locks_city ON fusion_locks (city_id, locked_ms DESC, id DESC)',
    ...HISTORICAL_TABLES.flatMap((t) => {
      const name = historicalSqlTable(t);
      const type = HISTORICAL_TIME_COLUMN[t].kind === 'instant' ? 'INTEGER' : 'TEXT';
      return [
        `CREATE TABLE ${name} (rid INTEGER PRIMARY KEY, city_id TEXT, t ${type}, json TEXT NOT NULL)`,
        `CREATE INDEX ${name}_city ON ${name} (city_id, rid)`,
        `CREATE INDEX ${name}_t ON ${name} (t DESC)`,
      ];
    }),
    'CREATE TABLE checkpoints (stream TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)',
    `CREATE TABLE stream_state (
      stream TEXT PRIMARY KEY NOT NULL, last_success_at TEXT, last_error_at TEXT, last_error TEXT,
      rows INTEGER NOT NULL DEFAULT 0)`,
    `CREATE TABLE alerts (
      id INTEGER PRIMARY KEY AUTOINCREMENT, severity TEXT NOT NULL CHECK (severity IN ('info', 'warning', 'high')),
      kind TEXT NOT NULL, message TEXT NOT NULL, ref TEXT, city_id TEXT, created_at TEXT NOT NULL,
      created_ms INTEGER NOT NULL, acknowledged_at TEXT)`,
    'CREATE INDEX alerts_unacknowledged ON alerts (id) WHERE acknowledged_at IS NULL',
    'CREATE INDEX alerts_kind_ref ON alerts (kind, ref)',
  ].join(';\n'),
  // v2: the webhook receiver's durable inbox and what its events become (issue 5)
  [
    // every accepted event once: `event_id` is X-Svc-Event-Id, `identity` the de-duplication key the signature
    // covers (see receiver/identity.ts); either one seen before makes a delivery a duplicate
    `CREATE TABLE webhook_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, identity TEXT NOT NULL UNIQUE,
      event_type TEXT NOT NULL, delivery_id TEXT NOT NULL, city_id TEXT, market_date TEXT,
      received_at TEXT NOT NULL, received_ms INTEGER NOT NULL, body TEXT NOT NULL)`,
    // no index on received_ms for every event: only an export window reads it, and seq follows arrival anyway
    // (each index is paid for in every acknowledgement); the Signals feed pages only the test events by it
    "CREATE INDEX webhook_events_tests ON webhook_events (received_ms, seq) WHERE event_type = 'webhook.test'",
    // signed requests that could not be accepted (not JSON, not the contract): the raw bytes, for inspection
    `CREATE TABLE rejected_webhooks (
      id INTEGER PRIMARY KEY AUTOINCREMENT, reason TEXT NOT NULL, event_type TEXT, event_id TEXT, delivery_id TEXT,
      received_at TEXT NOT NULL, received_ms INTEGER NOT NULL, body BLOB NOT NULL)`,
    // one row a pick (primary or addon): the newest created event and the kill, each kept as received
    `CREATE TABLE insurance_picks (
      pick_id TEXT PRIMARY KEY NOT NULL, parent_pick_id TEXT, city_id TEXT NOT NULL, market_date TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('open', 'killed')), created_ms INTEGER, killed_ms INTEGER,
      created_json TEXT, kill_json TEXT)`,
    'CREATE INDEX insurance_picks_status ON insurance_picks (status, created_ms)',
    'CREATE INDEX insurance_picks_parent ON insurance_picks (parent_pick_id)',
    // the Signals feed pages picks by when they opened and when they were killed, trades by entry and exit
    'CREATE INDEX insurance_picks_created ON insurance_picks (created_ms, pick_id)',
    'CREATE INDEX insurance_picks_killed ON insurance_picks (killed_ms, pick_id) WHERE killed_ms IS NOT NULL',
    // one row an edge trade: its entry and its exit, each as received
    `CREATE TABLE edge_trades (
      engine_trade_id INTEGER PRIMARY KEY, city_id TEXT NOT NULL, market_date TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('open', 'exited')), entered_ms INTEGER, exited_ms INTEGER,
      entry_json TEXT, exit_json TEXT)`,
    'CREATE INDEX edge_trades_status ON edge_trades (status, engine_trade_id)',
    'CREATE INDEX edge_trades_entered ON edge_trades (entered_ms, engine_trade_id)',
    'CREATE INDEX edge_trades_exited ON edge_trades (exited_ms, engine_trade_id)',
  ].join(';\n'),
  // v3: `identity` becomes `replay_key`, kept only where it adds to the event id: edge events, whose contract has
  // no id (receiver/identity.ts). Insurance and test events are keyed by their event_id alone, so an
  // acknowledgement updates one random-keyed index fewer (the intake benchmark's median went from 0.467 to 0.49 of
  // bare node:http). SQLite cannot drop a column constraint, so the table is rebuilt; `seq` values and the
  // AUTOINCREMENT high-water mark carry over.
  [
    `CREATE TABLE webhook_events_v3 (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, replay_key TEXT UNIQUE,
      event_type TEXT NOT NULL, delivery_id TEXT NOT NULL, city_id TEXT, market_date TEXT,
      received_at TEXT NOT NULL, received_ms INTEGER NOT NULL, body TEXT NOT NULL)`,
    `INSERT INTO webhook_events_v3 SELECT seq, event_id, CASE WHEN identity LIKE 'edge:%' THEN identity END,
      event_type, delivery_id, city_id, market_date, received_at, received_ms, body FROM webhook_events`,
    "DELETE FROM sqlite_sequence WHERE name = 'webhook_events_v3'",
    `INSERT INTO sqlite_sequence (name, seq)
      SELECT 'webhook_events_v3', seq FROM sqlite_sequence WHERE name = 'webhook_events'`,
    'DROP TABLE webhook_events',
    'ALTER TABLE webhook_events_v3 RENAME TO webhook_events',
    "CREATE INDEX webhook_events_tests ON webhook_events (received_ms, seq) WHERE event_type = 'webhook.test'",
  ].join(';\n'),
  // v4: a kill alert records when its desktop notification ran (set only after the notifier returned), so a kill
  // whose listener died before that is shown by the next one to start (receiver/kill-notifier.ts). The kills
  // already in a cache were shown, or missed, long ago: marked as done, so an upgrade brings no burst of old popups.
  [
    'ALTER TABLE alerts ADD COLUMN notified_at TEXT',
    "UPDATE alerts SET notified_at = created_at WHERE kind = 'kill'",
    // the listener looks for these at every start and after every kill it stores: a handful at most
    "CREATE INDEX alerts_kill_unnotified ON alerts (id) WHERE kind = 'kill' AND notified_at IS NULL",
  ].join(';\n'),
  // v5: the trader alerts' state that must outlive a restart (issue 14). An edge alert fires once a
  // city-day-bucket-side and is re-armed only after the edge fell below half the threshold: the fired ones are kept
  // here until then (a restart must not raise them again). A snoozed city raises no notification until `until_ms`,
  // whichever process (the TUI's `z`, a sync daemon) asks.
  [
    `CREATE TABLE edge_alert_marks (
      ref TEXT PRIMARY KEY NOT NULL, city_id TEXT NOT NULL, local_date TEXT NOT NULL) WITHOUT ROWID`,
    'CREATE INDEX edge_alert_marks_day ON edge_alert_marks (city_id, local_date)',
    'CREATE TABLE alert_snoozes (city_id TEXT PRIMARY KEY NOT NULL, until_ms INTEGER NOT NULL) WITHOUT ROWID',
  ].join(';\n'),
  // v6: the service's clock (DESIGN 4 "the monitor's clock"). Each stream's last good pass keeps the service's clock
  // at its first answer (`complete_at`: everything published before it is in the cache), and the cache keeps the
  // offset of the service's clock from the host's at the last good answer, so `--offline`, `export` and the next start
  // run on the service's clock too. A cache from before keeps no offset: the host's clock, as it was.
  [
    'ALTER TABLE stream_state ADD COLUMN complete_at TEXT',
    'CREATE TABLE service_clock (id INTEGER PRIMARY KEY CHECK (id = 1), offset_ms INTEGER NOT NULL)',
  ].join(';\n'),
  // listener health (issue 43, DESIGN 4 "a listener that refuses what it is sent"): each delivery the listener
  // refused for its signature or as a replay, without its body (a stranger's bytes are not kept), and the first
  // and last delivery whose signature verified, so `status` and the monitor see a listener refusing whichever process
  // runs it. A cache from before: its first and last stored events stand for them.
  [
    `CREATE TABLE listener_refusals (
      id INTEGER PRIMARY KEY AUTOINCREMENT, cause TEXT NOT NULL CHECK (cause IN ('signature', 'replay')),
      received_at TEXT NOT NULL, received_ms INTEGER NOT NULL, remote_address TEXT, event_id TEXT, event_type TEXT)`,
    'CREATE INDEX listener_refusals_received ON listener_refusals (received_ms)',
    `CREATE TABLE listener_verified (
      id INTEGER PRIMARY KEY CHECK (id = 1), first_at TEXT NOT NULL, first_ms INTEGER NOT NULL,
      last_at TEXT NOT NULL, last_ms INTEGER NOT NULL)`,
    `INSERT INTO listener_verified (id, first_at, first_ms, last_at, last_ms)
      SELECT 1, f.received_at, f.received_ms, l.received_at, l.received_ms
      FROM (SELECT received_at, received_ms FROM webhook_events ORDER BY seq LIMIT 1) AS f,
           (SELECT received_at, received_ms FROM webhook_events ORDER BY seq DESC LIMIT 1) AS l`,
  ].join(';\n'),
  // retention (issue 43, DESIGN 4): how far each thinned table has been thinned, so the daily prune of a sync
  // daemon or a live monitor reads only the days since (a pass over every row is `cache prune`'s), and the day of
  // the service's clock of the last daily prune (`@daily`), so two processes on one cache prune once a day
  'CREATE TABLE retention_marks (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID',
  // the board's record of each settled day, worked out once and kept (issue 43: a year's record reads these rows
  // rather than pricing every hour of every day again). A kept day names the span of instants its reads covered; a
  // row of what it read (a snapshot, a METAR report, a desk's run, a poll) written, changed or deleted within its
  // span (a late report, a correction) deletes it, so its next read works it out again; retention's thinning does
  // not (THINNING_MARK: it keeps what the record reads). Its
  // settled value and rules are checked on read (history/kept-record-days.ts).
  [
    `CREATE TABLE record_days_kept (
      city_id TEXT NOT NULL, local_date TEXT NOT NULL, rules TEXT NOT NULL, settled REAL NOT NULL,
      from_ms INTEGER NOT NULL, to_ms INTEGER NOT NULL, trades TEXT NOT NULL,
      PRIMARY KEY (city_id, local_date)) WITHOUT ROWID`,
    // a live row's instant is past every kept span: the trigger's probe finds nothing at once
    'CREATE INDEX record_days_kept_span ON record_days_kept (city_id, to_ms)',
    ...RECORD_READS.flatMap(({ table, at, when }) =>
      (['INSERT', 'UPDATE', 'DELETE'] as const).map((change) => {
        // a span is at most 32 hours (24 h of the desk's runs before 09:00 to 16:00, a day that changes its clock):
        // bounding to_ms both ways makes the probe a few entries of the index, even for a row of long ago
        const drop = (row: 'NEW' | 'OLD') =>
          `DELETE FROM record_days_kept WHERE city_id = ${row}.city_id
            AND to_ms >= ${row}.${at} AND to_ms < ${row}.${at} + ${RECORD_SPAN_BOUND_MS} AND from_ms <= ${row}.${at};`;
        const rows =
          change === 'INSERT'
            ? ['NEW' as const]
            : change === 'DELETE'
              ? ['OLD' as const]
              : ['NEW' as const, 'OLD' as const];
        const thinning = `NOT EXISTS (SELECT 1 FROM retention_marks WHERE name = '${THINNING_MARK}')`;
        const only = when ? `(${rows.map((r) => `${r}.${when}`).join(' OR ')}) AND ${thinning}` : thinning;
        return `CREATE TRIGGER ${table}_${change.toLowerCase()}_record AFTER ${change} ON ${table} WHEN ${only}
          BEGIN ${rows.map(drop).join(' ')} END`;
      }),
    ),
  ].join(';\n'),
  // each stream's last good pass on the host's clock too (issue 43): a stream's polls are timed on the host's clock,
  // so whether a sync still polls ("stale past 3 intervals", `status`) is judged on it; the service's clock, which
  // runs faster than the host's at a reference service's --speed, would call every stream stale there
  'ALTER TABLE stream_state ADD COLUMN last_success_host_ms INTEGER',
  // the book's horizon (issue 44, DESIGN 4): the instant a listener was registered with the service, where the
  // monitor registers it itself (the demo); picks reach the cache from then on. The earliest one is kept
  `CREATE TABLE listener_registered (
    id INTEGER PRIMARY KEY CHECK (id = 1), first_at TEXT NOT NULL, first_ms INTEGER NOT NULL)`,
  // alerts in time (issue 44, DESIGN 4): an alert found late (its instant more than two poll intervals of its stream
  // before the pass) is `catch_up`, shown so and never notified; an edge alert the board no longer shows at edge_min
  // keeps the instant and price it fell below at (`gone_ms`, `gone_price`). The pane lists by the alerts' own instants
  [
    'ALTER TABLE alerts ADD COLUMN catch_up INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE alerts ADD COLUMN gone_ms INTEGER',
    'ALTER TABLE alerts ADD COLUMN gone_price REAL',
    'CREATE INDEX alerts_created ON alerts (created_ms, id)',
  ].join(';\n'),
];
