import Type, { type Static } from 'typebox';
import { City } from './cities.js';
import { MarketUnit } from './common.js';

/** `assets/cities.json`: the API's City plus what the simulator needs to make that city's weather and markets. */
export const CityAsset = Type.Intersect([
  City,
  Type.Object({
    market_unit: MarketUnit,
    climate: Type.Object({
      tmax_mean_c: Type.Number(),
      tmax_amplitude_c: Type.Number({ minimum: 0 }),
      diurnal_range_c: Type.Number({ exclusiveMinimum: 0 }),
      peak_hour: Type.Integer({ minimum: 10, maximum: 18 }),
    }),
  }),
]);
export type CityAsset = Static<typeof CityAsset>;

export const CitiesAsset = Type.Object({ cities: Type.Array(CityAsset, { minItems: 1 }) });
