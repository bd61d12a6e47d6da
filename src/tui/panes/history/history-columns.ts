import type { BrowseTable } from '../../../cache/index.js';
import { rowCells, type Column as TableColumn, titleCells } from '../../format/columns.js';
import { price as priceOf, signedUsd } from '../../format/numbers.js';

type Row = Record<string, unknown>;
type Column = TableColumn<Row>;

const str = (v: unknown) => (v === null || v === undefined ? '—' : String(v));
const num = (digits: number) => (v: unknown) => (typeof v === 'number' ? v.toFixed(digits) : str(v));
const price = (v: unknown) => (typeof v === 'number' ? priceOf(v) : str(v));
const money = (v: unknown) => (typeof v === 'number' ? signedUsd(v) : str(v));
const time = (v: unknown) => (typeof v === 'string' ? `${v.slice(5, 16).replace('T', ' ')}Z` : '—');
const col = (title: string, width: number, value: (row: Row) => string, align?: 'right'): Column => ({
  title,
  width,
  value,
  align,
});
/** A field of the row under its own name: never narrower than the name, so the header says it whole. */
const field = (name: string, width: number, format: (v: unknown) => string = str, align?: 'right') =>
  col(name, Math.max(width, name.length), (row) => format(row[name]), align);

const ID = field('id', 8, str, 'right');
const CITY = field('city_id', 10);
const DATE = field('local_date', 10);

const OBSERVATION = [
  ID,
  CITY,
  field('observed_at', 12, time),
  field('temp_f', 6, num(1), 'right'),
  field('temp_c', 6, num(1), 'right'),
];
const BUCKETS = [
  ID,
  CITY,
  DATE,
  field('snapshot_at', 12, time),
  field('bucket_label', 15),
  field('yes_price', 9, price, 'right'),
  field('no_price', 8, price, 'right'),
];
const STRATEGY = [
  ID,
  CITY,
  DATE,
  field('side', 4),
  field('bucket_label', 15),
  field('stake', 6, num(2), 'right'),
  field('outcome', 7),
  col('roi', 7, (r) => (typeof r.roi === 'number' ? `${(r.roi * 100).toFixed(0)}%` : '—'), 'right'),
];

/** The columns each table is read by; every row's full JSON is one Enter away. */
export const HISTORY_COLUMNS: Record<BrowseTable, Column[]> = {
  no24: [...STRATEGY, field('model', 12), field('no_ask', 6, price, 'right')],
  yescore: [...STRATEGY, field('model', 12), field('yes_ask', 6, price, 'right')],
  'svc-max-picks': [...STRATEGY, field('model_prob', 6, num(3), 'right'), field('yes_ask', 6, price, 'right')],
  'fusion-locks': [
    field('id', 22),
    CITY,
    DATE,
    field('locked_at', 12, time),
    field('bucket_label', 15),
    field('yes_price', 6, price, 'right'),
    col('result', 6, (r) => (r.resolved ? (r.hit ? 'HIT' : 'MISS') : 'open')),
    field('pnl_usd', 8, money, 'right'),
  ],
  metar_observations_history: [...OBSERVATION, field('raw', 40)],
  pws_observations_history: [...OBSERVATION, field('station_code', 12)],
  wxa_history: [...OBSERVATION, field('humidity', 4, str, 'right')],
  wxb_history: [...OBSERVATION, field('humidity', 4, str, 'right')],
  forecast_history: [
    ID,
    CITY,
    DATE,
    field('fetched_at', 12, time),
    field('predicted_max_f', 6, num(1), 'right'),
    field('sigma_f', 5, num(2), 'right'),
    field('pacing_delta', 5, num(1), 'right'),
    field('hottest_model', 12),
  ],
  mkta_buckets_history: BUCKETS,
  mktb_buckets_history: BUCKETS,
  forecast_accuracy_daily: [
    ID,
    CITY,
    DATE,
    field('unit', 2),
    field('predicted_max', 7, num(1), 'right'),
    field('actual_max', 7, num(1), 'right'),
    field('abs_error', 6, num(1), 'right'),
  ],
  market_brief_daily: [
    ID,
    CITY,
    DATE,
    field('favourite_bucket_label', 15),
    field('favourite_price', 6, price, 'right'),
    field('brief', 60),
  ],
  edge_resolved: [
    ID,
    CITY,
    DATE,
    field('side', 4),
    field('bucket_label', 15),
    field('entry_price', 6, price, 'right'),
    field('exit_price', 6, price, 'right'),
    field('operation', 6),
    field('pnl_usd', 8, money, 'right'),
  ],
  model_forecasts_daily: [
    ID,
    CITY,
    DATE,
    field('model', 12),
    field('predicted_max_c', 6, num(1), 'right'),
    field('actual_max_c', 6, num(1), 'right'),
    col('exact', 5, (r) => (r.exact_hit ? 'HIT' : 'miss')),
  ],
};

export function historyHeader(table: BrowseTable): string {
  return titleCells(HISTORY_COLUMNS[table]).join(' ');
}

export function historyRow(table: BrowseTable, row: Row): string {
  return rowCells(HISTORY_COLUMNS[table], row).join(' ');
}
