import type { BoardDay } from '../../../board/board-day.js';
import type { CurrentRow, MetarPoint } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { MarketUnit } from '../../../contract/common.js';
import type { EdgeEnsembleDaily, ModelTmaxRange, SvcProForecast } from '../../../contract/forecasts.js';
import { localHour } from '../../../domain/city-time.js';
import { forecastIn } from '../../../domain/desk-forecast.js';
import type { Holding } from '../../../domain/held-buckets.js';
import { bar, hourlyChart } from '../../format/charts.js';
import { convert, temp, tempDelta } from '../../format/numbers.js';
import { cell, wrap } from '../../format/text.js';
import { localDayClock, utcStamp } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';
import { bucketTableLines, bucketTableNote } from './bucket-table.js';
import { payoffLines } from './payoff-table.js';

export interface ForecastView {
  city: City;
  marketUnit: MarketUnit;
  unit: MarketUnit;
  nowMs: number;
  primary?: SvcProForecast;
  ensemble?: EdgeEnsembleDaily;
  range?: ModelTmaxRange;
  current: CurrentRow[];
  /** Every METAR reading of the city's local day. */
  metar: MetarPoint[];
  /** The forecast's market day as the board works it out (board/): its buckets priced, both venues, the running high. */
  day: BoardDay;
  /** The open holdings of the forecast's market day: payoff by outcome. */
  holdings: Holding[];
}

const title = (text: string, note = ''): Line => line(seg(text, 'accent', true), seg(note ? `  ${note}` : '', 'muted'));

export function headerLines(v: ForecastView): Line[] {
  const c = v.city;
  const shown = v.unit === v.marketUnit ? '' : ` · showing °${v.unit} (u)`;
  const target = v.primary
    ? ` · forecast for ${v.primary.local_date}, fetched ${utcStamp(Date.parse(v.primary.fetched_at))}`
    : '';
  return [
    line(
      seg(`${c.city_name} (${c.city_id})`, 'accent', true),
      ` · ${c.icao} · market in °${v.marketUnit}${shown} · local ${localDayClock(v.nowMs, c.tz)}${target}`,
    ),
  ];
}

export function primaryLines(v: ForecastView, width: number): Line[] {
  const p = v.primary;
  if (!p) return [title('PRIMARY', 'no forecast cached for this city yet')];
  // the published alias of the unit shown: the same numbers the board and the bucket table use
  const shown = forecastIn(p, v.unit);
  const mu = temp(shown?.mu, v.unit, v.unit);
  const sigma = tempDelta(shown?.sigma, v.unit, v.unit);
  const pacing = `${p.pacing_delta >= 0 ? '+' : ''}${p.pacing_delta.toFixed(1)}°C`;
  const out: Line[] = [
    title('PRIMARY', 'svc_pro_forecast'),
    line('  ', seg(`${mu} ± ${sigma}`, undefined, true), `   pacing ${pacing} (${p.pacing_source})`),
    line(seg(`  hottest model ${p.hottest_model} · ${p.models_used.length} models used`, 'muted')),
  ];
  for (const text of wrap(p.reasoning, Math.max(20, width - 4))) out.push(line(seg(`  ${text}`, 'muted')));
  return out;
}

export function ensembleLines(v: ForecastView, width: number): Line[] {
  const e = v.ensemble;
  if (!e) return [title('ENSEMBLE', 'not cached')];
  const out: Line[] = [
    title('ENSEMBLE', 'edge_ensemble_daily'),
    line(
      '  ',
      seg(`${temp(e.fc_mean_c, 'C', v.unit)} ± ${tempDelta(e.sigma_c, 'C', v.unit)}`, undefined, true),
      ` · ${e.n_models} models`,
    ),
  ];
  const weights = e.models.map((m) => `${m.model} ${m.weight.toFixed(2)}`);
  for (const text of wrap(`weights: ${weights.join(', ')}`, Math.max(20, width - 4)))
    out.push(line(seg(`  ${text}`, 'muted')));
  return out;
}

/** Each model's Tmax as a bar between the coldest and the warmest member. */
export function modelRangeLines(v: ForecastView, width: number): Line[] {
  const r = v.range;
  if (!r || r.models.length === 0) return [title('MODELS', 'model_tmax_range not cached')];
  const values = r.models.map((m) => convert(m.tmax, 'F', v.unit));
  const lo = Math.min(...values) - 0.5;
  const hi = Math.max(...values) + 0.5;
  const barWidth = Math.max(6, Math.min(40, width - 26));
  const summary = `min ${temp(r.tmax_min_f, 'F', v.unit)} · mean ${temp(r.tmax_mean_f, 'F', v.unit)} · max ${temp(r.tmax_max_f, 'F', v.unit)} · spread ${tempDelta(r.spread_f, 'F', v.unit)}`;
  const out: Line[] = [title('MODELS Tmax', 'model_tmax_range'), line(seg(`  ${summary}`, 'muted'))];
  r.models.forEach((m, i) => {
    const value = values[i] as number;
    out.push(
      line(
        `  ${cell(m.model, 12)}${cell(`${value.toFixed(1)}°${v.unit}`, 8, 'right')} `,
        seg(bar((value - lo) / (hi - lo), barWidth), 'accent'),
      ),
    );
  });
  return out;
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
  const out: Line[] = [title('NOW', 'four sources, side by side')];
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

export function hourlyLines(v: ForecastView, width: number, height: number): Line[] {
  const tz = v.city.tz;
  const forecast = (v.primary?.hourly ?? []).map((h) => ({
    hour: Number(h.h.slice(0, 2)) + Number(h.h.slice(3, 5)) / 60,
    value: convert(h.t, 'C', v.unit),
  }));
  const metar = v.metar.map((m) => ({
    hour: localHour(m.ms, tz),
    value: m.temp_c !== null && v.unit === 'C' ? m.temp_c : convert(m.temp_f, 'F', v.unit),
  }));
  return [
    title('HOURLY', `· forecast  ● METAR so far today  ◉ both  ^ now (local time, °${v.unit})`),
    ...hourlyChart(forecast, metar, localHour(v.nowMs, tz), width - 2, height, `°${v.unit}`).map((l) => [
      seg(' '),
      ...l,
    ]),
  ];
}

/**
 * Each bucket's probability under the market's settlement rule, conditioned on the running high, beside the newest
 * snapshot of both venues and the effective edge (bucket-table.ts), as the board works them out.
 */
export function bucketLines(v: ForecastView, width: number): Line[] {
  if (v.day.buckets.length === 0) return [title('MARKET BUCKETS', 'no forecast to price them with')];
  return [title('MARKET BUCKETS', bucketTableNote(v.day)), ...bucketTableLines(v.day, width)];
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
  const lines = payoffLines(v.holdings, outcomes, v.day.market, v.day.runningHighC);
  payoffs.set(v.holdings, { day: v.day, lines });
  return lines;
}
