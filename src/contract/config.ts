import Type, { type Static } from 'typebox';
import { STREAM_NAMES } from './names.js';

export { STREAM_NAMES, type StreamName } from './names.js';

/**
 * Poll intervals in seconds: at least a second (the rate limit), at most a day (Node's timers overflow past about
 * 24.8 days into 1 ms, so an unbounded value would poll without pause).
 */
export const INTERVAL_BOUNDS_S = { min: 1, max: 86_400 } as const;

/**
 * The live history streams' first window, in hours (DESIGN 4): at least one, at most 30 days (the service's
 * history; a longer window would only ask for rows that are not there).
 */
export const HISTORY_HOURS_BOUNDS = { min: 1, max: 720 } as const;

/**
 * The trader alerts' thresholds (DESIGN 3 `alerts`): an edge of 0 or of a whole dollar a share is no threshold, and a
 * snooze is whole minutes, at most a day (a longer one is a mute, which `notify` says more plainly).
 */
export const EDGE_MIN_BOUNDS = { above: 0, below: 1 } as const;
export const SNOOZE_MINUTES_BOUNDS = { min: 1, max: 1440 } as const;

/** The alert kinds a trader can have raise a desktop notification, as `alerts.notify` names them. */
export const NOTIFY_KINDS = ['kill', 'dying_bucket', 'edge', 'breakthrough'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/** DESIGN 3's `alerts`: every key optional (the defaults are in alerts/alert-settings.ts), none unknown. */
export const AlertsConfig = Type.Object(
  {
    edge_min: Type.Optional(
      Type.Number({ exclusiveMinimum: EDGE_MIN_BOUNDS.above, exclusiveMaximum: EDGE_MIN_BOUNDS.below }),
    ),
    cities: Type.Optional(Type.Union([Type.Literal('all'), Type.Array(Type.String({ minLength: 1 }))])),
    notify: Type.Optional(
      Type.Object(Object.fromEntries(NOTIFY_KINDS.map((kind) => [kind, Type.Optional(Type.Boolean())])), {
        additionalProperties: false,
      }),
    ),
    notify_command: Type.Optional(
      Type.Union([Type.Null(), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })]),
    ),
    snooze_minutes: Type.Optional(
      Type.Integer({ minimum: SNOOZE_MINUTES_BOUNDS.min, maximum: SNOOZE_MINUTES_BOUNDS.max }),
    ),
  },
  { additionalProperties: false },
);
export type AlertsConfig = Static<typeof AlertsConfig>;

/**
 * DESIGN 3's `settlement`: how each city's market settles (DESIGN 4 "bucket probability"). `metar_c`, the default for
 * every city: on the day's whole-°C METAR high, converted and rounded in a °F market; `whole_f`: on a native whole-°F
 * high (the NWS daily climate report some venues use), every whole °F reachable.
 */
export const SETTLEMENT_RULES = ['metar_c', 'whole_f'] as const;
export type SettlementRuleName = (typeof SETTLEMENT_RULES)[number];
export const SettlementConfig = Type.Record(
  Type.String({ minLength: 1 }),
  Type.Union(SETTLEMENT_RULES.map((rule) => Type.Literal(rule))),
);
/** The rule of each city the config names; a city it does not name settles by `metar_c`. */
export type SettlementConfig = Readonly<Record<string, SettlementRuleName>>;

/**
 * DESIGN 3's `retention`: how many days of the service's clock every row is kept whole (DESIGN 4 "retention"); older
 * days are thinned to the hour. `null` keeps everything. Whole days, at most ten years; the default: domain/retention.ts.
 */
export const DETAIL_DAYS_BOUNDS = { min: 1, max: 3650 } as const;
export const RetentionConfig = Type.Object(
  {
    detail_days: Type.Optional(
      Type.Union([Type.Null(), Type.Integer({ minimum: DETAIL_DAYS_BOUNDS.min, maximum: DETAIL_DAYS_BOUNDS.max })]),
    ),
  },
  { additionalProperties: false },
);
export type RetentionConfig = Static<typeof RetentionConfig>;

const Interval = Type.Number({ minimum: INTERVAL_BOUNDS_S.min, maximum: INTERVAL_BOUNDS_S.max });

/** `<config dir>/svc-monitor/config.json`. Unknown keys are refused, so a typo is an error, not a silent default. */
export const MonitorConfig = Type.Object(
  {
    /** http or https; checked beyond the schema by the CLI (src/client/api-key.ts) */
    base_url: Type.Optional(Type.String({ minLength: 1 })),
    api_key: Type.Optional(Type.String({ minLength: 1 })),
    auth: Type.Optional(Type.Union([Type.Literal('x-api-key'), Type.Literal('bearer')])),
    webhook_secrets: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Poll interval per stream in seconds. */
    intervals: Type.Optional(
      Type.Object(Object.fromEntries(STREAM_NAMES.map((name) => [name, Type.Optional(Interval)])), {
        additionalProperties: false,
      }),
    ),
    history_hours: Type.Optional(
      Type.Integer({ minimum: HISTORY_HOURS_BOUNDS.min, maximum: HISTORY_HOURS_BOUNDS.max }),
    ),
    alerts: Type.Optional(AlertsConfig),
    settlement: Type.Optional(SettlementConfig),
    retention: Type.Optional(RetentionConfig),
  },
  { additionalProperties: false },
);
export type MonitorConfig = Static<typeof MonitorConfig>;
