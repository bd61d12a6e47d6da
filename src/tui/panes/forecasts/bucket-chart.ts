import type { MarketUnit } from '../../../contract/common.js';
import { OPEN_HIGH, OPEN_LOW } from '../../../domain/buckets.js';
import { localHour } from '../../../domain/city-time.js';
import { settledValue, wholeDegreesC } from '../../../domain/settlement.js';
import { cToF, deltaCToF, fToC } from '../../../domain/units.js';
import { type BucketChartInput, bucketChart, type ChartBand } from '../../format/charts.js';
import { percent, temp } from '../../format/numbers.js';
import type { Line } from '../../theme.js';
import { type ForecastView, fromHistory } from './forecast-sections.js';
import { titleLines } from './section-title.js';

/**
 * The unit whose whole degrees the market settles on (DESIGN 4): °C under `metar_c` (a °F market settles on the whole
 * °C of METAR converted), °F only for a °F market under `whole_f`. The chart's rows are slices of these degrees, so a
 * bucket's band has its edges exactly where the rule puts them.
 */
const latticeUnit = (v: ForecastView): MarketUnit =>
  v.day.market.unit === 'F' && v.day.market.rule === 'whole_f' ? 'F' : 'C';

/** A value in °C as the lattice counts it. */
const inLattice = (c: number, unit: MarketUnit): number => (unit === 'F' ? cToF(c) : c);

/** Each bucket the chart can draw, as the whole degrees of the lattice that settle in it, lowest first. */
function bandsOf(v: ForecastView, unit: MarketUnit): ChartBand[] {
  return v.day.buckets.flatMap((r) => {
    if (!r.bucket || !r.label) return [];
    const [low, high] =
      unit === 'C'
        ? wholeDegreesC(r.bucket, v.day.market.unit)
        : [r.bucket.low === OPEN_LOW ? null : r.bucket.low, r.bucket.high === OPEN_HIGH ? null : r.bucket.high];
    const chance = r.dead ? 'dead' : percent(r.p, 0);
    return [{ label: `${r.label} ${chance}`, low, high, dead: r.dead }];
  });
}

/** What the chart is drawn from: the day's curve and readings, the buckets, the desk and the high, in the lattice. */
export function chartInput(v: ForecastView): BucketChartInput {
  const unit = latticeUnit(v);
  const forecast = (v.primary?.hourly ?? []).map((h) => ({
    hour: Number(h.h.slice(0, 2)) + Number(h.h.slice(3, 5)) / 60,
    value: inLattice(h.t, unit),
  }));
  const metar = v.metar.map((m) => ({
    hour: localHour(m.ms, v.city.tz),
    value: unit === 'F' ? m.temp_f : (m.temp_c ?? fToC(m.temp_f)),
  }));
  const f = v.day.forecast;
  const high = v.day.runningHighC;
  return {
    forecast,
    metar,
    nowHour: localHour(v.nowMs, v.city.tz),
    bands: bandsOf(v, unit),
    desk: f ? { mu: inLattice(f.muC, unit), sigma: unit === 'F' ? deltaCToF(f.sigmaC) : f.sigmaC } : null,
    runningHigh: high === null ? null : unit === 'F' ? settledValue(high, 'F') : high,
    // a whole degree of the lattice in the unit shown: `20°C`, or `68.0°F` for 20 °C
    axis: (whole) => temp(whole, unit, v.unit, unit === v.unit ? 0 : 1),
  };
}

/**
 * The day against its buckets (format/charts.ts `bucketChart`): `height` lines in all, its title and legend among
 * them, so the chart takes what the page gives it.
 */
export function chartLines(v: ForecastView, width: number, height: number): Line[] {
  const why = !v.primary ? 'cached' : fromHistory(v) ? 'in forecast_history' : 'in this run';
  const curve = v.primary?.hourly?.length ? '· forecast' : `no hourly forecast ${why} ·`;
  const legend = `${curve} ● METAR ◉ both · ─ METAR high · μ┃ desk mu ± sigma · ░ every other bucket · ^ now (local, °${v.unit})`;
  const head = titleLines('DAY AGAINST THE BUCKETS', legend, width);
  return [...head, ...bucketChart(chartInput(v), width, Math.max(5, height - head.length))];
}
