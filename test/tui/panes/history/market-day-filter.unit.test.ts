import { describe, expect, it } from 'vitest';
import type { City } from '../../../../src/contract/cities.js';
import { marketDayFilter } from '../../../../src/tui/panes/history/history-filter.js';

const city = (city_id: string, tz: string): City => ({
  city_id,
  city_name: city_id,
  country: '',
  lat: 0,
  lon: 0,
  tz,
  icao: '',
  station_name: '',
});
const CITIES = [city('paris', 'Europe/Paris'), city('nyc', 'America/New_York')];

describe("History's filter: a date with a city is that city's market day", () => {
  it('bounds the tables of instants by the local midnights', () => {
    // Paris is UTC+1 in November: 11-27 runs from 11-26 23:00Z to 11-27 23:00Z (the last whole second 22:59:59)
    expect(
      marketDayFilter({ cityId: 'paris', since: '2026-11-27', until: '2026-11-27' }, 'mkta_buckets_history', CITIES),
    ).toEqual({
      cityId: 'paris',
      since: '2026-11-26T23:00:00Z',
      until: '2026-11-27T22:59:59Z',
    });
    // New York is UTC-5: its 11-27 market runs into 11-28 UTC
    expect(marketDayFilter({ cityId: 'nyc', since: '2026-11-27' }, 'metar_observations_history', CITIES)).toEqual({
      cityId: 'nyc',
      since: '2026-11-27T05:00:00Z',
    });
  });

  it('leaves the daily tables, the records, an instant typed and a filter without a city as they are', () => {
    const day = { cityId: 'paris', since: '2026-11-27', until: '2026-11-27' };
    expect(marketDayFilter(day, 'model_forecasts_daily', CITIES)).toEqual(day);
    expect(marketDayFilter(day, 'fusion-locks', CITIES)).toEqual(day);
    const instant = { cityId: 'paris', since: '2026-11-27T06:00:00Z' };
    expect(marketDayFilter(instant, 'mkta_buckets_history', CITIES)).toEqual(instant);
    expect(marketDayFilter({ since: '2026-11-27' }, 'mkta_buckets_history', CITIES)).toEqual({ since: '2026-11-27' });
  });
});
