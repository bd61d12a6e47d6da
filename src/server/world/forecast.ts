import type { CityAsset } from '../../contract/assets.js';
import type { EdgeEnsembleDaily, ModelTmaxRange, SvcProForecast } from '../../contract/forecasts.js';
import { isoUtc, localDate, localHour } from '../../domain/city-time.js';
import { dayPhase } from '../../domain/day-phase.js';
import { cToF, deltaCToF, deltaToMarketUnit, round, toMarketUnit, withAliases } from '../../domain/units.js';
import type { DayAheadView } from './day-ahead.js';
import { MODELS, type Models } from './models.js';
import { LearnedPacing } from './pacing.js';
import { dayAfter, dayBefore } from './skill-window.js';
import { halfHourInstant, halfHourOf, MIN_SIGMA_C, TrackRecord } from './track-record.js';
import { Weather } from './weather.js';

export const PACING_SOURCE = 'metar_pacing_v3';
const HALF_HOUR = 30 * 60_000;
const MEMO_SIZE = 2000;
/** Pacing weighs the last four half-hourly readings, newest first. */
const PACING_WEIGHTS = [4, 3, 2, 1] as const;
/** The low the desk expects at 06:00: the forecast high less this share of the city's diurnal range. */
const EXPECTED_LOW_SHARE = 0.8;

export interface PrimaryForecast {
  date: string;
  muC: number;
  sigmaC: number;
  pacingC: number;
  ensembleC: number;
  /** The ensemble less its 30-day bias: the forecast before pacing and the observed high. */
  correctedC: number;
  /** How far the models (each less its bias) disagree in the current run: how unsettled the day looks. */
  spreadC: number;
  runningMaxC: number | null;
  /** The curve the forecast expects through the day (local hour -> degrees C), before pacing. */
  expectedAt: (hour: number) => number;
}

/** The three forecast layers the service publishes, computed for a city at an instant. */
export class ForecastDesk {
  readonly record: TrackRecord;
  private readonly memo = new Map<string, PrimaryForecast>();
  private readonly pacing: LearnedPacing;

  /** Forgets the days before `date` (world.ts: once its windows no longer reach them). */
  forgetBefore(date: string): void {
    this.record.forgetBefore(date);
    this.pacing.forgetBefore(date);
  }

  constructor(
    private readonly weather: Weather,
    private readonly models: Models,
    cities: readonly CityAsset[],
    private readonly dayAhead: DayAheadView,
  ) {
    this.record = new TrackRecord(weather, cities, (city, ms) => this.forecastHigh(city, ms));
    this.pacing = new LearnedPacing(cities, (city, date, slot) => {
      const { gapC, correctedC } = this.readingsAt(city, halfHourInstant(date, slot, city.tz));
      return { gapC, missC: this.weather.sampledHighC(city, date) - correctedC };
    });
  }

  /**
   * The primary forecast: the skill-weighted ensemble, minus its 30-day bias, paced by how far today's METAR runs
   * ahead of or behind the expected curve, less the desk's own recent bias at this half hour; never below the METAR
   * high already observed. Its sigma is what its track record says of its error at this half hour of the day, on a day
   * whose models disagree this much (see TrackRecord), so its probabilities are honest: wide on an unsettled day,
   * sharp on a quiet one and once the readings have spoken; a price is about as good as the desk, no better.
   */
  primary(city: CityAsset, ms: number): PrimaryForecast {
    const key = `${city.city_id}|${ms}`;
    const cached = this.memo.get(key);
    if (cached) return cached;
    const high = this.forecastHigh(city, ms);
    const record = this.record.at(high.date, localHour(ms, city.tz));
    // the desk corrects what its record says it gets wrong: the mean of its errors moves the forecast, their spread
    // is its sigma (an RMSE with the bias left in the forecast would count the bias twice)
    const muC = Math.max(high.runningMaxC ?? Number.NEGATIVE_INFINITY, high.muC - record.highBiasC);
    // its sigma: the spread of its errors this hour for a day whose models are this far apart, widened or narrowed by
    // how its errors have lately run against that
    const hour = localHour(ms, city.tz);
    const sigmaC = Math.max(
      MIN_SIGMA_C,
      this.record.sigmaOn(high.date, hour, high.spreadC) * this.record.widthOfErrors(high.date, hour),
    );
    const forecast = { ...high, muC: round(muC, 2), sigmaC: round(sigmaC, 2) };
    // the world asks for the same instant from several jobs and every venue quote: keep the latest few
    if (this.memo.size >= MEMO_SIZE) this.memo.clear();
    this.memo.set(key, forecast);
    return forecast;
  }

