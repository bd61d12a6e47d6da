import type { CityAsset } from '../../contract/assets.js';
import { addDays, dayOfYear, instantAtLocal, localDate, localHour } from '../../domain/city-time.js';
import { gaussian } from './noise.js';

const HALF_HOUR = 30 * 60_000;

/**
 * The weather that "really" happens: a seasonal daily high plus a persistent anomaly, and a diurnal curve through
 * each day's low (06:00) and high (the city's peak hour). METAR reports it in whole degrees C every half hour, and
 * the METAR high of the local day is what markets settle on.
 */
export class Weather {
  private readonly maxCache = new Map<string, number>();
  private readonly metarMaxCache = new Map<string, number>();
  private readonly readingCache = new Map<string, number>();
  private readonly sampledHighs = new Map<string, { first: number; fromSlot: number[] }>();

  constructor(private readonly seed: number) {}

  /** The day's true high, continuous, degrees C. */
  tmaxC(city: CityAsset, date: string): number {
    const key = `${city.city_id}|${date}`;
    const cached = this.maxCache.get(key);
    if (cached !== undefined) return cached;
    const { tmax_mean_c, tmax_amplitude_c } = city.climate;
    const seasonal = tmax_mean_c + tmax_amplitude_c * Math.cos((2 * Math.PI * (dayOfYear(date) - 200)) / 365.25);
    const value = seasonal + this.anomalyC(city.city_id, date);
    this.maxCache.set(key, value);
    return value;
  }

  tminC(city: CityAsset, date: string): number {
    return (
      this.tmaxC(city, date) -
      city.climate.diurnal_range_c * (0.8 + 0.1 * gaussian(this.seed, 'range', city.city_id, date))
    );
  }

  /** True temperature at an instant, with the half-hourly turbulence METAR sees. */
  temperatureC(city: CityAsset, ms: number): number {
    const date = localDate(ms, city.tz);
    const hour = localHour(ms, city.tz);
    const slot = Math.floor(ms / HALF_HOUR);
    return this.curveC(city, date, hour) + 0.3 * gaussian(this.seed, 'turb', city.city_id, slot);
  }

  /** Whole-degree METAR reading for the half-hour slot holding `ms`. */
  metarC(city: CityAsset, ms: number): number {
    const slot = Math.floor(ms / HALF_HOUR);
    const key = `${city.city_id}|${slot}`;
    let reading = this.readingCache.get(key);
    if (reading === undefined) {
      reading = Math.round(this.temperatureC(city, slot * HALF_HOUR));
      this.readingCache.set(key, reading);
    }
    return reading;
  }

  /** The METAR high of the local day: what the day's market settles on. */
  metarMaxC(city: CityAsset, date: string): number {
    const key = `${city.city_id}|${date}`;
    const cached = this.metarMaxCache.get(key);
    if (cached !== undefined) return cached;
    const value = this.runningMaxC(city, date, Number.POSITIVE_INFINITY) as number;
    this.metarMaxCache.set(key, value);
    return value;
  }

  /**
   * The highest temperature METAR will sample after an instant until the local day ends, before its rounding to whole
   * degrees; null after the day's last report. What a forecast of the rest of the day is measured against.
   */
  sampledHighAfterC(city: CityAsset, date: string, afterMs: number): number | null {
    const key = `${city.city_id}|${date}`;
    let day = this.sampledHighs.get(key);
    if (day === undefined) {
      day = { first: Math.ceil(instantAtLocal(date, 0, 0, city.tz) / HALF_HOUR), fromSlot: [] };
      const end = instantAtLocal(addDays(date, 1), 0, 0, city.tz);
      for (let t = day.first * HALF_HOUR; t < end; t += HALF_HOUR) day.fromSlot.push(this.temperatureC(city, t));
      // running from the evening back, each slot holds the highest sample from it to midnight
      for (let i = day.fromSlot.length - 2; i >= 0; i--)
        day.fromSlot[i] = Math.max(day.fromSlot[i] as number, day.fromSlot[i + 1] as number);
      this.sampledHighs.set(key, day);
    }
    const next = Math.max(0, Math.floor(afterMs / HALF_HOUR) + 1 - day.first);
    return day.fromSlot[next] ?? null;
  }

  /** METAR high of the local day up to an instant; null before the day's first report. */
  runningMaxC(city: CityAsset, date: string, uptoMs: number): number | null {
    const start = instantAtLocal(date, 0, 0, city.tz);
    const end = Math.min(instantAtLocal(addDays(date, 1), 0, 0, city.tz), uptoMs + 1);
    let max: number | null = null;
    for (let t = Math.ceil(start / HALF_HOUR) * HALF_HOUR; t < end; t += HALF_HOUR) {
      const reading = this.metarC(city, t);
      if (max === null || reading > max) max = reading;
    }
    return max;
  }

  /** The diurnal curve of a local day for given low and high (degrees C), at a fractional local hour. */
  static diurnalC(low: number, high: number, nextLow: number, peakHour: number, hour: number): number {
    if (hour < peakHour) {
      const rise = Math.min(1, Math.max(0, (hour - 6) / (peakHour - 6)));
      return low + ((high - low) * (1 - Math.cos(Math.PI * rise))) / 2;
    }
    const fall = (hour - peakHour) / (30 - peakHour);
    return high - ((high - nextLow) * (1 - Math.cos(Math.PI * fall))) / 2;
  }

  private curveC(city: CityAsset, date: string, hour: number): number {
    const peak = city.climate.peak_hour;
    if (hour < 6) {
      const prev = addDays(date, -1);
      return Weather.diurnalC(this.tminC(city, prev), this.tmaxC(city, prev), this.tminC(city, date), peak, hour + 24);
    }
    return Weather.diurnalC(
      this.tminC(city, date),
      this.tmaxC(city, date),
      this.tminC(city, addDays(date, 1)),
      peak,
      hour,
    );
  }

  /** Smooth multi-day anomaly (value noise on 4-day knots) plus a day-to-day wobble. */
  private anomalyC(cityId: string, date: string): number {
    const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
    const knot = Math.floor(day / 4);
    const frac = (day - knot * 4) / 4;
    const ease = (1 - Math.cos(Math.PI * frac)) / 2;
    const a = gaussian(this.seed, 'anom', cityId, knot);
    const b = gaussian(this.seed, 'anom', cityId, knot + 1);
    return 3 * (a + (b - a) * ease) + 1.2 * gaussian(this.seed, 'daily', cityId, day);
  }
}
