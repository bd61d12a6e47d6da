import type { CityAsset } from '../../contract/assets.js';
import { instantAtLocal } from '../../domain/city-time.js';
import { round } from '../../domain/units.js';
import { DayMemo, memoKey, stationNumber } from './day-memo.js';
import type { Models } from './models.js';
import { dayBefore, daysBefore } from './skill-window.js';
import type { Weather } from './weather.js';

const DAY = 86_400_000;
const SIX_HOURS = 6 * 3_600_000;
/** The local hour of the day before that a venue lists a city's market (DESIGN 5: from 10:00 local the day before). */
export const LISTING_HOUR = 10;
/** A floor under the evening's doubt (degrees C): a day out, no forecast knows the high to better than this. */
const MIN_SIGMA_C = 0.5;

/** The instant a venue lists the market of `date`: 10:00 local the day before. */
export const listedAt = (city: CityAsset, date: string): number =>
  instantAtLocal(dayBefore(date), LISTING_HOUR, 0, city.tz);

/** What a trader believes of a day's high before the day begins: N(muC, sigmaC), degrees C. */
export interface DayAheadBelief {
  muC: number;
  sigmaC: number;
}

/**
 * Tomorrow's high as the venues' traders price it the evening before (DESIGN 5: a trader prices tomorrow in the
 * evening): the models' newest run blended by their skill, less the ensemble's 30-day bias (of the days already
 * settled: the day before's own high is still to come), and a doubt honest for that lead: the spread of the same
 * forecast's errors at the same lead over the 30 settled days before. A day out the models' errors are wider than at
 * midnight, and the doubt says so without a constant of its own. It changes with each run (every 6 h); the venue
 * adds its own noise (venue-pricing.ts).
 */
export class DayAheadView {
  /** By date and run and station. */
  private readonly beliefs = new DayMemo<DayAheadBelief>();

  constructor(
    private readonly weather: Weather,
    private readonly models: Models,
  ) {}

  /** Forgets the days before `date` (world.ts: once its windows no longer reach them). */
  forgetBefore(date: string): void {
    this.beliefs.forgetBefore(date);
  }

  /** The centre alone: where the venue lays a market's buckets when it lists it (market.ts). */
  centreC(city: CityAsset, date: string, ms: number): number {
    return this.models.ensembleC(city, date, ms) - this.models.ensembleBiasC(city, dayBefore(date));
  }

  /** The belief of the day `date` at an instant of the day before (from its listing to midnight). */
  at(city: CityAsset, date: string, ms: number): DayAheadBelief {
    const run = Math.floor(ms / SIX_HOURS);
    return this.beliefs.remember(date, memoKey(run, stationNumber(city.city_id)), () => {
      // the 30 days settled by then (the day before is not), each forecast from the run as far ahead of it
      let squares = 0;
      const settled = daysBefore(dayBefore(date));
      settled.forEach((day, i) => {
        const lead = (i + 2) * DAY;
        squares += (this.centreC(city, day, run * SIX_HOURS - lead) - this.weather.sampledHighC(city, day)) ** 2;
      });
      return {
        muC: round(this.centreC(city, date, ms), 2),
        sigmaC: round(Math.max(MIN_SIGMA_C, Math.sqrt(squares / settled.length)), 2),
      };
    });
  }
}
