import type { CityAsset } from '../../contract/assets.js';
import { addDays, instantAtLocal } from '../../domain/city-time.js';
import { gaussian } from './noise.js';
import type { Weather } from './weather.js';

/** The numerical weather models the ensemble blends, each with its own warm/cold bias and noise (degrees C). */
export const MODELS = [
  { model: 'ecmwf_ifs', bias: 0.1, sd: 0.9 },
  { model: 'gfs', bias: 0.5, sd: 1.3 },
  { model: 'icon', bias: -0.2, sd: 1.0 },
  { model: 'gem', bias: -0.6, sd: 1.4 },
  { model: 'jma', bias: 0.3, sd: 1.5 },
  { model: 'ukmo', bias: -0.1, sd: 1.0 },
  { model: 'meteofrance', bias: 0.2, sd: 1.2 },
] as const;
export type ModelId = (typeof MODELS)[number]['model'];

/** Forecast products that compete in the 30-day exact-hit ranking (DESIGN.md section 4). */
export const PRODUCTS = ['svc_pro', 'edge_ensemble', 'model_mean', ...MODELS.map((m) => m.model)] as const;
export type Product = (typeof PRODUCTS)[number];

export const SKILL_WINDOW_DAYS = 30;
const SIX_HOURS = 6 * 3_600_000;

export interface ModelWeight {
  model: ModelId;
  weight: number;
  mae: number;
}

/** What each model, the weighted ensemble and the bias-corrected primary forecast say about a day's high. */
export class Models {
  private readonly memo = new Map<string, number>();
  private readonly weightMemo = new Map<string, ModelWeight[]>();

  constructor(
    private readonly seed: number,
    private readonly weather: Weather,
  ) {}

  /** A model's Tmax for a local date from the run available at `issuedMs` (runs every 6 h UTC). */
  modelTmaxC(model: (typeof MODELS)[number], city: CityAsset, date: string, issuedMs: number): number {
    const run = Math.floor(issuedMs / SIX_HOURS) * SIX_HOURS;
    const peak = this.remember(`peak|${city.city_id}|${date}`, () =>
      instantAtLocal(date, city.climate.peak_hour, 0, city.tz),
    );
    const leadHours = Math.max(0, (peak - run) / 3_600_000);
    const scale = 0.35 + (0.65 * Math.min(leadHours, 96)) / 96;
    const cityBias = 0.5 * gaussian(this.seed, 'bias', model.model, city.city_id);
    const error =
      model.sd *
      scale *
      (0.8 * gaussian(this.seed, 'err', model.model, city.city_id, date) +
        0.6 * gaussian(this.seed, 'run', model.model, city.city_id, date, run));
    return this.weather.tmaxC(city, date) + model.bias + cityBias + error;
  }

  /** Each model's Tmax from the run available one minute after local midnight: the forecast strategies pick with. */
  dayAheadC(model: (typeof MODELS)[number], city: CityAsset, date: string): number {
    return this.remember(`da|${model.model}|${city.city_id}|${date}`, () =>
      this.modelTmaxC(model, city, date, instantAtLocal(date, 0, 1, city.tz)),
    );
  }

  /** Ensemble weights from each model's rolling 30-day mean absolute error against the METAR high. */
  weights(city: CityAsset, date: string): ModelWeight[] {
    const key = `${city.city_id}|${date}`;
    const cached = this.weightMemo.get(key);
    if (cached) return cached;
    const maes = MODELS.map((m) => {
      let sum = 0;
      for (let i = 1; i <= SKILL_WINDOW_DAYS; i++) {
        const day = addDays(date, -i);
        sum += Math.abs(this.dayAheadC(m, city, day) - this.weather.metarMaxC(city, day));
      }
      return { model: m.model, mae: Math.max(0.05, sum / SKILL_WINDOW_DAYS) };
    });
    const total = maes.reduce((acc, m) => acc + 1 / m.mae, 0);
    const weights = maes.map((m) => ({ model: m.model, weight: 1 / m.mae / total, mae: m.mae }));
    this.weightMemo.set(key, weights);
    return weights;
  }

  ensembleC(city: CityAsset, date: string, issuedMs: number): number {
    const weights = this.weights(city, date);
    return MODELS.reduce((acc, m, i) => acc + (weights[i]?.weight ?? 0) * this.modelTmaxC(m, city, date, issuedMs), 0);
  }

  /** Mean error of the day-ahead ensemble over the last 30 days; the primary forecast subtracts it. */
  ensembleBiasC(city: CityAsset, date: string): number {
    return this.remember(`bias|${city.city_id}|${date}`, () => {
      let sum = 0;
      for (let i = 1; i <= SKILL_WINDOW_DAYS; i++) {
        const day = addDays(date, -i);
        sum += this.productDayAheadC('edge_ensemble', city, day) - this.weather.metarMaxC(city, day);
      }
      return sum / SKILL_WINDOW_DAYS;
    });
  }

  /** A product's forecast for a day as it stood one minute after local midnight. */
  productDayAheadC(product: Product, city: CityAsset, date: string): number {
    return this.remember(`p|${product}|${city.city_id}|${date}`, () => {
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

  private remember(key: string, compute: () => number): number {
    const cached = this.memo.get(key);
    if (cached !== undefined) return cached;
    const value = compute();
    this.memo.set(key, value);
    return value;
  }
}
