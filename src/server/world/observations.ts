import type { CityAsset } from '../../contract/assets.js';
import { isoUtc, localDate } from '../../domain/city-time.js';
import { cToF, round } from '../../domain/units.js';
import type { WorldContext } from './context.js';
import { gaussian } from './noise.js';

const metarTemp = (c: number) => (c < 0 ? `M${String(-c).padStart(2, '0')}` : String(c).padStart(2, '0'));

/** One half-hourly round of the four live sources: METAR, two weather providers and a personal station. */
export function observe(ctx: WorldContext, city: CityAsset, ms: number): void {
  const { weather, store, seed } = ctx;
  const date = localDate(ms, city.tz);
  const at = isoUtc(ms);
  const truth = weather.temperatureC(city, ms);
  const slot = Math.floor(ms / 1_800_000);
  const base = { city_id: city.city_id, local_date: date, observed_at: at, fetched_at: at };

  const metarC = weather.metarC(city, ms);
  const dewC = Math.round(metarC - 4 - 3 * Math.abs(gaussian(seed, 'dew', city.city_id, slot)));
  const stamp = at.slice(8, 10) + at.slice(11, 13) + at.slice(14, 16);
  const metar = {
    ...base,
    station_code: city.icao,
    temp_c: metarC,
    temp_f: round(cToF(metarC), 1),
    raw: `METAR ${city.icao} ${stamp}Z AUTO 00000KT 9999 ${metarTemp(metarC)}/${metarTemp(dewC)} Q1013`,
  };
  const provider = (name: string, sd: number) => {
    const c = round(truth + sd * gaussian(seed, name, city.city_id, slot), 1);
    const humidity = Math.round(
      Math.min(100, Math.max(10, 65 + 15 * gaussian(seed, `${name}-rh`, city.city_id, slot))),
    );
    return { ...base, temp_c: c, temp_f: round(cToF(c), 1), humidity };
  };
  const wxa = provider('wxa', 0.4);
  const wxb = provider('wxb', 0.6);
  // personal stations sit on roofs and in sun: a warm bias
  const pwsC = round(truth + 0.8 + 0.7 * gaussian(seed, 'pws', city.city_id, slot), 1);
  const pws = {
    ...base,
    station_code: `PWS-${city.city_id.toUpperCase()}-01`,
    temp_c: pwsC,
    temp_f: round(cToF(pwsC), 1),
  };

  store.insertHistorical('metar_observations_history', at, metar);
  store.insertHistorical('wxa_history', at, wxa);
  store.insertHistorical('wxb_history', at, wxb);
  store.insertHistorical('pws_observations_history', at, pws);
  const current = ({ city_id: _c, local_date: _d, ...rest }: { city_id: string; local_date: string }) => rest;
  store.setCurrent(city.city_id, 'metar_observations', current(metar));
  store.setCurrent(city.city_id, 'wxa_current', current(wxa));
  store.setCurrent(city.city_id, 'wxb_current', current(wxb));
  store.setCurrent(city.city_id, 'pws_observations', current(pws));
}

/** The hourly forecast run: the three published layers, and a forecast_history row. */
export function publishForecasts(ctx: WorldContext, city: CityAsset, ms: number): void {
  const { desk, store } = ctx;
  const svcPro = desk.svcPro(city, ms);
  store.setForecast(city.city_id, 'svc_pro_forecast', svcPro);
  store.setForecast(city.city_id, 'edge_ensemble_daily', desk.edgeEnsemble(city, ms));
  store.setForecast(city.city_id, 'model_tmax_range', desk.modelRange(city, ms));
  store.insertHistorical('forecast_history', svcPro.fetched_at, {
    city_id: city.city_id,
    local_date: svcPro.local_date,
    fetched_at: svcPro.fetched_at,
    predicted_max_f: svcPro.predicted_max_f,
    predicted_max_c: svcPro.predicted_max_c,
    sigma_f: svcPro.sigma_f,
    sigma_c: svcPro.sigma_c,
    pacing_delta: svcPro.pacing_delta,
    hottest_model: svcPro.hottest_model,
  });
}
