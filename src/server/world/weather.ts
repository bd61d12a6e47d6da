import type { CityAsset } from '../../contract/assets.js';
import { dayOfYear, instantAtLocal, localDate, localHour } from '../../domain/city-time.js';
import { HalfHourSlots, SLOTS_A_DAY } from '../../domain/half-hour-slots.js';
import { DayMemo, stationNumber } from './day-memo.js';
import { gaussian } from './noise.js';
import { dayAfter, dayBefore } from './skill-window.js';

const HALF_HOUR = 30 * 60_000;
const DAY_MS = SLOTS_A_DAY * HALF_HOUR;

/**
 * What no model sees, in degrees C (both ways, days of surprise and quiet days alike). `early`: an air mass warmer or
 * colder than the models had it, there from the start of the day (a little of it already in the night's low) and
 * shown by the morning's climb; `late`: what the afternoon brings (a day that clouds over, a warm push that beats
 * every model), which the readings show only from late morning to the peak.
 */
const SURPRISE = { early: 0.95, late: 0.8, lowShare: 0.5 } as const;
/**
 * Some days are quiet (a settled high, every model agrees), some unsettled (a front, models far apart, surprises
 * large): the day's surprises and the models' errors are scaled by a volatility exp(s g - s^2), whose mean square is
 * 1, so the world's overall uncertainty stays what `SURPRISE` and the models' errors say.
 */
const VOLATILITY_LOG_SD = 0.5;
/** The local hour the afternoon's surprise starts to show in the readings. */
const LATE_FROM_HOUR = 10;

/**
 * The weather that "really" happens: a seasonal daily high plus a persistent anomaly (what the models forecast, each
 * with its own error), the day's surprises no model sees, and a diurnal curve through each day's low (06:00) and high
 * (the city's peak hour). METAR reports it in whole degrees C every half hour, and the METAR high of the local day is
 * what markets settle on.
 */
/** What a local day holds before any reading: the modelled high, how unsettled it is, its surprises, its low. */
interface DayWeather {
  modelledHighC: number;
  volatility: number;
  earlyC: number;
  lateC: number;
  lowC: number;
}

/** A local day's half-hourly reports: what METAR sampled (before rounding) and the highs that follow from it. */
interface DayReports {
  /** Index of the day's first report slot (epoch half hours). */
  first: number;
  /** The METAR high so far, after each report. */
  runningMax: number[];
  /** The highest sample from each report to midnight, before rounding. */
  highestFrom: number[];
}

export class Weather {
  /** By local date and station. */
  private readonly days = new DayMemo<DayWeather>();
  private readonly reports = new DayMemo<DayReports>();
  /** Each city's samples by half-hour slot, the true temperature with its turbulence before rounding. */
  private readonly samples = new Map<string, HalfHourSlots>();

