import Type, { type Static } from 'typebox';
import { LocalDate, Nullable } from './common.js';

import type { StrategyFamily } from './names.js';

export { STRATEGY_FAMILIES, type StrategyFamily } from './names.js';

/** DESIGN.md section 4: a settled record is a `win` or a `loss`; `roi` = (payout - stake) / stake. */
export const Outcome = Type.Union([Type.Literal('win'), Type.Literal('loss')]);
export type Outcome = Static<typeof Outcome>;

const shared = {
  id: Type.Integer({ minimum: 1 }),
  city_id: Type.String(),
  local_date: LocalDate,
  bucket_slug: Type.String(),
  bucket_label: Type.String(),
  stake: Type.Number(),
  shares: Type.Number(),
  outcome: Nullable(Outcome),
  roi: Nullable(Type.Number()),
};

export const No24Record = Type.Object({
  ...shared,
  side: Type.Literal('NO'),
  strategy: Type.Literal('no24'),
  model: Type.String(),
  model_exact_pct: Type.Number({ minimum: 0, maximum: 1 }),
  predicted_max_c: Type.Number(),
  predicted_max_f: Type.Number(),
  no_ask: Type.Number(),
  current_no_price: Type.Number(),
});
export type No24Record = Static<typeof No24Record>;

export const YescoreRecord = Type.Object({
  ...shared,
  side: Type.Literal('YES'),
  strategy: Type.Literal('yescore'),
  model: Type.String(),
  model_exact_pct: Type.Number({ minimum: 0, maximum: 1 }),
  predicted_max_c: Type.Number(),
  corrected_max_c: Type.Number(),
  bias_c: Type.Number(),
  yes_ask: Type.Number(),
  edge: Type.Number(),
  current_yes_price: Type.Number(),
});
export type YescoreRecord = Static<typeof YescoreRecord>;

export const SvcMaxPickRecord = Type.Object({
  ...shared,
  side: Type.Literal('YES'),
  strategy: Type.Literal('svc_max_11'),
  entry_hour: Type.Integer({ minimum: 0, maximum: 23 }),
  mu_c: Type.Number(),
  sigma_c: Type.Number(),
  n_models: Type.Integer({ minimum: 0 }),
  model_prob: Type.Number({ minimum: 0, maximum: 1 }),
  yes_ask: Type.Number(),
  edge: Type.Number(),
  mode: Type.Literal('paper'),
});
export type SvcMaxPickRecord = Static<typeof SvcMaxPickRecord>;

export const STRATEGY_RECORD = {
  no24: No24Record,
  yescore: YescoreRecord,
  'svc-max-picks': SvcMaxPickRecord,
} as const;

export type StrategyRecord = No24Record | YescoreRecord | SvcMaxPickRecord;

const responseOf = <F extends StrategyFamily>(family: F) =>
  Type.Object({ count: Type.Integer({ minimum: 0 }), data: Type.Array(STRATEGY_RECORD[family]) });

/**
 * Each family's list response, built once: the client compiles a schema once per object (its validators are keyed on
 * it), and a schema built at each call made it compile and keep a new validator at every poll (1 MB a minute of the
 * demo's session thread, with a compile each time).
 */
export const No24Response = responseOf('no24');
export const YescoreResponse = responseOf('yescore');
export const SvcMaxPicksResponse = responseOf('svc-max-picks');

const STRATEGY_RESPONSE = {
  no24: No24Response,
  yescore: YescoreResponse,
  'svc-max-picks': SvcMaxPicksResponse,
} as const;

export const strategyResponse = <F extends StrategyFamily>(family: F): (typeof STRATEGY_RESPONSE)[F] =>
  STRATEGY_RESPONSE[family];
