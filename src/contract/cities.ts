import Type, { type Static } from 'typebox';

export const City = Type.Object({
  city_id: Type.String({ minLength: 1 }),
  city_name: Type.String(),
  country: Type.String({ pattern: '^[A-Z]{2}$' }),
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
  tz: Type.String({ minLength: 1 }),
  icao: Type.String({ pattern: '^[A-Z0-9]{4}$' }),
  station_name: Type.String(),
});
export type City = Static<typeof City>;

export const CitiesResponse = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  data: Type.Array(City),
});
export type CitiesResponse = Static<typeof CitiesResponse>;
