import type { CityAsset } from '../../contract/assets.js';
import { instantAtLocal } from '../../domain/city-time.js';
import { DayMemo } from './day-memo.js';
import { HalfHourPairs } from './half-hour-pairs.js';
import { daysBefore, SKILL_WINDOW_DAYS } from './skill-window.js';
import type { Weather } from './weather.js';

/**
 * How a desk's errors at one half hour of the day spread, as a function of the models' spread in the run it had:
 * variance = `floorC2 + perSpread * spread^2`. The part of the error the models' disagreement foretells (an unsettled
 * day) and the part it does not (the turbulence of a half-hourly reading, the afternoon of a quiet day) are told apart
 * by a least-squares line through the last 30 days' squared errors.
 */
export interface ErrorSpread {
  floorC2: number;
  perSpread: number;
}

/** The standard deviation an error spread gives for a day with the models `spreadC` apart. */
export const sigmaFor = (fit: ErrorSpread, spreadC: number): number =>
  Math.sqrt(Math.max(0, fit.floorC2 + fit.perSpread * spreadC ** 2));

/** How the desk's forecasts made at one half hour of the day stood against what METAR then reported, over 30 days. */
export interface DeskRecord {
  /**
   * Mean and spread of (forecast of the day's high - what the high then was: the METAR high already reported or the
   * highest sample still to come before rounding, whichever is higher): the desk's bias at that half hour, which it
   * takes out, and its real 1 sigma for a day's spread of models, which it publishes. Measured before rounding because
   * the bucket formula does the rounding: an error against the settled whole degree would count it twice.
   */
  highBiasC: number;
  high: ErrorSpread;
}

/** A floor under any sigma the desk publishes: even a day decided by the observed high keeps a little doubt. */
export const MIN_SIGMA_C = 0.15;

/** What the record reads of a forecast: the day's high (never below the running high) and the models' spread. */
export interface ForecastAtHour {
  muC: number;
  spreadC: number;
}

interface DayErrors {
  high: number;
  spreadC: number;
}

/**
 * The forecast desk's track record by half hour of the local day: over the 30 settled days before a date, how far its
 * forecasts made at that half hour ended from what METAR reported, and how that error grew with the models' spread.
 * The desk publishes it as its sigma and the venues price on that, so both are as confident as the desk has lately
 * deserved: sharp on a quiet day, wide on an unsettled one, sharper once the afternoon peak has been observed.
 */
export class TrackRecord {
  private readonly errors: HalfHourPairs<DayErrors>;
  /** By date and half hour. */
  private readonly records = new DayMemo<DeskRecord>();
  private readonly widths = new DayMemo<number>();

  /**
   * `forecastAt` is the desk's forecast at an instant without its sigma, so the record never asks for itself. The
   * record pools its stations: one desk, one method, and 13 stations' days keep a 30-day figure steady where one
   * station's 30 days would pass their noise on.
   */
  constructor(
    private readonly weather: Weather,
    private readonly cities: readonly CityAsset[],
    private readonly forecastAt: (city: CityAsset, ms: number) => ForecastAtHour,
  ) {
    this.errors = new HalfHourPairs(
      cities,
      (e) => [e.high, e.spreadC],
      (high, spreadC) => ({ high, spreadC }),
    );
  }

  /** Forgets the days before `date` (world.ts: once its windows no longer reach them). */
  forgetBefore(date: string): void {
    this.errors.forgetBefore(date);
    this.records.forgetBefore(date);
    this.widths.forgetBefore(date);
  }

  /** The record of the desk's forecasts made at the half hour of the local day that holds `hour`, on every station. */
  at(date: string, hour: number): DeskRecord {
    const slot = halfHourOf(hour);
    return this.records.remember(date, slot, () => {
      const days = this.cities.flatMap((city) => daysBefore(date).map((day) => this.errorsOf(city, day, slot)));
      const highBiasC = mean(days.map((d) => d.high));
      return {
        highBiasC,
        high: errorSpread(days.map((d) => ({ squared: (d.high - highBiasC) ** 2, spread2: d.spreadC ** 2 }))),
      };
    });
  }

  /** The sigma the desk published at that half hour of a day: its record's spread of errors, for that day's models. */
  sigmaOn(date: string, hour: number, spreadC: number): number {
    return Math.max(MIN_SIGMA_C, sigmaFor(this.at(date, hour).high, spreadC));
  }

  /**
   * How wide the desk's real errors ran against the sigma it published at this half hour, over the 30 days before
   * `date`: the root mean square of (error less bias) / sigma. About 1 when the desk's doubt was right on average;
   * above 1 when surprises ran larger than the models' spread foretold. The desk publishes its sigma times this, so
   * what it publishes is matched to its real error.
   */
  widthOfErrors(date: string, hour: number): number {
    const slot = halfHourOf(hour);
    return this.widths.remember(date, slot, () => {
      let squares = 0;
      for (const day of daysBefore(date)) {
        const record = this.at(day, slot / 2);
        for (const city of this.cities) {
          const errors = this.errorsOf(city, day, slot);
          squares += ((errors.high - record.highBiasC) / this.sigmaOn(day, slot / 2, errors.spreadC)) ** 2;
        }
      }
      return Math.sqrt(squares / (SKILL_WINDOW_DAYS * this.cities.length));
    });
  }

  private errorsOf(city: CityAsset, date: string, slot: number): DayErrors {
    return this.errors.remember(city, date, slot, () => {
      const ms = halfHourInstant(date, slot, city.tz);
      const forecast = this.forecastAt(city, ms);
      const toCome = this.weather.sampledHighAfterC(city, date, ms);
      // what the day's high was from that hour: the METAR high already reported (a whole degree) or the highest sample
      // still to come before rounding, whichever is higher; once the day is decided there is nothing left to miss
      const reported = this.weather.runningMaxC(city, date, ms) ?? Number.NEGATIVE_INFINITY;
      return {
        high: forecast.muC - Math.max(reported, toCome ?? Number.NEGATIVE_INFINITY),
        spreadC: forecast.spreadC,
      };
    });
  }
}

/** The half hour of the local day (0..47) that holds a fractional local hour. */
export const halfHourOf = (hour: number): number => Math.min(47, Math.max(0, Math.floor(hour * 2)));

/** The instant a half hour of a local day starts. */
export const halfHourInstant = (date: string, slot: number, tz: string): number =>
  instantAtLocal(date, Math.floor(slot / 2), (slot % 2) * 30, tz);

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Least squares of squared error on squared spread, kept to a variance that never falls with the spread nor below
 * zero: a negative slope (30 days can say so by chance) means the spread told nothing, so the mean square is used
 * throughout; a negative floor means it told everything, so the line goes through the origin.
 */
function errorSpread(days: readonly { squared: number; spread2: number }[]): ErrorSpread {
  if (days.length === 0) return { floorC2: 0, perSpread: 0 };
  const meanSquared = mean(days.map((d) => d.squared));
  const meanSpread2 = mean(days.map((d) => d.spread2));
  const covariance = mean(days.map((d) => (d.spread2 - meanSpread2) * (d.squared - meanSquared)));
  const variance = mean(days.map((d) => (d.spread2 - meanSpread2) ** 2));
  const perSpread = variance > 0 ? covariance / variance : 0;
  if (perSpread <= 0) return { floorC2: meanSquared, perSpread: 0 };
  const floorC2 = meanSquared - perSpread * meanSpread2;
  if (floorC2 >= 0) return { floorC2, perSpread };
  return {
    floorC2: 0,
    perSpread: mean(days.map((d) => d.squared * d.spread2)) / mean(days.map((d) => d.spread2 ** 2)),
  };
}
