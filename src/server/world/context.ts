import type { CityAsset } from '../../contract/assets.js';
import type { WorldStore } from '../store/world-store.js';
import type { DayAheadView } from './day-ahead.js';
import type { ForecastDesk } from './forecast.js';
import type { Markets } from './market.js';
import type { Models } from './models.js';
import type { Weather } from './weather.js';

/** What every job of the world reads (the pure model) and writes (the store). */
export interface WorldContext {
  seed: number;
  cities: readonly CityAsset[];
  weather: Weather;
  models: Models;
  markets: Markets;
  desk: ForecastDesk;
  dayAhead: DayAheadView;
  store: WorldStore;
}
