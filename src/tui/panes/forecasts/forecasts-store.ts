import { instantAsk, type PaneStoreSpec } from '../../state/pane-store.js';
import { pageOf } from './forecast-page.js';
import { CITIES_KEPT, FORECAST_TOPICS, type ForecastData, type ForecastParams, forecastData } from './forecast-read.js';

/**
 * The Forecasts store (state/pane-store.ts): one city under its rule, as of the minute (now), or, while replaying, as
 * of time travel's instant with its day pinned; the last few cities kept (`c` back and forth). Warmed, it lays out
 * the chosen city's page in its market's unit at the pane's size, as the key that first shows the pane would.
 */
export const FORECASTS_STORE: PaneStoreSpec<ForecastParams, ForecastData | null> = {
  topics: FORECAST_TOPICS,
  ask({ city, settlement, minute, nowMs, instant }) {
    const { key, stamp } = instantAsk(instant, minute);
    return {
      key: JSON.stringify([city?.city_id ?? null, settlement, key]),
      stamp,
      params: { city, nowMs: instant.atMs ?? nowMs, settlement, date: instant.date },
    };
  },
  newRead: () => forecastData,
  keep: CITIES_KEPT,
  layOutAhead: (store, data, { width, height }) => pageOf(store, data, false, width, height),
};
