import type { CityAsset } from '../../contract/assets.js';
import { instantAtLocal } from '../../domain/city-time.js';
import { DayMemo, memoKey, stationNumber } from './day-memo.js';
import { gaussian } from './noise.js';
import { daysBefore, SKILL_WINDOW_DAYS } from './skill-window.js';
import type { Weather } from './weather.js';

/** The numerical weather models the ensemble blends, each with its own warm/cold bias and noise (degrees C). */
export const MODELS = [
  { model: 'ecmwf_ifs', bias: 0.1, sd: 0.6 },
  { model: 'gfs', bias: 0.5, sd: 0.9 },
  { model: 'icon', bias: -0.2, sd: 0.7 },
  { model: 'gem', bias: -0.6, sd: 1.0 },
  { model: 'jma', bias: 0.3, sd: 1.05 },
  { model: 'ukmo', bias: -0.1, sd: 0.7 },
  { model: 'meteofrance', bias: 0.2, sd: 0.85 },
] as const;
export type ModelId = (typeof MODELS)[number]['model'];

/** Forecast products that compete in the 30-day exact-hit ranking (DESIGN.md section 4). */
export const PRODUCTS = ['svc_pro', 'edge_ensemble', 'model_mean', ...MODELS.map((m) => m.model)] as const;
export type Product = (typeof PRODUCTS)[number];

const SIX_HOURS = 6 * 3_600_000;
/** The error every model shares, degrees C at two days' lead (1 sigma). */
const SHARED_SD = 1.3;
/**
 * The error every model shares shrinks with the lead of the run: to `floor` of its two-day size at the peak itself.
 * Each model's own error (its physics at the station) does not: same-day models still disagree, as real ones do.
 * With the own errors shrunk too, seven models near the peak agreed within a few tenths of a degree while the day's
 * surprise (weather.ts, about 1.2 °C) is unseen by all of them, and the METAR high proved the day warmer than every
 * model on 20-22% of settled city-days (DESIGN 4's BREAKTHROUGH, at most 15%: test/server/world-breakthrough.test.ts).
 */
const LEAD_SCALE = { floor: 0.3, hours: 48 } as const;
/** The spread of each model's persistent bias from one station to another (degrees C, 1 sigma). */
const STATION_BIAS_SD = 0.7;

export interface ModelWeight {
  model: ModelId;
  weight: number;
  mae: number;
  /** The model's mean error over the same 30 days: its bias at this station. */
  biasC: number;
}

/** A model's place in MODELS, by its name: a part of a memo's key. */
const MODEL_NUMBERS = new Map<string, number>(MODELS.map((m, i) => [m.model, i]));
function modelNumber(model: (typeof MODELS)[number]): number {
  const n = MODEL_NUMBERS.get(model.model);
  if (n === undefined) throw new Error(`unknown model ${model.model}`);
  return n;
}

/** A floor under the models' spread (degrees C): seven models can agree by chance, the weather never quite does. */
const MIN_SPREAD_C = 0.1;

/** What each model, the weighted ensemble and the bias-corrected primary forecast say about a day's high. */
export class Models {
  // one memo a quantity, by date and the other parts of what it is of (day-memo.ts)
  private readonly runs = new DayMemo<number>();
  private readonly peaks = new DayMemo<number>();
  private readonly sharedErrors = new DayMemo<number>();
  private readonly dayAhead = new DayMemo<number>();
  private readonly weightMemo = new DayMemo<ModelWeight[]>();
  private readonly ensembles = new DayMemo<number>();
  private readonly spreads = new DayMemo<number>();
  private readonly biases = new DayMemo<number>();
  private readonly products = new DayMemo<number>();

  /** Forgets the days before `date` (world.ts: once its windows no longer reach them). */
  forgetBefore(date: string): void {
    for (const memo of [
      this.runs,
      this.peaks,
      this.sharedErrors,
      this.dayAhead,
      this.weightMemo,
      this.ensembles,
      this.spreads,
      this.biases,
      this.products,
    ])
      memo.forgetBefore(date);
  }

  constructor(
    private readonly seed: number,
    private readonly weather: Weather,
  ) {}

  /**
   * A model's Tmax for a local date from the run available at `issuedMs` (runs every 6 h UTC). Its error is its own
   * bias, a part every model shares (the same physics, the same observations to start from), which shrinks as the run
   * nears the day's peak, and a part of its own, which does not. None of them is the day's surprise, which no model
   * sees.
   */
  modelTmaxC(model: (typeof MODELS)[number], city: CityAsset, date: string, issuedMs: number): number {
    const run = Math.floor(issuedMs / SIX_HOURS) * SIX_HOURS;
    return this.runs.remember(date, memoKey(run / SIX_HOURS, modelNumber(model), stationNumber(city.city_id)), () =>
      this.runTmaxC(model, city, date, run),
    );
  }

