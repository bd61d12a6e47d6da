import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/** The spec guarantees only `temp_f` and `fetched_at`; the reference service also sends the fields below. */
export const CurrentSource = Type.Object({
  temp_f: Type.Number(),
  fetched_at: Timestamp,
  temp_c: Type.Optional(Type.Number()),
  observed_at: Type.Optional(Timestamp),
  station_code: Type.Optional(Type.String()),
  raw: Type.Optional(Type.String()),
  humidity: Type.Optional(Type.Number()),
});
export type CurrentSource = Static<typeof CurrentSource>;

export { CURRENT_SOURCES, type CurrentSourceName } from './names.js';

export const CurrentObservations = Type.Object({
  city_id: Type.String(),
  wxa_current: CurrentSource,
  wxb_current: CurrentSource,
  metar_observations: CurrentSource,
  pws_observations: CurrentSource,
});
export type CurrentObservations = Static<typeof CurrentObservations>;

export const CurrentResponse = Type.Object({ data: CurrentObservations });
export type CurrentResponse = Static<typeof CurrentResponse>;