  /** Forgets the days before `date` (world.ts: once its windows no longer reach them), a day early for every zone. */
  forgetBefore(date: string): void {
    this.days.forgetBefore(date);
    this.reports.forgetBefore(date);
    const firstDay = Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS) - 1;
    for (const samples of this.samples.values()) samples.forgetBefore(firstDay);
  }

  constructor(private readonly seed: number) {}

  /** The day's high as the weather models see it (continuous, degrees C): the season and the anomaly, no surprise. */
  modelledHighC(city: CityAsset, date: string): number {
    return this.day(city, date).modelledHighC;
  }

  /** How unsettled the day is: scales its surprises and every model's error (mean square 1). */
  volatility(city: CityAsset, date: string): number {
    return this.day(city, date).volatility;
  }

  /** True temperature at an instant, with the half-hourly turbulence METAR sees. */
  temperatureC(city: CityAsset, ms: number): number {
    return this.sampleC(city, Math.floor(ms / HALF_HOUR), ms);
  }

  /** Whole-degree METAR reading for the half-hour slot holding `ms`. */
  metarC(city: CityAsset, ms: number): number {
    const slot = Math.floor(ms / HALF_HOUR);
    return Math.round(this.sampleC(city, slot, slot * HALF_HOUR));
  }

  /** The METAR high of the local day: what the day's market settles on. */
  metarMaxC(city: CityAsset, date: string): number {
    const { runningMax } = this.dayReports(city, date);
    return runningMax[runningMax.length - 1] as number;
  }

  /**
   * The highest temperature METAR will sample after an instant until the local day ends, before its rounding to whole
   * degrees; null after the day's last report. What a forecast of the rest of the day is measured against.
   */
  sampledHighAfterC(city: CityAsset, date: string, afterMs: number): number | null {
    const day = this.dayReports(city, date);
    return day.highestFrom[Math.max(0, Math.floor(afterMs / HALF_HOUR) + 1 - day.first)] ?? null;
  }

  /** The day's highest METAR sample before its rounding: what the day's high "really" was. */
  sampledHighC(city: CityAsset, date: string): number {
    return this.dayReports(city, date).highestFrom[0] as number;
  }

  /** METAR high of the local day up to an instant; null before the day's first report. */
  runningMaxC(city: CityAsset, date: string, uptoMs: number): number | null {
    const day = this.dayReports(city, date);
    const last = Math.min(day.runningMax.length - 1, Math.floor(uptoMs / HALF_HOUR) - day.first);
    return last < 0 ? null : (day.runningMax[last] as number);
  }

  private day(city: CityAsset, date: string): DayWeather {
    return this.days.remember(date, stationNumber(city.city_id), () => {
      const id = city.city_id;
      const { tmax_mean_c, tmax_amplitude_c, diurnal_range_c } = city.climate;
      const seasonal = tmax_mean_c + tmax_amplitude_c * Math.cos((2 * Math.PI * (dayOfYear(date) - 200)) / 365.25);
      const modelledHighC = seasonal + this.anomalyC(id, date);
      const s = VOLATILITY_LOG_SD;
      const volatility = Math.exp(s * gaussian(this.seed, 'volatility', id, date) - s * s);
      // the air mass no model saw lifts or lowers the whole day from the morning on; the afternoon's surprise shows
      // from late morning and peaks with the day
      const earlyC = SURPRISE.early * volatility * gaussian(this.seed, 'surprise-early', id, date);
      const lateC = SURPRISE.late * volatility * gaussian(this.seed, 'surprise-late', id, date);
      // the low at 06:00: the modelled high less the diurnal range (which varies more on an unsettled day), with a
      // little of the day's air mass in it
      const range = diurnal_range_c * (0.8 + 0.06 * volatility * gaussian(this.seed, 'range', id, date));
      return { modelledHighC, volatility, earlyC, lateC, lowC: modelledHighC + SURPRISE.lowShare * earlyC - range };
    });
  }

  /** The sample of a half-hour slot at `ms`; at the slot's start, where METAR reads it, it is kept (asked often). */
  private sampleC(city: CityAsset, slot: number, ms: number): number {
    const at = () =>
      this.curveC(city, localDate(ms, city.tz), localHour(ms, city.tz)) +
      0.3 * gaussian(this.seed, 'turb', city.city_id, slot);
    if (ms !== slot * HALF_HOUR) return at();
    let samples = this.samples.get(city.city_id);
    if (samples === undefined) {
      samples = new HalfHourSlots();
      this.samples.set(city.city_id, samples);
    }
    return samples.value(slot, at);
  }

  private dayReports(city: CityAsset, date: string): DayReports {
    return this.reports.remember(date, stationNumber(city.city_id), () => {
      const first = Math.ceil(instantAtLocal(date, 0, 0, city.tz) / HALF_HOUR);
      const end = instantAtLocal(dayAfter(date), 0, 0, city.tz);
      const samples: number[] = [];
      for (let slot = first; slot * HALF_HOUR < end; slot++) samples.push(this.sampleC(city, slot, slot * HALF_HOUR));
      const runningMax: number[] = [];
      samples.forEach((sample, i) => {
        runningMax.push(
          Math.max(Math.round(sample), i === 0 ? Number.NEGATIVE_INFINITY : (runningMax[i - 1] as number)),
        );
      });
      // running from the evening back, each slot holds the highest sample from it to midnight
      const highestFrom = [...samples];
      for (let i = highestFrom.length - 2; i >= 0; i--)
        highestFrom[i] = Math.max(highestFrom[i] as number, highestFrom[i + 1] as number);
      return { first, runningMax, highestFrom };
    });
  }

  /** How far the morning has climbed from the 06:00 low toward the peak (0..1): the diurnal curve's shape. */
  static rise(peakHour: number, hour: number): number {
    const share = Math.min(1, Math.max(0, (hour - 6) / (peakHour - 6)));
    return (1 - Math.cos(Math.PI * share)) / 2;
  }

  /** The diurnal curve of a local day for given low and high (degrees C), at a fractional local hour. */
  static diurnalC(low: number, high: number, nextLow: number, peakHour: number, hour: number): number {
    if (hour < peakHour) return low + (high - low) * Weather.rise(peakHour, hour);
    const fall = (hour - peakHour) / (30 - peakHour);
    return high - ((high - nextLow) * (1 - Math.cos(Math.PI * fall))) / 2;
  }

  /** How much of the afternoon's surprise the curve carries at a local hour of its day (0..1, 1 at the peak). */
  static lateShare(peakHour: number, hour: number): number {
    if (hour <= LATE_FROM_HOUR) return 0;
    if (hour < peakHour) return (1 - Math.cos((Math.PI * (hour - LATE_FROM_HOUR)) / (peakHour - LATE_FROM_HOUR))) / 2;
    return (1 + Math.cos(Math.PI * Math.min(1, (hour - peakHour) / (30 - peakHour)))) / 2;
  }

  private curveC(city: CityAsset, date: string, hour: number): number {
    if (hour < 6) return this.dayCurveC(city, dayBefore(date), hour + 24);
    return this.dayCurveC(city, date, hour);
  }

  /** A local day's curve from its 06:00 low (hours 6..30): the morning climbs to the high the air mass allows. */
  private dayCurveC(city: CityAsset, date: string, hour: number): number {
    const peak = city.climate.peak_hour;
    const day = this.day(city, date);
    const next = this.day(city, dayAfter(date));
    const base = Weather.diurnalC(day.lowC, day.modelledHighC + day.earlyC, next.lowC, peak, hour);
    return base + day.lateC * Weather.lateShare(peak, hour);
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
