/** A city's name as the cached cities give it (`New York City` for `nyc`); its id when the city is not cached. */
export type CityName = (cityId: string) => string;

/**
 * City names from the cities resource (`cache.resources.cities()`), the id for a city not among them: what a person
 * reads (the panes, the notifications) names a city one way everywhere; exports keep the ids.
 */
export function cityNames(cities: readonly { city_id: string; city_name: string }[]): CityName {
  const names = new Map(cities.map((c) => [c.city_id, c.city_name]));
  return (cityId) => names.get(cityId) || cityId;
}