  /**
   * The forecast of the day's high before the desk's own correction. Before the peak it is the bias-corrected ensemble
   * moved by the learned pacing (how far the readings run from the expected curve, and what that has meant for the
   * day's high lately at this hour); from the peak on the expected curve only falls, so what is still to come is the
   * curve from now on, paced, and the running METAR high soon decides the day.
   */
  private forecastHigh(city: CityAsset, ms: number): Omit<PrimaryForecast, 'sigmaC'> {
    const { date, hour, ensembleC, correctedC, expectedAt, gapC } = this.readingsAt(city, ms);
    const peak = city.climate.peak_hour;
    let pacingC = gapC;
    let stillToComeC = expectedAt(hour) + gapC;
    if (hour < peak) {
      const fit = this.pacing.fitAt(date, halfHourOf(hour));
      pacingC = fit.interceptC + fit.slope * gapC;
      stillToComeC = correctedC + pacingC;
    }
    pacingC = round(pacingC, 2);
    const runningMaxC = this.weather.runningMaxC(city, date, ms);
    const muC = Math.max(stillToComeC, runningMaxC ?? Number.NEGATIVE_INFINITY);
    const spreadC = this.models.spreadC(city, date, ms);
    return { date, muC: round(muC, 2), pacingC, ensembleC, correctedC, spreadC, runningMaxC, expectedAt };
  }

  /**
   * What the desk has in hand at an instant: the ensemble, less its 30-day bias; the curve that forecast expects
   * (from the expected low at 06:00 up to the forecast at the peak, and before 06:00 down from yesterday's METAR high);
   * and the gap of the last four half-hourly readings (two hours, newest first, weighted by `PACING_WEIGHTS`) from it.
   * One reading alone is noise the desk would pass on.
   */
  private readingsAt(city: CityAsset, ms: number) {
    const date = localDate(ms, city.tz);
    const hour = localHour(ms, city.tz);
    const peak = city.climate.peak_hour;
    const ensembleC = this.models.ensembleC(city, date, ms);
    const correctedC = ensembleC - this.models.ensembleBiasC(city, date);
    const lowC = correctedC - city.climate.diurnal_range_c * EXPECTED_LOW_SHARE;
    const yesterdayC = this.weather.metarMaxC(city, dayBefore(date));
    const expectedAt = (h: number) =>
      h >= 6
        ? Weather.diurnalC(lowC, correctedC, lowC, peak, h)
        : Weather.diurnalC(lowC, yesterdayC, lowC, peak, h + 24);
    const slotHour = Math.floor(hour * 2) / 2;
    let gap = 0;
    let total = 0;
    PACING_WEIGHTS.forEach((weight, i) => {
      gap += weight * (this.weather.metarC(city, ms - i * HALF_HOUR) - expectedAt(slotHour - i / 2));
      total += weight;
    });
    return { date, hour, ensembleC, correctedC, expectedAt, gapC: gap / total };
  }

  /**
   * The local date the published layers forecast at an instant: the city's own date until its day is past its peak
   * (DESIGN 4's phase `passed`, from the fusion lock's peak hour + 2 h), then the next one. By then the day is all but
   * decided and the venues list tomorrow (from 10:00 local), so a trader's desk turns to the day it can still price.
   * The desk's own work of today (`primary`: the locks, the engines, the venues' prices of today) is unchanged.
   */
  publishedDate(city: CityAsset, ms: number): string {
    const today = localDate(ms, city.tz);
    const phase = dayPhase(ms, city.tz, { peakHour: city.climate.peak_hour, resolved: false });
    return phase === 'passed' ? dayAfter(today) : today;
  }

