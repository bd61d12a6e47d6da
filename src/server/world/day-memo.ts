/**
 * A memo of the world's values by local date: one table a day, each value in it under a number made of its other
 * parts (a station, a model, a half hour, a run; memoKey). The world asks for the same values again and again (every
 * forecast reads the 30 days before it, four windows deep), and a 30-day demo keeps some 400,000 of them: keyed by
 * text (`tmax|gfs|nyc|2026-08-01|1785...`) the keys alone were 19 MB of the world thread's heap; a small integer key
 * costs nothing beside its value. Forgetting the days no window reaches (world.ts) drops whole tables.
 */
export class DayMemo<V> {
  private readonly days = new Map<string, Map<number, V>>();

  /** The value kept for `date` and `key`, worked out and kept the first time. */
  remember(date: string, key: number, compute: () => V): V {
    let day = this.days.get(date);
    if (day === undefined) {
      day = new Map();
      this.days.set(date, day);
    }
    const kept = day.get(key);
    if (kept !== undefined) return kept;
    const value = compute();
    day.set(key, value);
    return value;
  }

  /** Forgets every value of a date before `date` (ISO dates compare as text). */
  forgetBefore(date: string): void {
    for (const day of this.days.keys()) if (day < date) this.days.delete(day);
  }

  /** How many values are kept, over every date. */
  get size(): number {
    let n = 0;
    for (const day of this.days.values()) n += day.size;
    return n;
  }
}

/** The stations' ids as small numbers, in the order first asked: a key's parts (models and products have lists). */
const stationNumbers = new Map<string, number>();

/** A small number for a station's city id, the same for the life of the process. */
export function stationNumber(cityId: string): number {
  let n = stationNumbers.get(cityId);
  if (n === undefined) {
    n = stationNumbers.size;
    stationNumbers.set(cityId, n);
  }
  return n;
}

/** Each part after the first below this: 64 stations, models, products or half hours (a day has 48). */
const PART = 64;

/**
 * One number from a key's parts: the first any non-negative integer (a run's index of six hours since 1970 is about
 * 82,000), each other under 64. Under 2^31 for the keys the world makes, so V8 keeps it as a small integer.
 */
export function memoKey(first: number, ...rest: number[]): number {
  let key = first;
  for (const part of rest) {
    if (!(part >= 0 && part < PART && Number.isInteger(part)))
      throw new RangeError(`memo key part ${part} out of range`);
    key = key * PART + part;
  }
  return key;
}
