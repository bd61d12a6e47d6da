import { forecastIn } from '../../../domain/desk-forecast.js';
import { BLENDED_PRODUCTS, highOf } from '../../../domain/model-range.js';
import { bar } from '../../format/charts.js';
import { convert, temp, tempDelta } from '../../format/numbers.js';
import { cell, wrap } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';
import { type ForecastView, fromHistory } from './forecast-sections.js';
import { title, titleLines } from './section-title.js';

/**
 * The left half of the page: what the desk and the models say of the day. Replaying, each is the newest row at or
 * before the instant, of the polls or of the history tables (`forecast_history` for the desk's run,
 * `model_forecasts_daily` for the models); a section the cache holds nothing of by then says so.
 */

/** `before 11-27 17:00Z` replaying, `for 2026-11-27` live: what a section found nothing cached for. */
const cachedFor = (v: ForecastView): string =>
  v.asOfMs === undefined ? `for ${v.day.date}` : `before ${utcStamp(v.asOfMs)}`;

/** Free text as muted lines within `width`, indented two. */
const mutedText = (text: string, width: number): Line[] =>
  wrap(text, Math.max(20, width - 4)).map((t) => line(seg(`  ${t}`, 'muted')));

export function primaryLines(v: ForecastView, width: number): Line[] {
  const p = v.primary;
  // the day's: a forecast of another day (tomorrow's, once the service has rolled over) may well be cached
  if (!p) return [title('PRIMARY', `no forecast cached ${cachedFor(v)}`)];
  // the published alias of the unit shown: the same numbers the board and the bucket table use
  const shown = forecastIn(p, v.unit);
  const mu = temp(shown?.mu, v.unit, v.unit);
  const sigma = tempDelta(shown?.sigma, v.unit, v.unit);
  const pacing = `${p.pacing_delta >= 0 ? '+' : ''}${p.pacing_delta.toFixed(1)}°C`;
  if (fromHistory(v)) {
    return [
      title('PRIMARY', 'svc_pro_forecast, the run kept in forecast_history'),
      line('  ', seg(`${mu} ± ${sigma}`, undefined, true), `   pacing ${pacing}`),
      ...mutedText(`hottest model ${p.hottest_model} · forecast_history keeps no models, reasoning or curve`, width),
    ];
  }
  return [
    title('PRIMARY', 'svc_pro_forecast'),
    line('  ', seg(`${mu} ± ${sigma}`, undefined, true), `   pacing ${pacing} (${p.pacing_source})`),
    line(seg(`  hottest model ${p.hottest_model} · ${p.models_used.length} models used`, 'muted')),
  ];
}

/** The desk's reasoning, last on the page: text to read once the numbers above have been. */
export function reasoningLines(v: ForecastView, width: number): Line[] {
  const text = v.primary && !fromHistory(v) ? v.primary.reasoning : '';
  return text ? [title('REASONING', 'svc_pro_forecast'), ...mutedText(text, width)] : [];
}

export function ensembleLines(v: ForecastView, width: number): Line[] {
  const e = v.ensemble;
  if (!e) {
    const none =
      v.asOfMs === undefined
        ? `no edge_ensemble_daily cached ${cachedFor(v)}`
        : `no ensemble history cached ${cachedFor(v)}`;
    // the blends' own forecasts of the day, where model_forecasts_daily holds them
    const blends = v.dayAhead.flatMap((p) => {
      const high = BLENDED_PRODUCTS.includes(p.model) ? highOf(p) : null;
      return high ? [`${p.model} ${temp(high.c, 'C', v.unit)}`] : [];
    });
    return [
      ...titleLines('ENSEMBLE', none, width),
      ...(blends.length ? mutedText(`day-ahead (model_forecasts_daily): ${blends.join(' · ')}`, width) : []),
    ];
  }
  const weights = e.models.map((m) => `${m.model} ${m.weight.toFixed(2)}`);
  return [
    title('ENSEMBLE', 'edge_ensemble_daily'),
    line(
      '  ',
      seg(`${temp(e.fc_mean_c, 'C', v.unit)} ± ${tempDelta(e.sigma_c, 'C', v.unit)}`, undefined, true),
      ` · ${e.n_models} models`,
    ),
    ...mutedText(`weights: ${weights.join(', ')}`, width),
  ];
}

/**
 * Each model's Tmax as a bar between the coldest and the warmest member: the polled `model_tmax_range` of the day, or
 * each model's day-ahead forecast from `model_forecasts_daily` (board/market-day.ts).
 */
export function modelRangeLines(v: ForecastView, width: number): Line[] {
  const r = v.range;
  if (!r || r.models.length === 0) {
    const none =
      v.asOfMs === undefined ? `no model_tmax_range cached ${cachedFor(v)}` : `no model history cached ${cachedFor(v)}`;
    return titleLines('MODELS', none, width);
  }
  const values = r.models.map((m) => convert(m.tmax, 'F', v.unit));
  const barWidth = Math.max(6, Math.min(40, width - 26));
  const summary = `min ${temp(r.tmax_min_f, 'F', v.unit)} · mean ${temp(r.tmax_mean_f, 'F', v.unit)} · max ${temp(r.tmax_max_f, 'F', v.unit)} · spread ${tempDelta(r.spread_f, 'F', v.unit)}`;
  const source = v.rangeFrom === 'model_forecasts_daily' ? 'day-ahead, model_forecasts_daily' : 'model_tmax_range';
  const scale = barScale(values);
  const out: Line[] = [
    ...titleLines('MODELS Tmax', source, width),
    ...mutedText(summary, width),
    line(seg(`  bars ${scale.text(v.unit)}`, 'muted')),
  ];
  r.models.forEach((m, i) => {
    const value = values[i] as number;
    out.push(
      line(
        `  ${cell(m.model, 12)}${cell(`${value.toFixed(1)}°${v.unit}`, 8, 'right')} `,
        seg(bar((value - scale.from) / (scale.to - scale.from), barWidth), 'accent'),
      ),
    );
  });
  return out;
}

/**
 * Where the models' bars start and end: from zero to the warmest, so a bar's length is its value and a 2 °C spread
 * looks as small as it is; a model below zero (a winter's day in °C or °F) cannot be drawn from zero, so then the bars
 * span the range, and the line above them says `from min..max`.
 */
export function barScale(values: readonly number[]): { from: number; to: number; text: (u: string) => string } {
  const hi = Math.max(...values);
  const lo = Math.min(...values);
  if (lo >= 0 && hi > 0) return { from: 0, to: hi, text: (u) => `from 0 to ${hi.toFixed(1)}°${u}` };
  const from = lo - 0.5;
  const to = hi + 0.5;
  return { from, to, text: (u) => `drawn over a range, not from 0: ${from.toFixed(1)}..${to.toFixed(1)}°${u}` };
}
