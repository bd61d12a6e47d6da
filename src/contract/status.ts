import Type, { type Static } from 'typebox';
import { Nullable, Timestamp } from './common.js';

/**
 * `svc-monitor status --json` (DESIGN 3): one object, the same facts as the text. A cron job or a script reads it;
 * the tests check every output against this schema. Secrets appear only as `set`/`not set` or a count.
 */

/** Where a value in force came from: a flag (`--db`), a variable (`SVC_API_KEY`), the config file, or the default. */
export const SettingSource = Type.Union([
  Type.Literal('--db'),
  Type.Literal('SVC_BASE_URL'),
  Type.Literal('SVC_API_KEY'),
  Type.Literal('SVC_WEBHOOK_SECRET'),
  Type.Literal('SVC_DB'),
  Type.Literal('config file'),
  Type.Literal('default'),
  Type.Literal('not set'),
]);
export type SettingSource = Static<typeof SettingSource>;

export const Setting = Type.Object(
  {
    /** `base_url`, `api_key`, `intervals.metar`, `alerts.edge_min`, `retention.detail_days`, ... */
    key: Type.String({ minLength: 1 }),
    /** A secret is `set` or `not set` (`webhook_secrets`: `2 set`), never any of its characters. */
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    from: SettingSource,
  },
  { additionalProperties: false },
);
export type Setting = Static<typeof Setting>;

const Count = Type.Integer({ minimum: 0 });
const Seconds = Type.Number({ minimum: 0 });

export const StatusService = Type.Object(
  {
    /** False with `--offline` or without a service configured: nothing was asked. */
    checked: Type.Boolean(),
    base_url: Nullable(Type.String()),
    reachable: Nullable(Type.Boolean()),
    key_accepted: Nullable(Type.Boolean()),
    /** The service's clock less the host's (ms): measured now, else the one the cache kept, else null. */
    clock_offset_ms: Nullable(Type.Integer()),
    clock_offset_from: Type.Union([Type.Literal('measured'), Type.Literal('cache'), Type.Literal('none')]),
    /** What went wrong asking it, one line (never the key). */
    error: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const StatusStream = Type.Object(
  {
    stream: Type.String({ minLength: 1 }),
    interval_s: Seconds,
    interval_from: SettingSource,
    /** `ok`, `stale` (past 3 intervals: needs a person), `failing` (the last pass failed), `never` (no good pass). */
    state: Type.Union([Type.Literal('ok'), Type.Literal('stale'), Type.Literal('failing'), Type.Literal('never')]),
    last_success_at: Nullable(Timestamp),
    /** Whole seconds since the last success on the monitor's clock; null without one. */
    age_s: Nullable(Type.Integer()),
    stale_after_s: Seconds,
    last_error_at: Nullable(Timestamp),
    last_error: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const StatusListener = Type.Object(
  {
    /** A verified delivery was ever received: the service knows this listener and signs with a secret it holds. */
    registered: Type.Boolean(),
    first_verified_at: Nullable(Timestamp),
    last_verified_at: Nullable(Timestamp),
    /** Deliveries refused for their signature in the hour before now; null where this cache cannot say. */
    refusals_last_hour: Nullable(Count),
    last_refusal_at: Nullable(Timestamp),
    /** DESIGN 4 "a listener that refuses what it is sent": refusing until a delivery verifies. */
    refusing: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** DESIGN 4 "the book's horizon": what the cache holds of insurance picks, and what it cannot. */
export const StatusBook = Type.Object(
  {
    /** What set `insurance_picks_since`: the listener's registration (the demo), its first verified delivery, none. */
    horizon_from: Type.Union([Type.Literal('registration'), Type.Literal('delivery'), Type.Null()]),
    /**
     * What the screens say of today's insurance picks: `insurance picks since <instant>` while a city's day (its local
     * today at `at`) began before the horizon, `insurance picks: none received (no listener)` without one, null once
     * every city's day began after it (today's book is whole).
     */
    note: Nullable(Type.String()),
    /** Live addons (of a city's today or later) whose own pick the cache never received: shown apart, stake held. */
    addons_not_received: Count,
    /** Kills of live markets whose pick the cache never received. */
    kills_not_received: Count,
  },
  { additionalProperties: false },
);

export const StatusCache = Type.Object(
  {
    path: Type.String({ minLength: 1 }),
    /** The file and its WAL, in bytes. */
    size_bytes: Count,
    file_bytes: Count,
    wal_bytes: Count,
    /** Rows a table, by the table's name in the interface (`mkta_buckets_history`, `svc-max-picks`, `alerts`). */
    rows: Type.Record(Type.String(), Count),
    total_rows: Count,
    oldest_day: Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
    newest_day: Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
    /** Rows stored for the 24 hours before now, and what they hold at the file's bytes a row. */
    rows_last_day: Count,
    growth_bytes_a_day: Count,
    /** `retention.detail_days`: days kept whole before thinning; null keeps everything. */
    retention_detail_days: Nullable(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const StatusReport = Type.Object(
  {
    /** The monitor's clock (the service's) when status looked. */
    at: Timestamp,
    /** 0 healthy, 1 something needs a person, 3 key rejected, 4 service unreachable (DESIGN 3). */
    exit_code: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(4)]),
    /** What needs a person, one line each; empty when healthy. */
    problems: Type.Array(Type.String()),
    config: Type.Object(
      { file: Type.String({ minLength: 1 }), file_exists: Type.Boolean(), settings: Type.Array(Setting) },
      { additionalProperties: false },
    ),
    service: StatusService,
    streams: Type.Array(StatusStream),
    listener: StatusListener,
    /**
     * DESIGN 4 "the book's horizon": insurance picks are in the cache from this instant (the listener's registration
     * where the monitor made it, else its first verified delivery); null: none ever reached it.
     */
    insurance_picks_since: Nullable(Timestamp),
    book: StatusBook,
    cache: StatusCache,
  },
  { additionalProperties: false },
);
export type StatusReport = Static<typeof StatusReport>;
export type StatusStream = Static<typeof StatusStream>;
export type StatusListener = Static<typeof StatusListener>;
export type StatusService = Static<typeof StatusService>;
export type StatusCache = Static<typeof StatusCache>;
export type StatusBook = Static<typeof StatusBook>;