  /**
   * The forecast the desk publishes at an instant: today's (`primary`), or once today has passed its peak,
   * tomorrow's as the traders see the day ahead (day-ahead.ts, the same view the venues price tomorrow from, without
   * a venue's lean): the models' newest run less the ensemble's settled bias, with the doubt of that lead's record.
   * No reading of tomorrow exists yet, so no pacing and no observed high.
   */
  private published(city: CityAsset, ms: number): PrimaryForecast {
    const date = this.publishedDate(city, ms);
    if (date === localDate(ms, city.tz)) return this.primary(city, ms);
    const { muC, sigmaC } = this.dayAhead.at(city, date, ms);
    const ensembleC = this.models.ensembleC(city, date, ms);
    const correctedC = this.dayAhead.centreC(city, date, ms);
    const lowC = correctedC - city.climate.diurnal_range_c * EXPECTED_LOW_SHARE;
    // before 06:00 the curve falls from today's high, as far as the readings have it
    const todayC = this.weather.runningMaxC(city, localDate(ms, city.tz), ms) ?? correctedC;
    const peak = city.climate.peak_hour;
    return {
      date,
      muC,
      sigmaC,
      pacingC: 0,
      ensembleC,
      correctedC,
      spreadC: this.models.spreadC(city, date, ms),
      runningMaxC: null,
      expectedAt: (h) =>
        h >= 6 ? Weather.diurnalC(lowC, correctedC, lowC, peak, h) : Weather.diurnalC(lowC, todayC, lowC, peak, h + 24),
    };
  }

  svcPro(city: CityAsset, ms: number): SvcProForecast {
    const p = this.published(city, ms);
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
      // the expected curve, paced: only what is published needs it
      hourly: Array.from({ length: 24 }, (_, h) => ({
        h: `${String(h).padStart(2, '0')}:00`,
        t: round(p.expectedAt(h) + p.pacingC, 1),
      })),
      hourly_unit: 'C',
      reasoning: this.reasoning(city, p, hottest.model, hottest.tmaxC),
      fetched_at: isoUtc(ms),
    };
  }

  edgeEnsemble(city: CityAsset, ms: number): EdgeEnsembleDaily {
    const date = this.publishedDate(city, ms);
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
    const date = this.publishedDate(city, ms);
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

  /**
   * The narrative under the forecast, in the market's unit (a °C market's reader never meets a °F): the pacing and the
   * METAR high are read in whole °C, so a °F market shows them in both.
   */
  private reasoning(city: CityAsset, p: PrimaryForecast, hottest: string, hottestC: number): string {
    const unit = city.market_unit;
    const t = (c: number) => `${round(toMarketUnit(c, unit), 1)}°${unit}`;
    const both = (c: number) => (unit === 'C' ? `${c}°C` : `${c}°C (${t(c)})`);
    const parts = [
      `Skill-weighted ensemble of ${MODELS.length} models puts the ${p.date} high at ${t(p.ensembleC)} at ${city.icao}; the 30-day bias correction brings it to ${t(p.correctedC)}.`,
    ];
    if (p.pacingC !== 0) {
      parts.push(
        `METAR is running ${p.pacingC > 0 ? 'ahead of' : 'behind'} the expected curve, so pacing moves the forecast by ${p.pacingC > 0 ? '+' : ''}${p.pacingC}°C.`,
      );
    }
    if (p.runningMaxC !== null) parts.push(`Observed high so far: ${both(p.runningMaxC)}.`);
    parts.push(
      `Hottest member: ${hottest} at ${t(hottestC)}. Uncertainty ±${round(deltaToMarketUnit(p.sigmaC, unit), 1)}°${unit} (1 sigma).`,
    );
    return parts.join(' ');
  }
}
