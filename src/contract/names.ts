/**
 * The interface's names as plain lists, no schema: what the command line and the cache need to check and name
 * things without loading TypeBox (hundreds of modules: most of a short command's start). The schemas beside this
 * file take their lists from here and export them again.
 */

/** The historical tables of spec 4.5. */
export const HISTORICAL_TABLES = [
  'metar_observations_history',
  'wxa_history',
  'wxb_history',
  'pws_observations_history',
  'forecast_history',
  'mkta_buckets_history',
  'mktb_buckets_history',
  'forecast_accuracy_daily',
  'market_brief_daily',
  'edge_resolved',
  'model_forecasts_daily',
] as const;
export type HistoricalTable = (typeof HISTORICAL_TABLES)[number];

export function isHistoricalTable(name: string): name is HistoricalTable {
  return (HISTORICAL_TABLES as readonly string[]).includes(name);
}

/** DESIGN.md section 4: the column `since` and `until` bound, and whether it holds a date or an instant. */
export const HISTORICAL_TIME_COLUMN: Record<HistoricalTable, { column: string; kind: 'instant' | 'date' }> = {
  metar_observations_history: { column: 'observed_at', kind: 'instant' },
  wxa_history: { column: 'fetched_at', kind: 'instant' },
  wxb_history: { column: 'fetched_at', kind: 'instant' },
  pws_observations_history: { column: 'observed_at', kind: 'instant' },
  forecast_history: { column: 'fetched_at', kind: 'instant' },
  mkta_buckets_history: { column: 'snapshot_at', kind: 'instant' },
  mktb_buckets_history: { column: 'snapshot_at', kind: 'instant' },
  forecast_accuracy_daily: { column: 'local_date', kind: 'date' },
  market_brief_daily: { column: 'local_date', kind: 'date' },
  edge_resolved: { column: 'local_date', kind: 'date' },
  model_forecasts_daily: { column: 'local_date', kind: 'date' },
};

export const STRATEGY_FAMILIES = ['no24', 'yescore', 'svc-max-picks'] as const;
export type StrategyFamily = (typeof STRATEGY_FAMILIES)[number];

export const CURRENT_SOURCES = ['wxa_current', 'wxb_current', 'metar_observations', 'pws_observations'] as const;
export type CurrentSourceName = (typeof CURRENT_SOURCES)[number];

export const FORECAST_LAYERS = ['svc_pro_forecast', 'edge_ensemble_daily', 'model_tmax_range'] as const;
export type ForecastLayerName = (typeof FORECAST_LAYERS)[number];

export const INSURANCE_EVENT_TYPES = [
  'insurance.pick.created',
  'insurance.addon.created',
  'insurance.pick.killed',
] as const;
export const EDGE_EVENT_TYPES = ['edge.trade.entered', 'edge.trade.exited'] as const;
export const EVENT_TYPES = [...INSURANCE_EVENT_TYPES, ...EDGE_EVENT_TYPES, 'webhook.test'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The NAMEs of `svc-monitor export` (DESIGN.md section 3): the API's resources as the cache holds them, the
 * webhook events and the monitor's own records, and the board (worked out by board/, not read from one table).
 */
export const EXPORT_NAMES: readonly string[] = [
  'cities',
  'current',
  'forecasts',
  'fusion-locks',
  ...STRATEGY_FAMILIES,
  ...HISTORICAL_TABLES.map((t) => `historical/${t}`),
  'webhook-events',
  'insurance-picks',
  'edge-trades',
  'alerts',
  'rejected-webhooks',
  'board',
  'board-record',
];

/**
 * Every stream name of DESIGN.md section 3, the ones the monitor polls today and the live history streams of
 * section 4 (`mkta-buckets`, `mktb-buckets`, `metar`, `daily`), so a config written for them is valid already.
 */
export const STREAM_NAMES = [
  'cities',
  'current',
  'forecasts',
  'no24',
  'yescore',
  'svc-max-picks',
  'fusion-locks',
  'mkta-buckets',
  'mktb-buckets',
  'metar',
  'daily',
] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/**
 * What is wrong with an export NAME (not in EXPORT_NAMES: which name and the valid ones), or undefined. One rule for
 * the CLI, which answers it before the export's modules load, and the cache, which refuses it before reading.
 */
export function exportNameProblem(name: string): string | undefined {
  if (EXPORT_NAMES.includes(name)) return undefined;
  return `unknown export name '${name}'; valid names: ${EXPORT_NAMES.join(', ')}`;
}
