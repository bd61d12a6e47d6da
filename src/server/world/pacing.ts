import type { CityAsset } from '../../contract/assets.js';
import { DayMemo } from './day-memo.js';
import { HalfHourPairs } from './half-hour-pairs.js';
import { daysBefore } from './skill-window.js';

/**
 * What the desk read at one half hour of a past day: how far METAR ran from its curve, and how far the day's high then
 * ended from its ensemble.
 */
export interface PacingSample {
  gapC: number;
  missC: number;
}

/** How much a gap moves the forecast at one half hour: `interceptC + slope * gap`. */
export interface PacingFit {
  interceptC: number;
  slope: number;
}

interface Sums {
  n: number;
  gap: number;
  miss: number;
  gapSquares: number;
  products: number;
}

/**
 * The desk's pacing, learned: for each half hour of the local day, one least-squares line through the last 30 days of
 * every station's (gap of the readings from the expected curve at that half hour, miss of the day's high from the
 * bias-corrected ensemble). One line for all stations: the physics is the same, and 13 stations' days keep it steady
 * where one station's 30 would pass their noise on as overreaction. Its slope is taken within each station (a
 * station's habitual gap does not tilt it). In the night the gap says a little of the air mass; by late morning the
 * climb of the readings says most of it, and the afternoon's surprise is still to come. No constant is tuned to the
 * world: the desk learns what its readings are worth from its own past.
 */
export class LearnedPacing {
  private readonly samples: HalfHourPairs<PacingSample>;
  /** By date and half hour. */
  private readonly fits = new DayMemo<PacingFit>();

  /** `sampleAt` reads one past day at a half hour (its gap and its miss); called once per city, day and half hour. */
  constructor(
    private readonly cities: readonly CityAsset[],
    private readonly sampleAt: (city: CityAsset, date: string, slot: number) => PacingSample,
  ) {
    this.samples = new HalfHourPairs(
      cities,
      (s) => [s.gapC, s.missC],
      (gapC, missC) => ({ gapC, missC }),
    );
  }

  /** Forgets the days before `date` (world.ts: once its windows no longer reach them). */
  forgetBefore(date: string): void {
    this.samples.forgetBefore(date);
    this.fits.forgetBefore(date);
  }

  /** The line for `date` at a half hour of its local day (0..47), from the 30 days before it. */
  fitAt(date: string, slot: number): PacingFit {
    return this.fits.remember(date, slot, () => this.fitFrom(date, slot));
  }

  private fitFrom(date: string, slot: number): PacingFit {
    const all = { n: 0, gap: 0, miss: 0 };
    let covariance = 0;
    let variance = 0;
    for (const city of this.cities) {
      const s = this.stationSums(city, date, slot);
      all.n += s.n;
      all.gap += s.gap;
      all.miss += s.miss;
      // within the station: its own means taken out
      covariance += s.products - (s.gap * s.miss) / s.n;
      variance += s.gapSquares - (s.gap * s.gap) / s.n;
    }
    const slope = variance > 0 ? covariance / variance : 0;
    return { interceptC: (all.miss - slope * all.gap) / all.n, slope };
  }

  private stationSums(city: CityAsset, date: string, slot: number): Sums {
    const sums = { n: 0, gap: 0, miss: 0, gapSquares: 0, products: 0 };
    for (const day of daysBefore(date)) {
      const { gapC, missC } = this.sample(city, day, slot);
      sums.n++;
      sums.gap += gapC;
      sums.miss += missC;
      sums.gapSquares += gapC * gapC;
      sums.products += gapC * missC;
    }
    return sums;
  }

  private sample(city: CityAsset, date: string, slot: number): PacingSample {
    return this.samples.remember(city, date, slot, () => this.sampleAt(city, date, slot));
  }
}
