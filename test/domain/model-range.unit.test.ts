import { describe, expect, it } from 'vitest';
import { highOf, modelRangeOf } from '../../src/domain/model-range.js';

const DAY = { city_id: 'nyc', local_date: '2026-11-26', station_code: 'KLGA' };
const product = (model: string, c: number | null, f: number | null) => ({
  model,
  predicted_max_c: c,
  predicted_max_f: f,
});

describe("the models' range of a day from each one's forecast", () => {
  it('the lowest, highest and mean of the models in both units, the spread in °F; the blends left out', () => {
    // gfs 11 °C = 51.8 °F, icon 9 °C = 48.2 °F, ecmwf_ifs 10 °C = 50 °F; the blends would widen it if counted
    const range = modelRangeOf(
      [
        product('gfs', 11, 51.8),
        product('svc_pro', 20, 68),
        product('icon', 9, 48.2),
        product('edge_ensemble', 0, 32),
        product('ecmwf_ifs', 10, 50),
        product('model_mean', 30, 86),
      ],
      DAY,
    );
    expect(range).toMatchObject({
      ...DAY,
      unit: 'F',
      tmax_min_f: 48.2,
      tmax_min_c: 9,
      tmax_max: 51.8,
      tmax_max_f: 51.8,
      tmax_max_c: 11,
      tmax_mean_c: 10,
      n_models: 3,
      models: [
        { model: 'gfs', tmax: 51.8 },
        { model: 'icon', tmax: 48.2 },
        { model: 'ecmwf_ifs', tmax: 50 },
      ],
    });
    // (51.8 + 48.2 + 50) / 3 = 50; 51.8 - 48.2 = 3.6
    expect(range?.tmax_mean_f).toBeCloseTo(50, 9);
    expect(range?.spread_f).toBeCloseTo(3.6, 9);
    expect(range?.spread).toBe(range?.spread_f);
  });

  it('a model given in one unit is converted to the other; a model in neither, or no model, is no range', () => {
    // 50 °F = 10 °C; 12 °C = 53.6 °F
    expect(highOf(product('gfs', null, 50))).toEqual({ c: 10, f: 50 });
    expect(highOf(product('gfs', 12, null))?.f).toBeCloseTo(53.6, 9);
    expect(highOf(product('gfs', null, null))).toBeNull();
    expect(modelRangeOf([product('gfs', null, null), product('svc_pro', 10, 50)], DAY)).toBeNull();
    expect(modelRangeOf([], DAY)).toBeNull();
  });
});
