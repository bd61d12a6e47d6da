import { readFileSync } from 'node:fs';
import { Compile } from 'typebox/compile';
import { CitiesAsset, type CityAsset } from '../../contract/assets.js';
import type { City } from '../../contract/cities.js';
import { isValidZone } from '../../domain/city-time.js';
import type { Market } from '../../domain/settlement.js';
import { packageFile } from '../../package-root.js';

const ASSET = packageFile('assets/cities.json');

/** Loads and checks the city list; a broken asset is a clear startup error, not a half-working world. */
export function loadCities(path = ASSET): CityAsset[] {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const validator = Compile(CitiesAsset);
  if (!validator.Check(parsed)) {
    const [first] = validator.Errors(parsed);
    throw new Error(`${path}: ${first?.instancePath || '/'} ${first?.message ?? 'is not a city list'}`);
  }
  const ids = new Set<string>();
  for (const city of parsed.cities) {
    if (ids.has(city.city_id)) throw new Error(`${path}: city_id ${city.city_id} appears twice`);
    if (!isValidZone(city.tz)) throw new Error(`${path}: ${city.city_id} has an unknown time zone ${city.tz}`);
    ids.add(city.city_id);
  }
  return parsed.cities;
}

export function publicCity(city: CityAsset): City {
  const { city_id, city_name, country, lat, lon, tz, icao, station_name } = city;
  return { city_id, city_name, country, lat, lon, tz, icao, station_name };
}

/** A city's market as the world settles it: in its unit, on the whole-°C METAR high (DESIGN 3 `settlement`: the world keeps `metar_c`). */
export const worldMarket = (city: CityAsset): Market => ({ unit: city.market_unit, rule: 'metar_c' });
