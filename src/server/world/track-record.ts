import type { CityAsset } from '../../contract/assets.js';
import { addDays, instantAtLocal } from '../../domain/city-time.js';
import { SKILL_WINDOW_DAYS } from './models.js';
import type { Weather } from './weather.js';

/** How the desk's forecasts made at one local hour stood against what METAR then reported, over the last 30 days. */
export interface DeskRecord {
  /**
   * Mean and standard deviation of (forecast of the day's high - what the high then was: the METAR high already
   * reported or the highest sample still to come before rounding, whichever is higher): the desk's bias at that hour,
   * which it takes out, and its real 1 sigma, which it publishes. Measured before rounding because the bucket formula
   * does the rounding: an error against the settled whole degree would count it twice.
   */
  highBiasC: number;
  highSdC: number;
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
    let highSum = 0;
    let highSquares = 0;
    let toComeSum = 0;
    let toComeSquares = 0;
    let toComeDays = 0;
    for (let i = 1; i <= SKILL_WINDOW_DAYS; i++) {
      const day = this.errorsOf(city, addDays(date, -i), h);
      highSum += day.high;
      highSquares += day.high ** 2;
      if (day.toCome === null) continue;
      toComeSum += day.toCome;
      toComeSquares += day.toCome ** 2;
      toComeDays++;
    }
    const highBiasC = highSum / SKILL_WINDOW_DAYS;
    const toComeBiasC = toComeDays === 0 ? 0 : toComeSum / toComeDays;
    const record = {
      highBiasC,
      highSdC: standardDeviation(highSquares, SKILL_WINDOW_DAYS, highBiasC),
      toComeBiasC,
      toComeSdC: toComeDays === 0 ? 0 : standardDeviation(toComeSquares, toComeDays, toComeBiasC),
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
      // what the day's high was from that hour: the METAR high already reported (a whole degree) or the highest sample
      // still to come before rounding, whichever is higher; once the day is decided there is nothing left to miss
      const reported = this.weather.runningMaxC(city, date, ms) ?? Number.NEGATIVE_INFINITY;
      errors = {
        high: forecast.muC - Math.max(reported, toCome ?? Number.NEGATIVE_INFINITY),
        toCome: toCome === null ? null : forecast.stillToComeC - toCome,
      };
      this.errors.set(key, errors);
    }
    return errors;
  }
}

const standardDeviation = (squares: number, n: number, mean: number): number =>
  Math.sqrt(Math.max(0, squares / n - mean ** 2));
