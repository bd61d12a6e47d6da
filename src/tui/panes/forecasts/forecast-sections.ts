import type { BoardDay } from '../../../board/board-day.js';
import type { MarketDay } from '../../../board/market-day.js';
import type { CurrentRow, DaySeries, MetarPoint } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { MarketUnit } from '../../../contract/common.js';
import type { EdgeEnsembleDaily, ModelTmaxRange, SvcProForecast } from '../../../contract/forecasts.js';
import type { Holding } from '../../../domain/held-buckets.js';
import { temp } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { localDayClock, utcStamp } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';
import { bucketTableLines, bucketTableNote } from './bucket-table.js';
import { payoffLines } from './payoff-table.js';
import { title, titleLines } from './section-title.js';

export interface ForecastView {
  city: City;
  marketUnit: MarketUnit;
  unit: MarketUnit;
  nowMs: number;
  primary?: SvcProForecast;
  ensemble?: EdgeEnsembleDaily;
  /** The models' Tmax and where it is from (board/market-day.ts). */
  range?: ModelTmaxRange;
  rangeFrom: MarketDay['rangeFrom'];
  /** Each product's forecast of the day from `model_forecasts_daily`, when a polled layer of it is missing. */
  dayAhead: MarketDay['dayAhead'];
  /** Time travel's instant, which every read of the page is as of; undefined: live. */
  asOfMs?: number;
  /** Each source's newest reading (polled or from its history table). */
  current: CurrentRow[];
  /** Every METAR reading of the city's local day. */
  metar: MetarPoint[];
  /** Both venues' YES prices of each bucket and the desk's mu and sigma through the market day, for sparklines. */
  series: DaySeries;
  /** The forecast's market day as the board works it out (board/): its buckets priced, both venues, the running high. */
  day: BoardDay;
  /** The open holdings of the forecast's market day: payoff by outcome. */
  holdings: Holding[];
}

/** Whether the desk's run shown is a `forecast_history` row (cache/market/day-forecasts.ts): no lists, text or curve. */
export const fromHistory = (v: ForecastView): boolean => v.primary?.pacing_source === 'forecast_history';

/** The city and the run shown: on one line when it fits, else the run on a line of its own (never cut off at 80). */
export function headerLines(v: ForecastView, width: number): Line[] {
  const c = v.city;
  const shown = v.unit === v.marketUnit ? '' : ` · showing °${v.unit} (u)`;
  const name = seg(`${c.city_name} (${c.city_id})`, 'accent', true);
  const place = ` · ${c.icao} · market in °${v.marketUnit}${shown} · local ${localDayClock(v.nowMs, c.tz)}`;
  if (!v.primary) return [line(name, place)];
  const target = `forecast for ${v.primary.local_date}, fetched ${utcStamp(Date.parse(v.primary.fetched_at))}`;
  if (name.text.length + place.length + 3 + target.length <= width) return [line(name, `${place} · ${target}`)];
  return [line(name, place), line(target)];
}

export function currentLines(v: ForecastView, width: number): Line[] {
  const names: Record<string, string> = {
    wxa_current: 'wxa',
    wxb_current: 'wxb',
    metar_observations: 'METAR',
    pws_observations: 'PWS',
  };
  const cells = ['wxa_current', 'wxb_current', 'metar_observations', 'pws_observations'].map((source) => {
    const row = v.current.find((r) => r.source === source);
    const value = row ? temp(row.temp_f, 'F', v.unit) : '—';
    const at = row ? ` ${utcStamp(Date.parse(row.fetched_at)).slice(6)}` : '';
    return `${names[source]} ${value}${at}`;
  });
  const perLine = width >= 4 * 24 ? 4 : 2;
  const note = v.asOfMs === undefined ? 'four sources, side by side' : `four sources, each as of ${utcStamp(v.asOfMs)}`;
  const out: Line[] = [title('NOW', note)];
  for (let i = 0; i < cells.length; i += perLine)
    out.push(
      line(
        `  ${cells
          .slice(i, i + perLine)
          .map((c) => cell(c, 23))
          .join(' ')}`,
      ),
    );
  return out;
}

/**
 * Each bucket's probability under the market's settlement rule, conditioned on the running high, beside the newest
 * snapshot of both venues and the effective edge (bucket-table.ts), as the board works them out.
 */
export function bucketLines(v: ForecastView, width: number): Line[] {
  if (v.day.buckets.length === 0) return [title('MARKET BUCKETS', 'no forecast to price them with')];
  return [...titleLines('MARKET BUCKETS', bucketTableNote(v.day), width), ...bucketTableLines(v.day, width)];
}

/**
 * The payoff lines of each book and day, kept with them: they are in the market's unit whatever unit the page shows,
 * so `u` lays the page out again without going over the book (10,000 holdings are milliseconds).
 */
const payoffs = new WeakMap<ForecastView['holdings'], { day: ForecastView['day']; lines: Line[] }>();

/** Payoff by outcome over the buckets of the table. */
export function payoffSection(v: ForecastView): Line[] {
  const kept = payoffs.get(v.holdings);
  if (kept?.day === v.day) return kept.lines;
  const outcomes = v.day.buckets.flatMap((r) => (r.bucket ? [r.bucket] : []));
  const lines = payoffLines(v.holdings, outcomes, v.day.market, v.day.runningHighC, v.day.settled);
  payoffs.set(v.holdings, { day: v.day, lines });
  return lines;
}
