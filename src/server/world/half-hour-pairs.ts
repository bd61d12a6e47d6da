import type { CityAsset } from '../../contract/assets.js';
import { SLOTS_A_DAY } from '../../domain/half-hour-slots.js';

/**
 * A memo of two numbers for each station and half hour of a local date (the desk's error and its models' spread at
 * that half hour; a reading's gap and the day's miss), in one Float64Array a date. The desk's record and its pacing
 * read 30 days of them for every half hour they are asked about, so the world keeps 90 to 120 days of them: as a
 * map's entry each (an object, two boxed numbers and a key) they were 12 MB of the world thread's heap; here, 16
 * bytes. Forgetting the days no window reaches (world.ts) drops whole arrays.
 */
export class HalfHourPairs<T> {
  private readonly days = new Map<string, Float64Array>();
  private readonly stations: Map<string, number>;

  /** `pack` and `unpack` turn a value into its two numbers and back: the value itself is not kept. */
  constructor(
    cities: readonly CityAsset[],
    private readonly pack: (value: T) => readonly [number, number],
    private readonly unpack: (first: number, second: number) => T,
  ) {
    this.stations = new Map(cities.map((city, i) => [city.city_id, i]));
  }

  /** The value for a station's half hour (0..47) of `date`, worked out and kept the first time. */
  remember(city: CityAsset, date: string, slot: number, compute: () => T): T {
    const station = this.stations.get(city.city_id);
    if (station === undefined) throw new Error(`${city.city_id} is not one of this memo's stations`);
    if (!(Number.isInteger(slot) && slot >= 0 && slot < SLOTS_A_DAY)) throw new RangeError(`half hour ${slot}`);
    let day = this.days.get(date);
    if (day === undefined) {
      // NaN: not worked out yet
      day = new Float64Array(this.stations.size * SLOTS_A_DAY * 2).fill(Number.NaN);
      this.days.set(date, day);
    }
    const i = (station * SLOTS_A_DAY + slot) * 2;
    if (!Number.isNaN(day[i] as number)) return this.unpack(day[i] as number, day[i + 1] as number);
    const value = compute();
    const [first, second] = this.pack(value);
    day[i] = first;
    day[i + 1] = second;
    return value;
  }

  /** Forgets every value of a date before `date` (ISO dates compare as text). */
  forgetBefore(date: string): void {
    for (const day of this.days.keys()) if (day < date) this.days.delete(day);
  }

  /** How many dates are kept. */
  get dates(): number {
    return this.days.size;
  }
}
