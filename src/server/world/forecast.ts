import type { CityAsset } from '../../contract/assets.js';
import type { EdgeEnsembleDaily, ModelTmaxRange, SvcProForecast } from '../../contract/forecasts.js';
import { isoUtc, localDate, localHour } from '../../domain/city-time.js';
import { cToF, deltaCToF, round, withAliases } from '../../domain/units.js';
import { MODELS, type Models } from './models.js';
import { TrackRecord } from './track-record.js';
import { Weather } from './weather.js';

export const PACING_SOURCE = 'metar_pacing_v2';
const HALF_HOUR = 30 * 60_000;
/** Even a day decided by the observed high keeps a little doubt: a late report can still lift it. */
const MIN_SIGMA_C = 0.15;
const MEMO_SIZE = 2000;
/** Pacing weighs the last four half-hourly readings, newest first; at most this share of their gap moves the forecast. */
const PACING_WEIGHTS = [4, 3, 2, 1] as const;
const PACING_CAP = 0.6;

export interface PrimaryForecast {
  date: string;
  muC: number;
  sigmaC: number;
  /**
   * The highest temperature the desk expects METAR to sample from now to midnight, paced on the last two hours of
   * readings, before the desk's own correction: the whole day's high before the peak. Its track record is kept on
   * it, and the venues price on it.
   */
  stillToComeC: number;
  pacingC: number;
  ensembleC: number;
  /** The ensemble less its 30-day bias: the forecast before pacing and the observed high. */
  correctedC: number;
  runningMaxC: number | null;
  hourly: { h: string; t: number }[];
}

/** The three forecast layers the service publishes, computed for a city at an instant. */
export class ForecastDesk {
  readonly record: TrackRecord;
  private readonly memo = new Map<string, PrimaryForecast>();

  constructor(
    private readonly weather: Weather,
    private readonly models: Models,
  ) {
    this.record = new TrackRecord(weather, (city, ms) => this.forecastHigh(city, ms));
  }

  /**
   * The primary forecast: the skill-weighted ensemble, minus its 30-day bias, paced by how far today's METAR runs
   * ahead of or behind the expected curve, less the desk's own recent bias at this hour; never below the METAR high
   * already observed. Its sigma is the desk's own error at this hour of the day over the last 30 days (its track
   * record, bias taken out), so its probabilities are honest: a price is about as good as the desk, no better.
   */
  primary(city: CityAsset, ms: number): PrimaryForecast {
    const key = `${city.city_id}|${ms}`;
    const cached = this.memo.get(key);
    if (cached) return cached;
    const high = this.forecastHigh(city, ms);
    const record = this.record.at(city, high.date, localHour(ms, city.tz));
    // the desk corrects what its record says it gets wrong: the mean of its errors moves the forecast, their spread
    // is its sigma (an RMSE with the bias left in the forecast would count the bias twice)
    const muC = Math.max(high.runningMaxC ?? Number.NEGATIVE_INFINITY, high.muC - record.highBiasC);
    const sigmaC = Math.max(MIN_SIGMA_C, record.highSdC);
    const forecast = { ...high, muC: round(muC, 2), sigmaC: round(sigmaC, 2) };
    // the world asks for the same instant from several jobs and every venue quote: keep the latest few
    if (this.memo.size >= MEMO_SIZE) this.memo.clear();
    this.memo.set(key, forecast);
    return forecast;
  }

  /**
   * The forecast of the day's high before the desk's own correction. Before the peak it is the paced, bias-corrected
   * ensemble; after the peak the expected curve only falls, so what is still to come is the curve from now on, and
   * the running METAR high soon decides the day.
   */
  private forecastHigh(city: CityAsset, ms: number): Omit<PrimaryForecast, 'sigmaC'> {
    const date = localDate(ms, city.tz);
    const hour = localHour(ms, city.tz);
    const peak = city.climate.peak_hour;
    const ensembleC = this.models.ensembleC(city, date, ms);
    const correctedC = ensembleC - this.models.ensembleBiasC(city, date);
    const lowC = correctedC - city.climate.diurnal_range_c * 0.8;
    const expectedAt = (h: number) => Weather.diurnalC(lowC, correctedC, lowC, peak, h);

    // pacing weighs the last two hours of readings (one reading alone is noise the desk would pass on) and runs until
    // midnight: after the peak it says how far the evening runs above or below the curve
    const pacingC = this.pacedC(city, ms, expectedAt);
    const runningMaxC = this.weather.runningMaxC(city, date, ms);
    const stillToComeC = expectedAt(Math.max(hour, peak)) + pacingC;
    const muC = Math.max(stillToComeC, runningMaxC ?? Number.NEGATIVE_INFINITY);
    const hourly = Array.from({ length: 24 }, (_, h) => ({
      h: `${String(h).padStart(2, '0')}:00`,
      t: round(expectedAt(h) + pacingC, 1),
    }));
    return { date, muC: round(muC, 2), stillToComeC, pacingC, ensembleC, correctedC, runningMaxC, hourly };
  }

  /**
   * How far METAR runs ahead of (or behind) the expected curve, as a correction to the forecast: the gap of the last
   * four readings (two hours, newest first, weighted by `PACING_WEIGHTS`), clamped to 3 degrees, times a share that
   * grows from 08:00 to `PACING_CAP` at the peak hour. Zero before 08:00, when the morning low says little about the
   * afternoon.
   */
  private pacedC(city: CityAsset, ms: number, expectedAt: (hour: number) => number): number {
    const hour = localHour(ms, city.tz);
    if (hour < 8) return 0;
    const slotHour = Math.floor(hour * 2) / 2;
    let gap = 0;
    let total = 0;
    PACING_WEIGHTS.forEach((weight, i) => {
      gap += weight * (this.weather.metarC(city, ms - i * HALF_HOUR) - expectedAt(slotHour - i / 2));
      total += weight;
    });
    const share = Math.min(PACING_CAP, ((hour - 8) / (city.climate.peak_hour - 8)) * PACING_CAP);
    return round(Math.max(-3, Math.min(3, gap / total)) * share, 1);
  }