  private runTmaxC(model: (typeof MODELS)[number], city: CityAsset, date: string, run: number): number {
    const peak = this.peaks.remember(date, stationNumber(city.city_id), () =>
      instantAtLocal(date, city.climate.peak_hour, 0, city.tz),
    );
    const leadHours = Math.max(0, (peak - run) / 3_600_000);
    const scale =
      LEAD_SCALE.floor + ((1 - LEAD_SCALE.floor) * Math.min(leadHours, LEAD_SCALE.hours)) / LEAD_SCALE.hours;
    const cityBias = STATION_BIAS_SD * gaussian(this.seed, 'bias', model.model, city.city_id);
    const shared = this.sharedErrors.remember(
      date,
      memoKey(run / SIX_HOURS, stationNumber(city.city_id)),
      () =>
        SHARED_SD *
        (0.8 * gaussian(this.seed, 'shared', city.city_id, date) +
          0.6 * gaussian(this.seed, 'shared-run', city.city_id, date, run)),
    );
    const own =
      model.sd *
      (0.8 * gaussian(this.seed, 'err', model.model, city.city_id, date) +
        0.6 * gaussian(this.seed, 'run', model.model, city.city_id, date, run));
    const volatility = this.weather.volatility(city, date);
    return this.weather.modelledHighC(city, date) + model.bias + cityBias + volatility * (scale * shared + own);
  }

  /** Each model's Tmax from the run available one minute after local midnight: the forecast strategies pick with. */
  dayAheadC(model: (typeof MODELS)[number], city: CityAsset, date: string): number {
    return this.dayAhead.remember(date, memoKey(modelNumber(model), stationNumber(city.city_id)), () =>
      this.modelTmaxC(model, city, date, instantAtLocal(date, 0, 1, city.tz)),
    );
  }

  /** Ensemble weights from each model's rolling 30-day mean absolute error against the METAR high. */
  weights(city: CityAsset, date: string): ModelWeight[] {
    return this.weightMemo.remember(date, stationNumber(city.city_id), () => this.weightsFrom(city, date));
  }

  private weightsFrom(city: CityAsset, date: string): ModelWeight[] {
    const maes = MODELS.map((m) => {
      let sum = 0;
      let absolute = 0;
      for (const day of daysBefore(date)) {
        const error = this.dayAheadC(m, city, day) - this.weather.metarMaxC(city, day);
        sum += error;
        absolute += Math.abs(error);
      }
      return { model: m.model, mae: Math.max(0.05, absolute / SKILL_WINDOW_DAYS), biasC: sum / SKILL_WINDOW_DAYS };
    });
    const total = maes.reduce((acc, m) => acc + 1 / m.mae, 0);
    return maes.map((m) => ({ ...m, weight: 1 / m.mae / total }));
  }

  /** The skill-weighted mean of the models' Tmax in the run available at `issuedMs`. */
  ensembleC(city: CityAsset, date: string, issuedMs: number): number {
    const run = Math.floor(issuedMs / SIX_HOURS) * SIX_HOURS;
    return this.ensembles.remember(date, memoKey(run / SIX_HOURS, stationNumber(city.city_id)), () => {
      const weights = this.weights(city, date);
      return MODELS.reduce((acc, m, i) => acc + (weights[i]?.weight ?? 0) * this.modelTmaxC(m, city, date, run), 0);
    });
  }

  /**
   * How far the models, each less its own bias, disagree in the run available at `issuedMs` (their standard
   * deviation, degrees C): what tells the desk an unsettled day from a quiet one before any reading does.
   */
  spreadC(city: CityAsset, date: string, issuedMs: number): number {
    const run = Math.floor(issuedMs / SIX_HOURS) * SIX_HOURS;
    return this.spreads.remember(date, memoKey(run / SIX_HOURS, stationNumber(city.city_id)), () => {
      const weights = this.weights(city, date);
      const values = MODELS.map((m, i) => this.modelTmaxC(m, city, date, run) - (weights[i]?.biasC ?? 0));
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const variance = values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (values.length - 1);
      return Math.max(MIN_SPREAD_C, Math.sqrt(variance));
    });
  }

  /** Mean error of the day-ahead ensemble over the last 30 days; the primary forecast subtracts it. */
  ensembleBiasC(city: CityAsset, date: string): number {
    return this.biases.remember(date, stationNumber(city.city_id), () => {
      let sum = 0;
      for (const day of daysBefore(date)) {
        sum += this.productDayAheadC('edge_ensemble', city, day) - this.weather.metarMaxC(city, day);
      }
      return sum / SKILL_WINDOW_DAYS;
    });
  }

  /** A product's forecast for a day as it stood one minute after local midnight. */
  productDayAheadC(product: Product, city: CityAsset, date: string): number {
    return this.products.remember(date, memoKey(PRODUCTS.indexOf(product), stationNumber(city.city_id)), () => {
      const issued = instantAtLocal(date, 0, 1, city.tz);
      switch (product) {
        case 'edge_ensemble':
          return this.ensembleC(city, date, issued);
        case 'svc_pro':
          return this.ensembleC(city, date, issued) - this.ensembleBiasC(city, date);
        case 'model_mean':
          return MODELS.reduce((acc, m) => acc + this.dayAheadC(m, city, date), 0) / MODELS.length;
        default: {
          const model = MODELS.find((m) => m.model === product);
          if (!model) throw new Error(`unknown product ${product}`);
          return this.dayAheadC(model, city, date);
        }
      }
    });
  }
}
