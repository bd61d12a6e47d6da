import type { CityAsset } from '../../contract/assets.js';
import { addDays, instantAtLocal } from '../../domain/city-time.js';
import { SKILL_WINDOW_DAYS } from './models.js';
import type { Weather } from './weather.js';

/** How the desk's forecasts made at one local hour stood against what METAR then reported, over the last 30 days. */
export interface DeskRecord {
  /** Root mean square of (forecast of the day's high - settled METAR high), degrees C: the desk's real 1 sigma. */
  highRmseC: number;
  /**
   * Mean and standard deviation of (forecast of the highest reading still to come - the highest temperature METAR
   * then sampled, before rounding): what a price has left to learn at that hour.
   */
  toComeBiasC: number;
  toComeSdC: number;
}

/** What the record reads of a forecast: the day's high (never below the running high) and what is still to come. */
export interface ForecastAtHour {
  muC: number;
  stillToComeC: number;
}

interface DayErrors {
  high: number;
  toCome: number | null;
}

/**
 * The forecast desk's track record by local hour: over the 30 settled days before a date, how far its forecasts made
 * at that hour ended from what METAR reported. The desk publishes it as its sigma and the venues size their spread by
 * it, so both are as confident as the desk has lately deserved: sharp on a forecastable world, sharper once the
 * afternoon peak has been observed.
 */
export class TrackRecord {
  private readonly errors = new Map<string, DayErrors>();
  private readonly records = new Map<string, DeskRecord>();

  /** `forecastAt` is the desk's forecast at an instant without its sigma, so the record never asks for itself. */
  constructor(
    private readonly weather: Weather,
    private readonly forecastAt: (city: CityAsset, ms: number) => ForecastAtHour,
  ) {}

  at(city: CityAsset, date: string, hour: number): DeskRecord {
    const h = Math.min(23, Math.max(0, Math.floor(hour)));
    const key = `${city.city_id}|${date}|${h}`;
    const cached = this.records.get(key);
    if (cached) return cached;
    let highSquares = 0;
    let toComeSum = 0;
    let toComeSquares = 0;
    let toComeDays = 0;
    for (let i = 1; i <= SKILL_WINDOW_DAYS; i++) {
      const day = this.errorsOf(city, addDays(date, -i), h);
      highSquares += day.high ** 2;
      if (day.toCome === null) continue;
      toComeSum += day.toCome;
      toComeSquares += day.toCome ** 2;
      toComeDays++;
    }
    const toComeBiasC = toComeDays === 0 ? 0 : toComeSum / toComeDays;
    const record = {
      highRmseC: Math.sqrt(highSquares / SKILL_WINDOW_DAYS),
      toComeBiasC,
      toComeSdC: toComeDays === 0 ? 0 : Math.sqrt(Math.max(0, toComeSquares / toComeDays - toComeBiasC ** 2)),
    };
    this.records.set(key, record);
    return record;
  }

  private errorsOf(city: CityAsset, date: string, hour: number): DayErrors {
    const key = `${city.city_id}|${date}|${hour}`;
    let errors = this.errors.get(key);
    if (errors === undefined) {
      const ms = instantAtLocal(date, hour, 0, city.tz);
      const forecast = this.forecastAt(city, ms);
      const toCome = this.weather.sampledHighAfterC(city, date, ms);
      errors = {
        high: forecast.muC - this.weather.metarMaxC(city, date),
        toCome: toCome === null ? null : forecast.stillToComeC - toCome,
      };
      this.errors.set(key, errors);
    }
    return errors;
  }
}