  svcPro(city: CityAsset, ms: number): SvcProForecast {
    const p = this.primary(city, ms);
    const models = MODELS.map((m) => ({ model: m.model, tmaxC: this.models.modelTmaxC(m, city, p.date, ms) }));
    const hottest = models.reduce((a, b) => (b.tmaxC > a.tmaxC ? b : a));
    const predictedF = round(cToF(p.muC), 1);
    const weights = this.models.weights(city, p.date);
    return {
      city_id: city.city_id,
      local_date: p.date,
      station_code: city.icao,
      unit: 'F',
      ...(withAliases('predicted_max', predictedF, 'F') as Pick<
        SvcProForecast,
        'predicted_max' | 'predicted_max_f' | 'predicted_max_c'
      >),
      ...(withAliases('sigma', round(deltaCToF(p.sigmaC), 2), 'F', 'delta') as Pick<
        SvcProForecast,
        'sigma' | 'sigma_f' | 'sigma_c'
      >),
      pacing_delta: p.pacingC,
      pacing_source: PACING_SOURCE,
      hottest_model: hottest.model,
      models_used: weights.map((w) => ({ model: w.model, weight: round(w.weight, 4), mae: round(w.mae, 2) })),
      hourly: p.hourly,
      hourly_unit: 'C',
      reasoning: this.reasoning(city, p, hottest.model, round(cToF(hottest.tmaxC), 1)),
      fetched_at: isoUtc(ms),
    };
  }

  edgeEnsemble(city: CityAsset, ms: number): EdgeEnsembleDaily {
    const date = localDate(ms, city.tz);
    const weights = this.models.weights(city, date);
    const values = MODELS.map((m) => this.models.modelTmaxC(m, city, date, ms));
    const mean = values.reduce((acc, v, i) => acc + v * (weights[i]?.weight ?? 0), 0);
    const variance = values.reduce((acc, v, i) => acc + (weights[i]?.weight ?? 0) * (v - mean) ** 2, 0);
    const meanC = round(mean, 2);
    const sigmaC = round(Math.max(0.3, Math.sqrt(variance)), 2);
    const meanF = round(cToF(meanC));
    return {
      city_id: city.city_id,
      local_date: date,
      unit: 'C',
      fc_mean: meanC,
      fc_mean_c: meanC,
      fc_mean_f: meanF,
      tmax_mean_c: meanC,
      tmax_mean_f: meanF,
      sigma: sigmaC,
      sigma_c: sigmaC,
      sigma_f: round(deltaCToF(sigmaC)),
      models: weights.map((w) => ({ model: w.model, weight: round(w.weight, 4) })),
      models_used: weights.map((w) => w.model),
      n_models: weights.length,
      fetched_at: isoUtc(ms),
    };
  }

  modelRange(city: CityAsset, ms: number): ModelTmaxRange {
    const date = localDate(ms, city.tz);
    const models = MODELS.map((m) => ({
      model: m.model,
      tmax: round(cToF(this.models.modelTmaxC(m, city, date, ms)), 1),
    }));
    const temps = models.map((m) => m.tmax);
    const min = Math.min(...temps);
    const max = Math.max(...temps);
    const mean = round(temps.reduce((a, b) => a + b, 0) / temps.length, 1);
    const spread = round(max - min, 1);
    return {
      city_id: city.city_id,
      local_date: date,
      station_code: city.icao,
      unit: 'F',
      ...(withAliases('tmax_min', min, 'F') as Pick<ModelTmaxRange, 'tmax_min' | 'tmax_min_f' | 'tmax_min_c'>),
      ...(withAliases('tmax_max', max, 'F') as Pick<ModelTmaxRange, 'tmax_max' | 'tmax_max_f' | 'tmax_max_c'>),
      ...(withAliases('tmax_mean', mean, 'F') as Pick<ModelTmaxRange, 'tmax_mean' | 'tmax_mean_f' | 'tmax_mean_c'>),
      spread,
      spread_f: spread,
      n_models: models.length,
      models,
      fetched_at: isoUtc(ms),
    };
  }

  private reasoning(city: CityAsset, p: PrimaryForecast, hottest: string, hottestF: number): string {
    const parts = [
      `Skill-weighted ensemble of ${MODELS.length} models puts the ${p.date} high at ${round(cToF(p.ensembleC), 1)}°F at ${city.icao}; the 30-day bias correction brings it to ${round(cToF(p.correctedC), 1)}°F.`,
    ];
    if (p.pacingC !== 0) {
      parts.push(
        `METAR is running ${p.pacingC > 0 ? 'ahead of' : 'behind'} the expected curve, so pacing moves the forecast by ${p.pacingC > 0 ? '+' : ''}${p.pacingC}°C.`,
      );
    }
    if (p.runningMaxC !== null)
      parts.push(`Observed high so far: ${p.runningMaxC}°C (${round(cToF(p.runningMaxC), 1)}°F).`);
    parts.push(
      `Hottest member: ${hottest} at ${hottestF}°F. Uncertainty ±${round(deltaCToF(p.sigmaC), 1)}°F (1 sigma).`,
    );
    return parts.join(' ');
  }
}
